// SPDX-License-Identifier: GPL-2.0
/*
 * The trampoline churn cases, alone and with the function tracer: their
 * worker threads, program template and rounds.
 */
#include "sleeptest.h"

#include "attach.skel.h"
#include "churn.skel.h"
#include "sleeper.h"
#include "stress.skel.h"
#include <poll.h>
#include <sys/mman.h>
#include <linux/userfaultfd.h>

/*
 * Trampoline churn: while eight threads call getpgid on both CPUs and a
 * long-lived fentry program stays attached, load, attach, detach and free
 * a new program on the same function, round after round.  Every round
 * rebuilds the trampoline and repoints the call site; each retired image
 * and program is freed while the workers may still be inside.
 */
#define CHURN_WORKERS 8
#define CHURN_ROUNDS 2000	/* default; SLEEPTEST_CHURN_ROUNDS overrides */
#define CHURN_KINDS 4
#define CHURN_CALLS_PER_SLEEP 256

struct churn_workers;

struct churn_worker {
	pthread_t thread;
	struct churn_workers *all;
	int cpu;		/* pinned to */
	int err;		/* pthread_setaffinity_np() */
	int ran_on;		/* sched_getcpu() once pinned */
	volatile long calls;
	volatile long mismatches;
	volatile long last_bad;
};

struct churn_workers {
	struct churn_worker w[CHURN_WORKERS];
	long expect;		/* getpgid(0) before the case */
	long expect_sid;	/* getsid(0), if they call it too */
	int call_getsid;
	volatile int stop;
};

static void *churn_worker_fn(void *arg)
{
	struct churn_worker *cw = arg;
	long expect = cw->all->expect, ret;
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(cw->cpu, &cpus);
	cw->err = pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
	cw->ran_on = sched_getcpu();
	/*
	 * SCHED_IDLE: the test thread and the kernel threads that retire
	 * images and free programs run as soon as they wake, preempting a
	 * worker wherever it is, on its way into a trampoline included;
	 * the workers get every cycle left over.
	 */
	if (!cw->err) {
		struct sched_param sp = { .sched_priority = 0 };

		cw->err = pthread_setschedparam(pthread_self(), SCHED_IDLE,
						&sp);
	}
	while (!cw->all->stop) {
		/*
		 * A task that never sleeps holds up every RCU-tasks grace
		 * period, and retired images (and the programs they hold)
		 * would only be freed after the churn.  A short sleep now
		 * and then lets them be freed while the others run.
		 */
		if (!(cw->calls % CHURN_CALLS_PER_SLEEP))
			usleep(100);
		ret = syscall(__NR_getpgid, 0);
		if (ret != expect) {
			cw->mismatches++;
			cw->last_bad = ret;
		}
		if (cw->all->call_getsid) {
			ret = syscall(__NR_getsid, 0);
			if (ret != cw->all->expect_sid) {
				cw->mismatches++;
				cw->last_bad = ret;
			}
		}
		cw->calls++;
	}
	return NULL;
}

static int churn_workers_start(struct churn_workers *cws, int call_getsid)
{
	int i, err;

	memset(cws, 0, sizeof(*cws));
	cws->expect = getpgid(0);
	cws->expect_sid = getsid(0);
	cws->call_getsid = call_getsid;
	for (i = 0; i < CHURN_WORKERS; i++) {
		cws->w[i].all = cws;
		cws->w[i].cpu = i < CHURN_WORKERS / 2 ? 0 : 1;
		err = pthread_create(&cws->w[i].thread, NULL, churn_worker_fn,
				     &cws->w[i]);
		if (!CHECK(!err, "pthread_create: %s", strerror(err))) {
			cws->stop = 1;
			while (--i >= 0)
				pthread_join(cws->w[i].thread, NULL);
			return 0;
		}
	}
	return 1;
}

