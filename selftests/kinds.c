// SPDX-License-Identifier: GPL-2.0
/*
 * Trampoline kinds beyond fentry/fexit on kernel functions: programs
 * calling kfuncs (on riscv64 only the series lets the JIT call them),
 * struct_ops (bpf_dummy_ops through test_run, a TCP congestion control
 * carrying loopback traffic), BPF_LSM_CGROUP shims, and fexit under the
 * function graph tracer.
 */
#include "sleeptest.h"

#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/keyctl.h>

#include "dummy_ops.skel.h"
#include "graph_fexit.skel.h"
#include "kfunc_call.skel.h"
#include "kfunc_keys.skel.h"
#include "lsm_cgroup.skel.h"
#include "tcp_ca.skel.h"

/* Wait up to ms for *counter to reach want: 1 if it did. */
static int counter_reaches(volatile long *counter, long want, long ms)
{
	while (*counter < want && ms > 0) {
		sleep_ms(10);
		ms -= 10;
	}
	return *counter >= want;
}

/*
 * Unload the test module once the programs that called its kfuncs are
 * freed (a program holds the module until then, and frees after an RCU
 * grace period): 0 or -errno after up to 5 s.
 */
static int unload_module_when_unused(void)
{
	int err, ms = 5000;

	while ((err = unload_test_module()) == -EWOULDBLOCK && ms > 0) {
		sleep_ms(10);
		ms -= 10;
	}
	return err;
}

/* Trigger the lsm.s/bpf programs: one bpf() command they look for. */
static void bpf_syscall_trigger(void)
{
	__u32 id = 0;

	bpf_map_get_next_id(0, &id);
}

/* kfunc_call.bpf.c opened with only its program @name to be loaded. */
static struct kfunc_call *kfunc_open_only(const char *name)
{
	struct kfunc_call *skel = kfunc_call__open();
	struct bpf_program *p;

	if (!CHECK(skel, "open failed"))
		return NULL;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p),
						     name));
	return skel;
}

/*
 * A tc program calls 6.1's test kfuncs and the test module's, with u32s
 * that have the top bit set and an int that 32-bit BPF arithmetic left
 * zero-extended: each result is what the C function computes.
 */
static void kfunc_tc(void)
{
	const __s64 want_widen = -300 + 0x80000040LL + 1000;
	struct kfunc_call *skel;
	__u32 retval;

	skel = kfunc_open_only("kfunc_tc");
	if (!skel)
		return;
	if (!CHECK_ERR(kfunc_call__load(skel), "load the tc program"))
		goto out;
	if (!CHECK_ERR(test_run_packet(bpf_program__fd(skel->progs.kfunc_tc),
				       &retval), "test run"))
		goto out;
	CHECK(retval == 0 && skel->bss->tc_runs == 1,
	      "the program returned %u after %d runs", retval,
	      skel->bss->tc_runs);
	CHECK(skel->bss->got_test1 == 0x80000001ULL + (1ULL << 40) +
	      0xffffffffULL + 5, "bpf_kfunc_call_test1() gave %#llx",
	      (unsigned long long)skel->bss->got_test1);
	CHECK(skel->bss->got_test2 == (int)(7 + 0xfffffff0U),
	      "bpf_kfunc_call_test2() gave %d", skel->bss->got_test2);
	CHECK(skel->bss->got_widen == want_widen,
	      "sleeptest_kfunc_widen(-300, 0x80000040, 1000) gave %lld, want "
	      "%lld (a difference of 2^32 is an int argument left "
	      "zero-extended)", (long long)skel->bss->got_widen,
	      (long long)want_widen);
out:
	kfunc_call__destroy(skel);
}

/* A sleepable kfunc from a non-sleepable program: the verifier's refusal. */
static void kfunc_sleep_refused(void)
{
	static char vlog[65536];
	struct kfunc_call *skel;
	int err;

	skel = kfunc_open_only("kfunc_sleep_from_tc");
	if (!skel)
		return;
	vlog[0] = 0;
	bpf_program__set_log_buf(skel->progs.kfunc_sleep_from_tc, vlog,
				 sizeof(vlog));
	err = kfunc_call__load(skel);
	if (CHECK(err == -EACCES || err == -EINVAL,
		  "loading a tc program calling a sleepable kfunc gave %d",
		  err))
		CHECK(strstr(vlog, "kernel function sleeptest_kfunc_sleep is "
			     "sleepable but the program is not"),
		      "not the kernel's refusal");
	else
		show_log_tail(vlog);
	kfunc_call__destroy(skel);
}

