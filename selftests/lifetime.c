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
#include "sleep_elsewhere.skel.h"
#include "pinned.skel.h"

/*
 * The images listed before a detach while a program sleeps, and a
 * reference on the programs' .bss map that outlives their skeleton.
 */
struct image_watch {
	unsigned long long images[MAX_IMAGES];
	int nr_images;
	int map_fd;
};

/* Every image now listed, the sleeper's among them: 1 if all was had. */
static int watch_start(struct image_watch *w, struct bpf_map *bss)
{
	w->map_fd = -1;
	w->nr_images = trampoline_images(w->images, MAX_IMAGES);
	if (!CHECK(w->nr_images > 0, "no trampoline image in /proc/kallsyms: "
		   "%d", w->nr_images))
		return 0;
	w->map_fd = dup(bpf_map__fd(bss));
	return CHECK(w->map_fd >= 0, "dup: %s", strerror(errno));
}

/*
 * Links and programs were destroyed from t0 on while a program sleeps:
 * that was prompt, and the images all stay.
 */
static void watch_detached(struct image_watch *w, double t0)
{
	double t = mono_seconds() - t0;
	int left;

	CHECK(t < 2, "detach and close took %.2f s while a program slept", t);
	sleep_ms(500);
	left = images_still_listed(w->images, w->nr_images);
	CHECK(left == w->nr_images, "only %d of the %d images listed before "
	      "the detach are left while the sleeper sleeps: the one it "
	      "sleeps in may be gone", left, w->nr_images);
}

/* Once the sleeper returned, its retired images go within 10 s. */
static void watch_freed(struct image_watch *w)
{
	double t = mono_seconds();
	int left;

	while ((left = images_still_listed(w->images, w->nr_images)) &&
	       mono_seconds() - t < 10)
		sleep_ms(100);
	if (CHECK(!left, "%d retired images still listed %.0f s after "
		  "their sleeper returned", left, mono_seconds() - t))
		diag("retired images freed %.1f s after the sleeper returned",
		     mono_seconds() - t);
}

static void watch_end(struct image_watch *w)
{
	if (w->map_fd >= 0)
		close(w->map_fd);
	w->map_fd = -1;
}

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
	struct image_watch w = { .map_fd = -1 };
	struct lifetime__bss bss;
	struct uffd_gate gate;
	struct lifetime *skel;
	struct sleeper s = {};
	double t;
	int err;

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
	if (!watch_start(&w, skel->maps.bss) ||
	    !sleeper_start(&s, "detach-sleeping"))
		goto out_skel;
	if (!sleeper_sleeps(&s, &gate, &skel->bss->sleeper_tid))
		goto out_release;

	t = mono_seconds();
	lifetime__destroy(skel);
	skel = NULL;
	watch_detached(&w, t);
	CHECK(!s.done, "the sleeper's call returned before its fault was "
	      "served");

out_release:
	sleeper_wake(&s, &gate);
	CHECK(s.ret == 0 && domainname_is("detach-sleeping"),
	      "setdomainname returned %ld (%s)", s.ret, strerror(s.err));
	err = read_bss(w.map_fd, &bss);
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
	watch_freed(&w);
	/* Nothing runs any more. */
	syscall(__NR_setdomainname, "after", 5);
	err = read_bss(w.map_fd, &bss);
	if (CHECK_ERR(err, "read .bss"))
		CHECK(bss.fentry_hits == 1 && bss.fentry_s_rec.others == 0,
		      "after the detach: fentry ran %ld times, fentry.s %d "
		      "times on other calls", bss.fentry_hits,
		      bss.fentry_s_rec.others);
out_skel:
	if (skel)
		lifetime__destroy(skel);
	sleeper_join(&s);
	watch_end(&w);
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
	 * The plain fexit ran first in the fexit.s case (newest first).  In
	 * the fmod_ret.s cases both links were closed while the program
	 * slept, and the image retired: the call that goes on through the
	 * original meets ip_after_call patched into a jump to the epilogue,
	 * and the forced return, which branches past that site, meets the
	 * fexit program's link detached.  A detached program must not run
	 * (it may already be freed): 0 runs in both.
	 */
	CHECK(bss.fexit_hits == (kind == SLEEP_FEXIT ? 1 : 0),
	      "fexit ran %ld times for one call, want %d", bss.fexit_hits,
	      kind == SLEEP_FEXIT ? 1 : 0);
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

