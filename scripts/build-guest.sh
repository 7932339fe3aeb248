#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest side for one kernel: BPF objects against its BTF, the
# static test program, the list of its cases, and the initramfs.
# Usage: build-guest.sh VARIANT ARCH
set -euo pipefail
variant=$1 arch=$2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
obj=$build/$variant/obj-$arch
out=$build/$variant/user-$arch
t0=$(date +%s)
[ -f "$obj/vmlinux" ] || { echo "guest: $obj/vmlinux missing: build the kernel first (make kernel VARIANT=$variant ARCH=$arch)" >&2; exit 1; }
mkdir -p "$out"
make -s -j"$(nproc)" -C "$root/selftests" OUT="$out" VMLINUX="$obj/vmlinux" \
	TARGET_ARCH="$arch"
# The test module, built against this kernel (out of tree, with its BTF).
. "$root/scripts/arch.sh" "$arch"
. "$root/scripts/variant.sh" "$variant"
mod=$out/module
mkdir -p "$mod"
cp "$root"/selftests/module/{Kbuild,sleeptest_mod.c} "$mod/"
make -s -C "$obj" ARCH="$KARCH" "${TOOLCHAIN[@]}" M="$mod" modules \
	>"$mod/build.log" 2>&1 || { cat "$mod/build.log"; exit 1; }
case $arch in
x86_64) "$out/sleeptest" -l > "$out/cases.txt.tmp" ;;
arm64)	qemu-aarch64-static "$out/sleeptest" -l > "$out/cases.txt.tmp" ;;
riscv64) qemu-riscv64-static "$out/sleeptest" -l > "$out/cases.txt.tmp" ;;
esac
mv "$out/cases.txt.tmp" "$out/cases.txt"
extra=("$mod/sleeptest_mod.ko" "$out/glue-probe")
# The bench kernels' guest also gets the kernel tree's own benchmark
# runner (trig-*), which sleeptest --bench runs after its own loops.
case $variant in
bench-*)
	make -s -C "$root/selftests/kselftest" KSRC="$build/stock/linux" \
		OUT="$out/kbench" VMLINUX="$obj/vmlinux" TARGET_ARCH="$arch" \
		bench > "$out/kbench.log" 2>&1 ||
		{ tail -40 "$out/kbench.log"; exit 1; }
	extra+=("$out/kbench/bench")
	[ "$arch" != riscv64 ] || extra+=("$out/kbench/bench-riscv-sys") ;;
esac
# A distro kernel's modules (BOOT_MODULES of scripts/distro-config.sh), which
# /init loads with modprobe before the suite.
case $variant in
distro-*)
	rm -rf "$out/modroot"
	make -s -C "$obj" ARCH="$KARCH" "${TOOLCHAIN[@]}" \
		INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 \
		modules_install > "$out/modules_install.log" 2>&1 ||
		{ cat "$out/modules_install.log"; exit 1; }
	echo "ext4 virtio_pci virtio_blk virtio_net" > "$out/boot-modules"
	extra+=("$out/modroot/lib" "$out/boot-modules") ;;
esac
if [ ! -f "$out/initramfs.cpio.gz" ] ||
	[ -n "$(find "$out/sleeptest" "${extra[@]}" "$root/scripts/guest-init.sh" \
		"$root/scripts/mkinitramfs.sh" -newer "$out/initramfs.cpio.gz" \
		-print -quit)" ]; then
	"$root/scripts/mkinitramfs.sh" "$arch" "$out/sleeptest" \
		"$out/initramfs.cpio.gz" "${extra[@]}"
fi
echo "[guest $variant-$arch $(( $(date +%s) - t0 ))s] $out/initramfs.cpio.gz ($(wc -l < "$out/cases.txt") cases)"
