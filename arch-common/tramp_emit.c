// SPDX-License-Identifier: GPL-2.0
/*
 * BPF trampoline IR: the two-pass emission driver.
 *
 * Pass 0 runs every hook without writing, which gives the size of the code
 * and the offset of every op and label.  Pass 1 runs the same hooks again
 * and writes; it must reproduce exactly the same offsets, or the trampoline
 * is refused.  Branch size never depends on the distance (shared code picks
 * the reach), and alignment padding depends on the final address, which is
 * known in both passes, so the passes agree by construction; the check
 * catches a backend that breaks that rule.  Labels are owned here: the
 * backend only turns a known displacement into a branch.  So is the
 * literal pool, for backends that load constants PC-relative: the size
 * pass collects the values, the code pass writes them after the code.
 */
#include "tramp_ir.h"

void tramp_put(struct tramp_ctx *c, const u8 *bytes, u32 len)
{
	if (c->image) {
		if (c->off + len > c->limit) {
			c->overflow = true;
		} else {
			u32 i;

			/* the image may be executable memory: byte copies only */
			for (i = 0; i < len; i++)
				c->image[c->off + i] = bytes[i];
		}
	}
	c->off += len;
}

/*
 * Displacement from the end of an instruction (offset insn_end) to a label.
 * In the size pass a label not bound yet reads as 0: the backend encodes a
 * branch of the same size whatever the displacement.
 */
s64 tramp_label_disp(const struct tramp_ctx *c, u32 label, u32 insn_end)
{
	if (c->label_off[label] < 0)
		return 0;
	return (s64)c->label_off[label] - insn_end;
}

/*
 * Is @op the operation right after the CALL that kept its result, so that
 * the return register still holds the kept value?  (The IR puts every
 * KEPT_ZERO branch there.)
 */
bool tramp_kept_in_ret(const struct tramp_ctx *c, const struct tramp_op *op)
{
	return op > c->ir->ops && op[-1].code == TRAMP_OP_CALL && op[-1].keep;
}

/* Bytes of padding that bring the current address to a multiple of align. */
u32 tramp_align_pad(const struct tramp_ctx *c, u32 align)
{
	unsigned long addr = (unsigned long)(c->base + c->off);

	return (u32)(-addr & (align - 1));
}

/*
 * Displacement from offset c->off to the pool's copy of @value, which is
 * added on first use.  In the size pass the pool's place is not known yet
 * and the displacement reads as 0: the backend must encode a load of the
 * same size whatever the displacement.  The pool always follows the
 * code, and the image is refused if its end lies more than
 * TRAMP_LIT_REACH bytes from its start, so every displacement is forward
 * and within that reach.
 */
int tramp_literal_disp(struct tramp_ctx *c, u64 value, s64 *disp)
{
	u32 i;

	for (i = 0; i < c->nr_lits && c->lit[i] != value; i++)
		;
	if (c->pass == 0) {
		if (i == c->nr_lits) {
			/* on first use: no pool, no allocation */
			if (!c->lit)
				c->lit = tramp_env_zalloc(c->max_lits *
							  sizeof(*c->lit));
			if (!c->lit)
				return -ENOMEM;
			if (c->nr_lits == c->max_lits)
				return -E2BIG;
			c->lit[c->nr_lits++] = value;
		}
		*disp = 0;
		return 0;
	}
	if (i == c->nr_lits) {
		tramp_env_err("%s: literal %#llx not seen by the size pass\n",
			      c->t->name, (unsigned long long)value);
		return -EFAULT;
	}
	*disp = (s64)c->lit_off + 8 * i - c->off;
	return 0;
}

/* The most literals @ir can ask for: one per constant an op carries. */
static u32 tramp_max_literals(const struct tramp_ir *ir)
{
	u32 i, n = 0;

	for (i = 0; i < ir->nr_ops; i++) {
		const struct tramp_op *op = &ir->ops[i];

		if (op->code == TRAMP_OP_CALL)
			n += 1 + op->nargs;
		else if (op->code == TRAMP_OP_CALL_ORIG ||
			 op->code == TRAMP_OP_STORE_IMM)
			n++;
	}
	return n;
}

/* Zeros up to the pool's 8-byte alignment, then the pool. */
static void tramp_put_pool(struct tramp_ctx *c)
{
	static const u8 zero[8];
	u32 i;

	tramp_put(c, zero, c->lit_off - c->off);
	for (i = 0; i < c->nr_lits; i++) {
		u8 b[8];
		int k;

		for (k = 0; k < 8; k++)
			b[k] = c->lit[i] >> (8 * k);
		tramp_put(c, b, sizeof(b));
	}
}

