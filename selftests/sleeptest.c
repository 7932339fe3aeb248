// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' sleepable-program suite, run inside the test guest.
 *
 * Prints KTAP on stdout.  Every case is independent: it opens, loads and
 * destroys its own skeleton.  Expected failures are not decided here; the
 * host applies selftests/known-failures/<arch> to the raw results, so this
 * program reports exactly what happened, with the error that caused it.
 *
 * Usage: sleeptest [-l] [-t SUBSTRING] [-x CASE,...] | sleeptest --bench ITERATIONS
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "progs/copy_user.h"
#include "lsm_exec.skel.h"
#include "copy_user.skel.h"
#include "modret.skel.h"
#include "order.skel.h"
#include "rejects.skel.h"
#include "sections.skel.h"
#include "bench.skel.h"
#include "attach.skel.h"
#include "modfunc.skel.h"
#include "progtarget.skel.h"
#include "churn.skel.h"
#include "recursion.skel.h"

#if defined(__x86_64__)
#define SYSCALL_PREFIX "__x64_sys_"
#elif defined(__aarch64__)
#define SYSCALL_PREFIX "__arm64_sys_"
#else
#error "add this architecture's syscall wrapper prefix"
#endif

#define EXEC_PROBE_ARGV0 "sleeptest-exec"
#define UFFD_DELAY_MS 200

/* libbpf's messages for the current case, shown when it fails. */
static char libbpf_log[16384];
static size_t libbpf_log_len;
static int case_failed;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	int n;

	if (level == LIBBPF_DEBUG)
		return 0;
	n = vsnprintf(libbpf_log + libbpf_log_len,
		      sizeof(libbpf_log) - libbpf_log_len, fmt, ap);
	if (n > 0) {
		libbpf_log_len += n;
		if (libbpf_log_len >= sizeof(libbpf_log))
			libbpf_log_len = sizeof(libbpf_log) - 1;
	}
	return 0;
}

/* Diagnostic lines go out as KTAP comments before the result line. */
static void diag(const char *fmt, ...)
{
	char buf[1024], *line, *save;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("# %s\n", line);
}

#define CHECK(cond, fmt, ...) ({					\
	int __ok = !!(cond);						\
	if (!__ok) {							\
		diag("%s:%d: check '%s' failed: " fmt, __func__,	\
		     __LINE__, #cond, ##__VA_ARGS__);			\
		case_failed = 1;					\
	}								\
	__ok;								\
})

/* A negative libbpf/kernel error, printed so known-failure lists can match. */
#define CHECK_ERR(err, what) ({						\
	int __e = (err);						\
	if (__e) {							\
		diag("%s: %s failed: %d (%s)", __func__, what, __e,	\
		     strerror(-__e));					\
		case_failed = 1;					\
	}								\
	!__e;								\
})

static char *sys_fn(const char *name)
{
	static char buf[8][64];
	static int slot;
	char *s = buf[slot++ % 8];

	snprintf(s, 64, SYSCALL_PREFIX "%s", name);
	return s;
}

static int attach_prog(struct bpf_program *prog, struct bpf_link **link)
{
	*link = bpf_program__attach(prog);
	if (!*link)
		return -errno;
	return 0;
}

/*
 * Call-path report: how a call of fn reaches the trampoline attached to
 * it, printed as one diag line "call-path: <fn> <path>":
 *   direct        the call site branches straight to the trampoline;
 *   out-of-range  (arm64) the trampoline is beyond BL reach, the call site
 *                 goes through ftrace_regs_caller;
 *   shared        other ftrace ops share the function: the call goes
 *                 through ftrace_regs_caller or the list function;
 *   unknown       followed by "call-path-why: <fn>: <reason>".
 * Decided from enabled_functions (the ftrace refcount of fn) and from the
 * addresses of fn and of its bpf_trampoline_<key> in /proc/kallsyms.
 */
#define ENABLED_FUNCTIONS "/sys/kernel/tracing/enabled_functions"

static void call_path_unknown(const char *fn, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	diag("call-path: %s unknown", fn);
	diag("call-path-why: %s: %s", fn, why);
}

/*
 * The BTF object id and type id of a kernel function, in vmlinux or in a
 * module: a trampoline's key is built from both.  Module BTF is split BTF,
 * so its type ids continue vmlinux's.  mod gets the module's name, or ""
 * for vmlinux.
 */
static int kernel_func_btf(const char *fn, __u32 *obj_id, __u32 *type_id,
			   char *mod, size_t mod_len)
{
	struct btf *vmlinux = NULL, *btf;
	__u32 id = 0, vmlinux_id = 0, ids[64];
	int nr = 0, i, tid, err = -ENOENT;

	while (!bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		char name[64] = "";
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;
		info.name = (__u64)(unsigned long)name;
		info.name_len = sizeof(name);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.kernel_btf) {
			if (!strcmp(name, "vmlinux"))
				vmlinux_id = id;
			else if (nr < (int)(sizeof(ids) / sizeof(ids[0])))
				ids[nr++] = id;
		}
		close(fd);
	}
	if (!vmlinux_id)
		return -ENOENT;
	vmlinux = btf__load_from_kernel_by_id(vmlinux_id);
	if (!vmlinux)
		return -errno;
	tid = btf__find_by_name_kind(vmlinux, fn, BTF_KIND_FUNC);
	if (tid > 0) {
		*obj_id = vmlinux_id;
		*type_id = tid;
		mod[0] = 0;
		err = 0;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		btf = btf__load_from_kernel_by_id_split(ids[i], vmlinux);
		if (!btf)
			continue;
		tid = btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC);
		if (tid > 0) {
			struct bpf_btf_info info = {};
			__u32 len = sizeof(info);
			int fd = bpf_btf_get_fd_by_id(ids[i]);

			mod[0] = 0;
			if (fd >= 0) {
				info.name = (__u64)(unsigned long)mod;
				info.name_len = mod_len;
				bpf_obj_get_info_by_fd(fd, &info, &len);
				close(fd);
			}
			*obj_id = ids[i];
			*type_id = tid;
			err = 0;
		}
		btf__free(btf);
		if (!err)
			break;
	}
