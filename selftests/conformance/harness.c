// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance harness for the BPF trampoline IR and its backends.
 *
 * Compiles the same arch-common/ and arch-<arch>/ sources as the kernel, builds
 * trampolines for a systematic and a seeded random set of shapes, and runs
 * the emitted code natively: the enter/exit functions, __bpf_tramp_enter/
 * exit, the BPF programs and the traced function are mocks that log what
 * they were called with, and the log is compared with a model of what stock
 * 6.1 trampolines do.  Every encoder is also cross-checked against objdump.
 *
 * Usage: tramp-conformance [-s seed] [-n random_shapes] [-k ktap_file] [-v]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "conf_arch.h"

int conf_env_quiet;
unsigned int conf_fail_nth;
bool conf_fail_injected;
long conf_live_allocs;
/* Shapes of the alloc_failures group: each allocation failed in turn. */
static bool inject_allocs;
static unsigned long allocs_failed;
static bool env_cfi, env_rethunk, env_sls;
static int verbose;

bool tramp_env_cfi_landing_pad(void)
{
	return env_cfi;
}

void *tramp_env_return_thunk(void)
{
	return env_rethunk ? (void *)conf_return_thunk : NULL;
}

bool tramp_env_sls(void)
{
	return env_sls;
}

/* ---- results ------------------------------------------------------------ */

static unsigned int n_pass, n_fail;

struct group {
	const char *name;
	unsigned int pass, fail;
};

/*
 * encoders, refusals, systematic, random and alloc_failures, in order;
 * then, built with stock 6.1's own generator (CONF_STOCK_ORACLE),
 * stock_oracle.
 */
#ifdef CONF_STOCK_ORACLE
#define NR_GROUPS	6
#else
#define NR_GROUPS	5
#endif

static struct group groups[NR_GROUPS];
static int nr_groups;
static struct group *grp;
/* -k: results are written as each group ends, so a crash leaves a plan
 * with results missing, which the summary reports. */
static FILE *ktap_file;
/* -x: exit at the first failed check (make mutants needs no more) */
static bool stop_at_first_failure;

static void group_end(void)
{
	if (!grp || !ktap_file)
		return;
	fprintf(ktap_file, "# %s: %u passed, %u failed\n%s %d %s\n",
		grp->name, grp->pass, grp->fail, grp->fail ? "not ok" : "ok",
		nr_groups, grp->name);
	fflush(ktap_file);
}

static void group_start(const char *name)
{
	group_end();
	if (nr_groups == NR_GROUPS) {
		fprintf(stderr, "more than %d groups\n", NR_GROUPS);
		exit(2);
	}
	grp = &groups[nr_groups++];
	grp->name = name;
}

static void result(bool ok)
{
	if (ok) {
		n_pass++;
		grp->pass++;
		return;
	}
	n_fail++;
	grp->fail++;
	if (stop_at_first_failure) {
		printf("%s: stopping at the first failure (-x)\n", grp->name);
		exit(1);
	}
}

/* Per-shape error text, printed with the shape when it fails. */
static char errbuf[8192];
static size_t errlen;

void errf(const char *fmt, ...)
{
	va_list ap;

	if (errlen >= sizeof(errbuf) - 1)
		return;
	va_start(ap, fmt);
	errlen += vsnprintf(errbuf + errlen, sizeof(errbuf) - errlen, fmt, ap);
	va_end(ap);
	if (errlen > sizeof(errbuf) - 1)
		errlen = sizeof(errbuf) - 1;
}

/* ---- shapes ------------------------------------------------------------- */

#define MAXP	BPF_MAX_TRAMP_LINKS

struct mprog {
	struct bpf_prog prog;
	struct bpf_tramp_link link;
	int type;		/* BPF_TRAMP_FENTRY/FEXIT/MODIFY_RETURN */
	u64 enter_ret;		/* what the mock enter returns (0: skip) */
	u64 ret;		/* what the program returns */
};

struct shape {
	u32 flags;
	int style;
	struct btf_func_model m;
	int nr_regs;
	struct mprog p[MAXP];	/* in execution order: fentry, fmod_ret, fexit */
	int np;
	bool cfi, rethunk, sls;
	unsigned int variant;	/* picks among the arch's ways to enter */
	u32 skew;		/* image start offset, exercises ALIGN */
	bool far;		/* run from the far region, if the arch has one */
	/*
	 * The traced function is JIT'd BPF code (a program or subprogram as
	 * fentry/fexit target): on a conf_ret2 architecture its body returns
	 * R0 in the second register and the C return register as that JIT's
	 * epilogue derives it (conf_orig_bpf).
	 */
	bool bpf_func;
	u64 args[CONF_MAX_ARGS], orig_ret, tcc;
	const void *func_addr;
	struct bpf_tramp_image *im;
};

static struct shape *cur;
static struct bpf_tramp_image cur_im;

/* ---- event log ---------------------------------------------------------- */

enum ev_type { EV_TENTER, EV_TEXIT, EV_ENTER, EV_PROG, EV_EXIT, EV_ORIG };

static const char *const ev_names[] = {
	"tramp_enter", "tramp_exit", "enter", "prog", "exit", "orig",
};

struct ev {
	u8 type;
	u8 kind;
	s16 prog;
	bool chk;	/* expected log only: compare v */
	u64 v;
};

#define MAXEV	(4 * MAXP + 16)
static struct ev evs[MAXEV], exp_evs[MAXEV];
static int nev, nexp;

static void log_ev(int type, int kind, int prog, u64 v)
{
	if (nev < MAXEV)
		evs[nev++] = (struct ev){ type, kind, prog, false, v };
}

static void exp_ev(int type, int kind, int prog, bool chk, u64 v)
{
	if (nexp < MAXEV)
		exp_evs[nexp++] = (struct ev){ type, kind, prog, chk, v };
}

/* ---- mocks: enter/exit, programs, traced function ----------------------- */

static struct bpf_run_ctx *current_run_ctx;	/* current->bpf_ctx */
const struct bpf_tramp_attach bpf_tramp_attach_permanent;
/* The links' attach states (some links have none: the permanent one). */
static struct bpf_tramp_attach mock_attach[MAXP];
/* Off while stock 6.1's generator, which stores no attach state, runs. */
static bool check_attach = true;
static struct bpf_tramp_run_ctx *enter_rc[MAXP];
static u64 *ctx_seen;

static struct mprog *mprog_of(const struct bpf_prog *p, const char *who)
{
	struct mprog *mp = (struct mprog *)p;

	if (mp < cur->p || mp >= cur->p + cur->np) {
		errf("%s: bogus prog pointer %p\n", who, (void *)p);
		return NULL;
	}
	return mp;
}

static u64 mock_enter(int kind, struct bpf_prog *p, struct bpf_tramp_run_ctx *rc)
{
	struct mprog *mp = mprog_of(p, "enter");
	const struct bpf_tramp_attach *want_attach;

	conf_clobber();
	if (!mp)
		return 0;
	log_ev(EV_ENTER, kind, p->idx, 0);
	if (rc->bpf_cookie != mp->link.cookie)
		errf("enter prog%d: run_ctx cookie %#llx, want %#llx\n", p->idx,
		     (unsigned long long)rc->bpf_cookie,
		     (unsigned long long)mp->link.cookie);
	want_attach = mp->link.attach ? mp->link.attach :
					&bpf_tramp_attach_permanent;
	if (check_attach && rc->attach != want_attach)
		errf("enter prog%d: run_ctx attach %p, want %p\n", p->idx,
		     (const void *)rc->attach, (const void *)want_attach);
	enter_rc[p->idx] = rc;
	rc->saved_run_ctx = current_run_ctx;
	current_run_ctx = &rc->run_ctx;
	return mp->enter_ret;
}