static int tramp_pass(struct tramp_ir *ir, struct tramp_ctx *c)
{
	const struct tramp_target *t = ir->target;
	u32 i;
	int err;

	for (i = 0; i < ir->nr_ops; i++) {
		const struct tramp_op *op = &ir->ops[i];

		if (c->pass == 0) {
			ir->op_off[i] = c->off;
		} else if (ir->op_off[i] != c->off) {
			tramp_env_err("%s: op %u (%s) at %u in code pass, %u in size pass\n",
				      t->name, i, tramp_opcode_name(op->code),
				      c->off, ir->op_off[i]);
			return -EFAULT;
		}

		if (op->code == TRAMP_OP_LABEL) {
			if (c->pass == 0)
				ir->label_off[op->n] = c->off;
			continue;
		}
		if (op->code == TRAMP_OP_BRANCH && c->pass == 1 &&
		    op->reach == TRAMP_REACH_NEAR) {
			s64 d = (s64)ir->label_off[op->n] - c->off;

			if (d < -TRAMP_NEAR_REACH || d > TRAMP_NEAR_REACH) {
				tramp_env_err("%s: near branch %u spans %lld bytes\n",
					      t->name, i, (long long)d);
				return -EFAULT;
			}
		}
		if (!t->op[op->code])
			return -TRAMP_E_UNSUPPORTED;
		err = t->op[op->code](c, op);
		if (err)
			return err;
	}
	if (c->pass == 0)
		ir->op_off[ir->nr_ops] = c->off;
	return 0;
}

/*
 * Lower @ir into [image, image_end).  Returns the code size or a negative
 * errno; on success the image holds the code and, for CALL_ORIG trampolines,
 * im's ip_after_call and ip_epilogue are set.
 */
int tramp_ir_emit(struct tramp_ir *ir, void *image, void *image_end)
{
	const struct tramp_target *t = ir->target;
	struct tramp_ctx c;
	long cap = (u8 *)image_end - (u8 *)image;
	u32 i;
	int err;

	if (!image || cap <= 0)
		return -EINVAL;
	ir->label_off = tramp_env_zalloc(ir->nr_labels * sizeof(*ir->label_off));
	ir->op_off = tramp_env_zalloc((ir->nr_ops + 1) * sizeof(*ir->op_off));
	if (!ir->label_off || !ir->op_off)
		return -ENOMEM;
	for (i = 0; i < ir->nr_labels; i++)
		ir->label_off[i] = -1;

	memset(&c, 0, sizeof(c));
	c.ir = ir;
	c.t = t;
	c.base = image;
	c.label_off = ir->label_off;
	c.max_lits = tramp_max_literals(ir);
	err = tramp_pass(ir, &c);
	if (err)
		goto out;
	for (i = 0; i < ir->nr_ops; i++) {
		if (ir->ops[i].code == TRAMP_OP_BRANCH &&
		    ir->label_off[ir->ops[i].n] < 0) {
			tramp_env_err("%s: branch %u to unbound label %u\n",
				      t->name, i, ir->ops[i].n);
			err = -EFAULT;
			goto out;
		}
	}
	ir->code_size = c.off;
	c.lit_off = c.nr_lits ? (c.off + 7) & ~7u : c.off;
	ir->size = c.lit_off + 8 * c.nr_lits;
	/* stock x86 refuses to come within tail_reserve bytes of the end */
	if ((long)ir->size > cap - (long)t->tail_reserve) {
		err = t->image_full_err;
		goto out;
	}
	if (ir->size > TRAMP_LIT_REACH) {
		tramp_env_err("%s: literal pool beyond %u bytes\n", t->name,
			      TRAMP_LIT_REACH);
		err = -EFAULT;
		goto out;
	}

	c.pass = 1;
	c.off = 0;
	c.image = image;
	c.limit = ir->size;
	err = tramp_pass(ir, &c);
	if (err)
		goto out;
	if (c.off != ir->code_size) {
		tramp_env_err("%s: code pass emitted %u bytes, size pass %u\n",
			      t->name, c.off, ir->code_size);
		err = -EFAULT;
		goto out;
	}
	tramp_put_pool(&c);
	if (c.off != ir->size || c.overflow) {
		tramp_env_err("%s: image of %u bytes, size pass %u\n",
			      t->name, c.off, ir->size);
		err = -EFAULT;
		goto out;
	}

	if ((ir->flags & BPF_TRAMP_F_CALL_ORIG) && ir->im)
		tramp_env_set_image_ips(ir->im,
					(u8 *)image + ir->label_off[TRAMP_LABEL_AFTER_CALL],
					(u8 *)image + ir->label_off[TRAMP_LABEL_EPILOGUE]);
	err = ir->size;
out:
	tramp_env_free(c.lit);
	return err;
}

/*
 * The whole of arch_prepare_bpf_trampoline() for a backend: an architecture
 * implements it as a call to this with its descriptor.
 */
int tramp_ir_prepare(const struct tramp_target *t, void *im,
		     void *image, void *image_end,
		     const struct btf_func_model *m, u32 flags,
		     struct bpf_tramp_links *tlinks, void *func_addr)
{
	struct tramp_ir ir;
	int ret;

	ret = tramp_ir_build(&ir, t, im, m, flags, tlinks, func_addr);
	if (ret)
		return ret;
	ret = tramp_ir_emit(&ir, image, image_end);
	tramp_ir_free(&ir);
	return ret;
}
