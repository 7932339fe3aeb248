// SPDX-License-Identifier: GPL-2.0
/*
 * The attach mechanism: trampolines changed while in use, next to the
 * function tracer and a kprobe, on a module function and on a BPF
 * program, and behind ftrace's recursion guard.
 */
#include "sleeptest.h"
#include "glue.h"
#include <sys/stat.h>
#include <bpf/btf.h>

#include "argshape.skel.h"
#include "attach.skel.h"
#include "modfunc.skel.h"
#include "progtarget.skel.h"
#include "recursion.skel.h"

/* Attach-mechanism tests: worker threads calling getpgid on each CPU. */
struct syscall_workers {
	pthread_t thread[2];
	volatile int stop;
	volatile long calls[2];
};

static void *syscall_worker(void *arg)
{
	struct syscall_workers *w = arg;
	int me = pthread_self() == w->thread[1];
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(me, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	while (!w->stop) {
		syscall(__NR_getpgid, 0);
		w->calls[me]++;
	}
	return NULL;
}

static void workers_start(struct syscall_workers *w)
{
	memset(w, 0, sizeof(*w));
	pthread_create(&w->thread[0], NULL, syscall_worker, w);
	pthread_create(&w->thread[1], NULL, syscall_worker, w);
}

static void workers_stop(struct syscall_workers *w)
{
	w->stop = 1;
	pthread_join(w->thread[0], NULL);
	pthread_join(w->thread[1], NULL);
}

/*
 * Attach, replace and detach trampolines on a function both CPUs keep
 * calling: each change regenerates the trampoline and repoints the call
 * site while it is in use.  A round makes six changes and takes 8-10 s
 * of an arm64 guest's time beside another guest; attach_detach_stress
 * makes hundreds more.
 */
#define WHILE_RUNNING_ROUNDS 6

void test_attach_detach_while_running(void)
{
	struct bpf_link *l_fentry, *l_sleep, *l_fexit;
	struct syscall_workers w;
	struct attach *skel;
	long seen, before;
	int round, err = 0;

	skel = attach_open_load();
	if (!skel)
		return;
	workers_start(&w);
	for (round = 0; round < WHILE_RUNNING_ROUNDS && !case_failed; round++) {
		seen = skel->bss->fentry_hits;
		l_fentry = bpf_program__attach(skel->progs.count_fentry);
		if (!l_fentry) {
			err = -errno;
			break;
		}
		if (round == 0)
			report_call_path(sys_fn("getpgid"));
		if (!CHECK(counter_moves(&skel->bss->fentry_hits, seen),
			   "round %d: fentry does not run (workers at %ld, %ld)",
			   round, w.calls[0], w.calls[1])) {
			struct bpf_prog_info info = {};
			__u32 len = sizeof(info);

			bpf_obj_get_info_by_fd(bpf_program__fd(
				skel->progs.count_fentry), &info, &len);
			diag("fentry: run_cnt %llu recursion_misses %llu",
			     (unsigned long long)info.run_cnt,
			     (unsigned long long)info.recursion_misses);
			dump_enabled_functions();
		}
		/* A second and third program: the trampoline is replaced. */
		seen = skel->bss->fentry_s_hits;
		l_sleep = bpf_program__attach(skel->progs.count_fentry_s);
		l_fexit = bpf_program__attach(skel->progs.count_fexit);
		if (!l_sleep || !l_fexit) {
			err = -errno;
			bpf_link__destroy(l_sleep);
			bpf_link__destroy(l_fexit);
			bpf_link__destroy(l_fentry);
			break;
		}
		CHECK(counter_moves(&skel->bss->fentry_s_hits, seen),
		      "round %d: fentry.s does not run", round);
		seen = skel->bss->fexit_hits;
		CHECK(counter_moves(&skel->bss->fexit_hits, seen),
		      "round %d: fexit does not run", round);
		/* Detach the oldest first, then the rest. */
		bpf_link__destroy(l_fentry);
		seen = skel->bss->fentry_s_hits;
		CHECK(counter_moves(&skel->bss->fentry_s_hits, seen),
		      "round %d: fentry.s stopped after fentry left", round);
		bpf_link__destroy(l_sleep);
		bpf_link__destroy(l_fexit);
	}
	CHECK_ERR(err, "attach");
	if (case_failed)
		dump_enabled_functions();
	/* Nothing attached: no program may run any more. */
	before = skel->bss->fentry_hits + skel->bss->fentry_s_hits +
		 skel->bss->fexit_hits;
	sleep_ms(100);
	CHECK(skel->bss->fentry_hits + skel->bss->fentry_s_hits +
	      skel->bss->fexit_hits == before,
	      "programs still run after detach");
	workers_stop(&w);
	CHECK(w.calls[0] > 0 && w.calls[1] > 0, "worker calls %ld and %ld",
	      w.calls[0], w.calls[1]);
	diag("%d rounds; worker calls %ld and %ld; fentry %ld, fentry.s %ld, "
	     "fexit %ld", round, w.calls[0], w.calls[1],
	     skel->bss->fentry_hits, skel->bss->fentry_s_hits,
	     skel->bss->fexit_hits);
	attach__destroy(skel);
}

/* Lines of the function tracer's buffer that name fn. */
static long trace_count_in(const char *path, const char *fn)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, fn))
			n++;
	fclose(f);
	return n;
}

