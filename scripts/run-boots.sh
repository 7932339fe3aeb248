#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run QEMU test runs side by side, JOBS at a time, once every kernel and
# guest they need is built.  Each run is one "mode:variant:arch" with mode
# test (our suite) or kselftest; give the longest first, they start in
# that order.  A guest runs in one host thread (tcg,thread=single), so on
# this 2-core machine two runs take about the time of the longer half.
# Usage: run-boots.sh JOBS TEST_TIMEOUT KSELFTEST_TIMEOUT
#                     [--meanwhile CMD [--ready DIR]] RUN...
# With --meanwhile, CMD (a shell command: the builds and checks the other
# runs need) takes a slot of its own as soon as the first run has
# started, and the other runs start once it has finished: the longest
# run does not wait for what it does not need.  With --ready DIR, CMD
# says in DIR which kernels it has built with their guests (a file
# VARIANT-ARCH each): while it runs, a run whose file is there takes a
# slot it leaves free, in the order given; the others wait for CMD, then
# go in that order.
# The environment's CHURN_ROUNDS_<arch> and STRESS_ROUNDS_<arch> set the
# churn and attach/detach stress rounds per arch; STRESS_ROUNDS_<variant>_<arch>,
# where set, overrides the latter for one variant.
# Always exits 0: the results are judged by summary.py.
set -uo pipefail
jobs=$1 test_timeout=$2 kself_timeout=$3
shift 3
meanwhile= ready_dir=
if [ "${1:-}" = --meanwhile ]; then
	meanwhile=$2
	shift 2
	if [ "${1:-}" = --ready ]; then
		ready_dir=$2
		shift 2
	fi
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

# CMD, in the slot it takes.
run_meanwhile() {
	echo "=== start: $meanwhile ($(elapsed)s elapsed)"
	bash -c "$meanwhile"
	echo "=== done: $meanwhile ($(elapsed)s elapsed)"
}

# Wait for one child to end; if it is CMD, its slot is free again.  While
# CMD builds, also return every 5 s (RUN_BOOTS_TICK) to look for runs it
# made ready.
pids=() cmd_pid= tick_pid=
reap_one() {
	local ended= p left=()
	if [ -n "$ready_dir" ] && [ -n "$cmd_pid" ] && [ -z "$tick_pid" ]; then
		sleep "${RUN_BOOTS_TICK:-5}" &
		tick_pid=$!
	fi
	wait -n -p ended "${pids[@]}" $cmd_pid $tick_pid || true
	if [ "$ended" = "$tick_pid" ]; then
		tick_pid=
		return
	fi
	if [ "$ended" = "$cmd_pid" ]; then
		cmd_pid=
		return
	fi
	for p in "${pids[@]}"; do
		[ "$p" = "$ended" ] || left+=("$p")
	done
	pids=("${left[@]}")
}

# One slot only: nothing can run beside CMD.
if [ -n "$meanwhile" ] && [ "$jobs" -lt 2 ]; then
	run_meanwhile
	meanwhile=
fi
queue=("$@")
while [ ${#queue[@]} -gt 0 ]; do
	# The next run: while CMD runs, the first one it made ready.
	pick=0
	if [ -n "$cmd_pid" ]; then
		pick=-1
		for i in "${!queue[@]}"; do
			IFS=: read -r mode variant arch <<<"${queue[$i]}"
			if [ -n "$ready_dir" ] &&
			   [ -e "$ready_dir/$variant-$arch" ]; then
				pick=$i
				break
			fi
		done
		if [ "$pick" -lt 0 ]; then
			reap_one
			continue
		fi
	fi
	while :; do
		busy=${#pids[@]}
		[ -z "$cmd_pid" ] || busy=$((busy + 1))
		[ "$busy" -ge "$jobs" ] || break
		reap_one
	done
	# CMD may have ended meanwhile: then list order again.
	[ -n "$cmd_pid" ] || [ -n "$meanwhile" ] || pick=0
	IFS=: read -r mode variant arch <<<"${queue[$pick]}"
	queue=("${queue[@]:0:$pick}" "${queue[@]:$((pick + 1))}")
	run_one "$mode" "$variant" "$arch" &
	pids+=($!)
	if [ -n "$meanwhile" ]; then
		run_meanwhile &
		cmd_pid=$!
		meanwhile=
	fi
done
if [ -n "$meanwhile" ]; then
	run_meanwhile
fi
[ -z "$tick_pid" ] || kill "$tick_pid" 2>/dev/null
wait
echo "=== all QEMU runs done ($(elapsed)s elapsed)"
exit 0
