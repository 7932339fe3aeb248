// SPDX-License-Identifier: GPL-2.0
/* A fentry.s and a fexit program on a module function (sleeptest_mod). */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long entry_arg = -1;
long exit_ret = -1;
int calls;

SEC("fentry.s/sleeptest_mod_target")
int BPF_PROG(mod_entry, int len)
{
	require_sleepable();
	if (from_test(monitored_pid))
		entry_arg = len;
	return 0;
}

SEC("fexit/sleeptest_mod_target")
int BPF_PROG(mod_exit, int len, int ret)
{
	if (from_test(monitored_pid)) {
		exit_ret = ret;
		calls++;
	}
	return 0;
}
