#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's own 6.1 kernel configurations (package linux-config-6.1), for
# distro-check (compiled as they are) and make distro-boot (booted, with
# most modules left out).
#   distro-config.sh fetch              the configs into build/dl
#   distro-config.sh boot ARCH OUT      the boot kernel's base config
#
# The boot kernel keeps every built-in option as Debian has it.  Its
# modules are all turned off but BOOT_MODULES below and what they need
# (olddefconfig brings back what they select): a distribution kernel has
# about 3,900 modules, which would make the build several times longer,
# and a guest that boots from an initramfs loads none of them but these.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cfgdir=$build/dl/linux-config

# Built as modules and loaded in the guest: a file system (ext4, with
# jbd2, mbcache and crc16), the virtio disk and network drivers and the
# virtio PCI transport they sit on, so that tools trace module functions
# too (on arm64 that is the module-PLT path).
BOOT_MODULES=(EXT4_FS VIRTIO_PCI VIRTIO_BLK VIRTIO_NET)

fetch_configs() {
	[ -f "$cfgdir/config.arm64_none_arm64.xz" ] &&
		[ -f "$cfgdir/config.amd64_none_amd64.xz" ] && return 0
	mkdir -p "$cfgdir/arm64"
	# The amd64 configs come with the installed package (make deps); the
	# arm64 ones from the arm64 package, unpacked through a private apt
	# configuration (foreign-sysroot.sh), not installed.
	cp /usr/src/linux-config-6.1/config.amd64_none_amd64.xz "$cfgdir/"
	"$root/scripts/foreign-sysroot.sh" arm64 bookworm "$cfgdir/arm64/x" \
		linux-config-6.1 || {
		echo "distro-config: could not fetch linux-config-6.1 for arm64" >&2
		return 1
	}
	cp "$cfgdir/arm64/x/usr/src/linux-config-6.1/config.arm64_none_arm64.xz" "$cfgdir/"
}

# The Debian configuration file of architecture $1.
debian_config_of() {
	case $1 in
	x86_64)	echo "$cfgdir/config.amd64_none_amd64.xz" ;;
	arm64)	echo "$cfgdir/config.arm64_none_arm64.xz" ;;
	*)	echo "distro-config: no Debian 6.1 configuration for $1" \
			"(bookworm has none for riscv64)" >&2
		return 2 ;;
	esac
}

boot_config() {
	local arch=$1 out=$2 cfg m keep
	cfg=$(debian_config_of "$arch")
	keep=$(printf '%s|' "${BOOT_MODULES[@]}")
	keep=${keep%|}
	mkdir -p "$(dirname "$out")"
	# Debian signs modules with its own keys: the build makes its own.
	xz -dc "$cfg" | sed -E \
		-e "/^CONFIG_($keep)=m$/b" \
		-e 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' \
		-e 's/^CONFIG_SYSTEM_TRUSTED_KEYS=.*/CONFIG_SYSTEM_TRUSTED_KEYS=""/' \
		-e 's/^CONFIG_MODULE_SIG_KEY=.*/CONFIG_MODULE_SIG_KEY="certs\/signing_key.pem"/' \
		> "$out.tmp"
	for m in "${BOOT_MODULES[@]}"; do
		grep -qx "CONFIG_$m=m" "$out.tmp" || {
			echo "distro-config: $arch: CONFIG_$m is not a module in Debian's config" >&2
			return 1
		}
	done
	mv "$out.tmp" "$out"
}

case ${1:-} in
fetch)	fetch_configs ;;
boot)	fetch_configs && boot_config "$2" "$3" ;;
*)	echo "usage: distro-config.sh fetch | boot ARCH OUT" >&2; exit 2 ;;
esac
