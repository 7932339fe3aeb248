// SPDX-License-Identifier: GPL-2.0
/*
 * Out of memory: the kernel's fault injection (failslab and
 * fail_page_alloc, armed for this thread alone by
 * /proc/thread-self/fail-nth) fails the n-th allocation of an attach,
 * then of a detach, for n = 1, 2, ... until the call no longer reaches
 * its n-th allocation.  A fentry, a fexit and a sleeping fentry.s stay
 * attached to the function throughout.
 */
#include "sleeptest.h"

#include "sleeper.h"

#define FAIL_NTH "/proc/thread-self/fail-nth"
#define MAX_NTH 5000		/* far more than an attach allocates */
#define DEBUGFS "/sys/kernel/debug/"

/*
 * By default both injectors leave alone what most of the kernel
 * allocates (sleeping allocations; order-0 pages) and print a stack
 * trace per failure.  Their settings for the case, and what was there.
 */
static struct fault_knob {
	const char *path, *value;
	char saved[32];
} fault_knobs[] = {
	{ DEBUGFS "failslab/ignore-gfp-wait", "N" },
	{ DEBUGFS "failslab/verbose", "0" },
	{ DEBUGFS "fail_page_alloc/ignore-gfp-wait", "N" },
	{ DEBUGFS "fail_page_alloc/ignore-gfp-highmem", "N" },
	{ DEBUGFS "fail_page_alloc/min-order", "0" },
	{ DEBUGFS "fail_page_alloc/verbose", "0" },
};
#define NR_KNOBS (int)(sizeof(fault_knobs) / sizeof(fault_knobs[0]))

static int knobs_set(void)
{
	struct fault_knob *k;
	int i, fd, n, err;

	for (i = 0; i < NR_KNOBS; i++) {
		k = &fault_knobs[i];
		fd = open(k->path, O_RDONLY);
		if (!CHECK(fd >= 0, "%s: %s (a kernel without FAILSLAB, "
			   "FAIL_PAGE_ALLOC or FAULT_INJECTION_DEBUG_FS?)",
			   k->path, strerror(errno)))
			return 0;
		n = read(fd, k->saved, sizeof(k->saved) - 1);
		close(fd);
		k->saved[n > 0 ? n : 0] = 0;
		err = write_file(k->path, k->value);
		if (!CHECK(!err, "%s: %s", k->path, strerror(-err)))
			return 0;
	}
	return 1;
}

static void knobs_restore(void)
{
	int i;

	for (i = 0; i < NR_KNOBS; i++)
		if (fault_knobs[i].saved[0])
			write_file(fault_knobs[i].path, fault_knobs[i].saved);
}

/* The n-th allocation from now on in this thread fails (0: none). */
static int arm_nth(int fd, int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -errno;
}

/* How many allocations were still to go: 0 once the failure happened. */
static int nth_left(int fd)
{
	char buf[16] = {};

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	return atoi(buf);
}

struct oom_counts {
	long fentry, fexit, fmod_ret;
	int fentry_s_others;
};

static void oom_counts(struct lifetime *skel, struct oom_counts *c)
{
	c->fentry = skel->bss->fentry_hits;
	c->fexit = skel->bss->fexit_hits;
	c->fmod_ret = skel->bss->fmod_ret_hits;
	c->fentry_s_others = skel->bss->fentry_s_rec.others;
}

/*
 * One setdomainname() call: the long-lived programs each run once; the
 * fmod_ret's runs are returned.
 */
static long oom_call(struct lifetime *skel, const char *when, int n)
{
	struct oom_counts a, b;

	oom_counts(skel, &a);
	CHECK(!syscall(__NR_setdomainname, "oom", 3), "setdomainname %s "
	      "%d: %s", when, n, strerror(errno));
	oom_counts(skel, &b);
	CHECK(b.fentry == a.fentry + 1 && b.fexit == a.fexit + 1 &&
	      b.fentry_s_others == a.fentry_s_others + 1,
	      "%s %d: one call ran fentry %ld, fexit %ld, fentry.s %d times",
	      when, n, b.fentry - a.fentry, b.fexit - a.fexit,
	      b.fentry_s_others - a.fentry_s_others);
	return b.fmod_ret - a.fmod_ret;
}

struct oom_stats {
	int attempts, injected, enomem, other_errors, first_other;
	int ok_despite_failure, kept_running;
};

static void oom_attach_attempts(struct lifetime *skel, int nth_fd,
				struct oom_stats *st)
{
	int prog_fd = bpf_program__fd(skel->progs.count_fmod_ret);
	int n, link_fd, err, left;
	long runs;

	for (n = 1; n <= MAX_NTH; n++) {
		st->attempts++;
		arm_nth(nth_fd, n);
		link_fd = bpf_link_create(prog_fd, 0, BPF_MODIFY_RETURN, NULL);
		err = link_fd < 0 ? -errno : 0;
		left = nth_left(nth_fd);
		arm_nth(nth_fd, 0);
		st->injected += !left;
		if (err == -ENOMEM)
			st->enomem++;
		else if (err && !st->other_errors++)
			st->first_other = err;
		st->ok_despite_failure += !err && !left;
		runs = oom_call(skel, "attach", n);
		CHECK(runs == !err, "attach %d (%d): the fmod_ret ran %ld "
		      "times", n, err, runs);
		if (link_fd >= 0)
			close(link_fd);
		if (left)
			return;
	}
	CHECK(0, "attach still reaches its %d-th allocation", MAX_NTH);
}

