// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64 part of the conformance harness: the patched call sites that
 * enter a trampoline ("auipc t0; jalr t0" at a traced function's entry,
 * directly or through an ftrace_caller-like indirect jump), executable
 * memory, static checks, retiring an image, and the encoder cases for
 * riscv64 objdump.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <sys/mman.h>

#include "riscv64.h"
#include "conf_arch.h"

const struct tramp_target *const conf_target = &tramp_target_riscv64;
const char *const conf_objdump_args =
	"riscv64-linux-gnu-objdump -D -b binary -m riscv:rv64 -M no-aliases";
const char *const conf_objdump_comment = "#";
const int conf_tcc_arg = 6;		/* a6 */
const bool conf_ret2 = true;	/* a5: BPF R0 for a BPF caller */
/* instructions start at multiples of this */
const u32 conf_code_align = 4;
const bool conf_has_rethunk;		/* false: no return thunk, no SLS */
/* 128 GiB: far beyond auipc's +-2 GiB from the text at 64 KiB */
const unsigned long conf_far_hint = 0x2000000000UL;
const int conf_nr_saved = 12;
const char *const conf_saved_names[CONF_MAX_SAVED] = {
	"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
	"s0",
};

/* Argument size lists, up to eight registers; structs are refused. */
const char *const conf_arg_patterns[16] = {
	"", "8", "4", "1 2", "8 8", "2 4 8", "8 8 8", "4 8 2 1", "8 8 8 8",
	"8 8 8 8 8", "8 8 8 8 8 8", "1 2 4 8 1 2 4", "8 8 8 8 8 8 8",
	"8 8 8 8 8 8 8 8", "1 1 1 1 1 1 1 1", "4 8 4 8 4 8 4 8",
};

/* thunk-riscv64.S: s1-s11 and s0 get sentinels (a6, the counter, is not
 * callee-saved) */
void conf_arch_saved_want(u64 *want, u64 tcc)
{
	int i;

	for (i = 0; i < conf_nr_saved; i++)
		want[i] = 0x5a5a00000000b0b0ULL + 0x101 * i;
}

static u8 *put(u8 *p, u32 insn)
{
	p[0] = insn;
	p[1] = insn >> 8;
	p[2] = insn >> 16;
	p[3] = insn >> 24;
	return p + 4;
}

static s32 rel(const u8 *from, const void *to)
{
	return (s32)((const u8 *)to - from);
}

/* auipc rd, hi; jalr link, lo(rd): to @to, wherever it is (+-2 GiB) */
static u8 *put_pcrel_jump(u8 *p, int rd, int link, const void *to)
{
	u32 hi;
	s32 lo;

	rv_split_pcrel((s64)((const u8 *)to - p), &hi, &lo);
	p = put(p, rv_auipc(rd, hi));
	return put(p, rv_jalr(link, rd, lo));
}

/* auipc t1, 0; ld t1, 16(t1); jalr zero, 0(t1); nop; .quad to */
static u8 *put_abs_jump(u8 *p, const void *to)
{
	u64 v = (unsigned long)to;
	int i;

	p = put(p, rv_auipc(RV_T1, 0));
	p = put(p, rv_ld(RV_T1, RV_T1, 16));
	p = put(p, rv_jalr(RV_ZERO, RV_T1, 0));
	p = put(p, rv_nop());
	for (i = 0; i < 8; i++)
		*p++ = v >> (8 * i);
	return p;
}

/*
 * Layout of the stub page:
 *   +0    traced function:	auipc t0; jalr t0 -> tramp|ftrace_sim;
 *				jump to conf_orig_asm		(the body)
 *   +64   ftrace_sim:		jump to tramp through t1 (ftrace_caller's
 *				exit), t0 and ra untouched
 *   +128  call site:		auipc t0; jalr t0 -> tramp; ret
 * A trampoline for STYLE_SITE is entered either way (variant), with the
 * same t0 and ra; STYLE_DIRECT enters through the call site, whose caller
 * is the "traced function"; struct_ops trampolines are called with JALR.
 * A BPF function (CONF_ENTRY_BPF_SITE) starts with the JIT's site
 * instead, which enters the trampoline through its stub:
 *   +0    jal t0, +8;  jal zero, +32 (t0: past the first, the body's way);
 *         auipc t1, 0; ld t1, lit(t1); jalr zero, 0(t1); lit = tramp
 *   +32   jump to conf_orig_asm					(the body)
 */
static void put_bpf_site(u8 *fn, u8 *image)
{
	unsigned long lit = (unsigned long)fn + 20;
	u64 v = (unsigned long)image;
	u8 *p = fn;
	int i;

	lit += lit % 8 ? 4 : 0;
	p = put(p, rv_jal(RV_T0, 8));
	p = put(p, rv_jal(RV_ZERO, 28));
	p = put(p, rv_auipc(RV_T1, 0));
	p = put(p, rv_ld(RV_T1, RV_T1, (s32)(lit - (unsigned long)fn - 8)));
	p = put(p, rv_jalr(RV_ZERO, RV_T1, 0));
	p = fn + (lit - (unsigned long)fn);
	for (i = 0; i < 8; i++)
		*p++ = v >> (8 * i);
	put_abs_jump(fn + 32, (const void *)conf_orig_asm);
}

