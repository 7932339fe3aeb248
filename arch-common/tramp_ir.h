/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF trampoline IR: an architecture-neutral description of a trampoline
 * (a short list of operations plus one stack frame layout) and the
 * descriptor a backend fills in to lower it to machine code.
 *
 * Shared code (tramp_ir.c, tramp_emit.c) validates the input, picks every
 * program's enter/exit pair, lays out the frame, allocates labels and drives
 * the backend in two passes.  Backends trust what they are given: they only
 * encode.  See PORTING.md for each hook's contract.
 */
#ifndef TRAMP_IR_H
#define TRAMP_IR_H

#include "tramp_env.h"

/*
 * Frame layout, computed once in tramp_ir.c.  Every offset is a distance
 * below the backend's frame base FB (x86: RBP after "push rbp; mov rbp,
 * rsp"), so a slot at offset o occupies [FB - o, FB - o + 8).  From FB
 * downwards:
 *
 *   FB - ret_off        return value        CALL_ORIG or RET_FENTRY_RET
 *   FB - args_off + 8*i argument slot i     always (nr_regs slots)
 *   FB - nregs_off      argument count      always
 *   FB - ip_off         traced function IP  IP_ARG
 *   FB - run_ctx_off    bpf_tramp_run_ctx   always
 *   FB - tcc_off        tail call counter   TAIL_CALL_CTX
 *   FB - saved_off[i]   backend slots: saved registers, kept values
 *   FB - size           bottom, aligned to the backend's frame_align
 *
 * A BPF program's ctx is FB - args_off: arguments are ctx[0..nr_regs-1],
 * the return value ctx[nr_regs] (ret_off + 8 * nr_regs == args_off), and
 * 6.1's verifier inlines bpf_get_func_arg_cnt() as a load from ctx - 8 and
 * bpf_get_func_ip() as a load from ctx - 16, hence nregs_off and ip_off.
 * An offset of 0 means "no such slot".
 */
#define TRAMP_MAX_SAVED		4

struct tramp_frame {
	u32 size;
	u32 ret_off;
	u32 args_off;
	u32 nregs_off;
	u32 ip_off;
	u32 run_ctx_off;
	u32 cookie_off;		/* bpf_tramp_run_ctx.bpf_cookie */
	u32 attach_off;		/* bpf_tramp_run_ctx.attach */
	u32 tcc_off;
	u32 saved_off[TRAMP_MAX_SAVED];
};

enum tramp_opcode {
	TRAMP_OP_PROLOGUE,	/* CFI pad, frame of frame.size, save regs */
	TRAMP_OP_SAVE_TCC,	/* tail call counter register -> tcc slot */
	TRAMP_OP_RESTORE_TCC,	/* tcc slot -> tail call counter register */
	TRAMP_OP_STORE_IMM,	/* 64-bit slot at off = imm */
	TRAMP_OP_SAVE_ARGS,	/* arg registers 0..n-1 -> slots from off */
	TRAMP_OP_LOAD_ARGS,	/* slots from off -> arg registers 0..n-1 */
	TRAMP_OP_CALL,		/* call target(args...), maybe keep result */
	TRAMP_OP_CALL_ORIG,	/* call the traced function */
	TRAMP_OP_STORE_RET,	/* return register n -> slot at off */
	TRAMP_OP_LOAD_RET,	/* slot at off -> return register(s) n */
	TRAMP_OP_BRANCH,	/* if (cond) goto label */
	TRAMP_OP_LABEL,		/* bind label here */
	TRAMP_OP_ALIGN,		/* pad with nops to n bytes (absolute) */
	TRAMP_OP_PATCH_SITE,	/* target.patch_size bytes of patchable nop */
	TRAMP_OP_EPILOGUE,	/* restore regs, free frame, return */
	TRAMP_OP_NR,
};

/* Argument of TRAMP_OP_CALL. */
enum tramp_arg_kind {
	TRAMP_ARG_IMM,		/* 64-bit constant */
	TRAMP_ARG_FRAME_ADDR,	/* address FB - off */
	TRAMP_ARG_KEPT,		/* result kept by an earlier CALL */
};

struct tramp_arg {
	u8 kind;
	u32 off;
	u64 imm;
};

/* What a TRAMP_OP_CALL calls, for printing and for the harness. */
enum tramp_callee {
	TRAMP_CALLEE_TRAMP_ENTER,	/* __bpf_tramp_enter(im) */
	TRAMP_CALLEE_TRAMP_EXIT,	/* __bpf_tramp_exit(im) */
	TRAMP_CALLEE_PROG_ENTER,	/* enter(prog, &run_ctx) */
	TRAMP_CALLEE_PROG,		/* bpf_func(ctx, insnsi) */
	TRAMP_CALLEE_PROG_EXIT,		/* exit(prog, start, &run_ctx) */
};

