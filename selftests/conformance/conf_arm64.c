// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 part of the conformance harness: the patched call sites that enter
 * a trampoline ("mov x9, x30; bl tramp" at a traced function's entry,
 * directly or through an ftrace_caller-like "br x17"), BTI-guarded
 * executable memory, static checks, retiring an image, and the encoder
 * cases for aarch64 objdump.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <sys/mman.h>

#include "arm64.h"
#include "conf_arch.h"

#ifndef PROT_BTI
#define PROT_BTI	0x10
#endif

const struct tramp_target *const conf_target = &tramp_target_arm64;
const char *const conf_objdump_args = "aarch64-linux-gnu-objdump -D -b binary -m aarch64";
const char *const conf_objdump_comment = "//";
const int conf_tcc_arg = -1;
const bool conf_ret2 = false;	/* R0 comes back in the return register */
/* instructions start at multiples of this */
const u32 conf_code_align = 4;
const bool conf_has_rethunk;		/* false: no return thunk, no SLS */
/* 96 TiB: far beyond BL's 128 MiB from the text at 4 MiB */
const unsigned long conf_far_hint = 0x600000000000UL;
const int conf_nr_saved = 11;
const char *const conf_saved_names[CONF_MAX_SAVED] = {
	"x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
	"x29",
};

/* Argument size lists, up to eight registers; stock refuses structs. */
const char *const conf_arg_patterns[16] = {
	"", "8", "4", "1 2", "8 8", "2 4 8", "8 8 8", "4 8 2 1", "8 8 8 8",
	"8 8 8 8 8", "8 8 8 8 8 8", "1 2 4 8 1 2 4", "8 8 8 8 8 8 8",
	"8 8 8 8 8 8 8 8", "1 1 1 1 1 1 1 1", "4 8 4 8 4 8 4 8",
};

/* thunk-arm64.S: x19.. get sentinels, x26 carries the tail call counter */
void conf_arch_saved_want(u64 *want, u64 tcc)
{
	int i;

	for (i = 0; i < conf_nr_saved; i++)
		want[i] = 0x5a5a00000000b0b0ULL + 0x101 * i;
	want[A64_X26 - A64_X19] = tcc;
}

static u8 *put(u8 *p, u32 insn)
{
	p[0] = insn;
	p[1] = insn >> 8;
	p[2] = insn >> 16;
	p[3] = insn >> 24;
	return p + 4;
}

static u8 *put_imm(u8 *p, int rd, u64 v)
{
	int i;

	p = put(p, a64_movz(rd, v & 0xffff, 0));
	for (i = 1; i < 4; i++)
		p = put(p, a64_movk(rd, v >> (16 * i), 16 * i));
	return p;
}

static s32 rel(const u8 *from, const void *to)
{
	return (s32)((const u8 *)to - from);
}

/*
 * Layout of the stub page:
 *   +0    traced function:	[bti c]; mov x9, x30; bl tramp|ftrace_sim;
 *				x16 = conf_orig_asm; br x16	(the body)
 *   +64   ftrace_sim:		x17 = tramp; br x17 (ftrace_common's exit)
 *   +128  call site:		[bti c]; mov x9, x30; bl tramp; ret
 * A trampoline for STYLE_SITE is entered either way (variant), with the
 * same x9 and x30; STYLE_DIRECT enters through the call site, whose caller
 * is the "traced function"; struct_ops trampolines are called with BLR.
 */
void *conf_arch_entry(int style, u8 *stub, u8 *image, bool cfi,
		      unsigned int variant, const void **func)
{
	u8 *fn = stub, *ft = stub + 64, *site = stub + 128, *p;

	memset(stub, 0, 256);	/* udf #0 */
	p = fn;
	if (cfi)
		p = put(p, a64_bti_c());
	p = put(p, a64_mov(A64_X9, A64_LR));
	if (variant & 1)
		p = put(p, a64_bl(rel(p, ft)));
	else
		p = put(p, a64_bl(rel(p, image)));
	p = put_imm(p, A64_X16, (unsigned long)conf_orig_asm);
	put(p, a64_br(A64_X16));

	p = put_imm(ft, A64_X17, (unsigned long)image);
	put(p, a64_br(A64_X17));

	p = site;
	if (cfi)
		p = put(p, a64_bti_c());
	p = put(p, a64_mov(A64_X9, A64_LR));
	p = put(p, a64_bl(rel(p, image)));
	put(p, a64_ret(A64_LR));

	switch (style) {
	case STYLE_SITE:
		*func = fn;
		return fn;
	case STYLE_DIRECT:
		*func = (const void *)conf_orig_asm;
		return site;
	default:
		*func = NULL;
		return image;
	}
}

/*
 * A trampoline called in the function's place with CALL_ORIG and without
 * SKIP_FRAME (a use include/linux/bpf.h describes and no 6.1 caller
 * makes): stock arm64 calls the original at its caller's return address,
 * as a "mov x9, lr; bl" site's body, whatever func_addr says; the IR
 * calls func_addr, as stock x86-64 does.
 */
