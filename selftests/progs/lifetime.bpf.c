// SPDX-License-Identifier: GPL-2.0
/* Lifetime of sleeping programs.  When the calling thread is the test's
 * sleeper, each sleepable program here copies 8 bytes from gate_addr, a
 * user page that userfaultfd holds back until the test releases it, so it
 * sleeps for as long as the test wants.  The test process's other calls
 * are only counted.  All attach to the setdomainname syscall entry.
 */
#include "common.h"
#include "lifetime.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
int sleeper_tid;
__u64 gate_addr;
long forced_ret;		/* fmod_ret.s: 0 lets the original run */

struct sleep_record fentry_s_rec, fexit_s_rec, fmod_ret_s_rec;

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
long fentry_hits, fexit_hits, fmod_ret_hits;
__u64 fentry_cookie;		/* count_fentry's, on its last run */

/* Sleep on the gate if the caller is the sleeper; 1 if it was. */
static __always_inline int sleep_on_gate(void *ctx, struct sleep_record *r,
					 long ret)
{
	__u64 value = 0xdeadbeefdeadbeefULL;

	if (!from_test(monitored_pid))
		return 0;
	if (!sleeper_tid || (int)bpf_get_current_pid_tgid() != sleeper_tid) {
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

SEC("fentry.s")
int BPF_PROG(sleep_fentry_s)
{
	sleep_on_gate(ctx, &fentry_s_rec, 0);
	return 0;
}

SEC("fexit.s")
int BPF_PROG(sleep_fexit_s, struct pt_regs *regs, long ret)
{
	sleep_on_gate(ctx, &fexit_s_rec, ret);
	return 0;
}

SEC("fmod_ret.s")
int BPF_PROG(sleep_fmod_ret_s, struct pt_regs *regs, long ret)
{
	return sleep_on_gate(ctx, &fmod_ret_s_rec, ret) ? forced_ret : 0;
}

/* Plain programs, attached and detached around the sleeper. */
SEC("fentry")
int BPF_PROG(count_fentry)
{
	if (from_test(monitored_pid)) {
		fentry_cookie = bpf_get_attach_cookie(ctx);
		__sync_fetch_and_add(&fentry_hits, 1);
	}
	return 0;
}

SEC("fexit")
int BPF_PROG(count_fexit)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fexit_hits, 1);
	return 0;
}

/* Returns 0: the original runs. */
SEC("fmod_ret")
int BPF_PROG(count_fmod_ret)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fmod_ret_hits, 1);
	return 0;
}
