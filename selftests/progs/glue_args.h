/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between glue.bpf.c and the test program (glue.c). */
#ifndef SLEEPTEST_GLUE_ARGS_H
#define SLEEPTEST_GLUE_ARGS_H

/* What one kind of program read on the test's calls. */
struct seen_args {
	__s64 arg[6];		/* the syscall's arguments, last call */
	__s64 ret;		/* fexit, kretprobe: its result */
	__s32 calls;
	__s32 pad;
};

#endif