enum tramp_cond {
	TRAMP_COND_KEPT_ZERO,		/* kept result == 0, right after CALL */
	TRAMP_COND_SLOT_NONZERO,	/* 64-bit slot at off != 0 */
};

/*
 * Branch reach, chosen by shared code so that a branch's size never depends
 * on its target and the size and code passes agree.  NEAR: the target is at
 * most TRAMP_NEAR_REACH bytes away (it only skips one program call); FAR:
 * anywhere in the image.
 */
enum tramp_reach {
	TRAMP_REACH_NEAR,
	TRAMP_REACH_FAR,
};

#define TRAMP_NEAR_REACH	64

/* Literal pool: how far a PC-relative load must reach (arm64 LDR: 1 MiB). */
#define TRAMP_LIT_REACH		0x100000

/*
 * Which return register STORE_RET and LOAD_RET mean (op->n).  C: the C
 * ABI's.  BPF: only on a backend with bpf_ret_reg, for a traced function
 * that is BPF code.  STORE_RET saves the BPF return register (R0, all 64
 * bits); LOAD_RET sets it from the slot and sets the C return register
 * from it as the JIT's own epilogue does, so both a BPF caller and a C
 * caller get what the function itself would have returned.
 */
enum tramp_ret_reg {
	TRAMP_RET_C,
	TRAMP_RET_BPF,
};

/* How the traced function is found for TRAMP_OP_CALL_ORIG. */
enum tramp_orig {
	TRAMP_ORIG_DIRECT,	/* target is its address */
	TRAMP_ORIG_STACK,	/* ORIG_STACK: the trampoline's return address */
};

struct tramp_op {
	u8 code;		/* enum tramp_opcode */
	u8 nargs;		/* CALL: number of args (<= 3) */
	u8 keep;		/* CALL: keep the result for ARG_KEPT/KEPT_ZERO */
	u8 callee;		/* CALL: enum tramp_callee */
	u8 kind;		/* CALL of PROG_ENTER/EXIT: enum tramp_kind */
	u8 cond;		/* BRANCH: enum tramp_cond */
	u8 reach;		/* BRANCH: enum tramp_reach */
	u8 orig;		/* CALL_ORIG: enum tramp_orig */
	u32 off;		/* frame offset (see struct tramp_frame) */
	u32 n;			/* count, label, alignment, tramp_ret_reg */
	s16 link;		/* program index in the trampoline, or -1 */
	u64 imm;		/* STORE_IMM */
	const void *target;	/* CALL, CALL_ORIG: address */
	struct tramp_arg args[3];
};

/* Which of the three link lists a program came from. */
enum tramp_link_type {
	TRAMP_LINK_FENTRY,
	TRAMP_LINK_FEXIT,
	TRAMP_LINK_FMOD_RET,
};

struct tramp_prog_info {
	u8 type;		/* enum tramp_link_type */
	u8 kind;		/* enum tramp_kind */
	u16 index;		/* index in its link list */
	const struct bpf_prog *prog;
	u64 cookie;
	const void *attach;	/* the link's state, for the enter function */
};

/* Well-known labels whose addresses are published in the image. */
enum {
	TRAMP_LABEL_AFTER_CALL,	/* im->ip_after_call */
	TRAMP_LABEL_EPILOGUE,	/* im->ip_epilogue */
	TRAMP_LABEL_DO_FEXIT,	/* fmod_ret's jump target */
	TRAMP_LABEL_FIRST_FREE,
};

struct tramp_target;

struct tramp_ir {
	const struct tramp_target *target;
	u32 flags;
	u32 nr_regs;		/* 8-byte argument slots */
	bool save_ret;
	/*
	 * The traced function is BPF code and the backend has bpf_ret_reg:
	 * its return value is saved and restored as TRAMP_RET_BPF.
	 */
	bool bpf_ret;
	/*
	 * Called as an ordinary function (a struct_ops member), not from a
	 * patched call site; 6.1's rule: one fentry link, of struct_ops type.
	 */
	bool struct_ops;
	void *im;		/* struct bpf_tramp_image *, may be NULL */
	const void *func_addr;	/* traced function, for IP_ARG */
	const void *orig_call;	/* what CALL_ORIG calls */
	struct tramp_frame frame;
	struct tramp_op *ops;
	u32 nr_ops, max_ops;
	struct tramp_prog_info *progs;
	u32 nr_progs;
	u32 nr_labels;
	s32 *label_off;		/* filled in by the size pass */
	u32 *op_off;		/* offset of each op, filled in likewise */
	u32 code_size;		/* code, without the literal pool */
	u32 size;		/* image bytes used after tramp_ir_emit() */
};