static void mock_exit(int kind, struct bpf_prog *p, u64 start,
		      struct bpf_tramp_run_ctx *rc)
{
	struct mprog *mp = mprog_of(p, "exit");

	conf_clobber();
	if (!mp)
		return;
	log_ev(EV_EXIT, kind, p->idx, start);
	if (start != mp->enter_ret)
		errf("exit prog%d: start %#llx, enter returned %#llx\n", p->idx,
		     (unsigned long long)start, (unsigned long long)mp->enter_ret);
	if (rc != enter_rc[p->idx])
		errf("exit prog%d: run_ctx %p, enter got %p\n", p->idx,
		     (void *)rc, (void *)enter_rc[p->idx]);
	if (current_run_ctx != &rc->run_ctx)
		errf("exit prog%d: run_ctx not current\n", p->idx);
	current_run_ctx = rc->saved_run_ctx;
}

#define KIND_MOCKS(k)							\
static u64 enter_##k(struct bpf_prog *p, struct bpf_tramp_run_ctx *rc)	\
{									\
	return mock_enter(k, p, rc);					\
}									\
static void exit_##k(struct bpf_prog *p, u64 s, struct bpf_tramp_run_ctx *rc) \
{									\
	mock_exit(k, p, s, rc);						\
}
KIND_MOCKS(0)
KIND_MOCKS(1)
KIND_MOCKS(2)
KIND_MOCKS(3)
KIND_MOCKS(4)

void *tramp_env_enter_fn(enum tramp_kind k)
{
	static void *const fns[] = { enter_0, enter_1, enter_2, enter_3, enter_4 };

	return fns[k];
}

void *tramp_env_exit_fn(enum tramp_kind k)
{
	static void *const fns[] = { exit_0, exit_1, exit_2, exit_3, exit_4 };

	return fns[k];
}

static void mock_tramp_enter(struct bpf_tramp_image *im)
{
	log_ev(EV_TENTER, 0, -1, 0);
	if (im != cur->im)
		errf("__bpf_tramp_enter(%p), want %p\n", (void *)im, (void *)cur->im);
}

static void mock_tramp_exit(struct bpf_tramp_image *im)
{
	log_ev(EV_TEXIT, 0, -1, 0);
	if (im != cur->im)
		errf("__bpf_tramp_exit(%p), want %p\n", (void *)im, (void *)cur->im);
}

bool conf_orig_bpf;

/* The IR asks whether the traced function is BPF code: the shape says. */
bool tramp_env_func_is_bpf(const void *func)
{
	return cur && cur->bpf_func && func && func == cur->func_addr;
}

void *tramp_env_tramp_enter_fn(void)
{
	return mock_tramp_enter;
}

void *tramp_env_tramp_exit_fn(void)
{
	return mock_tramp_exit;
}

/* A program: checks what it can read through ctx and its run context. */
static u64 mock_prog(int slot, u64 *ctx, const void *insnsi)
{
	struct mprog *mp;
	int i, n;

	conf_clobber();
	if (slot >= cur->np) {
		errf("program slot %d called, shape has %d\n", slot, cur->np);
		return 0;
	}
	mp = &cur->p[slot];
	n = cur->nr_regs;
	log_ev(EV_PROG, 0, slot, ctx[n]);
	for (i = 0; i < n; i++)
		if (ctx[i] != cur->args[i])
			errf("prog%d: ctx[%d] = %#llx, want %#llx\n", slot, i,
			     (unsigned long long)ctx[i],
			     (unsigned long long)cur->args[i]);
	/* bpf_get_func_arg_cnt() */
	if (ctx[-1] != (u64)n)
		errf("prog%d: ctx[-1] = %llu, want %d\n", slot,
		     (unsigned long long)ctx[-1], n);
	/* bpf_get_func_ip() */
	if ((cur->flags & BPF_TRAMP_F_IP_ARG) &&
	    ctx[-2] != (u64)(unsigned long)cur->func_addr)
		errf("prog%d: ctx[-2] = %#llx, want func %p\n", slot,
		     (unsigned long long)ctx[-2], cur->func_addr);
	if (!mp->prog.jited && insnsi != mp->prog.insnsi)
		errf("prog%d: insnsi %p, want %p\n", slot, insnsi,
		     mp->prog.insnsi);
	if (current_run_ctx != &enter_rc[slot]->run_ctx)
		errf("prog%d: run_ctx is not the one enter got\n", slot);
	else if (enter_rc[slot]->bpf_cookie != mp->link.cookie)
		errf("prog%d: bpf_get_attach_cookie() = %#llx, want %#llx\n",
		     slot, (unsigned long long)enter_rc[slot]->bpf_cookie,
		     (unsigned long long)mp->link.cookie);
	if (ctx_seen && ctx != ctx_seen)
		errf("prog%d: ctx %p, earlier programs got %p\n", slot,
		     (void *)ctx, (void *)ctx_seen);
	ctx_seen = ctx;
	return mp->ret;
}

