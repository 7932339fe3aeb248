// SPDX-License-Identifier: GPL-2.0
/*
 * sleeptest --bench ITERS [RUNS]: what a program costs each call of the
 * function it is attached to, and what attaching it costs.
 *
 * Per call: getpgid in a loop, ITERS calls a run, RUNS runs, with nothing
 * attached ("base"), then with one program of each kind on the syscall
 * (the seeds' trig-* idea).  Attach latency: one fentry, one fentry.s,
 * 38 fentry programs on the same function, and one fentry on each of 200
 * syscall entry functions ("mass"), all attached then all detached, RUNS
 * times (the programs are loaded beforehand and not timed).  Each run
 * measures every mode, and every attach kind, once, in alternating order.
 * Times are guest nanoseconds; under -icount they count instructions.
 *
 * Then, where the guest has it (/bench, the bench kernels' guest), the
 * kernel tree's own benchmark runner for the seeds' trig-* benchmarks,
 * one warm-up second and RUNS measured ones each.
 *
 * Output, one line each, for scripts/vm.py:
 *	bench: mode=M run=R iters=N ns=T hits=H
 *	bench: attach=K run=R progs=P attach_ns=A detach_ns=D
 *	bench: trig=B run=R mhits=X     (million calls per guest second)
 *	bench: mode=M error=E     (or attach=K, trig=B error=E)
 */
#include "sleeptest.h"

#include <dirent.h>
#include <bpf/btf.h>

#include "bench.skel.h"

#define BENCH_MAX_PROGS 38	/* 6.1's BPF_MAX_TRAMP_LINKS */
#define BENCH_TRIG "/bench"
/* The same runner with its programs on __riscv_sys_getpgid (see below). */
#define BENCH_TRIG_RISCV_SYS "/bench-riscv-sys"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static struct bpf_program *bench_prog(struct bench *skel, const char *mode)
{
	static const struct {
		const char *mode;
		size_t off;
	} progs[] = {
#define P(m, f) { m, offsetof(struct bench, progs.f) }
		P("fentry", bench_fentry), P("fentry.s", bench_fentry_s),
		P("fexit", bench_fexit), P("fexit.s", bench_fexit_s),
		P("fmod_ret", bench_fmod_ret), P("fmod_ret.s", bench_fmod_ret_s),
		P("kprobe", bench_kprobe),
#undef P
	};
	unsigned int i;

	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		if (!strcmp(progs[i].mode, mode))
			return *(struct bpf_program **)((char *)skel +
							progs[i].off);
	return NULL;
}

/* One timed run of the loop: its guest ns, with skel->bss->hits reset. */
static double bench_loop(struct bench *skel, long iters)
{
	double t0;
	long k;

	for (k = 0; k < iters / 10; k++)	/* warm up */
		syscall(__NR_getpgid, 0);
	skel->bss->hits = 0;
	t0 = now_ns();
	for (k = 0; k < iters; k++)
		syscall(__NR_getpgid, 0);
	return now_ns() - t0;
}

/* One run of one mode: attach its program, time the loop, detach. */
static void bench_mode(struct bench *skel, const char *mode, int r, long iters)
{
	struct bpf_program *prog = bench_prog(skel, mode);
	struct bpf_link *link = NULL;
	double ns;

	if (prog && !strcmp(mode, "kprobe"))
		link = bpf_program__attach_kprobe(prog, false,
						  sys_fn("getpgid"));
	else if (prog)
		link = bpf_program__attach(prog);
	if (prog && !link) {
		printf("bench: mode=%s error=%d (%s)\n", mode, -errno,
		       strerror(errno));
		return;
	}
	if (r == 1 && !strcmp(mode, "fentry"))
		report_call_path(sys_fn("getpgid"));
	ns = bench_loop(skel, iters);
	printf("bench: mode=%s run=%d iters=%ld ns=%.0f hits=%ld\n", mode, r,
	       iters, ns, skel->bss->hits);
	bpf_link__destroy(link);
}

/*
 * Run r measures every mode once, in the listed order on odd runs and in
 * the reverse order on even ones, so that what one mode leaves behind
 * (a detach's deferred frees, a cold cache) falls into a different
 * neighbour's window from run to run instead of always the same one.
 */
static void bench_per_call(struct bench *skel, long iters, int runs)
{
	static const char *const modes[] = {
		"base", "fentry", "fentry.s", "fexit", "fexit.s", "fmod_ret",
		"fmod_ret.s", "kprobe",
	};
	const int nr = sizeof(modes) / sizeof(modes[0]);
	int r, k;

	for (r = 1; r <= runs; r++)
		for (k = 0; k < nr; k++)
			bench_mode(skel, modes[r % 2 ? k : nr - 1 - k], r,
				   iters);
}

