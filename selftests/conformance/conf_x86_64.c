// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 part of the conformance harness: the traced-function stub
 * ([endbr64;] call tramp; jmp body), static checks against stock 6.1 x86,
 * retiring an image, and the encoder cases for objdump.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <sys/mman.h>

#include "x86.h"
#include "conf_arch.h"

const struct tramp_target *const conf_target = &tramp_target_x86;
const char *const conf_objdump_args = "objdump -D -b binary -m i386:x86-64 -M intel";
const char *const conf_objdump_comment = "//";
const int conf_tcc_arg = -1;
const bool conf_ret2 = false;	/* R0 comes back in the return register */
/* instructions start at multiples of this */
const u32 conf_code_align = 1;
const bool conf_has_rethunk = true;
const unsigned long conf_far_hint;	/* calls are rel32: no far form */

/* Stock 6.1's own generator agrees on every shape (group stock_oracle). */
const char *conf_stock_differs(u32 flags, int style)
{
	return NULL;
}
const int conf_nr_saved = 6;
const char *const conf_saved_names[CONF_MAX_SAVED] = {
	"rbx", "rbp", "r12", "r13", "r14", "r15",
};

/* Argument size lists; "s" ones are structs, all fit in 6 registers. */
const char *const conf_arg_patterns[16] = {
	"", "8", "4", "1 2", "8 8", "16s", "8 16s", "16s 16s", "4 8 2",
	"16s 8 16s", "8 8 8 8 8", "8 8 8 8 8 8", "1 2 4 8 16s", "16s 16s 16s",
	"8s 4s 2 1", "16s 8 8 8 8",
};

void conf_arch_saved_want(u64 *want, u64 tcc)
{
	int i;

	for (i = 0; i < conf_nr_saved; i++)
		want[i] = 0x5a5a00000000b0b0ULL + 0x101 * i;
}

/*
 * STYLE_SITE: the traced function is "[endbr64;] call tramp; jmp body";
 * otherwise the trampoline is called directly.
 */
void *conf_arch_entry(int style, u8 *stub, u8 *image, bool cfi,
		      unsigned int variant, const void **func)
{
	int n = 0;

	memset(stub, 0xcc, 64);
	if (cfi)
		n += x86_endbr64(stub);
	n += x86_call_rel(stub + n, stub + n, image);
	x86_jmp_rel(stub + n, stub + n, conf_orig_asm);
	switch (style) {
	case STYLE_SITE:
		*func = stub;
		if (variant & CONF_ENTRY_ORIG_STACK) {
			/* the same site at stub + 32, with the decoy as body */
			u8 *decoy = stub + 32;

			n = cfi ? x86_endbr64(decoy) : 0;
			n += x86_call_rel(decoy + n, decoy + n, image);
			x86_jmp_rel(decoy + n, decoy + n, conf_orig_decoy);
			*func = decoy;
		}
		return stub;
	case STYLE_DIRECT:
		*func = (const void *)conf_orig_asm;
		return image;
	default:
		*func = NULL;
		return image;
	}
}

void conf_arch_protect(u8 *p, size_t size, bool cfi)
{
}

static const u8 nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

