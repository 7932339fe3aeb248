// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 lowering of the trampoline IR: one function per operation, each a
 * short sequence of encoder calls.  Frame slots are addressed from RBP (the
 * IR's frame base) with the offsets the IR computed; nothing here decides
 * the trampoline's shape.
 */
#include "x86.h"

/*
 * Encode one instruction into a local buffer (B in the encoder call) and
 * append it.  Only for encoders that cannot fail; the rel32 ones, which can,
 * are checked where they are used.
 */
#define EMIT(enc)						\
	do {							\
		u8 __b[X86_MAX_INSN];				\
								\
		tramp_put(c, __b, (enc));			\
	} while (0)
#define B	__b

/* Address of the next instruction: rel32 encoders need it. */
static const u8 *ip(const struct tramp_ctx *c)
{
	return c->base + c->off;
}

/* Frame slot at offset off below the frame base. */
static s32 slot(u32 off)
{
	return -(s32)off;
}

/* Shortest load of a 64-bit constant into reg, as stock's emit_mov_imm64. */
static void load_imm(struct tramp_ctx *c, int reg, u64 imm)
{
	if (imm <= 0xffffffffULL)
		EMIT(x86_mov32_ri(B, reg, (u32)imm));
	else if ((s64)imm >= -2147483648LL && (s64)imm < 0)
		EMIT(x86_mov_ri_sx(B, reg, (s32)imm));
	else
		EMIT(x86_movabs(B, reg, imm));
}

/*
 * [endbr64]; push rbp; mov rbp, rsp; sub rsp, size; save rbx in its slot.
 * RAX (the tail call counter) and the argument registers are untouched.
 */
int x86_op_prologue(struct tramp_ctx *c, const struct tramp_op *op)
{
	const struct tramp_frame *f = &c->ir->frame;

	if (tramp_env_cfi_landing_pad())
		EMIT(x86_endbr64(B));
	EMIT(x86_push(B, X86_RBP));
	EMIT(x86_mov_rr(B, X86_RBP, X86_RSP));
	EMIT(x86_sub_ri(B, X86_RSP, f->size));
	EMIT(x86_store(B, X86_FB, slot(f->saved_off[0]), X86_KEPT));
	return 0;
}

/* mov [rbp - tcc_off], rax */
int x86_op_save_tcc(struct tramp_ctx *c, const struct tramp_op *op)
{
	EMIT(x86_store(B, X86_FB, slot(op->off), X86_TCC));
	return 0;
}

/* mov rax, [rbp - tcc_off] */
int x86_op_restore_tcc(struct tramp_ctx *c, const struct tramp_op *op)
{
	EMIT(x86_load(B, X86_TCC, X86_FB, slot(op->off)));
	return 0;
}

/* mov qword [rbp - off], simm32, or through RAX for wider constants */
int x86_op_store_imm(struct tramp_ctx *c, const struct tramp_op *op)
{
	s64 v = (s64)op->imm;

	if (v >= -2147483648LL && v <= 2147483647LL) {
		EMIT(x86_store_imm(B, X86_FB, slot(op->off), (s32)v));
		return 0;
	}
	EMIT(x86_movabs(B, X86_SCRATCH, op->imm));
	EMIT(x86_store(B, X86_FB, slot(op->off), X86_SCRATCH));
	return 0;
}

/* mov [rbp - off + 8 * i], argreg[i] for each argument slot */
int x86_op_save_args(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 i;

	for (i = 0; i < op->n; i++)
		EMIT(x86_store(B, X86_FB, slot(op->off) + 8 * i, x86_arg_regs[i]));
	return 0;
}

/* mov argreg[i], [rbp - off + 8 * i] for each argument slot */
int x86_op_load_args(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 i;

	for (i = 0; i < op->n; i++)
		EMIT(x86_load(B, x86_arg_regs[i], X86_FB, slot(op->off) + 8 * i));
	return 0;
}

/*
 * Arguments into RDI, RSI, RDX (sources are constants, RBP-relative
 * addresses and RBX, none of which an earlier argument overwrites), call,
 * then keep RAX in RBX when asked.  Out-of-range calls fail with -EINVAL as
 * in stock.
 */
int x86_op_call(struct tramp_ctx *c, const struct tramp_op *op)
{
	u8 b[X86_MAX_INSN];
	u32 i;
	int n;

	for (i = 0; i < op->nargs; i++) {
		const struct tramp_arg *a = &op->args[i];
		int reg = x86_arg_regs[i];

		switch (a->kind) {
		case TRAMP_ARG_IMM:
			load_imm(c, reg, a->imm);
			break;
		case TRAMP_ARG_FRAME_ADDR:
			EMIT(x86_lea(B, reg, X86_FB, slot(a->off)));
			break;
		case TRAMP_ARG_KEPT:
			EMIT(x86_mov_rr(B, reg, X86_KEPT));
			break;
		}
	}
	n = x86_call_rel(b, ip(c), op->target);
	if (n < 0)
		return -EINVAL;
	tramp_put(c, b, n);
	if (op->keep)
		EMIT(x86_mov_rr(B, X86_KEPT, X86_RET));
	return 0;
}

/*
 * call orig_call, or with ORIG_STACK the address the patched call pushed:
 * mov rbx, [rbp + 8]; call *rbx (RBX is free here, enter's result is dead).
 */
int x86_op_call_orig(struct tramp_ctx *c, const struct tramp_op *op)
{
	u8 b[X86_MAX_INSN];
	int n;

	if (op->orig == TRAMP_ORIG_STACK) {
		EMIT(x86_load(B, X86_RBX, X86_FB, 8));
		EMIT(x86_call_r(B, X86_RBX));
		return 0;
	}
	n = x86_call_rel(b, ip(c), op->target);
	if (n < 0)
		return -EINVAL;
	tramp_put(c, b, n);
	return 0;
}

/* mov [rbp - off], rax */
int x86_op_store_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	EMIT(x86_store(B, X86_FB, slot(op->off), X86_RET));
	return 0;
}

