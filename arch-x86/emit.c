// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 encoders for the trampoline backend.  Each writes exactly one
 * instruction at p (at most X86_MAX_INSN bytes) and returns its length; none
 * looks at any state, so the conformance harness can check every one of them
 * against a disassembler.  Memory operands are always [base + disp] with an
 * explicit displacement (disp8 when it fits, else disp32); bases that need a
 * SIB byte (RSP, R12) are never used by the backend and not supported.
 */
#include "x86.h"

/* REX prefix: W = 64-bit operand, R extends ModRM.reg, B extends ModRM.rm. */
static u8 rex(int w, int reg, int rm)
{
	return 0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0) | ((rm & 8) ? 1 : 0);
}

static u8 modrm(int mod, int reg, int rm)
{
	return (mod << 6) | ((reg & 7) << 3) | (rm & 7);
}

static bool fits_s8(s64 v)
{
	return v >= -128 && v <= 127;
}

static bool fits_s32(s64 v)
{
	return v >= -2147483648LL && v <= 2147483647LL;
}

static int put32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
	return 4;
}

/* ModRM (+ disp8/disp32) for [base + disp], reg in ModRM.reg. */
static int mem(u8 *p, int reg, int base, s32 disp)
{
	if (fits_s8(disp)) {
		p[0] = modrm(1, reg, base);
		p[1] = (u8)disp;
		return 2;
	}
	p[0] = modrm(2, reg, base);
	return 1 + put32(p + 1, disp);
}

/* endbr64: f3 0f 1e fa (IBT landing pad, a nop without CET) */
int x86_endbr64(u8 *p)
{
	p[0] = 0xf3;
	p[1] = 0x0f;
	p[2] = 0x1e;
	p[3] = 0xfa;
	return 4;
}

/* push r64: [41] 50+r */
int x86_push(u8 *p, int reg)
{
	int n = 0;

	if (reg & 8)
		p[n++] = 0x41;
	p[n++] = 0x50 + (reg & 7);
	return n;
}

/* pop r64: [41] 58+r */
int x86_pop(u8 *p, int reg)
{
	int n = 0;

	if (reg & 8)
		p[n++] = 0x41;
	p[n++] = 0x58 + (reg & 7);
	return n;
}

/* mov dst, src (64-bit): REX.W 89 /r */
int x86_mov_rr(u8 *p, int dst, int src)
{
	p[0] = rex(1, src, dst);
	p[1] = 0x89;
	p[2] = modrm(3, src, dst);
	return 3;
}

/* mov dst32, imm32 (zero-extends to 64 bits): [41] b8+r id */
int x86_mov32_ri(u8 *p, int dst, u32 imm)
{
	int n = 0;

	if (dst & 8)
		p[n++] = 0x41;
	p[n++] = 0xb8 + (dst & 7);
	return n + put32(p + n, imm);
}

/* mov dst, simm32 (sign-extends): REX.W c7 /0 id */
int x86_mov_ri_sx(u8 *p, int dst, s32 imm)
{
	p[0] = rex(1, 0, dst);
	p[1] = 0xc7;
	p[2] = modrm(3, 0, dst);
	return 3 + put32(p + 3, imm);
}

/* movabs dst, imm64: REX.W b8+r io */
int x86_movabs(u8 *p, int dst, u64 imm)
{
	p[0] = rex(1, 0, dst);
	p[1] = 0xb8 + (dst & 7);
	put32(p + 2, (u32)imm);
	put32(p + 6, (u32)(imm >> 32));
	return 10;
}

/* mov qword [base + disp], src: REX.W 89 /r */
int x86_store(u8 *p, int base, s32 disp, int src)
{
	p[0] = rex(1, src, base);
	p[1] = 0x89;
	return 2 + mem(p + 2, src, base, disp);
}

/* mov dst, qword [base + disp]: REX.W 8b /r */
int x86_load(u8 *p, int dst, int base, s32 disp)
{
	p[0] = rex(1, dst, base);
	p[1] = 0x8b;
	return 2 + mem(p + 2, dst, base, disp);
}

/* mov qword [base + disp], simm32: REX.W c7 /0 id */
int x86_store_imm(u8 *p, int base, s32 disp, s32 imm)
{
	int n;

	p[0] = rex(1, 0, base);
	p[1] = 0xc7;
	n = 2 + mem(p + 2, 0, base, disp);
	return n + put32(p + n, imm);
}

/* lea dst, [base + disp]: REX.W 8d /r */
int x86_lea(u8 *p, int dst, int base, s32 disp)
{
	p[0] = rex(1, dst, base);
	p[1] = 0x8d;
	return 2 + mem(p + 2, dst, base, disp);
}

