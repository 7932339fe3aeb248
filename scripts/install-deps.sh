#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the build and the tests need, from Debian's archive only.
# Safe to re-run: it installs only what is missing.
# "install-deps.sh upstream" adds what make bench needs on top: Debian's
# linux-source-6.12, the upstream kernel the benchmarks compare against.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

host_pkgs=(linux-source-6.1 build-essential bc flex bison libssl-dev
	libelf-dev dwarves cpio kmod rsync xz-utils python3 git ccache
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-x86 qemu-system-arm qemu-user-static clang llvm bpftool
	libbpf-dev zlib1g-dev libzstd-dev busybox-static binutils
	linux-config-6.1 lld xz-utils patch)
arm64_pkgs=(libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64
	libzstd-dev:arm64 libc6-dev:arm64)

[ "${1:-}" = upstream ] && host_pkgs+=(linux-source-6.12)
missing=()
for p in "${host_pkgs[@]}" "${arm64_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
apt_updated=
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "deps: enabling the arm64 multiarch architecture"
	dpkg --add-architecture arm64
fi
if [ ${#missing[@]} -ne 0 ]; then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt_updated=1
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The arm64 guest's static busybox comes from the arm64 package, unpacked
# (installing it would replace the host's busybox).
bb=$build/dl/busybox-arm64/bin/busybox
if [ ! -x "$bb" ]; then
	mkdir -p "$build/dl"
	[ -n "$apt_updated" ] || apt-get update -q
	(cd "$build/dl" && rm -f busybox-static_*_arm64.deb &&
		apt-get download busybox-static:arm64 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
	deb=$(ls "$build"/dl/busybox-static_*_arm64.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || { echo "deps: could not download busybox-static:arm64" >&2; exit 1; }
	dpkg-deb -x "$deb" "$build/dl/busybox-arm64"
fi
echo "deps: all present"