/* Trace lines of function fn, under the name ftrace gives it. */
static long trace_count(const char *fn)
{
	char name[256];

	glue_ftrace_name(fn, name, sizeof(name));
	return trace_count_in("/sys/kernel/tracing/trace", name);
}

/*
 * A sleepable program reached through ftrace's list function (a function
 * shared with other ftrace ops) must run preemptible: the direct ops only
 * choose the trampoline, which the architecture enters after the list
 * function has returned and re-enabled preemption.
 */
static void check_sleepable_preemptible(struct attach *skel, int calls)
{
	CHECK(skel->bss->fentry_s_hits == calls, "fentry.s ran %ld times for "
	      "%d", skel->bss->fentry_s_hits, calls);
	CHECK(skel->bss->fentry_s_preempt_max == 0, "a fentry.s program ran "
	      "with preempt_count %ld, want 0",
	      skel->bss->fentry_s_preempt_max);
}

/* The function tracer and a trampoline on the same function: both fire. */
void test_function_tracer_and_trampoline(void)
{
	const char *fn = sys_fn("getpgid");
	const int calls = 20;
	struct attach *skel;
	long traced;
	int i;

	skel = attach_open_load();
	if (!skel)
		return;
	if (!CHECK_ERR(set_ftrace_filter(fn), "set_ftrace_filter") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/trace", ""),
		       "clear trace") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/current_tracer",
				  "function"), "function tracer"))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.count_fentry,
				   &skel->links.count_fentry), "attach fentry") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fentry_s,
				   &skel->links.count_fentry_s),
		       "attach fentry.s") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fexit,
				   &skel->links.count_fexit), "attach fexit"))
		goto out_tracer;
	/* shared with the tracer: reached through ftrace's list function */
	report_call_path(fn);
	for (i = 0; i < calls; i++)
		syscall(__NR_getpgid, 0);
	write_file("/sys/kernel/tracing/tracing_on", "0");
	traced = trace_count(fn);
	write_file("/sys/kernel/tracing/tracing_on", "1");
	CHECK(skel->bss->fentry_hits == calls, "fentry ran %ld times for %d",
	      skel->bss->fentry_hits, calls);
	CHECK(skel->bss->fexit_hits == calls, "fexit ran %ld times for %d",
	      skel->bss->fexit_hits, calls);
	check_sleepable_preemptible(skel, calls);
	CHECK(traced >= calls, "function tracer logged %ld calls of %s, want "
	      ">= %d", traced, fn, calls);
out_tracer:
	write_file("/sys/kernel/tracing/current_tracer", "nop");
out:
	write_file("/sys/kernel/tracing/set_ftrace_filter", "");
	attach__destroy(skel);
}

/* A kprobe and trampolines on the same function: all fire. */
void test_kprobe_and_trampoline(void)
{
	const int calls = 20;
	struct attach *skel;
	int i;

	skel = attach_open_load();
	if (!skel)
		return;
	skel->links.count_kprobe =
		bpf_program__attach_kprobe(skel->progs.count_kprobe, false,
					   sys_fn("getpgid"));
	if (!CHECK_ERR(skel->links.count_kprobe ? 0 : -errno,
		       "attach kprobe") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fentry_s,
				   &skel->links.count_fentry_s),
		       "attach fentry.s") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fexit,
				   &skel->links.count_fexit), "attach fexit"))
		goto out;
	report_call_path(sys_fn("getpgid"));
	for (i = 0; i < calls; i++)
		syscall(__NR_getpgid, 0);
	CHECK(skel->bss->kprobe_hits == calls, "kprobe ran %ld times for %d",
	      skel->bss->kprobe_hits, calls);
	check_sleepable_preemptible(skel, calls);
	/* kprobe handlers run with preemption off: the count is measured */
	CHECK(skel->data->kprobe_preempt_min >= 1, "a kprobe program saw "
	      "preempt_count %ld, want >= 1: the count is not kept on this "
	      "kernel, so the fentry.s check shows nothing",
	      skel->data->kprobe_preempt_min);
	CHECK(skel->bss->fexit_hits == calls, "fexit ran %ld times for %d",
	      skel->bss->fexit_hits, calls);
out:
	attach__destroy(skel);
}

