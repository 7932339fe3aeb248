// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf-glue's cases: the syscall entry names it resolves, one BPF source
 * reading a syscall's arguments on every architecture (progs/glue.bpf.c,
 * through glue.bpf.h), its attach probe against real attaches on the same
 * kernel, and a tool's fallback to a kprobe where fentry does not attach.
 */
#include "sleeptest.h"
#include <bpf/btf.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "glue.h"
#include "progs/glue_args.h"
#include "glue.skel.h"

/* The syscalls the suite attaches to, one with six arguments, one with
 * none (x86_64's __x64_sys_getppid is an alias neither BTF nor ftrace
 * knows; its body is __do_sys_getppid).
 */
static const struct {
	const char *name;
	int nargs;
} known_syscalls[] = {
	{ "getpgid", 1 },
	{ "getsid", 1 },
	{ "setdomainname", 2 },
	{ "mmap", 6 },
	{ "getppid", 0 },
};

#define NR_KNOWN (sizeof(known_syscalls) / sizeof(known_syscalls[0]))

/* fn as a line of available_filter_functions ("fn" or "fn [module]"). */
static int ftrace_lists(FILE *f, const char *fn)
{
	size_t n = strlen(fn);
	char line[256];

	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, fn, n) &&
		    (line[n] == '\n' || line[n] == ' ' || !line[n]))
			return 1;
	return 0;
}

/* fn as a text symbol of the kernel proper in /proc/kallsyms. */
static int kallsyms_text(FILE *f, const char *fn)
{
	char line[512], name[256], tag[80];
	unsigned long long addr;
	char type;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		tag[0] = 0;
		if (sscanf(line, "%llx %c %255s %79s", &addr, &type, name,
			   tag) >= 3 && !tag[0] && (type == 't' || type == 'T') &&
		    !strcmp(name, fn))
			return 1;
	}
	return 0;
}

/*
 * Each name resolves from BTF to a function the kernel really has: a
 * BTF_KIND_FUNC (the id the suite's own lookup through the kernel's BTF
 * objects finds too), a text symbol, a function ftrace can patch; it
 * takes the caller's registers where the kernel has syscall wrappers
 * (6.1 on x86_64 and arm64, riscv64 from 6.6 on), and otherwise the
 * syscall's arguments one by one.  A name that is not a syscall does
 * not resolve.
 */
/*
 * What the running kernel's syscall entries should be: 6.1's way on this
 * architecture (GLUE_SYSCALL_TAKES_REGS, GLUE_SYSCALL_PREFIX), except on
 * riscv64 from 6.6 on, which has wrappers taking struct pt_regs *.
 */
static bool wrappers_expected(const char **prefix)
{
	struct utsname u;
	int major = 0, minor = 0;

	*prefix = GLUE_SYSCALL_PREFIX;
	if (GLUE_SYSCALL_TAKES_REGS)
		return true;
	if (!uname(&u))
		sscanf(u.release, "%d.%d", &major, &minor);
	if (major > 6 || (major == 6 && minor >= 6)) {
		*prefix = "__riscv_sys_";
		return true;
	}
	return false;
}

