// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64 calling convention as the trampoline backend uses it (LP64).
 *
 * Arguments: a0-a7, one 8-byte slot each; more, or any struct argument,
 * is refused with -ENOTSUPP.  Return value in a0; a BPF function returns
 * R0 to a BPF caller in a5 (TRAMP_RET_BPF).  t1 is the scratch
 * register.  Enter's result is kept in the IR frame's backend slot 0, not
 * in a callee-saved register that every trampoline would save and
 * restore.
 *
 * Entry: a traced kernel function starts with the 8-byte call site 6.1's
 * ftrace patches in
 *
 *	auipc	t0, hi
 *	jalr	t0, lo(t0)		(to the trampoline)
 *	<body>
 *
 * so on entry t0 is the address of the body and ra is still the traced
 * function's return address (its caller's).  A struct_ops trampoline is
 * an ordinary function called with ra as its return address.
 *
 * The tail call counter of a BPF caller (TAIL_CALL_CTX) lives in a6, a
 * caller-saved register: the trampoline saves it in its frame and
 * restores it before calling the original program.  BPF programs have at
 * most five arguments, so a6 never carries one there.
 */
#include "riscv64.h"

const int rv_arg_regs[8] = {
	RV_A0, RV_A1, RV_A2, RV_A3, RV_A4, RV_A5, RV_A6, RV_A7,
};
