// SPDX-License-Identifier: GPL-2.0
/*
 * Programs the verifier must refuse: sleepable where the hook or the
 * program type cannot sleep, a sleeping helper in a non-sleepable
 * program, a map kind sleepable programs may not use.  seeds.c's
 * sleepable_allowed_maps_load uses load_one_reject() too.
 */
#include "sleeptest.h"
#include <bpf/btf.h>

#include "rejects.skel.h"

/* 6.1's words when a program type cannot be sleepable at all. */
#define ONLY_SOME_SLEEP "Only fentry/fexit/fmod_ret, lsm, and kprobe/uprobe " \
	"programs can be sleepable"

/* One instruction, for the programs these tests load by hand. */
#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c),		\
	.dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/* 1 if want is a whole line of the verifier's log. */
static int log_has_line(const char *log, const char *want)
{
	size_t n = strlen(want);
	const char *p;

	for (p = log; (p = strstr(p, want)); p += n)
		if ((p == log || p[-1] == '\n') &&
		    (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

void show_log_tail(const char *log)
{
	size_t len = strlen(log);

	diag("verifier log tail: %s", len > 400 ? log + len - 400 : log);
}

/*
 * f: load one program of rejects.bpf.c alone (on the program target_fd
 * when that is not 0).  want_msg NULL means it must load; otherwise it
 * must be refused with -EINVAL and that whole line in the verifier log.
 */
void load_one_reject_on(const char *name, int target_fd, const char *target,
			__u32 extra_flags, const char *want_msg)
{
	static char vlog[65536];
	struct bpf_program *p, *prog = NULL;
	struct rejects *skel;
	int err;

	skel = rejects__open();
	if (!CHECK(skel, "open failed"))
		return;
	bpf_object__for_each_program(p, skel->obj) {
		if (strcmp(bpf_program__name(p), name)) {
			bpf_program__set_autoload(p, false);
			continue;
		}
		prog = p;
	}
	if (!CHECK(prog, "no program %s", name))
		goto out;
	if (target)
		bpf_program__set_attach_target(prog, target_fd, target);
	if (extra_flags)
		bpf_program__set_flags(prog, bpf_program__flags(prog) |
					     extra_flags);
	vlog[0] = 0;
	bpf_program__set_log_buf(prog, vlog, sizeof(vlog));
	bpf_program__set_log_level(prog, 1);
	err = rejects__load(skel);
	if (!want_msg) {
		if (!CHECK_ERR(err, "load"))
			show_log_tail(vlog);
		goto out;
	}
	if (!CHECK(err, "%s loaded, the verifier should refuse it", name))
		goto out;
	CHECK(err == -EINVAL, "%s refused with %d (%s), want -EINVAL", name,
	      err, strerror(-err));
	if (!CHECK(log_has_line(vlog, want_msg), "want the verifier line '%s'",
		   want_msg))
		show_log_tail(vlog);
out:
	rejects__destroy(skel);
}

void load_one_reject(const char *name, const char *target,
		     __u32 extra_flags, const char *want_msg)
{
	load_one_reject_on(name, 0, target, extra_flags, want_msg);
}

void test_reject_lsm_s_task_free(void)
{
	load_one_reject("lsm_s_task_free", NULL, 0,
			"bpf_lsm_task_free is not sleepable");
}

void test_reject_fentry_s_not_injectable(void)
{
	load_one_reject("fentry_s_vfs_read", NULL, 0,
			"vfs_read is not sleepable");
}

void test_reject_sleepable_socket_filter(void)
{
	load_one_reject("socket_filter", NULL, BPF_F_SLEEPABLE,
			ONLY_SOME_SLEEP);
}

void test_reject_copy_from_user_nonsleepable(void)
{
	load_one_reject("copy_in_nonsleepable", sys_fn("setdomainname"), 0,
			"helper call might sleep in a non-sleepable prog");
}

void test_reject_sleepable_lpm_trie(void)
{
	load_one_reject("sleepable_uses_trie", sys_fn("setdomainname"), 0,
			"Sleepable programs can only use array, hash, and ringbuf maps");
}

/*
 * Error-injectable functions 6.1 still keeps sleepable programs off,
 * because they are called in atomic context too.
 */
void test_reject_sleepable_on_denylisted(void)
{
	static const char *const fns[] = {
		"should_failslab", "should_fail_alloc_page",
		"__filemap_add_folio",
	};
	static const char *const progs[] = {
		"fentry_s_any", "fexit_s_any", "fmod_ret_s_any",
	};
	char msg[96];
	int f, k;

	for (f = 0; f < 3; f++)
		for (k = 0; k < 3; k++) {
			snprintf(msg, sizeof(msg), "%s is not sleepable",
				 fns[f]);
			load_one_reject(progs[k], fns[f], 0, msg);
		}
}

/* fexit.s and fmod_ret.s on a function that is not error-injectable;
 * fmod_ret (not sleepable) there too.
 */
void test_reject_sleepable_exit_modret_not_injectable(void)
{
	load_one_reject("fexit_s_any", "vfs_read", 0,
			"vfs_read is not sleepable");
	load_one_reject("fmod_ret_s_any", "vfs_read", 0,
			"vfs_read is not sleepable");
}

/* A loaded socket filter with BTF: the target of the program cases. */
static struct rejects *load_target_prog(int *fd)
{
	struct rejects *t = rejects__open();
	struct bpf_program *p;

	if (!CHECK(t, "open failed"))
		return NULL;
	bpf_object__for_each_program(p, t->obj)
		bpf_program__set_autoload(p, p == t->progs.socket_filter);
	if (!CHECK_ERR(rejects__load(t), "load the target program")) {
		rejects__destroy(t);
		return NULL;
	}
	*fd = bpf_program__fd(t->progs.socket_filter);
	return t;
}

/* fentry.s on a BPF program: only kernel functions can be sleepable. */
void test_reject_fentry_s_on_bpf_prog(void)
{
	struct rejects *t;
	int fd;

	t = load_target_prog(&fd);
	if (!t)
		return;
	load_one_reject_on("fentry_s_any", fd, "socket_filter", 0,
			   "socket_filter is not sleepable");
	rejects__destroy(t);
}

/*
 * A sleepable struct_ops program, loaded by hand: libbpf loads one only
 * with its struct_ops map.  It is "r0 = 0; exit" for the first member of
 * bpf_dummy_ops; the flag is refused before the member is looked at.
 */
static void reject_sleepable_struct_ops(void)
{
	static char vlog[4096];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE,
		    .log_buf = vlog, .log_size = sizeof(vlog), .log_level = 1);
	struct bpf_insn insns[2] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id, fd;

	if (!CHECK(vmlinux, "vmlinux BTF: %s", strerror(errno)))
		return;
	id = btf__find_by_name_kind(vmlinux, "bpf_dummy_ops", BTF_KIND_STRUCT);
	btf__free(vmlinux);
	if (!CHECK(id > 0, "struct bpf_dummy_ops in vmlinux BTF: %d", id))
		return;
	opts.attach_btf_id = id;
	vlog[0] = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, "sleepy_ops", "GPL",
			   insns, 2, &opts);
	if (!CHECK(fd < 0 && errno == EINVAL &&
		   log_has_line(vlog, ONLY_SOME_SLEEP),
		   "sleepable struct_ops: fd %d errno %d, want -EINVAL and "
		   "\"%s\"", fd, fd < 0 ? errno : 0, ONLY_SOME_SLEEP))
		show_log_tail(vlog);
	if (fd >= 0)
		close(fd);
}

/* The sleepable flag on program types that cannot sleep. */
void test_reject_sleepable_other_types(void)
{
	struct rejects *t;
	int fd;

	load_one_reject("lsm_cgroup_file_open", NULL, BPF_F_SLEEPABLE,
			"BPF_LSM_CGROUP programs cannot be sleepable");
	load_one_reject("raw_tp_sched_switch", NULL, BPF_F_SLEEPABLE,
			ONLY_SOME_SLEEP);
	t = load_target_prog(&fd);
	if (t) {
		load_one_reject_on("freplace_filter", fd, "socket_filter",
				   BPF_F_SLEEPABLE, ONLY_SOME_SLEEP);
		rejects__destroy(t);
	}
	reject_sleepable_struct_ops();
}

void test_reject_spin_lock_sleepable(void)
{
	load_one_reject("spin_lock_sleepable", sys_fn("setdomainname"), 0,
			"sleepable progs cannot use bpf_spin_lock yet");
}

/* Helpers that may sleep, in programs that cannot. */
void test_reject_sleeping_helpers_nonsleepable(void)
{
	load_one_reject("copy_task_nonsleepable", sys_fn("setdomainname"), 0,
			"helper call might sleep in a non-sleepable prog");
	load_one_reject("ima_file_hash_nonsleepable", NULL, 0,
			"helper call might sleep in a non-sleepable prog");
	load_one_reject("ima_inode_hash_nonsleepable", NULL, 0,
			"helper call might sleep in a non-sleepable prog");
}

/*
 * Every map type against a sleepable program, each by name.  A map is
 * checked against the program when an instruction refers to it, so each
 * program is "r1 = map; r0 = 0; exit": fentry.s on setdomainname.
 * 6.1 refuses every type but the ones in check_map_prog_compatibility()'s
 * list; those load, are attached and run (run_cnt, with BPF stats on).
 * On the hash and array kinds the program also stores MAP_KIND_VALUE
 * under key 0 while it runs, which the test reads back.
 */
#define MAP_KIND_VALUE 0x5eed

struct map_kind {
	const char *name;
	enum bpf_map_type type;
	__u32 key, value, max, flags;
	int btf;		/* needs BTF for key and value (int, int) */
	int accepted;		/* 6.1 lets a sleepable program use it */
	const char *refusal;	/* 6.1's line, when not the sleepable one */
};

#define REFUSED(t, k, v, m, f)	{ #t, BPF_MAP_TYPE_##t, k, v, m, f, 0, 0 }
#define ACCEPTED(t, k, v, m, f, b) { #t, BPF_MAP_TYPE_##t, k, v, m, f, b, 1 }

static const struct map_kind map_kinds[] = {
	ACCEPTED(HASH, 4, 8, 4, 0, 0),
	{ "HASH (BPF_F_NO_PREALLOC)", BPF_MAP_TYPE_HASH, 4, 8, 4,
	  BPF_F_NO_PREALLOC, 0, 1 },
	ACCEPTED(ARRAY, 4, 8, 4, 0, 0),
	ACCEPTED(PERCPU_HASH, 4, 8, 4, 0, 0),
	ACCEPTED(PERCPU_ARRAY, 4, 8, 4, 0, 0),
	ACCEPTED(LRU_HASH, 4, 8, 4, 0, 0),
	ACCEPTED(LRU_PERCPU_HASH, 4, 8, 4, 0, 0),
	ACCEPTED(ARRAY_OF_MAPS, 4, 4, 4, 0, 0),
	ACCEPTED(HASH_OF_MAPS, 4, 4, 4, 0, 0),
	ACCEPTED(RINGBUF, 0, 0, 4096, 0, 0),
	ACCEPTED(USER_RINGBUF, 0, 0, 4096, 0, 0),
	ACCEPTED(INODE_STORAGE, 4, 4, 0, BPF_F_NO_PREALLOC, 1),
	ACCEPTED(SK_STORAGE, 4, 4, 0, BPF_F_NO_PREALLOC, 1),
	ACCEPTED(TASK_STORAGE, 4, 4, 0, BPF_F_NO_PREALLOC, 1),
	REFUSED(PROG_ARRAY, 4, 4, 4, 0),
	REFUSED(PERF_EVENT_ARRAY, 4, 4, 4, 0),
	REFUSED(STACK_TRACE, 4, 8, 4, 0),
	REFUSED(CGROUP_ARRAY, 4, 4, 4, 0),
	REFUSED(LPM_TRIE, 8, 8, 4, BPF_F_NO_PREALLOC),
	REFUSED(DEVMAP, 4, 4, 4, 0),
	REFUSED(SOCKMAP, 4, 4, 4, 0),
	REFUSED(CPUMAP, 4, 4, 4, 0),
	REFUSED(SOCKHASH, 4, 4, 4, 0),
	REFUSED(CGROUP_STORAGE, 8, 8, 0, 0),
	REFUSED(REUSEPORT_SOCKARRAY, 4, 4, 4, 0),
	REFUSED(PERCPU_CGROUP_STORAGE, 8, 8, 0, 0),
	REFUSED(QUEUE, 0, 8, 4, 0),
	REFUSED(STACK, 0, 8, 4, 0),
	REFUSED(DEVMAP_HASH, 4, 4, 4, 0),
	REFUSED(BLOOM_FILTER, 0, 8, 4, 0),
	REFUSED(XSKMAP, 4, 4, 4, 0),
	/*
	 * Value size and type from vmlinux BTF (map_kind_create()).  6.1
	 * refuses a struct_ops map in any program, before it looks at
	 * sleepability.
	 */
	{ "STRUCT_OPS", BPF_MAP_TYPE_STRUCT_OPS, 4, 0, 1, 0, 0, 0,
	  "bpf_struct_ops map cannot be used in prog" },
};

/* An "int" in a BTF object of its own, for the local-storage maps. */
static int int_btf(__u32 *int_id)
{
	struct btf *btf = btf__new_empty();
	int id, err;

	if (!btf)
		return -errno;
	id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	err = id < 0 ? id : btf__load_into_kernel(btf);
	if (!err) {
		*int_id = id;
		err = dup(btf__fd(btf));
		if (err < 0)
			err = -errno;
	}
	btf__free(btf);
	return err;
}

/*
 * A struct_ops map needs a struct_ops type the kernel registered: its
 * value is "struct bpf_struct_ops_<type>" in vmlinux BTF.  bpf_dummy_ops
 * is there whenever CONFIG_NET and the JIT are.
 */
static int struct_ops_value_type(__u32 *type_id, __u32 *size)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	const struct btf_type *t;
	int id;

	if (!vmlinux)
		return -errno;
	id = btf__find_by_name_kind(vmlinux, "bpf_struct_ops_bpf_dummy_ops",
				    BTF_KIND_STRUCT);
	if (id > 0) {
		t = btf__type_by_id(vmlinux, id);
		*type_id = id;
		*size = t->size;
	}
	btf__free(vmlinux);
	return id > 0 ? 0 : -ENOENT;
}