/* Stop the workers, check their results; the total of calls on cpu[]. */
static void churn_workers_stop(struct churn_workers *cws, long cpu[2],
			       long *mismatches)
{
	struct churn_worker *cw;
	int i;

	cws->stop = 1;
	cpu[0] = cpu[1] = 0;
	*mismatches = 0;
	for (i = 0; i < CHURN_WORKERS; i++) {
		cw = &cws->w[i];
		pthread_join(cw->thread, NULL);
		CHECK(!cw->err, "worker %d: pinning to CPU %d or SCHED_IDLE: %s",
		      i, cw->cpu, strerror(cw->err));
		CHECK(cw->err || cw->ran_on == cw->cpu,
		      "worker %d: pinned to CPU %d, ran on %d", i, cw->cpu,
		      cw->ran_on);
		cpu[cw->cpu] += cw->calls;
		*mismatches += cw->mismatches;
		CHECK(!cw->mismatches, "worker %d: %ld wrong results in %ld "
		      "rounds of getpgid(0) (%ld)%s (last %ld)", i,
		      cw->mismatches, cw->calls, cws->expect,
		      cws->call_getsid ? " and getsid(0)" : "", cw->last_bad);
	}
	CHECK(cpu[0] > 0 && cpu[1] > 0, "worker calls: CPU 0 %ld, CPU 1 %ld",
	      cpu[0], cpu[1]);
}

/* Seconds spent in each step of the rounds, summed, for the report. */
enum churn_step { CS_LOAD, CS_ATTACH, CS_DETACH, CS_FREE, CS_NR };
static double churn_step_s[CS_NR];

static void churn_step_done(enum churn_step step, double *t)
{
	double now = mono_seconds();

	churn_step_s[step] += now - *t;
	*t = now;
}

/*
 * The four programs of progs/churn.bpf.c, loaded once by libbpf: each
 * round loads a new copy of one of them from its final instructions with
 * BPF_PROG_LOAD, so that a round costs the kernel's load, attach, detach
 * and free and not libbpf parsing vmlinux BTF (1.6 s under TCG on arm64).
 * The copies share the template's .bss (its map fd is in the instructions).
 */
struct churn_template {
	struct churn *skel;
	struct bpf_program *progs[CHURN_KINDS];
	__u32 attach_btf_id;
};

static const char *const churn_kinds[CHURN_KINDS] = {
	"fentry", "fexit", "fmod_ret", "fentry.s",
};

static int churn_template_load(struct churn_template *ct, const char *fn)
{
	char mod[64];
	__u32 obj_id;
	int i, err;

	memset(ct, 0, sizeof(*ct));
	err = kernel_func_btf(fn, &obj_id, &ct->attach_btf_id, mod,
			      sizeof(mod));
	if (!CHECK(!err && !mod[0], "%s: not in vmlinux BTF: %d", fn, err))
		return 0;
	ct->skel = churn__open();
	if (!CHECK(ct->skel, "churn: open failed"))
		return 0;
	ct->progs[0] = ct->skel->progs.churn_fentry;
	ct->progs[1] = ct->skel->progs.churn_fexit;
	ct->progs[2] = ct->skel->progs.churn_fmod_ret;
	ct->progs[3] = ct->skel->progs.churn_fentry_s;
	ct->skel->bss->monitored_pid = getpid();
	for (i = 0; i < CHURN_KINDS; i++)
		bpf_program__set_attach_target(ct->progs[i], 0, fn);
	if (!CHECK_ERR(churn__load(ct->skel), "churn: load")) {
		churn__destroy(ct->skel);
		ct->skel = NULL;
		return 0;
	}
	return 1;
}

/* A new program of the given kind; its fd or -errno, with the log. */
static int churn_prog_load(struct churn_template *ct, int kind, long round)
{
	static char log[16384];
	struct bpf_program *p = ct->progs[kind];
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = bpf_program__expected_attach_type(p),
		.attach_btf_id = ct->attach_btf_id,
		.prog_flags = bpf_program__flags(p),
	);
	int fd;

	/* libbpf adds it at load time, not to the program's flags. */
	if (strstr(churn_kinds[kind], ".s"))
		opts.prog_flags |= BPF_F_SLEEPABLE;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, bpf_program__name(p), "GPL",
			   bpf_program__insns(p), bpf_program__insn_cnt(p),
			   &opts);
	if (fd >= 0)
		return fd;
	fd = -errno;
	/* Again, for the verifier's words. */
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.log_level = 1;
	log[0] = 0;
	if (bpf_prog_load(BPF_PROG_TYPE_TRACING, bpf_program__name(p), "GPL",
			  bpf_program__insns(p), bpf_program__insn_cnt(p),
			  &opts) < 0)
		diag("round %ld: %s verifier log: %s", round, churn_kinds[kind],
		     log);
	return fd;
}

/*
 * One round: a new program of kind round % 4 loaded, attached, seen
 * running (four rounds in forty, one of each kind, by its own counter),
 * detached and freed.
 */
