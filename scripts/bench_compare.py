#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Side by side: per-call overhead on the patched kernel relative to stock,
from build/results/bench-{stock,patched}-ARCH.json (one make bench run)."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(os.environ.get("BUILD_DIR",
                                      os.path.join(ROOT, "build")), "results")


def main():
    arch = sys.argv[1]
    res = {}
    for v in ("stock", "patched"):
        with open(os.path.join(RESULTS, "bench-%s-%s.json" % (v, arch))) as f:
            res[v] = json.load(f)
    lines = ["# %s: overhead per call (guest ns, -icount), patched vs stock"
             % arch,
             "%-10s %12s %12s %16s" % ("program", "stock", "patched",
                                       "patched/stock")]
    for m in ("fentry", "fentry.s", "fexit", "fmod_ret", "kprobe"):
        s = res["stock"]["overhead_ns"].get(m)
        p = res["patched"]["overhead_ns"].get(m)
        cell = lambda x, v: "%.1f" % x if x is not None else \
            "n/a" if m not in res[v]["errors"] else "no attach"
        ratio = "%.2f" % (p / s) if s and p else "-"
        lines.append("%-10s %12s %12s %16s" % (m, cell(s, "stock"),
                                               cell(p, "patched"), ratio))
    for v in ("stock", "patched"):
        for m, e in sorted(res[v]["errors"].items()):
            lines.append("# %s %s: %s" % (v, m, e))
    out = os.path.join(RESULTS, "bench-compare-%s.txt" % arch)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
