#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's own BPF tools (libbpf-tools, bpftrace, bpftool), run in the
# Debian guest (scripts/debian-guest.sh) as a user runs them, each against
# a workload whose effect on the tool's output is known.  One KTAP case
# per check.  A tool passes only if it traced through fentry/fexit (read
# from bpftool link show while it runs) and its output shows the workload;
# a tool that fell back to kprobes prints that path and fails (stock
# kernels without trampolines list it as a known failure).
# Arguments as /sleeptest takes them (scripts/vm.py passes them):
#   tools.sh                 run every case
#   tools.sh --list          print the case names
#   tools.sh -t A,B -x C,D   the cases whose name contains A or B, but
#                            not those named C or D
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
CASES="vfsstat klockstat tcpconnlat tcprtt solisten readahead cachestat
bpftrace_kfunc bpftrace_kretfunc bpftrace_args"

only="" skip=""
while [ $# -gt 0 ]; do
	case $1 in
	--list) for c in $CASES; do echo "$c"; done; exit 0 ;;
	-t) only=$(echo "$2" | tr , ' '); shift ;;
	-x) skip=$(echo "$2" | tr , ' '); shift ;;
	*) echo "tools.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
selected=""
for c in $CASES; do
	take=1
	if [ -n "$only" ]; then
		take=0
		for f in $only; do
			case $c in *"$f"*) take=1 ;; esac
		done
	fi
	for f in $skip; do
		[ "$c" = "$f" ] && take=0
	done
	[ $take = 1 ] && selected="$selected $c"
done

w=/tmp/tools
mkdir -p $w
ip link set lo up
# 4 KiB of data the workloads read
dd if=/dev/zero of=$w/data bs=1024 count=4 2>/dev/null
echo marker > $w/tools-marker

n=0 failed=0
echo "KTAP version 1"
sed 's/^/# debian: /' /debian-packages
echo "1..$(echo $selected | wc -w)"

# need TOOL PACKAGE: fails the case (returns 1) when TOOL is not there.
need() {
	command -v "$1" > /dev/null && return 0
	echo "# $1: not installed; $(grep "^$2 " /debian-packages)"
	return 1
}

# Print a file's lines as KTAP diagnostics, at most $2 of them.
diag_file() {
	head -n "${2:-20}" "$1" | sed 's/^/# /'
}

# Start a tool in the background (output in $w/$1.out) and wait until it
# has attached: bpftool link show lists at least $2 links, and no more
# for a second (tools attach one link after another).  Then record which
# attach path it took: fentry (trace_fentry or trace_fexit links) or
# kprobe (perf_event links).  Sets tool_pid, tool_links and tool_path.
start_tool() {
	name=$1 links=$2
	shift 2
	"$@" > $w/$name.out 2>&1 &
	tool_pid=$!
	t=0 seen=0 same=0
	while [ $t -lt 600 ] && [ $same -lt 5 ]; do
		sleep 0.2
		t=$((t + 1))
		kill -0 $tool_pid 2>/dev/null || break
		bpftool link show > $w/$name.links 2>/dev/null
		now=$(grep -c '^[0-9]*: ' $w/$name.links)
		if [ $now -ge $links ] && [ $now -eq $seen ]; then
			same=$((same + 1))
		else
			same=0
		fi
		seen=$now
	done
	tool_links=$(grep -c '^[0-9]*: ' $w/$name.links)
	if grep -q 'trace_fentry\|trace_fexit' $w/$name.links; then
		tool_path=fentry
	elif grep -q 'perf_event\|kprobe' $w/$name.links; then
		tool_path=kprobe
	elif [ -s $w/$name.links ]; then
		tool_path=other
	else
		tool_path=none
	fi
}

# Stop a tool: SIGINT (they print their summary on it), then wait, at
# most 120 s.  Sets tool_rc and tool_stop (seconds it took to exit).
stop_tool() {
	kill -INT $tool_pid 2>/dev/null
	t0=$(date +%s)
	while kill -0 $tool_pid 2>/dev/null &&
	      [ $(($(date +%s) - t0)) -lt 120 ]; do
		sleep 0.2
	done
	tool_stop=$(($(date +%s) - t0))
	kill -KILL $tool_pid 2>/dev/null
	wait $tool_pid
	tool_rc=$?
}

# report NAME OK MESSAGE
report() {
	n=$((n + 1))
	if [ "$2" = 1 ]; then
		echo "ok $n $1"
	else
		echo "# $3"
		echo "not ok $n $1"
		failed=$((failed + 1))
	fi
}

# A path other than fentry fails the case, with what the tool printed.
path_ok() {
	[ "$tool_path" = fentry ] && return 0
	echo "# $1 took the $tool_path path, not fentry; bpftool link show:"
	diag_file $w/$1.links 6
	echo "# $1 printed:"
	diag_file $w/$1.out 10
	return 1
}