out:
	btf__free(vmlinux);
	return err;
}

/* fn's refcount in enabled_functions: how many ftrace ops it has. */
static int ftrace_refcount(const char *fn, long *refs)
{
	FILE *f = fopen(ENABLED_FUNCTIONS, "r");
	size_t n = strlen(fn);
	char line[512], *p;
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, fn, n) || (line[n] != ' ' && line[n] != '\t'))
			continue;
		p = strchr(line + n, '(');
		*refs = p ? strtol(p + 1, NULL, 10) : -1;
		found = 1;
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* NULL: beyond what the architecture's call site can reach at all. */
static const char *call_path_of(unsigned long long fn_addr,
				unsigned long long tramp)
{
#if defined(__aarch64__)
	/* The call site: the BL after "mov x9, lr" at the entry. */
	long long off = (long long)(tramp - (fn_addr + 4));

	return off >= -(128LL << 20) && off < (128LL << 20) ? "direct" :
	       "out-of-range";
#else
	/* A 5-byte call rel32 at the entry (after endbr64 with IBT). */
	long long off = (long long)(tramp - fn_addr);

	return off > -(2LL << 30) + 16 && off < (2LL << 30) - 16 ?
	       "direct" : NULL;
#endif
}

static void report_call_path(const char *fn)
{
	unsigned long long addr, fn_addr = 0, key;
	char line[512], name[256], tag[80], modtag[80], mod[64];
	unsigned long long tramps[16];
	__u32 obj_id = 0, type_id = 0;
	int err, nr = 0, fn_seen = 0, pick;
	const char *path;
	long refs = -1;
	char type;
	FILE *f;

	err = ftrace_refcount(fn, &refs);
	if (err) {
		call_path_unknown(fn, "not in %s: %d (%s)", ENABLED_FUNCTIONS,
				  err, strerror(-err));
		return;
	}
	if (refs > 1) {
		diag("call-path: %s shared", fn);
		return;
	}
	if (refs != 1) {
		call_path_unknown(fn, "ftrace refcount %ld in %s", refs,
				  ENABLED_FUNCTIONS);
		return;
	}
	err = kernel_func_btf(fn, &obj_id, &type_id, mod, sizeof(mod));
	if (err) {
		call_path_unknown(fn, "not found in kernel BTF: %d (%s)", err,
				  strerror(-err));
		return;
	}
	snprintf(modtag, sizeof(modtag), "[%s]", mod);
	f = fopen("/proc/kallsyms", "r");
	if (!f) {
		call_path_unknown(fn, "/proc/kallsyms: %s", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		tag[0] = 0;
		if (sscanf(line, "%llx %c %255s %79s", &addr, &type, name,
			   tag) < 3)
			continue;
		if (!strcmp(name, fn)) {
			if (!fn_seen &&
			    (mod[0] ? !strcmp(tag, modtag) : !tag[0])) {
				fn_addr = addr;
				fn_seen = 1;
			}
			continue;
		}
		if (strncmp(name, "bpf_trampoline_", 15))
			continue;
		/* key: obj_id << 32 | btf_id, 6.1.y also sets bit 31 */
		key = strtoull(name + 15, NULL, 10);
		if (key >> 32 != obj_id || (key & 0x7fffffffULL) != type_id)
			continue;
		/* Keep the last ones listed. */
		if (nr == (int)(sizeof(tramps) / sizeof(tramps[0]))) {
			memmove(tramps, tramps + 1, sizeof(tramps) -
				sizeof(tramps[0]));
			nr--;
		}
		tramps[nr++] = addr;
	}
	fclose(f);
	if (fn_seen && !fn_addr) {
		call_path_unknown(fn, "/proc/kallsyms shows zero addresses "
				  "(kptr_restrict?)");
		return;
	}
	if (!fn_seen) {
		call_path_unknown(fn, "no address for %s%s in /proc/kallsyms",
				  fn, mod[0] ? modtag : "");
		return;
	}
	if (!nr) {
		call_path_unknown(fn, "no bpf_trampoline_* for BTF object %u "
				  "type %u in /proc/kallsyms (bpf_jit_kallsyms "
				  "off?)", obj_id, type_id);
		return;
	}
	/*
	 * Several images share the name while an old one retires; the newest
	 * is listed last (bpf_ksym_add() appends).
	 */
	pick = nr - 1;
	path = call_path_of(fn_addr, tramps[pick]);
	if (!path) {
		call_path_unknown(fn, "trampoline at %#llx is beyond a call's "
				  "reach of %s at %#llx", tramps[pick], fn,
				  fn_addr);
		return;
	}
	diag("call-path: %s %s", fn, path);
}

/* a: lsm.s on an exec hook, bpf_copy_from_user() and three map kinds. */
static void test_lsm_s_exec_maps(void)
{
	struct lsm_exec *skel;
	__u32 key = 0;
	__u64 zero = 0, val;
	int status = -1;
	pid_t child;

	skel = lsm_exec__open();
	if (!CHECK(skel, "open failed"))
		return;
	skel->bss->monitored_pid = getpid();
	if (!CHECK_ERR(lsm_exec__load(skel), "load"))
		goto out;
	CHECK_ERR(bpf_map__update_elem(skel->maps.hash, &key, sizeof(key),
				       &zero, sizeof(zero), BPF_ANY),
		  "hash insert");
	CHECK_ERR(bpf_map__update_elem(skel->maps.lru_hash, &key, sizeof(key),
				       &zero, sizeof(zero), BPF_ANY),
		  "lru insert");
	if (!CHECK_ERR(lsm_exec__attach(skel), "attach"))
		goto out;

	child = fork();
	if (child == 0) {
		execl("/proc/self/exe", EXEC_PROBE_ARGV0, "--exit", NULL);
		_exit(127);
	}
	CHECK(child > 0, "fork: %s", strerror(errno));
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "exec'd child status %#x", status);
	CHECK(skel->bss->exec_count == 1, "exec_count %d",
	      skel->bss->exec_count);
	CHECK(skel->data->copy_ret == 0, "bpf_copy_from_user %ld",
	      skel->data->copy_ret);
	skel->bss->argv0[sizeof(skel->bss->argv0) - 1] = 0;
	CHECK(!strcmp(skel->bss->argv0, EXEC_PROBE_ARGV0),
	      "argv[0] seen by the program: '%s'", skel->bss->argv0);
	val = ~0ULL;
	bpf_map__lookup_elem(skel->maps.array, &key, sizeof(key), &val,
			     sizeof(val), 0);
	CHECK(val == 1, "array value %llu", (unsigned long long)val);
	val = ~0ULL;
	bpf_map__lookup_elem(skel->maps.hash, &key, sizeof(key), &val,
			     sizeof(val), 0);
	CHECK(val == 1, "hash value %llu", (unsigned long long)val);
	val = ~0ULL;
	bpf_map__lookup_elem(skel->maps.lru_hash, &key, sizeof(key), &val,
			     sizeof(val), 0);
	CHECK(val == 1, "lru_hash value %llu", (unsigned long long)val);
out:
	lsm_exec__destroy(skel);
}