/* A copy of a loaded tracing program, by BPF_PROG_LOAD: fd or -errno. */
static int bench_prog_copy(struct bpf_program *p, __u32 btf_id, int sleepable)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = bpf_program__expected_attach_type(p),
		.attach_btf_id = btf_id,
		.prog_flags = sleepable ? BPF_F_SLEEPABLE : 0,
	);
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, bpf_program__name(p), "GPL",
			   bpf_program__insns(p), bpf_program__insn_cnt(p),
			   &opts);
	return fd < 0 ? -errno : fd;
}

/*
 * An attach kind: its programs, loaded beforehand (not timed), and the
 * functions they attach to.  "mass" is bpftrace-like: one fentry program
 * on each of up to BENCH_MASS_FUNCS distinct syscall entry functions of
 * vmlinux; progs is then the number of functions found.
 */
#define BENCH_MASS_FUNCS 200

struct attach_kind {
	const char *name;
	int prog_fd[BENCH_MASS_FUNCS], link_fd[BENCH_MASS_FUNCS];
	int n, err;
};

static void attach_kind_load(struct attach_kind *ak, struct bpf_program *p,
			     int sleepable, int nprogs)
{
	char mod[64];
	__u32 obj_id, btf_id;

	ak->err = kernel_func_btf(sys_fn("getpgid"), &obj_id, &btf_id, mod,
				  sizeof(mod));
	while (!ak->err && ak->n < nprogs) {
		ak->prog_fd[ak->n] = bench_prog_copy(p, btf_id, sleepable);
		if (ak->prog_fd[ak->n] < 0)
			ak->err = ak->prog_fd[ak->n];
		else
			ak->n++;
	}
}

/*
 * The syscall entry functions by their BTF names (on riscv64 6.1 the
 * ftrace and kallsyms name of __se_sys_X is sys_X): each one whose
 * program loads and attaches once, untimed.
 */
static void attach_kind_load_mass(struct attach_kind *ak,
				  struct bpf_program *p)
{
	const char *getpgid = sys_fn("getpgid");
	size_t plen = strlen(getpgid) - strlen("getpgid");
	const struct btf_type *t;
	struct btf *vmlinux;
	int id, nr, fd, link;

	vmlinux = btf__load_vmlinux_btf();
	nr = vmlinux ? (int)btf__type_cnt(vmlinux) : 0;
	for (id = 1; id < nr && ak->n < BENCH_MASS_FUNCS; id++) {
		t = btf__type_by_id(vmlinux, id);
		if (!btf_is_func(t) || strncmp(btf__name_by_offset(vmlinux,
				t->name_off), getpgid, plen))
			continue;
		fd = bench_prog_copy(p, id, 0);
		if (fd < 0)
			continue;
		link = bpf_raw_tracepoint_open(NULL, fd);
		if (link < 0) {		/* not traceable */
			close(fd);
			continue;
		}
		close(link);
		ak->prog_fd[ak->n++] = fd;
	}
	btf__free(vmlinux);
	if (ak->n < 2)
		ak->err = -ENOENT;
}

/* Run r of a kind: attach all its programs, then detach them all. */
static void attach_kind_run(struct attach_kind *ak, int r)
{
	int i, linked;
	double t0, t1, t2;

	if (ak->err)
		return;
	t0 = now_ns();
	for (linked = 0; linked < ak->n; linked++) {
		ak->link_fd[linked] = bpf_raw_tracepoint_open(NULL,
						ak->prog_fd[linked]);
		if (ak->link_fd[linked] < 0) {
			ak->err = -errno;
			break;
		}
	}
	t1 = now_ns();
	for (i = 0; i < linked; i++)
		close(ak->link_fd[i]);
	t2 = now_ns();
	if (!ak->err)
		printf("bench: attach=%s run=%d progs=%d attach_ns=%.0f "
		       "detach_ns=%.0f\n", ak->name, r, ak->n, t1 - t0,
		       t2 - t1);
	else
		printf("bench: attach=%s error=%d (%s) at program %d of %d\n",
		       ak->name, ak->err, strerror(-ak->err), linked + 1,
		       ak->n);
}

/*
 * Attach latency: one fentry, one fentry.s, 38 fentry programs on one
 * function, and "mass"; each run times every kind once, alternating the
 * order as bench_per_call() does.
 */