/* fentry.s and fexit on a function of a module loaded for the test. */
void test_module_function(void)
{
	struct modfunc *skel = NULL;
	int fd, err;

	if (!load_test_module())
		return;
	skel = modfunc__open();
	if (!CHECK(skel, "open failed"))
		goto out;
	skel->bss->monitored_pid = getpid();
	if (!CHECK_ERR(modfunc__load(skel), "load") ||
	    !CHECK_ERR(modfunc__attach(skel), "attach"))
		goto out;
	report_call_path("sleeptest_mod_target");
	fd = open(TEST_MODULE_TRIGGER, O_WRONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0, "trigger: %s", strerror(errno)))
		goto out;
	CHECK(write(fd, "12345", 5) == 5, "trigger write: %s",
	      strerror(errno));
	close(fd);
	CHECK(skel->data->entry_arg == 5, "fentry.s saw len %ld, want 5",
	      skel->data->entry_arg);
	CHECK(skel->data->exit_ret == 11 && skel->bss->calls == 1,
	      "fexit saw return %ld in %d calls, want 11 in 1",
	      skel->data->exit_ret, skel->bss->calls);
out:
	modfunc__destroy(skel);
	/* Unloading works once the trampolines are gone. */
	err = unload_test_module();
	CHECK(!err, "delete_module: %s", strerror(-err));
}

/*
 * ftrace's recursion guard: with options/func_stack_trace set, the
 * function tracer calls stack_trace_save() from inside its callback on
 * the traced syscall.  A trampoline on stack_trace_save() reached straight
 * from the call site still runs there; one reached through ftrace's list
 * function is skipped as recursion.  The syscall is getpgid, not getppid:
 * x86_64's __x64_sys_getppid is an alias ftrace does not list.
 */
#define STACK_TRACE_OPT "/sys/kernel/tracing/options/func_stack_trace"

/*
 * A trampoline reached through ftrace's list function while ftrace is
 * already running in this context.  6.1's recursion guard lets one nested
 * level through (its "transition" bit) and drops the second.  Two tracers
 * make two levels: the top-level function tracer on getpgid with
 * func_stack_trace calls stack_trace_save() (level 1); a second tracer
 * instance traces stack_trace_save() with func_stack_trace too, and its
 * callback calls stack_trace_save() again (level 2).  A fentry program on
 * stack_trace_save() must run for both, or count the one it missed in
 * recursion_misses: nothing may be dropped silently.
 */
#define RECURSION_INSTANCE "/sys/kernel/tracing/instances/sleeptest"

static int instance_tracer(const char *fn)
{
	int err;

	if (mkdir(RECURSION_INSTANCE, 0755) && errno != EEXIST)
		return -errno;
	err = set_filter_file(RECURSION_INSTANCE "/set_ftrace_filter", fn);
	if (err)
		return err;
	return write_file(RECURSION_INSTANCE "/current_tracer", "function");
}

static void instance_tracer_off(void)
{
	write_file(RECURSION_INSTANCE "/current_tracer", "nop");
	write_file(RECURSION_INSTANCE "/set_ftrace_filter", "");
	rmdir(RECURSION_INSTANCE);
}

void test_recursion_guard_direct(void)
{
	const char *fn = sys_fn("getpgid");
	const int calls = 200;
	long start, base, stacked, traces, nested;
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct recursion *skel;
	int i;

	skel = recursion__open();
	if (!CHECK(skel, "open failed"))
		return;
	skel->bss->monitored_pid = getpid();
	if (!CHECK_ERR(recursion__load(skel), "load"))
		goto out;
	if (!CHECK_ERR(write_file(STACK_TRACE_OPT, "0"), "func_stack_trace=0") ||
	    !CHECK_ERR(set_ftrace_filter(fn), "set_ftrace_filter") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/trace", ""),
		       "clear trace") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/current_tracer",
				  "function"), "function tracer"))
		goto out_tracer;
	if (!CHECK_ERR(attach_prog(skel->progs.count_stack_trace_save,
				   &skel->links.count_stack_trace_save),
		       "attach fentry stack_trace_save"))
		goto out_tracer;
	/* Baseline: lockdep and others call stack_trace_save() too. */
	start = skel->bss->hits;
	for (i = 0; i < calls; i++)
		syscall(__NR_getpgid, 0);
	base = skel->bss->hits - start;

	/*
	 * func_stack_trace is one flag for every instance in 6.1: set it
	 * first, and the instance's function tracer starts with it.
	 */
	if (!CHECK_ERR(write_file(STACK_TRACE_OPT, "1"), "func_stack_trace=1") ||
	    !CHECK_ERR(instance_tracer("stack_trace_save"),
		       "second tracer instance on stack_trace_save"))
		goto out_tracer;
	report_call_path("stack_trace_save");
	start = skel->bss->hits;
	for (i = 0; i < calls; i++)
		syscall(__NR_getpgid, 0);
	stacked = skel->bss->hits - start;
	write_file("/sys/kernel/tracing/tracing_on", "0");
	write_file(RECURSION_INSTANCE "/tracing_on", "0");
	traces = trace_count("<stack trace>");
	nested = trace_count_in(RECURSION_INSTANCE "/trace", "<stack trace>");
	write_file("/sys/kernel/tracing/tracing_on", "1");
	bpf_obj_get_info_by_fd(bpf_program__fd(
		skel->progs.count_stack_trace_save), &info, &len);
	diag("recursion: %d getpgid calls: stack_trace_save hits %ld without "
	     "func_stack_trace, %ld with; stack traces logged: %ld by the "
	     "tracer on getpgid, %ld by the one on stack_trace_save; "
	     "recursion_misses %llu", calls, base, stacked, traces, nested,
	     (unsigned long long)info.recursion_misses);
	/* The second level happened: else this case shows nothing. */
	CHECK(traces >= calls && nested >= calls, "want >= %d stack traces "
	      "from each tracer", calls);
	/* Two nested stack_trace_save() calls per getpgid. */
	if (!CHECK(stacked + (long)info.recursion_misses >= base + 2 * calls,
		   "with func_stack_trace, stack_trace_save ran %ld times and "
		   "missed %llu, want >= %ld (baseline %ld + 2 x %d): runs "
		   "dropped silently", stacked,
		   (unsigned long long)info.recursion_misses,
		   base + 2 * calls, base, calls))
		dump_enabled_functions();
