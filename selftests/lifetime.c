// SPDX-License-Identifier: GPL-2.0
/*
 * Lifetime of sleeping programs: a thread sleeps inside a sleepable
 * program (in a userfaultfd fault the test serves when it chooses) while
 * the test detaches, replaces or frees what it runs, or signals it.  The
 * image and the programs must outlive the sleep; the sleeper's syscall
 * must end with its normal result.
 */
#include "sleeptest.h"
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "sleeper.h"

/*
 * Lifetime 1: a fentry.s and a fentry on setdomainname; a thread sleeps
 * inside the fentry.s; both links are destroyed and the programs closed
 * while it sleeps.  The closes return promptly, the old image stays
 * listed until the sleeper returns, the sleeper's call completes
 * normally with the program's data, the image goes within seconds and
 * later calls run nothing.
 */
void test_detach_while_sleeping(void)
{
	struct lifetime__bss bss;
	struct uffd_gate gate;
	struct lifetime *skel;
	unsigned long long images[MAX_IMAGES];
	struct sleeper s = {};
	int nr_images, left, map_fd = -1, err;
	double t;

	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out_gate;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fentry_s,
				   &skel->links.sleep_fentry_s),
		       "attach fentry.s") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fentry,
				   &skel->links.count_fentry), "attach fentry"))
		goto out_skel;
	report_call_path(sys_fn("setdomainname"));
	/* Every image now listed, the sleeper's among them. */
	nr_images = trampoline_images(images, MAX_IMAGES);
	if (!CHECK(nr_images > 0, "no trampoline image in /proc/kallsyms: %d",
		   nr_images))
		goto out_skel;
	map_fd = dup(bpf_map__fd(skel->maps.bss));
	if (!CHECK(map_fd >= 0, "dup: %s", strerror(errno)) ||
	    !sleeper_start(&s, "detach-sleeping"))
		goto out_skel;
	if (!sleeper_sleeps(&s, &gate, &skel->bss->sleeper_tid))
		goto out_release;

	t = mono_seconds();
	lifetime__destroy(skel);
	skel = NULL;
	t = mono_seconds() - t;
	CHECK(t < 2, "detach and close took %.2f s while a program slept", t);
	sleep_ms(500);
	CHECK(!s.done, "the sleeper's call returned before its fault was "
	      "served");
	left = images_still_listed(images, nr_images);
	CHECK(left == nr_images, "only %d of the %d images listed before the "
	      "detach are left while the sleeper sleeps: the one it sleeps "
	      "in may be gone", left, nr_images);

out_release:
	sleeper_wake(&s, &gate);
	CHECK(s.ret == 0 && domainname_is("detach-sleeping"),
	      "setdomainname returned %ld (%s)", s.ret, strerror(s.err));
	err = read_bss(map_fd, &bss);
	if (CHECK_ERR(err, "read .bss")) {
		CHECK(bss.fentry_s_rec.calls == 1 &&
		      bss.fentry_s_rec.copy_ret == 0 &&
		      bss.fentry_s_rec.value == GATE_VALUE,
		      "fentry.s: %d runs, copy returned %lld, value %#llx",
		      bss.fentry_s_rec.calls,
		      (long long)bss.fentry_s_rec.copy_ret,
		      (unsigned long long)bss.fentry_s_rec.value);
		CHECK(bss.fentry_hits == 1, "fentry ran %ld times for one "
		      "call", bss.fentry_hits);
	}
	/* The images go once their sleeper is out. */
	t = mono_seconds();
	while ((left = images_still_listed(images, nr_images)) &&
	       mono_seconds() - t < 10)
		sleep_ms(100);
	CHECK(!left, "%d retired images still listed %.0f s after their "
	      "sleeper returned", left, mono_seconds() - t);
	diag("retired images freed %.1f s after the sleeper returned",
	     mono_seconds() - t);
	/* Nothing runs any more. */
	syscall(__NR_setdomainname, "after", 5);
	err = read_bss(map_fd, &bss);
	if (CHECK_ERR(err, "read .bss"))
		CHECK(bss.fentry_hits == 1 && bss.fentry_s_rec.others == 0,
		      "after the detach: fentry ran %ld times, fentry.s %d "
		      "times on other calls", bss.fentry_hits,
		      bss.fentry_s_rec.others);
out_skel:
	if (skel)
		lifetime__destroy(skel);
	sleeper_join(&s);
	if (map_fd >= 0)
		close(map_fd);
out_gate:
	gate_fini(&gate);
}