static int churn_round(struct churn_template *ct, long round,
		       struct churn_workers *cws)
{
	int kind = round % CHURN_KINDS, ok = 0, prog_fd, link_fd;
	volatile long *hits = &ct->skel->bss->hits[kind];
	double t = mono_seconds();
	char what[64];
	long seen;

	prog_fd = churn_prog_load(ct, kind, round);
	snprintf(what, sizeof(what), "round %ld: load %s", round,
		 churn_kinds[kind]);
	if (!CHECK_ERR(prog_fd < 0 ? prog_fd : 0, what))
		return 0;
	churn_step_done(CS_LOAD, &t);
	seen = *hits;
	link_fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	snprintf(what, sizeof(what), "round %ld: attach %s", round,
		 churn_kinds[kind]);
	if (!CHECK_ERR(link_fd < 0 ? -errno : 0, what))
		goto out;
	churn_step_done(CS_ATTACH, &t);
	ok = round / CHURN_KINDS % 10 || CHECK(counter_moves(hits, seen),
				 "round %ld: %s does not run (worker 0 at %ld "
				 "calls)", round, churn_kinds[kind],
				 cws->w[0].calls);
	t = mono_seconds();
	close(link_fd);
	churn_step_done(CS_DETACH, &t);
out:
	close(prog_fd);
	churn_step_done(CS_FREE, &t);
	return ok;
}

static void trampoline_churn(int with_tracer)
{
	const char *fn = sys_fn("getpgid");
	long rounds, round = 0, hits0, hits1, cpu[2], mismatches;
	int images = 0, images_peak = 0, images0, images_new = 0;
	static struct image_set before;
	double t0, t_free = 0, t_progress;
	struct churn_workers cws;
	struct churn_template ct;
	struct attach *skel;
	int tracer = 0;

	rounds = env_rounds("SLEEPTEST_CHURN_ROUNDS", CHURN_ROUNDS);
	if (rounds < 0)
		return;
	if (!churn_template_load(&ct, fn))
		return;
	skel = attach_open_load();
	if (!skel) {
		churn__destroy(ct.skel);
		return;
	}
	if (with_tracer) {
		tracer = 1;
		if (!CHECK_ERR(set_ftrace_filter(fn), "set_ftrace_filter") ||
		    !CHECK_ERR(write_file("/sys/kernel/tracing/current_tracer",
					  "function"), "function tracer"))
			goto out;
	}
	images0 = trampoline_image_set(&before);
	t0 = mono_seconds();
	if (!churn_workers_start(&cws, 0))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.count_fentry,
				   &skel->links.count_fentry),
		       "attach long-lived fentry"))
		goto out_workers;
	report_call_path(fn);
	memset(churn_step_s, 0, sizeof(churn_step_s));
	hits0 = skel->bss->fentry_hits;
	t_progress = t0;
	for (round = 0; round < rounds; round++) {
		if (!churn_round(&ct, round, &cws))
			break;
		if (round % 10 == 9) {
			images = count_trampoline_images();
			if (images > images_peak)
				images_peak = images;
		}
		/* 2,000 rounds take an hour under KASAN: show they go on. */
		if (mono_seconds() - t_progress >= 60) {
			t_progress = mono_seconds();
			diag("churn: %ld of %ld rounds, %.0f s", round + 1,
			     rounds, t_progress - t0);
		}
	}
	/*
	 * Each round retires two images (and, with them, the programs they
	 * hold).  They must be freed while the workers still run: wait for
	 * the list to shrink back to what it was plus the long-lived
	 * program's current image, image by image (an earlier case's image
	 * going meanwhile does not make up for one of ours).
	 */
	images_new = new_trampoline_images(&before);
	t_free = mono_seconds();
	while (images_new > 1 && mono_seconds() - t_free < 60) {
		sleep_ms(100);
		images_new = new_trampoline_images(&before);
	}
	t_free = mono_seconds() - t_free;
	images = count_trampoline_images();
	CHECK(images_new >= 0 && images_new <= 1,
	      "retired images not freed while the workers run: %d trampoline "
	      "images listed %.0f s after the churn that were not before it "
	      "(want at most the long-lived program's)", images_new, t_free);
	/* The long-lived program ran during the churn and still runs. */
	hits1 = skel->bss->fentry_hits;
	CHECK(hits1 > hits0, "long-lived fentry: %ld hits before the churn, "
	      "%ld after", hits0, hits1);
	CHECK(counter_moves(&skel->bss->fentry_hits, hits1),
	      "long-lived fentry stopped running after round %ld", round);
	if (case_failed)
		dump_enabled_functions();