/* A map of the kind, or -errno. */
static int map_kind_create(const struct map_kind *k, int btf_fd, __u32 int_id)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = k->flags);
	__u32 value_size = k->value;
	int inner = -1, fd, err;

	if (k->btf) {
		opts.btf_fd = btf_fd;
		opts.btf_key_type_id = int_id;
		opts.btf_value_type_id = int_id;
	}
	if (k->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
	    k->type == BPF_MAP_TYPE_HASH_OF_MAPS) {
		inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 8, 1, NULL);
		if (inner < 0)
			return -errno;
		opts.inner_map_fd = inner;
	}
	if (k->type == BPF_MAP_TYPE_STRUCT_OPS) {
		err = struct_ops_value_type(&opts.btf_vmlinux_value_type_id,
					    &value_size);
		if (err)
			return err;
		/* 6.1 wants a BTF object with it, even an unrelated one. */
		opts.btf_fd = btf_fd;
	}
	fd = bpf_map_create(k->type, NULL, k->key, value_size, k->max, &opts);
	if (fd < 0)
		fd = -errno;
	if (inner >= 0)
		close(inner);
	return fd;
}

/* The kinds a program can store into with bpf_map_update_elem(). */
static int map_kind_updates(const struct map_kind *k)
{
	switch (k->type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return 1;
	default:
		return 0;
	}
}

