#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of the harness's own judgement (scripts/vm.py judge_console) on
made-up consoles: a hung case is named and the cases before it keep their
results; kernel reports of each kind fail the run.  Then the checks of
the kernel cache (scripts/kcache-selftest.sh), of the patched kernel's
seed (scripts/kseed-selftest.sh), of distro-check's kept
results (scripts/distro-check-selftest.sh) and of the quilt export's check
(scripts/quilt.py).  Prints KTAP to
build/results/harness-selftest.ktap and exits 1 if a check fails."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import vm  # scripts/vm.py, next to this
from vm import RESULTS, judge_console

CASES = ["first", "second", "third"]
HEAD = "sleeptest: running /sleeptest  on 6.1.192 aarch64 cpus=2\n"


def args(timeout=900):
    return argparse.Namespace(filter="", timeout=timeout)


def finished(results_text, dmesg="", debug_locks="1"):
    return (HEAD + results_text + "sleeptest: debug_locks %s\n" % debug_locks +
            "SLEEPTEST-OUTPUT-BEGIN\n" + results_text +
            "SLEEPTEST-OUTPUT-END rc=0\nSLEEPTEST-DMESG-BEGIN\n" + dmesg +
            "SLEEPTEST-DMESG-END\n")


ALL_OK = "KTAP version 1\n1..3\nok 1 first\nok 2 second\nok 3 third\n"


def judge(text, timed_out=False, known=None):
    res = judge_console(args(), text, timed_out, known or {}, "known",
                        [], CASES)
    return {r[0]: r for r in res}


def status(res, case):
    return res[case][1] if case in res else "missing"


def check_clean_run():
    res = judge(finished(ALL_OK))
    ok = all(status(res, c) == "pass" for c in CASES + [
        "guest_completed", "guest_smp", "lockdep_on", "kernel_log_clean"])
    return ok, "a clean run passes every case and check"


def check_lockdep_off():
    """A run whose lockdep turned itself off, or that has none, fails; a
    bench kernel's run (production configuration) is not asked."""
    got = [status(judge(finished(ALL_OK, debug_locks=d)), "lockdep_on")
           for d in ("0", "")]
    a = args()
    a.variant = "bench-upstream"
    bench = {r[0]: r for r in judge_console(
        a, finished(ALL_OK, debug_locks=""), False, {}, "known", [], CASES)}
    got.append(status(bench, "lockdep_on"))
    return got == ["fail", "fail", "missing"], (
        "a run whose lockdep is off at the end (debug_locks 0) or missing "
        "fails lockdep_on; a bench kernel's run has no such check (%s)"
        % got)


def check_killed_by_signal():
    """A suite killed by a signal names the case that ran and carries the
    kernel's report of the fault with the user registers."""
    text = finished("KTAP version 1\n1..3\nok 1 first\n",
                    dmesg="[ 1.0] sleeptest-case: second\n"
                    "[ 2.0] sleeptest[90]: unhandled signal 11 code 0x1 at "
                    "0x0 in sleeptest[10000+20000]\n[ 2.0] epc : 0000000000"
                    "010abc ra : 0000000000010a00\n").replace(
                        "rc=0", "rc=139")
    diag = judge(text).get("sleeptest_exit", (0, "missing", 0, []))[3]
    want = ["# /sleeptest exited with 139",
            "# killed by signal 11 while case second ran"]
    ok = diag[:2] == want and any("unhandled signal 11" in d
                                  for d in diag) and \
        any("epc :" in d for d in diag)
    return ok, ("a suite killed by SIGSEGV fails sleeptest_exit naming the "
                "running case and the kernel's fault report (%s)" % diag[:3])


def check_boot_modules():
    """A distro kernel's module that does not load fails boot_modules;
    a run that loads none (the test kernels) has no such result."""
    ok_text = finished(ALL_OK).replace(
        "sleeptest: debug_locks", "sleeptest: module ext4 loaded\n"
        "sleeptest: debug_locks")
    bad_text = ok_text.replace(
        "sleeptest: module ext4 loaded\n", "sleeptest: module ext4 loaded\n"
        "sleeptest: module virtio_blk failed to load\n")
    got = [status(judge(t), "boot_modules")
           for t in (ok_text, bad_text, finished(ALL_OK))]
    return got == ["pass", "fail", "missing"], (
        "boot_modules passes when every listed module loaded, fails when "
        "one did not, and is absent without modules (%s)" % got)


