// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeping where the caller is not one of the test's syscalls: a fexit.s
 * on the test module's function, reached through the module's debugfs
 * write, and an lsm.s on exec, in a child that shares the test's memory
 * (clone(CLONE_VM)) so the gate page is its page as well.
 */
#include "common.h"
#include "sleep_gate.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
struct sleep_record mod_rec, exec_rec;
long exec_hits;		/* count_exec's runs for the test's children */

SEC("fexit.s/sleeptest_mod_target")
int BPF_PROG(sleep_mod_fexit_s, int len, int ret)
{
	sleep_on_gate(ctx, &mod_rec, ret, from_test(monitored_pid));
	return 0;
}

/* An exec by a child of the test process. */
static __always_inline int test_child(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return monitored_pid && task->real_parent->tgid == monitored_pid;
}

/*
 * bprm_check_security runs before the point of no return, while the
 * child still has the memory it shares with the test: the gate is there.
 */
SEC("lsm.s/bprm_check_security")
int BPF_PROG(sleep_exec_lsm_s, struct linux_binprm *bprm)
{
	sleep_on_gate(ctx, &exec_rec, 0, test_child());
	return 0;
}

SEC("lsm/bprm_check_security")
int BPF_PROG(count_exec, struct linux_binprm *bprm)
{
	if (test_child())
		__sync_fetch_and_add(&exec_hits, 1);
	return 0;
}
