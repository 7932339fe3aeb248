// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stack traces from BPF programs: bpf_get_stackid() and
 * bpf_get_stack() with skips 0 to 5, from every trampoline kind and from
 * raw and BTF tracepoints.  Tools such as klockstat drop each event whose
 * stack id they cannot get, so a skip that fails loses them every event.
 * Each skip is its own call of the traced syscall from the same program
 * instruction, so the trace with skip s must be the one with skip 0 less
 * its first s frames, and both must reach the syscall entry code.
 */
#include "sleeptest.h"

#include "stacks.skel.h"

#define MAX_SKIP 5
#define MAP_FRAMES 127
#define GET_STACK_FRAMES 32

/* Functions every syscall passes through on its way from user space. */
static const char *const syscall_entry_fns[] = {
#if defined(__x86_64__)
	"do_syscall_64",
#elif defined(__aarch64__)
	"el0_svc", "do_el0_svc",
#elif defined(__riscv)
	/* 6.1 riscv64 dispatches syscalls from entry.S */
	"ret_from_syscall", "handle_syscall_trace_enter",
#endif
	NULL
};

struct ksym {
	unsigned long long addr;
	char name[64];
};

static struct ksym *ksyms;
static size_t nr_ksyms;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The text symbols of /proc/kallsyms (BPF programs included), sorted. */
static int ksyms_load(void)
{
	char line[256], name[64], type;
	unsigned long long addr;
	size_t cap = 0;
	FILE *f;

	if (ksyms)
		return 0;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %63s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T') || !addr)
			continue;
		if (nr_ksyms == cap) {
			struct ksym *n;

			cap = cap ? cap * 2 : 65536;
			n = realloc(ksyms, cap * sizeof(*n));
			if (!n) {
				fclose(f);
				return -ENOMEM;
			}
			ksyms = n;
		}
		ksyms[nr_ksyms].addr = addr;
		snprintf(ksyms[nr_ksyms].name, sizeof(ksyms[0].name), "%s",
			 name);
		nr_ksyms++;
	}
	fclose(f);
	if (!nr_ksyms)
		return -ENOENT;
	qsort(ksyms, nr_ksyms, sizeof(*ksyms), ksym_cmp);
	return 0;
}