const char *conf_stock_differs(u32 flags, int style)
{
	if (style == STYLE_DIRECT && (flags & BPF_TRAMP_F_CALL_ORIG) &&
	    !(flags & BPF_TRAMP_F_SKIP_FRAME))
		return "called in the function's place with CALL_ORIG, stock "
		       "arm64 calls its caller's return address, the IR "
		       "func_addr (as stock x86-64)";
	return NULL;
}

static bool bti_broken;

/*
 * With the landing pad on, the generated code runs from guarded pages
 * (PROT_BTI): an indirect branch to anything but a matching BTI faults.
 */
void conf_arch_protect(u8 *p, size_t size, bool cfi)
{
	int prot = PROT_READ | PROT_WRITE | PROT_EXEC;

	if (cfi && !bti_broken && mprotect(p, size, prot | PROT_BTI)) {
		bti_broken = true;
		fprintf(stderr, "note: PROT_BTI refused, BTI not enforced\n");
	}
	if (!cfi || bti_broken)
		mprotect(p, size, prot);
}

static u32 word(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/*
 * Stock 6.1 arm64 puts the slots programs can see at the same distances
 * from ctx (args): count at ctx - 8, IP at ctx - 16, return value right
 * after the arguments.  The entry is "bti jc" with BTI, ip_after_call one
 * nop; the trampoline never signs or authenticates a return address.
 */
void conf_arch_check(const struct tramp_ir *ir, const u8 *image, u32 flags,
		     int nr_regs, bool cfi, const u8 *ip_after_call)
{
	const struct tramp_frame *f = &ir->frame;
	u32 i;

	if (f->nregs_off != f->args_off + 8 ||
	    ((flags & BPF_TRAMP_F_IP_ARG) && f->ip_off != f->args_off + 16) ||
	    (ir->save_ret && f->ret_off + 8 * nr_regs != f->args_off) ||
	    f->size % 16)
		errf("frame differs from stock: args %u nregs %u ip %u ret %u size %u\n",
		     f->args_off, f->nregs_off, f->ip_off, f->ret_off, f->size);
	if (cfi != (word(image) == a64_bti_jc()))
		errf("bti jc at the entry: %d, want %d\n", !cfi, cfi);
	if (ip_after_call && word(ip_after_call) != a64_nop())
		errf("ip_after_call is not a nop\n");
	for (i = 0; i < ir->size; i += 4) {
		u32 w = word(image + i);

		/* PACIASP/PACIBSP/AUTIASP/AUTIBSP, PACIA/AUTIA.. and RETAA/RETAB */
		if ((w & 0xfffffd1f) == 0xd503211f ||
		    (w & 0xfffff000) == 0xdac10000 ||
		    (w & 0xfffffbff) == 0xd65f0bff)
			errf("pointer authentication instruction at +%u\n", i);
	}
}

/* bpf_arch_text_poke(ip_after_call, BPF_MOD_JUMP, NULL, ip_epilogue) */
void conf_arch_retire(u8 *ip_after_call, u8 *ip_epilogue)
{
	put(ip_after_call, a64_b(rel(ip_after_call, ip_epilogue)));
}

int conf_arch_nop(u8 *p)
{
	put(p, a64_nop());
	return 4;
}

int conf_arch_store_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	return a64_op_store_ret(c, op);
}

void conf_arch_refusals(struct bpf_tramp_image *im,
			struct bpf_tramp_links *tl, const struct btf_func_model *m,
			u32 flags, void (*expect)(const char *, int, int))
{
}

/* ---- encoder cases: objdump's text for each operand combination ---- */

static const char *xr(int r, bool sp)
{
	static char b[8][8];
	static int i;

	i = (i + 1) % 8;
	if (r == 31)
		return sp ? "sp" : "xzr";
	snprintf(b[i], sizeof(b[i]), "x%d", r);
	return b[i];
}

static const char *mem(int rn, u32 off)
{
	static char b[4][32];
	static int i;

	i = (i + 1) % 4;
	if (off)
		snprintf(b[i], sizeof(b[i]), "[%s, #%u]", xr(rn, true), off);
	else
		snprintf(b[i], sizeof(b[i]), "[%s]", xr(rn, true));
	return b[i];
}

/* A PC-relative target as objdump prints it (64-bit, wraps below 0). */
static const char *target(s32 off)
{
	static char b[4][24];
	static int i;

	i = (i + 1) % 4;
	snprintf(b[i], sizeof(b[i]), "0x%llx",
		 (unsigned long long)((s64)enclen + off));
	return b[i];
}

#define CASE(insn, ...)							\
	do {								\
		put(encbuf + enclen, (insn));				\
		add_case(4, __VA_ARGS__);				\
	} while (0)

