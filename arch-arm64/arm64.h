/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 backend of the BPF trampoline IR: definitions shared by its files.
 *
 *   emit.c  encoders, one small pure function per instruction form
 *   abi.c   calling convention: argument registers, scratch and kept
 *           registers, the patched call site (x9 = the traced function's
 *           return address, x30 = the address after the BL)
 *   isel.c  lowering of each IR operation to encoder calls
 *   targ.c  the backend descriptor (struct tramp_target)
 */
#ifndef TRAMP_ARM64_H
#define TRAMP_ARM64_H

#include "tramp_ir.h"

/* Register numbers.  31 is SP as a base or ADD/SUB operand, XZR elsewhere. */
enum a64_reg {
	A64_X0, A64_X1, A64_X2, A64_X3, A64_X4, A64_X5, A64_X6, A64_X7,
	A64_X8, A64_X9, A64_X10, A64_X11, A64_X12, A64_X13, A64_X14, A64_X15,
	A64_X16, A64_X17, A64_X18, A64_X19, A64_X20, A64_X21, A64_X22, A64_X23,
	A64_X24, A64_X25, A64_X26, A64_X27, A64_X28, A64_FP, A64_LR,
	A64_SP = 31,
	A64_XZR = 31,
};

#define A64_INSN_SIZE	4
/* ip_after_call: one nop, what bpf_arch_text_poke() turns into a B */
#define A64_TRAMP_PATCH_SIZE	A64_INSN_SIZE

/* Operand ranges the encoders take (checked by the callers). */
#define A64_LDST_MAX	(4095 * 8)	/* LDR/STR unsigned scaled offset */
#define A64_ADDSUB_MAX	4095		/* ADD/SUB 12-bit immediate */
#define A64_CB_RANGE	0x100000	/* CBZ/CBNZ, LDR literal: +-1 MiB */
#define A64_B_RANGE	0x8000000	/* B/BL: +-128 MiB */

/* emit.c: each returns one instruction word; none looks at any state. */
u32 a64_nop(void);
u32 a64_bti_c(void);
u32 a64_bti_jc(void);
u32 a64_str(int rt, int rn, u32 off);
u32 a64_ldr(int rt, int rn, u32 off);
u32 a64_stp_pre(int rt, int rt2, int rn, s32 off);
u32 a64_ldp_post(int rt, int rt2, int rn, s32 off);
u32 a64_add_imm(int rd, int rn, u32 imm);
u32 a64_sub_imm(int rd, int rn, u32 imm);
u32 a64_mov(int rd, int rm);
u32 a64_mov_sp(int rd, int rn);
u32 a64_movz(int rd, u16 imm, int shift);
u32 a64_movn(int rd, u16 imm, int shift);
u32 a64_movk(int rd, u16 imm, int shift);
u32 a64_adr(int rd, s32 off);
u32 a64_ldr_lit(int rt, s32 off);
u32 a64_br(int rn);
u32 a64_blr(int rn);
u32 a64_ret(int rn);
u32 a64_cbz(int rt, s32 off);
u32 a64_cbnz(int rt, s32 off);
u32 a64_b(s32 off);
u32 a64_bl(s32 off);

/* abi.c */
extern const int a64_arg_regs[8];
#define A64_RET		A64_X0	/* return register */
#define A64_PARENT_LR	A64_X9	/* patched call site: the caller's LR */
#define A64_SCRATCH	A64_X10	/* clobbered freely, as in stock */
/* enter's result lives in the frame, in the backend's slot 0 */
#define A64_KEPT_SLOT	0
#define A64_FB		A64_FP	/* frame base of the IR's frame layout */

/* isel.c: one lowering per IR opcode (TRAMP_OP_LABEL has none) */
int a64_op_prologue(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_save_tcc(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_restore_tcc(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_store_imm(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_save_args(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_load_args(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_call(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_call_orig(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_store_ret(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_load_ret(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_branch(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_align(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_patch_site(struct tramp_ctx *c, const struct tramp_op *op);
int a64_op_epilogue(struct tramp_ctx *c, const struct tramp_op *op);

/* targ.c */
extern const struct tramp_target tramp_target_arm64;

#endif /* TRAMP_ARM64_H */
