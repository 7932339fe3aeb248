// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' sleepable-program promises: lsm.s, fentry.s, fexit.s and
 * fmod_ret.s programs at work, sleepable and normal programs in order,
 * bpf_copy_from_user() on a page that is not resident, the maps sleepable
 * programs may use, and the ".s" section names (with the syscall()
 * wrapper, linked with --wrap=syscall, that records what libbpf sends).
 */
#include "sleeptest.h"
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "progs/copy_user.h"
#include "lsm_exec.skel.h"
#include "copy_user.skel.h"
#include "modret.skel.h"
#include "order.skel.h"
#include "sections.skel.h"

#define EXEC_PROBE_ARGV0 "sleeptest-exec"
#define UFFD_DELAY_MS 200

/* a: lsm.s on an exec hook, bpf_copy_from_user() and three map kinds. */
void test_lsm_s_exec_maps(void)
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
void test_fentry_s_copy_from_user(void)
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
/*
 * What the sleepable programs of cases c and d read with
 * bpf_copy_from_user(), which the verifier allows only in a sleepable
 * program: they cannot pass without the flag.
 */
static const __u64 user_value = 0x51ee9ab1e5eed5ULL;

void test_fexit_s_args_ret(void)
{
	struct modret *skel;
	long pgid;

	skel = modret__open();
	if (!CHECK(skel, "open failed"))
		return;
	skel->bss->monitored_pid = getpid();
	skel->bss->user_addr = (unsigned long)&user_value;
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
	CHECK(skel->bss->fexit_user_value == user_value,
	      "bpf_copy_from_user() in fexit.s read %#llx, want %#llx",
	      (unsigned long long)skel->bss->fexit_user_value,
	      (unsigned long long)user_value);
out:
	modret__destroy(skel);
}

/* c2: fmod_ret.s replaces the return value the caller sees. */
void test_fmod_ret_s_override(void)
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
	skel->bss->user_addr = (unsigned long)&user_value;
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
	CHECK(skel->bss->modret_user_value == user_value,
	      "bpf_copy_from_user() in fmod_ret.s read %#llx, want %#llx",
	      (unsigned long long)skel->bss->modret_user_value,
	      (unsigned long long)user_value);
out:
	modret__destroy(skel);
}

/* d: sleepable and normal programs on one function, in a defined order:
 * programs of one kind run newest attachment first, fexit after both.
 */
void test_sleepable_and_normal_order(void)
{
	struct order *skel;
	const char *fn = sys_fn("getsid");

	skel = order__open();
	if (!CHECK(skel, "open failed"))
		return;
	skel->bss->monitored_pid = getpid();
	skel->bss->user_addr = (unsigned long)&user_value;
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
	CHECK(skel->bss->user_value == user_value,
	      "bpf_copy_from_user() in fentry.s read %#llx, want %#llx",
	      (unsigned long long)skel->bss->user_value,
	      (unsigned long long)user_value);
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
void test_sleepable_copy_nonresident(void)
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

void test_sleepable_allowed_maps_load(void)
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
void test_section_names_sleepable(void)
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