out_workers:
	churn_workers_stop(&cws, cpu, &mismatches);
	diag("churn: rounds %ld, worker calls %ld (CPU 0 %ld, CPU 1 %ld), "
	     "mismatches %ld, long-lived fentry hits %ld, %.2f s",
	     round, cpu[0] + cpu[1], cpu[0], cpu[1], mismatches,
	     skel->bss->fentry_hits, mono_seconds() - t0);
	diag("churn: trampoline images listed: %d before, peak %d during, %d "
	     "after %.1f s", images0, images_peak, images, t_free);
	diag("churn: seconds in load %.2f, attach %.2f, detach %.2f, "
	     "free %.2f", churn_step_s[CS_LOAD], churn_step_s[CS_ATTACH],
	     churn_step_s[CS_DETACH], churn_step_s[CS_FREE]);
out:
	if (tracer) {
		write_file("/sys/kernel/tracing/current_tracer", "nop");
		write_file(FTRACE_FILTER, "");
	}
	attach__destroy(skel);
	churn__destroy(ct.skel);
}

void test_trampoline_churn(void)
{
	trampoline_churn(0);
}

/* The same with the function tracer sharing the function all along. */
void test_trampoline_churn_function_tracer(void)
{
	trampoline_churn(1);
}

/*
 * Attach/detach stress: two threads, pinned to the two CPUs, each attach
 * and detach a fentry, fexit or fmod_ret program of their own in turn on
 * getpgid and getsid, STRESS_ROUNDS times, while the churn workers call
 * both on both CPUs and a fentry.s on each sleeps 10 ms on every 50th
 * call (on a gate page a server thread fills after 10 ms).  Every attach
 * and detach succeeds, every worker sees its results unchanged, the
 * sleepers all wake with their data, and once it is over the images
 * are back to what they were.
 */
#define STRESS_ROUNDS 500	/* default; SLEEPTEST_STRESS_ROUNDS overrides */
/*
 * Sleep k copies from gate page k % STRESS_GATE_PAGES; serving it makes
 * the page half the ring ahead missing again.  A sleep that began late
 * (preempted between taking its number and copying) could find its page
 * already served for the sleep a ring later, or see it dropped again
 * before it retries.  With 64 pages, arm64 runs counted up to 11 of
 * 3,251 sleeps that did not sleep; with 1,024 a late sleep would have to
 * wait behind 512 others.
 */
#define STRESS_GATE_PAGES 1024
#define STRESS_SLEEP_MS 10

struct stress_churner {
	pthread_t thread;
	int cpu, pin_err;
	long rounds;
	volatile long done;
	volatile int finished;
	int bad_round, err;	/* the first failed attach, -errno */
	struct bpf_program *progs[2][3];	/* [function][kind] */
};

static void *stress_churner_fn(void *arg)
{
	struct stress_churner *sc = arg;
	struct bpf_program *p;
	cpu_set_t cpus;
	int link_fd;

	CPU_ZERO(&cpus);
	CPU_SET(sc->cpu, &cpus);
	sc->pin_err = pthread_setaffinity_np(pthread_self(), sizeof(cpus),
					     &cpus);
	for (; sc->done < sc->rounds; sc->done++) {
		p = sc->progs[sc->done % 2][(sc->done / 2) % 3];
		link_fd = bpf_link_create(bpf_program__fd(p), 0,
					  bpf_program__expected_attach_type(p),
					  NULL);
		if (link_fd < 0) {
			sc->err = -errno;
			sc->bad_round = sc->done;
			break;
		}
		close(link_fd);
	}
	sc->finished = 1;
	return NULL;
}

struct stress_server {
	pthread_t thread;
	struct uffd_gate *gate;
	volatile int stop;
	long served, fill_errors;
};

/* Serve each fault on a gate page after 10 ms; make the page half the
 * ring ahead missing again, so that the programs' next sleeps fault.
 */
