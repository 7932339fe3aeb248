// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64 encoders for the trampoline backend (RV64I only: no compressed
 * instructions, so every instruction is 4 bytes).  Each returns one
 * instruction word and looks at no state, so the conformance harness can
 * check every one of them against a disassembler.  Operands are masked to
 * their fields; callers keep them in range (RV_*_MIN/MAX/RANGE in
 * riscv64.h).  Branch offsets are in bytes, relative to the instruction.
 */
#include "riscv64.h"

/* Format I: imm[11:0] rs1 funct3 rd opcode */
static u32 rv_itype(u32 opc, u32 funct3, int rd, int rs1, s32 imm)
{
	return ((u32)imm & 0xfff) << 20 | (rs1 & 31) << 15 | funct3 << 12 |
	       (rd & 31) << 7 | opc;
}

/* addi rd, rs1, imm */
u32 rv_addi(int rd, int rs1, s32 imm)
{
	return rv_itype(0x13, 0, rd, rs1, imm);
}

/* addiw rd, rs1, imm: 32-bit add, result sign-extended */
u32 rv_addiw(int rd, int rs1, s32 imm)
{
	return rv_itype(0x1b, 0, rd, rs1, imm);
}

/* nop: addi zero, zero, 0 */
u32 rv_nop(void)
{
	return rv_addi(RV_ZERO, RV_ZERO, 0);
}

/* mv rd, rs1: addi rd, rs1, 0 */
u32 rv_mv(int rd, int rs1)
{
	return rv_addi(rd, rs1, 0);
}

/* ld rd, off(rs1) */
u32 rv_ld(int rd, int rs1, s32 off)
{
	return rv_itype(0x03, 3, rd, rs1, off);
}

/* jalr rd, off(rs1) */
u32 rv_jalr(int rd, int rs1, s32 off)
{
	return rv_itype(0x67, 0, rd, rs1, off);
}

/* sd rs2, off(rs1): format S, the immediate split around rs1/rs2 */
u32 rv_sd(int rs2, int rs1, s32 off)
{
	u32 imm = (u32)off & 0xfff;

	return (imm >> 5) << 25 | (rs2 & 31) << 20 | (rs1 & 31) << 15 |
	       3 << 12 | (imm & 31) << 7 | 0x23;
}

/* lui rd, imm20: rd = sign-extended imm20 << 12 */
u32 rv_lui(int rd, u32 imm20)
{
	return (imm20 & 0xfffff) << 12 | (rd & 31) << 7 | 0x37;
}

/* auipc rd, imm20: rd = pc + (sign-extended imm20 << 12) */
u32 rv_auipc(int rd, u32 imm20)
{
	return (imm20 & 0xfffff) << 12 | (rd & 31) << 7 | 0x17;
}

/* jal rd, pc + off: format J, +-1 MiB */
u32 rv_jal(int rd, s32 off)
{
	u32 o = (u32)off;

	return (o >> 20 & 1) << 31 | (o >> 1 & 0x3ff) << 21 |
	       (o >> 11 & 1) << 20 | (o >> 12 & 0xff) << 12 |
	       (rd & 31) << 7 | 0x6f;
}

/* Format B: conditional branch to pc + off, +-4 KiB */
static u32 rv_btype(u32 funct3, int rs1, int rs2, s32 off)
{
	u32 o = (u32)off;

	return (o >> 12 & 1) << 31 | (o >> 5 & 0x3f) << 25 |
	       (rs2 & 31) << 20 | (rs1 & 31) << 15 | funct3 << 12 |
	       (o >> 1 & 0xf) << 8 | (o >> 11 & 1) << 7 | 0x63;
}

/* beq rs1, rs2, pc + off */
u32 rv_beq(int rs1, int rs2, s32 off)
{
	return rv_btype(0, rs1, rs2, off);
}

/* bne rs1, rs2, pc + off */
u32 rv_bne(int rs1, int rs2, s32 off)
{
	return rv_btype(1, rs1, rs2, off);
}

/*
 * Split a PC-relative offset for auipc + a 12-bit signed immediate
 * (jalr, ld, addi): off = (hi20 << 12) + lo12.  False when off is out of
 * the pair's reach, about +-2 GiB.
 */
bool rv_split_pcrel(s64 off, u32 *hi20, s32 *lo12)
{
	s64 hi = (off + 0x800) >> 12;

	if (hi < -(1LL << 19) || hi >= (1LL << 19))
		return false;
	*hi20 = (u32)hi & 0xfffff;
	*lo12 = (s32)(off - (hi << 12));
	return true;
}
