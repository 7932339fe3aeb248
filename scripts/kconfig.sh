#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generate the test kernel's .config: tinyconfig + Kconfig.sleep +
# kconfig/<arch>.config + the variant's fragments that exist
# (scripts/variant.sh), olddefconfig, then check every requested option.
# A distro variant starts from Debian's configuration instead.
# Usage: kconfig.sh SRC OBJ ARCH VARIANT
set -euo pipefail
src=$1 obj=$2 arch=$3 variant=$4
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/arch.sh" "$arch"
. "$root/scripts/variant.sh" "$variant"

work=$obj/../kconfig-$arch
mkdir -p "$obj" "$work"
mapfile -t frags < <(config_fragments)
mk=(make -s -C "$src" O="$work" ARCH="$KARCH" "${TOOLCHAIN[@]}")
if [ -n "$BASECONFIG" ]; then
	# a whole configuration (the distro variants): only the fragments
	# after it are merged and checked
	cp "$BASECONFIG" "$work/.config"
	frags=("${frags[@]:1}")
else
	"${mk[@]}" tinyconfig >/dev/null
fi
# merge_config.sh warns about every redefinition; the fragments override
# tinyconfig on purpose, so keep its output for failures only.
if ! "$src/scripts/kconfig/merge_config.sh" -m -O "$work" \
	"$work/.config" "${frags[@]}" >"$work/merge.log" 2>&1; then
	cat "$work/merge.log"; exit 1
fi
"${mk[@]}" olddefconfig >/dev/null 2>"$work/olddefconfig.log" || { cat "$work/olddefconfig.log"; exit 1; }

# What each option was asked to be: a later fragment overrides an earlier
# one (the kasan variant turns off a start-up test Kconfig.sleep turns on).
declare -A want=()
order=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		opt=${line%%=*}; val=${line#*=} ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}; val=n ;;
	*) continue ;;
	esac
	[ -n "${want[$opt]+set}" ] || order+=("$opt")
	want[$opt]=$val
done < <(cat "${frags[@]}")
# Upstream 6.12 dropped a few 6.1 options (ARM64_MODULE_PLTS and
# RANDOMIZE_MODULE_REGION_FULL are always on there, SLOB is gone): for that
# tree only, an option no Kconfig file defines is reported and skipped.
declare -A known=()
if [ "$SRCVARIANT" = upstream ]; then
	while read -r sym; do known[CONFIG_$sym]=1; done < <(
		find "$src/" -name 'Kconfig*' -exec grep -hoE \
			'^[[:space:]]*(menu)?config [A-Za-z0-9_]+' {} + |
		awk '{print $2}' | sort -u)
	[ ${#known[@]} -gt 1000 ] || {
		echo "kconfig: $arch: only ${#known[@]} options defined under $src" >&2
		exit 1; }
fi
missing=0
for opt in "${order[@]}"; do
	if [ "$SRCVARIANT" = upstream ] && [ -z "${known[$opt]+set}" ]; then
		echo "kconfig: $arch: $opt does not exist in this tree, skipped"
		continue
	fi
	got=$(grep -E "^$opt=" "$work/.config" | head -1 | cut -d= -f2- || true)
	[ -z "$got" ] && got=n
	if [ "$got" != "${want[$opt]}" ]; then
		echo "kconfig: $arch: $opt=${want[$opt]} requested, got ${got} after olddefconfig" >&2
		missing=$((missing + 1))
	fi
done
if [ $missing -ne 0 ]; then
	echo "kconfig: $arch: $missing requested option(s) did not survive (see above;" \
		"check their dependencies with 'make menuconfig' in $work)" >&2
	exit 1
fi
# Only replace the build's .config when it changed, so kbuild stays warm.
if ! cmp -s "$work/.config" "$obj/.config"; then
	cp "$work/.config" "$obj/.config"
	echo "kconfig: $arch: .config updated"
fi
