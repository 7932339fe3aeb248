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

/* One program per kind; its number is the kind the test process arms. */
#define STACK_PROG(sec, name, kind, how)	\
SEC(sec)					\
int name(void *ctx)				\
{						\
	how(ctx, kind);				\
	return 0;				\
}

STACK_PROG("fentry", on_fentry, 0, record)
STACK_PROG("fentry.s", on_fentry_s, 1, record_stack)
STACK_PROG("fexit", on_fexit, 2, record)
STACK_PROG("fexit.s", on_fexit_s, 3, record_stack)
STACK_PROG("fmod_ret", on_fmod_ret, 4, record)
STACK_PROG("fmod_ret.s", on_fmod_ret_s, 5, record_stack)
STACK_PROG("lsm/bpf", on_lsm, 6, record)
STACK_PROG("lsm.s/bpf", on_lsm_s, 7, record_stack)
STACK_PROG("raw_tp/sys_enter", on_raw_tp, 8, record)
STACK_PROG("tp_btf/sys_enter", on_tp_btf, 9, record)