/* An lsm.s program calls the module's sleeping kfunc, in sleepable context. */
static void kfunc_lsm_s(void)
{
	struct kfunc_call *skel;

	skel = kfunc_open_only("kfunc_lsm_s");
	if (!skel)
		return;
	if (!CHECK_ERR(kfunc_call__load(skel), "load the lsm.s program"))
		goto out;
	skel->bss->monitored_pid = getpid();
	if (!CHECK_ERR(attach_prog(skel->progs.kfunc_lsm_s,
				   &skel->links.kfunc_lsm_s), "attach lsm.s"))
		goto out;
	bpf_syscall_trigger();
	bpf_syscall_trigger();
	CHECK(skel->bss->lsm_runs == 2 && skel->bss->got_sleep == 3,
	      "lsm.s ran %d times (want 2), sleeptest_kfunc_sleep(2) gave %d",
	      skel->bss->lsm_runs, skel->bss->got_sleep);
out:
	kfunc_call__destroy(skel);
}

void test_kfunc_calls(void)
{
	int err;

	if (!load_test_module())
		return;
	kfunc_tc();
	kfunc_sleep_refused();
	kfunc_lsm_s();
	err = unload_module_when_unused();
	CHECK(!err, "delete_module: %s", strerror(-err));
}

/*
 * bpf_lookup_user_key() and bpf_key_put() from lsm.s: a key of the test
 * process's keyring is found, a serial that names no key is not.
 */
void test_lsm_s_key_kfuncs(void)
{
	struct kfunc_keys *skel;
	long serial;

	serial = syscall(__NR_add_key, "user", "sleeptest", "payload", 7,
			 KEY_SPEC_PROCESS_KEYRING);
	if (!CHECK(serial > 0, "add_key: %s", strerror(errno)))
		return;
	skel = kfunc_keys__open_and_load();
	if (!CHECK(skel, "open and load: %d (%s)", -errno,
		   strerror(errno)))
		goto out_key;
	skel->bss->monitored_pid = getpid();
	skel->bss->key_serial = serial;
	skel->bss->missing_serial = serial + 1000;
	if (!CHECK_ERR(attach_prog(skel->progs.lookup_keys,
				   &skel->links.lookup_keys), "attach lsm.s"))
		goto out;
	bpf_syscall_trigger();
	CHECK(skel->bss->runs == 1, "lsm.s ran %d times, want 1",
	      skel->bss->runs);
	CHECK(skel->bss->found == 1, "the key %ld was found %d times", serial,
	      skel->bss->found);
	CHECK(skel->bss->missing_found == 0, "a missing key was found");
out:
	kfunc_keys__destroy(skel);
out_key:
	syscall(__NR_keyctl, KEYCTL_INVALIDATE, serial);
}

/* One bpf_dummy_ops member through test_run: its return value, or -errno. */
static int dummy_run(struct bpf_program *prog, const __u64 *args, int nargs,
		     int *ret)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args,
		    .ctx_size_in = nargs * sizeof(__u64));

	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
		return -errno;
	*ret = (int)opts.retval;
	return 0;
}

/*
 * struct_ops trampolines of bpf_dummy_ops: test_1 returns the state's int
 * (every sign and width of it), test_2 gets an int of -100, a u16 and a
 * char with their high bits set, and an unsigned long.
 */
