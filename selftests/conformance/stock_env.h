/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every architecture's stock 6.1 trampoline generator, cut out of the
 * pristine tree by stock_extract.py, needs from the kernel's generic
 * headers, written for the conformance harness: the BPF register numbers
 * and sizes, a few helpers, allocation, and the harness's mocks in place
 * of __bpf_tramp_enter/exit and the __bpf_prog_enter/exit family.  The
 * structures are tramp_env.h's, force-included as for the IR.
 */
#ifndef STOCK_ENV_H
#define STOCK_ENV_H

#include "conf_arch.h"

/* include/uapi/linux/bpf.h, bpf_common.h; include/linux/filter.h */
enum {
	BPF_REG_0, BPF_REG_1, BPF_REG_2, BPF_REG_3, BPF_REG_4, BPF_REG_5,
	BPF_REG_6, BPF_REG_7, BPF_REG_8, BPF_REG_9, BPF_REG_10, MAX_BPF_REG,
};
#define BPF_REG_FP	BPF_REG_10
#define BPF_REG_AX	MAX_BPF_REG
#define MAX_BPF_JIT_REG	(MAX_BPF_REG + 1)
#define BPF_W		0x00
#define BPF_H		0x08
#define BPF_B		0x10
#define BPF_DW		0x18

#define BIT(n)		(1UL << (n))
#define barrier()	__asm__ __volatile__("" : : : "memory")
#define min(a, b)	((a) < (b) ? (a) : (b))
#define round_up(x, y)	((((x) - 1) | ((y) - 1)) + 1)
#define PTR_ALIGN(p, a)	((__typeof__(p))(((unsigned long)(p) + (a) - 1) & \
					 ~((unsigned long)(a) - 1)))
#define GFP_KERNEL	0
#define kcalloc(n, size, gfp)	tramp_env_zalloc((n) * (size))
#define kfree(p)	tramp_env_free(p)
#define pr_err(...)	do {						\
		if (!conf_env_quiet)					\
			fprintf(stderr, "stock: " __VA_ARGS__);		\
	} while (0)
#define WARN_ON_ONCE(cond)	(!!(cond))

/* kernel/bpf/trampoline.c: the harness's mocks */
#define __bpf_tramp_enter	tramp_env_tramp_enter_fn()
#define __bpf_tramp_exit	tramp_env_tramp_exit_fn()
#define bpf_trampoline_enter(p)	tramp_env_enter_fn(conf_stock_kind(p))
#define bpf_trampoline_exit(p)	tramp_env_exit_fn(conf_stock_kind(p))

/* the shape's landing pads (IBT, BTI), for CONFIG_*_IBT/BTI_KERNEL */
#define IS_ENABLED(option)	IS_ENABLED_##option

#endif /* STOCK_ENV_H */
