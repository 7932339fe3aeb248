// SPDX-License-Identifier: GPL-2.0
/* Cases b and e: fentry.s on the setdomainname syscall entry copies from the
 * pointer the test passed.  The test marks each call with a negative length,
 * which also makes the syscall itself fail without side effects.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

int monitored_pid;

#include "copy_user.h"

/* Indexed by -len: 1 valid pointer, 2 NULL, 3 ~0, 4 non-resident page. */
struct copy_result results[5];

SEC("fentry.s")
int BPF_PROG(copy_from_arg)
{
	void *ptr = (void *)GLUE_SYSCALL_ARG(ctx, 1);
	long len = GLUE_SYSCALL_ARG(ctx, 2);
	struct copy_result *r;
	__u64 value = 0xdeadbeefdeadbeefULL, t0;
	long idx = -len;

	if (!from_test(monitored_pid) || idx < 1 || idx > 4)
		return 0;
	r = &results[idx];
	t0 = bpf_ktime_get_ns();
	r->ret = bpf_copy_from_user(&value, sizeof(value), ptr);
	r->ns = bpf_ktime_get_ns() - t0;
	r->value = value;
	r->calls++;
	return 0;
}