def check_layout_free_skips():
    """The arm64 nokaslr boot leaves LAYOUT_FREE_CASES to the KASLR boot:
    they are passed to the guest's -x and reported as SKIP (not a pass,
    not a case that did not run); other boots and filtered runs skip
    nothing; the KTAP line of a SKIP is "ok ... # SKIP"."""
    a = argparse.Namespace(arch="arm64", filter="", timeout=900)
    nokaslr = vm.layout_free_skips(a, "-nokaslr")
    kaslr = vm.layout_free_skips(a, "")
    a.filter = "limit_38"
    filtered = vm.layout_free_skips(a, "-nokaslr")
    a.filter = ""
    x86 = vm.layout_free_skips(argparse.Namespace(
        arch="x86_64", filter=""), "-nokaslr")
    # "second" stands for a layout-free case: the guest did not run it.
    text = finished("KTAP version 1\n1..2\nok 1 first\nok 2 third\n")
    res = {r[0]: r for r in judge_console(a, text, False, {}, "known", [],
                                          CASES, ["second"])}
    tmp = tempfile.mkdtemp()
    try:
        saved = vm.RESULTS
        vm.RESULTS = tmp
        b = argparse.Namespace(arch="arm64", variant="patched", filter="",
                               suite="sleeptest", kernel="k", initrd="i")
        path = vm.write_ktap(b, "-nokaslr", list(res.values()), {
            "console": os.path.join(tmp, "c"), "kernel": "6.1", "stalls": []})
        ktap = open(path).read()
    except (AttributeError, TypeError) as e:
        ktap = "write_ktap: %s" % e
    finally:
        vm.RESULTS = saved
        subprocess.run(["rm", "-rf", tmp])
    ok = ("limit_38_programs" in nokaslr and "reject_lsm_s_task_free" in
          nokaslr and "attach_detach_stress" not in nokaslr and
          not kaslr and not filtered and not x86 and
          status(res, "second") == "skip" and
          status(res, "first") == "pass" and
          status(res, "guest_completed") == "pass" and
          re.search(r"^ok \d+ second # SKIP ", ktap, re.M) is not None)
    return ok, ("the arm64 nokaslr boot leaves its %d layout-free cases to "
                "the KASLR boot, reported as SKIP (ok # SKIP); no other boot "
                "or filtered run skips any" % len(nokaslr))


def check_filter_selects_nothing():
    empty = finished("KTAP version 1\n1..0\n")
    a = args()
    a.filter = "no_such_case"
    none = {r[0]: r for r in judge_console(a, empty, False, {}, "known",
                                           [], CASES)}
    a.filter = "second"
    one = {r[0]: r for r in judge_console(
        a, finished("KTAP version 1\n1..1\nok 1 second\n"), False, {},
        "known", [], CASES)}
    a.filter = "no_such_case,third"
    two = {r[0]: r for r in judge_console(
        a, finished("KTAP version 1\n1..1\nok 1 third\n"), False, {},
        "known", [], CASES)}
    return (status(none, "filter_selects_cases") == "fail" and
            "filter_selects_cases" not in one and
            status(one, "second") == "pass" and
            "filter_selects_cases" not in two and
            status(two, "third") == "pass" and "second" not in two,
            "a filter that selects no case fails the run; one that selects "
            "a case does not, nor one of whose alternatives (A,B) does")


def check_exclude():
    a = args()
    a.exclude = "second"
    text = finished("KTAP version 1\n1..2\nok 1 first\nok 2 third\n")
    res = {r[0]: r for r in judge_console(a, text, False, {}, "known", [],
                                          CASES, vm.excluded_cases(a))}
    a.exclude = "second,no_such_case"
    bad = {r[0]: r for r in judge_console(a, text, False, {}, "known", [],
                                          CASES, vm.excluded_cases(a))}
    return (status(res, "second") == "skip" and
            res["second"][2] == "SKIP " + vm.EXCLUDED_REASON and
            status(res, "third") == "pass" and
            status(res, "guest_completed") == "pass" and
            "exclude_names_cases" not in res and
            status(bad, "exclude_names_cases") == "fail",
            "X= leaves a case out, reported as SKIP, not as not run; a name "
            "that is no case fails the run")


