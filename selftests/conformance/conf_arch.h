/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the architecture-neutral harness (harness.c) needs from one
 * architecture: conf_<arch>.c (the traced-function stubs, static checks,
 * retiring an image, encoder cases for the objdump cross-check) and
 * thunk-<arch>.S (conf_call, the traced function's entry, a return thunk).
 */
#ifndef CONF_ARCH_H
#define CONF_ARCH_H

#include "tramp_ir.h"

#define CONF_MAX_ARGS	8	/* argument registers any backend has */
#define CONF_MAX_SAVED	16	/* callee-saved registers conf_call checks */

enum style {
	STYLE_SITE,		/* called from the patched call at func entry */
	STYLE_DIRECT,		/* called instead of the function */
	STYLE_STRUCT_OPS,	/* no im, no function, called as a function */
};

/* thunk-<arch>.S */
/*
 * Calls fn with the argument registers from regs[], tcc in the register a
 * BPF caller passes the tail call counter in, and conf_saved_want[] in the
 * callee-saved registers; stores those registers into out[0..n-1], then
 * SP after the call and SP before it into out[n], out[n + 1] (and the
 * second return register into out[n + 2], see conf_ret2).
 */
u64 conf_call(void *fn, const u64 *regs, u64 tcc, u64 *out);
void conf_orig_asm(void);	/* traced function body: records the tcc reg */
/* trashes every caller-saved register a call may trash; mocks call it */
void conf_clobber(void);
void conf_return_thunk(void);
extern u64 conf_orig_tcc, conf_thunk_count;
/*
 * The traced body returns as JIT'd BPF code (on a conf_ret2 architecture:
 * R0 in the second register, the C return register derived from it) or
 * as a C function (second register undefined); set per run.
 */
extern bool conf_orig_bpf;

/* harness.c */
void errf(const char *fmt, ...);
/* which __bpf_prog_enter/exit pair stock 6.1 calls for p */
int conf_stock_kind(const struct bpf_prog *p);

/*
 * Why stock 6.1's generator is meant to behave otherwise than the IR's on
 * shapes with these flags and this style, NULL if it is not (conf_<arch>.c).
 */
const char *conf_stock_differs(u32 flags, int style);

/* stock_<arch>.c, cut out of the pristine tree by stock_extract.py */
int stock_arch_prepare_bpf_trampoline(struct bpf_tramp_image *im,
				      void *image, void *image_end,
				      const struct btf_func_model *m,
				      u32 flags,
				      struct bpf_tramp_links *tlinks,
				      void *func_addr);
void add_case(int len, const char *fmt, ...);
extern u8 encbuf[];
extern u32 enclen;
#define MAX_CASES	8192

/* conf_<arch>.c */
extern const struct tramp_target *const conf_target;
extern const char *const conf_objdump_args;	/* -m machine [-M options] */
extern const char *const conf_objdump_comment;	/* where its comments start */
/*
 * The argument register that also carries a BPF caller's tail call
 * counter (riscv64: a6), -1 if none: a shape's counter is then that
 * argument's value, as it is for any program a trampoline can be on.
 */
extern const int conf_tcc_arg;
/*
 * The JIT returns a BPF function's R0 to a BPF caller in a second register
 * (riscv64: a5): conf_call() stores it in out[n + 2] and the traced body
 * sets it as such a JIT's epilogue does; the trampoline must return it too.
 */
extern const bool conf_ret2;
extern const u32 conf_code_align;	/* image start alignment */
extern const bool conf_has_rethunk;	/* return thunk and SLS */
extern const int conf_nr_saved;
extern const char *const conf_saved_names[CONF_MAX_SAVED];
extern const char *const conf_arg_patterns[16];
/* expected callee-saved values after conf_call() with this tcc */
void conf_arch_saved_want(u64 *want, u64 tcc);
/*
 * A bit of conf_arch_entry()'s variant: the traced function is a JIT'd
 * BPF function, entered the way its JIT's patchable site enters a
 * trampoline (riscv64: through the site's stub); architectures whose
 * programs start with the ftrace callsite's shape ignore it.
 */
#define CONF_ENTRY_BPF_SITE	(1U << 31)
/* the shape has BPF_TRAMP_F_ORIG_STACK: see conf_orig_decoy() */
#define CONF_ENTRY_ORIG_STACK	(1U << 30)
void conf_orig_decoy(void);
/*
 * Write the code that enters the trampoline at image for @style into stub
 * (STYLE_SITE: the traced function); return the entry conf_call() calls
 * and set *func to the traced function's address (NULL for struct_ops).
 */
void *conf_arch_entry(int style, u8 *stub, u8 *image, bool cfi,
		      unsigned int variant, const void **func);
/* make [p, p + size) executable as generated code for this shape */
void conf_arch_protect(u8 *p, size_t size, bool cfi);
/* architecture checks on an emitted image (errors through errf()) */
void conf_arch_check(const struct tramp_ir *ir, const u8 *image, u32 flags,
		     int nr_regs, bool cfi, const u8 *ip_after_call);
/* what bpf_tramp_image_put() does: ip_after_call jumps to ip_epilogue */
void conf_arch_retire(u8 *ip_after_call, u8 *ip_epilogue);
/* one no-op instruction (for the "two passes disagree" backend) */
int conf_arch_nop(u8 *p);
/* the backend's store_ret hook, wrapped by the bad backend */
int conf_arch_store_ret(struct tramp_ctx *c, const struct tramp_op *op);
void conf_arch_encoder_cases(void);
/* extra refusals: expect(what, got, want) */
void conf_arch_refusals(struct bpf_tramp_image *im,
			struct bpf_tramp_links *tl, const struct btf_func_model *m,
			u32 flags, void (*expect)(const char *, int, int));
u8 *conf_map_near(unsigned long hint);
/*
 * Where to map a second executable region, beyond the reach of a direct
 * call to the harness's mocks, to run shapes whose calls must take the
 * backend's far form; 0 when the backend has none (x86: rel32 only).
 */
extern const unsigned long conf_far_hint;

#endif /* CONF_ARCH_H */
