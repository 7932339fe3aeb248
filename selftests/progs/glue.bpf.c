// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf-glue's cases (selftests/glue.c).  One source for every
 * architecture reads a syscall's arguments and result through glue.bpf.h,
 * from trampoline programs and from kprobes on the function
 * glue_syscall_resolve() names; the cmp_* programs are the real attaches
 * glue_probe_attach_kind()'s answers are compared with; the fb_* ones are
 * a tool's two ways to count getpgid calls, fentry or the kprobe fallback.
 * Targets are set by the test.
 */
#include "common.h"
#include "glue_args.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long magic;			/* the first argument of the test's calls */

struct seen_args fentry_seen, fexit_seen, kprobe_seen, kretprobe_seen;
int kprobe_tid;			/* the test's call the kretprobe returns from */

long cmp_hits[6];		/* by enum glue_attach_kind */
long fb_hits;
long fb_arg;

/* Arguments 2 to 6 into r, with READ (a glue.bpf.h macro) */
#define READ_ARGS(r, READ) do {			\
	(r)->arg[1] = READ(ctx, 2);		\
	(r)->arg[2] = READ(ctx, 3);		\
	(r)->arg[3] = READ(ctx, 4);		\
	(r)->arg[4] = READ(ctx, 5);		\
	(r)->arg[5] = READ(ctx, 6);		\
} while (0)

/* mmap(addr, len, prot, flags, fd, off): six arguments */
SEC("fentry")
int BPF_PROG(args_fentry)
{
	long a1 = GLUE_SYSCALL_ARG(ctx, 1);

	if (!from_test(monitored_pid) || a1 != magic)
		return 0;
	fentry_seen.arg[0] = a1;
	READ_ARGS(&fentry_seen, GLUE_SYSCALL_ARG);
	fentry_seen.calls++;
	return 0;
}

SEC("fexit")
int BPF_PROG(args_fexit)
{
	long a1 = GLUE_SYSCALL_ARG(ctx, 1);

	if (!from_test(monitored_pid) || a1 != magic)
		return 0;
	fexit_seen.arg[0] = a1;
	READ_ARGS(&fexit_seen, GLUE_SYSCALL_ARG);
	fexit_seen.ret = GLUE_SYSCALL_RET(ctx, 6);
	fexit_seen.calls++;
	return 0;
}

SEC("kprobe")
int args_kprobe(struct pt_regs *ctx)
{
	long a1 = GLUE_KPROBE_SYSCALL_ARG(ctx, 1);

	if (!from_test(monitored_pid) || a1 != magic)
		return 0;
	kprobe_seen.arg[0] = a1;
	READ_ARGS(&kprobe_seen, GLUE_KPROBE_SYSCALL_ARG);
	kprobe_seen.calls++;
	kprobe_tid = (int)bpf_get_current_pid_tgid();
	return 0;
}

SEC("kretprobe")
int args_kretprobe(struct pt_regs *ctx)
{
	if (!from_test(monitored_pid) || !kprobe_tid ||
	    (int)bpf_get_current_pid_tgid() != kprobe_tid)
		return 0;
	kprobe_tid = 0;
	kretprobe_seen.ret = GLUE_KRETPROBE_RET(ctx);
	kretprobe_seen.calls++;
	return 0;
}

/* The probe's kinds, attached for real: targets as the probe's. */
SEC("fentry")
int BPF_PROG(cmp_fentry)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&cmp_hits[0], 1);
	return 0;
}

SEC("fentry.s")
int BPF_PROG(cmp_fentry_s)
{
	require_sleepable();
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&cmp_hits[1], 1);
	return 0;
}

SEC("lsm.s/bprm_committed_creds")
int BPF_PROG(cmp_lsm_s, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();

	require_sleepable();
	if (monitored_pid && task->real_parent->tgid == monitored_pid)
		__sync_fetch_and_add(&cmp_hits[2], 1);
	return 0;
}

SEC("fexit")
int BPF_PROG(cmp_fexit)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&cmp_hits[3], 1);
	return 0;
}

SEC("fmod_ret")
int BPF_PROG(cmp_fmod_ret)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&cmp_hits[4], 1);
	return 0;	/* the syscall runs as it would */
}

SEC("lsm/bprm_committed_creds")
int BPF_PROG(cmp_lsm, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (monitored_pid && task->real_parent->tgid == monitored_pid)
		__sync_fetch_and_add(&cmp_hits[5], 1);
	return 0;
}

/* A tool counting getpgid(magic) calls: fentry where it attaches ... */
SEC("fentry")
int BPF_PROG(fb_fentry)
{
	long pid = GLUE_SYSCALL_ARG(ctx, 1);

	if (from_test(monitored_pid) && pid == magic) {
		fb_arg = pid;
		__sync_fetch_and_add(&fb_hits, 1);
	}
	return 0;
}

/* ... a kprobe on the same function where it does not. */
SEC("kprobe")
int fb_kprobe(struct pt_regs *ctx)
{
	long pid = GLUE_KPROBE_SYSCALL_ARG(ctx, 1);

	if (from_test(monitored_pid) && pid == magic) {
		fb_arg = pid;
		__sync_fetch_and_add(&fb_hits, 1);
	}
	return 0;
}