static void oom_detach_attempts(struct lifetime *skel, int nth_fd,
				struct oom_stats *st)
{
	int prog_fd = bpf_program__fd(skel->progs.count_fmod_ret);
	int n, link_fd, left;
	long runs;

	for (n = 1; n <= MAX_NTH; n++) {
		link_fd = bpf_link_create(prog_fd, 0, BPF_MODIFY_RETURN, NULL);
		if (!CHECK(link_fd >= 0, "attach before detach %d: %s", n,
			   strerror(errno)))
			return;
		st->attempts++;
		arm_nth(nth_fd, n);
		close(link_fd);	/* the link is released before it returns */
		left = nth_left(nth_fd);
		arm_nth(nth_fd, 0);
		st->injected += !left;
		runs = oom_call(skel, "detach", n);
		/*
		 * A detach cannot fail: the link is gone whatever happens.
		 * The program may go on running until the trampoline is next
		 * rebuilt, but never twice.
		 */
		CHECK(runs == 0 || (!left && runs == 1), "detach %d: the "
		      "fmod_ret ran %ld times after it", n, runs);
		st->kept_running += runs == 1;
		if (left)
			return;
	}
	CHECK(0, "detach still reaches its %d-th allocation", MAX_NTH);
}

void test_alloc_failure_attach_detach(void)
{
	struct oom_stats at = {}, de = {};
	struct uffd_gate gate = { .uffd = -1 };
	struct lifetime *skel = NULL;
	struct sleeper s = {};
	int nth_fd = -1, images0, images, progs, pinned = 0;
	static struct image_set before;
	cpu_set_t cpus, cpus0;
	__u32 max_id0 = 0;
	double t;

	/* Earlier cases' images may still be on their way out. */
	images0 = trampoline_image_set(&before);
	count_bpf_ids_above(bpf_prog_get_next_id, 0, &max_id0, NULL);
	nth_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (!CHECK(nth_fd >= 0, "%s: %s (a kernel without FAULT_INJECTION?)",
		   FAIL_NTH, strerror(errno)) ||
	    !knobs_set())
		goto out;
	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fentry_s,
				   &skel->links.sleep_fentry_s),
		       "attach fentry.s") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fentry,
				   &skel->links.count_fentry),
		       "attach fentry") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fexit,
				   &skel->links.count_fexit), "attach fexit"))
		goto out;
	report_call_path(sys_fn("setdomainname"));
	/*
	 * The sleeper holds its fentry.s active on its CPU: a call there
	 * would skip the program (recursion_while_sleeping), so the test's
	 * own calls run on the other CPU.
	 */
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	if (!sleeper_start_on(&s, "oom-sleeper", 0) ||
	    !sleeper_sleeps(&s, &gate, &skel->bss->sleeper_tid) ||
	    !CHECK(!s.pin_err, "pinning the sleeper: %s",
		   strerror(s.pin_err)) ||
	    !CHECK(!sched_getaffinity(0, sizeof(cpus0), &cpus0) &&
		   !sched_setaffinity(0, sizeof(cpus), &cpus),
		   "pinning the test to CPU 1: %s", strerror(errno)))
		goto out_release;
	pinned = 1;

	oom_attach_attempts(skel, nth_fd, &at);
	oom_detach_attempts(skel, nth_fd, &de);
	diag("attach: %d attempts, %d with a failed allocation: %d -ENOMEM, "
	     "%d succeeded anyway, %d other errors (first %d)", at.attempts,
	     at.injected, at.enomem, at.ok_despite_failure, at.other_errors,
	     at.first_other);
	diag("detach: %d attempts, %d with a failed allocation, after %d of "
	     "them the program ran once more", de.attempts, de.injected,
	     de.kept_running);
	CHECK(!at.other_errors, "%d attaches failed with another error than "
	      "-ENOMEM, the first %d (%s)", at.other_errors, at.first_other,
	      strerror(-at.first_other));
	CHECK(at.injected > 0 && de.injected > 0, "no allocation failed: "
	      "is fault injection armed?");
	CHECK(!s.done, "the sleeper woke early");

out_release:
	if (pinned)
		sched_setaffinity(0, sizeof(cpus0), &cpus0);
	sleeper_wake(&s, &gate);
	CHECK(s.ret == 0, "the sleeper's setdomainname returned %ld (%s)",
	      s.ret, strerror(s.err));
	CHECK(skel->bss->fentry_s_rec.calls == 1 &&
	      skel->bss->fentry_s_rec.value == GATE_VALUE,
	      "fentry.s: %d runs for the sleeper, value %#llx",
	      skel->bss->fentry_s_rec.calls,
	      (unsigned long long)skel->bss->fentry_s_rec.value);
out:
	if (nth_fd >= 0) {
		arm_nth(nth_fd, 0);
		close(nth_fd);
	}
	knobs_restore();
	sleeper_join(&s);
	lifetime__destroy(skel);
	gate_fini(&gate);
	/* Nothing leaked: every image and program of the case goes. */
	t = mono_seconds();
	do {
		images = new_trampoline_images(&before);
		progs = count_bpf_ids_above(bpf_prog_get_next_id, max_id0, NULL,
					    NULL);
		if (!images && !progs)
			break;
		sleep_ms(100);
	} while (mono_seconds() - t < 10);
	CHECK(!images && !progs, "10 s after the case: %d trampoline images "
	      "that were not there before it (%d then) and %d of its "
	      "programs left", images, images0, progs);
}
