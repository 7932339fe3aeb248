#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a test kernel in QEMU (TCG), run /sleeptest, judge the result.

  vm.py test  --arch A --variant V --kernel IMG --initrd CPIO [--filter T]
  vm.py bench --arch A --variant V --kernel IMG --initrd CPIO [--iters N]

Every boot has a time limit; a hang kills QEMU and prints the console's
last lines.  The kernel log is scanned: BUG:, WARNING:, Oops, lockdep and
sleeping-in-atomic reports fail the run whatever the tests printed.
Known failures (selftests/known-failures/<arch>) turn into KTAP "# XFAIL"
results only when the failure carries the listed error; a listed case that
passes is "# XPASS", which fails the run.
"""
import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
RESULTS = os.path.join(BUILD, "results")

QEMU = {
    "x86_64": (["qemu-system-x86_64", "-M", "q35", "-cpu", "max"], "ttyS0"),
    "arm64": (["qemu-system-aarch64", "-M", "virt,gic-version=3",
               "-cpu", "max,pauth-impdef=on"], "ttyAMA0"),
    # OpenSBI (qemu-system-data) as the firmware; QEMU 7.2 has no
    # "-cpu max" for riscv, rv64 is the full RV64GC.
    "riscv64": (["qemu-system-riscv64", "-M", "virt", "-cpu", "rv64",
                 "-bios", "default"], "ttyS0"),
}
# Kernel parameters of one architecture.  The riscv64 UART's driver
# registers after the tracers' start-up tests: the boot console (the
# device tree's stdout-path) shows the minutes before.
ARCH_APPEND = {"riscv64": "earlycon"}

# Guests whose vCPUs share one QEMU thread instead of one thread each.
# Under QEMU 7.2's multi-threaded TCG, an arm64 guest sometimes went on
# running the old code of an ftrace call site after the kernel rewrote it
# (arm64 ftrace patches live call sites without stop_machine, while the
# other vCPU keeps calling the function): memory held the new BL to the
# trampoline, the trampoline was never entered for seconds, a full TLB
# flush did not help, and writing the same 4 bytes again did.  That is a
# stale translation in the emulator, not guest state; it failed
# attach_detach_while_running in about 1 run in 2.  With round-robin TCG
# the guest still has two CPUs that interleave and preempt each other, and
# 3 runs of 40 attach/replace/detach rounds all passed.
#
# x86_64 showed the same under the trampoline churn cases (text_poke_bp
# rewrites a call site through an int3 while the other vCPU runs it): an
# "int3" oops at __x64_sys_getpgid+0x5 after the breakpoint had been
# removed, in 1 of 2 multi-threaded runs, none in round-robin runs.
#
# riscv64 runs multi-threaded: 6.1 riscv rewrites code only under
# stop_machine() (no other vCPU runs it meanwhile), and after every
# call site it rewrites it waits for the other hart's fence.i (an SBI
# remote fence), which round-robin TCG schedules once per 100 ms kick:
# the tracers' start-up tests, which rewrite every call site several
# times, did not finish in 10 minutes round-robin and take 40 s here.
TCG_SINGLE_THREAD = {"arm64", "x86_64"}

# The boots of one kernel, each its own result file: (name suffix, extra
# kernel command line, KASLR expectation).  The arm64 kernels are built
# with KASLR (kconfig/arm64-layout.config); the patched one is booted both
# ways: with KASLR its call sites reach BPF trampolines (vmalloc space,
# beyond BL range) through a direct-call veneer, with nokaslr by a direct
# BL.  The "kaslr" check compares the guest's _text with the link address
# in System.map.
BOOTS = {
    ("arm64", "patched"): [("", "", "kaslr"),
                           ("-nokaslr", "nokaslr", "nokaslr")],
    ("arm64", "stock"): [("", "", "kaslr")],
    ("arm64", "kasan"): [("", "", "kaslr")],
    ("arm64", "bti"): [("", "", "kaslr")],
    ("arm64", "veneers"): [("", "", "kaslr")],
    ("arm64", "distro-stock"): [("", "", "kaslr")],
    ("arm64", "distro-patched"): [("", "", "kaslr")],
    ("arm64", "bench-stock"): [("", "", "kaslr")],
    ("arm64", "bench-patched"): [("", "", "kaslr"),
                                 ("-nokaslr", "nokaslr", "nokaslr")],
    ("arm64", "bench-upstream"): [("", "", "kaslr"),
                                  ("-nokaslr", "nokaslr", "nokaslr")],
}
DEFAULT_BOOTS = [("", "", None)]


def boots_of(arch, variant, suite="sleeptest"):
    """The boots a suite makes of one kernel.  The kernel selftests and
    the tools run on the first boot only: the arm64 nokaslr boot's
    direct-BL call path is shown by our suite (call_paths_exercised), and
    a second selftests run there cost 170 s of make test's 30-minute
    budget."""
    # a prefix of the series (make prefix-test) boots like stock: once
    if variant.startswith("prefix"):
        variant = "stock"
    b = BOOTS.get((arch, variant), DEFAULT_BOOTS)
    return b if suite == "sleeptest" else b[:1]

# On every boot: KFENCE samples an allocation every millisecond (a use
# after free of a trampoline image or program is caught within a suite
# run), and the soft-lockup detector waits 2 x 20 s, which a TCG guest
# busy in the tracers' start-up tests stays within.
# Benchmarks turn KFENCE off: its sampling would be counted as overhead.
# A TCG guest runs 20-50 times slower than hardware, and a test may keep a
# program asleep (holding a tasks-trace grace period) on purpose for as
# long as 50 attach/detach rounds take: 60-70 guest seconds on an arm64
# guest sharing the host.  RCU-tasks report a grace period older than
# 120 s (30000 jiffies at Kconfig.sleep's HZ=250), not the default 10 s;
# one that never ends is still reported within a boot.
# printk.devkmsg=on: the case marks the guest writes to /dev/kmsg are
# not rate-limited away.
COMMON_APPEND = ("watchdog_thresh=20 printk.time=1 printk.devkmsg=on "
                 "rcupdate.rcu_task_stall_info=30000")
# More kernel parameters for a developer's run (not used by make test).
EXTRA_APPEND = os.environ.get("SLEEPTEST_KERNEL_ARGS", "")
TEST_APPEND = "kfence.sample_interval=1"
BENCH_APPEND = "kfence.sample_interval=0"

# The tracers' start-up tests (Kconfig.sleep's FTRACE_STARTUP_TEST)
# rewrite every call site several times: about 20 s of an x86_64 boot
# under TCG, 2-4 min of a riscv64 one.  On the patched kernel's own suite
# boots they exercise the series' direct calls; a stock kernel's run only
# tests upstream's ftrace, and a kernel-selftests boot or a second boot
# of the same kernel (arm64 nokaslr) repeats its first suite boot's, so
# those boots skip them.  6.1 has no switch of its own for
# that, but boot-time kprobe events, even an empty list, turn them off
# ("Ftrace startup test is disabled due to running kprobe events").
SKIP_TRACER_TESTS = "kprobe_event="


def tracer_tests_wanted(a, boot_name=""):
    """The arm64 nokaslr boot would spend 60-150 s repeating them; its
    direct-BL call path is shown by our suite (call_paths_exercised)."""
    return (a.variant != "stock" and a.suite == "sleeptest" and
            boot_name == boots(a)[0][0])


# A trampoline call path each attach case reports ("# call-path: FN PATH",
# selftests/sleeptest.c); arm64 needs both across its two boots.
CALL_PATH = re.compile(r"^# call-path: (\S+) (\S+)", re.M)
# arm64: whether a reported call site is within BL reach of the veneers
# ("# call-path-reach: FN in|out|partial"); with KASLR the module's place
# decides whether any call site can take the out-of-range path.
CALL_REACH = re.compile(r"^# call-path-reach: (\S+) (\S+)", re.M)

# Kernel log lines that fail a run.
# Lockdep and RCU-lockdep reports start with "WARNING:" or "INFO:", the
# atomic-sleep check with "BUG: sleeping function called from invalid
# context", the hung-task detector with "INFO: task ... blocked", the
# soft-lockup detector with "BUG: soft lockup"; a stack dump is "Call
# Trace:" on x86 and "Call trace:" on arm64; an RCU-tasks grace period
# held up for 10 s prints "rcu_tasks... grace period N is M jiffies old";
# the rest are oopses and panics, whose first line on x86 ("general
# protection fault: 0000 [#1]", "invalid opcode: 0000 [#1]", "int3: 0000
# [#1]") names no BUG or Oops: the "[#N]" oops counter catches those.
BAD_LOG = re.compile(
    r"BUG:|WARNING:|INFO:|Oops|Kernel panic|kernel BUG|\[#\d+\]|"
    r"general protection fault|invalid opcode|double fault|"
    r"Internal error:|UBSAN:|KASAN:|KFENCE:|"
    r"sleeping function called from invalid context|"
    r"Call Trace:|Call trace:|Unable to handle kernel|"
    r"grace period \d+ is \d+ jiffies old|detected stalls? on|"
    r"self-detected stall|blocked for more than|soft lockup|"
    r"page allocation failure|vmalloc error:")
# The end of a warning's or an oops's report: a known entry explains the
# stack dump of its own report, up to here.
END_TRACE = re.compile(r"---\[ end trace")
# The guest marks in the kernel log where each case starts
# ("sleeptest-case: NAME", from /sleeptest) and where its first program
# starts ("sleeptest-case: start", from /init); before that is the boot.
CASE_MARK = re.compile(r"sleeptest-case: (\S+)")
# Our own harness lines that could match the patterns above (the guest
# init's echo, without a kernel timestamp; the kernel prefixes reports
# about our test program's allocations with "sleeptest: " too).
LOG_ALLOW = re.compile(r"^sleeptest: ")

# The suites run in QEMU: the prefix of their result, console and
# known-failure files, and their title (scripts/summary.py uses both).
SUITES = {
    "sleeptest": ("", "sleepable-trampolines suite (selftests/)"),
    "kselftest": ("kselftest-", "kernel BPF selftests, test_progs subset "
                  "(selftests/kselftest/tests)"),
    "tools": ("tools-", "Debian's BPF tools in a Debian guest "
              "(selftests/tools)"),
}

T0 = time.time()


def log(stage, msg):
    print("[%s %4.0fs] %s" % (stage, time.time() - T0, msg), flush=True)


def boots(a):
    return boots_of(a.arch, a.variant, getattr(a, "suite", "sleeptest"))


# BENCH_ACCEL=kvm: make bench on a host of the guest's architecture with
# /dev/kvm runs its guests under KVM instead of TCG with -icount.
BENCH_ACCEL = os.environ.get("BENCH_ACCEL", "tcg")


def qemu_cmd(a, append, icount):
    base, console = QEMU[a.arch]
    # Benchmarks use one vCPU: under -icount, vCPUs run round-robin in one
    # thread anyway, and x86 bring-up of a second CPU stalls there.
    cmd = base + ["-smp", "1" if icount else "2", "-m", "1024",
                  "-nodefaults",
                  "-display", "none", "-serial", "stdio", "-monitor", "none",
                  "-no-reboot", "-kernel", a.kernel, "-initrd", a.initrd,
                  "-append", "console=%s panic=-1 %s %s %s" % (
                      console, " ".join(filter(None, (
                          COMMON_APPEND, ARCH_APPEND.get(a.arch),
                          EXTRA_APPEND))),
                      BENCH_APPEND if icount else TEST_APPEND, append)]
    if icount and BENCH_ACCEL == "kvm":
        # Real hardware through KVM: guest ns are ns of the host's CPU.
        cmd[cmd.index("-cpu") + 1] = "host"
        cmd += ["-accel", "kvm"]
    elif icount:
        cmd += ["-icount", "shift=0,sleep=off"]
    elif a.arch in TCG_SINGLE_THREAD:
        cmd += ["-accel", "tcg,thread=single"]
    return cmd


# A guest whose kernel prints nothing for this long before it starts init
# has stalled in early boot, before anything of ours runs.  Seen on
# riscv64 under QEMU 7.2's multi-threaded TCG, on stock and patched
# kernels alike, about once in 40-50 boots: the boot hart idles in
# arch_cpu_idle and no timer interrupt wakes it, or it faults on fetching
# handle_exception while the second hart sits in OpenSBI.  Such a boot is
# killed and the guest booted once more; the stall is logged, boot()
# returns it for the KTAP header, and its console is kept beside the new
# one.  The longest
# silence before init in a good boot is about 22 s (riscv64, tracers'
# start-up tests).  Only that stall is retried: the boot must have gone
# silent right after its last line below, or printed nothing at all (an
# arm64 guest once did, with the host loaded), and before init; any other
# silence (the patched kernels' tracer start-up tests run in this window,
# through the series' direct-call code) is a hang, as is a second stall.
# After the stall's own last line a good boot prints its next line within
# a second (0.1-0.3 s of guest time in every console kept), so that
# silence is cut short; any other silence gets the whole BOOT_STALL_S.
BOOT_STALL_S = int(os.environ.get("BOOT_STALL_S", "180"))
BOOT_STALL_SIGNATURE_S = int(os.environ.get("BOOT_STALL_SIGNATURE_S", "30"))
STALL_SIGNATURE = re.compile(r"smp: Bringing up secondary CPUs")
INIT_STARTED = re.compile(r"Run \S+ as init process")


def boot_once(cmd, stage, timeout, console_path):
    """Run QEMU once; return (lines, timed_out, stalled)."""
    lines = []
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    state = {"last": time.time(), "init": False, "stalled": False,
             "signature": False}

    def watch():
        while proc.poll() is None and not state["init"]:
            limit = BOOT_STALL_SIGNATURE_S if state["signature"] else \
                BOOT_STALL_S
            if time.time() - state["last"] > limit:
                state["stalled"] = True
                proc.kill()
                return
            time.sleep(1)
    threading.Thread(target=watch, daemon=True).start()
    live = True
    with open(console_path, "w") as con:
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            state["last"] = time.time()
            state["signature"] = bool(STALL_SIGNATURE.search(line))
            if not state["init"] and INIT_STARTED.search(line):
                state["init"] = True
            lines.append(line)
            con.write(line + "\n")
            con.flush()
            if line.startswith("SLEEPTEST-OUTPUT-BEGIN"):
                live = False
            if live and re.match(r"^(not ok|ok) \d+ |^bench: ", line):
                log(stage, re.sub(r"\[\s*\d+\.\d+\] .*$", "", line))
    proc.wait()
    timed_out = not timer.is_alive() and proc.returncode != 0
    timer.cancel()
    if proc.returncode and not timed_out and not state["stalled"]:
        log(stage, "qemu exited with status %d" % proc.returncode)
    return lines, timed_out or state["stalled"], state["stalled"]


def boot(a, stage, guest_args, timeout, icount=False, name="", extra=""):
    """Run one guest; return (console text, timed_out, console path,
    notes of the boots that stalled and were retried)."""
    os.makedirs(RESULTS, exist_ok=True)
    append = 'sleeptest.args="%s" %s' % (guest_args, extra)
    if not tracer_tests_wanted(a, name):
        append += " " + SKIP_TRACER_TESTS
    cmd = qemu_cmd(a, append.strip(), icount)
    console_path = os.path.join(RESULTS, "console-%s%s%s-%s%s.log" %
                                (suite_prefix(a), a.variant, name, a.arch,
                                 "-bench" if icount else ""))
    log(stage, "booting: " + " ".join(cmd[:3]) + " ... (limit %ds)" % timeout)
    lines, timed_out, stalled = boot_once(cmd, stage, timeout, console_path)
    stalls = []
    last = next((l for l in reversed(lines) if l.strip()), "")
    if stalled and last and not STALL_SIGNATURE.search(last):
        note = ("boot silent for %d s before init after '%s': not the "
                "known early-boot stall, so a hang (not retried)"
                % (BOOT_STALL_S, last.strip()[:100]))
        log(stage, note)
        stalls.append(note)
    elif stalled:
        kept = console_path[:-len(".log")] + "-stalled.log"
        os.replace(console_path, kept)
        note = ("boot stalled before init: no console output for %d s "
                "after '%s'; killed and booted again (console: %s)"
                % (BOOT_STALL_S, last.strip()[:100],
                   os.path.relpath(kept, ROOT)))
        log(stage, note)
        stalls.append(note)
        lines, timed_out, stalled = boot_once(cmd, stage, timeout,
                                              console_path)
        if stalled:
            log(stage, "boot stalled again before init: not retried")
    return "\n".join(lines), timed_out, console_path, stalls


def block(text, begin, end):
    m = re.search(r"^%s\n(.*?)^%s(.*)$" % (begin, end), text, re.S | re.M)
    if not m:
        return None, None
    return m.group(1), m.group(2)


def bad_log_lines(text):
    bad = []
    for line in text.splitlines():
        if BAD_LOG.search(line) and not LOG_ALLOW.search(line):
            bad.append(line.strip())
    return bad


# EXPECT of a known failure that crashes the kernel (see boot_results).
CRASH = "!crash"
# Known-failure entries under this name are kernel-log reports the kernel
# makes on its own (not the series, not a test): several may be listed.
KERNEL_LOG = "kernel_log_clean"
# The lines of a stack dump that follow a report's first line.
STACK_DUMP = re.compile(r"Call Trace:|Call trace:")


def split_log(text, known_log):
    """The kernel-log lines that fail a run, as (explained, rest):
    explained pairs a line with the known entry whose EXPECT it contains
    while the case the entry names runs (or, for a stack dump of the same
    report, up to its end-trace line and within 60 lines, that entry)."""
    explained, rest = [], []
    entry, until = None, -1
    case = "boot"
    for i, line in enumerate(text.splitlines()):
        m = CASE_MARK.search(line)
        if m:
            case = m.group(1)
            continue
        # The console holds the final dump too, which starts at the boot.
        if line.startswith("SLEEPTEST-DMESG-BEGIN"):
            case, until = "boot", -1
            continue
        if END_TRACE.search(line):
            until = -1
            continue
        if not BAD_LOG.search(line) or LOG_ALLOW.search(line):
            continue
        hit = next((k for k in known_log
                    if k[0] in line and k[3] == case), None)
        if hit:
            entry, until = hit, i + 60
            explained.append((line.strip(), hit))
        elif i <= until and STACK_DUMP.search(line):
            explained.append((line.strip(), entry))
        else:
            rest.append(line.strip())
    return explained, rest


def suite_prefix(a):
    return SUITES[a.suite][0]


def load_known(a):
    """Known failures: 'CASE VARIANTS EXPECT REASON...' per line."""
    path = os.path.join(ROOT, "selftests", "known-failures",
                        suite_prefix(a) + a.arch)
    known = {}
    if not os.path.exists(path):
        return known, path
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            parts = shlex.split(line)
        except ValueError as e:
            sys.exit("%s:%d: %s (quote EXPECT with double quotes, and "
                     "no other quote characters)" % (path, n, e))
        if len(parts) < 4:
            sys.exit("%s:%d: want 'CASE VARIANTS EXPECT REASON'" % (path, n))
        case, variants, expect = parts[:3]
        reason = " ".join(parts[3:])
        # Kernel-log entries name the case during which they may show:
        # kernel_log_clean@CASE, or @boot for before any test ran.
        scope = None
        if case.startswith(KERNEL_LOG):
            case, _, scope = case.partition("@")
            if case != KERNEL_LOG or not scope:
                sys.exit("%s:%d: want %s@CASE (or @boot): the case during "
                         "which the report may show" % (path, n, KERNEL_LOG))
        # "~" marks an intermittent failure: passing does not retire it.
        flaky = variants.startswith("~")
        variants = variants.lstrip("~")
        if variants == "all" or a.variant in variants.split(","):
            if case == KERNEL_LOG:
                known.setdefault(KERNEL_LOG, []).append(
                    (expect, reason, flaky, scope))
            else:
                known[case] = (expect, reason, flaky)
    return known, path


def parse_ktap(out):
    """Raw results: list of (name, ok, diag lines)."""
    res = []
    diag = []
    for line in out.splitlines():
        # On the live console a kernel line ("[  12.3] ...", the case
        # marks) can run on from a result line: names have no "[".
        m = re.match(r"^(not ok|ok) \d+ ([^\s\[]+)", line)
        if m:
            res.append((m.group(2), m.group(1) == "ok", diag))
            diag = []
        elif line.startswith("#"):
            diag.append(line)
    return res


def live_output(text):
    """The suite's lines as the guest printed them while it ran: KTAP
    results and diagnostics, interleaved with kernel messages."""
    start = re.search(r"^sleeptest: running .*$", text, re.M)
    return text[start.end():] if start else ""


def expected_cases(a):
    """Case names, from the test binary's own list (cases.txt, written by
    build-guest.sh: natively for x86_64, under qemu-user for the others), so
    a case the guest never reached is reported as not run."""
    listing = os.path.join(os.path.dirname(a.initrd), "cases.txt")
    if os.path.exists(listing):
        return [c for c in open(listing).read().split() if c]
    return []


def version_info(a):
    sv = os.path.join(BUILD, a.variant, "obj-" + a.arch,
                      "source-version.txt")
    src = open(sv).read().strip() if os.path.exists(sv) else "unknown"
    q = subprocess.run([QEMU[a.arch][0][0], "--version"], capture_output=True,
                       text=True).stdout.splitlines()
    return src, q[0] if q else "qemu ?"


def link_text_address(a):
    """_text in the kernel's System.map: where it runs without KASLR."""
    sysmap = os.path.join(BUILD, a.variant, "obj-" + a.arch, "System.map")
    if not os.path.exists(sysmap):
        return None
    for line in open(sysmap):
        f = line.split()
        if len(f) == 3 and f[2] == "_text":
            return int(f[0], 16)
    return None


