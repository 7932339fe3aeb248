/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The narrow boundary between the BPF trampoline IR and the kernel.
 *
 * Everything the IR and its backends need from the rest of the kernel goes
 * through this header: the real structure definitions, the accessors the IR
 * uses on them, and the addresses of the functions a trampoline calls.  The
 * userspace conformance harness supplies its own header with the same
 * include guard and the same names (selftests/conformance/tramp_env.h) and
 * force-includes it, so this file is then skipped and the IR and backend
 * sources compile unchanged against mock structures.  Nothing else in the IR
 * or the backends may include a kernel header or test __KERNEL__.
 */
#ifndef TRAMP_ENV_H
#define TRAMP_ENV_H

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/errno.h>
#include <linux/filter.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#include "tramp_env_common.h"

/* Program properties the IR uses; no backend reads them. */
static inline bool tramp_env_prog_sleepable(const struct bpf_prog *p)
{
	return p->aux->sleepable;
}

static inline bool tramp_env_prog_check_recur(const struct bpf_prog *p)
{
	return bpf_prog_check_recur(p);
}

static inline bool tramp_env_prog_lsm_cgroup(const struct bpf_prog *p)
{
	return resolve_prog_type(p) == BPF_PROG_TYPE_LSM &&
	       p->expected_attach_type == BPF_LSM_CGROUP;
}

static inline void *tramp_env_prog_func(const struct bpf_prog *p)
{
	return (void *)p->bpf_func;
}

/* Whether the traced function is BPF code: a program or subprogram. */
static inline bool tramp_env_func_is_bpf(const void *func)
{
	return is_bpf_text_address((unsigned long)func);
}

static inline void *tramp_env_tramp_enter_fn(void)
{
	return (void *)__bpf_tramp_enter;
}

static inline void *tramp_env_tramp_exit_fn(void)
{
	return (void *)__bpf_tramp_exit;
}

static inline void *tramp_env_zalloc(size_t size)
{
	return kzalloc(size, GFP_KERNEL);
}

static inline void tramp_env_free(void *p)
{
	kfree(p);
}

#define tramp_env_err(fmt, ...)	pr_err("bpf trampoline: " fmt, ##__VA_ARGS__)

#endif /* TRAMP_ENV_H */
