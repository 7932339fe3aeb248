/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between lifetime.bpf.c and the test program. */
#ifndef SLEEPTEST_LIFETIME_H
#define SLEEPTEST_LIFETIME_H

/* What a sleepable program saw on the sleeper's call. */
struct sleep_record {
	__s64 copy_ret;		/* bpf_copy_from_user() on the gate page */
	__u64 value;		/* the bytes copied (zeroed on failure) */
	__s64 fn_ret;		/* fexit.s: the original's return value */
	__s32 calls;		/* runs on the sleeper's calls */
	__s32 others;		/* runs on the test's other calls */
	__s32 cpu_before;	/* CPU before and after the sleep */
	__s32 cpu_after;
	__s32 entered;		/* sleeper's runs that reached the copy */
	__s32 pad;
	__u64 cookie_before;	/* bpf_get_attach_cookie() before the sleep */
	__u64 cookie_after;	/* and after */
};

#endif