/* Whether /proc/PID/stack shows the task inside handle_userfault(). */
static int sleeps_in_userfault(pid_t pid, char *stack, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	stack[0] = 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, stack, len - 1);
	close(fd);
	stack[n > 0 ? n : 0] = 0;
	return strstr(stack, "handle_userfault") != NULL;
}

/*
 * Signals 2: a child process sleeping there (its stack shows it inside
 * handle_userfault(), under the fentry.s program's copy) is killed with
 * SIGKILL.  It exits within 2 s, the copy it was in returned -EFAULT to
 * the program, and destroying the link afterwards (the image waits for
 * a tasks-trace grace period) returns within 5 s.
 */
void test_sigkill_while_sleeping(void)
{
	struct uffd_gate gate = { .uffd = -1 };
	struct lifetime *skel;
	char stack[4096];
	double t;
	int status, slept = 0;
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
	/* on into the fault */
	for (t = mono_seconds(); !slept && mono_seconds() - t < 5;
	     sleep_ms(20))
		slept = sleeps_in_userfault(child, stack, sizeof(stack));
	CHECK(slept, "the child is not sleeping in handle_userfault() "
	      "after 5 s; its stack: %s", stack);
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
	/* The kill ended the fault: the copy failed, the program went on. */
	CHECK(skel->bss->fentry_s_rec.calls == 1 &&
	      skel->bss->fentry_s_rec.copy_ret == -EFAULT,
	      "the killed child's program: %d runs, copy returned %lld, "
	      "want 1 and -EFAULT", skel->bss->fentry_s_rec.calls,
	      (long long)skel->bss->fentry_s_rec.copy_ret);
	t = mono_seconds();
	bpf_link__destroy(skel->links.sleep_fentry_s);
	skel->links.sleep_fentry_s = NULL;
	t = mono_seconds() - t;
	CHECK(t < 5, "detach after the kill took %.1f s", t);
out:
	lifetime__destroy(skel);
	gate_fini(&gate);
}

/* sleep_elsewhere's .bss, read through its map once the skeleton is gone. */
static int read_elsewhere_bss(int map_fd, struct sleep_elsewhere__bss *bss)
{
	int zero = 0;

	return bpf_map_lookup_elem(map_fd, &zero, bss) ? -errno : 0;
}

/* The skeleton, loaded with the gate's address and only the programs
 * named autoloaded; NULL on failure.
 */
static struct sleep_elsewhere *elsewhere_open_load(struct uffd_gate *g,
						   const char *const *names)
{
	struct sleep_elsewhere *skel;
	struct bpf_program *p;
	int i, keep;

	skel = sleep_elsewhere__open();
	if (!CHECK(skel, "open failed"))
		return NULL;
	skel->bss->monitored_pid = getpid();
	skel->bss->gate_addr = (unsigned long)g->page;
	bpf_object__for_each_program(p, skel->obj) {
		for (keep = 0, i = 0; names[i]; i++)
			keep |= !strcmp(bpf_program__name(p), names[i]);
		bpf_program__set_autoload(p, keep);
	}
	if (!CHECK_ERR(sleep_elsewhere__load(skel), "load")) {
		sleep_elsewhere__destroy(skel);
		return NULL;
	}
	return skel;
}

