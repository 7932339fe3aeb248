// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' sleepable-program suite, run inside the test guest.
 *
 * Prints KTAP on stdout.  Every case is independent: it opens, loads and
 * destroys its own skeleton.  Expected failures are not decided here; the
 * host applies selftests/known-failures/<arch> to the raw results, so this
 * program reports exactly what happened, with the error that caused it.
 *
 * Usage: sleeptest [-l] [-t SUBSTRING] [-x CASE,...]
 *        sleeptest --bench ITERATIONS [RUNS]
 *
 * This file holds main(), the table of cases, the runner and the helpers
 * more than one area uses; the cases are in seeds.c (the seeds'
 * sleepable-program promises), refusals.c (programs the verifier must
 * refuse), attach.c (the attach mechanism), churn.c (trampoline churn)
 * and the other areas' files (README.md lists them), glue.c among them
 * (libbpf-glue's cases); bench.c is the benchmark.  sleeptest.h declares
 * what they share.
 */
#include "sleeptest.h"
#include <bpf/btf.h>
#include <ctype.h>
#include <elf.h>

#include "glue.h"
#include "attach.skel.h"

/* libbpf's messages for the current case, shown when it fails. */
static char libbpf_log[16384];
static size_t libbpf_log_len;
int case_failed;

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
void diag(const char *fmt, ...)
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

/*
 * The function syscall @name enters through on this kernel, as
 * libbpf-glue finds it in vmlinux BTF (once per name).  If it cannot, the
 * compile-time guess, and the cases that use it fail with their errors.
 */
char *sys_fn(const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct {
		char name[32];
		struct glue_syscall sc;
	} cache[16];
	static struct btf *vmlinux;
	static int nr;
	char *fn = NULL;
	int i, err;

	pthread_mutex_lock(&lock);
	for (i = 0; i < nr && !fn; i++)
		if (!strcmp(cache[i].name, name))
			fn = cache[i].sc.fn;
	if (fn)
		goto out;
	if (nr == (int)(sizeof(cache) / sizeof(cache[0])) ||
	    strlen(name) >= sizeof(cache[0].name)) {
		diag("sys_fn: no room for %s", name);
		fn = (char *)"sys_fn-no-room";
		goto out;
	}
	if (!vmlinux)
		vmlinux = btf__load_vmlinux_btf();
	if (vmlinux)
		err = glue_syscall_resolve(vmlinux, name, &cache[nr].sc);
	else
		err = glue_syscall_resolve(NULL, name, &cache[nr].sc);
	if (err)
		diag("sys_fn: %s: %d (%s): using %s", name, err,
		     strerror(-err), cache[nr].sc.fn);
	strcpy(cache[nr].name, name);
	fn = cache[nr++].sc.fn;
out:
	pthread_mutex_unlock(&lock);
	return fn;
}

int attach_prog(struct bpf_program *prog, struct bpf_link **link)
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
int kernel_func_btf(const char *fn, __u32 *obj_id, __u32 *type_id,
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

/*
 * fn's refcount in enabled_functions: how many ftrace ops it has.  If it
 * is not there and report is set, the first lines that are go to the
 * diagnostics.
 */
int ftrace_refcount(const char *btf_fn, long *refs, int report)
{
	FILE *f = fopen(ENABLED_FUNCTIONS, "r");
	char line[512], fn[256], *p;
	int found = 0, shown = 0;
	size_t n;

	if (!f)
		return -errno;
	glue_ftrace_name(btf_fn, fn, sizeof(fn));
	n = strlen(fn);
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, fn, n) || (line[n] != ' ' && line[n] != '\t'))
			continue;
		p = strchr(line + n, '(');
		*refs = p ? strtol(p + 1, NULL, 10) : -1;
		found = 1;
	}
	if (!found && report) {
		rewind(f);
		while (shown < 4 && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			diag("%s has: %s", ENABLED_FUNCTIONS, line);
			shown++;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/*
 * Read len bytes at addr from /proc/kcore, an ELF core file whose PT_LOAD
 * segments map kernel virtual addresses (or, with phys, the physical
 * addresses each segment gives).
 */
static int kcore_pread(unsigned long long addr, void *buf, size_t len,
		       bool phys)
{
	unsigned long long start;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, i, err = -ENOENT;

	fd = open("/proc/kcore", O_RDONLY);
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
		err = -EIO;
		goto out;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff +
			  (off_t)i * eh.e_phentsize) != sizeof(ph)) {
			err = -EIO;
			break;
		}
		start = phys ? ph.p_paddr : ph.p_vaddr;
		if (ph.p_type != PT_LOAD || (phys && start == ~0ULL) ||
		    addr < start || addr + len > start + ph.p_filesz)
			continue;
		err = pread(fd, buf, len, ph.p_offset + (addr - start)) ==
		      (ssize_t)len ? 0 : -EIO;
		break;
	}
