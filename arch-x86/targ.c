// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 backend descriptor: what the shared IR plans with, and the
 * lowering of each operation (isel.c).
 */
#include "x86.h"

const struct tramp_target tramp_target_x86 = {
	.name = "x86_64",
	/* six argument registers; stock 6.1 refuses more with the same error */
	.max_reg_args = 6,
	/* structs of up to 16 bytes, in one or two registers */
	.struct_args = true,
	/* stock: -EFAULT when less than BPF_INSN_SAFETY bytes stay free */
	.image_full_err = -EFAULT,
	/* the kernel keeps 8-byte stack alignment (-mpreferred-stack-boundary=3) */
	.frame_align = 8,
	/* RBX, which holds enter's result across the program call */
	.nr_saved = 1,
	.patch_size = X86_TRAMP_PATCH_SIZE,
	/* branch targets 16-byte aligned (Intel optimization manual 3.4.1.4) */
	.branch_align = 16,
	/* stock's BPF_INSN_SAFETY margin at the end of the image */
	.tail_reserve = 64,
	.orig_body = x86_orig_body,
	.op = {
		[TRAMP_OP_PROLOGUE] = x86_op_prologue,
		[TRAMP_OP_SAVE_TCC] = x86_op_save_tcc,
		[TRAMP_OP_RESTORE_TCC] = x86_op_restore_tcc,
		[TRAMP_OP_STORE_IMM] = x86_op_store_imm,
		[TRAMP_OP_SAVE_ARGS] = x86_op_save_args,
		[TRAMP_OP_LOAD_ARGS] = x86_op_load_args,
		[TRAMP_OP_CALL] = x86_op_call,
		[TRAMP_OP_CALL_ORIG] = x86_op_call_orig,
		[TRAMP_OP_STORE_RET] = x86_op_store_ret,
		[TRAMP_OP_LOAD_RET] = x86_op_load_ret,
		[TRAMP_OP_BRANCH] = x86_op_branch,
		[TRAMP_OP_ALIGN] = x86_op_align,
		[TRAMP_OP_PATCH_SITE] = x86_op_patch_site,
		[TRAMP_OP_EPILOGUE] = x86_op_epilogue,
	},
};
