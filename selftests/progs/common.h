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

#endif