def check_hung_case():
    # Live lines only: the guest stopped printing during "second".
    # A case mark the kernel printed runs on from the result line.
    text = (HEAD + "KTAP version 1\n1..3\n# a diagnostic\nok 1 first"
            "[   49.9] sleeptest-case: second\n"
            "[   50.0] some kernel message\n# second: waiting\n")
    res = judge(text, timed_out=True)
    second = res.get("second", (None, None, None, []))
    third = res.get("third", (None, None, None, []))
    done = res.get("guest_completed", (None, None, None, []))
    ok = (status(res, "first") == "pass" and
          status(res, "second") == "fail" and
          any("started but gave no result" in d for d in second[3]) and
          status(res, "third") == "fail" and
          any("did not run" in d and "second" in d for d in third[3]) and
          status(res, "guest_completed") == "fail" and
          any("in case second" in d for d in done[3]))
    return ok, ("a guest that hangs in 'second': 'first' keeps its pass "
                "(with a kernel line run on from it), 'second' is named as "
                "hung, 'third' as not run")


def check_boot_stall():
    """A fake QEMU that stalls before init on its first boot only: boot()
    kills it after BOOT_STALL_S of silence, boots again, keeps the first
    console and notes the stall; a stall after init is left to the
    timeout; a second stall is not retried."""
    tmp = tempfile.mkdtemp()
    flag = os.path.join(tmp, "booted")
    fake = ("if [ -e %s ]; then echo 'Run /init as init process'; "
            "sleep %s; echo 'ok 1 first'; else touch %s; "
            "echo 'smp: Bringing up secondary CPUs ...'; exec sleep 30; fi")
    saved = (vm.qemu_cmd, vm.BOOT_STALL_S, vm.BOOT_STALL_SIGNATURE_S,
             vm.RESULTS, vm.log)
    # Silence after the stall's signature line: 1 s; after any other: 8 s.
    vm.BOOT_STALL_S, vm.BOOT_STALL_SIGNATURE_S, vm.RESULTS = 8, 1, tmp
    vm.log = lambda stage, msg: None
    a = argparse.Namespace(arch="riscv64", variant="patched",
                           suite="sleeptest")
    try:
        # Stalls once, then boots; after init it is silent for 7 s, longer
        # than BOOT_STALL_S, which must not count.  The stall is cut after
        # the signature's short window, well before BOOT_STALL_S.
        vm.qemu_cmd = lambda a, append, icount: ["bash", "-c",
                                                 fake % (flag, 7, flag)]
        t0 = time.time()
        text, timed_out, path, notes = vm.boot(a, "t", "", 60)
        took = time.time() - t0
        stalled = os.path.join(tmp, "console-patched-riscv64-stalled.log")
        ok1 = (not timed_out and "ok 1 first" in text and took < 12 and
               os.path.exists(stalled) and "Bringing up" in
               open(stalled).read() and len(notes) == 1 and
               "Bringing up secondary CPUs" in notes[0])
        # Stalls every time: one retry, then a hang.
        vm.qemu_cmd = lambda a, append, icount: [
            "bash", "-c", "echo 'smp: Bringing up secondary CPUs'; "
            "exec sleep 30"]
        t0 = time.time()
        text, timed_out, path, notes = vm.boot(a, "t", "", 60)
        ok2 = timed_out and len(notes) == 1 and \
            time.time() - t0 < 7
        # Silent after another line: a hang, not retried.
        vm.qemu_cmd = lambda a, append, icount: [
            "bash", "-c", "echo 'ftrace: testing direct calls'; "
            "exec sleep 30"]
        t0 = time.time()
        text, timed_out, path, notes = vm.boot(a, "t", "", 60)
        took3 = time.time() - t0
        ok3 = timed_out and len(notes) == 1 and "not retried" in \
            notes[0] and 8 <= took3 < 14
    finally:
        (vm.qemu_cmd, vm.BOOT_STALL_S, vm.BOOT_STALL_SIGNATURE_S,
         vm.RESULTS, vm.log) = saved
        subprocess.run(["rm", "-rf", tmp])
    return ok1 and ok2 and ok3, (
        "a boot that stalls before init where the known riscv64 stall does "
        "is killed after the signature's short window and booted once "
        "more, its console kept and the stall noted; silence after init is "
        "not a stall; a second stall, and silence after any other line "
        "(the whole window), is a hang")