out_tracer:
	instance_tracer_off();
	write_file(STACK_TRACE_OPT, "0");
	write_file("/sys/kernel/tracing/current_tracer", "nop");
	write_file(FTRACE_FILTER, "");
out:
	recursion__destroy(skel);
}

/* fentry and fexit on a BPF program (text poke of its entry). */
void test_trampoline_on_bpf_prog(void)
{
	struct progtarget *target = NULL, *tracer = NULL;
	__u32 retval;
	int target_fd;

	target = progtarget__open();
	if (!CHECK(target, "open failed"))
		return;
	bpf_program__set_autoload(target->progs.on_target_entry, false);
	bpf_program__set_autoload(target->progs.on_target_exit, false);
	if (!CHECK_ERR(progtarget__load(target), "load target"))
		goto out;
	target_fd = bpf_program__fd(target->progs.target_prog);

	tracer = progtarget__open();
	if (!CHECK(tracer, "open failed"))
		goto out;
	bpf_program__set_autoload(tracer->progs.target_prog, false);
	bpf_program__set_attach_target(tracer->progs.on_target_entry,
				       target_fd, "target_prog");
	bpf_program__set_attach_target(tracer->progs.on_target_exit,
				       target_fd, "target_prog");
	if (!CHECK_ERR(progtarget__load(tracer), "load tracer") ||
	    !CHECK_ERR(progtarget__attach(tracer), "attach"))
		goto out;
	if (!CHECK_ERR(test_run_packet(target_fd, &retval), "test run"))
		goto out;
	CHECK(retval == 7, "target returned %u, want 7", retval);
	CHECK(tracer->bss->entry_calls == 1 && tracer->data->entry_len == 64,
	      "fentry: %d calls, len %ld", tracer->bss->entry_calls,
	      tracer->data->entry_len);
	CHECK(tracer->bss->exit_calls == 1 && tracer->data->exit_ret == 7,
	      "fexit: %d calls, ret %ld", tracer->bss->exit_calls,
	      tracer->data->exit_ret);
out:
	progtarget__destroy(tracer);
	progtarget__destroy(target);
}

/*
 * Argument shapes: fentry, fexit and fmod_ret on test-module functions
 * with eight argument registers (s8, s16, a negative int, u64, u8, u16,
 * s32, u64), six, and a 16-byte struct passed by value.  Each program
 * must see every value with its type; fmod_ret's value must replace the
 * result.  6.1's limits stay: x86-64 has six argument registers and
 * passes structs, arm64 and riscv64 eight and no structs; a shape past
 * the limit is refused at attach with -ENOTSUPP (524).
 */
#define ARGS_D 0x8000000000000001ULL
#define ARGS_H 0x1122334455667788ULL
#if defined(__x86_64__)
#define ARCH_MAX_REG_ARGS 6
#define ARCH_STRUCT_ARGS 1
#else
#define ARCH_MAX_REG_ARGS 8
#define ARCH_STRUCT_ARGS 0
#endif

/* Call one shape through the module's args file; its result, or -1. */
static long long call_shape(char which)
{
	char buf[32] = {};
	int fd;

	fd = open("/sys/kernel/debug/" TEST_MODULE "/args", O_WRONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0, "args: %s", strerror(errno)))
		return -1;
	CHECK(write(fd, &which, 1) == 1, "args write: %s", strerror(errno));
	close(fd);
	fd = open("/sys/kernel/debug/" TEST_MODULE "/result", O_RDONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0, "result: %s", strerror(errno)))
		return -1;
	CHECK(read(fd, buf, sizeof(buf) - 1) > 0, "result read: %s",
	      strerror(errno));
	close(fd);
	return (long long)strtoull(buf, NULL, 16);
}

