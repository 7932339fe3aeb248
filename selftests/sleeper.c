// SPDX-License-Identifier: GPL-2.0
/*
 * The machinery of the lifetime and concurrency cases; see sleeper.h.
 */
#include "sleeptest.h"
#include <ctype.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>

#include "sleeper.h"

/* A page whose first touch blocks until the test releases it. */

int gate_init_pages(struct uffd_gate *g, int pages)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {};

	g->page_size = sysconf(_SC_PAGESIZE);
	g->pages = pages;
	g->uffd = -1;
	g->page = mmap(NULL, pages * g->page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(g->page != MAP_FAILED, "mmap: %s", strerror(errno))) {
		g->page = NULL;
		return 0;
	}
	g->uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (!CHECK(g->uffd >= 0, "userfaultfd: %s", strerror(errno)))
		return 0;
	reg.range.start = (unsigned long)g->page;
	reg.range.len = pages * g->page_size;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	return CHECK(!ioctl(g->uffd, UFFDIO_API, &api), "UFFDIO_API: %s",
		     strerror(errno)) &&
	       CHECK(!ioctl(g->uffd, UFFDIO_REGISTER, &reg),
		     "UFFDIO_REGISTER: %s", strerror(errno));
}

int gate_init(struct uffd_gate *g)
{
	return gate_init_pages(g, 1);
}

/* 1 once a thread is blocked on the gate, 0 after timeout_ms. */
int gate_wait_sleeper(struct uffd_gate *g, int timeout_ms)
{
	struct pollfd pfd = { .fd = g->uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, timeout_ms) != 1)
		return 0;
	if (read(g->uffd, &msg, sizeof(msg)) != sizeof(msg))
		return 0;
	return msg.event == UFFD_EVENT_PAGEFAULT;
}

/*
 * Page index appears, value in its first bytes, and whoever faulted on it
 * goes on: 0 or -errno (-EEXIST if it was there already).
 */
int gate_fill(struct uffd_gate *g, int index, __u64 value)
{
	struct uffdio_copy copy = {};
	char *src;
	int err = 0;

	src = aligned_alloc(g->page_size, g->page_size);
	if (!src)
		return -ENOMEM;
	memset(src, 0, g->page_size);
	memcpy(src, &value, sizeof(value));
	copy.dst = (unsigned long)g->page + index * g->page_size;
	copy.src = (unsigned long)src;
	copy.len = g->page_size;
	if (ioctl(g->uffd, UFFDIO_COPY, &copy))
		err = -errno;
	free(src);
	return err;
}

/* The page appears, value in its first bytes: the sleeper goes on. */
int gate_release(struct uffd_gate *g, __u64 value)
{
	int err = gate_fill(g, 0, value);

	return CHECK(!err, "UFFDIO_COPY: %s", strerror(-err));
}

void gate_fini(struct uffd_gate *g)
{
	if (g->uffd >= 0)
		close(g->uffd);
	if (g->page)
		munmap(g->page, g->pages * g->page_size);
}

/*
 * A thread that makes one call when told to: setdomainname(name), or
 * s->call(s), which returns a syscall's result and leaves errno set.
 */

struct sleeper *signalled_sleeper;

void sleeper_signal(int sig)
{
	if (signalled_sleeper)
		signalled_sleeper->signals++;
}

static void *sleeper_fn(void *arg)
{
	struct sleeper *s = arg;

	if (s->cpu >= 0) {
		cpu_set_t cpus;

		CPU_ZERO(&cpus);
		CPU_SET(s->cpu, &cpus);
		s->pin_err = pthread_setaffinity_np(pthread_self(),
						    sizeof(cpus), &cpus);
	}
	s->tid = syscall(__NR_gettid);
	while (!s->go)
		sleep_ms(1);
	if (s->call)
		s->ret = s->call(s);
	else
		s->ret = syscall(__NR_setdomainname, s->name, strlen(s->name));
	s->err = s->ret < 0 ? errno : 0;
	s->cpu_after_call = sched_getcpu();
	s->done = 1;
	return NULL;
}

/*
 * Start the thread (pinned to cpu unless it is -1) and wait for its tid;
 * the call starts at go.
 */