/* The symbol ip lies in, or "?". */
static const char *ksym_name(unsigned long long ip)
{
	size_t lo = 0, hi = nr_ksyms;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (ksyms[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	if (!nr_ksyms || ksyms[lo].addr > ip)
		return "?";
	return ksyms[lo].name;
}

/* Index of the first frame in a syscall entry function, or -1. */
static int entry_frame(const __u64 *ips, int nr)
{
	int i, j;

	for (i = 0; i < nr; i++)
		for (j = 0; syscall_entry_fns[j]; j++)
			if (!strcmp(ksym_name(ips[i]), syscall_entry_fns[j]))
				return i;
	return -1;
}

static void show_trace(const char *what, const __u64 *ips, int nr)
{
	int i;

	diag("%s, %d frames:", what, nr);
	for (i = 0; i < nr; i++)
		diag("  #%d %llx %s", i, (unsigned long long)ips[i],
		     ksym_name(ips[i]));
}

/* One helper's trace: ret is what the helper returned. */
struct trace {
	long ret;
	int nr;
	__u64 ips[MAP_FRAMES];
};

struct stack_kind {
	const char *name;
	int lsm;		/* triggered by bpf(), not getpgid() */
	int sleepable;		/* no stack trace maps: bpf_get_stack() only */
};

static const struct stack_kind stack_kinds[] = {
	{ "fentry" }, { "fentry.s", 0, 1 }, { "fexit" }, { "fexit.s", 0, 1 },
	{ "fmod_ret" }, { "fmod_ret.s", 0, 1 },
	{ "lsm", 1 }, { "lsm.s", 1, 1 },
	{ "raw_tp" }, { "tp_btf" },
};

static struct bpf_program *kind_prog(struct stacks *skel, int kind)
{
	struct bpf_program *progs[] = {
		skel->progs.on_fentry, skel->progs.on_fentry_s,
		skel->progs.on_fexit, skel->progs.on_fexit_s,
		skel->progs.on_fmod_ret, skel->progs.on_fmod_ret_s,
		skel->progs.on_lsm, skel->progs.on_lsm_s,
		skel->progs.on_raw_tp, skel->progs.on_tp_btf,
	};

	return progs[kind];
}

/* Both helpers' traces of one call with skip s: 0 or -1. */
static int trace_once(struct stacks *skel, int kind, int s,
		      struct trace *by_id, struct trace *by_stack)
{
	const char *name = stack_kinds[kind].name;
	int map = bpf_map__fd(skel->maps.stack_ids);
	__u32 id, next_id;

	skel->bss->skip = s;
	skel->bss->runs = 0;
	skel->data->armed_kind = kind;
	if (stack_kinds[kind].lsm)
		bpf_map_get_next_id(0, &next_id);	/* a bpf() call */
	else
		syscall(__NR_getpgid, 0);
	skel->data->armed_kind = -1;
	if (!CHECK(skel->bss->runs == 1, "%s ran %d times, want 1", name,
		   skel->bss->runs))
		return -1;
	memset(by_id, 0, sizeof(*by_id));
	by_id->ret = skel->bss->stackid;
	if (!stack_kinds[kind].sleepable && by_id->ret >= 0) {
		id = by_id->ret;
		if (!CHECK_ERR(bpf_map_lookup_elem(map, &id, by_id->ips) ?
			       -errno : 0, "stack map lookup"))
			return -1;
		bpf_map_delete_elem(map, &id);
		while (by_id->nr < MAP_FRAMES && by_id->ips[by_id->nr])
			by_id->nr++;
	}
	by_stack->ret = skel->bss->stack_bytes;
	by_stack->nr = 0;
	if (by_stack->ret >= 0) {
		by_stack->nr = by_stack->ret / sizeof(__u64);
		memcpy(by_stack->ips, skel->bss->stack,
		       by_stack->nr * sizeof(__u64));
	}
	return 0;
}

/*
 * The trace with skip s against the one with skip 0 (depth frames deep):
 * the helper fails with -EFAULT when s leaves nothing (bpf_get_stackid)
 * or skips past the end (bpf_get_stack); otherwise it gives the same
 * frames less the first s, as many as fit (cap).  1, or 0 with the
 * difference in why.
 */
static int trace_shifted(char *why, size_t len, const char *what,
			 const struct trace *t, const struct trace *t0,
			 int depth, int s, int cap, int empty_ok)
{
	int i, want = depth - s;

	if (want < 0 || (want == 0 && !empty_ok)) {
		if (t->ret == -EFAULT)
			return 1;
		snprintf(why, len, "%s with skip %d of a %d-frame trace gave "
			 "%ld, want -%d", what, s, depth, t->ret, EFAULT);
		return 0;
	}
	if (t->ret < 0) {
		snprintf(why, len, "%s with skip %d of a %d-frame trace gave "
			 "%ld", what, s, depth, t->ret);
		return 0;
	}
	if (want > cap)
		want = cap;
	if (t->nr != want) {
		snprintf(why, len, "%s with skip %d: %d frames, want %d", what,
			 s, t->nr, want);
		show_trace(what, t->ips, t->nr);
		return 0;
	}
	for (i = 0; i < want; i++)
		if (t->ips[i] != t0->ips[i + s]) {
			snprintf(why, len, "%s with skip %d: frame %d is %s, "
				 "want %s", what, s, i, ksym_name(t->ips[i]),
				 ksym_name(t0->ips[i + s]));
			return 0;
		}
	return 1;
}

static void check_kind(struct stacks *skel, int kind)
{
	static struct trace by_id[MAX_SKIP + 1], by_stack[MAX_SKIP + 1];
	const struct stack_kind *k = &stack_kinds[kind];
	int s, e_id, e_stack, ok = 1, i, stack_depth;
	struct bpf_link *link;
	char why[160];

	if (!CHECK_ERR(attach_prog(kind_prog(skel, kind), &link), k->name))
		return;
	for (s = 0; s <= MAX_SKIP && ok; s++)
		ok = !trace_once(skel, kind, s, &by_id[s], &by_stack[s]);
	bpf_link__destroy(link);
	if (!ok)
		return;
	ok &= CHECK(k->sleepable || by_id[0].ret >= 0, "%s: bpf_get_stackid("
		    "skip 0) gave %ld", k->name, by_id[0].ret);
	ok &= CHECK(by_stack[0].ret >= 0, "%s: bpf_get_stack(skip 0) gave "
		    "%ld", k->name, by_stack[0].ret);
	if (!ok)
		return;
	/* A full buffer hides how deep the trace is: deeper than any skip. */
	stack_depth = by_stack[0].nr;
	if (stack_depth == GET_STACK_FRAMES)
		stack_depth = MAP_FRAMES;
	for (s = 1; s <= MAX_SKIP; s++) {
		if (!k->sleepable)
			ok &= CHECK(trace_shifted(why, sizeof(why),
						  "bpf_get_stackid()",
						  &by_id[s], &by_id[0],
						  by_id[0].nr, s, MAP_FRAMES,
						  0), "%s: %s", k->name, why);
		ok &= CHECK(trace_shifted(why, sizeof(why), "bpf_get_stack()",
					  &by_stack[s], &by_stack[0],
					  stack_depth, s, GET_STACK_FRAMES, 1),
			    "%s: %s", k->name, why);
	}
	e_id = entry_frame(by_id[0].ips, by_id[0].nr);
	e_stack = entry_frame(by_stack[0].ips, by_stack[0].nr);
	ok &= CHECK(k->sleepable || e_id >= 0, "%s: bpf_get_stackid()'s trace "
		    "does not reach %s", k->name, syscall_entry_fns[0]);
	ok &= CHECK(e_stack >= 0, "%s: bpf_get_stack()'s trace does not "
		    "reach %s", k->name, syscall_entry_fns[0]);
	/* From the entry code on, both helpers see the same callers. */
	for (i = 0; ok && !k->sleepable && e_id + i < by_id[0].nr &&
	     e_stack + i < by_stack[0].nr; i++)
		ok &= CHECK(by_id[0].ips[e_id + i] ==
			    by_stack[0].ips[e_stack + i],
			    "%s: frame %d past the entry code: %s by "
			    "bpf_get_stackid(), %s by bpf_get_stack()",
			    k->name, i, ksym_name(by_id[0].ips[e_id + i]),
			    ksym_name(by_stack[0].ips[e_stack + i]));
	diag("%s: %d frames by id, %d by bpf_get_stack(), entry code at "
	     "#%d and #%d", k->name, by_id[0].nr, by_stack[0].nr, e_id,
	     e_stack);
	if (!ok) {
		if (!k->sleepable)
			show_trace("bpf_get_stackid(skip 0)", by_id[0].ips,
				   by_id[0].nr);
		show_trace("bpf_get_stack(skip 0)", by_stack[0].ips,
			   by_stack[0].nr);
	}
}

static void stack_traces(int first, int last)
{
	struct stacks *skel;
	int kind;

	if (!CHECK_ERR(ksyms_load(), "reading /proc/kallsyms"))
		return;
	skel = stacks__open();
	if (!CHECK(skel, "open: %s", strerror(errno)))
		return;
	for (kind = 0; kind < 6; kind++)
		bpf_program__set_attach_target(kind_prog(skel, kind), 0,
					       sys_fn("getpgid"));
	for (kind = 0; kind < (int)(sizeof(stack_kinds) /
				   sizeof(stack_kinds[0])); kind++)
		bpf_program__set_autoload(kind_prog(skel, kind),
					  kind >= first && kind <= last);
	if (!CHECK_ERR(stacks__load(skel), "load"))
		goto out;
	skel->bss->monitored_pid = getpid();
	for (kind = first; kind <= last; kind++)
		check_kind(skel, kind);
out:
	stacks__destroy(skel);
}

/* fentry, fexit, fmod_ret and lsm, sleepable or not. */
void test_stack_traces_trampoline(void)
{
	stack_traces(0, 7);
}

/* raw_tp and tp_btf on sys_enter: the same helpers without a trampoline. */
void test_stack_traces_tracepoint(void)
{
	stack_traces(8, 9);
}
