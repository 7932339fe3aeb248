# SPDX-License-Identifier: GPL-2.0
# Sourced with an architecture name: sets its kbuild names.  The QEMU side
# lives in scripts/vm.py, the userspace toolchain in selftests/Makefile.
ARCHNAME=$1
case $1 in
x86_64)
	KARCH=x86_64 CROSS= KIMAGE=arch/x86/boot/bzImage ;;
arm64)
	KARCH=arm64 CROSS=aarch64-linux-gnu- KIMAGE=arch/arm64/boot/Image ;;
riscv64)
	KARCH=riscv CROSS=riscv64-linux-gnu- KIMAGE=arch/riscv/boot/Image ;;
*)
	echo "unsupported architecture '$1' (supported: x86_64 arm64 riscv64)" >&2
	exit 2 ;;
esac