REPORTS = {
    "x86 stack dump": "[ 1.0] Call Trace:\n",
    "arm64 stack dump": "[ 1.0] Call trace:\n",
    "RCU-tasks grace period held up":
        "[ 9.0] rcu_tasks_wait_gp: rcu_tasks grace period 17 is 2533 "
        "jiffies old.\n",
    "RCU-tasks-trace grace period held up":
        "[ 9.0] rcu_tasks_wait_gp: rcu_tasks_trace grace period 4 is "
        "10001 jiffies old.\n",
    "hung task": "[ 99.0] INFO: task sleeptest:71 blocked for more than "
                 "60 seconds.\n",
    "soft lockup": "[ 50.0] watchdog: BUG: soft lockup - CPU#1 stuck for "
                   "44s! [sleeptest:80]\n",
    "sleeping in atomic context": "[ 3.0] BUG: sleeping function called "
                                  "from invalid context at mm/slab.h:1\n",
    "lockdep": "[ 3.0] WARNING: possible circular locking dependency "
               "detected\n",
    "KASAN": "[ 3.0] BUG: KASAN: slab-use-after-free in foo+0x1/0x2\n",
    "KFENCE": "[ 3.0] BUG: KFENCE: use-after-free read in foo+0x1/0x2\n",
    "failed allocation of the test program": "[ 85.2] sleeptest: vmalloc "
        "error: size 4096, vm_struct allocation failed, mode:0xcc0\n",
    "x86 general protection fault": "[ 5.0] general protection fault, "
        "probably for non-canonical address 0xdead: 0000 [#1] PREEMPT SMP\n",
    "x86 invalid opcode": "[ 5.0] invalid opcode: 0000 [#1] PREEMPT SMP\n",
    "x86 int3": "[ 5.0] int3: 0000 [#1] PREEMPT SMP\n",
    "arm64 internal error": "[ 5.0] Internal error: BRK handler: "
        "00000000f2000800 [#1] PREEMPT SMP\n",
    "UBSAN": "[ 5.0] UBSAN: shift-out-of-bounds in kernel/bpf/x.c:1:2\n",
    "RCU stall": "[ 30.0] rcu: INFO: rcu_preempt self-detected stall on "
        "CPU\n",
    "RCU-tasks stall": "[ 30.0] rcu_tasks_trace detected stalls on tasks:"
        "\n",
}


KNOWN_WARN = ("[ 0.4] WARNING: CPU: 0 PID: 13 at kernel/workqueue.c:3073 "
              "__flush_work+0x54/0x2a4\n[ 0.4] Modules linked in:\n"
              "[ 0.4] Call trace:\n[ 0.4]  __flush_work+0x54/0x2a4\n")
KNOWN_LOG = {"kernel_log_clean": [("kernel/workqueue.c:3073 __flush_work",
                                   "a known boot-time warning", True,
                                   "boot"),
                                  ("vmalloc error: size",
                                   "fault injection", True, "alloc_case")]}
MARK = "[ 1.0] sleeptest-case: %s\n"
VMALLOC = ("[ 2.0] sleeptest: vmalloc error: size 4096, vm_struct "
           "allocation failed\n[ 2.0] Call Trace:\n[ 2.0]  dump_stack\n")


def check_known_log():
    res = judge(finished(ALL_OK, dmesg=KNOWN_WARN), known=KNOWN_LOG)
    return (status(res, "kernel_log_clean") == "xfail",
            "a listed kernel-log report and its stack dump are an expected "
            "failure")


def check_known_log_scoped():
    """A listed report counts only during the case it names; an x86 oops
    right after it is not its stack dump; a report's window ends at its
    end-trace line."""
    inside = judge(finished(ALL_OK, dmesg=MARK % "start" + MARK % "alloc_case"
                            + VMALLOC), known=KNOWN_LOG)
    outside = judge(finished(ALL_OK, dmesg=MARK % "start" + MARK % "other"
                             + VMALLOC), known=KNOWN_LOG)
    boot_late = judge(finished(ALL_OK, dmesg=MARK % "start" + KNOWN_WARN),
                      known=KNOWN_LOG)
    oops = judge(finished(ALL_OK, dmesg=MARK % "alloc_case" + VMALLOC +
                          "[ 2.1] general protection fault: 0000 [#1] SMP\n"
                          "[ 2.1] Call Trace:\n"), known=KNOWN_LOG)
    # The console holds the live log (its marks) and then the final dump,
    # whose boot lines come after the last mark.
    dumped = judge(finished(MARK % "start" + MARK % "alloc_case" + ALL_OK,
                            dmesg=KNOWN_WARN + MARK % "start"),
                   known=KNOWN_LOG)
    ended = judge(finished(ALL_OK, dmesg=KNOWN_WARN +
                           "[ 0.5] ---[ end trace 0000000000000000 ]---\n"
                           "[ 0.6] Call trace:\n"), known=KNOWN_LOG)
    got = [status(r, "kernel_log_clean") for r in
           (inside, outside, boot_late, oops, ended, dumped)]
    return (got == ["xfail", "fail", "fail", "fail", "fail", "xfail"],
            "a listed report is expected only in its case (@boot: before "
            "the first case mark, also in the final dump after the live "
            "log's marks); an oops or a stack dump after it, or after its "
            "end-trace line, fails the run (%s)" % got)


