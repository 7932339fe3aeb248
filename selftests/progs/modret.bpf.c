// SPDX-License-Identifier: GPL-2.0
/* Case c: fexit.s sees the arguments and the return value of getpgid;
 * fmod_ret.s replaces the return value of getsid for one magic argument.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long magic_arg;
long forced_ret;

long fexit_arg = -1;
long fexit_ret = -1;
int fexit_calls;
int modret_calls;
/* Both programs read this test address with a helper only a sleepable
 * program may call, so neither can pass without the flag.
 */
__u64 user_addr;
__u64 fexit_user_value;
__u64 modret_user_value;

SEC("fexit.s")
int BPF_PROG(getpgid_exit)
{
	if (!from_test(monitored_pid))
		return 0;
	fexit_arg = GLUE_SYSCALL_ARG(ctx, 1);
	fexit_ret = GLUE_SYSCALL_RET(ctx, 1);	/* getpgid(pid) */
	bpf_copy_from_user(&fexit_user_value, sizeof(fexit_user_value),
			   (void *)user_addr);
	fexit_calls++;
	return 0;
}

SEC("fmod_ret.s")
int BPF_PROG(getsid_modret)
{
	if (!from_test(monitored_pid) || GLUE_SYSCALL_ARG(ctx, 1) != magic_arg)
		return 0;
	bpf_copy_from_user(&modret_user_value, sizeof(modret_user_value),
			   (void *)user_addr);
	modret_calls++;
	return forced_ret;
}
