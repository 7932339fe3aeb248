#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Checks of the kernel cache (scripts/kcache.sh) on a made-up source tree
# and object directory: the key follows every input it names, a tree with
# uncommitted changes is not cached, a stored build comes back whole with
# its Makefile regenerated for this tree, a damaged entry is dropped, and
# only the newest entries are kept.  One "ok"/"not ok" line per check;
# scripts/harness-selftest.py reports them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A copy of the project's inputs, so fragments can change.
root=$tmp/root
mkdir -p "$root/scripts" "$root/kconfig"
cp "$here/../Kconfig.sleep" "$root/"
cp "$here"/../kconfig/*.config "$root/kconfig/"
cp "$here"/{kbuild,kconfig,variant,arch,kseed,kcache,buildenv}.sh "$root/scripts/"

src=$tmp/src obj=$tmp/obj variant=stock arch=x86_64
mkdir -p "$src"
git -C "$src" init -q
echo "int x;" >"$src/a.c"
git -C "$src" add a.c
git -C "$src" -c user.name=t -c user.email=t@t commit -qm one

. "$root/scripts/arch.sh" "$arch"
. "$root/scripts/variant.sh" "$variant"
say() { :; }
# kcache_restore regenerates the object directory's Makefile through
# kbuild; record the call instead.
make() { echo "$*" >"$tmp/make.args"; }
export KERNEL_CACHE=$tmp/cache
. "$root/scripts/kcache.sh"

check() { if eval "$1"; then echo "ok $2"; else echo "not ok $2"; fi; }

k1=$(kcache_key)
check '[ ${#k1} -eq 20 ] && [ "$(kcache_key)" = "$k1" ]' \
	"the key of a clean tree is stable"

echo "int y;" >>"$src/a.c"
check '[ -z "$(kcache_key)" ]' "a tree with uncommitted changes has no key"
git -C "$src" -c user.name=t -c user.email=t@t commit -qam two
k2=$(kcache_key)
check '[ -n "$k2" ] && [ "$k2" != "$k1" ]' "a committed source change changes the key"

echo "CONFIG_EXTRA=y" >>"$root/kconfig/x86_64.config"
k3=$(kcache_key)
check '[ "$k3" != "$k2" ]' "a config fragment change changes the key"
echo "CONFIG_EXTRA=y" >>"$root/kconfig/riscv64.config"
check '[ "$(kcache_key)" = "$k3" ]' "another architecture's fragment does not"

check '[ "$(KCFLAGS=-O3 kcache_key)" != "$k3" ]' "KCFLAGS changes the key"
echo "# a variant added" >>"$root/scripts/variant.sh"
check '[ "$(kcache_key)" = "$k3" ]' "a change to variant.sh that leaves this variant as it was does not"
k=$(TOOLCHAIN=(CC=clang); kcache_key)
check '[ -n "$k" ] && [ "$k" != "$k3" ]' "this variant's toolchain changes the key"
k=$(SRCVARIANT=patched; kcache_key)
check '[ -n "$k" ] && [ "$k" != "$k3" ]' "this variant's source tree changes the key"
check '[ -z "$(kcache_dir=off kcache_key)" ]' "KERNEL_CACHE=off means no key"

# A finished build: image, vmlinux, an object and the link temporaries.
mkdir -p "$obj/$(dirname "$KIMAGE")" "$obj/kernel"
echo image >"$obj/$KIMAGE"
echo vmlinux >"$obj/vmlinux"
echo object >"$obj/kernel/fork.o"
echo temp >"$obj/vmlinux.o"
echo temp >"$obj/.tmp_vmlinux.btf"
kcache_store "$k3"
check '[ -f "$(kcache_entry "$k3")" ] && kcache_current "$k3" && ! kcache_current "$k2"' \
	"a stored build is current for its key only"

rm -rf "$obj"
kcache_restore "$k3"
check '[ "$(cat "$obj/$KIMAGE")" = image ] && [ "$(cat "$obj/kernel/fork.o")" = object ] &&
	[ ! -e "$obj/vmlinux.o" ] && [ ! -e "$obj/.tmp_vmlinux.btf" ] && kcache_current "$k3"' \
	"a restored build has its files, not the link temporaries, and is current"
check 'grep -q -- "-C $src O=$obj .*outputmakefile" "$tmp/make.args"' \
	"a restored build's Makefile is regenerated for this tree"

echo garbage >"$(kcache_entry "$k2")"
rm -rf "$obj"
check '! kcache_restore "$k2" 2>/dev/null && [ ! -e "$(kcache_entry "$k2")" ] && [ ! -e "$obj" ]' \
	"a damaged entry is not restored and is dropped"

# Three builds: the oldest entry goes.
mkdir -p "$obj/$(dirname "$KIMAGE")"
echo image >"$obj/$KIMAGE"
echo vmlinux >"$obj/vmlinux"
for k in aaaa bbbb cccc; do
	kcache_store "$k"
	sleep 1
done
check '[ "$(ls "$KERNEL_CACHE" | wc -l)" -eq 2 ] &&
	[ -f "$(kcache_entry cccc)" ] && [ -f "$(kcache_entry bbbb)" ]' \
	"two entries are kept per variant and architecture"