/*
 * After "r1 = map": key 0 at fp-4, MAP_KIND_VALUE at fp-16,
 * bpf_map_update_elem(r1, fp-4, fp-16, BPF_ANY).  Returns the count.
 */
static int map_update_insns(struct bpf_insn *insn)
{
	int n = 0;

	insn[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0);
	insn[n++] = INSN(BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -16,
			 MAP_KIND_VALUE);
	insn[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10,
			 0, 0);
	insn[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
	insn[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10,
			 0, 0);
	insn[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -16);
	insn[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0,
			 BPF_ANY);
	insn[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0,
			 BPF_FUNC_map_update_elem);
	return n;
}

/* Key 0 holds MAP_KIND_VALUE (on some CPU, for the per-CPU kinds). */
static int map_holds_value(int map_fd)
{
	int ncpus = libbpf_num_possible_cpus(), i;
	__u64 values[256] = {};
	__u32 key = 0;

	if (ncpus <= 0 || ncpus > 256 ||
	    bpf_map_lookup_elem(map_fd, &key, values))
		return 0;
	for (i = 0; i < ncpus; i++)
		if (values[i] == MAP_KIND_VALUE)
			return 1;
	return 0;
}

/* run_cnt of a program (BPF stats must be on), or -1. */
static long long prog_run_cnt(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	return info.run_cnt;
}

void test_sleepable_map_types(void)
{
	static char vlog[16384];
	__u32 int_id = 0, obj_id, btf_id;
	int btf_fd, stats_fd, i, refused = 0, accepted = 0;
	long long runs;
	char mod[64];

	if (!CHECK(!kernel_func_btf(sys_fn("setdomainname"), &obj_id, &btf_id,
				    mod, sizeof(mod)), "setdomainname BTF"))
		return;
	btf_fd = int_btf(&int_id);
	if (!CHECK(btf_fd >= 0, "BTF for the local-storage maps: %d", btf_fd))
		return;
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (!CHECK(stats_fd >= 0, "BPF_ENABLE_STATS: %s", strerror(errno)))
		goto out_btf;
	for (i = 0; i < (int)(sizeof(map_kinds) / sizeof(map_kinds[0])); i++) {
		const struct map_kind *k = &map_kinds[i];
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
			.expected_attach_type = BPF_TRACE_FENTRY,
			.attach_btf_id = btf_id,
			.prog_flags = BPF_F_SLEEPABLE,
			.log_buf = vlog, .log_size = sizeof(vlog),
			.log_level = 1);
		struct bpf_insn insns[16];
		int map_fd, prog_fd, link_fd, err, n;
		const char *want;

		map_fd = map_kind_create(k, btf_fd, int_id);
		if (!CHECK(map_fd >= 0, "%s: map create: %s", k->name,
			   strerror(-map_fd)))
			continue;
		insns[0] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1,
				BPF_PSEUDO_MAP_FD, 0, map_fd);
		insns[1] = INSN(0, 0, 0, 0, 0);
		n = 2;
		if (map_kind_updates(k))
			n += map_update_insns(insns + n);
		insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
		insns[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		vlog[0] = 0;
		prog_fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "map_kind",
					"GPL", insns, n, &opts);
		err = prog_fd < 0 ? -errno : 0;
		if (!k->accepted) {
			want = k->refusal ? k->refusal : "Sleepable programs "
				"can only use array, hash, and ringbuf maps";
			if (CHECK(err == -EINVAL && log_has_line(vlog, want),
				  "%s: %d, want -EINVAL and \"%s\"", k->name,
				  err, want))
				refused++;
			else
				show_log_tail(vlog);
			goto next;
		}
		if (!CHECK(!err, "%s: refused: %d (%s)", k->name, err,
			   strerror(-err))) {
			show_log_tail(vlog);
			goto next;
		}
		link_fd = bpf_raw_tracepoint_open(NULL, prog_fd);
		if (CHECK(link_fd >= 0, "%s: attach: %s", k->name,
			  strerror(errno))) {
			syscall(__NR_setdomainname, "map-kinds", 9);
			runs = prog_run_cnt(prog_fd);
			if (CHECK(runs >= 1, "%s: the program did not run "
				  "(run_cnt %lld)", k->name, runs) &&
			    (!map_kind_updates(k) ||
			     CHECK(map_holds_value(map_fd), "%s: key 0 does "
				   "not hold what the program stored", k->name)))
				accepted++;
			close(link_fd);
		}
next:
		if (prog_fd >= 0)
			close(prog_fd);
		close(map_fd);
	}
	diag("map types: %d refused, %d accepted, attached and run", refused,
	     accepted);
	close(stats_fd);
