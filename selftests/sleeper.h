/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lifetime and concurrency cases share (sleeper.c): a page whose
 * first touch blocks in userfaultfd until the test releases it, a thread
 * that makes one setdomainname() call and sleeps there inside a sleepable
 * program of progs/lifetime.bpf.c, and ways to watch trampoline images.
 */
#ifndef SLEEPTEST_SLEEPER_H
#define SLEEPTEST_SLEEPER_H

#include "progs/lifetime.h"
#include "lifetime.skel.h"

#define GATE_VALUE 0x5eeb5eeb0ddba11ULL
#define SLEEPER_WAIT_MS 10000
#define MAX_IMAGES 64

struct uffd_gate {
	int uffd;
	char *page;		/* the first of pages */
	long page_size;
	int pages;
};

int gate_init(struct uffd_gate *g);
int gate_init_pages(struct uffd_gate *g, int pages);
int gate_wait_sleeper(struct uffd_gate *g, int timeout_ms);
int gate_fill(struct uffd_gate *g, int index, __u64 value);
int gate_release(struct uffd_gate *g, __u64 value);
void gate_fini(struct uffd_gate *g);

struct sleeper {
	pthread_t thread;
	volatile int tid;
	volatile int go;
	volatile int done;
	const char *name;	/* the domain name it sets */
	long ret;
	int err;
	int signals;		/* sleeper_signal() runs */
	int started;
	int cpu;		/* pinned there before the call, or -1 */
	int pin_err;		/* from pthread_setaffinity_np() */
	int cpu_after_call;	/* sched_getcpu() once the call returned */
	/* The call it makes instead of setdomainname(name), if set. */
	long (*call)(struct sleeper *s);
};

extern struct sleeper *signalled_sleeper;
void sleeper_signal(int sig);
int sleeper_start(struct sleeper *s, const char *name);
int sleeper_start_on(struct sleeper *s, const char *name, int cpu);
int sleeper_start_call(struct sleeper *s, const char *name, int cpu,
		       long (*call)(struct sleeper *s));
int sleeper_wait(struct sleeper *s, long ms);
void sleeper_join(struct sleeper *s);
int sleeper_sleeps(struct sleeper *s, struct uffd_gate *g, int *tid_var);
int sleeper_wake(struct sleeper *s, struct uffd_gate *g);

int trampoline_images(unsigned long long *addr, int max);
int images_still_listed(const unsigned long long *old, int n);
int domainname_is(const char *want);
struct lifetime *lifetime_gate_open_load(struct uffd_gate *g);
int read_bss(int map_fd, struct lifetime__bss *bss);

#endif /* SLEEPTEST_SLEEPER_H */
