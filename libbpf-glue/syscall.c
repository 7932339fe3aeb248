// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Syscall entry points by name, found in the running kernel's BTF: see
 * glue_syscall_resolve() in glue.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "glue.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * Where each kernel puts a syscall's entry: the wrappers that take the
 * caller's struct pt_regs * (x86_64 and arm64 since 4.17, riscv64 since
 * 6.6), the sign-extending entry of a kernel without wrappers, the plain
 * entry of such a kernel's syscalls without arguments, and x86_64's
 * __do_sys_ body that its argument-less wrappers alias.
 */
static const char *const prefixes[] = {
	"__x64_sys_",
	"__arm64_sys_",
	"__riscv_sys_",
	"__se_sys_",
	"sys_",
	"__do_sys_",
};

/* Skip typedefs and qualifiers. */
static const struct btf_type *strip_mods(const struct btf *btf, __u32 *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return t;
}

/* Does parameter type @id point to struct pt_regs? */
static bool is_pt_regs_ptr(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = strip_mods(btf, &id);

	if (!t || !btf_is_ptr(t))
		return false;
	id = t->type;
	t = strip_mods(btf, &id);
	return t && btf_is_struct(t) &&
	       !strcmp(btf__name_by_offset(btf, t->name_off), "pt_regs");
}

static int fill_from_btf(const struct btf *btf, int id, struct glue_syscall *sc)
{
	const struct btf_type *fn = btf__type_by_id(btf, id);
	const struct btf_type *proto;

	if (!fn || !btf_is_func(fn))
		return -EINVAL;
	proto = btf__type_by_id(btf, fn->type);
	if (!proto || !btf_is_func_proto(proto))
		return -EINVAL;
	sc->btf_id = id;
	sc->nr_params = btf_vlen(proto);
	sc->regs = sc->nr_params >= 1 &&
		   is_pt_regs_ptr(btf, btf_params(proto)[0].type);
	return 0;
}

static int guess(const char *name, struct glue_syscall *sc, int err)
{
	if (snprintf(sc->fn, sizeof(sc->fn), GLUE_SYSCALL_PREFIX "%s",
		     name) >= (int)sizeof(sc->fn))
		return -ENAMETOOLONG;
	sc->btf_id = 0;
	sc->nr_params = -1;
	sc->regs = GLUE_SYSCALL_TAKES_REGS;
	return err;
}

int glue_syscall_resolve(const struct btf *vmlinux, const char *name,
			 struct glue_syscall *sc)
{
	struct btf *own = NULL;
	char fn[GLUE_NAME_MAX];
	unsigned int i;
	int id, err;

	if (strlen(name) + strlen("__arm64_sys_") >= sizeof(fn))
		return -ENAMETOOLONG;
	if (!vmlinux) {
		own = btf__load_vmlinux_btf();
		if (!own)
			return guess(name, sc, errno ? -errno : -ENOENT);
		vmlinux = own;
	}
	err = -ENOENT;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
		snprintf(fn, sizeof(fn), "%s%s", prefixes[i], name);
		id = btf__find_by_name_kind(vmlinux, fn, BTF_KIND_FUNC);
		if (id <= 0)
			continue;
		err = fill_from_btf(vmlinux, id, sc);
		if (!err)
			memcpy(sc->fn, fn, sizeof(fn));
		break;
	}
	btf__free(own);
	return err ? guess(name, sc, err) : 0;
}

/*
 * ftrace names a patchable function by the first symbol kallsyms lists at
 * its address.  Aliases share an address: riscv64 6.1's sys_NAME is an
 * alias of __se_sys_NAME that kallsyms sorts first (it ranks names with
 * leading underscores last), so ftrace's filter and enabled_functions say
 * sys_NAME where BTF says __se_sys_NAME.  /proc/kallsyms lists the
 * kernel's symbols in that same order, aliases next to each other.
 */
int glue_ftrace_name(const char *fn, char *buf, size_t len)
{
	char line[512], name[256], first[256] = "", tag[80];
	unsigned long long addr, first_addr = 0;
	int found = -ENOENT;
	char type;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (found == -ENOENT && fgets(line, sizeof(line), f)) {
		tag[0] = 0;
		if (sscanf(line, "%llx %c %255s %79s", &addr, &type, name,
			   tag) < 3)
			continue;
		/* module symbols follow vmlinux's, each module on its own */
		if (tag[0])
			break;
		if (!first[0] || addr != first_addr) {
			first_addr = addr;
			snprintf(first, sizeof(first), "%s", name);
		}
		if (strcmp(name, fn))
			continue;
		if (!addr)
			found = -EPERM;		/* kptr_restrict hides them */
		else
			found = snprintf(buf, len, "%s", first) >= (int)len ?
				-ENAMETOOLONG : 0;
	}
	fclose(f);
	if (found == -ENOENT)
		found = snprintf(buf, len, "%s", fn) >= (int)len ?
			-ENAMETOOLONG : -ENOENT;
	return found;
}
