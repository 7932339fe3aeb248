// SPDX-License-Identifier: GPL-2.0
/* Attach-mechanism tests: programs on one syscall entry that only count
 * the calls made by the test process, so several mechanisms can share a
 * function and each be checked on its own.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long fentry_hits;
long fentry_s_hits;
long fexit_hits;
long kprobe_hits;

SEC("fentry")
int BPF_PROG(count_fentry)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fentry_hits, 1);
	return 0;
}

SEC("fentry.s")
int BPF_PROG(count_fentry_s)
{
	require_sleepable();
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fentry_s_hits, 1);
	return 0;
}

SEC("fexit")
int BPF_PROG(count_fexit)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fexit_hits, 1);
	return 0;
}

SEC("kprobe")
int count_kprobe(void *ctx)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&kprobe_hits, 1);
	return 0;
}