out:
	close(fd);
	return err;
}

/*
 * The physical address of addr in the kernel image: riscv64 6.1 leaves
 * the image's own mapping out of /proc/kcore (no ARCH_PROC_KCORE_TEXT),
 * but its pages are there through the linear map.  "Kernel code" in
 * /proc/iomem is where _text lies in physical memory.
 */
static int kernel_image_phys(unsigned long long addr, unsigned long long *pa)
{
	unsigned long long lo, hi, text = 0, v;
	char line[256], name[128], type;
	int found = 0;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (!text && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &v, &type, name) == 3 &&
		    !strcmp(name, "_text"))
			text = v;
	fclose(f);
	f = fopen("/proc/iomem", "r");
	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, " %llx-%llx : Kernel code", &lo, &hi) == 2 &&
			strstr(line, ": Kernel code");
	fclose(f);
	if (!text || !found || !lo || addr < text || addr - text > hi - lo)
		return -ENOENT;
	*pa = lo + (addr - text);
	return 0;
}

/* len bytes of kernel memory at addr, through /proc/kcore */
static int kcore_read(unsigned long long addr, void *buf, size_t len)
{
	unsigned long long pa = 0;
	int err = kcore_pread(addr, buf, len, false);

	if (err == -ENOENT && !kernel_image_phys(addr, &pa))
		err = kcore_pread(pa, buf, len, true);
	return err;
}

/* Kernel symbols a call site may lead to, from /proc/kallsyms. */
struct call_targets {
	unsigned long long regs_caller;	/* ftrace_regs_caller */
	unsigned long long caller;	/* ftrace_caller (6.4+ arm64) */
	unsigned long long veneers;	/* arm64: ftrace_direct_veneers */
	unsigned long long veneers_end;	/* the next kernel symbol's address */
	unsigned long long etext;	/* _etext: the image's text ends */
};

#if defined(__aarch64__)
/* The target of an AArch64 "adrp xN; add/ldr xN, [xN, #lo12]" pair. */
static unsigned long long a64_adrp_lo12(unsigned long long pc, __u32 adrp,
					__u32 lo, int scale)
{
	long long page = ((long long)(((adrp >> 5) & 0x7ffff) << 2 |
				      ((adrp >> 29) & 3)) << 43) >> 31;

	return (pc & ~0xfffULL) + page + (((lo >> 10) & 0xfff) << scale);
}

/*
 * Whether a BL at pc reaches the veneer block in the kernel image (from
 * ftrace_direct_veneers to the next kernel symbol, so that the suite does
 * not copy the block's size): a call site out of its reach can only go
 * through ftrace_regs_caller to an out-of-range trampoline.  With KASLR a
 * module's place decides it, so the harness needs to know which path
 * each boot could take: "call-path-reach: <fn> in|out|partial".
 */
static void report_veneer_reach(const char *fn, unsigned long long pc,
				const struct call_targets *ct)
{
	const long long bl_reach = 128LL << 20;
	unsigned long long first = ct->veneers, last = ct->veneers_end - 4;
	int in_first, in_last;

	if (!ct->veneers)
		return;
	if (ct->veneers_end <= first) {
		diag("call-path-reach: %s unknown (no kernel symbol after "
		     "ftrace_direct_veneers in /proc/kallsyms)", fn);
		return;
	}
	in_first = (long long)(first - pc) >= -bl_reach &&
		   (long long)(first - pc) < bl_reach;
	in_last = (long long)(last - pc) >= -bl_reach &&
		  (long long)(last - pc) < bl_reach;
	diag("call-path-reach: %s %s", fn, in_first && in_last ? "in" :
	     !in_first && !in_last ? "out" : "partial");
}

