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
	gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu libc6-dev-riscv64-cross
	qemu-system-x86 qemu-system-arm qemu-user-static clang llvm bpftool
	# qemu-system-riscv64; its -bios default (OpenSBI's fw_dynamic)
	# comes with qemu-system-data
	qemu-system-misc qemu-system-data
	libbpf-dev zlib1g-dev libzstd-dev busybox-static binutils
	linux-config-6.1 lld xz-utils patch zstd quilt)
# The arm64 guests' static libraries and busybox: unpacked into
# build/sysroot-arm64 by foreign-sysroot.sh, not installed (no multiarch).
arm64_pkgs=(libbpf-dev libelf-dev zlib1g-dev libzstd-dev busybox-static)
# The same for riscv64 guests, from trixie: bookworm has no riscv64.  No
# libbpf-dev: selftests/target.mk builds libbpf from the kernel tree.
riscv64_pkgs=(libelf-dev zlib1g-dev libzstd-dev busybox-static)

[ "${1:-}" = upstream ] && host_pkgs+=(linux-source-6.12)
missing=()
for p in "${host_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
"$root/scripts/foreign-sysroot.sh" arm64 bookworm "$build/sysroot-arm64" \
	"${arm64_pkgs[@]}"
"$root/scripts/foreign-sysroot.sh" riscv64 trixie "$build/sysroot-riscv64" \
	"${riscv64_pkgs[@]}"
echo "deps: all present"
