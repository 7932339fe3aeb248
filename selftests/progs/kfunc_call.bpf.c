// SPDX-License-Identifier: GPL-2.0
/*
 * kfunc calls: 6.1's test kfuncs from a tc program run through test_run,
 * the test module's kfuncs (one that shows how a 32-bit argument was
 * extended, one that sleeps), and the sleepable one from an lsm.s program.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

extern __u64 bpf_kfunc_call_test1(struct sock *sk, __u32 a, __u64 b,
				  __u32 c, __u64 d) __ksym;
extern int bpf_kfunc_call_test2(struct sock *sk, __u32 a, __u32 b) __ksym;
extern __s64 sleeptest_kfunc_widen(int c, __u32 u, __s64 bias) __ksym;
extern int sleeptest_kfunc_sleep(int ms) __ksym;

/* Read with 32-bit loads: BPF leaves their upper halves zero. */
int neg_int = -300;
__u32 top_bit_u32 = 0x80000040;

__u64 got_test1;
int got_test2;
__s64 got_widen;
int tc_runs;

int monitored_pid;
int lsm_runs;
int got_sleep;

SEC("tc")
int kfunc_tc(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return 1;
	sk = bpf_sk_fullsock(sk);
	if (!sk)
		return 2;
	got_test1 = bpf_kfunc_call_test1((struct sock *)sk, 0x80000001,
					 1ULL << 40, 0xffffffff, 5);
	got_test2 = bpf_kfunc_call_test2((struct sock *)sk, 7, 0xfffffff0);
	got_widen = sleeptest_kfunc_widen(neg_int, top_bit_u32, 1000);
	tc_runs++;
	return 0;
}

/* Only a sleepable program may call a KF_SLEEPABLE kfunc. */
SEC("tc")
int kfunc_sleep_from_tc(struct __sk_buff *skb)
{
	return sleeptest_kfunc_sleep(1);
}

SEC("lsm.s/bpf")
int BPF_PROG(kfunc_lsm_s, int cmd, union bpf_attr *attr, unsigned int size)
{
	if (!from_test(monitored_pid) || cmd != BPF_MAP_GET_NEXT_ID)
		return 0;
	got_sleep = sleeptest_kfunc_sleep(2);
	lsm_runs++;
	return 0;
}