struct shape_case {
	char which;
	const char *name;
	int regs;		/* argument registers it takes */
	bool has_struct;
	long long want;
	int nargs;
	long long args[8];	/* what fentry must see, with each type */
};

static void one_shape(const struct shape_case *c)
{
	static const char *const suffix[] = { "_entry", "_exit", "_modret" };
	const char *prefix = c->which == '8' ? "args8" :
			     c->which == '6' ? "args6" : "struct";
	bool refused = c->regs > ARCH_MAX_REG_ARGS ||
		       (c->has_struct && !ARCH_STRUCT_ARGS);
	struct bpf_link *links[3] = {};
	struct bpf_program *p;
	struct argshape *skel;
	long long *seen, got_ret, r;
	char name[32];
	int i, err;

	skel = argshape__open();
	if (!CHECK(skel, "open failed"))
		return;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, !strncmp(bpf_program__name(p),
					      prefix, strlen(prefix)));
	if (!CHECK_ERR(argshape__load(skel), "load"))
		goto out;
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s%s", prefix, suffix[i]);
		p = bpf_object__find_program_by_name(skel->obj, name);
		if (!CHECK(p, "no program %s", name))
			goto out;
		links[i] = bpf_program__attach(p);
		err = libbpf_get_error(links[i]);
		if (err)
			links[i] = NULL;
		if (refused) {
			CHECK(err == -524, "%s: %s (%d registers%s) attached with %d, want -524: past 6.1's limit here",
			      c->name, name, c->regs,
			      c->has_struct ? ", a struct" : "", err);
			continue;
		}
		if (!CHECK_ERR(err, name))
			goto out;
	}
	if (refused) {
		diag("%s: refused as in 6.1 (%d argument registers%s)", c->name,
		     c->regs, c->has_struct ? ", a struct by value" : "");
		goto out;
	}

	/* fmod_ret returning 0: the function runs, every program sees it */
	r = call_shape(c->which);
	seen = c->which == '8' ? skel->bss->a8 : c->which == '6' ?
	       skel->bss->a6 : skel->bss->as;
	got_ret = c->which == '8' ? skel->bss->ret8 : c->which == '6' ?
		  skel->bss->ret6 : skel->bss->rets;
	CHECK(r == c->want, "%s returned %#llx, want %#llx", c->name, r, c->want);
	for (i = 0; i < c->nargs; i++)
		CHECK(seen[i] == c->args[i],
		      "%s: fentry saw argument %d = %#llx, want %#llx", c->name,
		      i, (unsigned long long)seen[i],
		      (unsigned long long)c->args[i]);
	CHECK(got_ret == c->want, "%s: fexit saw %#llx, want %#llx", c->name,
	      got_ret, c->want);

	/*
	 * fmod_ret returning a value: it replaces the call (positive: a BPF
	 * int reaches a 64-bit return register zero- or sign-extended by
	 * the JIT's ABI)
	 */
	skel->bss->override = 4242;
	r = call_shape(c->which);
	got_ret = c->which == '8' ? skel->bss->ret8 : c->which == '6' ?
		  skel->bss->ret6 : skel->bss->rets;
	CHECK(r == 4242 && got_ret == 4242,
	      "%s with fmod_ret: returned %lld, fexit saw %lld, want 4242",
	      c->name, r, got_ret);
	CHECK(skel->bss->entry_runs == 2 && skel->bss->exit_runs == 2 &&
	      skel->bss->modret_runs == 2,
	      "%s: fentry ran %u times, fexit %u, fmod_ret %u, want 2 each",
	      c->name, skel->bss->entry_runs, skel->bss->exit_runs,
	      skel->bss->modret_runs);
out:
	for (i = 0; i < 3; i++)
		bpf_link__destroy(links[i]);
	argshape__destroy(skel);
}

void test_argument_shapes(void)
{
	const long long d4 = (long long)(ARGS_D >> 4), h8 = ARGS_H >> 8;
	const struct shape_case cases[] = {
		{ '6', "sleeptest_mod_args6", 6, false,
		  -5 - 300 - 100 + d4 + 0xf0 - 2, 6,
		  { -5, -300, -100, (long long)ARGS_D, 0xf0, -2 } },
		{ '8', "sleeptest_mod_args8", 8, false,
		  -5 - 300 - 100 + d4 + 0xf0 + 0xfff0 - 2 + h8, 8,
		  { -5, -300, -100, (long long)ARGS_D, 0xf0, 0xfff0, -2,
		    (long long)ARGS_H } },
		{ 's', "sleeptest_mod_struct", 4, true,
		  -100 + d4 + h8 - 7, 4,
		  { -100, (long long)ARGS_D, (long long)ARGS_H, -7 } },
	};
	unsigned int i;
	int err;

	if (!load_test_module())
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		one_shape(&cases[i]);
	err = unload_test_module();
	CHECK(!err, "delete_module: %s", strerror(-err));
}

