/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the suite's BPF programs. */
#ifndef SLEEPTEST_PROGS_COMMON_H
#define SLEEPTEST_PROGS_COMMON_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "glue.bpf.h"

#define EFAULT 14

/* Only react to the test process, not to the rest of the guest. */
static __always_inline int from_test(int pid)
{
	return pid && (int)(bpf_get_current_pid_tgid() >> 32) == pid;
}

/*
 * A sleepable-only helper that does nothing: bpf_copy_from_user() of no
 * bytes.  The verifier offers it to sleepable programs alone, so a
 * ".s" program that calls this fails to load if it ever lost
 * BPF_F_SLEEPABLE, instead of passing its case as a normal program.
 */
static __always_inline void require_sleepable(void)
{
	char byte;

	bpf_copy_from_user(&byte, 0, NULL);
}

#endif
