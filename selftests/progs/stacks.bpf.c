// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_get_stackid() (normal programs) and bpf_get_stack() from every
 * kind of tracing program, with the skip the test process chose: one
 * program per kind, each recording only while its kind is armed.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

#define STACK_FRAMES 32

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	/* PERF_MAX_STACK_DEPTH frames, as the tools size theirs */
	__uint(value_size, 127 * sizeof(__u64));
	__uint(max_entries, 64);
} stack_ids SEC(".maps");

int monitored_pid;
int armed_kind = -1;
int skip;

int runs;
long stackid;
long stack_bytes;
__u64 stack[STACK_FRAMES];

/* Sleepable programs may not use stack trace maps: bpf_get_stack() only. */
static __always_inline void record_stack(void *ctx, int kind)
{
	if (armed_kind != kind || !from_test(monitored_pid))
		return;
	stack_bytes = bpf_get_stack(ctx, stack, sizeof(stack), skip & 0xff);
	runs++;
}

static __always_inline void record(void *ctx, int kind)
{
	if (armed_kind != kind || !from_test(monitored_pid))
		return;
	stackid = bpf_get_stackid(ctx, &stack_ids, skip & 0xff);
	record_stack(ctx, kind);
}

SEC("fentry")
int BPF_PROG(on_fentry)
{
	record(ctx, 0);
	return 0;
}

SEC("fentry.s")
int BPF_PROG(on_fentry_s)
{
	record_stack(ctx, 1);
	return 0;
}

SEC("fexit")
int BPF_PROG(on_fexit)
{
	record(ctx, 2);
	return 0;
}

SEC("fexit.s")
int BPF_PROG(on_fexit_s)
{
	record_stack(ctx, 3);
	return 0;
}

SEC("fmod_ret")
int BPF_PROG(on_fmod_ret)
{
	record(ctx, 4);
	return 0;
}

SEC("fmod_ret.s")
int BPF_PROG(on_fmod_ret_s)
{
	record_stack(ctx, 5);
	return 0;
}

SEC("lsm/bpf")
int BPF_PROG(on_lsm, int cmd, union bpf_attr *attr, unsigned int size)
{
	record(ctx, 6);
	return 0;
}

SEC("lsm.s/bpf")
int BPF_PROG(on_lsm_s, int cmd, union bpf_attr *attr, unsigned int size)
{
	record_stack(ctx, 7);
	return 0;
}

SEC("raw_tp/sys_enter")
int on_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	record(ctx, 8);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_tp_btf, struct pt_regs *regs, long id)
{
	record(ctx, 9);
	return 0;
}
