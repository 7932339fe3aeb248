// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Does a trampoline attach work on the running kernel?  See
 * glue_probe_attach() in glue.h.  Each probe loads a two-instruction
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

/* The default targets: a syscall that is error-injectable, so fentry.s
 * and fmod_ret may attach, and harmless to trace for a moment; a hook on
 * 6.1's list of those an lsm.s program may attach to.
 */
#define DEFAULT_SYSCALL "getpgid"
#define DEFAULT_LSM_HOOK "bprm_committed_creds"
#define LSM_PREFIX "bpf_lsm_"
/* Where the kernel lists the active LSMs (its own -D for the tests). */
#ifndef GLUE_ACTIVE_LSMS
#define GLUE_ACTIVE_LSMS "/sys/kernel/security/lsm"
#endif

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
	[GLUE_FEXIT] = { "fexit", BPF_PROG_TYPE_TRACING,
			 BPF_TRACE_FEXIT, 0 },
	[GLUE_FMOD_RET] = { "fmod_ret", BPF_PROG_TYPE_TRACING,
			    BPF_MODIFY_RETURN, 0 },
	[GLUE_LSM] = { "lsm", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, 0 },
};

/* r0 = 0; exit */
static const struct bpf_insn return_zero[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static bool is_lsm(enum glue_attach_kind kind)
{
	return kinds[kind].prog_type == BPF_PROG_TYPE_LSM;
}

const char *glue_attach_kind_name(enum glue_attach_kind kind)
{
	return (unsigned int)kind < GLUE_NR_ATTACH_KINDS ? kinds[kind].name
							 : NULL;
}

int glue_attach_kind_by_name(const char *name)
{
	int k;

	for (k = 0; k < GLUE_NR_ATTACH_KINDS; k++)
		if (!strcmp(kinds[k].name, name))
			return k;
	return -1;
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
	case GLUE_STAGE_INACTIVE:
		return "inactive";
	}
	return "?";
}

/*
 * Is "bpf" among the active LSMs?  1 yes, 0 no (@detail says which are
 * active), -errno if the list cannot be read (@detail says so).
 */
static int bpf_lsm_active(char *detail, size_t len)
{
	char list[512], *tok, *save;
	FILE *f = fopen(GLUE_ACTIVE_LSMS, "r");
	int err;

	if (!f) {
		err = -errno;
		snprintf(detail, len, "could not read %s (%s): the BPF LSM may "
			 "not be active", GLUE_ACTIVE_LSMS, strerror(-err));
		return err;
	}
	if (!fgets(list, sizeof(list), f))
		list[0] = 0;
	fclose(f);
	list[strcspn(list, "\n")] = 0;
	snprintf(detail, len, "the BPF LSM is not active: \"bpf\" is not in "
		 "%s (%s)", GLUE_ACTIVE_LSMS, list);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, "bpf")) {
			detail[0] = 0;
			return 1;
		}
	return 0;
}

/*
 * The kernel BTF object of @module, as a file descriptor the load can
 * name (attach_btf_obj_fd), or -errno.
 */
static int module_btf_fd(const char *module)
{
	struct bpf_btf_info info;
	char name[GLUE_NAME_MAX];
	__u32 id = 0, len;
	int fd, err;

	for (;;) {
		err = bpf_btf_get_next_id(id, &id);
		if (err)
			return errno == ENOENT ? -ENOENT : -errno;
		fd = bpf_btf_get_fd_by_id(id);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;	/* freed meanwhile */
			return -errno;
		}
		memset(&info, 0, sizeof(info));
		info.name = (__u64)(unsigned long)name;
		info.name_len = sizeof(name);
		len = sizeof(info);
		name[0] = 0;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.kernel_btf && !strcmp(name, module))
			return fd;
		close(fd);
	}
}

/*
 * res->target: the function the attach would name, bpf_lsm_<hook> for
 * the lsm kinds (the hook given with or without the prefix).
 */
static int name_target(enum glue_attach_kind kind, const char *function,
		       struct glue_attach_result *res)
{
	int n;

	if (is_lsm(kind) && strncmp(function, LSM_PREFIX, strlen(LSM_PREFIX)))
		n = snprintf(res->target, sizeof(res->target), LSM_PREFIX "%s",
			     function);
	else
		n = snprintf(res->target, sizeof(res->target), "%s", function);
	return n >= (int)sizeof(res->target) ? -ENAMETOOLONG : 0;
}