/* mov rax, [rbp - off] */
int x86_op_load_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	EMIT(x86_load(B, X86_RET, X86_FB, slot(op->off)));
	return 0;
}

/*
 * test rbx, rbx; je L   or   cmp qword [rbp - off], 0; jne L.
 * NEAR branches are jcc rel8, FAR ones jcc rel32; the size depends only on
 * the reach, so both passes agree.
 */
int x86_op_branch(struct tramp_ctx *c, const struct tramp_op *op)
{
	int cc, jlen = op->reach == TRAMP_REACH_NEAR ? 2 : 6;
	s64 d;

	if (op->cond == TRAMP_COND_KEPT_ZERO) {
		EMIT(x86_test_rr(B, X86_KEPT, X86_KEPT));
		cc = X86_CC_E;
	} else {
		EMIT(x86_cmp_mi8(B, X86_FB, slot(op->off), 0));
		cc = X86_CC_NE;
	}
	d = tramp_label_disp(c, op->n, c->off + jlen);
	if (op->reach == TRAMP_REACH_NEAR) {
		if (d < -128 || d > 127)
			return -ERANGE;
		EMIT(x86_jcc8(B, cc, (s8)d));
		return 0;
	}
	if (d < -2147483648LL || d > 2147483647LL)
		return -ERANGE;
	EMIT(x86_jcc32(B, cc, (s32)d));
	return 0;
}

/* nops up to the next multiple of op->n of the final address */
int x86_op_align(struct tramp_ctx *c, const struct tramp_op *op)
{
	u32 pad = tramp_align_pad(c, op->n);

	while (pad) {
		u32 n = pad > 8 ? 8 : pad;

		EMIT(x86_nop(B, n));
		pad -= n;
	}
	return 0;
}

/* the 5-byte nop bpf_arch_text_poke() turns into "jmp ip_epilogue" */
int x86_op_patch_site(struct tramp_ctx *c, const struct tramp_op *op)
{
	EMIT(x86_nop(B, X86_TRAMP_PATCH_SIZE));
	return 0;
}

/*
 * Restore rbx; leave; with SKIP_FRAME also drop the return address into the
 * traced function; then return (through the return thunk when the kernel
 * wants one, with an int3 after a plain ret when SLS mitigation is on).
 */
int x86_op_epilogue(struct tramp_ctx *c, const struct tramp_op *op)
{
	const struct tramp_frame *f = &c->ir->frame;
	void *thunk = tramp_env_return_thunk();
	u8 b[X86_MAX_INSN];
	int n;

	EMIT(x86_load(B, X86_KEPT, X86_FB, slot(f->saved_off[0])));
	EMIT(x86_leave(B));
	if (op->n)
		EMIT(x86_add_ri(B, X86_RSP, 8));
	if (thunk) {
		n = x86_jmp_rel(b, ip(c), thunk);
		if (n < 0)
			return -EINVAL;
		tramp_put(c, b, n);
		return 0;
	}
	EMIT(x86_ret(B));
	if (tramp_env_sls())
		EMIT(x86_int3(B));
	return 0;
}
