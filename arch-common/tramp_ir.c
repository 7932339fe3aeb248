// SPDX-License-Identifier: GPL-2.0
/*
 * BPF trampoline IR: validation, enter/exit selection, frame layout and the
 * operation list, built from exactly what arch_prepare_bpf_trampoline()
 * receives.  This is the only place that decides the shape of a trampoline;
 * backends lower the result without re-checking it.
 */
#include "tramp_ir.h"

#define TRAMP_KNOWN_FLAGS (BPF_TRAMP_F_RESTORE_REGS | BPF_TRAMP_F_CALL_ORIG | \
			   BPF_TRAMP_F_SKIP_FRAME | BPF_TRAMP_F_IP_ARG | \
			   BPF_TRAMP_F_RET_FENTRY_RET | BPF_TRAMP_F_ORIG_STACK | \
			   BPF_TRAMP_F_SHARE_IPMODIFY | \
			   BPF_TRAMP_F_TAIL_CALL_CTX)

static const char *const kind_names[TRAMP_KIND_NR] = {
	[TRAMP_KIND_NORMAL] = "normal",
	[TRAMP_KIND_SLEEPABLE] = "sleepable",
	[TRAMP_KIND_RECUR] = "recur",
	[TRAMP_KIND_SLEEPABLE_RECUR] = "sleepable_recur",
	[TRAMP_KIND_LSM_CGROUP] = "lsm_cgroup",
};

static const char *const op_names[TRAMP_OP_NR] = {
	[TRAMP_OP_PROLOGUE] = "prologue",
	[TRAMP_OP_SAVE_TCC] = "save_tcc",
	[TRAMP_OP_RESTORE_TCC] = "restore_tcc",
	[TRAMP_OP_STORE_IMM] = "store_imm",
	[TRAMP_OP_SAVE_ARGS] = "save_args",
	[TRAMP_OP_LOAD_ARGS] = "load_args",
	[TRAMP_OP_CALL] = "call",
	[TRAMP_OP_CALL_ORIG] = "call_orig",
	[TRAMP_OP_STORE_RET] = "store_ret",
	[TRAMP_OP_LOAD_RET] = "load_ret",
	[TRAMP_OP_BRANCH] = "branch",
	[TRAMP_OP_LABEL] = "label",
	[TRAMP_OP_ALIGN] = "align",
	[TRAMP_OP_PATCH_SITE] = "patch_site",
	[TRAMP_OP_EPILOGUE] = "epilogue",
};

const char *tramp_kind_name(enum tramp_kind k)
{
	return k < TRAMP_KIND_NR ? kind_names[k] : "?";
}

const char *tramp_opcode_name(enum tramp_opcode c)
{
	return c < TRAMP_OP_NR ? op_names[c] : "?";
}

/*
 * The same choice as 6.1's bpf_trampoline_enter()/exit(): recursion-checked
 * variants for tracing-like programs, the LSM-cgroup shim's own pair, and
 * otherwise the plain pair; sleepable programs get the tasks-trace RCU
 * variants.  This is the one place in the trampoline code that looks at
 * whether a program is sleepable.
 */
static enum tramp_kind tramp_pick_kind(const struct bpf_prog *p)
{
	bool sleepable = tramp_env_prog_sleepable(p);

	if (tramp_env_prog_check_recur(p))
		return sleepable ? TRAMP_KIND_SLEEPABLE_RECUR : TRAMP_KIND_RECUR;
	if (tramp_env_prog_lsm_cgroup(p))
		return TRAMP_KIND_LSM_CGROUP;
	return sleepable ? TRAMP_KIND_SLEEPABLE : TRAMP_KIND_NORMAL;
}

