#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Markdown tables of build/results/*.ktap, for the README and reports.

Prints one row per result file of the two suites (passed, failed,
expected failures, skipped), the conformance, distro-check, quilt,
libbpf-glue, harness self-test and mutants results when their KTAP exists, and
the line "N passed, M failed, K skipped" counted as scripts/summary.py
counts it (expected failures with skipped).  --cases adds the case x
column table.  Every figure printed is read from a KTAP file: the dates
are the files' "# date:" headers, and what a file does not say is not
printed.

  results-table.py [--short] [--cases] [--runs "MODE:VARIANT:ARCH ..."]
  results-table.py --tools [--tools-out DIR]

--tools prints, per architecture, one row per Debian tool of the tools
suite: the path it took on the stock and the patched kernel (fentry, the
kprobe fallback, or none), its result and what it reported, as the tools
guest wrote them; --tools-out also writes each table to
DIR/tools-table-ARCH.md.

--short prints one row per kernel and boot instead, one column per suite,
for the README.

Without --runs every result file found is shown, and those of the stock
and patched kernels (make test's) are counted.  With --runs (the QEMU runs
as scripts/run-boots.sh takes them) only those are counted, and one that
has no results counts as a failure, as in summary.py (so do the other
results above when a stock run is given).
"""
import argparse
import json
import os
import re
import signal
import sys

from summary import read_ktap  # scripts/summary.py, next to this
from vm import SUITES, boots_of  # scripts/vm.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(os.environ.get("BUILD_DIR",
                                      os.path.join(ROOT, "build")), "results")
ARCHS = ["x86_64", "arm64", "riscv64"]
# The kernels make test runs and summary.py counts; other variants (kasan,
# bti, nomodrwx) are shown but not counted.
COUNTED = ["stock", "patched"]
MODE_OF = {"sleeptest": "test", "kselftest": "kselftest", "tools": "tools"}
# The other results make test writes, as summary.py prints and counts
# them: title, and whether anything but a pass is a failure.
OTHERS = {
    "distro-check": ("distro-check (Debian's 6.1 configs, -Werror)", True),
    "quilt": ("quilt (make quilt applied to the pristine tree)", False),
    "libbpf-glue": ("libbpf-glue (headers, install, pkg-config)", False),
    "harness-selftest": ("harness self-test (scripts/harness-selftest.py)",
                         True),
    "mutants": ("mutants (make mutants: each one the conformance suite "
                "must fail)", True),
}
# The ones with too many checks to name: how many, how many not passed.
COUNTED_ONLY = {"harness-selftest": "checks", "mutants": "mutants"}
LABEL = {"pass": "ok", "fail": "FAIL", "xfail": "xfail", "skip": "skip"}


def headers(path):
    """The KTAP header comments before the plan line, as (key, value)."""
    out = []
    for line in open(path):
        if re.match(r"^1\.\.\d+", line):
            break
        m = re.match(r"^# ([a-z-]+): (.*)$", line.rstrip("\n"))
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def comments_by_case(path):
    """The '# ...' lines that precede each case line, by case name."""
    out = {}
    pending = []
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^(?:not ok|ok) \d+ (\S+)", line)
        if m:
            out[m.group(1)] = pending
            pending = []
        elif line.startswith("# "):
            pending.append(line[2:])
    return out


def short_date(iso):
    m = re.match(r"^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)", iso)
    return "%s %s" % (m.group(1), m.group(2)) if m else iso


def cell(s):
    return str(s).replace("|", "\\|")


def row(cells):
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def table(head, rows):
    print(row(head))
    print("|" + "---|" * len(head))
    for r in rows:
        print(row(r))


def split_name(f):
    """(suite, variant, boot, arch) of a suite's result file, or None."""
    base = f[:-len(".ktap")]
    if base.startswith("conformance-") or base in OTHERS:
        return None
    for suite, (prefix, _) in SUITES.items():
        if prefix and not base.startswith(prefix):
            continue
        rest = base[len(prefix):]
        m = re.match(r"^([a-z0-9]+)(-[a-z0-9-]+)?-(%s)$" % "|".join(ARCHS),
                     rest)
        if m and (prefix or not any(p and base.startswith(p)
                                    for p, _ in SUITES.values())):
            return suite, m.group(1), m.group(2) or "", m.group(3)
    return None