# verdict NAME PASSED MESSAGE [LINES]: the case's result once its tool
# has run: the fentry path and PASSED = 1, or else MESSAGE and the first
# LINES (20) lines of the tool's output.
verdict() {
	path_ok $1 || { report $1 0 "$1 did not use fentry"; return; }
	if [ "$2" = 1 ]; then
		report $1 1
	else
		diag_file $w/$1.out ${4:-20}
		report $1 0 "$3"
	fi
}

case_vfsstat() {
	need vfsstat libbpf-tools || { report vfsstat 0 "vfsstat missing"; return; }
	# It must end by itself: it has no SIGINT handler (and a script's
	# background job ignores SIGINT), and a signal that kills it loses
	# its buffered output.  Eight 2-second lines outlast the wait for its
	# five links under emulation.
	start_tool vfsstat 5 vfsstat 2 8
	# 200 one-byte reads and 3 writes from dd
	dd if=$w/data of=/dev/null bs=1 count=200 2>/dev/null
	dd if=$w/data of=$w/copy bs=1024 count=3 2>/dev/null
	t=0
	while kill -0 $tool_pid 2>/dev/null && [ $t -lt 150 ]; do
		sleep 0.2
		t=$((t + 1))
	done
	stop_tool
	# TIME READ/s WRITE/s FSYNC/s OPEN/s CREATE/s, one line per 2 s
	reads=$(awk '$1 ~ /:/ && $2 ~ /^[0-9]/ { s += 2 * $2 } END { print s + 0 }' \
		$w/vfsstat.out)
	echo "# vfsstat: path $tool_path ($tool_links links), exit $tool_rc, $reads reads counted"
	verdict vfsstat "$([ "$reads" -ge 200 ] && echo 1)" \
		"vfsstat counted $reads reads, want at least the workload's 200"
}

case_klockstat() {
	need klockstat libbpf-tools || { report klockstat 0 "klockstat missing"; return; }
	# Only locks taken by seq_read*(), which take their seq_file's mutex.
	# No duration: it prints its table on SIGINT.
	start_tool klockstat 1 klockstat -c seq_read -s 2
	i=0
	while [ $i -lt 50 ]; do
		cat /proc/self/stat > /dev/null
		i=$((i + 1))
	done
	stop_tool
	# Caller  Avg Wait  Count  Max Wait  Total Wait, the caller first
	seq=$(awk '$1 ~ /^seq_read.*\+0x/ && $4 ~ /^[0-9]+$/ && $4 > 0' \
		$w/klockstat.out | wc -l)
	echo "# klockstat: path $tool_path ($tool_links links), exit $tool_rc, $seq lock line(s) with a count from seq_read*()"
	verdict klockstat "$([ "$seq" -gt 0 ] && echo 1)" \
		"klockstat reported no lock taken in seq_read (the workload read /proc/self/stat 50 times)" 30
}

# One TCP connection over loopback to port $1 (nc on both ends), the
# client sending what command $2 prints.
loopback_tcp() {
	nc -l -p $1 > $w/nc.out &
	server=$!
	sleep 0.5
	$2 2>/dev/null | nc 127.0.0.1 $1
	sleep 1
	kill $server 2>/dev/null
	wait $server
}

case_tcpconnlat() {
	need tcpconnlat libbpf-tools || { report tcpconnlat 0 "tcpconnlat missing"; return; }
	start_tool tcpconnlat 1 tcpconnlat
	loopback_tcp 5555 "echo hello"
	stop_tool
	# PID COMM IP SADDR DADDR DPORT LAT(ms)
	seen=$(awk '$2 == "nc" && $5 == "127.0.0.1" && $6 == "5555"' \
		$w/tcpconnlat.out | wc -l)
	echo "# tcpconnlat: path $tool_path ($tool_links links), exit $tool_rc, $seen connect(s) of nc to 127.0.0.1:5555"
	verdict tcpconnlat "$([ "$seen" -eq 1 ] && echo 1)" \
		"tcpconnlat showed $seen connects of nc to 127.0.0.1:5555, want 1"
}

case_tcprtt() {
	need tcprtt libbpf-tools || { report tcprtt 0 "tcprtt missing"; return; }
	# A histogram of the RTTs of segments received on established
	# sockets, printed on SIGINT: 64 KiB over loopback gives some.
	start_tool tcprtt 1 tcprtt
	loopback_tcp 5556 "dd if=/dev/zero bs=1024 count=64"
	stop_tool
	# "     usecs : count distribution" rows: "LOW -> HIGH : COUNT |***|"
	rtts=$(awk '$2 == "->" && $4 == ":" { s += $5 } END { print s + 0 }' \
		$w/tcprtt.out)
	echo "# tcprtt: path $tool_path ($tool_links links), exit $tool_rc, $rtts RTT(s) in its histogram"
	verdict tcprtt "$([ "$rtts" -gt 0 ] && echo 1)" \
		"tcprtt counted no RTT while 64 KiB went over loopback TCP"
}

