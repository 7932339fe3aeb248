// SPDX-License-Identifier: GPL-2.0
/*
 * Programs the verifier must refuse: sleepable where the hook or the
 * program type cannot sleep, a sleeping helper in a non-sleepable
 * program, a map kind sleepable programs may not use.  seeds.c's
 * sleepable_allowed_maps_load uses load_one_reject() too.
 */
#include "sleeptest.h"

#include "rejects.skel.h"

/* 6.1's words when a program type cannot be sleepable at all. */
#define ONLY_SOME_SLEEP "Only fentry/fexit/fmod_ret, lsm, and kprobe/uprobe " \
	"programs can be sleepable"

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

static void show_log_tail(const char *log)
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
