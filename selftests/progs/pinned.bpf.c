// SPDX-License-Identifier: GPL-2.0
/* An fexit program on the read syscall's function (set at load): the
 * program whose lifetime test_detached_prog_freed_while_sleeping watches
 * while a thread sleeps in that function.  Counts the watched thread's
 * returns so the test can tell whether it ran.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int reader_tid;
long reader_returns;

SEC("fexit")
int BPF_PROG(count_reader_return)
{
	if ((__u32)bpf_get_current_pid_tgid() == (__u32)reader_tid)
		__sync_fetch_and_add(&reader_returns, 1);
	return 0;
}