def order_key(f):
    suite, v, boot, arch = f
    vs = COUNTED.index(v) if v in COUNTED else len(COUNTED)
    return (list(SUITES).index(suite), ARCHS.index(arch), vs, v, boot)


def counts(res):
    n = {"pass": 0, "fail": 0, "xfail": 0, "skip": 0}
    for status, _ in res.values():
        n[status] += 1
    return n


def bench_lines():
    """The final line of each architecture's last make bench
    (bench-ARCH.txt, which make test leaves alone), with the commits its
    result files name and any goal it missed."""
    out = []
    for arch in ARCHS:
        path = os.path.join(RESULTS, "bench-%s.txt" % arch)
        if not os.path.exists(path):
            continue
        lines = open(path).read().splitlines()
        final = [x for x in lines if x.startswith("bench %s:" % arch)]
        missed = [x[len("# goal "):-len(": MISSED")] for x in lines
                  if x.startswith("# goal ") and x.endswith("MISSED")]
        commits = []
        for f in sorted(os.listdir(RESULTS)):
            if f.startswith("bench-bench-") and f.endswith("-%s.json" % arch):
                with open(os.path.join(RESULTS, f)) as j:
                    c = json.load(j).get("commit", "unknown")
                if c not in commits:
                    commits.append(c)
        out.append((arch, final[0] if final else "bench %s: no final line"
                    % arch, commits, missed))
    return out


def tool_cell(res, notes, tool):
    """A tools-suite case as the per-tool table shows it: the path and
    links the guest reported, the result, what the tool's output showed
    or why it failed.  The bpftrace cases share the line of the first."""
    if tool not in res:
        return "-"
    status, why = res[tool]
    name = "bpftrace" if tool.startswith("bpftrace_") else tool
    lines = [n for c in notes for n in notes[c]
             if c == tool or name == "bpftrace" and c.startswith(name)]
    path, report = "path not reported", ""
    for n in lines:
        m = re.match(r"^%s: path (\S+?)(?: \((\d+) links?\))?, exit "
                     r"(\d+),? ?(.*)$" % name, n)
        if m:
            path = "%s%s, exit %s" % (
                m.group(1), " (%s links)" % m.group(2) if m.group(2)
                else "", m.group(3))
            report = m.group(4)
            break
        if n.startswith(name + ": not installed"):
            path = "not installed"
            break
    text = "%s: %s" % (path, LABEL[status])
    if status in ("xfail", "skip") and why:
        text += " (%s)" % why
    elif report:
        text += ", " + report
    return text


def is_tool(tool, notes):
    """A case of a Debian tool, not one of the boot's own checks."""
    return tool.startswith("bpftrace_") or any(
        n.startswith(tool + ": ") for n in notes.get(tool, []))


