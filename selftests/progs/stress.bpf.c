// SPDX-License-Identifier: GPL-2.0
/*
 * Attach/detach stress on two functions (getpgid and getsid, targets set
 * by the test).  Each of the test's two churn threads owns a fentry, a
 * fexit and a fmod_ret program per function, which it attaches and
 * detaches in turn; a sleepable fentry.s per function stays attached and
 * sleeps on every 50th call from the test, on one of the gate pages the
 * test serves after 10 ms.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

#define SLEEP_EVERY 50

int monitored_pid;
__u64 gate_base;
__u64 gate_pages;		/* the ring of gate pages, set by the test */
__u64 page_size;
long churned_runs;		/* runs of the churned programs */
__u64 sleepable_calls[2];	/* per function */
__u64 sleeps;			/* copies from a gate page begun */
__u64 slept;			/* of those, the ones that took 5 ms or more */
long sleeping;			/* begun and not yet returned */
long copy_failures;

static __always_inline int sleep_sometimes(int fn)
{
	__u64 value, page, t;

	if (!from_test(monitored_pid))
		return 0;
	if (__sync_fetch_and_add(&sleepable_calls[fn], 1) % SLEEP_EVERY !=
	    SLEEP_EVERY - 1)
		return 0;
	__sync_fetch_and_add(&sleeping, 1);
	page = __sync_fetch_and_add(&sleeps, 1) % gate_pages;
	t = bpf_ktime_get_ns();
	if (bpf_copy_from_user(&value, sizeof(value),
			       (void *)(gate_base + page * page_size)))
		__sync_fetch_and_add(&copy_failures, 1);
	/* the test serves a fault after 10 ms */
	if (bpf_ktime_get_ns() - t >= 5000000)
		__sync_fetch_and_add(&slept, 1);
	__sync_fetch_and_add(&sleeping, -1);
	return 0;
}

SEC("fentry.s")
int BPF_PROG(sleep_fn0)
{
	return sleep_sometimes(0);
}

SEC("fentry.s")
int BPF_PROG(sleep_fn1)
{
	return sleep_sometimes(1);
}

static __always_inline int churned(void)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&churned_runs, 1);
	return 0;
}

/* Thread t's programs on function f; fmod_ret returns 0, so the
 * original always runs.
 */
#define CHURNED(t, f)						\
SEC("fentry")							\
int BPF_PROG(fentry_t##t##_f##f) { return churned(); }		\
SEC("fexit")							\
int BPF_PROG(fexit_t##t##_f##f) { return churned(); }		\
SEC("fmod_ret")							\
int BPF_PROG(fmod_ret_t##t##_f##f) { return churned(); }

CHURNED(0, 0)
CHURNED(0, 1)
CHURNED(1, 0)
CHURNED(1, 1)