void test_glue_syscall_names(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	FILE *ftrace = NULL, *kallsyms = NULL;
	struct glue_syscall sc;
	char mod[64], ftrace_fn[GLUE_NAME_MAX];
	unsigned int i;
	__u32 obj_id, type_id;
	const char *prefix;
	bool want_regs = wrappers_expected(&prefix);
	int err;

	if (!CHECK(vmlinux, "btf__load_vmlinux_btf: %s", strerror(errno)))
		return;
	ftrace = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	kallsyms = fopen("/proc/kallsyms", "r");
	if (!CHECK(ftrace && kallsyms, "available_filter_functions or "
		   "kallsyms: %s", strerror(errno)))
		goto out;
	for (i = 0; i < NR_KNOWN; i++) {
		const char *name = known_syscalls[i].name;
		int nargs = known_syscalls[i].nargs;

		err = glue_syscall_resolve(vmlinux, name, &sc);
		if (!CHECK(!err, "%s: %d (%s), guessed %s", name, err,
			   strerror(-err), sc.fn))
			continue;
		diag("glue: %s -> %s (BTF id %u, %d parameters%s)", name,
		     sc.fn, sc.btf_id, sc.nr_params,
		     sc.regs ? ", struct pt_regs *" : "");
		CHECK(sc.regs == want_regs,
		      "%s takes %s; this kernel should pass %s", sc.fn,
		      sc.regs ? "the caller's registers" : "its arguments",
		      want_regs ? "registers" : "arguments");
		CHECK(sc.nr_params == (sc.regs ? 1 : nargs),
		      "%s has %d parameters, want %d", sc.fn, sc.nr_params,
		      sc.regs ? 1 : nargs);
		if (nargs)
			CHECK(!strncmp(sc.fn, prefix, strlen(prefix)),
			      "%s: not the expected prefix %s", sc.fn,
			      prefix);
		err = kernel_func_btf(sc.fn, &obj_id, &type_id, mod,
				      sizeof(mod));
		CHECK(!err && !mod[0] && type_id == sc.btf_id,
		      "%s: kernel BTF objects say %d, id %u in '%s'", sc.fn,
		      err, type_id, err ? "" : mod);
		CHECK(kallsyms_text(kallsyms, sc.fn),
		      "%s: no text symbol in /proc/kallsyms", sc.fn);
		err = glue_ftrace_name(sc.fn, ftrace_fn, sizeof(ftrace_fn));
		CHECK(!err, "glue_ftrace_name(%s): %d", sc.fn, err);
		CHECK(ftrace_lists(ftrace, ftrace_fn),
		      "%s: not in available_filter_functions as %s", sc.fn,
		      ftrace_fn);
		CHECK(!strcmp(sys_fn(name), sc.fn), "sys_fn(%s) is %s, not %s",
		      name, sys_fn(name), sc.fn);
	}
	/* a function without aliases is its own ftrace name */
	err = glue_ftrace_name("vfs_read", ftrace_fn, sizeof(ftrace_fn));
	CHECK(!err && !strcmp(ftrace_fn, "vfs_read"),
	      "glue_ftrace_name(vfs_read): %d, %s", err, ftrace_fn);
	err = glue_syscall_resolve(vmlinux, "no_such_syscall", &sc);
	CHECK(err == -ENOENT && !strcmp(sc.fn, GLUE_SYSCALL_PREFIX
					 "no_such_syscall") && !sc.btf_id,
	      "no_such_syscall: %d, %s, id %u", err, sc.fn, sc.btf_id);
out:
	if (ftrace)
		fclose(ftrace);
	if (kallsyms)
		fclose(kallsyms);
	btf__free(vmlinux);
}

/*
 * mmap with six distinct 64-bit arguments and an offset that is not page
 * aligned: every architecture's mmap returns -EINVAL before anything else.
 */
static const long mmap_args[6] = {
	0x5a5a000000001000L, 0x1111222233334444L, 0x55667788L,
	0x0f0e0d0c0b0a0908L, 0x7badf00d00000007L, 0x0123456789abc123L,
};

#define MMAP_CALLS 3

static void call_mmap(void)
{
	long ret;
	int i;

	for (i = 0; i < MMAP_CALLS; i++) {
		ret = syscall(__NR_mmap, mmap_args[0], mmap_args[1],
			      mmap_args[2], mmap_args[3], mmap_args[4],
			      mmap_args[5]);
		CHECK(ret == -1 && errno == EINVAL, "mmap: %ld (%s)", ret,
		      strerror(errno));
	}
}

static void check_seen(const char *who, const struct seen_args *s,
		       int want_args, int want_ret)
{
	int i;

	if (!CHECK(s->calls == MMAP_CALLS, "%s ran %d times, want %d", who,
		   s->calls, MMAP_CALLS))
		return;
	for (i = 0; want_args && i < 6; i++)
		CHECK(s->arg[i] == mmap_args[i], "%s: argument %d %#llx, "
		      "want %#lx", who, i + 1, (unsigned long long)s->arg[i],
		      mmap_args[i]);
	if (want_ret)
		CHECK(s->ret == -EINVAL, "%s: result %lld, want %d", who,
		      (long long)s->ret, -EINVAL);
}

static struct glue *glue_open_only(const char *const *progs, int n)
{
	struct glue *skel = glue__open();
	struct glue_syscall sc;
	struct bpf_program *p;
	int i, keep;

