/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sleeping on the test's gate: a user page that userfaultfd holds back
 * until the test releases it.  Included by the objects whose sleepable
 * programs sleep for the lifetime cases; the test sets sleeper_tid and
 * gate_addr before the sleeper makes its call.
 */
#ifndef SLEEPTEST_PROGS_SLEEP_GATE_H
#define SLEEPTEST_PROGS_SLEEP_GATE_H

#include "lifetime.h"

int sleeper_tid;
__u64 gate_addr;

/* The sleeper's runs, per CPU: slot 0 before the sleep, 1 after. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} sides SEC(".maps");

static __always_inline void bump_side(__u32 side)
{
	__u64 *v = bpf_map_lookup_elem(&sides, &side);

	if (v)
		*v += 1;
}

/*
 * Sleep on the gate if the caller is the sleeper; 1 if it was.  Other
 * callers are counted in r->others when ours says they belong to the
 * test, and ignored otherwise.
 */
static __always_inline int sleep_on_gate(void *ctx, struct sleep_record *r,
					 long ret, int ours)
{
	__u64 value = 0xdeadbeefdeadbeefULL;

	if (!sleeper_tid || (int)bpf_get_current_pid_tgid() != sleeper_tid) {
		if (ours)
			__sync_fetch_and_add(&r->others, 1);
		return 0;
	}
	r->cpu_before = bpf_get_smp_processor_id();
	r->cookie_before = bpf_get_attach_cookie(ctx);
	bump_side(0);
	__sync_fetch_and_add(&r->entered, 1);
	r->copy_ret = bpf_copy_from_user(&value, sizeof(value),
					 (void *)gate_addr);
	r->cpu_after = bpf_get_smp_processor_id();
	r->cookie_after = bpf_get_attach_cookie(ctx);
	bump_side(1);
	r->value = value;
	r->fn_ret = ret;
	__sync_fetch_and_add(&r->calls, 1);
	return 1;
}

#endif
