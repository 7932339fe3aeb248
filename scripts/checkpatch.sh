#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the 6.1 tree's checkpatch.pl --strict on every exported patch.
# Usage: checkpatch.sh PATCHDIR
set -uo pipefail
dir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cp=$build/stock/linux/scripts/checkpatch.pl
shopt -s nullglob
patches=("$dir"/0*.patch)
n=0 bad=0
for p in "${patches[@]}"; do
	case $(basename "$p") in 0000-cover-letter.patch) continue ;; esac
	n=$((n + 1))
	if ! (cd "$build/stock/linux" && perl "$cp" --strict --no-tree \
		--ignore FILE_PATH_CHANGES "$p") >"$p.checkpatch" 2>&1; then
		bad=$((bad + 1))
		echo "checkpatch: $(basename "$p"):"
		grep -E '^(ERROR|WARNING|CHECK)|^#|^total' "$p.checkpatch" | head -40
	fi
done
echo "checkpatch: $n patch(es), $bad with findings"
[ $bad -eq 0 ]