	if (!CHECK(skel, "open: %s", strerror(errno)))
		return NULL;
	skel->bss->monitored_pid = getpid();
	/* The running kernel's way, as a tool sets it (glue.bpf.h). */
	CHECK_ERR(glue_syscall_resolve(NULL, "mmap", &sc), "resolve mmap");
	skel->rodata->glue_syscall_takes_regs = sc.regs;
	bpf_object__for_each_program(p, skel->obj) {
		for (keep = 0, i = 0; i < n; i++)
			keep |= !strcmp(bpf_program__name(p), progs[i]);
		bpf_program__set_autoload(p, keep);
	}
	return skel;
}

/*
 * glue_syscall_takes_regs is what the macros go by: set the other way,
 * the same object is refused by the verifier (a slot the function does
 * not have) or reads something else than the arguments.
 */
static void wrong_layout_fails(const char *fn)
{
	static const char *const progs[] = { "args_fentry" };
	struct glue *skel = glue_open_only(progs, 1);
	int err;

	if (!skel)
		return;
	skel->rodata->glue_syscall_takes_regs =
		!skel->rodata->glue_syscall_takes_regs;
	skel->bss->magic = mmap_args[0];
	bpf_program__set_attach_target(skel->progs.args_fentry, 0, fn);
	err = glue__load(skel);
	if (!err && CHECK_ERR(attach_prog(skel->progs.args_fentry,
					  &skel->links.args_fentry),
			      "attach fentry, other layout")) {
		call_mmap();
		CHECK(skel->bss->fentry_seen.arg[1] != mmap_args[1],
		      "the other layout read argument 2 right");
	}
	diag("glue: glue_syscall_takes_regs set the other way: %s",
	     err ? "refused by the verifier" : "loaded, read wrong values");
	glue__destroy(skel);
}

/* fentry and fexit on mmap read all six arguments and the result. */
void test_glue_syscall_args_fentry(void)
{
	static const char *const progs[] = { "args_fentry", "args_fexit" };
	struct glue *skel = glue_open_only(progs, 2);
	const char *fn = sys_fn("mmap");

	if (!skel)
		return;
	skel->bss->magic = mmap_args[0];
	bpf_program__set_attach_target(skel->progs.args_fentry, 0, fn);
	bpf_program__set_attach_target(skel->progs.args_fexit, 0, fn);
	if (!CHECK_ERR(glue__load(skel), "load") ||
	    !CHECK_ERR(attach_prog(skel->progs.args_fentry,
				   &skel->links.args_fentry), "attach fentry") ||
	    !CHECK_ERR(attach_prog(skel->progs.args_fexit,
				   &skel->links.args_fexit), "attach fexit"))
		goto out;
	call_mmap();
	check_seen("fentry", &skel->bss->fentry_seen, 1, 0);
	check_seen("fexit", &skel->bss->fexit_seen, 1, 1);
	glue__destroy(skel);
	skel = NULL;
	wrong_layout_fails(fn);
out:
	glue__destroy(skel);
}

/* The kprobe fallback on the same function reads the same. */
void test_glue_syscall_args_kprobe(void)
{
	static const char *const progs[] = { "args_kprobe", "args_kretprobe" };
	struct glue *skel = glue_open_only(progs, 2);
	const char *fn = sys_fn("mmap");

	if (!skel)
		return;
	skel->bss->magic = mmap_args[0];
	if (!CHECK_ERR(glue__load(skel), "load"))
		goto out;
	skel->links.args_kprobe =
		bpf_program__attach_kprobe(skel->progs.args_kprobe, false, fn);
	if (!CHECK_ERR(skel->links.args_kprobe ? 0 : -errno, "kprobe"))
		goto out;
	skel->links.args_kretprobe =
		bpf_program__attach_kprobe(skel->progs.args_kretprobe, true, fn);
	if (!CHECK_ERR(skel->links.args_kretprobe ? 0 : -errno, "kretprobe"))
		goto out;
	call_mmap();
	check_seen("kprobe", &skel->bss->kprobe_seen, 1, 0);
	check_seen("kretprobe", &skel->bss->kretprobe_seen, 0, 1);
out:
	glue__destroy(skel);
}

/* Run the exec'd probe of lsm_s_exec_maps: the child's exec is the event. */
static void exec_child(void)
{
	int status = -1;
	pid_t child = fork();

	if (child == 0) {
		execl("/proc/self/exe", "glue-exec", "--exit", NULL);
		_exit(127);
	}
	if (!CHECK(child > 0, "fork: %s", strerror(errno)))
		return;
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && !WEXITSTATUS(status), "child status %#x",
	      status);
}