/*
 * A direct call's trampoline is recorded in the registers ftrace saved
 * for its callback (arch_ftrace_set_direct_caller()).  A callsite that
 * goes through the plain ftrace_caller saves only the argument
 * registers, and while a direct ops is being added its callback can run
 * from there (through the list function, when a tracer shares the
 * function): it must not write into that area.  riscv64's saved t1
 * lies where ftrace_caller keeps a6, the seventh argument.  So: the
 * function tracer on the module's eight-argument function
 * (six on x86-64, past whose limit it is), a fentry attached and
 * detached in a loop, and a thread on the other CPU calling the
 * function and checking its result all along.
 */
struct args_caller {
	pthread_t thread;
	volatile int stop;
	volatile long calls, wrong;
	char which;
};

static void *args_caller_fn(void *arg)
{
	struct args_caller *w = arg;
	cpu_set_t cpus;
	int fd;

	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	fd = open("/sys/kernel/debug/" TEST_MODULE "/args_check",
		  O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	while (!w->stop) {
		if (write(fd, &w->which, 1) != 1)
			w->wrong++;
		w->calls++;
	}
	close(fd);
	return NULL;
}

#define ARGS_ROUNDS 300
#define ARGS_MIN_ROUNDS 10
#define ARGS_SECONDS 20.0

void test_direct_call_keeps_arguments(void)
{
	struct args_caller w = { .which = ARCH_MAX_REG_ARGS >= 8 ? '8' : '6' };
	const char *fn = w.which == '8' ? "sleeptest_mod_args8" :
					  "sleeptest_mod_args6";
	const char *prog = w.which == '8' ? "args8_entry" : "args6_entry";
	struct argshape *skel = NULL;
	struct bpf_program *p, *entry = NULL;
	struct bpf_link *link;
	double t0 = mono_seconds();
	int rounds = 0, err;
	cpu_set_t cpus;

	if (!load_test_module())
		return;
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	skel = argshape__open();
	if (!CHECK(skel, "open failed"))
		goto out;
	bpf_object__for_each_program(p, skel->obj) {
		bool mine = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, mine);
		if (mine)
			entry = p;
	}
	if (!CHECK_ERR(argshape__load(skel), "load"))
		goto out;
	/*
	 * One round alone first: a kernel that cannot attach at all says so
	 * before the instance is set up (25 s of a riscv64 guest's time).
	 */
	link = bpf_program__attach(entry);
	if (!CHECK_ERR(libbpf_get_error(link), "attach without the tracer"))
		goto out;
	bpf_link__destroy(link);
	/*
	 * The top-level tracer, not an instance: creating and removing one
	 * took 20 s of a riscv64 guest's time, and no other tracer runs.
	 */
	if (!CHECK_ERR(set_ftrace_filter(fn), "set_ftrace_filter") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/current_tracer",
				  "function"), "function tracer"))
		goto out_tracer;
	if (!CHECK(!pthread_create(&w.thread, NULL, args_caller_fn, &w),
		   "pthread_create"))
		goto out_tracer;
	/* the caller first, then at least ARGS_MIN_ROUNDS however slow */
	while (!w.calls && mono_seconds() - t0 < ARGS_SECONDS)
		sleep_ms(1);
	t0 = mono_seconds();
	while (rounds < ARGS_ROUNDS && !w.wrong &&
	       (rounds < ARGS_MIN_ROUNDS || mono_seconds() - t0 < ARGS_SECONDS)) {
		link = bpf_program__attach(entry);
		err = libbpf_get_error(link);
		if (!CHECK_ERR(err, "attach"))
			break;
		bpf_link__destroy(link);
		rounds++;
	}
	w.stop = 1;
	pthread_join(w.thread, NULL);
	diag("%d attach/detach rounds in %.1f s, %ld calls of %s, %ld wrong",
	     rounds, mono_seconds() - t0, w.calls, fn, w.wrong);
	CHECK(w.calls > rounds && skel->bss->entry_runs > 0,
	      "%ld calls of %s, fentry ran %u times", w.calls, fn,
	      skel->bss->entry_runs);
	CHECK(!w.wrong, "%s returned a wrong result %ld times: an argument register changed",
	      fn, w.wrong);
out_tracer:
	write_file("/sys/kernel/tracing/current_tracer", "nop");
	write_file("/sys/kernel/tracing/set_ftrace_filter", "");
out:
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	CPU_SET(1, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	argshape__destroy(skel);
	err = unload_test_module();
	CHECK(!err, "delete_module: %s", strerror(-err));
}

