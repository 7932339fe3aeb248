/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between copy_user.bpf.c and the test program. */
#ifndef SLEEPTEST_COPY_USER_H
#define SLEEPTEST_COPY_USER_H

struct copy_result {
	__s64 ret;
	__u64 value;
	__u64 ns;		/* time spent inside bpf_copy_from_user() */
	__s32 calls;
	__s32 pad;
};

#endif
