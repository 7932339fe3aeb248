/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What stock 6.1's arm64 trampoline generator and the instruction
 * encoders it uses, cut out of the pristine tree by stock_extract.py,
 * need from the arm64 and generic headers, written for the conformance
 * harness.  The rest: stock_env.h.
 */
#ifndef STOCK_ENV_ARM64_H
#define STOCK_ENV_ARM64_H

#include "stock_env.h"

typedef u32 __le32;
#define cpu_to_le32(x)		(x)	/* the harness runs little-endian */
#define le32_to_cpu(x)		(x)
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define __kprobes
#define BUILD_BUG_ON(cond)	((void)sizeof(char[1 - 2 * !!(cond)]))
#define SZ_4K			0x00001000
#define SZ_64K			0x00010000
#define SZ_1M			0x00100000
#define SZ_2M			0x00200000
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (63 - (h))))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define pr_info(...)		pr_err(__VA_ARGS__)
#define max(a, b)		((a) > (b) ? (a) : (b))
#define round_down(x, y)	((x) & ~((__typeof__(x))((y) - 1)))
#define fls64(x)		((x) ? 64 - __builtin_clzll(x) : 0)
#define flush_icache_range(start, end)	\
	__builtin___clear_cache((char *)(start), (char *)(end))

/* CONFIG_ARM64_BTI_KERNEL: the shape's */
#define IS_ENABLED_CONFIG_ARM64_BTI_KERNEL	tramp_env_cfi_landing_pad()

/*
 * The one change to stock's code: emit_addr_mov_i64() builds an address
 * with a fixed movn/movk/movk, which leaves bits 48-63 set, as they are
 * for every kernel address; the harness's mocks are user addresses, so
 * the oracle moves them with stock's general emit_a64_mov_i64() instead.
 * Both passes of arch_prepare_bpf_trampoline() still count the same
 * instructions.
 */
#define emit_addr_mov_i64	emit_a64_mov_i64

#endif /* STOCK_ENV_ARM64_H */
