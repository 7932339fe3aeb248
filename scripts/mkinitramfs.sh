#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs: a static busybox, the test program and /init.
# Usage: mkinitramfs.sh ARCH TESTBIN OUT.cpio.gz [EXTRA-FILE...]
# Extra files (the test module) land in /, extra directories (a distro
# kernel's lib/modules) with what they hold.
set -euo pipefail
arch=$1 testbin=$2 out=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

case $arch in
x86_64) busybox=/bin/busybox ;;
arm64)	busybox=$build/sysroot-arm64/bin/busybox ;;
riscv64) busybox=$build/sysroot-riscv64/usr/bin/busybox ;;
*)	echo "mkinitramfs: unsupported architecture $arch" >&2; exit 2 ;;
esac
[ -x "$busybox" ] || { echo "mkinitramfs: $busybox missing (make deps)" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp}
cp "$busybox" "$stage/bin/busybox"
cp "$testbin" "$stage/sleeptest"
cp "$root/scripts/guest-init.sh" "$stage/init"
for f in "$@"; do cp -a "$f" "$stage/"; done
chmod +x "$stage/init"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 |
	gzip -n -1) > "$out.tmp"
mv "$out.tmp" "$out"
