// SPDX-License-Identifier: GPL-2.0
/*
 * BPF functions as trampoline targets: what a BPF caller and the kernel
 * get back from a traced program or subprogram, what fentry and fexit see
 * there, and what 6.1 refuses on them.
 */
#include "sleeptest.h"

#include <bpf/btf.h>

#include "freplace_far.skel.h"
#include "progtarget.skel.h"
#include "subprog_ret.skel.h"
#include "tailcall_traced.skel.h"

#define INPUT 64ULL

/* return 0: the fillers below, and the race's tracers */
const struct bpf_insn ret0[2] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};
/* BPF programs loaded between an extension's target and the extension */
#define FILLER_PROGS 150

/* Load the XDP caller of subprog_ret.bpf.c alone, its input set. */
static struct subprog_ret *load_caller(void)
{
	struct subprog_ret *t = subprog_ret__open();
	struct bpf_program *p;

	if (!CHECK(t, "open failed"))
		return NULL;
	bpf_object__for_each_program(p, t->obj)
		bpf_program__set_autoload(p, p == t->progs.subprog_caller);
	if (!CHECK_ERR(subprog_ret__load(t), "load the XDP caller")) {
		subprog_ret__destroy(t);
		return NULL;
	}
	t->bss->input = INPUT;
	return t;
}

/*
 * Run the caller once through BPF_PROG_TEST_RUN and check what it got
 * from each subprogram: its own checks in BPF, the registers it stored,
 * and its return value as the kernel received it.
 */
static void run_caller(struct subprog_ret *t, const char *when)
{
	struct subprog_ret__bss *b = t->bss;
	__u32 runs = b->caller_runs, retval;

	if (!CHECK_ERR(test_run_packet(bpf_program__fd(t->progs.subprog_caller),
				       &retval), "test run"))
		return;
	CHECK(b->caller_runs == runs + 1, "%s: the caller ran %u times, want 1",
	      when, b->caller_runs - runs);
	CHECK(retval == INPUT,
	      "%s: the caller returned %u, want %llu (the high half of sub_wide())",
	      when, retval, INPUT);
	CHECK(!b->caller_bad, "%s: the caller's own checks failed: %#x", when,
	      b->caller_bad);
	CHECK(b->got_wide == (INPUT << 32 | 1), "%s: sub_wide() gave %#llx",
	      when, (unsigned long long)b->got_wide);
	CHECK(b->got_wide_static == (INPUT << 32 | 2),
	      "%s: sub_wide_static() gave %#llx", when,
	      (unsigned long long)b->got_wide_static);
	CHECK(b->got_top == (INPUT | 0x80000000ULL), "%s: sub_top() gave %#llx",
	      when, (unsigned long long)b->got_top);
	CHECK(b->got_u32 == (INPUT | 0x80000000ULL), "%s: sub_u32() gave %#llx",
	      when, (unsigned long long)b->got_u32);
	CHECK(b->got_neg == -(long long)INPUT - 100, "%s: sub_neg() gave %lld",
	      when, (long long)b->got_neg);
}

/*
 * fentry and fexit on an XDP program and on five of its subprograms,
 * global and static: the caller gets every value as without them, 64-bit
 * results and a u32 with its top bit set among them (riscv64's JIT
 * returns R0 to a BPF caller in a5, not in a0), and fexit sees them whole.
 */