static struct copy_user *copy_user_open_attach(void)
{
	struct copy_user *skel = copy_user__open();

	if (!CHECK(skel, "open failed"))
		return NULL;
	skel->bss->monitored_pid = getpid();
	bpf_program__set_attach_target(skel->progs.copy_from_arg, 0,
				       sys_fn("setdomainname"));
	if (!CHECK_ERR(copy_user__load(skel), "load") ||
	    !CHECK_ERR(copy_user__attach(skel), "attach")) {
		copy_user__destroy(skel);
		return NULL;
	}
	return skel;
}

/* b: valid pointer -> 0 and the data; NULL and ~0 -> -EFAULT, zeroed. */
static void test_fentry_s_copy_from_user(void)
{
	__u64 value = 0x1122334455667788ULL;
	struct copy_user *skel;
	struct copy_result *r;
	long ret;

	skel = copy_user_open_attach();
	if (!skel)
		return;
	report_call_path(sys_fn("setdomainname"));
	ret = syscall(__NR_setdomainname, &value, -1L);
	CHECK(ret == -1 && errno == EINVAL, "setdomainname %ld errno %d",
	      ret, errno);
	syscall(__NR_setdomainname, NULL, -2L);
	syscall(__NR_setdomainname, ~0UL, -3L);

	r = &skel->bss->results[1];
	CHECK(r->calls == 1 && r->ret == 0 && r->value == value,
	      "valid pointer: calls %d ret %lld value %#llx", r->calls, r->ret,
	      (unsigned long long)r->value);
	r = &skel->bss->results[2];
	CHECK(r->calls == 1 && r->ret == -EFAULT && r->value == 0,
	      "NULL: calls %d ret %lld value %#llx", r->calls, r->ret,
	      (unsigned long long)r->value);
	r = &skel->bss->results[3];
	CHECK(r->calls == 1 && r->ret == -EFAULT && r->value == 0,
	      "~0: calls %d ret %lld value %#llx", r->calls, r->ret,
	      (unsigned long long)r->value);
	copy_user__destroy(skel);
}

/* c1: fexit.s sees the argument and the return value. */
static void test_fexit_s_args_ret(void)
{
	struct modret *skel;
	long pgid;

	skel = modret__open();
	if (!CHECK(skel, "open failed"))
		return;
	skel->bss->monitored_pid = getpid();
	bpf_program__set_attach_target(skel->progs.getpgid_exit, 0,
				       sys_fn("getpgid"));
	bpf_program__set_autoload(skel->progs.getsid_modret, false);
	if (!CHECK_ERR(modret__load(skel), "load"))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.getpgid_exit,
				   &skel->links.getpgid_exit), "attach"))
		goto out;
	/* Lead our own process group so getpgid() has a non-zero answer. */
	setpgid(0, 0);
	pgid = syscall(__NR_getpgid, getpid());
	CHECK(pgid == getpid(), "getpgid %ld, pid %d", pgid, getpid());
	CHECK(skel->bss->fexit_calls == 1, "calls %d", skel->bss->fexit_calls);
	CHECK(skel->data->fexit_arg == getpid(), "argument %ld, pid %d",
	      skel->data->fexit_arg, getpid());
	CHECK(skel->data->fexit_ret == pgid, "return %ld, caller saw %ld",
	      skel->data->fexit_ret, pgid);
out:
	modret__destroy(skel);
}