void *conf_arch_entry(int style, u8 *stub, u8 *image, bool cfi,
		      unsigned int variant, const void **func)
{
	u8 *fn = stub, *ft = stub + 64, *site = stub + 128, *p;

	memset(stub, 0, 256);	/* an illegal instruction */
	if (variant & CONF_ENTRY_BPF_SITE) {
		put_bpf_site(fn, image);
	} else {
		p = put_pcrel_jump(fn, RV_T0, RV_T0, variant & 1 ? ft : image);
		put_abs_jump(p, (const void *)conf_orig_asm);
	}
	put_abs_jump(ft, image);
	p = put_pcrel_jump(site, RV_T0, RV_T0, image);
	put(p, rv_jalr(RV_ZERO, RV_RA, 0));

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

void conf_arch_protect(u8 *p, size_t size, bool cfi)
{
	mprotect(p, size, PROT_READ | PROT_WRITE | PROT_EXEC);
}

static u32 word(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/*
 * Programs see the slots at arm64's and x86's distances from ctx: count
 * at ctx - 8, IP at ctx - 16, return value right after the arguments.
 * No landing pad (6.1 riscv has none); ip_after_call is one nop.
 */
void conf_arch_check(const struct tramp_ir *ir, const u8 *image, u32 flags,
		     int nr_regs, bool cfi, const u8 *ip_after_call)
{
	const struct tramp_frame *f = &ir->frame;

	if (f->nregs_off != f->args_off + 8 ||
	    ((flags & BPF_TRAMP_F_IP_ARG) && f->ip_off != f->args_off + 16) ||
	    (ir->save_ret && f->ret_off + 8 * nr_regs != f->args_off) ||
	    f->size % 16)
		errf("frame layout: args %u nregs %u ip %u ret %u size %u\n",
		     f->args_off, f->nregs_off, f->ip_off, f->ret_off, f->size);
	if (ip_after_call && word(ip_after_call) != rv_nop())
		errf("ip_after_call is not a nop\n");
}

/* bpf_arch_text_poke(ip_after_call, BPF_MOD_JUMP, NULL, ip_epilogue) */
void conf_arch_retire(u8 *ip_after_call, u8 *ip_epilogue)
{
	put(ip_after_call, rv_jal(RV_ZERO, rel(ip_after_call, ip_epilogue)));
}

int conf_arch_nop(u8 *p)
{
	put(p, rv_nop());
	return 4;
}

int conf_arch_store_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	return rv_op_store_ret(c, op);
}

void conf_arch_refusals(struct bpf_tramp_image *im,
			struct bpf_tramp_links *tl, const struct btf_func_model *m,
			u32 flags, void (*expect)(const char *, int, int))
{
}

/* ---- encoder cases: objdump's text for each operand combination ---- */

static const char *const rv_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

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
	static const s32 imms[] = { 0, 1, -1, 8, -16, 2047, -2048, 0x7f8 };
	static const u32 hi20[] = { 0, 1, 0x12345, 0x80000, 0xfffff };
	static const s32 boffs[] = { 0, 4, -4, 0x40, -0x40, 0xffc, -0x1000 };
	static const s32 joffs[] = { 0, 8, -8, 0x800, -0x800, 0xffffc,
				     -0x100000 };
	int rd, i;

	for (rd = 0; rd < 32; rd++) {
		int rs = (rd * 7 + 3) % 32;
		const char *d = rv_names[rd], *s = rv_names[rs];

		for (i = 0; i < 8; i++) {
			CASE(rv_addi(rd, rs, imms[i]), "addi %s,%s,%d", d, s,
			     imms[i]);
			CASE(rv_addiw(rd, rs, imms[i]), "addiw %s,%s,%d", d, s,
			     imms[i]);
			CASE(rv_ld(rd, rs, imms[i]), "ld %s,%d(%s)", d, imms[i],
			     s);
			CASE(rv_sd(rd, rs, imms[i]), "sd %s,%d(%s)", d, imms[i],
			     s);
			CASE(rv_jalr(rd, rs, imms[i]), "jalr %s,%d(%s)", d,
			     imms[i], s);
		}
		for (i = 0; i < 5; i++) {
			CASE(rv_lui(rd, hi20[i]), "lui %s,0x%x", d, hi20[i]);
			CASE(rv_auipc(rd, hi20[i]), "auipc %s,0x%x", d,
			     hi20[i]);
		}
		for (i = 0; i < 7; i++) {
			CASE(rv_beq(rd, rs, boffs[i]), "beq %s,%s,%s", d, s,
			     target(boffs[i]));
			CASE(rv_bne(rd, rs, boffs[i]), "bne %s,%s,%s", d, s,
			     target(boffs[i]));
			CASE(rv_jal(rd, joffs[i]), "jal %s,%s", d,
			     target(joffs[i]));
		}
	}
	CASE(rv_nop(), "addi zero,zero,0");
	CASE(rv_mv(RV_A5, RV_A0), "addi a5,a0,0");
}
