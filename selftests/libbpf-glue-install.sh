#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# libbpf-glue as a tool author takes it: each header compiles alone (C
# and C++; glue.bpf.h as BPF C after vmlinux.h), "make install" with
# PREFIX and DESTDIR puts every file where it says, and a program outside
# the tree, in C and in C++, builds against the installed copy with
# pkg-config alone, linked shared (soname libbpf-glue.so.MAJOR) and static,
# and runs.  KTAP in build/results/libbpf-glue.ktap; exits 1 on a failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
results=$build/results
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
n=0 failed=0 skipped=0 lines=()

result() {	# result OK|FAIL|SKIP NAME [DIAG...]
	local st=$1 name=$2
	shift 2
	n=$((n + 1))
	for d in "$@"; do lines+=("# $d"); done
	case $st in
	OK)	lines+=("ok $n $name") ;;
	SKIP)	lines+=("ok $n $name # SKIP ${1:-}"); skipped=$((skipped + 1)) ;;
	*)	lines+=("not ok $n $name"); failed=$((failed + 1)) ;;
	esac
	echo "[libbpf-glue $(( $(date +%s) - t0 ))s] $st $name"
}

# run NAME COMMAND...: a check that passes when the command does.
run() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		result OK "$name"
	else
		mapfile -t tail < <(printf '%s\n' "$out" | tail -15)
		result FAIL "$name" "$*" "${tail[@]}"
	fi
}

glue=$root/libbpf-glue
run build make -s -C "$glue" OUT="$tmp/obj" PREFIX="$tmp/prefix"
run install make -s -C "$glue" OUT="$tmp/obj" PREFIX="$tmp/prefix" install

# DESTDIR: the same tree under a staging root, nothing outside it.
run install_destdir make -s -C "$glue" OUT="$tmp/obj2" PREFIX=/usr \
	DESTDIR="$tmp/stage" install
want="usr/bin/glue-probe usr/include/bpf-glue/glue.bpf.h
usr/include/bpf-glue/glue.h usr/lib/libbpf-glue.a usr/lib/libbpf-glue.so
usr/lib/libbpf-glue.so.1 usr/lib/pkgconfig/libbpf-glue.pc"
got=$(cd "$tmp/stage" 2>/dev/null && find . \( -type f -o -type l \) |
	sed 's|^\./||' | LC_ALL=C sort)
# shellcheck disable=SC2086 # word lists, compared word by word
run destdir_files test "$(echo $got)" = "$(echo $want)"

run soname bash -c "readelf -d '$tmp/prefix/lib/libbpf-glue.so.1' |
	grep -q 'SONAME.*\[libbpf-glue.so.1\]'"

# Each header alone.
inc=$tmp/prefix/include
run header_c bash -c "echo '#include <bpf-glue/glue.h>' |
	cc -fsyntax-only -Wall -Wextra -Werror -I'$inc' -x c -"
run header_cxx bash -c "echo '#include <bpf-glue/glue.h>' |
	c++ -fsyntax-only -Wall -Wextra -Werror -I'$inc' -x c++ -"
vmlinux_h=$(ls "$build"/*/user-x86_64/vmlinux.h 2>/dev/null | head -1)
if [ -n "$vmlinux_h" ]; then
	cat > "$tmp/p.bpf.c" <<'PROG'
#include "vmlinux.h"
#include <bpf-glue/glue.bpf.h>
#include <bpf/bpf_tracing.h>
long seen;
SEC("fentry")
int BPF_PROG(p)
{
	seen = GLUE_SYSCALL_ARG(ctx, 1) + GLUE_SYSCALL_RET(ctx, 1);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
PROG
	run header_bpf clang -target bpf -O2 -g -D__TARGET_ARCH_x86 -Wall \
		-Werror -I"$(dirname "$vmlinux_h")" -I"$inc" -c "$tmp/p.bpf.c" \
		-o "$tmp/p.bpf.o"
else
	result SKIP header_bpf "no vmlinux.h of an x86_64 guest yet"
fi

# A program outside the tree, with pkg-config alone.
export PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig
cat > "$tmp/outside.c" <<'PROG'
#include <stdio.h>
#include <bpf-glue/glue.h>

int main(void)
{
	struct glue_syscall sc;
	int err = glue_syscall_resolve(NULL, "getpgid", &sc);

	/* Without BTF the compile-time guess still names the function. */
	printf("libbpf-glue %d.%d: %s (%d), %s\n", GLUE_VERSION_MAJOR,
	       GLUE_VERSION_MINOR, sc.fn, err,
	       glue_attach_kind_name(GLUE_FENTRY_S));
	return sc.fn[0] && glue_attach_kind_by_name("fentry.s") ==
	       GLUE_FENTRY_S ? 0 : 1;
}
PROG
cp "$tmp/outside.c" "$tmp/outside.cc"
cflags=$(pkg-config --cflags libbpf-glue) libs=$(pkg-config --libs libbpf-glue)
static_libs=$(pkg-config --static --libs libbpf-glue)
run pkg_config_version test "$(pkg-config --modversion libbpf-glue)" = \
	"$(sed -n 's/^#define GLUE_VERSION_MAJOR //p' "$glue/glue.h").$(sed -n \
	's/^#define GLUE_VERSION_MINOR //p' "$glue/glue.h").0"
