// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_LSM_CGROUP: one program per cgroup on socket_create; the one of the
 * "deny" cgroup refuses UDP sockets, the other allows everything.  Both
 * count what they saw from the test process.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

#define AF_INET		2
#define SOCK_DGRAM	2
#define IPPROTO_UDP	17

int monitored_pid;
long deny_calls;
long allow_calls;

SEC("lsm_cgroup/socket_create")
int BPF_PROG(cg_deny_udp, int family, int type, int protocol, int kern)
{
	if (kern || !from_test(monitored_pid))
		return 1;
	__sync_fetch_and_add(&deny_calls, 1);
	return !(family == AF_INET && type == SOCK_DGRAM &&
		 protocol == IPPROTO_UDP);
}

SEC("lsm_cgroup/socket_create")
int BPF_PROG(cg_allow, int family, int type, int protocol, int kern)
{
	if (!kern && from_test(monitored_pid))
		__sync_fetch_and_add(&allow_calls, 1);
	return 1;
}