def kaslr_check(a, text, want):
    """Did the boot run where it should: moved (kaslr) or at the link
    address (nokaslr)?  guest-init.sh prints _text from /proc/kallsyms."""
    m = re.search(r"^sleeptest: _text ([0-9a-f]+)", text, re.M)
    link = link_text_address(a)
    if not m or link is None:
        return ("kaslr_" + want, "fail", None,
                ["# _text not found (guest: %s, System.map: %s)"
                 % ("found" if m else "missing",
                    "found" if link is not None else "missing")])
    run = int(m.group(1), 16)
    moved = run != link
    ok = moved if want == "kaslr" else not moved
    return ("kaslr_" + want, "pass" if ok else "fail", None,
            ["# _text at %x, linked at %x: %s" % (
                run, link, "moved by KASLR" if moved else "not moved")])


def bti_check(a, text):
    """make bti: the kernel built with ARM64_BTI_KERNEL must have found
    BTI on the CPU, or its text and the BPF images (set_memory_x() adds
    the guarded-page bit) ran unguarded and a missing landing pad in a
    trampoline would have gone unnoticed."""
    cfg = os.path.join(os.path.dirname(a.kernel), "..", "..", "..",
                       ".config")
    built = os.path.exists(cfg) and \
        "CONFIG_ARM64_BTI_KERNEL=y\n" in open(cfg).read()
    found = "CPU features: detected: Branch Target Identification" in text
    return ("bti_in_effect", "pass" if built and found else "fail", None,
            ["# CONFIG_ARM64_BTI_KERNEL=y in %s: %s" % (
                os.path.relpath(os.path.normpath(cfg), ROOT),
                "yes" if built else "no"),
             "# console: BTI %s" % ("detected" if found else
                                    "not detected")])


