#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sum up build/results/*.ktap: a case x (arch, variant) table and the
final line "N passed, M failed, K skipped" (expected failures are counted
with skipped, and named).  Exits 1 if anything failed or is missing."""
import argparse
import os
import re
import sys

from vm import SUITES, boots_of  # scripts/vm.py, next to this

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(os.environ.get("BUILD_DIR",
                                      os.path.join(ROOT, "build")), "results")
ARCHS = ["x86_64", "arm64", "riscv64"]


def read_ktap(path):
    res = {}
    order = []
    for line in open(path):
        m = re.match(r"^(not ok|ok) \d+ (\S+)(?: # (\S+)(.*))?$",
                     line.rstrip("\n"))
        if not m:
            continue
        name = m.group(2)
        d = m.group(3) or ""
        if d.upper() in ("TODO", "SKIP"):
            status = "xfail" if d.upper() == "TODO" else "skip"
        else:
            status = "pass" if m.group(1) == "ok" else "fail"
        res[name] = (status, (m.group(4) or "").strip())
        order.append(name)
    return res, order


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--variants", default="stock,patched")
    p.add_argument("--archs", default=",".join(ARCHS))
    p.add_argument("--suites", default=",".join(SUITES))
    p.add_argument("--runs", default="",
                   help="the QEMU runs made, as scripts/run-boots.sh takes "
                   "them (MODE:VARIANT:ARCH ...); default: every suite, "
                   "variant and architecture")
    a = p.parse_args()
    runs = [r.split(":") for r in a.runs.split()]
    mode_of = {"sleeptest": "test", "kselftest": "kselftest"}
    npass = nfail = nskip = 0
    named = []
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
                nfail += 1
                named.append("FAILED %s: no results (the kernel or guest "
                             "build failed, see above)" % where)
                continue
            res, order = read_ktap(path)
            table[(arch, v)] = res
            for c in order:
                if c not in cases:
                    cases.append(c)
            for c, (status, why) in res.items():
                if status == "pass":
                    npass += 1
                elif status == "fail":
                    nfail += 1
                    named.append("FAILED %s %s" % (where, c))
                else:
                    nskip += 1
                    named.append("%s %s %s: %s" % (
                        "XFAIL" if status == "xfail" else "SKIP", where, c,
                        why))
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
    total = "?"
    conf = sorted(f for f in os.listdir(RESULTS)
                  if f.startswith("conformance-") and f.endswith(".ktap")) \
        if os.path.isdir(RESULTS) else []
    print()
    for f in conf:
        for line in open(os.path.join(RESULTS, f)):
            m = re.match(r"^# (\d+ passed, \d+ failed.*)$", line)
            if m:
                total = m.group(1)
        print("%s: %s checks" % (f[:-5], total))
        res, _ = read_ktap(os.path.join(RESULTS, f))
        for c, (status, why) in res.items():
            if status == "pass":
                npass += 1
            elif status == "fail":
                nfail += 1
                named.append("FAILED %s %s" % (f[:-5], c))
            else:
                nskip += 1
    distro = os.path.join(RESULTS, "distro-check.ktap")
    if os.path.exists(distro):
        res, order = read_ktap(distro)
        print("distro-check (Debian 6.1 configs): " + ", ".join(
            "%s %s" % (c, label[res[c][0]]) for c in order))
        for c, (status, why) in res.items():
            if status == "pass":
                npass += 1
            else:
                nfail += 1
                named.append("FAILED distro-check %s" % c)
    elif "stock" in a.variants:
        nfail += 1
        named.append("FAILED distro-check: no results")
    for name, title in (("quilt", "quilt (make quilt, applied to the "
                          "pristine tree)"),
                         ("libbpf-glue", "libbpf-glue (headers, install, "
                          "pkg-config)")):
        path = os.path.join(RESULTS, name + ".ktap")
        if not os.path.exists(path):
            if "stock" in a.variants:
                nfail += 1
                named.append("FAILED %s: no results" % name)
            continue
        res, order = read_ktap(path)
        print("%s: %s" % (title, ", ".join(
            "%s %s" % (c, label[res[c][0]]) for c in order)))
        for c, (status, why) in res.items():
            if status == "pass":
                npass += 1
            elif status == "fail":
                nfail += 1
                named.append("FAILED %s %s" % (name, c))
            else:
                nskip += 1
                named.append("SKIP %s %s: %s" % (name, c, why))
    harness = os.path.join(RESULTS, "harness-selftest.ktap")
    if os.path.exists(harness):
        res, order = read_ktap(harness)
        bad = [c for c in order if res[c][0] != "pass"]
        print("harness self-test (scripts/harness-selftest.py): %d checks, "
              "%d failed" % (len(order), len(bad)))
        npass += len(order) - len(bad)
        nfail += len(bad)
        named += ["FAILED harness-selftest %s" % c for c in bad]
    elif "stock" in a.variants:
        nfail += 1
        named.append("FAILED harness-selftest: no results")
    print()
    for n in named:
        print(n)
    print("%d passed, %d failed, %d skipped" % (npass, nfail, nskip))
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
