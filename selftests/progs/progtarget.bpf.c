// SPDX-License-Identifier: GPL-2.0
/* Trampolines on a BPF program: fentry and fexit on a tc program that the
 * test runs with BPF_PROG_TEST_RUN.  This is the attach path stock 6.1
 * supports on every architecture with trampolines (text poke of the
 * program's entry), so it also guards the IR backends on it.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

long entry_len = -1;
long exit_ret = -1;
int entry_calls;
int exit_calls;

SEC("tc")
int target_prog(struct __sk_buff *skb)
{
	return skb->len == 64 ? 7 : 0;
}

SEC("fentry/target_prog")
int BPF_PROG(on_target_entry, struct sk_buff *skb)
{
	entry_len = skb->len;
	entry_calls++;
	return 0;
}

SEC("fexit/target_prog")
int BPF_PROG(on_target_exit, struct sk_buff *skb, int ret)
{
	exit_ret = ret;
	exit_calls++;
	return 0;
}
