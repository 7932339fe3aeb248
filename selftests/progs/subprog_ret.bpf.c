// SPDX-License-Identifier: GPL-2.0
/*
 * BPF functions as trampoline targets: an XDP program calls subprograms
 * that return a 64-bit value, a u32 with its top bit set (as a u32 and as
 * a u64) and a negative int, and checks in BPF what each call returned.
 * The tracer programs below, loaded separately against the XDP program,
 * put fentry and fexit on the subprograms and on the program itself and
 * record what they see.  A trampoline must not change what a BPF caller
 * gets: riscv64's JIT returns R0 to a BPF caller in a5, not a0.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

/* The argument, set by user space (64): nothing the compiler can fold. */
__u64 input;
/* What the caller got from each subprogram, as a 64-bit register. */
__u64 got_wide, got_wide_static, got_top, got_u32;
__s64 got_neg;
/* One bit per check the caller made that failed; runs of the caller. */
__u32 caller_bad;
__u32 caller_runs;
/* Every bit any run has set in caller_bad, from every CPU. */
__u32 caller_bad_any;

__noinline __u64 sub_wide(__u64 x)
{
	return x << 32 | 1;
}

/* static: the verifier tracks its exact result into the caller */
static __noinline __u64 sub_wide_static(__u64 x)
{
	return x << 32 | 2;
}

__noinline __u64 sub_top(__u64 x)
{
	return x | 0x80000000ULL;
}

__noinline __u32 sub_u32(__u32 x)
{
	return x | 0x80000000U;
}

__noinline int sub_neg(int x)
{
	return -x - 100;
}

/*
 * Returns input (64) from R0's high half of sub_wide(), so a caller that
 * loses the high half returns 0.
 */
SEC("xdp")
int subprog_caller(struct xdp_md *ctx)
{
	__u64 n = input;
	__u32 bad = 0;

	got_wide = sub_wide(n);
	got_wide_static = sub_wide_static(n);
	got_top = sub_top(n);
	got_u32 = sub_u32(n);
	got_neg = sub_neg(n);
	if (got_wide != (n << 32 | 1))
		bad |= 1;
	if (got_wide_static != (n << 32 | 2))
		bad |= 2;
	if (got_top != (n | 0x80000000ULL))
		bad |= 4;
	if (got_u32 != (n | 0x80000000ULL))
		bad |= 8;
	if (got_neg != -(__s64)n - 100)
		bad |= 16;
	caller_bad = bad;
	if (bad)
		__sync_fetch_and_or(&caller_bad_any, bad);
	caller_runs++;
	return got_wide >> 32;
}

/* The tracer's records: what fentry/fexit saw, and how often each ran. */
__u64 seen_arg, seen_wide, seen_wide_static, seen_top, seen_u32;
__s64 seen_neg, seen_caller_ret;
__u32 fentry_runs, fexit_runs;

SEC("fentry/sub_wide")
int BPF_PROG(entry_wide, __u64 x)
{
	seen_arg = x;
	fentry_runs++;
	return 0;
}

SEC("fexit/sub_wide")
int BPF_PROG(exit_wide, __u64 x, __u64 ret)
{
	seen_wide = ret;
	fexit_runs++;
	return 0;
}

SEC("fexit/sub_wide_static")
int BPF_PROG(exit_wide_static, __u64 x, __u64 ret)
{
	seen_wide_static = ret;
	fexit_runs++;
	return 0;
}

SEC("fexit/sub_top")
int BPF_PROG(exit_top, __u64 x, __u64 ret)
{
	seen_top = ret;
	fexit_runs++;
	return 0;
}

SEC("fexit/sub_u32")
int BPF_PROG(exit_u32, __u32 x, __u32 ret)
{
	seen_u32 = ret;
	fexit_runs++;
	return 0;
}

SEC("fexit/sub_neg")
int BPF_PROG(exit_neg, int x, int ret)
{
	seen_neg = ret;
	fexit_runs++;
	return 0;
}

SEC("fentry/subprog_caller")
int BPF_PROG(entry_caller, struct xdp_md *xdp)
{
	fentry_runs++;
	return 0;
}

SEC("fexit/subprog_caller")
int BPF_PROG(exit_caller, struct xdp_md *xdp, int ret)
{
	seen_caller_ret = ret;
	fexit_runs++;
	return 0;
}