/*
 * What the call site (the BL after "mov x9, lr" at the entry, after the
 * BTI C of a BTI kernel) branches to: the trampoline itself ("direct"),
 * the function's veneer, which must hold the trampoline's address in the
 * literal that follows it, in the image's read-only text ("veneer"), or
 * ftrace_regs_caller, maybe through a module PLT ("out-of-range";
 * ftrace_caller on upstream kernels, for make bench).
 */
static const char *call_path_observed(const char *fn,
				      unsigned long long fn_addr,
				      unsigned long long tramp,
				      const struct call_targets *ct)
{
	unsigned long long pc, to, lit;
	__u32 insn[3];
	int err;

	err = kcore_read(fn_addr, insn, sizeof(insn));
	if (err) {
		call_path_unknown(fn, "reading the entry at %#llx through "
				  "/proc/kcore: %s", fn_addr, strerror(-err));
		return NULL;
	}
	pc = fn_addr + (insn[0] == 0xd503245f ? 8 : 4);
	insn[0] = insn[(pc - fn_addr) / 4];
	if ((insn[0] & 0xfc000000) != 0x94000000) {
		call_path_unknown(fn, "no BL at %#llx: %08x", pc, insn[0]);
		return NULL;
	}
	to = pc + (((long long)(insn[0] & 0x3ffffff) << 38) >> 36);
	report_veneer_reach(fn, pc, ct);
	if (to == tramp)
		return "direct";
	/* Upstream since 6.4 goes through ftrace_caller and the ops literal */
	if (to == ct->regs_caller || to == ct->caller)
		return "out-of-range";
	err = kcore_read(to, insn, sizeof(insn));
	if (err) {
		call_path_unknown(fn, "reading %#llx: %s", to, strerror(-err));
		return NULL;
	}
	/*
	 * ldr x16, #8; br x16; .quad target: a veneer.  Its target is in
	 * kernel text, which only the text-poke alias writes: no writable
	 * pointer (the slots of earlier versions) may decide the branch.
	 */
	if (ct->veneers && to >= ct->veneers && to < ct->veneers_end) {
		if (insn[0] != 0x58000050 || insn[1] != 0xd61f0200 ||
		    to + 16 > ct->etext) {
			call_path_unknown(fn, "the veneer at %#llx is %08x %08x "
					  "%08x, not ldr x16, #8; br x16 and "
					  "its literal in text (ends %#llx)",
					  to, insn[0], insn[1], insn[2],
					  ct->etext);
			return NULL;
		}
		err = kcore_read(to + 8, &lit, sizeof(lit));
		if (err || lit != tramp) {
			call_path_unknown(fn, "veneer at %#llx holds %#llx, not "
					  "the trampoline %#llx (%s)", to,
					  err ? 0 : lit, tramp,
					  err ? strerror(-err) : "read ok");
			return NULL;
		}
		return "veneer";
	}
	/* adrp x16, ...; add x16, x16, #lo12; br x16: a module PLT */
	if ((insn[0] & 0x9f00001f) == 0x90000010 &&
	    (insn[1] & 0xffc003ff) == 0x91000210 && insn[2] == 0xd61f0200 &&
	    (a64_adrp_lo12(to, insn[0], insn[1], 0) == ct->regs_caller ||
	     a64_adrp_lo12(to, insn[0], insn[1], 0) == ct->caller))
		return "out-of-range";
	call_path_unknown(fn, "the call site at %#llx branches to %#llx: not "
			  "the trampoline %#llx, a veneer or ftrace_regs_caller",
			  pc, to, tramp);
	return NULL;
}
#elif defined(__riscv)
/*
 * The 8-byte call site at the entry, "auipc t0, hi; jalr t0, lo(t0)",
 * must reach tramp: a function with other ftrace users is reported as
 * shared before this is asked, and every trampoline is within reach of
 * every call site.  A call to ftrace_regs_caller regardless is named
 * out-of-range, like on the other architectures.
 */
