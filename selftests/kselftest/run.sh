#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /sleeptest of the kernel-selftests guest (scripts/guest-init.sh runs it):
# each line of /selections is one test_progs run and one KTAP case.
#   run.sh            all selections
#   run.sh -t A,B     the selections containing A or B
#   run.sh -l         list them
# A case passes when test_progs exits 0 having passed at least one test and
# skipped none: a skipped test is not a pass.
PER_TEST_TIMEOUT=300
cd / || exit 2
if [ "$1" = -l ]; then
	cat /selections
	exit 0
fi
filter=
[ "$1" = -t ] && filter=$2
# What the tests expect of a full system: test_local_storage runs a copy
# of a real /bin/rm, test_bprm_opts runs /bin/bash, the cgroup helpers
# mount cgroup2 on /mnt, network helpers use ::1.
rm -f /bin/rm && cp /rm /bin/rm
printf '#!/bin/busybox sh\nexec /bin/busybox sh "$@"\n' > /bin/bash
chmod +x /bin/bash
mkdir -p /mnt
ip link set lo up
sel=$(grep -F -- "$(echo "$filter" | tr , '\n')" /selections)
echo "KTAP version 1"
echo "1..$(echo "$sel" | grep -c .)"
i=0 failed=0
for t in $sel; do
	i=$((i + 1))
	echo "sleeptest-case: $t" > /dev/kmsg
	start=$(date +%s)
	timeout $PER_TEST_TIMEOUT ./test_progs -a "$t" > /tmp/tp.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/tp.out
	if [ $rc -eq 0 ] && grep -q \
		'^Summary: [1-9][0-9]*/[0-9]* PASSED, 0 SKIPPED, 0 FAILED' /tmp/tp.out
	then
		echo "ok $i $t"
	else
		[ $(( $(date +%s) - start )) -ge $PER_TEST_TIMEOUT ] &&
			echo "# $t: timed out after $PER_TEST_TIMEOUT s"
		echo "# $t: test_progs exited with $rc"
		echo "not ok $i $t"
		failed=1
	fi
done
exit $failed
