/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpf-glue, user space side: what a tool needs to run one BPF object on
 * x86_64, arm64 and riscv64 kernels.
 *
 *  - Syscall entry points for fentry/fexit/fmod_ret (and kprobes): the name
 *    of the function a syscall enters through differs per architecture and
 *    kernel, and so does what it takes.  On 6.1:
 *      x86_64   __x64_sys_NAME(const struct pt_regs *regs)
 *      arm64    __arm64_sys_NAME(const struct pt_regs *regs)
 *      riscv64  __se_sys_NAME(long arg1, long arg2, ...)  (no wrappers)
 *    A syscall without arguments differs again: x86_64's __x64_sys_NAME is
 *    then only an alias of __do_sys_NAME, which BTF and ftrace know under
 *    the latter name; riscv64 has sys_NAME(void).  glue_syscall_resolve()
 *    finds the function in the running kernel's BTF and says which way it
 *    takes its arguments; glue.bpf.h reads them on the BPF side.
 *
 *  - glue_probe_attach_kinds(): whether fentry, fentry.s and lsm.s
 *    programs attach on the running kernel, and the errno if not, so a
 *    tool can fall back to kprobes (stock 6.1 arm64 and riscv64 load such
 *    programs but fail every attach to a kernel function with -524,
 *    ENOTSUPP).
 *
 * Link with libbpf.  Nothing here keeps state between calls.
 */
#ifndef LIBBPF_GLUE_H
#define LIBBPF_GLUE_H

#include <stdbool.h>
#include <linux/types.h>

struct btf;

/*
 * The compile-time architecture's choice, used first when resolving and
 * alone when the kernel has no BTF.  GLUE_SYSCALL_TAKES_REGS matches the
 * BPF side's (glue.bpf.h) for objects built for the same architecture.
 */
#if defined(__x86_64__)
#define GLUE_SYSCALL_PREFIX "__x64_sys_"
#define GLUE_SYSCALL_TAKES_REGS 1
#elif defined(__aarch64__)
#define GLUE_SYSCALL_PREFIX "__arm64_sys_"
#define GLUE_SYSCALL_TAKES_REGS 1
#elif defined(__riscv) && __riscv_xlen == 64
#define GLUE_SYSCALL_PREFIX "__se_sys_"
#define GLUE_SYSCALL_TAKES_REGS 0
#else
#error "libbpf-glue: add this architecture's syscall entry prefix"
#endif

#define GLUE_NAME_MAX 64

struct glue_syscall {
	char fn[GLUE_NAME_MAX];	/* the function to attach to */
	__u32 btf_id;		/* its BTF_KIND_FUNC in vmlinux BTF; 0: guessed */
	int nr_params;		/* its parameters per BTF; -1: guessed */
	bool regs;		/* takes struct pt_regs *, not the arguments */
};

/*
 * Resolve syscall @name ("getpgid", without any prefix) to the function
 * its calls enter through, looked up in @vmlinux (vmlinux BTF; NULL: the
 * running kernel's, loaded and freed here).  Candidates, first found wins:
 * the compile-time architecture's prefix, the other architectures'
 * wrapper prefixes, "__se_sys_", "sys_", "__do_sys_".
 *
 * Returns 0 and fills @sc from BTF; otherwise fills @sc with the
 * compile-time guess (GLUE_SYSCALL_PREFIX name, btf_id 0, nr_params -1),
 * still usable by name, e.g. for a kprobe, and returns -ENOENT if BTF has
 * no candidate, -ENAMETOOLONG, or the error of loading BTF.
 */
int glue_syscall_resolve(const struct btf *vmlinux, const char *name,
			 struct glue_syscall *sc);

/*
 * The name ftrace's set_ftrace_filter and enabled_functions use for kernel
 * function @fn (a BTF name, e.g. from glue_syscall_resolve()): the first
 * alias /proc/kallsyms lists at its address, "sys_getpgid" for riscv64
 * 6.1's "__se_sys_getpgid", @fn itself for most functions.  Returns 0, or
 * -ENOENT (not a vmlinux symbol: a module's function, named as given, or
 * none) with @fn copied to @buf, -EPERM if kallsyms hides addresses, or
 * -ENAMETOOLONG.
 */
int glue_ftrace_name(const char *fn, char *buf, size_t len);

/* The trampoline attach kinds glue_probe_attach_kinds() tries. */
enum glue_attach_kind {
	GLUE_FENTRY,		/* fentry on a syscall entry */
	GLUE_FENTRY_S,		/* fentry.s (BPF_F_SLEEPABLE) on the same */
	GLUE_LSM_S,		/* lsm.s on bprm_committed_creds */
	GLUE_NR_ATTACH_KINDS,
};

#define GLUE_KIND_BIT(kind) (1U << (kind))

/* Where a probe stopped. */
enum glue_stage {
	GLUE_STAGE_DONE,	/* attached, then detached: the kind works */
	GLUE_STAGE_TARGET,	/* no vmlinux BTF, or no target function in it */
	GLUE_STAGE_LOAD,	/* BPF_PROG_LOAD failed */
	GLUE_STAGE_ATTACH,	/* loaded, the attach failed */
};

struct glue_attach_result {
	int err;			/* 0 if the kind works, else -errno */
	enum glue_stage stage;
	char target[GLUE_NAME_MAX];	/* the kernel function tried */
	char detail[128];		/* a refused load: the verifier's reason */
};

struct glue_attach_support {
	struct glue_attach_result kind[GLUE_NR_ATTACH_KINDS];
};

/*
 * Load a program of @kind made of "r0 = 0; exit" against the running
 * kernel's BTF (@vmlinux, or NULL to load it here), attach it with
 * BPF_LINK_CREATE (BPF_RAW_TRACEPOINT_OPEN where the kernel has no tracing
 * links), and close everything again.  Fills @res; returns res->err.
 * Needs the privileges a real attach needs (CAP_BPF and CAP_PERFMON, or
 * CAP_SYS_ADMIN); without them the answer is that error.
 */
int glue_probe_attach_kind(enum glue_attach_kind kind,
			   const struct btf *vmlinux,
			   struct glue_attach_result *res);

/*
 * Every kind: fills @sup and returns the set that works, as
 * GLUE_KIND_BIT()s.  On a stock 6.1 arm64 or riscv64 kernel that is 0 and
 * each kind says -524 (ENOTSUPP) at GLUE_STAGE_ATTACH.
 */
unsigned int glue_probe_attach_kinds(struct glue_attach_support *sup);

const char *glue_attach_kind_name(enum glue_attach_kind kind);
const char *glue_stage_name(enum glue_stage stage);

#endif /* LIBBPF_GLUE_H */
