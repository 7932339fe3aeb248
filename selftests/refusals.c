// SPDX-License-Identifier: GPL-2.0
/*
 * Programs the verifier must refuse: sleepable where the hook or the
 * program type cannot sleep, a sleeping helper in a non-sleepable
 * program, a map kind sleepable programs may not use.  seeds.c's
 * sleepable_allowed_maps_load uses load_one_reject() too.
 */
#include "sleeptest.h"

#include "rejects.skel.h"

/*
 * f: load one program of rejects.bpf.c alone.  want_msg NULL means it must
 * load; otherwise it must be refused with that verifier message.
 */
void load_one_reject(const char *name, const char *target,
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
		bpf_program__set_attach_target(prog, 0, target);
	if (extra_flags)
		bpf_program__set_flags(prog, bpf_program__flags(prog) |
					     extra_flags);
	vlog[0] = 0;
	if (want_msg) {
		bpf_program__set_log_buf(prog, vlog, sizeof(vlog));
		bpf_program__set_log_level(prog, 1);
	}
	err = rejects__load(skel);
	if (!want_msg) {
		CHECK_ERR(err, "load");
		goto out;
	}
	if (!CHECK(err, "%s loaded, the verifier should refuse it", name))
		goto out;
	if (!CHECK(strstr(vlog, want_msg), "want verifier message '%s'",
		   want_msg)) {
		size_t len = strlen(vlog);

		diag("verifier log tail: %s", len > 400 ? vlog + len - 400 :
		     vlog);
	}
out:
	rejects__destroy(skel);
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
			"can be sleepable");
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
