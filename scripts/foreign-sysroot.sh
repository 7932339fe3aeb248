#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unpack Debian packages of a foreign architecture into a directory of
# ours, through a private apt configuration (own sources list, package
# lists, cache and empty dpkg status): the system's apt sources, dpkg
# architectures and package database are left alone.
#
#   foreign-sysroot.sh [--depends] DEBARCH SUITE DEST PACKAGE...
#
# With --depends, the packages they depend on (recursively, without
# recommends; pre-dependencies included) are unpacked too: a root
# filesystem for programs of that architecture (scripts/debian-guest.sh).
# A named package the suite does not have for DEBARCH is then not an
# error: it is listed in DEST/.absent.
#
# SUITE is the Debian suite to take them from (bookworm, or trixie for an
# architecture bookworm lacks), from the mirror the system already uses.
# Each package is unpacked with dpkg-deb -x into DEST; once every one of
# them has been, a re-run does nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
depends=0
[ "${1:-}" = --depends ] && { depends=1; shift; }
[ $# -ge 4 ] || { echo "usage: $0 [--depends] DEBARCH SUITE DEST PACKAGE..." >&2; exit 2; }
arch=$1 suite=$2 dest=$3
shift 3

# The mirror the system uses for Debian itself.
mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' \
	/etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
if [ -z "$mirror" ]; then
	mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\?\(http[^ ]*\/debian\) .*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | head -1)
fi
mirror=${mirror:-http://deb.debian.org/debian}

missing=()
for p in "$@"; do
	[ -f "$dest/.unpacked-$p" ] || missing+=("$p")
done
# With --depends, done when the closure of these same packages was.
want="$*"
[ ${#missing[@]} -eq 0 ] && { [ $depends -eq 0 ] ||
	[ "$(cat "$dest/.closure-of" 2>/dev/null)" = "$want" ]; } && exit 0

apt=$build/apt-$arch-$suite
# Downloaded packages are kept beside the kernel cache, for every clone.
debs=${XDG_CACHE_HOME:-$HOME/.cache}/sleep-tramp/debs/$arch-$suite
mkdir -p "$apt"/lists/partial "$apt"/cache/archives/partial "$debs" \
	"$apt"/sources.list.d "$dest"
cat > "$apt/sources.list" <<EOF
deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main
deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite-updates main
EOF
: > "$apt/status"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list"
	-o "Dir::Etc::SourceParts=$apt/sources.list.d"
	-o "Dir::State=$apt" -o "Dir::State::Lists=$apt/lists"
	-o "Dir::State::status=$apt/status"
	-o "Dir::Cache=$apt/cache"
	-o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
	-o "APT::Sandbox::User=root" -q)

# Lists older than a day are fetched again.
if [ -z "$(find "$apt/lists" -maxdepth 1 -name '*Packages*' -mtime -1 \
		2>/dev/null | head -1)" ]; then
	echo "deps: package lists for $arch ($suite)"
	apt-get "${opts[@]}" update >/dev/null
fi
if [ $depends -eq 1 ]; then
	# Real packages only: apt-cache shows a virtual one as <name>.
	mapfile -t closure < <(apt-cache "${opts[@]}" depends --recurse \
		--no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "$@" | grep -E '^[a-z0-9]' | sort -u)
	[ ${#closure[@]} -gt 0 ] ||
		{ echo "deps: no dependencies found for $* ($arch)" >&2; exit 1; }
	# A named package the suite lacks for this architecture is said,
	# and listed in DEST/.absent; the others are unpacked.
	: > "$dest/.absent"
	for p in "$@"; do
		printf '%s\n' "${closure[@]}" | grep -qx -- "$p" && continue
		echo "deps: $suite has no $p for $arch"
		echo "$p" >> "$dest/.absent"
	done
	missing=()
	for p in "${closure[@]}"; do
		[ -f "$dest/.unpacked-$p" ] || missing+=("$p")
	done
fi
for p in "${missing[@]}"; do
	v=$(apt-cache "${opts[@]}" show --no-all-versions "$p" 2>/dev/null |
		sed -n 's/^Version: //p' | head -1)
	[ -n "$v" ] || { echo "deps: no $p for $arch in $suite" >&2; exit 1; }
	echo "deps: unpacking $p $v ($arch) into ${dest#"$root"/}"
	# A package of this version downloaded before (by any clone) is
	# taken from the cache.
	deb=
	for f in "$debs/${p}"_*.deb; do
		[ -f "$f" ] && [ "$(dpkg-deb -f "$f" Version)" = "$v" ] && deb=$f
	done
	if [ -z "$deb" ]; then
		(cd "$debs" && rm -f "${p}"_*.deb &&
			apt-get "${opts[@]}" download "$p" >/dev/null)
		deb=$(ls "$debs/${p}"_*.deb 2>/dev/null | head -1)
	fi
	[ -n "$deb" ] || { echo "deps: could not download $p ($arch)" >&2; exit 1; }
	dpkg-deb -x "$deb" "$dest"
	echo "$v" > "$dest/.unpacked-$p"
done
[ $depends -eq 0 ] || echo "$want" > "$dest/.closure-of"
