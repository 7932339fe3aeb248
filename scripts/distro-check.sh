#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Compile what the series touches with Debian's own 6.1 configurations
# (package linux-config-6.1), warnings as errors:
#   x86_64-gcc    config.amd64_none_amd64
#   arm64-gcc     config.arm64_none_arm64 (KASLR, module PLTs, SLUB, ...)
#   arm64-clang   the same with LLVM=1 and ARM64_BTI_KERNEL=y
# Each is one KTAP case in build/results/distro-check.ktap.  Objects go
# to build/distro/obj-<name>, through ccache; only the objects made from
# the C and assembly files the series changes are compiled (series_objects
# finds them), not a whole kernel nor whole directories.
#
# A configuration that compiled before from the same inputs (the patched
# tree's git tree id, the Debian config after our edits, this script, the
# compilers' versions) is not compiled again: its KTAP diagnostics are
# kept in DISTRO_CHECK_CACHE (default ~/.cache/sleep-tramp/distro-check,
# "off" to always compile), only for a clean tree and only when it passed.
# Usage: distro-check.sh [NAME...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
src=$build/patched/linux
results=$build/results
t0=$(date +%s)
# Progress goes to stderr; stdout is the case's KTAP diagnostics.
say() { echo "[distro-check $1 $(( $(date +%s) - t0 ))s] $2" >&2; }
. "$root/scripts/buildenv.sh"
use_ccache "$build"

# name: kernel arch, Debian config, toolchain, options that must survive.
# Options set on top of Debian's: none but BTI for clang.
all=(x86_64-gcc arm64-gcc arm64-clang)
common_want=(CONFIG_BPF_JIT=y CONFIG_BPF_SYSCALL=y CONFIG_BPF_LSM=y
	CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y CONFIG_FUNCTION_TRACER=y)
arm64_want=(CONFIG_RANDOMIZE_BASE=y CONFIG_ARM64_MODULE_PLTS=y
	CONFIG_RANDOMIZE_MODULE_REGION_FULL=y CONFIG_SLUB=y)

cfgdir=$build/dl/linux-config
fetch_configs() { "$root/scripts/distro-config.sh" fetch; }

dc_cache=${DISTRO_CHECK_CACHE:-$HOME/.cache/sleep-tramp/distro-check}

# Set karch adir cfg tc want extra for configuration $1.
describe() {
	tc=() want=() extra=()
	case $1 in
	x86_64-gcc)
		karch=x86_64 adir=x86 cfg=config.amd64_none_amd64
		tc=(CC="ccache gcc" HOSTCC="ccache gcc")
		want=("${common_want[@]}") ;;
	arm64-gcc)
		karch=arm64 adir=arm64 cfg=config.arm64_none_arm64
		tc=(CROSS_COMPILE=aarch64-linux-gnu- CC="ccache aarch64-linux-gnu-gcc"
			HOSTCC="ccache gcc")
		want=("${common_want[@]}" "${arm64_want[@]}") ;;
	arm64-clang)
		karch=arm64 adir=arm64 cfg=config.arm64_none_arm64
		tc=(LLVM=1 CC="ccache clang" HOSTCC="ccache clang")
		extra=(ARM64_BTI_KERNEL)
		want=("${common_want[@]}" "${arm64_want[@]}"
			CONFIG_ARM64_BTI_KERNEL=y CONFIG_CC_IS_CLANG=y) ;;
	*)	echo "distro-check: unknown configuration $1 (have: ${all[*]})" >&2
		return 2 ;;
	esac
}

# Write Debian's config for configuration $1, with our edits, to
# $obj/.config.new.
debian_config() {
	mkdir -p "$obj"
	xz -dc "$cfgdir/$cfg.xz" > "$obj/.config.new"
	# Debian signs with its own keys; a compile-only check needs none.
	sed -i -e 's/^CONFIG_SYSTEM_TRUSTED_KEYS=.*/CONFIG_SYSTEM_TRUSTED_KEYS=""/' \
		-e 's/^CONFIG_MODULE_SIG_KEY=.*/CONFIG_MODULE_SIG_KEY=""/' \
		"$obj/.config.new"
	local opt
	for opt in "${extra[@]}"; do
		"$src/scripts/config" --file "$obj/.config.new" --enable "$opt"
	done
}

# Print, one per line, the kbuild object targets made from the C and
# assembly files the series changes (the patched tree against "pristine",
# uncommitted edits included) for architecture directory $adir, under the
# configuration in $obj/.config.  Headers are not listed: these objects
# include the ones the series changes, and the test kernels compile every
# other includer.  A listed object the configuration does not build fails
# the check ("No rule to make target"), so nothing of the series goes
# unchecked by accident.
series_objects() {
	local f
	git -C "$src" diff --name-only --no-renames pristine -- '*.c' '*.S' |
	while read -r f; do
		case $f in
		arch/"$adir"/*) ;;
		arch/*) continue ;;
		esac
		case $f in
		# Compiled by "prepare".
		*/asm-offsets.c) continue ;;
		# #included by trace.c, and only with the start-up tests.
		kernel/trace/trace_selftest.c)
			grep -qx CONFIG_FTRACE_STARTUP_TEST=y "$obj/.config" &&
				echo kernel/trace/trace.o
			continue ;;
		esac
		echo "${f%.*}.o"
	done | sort -u
}