/*
 * Lifetime 2: a thread sleeps in a fentry.s while fentry, fexit and
 * fmod_ret programs are attached and detached 50 times around it, so the
 * trampoline is rebuilt 100 times, alternately into images that call the
 * original function (fexit, fmod_ret) and images that do not.  Each
 * program attached runs once on a call made meanwhile; the sleeper's
 * call ends normally; afterwards only what is attached runs.
 */
#define REPLACE_ROUNDS 50

void test_replace_while_sleeping(void)
{
	struct lifetime__bss bss;
	struct bpf_program *progs[3];
	volatile long *hits[3];
	struct uffd_gate gate;
	struct lifetime *skel;
	struct sleeper s = {};
	struct bpf_link *link;
	long before;
	int i, k;

	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out_gate;
	progs[0] = skel->progs.count_fentry;
	progs[1] = skel->progs.count_fexit;
	progs[2] = skel->progs.count_fmod_ret;
	hits[0] = &skel->bss->fentry_hits;
	hits[1] = &skel->bss->fexit_hits;
	hits[2] = &skel->bss->fmod_ret_hits;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fentry_s,
				   &skel->links.sleep_fentry_s),
		       "attach fentry.s") ||
	    !sleeper_start(&s, "replace-sleeping"))
		goto out_skel;
	if (!sleeper_sleeps(&s, &gate, &skel->bss->sleeper_tid))
		goto out_release;
	for (i = 0; i < REPLACE_ROUNDS && !case_failed; i++) {
		k = i % 3;
		before = *hits[k];
		link = bpf_program__attach(progs[k]);
		if (!CHECK_ERR(link ? 0 : -errno, "attach"))
			break;
		syscall(__NR_setdomainname, "replacing", 9);
		CHECK(*hits[k] == before + 1, "round %d: %s ran %ld times for "
		      "one call", i, bpf_program__name(progs[k]),
		      *hits[k] - before);
		bpf_link__destroy(link);
		/*
		 * A task that never sleeps holds up RCU-tasks grace periods,
		 * which free the retired images that did not run the
		 * sleeping program.
		 */
		sleep_ms(1);
	}
	CHECK(!s.done, "the sleeper's call returned before its fault was "
	      "served");
out_release:
	sleeper_wake(&s, &gate);
	CHECK(s.ret == 0 && domainname_is("replace-sleeping"),
	      "setdomainname returned %ld (%s)", s.ret, strerror(s.err));
	bss = *skel->bss;
	CHECK(bss.fentry_s_rec.calls == 1 && bss.fentry_s_rec.copy_ret == 0 &&
	      bss.fentry_s_rec.value == GATE_VALUE,
	      "fentry.s: %d runs for the sleeper, copy returned %lld, value "
	      "%#llx", bss.fentry_s_rec.calls,
	      (long long)bss.fentry_s_rec.copy_ret,
	      (unsigned long long)bss.fentry_s_rec.value);
	/* Now only the fentry.s is attached. */
	syscall(__NR_setdomainname, "after", 5);
	CHECK(skel->bss->fentry_s_rec.others == bss.fentry_s_rec.others + 1 &&
	      skel->bss->fentry_hits == bss.fentry_hits &&
	      skel->bss->fexit_hits == bss.fexit_hits &&
	      skel->bss->fmod_ret_hits == bss.fmod_ret_hits,
	      "after the churn one call ran fentry.s %d, fentry %ld, fexit "
	      "%ld, fmod_ret %ld times; want 1, 0, 0, 0",
	      skel->bss->fentry_s_rec.others - bss.fentry_s_rec.others,
	      skel->bss->fentry_hits - bss.fentry_hits,
	      skel->bss->fexit_hits - bss.fexit_hits,
	      skel->bss->fmod_ret_hits - bss.fmod_ret_hits);
out_skel:
	lifetime__destroy(skel);
	sleeper_join(&s);
out_gate:
	gate_fini(&gate);
}

/*
 * Lifetime 3: fexit.s sleeps after the original returned, fmod_ret.s
 * before it is called (letting it run, or forcing a return value); the
 * program and its link are destroyed while it sleeps.  The caller gets
 * the original's result or the forced one; the original ran once, or
 * not at all when the value was forced.
 */
enum sleeping_kind { SLEEP_FEXIT, SLEEP_FMOD_RET, SLEEP_FMOD_RET_FORCED };