static u32 round_up_u32(u32 v, u32 a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* The frame layout documented in tramp_ir.h, and nowhere else. */
static void tramp_layout(struct tramp_ir *ir)
{
	struct tramp_frame *f = &ir->frame;
	u32 off = 0, i;

	if (ir->save_ret) {
		off += 8;
		f->ret_off = off;
	}
	off += ir->nr_regs * 8;
	f->args_off = off;
	off += 8;
	f->nregs_off = off;
	if (ir->flags & BPF_TRAMP_F_IP_ARG) {
		off += 8;
		f->ip_off = off;
	}
	off += round_up_u32(TRAMP_RUN_CTX_SIZE, 8);
	f->run_ctx_off = off;
	f->cookie_off = f->run_ctx_off - TRAMP_RUN_CTX_COOKIE;
	f->attach_off = f->run_ctx_off - TRAMP_RUN_CTX_ATTACH;
	if (ir->flags & BPF_TRAMP_F_TAIL_CALL_CTX) {
		off += 8;
		f->tcc_off = off;
	}
	for (i = 0; i < ir->target->nr_saved; i++) {
		off += 8;
		f->saved_off[i] = off;
	}
	f->size = round_up_u32(off, ir->target->frame_align);
}

static struct tramp_op *tramp_new_op(struct tramp_ir *ir, enum tramp_opcode code)
{
	struct tramp_op *op;

	/* max_ops is an upper bound computed from the input; see build */
	if (ir->nr_ops >= ir->max_ops)
		return NULL;
	op = &ir->ops[ir->nr_ops++];
	memset(op, 0, sizeof(*op));
	op->code = code;
	op->link = -1;
	return op;
}

static void tramp_add(struct tramp_ir *ir, enum tramp_opcode code, u32 off, u32 n)
{
	struct tramp_op *op = tramp_new_op(ir, code);

	if (op) {
		op->off = off;
		op->n = n;
	}
}

static void tramp_add_store_imm(struct tramp_ir *ir, u32 off, u64 imm)
{
	struct tramp_op *op = tramp_new_op(ir, TRAMP_OP_STORE_IMM);

	if (op) {
		op->off = off;
		op->imm = imm;
	}
}

static void tramp_add_branch(struct tramp_ir *ir, enum tramp_cond cond,
			     enum tramp_reach reach, u32 off, u32 label)
{
	struct tramp_op *op = tramp_new_op(ir, TRAMP_OP_BRANCH);

	if (op) {
		op->cond = cond;
		op->reach = reach;
		op->off = off;
		op->n = label;
	}
}

static struct tramp_op *tramp_add_call(struct tramp_ir *ir, enum tramp_callee callee,
				       const void *target, int link)
{
	struct tramp_op *op = tramp_new_op(ir, TRAMP_OP_CALL);

	if (op) {
		op->callee = callee;
		op->target = target;
		op->link = link;
	}
	return op;
}

static void tramp_set_arg(struct tramp_op *op, enum tramp_arg_kind kind,
			  u32 off, u64 imm)
{
	struct tramp_arg *a;

	if (!op)
		return;
	a = &op->args[op->nargs++];
	a->kind = kind;
	a->off = off;
	a->imm = imm;
}

/*
 * One program: store its cookie into the run context, enter, skip the body
 * if enter said so, run it with ctx pointing at the saved arguments, keep
 * its return value when asked, exit.  Same sequence as 6.1's
 * invoke_bpf_prog().
 */
static void tramp_add_prog(struct tramp_ir *ir, u32 pi, bool save_ret)
{
	const struct tramp_prog_info *info = &ir->progs[pi];
	const struct tramp_frame *f = &ir->frame;
	const void *insnsi = tramp_env_prog_insnsi(info->prog);
	u32 skip = ir->nr_labels++;
	struct tramp_op *op;

	tramp_add_store_imm(ir, f->cookie_off, info->cookie);
	/* enter skips the program if its link has been detached since */
	tramp_add_store_imm(ir, f->attach_off, (unsigned long)info->attach);

	op = tramp_add_call(ir, TRAMP_CALLEE_PROG_ENTER,
			    tramp_env_enter_fn(info->kind), pi);
	if (op) {
		op->kind = info->kind;
		op->keep = 1;
	}
	tramp_set_arg(op, TRAMP_ARG_IMM, 0, (unsigned long)info->prog);
	tramp_set_arg(op, TRAMP_ARG_FRAME_ADDR, f->run_ctx_off, 0);

	tramp_add_branch(ir, TRAMP_COND_KEPT_ZERO, TRAMP_REACH_NEAR, 0, skip);

	op = tramp_add_call(ir, TRAMP_CALLEE_PROG,
			    tramp_env_prog_func(info->prog), pi);
	tramp_set_arg(op, TRAMP_ARG_FRAME_ADDR, f->args_off, 0);
	if (insnsi)
		tramp_set_arg(op, TRAMP_ARG_IMM, 0, (unsigned long)insnsi);
	if (save_ret)
		tramp_add(ir, TRAMP_OP_STORE_RET, f->ret_off, 0);

	tramp_add(ir, TRAMP_OP_LABEL, 0, skip);

	op = tramp_add_call(ir, TRAMP_CALLEE_PROG_EXIT,
			    tramp_env_exit_fn(info->kind), pi);
	if (op)
		op->kind = info->kind;
	tramp_set_arg(op, TRAMP_ARG_IMM, 0, (unsigned long)info->prog);
	tramp_set_arg(op, TRAMP_ARG_KEPT, 0, 0);
	tramp_set_arg(op, TRAMP_ARG_FRAME_ADDR, f->run_ctx_off, 0);
}

static int tramp_collect(struct tramp_ir *ir, struct bpf_tramp_links *tl,
			 enum tramp_link_type type)
{
	int i;

	if (tl->nr_links < 0 || tl->nr_links > BPF_MAX_TRAMP_LINKS)
		return -EINVAL;
	for (i = 0; i < tl->nr_links; i++) {
		struct tramp_prog_info *info = &ir->progs[ir->nr_progs++];
		const struct bpf_prog *p;

		if (!tl->links[i])
			return -EINVAL;
		p = tramp_env_link_prog(tl->links[i]);
		if (!p || !tramp_env_prog_func(p))
			return -EINVAL;
		info->type = type;
		info->index = i;
		info->prog = p;
		info->cookie = tramp_env_link_cookie(tl->links[i]);
		info->attach = tramp_env_link_attach(tl->links[i]);
		info->kind = tramp_pick_kind(p);
	}
	return 0;
}

/*
 * Input checks.  Shapes stock 6.1 refuses are refused with its error
 * (-TRAMP_E_UNSUPPORTED for more argument registers than the backend has, and on a
 * backend without struct argument support for any BTF_FMODEL_STRUCT_ARG
 * flag, looked for in all MAX_BPF_FUNC_ARGS entries as stock arm64 does);
 * shapes no kernel caller produces and stock would turn into a broken
 * trampoline (unknown flags, fexit/fmod_ret programs without CALL_ORIG,
 * argument sizes BTF never yields) are refused with -EINVAL.
 */
static int tramp_validate(const struct tramp_target *t,
			  const struct btf_func_model *m, u32 flags,
			  struct bpf_tramp_links *tlinks, void *im,
			  void *func_addr, u32 *nr_regs)
{
	u32 i, regs = 0;

	if (!t || !m || !tlinks)
		return -EINVAL;
	if (flags & ~TRAMP_KNOWN_FLAGS)
		return -EINVAL;
	for (i = 0; !t->struct_args && i < MAX_BPF_FUNC_ARGS; i++)
		if (m->arg_flags[i] & BTF_FMODEL_STRUCT_ARG)
			return -TRAMP_E_UNSUPPORTED;
	if (m->nr_args > MAX_BPF_FUNC_ARGS)
		return -TRAMP_E_UNSUPPORTED;
	for (i = 0; i < m->nr_args; i++) {
		if (!m->arg_size[i])
			return -EINVAL;
		if (m->arg_size[i] > 16)
			return -TRAMP_E_UNSUPPORTED;
		regs += (m->arg_size[i] + 7) / 8;
	}
	if (regs > t->max_reg_args)
		return -TRAMP_E_UNSUPPORTED;
	if ((tlinks[BPF_TRAMP_FEXIT].nr_links ||
	     tlinks[BPF_TRAMP_MODIFY_RETURN].nr_links) &&
	    !(flags & BPF_TRAMP_F_CALL_ORIG))
		return -EINVAL;
	if ((flags & BPF_TRAMP_F_CALL_ORIG) && (!im || !func_addr))
		return -EINVAL;
	if ((flags & BPF_TRAMP_F_IP_ARG) && !func_addr)
		return -EINVAL;
	*nr_regs = regs;
	return 0;
}

int tramp_ir_build(struct tramp_ir *ir, const struct tramp_target *t,
		   void *im, const struct btf_func_model *m, u32 flags,
		   struct bpf_tramp_links *tlinks, void *func_addr)
{
	struct bpf_tramp_links *fentry, *fexit, *fmod_ret;
	const struct tramp_frame *f = &ir->frame;
	u32 nr_regs, total, i, first;
	struct tramp_op *op;
	int err;

	memset(ir, 0, sizeof(*ir));
	err = tramp_validate(t, m, flags, tlinks, im, func_addr, &nr_regs);
	if (err)
		return err;

	fentry = &tlinks[BPF_TRAMP_FENTRY];
	fexit = &tlinks[BPF_TRAMP_FEXIT];
	fmod_ret = &tlinks[BPF_TRAMP_MODIFY_RETURN];
	if (fentry->nr_links < 0 || fexit->nr_links < 0 || fmod_ret->nr_links < 0)
		return -EINVAL;
	total = fentry->nr_links + fexit->nr_links + fmod_ret->nr_links;

	ir->target = t;
	ir->flags = flags;
	ir->nr_regs = nr_regs;
	ir->im = im;
	ir->func_addr = func_addr;
	ir->orig_call = func_addr;
	ir->save_ret = flags & (BPF_TRAMP_F_CALL_ORIG | BPF_TRAMP_F_RET_FENTRY_RET);
	ir->bpf_ret = ir->save_ret && t->bpf_ret_reg && func_addr &&
		      tramp_env_func_is_bpf(func_addr);
	if ((flags & BPF_TRAMP_F_SKIP_FRAME) && func_addr && t->orig_body)
		ir->orig_call = t->orig_body(func_addr);
	ir->struct_ops = fentry->nr_links == 1 && fentry->links[0] &&
			 tramp_env_link_struct_ops(fentry->links[0]);

	/* 8 ops per program (+1 for fmod_ret's branch), 24 for the rest */
	ir->max_ops = total * 10 + 24;
	ir->ops = tramp_env_zalloc(ir->max_ops * sizeof(*ir->ops));
	ir->progs = tramp_env_zalloc((total + 1) * sizeof(*ir->progs));
	if (!ir->ops || !ir->progs) {
		tramp_ir_free(ir);
		return -ENOMEM;
	}
	ir->nr_labels = TRAMP_LABEL_FIRST_FREE;

	err = tramp_collect(ir, fentry, TRAMP_LINK_FENTRY);
	if (!err)
		err = tramp_collect(ir, fmod_ret, TRAMP_LINK_FMOD_RET);
	if (!err)
		err = tramp_collect(ir, fexit, TRAMP_LINK_FEXIT);
	if (err) {
		tramp_ir_free(ir);
		return err;
	}

	tramp_layout(ir);

	tramp_add(ir, TRAMP_OP_PROLOGUE, 0, 0);
	/* the counter arrives in a register the stores below may clobber */
	if (flags & BPF_TRAMP_F_TAIL_CALL_CTX)
		tramp_add(ir, TRAMP_OP_SAVE_TCC, f->tcc_off, 0);
	tramp_add_store_imm(ir, f->nregs_off, nr_regs);
	if (flags & BPF_TRAMP_F_IP_ARG)
		tramp_add_store_imm(ir, f->ip_off, (unsigned long)func_addr);
	tramp_add(ir, TRAMP_OP_SAVE_ARGS, f->args_off, nr_regs);

	if (flags & BPF_TRAMP_F_CALL_ORIG) {
		op = tramp_add_call(ir, TRAMP_CALLEE_TRAMP_ENTER,
				    tramp_env_tramp_enter_fn(), -1);
		tramp_set_arg(op, TRAMP_ARG_IMM, 0, (unsigned long)im);
	}

	/* progs[] holds fentry, then fmod_ret, then fexit programs */
	for (i = 0; i < (u32)fentry->nr_links; i++)
		tramp_add_prog(ir, i, flags & BPF_TRAMP_F_RET_FENTRY_RET);

	first = fentry->nr_links;
	if (fmod_ret->nr_links) {
		/* the first fmod_ret program must not see a stale value */
		tramp_add_store_imm(ir, f->ret_off, 0);
		for (i = 0; i < (u32)fmod_ret->nr_links; i++) {
			tramp_add_prog(ir, first + i, true);
			tramp_add_branch(ir, TRAMP_COND_SLOT_NONZERO,
					 TRAMP_REACH_FAR, f->ret_off,
					 TRAMP_LABEL_DO_FEXIT);
		}
	}

	if (flags & BPF_TRAMP_F_CALL_ORIG) {
		tramp_add(ir, TRAMP_OP_LOAD_ARGS, f->args_off, nr_regs);
		if (flags & BPF_TRAMP_F_TAIL_CALL_CTX)
			tramp_add(ir, TRAMP_OP_RESTORE_TCC, f->tcc_off, 0);
		op = tramp_new_op(ir, TRAMP_OP_CALL_ORIG);
		if (op) {
			op->target = ir->orig_call;
			op->orig = (flags & BPF_TRAMP_F_ORIG_STACK) ||
				   ((flags & BPF_TRAMP_F_SKIP_FRAME) &&
				    !t->orig_body) ?
				   TRAMP_ORIG_STACK : TRAMP_ORIG_DIRECT;
		}
		/* the one value programs cannot have set: the function's own */
		tramp_add(ir, TRAMP_OP_STORE_RET, f->ret_off,
			  ir->bpf_ret ? TRAMP_RET_BPF : TRAMP_RET_C);
		/* bpf_tramp_image_put() turns this nop into a jump to the epilogue */
		tramp_add(ir, TRAMP_OP_LABEL, 0, TRAMP_LABEL_AFTER_CALL);
		tramp_add(ir, TRAMP_OP_PATCH_SITE, 0, 0);
	}

	if (fmod_ret->nr_links) {
		if (t->branch_align > 1)
			tramp_add(ir, TRAMP_OP_ALIGN, 0, t->branch_align);
		tramp_add(ir, TRAMP_OP_LABEL, 0, TRAMP_LABEL_DO_FEXIT);
	}

	first += fmod_ret->nr_links;
	for (i = 0; i < (u32)fexit->nr_links; i++)
		tramp_add_prog(ir, first + i, false);

	if (flags & BPF_TRAMP_F_RESTORE_REGS)
		tramp_add(ir, TRAMP_OP_LOAD_ARGS, f->args_off, nr_regs);

	if (flags & BPF_TRAMP_F_CALL_ORIG) {
		tramp_add(ir, TRAMP_OP_LABEL, 0, TRAMP_LABEL_EPILOGUE);
		op = tramp_add_call(ir, TRAMP_CALLEE_TRAMP_EXIT,
				    tramp_env_tramp_exit_fn(), -1);
		tramp_set_arg(op, TRAMP_ARG_IMM, 0, (unsigned long)im);
	} else if (flags & BPF_TRAMP_F_TAIL_CALL_CTX) {
		tramp_add(ir, TRAMP_OP_RESTORE_TCC, f->tcc_off, 0);
	}

	if (ir->save_ret)
		tramp_add(ir, TRAMP_OP_LOAD_RET, f->ret_off,
			  ir->bpf_ret ? TRAMP_RET_BPF : TRAMP_RET_C);
	tramp_add(ir, TRAMP_OP_EPILOGUE, 0, flags & BPF_TRAMP_F_SKIP_FRAME);

	if (ir->nr_ops >= ir->max_ops) {
		/* tramp_new_op() ran out: the bound above is wrong */
		tramp_env_err("IR op bound %u too small\n", ir->max_ops);
		tramp_ir_free(ir);
		return -EFAULT;
	}
	return 0;
}

void tramp_ir_free(struct tramp_ir *ir)
{
	tramp_env_free(ir->ops);
	tramp_env_free(ir->progs);
	tramp_env_free(ir->label_off);
	tramp_env_free(ir->op_off);
	ir->op_off = NULL;
	ir->ops = NULL;
	ir->progs = NULL;
	ir->label_off = NULL;
}

/* Appends to buf like scnprintf() and never overruns it. */
#define PR(...)								\
	do {								\
		int __n = snprintf(buf + pos, len > pos ? len - pos : 0,	\
				   __VA_ARGS__);			\
		if (__n > 0)						\
			pos += __n;					\
		if (pos > len)						\
			pos = len;					\
	} while (0)

static const char *const callee_names[] = {
	[TRAMP_CALLEE_TRAMP_ENTER] = "__bpf_tramp_enter",
	[TRAMP_CALLEE_TRAMP_EXIT] = "__bpf_tramp_exit",
	[TRAMP_CALLEE_PROG_ENTER] = "enter",
	[TRAMP_CALLEE_PROG] = "prog",
	[TRAMP_CALLEE_PROG_EXIT] = "exit",
};

static const char *const link_type_names[] = {
	[TRAMP_LINK_FENTRY] = "fentry",
	[TRAMP_LINK_FEXIT] = "fexit",
	[TRAMP_LINK_FMOD_RET] = "fmod_ret",
};

/*
 * The text form: flags, frame layout, programs, then one line per op.
 * Returns the number of characters written (without the NUL).
 */
int tramp_ir_print(const struct tramp_ir *ir, char *buf, size_t len)
{
	const struct tramp_frame *f = &ir->frame;
	size_t pos = 0;
	u32 i, j;

	if (!len)
		return 0;
	buf[0] = 0;
	PR("trampoline target=%s flags=%#x nr_regs=%u save_ret=%d bpf_ret=%d struct_ops=%d\n",
	   ir->target ? ir->target->name : "?", ir->flags, ir->nr_regs,
	   ir->save_ret, ir->bpf_ret, ir->struct_ops);
	PR("frame size=%u ret=%u args=%u nregs=%u ip=%u run_ctx=%u cookie=%u attach=%u tcc=%u",
	   f->size, f->ret_off, f->args_off, f->nregs_off, f->ip_off,
	   f->run_ctx_off, f->cookie_off, f->attach_off, f->tcc_off);
	for (i = 0; ir->target && i < ir->target->nr_saved; i++)
		PR(" saved%u=%u", i, f->saved_off[i]);
	PR("\n");
	for (i = 0; i < ir->nr_progs; i++)
		PR("prog %u: %s[%u] kind=%s cookie=%#llx\n", i,
		   link_type_names[ir->progs[i].type], ir->progs[i].index,
		   tramp_kind_name(ir->progs[i].kind),
		   (unsigned long long)ir->progs[i].cookie);
	for (i = 0; i < ir->nr_ops; i++) {
		const struct tramp_op *op = &ir->ops[i];

		if (ir->op_off)
			PR("%4u ", ir->op_off[i]);
		PR("%3u: ", i);
		if (ir->label_off && op->code == TRAMP_OP_LABEL)
			PR("L%u: @%d\n", op->n, ir->label_off[op->n]);
		else if (op->code == TRAMP_OP_LABEL)
			PR("L%u:\n", op->n);
		if (op->code == TRAMP_OP_LABEL)
			continue;
		PR("  %s", tramp_opcode_name(op->code));
		switch (op->code) {
		case TRAMP_OP_STORE_IMM:
			PR(" [fb-%u] = %#llx", op->off, (unsigned long long)op->imm);
			break;
		case TRAMP_OP_SAVE_ARGS:
		case TRAMP_OP_LOAD_ARGS:
			PR(" %u regs @ fb-%u", op->n, op->off);
			break;
		case TRAMP_OP_STORE_RET:
		case TRAMP_OP_LOAD_RET:
			PR("%s [fb-%u]", op->n == TRAMP_RET_BPF ? ".bpf" : "",
			   op->off);
			break;
		case TRAMP_OP_SAVE_TCC:
		case TRAMP_OP_RESTORE_TCC:
			PR(" [fb-%u]", op->off);
			break;
		case TRAMP_OP_CALL:
			PR(" %s", callee_names[op->callee]);
			if (op->callee == TRAMP_CALLEE_PROG_ENTER ||
			    op->callee == TRAMP_CALLEE_PROG_EXIT)
				PR(".%s", tramp_kind_name(op->kind));
			if (op->link >= 0)
				PR(" prog%d", op->link);
			PR("(");
			for (j = 0; j < op->nargs; j++) {
				const struct tramp_arg *a = &op->args[j];

				if (j)
					PR(", ");
				if (a->kind == TRAMP_ARG_IMM)
					PR("%#llx", (unsigned long long)a->imm);
				else if (a->kind == TRAMP_ARG_FRAME_ADDR)
					PR("fb-%u", a->off);
				else
					PR("kept");
			}
			PR(")%s", op->keep ? " -> kept" : "");
			break;
		case TRAMP_OP_CALL_ORIG:
			if (op->orig == TRAMP_ORIG_STACK)
				PR(" *return_address");
			else
				PR(" %p", op->target);
			break;
		case TRAMP_OP_BRANCH:
			if (op->cond == TRAMP_COND_KEPT_ZERO)
				PR(" kept == 0");
			else
				PR(" [fb-%u] != 0", op->off);
			PR(" -> L%u (%s)", op->n,
			   op->reach == TRAMP_REACH_NEAR ? "near" : "far");
			break;
		case TRAMP_OP_ALIGN:
			PR(" %u", op->n);
			break;
		case TRAMP_OP_EPILOGUE:
			if (op->n)
				PR(" skip_frame");
			break;
		default:
			break;
		}
		PR("\n");
	}
	return pos < len ? pos : len - 1;
}