static const char *const cmp_progs[GLUE_NR_ATTACH_KINDS] = {
	[GLUE_FENTRY] = "cmp_fentry",
	[GLUE_FENTRY_S] = "cmp_fentry_s",
	[GLUE_LSM_S] = "cmp_lsm_s",
	[GLUE_FEXIT] = "cmp_fexit",
	[GLUE_FMOD_RET] = "cmp_fmod_ret",
	[GLUE_LSM] = "cmp_lsm",
};

static bool lsm_kind(int kind)
{
	return kind == GLUE_LSM_S || kind == GLUE_LSM;
}

/*
 * The same kind loaded from a skeleton by libbpf and attached: the error
 * and the stage it came from, as the probe reports them.  An attach that
 * works must also run the program.
 */
static int real_attach(enum glue_attach_kind kind, const char *target,
		       enum glue_stage *stage)
{
	struct glue *skel = glue_open_only(&cmp_progs[kind], 1);
	struct bpf_program *prog;
	struct bpf_link *link = NULL;
	int err, i;

	if (!skel)
		return -ENOMEM;
	prog = bpf_object__find_program_by_name(skel->obj, cmp_progs[kind]);
	if (!lsm_kind(kind))
		bpf_program__set_attach_target(prog, 0, target);
	*stage = GLUE_STAGE_LOAD;
	err = glue__load(skel);
	if (err)
		goto out;
	*stage = GLUE_STAGE_ATTACH;
	err = attach_prog(prog, &link);
	if (err)
		goto out;
	*stage = GLUE_STAGE_DONE;
	if (lsm_kind(kind)) {
		exec_child();
	} else {
		for (i = 0; i < 5; i++)
			syscall(__NR_getpgid, 0);
	}
	CHECK(skel->bss->cmp_hits[kind] > 0, "%s attached to %s but did not "
	      "run", cmp_progs[kind], target);
	bpf_link__destroy(link);
out:
	glue__destroy(skel);
	return err;
}

/*
 * For each kind, glue's probe and a real attach agree on this kernel:
 * both work, or both fail with the same error at the same stage (stock
 * 6.1 arm64: -524 at attach).
 */
void test_glue_probe_matches_attach(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct glue_attach_result res;
	enum glue_stage stage;
	int k, err;

	if (!CHECK(vmlinux, "btf__load_vmlinux_btf: %s", strerror(errno)))
		return;
	for (k = 0; k < GLUE_NR_ATTACH_KINDS; k++) {
		err = glue_probe_attach_kind(k, vmlinux, &res);
		CHECK(err == res.err && !err == (res.stage == GLUE_STAGE_DONE),
		      "%s: returned %d, result %d at %s",
		      glue_attach_kind_name(k), err, res.err,
		      glue_stage_name(res.stage));
		diag("glue: probe %s on %s: %s %d%s%s",
		     glue_attach_kind_name(k), res.target,
		     glue_stage_name(res.stage), res.err,
		     res.detail[0] ? ": " : "", res.detail);
		stage = GLUE_STAGE_TARGET;
		err = real_attach(k, res.target, &stage);
		diag("glue: skeleton %s on %s: %s %d",
		     glue_attach_kind_name(k), lsm_kind(k) ?
		     "its section's hook" : res.target,
		     glue_stage_name(stage), err);
		CHECK(err == res.err && stage == res.stage,
		      "%s: probe says %d at %s, a real attach %d at %s",
		      glue_attach_kind_name(k), res.err,
		      glue_stage_name(res.stage), err, glue_stage_name(stage));
	}
	btf__free(vmlinux);
}

