// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64 lowering of the trampoline IR: one function per operation, each
 * a short sequence of encoder calls.  The prologue sets fp (s0) by the
 * riscv frame-record convention and SP = FB - frame.size, where FB is SP
 * just below the records; SP does not move until the epilogue, so the IR
 * slot FB - off is addressed as size - off(sp), within the 12-bit signed
 * immediate loads and stores take.  Nothing here decides the shape.
 */
#include "riscv64.h"

/* Append one instruction, little-endian whatever the host. */
static void emit(struct tramp_ctx *c, u32 insn)
{
	u8 b[RV_INSN_SIZE] = { insn, insn >> 8, insn >> 16, insn >> 24 };

	tramp_put(c, b, sizeof(b));
}

/* SP-relative offset of the frame slot FB - off. */
static u32 slot(const struct tramp_ctx *c, u32 off)
{
	return c->ir->frame.size - off;
}

static bool imm12_ok(s64 v)
{
	return v >= RV_IMM12_MIN && v <= RV_IMM12_MAX;
}

static int store(struct tramp_ctx *c, int rs, u32 off)
{
	if (!imm12_ok(slot(c, off)))
		return -ERANGE;
	emit(c, rv_sd(rs, RV_SP, slot(c, off)));
	return 0;
}

static int load(struct tramp_ctx *c, int rd, u32 off)
{
	if (!imm12_ok(slot(c, off)))
		return -ERANGE;
	emit(c, rv_ld(rd, RV_SP, slot(c, off)));
	return 0;
}

/*
 * auipc rd, hi; <insn> rd, lo(rd) reaching pc + disp, where the second
 * instruction is built by @second from the low 12 bits.
 */
static int pcrel_pair(struct tramp_ctx *c, int rd, s64 disp,
		      u32 (*second)(int rd, int rs1, s32 off))
{
	u32 hi;
	s32 lo;

	if (!rv_split_pcrel(disp, &hi, &lo))
		return -ERANGE;
	emit(c, rv_auipc(rd, hi));
	emit(c, second(rd, rd, lo));
	return 0;
}

/* rd = the pool's copy of imm: auipc rd, hi; ld rd, lo(rd) */
static int load_literal(struct tramp_ctx *c, int rd, u64 imm)
{
	s64 d;
	int err = tramp_literal_disp(c, imm, &d);

	return err ? err : pcrel_pair(c, rd, d, rv_ld);
}

/*
 * rd = imm: addi rd, zero, imm when it fits 12 bits, lui + addiw when it
 * fits 32, else one load from the literal pool (kernel addresses).  The
 * length depends only on the value, which is the same in both passes.
 */
static int load_const(struct tramp_ctx *c, int rd, u64 imm)
{
	s64 v = (s64)imm;

	if (imm12_ok(v)) {
		emit(c, rv_addi(rd, RV_ZERO, (s32)v));
		return 0;
	}
	if (v == (s32)v) {
		/* addiw wraps at 32 bits: any split of v mod 2^32 works */
		s32 lo = (s32)((u32)v << 20) >> 20;

		emit(c, rv_lui(rd, (u32)(v - lo) >> 12));
		emit(c, rv_addiw(rd, rd, lo));
		return 0;
	}
	return load_literal(c, rd, imm);
}

/*
 * auipc ra, hi; jalr ra, lo(ra) when the target is within +-2 GiB of
 * where the code runs (known in both passes: kernel text, modules and BPF
 * images all are), else t1 = the pool's copy; jalr ra, 0(t1).
 */
static int call_abs(struct tramp_ctx *c, const void *target)
{
	unsigned long pc = (unsigned long)(c->base + c->off);
	s64 d = (s64)((unsigned long)target - pc);
	u32 hi;
	s32 lo;
	int err;

	if (rv_split_pcrel(d, &hi, &lo))
		return pcrel_pair(c, RV_RA, d, rv_jalr);
	err = load_literal(c, RV_SCRATCH, (unsigned long)target);
	if (!err)
		emit(c, rv_jalr(RV_RA, RV_SCRATCH, 0));
	return err;
}

/* addi sp, sp, -16; sd rs, 8(sp); sd fp, 0(sp); addi fp, sp, 16 */
static void push_record(struct tramp_ctx *c, int rs)
{
	emit(c, rv_addi(RV_SP, RV_SP, -16));
	emit(c, rv_sd(rs, RV_SP, 8));
	emit(c, rv_sd(RV_FP, RV_SP, 0));
	emit(c, rv_addi(RV_FP, RV_SP, 16));
}

