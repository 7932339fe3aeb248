// SPDX-License-Identifier: GPL-2.0
/* fexit on the module's target while the function graph tracer runs. */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long calls;
long ret_sum;
long arg_sum;

SEC("fexit/sleeptest_mod_target")
int BPF_PROG(graph_exit, int len, int ret)
{
	if (from_test(monitored_pid)) {
		calls++;
		arg_sum += len;
		ret_sum += ret;
	}
	return 0;
}
