// SPDX-License-Identifier: GPL-2.0
/* Case a: a sleepable LSM program on an exec hook copies the new program's
 * argv[0] from user memory and writes three kinds of map.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lru_hash SEC(".maps");

int monitored_pid;
int exec_count;
long copy_ret = -1;
char argv0[32];

SEC("lsm.s/bprm_committed_creds")
int BPF_PROG(exec_committed, struct linux_binprm *bprm)
{
	__u32 key = 0;
	__u64 *value;

	/* The exec'd child is a new process whose parent is the test. */
	if (!from_test(monitored_pid) &&
	    bpf_get_current_task_btf()->real_parent->tgid != monitored_pid)
		return 0;

	exec_count++;
	/* The new mm is installed but its arg_start is not set yet; bprm->p
	 * points at the copied argument strings, argv[0] first.
	 */
	copy_ret = bpf_copy_from_user(argv0, sizeof(argv0), (void *)bprm->p);

	value = bpf_map_lookup_elem(&array, &key);
	if (value)
		*value += 1;
	value = bpf_map_lookup_elem(&hash, &key);
	if (value)
		*value += 1;
	value = bpf_map_lookup_elem(&lru_hash, &key);
	if (value)
		*value += 1;
	return 0;
}
