// SPDX-License-Identifier: GPL-2.0
/* Trampoline churn: four kinds of program on one syscall entry.  The test
 * loads the object once, then, round after round, loads a new copy of one
 * of the programs from its final instructions, attaches it, waits until it
 * runs, detaches and frees it.  The copies count in this object's hits,
 * one counter per kind (the test's churn_kinds[] order).
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long hits[4];

SEC("fentry")
int BPF_PROG(churn_fentry)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&hits[0], 1);
	return 0;
}

SEC("fexit")
int BPF_PROG(churn_fexit)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&hits[1], 1);
	return 0;
}

/* Returns 0: the original function runs and its result is kept. */
SEC("fmod_ret")
int BPF_PROG(churn_fmod_ret)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&hits[2], 1);
	return 0;
}

SEC("fentry.s")
int BPF_PROG(churn_fentry_s)
{
	require_sleepable();
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&hits[3], 1);
	return 0;
}