void test_struct_ops_dummy(void)
{
	static const int vals[] = { 0, 1, -1, -100, INT_MAX, INT_MIN,
				    0x7fffff80, (int)0x80000040 };
	struct { int val; } state;
	struct dummy_ops *skel;
	__u64 args[5];
	unsigned int i;
	int ret;

	skel = dummy_ops__open_and_load();
	if (!CHECK(skel, "open and load: %d (%s)", -errno,
		   strerror(errno)))
		return;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		state.val = vals[i];
		args[0] = (unsigned long)&state;
		if (!CHECK_ERR(dummy_run(skel->progs.dummy_test_1, args, 1,
					 &ret), "test_1"))
			goto out;
		CHECK(ret == vals[i], "test_1 returned %d for %d", ret,
		      vals[i]);
	}
	args[0] = (unsigned long)&state;
	args[1] = (__u64)(__s64)-100;
	args[2] = 0xfff0;
	args[3] = 0xf5;
	args[4] = 0x8000000000000001ULL;
	skel->bss->ret_bias = INT_MIN + 100;
	if (!CHECK_ERR(dummy_run(skel->progs.dummy_test_2, args, 5, &ret),
		       "test_2"))
		goto out;
	CHECK(skel->bss->got_a1 == -100 && skel->bss->got_a2 == 0xfff0 &&
	      (unsigned char)skel->bss->got_a3 == 0xf5 &&
	      skel->bss->got_a4 == 0x8000000000000001UL,
	      "test_2 got %d, %#x, %#x, %#lx", skel->bss->got_a1,
	      skel->bss->got_a2, (unsigned char)skel->bss->got_a3,
	      skel->bss->got_a4);
	CHECK(ret == INT_MIN, "test_2 returned %d, want %d", ret, INT_MIN);
out:
	dummy_ops__destroy(skel);
}

/* Bring up the loopback interface (the guest's init leaves it down). */
static int loopback_up(void)
{
	struct ifreq ifr = {};
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			err = -errno;
	} else {
		err = -errno;
	}
	close(fd);
	return err;
}

/* A TCP connection over loopback, both ends with congestion control ca. */
struct tcp_pair {
	int client, server;
};

static int tcp_pair_open(struct tcp_pair *p, const char *ca)
{
	struct sockaddr_in addr = { .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(addr);
	int lfd, err = 0;

	p->client = p->server = -1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return -errno;
	if (setsockopt(lfd, IPPROTO_TCP, TCP_CONGESTION, ca, strlen(ca)) ||
	    bind(lfd, (void *)&addr, sizeof(addr)) || listen(lfd, 1) ||
	    getsockname(lfd, (void *)&addr, &len)) {
		err = -errno;
		goto out;
	}
	p->client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->client < 0 ||
	    setsockopt(p->client, IPPROTO_TCP, TCP_CONGESTION, ca,
		       strlen(ca)) ||
	    connect(p->client, (void *)&addr, sizeof(addr))) {
		err = -errno;
		goto out;
	}
	p->server = accept(lfd, NULL, NULL);
	if (p->server < 0)
		err = -errno;
out:
	close(lfd);
	return err;
}

static void tcp_pair_close(struct tcp_pair *p)
{
	if (p->client >= 0)
		close(p->client);
	if (p->server >= 0)
		close(p->server);
}

/* The congestion control a socket uses, as getsockopt() names it. */
static const char *tcp_ca_of(int fd, char *buf, socklen_t len)
{
	buf[0] = 0;
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, buf, &len))
		snprintf(buf, len, "error %d", errno);
	return buf;
}

struct tcp_sink {
	int fd;
	unsigned long bytes;
	unsigned long sum;
};

static void *tcp_sink_run(void *arg)
{
	struct tcp_sink *s = arg;
	unsigned char buf[16384];
	ssize_t n, i;

	while ((n = read(s->fd, buf, sizeof(buf))) > 0) {
		s->bytes += n;
		for (i = 0; i < n; i++)
			s->sum += buf[i];
	}
	return NULL;
}

/* Send len bytes of a known pattern; the pattern's byte sum, or 0. */
static unsigned long tcp_send(int fd, unsigned long len)
{
	unsigned char buf[16384];
	unsigned long sent = 0, sum = 0;
	size_t i, n;
	ssize_t w;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i * 7 + 3;
	while (sent < len) {
		n = len - sent < sizeof(buf) ? len - sent : sizeof(buf);
		w = write(fd, buf, n);
		if (w <= 0)
			return 0;
		for (i = 0; i < (size_t)w; i++)
			sum += buf[i];
		sent += w;
	}
	return sum;
}

