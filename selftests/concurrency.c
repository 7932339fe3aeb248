// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency around a sleeping program: other calls on the CPU it sleeps
 * on (6.1's per-CPU recursion check) and migration across the sleep.
 */
#include "sleeptest.h"

#include "sleeper.h"
#include "limit.skel.h"

/* The program's recursion_misses, or -errno. */
static long long prog_misses(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	return info.recursion_misses;
}

/* One setdomainname() call from a thread pinned to cpu: 1 if it returned
 * within ms, with its result in *ret.
 */
static int call_on_cpu(int cpu, const char *name, long ms, long *ret)
{
	struct sleeper t;
	int ok;

	if (!sleeper_start_on(&t, name, cpu))
		return 0;
	t.go = 1;
	ok = sleeper_wait(&t, ms);
	if (ok)
		*ret = t.ret;
	else
		diag("the call on CPU %d did not return within %ld ms", cpu,
		     ms);
	sleeper_join(&t);	/* returns once the call does */
	return ok;
}

/*
 * A sleeps inside a fentry.s on CPU 0.  B, on CPU 0 too, calls the same
 * function: the program's per-CPU recursion counter is still held by A,
 * so B returns promptly without running it and recursion_misses grows
 * by one.  C, on CPU 1, runs it.  Detaching after A resumes returns.
 */
void test_recursion_while_sleeping(void)
{
	struct uffd_gate gate;
	struct lifetime *skel;
	struct sleeper a = {};
	long long misses0, misses;
	long ret, others0;
	int prog_fd;
	double t;

	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out_gate;
	prog_fd = bpf_program__fd(skel->progs.sleep_fentry_s);
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fentry_s,
				   &skel->links.sleep_fentry_s),
		       "attach fentry.s") ||
	    !sleeper_start_on(&a, "recursion-a", 0))
		goto out_skel;
	if (!sleeper_sleeps(&a, &gate, &skel->bss->sleeper_tid))
		goto out_release;
	misses0 = prog_misses(prog_fd);
	others0 = skel->bss->fentry_s_rec.others;
	CHECK(misses0 >= 0, "recursion_misses: %s", strerror(-misses0));

	/* B on A's CPU. */
	if (CHECK(call_on_cpu(0, "recursion-b", 5000, &ret),
		  "B on CPU 0 did not return while A sleeps there")) {
		misses = prog_misses(prog_fd);
		CHECK(ret == 0, "B's setdomainname returned %ld", ret);
		CHECK(skel->bss->fentry_s_rec.others == others0,
		      "the program ran for B on A's CPU");
		CHECK(misses == misses0 + 1, "recursion_misses %lld -> %lld "
		      "for B's call, want +1", misses0, misses);
	}
	/* C on the other CPU. */
	misses0 = prog_misses(prog_fd);
	if (CHECK(call_on_cpu(1, "recursion-c", 5000, &ret),
		  "C on CPU 1 did not return")) {
		CHECK(ret == 0, "C's setdomainname returned %ld", ret);
		CHECK(skel->bss->fentry_s_rec.others == others0 + 1,
		      "the program ran %ld times for C on CPU 1, want 1",
		      skel->bss->fentry_s_rec.others - others0);
		CHECK(prog_misses(prog_fd) == misses0,
		      "recursion_misses grew for C's call on CPU 1");
	}
	CHECK(!a.done, "A's call returned before its fault was served");
out_release:
	sleeper_wake(&a, &gate);
	CHECK(a.ret == 0 && skel->bss->fentry_s_rec.calls == 1 &&
	      skel->bss->fentry_s_rec.value == GATE_VALUE,
	      "A: setdomainname %ld, program ran %d times, value %#llx",
	      a.ret, skel->bss->fentry_s_rec.calls,
	      (unsigned long long)skel->bss->fentry_s_rec.value);
	t = mono_seconds();
	bpf_link__destroy(skel->links.sleep_fentry_s);
	skel->links.sleep_fentry_s = NULL;
	t = mono_seconds() - t;
	CHECK(t < 5, "detach took %.1f s", t);
