# SPDX-License-Identifier: GPL-2.0
# Sourced with an architecture name: sets the kbuild, toolchain and QEMU
# names for it.  One place to add an architecture.
case $1 in
x86_64)
	KARCH=x86_64 CROSS= KIMAGE=arch/x86/boot/bzImage
	BPF_ARCH=x86 TARGET_CC=gcc LIBDIR=/usr/lib/x86_64-linux-gnu
	QEMU="qemu-system-x86_64 -M q35 -cpu max"
	CONSOLE=ttyS0 SYSCALL_PREFIX=__x64_sys_ ;;
arm64)
	KARCH=arm64 CROSS=aarch64-linux-gnu- KIMAGE=arch/arm64/boot/Image
	BPF_ARCH=arm64 TARGET_CC=aarch64-linux-gnu-gcc
	LIBDIR=/usr/lib/aarch64-linux-gnu
	QEMU="qemu-system-aarch64 -M virt -cpu max"
	CONSOLE=ttyAMA0 SYSCALL_PREFIX=__arm64_sys_ ;;
*)
	echo "unsupported architecture '$1' (supported: x86_64 arm64)" >&2
	exit 2 ;;
esac