/* The sleeper's call in the module case: write its name to the trigger. */
static long write_trigger(struct sleeper *s)
{
	long ret;
	int fd, err;

	fd = open(TEST_MODULE_TRIGGER, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = write(fd, s->name, strlen(s->name));
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

/*
 * Lifetime 4: a module caller.  A fexit.s on the test module's function
 * sleeps after the function returned, in a write to the module's debugfs
 * file.  delete_module fails while the program is attached (the
 * trampoline holds the module) and still fails once the link is destroyed
 * while the program sleeps (the sleeper is in the module's code, with its
 * file open).  After the fault is served the write returns its length,
 * the program saw the function's result, and the module unloads.
 */
void test_module_caller_sleeping(void)
{
	static const char *const progs[] = { "sleep_mod_fexit_s", NULL };
	static const char arg[] = "module-sleeper";	/* 14 bytes */
	struct image_watch w = { .map_fd = -1 };
	struct sleep_elsewhere__bss bss;
	struct uffd_gate gate = { .uffd = -1 };
	struct sleep_elsewhere *skel = NULL;
	struct sleeper s = {};
	double t;
	int err;

	if (!load_test_module())
		return;
	if (!gate_init(&gate))
		goto out;
	skel = elsewhere_open_load(&gate, progs);
	if (!skel)
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_mod_fexit_s,
				   &skel->links.sleep_mod_fexit_s),
		       "attach fexit.s"))
		goto out;
	report_call_path("sleeptest_mod_target");
	err = unload_test_module();
	CHECK(err == -EWOULDBLOCK, "delete_module with a fexit.s attached "
	      "returned %d (%s), want EWOULDBLOCK", err, strerror(-err));
	if (!watch_start(&w, skel->maps.bss) ||
	    !sleeper_start_call(&s, arg, -1, write_trigger))
		goto out;
	if (!sleeper_sleeps(&s, &gate, &skel->bss->sleeper_tid))
		goto out_release;

	t = mono_seconds();
	sleep_elsewhere__destroy(skel);
	skel = NULL;
	watch_detached(&w, t);
	err = unload_test_module();
	CHECK(err == -EWOULDBLOCK, "delete_module while the detached fexit.s "
	      "sleeps in a module call returned %d (%s), want EWOULDBLOCK",
	      err, strerror(-err));
	CHECK(!s.done, "the write returned before its fault was served");

out_release:
	sleeper_wake(&s, &gate);
	CHECK(s.ret == (long)strlen(arg), "the trigger write returned %ld "
	      "(%s), want %zu", s.ret, strerror(s.err), strlen(arg));
	if (CHECK_ERR(read_elsewhere_bss(w.map_fd, &bss), "read .bss"))
		CHECK(bss.mod_rec.calls == 1 && bss.mod_rec.copy_ret == 0 &&
		      bss.mod_rec.value == GATE_VALUE &&
		      bss.mod_rec.fn_ret == 2 * (long)strlen(arg) + 1,
		      "fexit.s: %d runs, copy %lld, value %#llx, saw return "
		      "%lld, want 1 run, 0, %#llx, %zu", bss.mod_rec.calls,
		      (long long)bss.mod_rec.copy_ret,
		      (unsigned long long)bss.mod_rec.value,
		      (long long)bss.mod_rec.fn_ret, GATE_VALUE,
		      2 * strlen(arg) + 1);
	watch_freed(&w);
out:
	if (skel)
		sleep_elsewhere__destroy(skel);
	sleeper_join(&s);
	watch_end(&w);
	gate_fini(&gate);
	/* Nothing holds the module any more. */
	err = unload_test_module();
	CHECK(!err, "delete_module after the sleeper returned: %s",
	      strerror(-err));
}

/* The exec'ing child of the lsm.s case; it shares the test's memory. */
struct exec_child {
	volatile int go;
	char stack[64 * 1024] __attribute__((aligned(16)));
};

#define EXEC_SLEEPER_ARGV0 "sleeptest-exec-sleeper"

static int exec_child_fn(void *arg)
{
	static char *const argv[] = { EXEC_SLEEPER_ARGV0, "--exit", NULL };
	static char *const envp[] = { NULL };
	struct exec_child *c = arg;

	/* Raw syscalls only: this child runs on the test's thread state. */
	while (!c->go)
		syscall(__NR_sched_yield);
	syscall(__NR_execve, "/proc/self/exe", argv, envp);
	syscall(__NR_exit, 127);
	return 127;
}

/*
 * Lifetime 5: lsm.s sleeping in an exec.  A child made with
 * clone(CLONE_VM) execs the test program; an lsm.s on
 * bprm_check_security sleeps copying from the gate, still in the memory
 * the child shares with the test, beside a plain lsm program on the same
 * hook.  Both links and programs go while it sleeps; the exec then
 * completes (the new program exits 0), the lsm.s ran once with the gate's
 * value, the image is freed and a later exec runs nothing.
 */
