// SPDX-License-Identifier: GPL-2.0
/*
 * A congestion control written in BPF: Reno through 6.1's TCP kfuncs,
 * each callback counted.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

extern __u32 tcp_slow_start(struct tcp_sock *tp, __u32 acked) __ksym;
extern void tcp_cong_avoid_ai(struct tcp_sock *tp, __u32 w,
			      __u32 acked) __ksym;
extern __u32 tcp_reno_ssthresh(struct sock *sk) __ksym;
extern __u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;

long init_calls;
long release_calls;
long cong_avoid_calls;
long ssthresh_calls;
long undo_calls;
long state_calls;
long cwnd_event_calls;
/* the largest congestion window the callbacks saw */
__u32 max_cwnd;

SEC("struct_ops/st_init")
void BPF_PROG(st_init, struct sock *sk)
{
	__sync_fetch_and_add(&init_calls, 1);
}

SEC("struct_ops/st_release")
void BPF_PROG(st_release, struct sock *sk)
{
	__sync_fetch_and_add(&release_calls, 1);
}

SEC("struct_ops/st_cong_avoid")
void BPF_PROG(st_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;

	__sync_fetch_and_add(&cong_avoid_calls, 1);
	if (tp->snd_cwnd > max_cwnd)
		max_cwnd = tp->snd_cwnd;
	if (tp->snd_cwnd <= tp->snd_ssthresh) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	tcp_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

SEC("struct_ops/st_ssthresh")
__u32 BPF_PROG(st_ssthresh, struct sock *sk)
{
	__sync_fetch_and_add(&ssthresh_calls, 1);
	return tcp_reno_ssthresh(sk);
}

SEC("struct_ops/st_undo_cwnd")
__u32 BPF_PROG(st_undo_cwnd, struct sock *sk)
{
	__sync_fetch_and_add(&undo_calls, 1);
	return tcp_reno_undo_cwnd(sk);
}

SEC("struct_ops/st_set_state")
void BPF_PROG(st_set_state, struct sock *sk, __u8 new_state)
{
	__sync_fetch_and_add(&state_calls, 1);
}

SEC("struct_ops/st_cwnd_event")
void BPF_PROG(st_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	__sync_fetch_and_add(&cwnd_event_calls, 1);
}

SEC(".struct_ops")
struct tcp_congestion_ops sleeptest_ca = {
	.init = (void *)st_init,
	.release = (void *)st_release,
	.cong_avoid = (void *)st_cong_avoid,
	.ssthresh = (void *)st_ssthresh,
	.undo_cwnd = (void *)st_undo_cwnd,
	.set_state = (void *)st_set_state,
	.cwnd_event = (void *)st_cwnd_event,
	.name = "sleeptest_ca",
};