void conf_arch_encoder_cases(void)
{
	static const int bases[] = { A64_SP, A64_FP, A64_X0, A64_X10, A64_X17 };
	static const u32 offs[] = { 0, 8, 16, 0x1f8, 4088, 32760 };
	static const s32 poffs[] = { -16, 16, -512, 504, -8, 0 };
	static const u32 imms[] = { 0, 1, 0x10, 0xff0, 0xfff };
	static const u16 h16[] = { 0, 1, 0x1234, 0x8000, 0xffff };
	static const s32 boffs[] = { 0, 4, -4, 0x40, -0x40, 0xffffc, -0x100000 };
	int rt, b, i, sh;

	CASE(a64_nop(), "nop");
	CASE(a64_bti_c(), "bti c");
	CASE(a64_bti_jc(), "bti jc");
	for (rt = 0; rt < 32; rt++) {
		for (b = 0; b < 5; b++) {
			for (i = 0; i < 6; i++) {
				CASE(a64_str(rt, bases[b], offs[i]), "str %s, %s",
				     xr(rt, false), mem(bases[b], offs[i]));
				CASE(a64_ldr(rt, bases[b], offs[i]), "ldr %s, %s",
				     xr(rt, false), mem(bases[b], offs[i]));
			}
		}
		for (i = 0; i < 6; i++) {
			int rt2 = (rt + 9) % 31;

			CASE(a64_stp_pre(rt, rt2, A64_SP, poffs[i]),
			     "stp %s, %s, [sp, #%d]!", xr(rt, false),
			     xr(rt2, false), poffs[i]);
			if (rt != rt2 && rt != 31)
				CASE(a64_ldp_post(rt, rt2, A64_SP, poffs[i]),
				     "ldp %s, %s, [sp], #%d", xr(rt, false),
				     xr(rt2, false), poffs[i]);
		}
		for (i = 0; i < 5; i++) {
			int rn = (rt * 7 + i) % 32;
			bool mov = imms[i] == 0 && (rt == 31 || rn == 31);

			if (mov)
				CASE(a64_add_imm(rt, rn, 0), "mov %s, %s",
				     xr(rt, true), xr(rn, true));
			else
				CASE(a64_add_imm(rt, rn, imms[i]), "add %s, %s, #0x%x",
				     xr(rt, true), xr(rn, true), imms[i]);
			if (!imms[i])
				CASE(a64_sub_imm(rt, rn, 0), "sub %s, %s, #0x0",
				     xr(rt, true), xr(rn, true));
			else
				CASE(a64_sub_imm(rt, rn, imms[i]), "sub %s, %s, #0x%x",
				     xr(rt, true), xr(rn, true), imms[i]);
		}
		CASE(a64_mov_sp(rt, A64_SP), "mov %s, sp", xr(rt, true));
		CASE(a64_mov_sp(A64_SP, rt), "mov sp, %s", xr(rt, true));
		for (i = 0; i < 32; i += 3)
			CASE(a64_mov(rt, i), "mov %s, %s", xr(rt, false),
			     xr(i, false));
		for (sh = 0; sh < 64; sh += 16) {
			for (i = 0; i < 5; i++) {
				u64 v = (u64)h16[i] << sh;

				if (!h16[i] && sh)
					CASE(a64_movz(rt, 0, sh), "movz %s, #0x0, lsl #%d",
					     xr(rt, false), sh);
				else
					CASE(a64_movz(rt, h16[i], sh), "mov %s, #0x%llx",
					     xr(rt, false), (unsigned long long)v);
				if (!h16[i] && sh)
					CASE(a64_movn(rt, 0, sh), "movn %s, #0x0, lsl #%d",
					     xr(rt, false), sh);
				else
					CASE(a64_movn(rt, h16[i], sh), "mov %s, #0x%llx",
					     xr(rt, false), (unsigned long long)~v);
				if (sh)
					CASE(a64_movk(rt, h16[i], sh), "movk %s, #0x%x, lsl #%d",
					     xr(rt, false), h16[i], sh);
				else
					CASE(a64_movk(rt, h16[i], sh), "movk %s, #0x%x",
					     xr(rt, false), h16[i]);
			}
		}
		if (rt < 31) {
			CASE(a64_br(rt), "br %s", xr(rt, false));
			CASE(a64_blr(rt), "blr %s", xr(rt, false));
			if (rt == A64_LR)
				CASE(a64_ret(rt), "ret");
			else
				CASE(a64_ret(rt), "ret %s", xr(rt, false));
		}
		for (i = 0; i < 7; i++) {
			s32 o = boffs[i];

			if (rt < 31) {
				CASE(a64_cbz(rt, o), "cbz %s, %s", xr(rt, false),
				     target(o));
				CASE(a64_cbnz(rt, o), "cbnz %s, %s", xr(rt, false),
				     target(o));
				CASE(a64_ldr_lit(rt, o), "ldr %s, %s", xr(rt, false),
				     target(o));
			}
			CASE(a64_adr(rt, o + (i & 3)), "adr %s, %s", xr(rt, false),
			     target(o + (i & 3)));
		}
	}
	for (i = 0; i < 7; i++) {
		s32 o = boffs[i] * 64;

		CASE(a64_b(o), "b %s", target(o));
		CASE(a64_bl(o), "bl %s", target(o));
	}
}
