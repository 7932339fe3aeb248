#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sum up build/results/*.ktap: a case x (arch, variant) table and the
final line "N passed, M failed, K skipped" (expected failures are counted
with skipped, and named).  Exits 1 if anything failed or is missing."""
import argparse
import json
import os
import re
import sys

from vm import SUITES, boots_of  # scripts/vm.py, next to this

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(os.environ.get("BUILD_DIR",
                                      os.path.join(ROOT, "build")), "results")
ARCHS = ["x86_64", "arm64", "riscv64"]


def ktap_plan(path):
    """The number of results a KTAP file's plan line (1..N) announces, or
    None without one."""
    for line in open(path):
        if re.match(r"^1\.\.\d+$", line):
            return int(line.strip()[3:])
    return None


def read_ktap(path, diags=None):
    """The results of a KTAP file, {case: (status, reason)}, and the cases'
    order; diags, if given, gets each case's diagnostic lines (written
    before its result line)."""
    res = {}
    order = []
    pending = []
    planned = False
    for line in open(path):
        if re.match(r"^1\.\.\d+$", line):
            planned = True
        m = re.match(r"^(not ok|ok) \d+ (\S+)(?: # (\S+)(.*))?$",
                     line.rstrip("\n"))
        if not m:
            if line.startswith("# ") and planned:
                pending.append(line.rstrip("\n"))
            continue
        name = m.group(2)
        if diags is not None:
            diags[name] = pending
        pending = []
        d = m.group(3) or ""
        if d.upper() in ("XFAIL", "TODO"):
            status = "xfail"
        elif d.upper() == "SKIP":
            status = "skip"
        elif d.upper() == "XPASS":
            status = "fail"
        else:
            status = "pass" if m.group(1) == "ok" else "fail"
        res[name] = (status, (m.group(4) or "").strip())
        order.append(name)
    return res, order


class Tally:
    """Counts of a run's results, and the lines naming what did not
    pass."""

    def __init__(self):
        self.npass = self.nfail = self.nskip = self.nxfail = 0
        self.named = []
        self.records = []	# for summary.json

    def add(self, res, where, diags=None):
        for c, (status, why) in res.items():
            self.records.append({"where": where, "case": c,
                                 "status": status, "reason": why})
            if status == "pass":
                self.npass += 1
            elif status == "fail":
                self.nfail += 1
                # With the end of what the case said, so that a CI log
                # that keeps only this summary still tells why.
                self.named.append("\n".join(
                    ["FAILED %s %s" % (where, c)] +
                    ["    " + d for d in (diags or {}).get(c, [])[-8:]]))
            else:
                self.nskip += 1
                self.nxfail += status == "xfail"
                self.named.append("%s %s %s: %s" % (
                    "XFAIL" if status == "xfail" else "SKIP", where, c,
                    why))

    def check_plan(self, res, path, where):
        """A file that planned more results than it holds ended early
        (a crash or a kill): that is a failure of its own."""
        plan = ktap_plan(path)
        if plan is None or len(res) < plan:
            self.nfail += 1
            why = "no plan line" if plan is None else \
                "%d results of %d planned: the run ended early" % (
                    len(res), plan)
            self.named.append("FAILED %s: %s" % (where, why))
            self.records.append({"where": where, "case": None,
                                 "status": "fail", "reason": why})

    def missing(self, what):
        self.nfail += 1
        self.named.append("FAILED %s: no results" % what)
        self.records.append({"where": what, "case": None, "status": "fail",
                             "reason": "no results"})

    def write_json(self, path):
        with open(path, "w") as f:
            json.dump({"passed": self.npass, "failed": self.nfail,
                       "expected_failures": self.nxfail,
                       "skipped": self.nskip - self.nxfail,
                       "results": self.records}, f, indent=1)
            f.write("\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--variants", default="stock,patched")
    p.add_argument("--archs", default=",".join(ARCHS))
    p.add_argument("--suites", default=",".join(SUITES))
    p.add_argument("--conformance", default=" ".join(ARCHS),
                   help="the backends whose conformance results make test "
                   "expects")
    p.add_argument("--runs", default="",
                   help="the QEMU runs made, as scripts/run-boots.sh takes "
                   "them (MODE:VARIANT:ARCH ...); default: every suite, "
                   "variant and architecture")
    a = p.parse_args()
    runs = [r.split(":") for r in a.runs.split()]
    mode_of = {"sleeptest": "test", "kselftest": "kselftest",
               "tools": "tools"}
    t = Tally()
    label = {"pass": "ok", "fail": "FAIL", "xfail": "xfail", "skip": "skip"}
    for suite in a.suites.split(","):
        prefix, title = SUITES[suite]
        # One column per boot: our suite boots the arm64 patched kernel
        # twice.
        cols = [(arch, v + b[0]) for arch in a.archs.split(",")
                for v in a.variants.split(",")
                if not runs or [mode_of[suite], v, arch] in runs
                for b in boots_of(arch, v, suite)]
        table = {}
        cases = []
        for arch, v in cols:
            where = "%s%s/%s" % (prefix, arch, v)
            path = os.path.join(RESULTS, "%s%s-%s.ktap" % (prefix, v, arch))
            if not os.path.exists(path):
                table[(arch, v)] = None
                t.missing(where + " (the kernel or guest build failed, "
                          "see above)")
                continue
            diags = {}
            res, order = read_ktap(path, diags)
            table[(arch, v)] = res
            for c in order:
                if c not in cases:
                    cases.append(c)
            t.add(res, where, diags)
            t.check_plan(res, path, where)
        w = max([len(c) for c in cases] + [10])
        head = "%-*s" % (w, "case") + "".join(" %-23s" % ("%s/%s" % c)
                                              for c in cols)
        print()
        print(title)
        print(head)
        print("-" * len(head))
        for c in cases:
            row = "%-*s" % (w, c)
            for col in cols:
                r = table[col]
                row += " %-23s" % (label[r[c][0]] if r and c in r else
                                   ("-" if r else "no result"))
            print(row)
    print()
    # make test runs the conformance suite of every backend: each file
    # must be there, and whole (it is written as the suite goes).
    for arch in (a.conformance.split() if "stock" in a.variants else []):
        name = "conformance-" + arch
        path = os.path.join(RESULTS, name + ".ktap")
        if not os.path.exists(path):
            t.missing(name + " (the suite did not build or start, see "
                      "above)")
            continue
        total = "no total: the suite ended early"
        for line in open(path):
            m = re.match(r"^# (\d+ passed, \d+ failed.*)$", line)
            if m:
                total = m.group(1) + " checks"
        print("%s: %s" % (name, total))
        diags = {}
        res, _ = read_ktap(path, diags)
        t.add(res, name, diags)
        t.check_plan(res, path, name)
    # The checks of one result file each; make test (stock among the
    # variants) runs all of them.
    for name, title in (
            ("distro-check", "distro-check (Debian 6.1 configs)"),
            ("quilt", "quilt (make quilt, applied to the pristine tree)"),
            ("mutants", "mutants (make mutants: each one the conformance "
             "suite must fail)"),
            ("libbpf-glue", "libbpf-glue (headers, install, pkg-config)"),
            ("harness-selftest", "harness self-test "
             "(scripts/harness-selftest.py)")):
        path = os.path.join(RESULTS, name + ".ktap")
        if not os.path.exists(path):
            if "stock" in a.variants:
                t.missing(name)
            continue
        diags = {}
        res, order = read_ktap(path, diags)
        t.check_plan(res, path, name)
        bad = [c for c in order if res[c][0] != "pass"]
        if len(order) > 12:
            print("%s: %d checks, %d not passed" % (title, len(order),
                                                    len(bad)))
        else:
            print("%s: %s" % (title, ", ".join(
                "%s %s" % (c, label[res[c][0]]) for c in order)))
        t.add(res, name, diags)
    print()
    # Failures last, next to the final line: a log cut short keeps them.
    for n in sorted(t.named, key=lambda n: n.startswith("FAILED")):
        print(n)
    if os.path.isdir(RESULTS):
        t.write_json(os.path.join(RESULTS, "summary.json"))
    # Expected failures are counted with the skipped, and apart.
    print("of the skipped: %d expected failures (XFAIL), %d skips "
          "(build/results/summary.json has every result)"
          % (t.nxfail, t.nskip - t.nxfail))
    print("%d passed, %d failed, %d skipped" % (t.npass, t.nfail, t.nskip))
    sys.exit(1 if t.nfail else 0)


if __name__ == "__main__":
    main()
