# SPDX-License-Identifier: GPL-2.0
# Sourced by kbuild.sh: a patched kernel's first build starts from the
# objects of its stock counterpart.
# Needs: $build $src $obj $variant $arch, say().
. "$(dirname "${BASH_SOURCE[0]}")/buildenv.sh"

# Which clean source a finished object directory was built from:
# "TREE-ID PATH", PATH as its command and dependency files name it.
source_stamp=.source-tree
stamp_source() {
	local tree
	rm -f "$obj/$source_stamp"
	tree=$(clean_tree_id "$src")
	[ -n "$tree" ] || return 0
	echo "$tree $(realpath "$src")" >"$obj/$source_stamp"
}

# The first build of a patched kernel starts from the objects of its stock
# counterpart (patched from stock, bench-patched from bench-stock).  The
# series changes a few dozen files, and kbuild's own dependency tracking,
# per file and per config symbol (include/config/), recompiles only what
# they reach: on arm64 and riscv64 about half the objects.  ccache alone
# recompiles them all there, because the series selects a config symbol
# and so changes autoconf.h, which every compile reads.
seed_from_stock() {
	local from fobj tree oldsrc newsrc changed newest stamp f
	case $variant in *patched*) ;; *) return 0 ;; esac
	from=${variant/patched/stock}
	fobj=$build/$from/obj-$arch
	[ ! -e "$obj/vmlinux" ] && [ -f "$fobj/vmlinux" ] &&
		[ -f "$fobj/$source_stamp" ] || return 0
	read -r tree oldsrc <"$fobj/$source_stamp"
	# A source checked out after those objects were made is newer than
	# all of them: kbuild would recompile everything anyway.
	[ "$src/README" -ot "$fobj/vmlinux" ] || return 0
	# The files that differ from the tree those objects were built from,
	# committed or not; without that list there is no seed.
	changed=$(git -C "$src" diff --name-only --no-renames "$tree" \
		2>/dev/null) ||
		return 0
	say "starting from the objects of $from-$arch"
	rm -rf "$obj"
	mkdir -p "$obj"
	cp -a "$fobj/." "$obj/"
	rm -f "$obj/$source_stamp" "$obj/.inputs-key" "$obj/build.log"
	# The command and dependency files name the source by absolute path.
	newsrc=$(realpath "$src")
	grep -rlIZ -F "$oldsrc/" "$obj" |
		xargs -0 -r sed -i "s|$oldsrc/|$newsrc/|g"
	ln -sfn "$newsrc" "$obj/source"
	# Each of them becomes newer than every copied object: a second past
	# the newest, not now, so that the patched kernels of the other
	# architectures, built since (make test builds the stock kernels
	# first), do not find them changed again.
	newest=$(find "$fobj" -type f -printf '%T@\n' | sort -n | tail -1)
	stamp=$((${newest%.*} + 1))
	[ -z "$changed" ] || (cd "$src" && printf '%s\n' "$changed" |
		while IFS= read -r f; do
			[ -e "$f" ] && [ "$(stat -c %Y -- "$f")" -lt "$stamp" ] &&
				touch -c -d "@$stamp" -- "$f"
		done; true)
}