static const char *call_path_observed(const char *fn,
				      unsigned long long fn_addr,
				      unsigned long long tramp,
				      const struct call_targets *ct)
{
	unsigned long long to;
	__u32 insn[2];
	int err;

	err = kcore_read(fn_addr, insn, sizeof(insn));
	if (err) {
		call_path_unknown(fn, "reading %#llx through /proc/kcore: %s",
				  fn_addr, strerror(-err));
		return NULL;
	}
	/* auipc t0 (rd 5); jalr t0, lo(t0) (rd 5, rs1 5, funct3 0) */
	if ((insn[0] & 0xfff) != 0x297 || (insn[1] & 0xfffff) != 0x282e7) {
		call_path_unknown(fn, "no auipc/jalr t0 pair at the entry "
				  "%#llx: %08x %08x", fn_addr, insn[0],
				  insn[1]);
		return NULL;
	}
	to = fn_addr + (long long)(__s32)(insn[0] & 0xfffff000) +
	     ((__s32)insn[1] >> 20);
	if (to == tramp)
		return "direct";
	if (to == ct->regs_caller)
		return "out-of-range";
	call_path_unknown(fn, "the call at %#llx goes to %#llx, not the "
			  "trampoline %#llx", fn_addr, to, tramp);
	return NULL;
}
#else
/*
 * The call rel32 at the entry must reach tramp.  With IBT the entry starts
 * with endbr64, or with the 4-byte nop the kernel seals an endbr64 with
 * when nothing calls the function indirectly (as in our module).
 */
static const char *call_path_observed(const char *fn,
				      unsigned long long fn_addr,
				      unsigned long long tramp,
				      const struct call_targets *ct)
{
	unsigned char code[9];
	unsigned long long to;
	int err, at = 0;
	__s32 rel;

	err = kcore_read(fn_addr, code, sizeof(code));
	if (err) {
		call_path_unknown(fn, "reading %#llx through /proc/kcore: %s",
				  fn_addr, strerror(-err));
		return NULL;
	}
	if (!memcmp(code, "\xf3\x0f\x1e\xfa", 4) ||
	    !memcmp(code, "\x66\x0f\x1f\x00", 4))
		at = 4;
	if (code[at] != 0xe8) {
		call_path_unknown(fn, "no call at the entry %#llx: %02x", fn_addr,
				  code[at]);
		return NULL;
	}
	memcpy(&rel, code + at + 1, 4);
	to = fn_addr + at + 5 + rel;
	if (to == tramp)
		return "direct";
	if (to == ct->regs_caller)
		return "out-of-range";
	call_path_unknown(fn, "the call at %#llx goes to %#llx, not the "
			  "trampoline %#llx", fn_addr + at, to, tramp);
	return NULL;
}
#endif

const char *report_call_path(const char *fn)
{
	unsigned long long addr, fn_addr = 0, key;
	char line[512], name[256], tag[80], modtag[80], mod[64];
	unsigned long long tramps[16];
	struct call_targets ct = {};
	__u32 obj_id = 0, type_id = 0;
	int err, nr = 0, fn_seen = 0, pick;
	const char *path;
	long refs = -1;
	char type;
	FILE *f;

	err = ftrace_refcount(fn, &refs, 1);
	if (err) {
		call_path_unknown(fn, "not in %s: %d (%s)", ENABLED_FUNCTIONS,
				  err, strerror(-err));
		return NULL;
	}
	if (refs > 1) {
		diag("call-path: %s shared", fn);
		return "shared";
	}
	if (refs != 1) {
		call_path_unknown(fn, "ftrace refcount %ld in %s", refs,
				  ENABLED_FUNCTIONS);
		return NULL;
	}
	err = kernel_func_btf(fn, &obj_id, &type_id, mod, sizeof(mod));
	if (err) {
		call_path_unknown(fn, "not found in kernel BTF: %d (%s)", err,
				  strerror(-err));
		return NULL;
	}
	snprintf(modtag, sizeof(modtag), "[%s]", mod);
	f = fopen("/proc/kallsyms", "r");
	if (!f) {
		call_path_unknown(fn, "/proc/kallsyms: %s", strerror(errno));
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		tag[0] = 0;
		if (sscanf(line, "%llx %c %255s %79s", &addr, &type, name,
			   tag) < 3)
			continue;
		if (!tag[0] && !strcmp(name, "ftrace_regs_caller"))
			ct.regs_caller = addr;
		if (!tag[0] && !strcmp(name, "ftrace_caller"))
			ct.caller = addr;
		if (!tag[0] && !strcmp(name, "_etext"))
			ct.etext = addr;
		if (!tag[0] && !strcmp(name, "ftrace_direct_veneers"))
			ct.veneers = addr;
		/* the kernel's own symbols are listed by address */
		else if (!tag[0] && ct.veneers && !ct.veneers_end &&
			 addr > ct.veneers)
			ct.veneers_end = addr;
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
		return NULL;
	}
	if (!fn_seen) {
		call_path_unknown(fn, "no address for %s%s in /proc/kallsyms",
				  fn, mod[0] ? modtag : "");
		return NULL;
	}
	if (!nr) {
		call_path_unknown(fn, "no bpf_trampoline_* for BTF object %u "
				  "type %u in /proc/kallsyms (bpf_jit_kallsyms "
				  "off?)", obj_id, type_id);
		return NULL;
	}
	/*
	 * Several images share the name while an old one retires; the newest
	 * is listed last (bpf_ksym_add() appends).
	 */
	pick = nr - 1;
	path = call_path_observed(fn, fn_addr, tramps[pick], &ct);
	if (path)
		diag("call-path: %s %s", fn, path);
	return path;
}