def tools_tables(out_dir):
    """Per architecture: tool, stock, patched (make tools' results)."""
    printed = 0
    for arch in ARCHS:
        cols = {}
        for v in COUNTED:
            path = os.path.join(RESULTS, "%s%s-%s.ktap" % (
                SUITES["tools"][0], v, arch))
            if os.path.exists(path):
                res, order = read_ktap(path)
                cols[v] = (res, order, comments_by_case(path),
                           dict(headers(path)))
        if not cols:
            continue
        tools = []
        for res, order, notes, _ in cols.values():
            for c in order:
                if c not in tools and is_tool(c, notes):
                    tools.append(c)
        lines = ["Debian's BPF tools on %s (`make tools`): the path each "
                 "took and its result." % arch, ""]
        for v, (_, _, _, h) in cols.items():
            lines.append("- %s: %s, %s" % (v, h.get("commit", "commit not "
                                                    "recorded"),
                                          short_date(h.get("date", "-"))))
        lines += ["", row(["tool"] + list(cols)),
                  "|" + "---|" * (len(cols) + 1)]
        for t in tools:
            lines.append(row([t] + [tool_cell(r, n, t) for r, _, n, _
                                    in cols.values()]))
        print("\n".join(lines) + "\n")
        printed += 1
        if out_dir:
            with open(os.path.join(out_dir, "tools-table-%s.md" % arch),
                      "w") as f:
                f.write("\n".join(lines) + "\n")
    if not printed:
        sys.exit("%s: no tools results (run make tools or make test)"
                 % RESULTS)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cases", action="store_true",
                   help="also the case x column table of each suite")
    p.add_argument("--short", action="store_true",
                   help="one row per kernel, one column per suite (the "
                   "README's table)")
    p.add_argument("--runs", default="",
                   help="count only these QEMU runs (MODE:VARIANT:ARCH ...), "
                   "and a missing one as failed, as summary.py does")
    p.add_argument("--tools", action="store_true",
                   help="only the per-tool tables of Debian's tools")
    p.add_argument("--tools-out", metavar="DIR",
                   help="with --tools, also write DIR/tools-table-ARCH.md")
    a = p.parse_args()

    if not os.path.isdir(RESULTS):
        sys.exit("%s: no such directory (run make test first)" % RESULTS)
    if a.tools:
        tools_tables(a.tools_out)
        return
    files = sorted(f for f in os.listdir(RESULTS) if f.endswith(".ktap"))
    if not files:
        sys.exit("%s: no KTAP files (run make test first)" % RESULTS)
    where = os.path.relpath(RESULTS, ROOT) if \
        RESULTS.startswith(ROOT + os.sep) else RESULTS

    # The suites' files, and the columns counted.
    found = {}
    for f in files:
        s = split_name(f)
        if s:
            found[s] = os.path.join(RESULTS, f)
    runs = [r.split(":") for r in a.runs.split()]
    if runs:
        counted = [(suite, v, b[0], arch) for suite in SUITES
                   for arch in ARCHS for v in COUNTED
                   if [MODE_OF[suite], v, arch] in runs
                   for b in boots_of(arch, v, suite)]
    else:
        counted = [s for s in found if s[1] in COUNTED]
    cols = sorted(set(found) | set(counted), key=order_key)

    # Where the results came from, as their headers say.
    dates = []
    seen = {}
    for f in files:
        for k, v in headers(os.path.join(RESULTS, f)):
            if k == "date":
                dates.append(v)
            elif k in ("commit", "source", "kernel", "qemu"):
                seen.setdefault(k, [])
                if v not in seen[k]:
                    seen[k].append(v)
    print("Results in `%s`: %d KTAP files." % (where, len(files)))
    if dates:
        first, last = short_date(min(dates)), short_date(max(dates))
        if first[:10] == last[:10]:
            last = last[11:]
        print("Run dates (the files' `# date:` headers, UTC): %s to %s." % (
            first, last))
    else:
        print("Run dates: not recorded in the KTAP headers.")
    if "commit" in seen:
        print("Commit: %s." % ", ".join(seen["commit"]))
    else:
        print("Commit: not recorded in the KTAP headers.")
    for k, title in (("source", "Kernel source"), ("kernel", "Kernel"),
                     ("qemu", "QEMU")):
        if k in seen:
            print("%s: %s." % (title, "; ".join(seen[k])))
    print()

    npass = nfail = nskip = 0
    named = []

    def add(where, res, strict=False):
        """Count as summary.py does; strict: anything but a pass fails
        (distro-check, harness self-test)."""
        nonlocal npass, nfail, nskip
        for c, (status, why) in res.items():
            if status == "pass":
                npass += 1
            elif status == "fail" or strict:
                nfail += 1
                named.append("FAILED %s %s" % (where, c))
            else:
                nskip += 1

    # (a) one row per result file of the suites
    rows = []
    tables = {}
    for col in cols:
        suite, v, boot, arch = col
        name = "%s%s%s-%s" % (SUITES[suite][0], v, boot, arch)
        path = found.get(col)
        note = "" if col in counted else " (not counted)"
        if not path:
            rows.append([suite, arch, v + boot + note, "-", "no results",
                         "", "", ""])
            nfail += 1
            named.append("FAILED %s: no results" % name)
            continue
        res, order = read_ktap(path)
        tables[col] = (res, order)
        n = counts(res)
        date = dict(headers(path)).get("date")
        rows.append([suite, arch, v + boot + note,
                     short_date(date) if date else "-",
                     n["pass"], n["fail"], n["xfail"], n["skip"]])
        if col in counted:
            add("%s%s/%s" % (SUITES[suite][0], arch, v + boot), res)
    if rows and a.short:
        # One row per kernel and boot, one column per suite:
        # passed / failed / expected failures and skipped.
        kernels = []
        for suite, v, boot, arch in cols:
            if (arch, v + boot) not in kernels:
                kernels.append((arch, v + boot))
        suites = [s for s in SUITES if any(c[0] == s for c in cols)]
        short = []
        for arch, vb in kernels:
            r = ["%s %s%s" % (arch, vb, "" if any(
                c in counted for c in cols
                if (c[3], c[1] + c[2]) == (arch, vb)) else " (not counted)")]
            for suite in suites:
                col = [c for c in cols if c[0] == suite and
                       (c[3], c[1] + c[2]) == (arch, vb)]
                if not col:
                    r.append("-")
                elif col[0] not in tables:
                    r.append("no results")
                else:
                    n = counts(tables[col[0]][0])
                    r.append("%d / %d / %d" % (n["pass"], n["fail"],
                                                n["xfail"] + n["skip"]))
            short.append(r)
        table(["kernel"] + suites, short)
        print()
        print("Cells: passed / failed / expected failures and skipped.  "
              + "; ".join("%s: %s" % (s, SUITES[s][1]) for s in suites)
              + ".")
        print()
    elif rows:
        table(["suite", "arch", "variant/boot", "date (UTC)", "passed",
               "failed", "expected failures", "skipped"], rows)
        print()
        for suite, (prefix, title) in SUITES.items():
            print("- %s: %s, files `%s<variant>-<arch>.ktap`" % (
                suite, title, prefix))
        if any(c not in counted for c in cols):
            print("- (not counted): %s, so not in the line below" % (
                "not one of the runs given" if runs else
                "not a stock or patched kernel (make test runs those)"))
        print()

    # (b) conformance, distro-check, quilt, harness self-test
    def conf_arch(f):
        return f[len("conformance-"):-len(".ktap")]

    conf = sorted((f for f in files if f.startswith("conformance-")),
                  key=lambda f: (ARCHS.index(conf_arch(f))
                                 if conf_arch(f) in ARCHS else len(ARCHS), f))
    if conf:
        parts = []
        rows = []
        for f in conf:
            path = os.path.join(RESULTS, f)
            res, order = read_ktap(path)
            add(f[:-5], res)
            sub = {}
            total = None
            for line in open(path):
                m = re.match(r"^# (?:(\S+): )?(\d+) passed, (\d+) failed",
                             line)
                if not m:
                    continue
                figure = m.group(2) if m.group(3) == "0" else \
                    "%s passed, %s failed" % (m.group(2), m.group(3))
                if m.group(1):
                    sub[m.group(1)] = figure
                    if m.group(1) not in parts:
                        parts.append(m.group(1))
                else:
                    total = figure
            rows.append((conf_arch(f), sub, total, res, order))
        if a.short:
            print("- conformance: " + ", ".join(
                "%s %s checks (%d of %d cases ok)" % (
                    arch, total or "-",
                    sum(1 for c in order if res[c][0] == "pass"), len(order))
                for arch, sub, total, res, order in rows))
        else:
            table(["conformance", "cases"] + parts + ["checks"],
                  [[arch, "%d of %d ok" % (
                      sum(1 for c in order if res[c][0] == "pass"),
                      len(order))] +
                   [sub.get(s, "-") for s in parts] + [total or "-"]
                   for arch, sub, total, res, order in rows])
            print()

    def one_line(name, title, strict):
        path = os.path.join(RESULTS, name + ".ktap")
        if not os.path.exists(path):
            return False
        res, order = read_ktap(path)
        notes = comments_by_case(path)
        items = []
        for c in order:
            detail = []
            for n in notes.get(c, []):
                if re.match(r"^\d+ objects", n):
                    detail.append(n.split(": ")[0])
                elif n.startswith("result kept from"):
                    detail.append(n.split(", same inputs")[0])
                elif re.match(r"^(quilt push|\d+ files compared)", n):
                    detail.append(n)
            items.append("%s %s%s" % (c, LABEL[res[c][0]],
                                      " (%s)" % "; ".join(detail)
                                      if detail else ""))
        add(name, res, strict)
        print("- %s: %s" % (title, ", ".join(items)))
        return True

    have = []
    for name, (title, strict) in OTHERS.items():
        if name in COUNTED_ONLY:
            path = os.path.join(RESULTS, name + ".ktap")
            if os.path.exists(path):
                res, order = read_ktap(path)
                bad = [c for c in order if res[c][0] != "pass"]
                print("- %s: %d %s, %d failed" % (title, len(order),
                                                   COUNTED_ONLY[name],
                                                   len(bad)))
                add(name, res, strict)
                have.append(name)
        elif one_line(name, title, strict):
            have.append(name)
    if runs and any(r[1] == "stock" for r in runs):
        for name in OTHERS:
            if name not in have:
                nfail += 1
                named.append("FAILED %s: no results" % name)
    unknown = [f for f in files if not split_name(f) and
               not f.startswith("conformance-") and
               f[:-5] not in OTHERS]
    for f in unknown:
        print("- %s: not a result file this script knows, not counted" % f)

    # (c) the overall line
    print()
    print("**%d passed, %d failed, %d skipped** (expected failures counted "
          "with skipped, as scripts/summary.py does%s)" % (
              npass, nfail, nskip,
              "; runs: " + a.runs if runs else
              "; every stock and patched result file found"))
    for n in named:
        print("- %s" % n)

    # (d) the case x column tables
    bench = bench_lines()
    if bench:
        print()
        print("Benchmark (the last `make bench` of each architecture, "
              "from `bench-ARCH.txt`):")
        print()
        print("```")
        for _, final, _, _ in bench:
            print(final)
        print("```")
        print()
        for arch, _, commits, missed in bench:
            print("- %s: commit %s; %s" % (
                arch, ", ".join(commits) or "not recorded",
                "goals missed: " + "; ".join(missed) if missed
                else "every goal met"))

    if a.cases:
        for suite, (prefix, title) in SUITES.items():
            sc = [c for c in cols if c[0] == suite]
            if not sc:
                continue
            cases = []
            for c in sc:
                if c in tables:
                    for name in tables[c][1]:
                        if name not in cases:
                            cases.append(name)
            print()
            print("%s: %s" % (suite, title))
            print()
            head = ["case"] + ["%s/%s" % (c[3], c[1] + c[2]) for c in sc]
            rows = []
            for name in cases:
                r = [name]
                for c in sc:
                    if c not in tables:
                        r.append("no result")
                    else:
                        res = tables[c][0]
                        r.append(LABEL[res[name][0]] if name in res else "-")
                rows.append(r)
            table(head, rows)


if __name__ == "__main__":
    main()
