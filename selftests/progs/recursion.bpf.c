// SPDX-License-Identifier: GPL-2.0
/* A fentry program on stack_trace_save(), which the function tracer calls
 * from its own callback when options/func_stack_trace is set: counts the
 * calls made in the test process.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;
long hits;

SEC("fentry/stack_trace_save")
int BPF_PROG(count_stack_trace_save)
{
	if (from_test(monitored_pid))
		__sync_fetch_and_add(&hits, 1);
	return 0;
}