void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait up to 2 s for *counter to pass start: the program is running. */
int counter_moves(volatile long *counter, long start)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (*counter > start)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

struct attach *attach_open_load(void)
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
void dump_enabled_functions(void)
{
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		diag("enabled_functions: %s", line);
	fclose(f);
}

int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC), n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (int)strlen(text) ? 0 : -EIO;
}

/*
 * The function tracer's filter set to fn alone, and read back: a name
 * ftrace does not know (on x86_64 the __x64_sys_ name of a syscall without
 * arguments is only an alias of __do_sys_) is dropped when the file is
 * closed, without an error, and an empty filter traces every function.
 */
int set_ftrace_filter(const char *fn)
{
	return set_filter_file(FTRACE_FILTER, fn);
}

/* The same for the set_ftrace_filter file at path (a tracer instance's). */
int set_filter_file(const char *path, const char *btf_fn)
{
	int err, n = 0, found = 0;
	char line[256], fn[256];
	FILE *f;

	/* ftrace may know the function by another alias (riscv64's sys_) */
	glue_ftrace_name(btf_fn, fn, sizeof(fn));
	err = write_file(path, fn);
	if (err)
		return err;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		/* a module's function reads back as "fn [module]" */
		line[strcspn(line, " \n")] = 0;
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

/*
 * Run the program at fd once through BPF_PROG_TEST_RUN on a 64-byte
 * zeroed packet; 0 and its return value in *retval, or -errno.
 */
int test_run_packet(int fd, __u32 *retval)
{
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = 1);

	if (bpf_prog_test_run_opts(fd, &opts))
		return -errno;
	*retval = opts.retval;
	return 0;
}

/* The number of rounds in environment variable var, or the default; -1
 * (and the case fails) if it is not a number.
 */
long env_rounds(const char *var, long def)
{
	const char *s = getenv(var);
	char *end;
	long n;

	if (!s)
		return def;
	errno = 0;
	n = strtol(s, &end, 10);
	if (!CHECK(!errno && end != s && !*end && n > 0 && n <= 10000000,
		   "%s='%s' is not a number of rounds (1..10000000)", var, s))
		return -1;
	return n;
}

double mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The test module (selftests/module) loaded, if it was not: 1 if it is. */
int load_test_module(void)
{
	int fd, err;

	fd = open("/" TEST_MODULE ".ko", O_RDONLY | O_CLOEXEC);
	if (!CHECK(fd >= 0, "/%s.ko: %s", TEST_MODULE, strerror(errno)))
		return 0;
	err = syscall(__NR_finit_module, fd, "", 0);
	close(fd);
	return CHECK(!err || errno == EEXIST, "finit_module: %s",
		     strerror(errno));
}