out_btf:
	close(btf_fd);
}

/*
 * tp_btf with the sleepable flag: stock 6.1 checks sleepability only for
 * the fentry/fexit/fmod_ret attach types and loads a BTF tracepoint
 * program, which tracepoints run with preemption disabled.  Patch 10
 * refuses it.
 */
void test_sleepable_tp_btf(void)
{
	load_one_reject("tp_btf_sched_switch", NULL, BPF_F_SLEEPABLE,
			"BTF tracepoint programs cannot be sleepable");
}

/*
 * A sleepable kprobe program loads (uprobes may sleep), but attaching it
 * to a kprobe fails with -EINVAL.
 */
void test_reject_sleepable_kprobe_attach(void)
{
	struct rejects *skel = rejects__open();
	struct bpf_program *p;
	struct bpf_link *link;

	if (!CHECK(skel, "open failed"))
		return;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == skel->progs.kprobe_any);
	bpf_program__set_flags(skel->progs.kprobe_any, BPF_F_SLEEPABLE);
	if (!CHECK_ERR(rejects__load(skel), "load a sleepable kprobe program"))
		goto out;
	link = bpf_program__attach_kprobe(skel->progs.kprobe_any, false,
					  sys_fn("setdomainname"));
	CHECK(!link && errno == EINVAL, "attach to a kprobe: %s, want "
	      "-EINVAL", link ? "attached" : strerror(errno));
	bpf_link__destroy(link);