static void sleep_in(enum sleeping_kind kind)
{
	static const char *const names[] = {
		"fexit-sleeping", "fmod-ret-sleeping", "fmod-ret-forced",
	};
	const long forced = -EPERM;
	struct sleep_record *rec;
	struct lifetime__bss bss;
	struct bpf_program *prog;
	struct bpf_link **link;
	struct uffd_gate gate;
	struct lifetime *skel;
	struct sleeper s = {};
	int map_fd = -1, err;
	char before[65];
	struct utsname u;

	if (!CHECK(!uname(&u), "uname: %s", strerror(errno)))
		return;
	snprintf(before, sizeof(before), "%s", u.domainname);
	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out_gate;
	if (kind == SLEEP_FEXIT) {
		prog = skel->progs.sleep_fexit_s;
		link = &skel->links.sleep_fexit_s;
	} else {
		prog = skel->progs.sleep_fmod_ret_s;
		link = &skel->links.sleep_fmod_ret_s;
		skel->bss->forced_ret = kind == SLEEP_FMOD_RET_FORCED ?
					forced : 0;
	}
	/* A plain fexit counts the original's returns. */
	if (!CHECK_ERR(attach_prog(prog, link), "attach sleeping program") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fexit,
				   &skel->links.count_fexit), "attach fexit"))
		goto out_skel;
	map_fd = dup(bpf_map__fd(skel->maps.bss));
	if (!CHECK(map_fd >= 0, "dup: %s", strerror(errno)) ||
	    !sleeper_start(&s, names[kind]))
		goto out_skel;
	if (!sleeper_sleeps(&s, &gate, &skel->bss->sleeper_tid))
		goto out_release;
	/* fexit.s sleeps after the original ran, fmod_ret.s before. */
	CHECK(domainname_is(kind == SLEEP_FEXIT ? names[kind] : before),
	      "while the program sleeps, the domain name is not what the "
	      "original function %s", kind == SLEEP_FEXIT ? "set" :
	      "left (it ran before the program returned)");
	lifetime__destroy(skel);
	skel = NULL;
out_release:
	sleeper_wake(&s, &gate);
	if (kind == SLEEP_FMOD_RET_FORCED)
		CHECK(s.ret == -1 && s.err == -forced && domainname_is(before),
		      "setdomainname returned %ld (%s), want the forced %ld",
		      s.ret, strerror(s.err), forced);
	else
		CHECK(s.ret == 0 && domainname_is(names[kind]),
		      "setdomainname returned %ld (%s)", s.ret,
		      strerror(s.err));
	err = map_fd >= 0 ? read_bss(map_fd, &bss) : -EBADF;
	if (!CHECK_ERR(err, "read .bss"))
		goto out_skel;
	rec = kind == SLEEP_FEXIT ? &bss.fexit_s_rec : &bss.fmod_ret_s_rec;
	CHECK(rec->calls == 1 && rec->copy_ret == 0 &&
	      rec->value == GATE_VALUE,
	      "%d runs for the sleeper, copy returned %lld, value %#llx",
	      rec->calls, (long long)rec->copy_ret,
	      (unsigned long long)rec->value);
	if (kind == SLEEP_FEXIT)
		CHECK(rec->fn_ret == 0, "fexit.s saw return value %lld, want 0",
		      (long long)rec->fn_ret);
	/*
	 * The plain fexit ran first in the fexit.s case (newest first); a
	 * call still inside a detached image skips its fexit programs, so
	 * in the fmod_ret.s cases it may not run at all.
	 */
	CHECK(kind == SLEEP_FEXIT ? bss.fexit_hits == 1 : bss.fexit_hits <= 1,
	      "fexit ran %ld times for one call", bss.fexit_hits);
out_skel:
	if (skel)
		lifetime__destroy(skel);
	sleeper_join(&s);
	if (map_fd >= 0)
		close(map_fd);
out_gate:
	gate_fini(&gate);
}

void test_fexit_s_sleeping_detached(void)
{
	sleep_in(SLEEP_FEXIT);
}

void test_fmod_ret_s_sleeping_detached(void)
{
	sleep_in(SLEEP_FMOD_RET);
	if (!case_failed)
		sleep_in(SLEEP_FMOD_RET_FORCED);
}

/*
 * Signals 1: a thread sleeping inside a fentry.s gets a signal with a
 * handler (no SA_RESTART).  In 6.1 a fault taken in kernel mode gives up
 * only for a fatal signal (fault_signal_pending()); for any other it is
 * retried and sleeps on.  So the program stays asleep, the handler cannot
 * run before the syscall returns; once the fault is served the copy
 * succeeds, the syscall completes and the handler runs once.
 */