void test_subprog_returns_traced(void)
{
	static const char *const tracers[] = {
		"entry_wide", "exit_wide", "exit_wide_static", "exit_top",
		"exit_u32", "exit_neg", "entry_caller", "exit_caller",
	};
	static const char *const targets[] = {
		"sub_wide", "sub_wide", "sub_wide_static", "sub_top",
		"sub_u32", "sub_neg", "subprog_caller", "subprog_caller",
	};
	struct subprog_ret *t, *tr = NULL;
	struct subprog_ret__bss *b;
	struct bpf_program *p;
	unsigned int i;
	int fd;

	t = load_caller();
	if (!t)
		return;
	run_caller(t, "no trampoline");
	fd = bpf_program__fd(t->progs.subprog_caller);

	tr = subprog_ret__open();
	if (!CHECK(tr, "open failed"))
		goto out;
	bpf_object__for_each_program(p, tr->obj)
		bpf_program__set_autoload(p, false);
	for (i = 0; i < sizeof(tracers) / sizeof(tracers[0]); i++) {
		p = bpf_object__find_program_by_name(tr->obj, tracers[i]);
		if (!CHECK(p, "no program %s", tracers[i]))
			goto out;
		bpf_program__set_autoload(p, true);
		bpf_program__set_attach_target(p, fd, targets[i]);
	}
	if (!CHECK_ERR(subprog_ret__load(tr), "load the tracers") ||
	    !CHECK_ERR(subprog_ret__attach(tr), "attach the tracers"))
		goto out;

	run_caller(t, "traced");
	b = tr->bss;
	CHECK(b->fentry_runs == 2 && b->fexit_runs == 6,
	      "fentry ran %u times (want 2), fexit %u (want 6)",
	      b->fentry_runs, b->fexit_runs);
	CHECK(b->seen_arg == INPUT, "fentry on sub_wide saw %#llx",
	      (unsigned long long)b->seen_arg);
	CHECK(b->seen_wide == (INPUT << 32 | 1), "fexit on sub_wide saw %#llx",
	      (unsigned long long)b->seen_wide);
	CHECK(b->seen_wide_static == (INPUT << 32 | 2),
	      "fexit on sub_wide_static saw %#llx",
	      (unsigned long long)b->seen_wide_static);
	CHECK(b->seen_top == (INPUT | 0x80000000ULL), "fexit on sub_top saw %#llx",
	      (unsigned long long)b->seen_top);
	CHECK(b->seen_u32 == (INPUT | 0x80000000ULL), "fexit on sub_u32 saw %#llx",
	      (unsigned long long)b->seen_u32);
	CHECK(b->seen_neg == -(long long)INPUT - 100, "fexit on sub_neg saw %lld",
	      (long long)b->seen_neg);
	CHECK(b->seen_caller_ret == INPUT, "fexit on the caller saw %lld",
	      (long long)b->seen_caller_ret);

	subprog_ret__destroy(tr);
	tr = NULL;
	run_caller(t, "detached");
out:
	subprog_ret__destroy(tr);
	subprog_ret__destroy(t);
}

/*
 * 6.1 refuses fmod_ret on BPF code, with the verifier's reason: on an
 * XDP program, on its global subprogram, and on a tc program.
 */
void test_reject_fmod_ret_on_bpf_prog(void)
{
	static const char *const msg = "can't modify return codes of BPF programs";
	struct subprog_ret *t;
	struct progtarget *tc;
	struct bpf_program *p;
	int fd;

	t = load_caller();
	if (!t)
		return;
	fd = bpf_program__fd(t->progs.subprog_caller);
	load_one_reject_on("fmod_ret_any", fd, "subprog_caller", 0, msg);
	load_one_reject_on("fmod_ret_any", fd, "sub_wide", 0, msg);
	subprog_ret__destroy(t);

	tc = progtarget__open();
	if (!CHECK(tc, "open failed"))
		return;
	bpf_object__for_each_program(p, tc->obj)
		bpf_program__set_autoload(p, p == tc->progs.target_prog);
	if (CHECK_ERR(progtarget__load(tc), "load the tc program"))
		load_one_reject_on("fmod_ret_any",
				   bpf_program__fd(tc->progs.target_prog),
				   "target_prog", 0, msg);
	progtarget__destroy(tc);
}

static char vlog[65536];

/* Run tail_entry once; returns how often it ran, or -1. */
static int run_tail_chain(struct tailcall_traced *t, const char *when)
{
	__u32 before = t->bss->entries, retval;

	if (!CHECK_ERR(test_run_packet(bpf_program__fd(t->progs.tail_entry),
				       &retval), "test run"))
		return -1;
	CHECK(retval == 7, "%s: the chain returned %u, want 7", when, retval);
	return t->bss->entries - before;
}

/*
 * A program whose subprogram tail-calls the program again runs 34 times
 * (the first run and 6.1's 33 tail calls), with fentry and fexit on the
 * subprogram too: the trampoline carries the tail call counter.
 */