/* c2: fmod_ret.s replaces the return value the caller sees. */
static void test_fmod_ret_s_override(void)
{
	const long magic = 999999, forced = 4242;
	struct modret *skel;
	long ret, sid;

	skel = modret__open();
	if (!CHECK(skel, "open failed"))
		return;
	skel->bss->monitored_pid = getpid();
	skel->bss->magic_arg = magic;
	skel->bss->forced_ret = forced;
	bpf_program__set_attach_target(skel->progs.getsid_modret, 0,
				       sys_fn("getsid"));
	bpf_program__set_autoload(skel->progs.getpgid_exit, false);
	if (!CHECK_ERR(modret__load(skel), "load"))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.getsid_modret,
				   &skel->links.getsid_modret), "attach"))
		goto out;
	ret = syscall(__NR_getsid, magic);
	CHECK(ret == forced, "getsid(%ld) returned %ld, want %ld", magic, ret,
	      forced);
	sid = syscall(__NR_getsid, 0);
	CHECK(sid == getsid(0) && sid >= 0, "getsid(0) returned %ld", sid);
	CHECK(skel->bss->modret_calls == 1, "calls %d",
	      skel->bss->modret_calls);
out:
	modret__destroy(skel);
}

/* d: sleepable and normal programs on one function, in a defined order:
 * programs of one kind run newest attachment first, fexit after both.
 */
static void test_sleepable_and_normal_order(void)
{
	struct order *skel;
	const char *fn = sys_fn("getsid");

	skel = order__open();
	if (!CHECK(skel, "open failed"))
		return;
	skel->bss->monitored_pid = getpid();
	bpf_program__set_attach_target(skel->progs.entry_sleepable, 0, fn);
	bpf_program__set_attach_target(skel->progs.entry_normal, 0, fn);
	bpf_program__set_attach_target(skel->progs.exit_normal, 0, fn);
	if (!CHECK_ERR(order__load(skel), "load"))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.entry_sleepable,
				   &skel->links.entry_sleepable),
		       "attach fentry.s") ||
	    !CHECK_ERR(attach_prog(skel->progs.entry_normal,
				   &skel->links.entry_normal),
		       "attach fentry") ||
	    !CHECK_ERR(attach_prog(skel->progs.exit_normal,
				   &skel->links.exit_normal),
		       "attach fexit"))
		goto out;
	syscall(__NR_getsid, 0);
	CHECK(skel->bss->clock == 3, "%d programs ran, want 3",
	      skel->bss->clock);
	CHECK(skel->data->seen_normal == 0 && skel->data->seen_sleepable == 1 &&
	      skel->data->seen_exit == 2,
	      "order: fentry %d, fentry.s %d, fexit %d; want 0, 1, 2",
	      skel->data->seen_normal, skel->data->seen_sleepable,
	      skel->data->seen_exit);
out:
	order__destroy(skel);
}

struct uffd_server {
	int uffd;
	long page_size;
	__u64 value;
	int faults;
	int error;
};

/* Hold the fault back for UFFD_DELAY_MS, then supply the page. */
static void *uffd_serve(void *arg)
{
	struct uffd_server *s = arg;
	struct pollfd pfd = { .fd = s->uffd, .events = POLLIN };
	struct timespec delay = { 0, UFFD_DELAY_MS * 1000000L };
	struct uffdio_copy copy = {};
	struct uffd_msg msg;
	char *src;

	if (poll(&pfd, 1, 10000) != 1 ||
	    read(s->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		s->error = errno ? errno : EIO;
		return NULL;
	}
	s->faults++;
	nanosleep(&delay, NULL);
	src = aligned_alloc(s->page_size, s->page_size);
	memset(src, 0, s->page_size);
	memcpy(src + 64, &s->value, sizeof(s->value));
	copy.dst = msg.arg.pagefault.address & ~(s->page_size - 1);
	copy.src = (unsigned long)src;
	copy.len = s->page_size;
	if (ioctl(s->uffd, UFFDIO_COPY, &copy))
		s->error = errno;
	free(src);
	return NULL;
}

/* e: bpf_copy_from_user() on a page that is not resident: it must sleep
 * until userfaultfd supplies the page, then return the right bytes.
 */
static void test_sleepable_copy_nonresident(void)
{
	struct uffd_server srv = { .value = 0xfeedface12345678ULL };
	struct uffdio_register reg = {};
	struct uffdio_api api = { .api = UFFD_API };
	struct copy_user *skel = NULL;
	struct copy_result *r;
	pthread_t thread;
	char *page;

	srv.page_size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, srv.page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(page != MAP_FAILED, "mmap: %s", strerror(errno)))
		return;
	srv.uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (!CHECK(srv.uffd >= 0, "userfaultfd: %s", strerror(errno)))
		goto out_unmap;
	reg.range.start = (unsigned long)page;
	reg.range.len = srv.page_size;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (!CHECK(!ioctl(srv.uffd, UFFDIO_API, &api), "UFFDIO_API: %s",
		   strerror(errno)) ||
	    !CHECK(!ioctl(srv.uffd, UFFDIO_REGISTER, &reg),
		   "UFFDIO_REGISTER: %s", strerror(errno)))
		goto out_close;

	skel = copy_user_open_attach();
	if (!skel)
		goto out_close;
	pthread_create(&thread, NULL, uffd_serve, &srv);
	syscall(__NR_setdomainname, page + 64, -4L);
	pthread_join(thread, NULL);

	r = &skel->bss->results[4];
	CHECK(srv.error == 0, "userfaultfd server: %s", strerror(srv.error));
	CHECK(srv.faults == 1, "%d faults served, want 1", srv.faults);
	CHECK(r->calls == 1 && r->ret == 0 && r->value == srv.value,
	      "calls %d ret %lld value %#llx", r->calls, r->ret,
	      (unsigned long long)r->value);
	CHECK(r->ns >= UFFD_DELAY_MS * 1000000ULL,
	      "copy took %llu ns, the fault was held %d ms",
	      (unsigned long long)r->ns, UFFD_DELAY_MS);
	copy_user__destroy(skel);
out_close:
	close(srv.uffd);
out_unmap:
	munmap(page, srv.page_size);
}