/* The highest id of the BPF objects get_next_id walks (programs, links). */
static __u32 max_id(int (*get_next_id)(__u32, __u32 *))
{
	__u32 top = 0;

	count_bpf_ids_above(get_next_id, 0, &top, NULL);
	return top;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * glue_probe_attach_kinds() keeps nothing: no program or link outlives
 * it (a detached program may wait for its old trampoline image to
 * retire, so allow a few seconds), no file descriptor stays open; and
 * its set of working kinds says what the per-kind results say.
 */
void test_glue_probe_leaves_nothing(void)
{
	__u32 progs_before, links_before, progs_after, links_after;
	struct glue_attach_support sup;
	int fds_before, fds_after, k, i;
	unsigned int works, want = 0;

	progs_before = max_id(bpf_prog_get_next_id);
	links_before = max_id(bpf_link_get_next_id);
	fds_before = count_fds();
	works = glue_probe_attach_kinds(&sup);
	fds_after = count_fds();
	for (k = 0; k < GLUE_NR_ATTACH_KINDS; k++) {
		const struct glue_attach_result *r = &sup.kind[k];

		diag("glue: %s on %s: %s %d", glue_attach_kind_name(k),
		     r->target, glue_stage_name(r->stage), r->err);
		CHECK(r->target[0], "%s: no target named",
		      glue_attach_kind_name(k));
		CHECK(!r->err == (r->stage == GLUE_STAGE_DONE),
		      "%s: %d at %s", glue_attach_kind_name(k), r->err,
		      glue_stage_name(r->stage));
		if (!r->err)
			want |= GLUE_KIND_BIT(k);
	}
	CHECK(works == want, "returned %#x, results say %#x", works, want);
	CHECK(fds_after == fds_before, "%d file descriptors open, %d before",
	      fds_after, fds_before);
	for (i = 0; i < 50; i++) {
		progs_after = max_id(bpf_prog_get_next_id);
		links_after = max_id(bpf_link_get_next_id);
		if (progs_after <= progs_before && links_after <= links_before)
			break;
		sleep_ms(100);
	}
	CHECK(progs_after <= progs_before, "program id %u still loaded "
	      "(highest before: %u)", progs_after, progs_before);
	CHECK(links_after <= links_before, "link id %u still there "
	      "(highest before: %u)", links_after, links_before);
}

/*
 * A tool's fallback: count getpgid(magic) calls with fentry where the
 * probe says it attaches, with a kprobe on the same function where it
 * does not.  Either way every call is counted with its argument.
 */
void test_glue_fallback_kprobe(void)
{
	static const char *const progs[] = { "fb_fentry", "fb_kprobe" };
	const long magic = 0x3ee7c0de;	/* no such process */
	struct glue_attach_result probe;
	struct glue *skel;
	const char *fn = sys_fn("getpgid");
	int use_fentry, i, err;

	glue_probe_attach_kind(GLUE_FENTRY, NULL, &probe);
	use_fentry = !probe.err;
	diag("glue: fentry on %s: %s %d: counting with %s", probe.target,
	     glue_stage_name(probe.stage), probe.err,
	     use_fentry ? "fentry" : "a kprobe");
	skel = glue_open_only(&progs[!use_fentry], 1);
	if (!skel)
		return;
	skel->bss->magic = magic;
	if (use_fentry)
		bpf_program__set_attach_target(skel->progs.fb_fentry, 0, fn);
	if (!CHECK_ERR(glue__load(skel), "load"))
		goto out;
	if (use_fentry) {
		err = attach_prog(skel->progs.fb_fentry,
				  &skel->links.fb_fentry);
	} else {
		struct bpf_program *p = skel->progs.fb_kprobe;

		skel->links.fb_kprobe = bpf_program__attach_kprobe(p, false,
								   fn);
		err = skel->links.fb_kprobe ? 0 : -errno;
	}
	if (!CHECK_ERR(err, use_fentry ? "fentry attach" : "kprobe attach"))
		goto out;
	for (i = 0; i < 10; i++)
		CHECK(syscall(__NR_getpgid, magic) == -1 && errno == ESRCH,
		      "getpgid(%#lx): %s", magic, strerror(errno));
	CHECK(skel->bss->fb_hits == 10 && skel->bss->fb_arg == magic,
	      "%s counted %ld calls, argument %#lx; want 10, %#lx",
	      use_fentry ? "fentry" : "kprobe", skel->bss->fb_hits,
	      skel->bss->fb_arg, magic);
out:
	glue__destroy(skel);
}

/*
 * glue_probe_attach() on the tool's own target: a module's function (the
 * same verdict as the default target: both attach, or both fail alike),
 * a function that does not exist, a vmlinux function named as the
 * module's, fmod_ret on a function it may not modify (the verifier's
 * reason), an LSM hook by its short name; and the BPF LSM is active here.
 */
void test_glue_probe_targets(void)
{
	struct glue_attach_result def, res;

	if (!load_test_module())
		return;
	glue_probe_attach(GLUE_FENTRY, NULL, NULL, &def);
	glue_probe_attach(GLUE_FENTRY, "sleeptest_mod_target", TEST_MODULE,
			  &res);
	diag("glue: fentry on %s [%s]: %s %d", res.target, res.module,
	     glue_stage_name(res.stage), res.err);
	CHECK(res.err == def.err && res.stage == def.stage &&
	      !strcmp(res.module, TEST_MODULE),
	      "module function: %d at %s [%s], default target %d at %s",
	      res.err, glue_stage_name(res.stage), res.module, def.err,
	      glue_stage_name(def.stage));
	glue_probe_attach(GLUE_FENTRY, "sleeptest_no_such_function", NULL,
			  &res);
	CHECK(res.err == -ENOENT && res.stage == GLUE_STAGE_TARGET,
	      "missing function: %d at %s", res.err,
	      glue_stage_name(res.stage));
	glue_probe_attach(GLUE_FENTRY, "vfs_read", TEST_MODULE, &res);
	CHECK(res.err == -ENOENT && res.stage == GLUE_STAGE_TARGET,
	      "vmlinux function in the module: %d at %s", res.err,
	      glue_stage_name(res.stage));
	glue_probe_attach(GLUE_FMOD_RET, "vfs_read", NULL, &res);
	diag("glue: fmod_ret on vfs_read: %s %d: %s",
	     glue_stage_name(res.stage), res.err, res.detail);
	CHECK(res.err == -EINVAL && res.stage == GLUE_STAGE_LOAD &&
	      strstr(res.detail, "vfs_read"),
	      "fmod_ret on vfs_read: %d at %s (%s)", res.err,
	      glue_stage_name(res.stage), res.detail);
	glue_probe_attach(GLUE_LSM, NULL, NULL, &def);
	glue_probe_attach(GLUE_LSM, "bprm_committed_creds", NULL, &res);
	CHECK(res.err == def.err && res.stage == def.stage &&
	      !strcmp(res.target, "bpf_lsm_bprm_committed_creds") &&
	      res.stage != GLUE_STAGE_INACTIVE,
	      "lsm by the hook's name: %d at %s on %s (%s)", res.err,
	      glue_stage_name(res.stage), res.target, res.detail);
	unload_test_module();
}

/*
 * The glue-probe command (in the guest's root) says, in JSON, what the
 * library says in this process for every kind; its output is kept here.
 */
void test_glue_probe_command(void)
{
	struct glue_attach_support sup;
	char line[1024], want[128];
	int k, lines = 0, matched = 0, rc;
	FILE *p;

	glue_probe_attach_kinds(&sup);
	p = popen("/glue-probe --json", "r");
	if (!CHECK(p, "popen: %s", strerror(errno)))
		return;
	while (fgets(line, sizeof(line), p)) {
		diag("glue-probe: %.*s", (int)strcspn(line, "\n"), line);
		if (!strstr(line, "\"kind\""))
			continue;
		lines++;
		for (k = 0; k < GLUE_NR_ATTACH_KINDS; k++) {
			snprintf(want, sizeof(want),
				 "{\"kind\": \"%s\", \"target\": \"%s\"",
				 glue_attach_kind_name(k), sup.kind[k].target);
			if (!strstr(line, want))
				continue;
			snprintf(want, sizeof(want),
				 "\"works\": %s, \"errno\": %d,",
				 sup.kind[k].err ? "false" : "true",
				 -sup.kind[k].err);
			CHECK(strstr(line, want), "glue-probe on %s says "
			      "otherwise than the library (%s)",
			      glue_attach_kind_name(k), want);
			matched++;
		}
	}
	rc = pclose(p);
	CHECK(lines == GLUE_NR_ATTACH_KINDS && matched == lines,
	      "%d kinds listed, %d matched, want %d", lines, matched,
	      GLUE_NR_ATTACH_KINDS);
	CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) ==
	      (glue_probe_attach_kinds(&sup) ==
	       GLUE_KIND_BIT(GLUE_NR_ATTACH_KINDS) - 1 ? 0 : 1),
	      "exit status %#x", rc);
	/* Text, on a target of our choosing: fmod_ret may not modify it. */
	p = popen("/glue-probe --kind fentry --kind fmod_ret "
		  "--function vfs_read", "r");
	if (!CHECK(p, "popen: %s", strerror(errno)))
		return;
	matched = 0;
	while (fgets(line, sizeof(line), p)) {
		diag("glue-probe: %.*s", (int)strcspn(line, "\n"), line);
		matched += !!strstr(line, "vfs_read() is not modifiable");
	}
	rc = pclose(p);
	CHECK(matched == 1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 1,
	      "fmod_ret on vfs_read: %d lines with the reason, exit %#x",
	      matched, rc);
}