void test_lsm_s_exec_sleeping(void)
{
	static const char *const progs[] = { "sleep_exec_lsm_s", "count_exec",
					     NULL };
	struct image_watch w = { .map_fd = -1 };
	struct sleep_elsewhere__bss bss;
	struct uffd_gate gate = { .uffd = -1 };
	struct sleep_elsewhere *skel = NULL;
	struct exec_child *c = NULL;
	pid_t child = -1, done = 0;
	int status = 0;
	double t;

	if (!gate_init(&gate))
		goto out;
	skel = elsewhere_open_load(&gate, progs);
	if (!skel)
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_exec_lsm_s,
				   &skel->links.sleep_exec_lsm_s),
		       "attach lsm.s") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_exec,
				   &skel->links.count_exec), "attach lsm"))
		goto out;
	report_call_path("bpf_lsm_bprm_check_security");
	c = calloc(1, sizeof(*c));
	if (!watch_start(&w, skel->maps.bss) || !CHECK(c, "calloc"))
		goto out;
	child = clone(exec_child_fn, c->stack + sizeof(c->stack),
		      CLONE_VM | SIGCHLD, c);
	if (!CHECK(child > 0, "clone: %s", strerror(errno)))
		goto out;
	skel->bss->sleeper_tid = child;
	c->go = 1;
	if (!CHECK(gate_wait_sleeper(&gate, SLEEPER_WAIT_MS),
		   "the exec'ing child did not block on the gate within %d ms",
		   SLEEPER_WAIT_MS))
		goto out_release;

	t = mono_seconds();
	sleep_elsewhere__destroy(skel);
	skel = NULL;
	watch_detached(&w, t);
	CHECK(!waitpid(child, &status, WNOHANG), "the child finished its "
	      "exec before its fault was served (status %#x)", status);

out_release:
	gate_release(&gate, GATE_VALUE);
	t = mono_seconds();
	while (!(done = waitpid(child, &status, WNOHANG)) &&
	       mono_seconds() - t < 10)
		sleep_ms(10);
	if (!CHECK(done == child, "the exec'ing child did not exit within "
		   "10 s of its fault being served")) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
	}
	child = -1;
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "exec'd child status %#x, want exit 0", status);
	if (CHECK_ERR(read_elsewhere_bss(w.map_fd, &bss), "read .bss"))
		CHECK(bss.exec_rec.calls == 1 && bss.exec_rec.copy_ret == 0 &&
		      bss.exec_rec.value == GATE_VALUE && bss.exec_hits == 1,
		      "lsm.s: %d runs, copy %lld, value %#llx; lsm: %ld runs",
		      bss.exec_rec.calls, (long long)bss.exec_rec.copy_ret,
		      (unsigned long long)bss.exec_rec.value, bss.exec_hits);
	watch_freed(&w);
	/* A later exec runs nothing. */
	child = fork();
	if (!child) {
		execl("/proc/self/exe", EXEC_SLEEPER_ARGV0, "--exit", NULL);
		_exit(127);
	}
	if (CHECK(child > 0, "fork: %s", strerror(errno)))
		waitpid(child, &status, 0);
	child = -1;
	if (CHECK_ERR(read_elsewhere_bss(w.map_fd, &bss), "read .bss"))
		CHECK(bss.exec_rec.others == 0 && bss.exec_hits == 1,
		      "after the detach an exec ran the lsm.s %d and the lsm "
		      "%ld more times", bss.exec_rec.others,
		      bss.exec_hits - 1);
out:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
	}
	if (skel)
		sleep_elsewhere__destroy(skel);
	watch_end(&w);
	free(c);
	gate_fini(&gate);
}

/*
 * Lifetime 9: a detached program is freed within seconds even while a
 * task sleeps in the function it traced.  An fexit on the read syscall's
 * function; a thread blocks reading an empty pipe, inside the function
 * and so inside the image's call of it; the link and the program are
 * destroyed.  The image must stay until the reader returns (it will
 * return through it), but the program and its map need not: stock 6.1
 * turns the retired image's fexit part into a jump to its epilogue and
 * frees the program at once.  Their IDs must be gone within 5 s, the
 * reader must then get its data.
 */
struct pipe_reader {
	pthread_t thread;
	int fd;
	volatile int tid;
	volatile int done;
	long ret;
	char buf[16];
};

static void *pipe_reader_fn(void *arg)
{
	struct pipe_reader *r = arg;

	r->tid = syscall(__NR_gettid);
	r->ret = read(r->fd, r->buf, sizeof(r->buf));
	r->done = 1;
	return NULL;
}