static void *stress_server_fn(void *arg)
{
	struct stress_server *sv = arg;
	struct uffd_gate *g = sv->gate;
	struct pollfd pfd = { .fd = g->uffd, .events = POLLIN };
	struct uffd_msg msg;
	long index, ahead;
	int err;

	while (!sv->stop) {
		if (poll(&pfd, 1, 100) != 1 ||
		    read(g->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		index = (msg.arg.pagefault.address -
			 (unsigned long)g->page) / g->page_size;
		usleep(STRESS_SLEEP_MS * 1000);
		/* Counted before the sleeper can wake and say it is done. */
		__atomic_fetch_add(&sv->served, 1, __ATOMIC_SEQ_CST);
		err = gate_fill(g, index, GATE_VALUE);
		if (err && err != -EEXIST)
			sv->fill_errors++;
		ahead = (index + STRESS_GATE_PAGES / 2) % STRESS_GATE_PAGES;
		madvise(g->page + ahead * g->page_size, g->page_size,
			MADV_DONTNEED);
	}
	return NULL;
}

/*
 * While the churners run, report every STRESS_WATCH_S seconds how far
 * they got and how many trampoline images are listed: a round that gets
 * slower as the run goes on shows here, with whether images pile up.
 */
#define STRESS_WATCH_S 20

static void stress_watch(struct stress_churner *sc, double t0)
{
	double next = t0 + STRESS_WATCH_S;
	long last = 0, done;

	while (!(sc[0].finished || !sc[0].rounds) ||
	       !(sc[1].finished || !sc[1].rounds)) {
		sleep_ms(100);
		if (mono_seconds() < next)
			continue;
		done = sc[0].done + sc[1].done;
		diag("stress: %.0f s: %ld rounds done (%ld in the last %d s), "
		     "%d trampoline images listed", mono_seconds() - t0, done,
		     done - last, STRESS_WATCH_S, count_trampoline_images());
		last = done;
		next += STRESS_WATCH_S;
	}
}

void test_attach_detach_stress(void)
{
	const char *fns[2] = { sys_fn("getpgid"), sys_fn("getsid") };
	struct stress_churner sc[2] = {};
	struct stress_server sv = {};
	struct uffd_gate gate = { .uffd = -1 };
	struct churn_workers cws;
	struct stress *skel = NULL;
	struct bpf_program *p;
	int images0, images, server = 0, workers = 0, i, f, k;
	static struct image_set before;
	long rounds, cpu[2], mismatches, served;
	__u64 sleeps;
	double t0, t = 0;

	rounds = env_rounds("SLEEPTEST_STRESS_ROUNDS", STRESS_ROUNDS);
	if (rounds < 0 || !gate_init_pages(&gate, STRESS_GATE_PAGES))
		goto out;
	skel = stress__open();
	if (!CHECK(skel, "open failed"))
		goto out;
	skel->bss->monitored_pid = getpid();
	skel->bss->gate_base = (unsigned long)gate.page;
	skel->bss->gate_pages = STRESS_GATE_PAGES;
	skel->bss->page_size = gate.page_size;
	bpf_program__set_attach_target(skel->progs.sleep_fn0, 0, fns[0]);
	bpf_program__set_attach_target(skel->progs.sleep_fn1, 0, fns[1]);
	/* fentry_t<thread>_f<function>, fexit_..., fmod_ret_... */
	bpf_object__for_each_program(p, skel->obj) {
		const char *name = bpf_program__name(p), *tf = strstr(name, "_t");

		if (!tf || strlen(tf) != 6)
			continue;
		i = tf[2] - '0';
		f = tf[5] - '0';
		k = !strncmp(name, "fentry", 6) ? 0 :
		    !strncmp(name, "fexit", 5) ? 1 : 2;
		sc[i].progs[f][k] = p;
		bpf_program__set_attach_target(p, 0, fns[f]);
	}
	for (i = 0; i < 2; i++)
		for (f = 0; f < 2; f++)
			for (k = 0; k < 3; k++)
				if (!CHECK(sc[i].progs[f][k], "program %d/%d/%d "
					   "missing", i, f, k))
					goto out;
	if (!CHECK_ERR(stress__load(skel), "load"))
		goto out;
	images0 = trampoline_image_set(&before);
	sv.gate = &gate;
	if (!CHECK(!pthread_create(&sv.thread, NULL, stress_server_fn, &sv),
		   "pthread_create"))
		goto out;
	server = 1;
	if (!CHECK_ERR(attach_prog(skel->progs.sleep_fn0,
				   &skel->links.sleep_fn0), "attach fentry.s") ||
	    !CHECK_ERR(attach_prog(skel->progs.sleep_fn1,
				   &skel->links.sleep_fn1), "attach fentry.s"))
		goto out;
	report_call_path(fns[0]);
	report_call_path(fns[1]);
	if (!churn_workers_start(&cws, 1))
		goto out;
	workers = 1;
	t0 = mono_seconds();
	for (i = 0; i < 2; i++) {
		sc[i].cpu = i;
		sc[i].rounds = rounds;
		if (!CHECK(!pthread_create(&sc[i].thread, NULL,
					   stress_churner_fn, &sc[i]),
			   "pthread_create")) {
			sc[i].rounds = 0;
			break;
		}
	}
	stress_watch(sc, t0);
	for (i = 0; i < 2; i++) {
		if (!sc[i].rounds)
			continue;
		pthread_join(sc[i].thread, NULL);
		CHECK(!sc[i].pin_err, "pinning churner %d: %s", i,
		      strerror(sc[i].pin_err));
		CHECK(!sc[i].err && sc[i].done == rounds, "churner %d: attach "
		      "in round %d failed: %d (%s); %ld of %ld rounds done", i,
		      sc[i].bad_round, sc[i].err, strerror(-sc[i].err),
		      sc[i].done, rounds);
	}
	t = mono_seconds() - t0;
	/* The sleepable programs keep sleeping after the churn. */
	sleeps = skel->bss->sleeps;
	t0 = mono_seconds();
	while (skel->bss->sleeps == sleeps && mono_seconds() - t0 < 10)
		sleep_ms(10);
	CHECK(skel->bss->sleeps != sleeps, "the fentry.s programs stopped "
	      "sleeping");
out:
	if (workers) {
		churn_workers_stop(&cws, cpu, &mismatches);
		/* No sleep begins now; let the server finish those begun. */
		t0 = mono_seconds();
		while (__atomic_load_n(&skel->bss->sleeping, __ATOMIC_SEQ_CST) &&
		       mono_seconds() - t0 < 10)
			sleep_ms(10);
		served = __atomic_load_n(&sv.served, __ATOMIC_SEQ_CST);
		diag("stress: %ld+%ld attach/detach rounds in %.1f s (%.2f s "
		     "a round), worker rounds %ld (CPU 0 %ld, CPU 1 %ld), "
		     "wrong results %ld", sc[0].done, sc[1].done, t,
		     sc[0].done + sc[1].done ?
		     t / (sc[0].done + sc[1].done) : 0, cpu[0] + cpu[1],
		     cpu[0], cpu[1], mismatches);
		diag("stress: churned programs ran %ld times; fentry.s %llu + "
		     "%llu calls, %llu sleeps (%llu of 5 ms or more, %ld "
		     "faults served), %ld failed copies",
		     skel->bss->churned_runs,
		     (unsigned long long)skel->bss->sleepable_calls[0],
		     (unsigned long long)skel->bss->sleepable_calls[1],
		     (unsigned long long)skel->bss->sleeps,
		     (unsigned long long)skel->bss->slept,
		     served, skel->bss->copy_failures);
		CHECK(skel->bss->churned_runs > 0, "the churned programs never "
		      "ran");
		CHECK(!skel->bss->sleeping, "%ld sleeps still going 10 s after "
		      "the callers stopped", skel->bss->sleeping);
		/* Each sleep begun faulted once and waited for its fault. */
		CHECK(skel->bss->sleeps >= 2 &&
		      (__u64)served == skel->bss->sleeps &&
		      skel->bss->slept == skel->bss->sleeps &&
		      !skel->bss->copy_failures && !sv.fill_errors,
		      "%llu sleeps begun, %llu slept, %ld faults served, %ld "
		      "failed copies, %ld failed fills",
		      (unsigned long long)skel->bss->sleeps,
		      (unsigned long long)skel->bss->slept, served,
		      skel->bss->copy_failures, sv.fill_errors);
	}
	if (skel) {
		bpf_link__destroy(skel->links.sleep_fn0);
		bpf_link__destroy(skel->links.sleep_fn1);
		skel->links.sleep_fn0 = skel->links.sleep_fn1 = NULL;
	}
	if (server) {
		/* Wake any sleeper left, then stop serving. */
		for (i = 0; i < STRESS_GATE_PAGES; i++)
			gate_fill(&gate, i, GATE_VALUE);
		sv.stop = 1;
		pthread_join(sv.thread, NULL);
		t = mono_seconds();
		while ((images = new_trampoline_images(&before)) > 0 &&
		       mono_seconds() - t < 10)
			sleep_ms(100);
		/* By address: earlier cases' images may go meanwhile. */
		CHECK(!images, "%d trampoline images listed 10 s after the "
		      "stress that were not before it (%d then)", images,
		      images0);
	}
	stress__destroy(skel);
	gate_fini(&gate);
}