/*
 * Many functions, one after another: a fentry program, sleepable every
 * other time, attached to and detached from distinct syscall functions in
 * turn, as a bpftrace wildcard or retsnoop does, and then one more.  On
 * arm64 with KASLR each call site reaches its trampoline through a veneer
 * of its own in the kernel image; the test kernels have 64
 * (kconfig/arm64-patched.config), and the case attaches to 8 functions
 * more than there are veneers: unless a veneer is given back when its call
 * site leaves it, the last function finds them all taken and goes through
 * ftrace_regs_caller.  /sys/kernel/debug/ftrace_direct_veneers (patched
 * arm64) must show them all given back and no fallback.  A kernel with
 * more veneers (make veneers: 1,024, the default) gets an eighth more
 * functions than it has veneers, beyond the syscalls from the subsystems
 * a bpftrace wildcard would cover.  Elsewhere every call site branches to
 * its trampoline directly, and the case checks that many attaches and
 * detaches on distinct functions all work.
 */
#define VENEER_FUNCS_DEFAULT 72
#define VENEER_FUNCS_MAX 1200
#define VENEERS_FILE "/sys/kernel/debug/ftrace_direct_veneers"

struct veneer_use {
	long veneers, bound, releasing, fallbacks;
};

/* The veneers' counters, or 0 without them (not arm64, or stock). */
static int veneer_use(struct veneer_use *u)
{
	FILE *f = fopen(VENEERS_FILE, "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "veneers %ld bound %ld releasing %ld fallbacks %ld",
		   &u->veneers, &u->bound, &u->releasing, &u->fallbacks);
	fclose(f);
	return CHECK(n == 4, "%s: %d fields read, want 4", VENEERS_FILE, n);
}

/*
 * Up to max syscall functions of vmlinux BTF into names, not skip and not
 * sys_ni_syscall (which unconfigured syscalls alias).
 */
static int syscall_functions(struct btf *vmlinux, const char *prefix,
			     const char *skip, char (*names)[64], int max)
{
	int i, types = btf__type_cnt(vmlinux), n = 0;
	size_t len = strlen(prefix);
	const struct btf_type *t;
	const char *name;

	for (i = 1; i < types && n < max; i++) {
		t = btf__type_by_id(vmlinux, i);
		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(vmlinux, t->name_off);
		if (!name || strncmp(name, prefix, len) || strlen(name) >= 64 ||
		    strstr(name, "ni_syscall") || !strcmp(name, skip))
			continue;
		strcpy(names[n++], name);
	}
	return n;
}

/*
 * Traceable functions (available_filter_functions) whose names start with
 * one of a few subsystems' prefixes, appended to names[n..max): n after.
 */
static int traced_functions(char (*names)[64], int n, int max)
{
	static const char *const prefixes[] = {
		"vfs_", "seq_", "proc_", "kernfs_", "sysfs_", "simple_",
		"generic_", "pipe_", "path_", "tty_", "n_tty_", "sock_",
		"inet_", "tcp_", "udp_", "netlink_", "security_", "shmem_",
		"filemap_", "device_", "kobject_",
	};
	FILE *f = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	char line[256];
	size_t i, len, nprefixes = sizeof(prefixes) / sizeof(prefixes[0]);
	int j, known;

	if (!f)
		return n;
	while (n < max && fgets(line, sizeof(line), f)) {
		len = strcspn(line, " \t\n");
		if (len >= 64)
			continue;
		line[len] = 0;
		for (i = 0; i < nprefixes; i++)
			if (!strncmp(line, prefixes[i], strlen(prefixes[i])))
				break;
		if (i == nprefixes)
			continue;
		for (j = 0, known = 0; j < n && !known; j++)
			known = !strcmp(names[j], line);
		if (!known)
			strcpy(names[n++], line);
	}
	fclose(f);
	return n;
}

/* A fentry program on vmlinux function fn, attached: its link's fd. */
static int fentry_ret0_attach(struct btf *vmlinux, const char *fn,
			      int sleepable, int *prog_fd)
{
	int id = btf__find_by_name_kind(vmlinux, fn, BTF_KIND_FUNC), fd;
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = id,
		    .prog_flags = sleepable ? BPF_F_SLEEPABLE : 0);

	if (id <= 0)
		return -ENOENT;
	*prog_fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL",
				 ret0, 2, &opts);
	if (*prog_fd < 0)
		return -errno;
	fd = bpf_raw_tracepoint_open(NULL, *prog_fd);
	if (fd < 0) {
		fd = -errno;
		close(*prog_fd);
	}
	return fd;
}

