/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What stock 6.1's x86-64 trampoline generator, cut out of the pristine
 * arch/x86/net/bpf_jit_comp.c by stock_extract.py, needs from the x86
 * headers, written for the conformance harness: the nop table, ENDBR, the
 * return thunk and SLS (as the shape being run sets them, where the
 * kernel has config options and CPU features).  The rest: stock_env.h.
 */
#ifndef STOCK_ENV_X86_64_H
#define STOCK_ENV_X86_64_H

#include "stock_env.h"

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
#define IS_ENABLED_CONFIG_SLS	tramp_env_sls()

#endif /* STOCK_ENV_X86_64_H */
