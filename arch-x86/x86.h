/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 backend of the BPF trampoline IR: definitions shared by its files.
 *
 *   emit.c  encoders, one small pure function per instruction form
 *   abi.c   calling convention: argument registers, scratch and kept
 *           registers, where the traced function's body starts
 *   isel.c  lowering of each IR operation to encoder calls
 *   targ.c  the backend descriptor (struct tramp_target)
 */
#ifndef TRAMP_X86_H
#define TRAMP_X86_H

#include "tramp_ir.h"

/* Hardware register numbers: the low three bits go in ModRM, bit 3 in REX. */
enum x86_reg {
	X86_RAX, X86_RCX, X86_RDX, X86_RBX, X86_RSP, X86_RBP, X86_RSI, X86_RDI,
	X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15,
};

/* Condition codes, the low nibble of Jcc. */
enum x86_cc {
	X86_CC_E = 0x4,		/* equal / zero */
	X86_CC_NE = 0x5,	/* not equal / not zero */
};

/* Longest instruction an encoder writes (movabs). */
#define X86_MAX_INSN	16
/* Size of a call/jmp rel32, and of the patchable nop at ip_after_call. */
#define X86_TRAMP_PATCH_SIZE	5
#define X86_ENDBR_SIZE	4

/* emit.c: each writes one instruction at p and returns its length. */
int x86_endbr64(u8 *p);
int x86_push(u8 *p, int reg);
int x86_pop(u8 *p, int reg);
int x86_mov_rr(u8 *p, int dst, int src);
int x86_mov32_ri(u8 *p, int dst, u32 imm);
int x86_mov_ri_sx(u8 *p, int dst, s32 imm);
int x86_movabs(u8 *p, int dst, u64 imm);
int x86_store(u8 *p, int base, s32 disp, int src);
int x86_load(u8 *p, int dst, int base, s32 disp);
int x86_store_imm(u8 *p, int base, s32 disp, s32 imm);
int x86_lea(u8 *p, int dst, int base, s32 disp);
int x86_sub_ri(u8 *p, int reg, s32 imm);
int x86_add_ri(u8 *p, int reg, s32 imm);
int x86_test_rr(u8 *p, int a, int b);
int x86_cmp_mi8(u8 *p, int base, s32 disp, s8 imm);
int x86_call_rel(u8 *p, const u8 *ip, const void *target);
int x86_jmp_rel(u8 *p, const u8 *ip, const void *target);
int x86_call_r(u8 *p, int reg);
int x86_jcc8(u8 *p, int cc, s8 disp);
int x86_jcc32(u8 *p, int cc, s32 disp);
int x86_leave(u8 *p);
int x86_ret(u8 *p);
int x86_int3(u8 *p);
int x86_nop(u8 *p, int len);

/* abi.c */
extern const int x86_arg_regs[6];
#define X86_SCRATCH	X86_RAX	/* clobbered freely: the return register */
#define X86_KEPT	X86_RBX	/* callee-saved: enter's result across calls */
#define X86_TCC		X86_RAX	/* tail call counter of a BPF caller */
#define X86_RET		X86_RAX
#define X86_FB		X86_RBP	/* frame base of the IR's frame layout */
bool x86_is_endbr(u32 insn);
const void *x86_orig_body(const void *func_addr);

/* isel.c: one lowering per IR opcode (TRAMP_OP_LABEL has none) */
int x86_op_prologue(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_save_tcc(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_restore_tcc(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_store_imm(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_save_args(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_load_args(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_call(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_call_orig(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_store_ret(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_load_ret(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_branch(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_align(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_patch_site(struct tramp_ctx *c, const struct tramp_op *op);
int x86_op_epilogue(struct tramp_ctx *c, const struct tramp_op *op);

/* targ.c */
extern const struct tramp_target tramp_target_x86;

#endif /* TRAMP_X86_H */