void test_tail_call_limit_traced(void)
{
	struct tailcall_traced *t, *tr = NULL;
	__u32 key = 0;
	int fd, map_fd, n;

	t = tailcall_traced__open();
	if (!CHECK(t, "open failed"))
		return;
	bpf_program__set_autoload(t->progs.on_sub_tail_entry, false);
	bpf_program__set_autoload(t->progs.on_sub_tail_exit, false);
	vlog[0] = 0;
	bpf_program__set_log_buf(t->progs.tail_entry, vlog, sizeof(vlog));
	if (!CHECK_ERR(tailcall_traced__load(t), "load the tc program")) {
		show_log_tail(vlog);
		goto out;
	}
	fd = bpf_program__fd(t->progs.tail_entry);
	map_fd = bpf_map__fd(t->maps.jmp_table);
	if (!CHECK_ERR(bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY) ?
		       -errno : 0, "fill the prog array"))
		goto out;
	n = run_tail_chain(t, "no trampoline");
	CHECK(n == 34, "no trampoline: the program ran %d times, want 34", n);

	tr = tailcall_traced__open();
	if (!CHECK(tr, "open failed"))
		goto out;
	bpf_program__set_autoload(tr->progs.tail_entry, false);
	bpf_program__set_attach_target(tr->progs.on_sub_tail_entry, fd,
				       "sub_tail");
	bpf_program__set_attach_target(tr->progs.on_sub_tail_exit, fd,
				       "sub_tail");
	if (!CHECK_ERR(tailcall_traced__load(tr), "load the tracers") ||
	    !CHECK_ERR(tailcall_traced__attach(tr), "attach the tracers"))
		goto out;
	n = run_tail_chain(t, "traced");
	CHECK(n == 34, "traced: the program ran %d times, want 34", n);
	CHECK(tr->bss->fentry_runs == 34 && tr->bss->fexit_runs == 34,
	      "fentry ran %u times, fexit %u, want 34 each",
	      tr->bss->fentry_runs, tr->bss->fexit_runs);
	CHECK(tr->bss->fexit_ret == 7, "fexit saw %d, want 7",
	      tr->bss->fexit_ret);
out:
	tailcall_traced__destroy(tr);
	tailcall_traced__destroy(t);
}

/* The address of a loaded program's code, from its info. */
static unsigned long long prog_addr(int fd)
{
	unsigned long long ksym = 0;
	struct bpf_prog_info info = {
		.nr_jited_ksyms = 1,
		.jited_ksyms = (unsigned long)&ksym,
	};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return ksym;
}

/* The caller's view while new_sub_wide() replaces sub_wide(). */
static void run_caller_extended(struct subprog_ret *t,
				struct freplace_far *ext, __u32 ext_runs)
{
	__u32 retval;

	if (!CHECK_ERR(test_run_packet(bpf_program__fd(t->progs.subprog_caller),
				       &retval), "test run"))
		return;
	CHECK(ext->bss->ext_runs == ext_runs + 1,
	      "the extension ran %u times, want 1", ext->bss->ext_runs - ext_runs);
	CHECK(t->bss->got_wide == (INPUT << 32 | 9),
	      "extended: sub_wide() gave %#llx, want the extension's %#llx",
	      (unsigned long long)t->bss->got_wide, INPUT << 32 | 9);
	CHECK(t->bss->caller_bad == 1 && retval == INPUT,
	      "extended: the caller's checks gave %#x (want 1: only sub_wide), it returned %u",
	      t->bss->caller_bad, retval);
}

/* freplace_far.bpf.c's extension of sub_wide() in the program at fd. */
static struct freplace_far *load_extension(int fd)
{
	struct freplace_far *ext = freplace_far__open();

	if (!CHECK(ext, "open failed"))
		return NULL;
	bpf_program__set_attach_target(ext->progs.new_sub_wide, fd, "sub_wide");
	if (!CHECK_ERR(freplace_far__load(ext), "load the extension")) {
		freplace_far__destroy(ext);
		return NULL;
	}
	return ext;
}

/*
 * freplace executed: an extension of a global subprogram loaded after
 * FILLER_PROGS other programs, so far from its target (riscv64's BPF
 * region is 128 MiB, a JAL reaches 1 MiB).  The caller gets the
 * extension's result, twice (attach, detach, attach again), and the
 * original's once detached.
 */
