#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Checks of distro-check.sh on a made-up patched tree, with Debian configs
# and a make that only records its compiles: it compiles the objects of
# the C and assembly files the series changes for that architecture, and
# no others; a result is reused only for the same tree and config, never
# for a tree with uncommitted changes, never after a failure, and not
# with the cache off.  One "ok"/"not ok" line per check;
# scripts/harness-selftest.py reports them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build=$tmp/build src=$build/patched/linux
mkdir -p "$src/kernel/trace" "$src/scripts" "$src/include" "$tmp/bin" \
	"$build/dl/linux-config" "$src/arch/x86/net" "$src/arch/arm64/kernel" \
	"$src/arch/riscv/mm"
git -C "$src" init -q
series_files="kernel/a.c kernel/trace/trace_selftest.c include/h.h
arch/x86/net/jit.c arch/arm64/kernel/entry.S arch/arm64/kernel/asm-offsets.c
arch/riscv/mm/fault.c"
for f in $series_files kernel/untouched.c; do echo "int x;" >"$src/$f"; done
# scripts/config --file F --enable OPT
cat >"$src/scripts/config" <<'EOF'
#!/bin/bash
echo "CONFIG_$4=y" >>"$2"
EOF
chmod +x "$src/scripts/config"
commit() { git -C "$src" add -A && git -C "$src" -c user.name=t \
	-c user.email=t@t commit -qm "$1"; }
commit pristine
git -C "$src" branch pristine
for f in $series_files; do echo "int s;" >>"$src/$f"; done
mkdir -p "$src/arch/arm64/net/tramp"
echo "int n;" >"$src/arch/arm64/net/tramp/emit.c"
commit series

opts="CONFIG_BPF_JIT=y CONFIG_BPF_SYSCALL=y CONFIG_BPF_LSM=y
CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y CONFIG_FUNCTION_TRACER=y
CONFIG_RANDOMIZE_BASE=y CONFIG_ARM64_MODULE_PLTS=y
CONFIG_RANDOMIZE_MODULE_REGION_FULL=y CONFIG_SLUB=y CONFIG_CC_IS_CLANG=y"
for c in amd64_none_amd64 arm64_none_arm64; do
	tr ' ' '\n' <<<"$opts" | xz >"$build/dl/linux-config/config.$c.xz"
done

# make: olddefconfig keeps the .config; a compile records itself in
# $tmp/compiles and its object targets in $tmp/targets-<name>, makes
# them, or fails when $tmp/fail exists.
cat >"$tmp/bin/make" <<EOF
#!/bin/bash
[ "\$1" = --version ] && { echo "GNU Make 4.3"; exit 0; }
obj=
for a in "\$@"; do case \$a in O=*) obj=\${a#O=} ;; esac; done
case " \$* " in *" olddefconfig "*) exit 0 ;; esac
[ -e "$tmp/fail" ] && { echo "kernel/bpf/core.c:1: error: made up"; exit 1; }
echo "\${obj##*/}" >>"$tmp/compiles"
: >"$tmp/targets-\${obj##*/obj-}"
for a in "\$@"; do
	case \$a in *.o) ;; *) continue ;; esac
	echo "\$a" >>"$tmp/targets-\${obj##*/obj-}"
	mkdir -p "\$obj/\${a%/*}" && touch "\$obj/\$a"
done
EOF
chmod +x "$tmp/bin/make"

export BUILD_DIR=$build DISTRO_CHECK_CACHE=$tmp/cache PATH=$tmp/bin:$PATH
ktap=$build/results/distro-check.ktap
# Run distro-check; print how many configurations it compiled.
run() {
	: >"$tmp/compiles"
	"$here/distro-check.sh" "$@" >"$tmp/out" 2>&1
	echo "rc=$? compiled=$(wc -l <"$tmp/compiles")"
}
check() { if eval "$1"; then echo "ok $2"; else echo "not ok $2"; fi; }

r=$(run)
check '[ "$r" = "rc=0 compiled=3" ] && [ "$(grep -c "^ok " "$ktap")" = 3 ]' \
	"a first run compiles every configuration ($r)"
targets() { tr '\n' ' ' <"$tmp/targets-$1"; }
t=$(targets x86_64-gcc)
check '[ "$t" = "arch/x86/net/jit.o kernel/a.o " ]' \
	"x86_64 compiles the series' x86 and common C files, no header, no other architecture's ($t)"
t=$(targets arm64-clang)
check '[ "$t" = "arch/arm64/kernel/entry.o arch/arm64/net/tramp/emit.o kernel/a.o " ]' \
	"arm64 compiles the series' arm64 assembly, its new file and the common C files; asm-offsets comes with prepare ($t)"
r=$(run)
check '[ "$r" = "rc=0 compiled=0" ] && [ "$(grep -c "^ok " "$ktap")" = 3 ] &&
	[ "$(grep -c "^# result kept from" "$ktap")" = 3 ]' \
	"the same inputs reuse the kept results, and say so ($r)"

echo "int y;" >>"$src/kernel/a.c"
r=$(run x86_64-gcc)
r2=$(run x86_64-gcc)
check '[ "$r" = "rc=0 compiled=1" ] && [ "$r2" = "rc=0 compiled=1" ]' \
	"a tree with uncommitted changes is compiled every time ($r, $r2)"
commit two
r=$(run x86_64-gcc)
check '[ "$r" = "rc=0 compiled=1" ]' "a committed change is compiled ($r)"

echo "int z;" >>"$src/kernel/a.c"
commit three
touch "$tmp/fail"
r=$(run x86_64-gcc)
cp "$ktap" "$tmp/failed.ktap"
rm -f "$tmp/fail"
r2=$(run x86_64-gcc)
check '[ "$r" = "rc=1 compiled=0" ] && grep -q "^not ok 1 x86_64-gcc" "$tmp/failed.ktap" &&
	grep -q "error: made up" "$tmp/failed.ktap" && [ "$r2" = "rc=0 compiled=1" ]' \
	"a failure is reported with the compiler's message and not kept ($r, $r2)"

tr ' ' '\n' <<<"$opts CONFIG_FTRACE_STARTUP_TEST=y" | xz >"$build/dl/linux-config/config.arm64_none_arm64.xz"
r=$(run)
check '[ "$r" = "rc=0 compiled=2" ] && grep -qx "obj-arm64-gcc" "$tmp/compiles" &&
	grep -qx "obj-arm64-clang" "$tmp/compiles"' \
	"a changed Debian config is compiled again, the other one is not ($r)"
t=$(targets arm64-gcc)
check '[ "$t" = "arch/arm64/kernel/entry.o arch/arm64/net/tramp/emit.o kernel/a.o kernel/trace/trace.o " ]' \
	"with the start-up tests configured, trace.o stands for trace_selftest.c, which it includes ($t)"

git -C "$src" checkout -q pristine
r=$(run x86_64-gcc)
check '[ "$r" = "rc=1 compiled=0" ] && grep -q "changes no C or assembly file" "$ktap"' \
	"a tree without the series compiles nothing and fails, saying why ($r)"
git -C "$src" checkout -q -
r=$(DISTRO_CHECK_CACHE=off run)
check '[ "$r" = "rc=0 compiled=3" ]' "DISTRO_CHECK_CACHE=off compiles everything ($r)"