void conf_arch_check(const struct tramp_ir *ir, const u8 *image, u32 flags,
		     int nr_regs, bool cfi, const u8 *ip_after_call)
{
	/* the slots programs can see sit where stock 6.1 x86 puts them */
	int save_ret = !!(flags & (BPF_TRAMP_F_CALL_ORIG |
				   BPF_TRAMP_F_RET_FENTRY_RET));
	u32 regs_off = save_ret * 8 + nr_regs * 8;
	u32 nregs_off = regs_off + 8;
	u32 ip_off = nregs_off + (flags & BPF_TRAMP_F_IP_ARG ? 8 : 0);
	/* stock rounds the run context up to 8 bytes */
	u32 run_ctx_off = ip_off + ((sizeof(struct bpf_tramp_run_ctx) + 7) & ~7);

	if (ir->frame.args_off != regs_off || ir->frame.nregs_off != nregs_off ||
	    (ir->frame.ip_off && ir->frame.ip_off != ip_off) ||
	    ir->frame.run_ctx_off != run_ctx_off ||
	    (save_ret && ir->frame.ret_off != 8))
		errf("frame differs from stock: regs %u nregs %u ip %u run_ctx %u\n",
		     regs_off, nregs_off, ip_off, run_ctx_off);
	if (cfi && memcmp(image, "\xf3\x0f\x1e\xfa", 4))
		errf("no endbr64 at the trampoline entry\n");
	if (ip_after_call && memcmp(ip_after_call, nop5, 5))
		errf("ip_after_call is not x86_nops[5]\n");
	/* as stock's emit_return(): ret, and int3 after it with SLS */
	if (!tramp_env_return_thunk() &&
	    (image[ir->code_size - 1 - tramp_env_sls()] != 0xc3 ||
	     (tramp_env_sls() && image[ir->code_size - 1] != 0xcc)))
		errf("the image does not end with ret%s\n",
		     tramp_env_sls() ? "; int3" : "");
	if (ir->label_off[TRAMP_LABEL_DO_FEXIT] >= 0 &&
	    ((unsigned long)image + ir->label_off[TRAMP_LABEL_DO_FEXIT]) & 15)
		errf("fmod_ret branch target not 16-byte aligned\n");
}

void conf_arch_retire(u8 *ip_after_call, u8 *ip_epilogue)
{
	x86_jmp_rel(ip_after_call, ip_after_call, ip_epilogue);
}

int conf_arch_nop(u8 *p)
{
	return x86_nop(p, 1);
}

int conf_arch_store_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	return x86_op_store_ret(c, op);
}

/* calls out of rel32 reach fail like stock's emit_call() */
void conf_arch_refusals(struct bpf_tramp_image *im,
			struct bpf_tramp_links *tl, const struct btf_func_model *m,
			u32 flags, void (*expect)(const char *, int, int))
{
	u8 *far = conf_map_near(0x600000000000UL);

	if (!far)
		return;
	expect("call out of range",
	       tramp_ir_prepare(&tramp_target_x86, im, far, far + 4096, m, flags,
				tl, (void *)conf_orig_asm), -EINVAL);
	munmap(far, 64 * 1024);
}