/* op r64, imm: REX.W 83 /ext ib, or REX.W 81 /ext id */
static int alu_ri(u8 *p, int ext, int reg, s32 imm)
{
	p[0] = rex(1, 0, reg);
	if (fits_s8(imm)) {
		p[1] = 0x83;
		p[2] = modrm(3, ext, reg);
		p[3] = (u8)imm;
		return 4;
	}
	p[1] = 0x81;
	p[2] = modrm(3, ext, reg);
	return 3 + put32(p + 3, imm);
}

/* sub r64, imm: REX.W 83 /5 ib | REX.W 81 /5 id */
int x86_sub_ri(u8 *p, int reg, s32 imm)
{
	return alu_ri(p, 5, reg, imm);
}

/* add r64, imm: REX.W 83 /0 ib | REX.W 81 /0 id */
int x86_add_ri(u8 *p, int reg, s32 imm)
{
	return alu_ri(p, 0, reg, imm);
}

/* test a, b (64-bit): REX.W 85 /r */
int x86_test_rr(u8 *p, int a, int b)
{
	p[0] = rex(1, b, a);
	p[1] = 0x85;
	p[2] = modrm(3, b, a);
	return 3;
}

/* cmp qword [base + disp], simm8: REX.W 83 /7 ib */
int x86_cmp_mi8(u8 *p, int base, s32 disp, s8 imm)
{
	int n;

	p[0] = rex(1, 0, base);
	p[1] = 0x83;
	n = 2 + mem(p + 2, 7, base, disp);
	p[n] = (u8)imm;
	return n + 1;
}

/* opcode rel32 from ip to target; -ERANGE when out of reach */
static int rel32(u8 *p, u8 opcode, const u8 *ip, const void *target)
{
	s64 d = (s64)((unsigned long)target - (unsigned long)(ip + 5));

	if (!fits_s32(d))
		return -ERANGE;
	p[0] = opcode;
	return 1 + put32(p + 1, (u32)d);
}

/* call rel32: e8 cd (ip is the address of this instruction) */
int x86_call_rel(u8 *p, const u8 *ip, const void *target)
{
	return rel32(p, 0xe8, ip, target);
}

/* jmp rel32: e9 cd (ip is the address of this instruction) */
int x86_jmp_rel(u8 *p, const u8 *ip, const void *target)
{
	return rel32(p, 0xe9, ip, target);
}

/* call *r64: [41] ff /2 */
int x86_call_r(u8 *p, int reg)
{
	int n = 0;

	if (reg & 8)
		p[n++] = 0x41;
	p[n++] = 0xff;
	p[n++] = modrm(3, 2, reg);
	return n;
}

/* jcc rel8: 70+cc cb */
int x86_jcc8(u8 *p, int cc, s8 disp)
{
	p[0] = 0x70 + cc;
	p[1] = (u8)disp;
	return 2;
}

/* jcc rel32: 0f 80+cc cd */
int x86_jcc32(u8 *p, int cc, s32 disp)
{
	p[0] = 0x0f;
	p[1] = 0x80 + cc;
	return 2 + put32(p + 2, disp);
}

/* leave: c9 */
int x86_leave(u8 *p)
{
	p[0] = 0xc9;
	return 1;
}

/* ret: c3 */
int x86_ret(u8 *p)
{
	p[0] = 0xc3;
	return 1;
}

/* int3: cc (stops straight-line speculation past a ret) */
int x86_int3(u8 *p)
{
	p[0] = 0xcc;
	return 1;
}

/*
 * The x86-64 kernel's nops of 1 to 8 bytes (BYTES_NOP1..8 in asm/nops.h),
 * so that the nop at ip_after_call is the x86_nops[5] that
 * bpf_arch_text_poke() expects to find there.
 */
static const u8 nops[9][8] = {
	[1] = { 0x90 },						/* nop */
	[2] = { 0x66, 0x90 },					/* osp nop */
	[3] = { 0x0f, 0x1f, 0x00 },				/* nopl (%rax) */
	[4] = { 0x0f, 0x1f, 0x40, 0x00 },			/* nopl 0(%rax) */
	[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 },			/* nopl 0(%rax,%rax) */
	[6] = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },		/* osp nopl 0(..) */
	[7] = { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },	/* nopl 0L(%rax) */
	[8] = { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 }, /* nopl 0L(..) */
};

/* nop of len bytes, 1 <= len <= 8 */
int x86_nop(u8 *p, int len)
{
	int i;

	if (len < 1 || len > 8)
		return -EINVAL;
	for (i = 0; i < len; i++)
		p[i] = nops[len][i];
	return len;
}
