// SPDX-License-Identifier: GPL-2.0
/*
 * The stub backend: every hook refuses with -TRAMP_E_UNSUPPORTED, which is what stock
 * 6.1 returns on an architecture without trampolines.  A new port starts as
 * a copy of this file (see PORTING.md) and replaces hooks one at a time; the
 * conformance harness reports which shapes still fail.
 */
#include "tramp_ir.h"

static int stub_op(struct tramp_ctx *c, const struct tramp_op *op)
{
	return -TRAMP_E_UNSUPPORTED;
}

/* Never reached: stub_op refuses the trampoline before CALL_ORIG runs. */
static const void *stub_orig_body(const void *func_addr)
{
	return func_addr;
}

const struct tramp_target tramp_target_stub = {
	.name = "stub",
	.max_reg_args = MAX_BPF_FUNC_ARGS,
	.struct_args = true,
	.image_full_err = -EFAULT,
	.frame_align = 16,
	.nr_saved = 0,
	.patch_size = 0,
	.branch_align = 0,
	.tail_reserve = 0,
	.orig_body = stub_orig_body,
	.op = {
		[TRAMP_OP_PROLOGUE] = stub_op,
		[TRAMP_OP_SAVE_TCC] = stub_op,
		[TRAMP_OP_RESTORE_TCC] = stub_op,
		[TRAMP_OP_STORE_IMM] = stub_op,
		[TRAMP_OP_SAVE_ARGS] = stub_op,
		[TRAMP_OP_LOAD_ARGS] = stub_op,
		[TRAMP_OP_CALL] = stub_op,
		[TRAMP_OP_CALL_ORIG] = stub_op,
		[TRAMP_OP_STORE_RET] = stub_op,
		[TRAMP_OP_LOAD_RET] = stub_op,
		[TRAMP_OP_BRANCH] = stub_op,
		[TRAMP_OP_LABEL] = NULL,	/* bound by shared code */
		[TRAMP_OP_ALIGN] = stub_op,
		[TRAMP_OP_PATCH_SITE] = stub_op,
		[TRAMP_OP_EPILOGUE] = stub_op,
	},
};
