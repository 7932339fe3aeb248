/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64 backend of the BPF trampoline IR: definitions shared by its
 * files.
 *
 *   emit.c  encoders, one small pure function per instruction form
 *   abi.c   calling convention: argument, scratch and tail call counter
 *           registers, the patched call site (t0 = the traced function's
 *           body, ra = its caller's return address)
 *   isel.c  lowering of each IR operation to encoder calls
 *   targ.c  the backend descriptor (struct tramp_target)
 */
#ifndef TRAMP_RISCV64_H
#define TRAMP_RISCV64_H

#include "tramp_ir.h"

/* Integer register numbers (x0-x31) by their ABI names. */
enum rv_reg {
	RV_ZERO, RV_RA, RV_SP, RV_GP, RV_TP, RV_T0, RV_T1, RV_T2,
	RV_FP, RV_S1, RV_A0, RV_A1, RV_A2, RV_A3, RV_A4, RV_A5,
	RV_A6, RV_A7, RV_S2, RV_S3, RV_S4, RV_S5, RV_S6, RV_S7,
	RV_S8, RV_S9, RV_S10, RV_S11, RV_T3, RV_T4, RV_T5, RV_T6,
};

#define RV_INSN_SIZE	4
/* ip_after_call: one nop, what bpf_arch_text_poke() turns into a JAL */
#define RV_TRAMP_PATCH_SIZE	RV_INSN_SIZE

/* Operand ranges the encoders take (checked by the callers). */
#define RV_IMM12_MIN	(-2048)		/* I/S-type immediates */
#define RV_IMM12_MAX	2047
#define RV_B_RANGE	0x1000		/* BEQ/BNE: +-4 KiB */
#define RV_J_RANGE	0x100000	/* JAL: +-1 MiB */

/* emit.c: each returns one instruction word; none looks at any state. */
u32 rv_addi(int rd, int rs1, s32 imm);
u32 rv_addiw(int rd, int rs1, s32 imm);
u32 rv_nop(void);
u32 rv_mv(int rd, int rs1);
u32 rv_ld(int rd, int rs1, s32 off);
u32 rv_sd(int rs2, int rs1, s32 off);
u32 rv_lui(int rd, u32 imm20);
u32 rv_auipc(int rd, u32 imm20);
u32 rv_jalr(int rd, int rs1, s32 off);
u32 rv_jal(int rd, s32 off);
u32 rv_beq(int rs1, int rs2, s32 off);
u32 rv_bne(int rs1, int rs2, s32 off);
bool rv_split_pcrel(s64 off, u32 *hi20, s32 *lo12);

/* abi.c */
extern const int rv_arg_regs[8];
#define RV_RET		RV_A0	/* return register */
#define RV_BPF_RET	RV_A5	/* 6.1 JIT: R0, returned to a BPF caller */
#define RV_BODY		RV_T0	/* patched call site: the traced body */
#define RV_SCRATCH	RV_T1	/* clobbered freely */
#define RV_TCC		RV_A6	/* 6.1 JIT's tail call counter */
/* enter's result lives in the frame, in the backend's slot 0 */
#define RV_KEPT_SLOT	0

/* isel.c: one lowering per IR opcode (TRAMP_OP_LABEL has none) */
int rv_op_prologue(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_save_tcc(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_restore_tcc(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_store_imm(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_save_args(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_load_args(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_call(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_call_orig(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_store_ret(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_load_ret(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_branch(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_align(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_patch_site(struct tramp_ctx *c, const struct tramp_op *op);
int rv_op_epilogue(struct tramp_ctx *c, const struct tramp_op *op);

/* targ.c */
extern const struct tramp_target tramp_target_riscv64;

#endif /* TRAMP_RISCV64_H */
