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
 * backend only turns a known displacement into a branch.
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

/* Bytes of padding that bring the current address to a multiple of align. */
u32 tramp_align_pad(const struct tramp_ctx *c, u32 align)
{
	unsigned long addr = (unsigned long)(c->base + c->off);

	return (u32)(-addr & (align - 1));
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
	err = tramp_pass(ir, &c);
	if (err)
		return err;
	for (i = 0; i < ir->nr_ops; i++) {
		if (ir->ops[i].code == TRAMP_OP_BRANCH &&
		    ir->label_off[ir->ops[i].n] < 0) {
			tramp_env_err("%s: branch %u to unbound label %u\n",
				      t->name, i, ir->ops[i].n);
			return -EFAULT;
		}
	}
	/* stock x86 refuses to come within tail_reserve bytes of the end */
	if ((long)c.off > cap - (long)t->tail_reserve)
		return t->image_full_err;
	ir->size = c.off;

	c.pass = 1;
	c.off = 0;
	c.image = image;
	c.limit = ir->size;
	err = tramp_pass(ir, &c);
	if (err)
		return err;
	if (c.off != ir->size || c.overflow) {
		tramp_env_err("%s: code pass emitted %u bytes, size pass %u\n",
			      t->name, c.off, ir->size);
		return -EFAULT;
	}

	if ((ir->flags & BPF_TRAMP_F_CALL_ORIG) && ir->im)
		tramp_env_set_image_ips(ir->im,
					(u8 *)image + ir->label_off[TRAMP_LABEL_AFTER_CALL],
					(u8 *)image + ir->label_off[TRAMP_LABEL_EPILOGUE]);
	return ir->size;
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
