#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the kernel-selftests guest for one kernel: test_progs with the
# tests listed in selftests/kselftest/tests (from the kernel tree's own
# tools/testing/selftests/bpf), their BPF objects against this kernel's
# BTF, and an initramfs whose /sleeptest is selftests/kselftest/run.sh.
# Usage: build-kselftest.sh VARIANT ARCH
set -euo pipefail
variant=$1 arch=$2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
obj=$build/$variant/obj-$arch
out=$build/$variant/kselftest-$arch
t0=$(date +%s)
[ -f "$obj/vmlinux" ] || { echo "kselftest: $obj/vmlinux missing: build the kernel first (make kernel VARIANT=$variant ARCH=$arch)" >&2; exit 1; }
# The selftests are the same in both trees (the series does not touch
# tools/); take them from the pristine one.
ksrc=$build/stock/linux
[ -d "$ksrc/tools/testing/selftests/bpf/prog_tests" ] || { echo "kselftest: $ksrc has no BPF selftests (make source)" >&2; exit 1; }
mkdir -p "$out"
make -s -C "$root/selftests/kselftest" KSRC="$ksrc" OUT="$out" \
	VMLINUX="$obj/vmlinux" TARGET_ARCH="$arch" -j"$(nproc)" \
	> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
cp "$out/selections" "$out/cases.txt"
extra=("$out/test_progs" "$out/rm" "$out/selections")
for o in $(cat "$out/runtime-objs"); do
	extra+=("$out/$o")
done
if [ ! -f "$out/initramfs.cpio.gz" ] ||
	[ -n "$(find "${extra[@]}" "$root/selftests/kselftest/run.sh" \
		"$root/scripts/guest-init.sh" "$root/scripts/mkinitramfs.sh" \
		-newer "$out/initramfs.cpio.gz")" ]; then
	"$root/scripts/mkinitramfs.sh" "$arch" "$root/selftests/kselftest/run.sh" \
		"$out/initramfs.cpio.gz" "${extra[@]}"
fi
echo "[kselftest $variant-$arch $(( $(date +%s) - t0 ))s] $out/initramfs.cpio.gz ($(wc -l < "$out/cases.txt") selections)"
