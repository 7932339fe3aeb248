/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly helpers of the conformance harness.
 *
 * conf_call(fn, regs, tcc, out): calls fn with the six argument registers
 * loaded from regs[0..5], RAX = tcc (the tail call counter a BPF caller
 * passes), and known values in every callee-saved register; afterwards
 * stores RBX, RBP, R12-R15 and RSP into out[0..6] so the harness can check
 * that the trampoline preserved them.  Returns fn's RAX.
 */
	.intel_syntax noprefix
	.text

	.globl conf_call
	.type conf_call, @function
conf_call:
	push	rbp
	push	rbx
	push	r12
	push	r13
	push	r14
	push	r15
	sub	rsp, 8
	mov	QWORD PTR [rip + conf_out], rcx
	mov	QWORD PTR [rip + conf_saved_rsp], rsp
	mov	r11, rdi
	mov	r10, rsi
	mov	rax, rdx
	movabs	rbx, 0x5a5a00000000b0b0
	movabs	rbp, 0x5a5a00000000b1b1
	movabs	r12, 0x5a5a00000000b2b2
	movabs	r13, 0x5a5a00000000b3b3
	movabs	r14, 0x5a5a00000000b4b4
	movabs	r15, 0x5a5a00000000b5b5
	mov	rdi, QWORD PTR [r10]
	mov	rsi, QWORD PTR [r10 + 8]
	mov	rdx, QWORD PTR [r10 + 16]
	mov	rcx, QWORD PTR [r10 + 24]
	mov	r8, QWORD PTR [r10 + 32]
	mov	r9, QWORD PTR [r10 + 40]
	call	r11
	mov	r11, QWORD PTR [rip + conf_out]
	mov	QWORD PTR [r11], rbx
	mov	QWORD PTR [r11 + 8], rbp
	mov	QWORD PTR [r11 + 16], r12
	mov	QWORD PTR [r11 + 24], r13
	mov	QWORD PTR [r11 + 32], r14
	mov	QWORD PTR [r11 + 40], r15
	mov	QWORD PTR [r11 + 48], rsp
	mov	r10, QWORD PTR [rip + conf_saved_rsp]
	mov	QWORD PTR [r11 + 56], r10
	mov	rsp, r10
	add	rsp, 8
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	rbx
	pop	rbp
	ret
	.size conf_call, .-conf_call

/*
 * The traced function as the trampoline sees it: records RAX at entry (the
 * tail call counter must arrive intact) and continues in C.
 */
	.globl conf_orig_asm
	.type conf_orig_asm, @function
conf_orig_asm:
	mov	QWORD PTR [rip + conf_orig_tcc], rax
	jmp	conf_orig_c
	.size conf_orig_asm, .-conf_orig_asm

/* Trashes the caller-saved registers a call may trash (RAX is the result). */
	.globl conf_clobber
	.type conf_clobber, @function
conf_clobber:
	mov	rcx, 0xdeadbeefdead0001
	mov	rdx, rcx
	mov	rsi, rcx
	mov	rdi, rcx
	mov	r8, rcx
	mov	r9, rcx
	mov	r10, rcx
	mov	r11, rcx
	mov	rax, rcx
	ret
	.size conf_clobber, .-conf_clobber

/* Stand-in for x86_return_thunk. */
	.globl conf_return_thunk
	.type conf_return_thunk, @function
conf_return_thunk:
	incq	QWORD PTR [rip + conf_thunk_count]
	ret
	.size conf_return_thunk, .-conf_return_thunk

	.data
	.globl conf_orig_tcc, conf_thunk_count
conf_out:		.quad 0
conf_saved_rsp:		.quad 0
conf_orig_tcc:		.quad 0
conf_thunk_count:	.quad 0

	.section .note.GNU-stack,"",@progbits
