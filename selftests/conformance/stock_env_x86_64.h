/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What stock 6.1's x86-64 trampoline generator, cut out of the pristine
 * arch/x86/net/bpf_jit_comp.c by stock_extract.py, needs from the kernel,
 * written for the conformance harness: the BPF register numbers and
 * sizes, the nop table, ENDBR, the return thunk and SLS (as the shape
 * being run sets them, where the kernel has config options and CPU
 * features), allocation and the harness's mocks in place of
 * __bpf_tramp_enter/exit and the __bpf_prog_enter/exit family.
 * The structures are tramp_env.h's, force-included as for the IR.
 */
#ifndef STOCK_ENV_X86_64_H
#define STOCK_ENV_X86_64_H

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

/* arch/x86/include/asm/nops.h: the 64-bit nops, 1 to 8 bytes */
#define ASM_NOP_MAX	8
static const unsigned char *const x86_nops[ASM_NOP_MAX + 1] = {
	NULL,
	(const unsigned char *)"\x90",
	(const unsigned char *)"\x66\x90",
	(const unsigned char *)"\x0f\x1f\x00",
	(const unsigned char *)"\x0f\x1f\x40\x00",
	(const unsigned char *)"\x0f\x1f\x44\x00\x00",
	(const unsigned char *)"\x66\x0f\x1f\x44\x00\x00",
	(const unsigned char *)"\x0f\x1f\x80\x00\x00\x00\x00",
	(const unsigned char *)"\x0f\x1f\x84\x00\x00\x00\x00\x00",
};

/* arch/x86/include/asm/ibt.h: endbr64 is f3 0f 1e fa */
#define ENDBR_INSN_SIZE	4
static inline u32 gen_endbr(void)
{
	return 0xfa1e0ff3;
}

/* endbr64, endbr32 (bit 24 differs) or the poison a sealed one becomes */
static inline bool is_endbr(u32 val)
{
	return val == 0x001f0f66 || (val & ~0x01000000U) == gen_endbr();
}

/* CONFIG_X86_KERNEL_IBT, X86_FEATURE_RETHUNK and CONFIG_SLS: the shape's */
#define EMIT_ENDBR()	do {						\
		if (tramp_env_cfi_landing_pad())			\
			EMIT(gen_endbr(), 4);				\
	} while (0)
#define cpu_wants_rethunk()	(tramp_env_return_thunk() != NULL)
#define x86_return_thunk	tramp_env_return_thunk()
#define IS_ENABLED(option)	IS_ENABLED_##option
#define IS_ENABLED_CONFIG_SLS	tramp_env_sls()

/* kernel/bpf/trampoline.c: the harness's mocks */
#define __bpf_tramp_enter	tramp_env_tramp_enter_fn()
#define __bpf_tramp_exit	tramp_env_tramp_exit_fn()
#define bpf_trampoline_enter(p)	tramp_env_enter_fn(conf_stock_kind(p))
#define bpf_trampoline_exit(p)	tramp_env_exit_fn(conf_stock_kind(p))

#endif /* STOCK_ENV_X86_64_H */
