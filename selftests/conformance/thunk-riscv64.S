/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64 assembly helpers of the conformance harness.
 *
 * conf_call(fn, regs, tcc, out): calls fn with a0-a7 loaded from
 * regs[0..7], then a6 = tcc (the register a BPF caller keeps the tail call
 * counter in; the harness makes the two agree when a6 is an argument), and
 * known values in s1-s11 and s0; afterwards stores s1-s11, s0, SP after
 * the call and SP before it into out[0..13] so the harness can check that
 * the trampoline preserved them, and a5 (what a BPF caller reads as R0)
 * into out[14].  Returns fn's a0.
 */
	.option	norvc
	.text

	.macro	sentinel reg, i
	li	\reg, 0x5a5a00000000b0b0 + 0x101 * \i
	.endm

	.globl conf_call
	.type conf_call, %function
conf_call:
	addi	sp, sp, -112
	sd	ra, 104(sp)
	sd	s0, 96(sp)
	sd	s1, 88(sp)
	sd	s2, 80(sp)
	sd	s3, 72(sp)
	sd	s4, 64(sp)
	sd	s5, 56(sp)
	sd	s6, 48(sp)
	sd	s7, 40(sp)
	sd	s8, 32(sp)
	sd	s9, 24(sp)
	sd	s10, 16(sp)
	sd	s11, 8(sp)
	la	t0, conf_out
	sd	a3, 0(t0)
	la	t0, conf_saved_sp
	sd	sp, 0(t0)
	mv	t2, a0
	mv	t1, a1
	mv	t3, a2
	sentinel s1, 0
	sentinel s2, 1
	sentinel s3, 2
	sentinel s4, 3
	sentinel s5, 4
	sentinel s6, 5
	sentinel s7, 6
	sentinel s8, 7
	sentinel s9, 8
	sentinel s10, 9
	sentinel s11, 10
	sentinel s0, 11
	ld	a0, 0(t1)
	ld	a1, 8(t1)
	ld	a2, 16(t1)
	ld	a3, 24(t1)
	ld	a4, 32(t1)
	ld	a5, 40(t1)
	ld	a6, 48(t1)
	ld	a7, 56(t1)
	mv	a6, t3
	jalr	ra, 0(t2)
	la	t1, conf_out
	ld	t1, 0(t1)
	sd	s1, 0(t1)
	sd	s2, 8(t1)
	sd	s3, 16(t1)
	sd	s4, 24(t1)
	sd	s5, 32(t1)
	sd	s6, 40(t1)
	sd	s7, 48(t1)
	sd	s8, 56(t1)
	sd	s9, 64(t1)
	sd	s10, 72(t1)
	sd	s11, 80(t1)
	sd	s0, 88(t1)
	sd	sp, 96(t1)
	la	t2, conf_saved_sp
	ld	t2, 0(t2)
	sd	t2, 104(t1)
	sd	a5, 112(t1)
	mv	sp, t2
	ld	ra, 104(sp)
	ld	s0, 96(sp)
	ld	s1, 88(sp)
	ld	s2, 80(sp)
	ld	s3, 72(sp)
	ld	s4, 64(sp)
	ld	s5, 56(sp)
	ld	s6, 48(sp)
	ld	s7, 40(sp)
	ld	s8, 32(sp)
	ld	s9, 24(sp)
	ld	s10, 16(sp)
	ld	s11, 8(sp)
	addi	sp, sp, 112
	ret
	.size conf_call, .-conf_call

/*
 * The traced function's body as the trampoline sees it: records a6 at
 * entry (the tail call counter must arrive intact), then calls the C
 * model with a frame record of its own and returns through ra, so a
 * trampoline that enters the body with a wrong ra or SP goes astray.
 * As JIT'd BPF code (conf_orig_bpf) it returns as 6.1's riscv JIT
 * epilogue does: R0 in a5 for a BPF caller, and a0 = R0's low 32 bits
 * sign-extended ("addiw a0, a5, 0") for everyone else.  As a C function
 * it returns in a0 and leaves junk in a5.
 */
	.globl conf_orig_asm
	.type conf_orig_asm, %function
conf_orig_asm:
	la	t1, conf_orig_tcc
	sd	a6, 0(t1)
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	call	conf_orig_c
	la	t1, conf_orig_bpf
	lbu	t1, 0(t1)
	beqz	t1, 1f
	mv	a5, a0			/* R0 */
	addiw	a0, a5, 0		/* the JIT epilogue's C return value */
	j	2f
1:	li	a5, 0xdeadbeefdead0005	/* a C function's a5: undefined */
2:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size conf_orig_asm, .-conf_orig_asm

/* Trashes the caller-saved registers a call may trash. */
	.globl conf_clobber
	.type conf_clobber, %function
conf_clobber:
	li	t0, 0xdeadbeefdead0001
	mv	t1, t0
	mv	t2, t0
	mv	t3, t0
	mv	t4, t0
	mv	t5, t0
	mv	t6, t0
	mv	a0, t0
	mv	a1, t0
	mv	a2, t0
	mv	a3, t0
	mv	a4, t0
	mv	a5, t0
	mv	a6, t0
	mv	a7, t0
	ret
	.size conf_clobber, .-conf_clobber

/* No return thunk on riscv64; defined so the harness links. */
	.globl conf_return_thunk
	.type conf_return_thunk, %function
conf_return_thunk:
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