void test_freplace_far_target(void)
{
	struct freplace_far *ext = NULL;
	struct subprog_ret *t;
	struct bpf_link *link;
	int fillers[FILLER_PROGS], nfill = 0, fd, i, err;
	unsigned long long target_at, ext_at;

	t = load_caller();
	if (!t)
		return;
	fd = bpf_program__fd(t->progs.subprog_caller);
	for (; nfill < FILLER_PROGS; nfill++) {
		fillers[nfill] = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL,
					       "GPL", ret0, 2, NULL);
		if (!CHECK(fillers[nfill] >= 0, "filler program %d: %s", nfill,
			   strerror(errno)))
			goto out;
	}
	ext = load_extension(fd);
	if (!ext)
		goto out;
	target_at = prog_addr(fd);
	ext_at = prog_addr(bpf_program__fd(ext->progs.new_sub_wide));
	diag("extension %lld KiB from its target's caller (%#llx, %#llx)",
	     ((long long)ext_at - (long long)target_at) / 1024, target_at,
	     ext_at);
#ifdef __riscv
	CHECK(llabs((long long)(ext_at - target_at)) > (1LL << 20),
	      "the extension is within 1 MiB of its target: load more fillers");
#endif
	for (i = 0; i < 2; i++) {
		link = bpf_program__attach_freplace(ext->progs.new_sub_wide, fd,
						    "sub_wide");
		err = libbpf_get_error(link);
		if (!CHECK_ERR(err, i ? "attach the extension again" :
				   "attach the extension")) {
			/* what a failed attach left behind */
			link = bpf_program__attach_freplace(
				ext->progs.new_sub_wide, fd, "sub_wide");
			CHECK_ERR(libbpf_get_error(link), "retry the attach");
			if (!libbpf_get_error(link))
				bpf_link__destroy(link);
			run_caller(t, "after a failed attach");
			goto out;
		}
		run_caller_extended(t, ext, ext->bss->ext_runs);
		bpf_link__destroy(link);
		run_caller(t, "extension detached");
	}
out:
	while (nfill-- > 0)
		close(fillers[nfill]);
	freplace_far__destroy(ext);
	subprog_ret__destroy(t);
}

/*
 * Trampolines and an extension attached to and detached from a BPF
 * program's entry and one of its subprograms while the program runs on
 * every CPU: each attach or detach rewrites the entry under the running
 * code (riscv64 with one store to a site a runner may be preempted in,
 * x86-64 and arm64 through their text poking).  Every run must give what
 * it gives untraced.  The rounds' default suits make test; make preempt
 * (riscv64 built with PREEMPT) runs thousands (sleeptest.poke_rounds=).
 */
#define POKE_ROUNDS 200
#define POKE_REPEAT 16	/* runs of the program per BPF_PROG_TEST_RUN */
#define POKE_CPUS 2

struct poke_runner {
	pthread_t thread;
	int fd, cpu, pin_err, err;
	volatile int stop;
	long runs, wrong;
	__u32 wrong_retval;
};

static void *poke_runner_fn(void *arg)
{
	struct poke_runner *r = arg;
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = POKE_REPEAT);
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(r->cpu, &cpus);
	r->pin_err = pthread_setaffinity_np(pthread_self(), sizeof(cpus),
					    &cpus);
	while (!r->stop) {
		if (bpf_prog_test_run_opts(r->fd, &opts)) {
			r->err = -errno;
			break;
		}
		r->runs += POKE_REPEAT;
		if (opts.retval != INPUT) {
			r->wrong++;
			r->wrong_retval = opts.retval;
		}
	}
	return NULL;
}

/* The BTF id of function name in the BTF of the program at fd, or 0. */
static __u32 prog_func_btf_id(int fd, const char *name)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct btf *btf;
	int id;

	if (bpf_obj_get_info_by_fd(fd, &info, &len) || !info.btf_id)
		return 0;
	btf = btf__load_from_kernel_by_id(info.btf_id);
	if (!btf)
		return 0;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	btf__free(btf);
	return id > 0 ? id : 0;
}

/*
 * A program of two instructions (return 0) of the given tracing type on
 * BPF function btf_id of the program at target_fd; its fd or -errno.  6.1
 * attaches a tracing program to a BPF target once per load, so each round
 * loads its own.
 */