out_skel:
	lifetime__destroy(skel);
	sleeper_join(&a);
out_gate:
	gate_fini(&gate);
}

/* sched_setaffinity() of another task, from a thread of its own. */
struct mover {
	pthread_t thread;
	pid_t tid;
	int cpu;
	volatile int done;
	int err;
};

static void *mover_fn(void *arg)
{
	struct mover *m = arg;
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(m->cpu, &cpus);
	m->err = sched_setaffinity(m->tid, sizeof(cpus), &cpus) ? errno : 0;
	m->done = 1;
	return NULL;
}

/*
 * A sleeps inside a fentry.s on CPU 0 while the test moves it to CPU 1.
 * The sleepable enter disables migration: the program finishes on the
 * CPU it started on (its per-CPU counters are bumped there before and
 * after the sleep), and the task moves once the program is done.  6.1's
 * sched_setaffinity() waits for a migration-disabled task to reach
 * migrate_enable(), so the move returns only after the program.
 */
void test_migration_while_sleeping(void)
{
	int ncpus = libbpf_num_possible_cpus(), i, before = -1, after = -1;
	struct uffd_gate gate;
	struct lifetime *skel;
	struct sleeper a = {};
	struct mover mover = {};
	struct sleep_record *r;
	int moving = 0, err;
	__u64 *vals;
	__u32 key;

	if (!CHECK(ncpus >= 2, "%d possible CPUs", ncpus))
		return;
	vals = calloc(ncpus, sizeof(*vals));
	if (!CHECK(vals, "calloc"))
		return;
	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out_gate;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fentry_s,
				   &skel->links.sleep_fentry_s),
		       "attach fentry.s") ||
	    !sleeper_start_on(&a, "migration", 0))
		goto out_skel;
	if (!sleeper_sleeps(&a, &gate, &skel->bss->sleeper_tid))
		goto out_release;
	mover.tid = a.tid;
	mover.cpu = 1;
	err = pthread_create(&mover.thread, NULL, mover_fn, &mover);
	if (!CHECK(!err, "pthread_create: %s", strerror(err)))
		goto out_release;
	moving = 1;
	sleep_ms(500);
	CHECK(!mover.done, "sched_setaffinity() returned (%s) while the task "
	      "slept with migration disabled", strerror(mover.err));
out_release:
	sleeper_wake(&a, &gate);
	if (moving) {
		pthread_join(mover.thread, NULL);
		CHECK(!mover.err, "moving the sleeper to CPU 1: %s",
		      strerror(mover.err));
	}
	r = &skel->bss->fentry_s_rec;
	CHECK(a.ret == 0 && r->calls == 1 && r->copy_ret == 0,
	      "setdomainname %ld, program ran %d times, copy returned %lld",
	      a.ret, r->calls, (long long)r->copy_ret);
	CHECK(r->cpu_before == 0 && r->cpu_after == 0,
	      "the program ran on CPU %d before its sleep and on CPU %d "
	      "after; want 0 and 0", r->cpu_before, r->cpu_after);
	CHECK(a.cpu_after_call == 1, "after the call the task ran on CPU %d, "
	      "want 1 (where it was moved)", a.cpu_after_call);
	/* Per-CPU slots 0 (before the sleep) and 1 (after). */
	for (key = 0; key < 2; key++) {
		int *cpu = key ? &after : &before, n = 0;

		if (!CHECK(!bpf_map__lookup_elem(skel->maps.sides, &key,
						 sizeof(key), vals,
						 ncpus * sizeof(*vals), 0),
			   "per-CPU lookup: %s", strerror(errno)))
			goto out_skel;
		for (i = 0; i < ncpus; i++)
			if (vals[i]) {
				*cpu = i;
				n += vals[i];
			}
		CHECK(n == 1, "per-CPU slot %u bumped %d times, want 1", key,
		      n);
	}
	CHECK(before == 0 && after == 0, "per-CPU bumps: before the sleep "
	      "on CPU %d, after on CPU %d; want 0 and 0", before, after);
out_skel:
	lifetime__destroy(skel);
	sleeper_join(&a);
out_gate:
	gate_fini(&gate);
	free(vals);
}