/*
 * Frame record of the traced function's caller (ra: where the traced
 * function returns to), then of the traced function (t0: its body), each
 * as the riscv unwinder reads it (fp - 8: return address, fp - 16: the
 * previous fp); one record with ra for struct_ops.  Then
 * addi sp, sp, -size.  Argument registers and a6 are untouched.
 */
int rv_op_prologue(struct tramp_ctx *c, const struct tramp_op *op)
{
	if (c->ir->frame.size > RV_IMM12_MAX)
		return -ERANGE;
	push_record(c, RV_RA);
	if (!c->ir->struct_ops)
		push_record(c, RV_BODY);
	emit(c, rv_addi(RV_SP, RV_SP, -(s32)c->ir->frame.size));
	return 0;
}

/* sd a6, [slot] */
int rv_op_save_tcc(struct tramp_ctx *c, const struct tramp_op *op)
{
	return store(c, RV_TCC, op->off);
}

/* ld a6, [slot] */
int rv_op_restore_tcc(struct tramp_ctx *c, const struct tramp_op *op)
{
	return load(c, RV_TCC, op->off);
}

/* sd zero, [slot]   or   t1 = imm; sd t1, [slot] */
int rv_op_store_imm(struct tramp_ctx *c, const struct tramp_op *op)
{
	int err;

	if (!op->imm)
		return store(c, RV_ZERO, op->off);
	err = load_const(c, RV_SCRATCH, op->imm);
	return err ? err : store(c, RV_SCRATCH, op->off);
}

/* sd ai, [slot + 8 * i] for each argument slot */
int rv_op_save_args(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 i;
	int err = 0;

	for (i = 0; i < op->n && !err; i++)
		err = store(c, rv_arg_regs[i], op->off - 8 * i);
	return err;
}

/* ld ai, [slot + 8 * i] for each argument slot */
int rv_op_load_args(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 i;
	int err = 0;

	for (i = 0; i < op->n && !err; i++)
		err = load(c, rv_arg_regs[i], op->off - 8 * i);
	return err;
}

/*
 * Arguments into a0-a2 (constants, SP-relative addresses and the kept
 * slot: no argument overwrites the source of a later one), the call (see
 * call_abs()), then sd a0 into the kept slot when the result is kept.
 */
int rv_op_call(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 kept = c->ir->frame.saved_off[RV_KEPT_SLOT];
	u32 i;
	int err = 0;

	for (i = 0; i < op->nargs && !err; i++) {
		const struct tramp_arg *a = &op->args[i];
		int reg = rv_arg_regs[i];

		switch (a->kind) {
		case TRAMP_ARG_IMM:
			err = load_const(c, reg, a->imm);
			break;
		case TRAMP_ARG_FRAME_ADDR:
			if (!imm12_ok(slot(c, a->off)))
				return -ERANGE;
			emit(c, rv_addi(reg, RV_SP, slot(c, a->off)));
			break;
		case TRAMP_ARG_KEPT:
			err = load(c, reg, kept);
			break;
		}
	}
	if (!err)
		err = call_abs(c, op->target);
	if (!err && op->keep)
		err = store(c, RV_RET, kept);
	return err;
}

/*
 * The body of the traced function is where the patched call would have
 * gone on, saved as t0 in the traced function's frame record at fp - 8:
 *	ld t1, -8(fp); jalr ra, 0(t1)
 * The body returns here through ra.  A direct call (no SKIP_FRAME) calls
 * the function's address.
 */
int rv_op_call_orig(struct tramp_ctx *c, const struct tramp_op *op)
{
	if (op->orig == TRAMP_ORIG_DIRECT)
		return call_abs(c, op->target);
	emit(c, rv_ld(RV_SCRATCH, RV_FP, -8));
	emit(c, rv_jalr(RV_RA, RV_SCRATCH, 0));
	return 0;
}

/* C: sd a0, [slot]   BPF: sd a5, [slot] (R0, all 64 bits) */
int rv_op_store_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	return store(c, op->n == TRAMP_RET_BPF ? RV_BPF_RET : RV_RET, op->off);
}

