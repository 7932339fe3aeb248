// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 backend descriptor: what the shared IR plans with, and the
 * lowering of each operation (isel.c).
 */
#include "arm64.h"

const struct tramp_target tramp_target_arm64 = {
	.name = "arm64",
	/* x0-x7; stock 6.1 refuses more arguments with the same error */
	.max_reg_args = 8,
	/* stock 6.1 refuses any struct argument with the same error */
	.struct_args = false,
	/* stock: -EFBIG when the code is longer than the image */
	.image_full_err = -EFBIG,
	/* SP must stay 16-byte aligned */
	.frame_align = 16,
	/* slot 0: enter's result, from enter to the exit call */
	.nr_saved = 1,
	.patch_size = A64_TRAMP_PATCH_SIZE,
	.branch_align = 0,
	.tail_reserve = 0,
	/* CALL_ORIG with SKIP_FRAME returns into the body through x30 */
	.orig_body = NULL,
	.op = {
		[TRAMP_OP_PROLOGUE] = a64_op_prologue,
		[TRAMP_OP_SAVE_TCC] = a64_op_save_tcc,
		[TRAMP_OP_RESTORE_TCC] = a64_op_restore_tcc,
		[TRAMP_OP_STORE_IMM] = a64_op_store_imm,
		[TRAMP_OP_SAVE_ARGS] = a64_op_save_args,
		[TRAMP_OP_LOAD_ARGS] = a64_op_load_args,
		[TRAMP_OP_CALL] = a64_op_call,
		[TRAMP_OP_CALL_ORIG] = a64_op_call_orig,
		[TRAMP_OP_STORE_RET] = a64_op_store_ret,
		[TRAMP_OP_LOAD_RET] = a64_op_load_ret,
		[TRAMP_OP_BRANCH] = a64_op_branch,
		[TRAMP_OP_ALIGN] = a64_op_align,
		[TRAMP_OP_PATCH_SITE] = a64_op_patch_site,
		[TRAMP_OP_EPILOGUE] = a64_op_epilogue,
	},
};
