#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run QEMU test runs side by side, JOBS at a time, once every kernel and
# guest they need is built.  Each run is one "mode:variant:arch" with mode
# test (our suite) or kselftest; give the longest first, they start in
# that order.  A guest runs in one host thread (tcg,thread=single), so on
# this 2-core machine two runs take about the time of the longer half.
# Usage: run-boots.sh JOBS TEST_TIMEOUT KSELFTEST_TIMEOUT [--meanwhile CMD] RUN...
# With --meanwhile, CMD (a shell command: the builds and checks the other
# runs need) takes a slot of its own as soon as the first run has
# started, and the other runs start once it has finished: the longest
# run does not wait for what it does not need.
# The environment's CHURN_ROUNDS_<arch> and STRESS_ROUNDS_<arch> set the
# churn and attach/detach stress rounds per arch; STRESS_ROUNDS_<variant>_<arch>,
# where set, overrides the latter for one variant.
# Always exits 0: the results are judged by summary.py.
set -uo pipefail
jobs=$1 test_timeout=$2 kself_timeout=$3
shift 3
meanwhile=
if [ "${1:-}" = --meanwhile ]; then
	meanwhile=$2
	shift 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
t0=$(date +%s)

elapsed() { echo $(( $(date +%s) - t0 )); }

# One run, its lines tagged where vm.py has not tagged them already.
run_one() {
	local mode=$1 variant=$2 arch=$3 timeout rounds_var rounds stress_var
	timeout=$test_timeout
	[ "$mode" = kselftest ] && timeout=$kself_timeout
	rounds_var=CHURN_ROUNDS_$arch
	rounds=${!rounds_var:-0}
	stress_var=STRESS_ROUNDS_${variant}_$arch
	[ -n "${!stress_var:-}" ] || stress_var=STRESS_ROUNDS_$arch
	echo "=== start: $mode $variant $arch ($(elapsed)s elapsed)"
	CHURN_ROUNDS=$rounds STRESS_ROUNDS=${!stress_var:-0} \
		"$root/scripts/run-vm.sh" "$mode" "$variant" \
		"$arch" "" "$timeout" 2>&1 |
	while IFS= read -r line; do
		case $line in
		"["*) printf '%s\n' "$line" ;;
		*) printf '[%s %s-%s] %s\n' "$mode" "$variant" "$arch" \
			"$line" ;;
		esac
	done
	echo "=== done: $mode $variant $arch ($(elapsed)s elapsed)"
}

# CMD in the foreground, in the slot it takes.
run_meanwhile() {
	echo "=== start: $meanwhile ($(elapsed)s elapsed)"
	bash -c "$meanwhile"
	echo "=== done: $meanwhile ($(elapsed)s elapsed)"
	meanwhile=
}

# One slot only: nothing can run beside CMD.
[ -n "$meanwhile" ] && [ "$jobs" -lt 2 ] && run_meanwhile
running=0
for run in "$@"; do
	IFS=: read -r mode variant arch <<<"$run"
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$mode" "$variant" "$arch" &
	running=$((running + 1))
	[ -n "$meanwhile" ] && run_meanwhile
done
[ -n "$meanwhile" ] && run_meanwhile
wait
echo "=== all QEMU runs done ($(elapsed)s elapsed)"
exit 0
