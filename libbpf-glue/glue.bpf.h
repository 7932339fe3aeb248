/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * libbpf-glue, BPF side: read a syscall's arguments and result in one
 * program source that runs on x86_64, arm64 and riscv64.
 *
 * Include after vmlinux.h and <bpf/bpf_helpers.h>; build with
 * -D__TARGET_ARCH_x86, _arm64 or _riscv, like libbpf's PT_REGS macros.
 * Attach the programs to the function glue_syscall_resolve() (glue.h)
 * names, and set glue_syscall_takes_regs (below) from what it found:
 *
 *   x86_64   __x64_sys_NAME(const struct pt_regs *regs)
 *   arm64    __arm64_sys_NAME(const struct pt_regs *regs)
 *   riscv64  __se_sys_NAME(long arg1, ..., long argN)   6.1 to 6.5
 *            __riscv_sys_NAME(const struct pt_regs *regs)  6.6 and later
 *
 * so a trampoline program's first argument is a pointer to the caller's
 * registers with wrappers, and the syscall's arguments are the function's
 * own without.
 *
 * Trampoline programs (fentry, fexit, fmod_ret, sleepable or not):
 *   GLUE_SYSCALL_ARG(ctx, n)       argument n (1..6) of the syscall
 *   GLUE_SYSCALL_RET(ctx, nargs)   fexit, fmod_ret: the syscall's result
 *                                  (nargs, how many arguments it has, is
 *                                  no longer used: the kernel knows)
 * kprobes on the same function (the fallback where trampolines fail):
 *   GLUE_KPROBE_SYSCALL_ARG(ctx, n)
 *   GLUE_KRETPROBE_RET(ctx)        a kretprobe's: the syscall's result
 *
 * Use them inside BPF_PROG(name) without declared arguments (ctx is the
 * raw u64 array there) or in a program taking unsigned long long *ctx.
 */
#ifndef LIBBPF_GLUE_BPF_H
#define LIBBPF_GLUE_BPF_H

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

/*
 * Per architecture: where the syscall's arguments are in the caller's
 * struct pt_regs when the entry function is a wrapper (the syscall ABI,
 * not the C one: x86_64 passes the fourth in r10; arm64 and riscv64 keep
 * the first in orig_x0/orig_a0, as x0/a0 is the result slot), where they
 * are when it takes them as C arguments (what a kprobe on such a function
 * reads), the register a kprobe finds a wrapper's own argument in, and
 * the one a kretprobe finds the result in.  GLUE_SYSCALL_TAKES_REGS_6_1
 * is what 6.1 does on the architecture.
 */
#if defined(__TARGET_ARCH_x86)
#define GLUE_SYSCALL_TAKES_REGS_6_1 1
#define ___GLUE_SC_REG1 di
#define ___GLUE_SC_REG2 si
#define ___GLUE_SC_REG3 dx
#define ___GLUE_SC_REG4 r10
#define ___GLUE_SC_REG5 r8
#define ___GLUE_SC_REG6 r9
#define ___GLUE_CC_REG1 di
#define ___GLUE_CC_REG2 si
#define ___GLUE_CC_REG3 dx
#define ___GLUE_CC_REG4 cx
#define ___GLUE_CC_REG5 r8
#define ___GLUE_CC_REG6 r9
#define ___GLUE_WRAPPER_ARG di
#define ___GLUE_RET_REG ax
#elif defined(__TARGET_ARCH_arm64)
#define GLUE_SYSCALL_TAKES_REGS_6_1 1
#define ___GLUE_SC_REG1 orig_x0
#define ___GLUE_SC_REG2 regs[1]
#define ___GLUE_SC_REG3 regs[2]
#define ___GLUE_SC_REG4 regs[3]
#define ___GLUE_SC_REG5 regs[4]
#define ___GLUE_SC_REG6 regs[5]
#define ___GLUE_CC_REG1 regs[0]
#define ___GLUE_CC_REG2 regs[1]
#define ___GLUE_CC_REG3 regs[2]
#define ___GLUE_CC_REG4 regs[3]
#define ___GLUE_CC_REG5 regs[4]
#define ___GLUE_CC_REG6 regs[5]
#define ___GLUE_WRAPPER_ARG regs[0]
#define ___GLUE_RET_REG regs[0]
#elif defined(__TARGET_ARCH_riscv)
/* 6.1 has no riscv64 syscall wrappers; 6.6 added __riscv_sys_NAME. */
#define GLUE_SYSCALL_TAKES_REGS_6_1 0
#define ___GLUE_SC_REG1 orig_a0
#define ___GLUE_SC_REG2 a1
#define ___GLUE_SC_REG3 a2
#define ___GLUE_SC_REG4 a3
#define ___GLUE_SC_REG5 a4
#define ___GLUE_SC_REG6 a5
#define ___GLUE_CC_REG1 a0
#define ___GLUE_CC_REG2 a1
#define ___GLUE_CC_REG3 a2
#define ___GLUE_CC_REG4 a3
#define ___GLUE_CC_REG5 a4
#define ___GLUE_CC_REG6 a5
#define ___GLUE_WRAPPER_ARG a0
#define ___GLUE_RET_REG a0
#else
#error "libbpf-glue: build with -D__TARGET_ARCH_x86, _arm64 or _riscv"
#endif