/*
 * f: load one program of rejects.bpf.c alone.  want_msg NULL means it must
 * load; otherwise it must be refused with that verifier message.
 */
static void load_one_reject(const char *name, const char *target,
			    __u32 extra_flags, const char *want_msg)
{
	static char vlog[65536];
	struct bpf_program *p, *prog = NULL;
	struct rejects *skel;
	int err;

	skel = rejects__open();
	if (!CHECK(skel, "open failed"))
		return;
	bpf_object__for_each_program(p, skel->obj) {
		if (strcmp(bpf_program__name(p), name)) {
			bpf_program__set_autoload(p, false);
			continue;
		}
		prog = p;
	}
	if (!CHECK(prog, "no program %s", name))
		goto out;
	if (target)
		bpf_program__set_attach_target(prog, 0, target);
	if (extra_flags)
		bpf_program__set_flags(prog, bpf_program__flags(prog) |
					     extra_flags);
	vlog[0] = 0;
	if (want_msg) {
		bpf_program__set_log_buf(prog, vlog, sizeof(vlog));
		bpf_program__set_log_level(prog, 1);
	}
	err = rejects__load(skel);
	if (!want_msg) {
		CHECK_ERR(err, "load");
		goto out;
	}
	if (!CHECK(err, "%s loaded, the verifier should refuse it", name))
		goto out;
	if (!CHECK(strstr(vlog, want_msg), "want verifier message '%s'",
		   want_msg)) {
		size_t len = strlen(vlog);

		diag("verifier log tail: %s", len > 400 ? vlog + len - 400 :
		     vlog);
	}
out:
	rejects__destroy(skel);
}

static void test_reject_lsm_s_task_free(void)
{
	load_one_reject("lsm_s_task_free", NULL, 0,
			"bpf_lsm_task_free is not sleepable");
}

static void test_reject_fentry_s_not_injectable(void)
{
	load_one_reject("fentry_s_vfs_read", NULL, 0,
			"vfs_read is not sleepable");
}

static void test_reject_sleepable_socket_filter(void)
{
	load_one_reject("socket_filter", NULL, BPF_F_SLEEPABLE,
			"can be sleepable");
}

static void test_reject_copy_from_user_nonsleepable(void)
{
	load_one_reject("copy_in_nonsleepable", sys_fn("setdomainname"), 0,
			"helper call might sleep in a non-sleepable prog");
}

static void test_reject_sleepable_lpm_trie(void)
{
	load_one_reject("sleepable_uses_trie", sys_fn("setdomainname"), 0,
			"Sleepable programs can only use array, hash, and ringbuf maps");
}

static void test_sleepable_allowed_maps_load(void)
{
	load_one_reject("sleepable_allowed_maps", sys_fn("setdomainname"), 0,
			NULL);
}

/*
 * Every BPF_PROG_LOAD libbpf sends, with the flags it sent: the test
 * program is linked with --wrap=syscall, which routes libbpf's bpf()
 * calls through here.
 */
struct prog_load_record {
	char name[BPF_OBJ_NAME_LEN];
	__u32 flags;
	int ret;
};

static struct prog_load_record prog_loads[64];
static int nr_prog_loads;

long __real_syscall(long nr, ...);

long __wrap_syscall(long nr, ...)
{
	struct prog_load_record *rec;
	union bpf_attr *attr;
	long a[6], ret;
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	ret = __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr != __NR_bpf || a[0] != BPF_PROG_LOAD ||
	    nr_prog_loads >= (int)(sizeof(prog_loads) / sizeof(prog_loads[0])))
		return ret;
	attr = (union bpf_attr *)a[1];
	rec = &prog_loads[nr_prog_loads++];
	memcpy(rec->name, attr->prog_name, sizeof(rec->name));
	rec->name[sizeof(rec->name) - 1] = 0;
	rec->flags = attr->prog_flags;
	rec->ret = ret < 0 ? -errno : (int)ret;
	return ret;
}

/* The last load libbpf sent for a program, or NULL. */
static struct prog_load_record *last_load(const char *name)
{
	int i;

	for (i = nr_prog_loads - 1; i >= 0; i--)
		if (!strncmp(prog_loads[i].name, name,
			     sizeof(prog_loads[i].name) - 1))
			return &prog_loads[i];
	return NULL;
}

static void sections_set_targets(struct sections *skel, const char *only)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, skel->obj) {
		if (only && strcmp(bpf_program__name(p), only))
			bpf_program__set_autoload(p, false);
		else if (!only && !strncmp(bpf_program__name(p), "twin_", 5))
			bpf_program__set_autoload(p, false);
		if (strncmp(bpf_program__section_name(p), "lsm", 3))
			bpf_program__set_attach_target(p, 0,
						       sys_fn("setdomainname"));
	}
}

/*
 * g: the ".s" section names make libbpf send BPF_F_SLEEPABLE, and the
 * kernel acts on it: each program calls bpf_copy_from_user(), which the
 * 6.1 verifier accepts only from a sleepable program.  The same bodies
 * under the plain section names go out without the flag and are refused.
 */