static int load_bpf_tracer(int target_fd, __u32 btf_id,
			   enum bpf_attach_type type)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = type,
		    .attach_prog_fd = target_fd, .attach_btf_id = btf_id);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", ret0, 2,
			       &opts);

	return fd < 0 ? -errno : fd;
}

void test_bpf_entry_attach_race(void)
{
	static const char *const kinds[] = {
		"fentry on subprog_caller", "fexit on subprog_caller",
		"fentry on sub_wide", "freplace of sub_wide",
	};
	static const enum bpf_attach_type types[] = {
		BPF_TRACE_FENTRY, BPF_TRACE_FEXIT, BPF_TRACE_FENTRY,
	};
	struct poke_runner run[POKE_CPUS] = {};
	struct freplace_far *ext = NULL;
	long rounds, r, done = 0, runs = 0;
	int fd, i, k, prog_fd, link_fd, started = 0;
	struct subprog_ret *t;
	struct bpf_link *link;
	__u32 ids[3];
	double t0;

	rounds = env_rounds("SLEEPTEST_POKE_ROUNDS", POKE_ROUNDS);
	if (rounds < 0)
		return;
	t = load_caller();
	if (!t)
		return;
	fd = bpf_program__fd(t->progs.subprog_caller);
	ids[0] = ids[1] = prog_func_btf_id(fd, "subprog_caller");
	ids[2] = prog_func_btf_id(fd, "sub_wide");
	if (!CHECK(ids[0] && ids[2], "no BTF ids for subprog_caller (%u), sub_wide (%u)",
		   ids[0], ids[2]))
		goto out;
	ext = load_extension(fd);
	if (!ext)
		goto out;

	for (i = 0; i < POKE_CPUS; i++) {
		run[i].fd = fd;
		run[i].cpu = i % sysconf(_SC_NPROCESSORS_ONLN);
		if (!CHECK(!pthread_create(&run[i].thread, NULL, poke_runner_fn,
					   &run[i]), "pthread_create"))
			break;
		started++;
	}
	t0 = mono_seconds();
	for (r = 0; started == POKE_CPUS && r < rounds; r++) {
		k = r % 4;
		if (k == 3) {
			link = bpf_program__attach_freplace(
				ext->progs.new_sub_wide, fd, "sub_wide");
			if (!CHECK_ERR(libbpf_get_error(link), kinds[k]))
				break;
			bpf_link__destroy(link);
			done++;
			continue;
		}
		prog_fd = load_bpf_tracer(fd, ids[k], types[k]);
		if (!CHECK_ERR(prog_fd < 0 ? prog_fd : 0, kinds[k]))
			break;
		link_fd = bpf_link_create(prog_fd, 0, types[k], NULL);
		if (!CHECK_ERR(link_fd < 0 ? -errno : 0, kinds[k])) {
			close(prog_fd);
			break;
		}
		close(link_fd);
		close(prog_fd);
		done++;
	}
	for (i = 0; i < started; i++) {
		run[i].stop = 1;
		pthread_join(run[i].thread, NULL);
		CHECK(!run[i].pin_err, "pinning runner %d: %s", i,
		      strerror(run[i].pin_err));
		CHECK_ERR(run[i].err, "test run");
		CHECK(!run[i].wrong, "runner %d: %ld of %ld runs returned a wrong value (last %u, want %llu)",
		      i, run[i].wrong, run[i].runs, run[i].wrong_retval,
		      INPUT);
		runs += run[i].runs;
	}
	/* a failed round said why; what follows would only repeat it */
	if (started < POKE_CPUS || done < rounds)
		goto out;
	diag("%ld attach/detach rounds in %.1f s beside %ld runs of the program on %d CPUs; the extension ran %u times",
	     done, mono_seconds() - t0, runs, started, ext->bss->ext_runs);
	/* bit 0 is sub_wide()'s check, which the extension fails on purpose */
	CHECK(!(t->bss->caller_bad_any & ~1U),
	      "the caller's own checks failed: %#x", t->bss->caller_bad_any);
	CHECK(runs > 0, "the program never ran");
	/* and, with nothing attached, as before */
	run_caller(t, "after the race");
out:
	freplace_far__destroy(ext);
	subprog_ret__destroy(t);
}