static const char *const r64[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

static const char *const r32[16] = {
	"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
	"r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d",
};

static const char *memop(int base, s32 disp)
{
	static char b[4][48];
	static int i;

	i = (i + 1) % 4;
	snprintf(b[i], sizeof(b[i]), "[%s%s%#x]", r64[base], disp < 0 ? "-" : "+",
		 disp < 0 ? -disp : disp);
	if (disp == 0)
		snprintf(b[i], sizeof(b[i]), "[%s+0x0]", r64[base]);
	return b[i];
}

static const char *hex64(u64 v)
{
	static char b[4][24];
	static int i;

	i = (i + 1) % 4;
	snprintf(b[i], sizeof(b[i]), "%#llx", (unsigned long long)v);
	if (!v)
		strcpy(b[i], "0x0");
	return b[i];
}

void conf_arch_encoder_cases(void)
{
	static const int bases[] = { X86_RBP, X86_R13, X86_RAX, X86_RDI, X86_R15, X86_RBX };
	static const s32 disps[] = { -8, -128, -129, 0, 0x7f, 0x80, -0x1000, 8 };
	static const s32 imms[] = { 0, 1, -1, 0x7f, 0x80, 0x7fffffff, -0x80000000, -0x7b };
	static const u64 imm64s[] = { 0, 1, 0xffffffffULL, 0x100000000ULL,
				      0xffffffff81000000ULL, 0x1122334455667788ULL };
	static const char *const nopt[9] = {
		"", "nop", "xchg ax,ax", "nop DWORD PTR [rax]",
		"nop DWORD PTR [rax+0x0]", "nop DWORD PTR [rax+rax*1+0x0]",
		"nop WORD PTR [rax+rax*1+0x0]", "nop DWORD PTR [rax+0x0]",
		"nop DWORD PTR [rax+rax*1+0x0]",
	};
	u8 *p;
	int r, s, b, d, i;

#define AT (p = encbuf + enclen)
	AT;
	add_case(x86_endbr64(p), "endbr64");
	for (r = 0; r < 16; r++) {
		AT;
		add_case(x86_push(p, r), "push %s", r64[r]);
		AT;
		add_case(x86_pop(p, r), "pop %s", r64[r]);
		AT;
		add_case(x86_call_r(p, r), "call %s", r64[r]);
		for (s = 0; s < 16; s++) {
			AT;
			add_case(x86_mov_rr(p, r, s), "mov %s,%s", r64[r], r64[s]);
			AT;
			add_case(x86_test_rr(p, r, s), "test %s,%s", r64[r], r64[s]);
		}
		for (i = 0; i < 8; i++) {
			AT;
			add_case(x86_mov32_ri(p, r, (u32)imms[i]), "mov %s,%s",
				 r32[r], hex64((u32)imms[i]));
			AT;
			add_case(x86_mov_ri_sx(p, r, imms[i]), "mov %s,%s", r64[r],
				 hex64((u64)(s64)imms[i]));
			if (r == X86_RSP || r == X86_RAX || r == X86_R11) {
				AT;
				add_case(x86_sub_ri(p, r, imms[i]), "sub %s,%s",
					 r64[r], hex64((u64)(s64)imms[i]));
				AT;
				add_case(x86_add_ri(p, r, imms[i]), "add %s,%s",
					 r64[r], hex64((u64)(s64)imms[i]));
			}
		}
		for (i = 0; i < 6; i++) {
			AT;
			add_case(x86_movabs(p, r, imm64s[i]), "movabs %s,%s",
				 r64[r], hex64(imm64s[i]));
		}
	}
	for (b = 0; b < 6; b++) {
		for (d = 0; d < 8; d++) {
			int base = bases[b];
			s32 disp = disps[d];

			for (r = 0; r < 16; r++) {
				AT;
				add_case(x86_store(p, base, disp, r),
					 "mov QWORD PTR %s,%s", memop(base, disp), r64[r]);
				AT;
				add_case(x86_load(p, r, base, disp),
					 "mov %s,QWORD PTR %s", r64[r], memop(base, disp));
				AT;
				add_case(x86_lea(p, r, base, disp), "lea %s,%s",
					 r64[r], memop(base, disp));
			}
			for (i = 0; i < 8; i++) {
				AT;
				add_case(x86_store_imm(p, base, disp, imms[i]),
					 "mov QWORD PTR %s,%s", memop(base, disp),
					 hex64((u64)(s64)imms[i]));
			}
			for (i = -1; i <= 1; i++) {
				AT;
				add_case(x86_cmp_mi8(p, base, disp, (s8)i),
					 "cmp QWORD PTR %s,%s", memop(base, disp),
					 hex64((u64)(s64)i));
			}
		}
	}
	/* rel32 and rel8 targets are shown as absolute offsets in the blob */
	for (i = 0; i < 4; i++) {
		u32 tgt = 0x100000 + i * 0x1234;

		AT;
		add_case(x86_call_rel(p, (u8 *)(unsigned long)enclen, (void *)(unsigned long)tgt),
			 "call %#x", tgt);
		AT;
		add_case(x86_jmp_rel(p, (u8 *)(unsigned long)enclen, (void *)(unsigned long)tgt),
			 "jmp %#x", tgt);
	}
	for (i = 0; i < 4; i++) {
		s8 d8 = (s8)(i * 40 - 60);
		s32 d32 = i * 0x10000 + 0x20;

		AT;
		add_case(x86_jcc8(p, X86_CC_E, d8), "je %#x", enclen + 2 + d8);
		AT;
		add_case(x86_jcc8(p, X86_CC_NE, d8), "jne %#x", enclen + 2 + d8);
		AT;
		add_case(x86_jcc32(p, X86_CC_E, d32), "je %#x", enclen + 6 + d32);
		AT;
		add_case(x86_jcc32(p, X86_CC_NE, d32), "jne %#x", enclen + 6 + d32);
	}
	AT;
	add_case(x86_leave(p), "leave");
	AT;
	add_case(x86_ret(p), "ret");
	AT;
	add_case(x86_int3(p), "int3");
	for (i = 1; i <= 8; i++) {
		AT;
		add_case(x86_nop(p, i), "%s", nopt[i]);
	}
#undef AT
}