# Cases the arm64 nokaslr boot leaves to the KASLR boot of the same
# kernel: what they test does not go through a kernel function's call
# site, whose path (direct BL or veneer) is all the second layout changes:
# verifier and load-time refusals, libbpf-glue's userspace, BPF programs
# as targets, struct_ops and kfuncs, fault injection on the attach path's
# allocations, the 38-program limit.  They are reported as SKIP; a filter
# that names one runs it on both boots.
LAYOUT_FREE_CASES = (
    "reject_lsm_s_task_free", "reject_fentry_s_not_injectable",
    "reject_sleepable_socket_filter", "reject_copy_from_user_nonsleepable",
    "reject_sleepable_lpm_trie", "reject_sleepable_on_denylisted",
    "reject_sleepable_exit_modret_not_injectable",
    "reject_fentry_s_on_bpf_prog", "reject_sleepable_other_types",
    "reject_spin_lock_sleepable", "reject_sleeping_helpers_nonsleepable",
    "reject_sleepable_kprobe_attach", "reject_link_update_tracing",
    "reject_fentry_and_freplace", "reject_fmod_ret_on_bpf_prog",
    "sleepable_map_types", "sleepable_tp_btf", "sleepable_allowed_maps_load",
    "section_names_sleepable", "glue_syscall_names",
    "glue_probe_matches_attach", "glue_probe_leaves_nothing",
    "glue_fallback_kprobe", "glue_probe_targets", "glue_probe_command",
    "trampoline_on_bpf_prog", "subprog_returns_traced",
    "tail_call_limit_traced", "freplace_far_target", "bpf_entry_attach_race",
    "kfunc_calls",
    "struct_ops_dummy", "struct_ops_tcp_ca", "limit_38_programs",
    "alloc_failure_attach_detach",
)
LAYOUT_FREE_REASON = ("runs on the KASLR boot of this kernel; what it tests "
                      "does not depend on the call sites' layout")
