/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 assembly helpers of the conformance harness.
 *
 * conf_call(fn, regs, tcc, out): calls fn with x0-x7 loaded from
 * regs[0..7], x26 = tcc (the tail call counter a BPF caller keeps in x26),
 * and known values in x19-x25, x27, x28 and x29; afterwards stores x19-x28,
 * x29, SP after the call and SP before it into out[0..12] so the harness
 * can check that the trampoline preserved them.  Returns fn's x0.
 */
	.text

	.macro	sentinel reg, i
	movz	\reg, #0xb0b0 + 0x101 * \i
	movk	\reg, #0x5a5a, lsl #48
	.endm

	.globl conf_call
	.type conf_call, %function
conf_call:
	hint	#34			/* bti c */
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	stp	x19, x20, [sp, #-16]!
	stp	x21, x22, [sp, #-16]!
	stp	x23, x24, [sp, #-16]!
	stp	x25, x26, [sp, #-16]!
	stp	x27, x28, [sp, #-16]!
	adrp	x16, conf_out
	str	x3, [x16, :lo12:conf_out]
	mov	x17, sp
	adrp	x16, conf_saved_sp
	str	x17, [x16, :lo12:conf_saved_sp]
	mov	x16, x0
	mov	x17, x1
	sentinel x19, 0
	sentinel x20, 1
	sentinel x21, 2
	sentinel x22, 3
	sentinel x23, 4
	sentinel x24, 5
	sentinel x25, 6
	mov	x26, x2
	sentinel x27, 8
	sentinel x28, 9
	sentinel x29, 10
	ldp	x0, x1, [x17]
	ldp	x2, x3, [x17, #16]
	ldp	x4, x5, [x17, #32]
	ldp	x6, x7, [x17, #48]
	blr	x16
	adrp	x16, conf_out
	ldr	x16, [x16, :lo12:conf_out]
	stp	x19, x20, [x16]
	stp	x21, x22, [x16, #16]
	stp	x23, x24, [x16, #32]
	stp	x25, x26, [x16, #48]
	stp	x27, x28, [x16, #64]
	mov	x17, sp
	stp	x29, x17, [x16, #80]
	adrp	x17, conf_saved_sp
	ldr	x17, [x17, :lo12:conf_saved_sp]
	str	x17, [x16, #96]
	mov	sp, x17
	ldp	x27, x28, [sp], #16
	ldp	x25, x26, [sp], #16
	ldp	x23, x24, [sp], #16
	ldp	x21, x22, [sp], #16
	ldp	x19, x20, [sp], #16
	ldp	x29, x30, [sp], #16
	ret
	.size conf_call, .-conf_call

/*
 * The traced function's body as the trampoline sees it: records x26 at
 * entry (the tail call counter must arrive intact), then behaves like a
 * pac-ret kernel function: signs its return address with paciasp and
 * checks it with autiasp, so a trampoline that enters the body with a
 * return address or SP other than the ones it returns with faults.
 */
	.globl conf_orig_asm
	.type conf_orig_asm, %function
conf_orig_asm:
	hint	#34			/* bti c */
	adrp	x16, conf_orig_tcc
	str	x26, [x16, :lo12:conf_orig_tcc]
	hint	#25			/* paciasp */
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	conf_orig_c
	ldp	x29, x30, [sp], #16
	hint	#29			/* autiasp */
	ret
	.size conf_orig_asm, .-conf_orig_asm

/* Trashes the caller-saved registers a call may trash. */
	.globl conf_clobber
	.type conf_clobber, %function
conf_clobber:
	hint	#34			/* bti c */
	movz	x0, #0xdead
	movk	x0, #0xbeef, lsl #48
	mov	x1, x0
	mov	x2, x0
	mov	x3, x0
	mov	x4, x0
	mov	x5, x0
	mov	x6, x0
	mov	x7, x0
	mov	x8, x0
	mov	x9, x0
	mov	x10, x0
	mov	x11, x0
	mov	x12, x0
	mov	x13, x0
	mov	x14, x0
	mov	x15, x0
	mov	x16, x0
	mov	x17, x0
	ret
	.size conf_clobber, .-conf_clobber

/* No return thunk on arm64; defined so the harness links. */
	.globl conf_return_thunk
	.type conf_return_thunk, %function
conf_return_thunk:
	hint	#34
	ret
	.size conf_return_thunk, .-conf_return_thunk

	.data
	.balign 8
	.globl conf_orig_tcc, conf_thunk_count
conf_out:		.quad 0
conf_saved_sp:		.quad 0
conf_orig_tcc:		.quad 0
conf_thunk_count:	.quad 0

	.section .note.GNU-stack,"",%progbits
