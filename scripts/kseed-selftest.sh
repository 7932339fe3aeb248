#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Checks of the patched kernel's seed (scripts/kseed.sh) on made-up trees
# and object directories: the copy names the patched tree, every file the
# series or a local edit changed is newer than the copied objects and no
# other file is, and there is no seed where the objects could be stale or
# kbuild would recompile everything anyway.  One "ok"/"not ok" line per
# check; scripts/harness-selftest.py reports them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/kseed.sh"
say() { :; }
check() { if eval "$1"; then echo "ok $2"; else echo "not ok $2"; fi; }
gitc() { git -c user.name=t -c user.email=t@t "$@"; }

build=$tmp/build arch=x86_64
stock=$build/stock/linux patched=$build/patched/linux
mkdir -p "$stock"
git -C "$stock" init -q
for f in README a.c b.c c.c d.c; do echo "$f" >"$stock/$f"; done
git -C "$stock" add .
gitc -C "$stock" commit -qm pristine
git -C "$stock" worktree add -q --detach "$patched" HEAD
echo "patched" >>"$patched/a.c"
echo "patched" >>"$patched/d.c"
gitc -C "$patched" commit -qam series

# Both trees come from before the stock build, as after make source.
find "$stock" "$patched" -path '*/.git' -prune -o -type f \
	-exec touch -d '2020-01-01' {} +

# The stock build: objects, a command file naming the source, its stamps.
src=$stock obj=$build/stock/obj-$arch variant=stock
mkdir -p "$obj"
echo vmlinux >"$obj/vmlinux"
echo object >"$obj/a.o"
echo object >"$obj/b.o"
printf 'cmd_a.o := gcc -c %s/a.c\ndeps := %s/a.c\n' "$stock" "$stock" \
	>"$obj/.a.o.cmd"
echo key >"$obj/.inputs-key"
stamp_source
find "$obj" -exec touch -d '2021-01-01' {} +
stockobj=$obj
check '[ "$(cut -d" " -f2 "$obj/$source_stamp")" = "$(realpath "$stock")" ]' \
	"a finished clean build records its tree and path"
seed_from_stock
check '[ ! -e "$build/stock/obj-$arch/source" ]' "a stock build is not seeded"

# A local edit in the patched tree, as old as the rest; and a file the
# series changed that is already newer than the stock objects.
echo "edited" >>"$patched/c.c"
touch -d '2020-01-01' "$patched/c.c"
touch -d '2022-01-01' "$patched/d.c"

src=$patched obj=$build/patched/obj-$arch variant=patched
seed_from_stock
check '[ -f "$obj/a.o" ] && [ -f "$obj/vmlinux" ]' \
	"the first patched build starts from stock's objects"
check 'grep -q "$(realpath "$patched")/a.c" "$obj/.a.o.cmd" &&
	! grep -q "$(realpath "$stock")/" "$obj/.a.o.cmd" &&
	[ "$(readlink "$obj/source")" = "$(realpath "$patched")" ]' \
	"the copy's command files and source link name the patched tree"
check '[ ! -e "$obj/.inputs-key" ] && [ ! -e "$obj/$source_stamp" ]' \
	"the copy carries neither stock's cache key nor its source stamp"
check '[ "$patched/a.c" -nt "$obj/a.o" ]' \
	"a file the series changed is newer than the objects"
check '[ "$patched/c.c" -nt "$obj/a.o" ]' \
	"a file edited and not committed is newer than the objects"
check '[ "$(stat -c %Y "$patched/a.c")" -eq $(($(date -d 2021-01-01 +%s) + 1)) ]' \
	"it is one second newer than the newest object, not as new as now"
check '[ "$(stat -c %Y "$patched/d.c")" -eq "$(date -d 2022-01-01 +%s)" ]' \
	"a changed file newer than the objects already keeps its time"
check '[ "$patched/b.c" -ot "$obj/b.o" ] && [ "$patched/README" -ot "$obj/b.o" ]' \
	"an unchanged file is not touched"
check '[ "$stock/a.c" -ot "$stockobj/a.o" ] && grep -q "$(realpath "$stock")/a.c" "$stockobj/.a.o.cmd"' \
	"the stock tree and objects are left as they were"

echo mine >"$obj/marker"
seed_from_stock
check '[ -f "$obj/marker" ]' "a patched build that has a vmlinux is not seeded again"

rm -rf "$obj"
mv "$stockobj/$source_stamp" "$tmp/stamp"
seed_from_stock
check '[ ! -e "$obj" ]' "no seed from objects without a source stamp"
mv "$tmp/stamp" "$stockobj/$source_stamp"

echo "0000000000000000000000000000000000000000 $(realpath "$stock")" \
	>"$stockobj/$source_stamp.ok"
mv "$stockobj/$source_stamp" "$tmp/stamp"
mv "$stockobj/$source_stamp.ok" "$stockobj/$source_stamp"
seed_from_stock
check '[ ! -e "$obj" ]' "no seed from a tree this repository does not have"
mv "$tmp/stamp" "$stockobj/$source_stamp"

touch "$patched/README"
seed_from_stock
check '[ ! -e "$obj" ]' "no seed when the patched tree is newer than the objects"

src=$stock obj=$tmp/dirty
mkdir -p "$obj"
echo "dirty" >>"$stock/b.c"
stamp_source
check '[ ! -e "$obj/$source_stamp" ]' "a tree with uncommitted changes gets no stamp"