EXCLUDED_REASON = "left out on the command line (X=)"


def layout_free_skips(a, name):
    """The cases this boot leaves out (LAYOUT_FREE_CASES): the arm64
    nokaslr boot's, unless a filter asks for cases by name."""
    if a.arch != "arm64" or name != "-nokaslr" or a.filter:
        return []
    return list(LAYOUT_FREE_CASES)


def selects(filt, name):
    """Whether the filter (T=: substrings, comma-separated, any of them)
    selects case name; an empty filter selects every case."""
    return not filt or any(f and f in name for f in filt.split(","))


def excluded_cases(a):
    """The cases the command line leaves out (make vmtest X=a,b): for
    the rest of a suite after a long case ran on its own."""
    return [c for c in getattr(a, "exclude", "").split(",") if c]


def boot_results(a, stage, name, extra):
    """One boot of the suite: raw results with known failures applied,
    plus the harness's own checks of the run."""
    known, known_path = load_known(a)
    # A known failure whose EXPECT is "!crash" takes the kernel down: the
    # guest leaves it out unless the filter asks for it by name.
    crash = [c for c, k in known.items() if k[0] == CRASH and
             not (a.filter and selects(a.filter, c))]
    skips = layout_free_skips(a, name) + excluded_cases(a)
    guest_args = "-t %s" % a.filter if a.filter else ""
    if crash or skips:
        guest_args += " -x %s" % ",".join(crash + skips)
    if a.churn_rounds:
        extra += " sleeptest.churn_rounds=%d" % a.churn_rounds
    if a.stress_rounds:
        extra += " sleeptest.stress_rounds=%d" % a.stress_rounds
    text, timed_out, console_path, stalls = boot(a, stage, guest_args,
                                                 a.timeout, name=name,
                                                 extra=extra)
    results = judge_console(a, text, timed_out, known, known_path, crash,
                            expected_cases(a), skips)
    uname = re.search(r"sleeptest: running \S+ .*? on (\S+) (\S+)", text)
    out, _ = block(text, "SLEEPTEST-OUTPUT-BEGIN", "SLEEPTEST-OUTPUT-END")
    paths = CALL_PATH.findall(out or "")
    return results, {"console": console_path, "text": text,
                     "kernel": uname.group(1) if uname else "?",
                     "paths": paths, "stalls": stalls,
                     "reach": CALL_REACH.findall(out or "")}


