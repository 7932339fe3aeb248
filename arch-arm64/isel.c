// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 lowering of the trampoline IR: one function per operation, each a
 * short sequence of encoder calls.  The prologue sets x29 (the IR's frame
 * base FB) and SP = FB - frame.size, and SP does not move until the
 * epilogue, so the slot FB - off is addressed as [sp, #(size - off)] with
 * the unsigned offsets LDR/STR take.  Nothing here decides the shape.
 */
#include "arm64.h"

/* Append one instruction, little-endian whatever the host. */
static void emit(struct tramp_ctx *c, u32 insn)
{
	u8 b[A64_INSN_SIZE] = { insn, insn >> 8, insn >> 16, insn >> 24 };

	tramp_put(c, b, sizeof(b));
}

/* SP-relative offset of the frame slot FB - off. */
static u32 slot(const struct tramp_ctx *c, u32 off)
{
	return c->ir->frame.size - off;
}

static bool ldst_ok(u32 off)
{
	return off % 8 == 0 && off <= A64_LDST_MAX;
}

static int store(struct tramp_ctx *c, int rt, u32 off)
{
	if (!ldst_ok(slot(c, off)))
		return -ERANGE;
	emit(c, a64_str(rt, A64_SP, slot(c, off)));
	return 0;
}

static int load(struct tramp_ctx *c, int rt, u32 off)
{
	if (!ldst_ok(slot(c, off)))
		return -ERANGE;
	emit(c, a64_ldr(rt, A64_SP, slot(c, off)));
	return 0;
}

/*
 * Load a 64-bit constant in as few instructions as the value needs: MOVN
 * when most 16-bit chunks are 0xffff, else MOVZ, then MOVK for each chunk
 * the first instruction left wrong.  The length depends only on the value,
 * which is the same in both passes.
 */
static void load_imm(struct tramp_ctx *c, int rd, u64 imm)
{
	int i, zeros = 0, ones = 0, first = -1;
	bool inv;
	u16 skip;

	for (i = 0; i < 4; i++) {
		u16 h = imm >> (16 * i);

		zeros += h == 0;
		ones += h == 0xffff;
	}
	inv = ones > zeros;
	skip = inv ? 0xffff : 0;
	for (i = 0; i < 4; i++) {
		u16 h = imm >> (16 * i);

		if (h == skip)
			continue;
		if (first < 0) {
			first = i;
			emit(c, inv ? a64_movn(rd, ~h, 16 * i) :
				      a64_movz(rd, h, 16 * i));
		} else {
			emit(c, a64_movk(rd, h, 16 * i));
		}
	}
	if (first < 0)		/* 0 or ~0 */
		emit(c, inv ? a64_movn(rd, 0, 0) : a64_movz(rd, 0, 0));
}

/* Instructions load_imm() needs for @imm. */
static int imm_insns(u64 imm)
{
	int i, zeros = 0, ones = 0;

	for (i = 0; i < 4; i++) {
		u16 h = imm >> (16 * i);

		zeros += h == 0;
		ones += h == 0xffff;
	}
	return zeros == 4 || ones == 4 ? 1 : 4 - (zeros > ones ? zeros : ones);
}

/*
 * rd = imm: MOVZ/MOVN/MOVK when that takes at most two instructions, else
 * one PC-relative LDR from the image's literal pool (kernel addresses
 * would take three).  Both passes choose alike: the choice depends on the
 * value only.
 */
static int load_const(struct tramp_ctx *c, int rd, u64 imm)
{
	s64 d;
	int err;

	if (imm_insns(imm) <= 2) {
		load_imm(c, rd, imm);
		return 0;
	}
	err = tramp_literal_disp(c, imm, &d);
	if (err)
		return err;
	if (d % A64_INSN_SIZE || d < -A64_CB_RANGE || d >= A64_CB_RANGE)
		return -ERANGE;
	emit(c, a64_ldr_lit(rd, (s32)d));
	return 0;
}

/*
 * bl target when it is in BL range of where this instruction runs (known
 * in both passes), else x10 = target; blr x10.  Stock's emit_call() always
 * takes the second form, with three to four instructions for the address.
 */
static int call_abs(struct tramp_ctx *c, const void *target)
{
	unsigned long pc = (unsigned long)(c->base + c->off);
	s64 d = (s64)((unsigned long)target - pc);
	int err;

	if (d >= -A64_B_RANGE && d < A64_B_RANGE) {
		emit(c, a64_bl((s32)d));
		return 0;
	}
	err = load_const(c, A64_SCRATCH, (unsigned long)target);
	if (!err)
		emit(c, a64_blr(A64_SCRATCH));
	return err;
}

/*
 * [bti jc]
 * stp x29, x9, [sp, #-16]!; mov x29, sp	frame of the traced function's
 *						caller (not for struct_ops)
 * stp x29, x30, [sp, #-16]!; mov x29, sp	frame of the traced function
 * sub sp, sp, #size
 * x0-x7 and x9 are untouched.  No callee-saved register is used.
 */
int a64_op_prologue(struct tramp_ctx *c, const struct tramp_op *op)
{
	const struct tramp_frame *f = &c->ir->frame;

	if (f->size > A64_ADDSUB_MAX)
		return -ERANGE;
	if (tramp_env_cfi_landing_pad())
		emit(c, a64_bti_jc());
	if (!c->ir->struct_ops) {
		emit(c, a64_stp_pre(A64_FP, A64_PARENT_LR, A64_SP, -16));
		emit(c, a64_mov_sp(A64_FP, A64_SP));
	}
	emit(c, a64_stp_pre(A64_FP, A64_LR, A64_SP, -16));
	emit(c, a64_mov_sp(A64_FP, A64_SP));
	emit(c, a64_sub_imm(A64_SP, A64_SP, f->size));
	return 0;
}

/* Nothing: the counter (x26) is callee-saved and never touched here. */
int a64_op_save_tcc(struct tramp_ctx *c, const struct tramp_op *op)
{
	return 0;
}

/* Nothing, as for save_tcc. */
int a64_op_restore_tcc(struct tramp_ctx *c, const struct tramp_op *op)
{
	return 0;
}

/* str xzr, [slot]   or   x10 = imm; str x10, [slot] */
int a64_op_store_imm(struct tramp_ctx *c, const struct tramp_op *op)
{
	int err;

	if (!op->imm)
		return store(c, A64_XZR, op->off);
	err = load_const(c, A64_SCRATCH, op->imm);
	return err ? err : store(c, A64_SCRATCH, op->off);
}

/* str xi, [slot + 8 * i] for each argument slot */
int a64_op_save_args(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 i;
	int err = 0;

	for (i = 0; i < op->n && !err; i++)
		err = store(c, a64_arg_regs[i], op->off - 8 * i);
	return err;
}

/* ldr xi, [slot + 8 * i] for each argument slot */
int a64_op_load_args(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 i;
	int err = 0;

	for (i = 0; i < op->n && !err; i++)
		err = load(c, a64_arg_regs[i], op->off - 8 * i);
	return err;
}

/*
 * Arguments into x0-x2 (constants, SP-relative addresses and the kept
 * slot: no argument overwrites the source of a later one), the call (see
 * call_abs()), then str x0 into the kept slot when the result is kept.
 * The program, first argument of its enter and exit calls, is one load
 * from the literal pool each time.
 */
int a64_op_call(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 kept = c->ir->frame.saved_off[A64_KEPT_SLOT];
	u32 i;
	int err = 0;

	for (i = 0; i < op->nargs && !err; i++) {
		const struct tramp_arg *a = &op->args[i];
		int reg = a64_arg_regs[i];

		switch (a->kind) {
		case TRAMP_ARG_IMM:
			err = load_const(c, reg, a->imm);
			break;
		case TRAMP_ARG_FRAME_ADDR:
			if (slot(c, a->off) > A64_ADDSUB_MAX)
				return -ERANGE;
			emit(c, a64_add_imm(reg, A64_SP, slot(c, a->off)));
			break;
		case TRAMP_ARG_KEPT:
			err = load(c, reg, kept);
			break;
		}
	}
	if (!err)
		err = call_abs(c, op->target);
	if (!err && op->keep)
		err = store(c, A64_RET, kept);
	return err;
}

/*
 * The body of the traced function is where the patched BL returns to,
 * saved as the LR of the traced function's frame record at [x29, #8]:
 *	ldr x10, [x29, #8]; adr x30, 1f; ret x10; 1:
 * RET needs no BTI landing pad at the body (BLR would), and the body's own
 * paciasp signs x30 = 1f.  A direct call (no SKIP_FRAME) is x10 = target;
 * blr x10, to a function entry, which has its landing pad.
 */
int a64_op_call_orig(struct tramp_ctx *c, const struct tramp_op *op)
{
	if (op->orig == TRAMP_ORIG_DIRECT)
		return call_abs(c, op->target);
	emit(c, a64_ldr(A64_SCRATCH, A64_FB, 8));
	emit(c, a64_adr(A64_LR, 2 * A64_INSN_SIZE));
	emit(c, a64_ret(A64_SCRATCH));
	return 0;
}

/* str x0, [slot] */
int a64_op_store_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	return store(c, A64_RET, op->off);
}

