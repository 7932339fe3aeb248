#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build every prefix of the series for every architecture: each patch must
# build on its own.  Uses the patched tree and its object directories
# (incremental), and leaves the tree at the series tip.
# Usage: series-check.sh [ARCH...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
archs=("${@:-x86_64 arm64 riscv64}")
read -r -a archs <<< "${archs[*]}"
tree=$build/patched/linux
python3 "$root/scripts/source.py" prepare || exit 1
mapfile -t commits < <(git -C "$tree" rev-list --reverse pristine..series)
tip=$(git -C "$tree" rev-parse series)
fail=0 n=0
log=$build/results/series-check.txt
mkdir -p "$build/results"
: > "$log"
for c in "${commits[@]}"; do
	n=$((n + 1))
	subj=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$tree" checkout -q --detach -f "$c"
	for a in "${archs[@]}"; do
		if "$root/scripts/kbuild.sh" patched "$a" >/dev/null 2>&1; then
			r=ok
		else
			r=FAILED fail=$((fail + 1))
		fi
		echo "patch $n/${#commits[@]} $a: $r  $subj" | tee -a "$log"
	done
done
git -C "$tree" checkout -q --detach -f "$tip"
echo "series-check: ${#commits[@]} patches x ${#archs[@]} architectures, $fail failed" | tee -a "$log"
[ $fail -eq 0 ]