# A failed check of our suite (the CHECK macro in selftests/sleeptest.h).
CHECK_FAILED = re.compile(r"^# \S+:\d+: check '.*' failed")


def failed_otherwise(a, diag, expect):
    """The failed checks of a listed case of our suite that do not show
    its listed error: a known failure must not hide another one."""
    if getattr(a, "suite", "sleeptest") != "sleeptest":
        return []
    return [d for d in diag if CHECK_FAILED.search(d) and expect not in d]


def judge_console(a, text, timed_out, known, known_path, crash, cases,
                  skips=()):
    """The results of one boot from its console: the suite's cases with
    known failures applied, then the harness's checks of the run.  Kept
    apart from boot() so scripts/harness-selftest.py can feed it."""
    out, rest = block(text, "SLEEPTEST-OUTPUT-BEGIN", "SLEEPTEST-OUTPUT-END")
    dmesg, _ = block(text, "SLEEPTEST-DMESG-BEGIN", "SLEEPTEST-DMESG-END")
    rc = None
    if rest:
        m = re.match(r"\s*rc=(\d+)", rest)
        rc = int(m.group(1)) if m else None
    # Without the final output block (the guest hung or died), the results
    # the guest printed live on the console still count.
    raw = parse_ktap(out if out is not None else live_output(text))
    names = [r[0] for r in raw]
    want = [c for c in cases
            if selects(a.filter, c) and c not in crash and
            c not in skips]
    hung = None
    for c in want:
        if c in names:
            continue
        if hung is None and out is None:
            hung = c
            raw.append((c, False, [
                "# started but gave no result: the guest %s during this "
                "case" % ("hit the %d s limit" % a.timeout if timed_out
                          else "stopped")]))
        else:
            raw.append((c, False, ["# did not run (guest output ended%s)"
                                   % (" in %s" % hung if hung else "")]))
    results = []   # (name, status, directive, diag) status: pass/fail/xfail
    for name_, ok, diag in raw:
        if name_ in known and name_ != KERNEL_LOG:
            expect, reason, flaky = known[name_]
            if ok and flaky:
                results.append((name_, "pass", None, diag + [
                    "# intermittent known failure (%s) did not show this "
                    "time" % reason]))
            elif ok:
                results.append((name_, "fail", "XPASS known failure passed: "
                                "remove it from %s" % os.path.relpath(
                                    known_path, ROOT), diag))
            elif any(expect in d for d in diag) and \
                    not failed_otherwise(a, diag, expect):
                results.append((name_, "xfail", "XFAIL " + reason, diag))
            elif any(expect in d for d in diag):
                results.append((name_, "fail", None, diag + [
                    "# listed as a known failure with '%s', but also "
                    "failed otherwise:" % expect] + [
                        "#   " + d for d in
                        failed_otherwise(a, diag, expect)[:5]]))
            else:
                results.append((name_, "fail", None, diag + [
                    "# listed as a known failure with '%s', but failed "
                    "otherwise" % expect]))
        else:
            results.append((name_, "pass" if ok else "fail", None, diag))
    for c in crash:
        if selects(a.filter, c):
            results.append((c, "xfail", "XFAIL " + known[c][1], [
                "# not run: listed as crashing this kernel (run it alone "
                "with T=%s)" % c]))
    for c in skips:
        if c in cases and c not in names:
            results.append((c, "skip", "SKIP " + (
                EXCLUDED_REASON if c in excluded_cases(a)
                else LAYOUT_FREE_REASON), []))
    # A filter that selects nothing would pass having tested nothing.
    if a.filter and cases and not any(selects(a.filter, c) for c in cases):
        results.append(("filter_selects_cases", "fail", None, [
            "# the filter '%s' selects none of the guest's %d cases "
            "(a guest built before the case existed?)"
            % (a.filter, len(cases))]))
    unknown = [c for c in excluded_cases(a) if cases and c not in cases]
    if unknown:
        results.append(("exclude_names_cases", "fail", None, [
            "# X= names no case of the guest: %s" % ", ".join(unknown)]))
    # The run itself: the guest finished, and its kernel log is clean.
    tail = text.splitlines()[-40:]
    if timed_out or out is None:
        why = "timed out after %ds" % a.timeout if timed_out else \
            "guest stopped before printing its results"
        if hung:
            why += ", in case %s" % hung
        results.append(("guest_completed", "fail", None,
                        ["# " + why + "; console tail:"] +
                        ["#   " + t for t in tail]))
    else:
        results.append(("guest_completed", "pass", None, []))
    cpus = re.search(r"sleeptest: running .* cpus=(\d+)", text)
    if out is not None:
        n = int(cpus.group(1)) if cpus else 0
        results.append(("guest_smp", "pass" if n == 2 else "fail", None,
                        [] if n == 2 else ["# the guest runs on %d CPU(s), "
                                           "want 2" % n]))
    # A distro kernel's modules (guest-init.sh loads them before the
    # suite), so that tools can trace module functions.
    mods = re.findall(r"^sleeptest: module (\S+) (loaded|failed to load)$",
                      text, re.M)
    if mods:
        bad = ["# module %s failed to load" % m for m, st in mods
               if st != "loaded"]
        results.append(("boot_modules", "fail" if bad else "pass", None,
                        bad))
    # Every test kernel has lockdep (Kconfig.sleep): a run whose lockdep
    # turned itself off would pass a lock-order bug unseen.  The bench
    # kernels (make bench, make glue-upstream) and the distro ones (make
    # distro-boot, Debian's configuration) are production configurations,
    # without it.
    locks = re.search(r"^sleeptest: debug_locks ?(\S*)", text, re.M)
    if out is not None and \
            not getattr(a, "variant", "").startswith(("bench-", "distro-")):
        state = locks.group(1) if locks else None
        results.append(("lockdep_on", "pass" if state == "1" else "fail",
                        None, [] if state == "1" else [
                            "# lockdep at the end of the run: %s" % (
                                "not reported" if state is None else
                                "no /proc/lockdep_stats" if not state else
                                "debug_locks %s, off" % state)]))
    # The kernel log as dumped at the end, and as the console showed it
    # live (all of it when the guest died before the dump); each from its
    # own start, for the case marks.
    explained, bad = [], []
    for log_text in (dmesg or "", text):
        e, b = split_log(log_text, known.get(KERNEL_LOG, []))
        explained += e
        bad += b
    if bad:
        results.append((KERNEL_LOG, "fail", None,
                        ["# " + b for b in dict.fromkeys(bad)][:30]))
    elif explained:
        reasons = list(dict.fromkeys(e[1][1] for e in explained))
        results.append((KERNEL_LOG, "xfail", "XFAIL " + "; ".join(reasons),
                        ["# " + e[0] for e in dict.fromkeys(explained)][:30]))
    else:
        results.append((KERNEL_LOG, "pass", None, []))
    if out is not None and rc not in (0, 1):
        results.append(("sleeptest_exit", "fail", None,
                        ["# /sleeptest exited with %s" % rc] +
                        ["# " + l for l in killed_by_signal(text, rc)]))
    return results