/* ldr x0, [slot] */
int a64_op_load_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	return load(c, A64_RET, op->off);
}

/*
 * KEPT_ZERO: cbz x0, L right after the call that kept x0 (the IR puts it
 * there), else ldr x10, [kept slot]; cbz x10, L.
 * SLOT_NONZERO: ldr x10, [slot]; cbnz x10, L.
 * Near and far branches are both one CBZ/CBNZ (+-1 MiB, more than any
 * trampoline image).
 */
int a64_op_branch(struct tramp_ctx *c, const struct tramp_op *op)
{
	bool kept = op->cond == TRAMP_COND_KEPT_ZERO;
	int reg = A64_SCRATCH;
	s64 d;
	int err = 0;

	if (kept && tramp_kept_in_ret(c, op))
		reg = A64_RET;
	else
		err = load(c, A64_SCRATCH, kept ?
			   c->ir->frame.saved_off[A64_KEPT_SLOT] : op->off);
	if (err)
		return err;
	d = tramp_label_disp(c, op->n, c->off + A64_INSN_SIZE);
	d += A64_INSN_SIZE;
	if (d < -A64_CB_RANGE || d >= A64_CB_RANGE)
		return -ERANGE;
	emit(c, kept ? a64_cbz(reg, (s32)d) : a64_cbnz(reg, (s32)d));
	return 0;
}

