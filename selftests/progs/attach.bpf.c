// SPDX-License-Identifier: GPL-2.0
/* Attach-mechanism tests: programs on one syscall entry that only count
 * the calls made by the test process, so several mechanisms can share a
 * function and each be checked on its own.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long fentry_hits;
long fentry_s_hits;
long fexit_hits;
long kprobe_hits;
/* The highest preempt count a fentry.s run saw, the lowest a kprobe saw. */
long fentry_s_preempt_max;
long kprobe_preempt_min = -1;

#ifdef __TARGET_ARCH_x86
extern const int __preempt_count __ksym;

/* x86 keeps it per CPU, with an inverted need-resched bit on top. */
static __always_inline long preempt_count_now(void)
{
	return *(int *)bpf_this_cpu_ptr(&__preempt_count) & 0x7fffffff;
}
#else
/* arm64 and riscv64: in thread_info, the count in its low 32 bits. */
static __always_inline long preempt_count_now(void)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return (__u32)t->thread_info.preempt_count;
}
#endif

SEC("fentry")
int BPF_PROG(count_fentry)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fentry_hits, 1);
	return 0;
}

SEC("fentry.s")
int BPF_PROG(count_fentry_s)
{
	long pc = preempt_count_now();

	require_sleepable();
	if (from_test(monitored_pid)) {
		__sync_fetch_and_add(&fentry_s_hits, 1);
		if (pc > fentry_s_preempt_max)
			fentry_s_preempt_max = pc;
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

SEC("kprobe")
int count_kprobe(void *ctx)
{
	long pc = preempt_count_now();

	if (from_test(monitored_pid)) {
		__sync_fetch_and_add(&kprobe_hits, 1);
		if (kprobe_preempt_min < 0 || pc < kprobe_preempt_min)
			kprobe_preempt_min = pc;
	}
	return 0;
}