# The kernel's report of a user task killed by a signal it did not handle
# (x86 "segfault at", arm64 "unhandled exception", riscv "unhandled
# signal"), followed by the task's registers.
USER_FAULT = re.compile(r"\[\d+\]: (segfault at|unhandled (signal|exception))")


def killed_by_signal(text, rc):
    """For an exit status of 128 + signal: the case that was running (the
    last case mark) and the kernel's report of the fault with the user
    registers, so that a crash in CI can be read from its output."""
    if rc is None or rc <= 128:
        return []
    marks = CASE_MARK.findall(text)
    lines = ["killed by signal %d while case %s ran" %
             (rc - 128, marks[-1] if marks else "?")]
    console = text.splitlines()
    for i, line in enumerate(console):
        if USER_FAULT.search(line):
            lines += [l.rstrip() for l in console[i:i + 24]]
            break
    return lines


def project_commit():
    """This repository's commit, "-dirty" with uncommitted changes."""
    p = subprocess.run(["git", "describe", "--always", "--dirty",
                        "--abbrev=12"], cwd=ROOT, capture_output=True,
                       text=True)
    return p.stdout.strip() or "unknown"


def write_ktap(a, name, results, meta):
    src, qv = version_info(a)
    path = os.path.join(RESULTS, "%s%s%s-%s.ktap" % (suite_prefix(a),
                                                     a.variant, name, a.arch))
    with open(path, "w") as f:
        f.write("KTAP version 1\n")
        f.write("# %s, variant %s%s, arch %s\n"
                % (SUITES[a.suite][1], a.variant, name, a.arch))
        f.write("# source: %s\n" % src)
        f.write("# kernel: %s\n" % meta["kernel"])
        f.write("# qemu: %s\n" % qv)
        f.write("# date: %s\n" % datetime.datetime.utcnow().isoformat())
        f.write("# commit: %s\n" % project_commit())
        f.write("# console: %s\n" % os.path.relpath(meta["console"], ROOT))
        for note in meta["stalls"]:
            f.write("# %s\n" % note)
        f.write("1..%d\n" % len(results))
        for i, (case, status, directive, diag) in enumerate(results, 1):
            for d in diag:
                f.write(d + "\n")
            # as kselftest writes them: an expected failure is "ok # XFAIL"
            line = "%s %d %s" % ("ok" if status in ("pass", "xfail", "skip")
                                 else "not ok", i, case)
            if directive:
                line += " # " + directive
            f.write(line + "\n")
        f.write(ktap_totals(results) + "\n")
    return path


def ktap_totals(results):
    """kselftest's closing line; results are (name, status, directive,
    ...) with status pass, fail or xfail (an XPASS is a fail)."""
    n = {k: 0 for k in ("pass", "fail", "xfail", "xpass", "skip")}
    for r in results:
        n["xpass" if (r[2] or "").startswith("XPASS") else r[1]] += 1
    return ("# Totals: pass:%d fail:%d xfail:%d xpass:%d skip:%d error:0"
            % (n["pass"], n["fail"], n["xfail"], n["xpass"], n["skip"]))