def check_known_log_and_other():
    res = judge(finished(ALL_OK, dmesg=KNOWN_WARN +
                         "[ 9.0] BUG: KASAN: use-after-free in x+0x1/0x2\n"),
                known=KNOWN_LOG)
    return (status(res, "kernel_log_clean") == "fail",
            "a listed report does not hide another one")


def check_known_case_fails_otherwise():
    """A listed case whose failed checks all show the listed error is an
    expected failure; one with another failed check is a failure."""
    known = {"second": ("-524", "cannot attach here", False)}
    listed = ("KTAP version 1\n1..3\nok 1 first\n"
              "# test_second:10: check 'err == 0' failed: attach: -524\n"
              "not ok 2 second\nok 3 third\n")
    other = listed.replace("not ok 2", "# test_second:20: check 'runs == 1'"
                           " failed: the program ran 0 times\nnot ok 2")
    got = [status(judge(finished(t), known=known), "second")
           for t in (listed, other)]
    return (got == ["xfail", "fail"], "a listed case with a failed check "
            "that does not show its listed error fails the run (%s)" % got)


def check_report(kind, line):
    res = judge(finished(ALL_OK, dmesg=line))
    return (status(res, "kernel_log_clean") == "fail",
            "the run fails on a kernel log with: %s" % kind)


def two_boots(paths, arch="arm64", reach=None):
    """vm.cmd_test on a patched kernel (arm64: two boots, others: one) with
    canned boots whose call paths (and arm64 veneer reach reports) are
    given per boot; the results it would write, per boot."""
    written, saved = [], (vm.boot_results, vm.kaslr_check, vm.write_ktap,
                          vm.log)
    per_boot = iter(zip(paths, reach or [[]] * len(paths)))

    def canned(a, stage, name, extra):
        p, r = next(per_boot)
        return ([("first", "pass", None, [])],
                {"text": "", "paths": [("fn", k) for k in p],
                 "reach": [("fn", k) for k in r]})
    vm.boot_results = canned
    vm.kaslr_check = lambda a, text, want: ("kaslr_" + want, "pass", None,
                                            [])
    vm.write_ktap = lambda a, name, results, meta: written.append(
        {r[0]: r[1] for r in results}) or "x"
    vm.log = lambda stage, msg: None
    try:
        vm.cmd_test(argparse.Namespace(arch=arch, variant="patched",
                                       suite="sleeptest", filter=""))
    finally:
        vm.boot_results, vm.kaslr_check, vm.write_ktap, vm.log = saved
    return written


def check_call_paths():
    good = two_boots([["veneer", "out-of-range"], ["direct"]])
    bads = [two_boots(p) for p in (
        [["out-of-range"], ["direct"]],
        [["veneer"], ["direct"]],
        [["veneer", "out-of-range"], ["veneer"]],
        [["veneer", "out-of-range", "unknown"], ["direct"]])]
    return (len(good) == 2 and
            good[1].get("call_paths_exercised") == "pass" and
            all(b[1].get("call_paths_exercised") == "fail" for b in bads),
            "the arm64 patched run checks that all three call paths were "
            "taken and every call site led to its trampoline")


def check_call_paths_module_near():
    """With KASLR the module can land within reach of the veneers; then
    no call site can take the out-of-range path and it is not required,
    but it still is when one call site was beyond their reach."""
    near = two_boots([["veneer", "veneer"], ["direct"]],
                     reach=[["in", "in"], ["in"]])
    far = two_boots([["veneer", "veneer"], ["direct"]],
                    reach=[["in", "out"], ["in"]])
    return (near[1].get("call_paths_exercised") == "pass" and
            far[1].get("call_paths_exercised") == "fail",
            "the arm64 out-of-range path is required exactly when a call "
            "site of the KASLR boot was beyond the veneers' reach")