/*
 * Whether the syscall entry functions take the caller's struct pt_regs *:
 * a property of the running kernel, set by user space before the object
 * is loaded, from glue_syscall_resolve()'s sc.regs:
 *
 *	skel->rodata->glue_syscall_takes_regs = sc.regs;
 *
 * A read-only global is a known constant to the verifier once the object
 * is loaded, so it checks only the branch each macro takes.  Left as it
 * is, it says what 6.1 does on the target architecture.
 */
const volatile bool glue_syscall_takes_regs __weak =
	GLUE_SYSCALL_TAKES_REGS_6_1;

#define ___GLUE_CAT(a, b) a##b
#define ___GLUE_SC_REG(n) ___GLUE_CAT(___GLUE_SC_REG, n)
#define ___GLUE_CC_REG(n) ___GLUE_CAT(___GLUE_CC_REG, n)

/*
 * Slots of a trampoline program's ctx through the helpers, which check
 * the index when the program runs: the compiler may merge the two sides
 * of a ?: into one access at a computed offset, which the verifier
 * refuses for a direct ctx read.
 */
#define ___GLUE_FUNC_ARG(ctx, i) ({					\
	__u64 ___v = 0;							\
	bpf_get_func_arg(ctx, i, &___v);				\
	___v; })

/* A syscall argument in the caller's registers, read with CO-RE. */
#define ___GLUE_REGS_ARG(regs, n)					\
	((long)BPF_CORE_READ((struct pt_regs *)(regs), ___GLUE_SC_REG(n)))

#define GLUE_SYSCALL_ARG(ctx, n)					\
	(glue_syscall_takes_regs ?					\
	 ___GLUE_REGS_ARG(___GLUE_FUNC_ARG(ctx, 0), n) :		\
	 (long)___GLUE_FUNC_ARG(ctx, (n) - 1))

/* The kernel knows where the result is; nargs is not needed any more. */
#define GLUE_SYSCALL_RET(ctx, nargs) ({					\
	__u64 ___r = 0;							\
	bpf_get_func_ret(ctx, &___r);					\
	(long)___r; })

/*
 * A wrapper's argument is the pointer; the syscall's are behind it.  (One
 * CO-RE read per statement: the compiler cannot nest them.)
 */
#define GLUE_KPROBE_SYSCALL_ARG(ctx, n) ({				\
	long ___a;							\
	if (glue_syscall_takes_regs) {					\
		unsigned long ___regs = BPF_CORE_READ(			\
			(struct pt_regs *)(ctx), ___GLUE_WRAPPER_ARG);	\
		___a = ___GLUE_REGS_ARG(___regs, n);			\
	} else {							\
		___a = BPF_CORE_READ((struct pt_regs *)(ctx),		\
				     ___GLUE_CC_REG(n));		\
	}								\
	___a; })

/* The same register on every kernel: read it through the kernel's type. */
#define GLUE_KRETPROBE_RET(ctx)						\
	((long)((struct pt_regs *)(ctx))->___GLUE_RET_REG)

#endif /* LIBBPF_GLUE_BPF_H */