static void test_section_names_sleepable(void)
{
	static const char *const twins[] = {
		"twin_fentry", "twin_fexit", "twin_fmod_ret", "twin_lsm",
	};
	static char vlog[65536];
	struct prog_load_record *rec;
	struct sections *skel;
	struct bpf_program *p;
	unsigned int i;
	int n = 0;

	skel = sections__open();
	if (!CHECK(skel, "open failed"))
		return;
	sections_set_targets(skel, NULL);
	nr_prog_loads = 0;
	CHECK_ERR(sections__load(skel), "load of the .s programs");
	bpf_object__for_each_program(p, skel->obj) {
		if (!strncmp(bpf_program__name(p), "twin_", 5))
			continue;
		n++;
		rec = last_load(bpf_program__name(p));
		if (!CHECK(rec, "no BPF_PROG_LOAD seen for %s",
			   bpf_program__name(p)))
			continue;
		CHECK(rec->flags & BPF_F_SLEEPABLE,
		      "SEC(\"%s\") loaded with prog_flags %#x",
		      bpf_program__section_name(p), rec->flags);
		CHECK(rec->ret >= 0, "SEC(\"%s\") load returned %d",
		      bpf_program__section_name(p), rec->ret);
	}
	CHECK(n == 4, "%d .s programs, want 4", n);
	sections__destroy(skel);

	for (i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		skel = sections__open();
		if (!CHECK(skel, "open failed"))
			return;
		sections_set_targets(skel, twins[i]);
		vlog[0] = 0;
		bpf_object__for_each_program(p, skel->obj)
			if (!strcmp(bpf_program__name(p), twins[i]))
				bpf_program__set_log_buf(p, vlog, sizeof(vlog));
		nr_prog_loads = 0;
		CHECK(sections__load(skel), "%s loaded without BPF_F_SLEEPABLE",
		      twins[i]);
		rec = last_load(twins[i]);
		CHECK(rec && !(rec->flags & BPF_F_SLEEPABLE),
		      "%s: prog_flags %#x", twins[i], rec ? rec->flags : 0);
		CHECK(strstr(vlog, "helper call might sleep"),
		      "%s: verifier log lacks the sleepable-helper refusal",
		      twins[i]);
		sections__destroy(skel);
	}
}

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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait up to 2 s for *counter to pass start: the program is running. */
static int counter_moves(volatile long *counter, long start)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (*counter > start)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

static struct attach *attach_open_load(void)
{
	struct attach *skel = attach__open();
	struct bpf_program *p;

	if (!CHECK(skel, "open failed"))
		return NULL;
	skel->bss->monitored_pid = getpid();
	bpf_object__for_each_program(p, skel->obj)
		if (strcmp(bpf_program__section_name(p), "kprobe"))
			bpf_program__set_attach_target(p, 0, sys_fn("getpgid"));
	if (!CHECK_ERR(attach__load(skel), "load")) {
		attach__destroy(skel);
		return NULL;
	}
	return skel;
}

/* On failure: how ftrace sees the attached functions. */
static void dump_enabled_functions(void)
{
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		diag("enabled_functions: %s", line);
	fclose(f);
}

/*
 * Attach, replace and detach trampolines on a function both CPUs keep
 * calling: each change regenerates the trampoline and repoints the call
 * site while it is in use.
 */
static void test_attach_detach_while_running(void)
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
	for (round = 0; round < 10 && !case_failed; round++) {
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

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC), n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (int)strlen(text) ? 0 : -EIO;
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

static long trace_count(const char *fn)
{
	return trace_count_in("/sys/kernel/tracing/trace", fn);
}

/* The function tracer and a trampoline on the same function: both fire. */
static void test_function_tracer_and_trampoline(void)
{
	const char *fn = sys_fn("getpgid");
	const int calls = 20;
	struct attach *skel;
	long traced;
	int i;

	skel = attach_open_load();
	if (!skel)
		return;
	if (!CHECK_ERR(write_file("/sys/kernel/tracing/set_ftrace_filter", fn),
		       "set_ftrace_filter") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/trace", ""),
		       "clear trace") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/current_tracer",
				  "function"), "function tracer"))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.count_fentry,
				   &skel->links.count_fentry), "attach fentry") ||
	    !CHECK_ERR(attach_prog(skel->progs.count_fexit,
				   &skel->links.count_fexit), "attach fexit"))
		goto out_tracer;
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
	CHECK(traced >= calls, "function tracer logged %ld calls of %s, want "
	      ">= %d", traced, fn, calls);
out_tracer:
	write_file("/sys/kernel/tracing/current_tracer", "nop");
out:
	write_file("/sys/kernel/tracing/set_ftrace_filter", "");
	attach__destroy(skel);
}

/* A kprobe and trampolines on the same function: all fire. */
static void test_kprobe_and_trampoline(void)
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
	CHECK(skel->bss->fentry_s_hits == calls, "fentry.s ran %ld times for %d",
	      skel->bss->fentry_s_hits, calls);
	CHECK(skel->bss->fexit_hits == calls, "fexit ran %ld times for %d",
	      skel->bss->fexit_hits, calls);
out:
	attach__destroy(skel);
}

/* fentry.s and fexit on a function of a module loaded for the test. */
static void test_module_function(void)
{
	struct modfunc *skel = NULL;
	int fd, err;

	fd = open("/sleeptest_mod.ko", O_RDONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0, "/sleeptest_mod.ko: %s", strerror(errno)))
		return;
	err = syscall(__NR_finit_module, fd, "", 0);
	close(fd);
	if (!CHECK(!err || errno == EEXIST, "finit_module: %s",
		   strerror(errno)))
		return;
	skel = modfunc__open();
	if (!CHECK(skel, "open failed"))
		goto out;
	skel->bss->monitored_pid = getpid();
	if (!CHECK_ERR(modfunc__load(skel), "load") ||
	    !CHECK_ERR(modfunc__attach(skel), "attach"))
		goto out;
	report_call_path("sleeptest_mod_target");
	fd = open("/sys/kernel/debug/sleeptest_mod/trigger",
		  O_WRONLY | O_CLOEXEC);
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
	CHECK(!syscall(__NR_delete_module, "sleeptest_mod", O_NONBLOCK),
	      "delete_module: %s", strerror(errno));
}