def check_call_paths_one_boot(arch):
    good = two_boots([["direct", "direct"]], arch)
    bads = [two_boots(p, arch) for p in (
        [[]], [["direct", "unknown"]], [["out-of-range"]])]
    return (len(good) == 1 and
            good[0].get("call_paths_exercised") == "pass" and
            all(b[0].get("call_paths_exercised") == "fail" for b in bads),
            "the %s run checks that a direct call was taken and every "
            "call site led to its trampoline" % arch)


def script_checks(name, label):
    """One check per "ok"/"not ok" line of scripts/NAME; a script that
    dies early fails a check of its own."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    p = subprocess.run(["bash", script], capture_output=True, text=True)
    checks = []
    for line in p.stdout.splitlines():
        ok = line.startswith("ok ")
        what = label + ": " + line.split(" ", 2 if not ok else 1)[-1]
        checks.append(lambda ok=ok, what=what: (ok, what))
    if p.returncode or not checks:
        checks.append(lambda: (False, "%s: %s exited %d: %s" % (
            label, name, p.returncode, p.stderr.strip()[-200:])))
    return checks


def quilt_checks():
    """make quilt-check fails when a patch does not apply as exported and
    when the patched files differ from the series tip."""
    import quilt  # scripts/quilt.py, next to this
    out = tempfile.mkdtemp(prefix="quilt-selftest-")
    _, names = quilt.export(out)
    first = os.path.join(out, "debian", "patches", names[0])
    text = open(first).read()

    def verdict(mutated):
        open(first, "w").write(mutated)
        return {n: ok for n, ok, _ in quilt.verify(out, names)}

    good = verdict(text)
    # an added line changed: quilt applies it, the file is not the tip's
    hunk = text.index("\n@@ ")
    added = verdict(text[:hunk] + re.sub(r"\n\+(?!\+\+ )", "\n+ ",
                                         text[hunk:], count=1))
    # a context line changed: the hunk no longer applies without fuzz
    context = verdict(text.replace("\n \t", "\n \t ", 1))
    shutil.rmtree(out, ignore_errors=True)
    return [
        lambda: (all(good.values()), "quilt: the exported series applies "
                 "and gives the series tip (%s)" % good),
        lambda: (added.get("quilt_push_all") and
                 not added.get("quilt_tree_matches_series"),
                 "quilt: a changed added line is found in the files "
                 "(%s)" % added),
        lambda: (not context.get("quilt_push_all") and
                 not context.get("quilt_tree_matches_series"),
                 "quilt: a hunk whose context changed fails to apply "
                 "(%s)" % context)]


def mutants_checks():
    """make mutants fails on a mutant the suite does not notice (here one
    that only edits a comment), on one whose text is no longer in the
    source and on one that does not compile; it passes one the suite
    kills."""
    d = tempfile.mkdtemp(prefix="mutants-selftest-")
    lst = os.path.join(d, "list")
    with open(lst, "w") as f:
        f.write("""mutant equivalent x86_64 arch-common/tramp_ir.c