out:
	rejects__destroy(skel);
}

/* BPF_LINK_UPDATE on a tracing link: tracing links cannot be updated. */
void test_reject_link_update_tracing(void)
{
	struct rejects *skel = rejects__open();
	struct bpf_program *p;
	struct bpf_link *link = NULL;
	int err;

	if (!CHECK(skel, "open failed"))
		return;
	bpf_object__for_each_program(p, skel->obj) {
		bpf_program__set_autoload(p, p == skel->progs.fentry_any ||
					     p == skel->progs.fentry_s_any);
		bpf_program__set_attach_target(p, 0, sys_fn("setdomainname"));
	}
	if (!CHECK_ERR(rejects__load(skel), "load"))
		goto out;
	link = bpf_program__attach(skel->progs.fentry_any);
	if (!CHECK_ERR(link ? 0 : -errno, "attach fentry"))
		goto out;
	err = bpf_link_update(bpf_link__fd(link),
			      bpf_program__fd(skel->progs.fentry_s_any), NULL);
	CHECK(err == -EINVAL, "BPF_LINK_UPDATE of a tracing link: %d (%s), "
	      "want -EINVAL", err, strerror(-err));
out:
	bpf_link__destroy(link);
	rejects__destroy(skel);
}

/*
 * fentry and freplace on the same BPF program, in both orders: the second
 * attach fails with -EBUSY and the first keeps working.
 */