def call_paths_check(arch, per_boot):
    """arm64: the KASLR boot must reach a trampoline through a veneer
    (kernel functions) and through ftrace_regs_caller (a module's), the
    nokaslr boot by a direct BL; x86_64 and riscv64 (one boot) by a
    direct call (stock riscv64 attaches nothing and is not checked).
    Every call site the suite read must have led to its trampoline, or a
    path went untested or wrong."""
    diag = []
    seen = {}
    reach = {}
    for name, want, paths, reaches in per_boot:
        kinds = [p for _, p in paths]
        seen[want] = kinds
        reach[want] = [r for _, r in reaches]
        diag.append("# %s boot: %s" % (want or "the", ", ".join(
            "%d %s" % (kinds.count(k), k) for k in sorted(set(kinds)))
            or "no call-path reports"))
    if arch == "arm64":
        # Only a call site beyond the veneers' reach (a module KASLR put
        # more than 128 MiB away from them, on most boots) can take the
        # out-of-range path; without reach reports it is required.
        oor_possible = not reach.get("kaslr") or "out" in reach["kaslr"]
        if not oor_possible:
            diag.append("# no call site of the KASLR boot was beyond BL "
                        "reach of the veneers (KASLR put the module near "
                        "them): the out-of-range path could not be taken "
                        "on this boot")
        ok = "veneer" in seen.get("kaslr", []) and \
            ("out-of-range" in seen.get("kaslr", []) or
             not oor_possible) and \
            "direct" in seen.get("nokaslr", [])
        want = ("a veneer and an out-of-range call path with KASLR "
                "(out-of-range when a call site is beyond the veneers' "
                "reach) and a direct one with nokaslr")
    else:
        ok = all("direct" in kinds for kinds in seen.values())
        want = "a direct call path"
    if not ok:
        diag.append("# want " + want)
    if any("unknown" in kinds for kinds in seen.values()):
        ok = False
        diag.append("# a call site did not lead to its trampoline, or "
                    "could not be read: see the call-path-why lines")
    return ("call_paths_exercised", "pass" if ok else "fail", None, diag)


def cmd_test(a):
    nfail_all = 0
    per_boot = []
    todo = boots(a)
    for k, (name, extra, kaslr) in enumerate(todo):
        stage = "vm %s%s%s-%s" % ("" if a.suite == "sleeptest"
                                  else a.suite + " ", a.variant, name, a.arch)
        results, meta = boot_results(a, stage, name, extra)
        if kaslr:
            results.append(kaslr_check(a, meta["text"], kaslr))
        if a.variant == "bti":
            results.append(bti_check(a, meta["text"]))
        per_boot.append((name, kaslr, meta["paths"],
                         meta.get("reach", [])))
        if k == len(todo) - 1 and a.suite == "sleeptest" and \
                not a.filter and (len(per_boot) > 1 or a.arch == "x86_64"
                                  or (a.arch == "riscv64" and
                                      a.variant != "stock")):
            results.append(call_paths_check(a.arch, per_boot))
        path = write_ktap(a, name, results, meta)
        npass = sum(r[1] == "pass" for r in results)
        nfail = sum(r[1] == "fail" for r in results)
        nx = sum(r[1] in ("xfail", "skip") for r in results)
        for case, status, directive, diag in results:
            if status == "fail":
                log(stage, "FAIL %s%s" % (case, " (%s)" % directive
                                          if directive else ""))
                for d in diag[-45:]:
                    print("    " + d)
            elif status == "xfail":
                log(stage, "XFAIL %s: %s" % (case, directive[6:]))
        log(stage, "%d passed, %d failed, %d skipped -> %s"
            % (npass, nfail, nx, os.path.relpath(path, ROOT)))
        nfail_all += nfail
    return 1 if nfail_all else 0


BENCH_MODES = ("base", "fentry", "fentry.s", "fexit", "fexit.s", "fmod_ret",
               "fmod_ret.s", "kprobe")
BENCH_ATTACH = ("fentry", "fentry.s", "38xfentry", "mass")
BENCH_TRIG = ("trig-base", "trig-fentry", "trig-fentry-sleep", "trig-fmodret",
              "trig-kprobe")


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def parse_bench(out):
    """The guest's bench lines (selftests/bench.c) as per-call and attach
    figures: for each mode its runs' guest ns per call; for each attach
    kind its runs' attach and detach guest ns (per program)."""
    per_call, attach, errors = {}, {}, {}
    for m in re.finditer(r"^bench: (mode|attach|trig)=(\S+) (.*)$", out,
                         re.M):
        kind, name, rest = m.groups()
        err = re.match(r"error=(.*)$", rest)
        if err:
            errors[name] = err.group(1)
            continue
        kv = dict(x.split("=", 1) for x in rest.split() if "=" in x)
        if kind == "trig":
            # The kernel runner's calls per guest second, as ns per call.
            r = per_call.setdefault(name, {"ns": [], "short": 0})
            r["ns"].append(1000.0 / float(kv["mhits"]))
        elif kind == "mode":
            r = per_call.setdefault(name, {"ns": [], "short": 0})
            r["ns"].append(float(kv["ns"]) / float(kv["iters"]))
            if name != "base" and int(kv["hits"]) != int(kv["iters"]):
                r["short"] += 1
        else:
            n = float(kv["progs"])
            r = attach.setdefault(name, {"attach": [], "detach": [],
                                         "progs": int(n)})
            r["attach"].append(float(kv["attach_ns"]))
            r["detach"].append(float(kv["detach_ns"]))
    return per_call, attach, errors


def bench_summary(per_call, attach, errors):
    """Medians, spreads and overheads of one boot, as saved in JSON."""
    res = {"per_call": {}, "attach": {}, "errors": errors}
    base = per_call.get("base")
    base_ns = median(base["ns"]) if base else None
    trig_base = per_call.get("trig-base")
    trig_base_ns = median(trig_base["ns"]) if trig_base else None
    for m, r in per_call.items():
        med = median(r["ns"])
        if m.startswith("trig-"):
            res["per_call"][m] = {
                "ns": med, "min": min(r["ns"]), "max": max(r["ns"]),
                "runs": len(r["ns"]), "short_runs": 0,
                "overhead": med - trig_base_ns if trig_base_ns and
                m != "trig-base" else None}
            continue
        res["per_call"][m] = {
            "ns": med, "min": min(r["ns"]), "max": max(r["ns"]),
            "runs": len(r["ns"]), "short_runs": r["short"],
            "overhead": med - base_ns if base_ns is not None and
            m != "base" else None}
    for k, r in attach.items():
        res["attach"][k] = {
            "progs": r["progs"], "runs": len(r["attach"]),
            "attach_ms": median(r["attach"]) / 1e6,
            "detach_ms": median(r["detach"]) / 1e6,
            "attach_ms_max": max(r["attach"]) / 1e6,
            "detach_ms_max": max(r["detach"]) / 1e6}
    return res