static void bench_attach(struct bench *skel, int runs)
{
	static struct attach_kind kinds[] = {
		{ .name = "fentry" }, { .name = "fentry.s" },
		{ .name = "38xfentry" }, { .name = "mass" },
	};
	const int nr = sizeof(kinds) / sizeof(kinds[0]);
	int r, k, i;

	attach_kind_load(&kinds[0], skel->progs.bench_fentry, 0, 1);
	attach_kind_load(&kinds[1], skel->progs.bench_fentry_s, 1, 1);
	attach_kind_load(&kinds[2], skel->progs.bench_fentry, 0,
			 BENCH_MAX_PROGS);
	attach_kind_load_mass(&kinds[3], skel->progs.bench_fentry);
	for (k = 0; k < nr; k++)
		if (kinds[k].err)
			printf("bench: attach=%s error=%d (%s) loading, %d "
			       "programs loaded\n", kinds[k].name,
			       kinds[k].err, strerror(-kinds[k].err),
			       kinds[k].n);
	for (r = 1; r <= runs; r++)
		for (k = 0; k < nr; k++)
			attach_kind_run(&kinds[r % 2 ? k : nr - 1 - k], r);
	for (k = 0; k < nr; k++)
		for (i = 0; i < kinds[k].n; i++)
			close(kinds[k].prog_fd[i]);
}

/*
 * One trig-* benchmark of the tree's runner: each measured second's
 * "Iter N (...): hits X M/s" line becomes a run (the first is warm-up).
 */
static void bench_trig(const char *runner, const char *name, int secs)
{
	char cmd[128], line[512];
	int iter, runs = 0;
	double mhits;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s -w 1 -d %d %s 2>&1", runner, secs,
		 name);
	f = popen(cmd, "r");
	if (!f) {
		printf("bench: trig=%s error=%d (%s)\n", name, -errno,
		       strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Iter %d (%*[^)]): hits %lfM/s", &iter,
			   &mhits) != 2)
			continue;
		if (iter >= 1)
			printf("bench: trig=%s run=%d mhits=%.4f\n", name,
			       ++runs, mhits);
	}
	iter = pclose(f);
	if (!runs)
		printf("bench: trig=%s error=exit status %d, no measurement\n",
		       name, iter);
}

#define VULNERABILITIES "/sys/devices/system/cpu/vulnerabilities"

/* The guest's CPU vulnerability state: mitigations change per-call costs. */
static void bench_vulnerabilities(void)
{
	char path[512], state[256];
	struct dirent *e;
	DIR *d;
	FILE *f;

	d = opendir(VULNERABILITIES);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), VULNERABILITIES "/%s", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(state, sizeof(state), f)) {
			state[strcspn(state, "\n")] = 0;
			printf("bench: vulnerability=%s %s\n", e->d_name, state);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
}

int run_bench(long iters, int runs)
{
	struct bpf_program *prog;
	struct bench *skel;
	int err;

	skel = bench__open();
	if (!skel) {
		printf("bench: mode=all error=open\n");
		return 1;
	}
	bpf_object__for_each_program(prog, skel->obj)
		if (strncmp(bpf_program__section_name(prog), "kprobe", 6))
			bpf_program__set_attach_target(prog, 0,
						       sys_fn("getpgid"));
	err = bench__load(skel);
	if (err) {
		printf("bench: mode=all error=%d (load)\n", err);
		bench__destroy(skel);
		return 1;
	}
	bench_vulnerabilities();
	bench_per_call(skel, iters, runs);
	bench_attach(skel, runs);
	bench__destroy(skel);
	if (!access(BENCH_TRIG, X_OK)) {
		static const char *const trig[] = {
			"trig-base", "trig-fentry", "trig-fentry-sleep",
			"trig-fmodret", "trig-kprobe",
		};
		const char *runner = BENCH_TRIG;
		unsigned int i;

		/*
		 * 6.1's trigger programs attach to SYS_PREFIX "sys_getpgid",
		 * "__se_sys_getpgid" on riscv64; since 6.6 riscv64 kernels
		 * have "__riscv_sys_" wrappers instead, and the riscv64 guest
		 * carries a runner built for those.
		 */
		if (!strncmp(sys_fn("getpgid"), "__riscv_sys_", 12) &&
		    !access(BENCH_TRIG_RISCV_SYS, X_OK))
			runner = BENCH_TRIG_RISCV_SYS;
		printf("bench: trig runner %s\n", runner);
		for (i = 0; i < sizeof(trig) / sizeof(trig[0]); i++)
			bench_trig(runner, trig[i], runs);
	}
	return 0;
}
