# SPDX-License-Identifier: GPL-2.0
# Sourced after arch.sh with a variant name: sets what differs between the
# kernels of one architecture.
#   FRAGS      config fragments (kconfig/<name>.config) beyond Kconfig.sleep
#              and kconfig/<arch>.config
#   SRCVARIANT the source tree it builds (build/<SRCVARIANT>/linux)
#   TOOLCHAIN  make variables selecting the compiler, for kbuild, kconfig
#              and out-of-tree modules
# kasan, bti, nomodrwx, preempt and veneers build the patched source with
# more on top (make kasan, make bti, make nomodrwx, make preempt, make
# veneers); bti is built with clang, which 6.1 needs for in-kernel BTI.
# bench-stock, bench-patched and bench-upstream (6.12) are the production
# configurations of make bench; <arch>-upstream holds what only 6.12 has.
# Fragments that do not exist for an architecture are skipped.
# <arch>-patched holds what only the series' test kernels set.
BASECONFIG=
case $1 in
stock)	FRAGS=("$ARCHNAME-layout") SRCVARIANT=stock ;;
patched) FRAGS=("$ARCHNAME-layout" "$ARCHNAME-patched") SRCVARIANT=patched ;;
kasan|bti|nomodrwx|preempt|veneers)
	FRAGS=("$ARCHNAME-layout" "$ARCHNAME-patched" "$1") SRCVARIANT=patched ;;
distro-stock|distro-patched)
	# Debian's configuration (scripts/distro-config.sh), then ours on top
	FRAGS=(distro) SRCVARIANT=${1#distro-}
	BASECONFIG=${BUILD_DIR:-$root/build}/dl/linux-config/boot-$ARCHNAME.config ;;
prefix[0-9]*)
	# The patched kernel at a prefix of the series (make prefix-test,
	# scripts/prefix-test.sh): its own tree, build/prefixN/linux, and the
	# test kernels' fragments but the one naming an option of a later
	# patch (arm64's veneer count).
	FRAGS=("$ARCHNAME-layout") SRCVARIANT=$1 ;;
bench-stock|bench-patched)
	FRAGS=("$ARCHNAME-layout" bench "$ARCHNAME-bench")
	SRCVARIANT=${1#bench-} ;;
bench-upstream)
	FRAGS=("$ARCHNAME-layout" bench "$ARCHNAME-bench" "$ARCHNAME-upstream")
	SRCVARIANT=upstream ;;
*)	echo "unknown variant '$1' (stock, patched, kasan, bti, nomodrwx, preempt, veneers," \
		"distro-stock, distro-patched, bench-stock, bench-patched," \
		"bench-upstream, prefixN)" >&2
	exit 2 ;;
esac
if [ "$1" = bti ]; then
	TOOLCHAIN=(LLVM=1 CC="ccache clang" HOSTCC="ccache clang")
else
	TOOLCHAIN=(CROSS_COMPILE="$CROSS" CC="ccache ${CROSS}gcc"
		HOSTCC="ccache gcc")
fi

# The config fragment files this kernel merges, in order (later ones
# override earlier ones): kconfig.sh merges them, kcache.sh hashes them.
# Needs $root.
# A variant with a BASECONFIG (a whole configuration) starts from it and
# lists it first; kconfig.sh then merges and checks only the fragments.
config_fragments() {
	local frag
	if [ -n "${BASECONFIG:-}" ]; then
		echo "$BASECONFIG"
	else
		echo "$root/Kconfig.sleep"
		echo "$root/kconfig/$ARCHNAME.config"
	fi
	for frag in "${FRAGS[@]}"; do
		[ -f "$root/kconfig/$frag.config" ] &&
			echo "$root/kconfig/$frag.config"
	done
	return 0
}