/*
 * The function tracer's filter set to fn alone, and read back: a name
 * ftrace does not know (on x86_64 the __x64_sys_ name of a syscall without
 * arguments is only an alias of __do_sys_) is dropped when the file is
 * closed, without an error, and an empty filter traces every function.
 */
#define FTRACE_FILTER "/sys/kernel/tracing/set_ftrace_filter"

/* The same for the set_ftrace_filter file at path (a tracer instance's). */
static int set_filter_file(const char *path, const char *fn)
{
	int err = write_file(path, fn), n = 0, found = 0;
	char line[256];
	FILE *f;

	if (err)
		return err;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = 0;
		n++;
		found |= !strcmp(line, fn);
	}
	fclose(f);
	if (n == 1 && found)
		return 0;
	diag("%s: wrote %s, reads back %d functions%s", path, fn, n,
	     found ? "" : " without it");
	write_file(path, "");
	return -ENOENT;
}

static int set_ftrace_filter(const char *fn)
{
	return set_filter_file(FTRACE_FILTER, fn);
}

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
		cw->calls++;
	}
	return NULL;
}

static int churn_workers_start(struct churn_workers *cws)
{
	int i, err;

	memset(cws, 0, sizeof(*cws));
	cws->expect = getpgid(0);
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
		CHECK(!cw->mismatches, "worker %d: %ld of %ld getpgid(0) calls "
		      "returned something else than %ld (last %ld)", i,
		      cw->mismatches, cw->calls, cws->expect, cw->last_bad);
	}
	CHECK(cpu[0] > 0 && cpu[1] > 0, "worker calls: CPU 0 %ld, CPU 1 %ld",
	      cpu[0], cpu[1]);
}

/* bpf_trampoline_* images listed in /proc/kallsyms, or -errno. */
static int count_trampoline_images(void)
{
	char line[512], *p;
	int n = 0;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	/* bpf_trampoline_<key>; the kernel's bpf_trampoline_*() do not count */
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, " bpf_trampoline_");
		if (p && isdigit((unsigned char)p[16]))
			n++;
	}
	fclose(f);
	return n;
}

/* SLEEPTEST_CHURN_ROUNDS, or the default; -1 (and the case fails) if bad. */
static long churn_rounds(void)
{
	const char *s = getenv("SLEEPTEST_CHURN_ROUNDS");
	char *end;
	long n;

	if (!s)
		return CHURN_ROUNDS;
	errno = 0;
	n = strtol(s, &end, 10);
	if (!CHECK(!errno && end != s && !*end && n > 0 && n <= 10000000,
		   "SLEEPTEST_CHURN_ROUNDS='%s' is not a number of rounds "
		   "(1..10000000)", s))
		return -1;
	return n;
}

static double mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
 * One round: a new program of kind round % 4 loaded, attached, (every
 * 10th round) seen running, detached and freed.
 */
static int churn_round(struct churn_template *ct, long round,
		       struct churn_workers *cws)
{
	int kind = round % CHURN_KINDS, ok = 0, prog_fd, link_fd;
	volatile long *hits = &ct->skel->bss->hits;
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
	ok = round % 10 || CHECK(counter_moves(hits, seen),
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
	int images = 0, images_peak = 0, images0;
	double t0, t_free = 0;
	struct churn_workers cws;
	struct churn_template ct;
	struct attach *skel;
	int tracer = 0;

	rounds = churn_rounds();
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
	images0 = count_trampoline_images();
	t0 = mono_seconds();
	if (!churn_workers_start(&cws))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.count_fentry,
				   &skel->links.count_fentry),
		       "attach long-lived fentry"))
		goto out_workers;
	report_call_path(fn);
	memset(churn_step_s, 0, sizeof(churn_step_s));
	hits0 = skel->bss->fentry_hits;
	for (round = 0; round < rounds; round++) {
		if (!churn_round(&ct, round, &cws))
			break;
		if (round % 10 == 9) {
			images = count_trampoline_images();
			if (images > images_peak)
				images_peak = images;
		}
	}
	/*
	 * Each round retires two images (and, with them, the programs they
	 * hold).  They must be freed while the workers still run: wait for
	 * the list to shrink back to what it was plus the long-lived
	 * program's current image.
	 */
	images = count_trampoline_images();
	t_free = mono_seconds();
	while (images > images0 + 1 && mono_seconds() - t_free < 60) {
		sleep_ms(100);
		images = count_trampoline_images();
	}
	t_free = mono_seconds() - t_free;
	CHECK(images >= 0 && images <= images0 + 1,
	      "retired images not freed while the workers run: %d trampoline "
	      "images listed %.0f s after the churn, %d before it", images,
	      t_free, images0);
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

static void test_trampoline_churn(void)
{
	trampoline_churn(0);
}