/*
 * Cookies across a sleep: a fentry.s attached with one cookie reads it
 * before and after sleeping on CPU 0, while a fentry attached with
 * another cookie runs on CPU 0 for another thread's call.  Each program
 * sees its own link's cookie (the run context is the sleeper's, kept
 * across the sleep).
 */
#define COOKIE_SLEEPER 0x5eebc00c1eULL
#define COOKIE_OTHER 0x07e4c00c1eULL

void test_cookie_across_sleep(void)
{
	LIBBPF_OPTS(bpf_trace_opts, sleeper_opts, .cookie = COOKIE_SLEEPER);
	LIBBPF_OPTS(bpf_trace_opts, other_opts, .cookie = COOKIE_OTHER);
	struct uffd_gate gate;
	struct lifetime *skel;
	struct sleeper a = {};
	struct sleep_record *r;
	long ret;

	skel = lifetime_gate_open_load(&gate);
	if (!skel)
		goto out_gate;
	skel->links.sleep_fentry_s = bpf_program__attach_trace_opts(
		skel->progs.sleep_fentry_s, &sleeper_opts);
	if (!CHECK_ERR(skel->links.sleep_fentry_s ? 0 : -errno,
		       "attach fentry.s with a cookie"))
		goto out_skel;
	skel->links.count_fentry = bpf_program__attach_trace_opts(
		skel->progs.count_fentry, &other_opts);
	if (!CHECK_ERR(skel->links.count_fentry ? 0 : -errno,
		       "attach fentry with a cookie") ||
	    !sleeper_start_on(&a, "cookie-sleeper", 0))
		goto out_skel;
	if (!sleeper_sleeps(&a, &gate, &skel->bss->sleeper_tid))
		goto out_release;
	skel->bss->fentry_cookie = 0;
	if (CHECK(call_on_cpu(0, "cookie-other", 5000, &ret),
		  "the other call on CPU 0 did not return"))
		CHECK(skel->bss->fentry_cookie == COOKIE_OTHER,
		      "fentry on CPU 0 while the fentry.s sleeps there read "
		      "cookie %#llx, want %#llx",
		      (unsigned long long)skel->bss->fentry_cookie,
		      COOKIE_OTHER);
out_release:
	sleeper_wake(&a, &gate);
	r = &skel->bss->fentry_s_rec;
	CHECK(r->calls == 1 && r->cookie_before == COOKIE_SLEEPER &&
	      r->cookie_after == COOKIE_SLEEPER,
	      "fentry.s: %d runs, cookie %#llx before the sleep and %#llx "
	      "after, want %#llx", r->calls,
	      (unsigned long long)r->cookie_before,
	      (unsigned long long)r->cookie_after, COOKIE_SLEEPER);
out_skel:
	lifetime__destroy(skel);
	sleeper_join(&a);
out_gate:
	gate_fini(&gate);
}

/*
 * At the limit: 38 programs (fentry, fentry.s, fexit, fexit.s, fmod_ret.s)
 * on one function each run once per call, in 6.1's order: the fentry
 * kind, then fmod_ret, then fexit, each newest attachment first.  The
 * 39th attach fails with -E2BIG.  Half are detached while one of the
 * fentry.s programs sleeps; after it resumes the rest run, and the
 * trampoline fills up to the limit again.
 */
#define NR_LIMIT 38

static int limit_kind(int i)
{
	return i < 16 ? 0 : i < 31 ? 2 : 1;	/* fentry, fmod_ret, fexit */
}

/*
 * One call from this thread: each attached program must run once, in
 * the order of seq (attach order, oldest first).
 */
