// SPDX-License-Identifier: GPL-2.0
/* At the trampoline's limit: 38 programs of five kinds on setdomainname,
 * each recording when it ran on the test's calls.  The sleepable kinds
 * call bpf_copy_from_user(), so they need the flag; one of the fentry.s
 * programs sleeps on the test's gate page when the sleeper calls.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

#define NR_LIMIT_PROGS 38

int monitored_pid;
int sleeper_tid;
__u64 gate_addr;		/* the sleeper's copy: the test's gate page */
__u64 user_addr;		/* everyone else's: a resident test value */
int clock;
int ran_at[NR_LIMIT_PROGS];	/* clock value + 1 of the last run */
int runs[NR_LIMIT_PROGS];
__s64 sleeper_copy_ret = 1;

static __always_inline void mark(int i)
{
	if (!from_test(monitored_pid) ||
	    (sleeper_tid && (int)bpf_get_current_pid_tgid() == sleeper_tid))
		return;
	ran_at[i] = __sync_fetch_and_add(&clock, 1) + 1;
	__sync_fetch_and_add(&runs[i], 1);
}

static __always_inline void mark_sleepable(int i)
{
	__u64 v;

	if (from_test(monitored_pid) && sleeper_tid &&
	    (int)bpf_get_current_pid_tgid() == sleeper_tid) {
		/* Only program 8 sleeps; the others skip the sleeper. */
		if (i == 8)
			sleeper_copy_ret = bpf_copy_from_user(&v, sizeof(v),
							(void *)gate_addr);
		return;
	}
	bpf_copy_from_user(&v, sizeof(v), (void *)user_addr);
	mark(i);
}

#define FENTRY(i)	SEC("fentry") int BPF_PROG(p##i) { mark(i); return 0; }
#define FENTRY_S(i)	SEC("fentry.s") int BPF_PROG(p##i) \
			{ mark_sleepable(i); return 0; }
#define FEXIT(i)	SEC("fexit") int BPF_PROG(p##i) { mark(i); return 0; }
#define FEXIT_S(i)	SEC("fexit.s") int BPF_PROG(p##i) \
			{ mark_sleepable(i); return 0; }
#define FMOD_RET_S(i)	SEC("fmod_ret.s") int BPF_PROG(p##i) \
			{ mark_sleepable(i); return 0; }

/* 0-7 fentry, 8-15 fentry.s, 16-23 fexit, 24-30 fexit.s, 31-37 fmod_ret.s */
FENTRY(0) FENTRY(1) FENTRY(2) FENTRY(3)
FENTRY(4) FENTRY(5) FENTRY(6) FENTRY(7)
FENTRY_S(8) FENTRY_S(9) FENTRY_S(10) FENTRY_S(11)
FENTRY_S(12) FENTRY_S(13) FENTRY_S(14) FENTRY_S(15)
FEXIT(16) FEXIT(17) FEXIT(18) FEXIT(19)
FEXIT(20) FEXIT(21) FEXIT(22) FEXIT(23)
FEXIT_S(24) FEXIT_S(25) FEXIT_S(26) FEXIT_S(27)
FEXIT_S(28) FEXIT_S(29) FEXIT_S(30)
FMOD_RET_S(31) FMOD_RET_S(32) FMOD_RET_S(33) FMOD_RET_S(34)
FMOD_RET_S(35) FMOD_RET_S(36) FMOD_RET_S(37)

/* One more, for the 39th attach. */
SEC("fentry")
int BPF_PROG(one_too_many)
{
	return 0;
}
