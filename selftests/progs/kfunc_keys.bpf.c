// SPDX-License-Identifier: GPL-2.0
/* The key kfuncs of 6.1 (CONFIG_KEYS) from a sleepable LSM program. */
#include "common.h"

char _license[] SEC("license") = "GPL";

struct bpf_key;

extern struct bpf_key *bpf_lookup_user_key(__u32 serial, __u64 flags) __ksym;
extern void bpf_key_put(struct bpf_key *key) __ksym;

int monitored_pid;
__u32 key_serial;
__u32 missing_serial;
int runs;
int found;
int missing_found;

SEC("lsm.s/bpf")
int BPF_PROG(lookup_keys, int cmd, union bpf_attr *attr, unsigned int size)
{
	struct bpf_key *key;

	if (!from_test(monitored_pid) || cmd != BPF_MAP_GET_NEXT_ID)
		return 0;
	runs++;
	key = bpf_lookup_user_key(key_serial, 0);
	if (key) {
		found++;
		bpf_key_put(key);
	}
	key = bpf_lookup_user_key(missing_serial, 0);
	if (key) {
		missing_found++;
		bpf_key_put(key);
	}
	return 0;
}
