#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian guest: Debian's BPF tools (libbpf-tools, bpftrace, bpftool)
# with every library they need, unpacked from Debian's packages of the
# guest's architecture (bookworm; trixie for riscv64, which bookworm
# lacks) through scripts/foreign-sysroot.sh, plus our /init and the tool
# checks (selftests/tools/tools.sh), as an initramfs the test kernels
# boot.  The same guest serves stock and patched kernels.  Uncompressed:
# the kernel's gunzip of it took 86 s of an arm64 TCG guest's boot.
# Usage: debian-guest.sh ARCH   -> build/debian-<arch>/initramfs.cpio
set -euo pipefail
arch=$1
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
case $arch in
x86_64)	debarch=amd64 suite=bookworm ;;
arm64)	debarch=arm64 suite=bookworm ;;
riscv64) debarch=riscv64 suite=trixie ;;
*)	echo "debian-guest: unsupported architecture $arch" >&2; exit 2 ;;
esac
PACKAGES=(libbpf-tools bpftrace bpftool busybox-static)
out=$build/debian-$arch
t0=$(date +%s)
log() { echo "[debian-guest $arch $(( $(date +%s) - t0 ))s] $*"; }

"$root/scripts/foreign-sysroot.sh" --depends "$debarch" "$suite" \
	"$out/root" "${PACKAGES[@]}"
# What was unpacked, for the results' header and the README
for p in "${PACKAGES[@]}"; do
	if [ -f "$out/root/.unpacked-$p" ]; then
		echo "$p $(cat "$out/root/.unpacked-$p")"
	else
		echo "$p absent: $suite has no $p for $debarch"
	fi
done > "$out/packages.txt"

# Every unpacked package's version (libraries too), our files, this script
inputs=$( (cat "$out"/root/.unpacked-* "$out/packages.txt" \
	"$root/scripts/guest-init.sh" "$root/selftests/tools/tools.sh" "$0") |
	sha256sum | cut -c1-16)
if [ -f "$out/initramfs.cpio" ] &&
   [ "$(cat "$out/inputs" 2>/dev/null)" = "$inputs" ]; then
	log "up to date"
	exit 0
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# Hard links: the stage is thrown away, the unpacked tree is kept.
cp -al "$out/root/." "$stage/"
rm -rf "$stage"/.unpacked-* "$stage"/.closure-of "$stage"/.absent \
	"$stage"/usr/share/doc \
	"$stage"/usr/share/man "$stage"/usr/share/locale \
	"$stage"/usr/share/lintian "$stage"/usr/share/bash-completion \
	"$stage"/usr/lib/*-linux-gnu*/gconv
mkdir -p "$stage"/{dev,proc,sys,tmp,run}
# trixie's packages put everything under /usr: the links base-files
# would make (merged /usr) for /bin/busybox and the dynamic linker.
for d in bin sbin lib; do
	[ -e "$stage/$d" ] || ln -s "usr/$d" "$stage/$d"
done
# /bin is Debian's busybox-static; guest-init.sh installs its applets.
cp "$root/scripts/guest-init.sh" "$stage/init"
cp "$root/selftests/tools/tools.sh" "$stage/sleeptest"
cp "$out/packages.txt" "$stage/debian-packages"
chmod +x "$stage/init" "$stage/sleeptest"
"$stage/sleeptest" --list > "$out/cases.txt"
log "packing $(du -sm "$stage" | cut -f1) MB"
rm -f "$out/initramfs.cpio.gz"
(cd "$stage" && find . | LC_ALL=C sort |
	cpio -o -H newc --quiet -R 0:0) > "$out/initramfs.cpio.tmp"
mv "$out/initramfs.cpio.tmp" "$out/initramfs.cpio"
echo "$inputs" > "$out/inputs"
log "$(du -m "$out/initramfs.cpio" | cut -f1) MB initramfs"
