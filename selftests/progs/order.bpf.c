// SPDX-License-Identifier: GPL-2.0
/* Case d: a sleepable and a non-sleepable fentry program, and a fexit
 * program, on the same function.  Each records when it ran.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
int clock;
int seen_sleepable = -1;
int seen_normal = -1;
int seen_exit = -1;
/* The sleepable program reads this test address with a helper only a
 * sleepable program may call, so it cannot pass without the flag.
 */
__u64 user_addr;
__u64 user_value;

SEC("fentry.s")
int BPF_PROG(entry_sleepable)
{
	if (!from_test(monitored_pid))
		return 0;
	seen_sleepable = __sync_fetch_and_add(&clock, 1);
	bpf_copy_from_user(&user_value, sizeof(user_value), (void *)user_addr);
	return 0;
}

SEC("fentry")
int BPF_PROG(entry_normal)
{
	if (from_test(monitored_pid))
		seen_normal = __sync_fetch_and_add(&clock, 1);
	return 0;
}

SEC("fexit")
int BPF_PROG(exit_normal)
{
	if (from_test(monitored_pid))
		seen_exit = __sync_fetch_and_add(&clock, 1);
	return 0;
}
