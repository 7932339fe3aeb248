// SPDX-License-Identifier: GPL-2.0
/*
 * Does a trampoline attach work on the running kernel?  See
 * glue_probe_attach_kind() in glue.h.  Each kind loads a two-instruction
 * program against the kernel's BTF, attaches it for real and closes both
 * file descriptors, so the answer is the kernel's own, including the
 * errno a tool would get.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "glue.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The syscall the fentry kinds attach to: error-injectable, so fentry.s
 * may attach, and harmless to trace for a moment.
 */
#define PROBE_SYSCALL "getpgid"
/* On 6.1's list of hooks an lsm.s program may attach to. */
#define PROBE_LSM_HOOK "bpf_lsm_bprm_committed_creds"

struct kind_desc {
	const char *name;
	enum bpf_prog_type prog_type;
	enum bpf_attach_type attach_type;
	__u32 prog_flags;
};

static const struct kind_desc kinds[GLUE_NR_ATTACH_KINDS] = {
	[GLUE_FENTRY] = { "fentry", BPF_PROG_TYPE_TRACING,
			  BPF_TRACE_FENTRY, 0 },
	[GLUE_FENTRY_S] = { "fentry.s", BPF_PROG_TYPE_TRACING,
			    BPF_TRACE_FENTRY, BPF_F_SLEEPABLE },
	[GLUE_LSM_S] = { "lsm.s", BPF_PROG_TYPE_LSM, BPF_LSM_MAC,
			 BPF_F_SLEEPABLE },
};

/* r0 = 0; exit */
static const struct bpf_insn return_zero[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

const char *glue_attach_kind_name(enum glue_attach_kind kind)
{
	return (unsigned int)kind < GLUE_NR_ATTACH_KINDS ? kinds[kind].name
							 : "?";
}

const char *glue_stage_name(enum glue_stage stage)
{
	switch (stage) {
	case GLUE_STAGE_DONE:
		return "works";
	case GLUE_STAGE_TARGET:
		return "target";
	case GLUE_STAGE_LOAD:
		return "load";
	case GLUE_STAGE_ATTACH:
		return "attach";
	}
	return "?";
}

/* The function @kind attaches to, and its BTF id. */
static int find_target(enum glue_attach_kind kind, const struct btf *vmlinux,
		       struct glue_attach_result *res, __u32 *btf_id)
{
	struct glue_syscall sc;
	int id, err;

	if (kind == GLUE_LSM_S) {
		snprintf(res->target, sizeof(res->target), "%s",
			 PROBE_LSM_HOOK);
		id = btf__find_by_name_kind(vmlinux, PROBE_LSM_HOOK,
					    BTF_KIND_FUNC);
		if (id <= 0)
			return -ENOENT;
		*btf_id = id;
		return 0;
	}
	err = glue_syscall_resolve(vmlinux, PROBE_SYSCALL, &sc);
	snprintf(res->target, sizeof(res->target), "%s", sc.fn);
	if (err)
		return err;
	*btf_id = sc.btf_id;
	return 0;
}

/*
 * The verifier's reason: the log's last line, before the statistics it
 * ends with ("processed N insns ...", "verification time ...").
 */
static void log_reason(char *log, char *out, size_t len)
{
	char *end = log + strlen(log), *line;

	for (;;) {
		while (end > log && (end[-1] == '\n' || end[-1] == ' '))
			*--end = 0;
		line = strrchr(log, '\n');
		line = line ? line + 1 : log;
		if (line == log || (strncmp(line, "processed ", 10) &&
				    strncmp(line, "verification time", 17)))
			break;
		end = line;
	}
	snprintf(out, len, "%s", line);
}

static int load(const struct kind_desc *d, __u32 btf_id,
		struct glue_attach_result *res)
{
	size_t cnt = ARRAY_SIZE(return_zero);
	char log[4096] = "";
	int fd, again;
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = d->attach_type,
		    .attach_btf_id = btf_id,
		    .prog_flags = d->prog_flags);

	/* libbpf returns -errno */
	fd = bpf_prog_load(d->prog_type, "glue_probe", "GPL", return_zero, cnt,
			   &opts);
	if (fd >= 0)
		return fd;
	/* Again with the log, for the reason. */
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.log_level = 1;
	again = bpf_prog_load(d->prog_type, "glue_probe", "GPL", return_zero,
			      cnt, &opts);
	if (again >= 0) {
		close(again);
		snprintf(res->detail, sizeof(res->detail),
			 "loaded when retried with a verifier log");
	} else {
		log_reason(log, res->detail, sizeof(res->detail));
	}
	return fd;
}

static int attach(int prog_fd, enum bpf_attach_type type)
{
	int fd;

	fd = bpf_link_create(prog_fd, 0, type, NULL);
	/* Kernels before tracing links attach these through raw_tp_open. */
	if (fd == -EINVAL)
		fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	return fd;
}

int glue_probe_attach_kind(enum glue_attach_kind kind,
			   const struct btf *vmlinux,
			   struct glue_attach_result *res)
{
	struct btf *own = NULL;
	int prog_fd = -1, link_fd;
	__u32 btf_id = 0;

	memset(res, 0, sizeof(*res));
	if ((unsigned int)kind >= GLUE_NR_ATTACH_KINDS) {
		res->stage = GLUE_STAGE_TARGET;
		return res->err = -EINVAL;
	}
	if (!vmlinux) {
		own = btf__load_vmlinux_btf();
		if (!own) {
			res->stage = GLUE_STAGE_TARGET;
			return res->err = errno ? -errno : -ENOENT;
		}
		vmlinux = own;
	}
	res->stage = GLUE_STAGE_TARGET;
	res->err = find_target(kind, vmlinux, res, &btf_id);
	if (res->err)
		goto out;
	res->stage = GLUE_STAGE_LOAD;
	prog_fd = load(&kinds[kind], btf_id, res);
	if (prog_fd < 0) {
		res->err = prog_fd;
		goto out;
	}
	res->stage = GLUE_STAGE_ATTACH;
	link_fd = attach(prog_fd, kinds[kind].attach_type);
	if (link_fd < 0) {
		res->err = link_fd;
		goto out;
	}
	close(link_fd);
	res->stage = GLUE_STAGE_DONE;
out:
	if (prog_fd >= 0)
		close(prog_fd);
	btf__free(own);
	return res->err;
}

unsigned int glue_probe_attach_kinds(struct glue_attach_support *sup)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int err = vmlinux ? 0 : (errno ? -errno : -ENOENT);
	unsigned int works = 0;
	int k;

	for (k = 0; k < GLUE_NR_ATTACH_KINDS; k++) {
		struct glue_attach_result *res = &sup->kind[k];

		if (err) {
			memset(res, 0, sizeof(*res));
			res->stage = GLUE_STAGE_TARGET;
			res->err = err;
			continue;
		}
		if (!glue_probe_attach_kind(k, vmlinux, res))
			works |= GLUE_KIND_BIT(k);
	}
	btf__free(vmlinux);
	return works;
}
