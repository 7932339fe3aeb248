// SPDX-License-Identifier: GPL-2.0
/* Lifetime of sleeping programs.  When the calling thread is the test's
 * sleeper, each sleepable program here copies 8 bytes from gate_addr, a
 * user page that userfaultfd holds back until the test releases it, so it
 * sleeps for as long as the test wants.  The test process's other calls
 * are only counted.  All attach to the setdomainname syscall entry.
 */
#include "common.h"
#include "sleep_gate.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long forced_ret;		/* fmod_ret.s: 0 lets the original run */

struct sleep_record fentry_s_rec, fexit_s_rec, fmod_ret_s_rec;

long fentry_hits, fexit_hits, fmod_ret_hits;
__u64 fentry_cookie;		/* count_fentry's, on its last run */

/* setdomainname(name, len)'s result, for fexit.s and fmod_ret.s */
#define SETDOMAINNAME_RET(ctx) GLUE_SYSCALL_RET(ctx, 2)

SEC("fentry.s")
int BPF_PROG(sleep_fentry_s)
{
	sleep_on_gate(ctx, &fentry_s_rec, 0, from_test(monitored_pid));
	return 0;
}

SEC("fexit.s")
int BPF_PROG(sleep_fexit_s)
{
	sleep_on_gate(ctx, &fexit_s_rec, SETDOMAINNAME_RET(ctx),
		      from_test(monitored_pid));
	return 0;
}

SEC("fmod_ret.s")
int BPF_PROG(sleep_fmod_ret_s)
{
	return sleep_on_gate(ctx, &fmod_ret_s_rec, SETDOMAINNAME_RET(ctx),
			     from_test(monitored_pid)) ? forced_ret : 0;
}

/* Plain programs, attached and detached around the sleeper. */
SEC("fentry")
int BPF_PROG(count_fentry)
{
	if (from_test(monitored_pid)) {
		fentry_cookie = bpf_get_attach_cookie(ctx);
		__sync_fetch_and_add(&fentry_hits, 1);
	}
	return 0;
}

SEC("fexit")
int BPF_PROG(count_fexit)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fexit_hits, 1);
	return 0;
}

/* Returns 0: the original runs. */
SEC("fmod_ret")
int BPF_PROG(count_fmod_ret)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&fmod_ret_hits, 1);
	return 0;
}
