# SPDX-License-Identifier: GPL-2.0
# Sourced by the scripts that compile kernel code or keep results of it
# (kbuild.sh, distro-check.sh, kcache.sh, kseed.sh): what they must agree
# on.  Part of the kernel cache's key.

# Compile through ccache, for objects under build directory $1.
use_ccache() {
	# Paths under the build directory hash as relative ones, so the stock
	# and patched trees, or two clones, share objects.
	export CCACHE_BASEDIR=$1 CCACHE_NOHASHDIR=1
	# Depend mode: ccache takes a compile's includes from the compiler's
	# own dependency output instead of running the preprocessor first,
	# which cost a third on top of every miss (kernel/fork.c: 1.77 s,
	# 1.42 s in depend mode, 1.36 s without ccache).
	export CCACHE_DEPEND=1
	export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
}

# Print the git tree id of the checkout at $1 when it has no uncommitted
# change, else nothing: a kept result may name only a tree git can give
# back.
clean_tree_id() {
	[ -z "$(git -C "$1" status --porcelain 2>/dev/null)" ] || return 0
	git -C "$1" rev-parse -q --verify 'HEAD^{tree}' 2>/dev/null || true
}
