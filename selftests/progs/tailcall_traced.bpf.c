// SPDX-License-Identifier: GPL-2.0
/*
 * A tc program that calls a subprogram which tail-calls the program
 * again, until 6.1's limit of 33 tail calls stops the chain: 34 runs of
 * the program.  fentry and fexit on the subprogram (a trampoline with
 * the tail call counter in it, BPF_TRAMP_F_TAIL_CALL_CTX) must keep that
 * limit: a trampoline that loses the counter lets the chain run on.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} jmp_table SEC(".maps");

__u32 entries;

static __noinline int sub_tail(struct __sk_buff *skb)
{
	bpf_tail_call_static(skb, &jmp_table, 0);
	/* reached once the limit stops the chain */
	return 7;
}

SEC("tc")
int tail_entry(struct __sk_buff *skb)
{
	entries++;
	return sub_tail(skb);
}

__u32 fentry_runs, fexit_runs;
int fexit_ret;

SEC("fentry/sub_tail")
int BPF_PROG(on_sub_tail_entry, struct __sk_buff *skb)
{
	fentry_runs++;
	return 0;
}

SEC("fexit/sub_tail")
int BPF_PROG(on_sub_tail_exit, struct __sk_buff *skb, int ret)
{
	fexit_ret = ret;
	fexit_runs++;
	return 0;
}