# The call path each patched bench boot must show ("# call-path:"): the
# one its figures are quoted for.
BENCH_CALL_PATH = {
    ("bench-patched", "x86_64", ""): "direct",
    ("bench-patched", "arm64", ""): "veneer",
    ("bench-patched", "arm64", "-nokaslr"): "direct",
    ("bench-patched", "riscv64", ""): "direct",
}
VULNERABILITY = re.compile(r"^bench: vulnerability=(\S+) (.*)$", re.M)
# Host packages whose versions a bench figure depends on.
BENCH_PACKAGES = ("qemu-system-x86", "qemu-system-arm", "qemu-system-misc",
                  "linux-source-6.1", "linux-source-6.12", "gcc",
                  "gcc-aarch64-linux-gnu", "gcc-riscv64-linux-gnu")


def host_packages():
    p = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\n"]
                       + list(BENCH_PACKAGES), capture_output=True,
                       text=True)
    return dict(l.split(" ", 1) for l in p.stdout.splitlines()
                if " " in l and l.split(" ", 1)[1])


def cmd_bench(a):
    """One bench kernel: each of its boots runs selftests/bench.c under
    -icount; results in build/results/bench-VARIANT[-BOOT]-ARCH.{txt,json}.
    Fails on a kernel log that is not clean, a KASLR layout other than the
    boot asked for, or a program that did not run on every call."""
    rc = 0
    for name, extra, kaslr in boots(a):
        stage = "bench %s%s-%s" % (a.variant, name, a.arch)
        text, timed_out, console_path, _ = boot(
            a, stage, "--bench %d %d" % (a.iters, a.runs), a.timeout,
            icount=True, name=name, extra=extra)
        out, _ = block(text, "SLEEPTEST-OUTPUT-BEGIN", "SLEEPTEST-OUTPUT-END")
        if timed_out or out is None:
            print("\n".join(text.splitlines()[-40:]))
            log(stage, "bench guest did not finish (console: %s)"
                % console_path)
            rc = 1
            continue
        per_call, attach, errors = parse_bench(out)
        res = bench_summary(per_call, attach, errors)
        res["call_paths"] = sorted(set(p for _, p in CALL_PATH.findall(out)))
        src, qv = version_info(a)
        res.update({"accel": BENCH_ACCEL, "variant": a.variant, "boot": name.lstrip("-") or
                    ("kaslr" if kaslr else "default"), "arch": a.arch,
                    "source": src, "qemu": qv, "iters": a.iters,
                    "commit": project_commit(), "packages": host_packages(),
                    "cpu_vulnerabilities": dict(VULNERABILITY.findall(out))})
        problems = []
        want = BENCH_CALL_PATH.get((a.variant, a.arch, name))
        if want and res["call_paths"] != [want]:
            problems.append("call path %s, not %s" % (
                ", ".join(res["call_paths"]) or "not reported", want))
        if kaslr:
            check = kaslr_check(a, text, kaslr)
            res["kaslr"] = check[3][0][2:]
            if check[1] != "pass":
                problems.append("KASLR: " + res["kaslr"])
        problems += ["kernel log: " + l for l in bad_log_lines(text)[:3]]
        problems += ["%s: the program missed calls in %d of %d runs"
                     % (m, r["short_runs"], r["runs"])
                     for m, r in res["per_call"].items() if r["short_runs"]]
        res["problems"] = problems
        lines = ["# bench: %s%s %s, %s, %s" % (a.variant, name, a.arch,
                                                src, qv),
                 ("# QEMU under KVM (guest ns are the host CPU's ns)"
                  if BENCH_ACCEL == "kvm" else
                  "# QEMU -icount shift=0,sleep=off (1 guest ns = 1 "
                  "instruction)") + "; median of %d runs of %d calls"
                 % (a.runs, a.iters),
                 "# call path: %s" % (", ".join(res["call_paths"]) or "-"),
                 "# project commit %s; %s" % (res["commit"], ", ".join(
                     "%s %s" % kv for kv in sorted(res["packages"].items()))),
                 "# CPU vulnerabilities: %s" % (", ".join(
                     "%s: %s" % kv for kv in sorted(
                         res["cpu_vulnerabilities"].items())) or "-")]
        if "kaslr" in res:
            lines.append("# " + res["kaslr"])
        lines.append("%-11s %12s %14s %16s" % ("program", "ns/call",
                                               "overhead ns", "spread (min-max)"))
        for m in BENCH_MODES:
            r = res["per_call"].get(m)
            if not r:
                lines.append("%-11s %12s  %s" % (m, "-", errors.get(
                    m, "no result")))
                continue
            lines.append("%-11s %12.1f %14s %16s" % (
                m, r["ns"], "%.1f" % r["overhead"] if r["overhead"]
                is not None else "-", "%.1f-%.1f" % (r["min"], r["max"])))
        for m in BENCH_TRIG:
            r = res["per_call"].get(m)
            if r:
                lines.append("%-17s %6.1f %14s %16s" % (
                    m, r["ns"], "%.1f" % r["overhead"] if r["overhead"]
                    is not None else "-", "%.1f-%.1f" % (r["min"],
                                                         r["max"])))
            elif m in errors:
                lines.append("%-17s  %s" % (m, errors[m]))
        for k in BENCH_ATTACH:
            r = res["attach"].get(k)
            lines.append("attach %-10s %s" % (k, "%.3f ms, detach %.3f ms "
                         "(%d programs, median of %d)" % (
                             r["attach_ms"], r["detach_ms"], r["progs"],
                             r["runs"]) if r else errors.get(k, "no result")))
        lines += ["# PROBLEM: " + p for p in problems]
        os.makedirs(RESULTS, exist_ok=True)
        path = os.path.join(RESULTS, "bench-%s%s-%s" % (a.variant, name,
                                                        a.arch))
        with open(path + ".json", "w") as f:
            json.dump(res, f, indent=1)
        with open(path + ".txt", "w") as f:
            f.write("\n".join(lines) + "\n")
        print("\n".join(lines))
        log(stage, "saved " + os.path.relpath(path, ROOT) + ".txt")
        rc |= 1 if problems else 0
    return rc


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cmd", choices=["test", "bench"])
    p.add_argument("--arch", required=True, choices=sorted(QEMU))
    p.add_argument("--variant", required=True)
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", required=True)
    p.add_argument("--filter", default="")
    p.add_argument("--suite", default="sleeptest", choices=sorted(SUITES))
    p.add_argument("--iters", type=int, default=20000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--churn-rounds", type=int, default=0)
    p.add_argument("--stress-rounds", type=int, default=0)
    p.add_argument("--exclude", default="",
                   help="cases to leave out, by name, comma-separated")
    a = p.parse_args()
    sys.exit(cmd_test(a) if a.cmd == "test" else cmd_bench(a))


if __name__ == "__main__":
    main()