case_solisten() {
	need solisten libbpf-tools || { report solisten 0 "solisten missing"; return; }
	start_tool solisten 1 solisten
	nc -l -p 5557 > /dev/null &
	server=$!
	sleep 1
	kill $server 2>/dev/null
	wait $server
	stop_tool
	# PID COMM RET BACKLOG PROTO PORT ADDR, one line per listen()
	seen=$(awk '$2 == "nc" && $3 == "0" && $6 == "5557"' \
		$w/solisten.out | wc -l)
	echo "# solisten: path $tool_path ($tool_links links), exit $tool_rc, $seen listen(s) of nc on port 5557"
	verdict solisten "$([ "$seen" -eq 1 ] && echo 1)" \
		"solisten showed $seen listens of nc on port 5557, want 1"
}

# A tool that hooks page-cache functions: start it, read a file it has
# not seen (drop_caches first), stop it, and keep its output.
run_pagecache_tool() {
	need $1 libbpf-tools || return 1
	start_tool $1 1 $1
	sync
	echo 3 > /proc/sys/vm/drop_caches
	cat $w/data /usr/bin/bpftool > /dev/null
	sleep 2
	stop_tool
	echo "# $1: path $tool_path ($tool_links links), exit $tool_rc"
}

case_readahead() {
	run_pagecache_tool readahead || { report readahead 0 "readahead missing"; return; }
	# "Readahead unused/total pages: U/T" then a histogram, on SIGINT
	total=$(sed -n 's|^Readahead unused/total pages: [0-9]*/\([0-9]*\)$|\1|p' \
		$w/readahead.out)
	echo "# readahead: ${total:-no} pages read ahead"
	verdict readahead "$([ "${total:-0}" -gt 0 ] && echo 1)" \
		"readahead reported no page read ahead for a file read after drop_caches"
}

case_cachestat() {
	run_pagecache_tool cachestat || { report cachestat 0 "cachestat missing"; return; }
	# HITS MISSES DIRTIES HITRATIO BUFFERS_MB CACHED_MB, one line a second
	misses=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' \
		$w/cachestat.out)
	echo "# cachestat: $misses page-cache misses"
	verdict cachestat "$([ "$misses" -gt 0 ] && echo 1)" \
		"cachestat counted no page-cache miss for a file read after drop_caches"
}

# One bpftrace run for the three bpftrace cases: its start-up (LLVM, BTF)
# is the slow part under emulation.
bpftrace_ran=0
run_bpftrace() {
	[ $bpftrace_ran = 1 ] && return
	bpftrace_ran=1
	tool_path=none
	need bpftrace bpftrace || return
	# bpftrace 0.20 made args a struct: args.path, no longer args->path
	args="args->"
	case $(bpftrace --version) in
	*v0.1[0-9].*) ;;
	*) args="args." ;;
	esac
	start_tool bpftrace 3 bpftrace -e '
kfunc:vfs_read /comm == "dd"/ { @reads = count(); }
kretfunc:vfs_read /comm == "dd"/ { @bytes = sum(retval); }
kfunc:vfs_open /comm == "cat"/ { printf("open %s\n", str('"$args"'path->dentry->d_name.name)); }
'
	# 100 one-byte reads; one open of tools-marker
	dd if=$w/data of=/dev/null bs=1 count=100 2>/dev/null
	cat $w/tools-marker > /dev/null
	sleep 1
	stop_tool
	bt_reads=$(sed -n 's/^@reads: \([0-9]*\)$/\1/p' $w/bpftrace.out)
	bt_bytes=$(sed -n 's/^@bytes: \([0-9]*\)$/\1/p' $w/bpftrace.out)
	bt_opens=$(grep -c '^open tools-marker$' $w/bpftrace.out)
	echo "# bpftrace: path $tool_path ($tool_links links), exit $tool_rc ${tool_stop} s after SIGINT, @reads ${bt_reads:-none} @bytes ${bt_bytes:-none}, ${bt_opens} open(s) of tools-marker"
}

# bpftrace_case NAME VALUE WANT WHAT (after run_bpftrace)
bpftrace_case() {
	if ! path_ok bpftrace; then
		report $1 0 "bpftrace did not use fentry"
	elif [ "${2:-none}" = "$3" ]; then
		report $1 1
	else
		diag_file $w/bpftrace.out
		report $1 0 "$4: ${2:-none}, want $3"
	fi
}

case_bpftrace_kfunc() {
	run_bpftrace
	bpftrace_case bpftrace_kfunc "$bt_reads" 100 \
		"kfunc:vfs_read counted dd's reads"
}

case_bpftrace_kretfunc() {
	run_bpftrace
	bpftrace_case bpftrace_kretfunc "$bt_bytes" 100 \
		"kretfunc:vfs_read summed dd's retval"
}

case_bpftrace_args() {
	run_bpftrace
	bpftrace_case bpftrace_args "$bt_opens" 1 \
		"kfunc:vfs_open printed args->path->dentry->d_name.name of tools-marker"
}

for c in $selected; do
	# where the case starts, in the kernel log (scripts/vm.py scopes
	# known kernel reports by these marks)
	echo "sleeptest-case: $c" > /dev/kmsg
	case_$c
done
echo "# tools: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
