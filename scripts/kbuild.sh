#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one kernel out of tree, incrementally, through ccache; a kernel
# built before from the same inputs comes from the kernel cache
# (scripts/kcache.sh) instead.
# Usage: kbuild.sh VARIANT ARCH
#
# Layout: build/<variant>/linux (source) and build/<variant>/obj-<arch>.
# Both variants see their source as ../linux from the object directory,
# so with CCACHE_BASEDIR the stock and patched builds hash identically
# wherever their sources are the same.
set -euo pipefail
variant=$1 arch=$2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
. "$root/scripts/arch.sh" "$arch"
obj=$build/$variant/obj-$arch
. "$root/scripts/variant.sh" "$variant"
# A variant built from another's source reaches it as ../linux too.
if [ "$SRCVARIANT" != "$variant" ]; then
	mkdir -p "$build/$variant"
	ln -sfn "../$SRCVARIANT/linux" "$build/$variant/linux"
fi
src=$build/$variant/linux
t0=$(date +%s)
say() { echo "[kbuild $variant-$arch $(( $(date +%s) - t0 ))s] $*"; }

[ -f "$src/Makefile" ] || { echo "kbuild: $src missing (run make source)" >&2; exit 1; }
for tool in "${CROSS}gcc" ccache pahole flex bison bc zstd git $([ "$variant" = bti ] && echo clang ld.lld); do
	command -v "$tool" >/dev/null || {
		echo "kbuild: '$tool' not found (make deps installs it)" >&2; exit 1; }
done

# A distro variant's base configuration, which the key covers.
if [ -n "$BASECONFIG" ]; then
	"$root/scripts/distro-config.sh" boot "$arch" "$BASECONFIG"
fi
. "$root/scripts/buildenv.sh"
. "$root/scripts/kcache.sh"
key=$(kcache_key)
if kcache_current "$key"; then
	say "up to date: $obj was built from these inputs (key $key)"
	exit 0
fi
# The Debian package version this source came from, for the KTAP headers.
keep_source_version() {
	cp "$src/../source-version.txt" "$obj/source-version.txt" 2>/dev/null || true
}
if kcache_restore "$key"; then
	keep_source_version
	say "done: $obj/$KIMAGE (from the kernel cache)"
	exit 0
fi
[ -n "$key" ] || say "not cached: $src has uncommitted changes, is not a git tree, or KERNEL_CACHE=off"
rm -f "$kcache_stamp"

. "$root/scripts/kseed.sh"
seed_from_stock

say "configuring"
"$root/scripts/kconfig.sh" "$src" "$obj" "$arch" "$variant"

use_ccache "$build"
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=sleep KBUILD_BUILD_HOST=tramp KBUILD_BUILD_VERSION=1
say "building (ccache $(ccache -s 2>/dev/null | awk '/cache size|Cache size/{print $3 $4; exit}'))"
log=$obj/build.log
if ! make -C "$src" O="$obj" -j"$(nproc)" ARCH="$KARCH" "${TOOLCHAIN[@]}" \
	LOCALVERSION= \
	all >"$log" 2>&1; then
	grep -E -B2 -A8 'error|Error' "$log" | tail -60
	echo "kbuild: $variant-$arch failed, full log: $log" >&2
	exit 1
fi
grep -E 'warning:' "$log" | sort -u | head -20 || true
keep_source_version
stamp_source
kcache_store "$key"
say "done: $obj/$KIMAGE"
