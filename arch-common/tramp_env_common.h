/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of the trampoline IR's environment that is the same wherever the
 * IR is compiled.  tramp_env.h (kernel) and the conformance harness's mock
 * of it include this file after they have defined struct bpf_prog,
 * struct bpf_tramp_link, struct bpf_tramp_image and struct
 * bpf_tramp_run_ctx, so the kinds, the hooks the glue provides and the
 * accessors that only read those structures are spelled once.
 */
#ifndef TRAMP_ENV_COMMON_H
#define TRAMP_ENV_COMMON_H

/*
 * Kinds of program enter/exit pairs.  The IR maps each program to one of
 * these with the rules of 6.1's bpf_trampoline_enter()/exit(); the glue maps
 * a kind to the two functions' addresses.
 */
enum tramp_kind {
	TRAMP_KIND_NORMAL,		/* __bpf_prog_enter/exit */
	TRAMP_KIND_SLEEPABLE,		/* __bpf_prog_enter/exit_sleepable */
	TRAMP_KIND_RECUR,		/* __bpf_prog_enter/exit_recur */
	TRAMP_KIND_SLEEPABLE_RECUR,	/* __bpf_prog_enter/exit_sleepable_recur */
	TRAMP_KIND_LSM_CGROUP,		/* __bpf_prog_enter/exit_lsm_cgroup */
	TRAMP_KIND_NR,
};

/*
 * Defined in kernel/bpf/trampoline.c, where the enter/exit functions are
 * static: the address of kind @k's enter or exit function.
 */
void *tramp_env_enter_fn(enum tramp_kind k);
void *tramp_env_exit_fn(enum tramp_kind k);

/*
 * Defined by the architecture glue (next to arch_prepare_bpf_trampoline()):
 * whether emitted code must start with a CFI landing pad (x86 IBT ENDBR),
 * the return thunk to jump to instead of a plain return (NULL: plain
 * return), and whether returns need a speculation trap after them (SLS).
 * A backend that has none of these never calls them.
 */
bool tramp_env_cfi_landing_pad(void);
void *tramp_env_return_thunk(void);
bool tramp_env_sls(void);

/* Link properties the IR uses; no backend reads them. */
static inline struct bpf_prog *tramp_env_link_prog(const struct bpf_tramp_link *l)
{
	return l->link.prog;
}

static inline u64 tramp_env_link_cookie(const struct bpf_tramp_link *l)
{
	return l->cookie;
}

/* What the enter functions check; links no image outlives have no state. */
static inline const void *tramp_env_link_attach(const struct bpf_tramp_link *l)
{
	return l->attach ? l->attach : &bpf_tramp_attach_permanent;
}

static inline bool tramp_env_link_struct_ops(const struct bpf_tramp_link *l)
{
	return l->link.type == BPF_LINK_TYPE_STRUCT_OPS;
}

/* The interpreter needs the instructions as second argument. */
static inline const void *tramp_env_prog_insnsi(const struct bpf_prog *p)
{
	return p->jited ? NULL : p->insnsi;
}

/* Addresses bpf_tramp_image_put() uses to retire the image safely. */
static inline void tramp_env_set_image_ips(struct bpf_tramp_image *im,
					   void *ip_after_call,
					   void *ip_epilogue)
{
	im->ip_after_call = ip_after_call;
	im->ip_epilogue = ip_epilogue;
}

/*
 * The error for a trampoline shape an architecture cannot build.  The BPF
 * core and user space have always received the kernel-internal 524 for
 * it, so the IR keeps that value; this is its only spelling.
 */
#define TRAMP_E_UNSUPPORTED	ENOTSUPP

#define TRAMP_RUN_CTX_SIZE	sizeof(struct bpf_tramp_run_ctx)
#define TRAMP_RUN_CTX_COOKIE	offsetof(struct bpf_tramp_run_ctx, bpf_cookie)
#define TRAMP_RUN_CTX_ATTACH	offsetof(struct bpf_tramp_run_ctx, attach)

#endif /* TRAMP_ENV_COMMON_H */
