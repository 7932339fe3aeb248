#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: run-vm.sh test VARIANT ARCH FILTER TIMEOUT
#        run-vm.sh kselftest VARIANT ARCH FILTER TIMEOUT
#        run-vm.sh tools VARIANT ARCH FILTER TIMEOUT
#        run-vm.sh bench VARIANT ARCH ITERS TIMEOUT
# bench: RUNS runs per figure (default 5); GUEST_VARIANT names the kernel
# whose guest to boot (make bench runs one guest on all three kernels).
set -euo pipefail
mode=$1 variant=$2 arch=$3 arg=$4 timeout=$5
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
. "$root/scripts/arch.sh" "$arch"
case $mode in
test)		guest=user suite=sleeptest ;;
kselftest)	guest=kselftest suite=kselftest ;;
tools)		guest=debian suite=tools ;;
bench)		guest=user ;;
*)		echo "run-vm.sh: unknown mode $mode" >&2; exit 2 ;;
esac
initrd=$build/${GUEST_VARIANT:-$variant}/$guest-$arch/initramfs.cpio.gz
# The Debian guest is one per architecture (scripts/debian-guest.sh),
# made (or found up to date) here, once for runs side by side.
if [ "$guest" = debian ]; then
	initrd=$build/debian-$arch/initramfs.cpio
	mkdir -p "$build"
	flock "$build/.debian-guest-$arch.lock" \
		"$root/scripts/debian-guest.sh" "$arch" || exit 1
fi
common=(--arch "$arch" --variant "$variant"
	--kernel "$build/$variant/obj-$arch/$KIMAGE"
	--initrd "$initrd" --timeout "$timeout")
if [ "$mode" = bench ]; then
	exec python3 "$root/scripts/vm.py" bench "${common[@]}" --iters "$arg" \
		--runs "${RUNS:-5}"
fi
exec python3 "$root/scripts/vm.py" test --suite "$suite" "${common[@]}" \
	--filter "$arg" --churn-rounds "${CHURN_ROUNDS:-0}" \
	--stress-rounds "${STRESS_ROUNDS:-0}" --exclude "${EXCLUDE:-}"