# Print the cache key of configuration $1, or nothing when its result
# cannot be kept (cache off, tree not clean or not a git tree).
result_key() {
	local tree t
	[ "$dc_cache" = off ] && return 0
	tree=$(clean_tree_id "$src")
	[ -n "$tree" ] || return 0
	{
		echo "name $1 tree $tree"
		cat "$obj/.config.new" "$root/scripts/distro-check.sh"
		for t in gcc aarch64-linux-gnu-gcc clang ld.lld make; do
			command -v "$t" >/dev/null || continue
			echo "$t: $("$t" --version | head -1)"
		done
	} | sha256sum | cut -c1-20
}

check_one() {
	local name=$1 log
	log=$obj/build.log
	local mk=(make -C "$src" O="$obj" ARCH="$karch" "${tc[@]}" -j"$(nproc)")
	# Keep the old .config (and its timestamps) when nothing changed.
	if ! cmp -s "$obj/.config.new" "$obj/.config.debian" 2>/dev/null; then
		cp "$obj/.config.new" "$obj/.config"
		cp "$obj/.config.new" "$obj/.config.debian"
	fi
	say "$name" "configuring ($cfg${extra:+ + ${extra[*]}})"
	if ! "${mk[@]}" olddefconfig >"$log" 2>&1; then
		echo "# olddefconfig failed:"; tail -20 "$log" | sed 's/^/#   /'
		return 1
	fi
	local opt missing=0
	for opt in "${want[@]}"; do
		grep -qx "$opt" "$obj/.config" && continue
		echo "# $opt did not survive olddefconfig (got: $(grep "^${opt%%=*}=" "$obj/.config" || echo unset))"
		missing=1
	done
	[ $missing -eq 0 ] || return 1
	local targets
	mapfile -t targets < <(series_objects)
	if [ ${#targets[@]} -eq 0 ]; then
		echo "# the series changes no C or assembly file for $adir"
		return 1
	fi
	say "$name" "compiling ${#targets[@]} objects with -Werror: ${targets[*]}"
	# Without debug info (Debian builds with it): it changes no
	# diagnostic, and each compile is cheaper.
	if ! "${mk[@]}" KCFLAGS="-Werror -g0" prepare "${targets[@]}" \
		>>"$log" 2>&1; then
		echo "# build failed (full log: ${log#"$root"/}):"
		grep -E -A5 'error|Error' "$log" | head -40 | sed 's/^/#   /'
		return 1
	fi
	local t
	for t in "${targets[@]}"; do
		[ -f "$obj/$t" ] && continue
		echo "# $t was not built"
		return 1
	done
	echo "# ${#targets[@]} objects, no warnings: ${targets[*]}"
	say "$name" "done: ${#targets[@]} objects"
}

[ -d "$src/kernel" ] || { echo "distro-check: $src missing (run make source)" >&2; exit 1; }
fetch_configs
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")
mkdir -p "$results"
ktap=$results/distro-check.ktap
{
	echo "KTAP version 1"
	echo "# Debian 6.1 configurations, patched tree, -Werror"
	echo "1..${#names[@]}"
} > "$ktap.tmp"
i=0 failed=0
for name in "${names[@]}"; do
	i=$((i + 1))
	describe "$name" || exit 2
	obj=$build/distro/obj-$name
	debian_config "$name"
	key=$(result_key "$name")
	kept=$dc_cache/$name-$key.ktap
	if [ -n "$key" ] && [ -f "$kept" ]; then
		say "$name" "up to date: compiled from these inputs before (key $key)"
		{
			cat "$kept"
			echo "# result kept from $(date -u -r "$kept" '+%F %T UTC'), same inputs (key $key)"
			echo "ok $i $name"
		} >> "$ktap.tmp"
	elif out=$(check_one "$name"); then
		printf '%s\n' "$out" >> "$ktap.tmp"
		echo "ok $i $name" >> "$ktap.tmp"
		if [ -n "$key" ] && mkdir -p "$dc_cache"; then
			printf '%s\n' "$out" > "$kept.tmp.$$" && mv "$kept.tmp.$$" "$kept"
			# Keep the newest three results of this configuration.
			ls -1t "$dc_cache/$name-"*.ktap | tail -n +4 | xargs -r rm -f
		fi
	else
		printf '%s\n' "$out" >> "$ktap.tmp"
		echo "not ok $i $name" >> "$ktap.tmp"
		printf '%s\n' "$out" | tail -20
		failed=$((failed + 1))
	fi
done
echo "# Totals: pass:$((i - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0" >> "$ktap.tmp"
mv "$ktap.tmp" "$ktap"
echo "[distro-check $(( $(date +%s) - t0 ))s] $((i - failed)) of $i configurations compile -> ${ktap#"$root"/}"
[ $failed -eq 0 ]