void test_signal_while_sleeping(void)
{
	struct sigaction sa = { .sa_handler = sleeper_signal }, old_sa;
	struct uffd_gate gate;
	struct lifetime *skel;
	struct sleeper s = {};
	struct sleep_record *rec;

	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out_gate;
	sigemptyset(&sa.sa_mask);
	if (!CHECK(!sigaction(SIGUSR1, &sa, &old_sa), "sigaction: %s",
		   strerror(errno)))
		goto out_skel;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fentry_s,
				   &skel->links.sleep_fentry_s),
		       "attach fentry.s") ||
	    !sleeper_start(&s, "signal-sleeping"))
		goto out_sig;
	signalled_sleeper = &s;
	skel->bss->sleeper_tid = s.tid;
	s.go = 1;
	if (!CHECK(gate_wait_sleeper(&gate, SLEEPER_WAIT_MS),
		   "the sleeper did not block in fentry.s within %d ms",
		   SLEEPER_WAIT_MS)) {
		gate_release(&gate, GATE_VALUE);
		goto out_join;
	}
	pthread_kill(s.thread, SIGUSR1);
	sleep_ms(1000);
	CHECK(!s.done && !s.signals, "1 s after the signal: the call %s, the "
	      "handler ran %d times; want it still asleep, 0",
	      s.done ? "returned" : "sleeps", s.signals);
	gate_release(&gate, GATE_VALUE);
	if (!CHECK(sleeper_wait(&s, 10000), "the sleeper's call did not "
		   "return within 10 s of the fault being served"))
		goto out_join;
	rec = &skel->bss->fentry_s_rec;
	CHECK(rec->calls == 1 && rec->copy_ret == 0 &&
	      rec->value == GATE_VALUE,
	      "fentry.s: %d runs, copy returned %lld, value %#llx",
	      rec->calls, (long long)rec->copy_ret,
	      (unsigned long long)rec->value);
	CHECK(s.ret == 0 && domainname_is("signal-sleeping"),
	      "setdomainname returned %ld (%s)", s.ret, strerror(s.err));
	sleep_ms(10);
	CHECK(s.signals == 1, "the handler ran %d times", s.signals);
out_join:
	sleeper_join(&s);
	signalled_sleeper = NULL;
out_sig:
	sigaction(SIGUSR1, &old_sa, NULL);
out_skel:
	lifetime__destroy(skel);
out_gate:
	gate_fini(&gate);
}

/*
 * Signals 2: a child process sleeping there is killed with SIGKILL.  It
 * exits within 2 s, and destroying the link afterwards (the image waits
 * for a tasks-trace grace period) returns within 5 s.
 */
void test_sigkill_while_sleeping(void)
{
	struct uffd_gate gate = { .uffd = -1 };
	struct lifetime *skel;
	double t;
	int status;
	pid_t child, w = 0;

	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out;
	/* The child is its own process: only the sleeper check applies. */
	skel->bss->monitored_pid = 0;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fentry_s,
				   &skel->links.sleep_fentry_s),
		       "attach fentry.s"))
		goto out;
	child = fork();
	if (!CHECK(child >= 0, "fork: %s", strerror(errno)))
		goto out;
	if (!child) {
		/*
		 * userfaultfd is per mm: the parent's gate does not block the
		 * child, which makes its own.
		 */
		if (!gate_init(&gate))
			_exit(2);
		skel->bss->gate_addr = (unsigned long)gate.page;
		skel->bss->monitored_pid = getpid();
		skel->bss->sleeper_tid = getpid();
		syscall(__NR_setdomainname, "killed", 6);
		_exit(3);	/* the fault is never served */
	}
	/* The child's .bss writes land in the shared map. */
	t = mono_seconds();
	while (!skel->bss->fentry_s_rec.entered && mono_seconds() - t < 10)
		sleep_ms(10);
	CHECK(skel->bss->fentry_s_rec.entered == 1, "the child's call did not "
	      "reach the fentry.s within 10 s");
	sleep_ms(200);	/* on into the fault */
	CHECK(!waitpid(child, &status, WNOHANG), "the child exited before "
	      "it was killed (status %#x)", status);
	kill(child, SIGKILL);
	t = mono_seconds();
	while (!(w = waitpid(child, &status, WNOHANG)) &&
	       mono_seconds() - t < 2)
		sleep_ms(10);
	if (!CHECK(w == child, "the killed child did not exit within 2 s")) {
		waitpid(child, &status, 0);
		goto out;
	}
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "child status %#x, want killed by SIGKILL", status);
	t = mono_seconds();
	bpf_link__destroy(skel->links.sleep_fentry_s);
	skel->links.sleep_fentry_s = NULL;
	t = mono_seconds() - t;
	CHECK(t < 5, "detach after the kill took %.1f s", t);
out:
	lifetime__destroy(skel);
	gate_fini(&gate);
}