run outside_c_shared cc -Wall -Werror "$tmp/outside.c" $cflags $libs \
	-o "$tmp/outside_shared"
run outside_c_shared_runs env LD_LIBRARY_PATH="$tmp/prefix/lib" \
	"$tmp/outside_shared"
run outside_cxx_shared c++ -Wall -Werror "$tmp/outside.cc" $cflags $libs \
	-o "$tmp/outside_cxx"
run outside_cxx_shared_runs env LD_LIBRARY_PATH="$tmp/prefix/lib" \
	"$tmp/outside_cxx"
run outside_c_static cc -static -Wall -Werror "$tmp/outside.c" $cflags \
	$static_libs -o "$tmp/outside_static"
run outside_c_static_runs "$tmp/outside_static"
run glue_probe_usage bash -c "'$tmp/prefix/bin/glue-probe' --help |
	grep -q 'fentry fentry.s lsm.s fexit fmod_ret lsm' &&
	! '$tmp/prefix/bin/glue-probe' --kind nonsense 2>/dev/null"

# The lsm kinds and the active LSM list, with probe.c pointed at a file
# of ours: without "bpf" the answer is -EOPNOTSUPP at "inactive" before
# any BPF call; with it the probe goes on to load (which needs privileges
# this host may not give: any answer but "inactive" will do).  The
# target is named as the attach would name it, bpf_lsm_<hook>.
cat > "$tmp/lsm.c" <<'PROG'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "glue.h"

int main(int argc, char **argv)
{
	struct glue_attach_result res;
	int err = glue_probe_attach(GLUE_LSM_S, "file_open", NULL, &res);

	printf("%d %s %s: %s\n", err, glue_stage_name(res.stage), res.target,
	       res.detail);
	if (!strcmp(argv[1], "inactive"))
		return !(err == -EOPNOTSUPP &&
			 res.stage == GLUE_STAGE_INACTIVE &&
			 strstr(res.detail, "capability,landlock") &&
			 !strcmp(res.target, "bpf_lsm_file_open"));
	return res.stage == GLUE_STAGE_INACTIVE;
}
PROG
if cc -Wall -Werror -I"$glue" -DGLUE_ACTIVE_LSMS="\"$tmp/lsm-list\"" "$tmp/lsm.c" \
	"$glue/probe.c" "$glue/syscall.c" -lbpf -o "$tmp/lsm" 2>"$tmp/lsm.err"
then
	echo "capability,landlock" > "$tmp/lsm-list"
	run lsm_inactive_refused "$tmp/lsm" inactive
	echo "capability,landlock,bpf" > "$tmp/lsm-list"
	run lsm_active_goes_on "$tmp/lsm" active
else
	result FAIL lsm_probe_build "$(tail -5 "$tmp/lsm.err")"
fi

mkdir -p "$results"
{
	echo "KTAP version 1"
	echo "# libbpf-glue: headers, make install, pkg-config (selftests/libbpf-glue-install.sh)"
	echo "1..$n"
	printf '%s\n' "${lines[@]}"
	echo "# Totals: pass:$((n - failed - skipped)) fail:$failed xfail:0 xpass:0 skip:$skipped error:0"
} > "$results/libbpf-glue.ktap"
echo "[libbpf-glue $(( $(date +%s) - t0 ))s] $n checks, $failed failed, $skipped skipped -> $results/libbpf-glue.ktap"
[ "$failed" -eq 0 ]