/* 1 once thread tid sits in the read syscall (/proc's syscall file). */
static int blocked_in_read(int tid)
{
	char path[64], line[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	return atoi(line) == __NR_read && line[0] != 'r';
}

/* 1 when no object has the ID any more (ENOENT), by the get_fd call. */
static int id_gone(int (*get_fd)(__u32), __u32 id)
{
	int fd = get_fd(id);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == ENOENT;
}

/*
 * Wait up to limit seconds for program prog_id and map map_id to be gone:
 * 1 if they went, and the seconds waited in *waited.
 */
static int prog_and_map_gone(__u32 prog_id, __u32 map_id, double limit,
			     double *waited)
{
	double t0 = mono_seconds();
	int gone;

	while (!(gone = id_gone(bpf_prog_get_fd_by_id, prog_id) &&
		 id_gone(bpf_map_get_fd_by_id, map_id)) &&
	       mono_seconds() - t0 < limit)
		sleep_ms(50);
	*waited = mono_seconds() - t0;
	return gone;
}

void test_detached_prog_freed_while_sleeping(void)
{
	struct pipe_reader r = { .fd = -1 };
	struct bpf_prog_info pinfo = {};
	struct bpf_map_info minfo = {};
	__u32 plen = sizeof(pinfo), mlen = sizeof(minfo);
	struct pinned *skel;
	double t0, waited;
	int pfd[2] = { -1, -1 };
	int started = 0, gone = 0;

	skel = pinned__open();
	if (!CHECK(skel, "open failed"))
		return;
	bpf_program__set_attach_target(skel->progs.count_reader_return, 0,
				       sys_fn("read"));
	if (!CHECK_ERR(pinned__load(skel), "load") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_reader_return,
				   &skel->links.count_reader_return),
		       "attach fexit") ||
	    !CHECK(!pipe2(pfd, O_CLOEXEC), "pipe: %s", strerror(errno)))
		goto out;
	report_call_path(sys_fn("read"));
	if (!CHECK(!bpf_obj_get_info_by_fd(bpf_program__fd(
			skel->progs.count_reader_return), &pinfo, &plen) &&
		   !bpf_obj_get_info_by_fd(bpf_map__fd(skel->maps.bss),
					   &minfo, &mlen),
		   "get info: %s", strerror(errno)))
		goto out;

	r.fd = pfd[0];
	if (!CHECK(!pthread_create(&r.thread, NULL, pipe_reader_fn, &r),
		   "pthread_create"))
		goto out;
	started = 1;
	for (t0 = mono_seconds(); mono_seconds() - t0 < 5; sleep_ms(20))
		if (r.tid && blocked_in_read(r.tid))
			break;
	if (!CHECK(r.tid && blocked_in_read(r.tid), "the reader did not "
		   "block in read within 5 s"))
		goto out;
	skel->bss->reader_tid = r.tid;
	sleep_ms(100);	/* well inside the function's wait */

	pinned__destroy(skel);
	skel = NULL;
	gone = prog_and_map_gone(pinfo.id, minfo.id, 5, &waited);
	diag("detached fexit program %u and map %u %s %.2f s after the "
	     "detach, the reader %s", pinfo.id, minfo.id,
	     gone ? "freed" : "still there", waited,
	     r.done ? "returned" : "still asleep in read");
	CHECK(gone, "program %u or map %u still exists %.1f s after its "
	      "detach while a task sleeps in %s", pinfo.id, minfo.id, waited,
	      sys_fn("read"));
	CHECK(!r.done, "the reader returned before it was given data");

	/* Wake the reader: it returns through the retired image. */
	if (!CHECK(write(pfd[1], "pinned", 6) == 6, "write: %s",
		   strerror(errno)))
		goto out;
	for (t0 = mono_seconds(); !r.done && mono_seconds() - t0 < 10; )
		sleep_ms(20);
	CHECK(r.done && r.ret == 6 && !memcmp(r.buf, "pinned", 6),
	      "the reader's read returned %ld, want 6 bytes", r.ret);
	if (!gone) {
		gone = prog_and_map_gone(pinfo.id, minfo.id, 10, &waited);
		diag("program and map %s %.2f s after the reader returned",
		     gone ? "freed" : "still there", waited);
	}
out:
	if (started) {
		if (!r.done && pfd[1] >= 0)
			CHECK(write(pfd[1], "x", 1) == 1, "write: %s",
			      strerror(errno));
		pthread_join(r.thread, NULL);
	}
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (skel)
		pinned__destroy(skel);
}