/* One distinct function per program slot: the trampoline must call each. */
#define P1(i) static u64 prog_##i(u64 *c, const void *x) { return mock_prog(i, c, x); }
#define P10(t) P1(t##0) P1(t##1) P1(t##2) P1(t##3) P1(t##4) \
	       P1(t##5) P1(t##6) P1(t##7) P1(t##8) P1(t##9)
P1(0) P1(1) P1(2) P1(3) P1(4) P1(5) P1(6) P1(7) P1(8) P1(9)
P10(1) P10(2) P10(3)
#define F1(i) prog_##i,
#define F10(t) F1(t##0) F1(t##1) F1(t##2) F1(t##3) F1(t##4) \
	       F1(t##5) F1(t##6) F1(t##7) F1(t##8) F1(t##9)
static void *const prog_fns[40] = {
	F1(0) F1(1) F1(2) F1(3) F1(4) F1(5) F1(6) F1(7) F1(8) F1(9)
	F10(1) F10(2) F10(3)
};

/* The traced function's body, reached through conf_orig_asm. */
u64 conf_orig_c(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5, u64 a6,
		u64 a7);
u64 conf_orig_c(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5, u64 a6,
		u64 a7)
{
	u64 a[CONF_MAX_ARGS] = { a0, a1, a2, a3, a4, a5, a6, a7 };
	int i;

	log_ev(EV_ORIG, 0, -1, 0);
	for (i = 0; i < cur->nr_regs; i++)
		if (a[i] != cur->args[i])
			errf("orig: arg %d = %#llx, want %#llx\n", i,
			     (unsigned long long)a[i],
			     (unsigned long long)cur->args[i]);
	if ((cur->flags & BPF_TRAMP_F_TAIL_CALL_CTX) && conf_orig_tcc != cur->tcc)
		errf("orig: tail call counter %#llx, want %#llx\n",
		     (unsigned long long)conf_orig_tcc,
		     (unsigned long long)cur->tcc);
	return cur->orig_ret;
}

/*
 * Where a trampoline that ignores BPF_TRAMP_F_ORIG_STACK goes instead of
 * the body: for such shapes an architecture whose orig_body() derives the
 * body from func_addr enters through one call site and reports another,
 * whose body is this, as ftrace does when an ipmodify ops has moved where
 * the call returns.  The stacked return address leads to the real body.
 */
void conf_orig_decoy(void)
{
	log_ev(EV_ORIG, 0, -1, 0);
	errf("orig: the body after func_addr ran, not the stacked return "
	     "address (ORIG_STACK)\n");
}

/* ---- the model: what a stock 6.1 trampoline does ------------------------ */

/*
 * The model's copy of bpf_trampoline_enter()'s choice (generic code in
 * 6.1's kernel/bpf/trampoline.c); the stock oracle's calls go through it.
 */
int conf_stock_kind(const struct bpf_prog *p)
{
	if (p->check_recur)
		return p->sleepable ? TRAMP_KIND_SLEEPABLE_RECUR : TRAMP_KIND_RECUR;
	if (p->lsm_cgroup)
		return TRAMP_KIND_LSM_CGROUP;
	return p->sleepable ? TRAMP_KIND_SLEEPABLE : TRAMP_KIND_NORMAL;
}

/*
 * Builds the expected log; returns whether the return value is defined and
 * stores it in *ret.  retired: ip_after_call was patched to jump to the
 * epilogue, as bpf_tramp_image_put() does.
 */
static bool model(const struct shape *s, bool retired, u64 *retp)
{
	u32 f = s->flags;
	bool known = false, shorted = false, orig = f & BPF_TRAMP_F_CALL_ORIG;
	u64 ret = 0;
	int i, type;

	nexp = 0;
	if (orig)
		exp_ev(EV_TENTER, 0, -1, false, 0);
	for (type = 0; type < 3; type++) {
		/* execution order: fentry, fmod_ret, (original), fexit */
		static const int order[3] = {
			BPF_TRAMP_FENTRY, BPF_TRAMP_MODIFY_RETURN, BPF_TRAMP_FEXIT,
		};
		int t = order[type];

		if (t == BPF_TRAMP_MODIFY_RETURN) {
			for (i = 0; i < s->np; i++)
				if (s->p[i].type == t)
					break;
			if (i < s->np) {
				ret = 0;	/* cleared before the first one */
				known = true;
			}
		}
		if (t == BPF_TRAMP_FEXIT && orig && !shorted) {
			exp_ev(EV_ORIG, 0, -1, false, 0);
			ret = s->orig_ret;
			known = true;
			if (retired)
				break;	/* patched: jump straight to the epilogue */
		}
		for (i = 0; i < s->np; i++) {
			const struct mprog *mp = &s->p[i];
			int k = conf_stock_kind(&mp->prog);

			if (mp->type != t)
				continue;
			if (t == BPF_TRAMP_MODIFY_RETURN && shorted)
				break;
			exp_ev(EV_ENTER, k, i, false, 0);
			if (mp->enter_ret) {
				exp_ev(EV_PROG, 0, i, t != BPF_TRAMP_FENTRY && known, ret);
				if (t == BPF_TRAMP_MODIFY_RETURN ||
				    (f & BPF_TRAMP_F_RET_FENTRY_RET)) {
					ret = mp->ret;
					known = true;
				}
			}
			exp_ev(EV_EXIT, k, i, false, mp->enter_ret);
			if (t == BPF_TRAMP_MODIFY_RETURN && ret)
				shorted = true;
		}
	}
	if (orig)
		exp_ev(EV_TEXIT, 0, -1, false, 0);
	/* RESTORE_REGS at the function entry: the body runs after we return */
	if (s->style == STYLE_SITE && !(f & BPF_TRAMP_F_SKIP_FRAME)) {
		exp_ev(EV_ORIG, 0, -1, false, 0);
		ret = s->orig_ret;
		known = true;
	}
	/* flags 0: whatever is in RAX */
	if (!(f & (BPF_TRAMP_F_CALL_ORIG | BPF_TRAMP_F_RET_FENTRY_RET)) &&
	    s->style != STYLE_SITE)
		known = false;
	*retp = ret;
	return known;
}

/* ---- executable memory, crash recovery ---------------------------------- */

#define XMEM_SIZE	(64 * 1024)
#define IMAGE_MAX	4096
/* the region a shape runs from: xmem_near, or xmem_far for s->far */
static u8 *xmem, *xmem_near, *xmem_far;

static sigjmp_buf crash_jb;
static volatile int in_generated;

static void crash_handler(int sig)
{
	if (in_generated)
		siglongjmp(crash_jb, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Generated code that never returns fails its shape after WATCHDOG_MS; after
 * MAX_TIMEOUTS of those the remaining shapes fail without running, so a
 * broken backend ends the suite quickly instead of hanging it.
 */
#define WATCHDOG_MS	500
#define MAX_TIMEOUTS	10
static int n_timeouts;

static void watchdog(int ms)
{
	struct itimerval it = { .it_value = { ms / 1000, (ms % 1000) * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static void setup_signals(void)
{
	static u8 altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = crash_handler;
	sa.sa_flags = SA_ONSTACK | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
}

/* RWX memory within rel32 reach of the (non-PIE) harness text. */
u8 *conf_map_near(unsigned long hint)
{
	void *p = mmap((void *)hint, XMEM_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ---- printing a failure ------------------------------------------------- */

static void disassemble(const u8 *code, u32 len, unsigned long vma)
{
	char path[] = "/tmp/tramp-conf-XXXXXX", cmd[256];
	int fd = mkstemp(path);

	if (fd < 0)
		return;
	if (write(fd, code, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "%s --adjust-vma=%#lx %s | tail -n +8 >&2",
		 conf_objdump_args, vma, path);
	fflush(stdout);
	if (system(cmd))
		fprintf(stderr, "(objdump failed)\n");
	unlink(path);
}

static void print_shape(FILE *o, const struct shape *s)
{
	int i;

	fprintf(o, "shape: flags=%#x style=%d nr_args=%d sizes=", s->flags,
		s->style, s->m.nr_args);
	for (i = 0; i < s->m.nr_args; i++)
		fprintf(o, "%s%d%s", i ? "," : "", s->m.arg_size[i],
			s->m.arg_flags[i] & BTF_FMODEL_STRUCT_ARG ? "s" : "");
	fprintf(o, " nr_regs=%d cfi=%d rethunk=%d sls=%d skew=%u far=%d bpf_func=%d\n",
		s->nr_regs, s->cfi, s->rethunk, s->sls, s->skew,
		s->far && xmem_far, s->bpf_func);
	for (i = 0; i < s->np; i++) {
		const struct mprog *mp = &s->p[i];

		fprintf(o, "  prog%d %s sleepable=%d recur=%d lsm_cgroup=%d jited=%d enter=%#llx ret=%#llx cookie=%#llx\n",
			i, mp->type == BPF_TRAMP_FENTRY ? "fentry" :
			mp->type == BPF_TRAMP_FEXIT ? "fexit" : "fmod_ret",
			mp->prog.sleepable, mp->prog.check_recur,
			mp->prog.lsm_cgroup, mp->prog.jited,
			(unsigned long long)mp->enter_ret,
			(unsigned long long)mp->ret,
			(unsigned long long)mp->link.cookie);
	}
}

static void print_log(FILE *o, const char *what, const struct ev *e, int n)
{
	int i;

	fprintf(o, "%s:", what);
	for (i = 0; i < n; i++) {
		fprintf(o, " %s", ev_names[e[i].type]);
		if (e[i].type == EV_ENTER || e[i].type == EV_EXIT)
			fprintf(o, ".%s", tramp_kind_name(e[i].kind));
		if (e[i].prog >= 0)
			fprintf(o, "(%d)", e[i].prog);
	}
	fprintf(o, "\n");
}

static void report(const struct shape *s, struct tramp_ir *ir, const u8 *image,
		   int size, const char *what)
{
	static char irbuf[65536];

	fprintf(stderr, "FAIL %s\n", what);
	print_shape(stderr, s);
	if (ir->ops) {
		tramp_ir_print(ir, irbuf, sizeof(irbuf));
		fprintf(stderr, "%s", irbuf);
	}
	fprintf(stderr, "%s", errbuf);
	print_log(stderr, "expected", exp_evs, nexp);
	print_log(stderr, "actual  ", evs, nev);
	if (size > 0)
		disassemble(image, size, (unsigned long)image);
}

/* ---- running one shape -------------------------------------------------- */

static void links_of(struct shape *s, struct bpf_tramp_links *tl)
{
	int i;

	memset(tl, 0, sizeof(*tl) * BPF_TRAMP_MAX);
	for (i = 0; i < s->np; i++) {
		struct mprog *mp = &s->p[i];
		struct bpf_tramp_links *l = &tl[mp->type];

		mp->prog.idx = i;
		mp->prog.bpf_func = prog_fns[i];
		mp->prog.insnsi = (const void *)(0x1000UL + i);
		mp->link.link.prog = &mp->prog;
		mp->link.link.type = s->style == STYLE_STRUCT_OPS ?
				     BPF_LINK_TYPE_STRUCT_OPS : 0;
		l->links[l->nr_links++] = &mp->link;
	}
}

/* What exec_once() saw, per retired: the oracle compares two runs. */
struct run_log {
	struct ev evs[MAXEV], chk[MAXEV];	/* chk: the model's log */
	int nev;
	u64 ret;
	bool ret_known;
};
static struct run_log last[2];

static bool exec_once(struct shape *s, void *entry, bool retired)
{
	u64 sentinel[CONF_MAX_SAVED], out[CONF_MAX_SAVED + 3], ret, want, want_c;
	int ns = conf_nr_saved;
	bool ret_known;
	size_t errstart = errlen;
	int i, sig;

	nev = 0;
	ctx_seen = NULL;
	current_run_ctx = NULL;
	conf_orig_tcc = 0;
	conf_orig_bpf = s->bpf_func;
	conf_arch_saved_want(sentinel, s->tcc);
	conf_thunk_count = 0;
	memset(enter_rc, 0, sizeof(enter_rc));

	if (n_timeouts >= MAX_TIMEOUTS) {
		errf("not run: %d shapes already timed out\n", n_timeouts);
		return false;
	}
	in_generated = 1;
	sig = sigsetjmp(crash_jb, 1);
	if (sig) {
		in_generated = 0;
		watchdog(0);
		if (sig == SIGALRM && ++n_timeouts)
			errf("did not return within %d ms%s\n", WATCHDOG_MS,
			     retired ? " (retired)" : "");
		else
			errf("crashed with signal %d%s\n", sig,
			     retired ? " (retired)" : "");
		return false;
	}
	/* a watchdog: generated code that loops is a failure, not a hang */
	watchdog(WATCHDOG_MS);
	ret = conf_call(entry, s->args, s->tcc, out);
	watchdog(0);
	in_generated = 0;

	ret_known = model(s, retired, &want);
	if (nev != nexp)
		errf("%s: %d calls, want %d\n", retired ? "retired" : "run", nev, nexp);
	for (i = 0; i < nev && i < nexp; i++) {
		const struct ev *a = &evs[i], *e = &exp_evs[i];

		if (a->type != e->type || a->prog != e->prog ||
		    ((a->type == EV_ENTER || a->type == EV_EXIT) && a->kind != e->kind)) {
			errf("call %d: got %s(%d), want %s(%d)\n", i,
			     ev_names[a->type], a->prog, ev_names[e->type], e->prog);
			break;
		}
		if (e->chk && a->v != e->v)
			errf("call %d %s(%d): value %#llx, want %#llx\n", i,
			     ev_names[a->type], a->prog, (unsigned long long)a->v,
			     (unsigned long long)e->v);
	}
	for (i = 0; i < ns; i++)
		if (out[i] != sentinel[i])
			errf("%s not preserved: %#llx\n", conf_saved_names[i],
			     (unsigned long long)out[i]);
	if (out[ns] != out[ns + 1])
		errf("sp after return %#llx, before call %#llx\n",
		     (unsigned long long)out[ns], (unsigned long long)out[ns + 1]);
	/*
	 * A BPF function on a conf_ret2 architecture returns R0 to a BPF
	 * caller in the second register and, to a C caller, R0's low 32 bits
	 * sign-extended (riscv64 6.1's JIT epilogue: addiw a0, a5, 0): the
	 * trampoline must give both callers what the function itself would.
	 */
	want_c = conf_ret2 && s->bpf_func ? (u64)(s64)(s32)want : want;
	if (ret_known && ret != want_c)
		errf("returned %#llx, want %#llx\n", (unsigned long long)ret,
		     (unsigned long long)want_c);
	if (conf_ret2 && ret_known && s->bpf_func && out[ns + 2] != want)
		errf("returned %#llx to a BPF caller, want %#llx\n",
		     (unsigned long long)out[ns + 2], (unsigned long long)want);
	if (s->rethunk && conf_thunk_count != 1)
		errf("return thunk used %llu times\n",
		     (unsigned long long)conf_thunk_count);
	if (current_run_ctx)
		errf("run ctx not restored after the last exit\n");
	last[retired] = (struct run_log){ .nev = nev, .ret = ret,
					  .ret_known = ret_known };
	memcpy(last[retired].evs, evs, sizeof(evs[0]) * nev);
	memcpy(last[retired].chk, exp_evs, sizeof(exp_evs[0]) * nexp);
	return errlen == errstart;
}

/* Build, emit, check statically, run, and for CALL_ORIG run retired too. */
/*
 * Build the shape with its first allocation failing, then its second, and
 * so on until a build needs no more: every failed build must return
 * -ENOMEM and free what it had allocated.
 */
#define MAX_SHAPE_ALLOCS 64

static bool fail_each_alloc(struct shape *s, struct bpf_tramp_links *tl,
			    u8 *image)
{
	unsigned int n;
	long live;
	int ret;

	for (n = 1; n <= MAX_SHAPE_ALLOCS; n++) {
		live = conf_live_allocs;
		conf_fail_nth = n;
		conf_fail_injected = false;
		conf_env_quiet++;
		ret = tramp_ir_prepare(conf_target, s->im, image,
				       image + IMAGE_MAX, &s->m, s->flags, tl,
				       (void *)s->func_addr);
		conf_env_quiet--;
		conf_fail_nth = 0;
		if (conf_live_allocs != live) {
			errf("allocation %u failed: %ld allocations leaked\n",
			     n, conf_live_allocs - live);
			return false;
		}
		if (!conf_fail_injected) {
			if (ret <= 0) {
				errf("no allocation failed, yet the build "
				     "returned %d\n", ret);
				return false;
			}
			return true;
		}
		if (ret != -ENOMEM) {
			errf("allocation %u failed: the build returned %d, "
			     "want -ENOMEM\n", n, ret);
			return false;
		}
		allocs_failed++;
	}
	errf("more than %d allocations in one build\n", MAX_SHAPE_ALLOCS);
	return false;
}

/*
 * Set up the run of a shape: its links, the code that enters the
 * trampoline (the traced function or call site) and where the image goes.
 * Returns the entry conf_call() calls.
 */
static u8 *place_shape(struct shape *s, struct bpf_tramp_links *tl,
		       u8 **image)
{
	u8 *entry;

	errlen = 0;
	errbuf[0] = 0;
	nev = nexp = 0;
	cur = s;
	xmem = s->far && xmem_far ? xmem_far : xmem_near;
	s->skew &= ~(conf_code_align - 1);
	*image = xmem + 4096 + s->skew;
	env_cfi = s->cfi;
	env_rethunk = s->rethunk;
	env_sls = s->sls;
	links_of(s, tl);

	conf_arch_protect(xmem, XMEM_SIZE, false);
	entry = conf_arch_entry(s->style, xmem, *image, s->cfi,
				s->variant |
				(s->bpf_func ? CONF_ENTRY_BPF_SITE : 0) |
				(s->flags & BPF_TRAMP_F_ORIG_STACK ?
				 CONF_ENTRY_ORIG_STACK : 0),
				&s->func_addr);
	memset(&cur_im, 0, sizeof(cur_im));
	s->im = s->style == STYLE_STRUCT_OPS ? NULL : &cur_im;
	return entry;
}

/* Run an emitted image, and for CALL_ORIG run it retired too. */
static bool run_image(struct shape *s, u8 *entry, bool cfi)
{
	bool ok;

	__builtin___clear_cache((char *)xmem, (char *)xmem + XMEM_SIZE);
	conf_arch_protect(xmem, XMEM_SIZE, cfi);
	ok = exec_once(s, entry, false);
	/* bpf_tramp_image_put(): ip_after_call becomes "jmp ip_epilogue" */
	if (ok && (s->flags & BPF_TRAMP_F_CALL_ORIG)) {
		conf_arch_protect(xmem, XMEM_SIZE, false);
		conf_arch_retire(cur_im.ip_after_call, cur_im.ip_epilogue);
		__builtin___clear_cache((char *)xmem, (char *)xmem + XMEM_SIZE);
		conf_arch_protect(xmem, XMEM_SIZE, cfi);
		ok = exec_once(s, entry, true);
	}
	return ok;
}

static bool run_shape(struct shape *s)
{
	struct bpf_tramp_links tl[BPF_TRAMP_MAX];
	u8 *image, *entry;
	u8 copy[IMAGE_MAX];
	struct tramp_ir ir;
	int err, size, n;
	bool ok = true;

	entry = place_shape(s, tl, &image);

	if (inject_allocs && !fail_each_alloc(s, tl, image)) {
		print_shape(stderr, s);
		fputs(errbuf, stderr);
		return false;
	}
	memset(xmem + 4096, 0xcc, IMAGE_MAX + 64);
	err = tramp_ir_build(&ir, conf_target, s->im, &s->m, s->flags, tl,
			     (void *)s->func_addr);
	if (err) {
		errf("tramp_ir_build: %d\n", err);
		report(s, &ir, image, 0, "build");
		return false;
	}
	size = tramp_ir_emit(&ir, image, image + IMAGE_MAX);
	if (size <= 0) {
		errf("tramp_ir_emit: %d\n", size);
		report(s, &ir, image, 0, "emit");
		tramp_ir_free(&ir);
		return false;
	}
	if (verbose > 1) {
		static char irbuf[65536];

		print_shape(stdout, s);
		tramp_ir_print(&ir, irbuf, sizeof(irbuf));
		fputs(irbuf, stdout);
	}

	/* the kernel entry point must produce the very same bytes */
	memcpy(copy, image, size);
	n = tramp_ir_prepare(conf_target, s->im, image, image + IMAGE_MAX,
			     &s->m, s->flags, tl, (void *)s->func_addr);
	if (n != size || memcmp(copy, image, size))
		errf("tramp_ir_prepare: %d bytes or content differ from %d\n", n, size);

	if ((s->flags & BPF_TRAMP_F_CALL_ORIG) &&
	    (cur_im.ip_after_call != image + ir.label_off[TRAMP_LABEL_AFTER_CALL] ||
	     cur_im.ip_epilogue != image + ir.label_off[TRAMP_LABEL_EPILOGUE]))
		errf("ip_after_call/ip_epilogue not published\n");
	conf_arch_check(&ir, image, s->flags, s->nr_regs, s->cfi,
			s->flags & BPF_TRAMP_F_CALL_ORIG ? cur_im.ip_after_call : NULL);
	ok = errlen == 0 && run_image(s, entry, s->cfi);
	if (!ok)
		report(s, &ir, image, size, "run");
	tramp_ir_free(&ir);
	return ok;
}

#ifdef CONF_STOCK_ORACLE
/*
 * The second oracle: stock 6.1's own arch_prepare_bpf_trampoline(), cut
 * out of the pristine tree (stock_extract.py), builds the same shape,
 * which runs the same way and is checked against the same model; then
 * the two runs must agree call for call: which mock, of which kind, for
 * which program, with the value the model defines (a program's return
 * slot) or passes on (the start time exit gets), and the value returned
 * where it is defined.
 */
static bool same_log(const struct run_log *ir, const struct run_log *st,
		     const char *what)
{
	int i;

	if (ir->nev != st->nev) {
		errf("%s: the IR's trampoline made %d calls, stock's %d\n",
		     what, ir->nev, st->nev);
		return false;
	}
	for (i = 0; i < ir->nev; i++) {
		const struct ev *a = &ir->evs[i], *b = &st->evs[i];
		bool valued = b->type == EV_EXIT ||
			      (b->type == EV_PROG && st->chk[i].chk);

		if (a->type != b->type || a->kind != b->kind ||
		    a->prog != b->prog || (valued && a->v != b->v)) {
			errf("%s: call %d: IR %s(%d) %#llx, stock %s(%d) %#llx\n",
			     what, i, ev_names[a->type], a->prog,
			     (unsigned long long)a->v, ev_names[b->type],
			     b->prog, (unsigned long long)b->v);
			return false;
		}
	}
	if (ir->ret_known && ir->ret != st->ret) {
		errf("%s: the IR's trampoline returned %#llx, stock's %#llx\n",
		     what, (unsigned long long)ir->ret,
		     (unsigned long long)st->ret);
		return false;
	}
	return true;
}

/* The intended differences met, by reason (conf_stock_differs()). */
#define MAX_DIFFERENCES 4
static struct {
	const char *reason;
	unsigned int shapes;
} differences[MAX_DIFFERENCES];

static void count_difference(const char *reason)
{
	int i;

	for (i = 0; i < MAX_DIFFERENCES && differences[i].reason; i++)
		if (differences[i].reason == reason)
			break;
	if (i == MAX_DIFFERENCES)
		return;
	differences[i].reason = reason;
	differences[i].shapes++;
}

static bool calls_orig(const struct run_log *r)
{
	int i;

	for (i = 0; i < r->nev; i++)
		if (r->evs[i].type == EV_ORIG)
			return true;
	return false;
}

/*
 * A shape whose difference is intended must still differ where it can
 * show (the listed ones are all about calling the original): stock's
 * run fails its checks or disagrees with the IR's.  One that agrees
 * although the original ran means the listed reason no longer holds, and
 * fails.
 */
static bool run_oracle(struct shape *s)
{
	struct bpf_tramp_links tl[BPF_TRAMP_MAX];
	static struct run_log ir[2];
	const char *differs = conf_stock_differs(s->flags, s->style);
	u8 *image, *entry;
	bool ok = false;
	int size;

	if (!run_shape(s))
		return false;
	memcpy(ir, last, sizeof(ir));
	entry = place_shape(s, tl, &image);
	memset(xmem + 4096, 0xcc, IMAGE_MAX + 64);
	check_attach = false;
	size = stock_arch_prepare_bpf_trampoline(s->im, image,
						 image + IMAGE_MAX, &s->m,
						 s->flags, tl,
						 (void *)s->func_addr);
	if (size <= 0)
		errf("stock 6.1 refused the shape (%d), the IR built it\n",
		     size);
	else
		ok = run_image(s, entry, s->cfi) &&
		     same_log(&ir[0], &last[0], "run") &&
		     (!(s->flags & BPF_TRAMP_F_CALL_ORIG) ||
		      same_log(&ir[1], &last[1], "retired"));
	check_attach = true;
	if (differs && !ok) {
		count_difference(differs);
		return true;
	}
	if (differs && calls_orig(&ir[0]))
		errf("listed as an intended difference, yet stock agrees: %s\n",
		     differs);
	ok = ok && !(differs && calls_orig(&ir[0]));
	if (!ok) {
		fprintf(stderr, "FAIL stock oracle\n");
		print_shape(stderr, s);
		fputs(errbuf, stderr);
		print_log(stderr, "IR   ", ir[0].evs, ir[0].nev);
		print_log(stderr, "stock", evs, nev);
		if (size > 0)
			disassemble(image, size, (unsigned long)image);
	}
	return ok;
}
#endif

/* ---- shape generation --------------------------------------------------- */

static u64 rng_state;

static u64 rnd(void)
{
	/* xorshift64*: reproducible from the seed on any libc */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static u32 rndn(u32 n)
{
	return (u32)(rnd() % n);
}

static void set_args(struct shape *s, const char *pat)
{
	int n = 0, regs = 0;

	memset(&s->m, 0, sizeof(s->m));
	while (*pat) {
		int sz = (int)strtol(pat, (char **)&pat, 10);

		if (*pat == 's') {
			s->m.arg_flags[n] = BTF_FMODEL_STRUCT_ARG;
			pat++;
		}
		s->m.arg_size[n++] = sz;
		regs += (sz + 7) / 8;
		while (*pat == ' ')
			pat++;
	}
	s->m.nr_args = n;
	s->m.ret_size = 8;
	s->nr_regs = regs;
}

/* Program properties from an index: all five enter/exit kinds, jited or not. */
static void set_prog(struct mprog *mp, int type, u32 sel, u32 id)
{
	static const u64 enter_vals[] = { 0x100000 + 7, 1, 0, 0x12345678abcdULL };

	memset(mp, 0, sizeof(*mp));
	mp->type = type;
	switch (sel % 5) {
	case 0:
		break;
	case 1:
		mp->prog.sleepable = true;
		break;
	case 2:
		mp->prog.check_recur = true;
		break;
	case 3:
		mp->prog.check_recur = true;
		mp->prog.sleepable = true;
		break;
	case 4:
		mp->prog.lsm_cgroup = true;
		break;
	}
	mp->prog.jited = (sel / 5) % 2 == 0;
	mp->enter_ret = enter_vals[(sel / 10 + id) % 4] + ((u64)id << 32);
	/* every fourth shares one value: a backend's literal pool holds it once */
	mp->link.cookie = sel % 4 == 3 ? 0xc00c00000000c00cULL :
			  0xc00c000000000000ULL ^ ((u64)id << 20) ^ sel;
	mp->link.attach = (sel + id) % 3 == 2 ? NULL : &mock_attach[id];
	if (type == BPF_TRAMP_MODIFY_RETURN)
		mp->ret = (sel + id) % 3 == 0 ? 0x2a + id : 0;
	else
		mp->ret = 0xbeef0000ULL + id;
}

static void add_progs(struct shape *s, int type, int n, u32 sel)
{
	int i;

	for (i = 0; i < n && s->np < MAXP; i++) {
		set_prog(&s->p[s->np], type, sel + i * 7, s->np);
		s->np++;
	}
}

static void fill_values(struct shape *s, u32 id)
{
	int i;

	for (i = 0; i < CONF_MAX_ARGS; i++)
		s->args[i] = 0xa000000000000000ULL | ((u64)id << 16) | (i + 1);
	s->orig_ret = 0x0123456789000000ULL | id;
	s->tcc = 0x7cc0 + (id & 0xff);
}

struct flagset {
	u32 flags;
	int style;
	int min_fentry, max_fentry, callorig;
};

static int nr_flagsets;
static struct flagset flagsets[64];

/*
 * The flag combinations 6.1 produces: kernel/bpf/trampoline.c (function
 * entry; RESTORE_REGS without fexit/fmod_ret, CALL_ORIG|SKIP_FRAME with, plus
 * IP_ARG, TAIL_CALL_CTX, SHARE_IPMODIFY and then ORIG_STACK), struct_ops
 * (0 or RET_FENTRY_RET, one program), and the call-site uses bpf.h
 * describes (0 or CALL_ORIG, called instead of the function).
 */
static void make_flagsets(void)
{
	u32 opt;

	for (opt = 0; opt < 8; opt++) {
		u32 extra = (opt & 1 ? BPF_TRAMP_F_IP_ARG : 0) |
			    (opt & 2 ? BPF_TRAMP_F_TAIL_CALL_CTX : 0);

		flagsets[nr_flagsets++] = (struct flagset){
			BPF_TRAMP_F_RESTORE_REGS | extra |
			(opt & 4 ? BPF_TRAMP_F_SHARE_IPMODIFY : 0),
			STYLE_SITE, 1, 3, 0 };
		flagsets[nr_flagsets++] = (struct flagset){
			BPF_TRAMP_F_CALL_ORIG | BPF_TRAMP_F_SKIP_FRAME | extra |
			(opt & 4 ? BPF_TRAMP_F_SHARE_IPMODIFY |
				   BPF_TRAMP_F_ORIG_STACK : 0),
			STYLE_SITE, 0, 2, 1 };
	}
	flagsets[nr_flagsets++] = (struct flagset){ 0, STYLE_STRUCT_OPS, 1, 1, 0 };
	flagsets[nr_flagsets++] = (struct flagset){ BPF_TRAMP_F_RET_FENTRY_RET,
						    STYLE_STRUCT_OPS, 1, 1, 0 };
	flagsets[nr_flagsets++] = (struct flagset){ 0, STYLE_DIRECT, 1, 3, 0 };
	flagsets[nr_flagsets++] = (struct flagset){ BPF_TRAMP_F_CALL_ORIG,
						    STYLE_DIRECT, 0, 2, 1 };
	flagsets[nr_flagsets++] = (struct flagset){ BPF_TRAMP_F_CALL_ORIG |
						    BPF_TRAMP_F_IP_ARG,
						    STYLE_DIRECT, 0, 2, 1 };
}

static void finish_shape(struct shape *s, u32 id)
{
	int i;

	fill_values(s, id);
	s->variant = id;
	/* no return thunk or SLS outside x86: draw them, then drop them */
	if (!conf_has_rethunk)
		s->rethunk = s->sls = false;
	/* the counter's register is also an argument's: one value for both */
	if (conf_tcc_arg >= 0 && s->nr_regs > conf_tcc_arg)
		s->tcc = s->args[conf_tcc_arg];
	/* struct_ops programs use the plain pair: enter never returns 0 */
	if (s->style == STYLE_STRUCT_OPS) {
		for (i = 0; i < s->np; i++) {
			s->p[i].prog.check_recur = false;
			s->p[i].prog.lsm_cgroup = false;
			s->p[i].prog.sleepable = false;
			if (!s->p[i].enter_ret)
				s->p[i].enter_ret = 1;
		}
	}
}

/* Every shape of the systematic space, run by @run, in group @group. */
static void systematic(const char *group, bool (*run)(struct shape *))
{
	u32 id = 0, fs, a, ne, nm, nx;

	if (group)
		group_start(group);
	for (fs = 0; fs < (u32)nr_flagsets; fs++) {
		const struct flagset *f = &flagsets[fs];

		for (a = 0; a < 16; a++) {
			for (ne = f->min_fentry; ne <= (u32)f->max_fentry; ne++) {
				for (nm = 0; nm <= (f->callorig ? 2U : 0U); nm++) {
					for (nx = 0; nx <= (f->callorig ? 2U : 0U); nx++) {
						static struct shape s;

						/* fexit/fmod_ret at function entry */
						if (f->style == STYLE_SITE && f->callorig &&
						    !nm && !nx)
							continue;
						memset(&s, 0, sizeof(s));
						s.flags = f->flags;
						s.style = f->style;
						set_args(&s, conf_arg_patterns[a]);
						add_progs(&s, BPF_TRAMP_FENTRY, ne, id);
						add_progs(&s, BPF_TRAMP_MODIFY_RETURN, nm, id + 1);
						add_progs(&s, BPF_TRAMP_FEXIT, nx, id + 2);
						s.cfi = id & 1;
						s.rethunk = (id >> 1) % 3 == 0;
						s.sls = (id >> 2) & 1;
						s.skew = (id * 5) % 16;
						s.far = id % 3 == 1;
						s.bpf_func = f->style != STYLE_STRUCT_OPS &&
							     (id / 7) % 2;
						finish_shape(&s, id);
						result(run(&s));
						id++;
					}
				}
			}
		}
	}
}

static void random_shapes(const char *group, unsigned int count,
			  bool (*run)(struct shape *))
{
	static const u8 sizes[] = { 1, 2, 4, 8, 16 };
	u32 nsizes = conf_target->struct_args ? 5 : 4;
	int maxregs = conf_target->max_reg_args;
	unsigned int i;

	if (group)
		group_start(group);
	for (i = 0; i < count; i++) {
		const struct flagset *f = &flagsets[rndn(nr_flagsets)];
		static struct shape s;
		int regs = 0, ne, nm = 0, nx = 0, big = rndn(16) == 0;

		memset(&s, 0, sizeof(s));
		s.flags = f->flags;
		s.style = f->style;
		while (s.m.nr_args < MAX_BPF_FUNC_ARGS && rndn(4)) {
			u8 sz = sizes[rndn(nsizes)];

			if (regs + (sz + 7) / 8 > maxregs)
				break;
			if ((sz == 16 || rndn(4) == 0) && conf_target->struct_args)
				s.m.arg_flags[s.m.nr_args] = BTF_FMODEL_STRUCT_ARG;
			s.m.arg_size[s.m.nr_args++] = sz;
			regs += (sz + 7) / 8;
		}
		s.nr_regs = regs;
		s.m.ret_size = 8;
		ne = f->min_fentry + rndn(f->max_fentry - f->min_fentry + 1 +
					  (f->max_fentry > 1 ? 3 : 0));
		if (f->callorig) {
			nm = rndn(big ? 14 : 5);
			nx = rndn(big ? 14 : 5);
			if (f->style == STYLE_SITE && !nm && !nx)
				nx = 1;
		}
		if (f->style == STYLE_STRUCT_OPS)
			ne = 1;
		add_progs(&s, BPF_TRAMP_FENTRY, ne, (u32)rnd());
		add_progs(&s, BPF_TRAMP_MODIFY_RETURN, nm, (u32)rnd());
		add_progs(&s, BPF_TRAMP_FEXIT, nx, (u32)rnd());
		s.cfi = rndn(2);
		s.rethunk = rndn(3) == 0;
		s.sls = rndn(2);
		s.skew = rndn(64);
		s.far = rndn(2);
		s.bpf_func = f->style != STYLE_STRUCT_OPS && rndn(2);
		finish_shape(&s, 100000 + i);
		result(run(&s));
	}
}

/* ---- refusals: the errors stock 6.1 returns, two-pass check ------------- */

static int try_build(const struct tramp_target *t, struct shape *s, long cap)
{
	struct bpf_tramp_links tl[BPF_TRAMP_MAX];
	u8 *image = xmem + 4096;

	cur = s;
	links_of(s, tl);
	return tramp_ir_prepare(t, &cur_im, image, image + cap, &s->m, s->flags,
				tl, (void *)conf_orig_asm);
}

static void expect_err(const char *what, int got, int want)
{
	bool ok = got == want;

	if (!ok || verbose)
		printf("%s refusal %s: got %d, want %d\n", ok ? "ok  " : "FAIL",
		       what, got, want);
	result(ok);
}

/* Backend that changes a hook's size between passes: must be caught. */
static int bad_store_ret(struct tramp_ctx *c, const struct tramp_op *op)
{
	int err = conf_arch_store_ret(c, op);

	if (!err && c->pass == 1) {
		u8 b[16];

		tramp_put(c, b, conf_arch_nop(b));
	}
	return err;
}

static void refusals(void)
{
	static const char *const too_many_x86[] = {
		"8 8 8 8 8 8 8", "16s 16s 16s 8", "16s 16s 16s 16s",
		"1 1 1 1 1 1 1 1 1 1 1 1", "4 4 4 4 4 16s",
	};
	/* no struct arguments at all (stock arm64) */
	static const char *const too_many_nostruct[] = {
		"8 8 8 8 8 8 8 8 8", "8s", "4 8 2s", "16s",
		"1 1 1 1 1 1 1 1 1 1 1 1",
	};
	const char *const *too_many = conf_target->struct_args ?
				      too_many_x86 : too_many_nostruct;
	const struct tramp_target *t = conf_target;
	static struct shape s;
	struct tramp_target bad;
	int i, size;

	group_start("refusals");
	conf_env_quiet = 1;
	env_cfi = env_rethunk = env_sls = false;
	for (i = 0; i < 5; i++) {
		memset(&s, 0, sizeof(s));
		s.flags = BPF_TRAMP_F_CALL_ORIG | BPF_TRAMP_F_SKIP_FRAME;
		set_args(&s, too_many[i]);
		add_progs(&s, BPF_TRAMP_FEXIT, 1, 0);
		expect_err(too_many[i], try_build(t, &s, IMAGE_MAX),
			   -ENOTSUPP);
	}

	memset(&s, 0, sizeof(s));
	s.flags = BPF_TRAMP_F_RESTORE_REGS;
	set_args(&s, "24s");
	add_progs(&s, BPF_TRAMP_FENTRY, 1, 0);
	expect_err("24-byte struct", try_build(t, &s, IMAGE_MAX),
		   -ENOTSUPP);
	set_args(&s, "8 0");
	expect_err("0-byte argument", try_build(t, &s, IMAGE_MAX),
		   -EINVAL);
	set_args(&s, "8 8");
	s.flags = BPF_TRAMP_F_RESTORE_REGS | (1U << 8);
	expect_err("unknown flag", try_build(t, &s, IMAGE_MAX),
		   -EINVAL);
	s.flags = BPF_TRAMP_F_RESTORE_REGS;
	add_progs(&s, BPF_TRAMP_FEXIT, 1, 0);
	expect_err("fexit without CALL_ORIG",
		   try_build(t, &s, IMAGE_MAX), -EINVAL);

	/* 39 links in one list */
	memset(&s, 0, sizeof(s));
	s.flags = BPF_TRAMP_F_RESTORE_REGS;
	set_args(&s, "8");
	add_progs(&s, BPF_TRAMP_FENTRY, MAXP, 0);
	{
		struct bpf_tramp_links tl[BPF_TRAMP_MAX];

		cur = &s;
		links_of(&s, tl);
		tl[0].nr_links = BPF_MAX_TRAMP_LINKS + 1;
		expect_err("39 links",
			   tramp_ir_prepare(t, &cur_im, xmem + 4096,
					    xmem + 4096 + IMAGE_MAX, &s.m, s.flags,
					    tl, (void *)conf_orig_asm), -EINVAL);
	}

	/* image space: stock wants BPF_INSN_SAFETY bytes spare at the end */
	memset(&s, 0, sizeof(s));
	s.flags = BPF_TRAMP_F_CALL_ORIG | BPF_TRAMP_F_SKIP_FRAME;
	set_args(&s, "8 8");
	add_progs(&s, BPF_TRAMP_FENTRY, 2, 0);
	add_progs(&s, BPF_TRAMP_FEXIT, 2, 0);
	size = try_build(t, &s, IMAGE_MAX);
	expect_err("image exactly large enough",
		   try_build(t, &s, size + t->tail_reserve), size);
	expect_err("image one byte short",
		   try_build(t, &s, size + t->tail_reserve - 1),
		   t->image_full_err);

	/* the stub backend supports nothing */
	expect_err("stub backend", try_build(&tramp_target_stub, &s, IMAGE_MAX),
		   -ENOTSUPP);

	/* a backend whose passes disagree is refused loudly */
	bad = *t;
	bad.op[TRAMP_OP_STORE_RET] = bad_store_ret;
	expect_err("two passes disagree", try_build(&bad, &s, IMAGE_MAX), -EFAULT);
	bad = *t;
	bad.op[TRAMP_OP_PATCH_SITE] = NULL;
	expect_err("missing hook", try_build(&bad, &s, IMAGE_MAX), -ENOTSUPP);

	/* a struct flag past nr_args: stock arm64 looks at all of them */
	if (!t->struct_args) {
		set_args(&s, "8 8");
		s.m.arg_flags[MAX_BPF_FUNC_ARGS - 1] = BTF_FMODEL_STRUCT_ARG;
		expect_err("struct flag past nr_args", try_build(t, &s, IMAGE_MAX),
			   -ENOTSUPP);
		set_args(&s, "8 8");
	}

	/* architecture specific ones */
	{
		struct bpf_tramp_links tl[BPF_TRAMP_MAX];

		cur = &s;
		links_of(&s, tl);
		conf_arch_refusals(&cur_im, tl, &s.m, s.flags, expect_err);
	}
	conf_env_quiet = 0;
}

/* ---- encoders vs objdump ------------------------------------------------ */

struct enc_case {
	u32 off, len;
	char want[96];
};

static struct enc_case cases[MAX_CASES];
static int nr_cases;
u8 encbuf[MAX_CASES * 16];
u32 enclen;

void add_case(int len, const char *fmt, ...)
{
	struct enc_case *c = &cases[nr_cases++];
	va_list ap;

	c->off = enclen;
	c->len = len;
	va_start(ap, fmt);
	vsnprintf(c->want, sizeof(c->want), fmt, ap);
	va_end(ap);
	enclen += len;
}

/* Collapse whitespace runs to one space, drop objdump's comment, trim. */
static void squeeze(char *s)
{
	size_t cl = strlen(conf_objdump_comment);
	char *d = s, *q = s;
	bool sp = false;

	while (*q == ' ' || *q == '\t')
		q++;
	for (; *q && *q != '\n' && strncmp(q, conf_objdump_comment, cl); q++) {
		if (*q == ' ' || *q == '\t') {
			sp = true;
			continue;
		}
		if (sp && d != s)
			*d++ = ' ';
		sp = false;
		*d++ = *q;
	}
	*d = 0;
}

static void encoders(void)
{
	char path[] = "/tmp/tramp-enc-XXXXXX", cmd[256], line[512];
	static char *got[MAX_CASES * 16];
	FILE *f;
	int fd, i, bad = 0;

	group_start("encoders_vs_objdump");
	conf_arch_encoder_cases();
	fd = mkstemp(path);
	if (fd < 0 || write(fd, encbuf, enclen) != (ssize_t)enclen) {
		printf("FAIL cannot write %s\n", path);
		result(false);
		return;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "%s %s", conf_objdump_args, path);
	f = popen(cmd, "r");
	if (!f) {
		printf("FAIL cannot run objdump\n");
		result(false);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int off;
		char *t1, *t2;

		if (sscanf(line, " %x:", &off) != 1 || off >= enclen)
			continue;
		t1 = strchr(line, '\t');
		t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		if (!t2)
			continue;	/* continuation of a long instruction */
		squeeze(t2);
		got[off] = strdup(t2);
	}
	pclose(f);
	unlink(path);
	for (i = 0; i < nr_cases; i++) {
		struct enc_case *c = &cases[i];
		char want[96];
		bool ok;

		strcpy(want, c->want);
		squeeze(want);
		ok = got[c->off] && !strcmp(got[c->off], want);
		/* the next instruction must start where this one ends */
		if (ok && i + 1 < nr_cases && !got[c->off + c->len])
			ok = false;
		if (!ok && bad++ < 20) {
			printf("FAIL encoder: want \"%s\", objdump \"%s\", bytes", want,
			       got[c->off] ? got[c->off] : "(no instruction here)");
			{
				u32 k;

				for (k = 0; k < c->len; k++)
					printf(" %02x", encbuf[c->off + k]);
			}
			printf("\n");
		}
		result(ok);
	}
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
	unsigned long seed = 1;
	unsigned int nrand = 3000;
	const char *ktap = NULL;
	unsigned long hint;
	int opt, i, fails;

	while ((opt = getopt(argc, argv, "s:n:k:xvh")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			nrand = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			ktap = optarg;
			break;
		case 'x':
			stop_at_first_failure = true;
			break;
		case 'v':
			verbose++;
			break;
		default:
			fprintf(stderr, "usage: %s [-s seed] [-n random_shapes] [-k ktap_file] [-x] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	if (ktap) {
		ktap_file = fopen(ktap, "w");
		if (!ktap_file) {
			perror(ktap);
			return 2;
		}
		fprintf(ktap_file, "KTAP version 1\n1..%d\n", NR_GROUPS);
		fflush(ktap_file);
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* near the non-PIE text so that rel32 calls reach the mocks */
	for (hint = 0x1000000UL; hint < 0x70000000UL && !xmem; hint += 0x1000000UL)
		xmem = conf_map_near(hint);
	if (!xmem) {
		fprintf(stderr, "cannot map executable memory near the harness\n");
		return 2;
	}
	xmem_near = xmem;
	if (conf_far_hint) {
		xmem_far = conf_map_near(conf_far_hint);
		if (!xmem_far) {
			fprintf(stderr, "cannot map executable memory at %#lx\n",
				conf_far_hint);
			return 2;
		}
	}
	setup_signals();
	make_flagsets();

	encoders();
	refusals();
	systematic("systematic_shapes", run_shape);
	random_shapes("random_shapes", nrand, run_shape);
	/* After the others, so that their shapes stay the same. */
	inject_allocs = true;
	random_shapes("alloc_failures", nrand / 6, run_shape);
	inject_allocs = false;
	printf("alloc_failures: %lu allocations failed in turn, each "
	       "-ENOMEM with nothing leaked\n", allocs_failed);
#ifdef CONF_STOCK_ORACLE
	group_start("stock_oracle");
	systematic(NULL, run_oracle);
	random_shapes(NULL, nrand, run_oracle);
	for (i = 0; i < MAX_DIFFERENCES && differences[i].reason; i++) {
		printf("stock_oracle: %u shapes differ as intended: %s\n",
		       differences[i].shapes, differences[i].reason);
		if (ktap_file)
			fprintf(ktap_file, "# intended difference, %u shapes: "
				"%s\n", differences[i].shapes,
				differences[i].reason);
	}
#endif

	for (i = 0; i < nr_groups; i++)
		printf("%-22s %u passed, %u failed\n", groups[i].name,
		       groups[i].pass, groups[i].fail);
	printf("seed %lu; shapes run: %u systematic, %u random\n", seed,
	       groups[2].pass + groups[2].fail, groups[3].pass + groups[3].fail);
	group_end();
	if (ktap_file) {
		fprintf(ktap_file, "# %u passed, %u failed\n", n_pass, n_fail);
		/* kselftest's closing line, counting groups like the results */
		for (i = 0, fails = 0; i < nr_groups; i++)
			fails += groups[i].fail != 0;
		fprintf(ktap_file, "# Totals: pass:%d fail:%d xfail:0 xpass:0 "
			"skip:0 error:0\n", nr_groups - fails, fails);
		fclose(ktap_file);
	}
	printf("%u passed, %u failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