#define TCP_CA_BYTES (4UL << 20)

/*
 * A tcp_congestion_ops in BPF carries 2 x 4 MiB over loopback: the data
 * arrives whole, its callbacks run; unregistered while the connection is
 * open, the connection keeps it and goes on, new sockets can no longer
 * choose it, and closing the connection releases it.
 */
void test_struct_ops_tcp_ca(void)
{
	struct tcp_pair p = { -1, -1 };
	struct tcp_sink sink = {};
	struct tcp_ca__bss *b;
	struct bpf_link *link;
	struct tcp_ca *skel;
	unsigned long sum1, sum2;
	pthread_t reader;
	char name[32];
	long cong;
	int err, fd;

	if (!CHECK_ERR(loopback_up(), "bring up lo"))
		return;
	skel = tcp_ca__open_and_load();
	if (!CHECK(skel, "open and load: %d (%s)", -errno,
		   strerror(errno)))
		return;
	b = skel->bss;
	link = bpf_map__attach_struct_ops(skel->maps.sleeptest_ca);
	if (!CHECK_ERR(link ? 0 : -errno, "register sleeptest_ca"))
		goto out;
	err = tcp_pair_open(&p, "sleeptest_ca");
	if (!CHECK_ERR(err, "connect with sleeptest_ca"))
		goto out_link;
	CHECK(!strcmp(tcp_ca_of(p.client, name, sizeof(name)),
		      "sleeptest_ca"), "the client uses %s", name);
	sink.fd = p.server;
	if (!CHECK_ERR(-pthread_create(&reader, NULL, tcp_sink_run, &sink),
		       "reader thread"))
		goto out_link;
	sum1 = tcp_send(p.client, TCP_CA_BYTES);
	CHECK(sum1, "send: %s", strerror(errno));
	cong = b->cong_avoid_calls;
	CHECK(cong > 0, "cong_avoid did not run");

	/* unregister while the connection uses it */
	bpf_link__destroy(link);
	link = NULL;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	err = setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, "sleeptest_ca",
			 strlen("sleeptest_ca")) ? -errno : 0;
	close(fd);
	CHECK(err == -ENOENT, "choosing an unregistered sleeptest_ca gave %d",
	      err);
	CHECK(!strcmp(tcp_ca_of(p.client, name, sizeof(name)),
		      "sleeptest_ca"), "after unregistering the client uses %s",
	      name);
	sum2 = tcp_send(p.client, TCP_CA_BYTES);
	CHECK(sum2, "send after unregistering: %s", strerror(errno));
	CHECK(b->cong_avoid_calls > cong,
	      "cong_avoid did not run after unregistering (%ld calls)", cong);
	shutdown(p.client, SHUT_WR);
	pthread_join(reader, NULL);
	CHECK(sink.bytes == 2 * TCP_CA_BYTES && sink.sum == sum1 + sum2,
	      "received %lu bytes, byte sum %#lx, want %lu and %#lx",
	      sink.bytes, sink.sum, 2 * TCP_CA_BYTES, sum1 + sum2);
	tcp_pair_close(&p);
	p.client = p.server = -1;
	/* the listener, the client and the accepted socket; the last two
	 * are freed when loopback's last segments have been handled
	 */
	counter_reaches(&b->release_calls, 3, 5000);
	CHECK(b->init_calls == 2 && b->release_calls == 3,
	      "init ran %ld times (want 2: client and accepted socket), "
	      "release %ld (want 3: and the listener)", b->init_calls,
	      b->release_calls);
	diag("callbacks: init %ld, release %ld, cong_avoid %ld, ssthresh %ld, "
	     "undo_cwnd %ld, set_state %ld, cwnd_event %ld; largest cwnd %u",
	     b->init_calls, b->release_calls, b->cong_avoid_calls,
	     b->ssthresh_calls, b->undo_calls, b->state_calls,
	     b->cwnd_event_calls, b->max_cwnd);
out_link:
	bpf_link__destroy(link);
	tcp_pair_close(&p);
out:
	tcp_ca__destroy(skel);
}

#define CGROUP_ROOT "/sys/fs/cgroup"

