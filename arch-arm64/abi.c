// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 calling convention as the trampoline backend uses it (AAPCS64).
 *
 * Arguments: x0-x7, one 8-byte slot each (stock 6.1 arm64 refuses struct
 * arguments and more than eight arguments).  Return value in x0.  x9-x15
 * are caller-saved temporaries: x10 is the scratch register, as in stock.
 * Enter's result is kept in the IR frame's backend slot 0 rather than in
 * a callee-saved register: a register would be saved and restored by
 * every trampoline, while the slot costs what moves to and from a register
 * would (one store after enter, one load for exit).
 *
 * Entry: a traced kernel function or BPF program starts with
 *
 *	[bti c | paciasp]
 *	mov	x9, x30
 *	bl	<trampoline>		(or bl ftrace_caller ... br x17)
 *	<body>
 *
 * so on entry x9 is the traced function's return address (its caller's
 * LR) and x30 the address of the body, right after the BL.  A struct_ops
 * trampoline is an ordinary function called with BLR: x9 means nothing.
 * The trampoline may be reached by BL, BR (x17 from ftrace_common, or a
 * PLT) or BLR, hence "bti jc" at its entry.  It never signs or
 * authenticates a return address: the traced function's own paciasp runs
 * in its body, after the patched call, and pairs with its autiasp there.
 *
 * The tail call counter of a BPF caller (TAIL_CALL_CTX) lives in x26, a
 * callee-saved register the trampoline and everything it calls preserve,
 * so it reaches the original function without being saved.
 */
#include "arm64.h"

const int a64_arg_regs[8] = {
	A64_X0, A64_X1, A64_X2, A64_X3, A64_X4, A64_X5, A64_X6, A64_X7,
};
