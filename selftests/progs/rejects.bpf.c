// SPDX-License-Identifier: GPL-2.0
/* Case f: programs the 6.1 verifier must refuse, each loaded on its own,
 * plus a sleepable program using every map type 6.1 allows it, which loads.
 */
#include "common.h"

char _license[] SEC("license") = "GPL";

struct lpm_key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 4);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct lpm_key);
	__type(value, __u64);
} trie SEC(".maps");

#define ALLOWED_MAP(name, kind)				\
	struct {					\
		__uint(type, kind);			\
		__uint(max_entries, 4);			\
		__type(key, __u32);			\
		__type(value, __u64);			\
	} name SEC(".maps")

ALLOWED_MAP(m_array, BPF_MAP_TYPE_ARRAY);
ALLOWED_MAP(m_percpu_array, BPF_MAP_TYPE_PERCPU_ARRAY);
ALLOWED_MAP(m_hash, BPF_MAP_TYPE_HASH);
ALLOWED_MAP(m_percpu_hash, BPF_MAP_TYPE_PERCPU_HASH);
ALLOWED_MAP(m_lru_hash, BPF_MAP_TYPE_LRU_HASH);

char buf[8];

/* lsm.s on a hook 6.1 does not list as sleepable. */
SEC("lsm.s/task_free")
int BPF_PROG(lsm_s_task_free, struct task_struct *task)
{
	return 0;
}

/* fentry.s on a function that is neither error-injectable nor allowlisted. */
SEC("fentry.s/vfs_read")
int BPF_PROG(fentry_s_vfs_read, struct file *file)
{
	return 0;
}

/* A sleepable helper in a program that cannot sleep. */
SEC("fentry")
int BPF_PROG(copy_in_nonsleepable, struct pt_regs *regs)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)PT_REGS_PARM1_CORE(regs));
	return 0;
}

/* A map type 6.1 keeps away from sleepable programs. */
SEC("fentry.s")
int BPF_PROG(sleepable_uses_trie, struct pt_regs *regs)
{
	struct lpm_key key = { .prefixlen = 32, .addr = 1 };

	return bpf_map_lookup_elem(&trie, &key) ? 1 : 0;
}

/* The map types 6.1 allows a sleepable program: this one must load. */
SEC("fentry.s")
int BPF_PROG(sleepable_allowed_maps, struct pt_regs *regs)
{
	__u32 key = 0;
	__u64 *v;

	v = bpf_map_lookup_elem(&m_array, &key);
	if (v)
		*v += 1;
	v = bpf_map_lookup_elem(&m_percpu_array, &key);
	if (v)
		*v += 1;
	v = bpf_map_lookup_elem(&m_hash, &key);
	if (v)
		*v += 1;
	v = bpf_map_lookup_elem(&m_percpu_hash, &key);
	if (v)
		*v += 1;
	v = bpf_map_lookup_elem(&m_lru_hash, &key);
	if (v)
		*v += 1;
	return 0;
}

/* A socket filter: the return value is the packet length to keep. */
SEC("socket")
int socket_filter(struct __sk_buff *skb)
{
	return 0;
}
