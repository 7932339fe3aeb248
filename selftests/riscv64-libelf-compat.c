// SPDX-License-Identifier: GPL-2.0
/*
 * What the riscv64 test programs' static libelf needs and nothing else
 * provides.  Linked for TARGET_ARCH=riscv64 only (target.mk).
 *
 * Bookworm has no riscv64 packages, so the riscv64 guests' libelf.a (and
 * libz.a, libzstd.a) come from trixie, elfutils 0.192, while the C library
 * is bookworm's riscv64 cross glibc 2.36: trixie's own glibc cannot be
 * linked with bookworm's binutils.  Two things libelf.a calls are missing:
 *
 * - __isoc23_strtol(): glibc 2.38 and later headers redirect strtol() to
 *   it for C2x and for _GNU_SOURCE, which elfutils defines.  It differs
 *   from strtol() only in taking a "0b" prefix when the base is 0 or 2;
 *   libelf converts the fields of ar headers, with base 10 or 8.
 * - eu_search_tree_init() and friends, elfutils' wrappers of tsearch() and
 *   tdelete() over a struct search_tree: elfutils links them into
 *   libelf.so from its internal libeu.a, and Debian's libelf.a lacks
 *   them.  Only the ones libelf.a calls are here.
 *
 * Both can go when the C library is glibc 2.38 or later (a trixie host)
 * and Debian's libelf.a carries libeu's objects; the linker says which.
 */
#define _GNU_SOURCE		/* tdestroy() */
#include <search.h>
#include <stdlib.h>

long __isoc23_strtol(const char *nptr, char **endptr, int base)
{
	return strtol(nptr, endptr, base);
}

/*
 * elfutils' lib/eu-search.h.  The lock is an int that nothing touches
 * unless elfutils is configured with --enable-thread-safety, which Debian's
 * is not (its libelf.a calls no pthread_rwlock_*()); the root comes first
 * either way, and only the root is used here.
 */
struct search_tree {
	void *root;
	int lock;
};

void eu_search_tree_init(struct search_tree *tree)
{
	tree->root = NULL;
}

void eu_search_tree_fini(struct search_tree *tree, void (*free_node)(void *))
{
	tdestroy(tree->root, free_node);
	tree->root = NULL;
}

void *eu_tsearch(const void *key, struct search_tree *tree,
		 int (*compare)(const void *, const void *))
{
	return tsearch(key, &tree->root, compare);
}

void *eu_tdelete(const void *key, struct search_tree *tree,
		 int (*compare)(const void *, const void *))
{
	return tdelete(key, &tree->root, compare);
}