static void limit_check_call(struct limit *skel, const int *seq, int n,
			     const char *when)
{
	int want[NR_LIMIT], nw = 0, kind, k, i, ok = 1;

	memset(skel->bss->runs, 0, sizeof(skel->bss->runs));
	memset(skel->bss->ran_at, 0, sizeof(skel->bss->ran_at));
	skel->bss->clock = 0;
	syscall(__NR_setdomainname, "limit", 5);
	for (kind = 0; kind < 3; kind++)
		for (k = n - 1; k >= 0; k--)
			if (limit_kind(seq[k]) == kind)
				want[nw++] = seq[k];
	for (i = 0; i < nw && ok; i++)
		ok = CHECK(skel->bss->runs[want[i]] == 1 &&
			   skel->bss->ran_at[want[i]] == i + 1,
			   "%s: program %d ran %d times, at %d; want once, "
			   "at %d", when, want[i], skel->bss->runs[want[i]],
			   skel->bss->ran_at[want[i]], i + 1);
	CHECK(skel->bss->clock == nw, "%s: %d runs for %d programs", when,
	      skel->bss->clock, nw);
}

void test_limit_38_programs(void)
{
	static const __u64 resident = 0x1111;
	struct bpf_link *links[NR_LIMIT] = {}, *extra;
	struct bpf_program *progs[NR_LIMIT];
	int seq[NR_LIMIT], n = 0, i, kept;
	struct uffd_gate gate;
	struct limit *skel = NULL;
	struct sleeper a = {};
	char name[8];

	if (!gate_init(&gate))
		goto out;
	skel = limit__open();
	if (!CHECK(skel, "open failed"))
		goto out;
	skel->bss->monitored_pid = getpid();
	skel->bss->gate_addr = (unsigned long)gate.page;
	skel->bss->user_addr = (unsigned long)&resident;
	for (i = 0; i < NR_LIMIT; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		progs[i] = bpf_object__find_program_by_name(skel->obj, name);
		if (!CHECK(progs[i], "no program %s", name))
			goto out;
		bpf_program__set_attach_target(progs[i], 0,
					       sys_fn("setdomainname"));
	}
	bpf_program__set_attach_target(skel->progs.one_too_many, 0,
				       sys_fn("setdomainname"));
	if (!CHECK_ERR(limit__load(skel), "load"))
		goto out;
	for (i = 0; i < NR_LIMIT; i++) {
		links[i] = bpf_program__attach(progs[i]);
		if (!CHECK_ERR(links[i] ? 0 : -errno, "attach"))
			goto out;
		seq[n++] = i;
	}
	extra = bpf_program__attach(skel->progs.one_too_many);
	CHECK(!extra && errno == E2BIG, "the 39th attach: %s, want -E2BIG",
	      extra ? "attached" : strerror(errno));
	bpf_link__destroy(extra);
	limit_check_call(skel, seq, n, "38 attached");

	/* Program 8 (fentry.s) sleeps; the odd ones go meanwhile. */
	if (!sleeper_start(&a, "limit-sleeper"))
		goto out;
	if (!sleeper_sleeps(&a, &gate, &skel->bss->sleeper_tid))
		goto out_release;
	for (i = 1; i < NR_LIMIT; i += 2) {
		bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
out_release:
	sleeper_wake(&a, &gate);
	CHECK(a.ret == 0 && skel->data->sleeper_copy_ret == 0,
	      "sleeper: setdomainname %ld, copy %lld", a.ret,
	      (long long)skel->data->sleeper_copy_ret);
	skel->bss->sleeper_tid = 0;
	for (i = 0, kept = 0; i < n; i++)
		if (links[seq[i]])
			seq[kept++] = seq[i];
	n = kept;
	limit_check_call(skel, seq, n, "19 left");
	/* Up to the limit again. */
	for (i = 1; i < NR_LIMIT; i += 2) {
		links[i] = bpf_program__attach(progs[i]);
		if (!CHECK_ERR(links[i] ? 0 : -errno, "re-attach"))
			goto out;
		seq[n++] = i;
	}
	extra = bpf_program__attach(skel->progs.one_too_many);
	CHECK(!extra && errno == E2BIG, "the 39th attach after refilling: "
	      "%s, want -E2BIG", extra ? "attached" : strerror(errno));
	bpf_link__destroy(extra);
	limit_check_call(skel, seq, n, "38 again");
out:
	for (i = 0; i < NR_LIMIT; i++)
		bpf_link__destroy(links[i]);
	limit__destroy(skel);
	sleeper_join(&a);
	gate_fini(&gate);
}