/* Move the test process into cgroup dir (relative to the root): 0 or -errno. */
static int cgroup_join(const char *dir)
{
	char path[256], pid[32];

	snprintf(path, sizeof(path), CGROUP_ROOT "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_file(path, pid);
}

/* socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP): 0, or -errno if refused. */
static int udp_socket_allowed(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * BPF_LSM_CGROUP on socket_create: a program on one cgroup refuses UDP
 * sockets, one on another allows them; the test process moves between
 * the two and the outcome follows it.  Detaching both removes the shim's
 * trampoline, and the refusal with it.
 */
void test_lsm_cgroup_two_cgroups(void)
{
	struct bpf_link *deny = NULL, *allow = NULL;
	int deny_fd = -1, allow_fd = -1, images0, images, err, fd;
	struct lsm_cgroup *skel;

	if (mount("none", CGROUP_ROOT, "cgroup2", 0, NULL) && errno != EBUSY) {
		CHECK(0, "mount cgroup2: %s", strerror(errno));
		return;
	}
	if ((mkdir(CGROUP_ROOT "/st_deny", 0755) && errno != EEXIST) ||
	    (mkdir(CGROUP_ROOT "/st_allow", 0755) && errno != EEXIST)) {
		CHECK(0, "mkdir: %s", strerror(errno));
		return;
	}
	deny_fd = open(CGROUP_ROOT "/st_deny", O_RDONLY | O_DIRECTORY);
	allow_fd = open(CGROUP_ROOT "/st_allow", O_RDONLY | O_DIRECTORY);
	if (!CHECK(deny_fd >= 0 && allow_fd >= 0, "open the cgroups: %s",
		   strerror(errno)))
		goto out_dirs;
	skel = lsm_cgroup__open_and_load();
	if (!CHECK(skel, "open and load: %d (%s)", -errno,
		   strerror(errno)))
		goto out_dirs;
	skel->bss->monitored_pid = getpid();
	images0 = count_trampoline_images();
	deny = bpf_program__attach_cgroup(skel->progs.cg_deny_udp, deny_fd);
	if (!CHECK_ERR(deny ? 0 : -errno, "attach to st_deny"))
		goto out;
	allow = bpf_program__attach_cgroup(skel->progs.cg_allow, allow_fd);
	if (!CHECK_ERR(allow ? 0 : -errno, "attach to st_allow"))
		goto out;
	images = count_trampoline_images();
	CHECK(images == images0 + 1,
	      "%d trampoline images with the shim, %d before", images,
	      images0);

	if (!CHECK_ERR(cgroup_join("/st_deny"), "join st_deny"))
		goto out;
	err = udp_socket_allowed();
	CHECK(err == -EPERM, "a UDP socket in st_deny: %d, want -EPERM", err);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(fd >= 0, "a TCP socket in st_deny: %s", strerror(errno));
	close(fd);
	if (!CHECK_ERR(cgroup_join("/st_allow"), "join st_allow"))
		goto out;
	err = udp_socket_allowed();
	CHECK(!err, "a UDP socket in st_allow: %d", err);
	cgroup_join("/st_deny");
	err = udp_socket_allowed();
	CHECK(err == -EPERM, "a UDP socket back in st_deny: %d", err);
	CHECK(skel->bss->deny_calls == 3 && skel->bss->allow_calls == 1,
	      "the st_deny program ran %ld times (want 3), st_allow's %ld "
	      "(want 1)", skel->bss->deny_calls, skel->bss->allow_calls);

	bpf_link__destroy(deny);
	bpf_link__destroy(allow);
	deny = allow = NULL;
	err = udp_socket_allowed();
	CHECK(!err, "a UDP socket in st_deny after detaching: %d", err);
	for (images = -1, fd = 0; fd < 500; fd++) {
		images = count_trampoline_images();
		if (images == images0)
			break;
		sleep_ms(10);
	}
	CHECK(images == images0, "%d trampoline images 5 s after detaching, "
	      "%d before attaching", images, images0);
out:
	cgroup_join("");
	bpf_link__destroy(deny);
	bpf_link__destroy(allow);
	lsm_cgroup__destroy(skel);
out_dirs:
	if (deny_fd >= 0)
		close(deny_fd);
	if (allow_fd >= 0)
		close(allow_fd);
	rmdir(CGROUP_ROOT "/st_deny");
	rmdir(CGROUP_ROOT "/st_allow");
}

#define TRACE "/sys/kernel/tracing/trace"

#define FUNCGRAPH_TAIL "/sys/kernel/tracing/options/funcgraph-tail"

/*
 * Calls of fn the graph tracer recorded whole, and entries without their
 * return.  A call is printed as one "fn();" line when its return follows
 * its entry in the buffer, else (an interrupt or a migration in between)
 * as "fn() {" and later, with options/funcgraph-tail, a "}" line naming fn.
 */
static void graph_calls(const char *fn, long *whole, long *open)
{
	char line[512];
	FILE *f;

	*whole = *open = 0;
	f = fopen(TRACE, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strstr(line, fn))
			continue;
		if (strstr(line, "();")) {
			(*whole)++;
		} else if (strstr(line, "() {")) {
			(*open)++;
		} else if (strstr(line, "} /*")) {
			(*whole)++;
			(*open)--;
		}
	}
	fclose(f);
}

/* Call sleeptest_mod_target() with 1..n: 0, or -errno on a wrong result. */
static int trigger_module(int n)
{
	char buf[64] = {};
	int fd, i, err = 0;

	fd = open(TEST_MODULE_TRIGGER, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (i = 1; i <= n && !err; i++)
		if (write(fd, buf, i) != i)
			err = -errno;
	close(fd);
	return err;
}

/*
 * The function graph tracer and an fexit on one module function: fexit
 * sees every argument and return value, the tracer records each call
 * whole (its return hook survives the trampoline), before and after the
 * fexit is detached.
 */
void test_function_graph_and_fexit(void)
{
	const char *fn = "sleeptest_mod_target";
	struct graph_fexit *skel = NULL;
	long whole, open;
	int err;

	if (!load_test_module())
		return;
	skel = graph_fexit__open_and_load();
	if (!CHECK(skel, "open and load: %d (%s)", -errno,
		   strerror(errno)))
		goto out_mod;
	skel->bss->monitored_pid = getpid();
	if (!CHECK_ERR(set_ftrace_filter(fn), "set_ftrace_filter") ||
	    !CHECK_ERR(write_file(TRACE, ""), "clear trace") ||
	    !CHECK_ERR(write_file(FUNCGRAPH_TAIL, "1"), "funcgraph-tail") ||
	    !CHECK_ERR(write_file("/sys/kernel/tracing/current_tracer",
				  "function_graph"), "function_graph tracer"))
		goto out;
	if (!CHECK_ERR(attach_prog(skel->progs.graph_exit,
				   &skel->links.graph_exit), "attach fexit"))
		goto out_tracer;
	report_call_path(fn);
	err = trigger_module(20);
	CHECK(!err, "the module function returned a wrong value: %d", err);
	CHECK(skel->bss->calls == 20 && skel->bss->arg_sum == 210 &&
	      skel->bss->ret_sum == 440,
	      "fexit: %ld calls (want 20), arguments summed %ld (210), "
	      "results %ld (440)", skel->bss->calls, skel->bss->arg_sum,
	      skel->bss->ret_sum);
	bpf_link__destroy(skel->links.graph_exit);
	skel->links.graph_exit = NULL;
	err = trigger_module(5);
	CHECK(!err, "after detaching the module function returned a wrong "
	      "value: %d", err);
	write_file("/sys/kernel/tracing/tracing_on", "0");
	graph_calls(fn, &whole, &open);
	write_file("/sys/kernel/tracing/tracing_on", "1");
	CHECK(whole == 25 && !open,
	      "the graph tracer recorded %ld whole calls (want 25) and %ld "
	      "entries without a return (want 0)", whole, open);
out_tracer:
	write_file("/sys/kernel/tracing/current_tracer", "nop");
out:
	write_file(FUNCGRAPH_TAIL, "0");
	write_file(FTRACE_FILTER, "");
	graph_fexit__destroy(skel);
out_mod:
	err = unload_test_module();
	CHECK(!err, "delete_module: %s", strerror(-err));
}