/* delete_module() without waiting: 0, or -errno (-EWOULDBLOCK if in use). */
int unload_test_module(void)
{
	return syscall(__NR_delete_module, TEST_MODULE, O_NONBLOCK) ? -errno
								     : 0;
}

/* bpf_trampoline_* images listed in /proc/kallsyms, or -errno. */
struct test_case {
	const char *name;
	void (*fn)(void);
};

static const struct test_case cases[] = {
	{ "lsm_s_exec_maps", test_lsm_s_exec_maps },
	{ "vdso_self_contained", test_vdso_self_contained },
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
	{ "reject_sleepable_on_denylisted",
	  test_reject_sleepable_on_denylisted },
	{ "reject_sleepable_exit_modret_not_injectable",
	  test_reject_sleepable_exit_modret_not_injectable },
	{ "reject_fentry_s_on_bpf_prog", test_reject_fentry_s_on_bpf_prog },
	{ "reject_sleepable_other_types", test_reject_sleepable_other_types },
	{ "reject_spin_lock_sleepable", test_reject_spin_lock_sleepable },
	{ "reject_sleeping_helpers_nonsleepable",
	  test_reject_sleeping_helpers_nonsleepable },
	{ "sleepable_map_types", test_sleepable_map_types },
	{ "sleepable_tp_btf", test_sleepable_tp_btf },
	{ "reject_sleepable_kprobe_attach",
	  test_reject_sleepable_kprobe_attach },
	{ "reject_link_update_tracing", test_reject_link_update_tracing },
	{ "reject_fentry_and_freplace", test_reject_fentry_and_freplace },
	{ "sleepable_allowed_maps_load", test_sleepable_allowed_maps_load },
	{ "section_names_sleepable", test_section_names_sleepable },
	{ "glue_syscall_names", test_glue_syscall_names },
	{ "glue_syscall_args_fentry", test_glue_syscall_args_fentry },
	{ "glue_syscall_args_kprobe", test_glue_syscall_args_kprobe },
	{ "glue_probe_matches_attach", test_glue_probe_matches_attach },
	{ "glue_probe_leaves_nothing", test_glue_probe_leaves_nothing },
	{ "glue_fallback_kprobe", test_glue_fallback_kprobe },
	{ "glue_probe_targets", test_glue_probe_targets },
	{ "glue_probe_command", test_glue_probe_command },
	{ "attach_detach_while_running", test_attach_detach_while_running },
	{ "function_tracer_and_trampoline",
	  test_function_tracer_and_trampoline },
	{ "kprobe_and_trampoline", test_kprobe_and_trampoline },
	{ "module_function", test_module_function },
	{ "veneer_reclaim", test_veneer_reclaim },
	{ "argument_shapes", test_argument_shapes },
	{ "direct_call_keeps_arguments", test_direct_call_keeps_arguments },
	{ "trampoline_on_bpf_prog", test_trampoline_on_bpf_prog },
	{ "subprog_returns_traced", test_subprog_returns_traced },
	{ "reject_fmod_ret_on_bpf_prog", test_reject_fmod_ret_on_bpf_prog },
	{ "tail_call_limit_traced", test_tail_call_limit_traced },
	{ "freplace_far_target", test_freplace_far_target },
	{ "bpf_entry_attach_race", test_bpf_entry_attach_race },
	{ "kfunc_calls", test_kfunc_calls },
	{ "lsm_s_key_kfuncs", test_lsm_s_key_kfuncs },
	{ "stack_traces_trampoline", test_stack_traces_trampoline },
	{ "stack_traces_tracepoint", test_stack_traces_tracepoint },
	{ "struct_ops_dummy", test_struct_ops_dummy },
	{ "struct_ops_tcp_ca", test_struct_ops_tcp_ca },
	{ "lsm_cgroup_two_cgroups", test_lsm_cgroup_two_cgroups },
	{ "function_graph_and_fexit", test_function_graph_and_fexit },
	{ "recursion_guard_direct", test_recursion_guard_direct },
	{ "trampoline_churn", test_trampoline_churn },
	{ "trampoline_churn_function_tracer",
	  test_trampoline_churn_function_tracer },
	{ "detach_while_sleeping", test_detach_while_sleeping },
	{ "replace_while_sleeping", test_replace_while_sleeping },
	{ "fexit_s_sleeping_detached", test_fexit_s_sleeping_detached },
	{ "fmod_ret_s_sleeping_detached", test_fmod_ret_s_sleeping_detached },
	{ "signal_while_sleeping", test_signal_while_sleeping },
	{ "sigkill_while_sleeping", test_sigkill_while_sleeping },
	{ "module_caller_sleeping", test_module_caller_sleeping },
	{ "lsm_s_exec_sleeping", test_lsm_s_exec_sleeping },
	{ "detached_prog_freed_while_sleeping",
	  test_detached_prog_freed_while_sleeping },
	{ "recursion_while_sleeping", test_recursion_while_sleeping },
	{ "migration_while_sleeping", test_migration_while_sleeping },
	{ "cookie_across_sleep", test_cookie_across_sleep },
	{ "limit_38_programs", test_limit_38_programs },
	{ "attach_detach_stress", test_attach_detach_stress },
	{ "alloc_failure_attach_detach", test_alloc_failure_attach_detach },
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

/*
 * Cases left out with -x (comma-separated names): the harness leaves out
 * a case its known-failure list says crashes this kernel, and reports it
 * as an expected failure itself.
 */
static char *excluded;

/*
 * Does the comma-separated list hold name itself or, with substring set,
 * a part of name?  Empty items match nothing.
 */
static int list_matches(const char *list, const char *name, int substring)
{
	size_t len = strlen(name), n;
	const char *p = list, *s;

	while (p && *p) {
		n = strcspn(p, ",");
		if (n && !substring && n == len && !strncmp(p, name, n))
			return 1;
		for (s = name; n && substring && s + n <= name + len; s++)
			if (!strncmp(s, p, n))
				return 1;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

/* -t A,B: the cases whose name contains A or B, but not those of -x */
static int selected(const char *name, const char *filter)
{
	if (list_matches(excluded, name, 0))
		return 0;
	return !filter || !*filter || list_matches(filter, name, 1);
}

/*
 * "sleeptest-case: NAME" in the kernel log as the case starts: the harness
 * accepts a listed kernel report only during the case it names.
 */
static void mark_case(const char *name)
{
	char line[128];
	int fd = open("/dev/kmsg", O_WRONLY);

	if (fd < 0)
		return;
	snprintf(line, sizeof(line), "sleeptest-case: %s\n", name);
	if (write(fd, line, strlen(line)) < 0)
		perror("/dev/kmsg");
	close(fd);
}

/*
 * What the cases may leave behind: BPF programs, links and maps above the
 * IDs that existed before the first case, and trampoline images
 * (bpf_trampoline_* in /proc/kallsyms; a retired image lingers until the
 * tasks that may be inside it are gone).
 */
struct bpf_objects {
	__u32 prog, link, map;	/* highest ID in use at the start */
	struct image_set images0;	/* images at the start */
	int progs, links, maps, images;	/* new ones */
};

int count_bpf_ids_above(int (*get_next_id)(__u32, __u32 *), __u32 above,
			__u32 *max, const char *report)
{
	__u32 id = above;
	int n = 0;

	/* IDs only grow: what a case created is above what was there */
	while (!get_next_id(id, &id)) {
		n++;
		if (report)
			diag("left behind: %s id %u", report, id);
	}
	if (max && id > *max)
		*max = id;
	return errno == ENOENT ? n : -errno;
}

/*
 * The trampoline images listed in /proc/kallsyms (bpf_trampoline_<key>;
 * the kernel's bpf_trampoline_*() functions do not count): how many, and
 * into set their addresses.  Those not in @before (if given) are each
 * reported in a diag if @report, and only they are counted.
 */
static int trampoline_images(const struct image_set *before,
			     struct image_set *set, int report)
{
	unsigned long long addr;
	char line[512];
	FILE *f = fopen("/proc/kallsyms", "r");
	int n = 0, i;

	if (!f)
		return -errno;
	if (set)
		set->n = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " bpf_trampoline_");

		if (!p || !isdigit((unsigned char)p[16]) ||
		    sscanf(line, "%llx", &addr) != 1)
			continue;
		for (i = 0; before && i < before->n; i++)
			if (before->addr[i] == addr)
				break;
		if (before && i < before->n)
			continue;
		if (set && set->n < IMAGE_SET_MAX)
			set->addr[set->n++] = addr;
		n++;
		if (report)
			diag("left behind: %s", strtok(line, "\n"));
	}
	fclose(f);
	return n;
}

int count_trampoline_images(void)
{
	return trampoline_images(NULL, NULL, 0);
}

int trampoline_image_set(struct image_set *set)
{
	return trampoline_images(NULL, set, 0);
}

/*
 * Images listed now that were not in @before: by address, so that images
 * of earlier cases going meanwhile cannot make up for new ones.
 */
int new_trampoline_images(const struct image_set *before)
{
	return trampoline_images(before, NULL, 0);
}

static void bpf_objects_now(struct bpf_objects *o, int report)
{
	o->progs = count_bpf_ids_above(bpf_prog_get_next_id, o->prog, NULL,
				       report ? "program" : NULL);
	o->links = count_bpf_ids_above(bpf_link_get_next_id, o->link, NULL,
				       report ? "link" : NULL);
	o->maps = count_bpf_ids_above(bpf_map_get_next_id, o->map, NULL,
				      report ? "map" : NULL);
	o->images = trampoline_images(&o->images0, NULL, report);
}

/*
 * After the last case: everything the cases created is gone within 20 s
 * (deferred frees wait for RCU and tasks-RCU grace periods), or the
 * suite leaks: "nothing_left_behind".
 */
static int nothing_left_behind(struct bpf_objects *start)
{
	struct bpf_objects now = *start;
	int i;

	for (i = 0; i < 200; i++) {
		bpf_objects_now(&now, 0);
		if (!now.progs && !now.links && !now.maps && !now.images)
			break;
		sleep_ms(100);
	}
	diag("after the cases (%d ms): %d programs, %d links, %d maps and %d "
	     "trampoline images left (%d images before the first case)",
	     i * 100, now.progs, now.links, now.maps, now.images,
	     start->images0.n);
	if (i < 200)
		return 1;
	bpf_objects_now(&now, 1);
	return 0;
}

static int run_cases(const char *filter)
{
	unsigned int i, n = 0, num = 0, failed = 0;
	struct bpf_objects start = {};

	count_bpf_ids_above(bpf_prog_get_next_id, 0, &start.prog, NULL);
	count_bpf_ids_above(bpf_link_get_next_id, 0, &start.link, NULL);
	count_bpf_ids_above(bpf_map_get_next_id, 0, &start.map, NULL);
	trampoline_image_set(&start.images0);
	for (i = 0; i < NR_CASES; i++)
		n += selected(cases[i].name, filter);
	/* the cases, then nothing_left_behind */
	printf("KTAP version 1\n1..%u\n", n + 1);
	fflush(stdout);
	for (i = 0; i < NR_CASES; i++) {
		if (!selected(cases[i].name, filter))
			continue;
		case_failed = 0;
		libbpf_log_len = 0;
		libbpf_log[0] = 0;
		mark_case(cases[i].name);
		cases[i].fn();
		if (case_failed && libbpf_log_len)
			diag("libbpf: %s", libbpf_log);
		printf("%sok %u %s\n", case_failed ? "not " : "", ++num,
		       cases[i].name);
		fflush(stdout);
		failed += case_failed;
	}
	mark_case("nothing_left_behind");
	case_failed = !nothing_left_behind(&start);
	printf("%sok %u nothing_left_behind\n", case_failed ? "not " : "",
	       ++num);
	failed += case_failed;
	return failed ? 1 : 0;
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
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "--bench"))
		return run_bench(atol(argv[2]), argc == 4 ? atoi(argv[3]) : 5);
	while ((opt = getopt(argc, argv, "lt:x:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < NR_CASES; i++)
				printf("%s\n", cases[i].name);
			/* run after the cases, whatever -t selects */
			printf("nothing_left_behind\n");
			return 0;
		case 't':
			filter = optarg;
			break;
		case 'x':
			excluded = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-l] [-t SUBSTRING,...] "
				"[-x CASE,...] | --bench ITERATIONS [RUNS]\n",
				argv[0]);
			return 2;
		}
	}
	return run_cases(filter);
}
