/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
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
 *  - glue_probe_attach(): whether a fentry, fexit, fmod_ret or lsm
 *    program, sleepable or not, attaches to the function a tool wants on
 *    the running kernel, and the errno and reason if not, so the tool can
 *    fall back to kprobes (stock 6.1 arm64 and riscv64 load such programs
 *    but fail every attach to a kernel function with -524, ENOTSUPP).
 *
 * Link with libbpf (pkg-config --libs libbpf-glue).  Nothing here keeps
 * state between calls.  Reference: libbpf-glue/README.md.
 */
#ifndef LIBBPF_GLUE_H
#define LIBBPF_GLUE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* The library's version: MINOR grows with additions, MAJOR on a change
 * that breaks callers (the shared library's soname follows MAJOR).
 */
#define GLUE_VERSION_MAJOR 1
#define GLUE_VERSION_MINOR 0

#ifdef __cplusplus
extern "C" {
#endif

struct btf;

/*
 * What 6.1 does on the compile-time architecture: the guess
 * glue_syscall_resolve() falls back to when the kernel has no BTF (riscv64
 * gained __riscv_sys_ wrappers taking struct pt_regs * in 6.6, so there
 * the running kernel's BTF decides).  GLUE_SYSCALL_TAKES_REGS is the BPF
 * side's default for glue_syscall_takes_regs (glue.bpf.h).
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
 * the wrappers taking struct pt_regs * ("__x64_sys_", "__arm64_sys_",
 * "__riscv_sys_"), then "__se_sys_", "sys_", "__do_sys_".  sc.regs is
 * what a BPF object's glue_syscall_takes_regs (glue.bpf.h) must be set to.
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

/* The trampoline attach kinds a probe tries. */
enum glue_attach_kind {
	GLUE_FENTRY,		/* fentry */
	GLUE_FENTRY_S,		/* fentry.s (BPF_F_SLEEPABLE) */
	GLUE_LSM_S,		/* lsm.s */
	GLUE_FEXIT,		/* fexit */
	GLUE_FMOD_RET,		/* fmod_ret */
	GLUE_LSM,		/* lsm */
	GLUE_NR_ATTACH_KINDS,
};

#define GLUE_KIND_BIT(kind) (1U << (kind))

/* Where a probe stopped. */
enum glue_stage {
	GLUE_STAGE_DONE,	/* attached, then detached: the kind works */
	GLUE_STAGE_TARGET,	/* no BTF, or no such function or hook in it */
	GLUE_STAGE_LOAD,	/* BPF_PROG_LOAD failed: see detail */
	GLUE_STAGE_ATTACH,	/* loaded, the attach failed */
	GLUE_STAGE_INACTIVE,	/* an lsm kind while the BPF LSM is not
				 * active: it would attach and never run */
};

struct glue_attach_result {
	int err;			/* 0 if the kind works, else -errno */
	enum glue_stage stage;
	char target[GLUE_NAME_MAX];	/* the kernel function tried */
	char module[GLUE_NAME_MAX];	/* its module; "" for vmlinux */
	char detail[128];		/* why, where the kernel said more:
					 * the verifier's reason for a
					 * refused load, the active LSMs */
};

struct glue_attach_support {
	struct glue_attach_result kind[GLUE_NR_ATTACH_KINDS];
};

/*
 * Does a program of @kind attach to @function (a BTF function name; for
 * the lsm kinds a hook, "file_open" or "bpf_lsm_file_open") in @module
 * (NULL or "": vmlinux) on the running kernel?  Loads a program made of
 * "r0 = 0; exit" against the kernel's BTF, attaches it with
 * bpf_link_create() (libbpf falls back to BPF_RAW_TRACEPOINT_OPEN on
 * kernels without tracing links) and closes everything again, so the
 * answer is the kernel's own, with the errno a tool would get.  @function
 * NULL probes the default target: the getpgid syscall's entry function
 * (glue_syscall_resolve()) for the tracing kinds, bprm_committed_creds
 * for the lsm ones.
 *
 * The lsm kinds first read the active LSMs from
 * /sys/kernel/security/lsm: without "bpf" there, an lsm program attaches
 * but never runs, and the probe says -EOPNOTSUPP at GLUE_STAGE_INACTIVE.
 * (If that file cannot be read, the probe goes on and says so in detail.)
 *
 * Fills @res and returns res->err.  Needs the privileges a real attach
 * needs (CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN); without them the
 * answer is that error, at GLUE_STAGE_LOAD.
 */
int glue_probe_attach(enum glue_attach_kind kind, const char *function,
		      const char *module, struct glue_attach_result *res);

/*
 * glue_probe_attach() of @kind on the default target, with @vmlinux (NULL:
 * loaded here) as the kernel's BTF.
 */
int glue_probe_attach_kind(enum glue_attach_kind kind,
			   const struct btf *vmlinux,
			   struct glue_attach_result *res);

/*
 * Every kind on the default targets: fills @sup and returns the set that
 * works, as GLUE_KIND_BIT()s.  On a stock 6.1 arm64 or riscv64 kernel that
 * is 0 and each kind says -524 (ENOTSUPP) at GLUE_STAGE_ATTACH.
 */
unsigned int glue_probe_attach_kinds(struct glue_attach_support *sup);

/* "fentry", "fentry.s", ... as in the section names; NULL if no kind. */
const char *glue_attach_kind_name(enum glue_attach_kind kind);
/* The kind called @name, or -1. */
int glue_attach_kind_by_name(const char *name);
/* "works", "target", "load", "attach", "inactive". */
const char *glue_stage_name(enum glue_stage stage);

#ifdef __cplusplus
}
#endif

#endif /* LIBBPF_GLUE_H */
