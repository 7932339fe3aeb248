// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 calling convention as the trampoline backend uses it.
 *
 * Arguments: RDI, RSI, RDX, RCX, R8, R9, one 8-byte slot each; a struct of
 * 9..16 bytes takes two consecutive registers, which is why the IR counts
 * slots, not arguments.  Return value in RAX.  The backend keeps enter's
 * result in RBX (callee-saved, so the program and exit calls preserve it);
 * RBX itself is saved in the IR frame's saved slot 0.  RAX doubles as
 * scratch, and carries the tail call counter in and out of a trampoline
 * attached to a BPF program that does tail calls (BPF_TRAMP_F_TAIL_CALL_CTX).
 */
#include "x86.h"

const int x86_arg_regs[6] = {
	X86_RDI, X86_RSI, X86_RDX, X86_RCX, X86_R8, X86_R9,
};

/*
 * The kernel's is_endbr(): ENDBR64, ENDBR32, or the poison nop that
 * apply_ibt_endbr() writes over a sealed ENDBR.
 */
bool x86_is_endbr(u32 insn)
{
	if (insn == 0x001f0f66)		/* osp nopl (%rax) */
		return true;
	return (insn & ~0x01000000U) == 0xfa1e0ff3;	/* endbr64/32 */
}

/*
 * With SKIP_FRAME the trampoline was called by the 5-byte call patched at the
 * traced function's entry (after its ENDBR on IBT kernels); the original body
 * starts right after that call.
 */
const void *x86_orig_body(const void *func_addr)
{
	const u8 *ip = func_addr;
	u32 insn;

	if (tramp_env_cfi_landing_pad()) {
		memcpy(&insn, ip, sizeof(insn));
		if (x86_is_endbr(insn))
			ip += X86_ENDBR_SIZE;
	}
	return ip + X86_TRAMP_PATCH_SIZE;
}