int sleeper_start_call(struct sleeper *s, const char *name, int cpu,
		       long (*call)(struct sleeper *s))
{
	int err;

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->cpu = cpu;
	s->call = call;
	err = pthread_create(&s->thread, NULL, sleeper_fn, s);
	if (!CHECK(!err, "pthread_create: %s", strerror(err)))
		return 0;
	s->started = 1;
	while (!s->tid)
		sleep_ms(1);
	return CHECK(!s->pin_err, "pinning the sleeper to CPU %d: %s", cpu,
		     strerror(s->pin_err));
}

int sleeper_start_on(struct sleeper *s, const char *name, int cpu)
{
	return sleeper_start_call(s, name, cpu, NULL);
}

int sleeper_start(struct sleeper *s, const char *name)
{
	return sleeper_start_on(s, name, -1);
}

/* Wait up to ms for the sleeper's call to return: 1 if it did. */
int sleeper_wait(struct sleeper *s, long ms)
{
	double t0 = mono_seconds();

	while (!s->done && (mono_seconds() - t0) * 1000 < ms)
		sleep_ms(5);
	return s->done;
}

void sleeper_join(struct sleeper *s)
{
	if (s->started)
		pthread_join(s->thread, NULL);
	s->started = 0;
}

/* Addresses of the bpf_trampoline_<key> images listed; their number. */
int trampoline_images(unsigned long long *addr, int max)
{
	unsigned long long a;
	char line[512], name[256];
	int n = 0;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && n < max)
		if (sscanf(line, "%llx %*c %255s", &a, name) == 2 &&
		    !strncmp(name, "bpf_trampoline_", 15) &&
		    isdigit((unsigned char)name[15]))
			addr[n++] = a;
	fclose(f);
	return n;
}

/* How many of the n images in old are still listed. */
int images_still_listed(const unsigned long long *old, int n)
{
	unsigned long long now[MAX_IMAGES];
	int nr = trampoline_images(now, MAX_IMAGES), i, j, left = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < nr; j++)
			if (old[i] == now[j]) {
				left++;
				break;
			}
	return left;
}

int domainname_is(const char *want)
{
	struct utsname u;

	return !uname(&u) && !strcmp(u.domainname, want);
}

/*
 * The gate made, then the skeleton loaded with all programs on
 * setdomainname, none attached.  gate_fini() the gate whatever happens.
 */
struct lifetime *lifetime_gate_open_load(struct uffd_gate *g)
{
	struct lifetime *skel;
	struct bpf_program *p;

	if (!gate_init(g))
		return NULL;
	skel = lifetime__open();
	if (!CHECK(skel, "open failed"))
		return NULL;
	skel->bss->monitored_pid = getpid();
	skel->bss->gate_addr = (unsigned long)g->page;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_attach_target(p, 0, sys_fn("setdomainname"));
	if (!CHECK_ERR(lifetime__load(skel), "load")) {
		lifetime__destroy(skel);
		return NULL;
	}
	return skel;
}

/* The .bss of a skeleton that may be gone, read through its map. */
int read_bss(int map_fd, struct lifetime__bss *bss)
{
	int zero = 0;

	return bpf_map_lookup_elem(map_fd, &zero, bss) ? -errno : 0;
}

/*
 * Let the started sleeper make its call, as the sleeper the programs know
 * by *tid_var, and wait until it blocks on the gate: 1 if it does.
 */
int sleeper_sleeps(struct sleeper *s, struct uffd_gate *g, int *tid_var)
{
	*tid_var = s->tid;
	s->go = 1;
	return CHECK(gate_wait_sleeper(g, SLEEPER_WAIT_MS),
		     "the sleeper did not block on the gate within %d ms",
		     SLEEPER_WAIT_MS);
}

/* Serve the gate, wait for the sleeper's call to return, join it. */
int sleeper_wake(struct sleeper *s, struct uffd_gate *g)
{
	int ok;

	gate_release(g, GATE_VALUE);
	ok = CHECK(sleeper_wait(s, 10000), "the sleeper's call did not "
		   "return within 10 s of the fault being served");
	sleeper_join(s);
	return ok;
}