/*
 * The function @kind attaches to: its name in @res, its BTF id; for a
 * module's function also the module's BTF object (@obj_fd).
 */
static int find_target(enum glue_attach_kind kind, const char *function,
		       const char *module, const struct btf *vmlinux,
		       struct glue_attach_result *res, __u32 *btf_id,
		       int *obj_fd)
{
	struct btf *mod_btf = NULL;
	const struct btf *btf = vmlinux;
	struct glue_syscall sc;
	int id, err;

	if (!function && !is_lsm(kind)) {
		err = glue_syscall_resolve(vmlinux, DEFAULT_SYSCALL, &sc);
		snprintf(res->target, sizeof(res->target), "%s", sc.fn);
		*btf_id = sc.btf_id;
		return err;
	}
	if (!function)
		function = DEFAULT_LSM_HOOK;
	err = name_target(kind, function, res);
	if (err)
		return err;
	if (module && *module) {
		snprintf(res->module, sizeof(res->module), "%s", module);
		mod_btf = btf__load_module_btf(module, (struct btf *)vmlinux);
		if (!mod_btf)
			return errno ? -errno : -ENOENT;
		btf = mod_btf;
	}
	id = btf__find_by_name_kind(btf, res->target, BTF_KIND_FUNC);
	/* a module's split BTF also finds vmlinux's functions: not those */
	if (id > 0 && mod_btf && btf__type_cnt(vmlinux) > (__u32)id)
		id = -ENOENT;
	btf__free(mod_btf);
	if (id <= 0)
		return -ENOENT;
	*btf_id = id;
	if (module && *module) {
		*obj_fd = module_btf_fd(module);
		if (*obj_fd < 0)
			return *obj_fd;
	}
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

static int load(const struct kind_desc *d, __u32 btf_id, int obj_fd,
		struct glue_attach_result *res)
{
	size_t cnt = ARRAY_SIZE(return_zero);
	char log[4096] = "";
	int fd, again;
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = d->attach_type,
		    .attach_btf_id = btf_id,
		    .attach_btf_obj_fd = obj_fd > 0 ? obj_fd : 0,
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

static int probe(enum glue_attach_kind kind, const char *function,
		 const char *module, const struct btf *vmlinux,
		 struct glue_attach_result *res)
{
	struct btf *own = NULL;
	int prog_fd = -1, obj_fd = -1, link_fd;
	__u32 btf_id = 0;

	memset(res, 0, sizeof(*res));
	res->stage = GLUE_STAGE_TARGET;
	if ((unsigned int)kind >= GLUE_NR_ATTACH_KINDS)
		return res->err = -EINVAL;
	if (is_lsm(kind) && !bpf_lsm_active(res->detail,
					    sizeof(res->detail))) {
		if (!function)
			function = DEFAULT_LSM_HOOK;
		name_target(kind, function, res);
		res->stage = GLUE_STAGE_INACTIVE;
		return res->err = -EOPNOTSUPP;
	}
	if (!vmlinux) {
		own = btf__load_vmlinux_btf();
		if (!own)
			return res->err = errno ? -errno : -ENOENT;
		vmlinux = own;
	}
	res->err = find_target(kind, function, module, vmlinux, res, &btf_id,
			       &obj_fd);
	if (res->err)
		goto out;
	res->stage = GLUE_STAGE_LOAD;
	prog_fd = load(&kinds[kind], btf_id, obj_fd, res);
	if (prog_fd < 0) {
		res->err = prog_fd;
		goto out;
	}
	res->stage = GLUE_STAGE_ATTACH;
	link_fd = bpf_link_create(prog_fd, 0, kinds[kind].attach_type, NULL);
	if (link_fd < 0) {
		res->err = link_fd;
		goto out;
	}
	close(link_fd);
	res->stage = GLUE_STAGE_DONE;
out:
	if (prog_fd >= 0)
		close(prog_fd);
	if (obj_fd >= 0)
		close(obj_fd);
	btf__free(own);
	return res->err;
}

int glue_probe_attach(enum glue_attach_kind kind, const char *function,
		      const char *module, struct glue_attach_result *res)
{
	return probe(kind, function, module, NULL, res);
}

int glue_probe_attach_kind(enum glue_attach_kind kind,
			   const struct btf *vmlinux,
			   struct glue_attach_result *res)
{
	return probe(kind, NULL, NULL, vmlinux, res);
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
		if (!probe(k, NULL, NULL, vmlinux, res))
			works |= GLUE_KIND_BIT(k);
	}
	btf__free(vmlinux);
	return works;
}