- /* The frame layout documented in tramp_ir.h, and nowhere else. */
+ /* edited */
mutant stale x86_64 arch-common/tramp_ir.c
- no such line
mutant broken x86_64 arch-x86/isel.c
- \tEMIT(x86_leave(B));
+ \tEMIT(x86_leave(B, 1));
mutant real x86_64 arch-x86/isel.c
- \tEMIT(x86_leave(B));
""")
    ktap = os.path.join(d, "k.ktap")
    p = subprocess.run([sys.executable, os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "mutants.py"),
        "--list", lst, "--ktap", ktap], capture_output=True, text=True)
    got = {}
    if os.path.exists(ktap):
        for line in open(ktap):
            m = re.match(r"^(ok|not ok) \d+ (\S+)", line)
            if m:
                got[m.group(2)] = m.group(1)
    shutil.rmtree(d, ignore_errors=True)
    want = {"equivalent": "not ok", "stale": "not ok", "broken": "not ok",
            "real": "ok"}
    return [lambda: (p.returncode == 1 and got == want,
                     "mutants: a surviving, a stale and a broken mutant "
                     "fail make mutants, a killed one passes (%s, rc %d)"
                     % (got, p.returncode))]


def summary_checks():
    """summary.py fails a conformance file that is missing, and one whose
    suite ended before all its planned results (it is written as the
    suite goes)."""
    d = tempfile.mkdtemp(prefix="summary-selftest-")
    os.makedirs(os.path.join(d, "results"))
    with open(os.path.join(d, "results", "conformance-arm64.ktap"),
              "w") as f:
        f.write("KTAP version 1\n1..5\n# encoders: 3 passed, 0 failed\n"
                "ok 1 encoders\n")
    p = subprocess.run([sys.executable, os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "summary.py"),
        "--variants", "stock", "--archs", "x86_64", "--runs", "none:x:y",
        "--conformance", "x86_64 arm64"], capture_output=True, text=True,
        env=dict(os.environ, BUILD_DIR=d))
    shutil.rmtree(d, ignore_errors=True)
    out = p.stdout
    return [lambda: ("FAILED conformance-x86_64" in out and
                     "FAILED conformance-arm64: 1 results of 5 planned"
                     in out and p.returncode == 1,
                     "summary: a missing conformance file and one cut "
                     "short each fail the run")]


def tools_table_checks():
    """results-table.py --tools: each tool's path and result per kernel,
    a listed failure with its reason, the bpftrace cases with the line
    the first of them carries, and the file it writes."""
    d = tempfile.mkdtemp(prefix="tools-table-selftest-")
    res = os.path.join(d, "results")
    os.makedirs(res)
    with open(os.path.join(res, "tools-stock-arm64.ktap"), "w") as f:
        f.write("KTAP version 1\n# date: 2026-12-07T20:04:17\n1..3\n"
                "# vfsstat: path kprobe (5 links), exit 0, 9 reads counted\n"
                "ok 1 vfsstat # XFAIL stock arm64 falls back to kprobes\n"
                "# bpftrace: path none, exit 1, @reads none\n"
                "not ok 2 bpftrace_kfunc\nok 3 guest_completed\n")
    with open(os.path.join(res, "tools-patched-arm64.ktap"), "w") as f:
        f.write("KTAP version 1\n1..3\n"
                "# vfsstat: path fentry (5 links), exit 0, 254 reads counted"
                "\nok 1 vfsstat\n"
                "# bpftrace: path fentry (3 links), exit 0 1 s after SIGINT\n"
                "ok 2 bpftrace_kfunc\nok 3 bpftrace_kretfunc\n")
    p = subprocess.run([sys.executable, os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results-table.py"),
        "--tools", "--tools-out", res], capture_output=True, text=True,
        env=dict(os.environ, BUILD_DIR=d))
    path = os.path.join(res, "tools-table-arm64.md")
    written = open(path).read() if os.path.exists(path) else ""
    shutil.rmtree(d, ignore_errors=True)
    want = ["| vfsstat | kprobe (5 links), exit 0: xfail (stock arm64 falls "
            "back to kprobes) | fentry (5 links), exit 0: ok, 254 reads "
            "counted |",
            "| bpftrace_kfunc | none, exit 1: FAIL, @reads none | fentry "
            "(3 links), exit 0: ok, 1 s after SIGINT |",
            "| bpftrace_kretfunc | - | fentry (3 links), exit 0: ok, 1 s "
            "after SIGINT |"]
    return [lambda: (p.returncode == 0 and all(w in p.stdout for w in want)
                     and "guest_completed" not in p.stdout
                     and written and written in p.stdout + "\n",
                     "tools tables: path and result of each tool per "
                     "kernel, boot checks left out, file written")]


def check_tracer_tests_boots():
    """The tracers' start-up tests run on a patched kernel's first suite
    boot only: not on stock, not in a kernel-selftests boot, not on the
    arm64 nokaslr boot."""
    skipped = {}
    saved = (vm.qemu_cmd, vm.boot_once, vm.log)
    vm.log = lambda stage, msg: None
    # The fake QEMU's console is the kernel command line it was given.
    vm.boot_once = lambda cmd, stage, timeout, path: (cmd, False, False)
    vm.qemu_cmd = lambda a, append, icount: [append]
    try:
        for arch in ("arm64", "x86_64"):
            for variant, suite in (("patched", "sleeptest"),
                                   ("stock", "sleeptest"),
                                   ("patched", "kselftest")):
                a = argparse.Namespace(arch=arch, variant=variant,
                                       suite=suite)
                for name, extra, _ in vm.boots(a):
                    append = vm.boot(a, "t", "", 60, name=name,
                                     extra=extra)[0]
                    skipped[(arch, variant, suite, name)] = \
                        vm.SKIP_TRACER_TESTS in append
    finally:
        vm.qemu_cmd, vm.boot_once, vm.log = saved
    ran = sorted(k for k, v in skipped.items() if not v)
    want = [("arm64", "patched", "sleeptest", ""),
            ("x86_64", "patched", "sleeptest", "")]
    return ran == want and len(skipped) == 7, (
        "the tracers' start-up tests run on the first suite boot of a "
        "patched kernel only (ran on: %s)" % ran)


def check_run_boots_ready():
    """run-boots.sh: while CMD builds, only the runs it has made ready
    (--ready DIR) take the free slot, in list order; the others wait for
    CMD, then go in list order."""
    root = tempfile.mkdtemp(prefix="run-boots-")
    ready = os.path.join(root, "ready")
    try:
        os.makedirs(os.path.join(root, "scripts"))
        os.makedirs(ready)
        shutil.copy(os.path.join(os.path.dirname(__file__), "run-boots.sh"),
                    os.path.join(root, "scripts"))
        stub = os.path.join(root, "scripts", "run-vm.sh")
        with open(stub, "w") as f:
            f.write("#!/bin/bash\n"
                    "[ $2 = first ] && sleep 0.6 || sleep 0.2\n")
        os.chmod(stub, 0o755)
        cmd = ("sleep 0.3; touch {0}/e1-a; sleep 1; touch {0}/e2-a; "
               "sleep 1".format(ready))
        out = subprocess.run(
            ["bash", os.path.join(root, "scripts", "run-boots.sh"), "2",
             "60", "60", "--meanwhile", cmd, "--ready", ready,
             "test:first:a", "test:late1:a", "test:e1:a", "test:late2:a",
             "test:e2:a"], capture_output=True, text=True, timeout=60,
            env=dict(os.environ, RUN_BOOTS_TICK="0.1")).stdout
    finally:
        shutil.rmtree(root)
    # Runs started together may print in either order: compare each
    # start with the end of CMD.
    events = re.findall(r"^=== (start|done): (?:test (\S+) a|(sleep))",
                        out, re.M)
    order = [(e, a or b) for e, a, b in events]
    cmd_done = order.index(("done", "sleep")) if ("done", "sleep") in \
        order else -1
    before = [n for e, n in order[:cmd_done] if e == "start"]
    after = sorted(n for e, n in order[cmd_done:] if e == "start")
    ok = sorted(before[:2]) == ["first", "sleep"] and \
        before[2:] == ["e1", "e2"] and after == ["late1", "late2"]
    return ok, ("run-boots.sh --ready: runs made ready beside the builds, "
                "the rest after them (started before the builds ended: %s; "
                "after: %s)" % (" ".join(before), " ".join(after)))

def main():
    checks = [check_clean_run, check_lockdep_off, check_killed_by_signal,
              check_boot_modules,
              check_filter_selects_nothing, check_exclude,
              check_layout_free_skips,
              check_hung_case, check_known_log, check_known_log_scoped,
              check_known_case_fails_otherwise,
              check_known_log_and_other, check_call_paths,
              check_call_paths_module_near, check_boot_stall,
              check_tracer_tests_boots, check_run_boots_ready,
              lambda: check_call_paths_one_boot("x86_64"),
              lambda: check_call_paths_one_boot("riscv64")] + [
        (lambda k=k, v=v: check_report(k, v)) for k, v in REPORTS.items()]
    checks += script_checks("kcache-selftest.sh", "kernel cache")
    checks += script_checks("kseed-selftest.sh", "patched seed")
    checks += script_checks("distro-check-selftest.sh", "distro-check")
    checks += quilt_checks()
    checks += mutants_checks()
    checks += summary_checks()
    checks += tools_table_checks()
    lines = ["KTAP version 1", "1..%d" % len(checks)]
    failed = 0
    for i, fn in enumerate(checks, 1):
        ok, what = fn()
        failed += not ok
        lines.append("%sok %d %s" % ("" if ok else "not ", i,
                                     what.replace(" ", "_")[:90]))
        print("[harness-selftest] %s: %s" % ("ok" if ok else "FAILED", what))
    lines.append("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0"
                 % (len(checks) - failed, failed))
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "harness-selftest.ktap"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("[harness-selftest] %d checks, %d failed" % (len(checks), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
