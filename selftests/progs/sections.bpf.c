// SPDX-License-Identifier: GPL-2.0
/* Case g: every ".s" section name must make libbpf load the program with
 * BPF_F_SLEEPABLE.  Each program calls bpf_copy_from_user(), which the 6.1
 * verifier accepts only in a sleepable program, so a successful load shows
 * the kernel received the flag.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

char buf[8];

SEC("fentry.s")
int BPF_PROG(sec_fentry_s)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)GLUE_SYSCALL_ARG(ctx, 1));
	return 0;
}

SEC("fexit.s")
int BPF_PROG(sec_fexit_s)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)GLUE_SYSCALL_ARG(ctx, 1));
	return 0;
}

SEC("fmod_ret.s")
int BPF_PROG(sec_fmod_ret_s)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)GLUE_SYSCALL_ARG(ctx, 1));
	return 0;
}

SEC("lsm.s/bprm_committed_creds")
int BPF_PROG(sec_lsm_s, struct linux_binprm *bprm)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)bprm->p);
	return 0;
}

/* The same bodies under the non-sleepable section names: refused. */
SEC("fentry")
int BPF_PROG(twin_fentry)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)GLUE_SYSCALL_ARG(ctx, 1));
	return 0;
}

SEC("fexit")
int BPF_PROG(twin_fexit)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)GLUE_SYSCALL_ARG(ctx, 1));
	return 0;
}

SEC("fmod_ret")
int BPF_PROG(twin_fmod_ret)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)GLUE_SYSCALL_ARG(ctx, 1));
	return 0;
}

SEC("lsm/bprm_committed_creds")
int BPF_PROG(twin_lsm, struct linux_binprm *bprm)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)bprm->p);
	return 0;
}
