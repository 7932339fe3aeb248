#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our suite on the patched kernel at a prefix of the series: the kernel of
# patches 1..N (variant prefixN, scripts/variant.sh), built from its own
# tree build/prefixN/linux (a worktree of the patched tree at patch N),
# its guest (BPF objects and test module against that kernel), one QEMU
# run.  What a later patch provides fails at the prefix: such cases are
# listed for the variant in selftests/known-failures/<arch>, each with the
# patch that brings it.
# Usage: prefix-test.sh N ARCH FILTER TIMEOUT
set -euo pipefail
n=$1 arch=$2 filter=$3 timeout=$4
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
case $n in
''|*[!0-9]*) echo "prefix-test: P=$n: give the number of a patch of the series" >&2
	exit 2 ;;
esac
python3 "$root/scripts/source.py" prepare
tree=$build/patched/linux
total=$(git -C "$tree" rev-list --count pristine..series)
if [ "$n" -lt 1 ] || [ "$n" -gt "$total" ]; then
	echo "prefix-test: P=$n: the series has patches 1 to $total" >&2
	exit 2
fi
commit=$(git -C "$tree" rev-list --reverse pristine..series | sed -n "${n}p")
variant=prefix$n
src=$build/$variant/linux
if [ ! -d "$src" ]; then
	mkdir -p "$build/$variant"
	git -C "$tree" worktree add -q --detach "$src" "$commit"
else
	git -C "$src" checkout -q --detach -f "$commit"
fi
cp "$build/patched/source-version.txt" "$build/$variant/" 2>/dev/null || true
echo "prefix-test: patch $n/$total: $(git -C "$src" log -1 --format=%s)"
"$root/scripts/kbuild.sh" "$variant" "$arch"
"$root/scripts/build-guest.sh" "$variant" "$arch"
exec "$root/scripts/run-vm.sh" test "$variant" "$arch" "$filter" "$timeout"