/* Emission state passed to every hook. */
struct tramp_ctx {
	const struct tramp_ir *ir;
	const struct tramp_target *t;
	u8 *base;		/* address the code runs at (both passes) */
	u8 *image;		/* where to write, NULL in the size pass */
	u32 off;		/* current offset from base */
	u32 limit;		/* code pass: the size the size pass found */
	bool overflow;		/* code pass: tried to write past limit */
	int pass;		/* 0: size, 1: code */
	const s32 *label_off;	/* size pass: -1 for labels not yet bound */
	/*
	 * Literal pool: 64-bit constants placed after the code, 8-byte
	 * aligned, in order of first use (tramp_literal_disp()).  The size
	 * pass fills lit[], the code pass looks values up and writes it.
	 */
	u64 *lit;
	u32 nr_lits, max_lits;
	u32 lit_off;		/* code pass: offset of the pool */
};

typedef int (*tramp_hook_t)(struct tramp_ctx *c, const struct tramp_op *op);

/*
 * The backend descriptor: properties the shared code plans with, and one
 * hook per opcode.  Hooks append code with tramp_put() and return 0 or a
 * negative errno.  PORTING.md has the contract of each.
 */
struct tramp_target {
	const char *name;
	u32 max_reg_args;	/* 8-byte argument slots passed in registers */
	bool struct_args;	/* BTF_FMODEL_STRUCT_ARG arguments supported */
	int image_full_err;	/* error when the code does not fit the image */
	u32 frame_align;	/* frame.size is a multiple of this */
	u32 nr_saved;		/* 8-byte frame slots of the backend's own */
	u32 patch_size;		/* bytes of TRAMP_OP_PATCH_SITE */
	u32 branch_align;	/* alignment of fmod_ret's target, 0: none */
	u32 tail_reserve;	/* image bytes that must stay free at the end */
	/*
	 * The JIT returns from a BPF function to a BPF caller in a register
	 * other than the C ABI's (riscv64 6.1: R0 in a5, and a0 = R0's low
	 * 32 bits sign-extended), so a trampoline on BPF code must save and
	 * restore that register (TRAMP_RET_BPF).
	 */
	bool bpf_ret_reg;
	/*
	 * SKIP_FRAME: the body of the traced function, past the patched call.
	 * NULL: the body is where the patched call returns to, so CALL_ORIG
	 * calls it through the return address (TRAMP_ORIG_STACK).
	 */
	const void *(*orig_body)(const void *func_addr);
	tramp_hook_t op[TRAMP_OP_NR];
};

/* The backends: arch-common's stub and arch/<arch>/net/bpf_tramp/targ.c. */
extern const struct tramp_target tramp_target_stub;
extern const struct tramp_target tramp_target_x86;
extern const struct tramp_target tramp_target_arm64;
extern const struct tramp_target tramp_target_riscv64;

/* tramp_ir.c */
int tramp_ir_build(struct tramp_ir *ir, const struct tramp_target *t,
		   void *im, const struct btf_func_model *m, u32 flags,
		   struct bpf_tramp_links *tlinks, void *func_addr);
void tramp_ir_free(struct tramp_ir *ir);
int tramp_ir_print(const struct tramp_ir *ir, char *buf, size_t len);
const char *tramp_kind_name(enum tramp_kind k);
const char *tramp_opcode_name(enum tramp_opcode c);

/* tramp_emit.c */
void tramp_put(struct tramp_ctx *c, const u8 *bytes, u32 len);
s64 tramp_label_disp(const struct tramp_ctx *c, u32 label, u32 insn_end);
u32 tramp_align_pad(const struct tramp_ctx *c, u32 align);
bool tramp_kept_in_ret(const struct tramp_ctx *c, const struct tramp_op *op);
int tramp_literal_disp(struct tramp_ctx *c, u64 value, s64 *disp);
int tramp_ir_emit(struct tramp_ir *ir, void *image, void *image_end);
int tramp_ir_prepare(const struct tramp_target *t, void *im,
		     void *image, void *image_end,
		     const struct btf_func_model *m, u32 flags,
		     struct bpf_tramp_links *tlinks, void *func_addr);

#endif /* TRAMP_IR_H */