/* nops up to the next multiple of op->n (unused: branch_align is 0) */
int a64_op_align(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 pad = tramp_align_pad(c, op->n);

	if (pad % A64_INSN_SIZE)
		return -EINVAL;
	for (; pad; pad -= A64_INSN_SIZE)
		emit(c, a64_nop());
	return 0;
}

/* the nop bpf_arch_text_poke() turns into "b ip_epilogue" */
int a64_op_patch_site(struct tramp_ctx *c, const struct tramp_op *op)
{
	emit(c, a64_nop());
	return 0;
}

/*
 * mov sp, x29; ldp x29, x30, [sp], #16, then
 *   struct_ops:	ret
 *   SKIP_FRAME:	ldp x29, x9, [sp], #16; mov x30, x9; ret x9
 *			(back to the traced function's caller)
 *   otherwise:		ldp x29, x9, [sp], #16; mov x10, x30; mov x30, x9;
 *			ret x10 (on into the body, with its own LR back)
 * The return register is already loaded.
 */
int a64_op_epilogue(struct tramp_ctx *c, const struct tramp_op *op)
{
	emit(c, a64_mov_sp(A64_SP, A64_FP));
	emit(c, a64_ldp_post(A64_FP, A64_LR, A64_SP, 16));
	if (c->ir->struct_ops) {
		emit(c, a64_ret(A64_LR));
		return 0;
	}
	emit(c, a64_ldp_post(A64_FP, A64_PARENT_LR, A64_SP, 16));
	if (op->n) {
		emit(c, a64_mov(A64_LR, A64_PARENT_LR));
		emit(c, a64_ret(A64_PARENT_LR));
		return 0;
	}
	emit(c, a64_mov(A64_SCRATCH, A64_LR));
	emit(c, a64_mov(A64_LR, A64_PARENT_LR));
	emit(c, a64_ret(A64_SCRATCH));
	return 0;
}