void test_veneer_reclaim(void)
{
	static char names[VENEER_FUNCS_MAX + 200][64];
	int n, nsys, i, want = VENEER_FUNCS_DEFAULT, done = 0, refused = 0;
	int syscalls_done = 0, unsupported = 0;
	int link_fd, prog_fd, err = 0, counted, waited;
	struct veneer_use u0 = {}, u1 = {}, u2 = {};
	char prefix[64], *at, *last;
	const char *path;
	long refs;
	struct btf *vmlinux;
	double t0;

	counted = veneer_use(&u0);
	if (case_failed)
		return;
	if (counted && u0.veneers + 8 > want)
		want = u0.veneers + (u0.veneers / 8 > 8 ? u0.veneers / 8 : 8);
	if (!CHECK(want <= VENEER_FUNCS_MAX, "%ld veneers: more than this "
		   "case can use up", u0.veneers))
		return;
	last = sys_fn("getpgid");
	snprintf(prefix, sizeof(prefix), "%s", last);
	at = strstr(prefix, "getpgid");
	if (!CHECK(at, "no syscall function prefix in %s", prefix))
		return;
	*at = 0;
	vmlinux = btf__load_vmlinux_btf();
	if (!CHECK(vmlinux, "vmlinux BTF: %s", strerror(errno)))
		return;
	nsys = syscall_functions(vmlinux, prefix, last, names,
				 VENEER_FUNCS_MAX + 200);
	n = nsys;
	if (n < want + want / 2)
		n = traced_functions(names, n, VENEER_FUNCS_MAX + 200);
	t0 = mono_seconds();
	for (i = 0; i < n && done < want; i++) {
		/* sleepable only where 6.1 allows it: the syscalls */
		link_fd = fentry_ret0_attach(vmlinux, names[i],
					     i < nsys && done % 2, &prog_fd);
		if (link_fd == -ENOENT || link_fd == -EINVAL) {
			refused++;	/* not attachable */
			continue;
		}
		/*
		 * Beyond the syscalls, 6.1 also refuses functions whose
		 * arguments a trampoline cannot pass (-524, -E2BIG): counted
		 * and shown, not an error.
		 */
		if (i >= nsys && (link_fd == -524 || link_fd == -E2BIG)) {
			unsupported++;
			continue;
		}
		if (link_fd < 0) {
			err = link_fd;
			break;
		}
		/*
		 * A name the kernel resolves to another function (an alias)
		 * would not be a call site of its own: count only the
		 * functions ftrace shows with that name.
		 */
		if (ftrace_refcount(names[i], &refs, 0))
			refused++;
		else {
			done++;
			syscalls_done += i < nsys;
		}
		close(link_fd);
		close(prog_fd);
	}
	if (!CHECK(!err && done == want, "%d of %d functions attached "
		   "(%d refused, %d unsupported, %d %s* in BTF, %d more "
		   "traceable), last %s: %d (%s)", done, want, refused,
		   unsupported, nsys, prefix, n - nsys,
		   i ? names[i - 1] : "-", err, strerror(-err)))
		goto out;
	diag("veneers: %d functions attached and detached one after another "
	     "in %.1f s, %d of them syscalls with fentry and fentry.s in "
	     "turn (%d refused or aliases, %d with arguments a trampoline "
	     "cannot pass)", done, mono_seconds() - t0, syscalls_done,
	     refused, unsupported);
	/* what was given back is free once its grace period has passed */
	for (waited = 0; counted && waited < 50; waited++) {
		if (veneer_use(&u1) && !u1.releasing)
			break;
		sleep_ms(100);
	}
	if (counted) {
		diag("veneers: %ld in all; bound %ld before, %ld after, "
		     "%ld being given back %.1f s later; fallbacks %ld before, "
		     "%ld after", u0.veneers, u0.bound, u1.bound, u1.releasing,
		     waited / 10.0, u0.fallbacks, u1.fallbacks);
		CHECK(u1.bound == u0.bound && !u1.releasing,
		      "veneers bound %ld before, %ld after (%ld being given "
		      "back)", u0.bound, u1.bound, u1.releasing);
		CHECK(u1.fallbacks == u0.fallbacks, "%ld call sites went "
		      "through ftrace_regs_caller for want of a veneer",
		      u1.fallbacks - u0.fallbacks);
	}
	link_fd = fentry_ret0_attach(vmlinux, last, 0, &prog_fd);
	if (!CHECK_ERR(link_fd < 0 ? link_fd : 0, last))
		goto out;
	path = report_call_path(last);
	CHECK(path && strcmp(path, "out-of-range"),
	      "after %d functions, %s reaches its trampoline through %s",
	      done, last, path ? path : "an unknown path");
	if (counted && path && !strcmp(path, "veneer") && veneer_use(&u2))
		CHECK(u2.bound == u0.bound + 1, "veneers bound %ld with one "
		      "more function attached, %ld before", u2.bound,
		      u0.bound);
	close(link_fd);
	close(prog_fd);
out:
	btf__free(vmlinux);
}
