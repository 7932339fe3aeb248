// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 encoders for the trampoline backend.  Each returns one A64
 * instruction word and looks at no state, so the conformance harness can
 * check every one of them against a disassembler.  All operations are
 * 64-bit.  Operands are masked to their fields; callers keep them in range
 * (see the A64_*_MAX/RANGE limits in arm64.h).  Branch and ADR offsets are
 * in bytes, relative to the instruction itself.
 */
#include "arm64.h"

/* Format: system hint, HINT #op (NOP, BTI) */
static u32 a64_hint(u32 op)
{
	return 0xd503201f | (op & 0x7f) << 5;
}

/* nop: hint #0 */
u32 a64_nop(void)
{
	return a64_hint(0);
}

/* bti c: hint #34, landing pad for BLR (and BR through x16/x17) */
u32 a64_bti_c(void)
{
	return a64_hint(34);
}

/* bti jc: hint #38, landing pad for BR and BLR */
u32 a64_bti_jc(void)
{
	return a64_hint(38);
}

/* Format: load/store 64-bit register, unsigned scaled 12-bit offset */
static u32 a64_ldst_uimm(u32 opc, int rt, int rn, u32 off)
{
	return opc | ((off / 8) & 0xfff) << 10 | (rn & 31) << 5 | (rt & 31);
}

/* str xt, [xn, #off]: f9000000 */
u32 a64_str(int rt, int rn, u32 off)
{
	return a64_ldst_uimm(0xf9000000, rt, rn, off);
}

/* ldr xt, [xn, #off]: f9400000 */
u32 a64_ldr(int rt, int rn, u32 off)
{
	return a64_ldst_uimm(0xf9400000, rt, rn, off);
}

/* Format: load/store pair of 64-bit registers, signed scaled 7-bit offset */
static u32 a64_ldstp(u32 opc, int rt, int rt2, int rn, s32 off)
{
	return opc | ((u32)(off / 8) & 0x7f) << 15 | (rt2 & 31) << 10 |
	       (rn & 31) << 5 | (rt & 31);
}

/* stp xt, xt2, [xn, #off]! (pre-index): a9800000 */
u32 a64_stp_pre(int rt, int rt2, int rn, s32 off)
{
	return a64_ldstp(0xa9800000, rt, rt2, rn, off);
}

/* ldp xt, xt2, [xn], #off (post-index): a8c00000 */
u32 a64_ldp_post(int rt, int rt2, int rn, s32 off)
{
	return a64_ldstp(0xa8c00000, rt, rt2, rn, off);
}

/* Format: add/subtract 64-bit, unshifted 12-bit immediate */
static u32 a64_addsub_imm(u32 opc, int rd, int rn, u32 imm)
{
	return opc | (imm & 0xfff) << 10 | (rn & 31) << 5 | (rd & 31);
}

/* add xd|sp, xn|sp, #imm: 91000000 */
u32 a64_add_imm(int rd, int rn, u32 imm)
{
	return a64_addsub_imm(0x91000000, rd, rn, imm);
}

/* sub xd|sp, xn|sp, #imm: d1000000 */
u32 a64_sub_imm(int rd, int rn, u32 imm)
{
	return a64_addsub_imm(0xd1000000, rd, rn, imm);
}

/* mov xd, xm: orr xd, xzr, xm: aa0003e0 (neither may be SP) */
u32 a64_mov(int rd, int rm)
{
	return 0xaa0003e0 | (rm & 31) << 16 | (rd & 31);
}

/* mov xd|sp, xn|sp: add xd, xn, #0, for moves to or from SP */
u32 a64_mov_sp(int rd, int rn)
{
	return a64_add_imm(rd, rn, 0);
}

/* Format: move wide immediate, 64-bit, imm16 at bit 16 * hw */
static u32 a64_movw(u32 opc, int rd, u16 imm, int shift)
{
	return opc | (u32)(shift / 16 & 3) << 21 | (u32)imm << 5 | (rd & 31);
}

/* movz xd, #imm, lsl #shift: d2800000 */
u32 a64_movz(int rd, u16 imm, int shift)
{
	return a64_movw(0xd2800000, rd, imm, shift);
}

/* movn xd, #imm, lsl #shift: 92800000 */
u32 a64_movn(int rd, u16 imm, int shift)
{
	return a64_movw(0x92800000, rd, imm, shift);
}

/* movk xd, #imm, lsl #shift: f2800000 */
u32 a64_movk(int rd, u16 imm, int shift)
{
	return a64_movw(0xf2800000, rd, imm, shift);
}

/* adr xd, pc + off (+-1 MiB): 10000000, immlo at 29, immhi at 5 */
u32 a64_adr(int rd, s32 off)
{
	return 0x10000000 | ((u32)off & 3) << 29 |
	       ((u32)off >> 2 & 0x7ffff) << 5 | (rd & 31);
}

/* ldr xt, pc + off: 58000000, a 64-bit load from a literal +-1 MiB away */
u32 a64_ldr_lit(int rt, s32 off)
{
	return 0x58000000 | ((u32)off >> 2 & 0x7ffff) << 5 | (rt & 31);
}

/* Format: unconditional branch to register */
static u32 a64_branch_reg(u32 opc, int rn)
{
	return opc | (rn & 31) << 5;
}

/* br xn: d61f0000 */
u32 a64_br(int rn)
{
	return a64_branch_reg(0xd61f0000, rn);
}

/* blr xn: d63f0000 */
u32 a64_blr(int rn)
{
	return a64_branch_reg(0xd63f0000, rn);
}

/* ret xn: d65f0000 (needs no BTI landing pad at the target) */
u32 a64_ret(int rn)
{
	return a64_branch_reg(0xd65f0000, rn);
}

/* Format: compare 64-bit register and branch, 19-bit word offset */
static u32 a64_cmp_branch(u32 opc, int rt, s32 off)
{
	return opc | ((u32)off >> 2 & 0x7ffff) << 5 | (rt & 31);
}

/* cbz xt, pc + off: b4000000 */
u32 a64_cbz(int rt, s32 off)
{
	return a64_cmp_branch(0xb4000000, rt, off);
}

/* cbnz xt, pc + off: b5000000 */
u32 a64_cbnz(int rt, s32 off)
{
	return a64_cmp_branch(0xb5000000, rt, off);
}

/* Format: unconditional branch (immediate), 26-bit word offset */
static u32 a64_branch_imm(u32 opc, s32 off)
{
	return opc | ((u32)off >> 2 & 0x3ffffff);
}

/* b pc + off: 14000000 */
u32 a64_b(s32 off)
{
	return a64_branch_imm(0x14000000, off);
}

/* bl pc + off: 94000000 */
u32 a64_bl(s32 off)
{
	return a64_branch_imm(0x94000000, off);
}
