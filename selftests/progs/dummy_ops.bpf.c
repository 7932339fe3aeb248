// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_dummy_ops members run through test_run: what a struct_ops
 * trampoline hands a program (narrow and signed arguments) and what it
 * hands back (every int the member can return).
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int got_a1;
unsigned short got_a2;
char got_a3;
unsigned long got_a4;
int ret_bias;

SEC("struct_ops/test_1")
int BPF_PROG(dummy_test_1, struct bpf_dummy_ops_state *state)
{
	return state ? state->val : -1;
}

SEC("struct_ops/test_2")
int BPF_PROG(dummy_test_2, struct bpf_dummy_ops_state *state, int a1,
	     unsigned short a2, char a3, unsigned long a4)
{
	got_a1 = a1;
	got_a2 = a2;
	got_a3 = a3;
	got_a4 = a4;
	return a1 + ret_bias;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_ops = {
	.test_1 = (void *)dummy_test_1,
	.test_2 = (void *)dummy_test_2,
};
