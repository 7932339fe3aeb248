#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the test guest.  The kernel command line says what to run:
#   sleeptest.args="..."   arguments for /sleeptest (default: all cases)
# Output protocol read by scripts/vm.py: the test output between
# SLEEPTEST-OUTPUT-BEGIN/END, its exit status, then the kernel log between
# SLEEPTEST-DMESG-BEGIN/END; the console is quiet while those are printed.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t securityfs securityfs /sys/kernel/security
hostname sleeptest
# A distro kernel's modules (make distro-boot): each must load.
if [ -f /boot-modules ]; then
	for m in $(cat /boot-modules); do
		if modprobe "$m"; then
			echo "sleeptest: module $m loaded"
		else
			echo "sleeptest: module $m failed to load"
		fi
	done
fi

args=$(sed -n 's/.*sleeptest\.args="\([^"]*\)".*/\1/p' /proc/cmdline)
# Rounds of the trampoline churn cases (make test runs fewer than make kasan)
# and of the attach/detach stress.
rounds=$(sed -n 's/.*sleeptest\.churn_rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$rounds" ] && export SLEEPTEST_CHURN_ROUNDS=$rounds
rounds=$(sed -n 's/.*sleeptest\.stress_rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$rounds" ] && export SLEEPTEST_STRESS_ROUNDS=$rounds
# and of bpf_entry_attach_race (make preempt runs thousands)
rounds=$(sed -n 's/.*sleeptest\.poke_rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$rounds" ] && export SLEEPTEST_POKE_ROUNDS=$rounds
echo "sleeptest: running /sleeptest $args on $(uname -r) $(uname -m) cpus=$(nproc)"
# Where the kernel runs, for the harness's KASLR check.
echo "sleeptest: _text $(grep ' _text$' /proc/kallsyms | cut -d' ' -f1)"
set -o pipefail
# Case marks in the kernel log (scripts/vm.py scopes known reports by them):
# what comes before this one is the boot.
echo "sleeptest-case: start" > /dev/kmsg
/sleeptest $args 2>&1 | tee /tmp/output
rc=$?
# A report printed late (a deferred free, a stall) still reaches the dump.
sleep 2
# Whether lockdep still checks: its own first report, or its tables running
# out, turns it off for the rest of the boot (the harness wants 1).
echo "sleeptest: debug_locks $(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats 2>/dev/null)"
dmesg -n 1
echo "SLEEPTEST-OUTPUT-BEGIN"
cat /tmp/output
echo "SLEEPTEST-OUTPUT-END rc=$rc"
echo "SLEEPTEST-DMESG-BEGIN"
dmesg
echo "SLEEPTEST-DMESG-END"
sync
reboot -f
