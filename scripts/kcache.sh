# SPDX-License-Identifier: GPL-2.0
# Sourced by kbuild.sh: the finished-kernel cache.
. "$(dirname "${BASH_SOURCE[0]}")/buildenv.sh"
#
# ccache makes every compile of a known object a hit, yet a kernel whose
# objects all come from ccache still takes 170-270 s here: kbuild forks
# fixdep and friends for each of 1,000-1,300 objects, and links.  A fresh
# clone of an unchanged tree should not pay that six times.  So a finished
# object directory is kept, keyed by a hash of everything the build reads:
#   - the source tree (git tree id of build/<variant>/linux; a tree with
#     uncommitted changes is never cached),
#   - the config fragments kconfig.sh merges for this variant,
#   - what variant.sh sets for this variant (source tree, toolchain,
#     base configuration), not the whole file: adding a variant does not
#     change the others' keys,
#   - the build scripts (kbuild.sh, kconfig.sh, arch.sh, kseed.sh,
#     buildenv.sh, this),
#   - the toolchain's versions (gcc, cross gcc and ld, clang and lld for
#     bti, pahole, make) and KCFLAGS/KAFLAGS/KCPPFLAGS.
# The key is also stamped into the object directory, so a rebuild of an
# unchanged kernel in place is skipped too.
#
# KERNEL_CACHE is the directory, default ~/.cache/sleep-tramp/kernels;
# KERNEL_CACHE=off turns the cache off (and so a cold run is: an empty
# ccache and KERNEL_CACHE=off, or an empty directory).  Two entries are
# kept per variant and architecture.
# Needs: $root $src $obj $variant $arch $CROSS $KARCH, arch.sh and
# variant.sh sourced, say().

kcache_dir=${KERNEL_CACHE:-$HOME/.cache/sleep-tramp/kernels}
kcache_keep=2
kcache_stamp=$obj/.inputs-key

# Print the key, or nothing when this build cannot be keyed.
kcache_key() {
	local tree f
	[ "$kcache_dir" = off ] && return 0
	tree=$(clean_tree_id "$src")
	[ -n "$tree" ] || return 0
	{
		echo "tree $tree"
		while read -r f; do
			echo "file ${f#"$root"/}"; cat "$f"
		done < <(config_fragments)
		echo "variant $variant source $SRCVARIANT" \
			"base ${BASECONFIG:+${BASECONFIG#"$root"/}}" \
			"toolchain ${TOOLCHAIN[*]}"
		for f in kbuild.sh kconfig.sh arch.sh kseed.sh \
			kcache.sh buildenv.sh; do
			echo "file scripts/$f"; cat "$root/scripts/$f"
		done
		echo "tool $(gcc --version | head -1)"
		echo "tool $("${CROSS}gcc" --version | head -1)"
		echo "tool $("${CROSS}ld" --version | head -1)"
		echo "tool $(pahole --version)"
		echo "tool $(make --version | head -1)"
		if [ "$variant" = bti ]; then
			echo "tool $(clang --version | head -1)"
			echo "tool $(ld.lld --version | head -1)"
		fi
		echo "env KCFLAGS=${KCFLAGS:-} KAFLAGS=${KAFLAGS:-}" \
			"KCPPFLAGS=${KCPPFLAGS:-}"
	} | sha256sum | cut -c1-20
}

kcache_entry() { echo "$kcache_dir/$variant-$arch-$1.tar.zst"; }

# The object directory already holds this build: nothing to do.
kcache_current() {
	[ -n "$1" ] && [ -f "$obj/$KIMAGE" ] && [ -f "$obj/vmlinux" ] &&
		[ "$(cat "$kcache_stamp" 2>/dev/null)" = "$1" ]
}

# Replace the object directory with the cached build for key $1.
kcache_restore() {
	local entry
	[ -n "$1" ] || return 1
	entry=$(kcache_entry "$1")
	[ -f "$entry" ] || return 1
	say "restoring the build of these inputs from $entry"
	rm -rf "$obj"
	mkdir -p "$obj"
	if ! zstd -dcq "$entry" | tar -C "$obj" -xf -; then
		say "cache entry unreadable, building instead"
		rm -rf "$obj" "$entry"
		return 1
	fi
	# The object directory's Makefile and "source" link name the tree it
	# was built from, which may be another clone: point them here, or a
	# module build against this kernel would use the other tree.
	make -s -C "$src" O="$obj" ARCH="$KARCH" outputmakefile >/dev/null
	[ -f "$obj/$KIMAGE" ] && [ -f "$obj/vmlinux" ] &&
		[ "$(cat "$kcache_stamp")" = "$1" ] || {
		say "cache entry incomplete, building instead"
		rm -rf "$obj" "$entry"
		return 1
	}
}

# Keep the build just finished for key $1.  The final link's temporaries
# (vmlinux.o, .tmp_vmlinux*) are left out: any change relinks anyway.
kcache_store() {
	local entry tmp old
	[ -n "$1" ] || return 0
	echo "$1" >"$kcache_stamp"
	mkdir -p "$kcache_dir" || return 0
	entry=$(kcache_entry "$1")
	tmp=$entry.tmp.$$
	if tar -C "$obj" --exclude=./vmlinux.o --exclude='./.tmp_vmlinux*' \
		-cf - . | zstd -q -T0 -3 -o "$tmp" && mv "$tmp" "$entry"; then
		say "kept in $entry ($(du -h "$entry" | cut -f1))"
	else
		rm -f "$tmp"
		say "could not write $entry (continuing without the cache)"
		return 0
	fi
	# Older entries of this variant and architecture beyond the newest few.
	ls -1t "$kcache_dir/$variant-$arch-"*.tar.zst 2>/dev/null |
		tail -n +$((kcache_keep + 1)) | while read -r old; do
			rm -f "$old"
		done
}
