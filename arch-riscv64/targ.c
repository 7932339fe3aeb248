// SPDX-License-Identifier: GPL-2.0
/*
 * The riscv64 backend descriptor: what the shared IR plans with, and the
 * lowering of each operation (isel.c).
 */
#include "riscv64.h"

const struct tramp_target tramp_target_riscv64 = {
	.name = "riscv64",
	/* a0-a7; more arguments are refused with -ENOTSUPP */
	.max_reg_args = 8,
	/* struct arguments are refused with -ENOTSUPP */
	.struct_args = false,
	/* code larger than the image, as stock arm64 says it */
	.image_full_err = -EFBIG,
	/* SP must stay 16-byte aligned */
	.frame_align = 16,
	/* slot 0: enter's result, from enter to the exit call */
	.nr_saved = 1,
	.patch_size = RV_TRAMP_PATCH_SIZE,
	.branch_align = 0,
	.tail_reserve = 0,
	/* a BPF function returns R0 to a BPF caller in a5 (TRAMP_RET_BPF) */
	.bpf_ret_reg = true,
	/* CALL_ORIG with SKIP_FRAME calls the body through the saved t0 */
	.orig_body = NULL,
	.op = {
		[TRAMP_OP_PROLOGUE] = rv_op_prologue,
		[TRAMP_OP_SAVE_TCC] = rv_op_save_tcc,
		[TRAMP_OP_RESTORE_TCC] = rv_op_restore_tcc,
		[TRAMP_OP_STORE_IMM] = rv_op_store_imm,
		[TRAMP_OP_SAVE_ARGS] = rv_op_save_args,
		[TRAMP_OP_LOAD_ARGS] = rv_op_load_args,
		[TRAMP_OP_CALL] = rv_op_call,
		[TRAMP_OP_CALL_ORIG] = rv_op_call_orig,
		[TRAMP_OP_STORE_RET] = rv_op_store_ret,
		[TRAMP_OP_LOAD_RET] = rv_op_load_ret,
		[TRAMP_OP_BRANCH] = rv_op_branch,
		[TRAMP_OP_ALIGN] = rv_op_align,
		[TRAMP_OP_PATCH_SITE] = rv_op_patch_site,
		[TRAMP_OP_EPILOGUE] = rv_op_epilogue,
	},
};