/*
 * One test run of the target socket filter: it returns want_ret (42 when
 * freplace_filter replaced it) and fentry_any ran want_fentry times.
 */
static void check_target_run(int fd, struct rejects *skel, __u32 want_ret,
			     long want_fentry)
{
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = 1);
	long before = skel->bss->fentry_any_runs;
	int err = bpf_prog_test_run_opts(fd, &opts);

	CHECK(!err && opts.retval == want_ret &&
	      skel->bss->fentry_any_runs - before == want_fentry,
	      "a run of the target: %d, returned %u (want %u), fentry ran "
	      "%ld times (want %ld)", err ? -errno : 0, opts.retval,
	      want_ret, skel->bss->fentry_any_runs - before, want_fentry);
}

void test_reject_fentry_and_freplace(void)
{
	struct rejects *t, *skel = NULL;
	struct bpf_link *first = NULL, *second;
	struct bpf_program *p;
	int fd, order;

	t = load_target_prog(&fd);
	if (!t)
		return;
	for (order = 0; order < 2; order++) {
		skel = rejects__open();
		if (!CHECK(skel, "open failed"))
			break;
		bpf_object__for_each_program(p, skel->obj) {
			bpf_program__set_autoload(p,
				p == skel->progs.fentry_any ||
				p == skel->progs.freplace_filter);
			bpf_program__set_attach_target(p, fd, "socket_filter");
		}
		if (!CHECK_ERR(rejects__load(skel), "load"))
			break;
		first = bpf_program__attach(order ? skel->progs.freplace_filter
						  : skel->progs.fentry_any);
		if (!CHECK_ERR(first ? 0 : -errno, order ? "attach freplace" :
			       "attach fentry"))
			break;
		second = bpf_program__attach(order ? skel->progs.fentry_any
						   : skel->progs.freplace_filter);
		CHECK(!second && errno == EBUSY, "%s after %s: %s, want -EBUSY",
		      order ? "fentry" : "freplace",
		      order ? "freplace" : "fentry",
		      second ? "attached" : strerror(errno));
		bpf_link__destroy(second);
		/* The first attachment still does its job, the second none. */
		check_target_run(fd, skel, order ? 42 : 0, order ? 0 : 1);
		bpf_link__destroy(first);
		first = NULL;
		rejects__destroy(skel);
		skel = NULL;
	}
	bpf_link__destroy(first);
	rejects__destroy(skel);
	rejects__destroy(t);
}
