#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build every prefix of the series for every architecture: each patch must
# build on its own.  Uses the patched tree and its object directories
# (incremental), and leaves the tree at the series tip.  The prefixes'
# kernels are not put in the kernel cache (KERNEL_CACHE=off): they would
# push out the tip's kernels, which make test restores from it.  The tip
# itself may come from the cache: that is the same build.
#
# A prefix may lack a config option a later patch adds (arm64's veneer
# count): such a prefix is built by a private copy of the harness whose
# fragments leave out the options its tree does not define, each one
# named in the log.  The copy hashes like the original (the kernel cache
# key names files relative to the harness), so the tip's key is the same.
# A build that passed is remembered (build/series-check.passed) by its
# tree and inputs: a run stopped half-way resumes where it was.
#
# A patch that changes only other architectures' arch/<dir>/ files (or
# MAINTAINERS, Documentation/) leaves this architecture's build inputs as
# they were, so its build is not run again: the result before the patch
# stands (for patch 1, the pristine tree's, built as the stock kernel).
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
# Does the change $1..$2 leave architecture $3's source as it was?
untouched_for() {
	local f srcdir
	case $3 in x86_64) srcdir=x86 ;; riscv64) srcdir=riscv ;; *) srcdir=$3 ;; esac
	while read -r f; do
		case $f in
		MAINTAINERS|Documentation/*) ;;	# not read by the build
		arch/"$srcdir"/*) return 1 ;;
		arch/*/*) ;;
		*) return 1 ;;
		esac
	done < <(git -C "$tree" diff --name-only "$1" "$2")
}

harness=$(mktemp -d)
trap 'rm -rf "$harness"' EXIT
cp -r "$root/scripts" "$root/kconfig" "$root/Kconfig.sleep" "$harness/"
# Is $1 a fragment the patched kernels of the checked architectures merge?
used_fragment() {
	local a
	[ "$1" = Kconfig.sleep ] && return 0
	for a in "${archs[@]}"; do
		case $1 in kconfig/"$a".config|kconfig/"$a"-layout.config|kconfig/"$a"-patched.config)
			return 0 ;;
		esac
	done
	return 1
}

# Builds that passed, kept across runs (all prefixes take hours; a run
# may be stopped): one line per architecture and build inputs (the
# checked-out tree, the fragments as filtered, the build scripts, what
# variant.sh sets for the patched kernels, the compiler).
passed=$build/series-check.passed
build_key() {
	(
		. "$root/scripts/arch.sh" "$1"
		. "$harness/scripts/variant.sh" patched
		git -C "$tree" rev-parse 'HEAD^{tree}'
		cat "$harness/Kconfig.sleep" "$harness"/kconfig/*.config
		for f in kbuild kconfig arch buildenv kseed; do
			cat "$harness/scripts/$f.sh"
		done
		# what variant.sh sets for the patched kernels, not the file,
		# which other variants change
		echo "${FRAGS[*]} $SRCVARIANT ${TOOLCHAIN[*]}"
		"${CROSS}gcc" --version | head -1
	) | sha1sum | cut -c1-16
}

# Point kbuild at a harness whose fragments name only options the checked
# out tree defines; print the ones left out.
fragments_for_tree() {
	local f opt
	declare -A defined=()
	while read -r opt; do defined[CONFIG_$opt]=1; done < <(
		find "$tree/" -name 'Kconfig*' -not -path '*/.git/*' \
			-exec grep -hoE '^[[:space:]]*(menu)?config [A-Za-z0-9_]+' {} + |
		awk '{print $2}' | sort -u)
	for f in Kconfig.sleep kconfig/*.config; do
		: > "$harness/$f"
		while IFS= read -r line; do
			opt=$(sed -nE 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[= ].*/\2/p' <<< "$line")
			if [ -n "$opt" ] && [ -z "${defined[$opt]+set}" ]; then
				used_fragment "$f" &&
					echo "$f: $opt not in this tree, left out"
				continue
			fi
			printf '%s\n' "$line" >> "$harness/$f"
		done < "$root/$f"
	done
}

declare -A last
for a in "${archs[@]}"; do last[$a]="ok (pristine tree)"; done
fail=0 n=0 built=0 reused=0 prev=pristine t0=$(date +%s)
log=$build/results/series-check.txt
mkdir -p "$build/results"
: > "$log"
for c in "${commits[@]}"; do
	n=$((n + 1))
	subj=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$tree" checkout -q --detach -f "$c"
	left_out=$(fragments_for_tree)
	[ -n "$left_out" ] && echo "$left_out" | sed "s/^/[series-check] patch $n: /" | sort -u | tee -a "$log"
	for a in "${archs[@]}"; do
		out=$build/results/series-check-$n-$a.log
		key="$a $(build_key "$a")"
		if untouched_for "$prev" "$c" "$a"; then
			r="${last[$a]%% (*} (unchanged for $a: same as before this patch)"
			[ "${last[$a]#ok}" = "${last[$a]}" ] && fail=$((fail + 1))
		elif grep -qxF "$key" "$passed" 2>/dev/null; then
			r="ok (built by an earlier run: same tree and inputs)"
			reused=$((reused + 1))
		elif BUILD_DIR=$build KERNEL_CACHE=$([ "$c" = "$tip" ] && echo "${KERNEL_CACHE:-}" || echo off) \
			"$harness/scripts/kbuild.sh" patched "$a" >"$out" 2>&1; then
			r=ok built=$((built + 1))
			echo "$key" >> "$passed"
			rm -f "$out"
		else
			r="FAILED (${out#"$root"/})" fail=$((fail + 1)) built=$((built + 1))
			tail -15 "$out"
		fi
		last[$a]=$r
		echo "[series-check $(( $(date +%s) - t0 ))s] patch $n/${#commits[@]} $a: $r  $subj" |
			tee -a "$log"
	done
	prev=$c
done
git -C "$tree" checkout -q --detach -f "$tip"
echo "series-check: ${#commits[@]} patches x ${#archs[@]} architectures ($built builds, $reused passed in an earlier run), $fail failed" | tee -a "$log"
[ $fail -eq 0 ]