/*
 * C: ld a0, [slot]
 * BPF: ld a5, [slot]; addiw a0, a5, 0
 * 6.1's JIT hands a BPF function's R0 to a BPF caller in a5, and its
 * epilogue sets a0 to R0's low 32 bits sign-extended for a C caller (the
 * kernel running a program); a trampoline on BPF code returns both.
 */
int rv_op_load_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	if (op->n != TRAMP_RET_BPF)
		return load(c, RV_RET, op->off);
	if (load(c, RV_BPF_RET, op->off))
		return -ERANGE;
	emit(c, rv_addiw(RV_RET, RV_BPF_RET, 0));
	return 0;
}

/* Offset for a branch emitted next, to label n. */
static s64 label_off(const struct tramp_ctx *c, u32 n)
{
	return tramp_label_disp(c, n, c->off + RV_INSN_SIZE) + RV_INSN_SIZE;
}

/*
 * KEPT_ZERO: on a0 right after the call that kept it (the IR puts it
 * there), else on t1 = [kept slot].  SLOT_NONZERO: on t1 = [slot].
 *   near:	beq/bne reg, zero, L			(+-4 KiB)
 *   far:	bne/beq reg, zero, 1f; jal zero, L; 1:	(+-1 MiB)
 */
int rv_op_branch(struct tramp_ctx *c, const struct tramp_op *op)
{
	bool kept = op->cond == TRAMP_COND_KEPT_ZERO;
	int reg = RV_SCRATCH;
	s64 d;
	int err = 0;

	if (kept && tramp_kept_in_ret(c, op))
		reg = RV_RET;
	else
		err = load(c, RV_SCRATCH, kept ?
			   c->ir->frame.saved_off[RV_KEPT_SLOT] : op->off);
	if (err)
		return err;
	if (op->reach == TRAMP_REACH_NEAR) {
		d = label_off(c, op->n);
		if (d < -RV_B_RANGE || d >= RV_B_RANGE)
			return -ERANGE;
		emit(c, kept ? rv_beq(reg, RV_ZERO, (s32)d) :
			       rv_bne(reg, RV_ZERO, (s32)d));
		return 0;
	}
	emit(c, kept ? rv_bne(reg, RV_ZERO, 2 * RV_INSN_SIZE) :
		       rv_beq(reg, RV_ZERO, 2 * RV_INSN_SIZE));
	d = label_off(c, op->n);
	if (d < -RV_J_RANGE || d >= RV_J_RANGE)
		return -ERANGE;
	emit(c, rv_jal(RV_ZERO, (s32)d));
	return 0;
}

/* nops up to the next multiple of op->n (unused: branch_align is 0) */
int rv_op_align(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 pad = tramp_align_pad(c, op->n);

	if (pad % RV_INSN_SIZE)
		return -EINVAL;
	for (; pad; pad -= RV_INSN_SIZE)
		emit(c, rv_nop());
	return 0;
}

/* the nop bpf_arch_text_poke() turns into "jal zero, ip_epilogue" */
int rv_op_patch_site(struct tramp_ctx *c, const struct tramp_op *op)
{
	emit(c, rv_nop());
	return 0;
}

/* ld rd, 8(sp) when rd is a register; ld fp, 0(sp); addi sp, sp, 16 */
static void pop_record(struct tramp_ctx *c, int rd)
{
	if (rd != RV_ZERO)
		emit(c, rv_ld(rd, RV_SP, 8));
	emit(c, rv_ld(RV_FP, RV_SP, 0));
	emit(c, rv_addi(RV_SP, RV_SP, 16));
}

/*
 * addi sp, fp, -16, then
 *   struct_ops:	pop ra; ret
 *   SKIP_FRAME:	pop (the body is not needed); pop ra; ret
 *			(back to the traced function's caller)
 *   otherwise:		pop t0; pop ra; jalr zero, 0(t0)
 *			(on into the body, which returns to the caller)
 * The return register is already loaded.
 */
int rv_op_epilogue(struct tramp_ctx *c, const struct tramp_op *op)
{
	emit(c, rv_addi(RV_SP, RV_FP, -16));
	if (!c->ir->struct_ops)
		pop_record(c, op->n ? RV_ZERO : RV_BODY);
	pop_record(c, RV_RA);
	emit(c, rv_jalr(RV_ZERO, !c->ir->struct_ops && !op->n ? RV_BODY :
							       RV_RA, 0));
	return 0;
}
