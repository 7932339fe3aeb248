/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpf-glue, BPF side: read a syscall's arguments and result in one
 * program source that runs on x86_64, arm64 and riscv64.
 *
 * Include after vmlinux.h; build with -D__TARGET_ARCH_x86, _arm64 or
 * _riscv, like libbpf's PT_REGS macros.  Attach the programs to the
 * function glue_syscall_resolve() (glue.h) names: on a 6.1 kernel
 *
 *   x86_64   __x64_sys_NAME(const struct pt_regs *regs)
 *   arm64    __arm64_sys_NAME(const struct pt_regs *regs)
 *   riscv64  __se_sys_NAME(long arg1, ..., long argN)
 *
 * so a trampoline program's ctx holds a pointer to the caller's registers
 * on the first two and the arguments themselves on riscv64, and a fexit's
 * return value sits after one parameter there, after N on riscv64.  The
 * verifier checks every ctx slot read against the target's BTF, so each
 * macro below reads only slots the target has.
 *
 * Trampoline programs (fentry, fexit, fmod_ret, sleepable or not):
 *   GLUE_SYSCALL_ARG(ctx, n)       argument n (1..6) of the syscall
 *   GLUE_SYSCALL_RET(ctx, nargs)   fexit, fmod_ret: the syscall's result;
 *                                  nargs: how many arguments it has
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

/*
 * Per architecture: where the syscall's arguments are in the caller's
 * struct pt_regs (the syscall ABI, not the C one: x86_64 passes the
 * fourth in r10; arm64 keeps the first in orig_x0, as x0 is the result
 * slot), the register a kprobe finds the wrapper's own argument in, and
 * the one a kretprobe finds the result in.
 */
#if defined(__TARGET_ARCH_x86)
#define GLUE_SYSCALL_TAKES_REGS 1
#define ___GLUE_SC_REG1 di
#define ___GLUE_SC_REG2 si
#define ___GLUE_SC_REG3 dx
#define ___GLUE_SC_REG4 r10
#define ___GLUE_SC_REG5 r8
#define ___GLUE_SC_REG6 r9
#define ___GLUE_WRAPPER_ARG di
#define ___GLUE_RET_REG ax
#elif defined(__TARGET_ARCH_arm64)
#define GLUE_SYSCALL_TAKES_REGS 1
#define ___GLUE_SC_REG1 orig_x0
#define ___GLUE_SC_REG2 regs[1]
#define ___GLUE_SC_REG3 regs[2]
#define ___GLUE_SC_REG4 regs[3]
#define ___GLUE_SC_REG5 regs[4]
#define ___GLUE_SC_REG6 regs[5]
#define ___GLUE_WRAPPER_ARG regs[0]
#define ___GLUE_RET_REG regs[0]
#elif defined(__TARGET_ARCH_riscv)
/* 6.1 riscv64 has no syscall wrappers: __se_sys_NAME takes a0..a5. */
#define GLUE_SYSCALL_TAKES_REGS 0
#define ___GLUE_SC_REG1 a0
#define ___GLUE_SC_REG2 a1
#define ___GLUE_SC_REG3 a2
#define ___GLUE_SC_REG4 a3
#define ___GLUE_SC_REG5 a4
#define ___GLUE_SC_REG6 a5
#define ___GLUE_RET_REG a0
#else
#error "libbpf-glue: build with -D__TARGET_ARCH_x86, _arm64 or _riscv"
#endif

#define ___GLUE_CAT(a, b) a##b
#define ___GLUE_SC_REG(n) ___GLUE_CAT(___GLUE_SC_REG, n)

#if GLUE_SYSCALL_TAKES_REGS

/* The caller's registers, read with CO-RE from the pointer. */
#define ___GLUE_REGS_ARG(regs, n)					\
	((long)BPF_CORE_READ((struct pt_regs *)(regs), ___GLUE_SC_REG(n)))

#define GLUE_SYSCALL_ARG(ctx, n)					\
	___GLUE_REGS_ARG((unsigned long)((unsigned long long *)(ctx))[0], n)

#define GLUE_SYSCALL_RET(ctx, nargs)					\
	((long)((unsigned long long *)(ctx))[1])

/* The wrapper's argument is the pointer; the syscall's are behind it. */
#define GLUE_KPROBE_SYSCALL_ARG(ctx, n)					\
	___GLUE_REGS_ARG(((struct pt_regs *)(ctx))->___GLUE_WRAPPER_ARG, n)

#else /* the syscall's arguments are the function's */

#define GLUE_SYSCALL_ARG(ctx, n)					\
	((long)((unsigned long long *)(ctx))[(n) - 1])

#define GLUE_SYSCALL_RET(ctx, nargs)					\
	((long)((unsigned long long *)(ctx))[nargs])

#define GLUE_KPROBE_SYSCALL_ARG(ctx, n)					\
	((long)((struct pt_regs *)(ctx))->___GLUE_SC_REG(n))

#endif

/* The same register on every kernel: read it through the kernel's type. */
#define GLUE_KRETPROBE_RET(ctx)						\
	((long)((struct pt_regs *)(ctx))->___GLUE_RET_REG)

#endif /* LIBBPF_GLUE_BPF_H */
