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
int BPF_PROG(copy_in_nonsleepable)
{
	bpf_copy_from_user(buf, sizeof(buf), (void *)GLUE_SYSCALL_ARG(ctx, 1));
	return 0;
}

/* A map type 6.1 keeps away from sleepable programs. */
SEC("fentry.s")
int BPF_PROG(sleepable_uses_trie)
{
	struct lpm_key key = { .prefixlen = 32, .addr = 1 };

	return bpf_map_lookup_elem(&trie, &key) ? 1 : 0;
}

/* The map types 6.1 allows a sleepable program: this one must load. */
SEC("fentry.s")
int BPF_PROG(sleepable_allowed_maps)
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

/*
 * Targets set by the test: sleepable tracing programs on the functions
 * 6.1 keeps them off (not error-injectable, or error-injectable but
 * listed as callable from atomic context).
 */
SEC("fentry.s")
int BPF_PROG(fentry_s_any)
{
	return 0;
}

SEC("fexit.s")
int BPF_PROG(fexit_s_any)
{
	return 0;
}

/* Target set by the test: a BPF program, where 6.1 refuses fmod_ret. */
SEC("fmod_ret")
int BPF_PROG(fmod_ret_any)
{
	return 1;
}

SEC("fmod_ret.s")
int BPF_PROG(fmod_ret_s_any)
{
	return 0;
}

/* A map whose value holds a bpf_spin_lock, in a sleepable program. */
struct locked_value {
	struct bpf_spin_lock lock;
	__u64 count;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct locked_value);
} locked SEC(".maps");

SEC("fentry.s")
int BPF_PROG(spin_lock_sleepable)
{
	struct locked_value *v;
	__u32 key = 0;

	v = bpf_map_lookup_elem(&locked, &key);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->count++;
	bpf_spin_unlock(&v->lock);
	return 0;
}

/* A cgroup LSM program, made sleepable by the test. */
SEC("lsm_cgroup/file_open")
int BPF_PROG(lsm_cgroup_file_open, struct file *file)
{
	return 1;
}

/* Sleeping helpers in programs that cannot sleep. */
SEC("fentry")
int BPF_PROG(copy_task_nonsleepable)
{
	bpf_copy_from_user_task(buf, sizeof(buf),
				(void *)GLUE_SYSCALL_ARG(ctx, 1),
				bpf_get_current_task_btf(), 0);
	return 0;
}

SEC("lsm/bprm_committed_creds")
int BPF_PROG(ima_file_hash_nonsleepable, struct linux_binprm *bprm)
{
	bpf_ima_file_hash(bprm->file, buf, sizeof(buf));
	return 0;
}

SEC("lsm/bprm_committed_creds")
int BPF_PROG(ima_inode_hash_nonsleepable, struct linux_binprm *bprm)
{
	bpf_ima_inode_hash(bprm->file->f_inode, buf, sizeof(buf));
	return 0;
}

/* Program types that cannot be sleepable, made so by the test. */
SEC("raw_tp/sched_switch")
int raw_tp_sched_switch(void *ctx)
{
	return 0;
}

/* What socket_filter returns while this replaces it. */
#define FREPLACE_RET 42

SEC("freplace")
int freplace_filter(struct __sk_buff *skb)
{
	return FREPLACE_RET;
}

/* A BTF tracepoint and a kprobe program, made sleepable by the test. */
SEC("tp_btf/sched_switch")
int BPF_PROG(tp_btf_sched_switch)
{
	return 0;
}

SEC("kprobe")
int kprobe_any(void *ctx)
{
	return 0;
}

long fentry_any_runs;

/* Attached by the test, then the target of a BPF_LINK_UPDATE. */
SEC("fentry")
int BPF_PROG(fentry_any)
{
	__sync_fetch_and_add(&fentry_any_runs, 1);
	return 0;
}