/* The same with the function tracer sharing the function all along. */
static void test_trampoline_churn_function_tracer(void)
{
	trampoline_churn(1);
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

static void test_recursion_guard_direct(void)
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
static void test_trampoline_on_bpf_prog(void)
{
	struct progtarget *target = NULL, *tracer = NULL;
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = 1);
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
	if (!CHECK_ERR(bpf_prog_test_run_opts(target_fd, &opts) ? -errno : 0,
		       "test run"))
		goto out;
	CHECK(opts.retval == 7, "target returned %u, want 7", opts.retval);
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

struct test_case {
	const char *name;
	void (*fn)(void);
};

static const struct test_case cases[] = {
	{ "lsm_s_exec_maps", test_lsm_s_exec_maps },
	{ "fentry_s_copy_from_user", test_fentry_s_copy_from_user },
	{ "fexit_s_args_ret", test_fexit_s_args_ret },
	{ "fmod_ret_s_override", test_fmod_ret_s_override },
	{ "sleepable_and_normal_order", test_sleepable_and_normal_order },
	{ "sleepable_copy_nonresident", test_sleepable_copy_nonresident },
	{ "reject_lsm_s_task_free", test_reject_lsm_s_task_free },
	{ "reject_fentry_s_not_injectable",
	  test_reject_fentry_s_not_injectable },
	{ "reject_sleepable_socket_filter",
	  test_reject_sleepable_socket_filter },
	{ "reject_copy_from_user_nonsleepable",
	  test_reject_copy_from_user_nonsleepable },
	{ "reject_sleepable_lpm_trie", test_reject_sleepable_lpm_trie },
	{ "sleepable_allowed_maps_load", test_sleepable_allowed_maps_load },
	{ "section_names_sleepable", test_section_names_sleepable },
	{ "attach_detach_while_running", test_attach_detach_while_running },
	{ "function_tracer_and_trampoline",
	  test_function_tracer_and_trampoline },
	{ "kprobe_and_trampoline", test_kprobe_and_trampoline },
	{ "module_function", test_module_function },
	{ "trampoline_on_bpf_prog", test_trampoline_on_bpf_prog },
	{ "recursion_guard_direct", test_recursion_guard_direct },
	{ "trampoline_churn", test_trampoline_churn },
	{ "trampoline_churn_function_tracer",
	  test_trampoline_churn_function_tracer },
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

/*
 * Cases left out with -x (comma-separated names): the harness leaves out
 * a case its known-failure list says crashes this kernel, and reports it
 * as an expected failure itself.
 */
static char *excluded;

static int is_excluded(const char *name)
{
	size_t n = strlen(name);
	const char *p = excluded;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

static int selected(const char *name, const char *filter)
{
	if (is_excluded(name))
		return 0;
	return !filter || !*filter || strstr(name, filter);
}

static int run_cases(const char *filter)
{
	unsigned int i, n = 0, num = 0, failed = 0;

	for (i = 0; i < NR_CASES; i++)
		n += selected(cases[i].name, filter);
	printf("KTAP version 1\n1..%u\n", n);
	fflush(stdout);
	for (i = 0; i < NR_CASES; i++) {
		if (!selected(cases[i].name, filter))
			continue;
		case_failed = 0;
		libbpf_log_len = 0;
		libbpf_log[0] = 0;
		cases[i].fn();
		if (case_failed && libbpf_log_len)
			diag("libbpf: %s", libbpf_log);
		printf("%sok %u %s\n", case_failed ? "not " : "", ++num,
		       cases[i].name);
		fflush(stdout);
		failed += case_failed;
	}
	return failed ? 1 : 0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The seeds' trig-* idea: getpgid in a loop under each kind of program. */
static int run_bench(long iters)
{
	static const char *const modes[] = {
		"base", "fentry", "fentry.s", "fexit", "fmod_ret", "kprobe",
	};
	unsigned int i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct bpf_program *prog = NULL;
		struct bpf_link *link = NULL;
		struct bench *skel;
		double t0, t1;
		long k;
		int err = 0;

		skel = bench__open();
		if (!skel) {
			printf("bench: mode=%s error=open\n", modes[i]);
			continue;
		}
		bpf_object__for_each_program(prog, skel->obj)
			if (strncmp(bpf_program__section_name(prog), "kprobe", 6))
				bpf_program__set_attach_target(prog, 0,
							       sys_fn("getpgid"));
		err = bench__load(skel);
		if (!err) {
			prog = NULL;
			if (!strcmp(modes[i], "fentry"))
				prog = skel->progs.bench_fentry;
			else if (!strcmp(modes[i], "fentry.s"))
				prog = skel->progs.bench_fentry_s;
			else if (!strcmp(modes[i], "fexit"))
				prog = skel->progs.bench_fexit;
			else if (!strcmp(modes[i], "fmod_ret"))
				prog = skel->progs.bench_fmod_ret;
			if (prog)
				link = bpf_program__attach(prog);
			else if (!strcmp(modes[i], "kprobe"))
				link = bpf_program__attach_kprobe(
					skel->progs.bench_kprobe, false,
					sys_fn("getpgid"));
			if ((prog || !strcmp(modes[i], "kprobe")) && !link)
				err = -errno;
		}
		if (err) {
			printf("bench: mode=%s error=%d (%s)\n", modes[i], err,
			       strerror(-err));
			bench__destroy(skel);
			continue;
		}
		for (k = 0; k < iters / 10; k++)	/* warm up */
			syscall(__NR_getpgid, 0);
		skel->bss->hits = 0;
		t0 = now_ns();
		for (k = 0; k < iters; k++)
			syscall(__NR_getpgid, 0);
		t1 = now_ns();
		printf("bench: mode=%s iters=%ld ns=%.0f hits=%ld\n", modes[i],
		       iters, t1 - t0, skel->bss->hits);
		fflush(stdout);
		bpf_link__destroy(link);
		bench__destroy(skel);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *filter = NULL;
	unsigned int i;
	int opt;

	/* The exec probe of test_lsm_s_exec_maps. */
	if (argc == 2 && !strcmp(argv[1], "--exit"))
		return 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_print);
	if (argc == 3 && !strcmp(argv[1], "--bench"))
		return run_bench(atol(argv[2]));
	while ((opt = getopt(argc, argv, "lt:x:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < NR_CASES; i++)
				printf("%s\n", cases[i].name);
			return 0;
		case 't':
			filter = optarg;
			break;
		case 'x':
			excluded = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-l] [-t SUBSTRING] "
				"[-x CASE,...] | --bench ITERATIONS\n",
				argv[0]);
			return 2;
		}
	}
	return run_cases(filter);
}
