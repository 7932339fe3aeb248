/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for arch-common/tramp_env.h, force-included (-include)
 * by the conformance harness build.  It uses the same include guard, so the
 * kernel version is skipped when tramp_ir.h includes it, and the IR and
 * backend sources compile unchanged against the mock structures below.  The
 * structures carry only the fields the IR's accessors need; the functions
 * declared here are the harness's mocks.  What does not depend on the build
 * (kinds, hooks, link and image accessors) comes from the kernel's own
 * arch-common/tramp_env_common.h, included once the structures exist.
 */
#ifndef TRAMP_ENV_H
#define TRAMP_ENV_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel-internal, not in libc's errno.h */
#endif

/* include/linux/bpf.h, 6.1 */
#define MAX_BPF_FUNC_ARGS		12
#define BTF_FMODEL_STRUCT_ARG		(1U << 0)
#define BPF_TRAMP_F_RESTORE_REGS	(1U << 0)
#define BPF_TRAMP_F_CALL_ORIG		(1U << 1)
#define BPF_TRAMP_F_SKIP_FRAME		(1U << 2)
#define BPF_TRAMP_F_IP_ARG		(1U << 3)
#define BPF_TRAMP_F_RET_FENTRY_RET	(1U << 4)
#define BPF_TRAMP_F_ORIG_STACK		(1U << 5)
#define BPF_TRAMP_F_SHARE_IPMODIFY	(1U << 6)
#define BPF_TRAMP_F_TAIL_CALL_CTX	(1U << 7)
#define BPF_MAX_TRAMP_LINKS		38

enum bpf_tramp_prog_type {
	BPF_TRAMP_FENTRY,
	BPF_TRAMP_FEXIT,
	BPF_TRAMP_MODIFY_RETURN,
	BPF_TRAMP_MAX,
	BPF_TRAMP_REPLACE,
};

struct btf_func_model {
	u8 ret_size;
	u8 nr_args;
	u8 arg_size[MAX_BPF_FUNC_ARGS];
	u8 arg_flags[MAX_BPF_FUNC_ARGS];
};

/* The mock program: what the kernel derives from type and aux, as flags. */
struct bpf_prog {
	bool sleepable;		/* prog->aux->sleepable */
	bool check_recur;	/* bpf_prog_check_recur(prog) */
	bool lsm_cgroup;	/* LSM program attached as BPF_LSM_CGROUP */
	bool jited;
	void *bpf_func;
	const void *insnsi;
	int idx;		/* harness: index in the shape */
};

#define BPF_LINK_TYPE_STRUCT_OPS	9

struct bpf_link {
	struct bpf_prog *prog;
	int type;		/* enum bpf_link_type */
};

struct bpf_tramp_attach {
	int refcnt;
	bool detached;
};

extern const struct bpf_tramp_attach bpf_tramp_attach_permanent;

struct bpf_tramp_link {
	struct bpf_link link;
	u64 cookie;
	struct bpf_tramp_attach *attach;
};

struct bpf_tramp_links {
	struct bpf_tramp_link *links[BPF_MAX_TRAMP_LINKS];
	int nr_links;
};

struct bpf_tramp_image {
	void *image;
	void *ip_after_call;
	void *ip_epilogue;
};

struct bpf_run_ctx {};

struct bpf_tramp_run_ctx {
	struct bpf_run_ctx run_ctx;
	u64 bpf_cookie;
	struct bpf_run_ctx *saved_run_ctx;
	const struct bpf_tramp_attach *attach;
};

#include "tramp_env_common.h"

/* Mocks in harness.c, with the hooks tramp_env_common.h declares. */
void *tramp_env_tramp_enter_fn(void);
void *tramp_env_tramp_exit_fn(void);
bool tramp_env_func_is_bpf(const void *func);
extern int conf_env_quiet;

static inline bool tramp_env_prog_sleepable(const struct bpf_prog *p)
{
	return p->sleepable;
}

static inline bool tramp_env_prog_check_recur(const struct bpf_prog *p)
{
	return p->check_recur;
}

static inline bool tramp_env_prog_lsm_cgroup(const struct bpf_prog *p)
{
	return p->lsm_cgroup;
}

static inline void *tramp_env_prog_func(const struct bpf_prog *p)
{
	return p->bpf_func;
}

/*
 * Allocation failures (harness.c): with conf_fail_nth at n, the n-th
 * allocation from then on fails and sets conf_fail_injected.
 * conf_live_allocs counts what is allocated and not yet freed.
 */
extern unsigned int conf_fail_nth;
extern bool conf_fail_injected;
extern long conf_live_allocs;

static inline void *tramp_env_zalloc(size_t size)
{
	void *p;

	if (conf_fail_nth && !--conf_fail_nth) {
		conf_fail_injected = true;
		return NULL;
	}
	p = calloc(1, size ? size : 1);
	if (p)
		conf_live_allocs++;
	return p;
}

static inline void tramp_env_free(void *p)
{
	if (p)
		conf_live_allocs--;
	free(p);
}

#define tramp_env_err(fmt, ...)						\
	do {								\
		if (!conf_env_quiet)					\
			fprintf(stderr, "bpf trampoline: " fmt, ##__VA_ARGS__); \
	} while (0)

#endif /* TRAMP_ENV_H */
