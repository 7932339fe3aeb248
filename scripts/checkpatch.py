#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the 6.1 tree's checkpatch.pl --strict on every exported patch.

Findings are failures unless checkpatch-exceptions lists their type and
file with a reason; listed ones are still printed, as expected."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))


def exceptions():
    ex = {}
    path = os.path.join(ROOT, "checkpatch-exceptions")
    for line in open(path) if os.path.exists(path) else []:
        line = line.strip()
        if line and not line.startswith("#"):
            typ, f, reason = line.split(None, 2)
            ex[(typ, f)] = reason
    return ex


def main():
    d = sys.argv[1]
    ex = exceptions()
    tree = os.path.join(BUILD, "stock", "linux")
    patches = sorted(p for p in os.listdir(d)
                     if re.match(r"^(v\d+-)?\d{4}-.*\.patch$", p)
                     and "0000-cover-letter" not in p)
    bad = 0
    for p in patches:
        full = subprocess.run(["perl", "scripts/checkpatch.pl", "--strict",
                               "--no-tree", "--show-types",
                               os.path.join(d, p)], cwd=tree,
                              capture_output=True, text=True).stdout
        findings = re.findall(r"^(ERROR|WARNING|CHECK):(\w+): (.*)\n"
                              r"(?:#\d+: FILE: ([^:]+):(\d+):)?", full, re.M)
        unexpected = []
        for level, typ, msg, f, ln in findings:
            where = "%s:%s" % (f, ln) if f else "commit message"
            if (typ, f or "-") in ex:
                print("checkpatch: %s: expected %s %s at %s (%s)"
                      % (p, level, typ, where, ex[(typ, f or "-")]))
            else:
                unexpected.append("%s:%s at %s: %s" % (level, typ, where,
                                                      msg))
        if unexpected:
            bad += 1
            print("checkpatch: %s:" % p)
            for u in unexpected:
                print("  " + u)
    print("checkpatch: %d patch(es), %d with unexpected findings"
          % (len(patches), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
