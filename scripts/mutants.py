#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make mutants: apply each source mutant of selftests/conformance/mutants
to a copy of the IR, the backends and the conformance suite, build the
suite for the mutant's architecture and run it; every mutant must make
it fail.  A mutant that survives, that no longer applies (its old text
is not in the file exactly once) or that does not compile fails the run
with its name.  Results: build/results/mutants.ktap.

The result depends only on the sources copied, the list and the cross
compilers, so it is kept in ~/.cache/sleep-tramp/mutants under a key of
those; MUTANTS_CACHE=off runs every mutant regardless."""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
RESULTS = os.path.join(BUILD, "results")
LIST = os.path.join(ROOT, "selftests", "conformance", "mutants")
# What a mutant's copy holds: the suite builds from these alone.
COPIED = ["arch-common", "arch-x86", "arch-arm64", "arch-riscv64",
          os.path.join("selftests", "conformance")]
COMPILERS = {"x86_64": "gcc", "arm64": "aarch64-linux-gnu-gcc",
             "riscv64": "riscv64-linux-gnu-gcc"}
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME",
                                    os.path.expanduser("~/.cache")),
                     "sleep-tramp", "mutants")
# A mutant that makes a trampoline loop forever is killed by this.
RUN_TIMEOUT = 300
T0 = time.time()


def log(msg):
    print("[mutants %3ds] %s" % (time.time() - T0, msg), flush=True)


class Mutant:
    def __init__(self, name, arch, path, lineno):
        self.name, self.arch, self.path = name, arch, path
        self.lineno = lineno
        self.old, self.new = [], []


def parse(text):
    """The mutants of the list, in order; raises ValueError on a
    malformed entry."""
    mutants = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("mutant "):
            f = line.split()
            if len(f) != 4 or f[2] not in COMPILERS:
                raise ValueError("line %d: want 'mutant NAME ARCH FILE' "
                                 "with ARCH one of %s" %
                                 (n, ", ".join(COMPILERS)))
            if any(m.name == f[1] for m in mutants):
                raise ValueError("line %d: mutant %s named twice" %
                                 (n, f[1]))
            mutants.append(Mutant(f[1], f[2], f[3], n))
        elif line[:2] in ("- ", "+ ") and mutants:
            (mutants[-1].old if line[0] == "-" else
             mutants[-1].new).append(line[2:])
        else:
            raise ValueError("line %d: not a mutant, '- old' or '+ new' "
                             "line: %r" % (n, line))
    for m in mutants:
        if not m.old:
            raise ValueError("line %d: mutant %s has no '- old' line" %
                             (m.lineno, m.name))
    return mutants


def apply(m, root):
    """Apply m to the copy at root; None, or why it cannot be applied."""
    path = os.path.join(root, m.path)
    if not any(m.path.startswith(c + "/") for c in COPIED):
        return "%s is not in the copied sources (%s)" % (m.path,
                                                         ", ".join(COPIED))
    if not os.path.exists(path):
        return "%s does not exist" % m.path
    text = open(path).read()
    old = "\n".join(m.old) + "\n"
    new = "".join(line + "\n" for line in m.new)
    count = text.count(old)
    if count != 1:
        return ("its old text occurs %d times in %s (want exactly once): "
                "the source changed, update the list" % (count, m.path))
    open(path, "w").write(text.replace(old, new))
    return None


def copy_sources(dst):
    for c in COPIED:
        shutil.copytree(os.path.join(ROOT, c), os.path.join(dst, c),
                        ignore=shutil.ignore_patterns("*.o"))


def run_suite(root, arch, out, extra=()):
    """Build and run the conformance suite of the copy at root; returns
    (what, detail): built-not, passed, failed, crashed or timed-out."""
    conf = os.path.join(root, "selftests", "conformance")
    b = subprocess.run(["make", "-s", "-C", conf, "ARCH=" + arch,
                        "O=" + out, "all"], capture_output=True, text=True)
    if b.returncode:
        return "build-failed", (b.stdout + b.stderr).strip()[-600:]
    cmd = ["make", "-s", "-C", conf, "ARCH=" + arch, "O=" + out, "run",
           "N=600", "KTAP=" + os.path.join(out, "k.ktap"),
           "ARGS=" + " ".join(("-x",) + tuple(extra))]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timed-out", "no result within %d s" % RUN_TIMEOUT
    text = (r.stdout + r.stderr).strip()
    detail = first_failure(text)
    if r.returncode == 0:
        return "passed", detail
    # make reports the suite's own exit status: 1 is a failed check, 2 a
    # set-up error; a signal (a trampoline that crashed the suite) shows
    # as make's "Error 1xx".
    m = re.search(r"Error (\d+)", text)
    code = int(m.group(1)) if m else r.returncode
    if code == 2:
        return "setup-error", detail
    return ("failed" if code == 1 else "crashed"), detail


def first_failure(text):
    """What the suite said about its first failed check: the FAIL line and
    the first line of its reason (after the shape and IR listing)."""
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if not ln.startswith("FAIL"):
            continue
        for why in lines[i + 1:]:
            if not re.match(r"shape:|  prog\d|trampoline target=|frame "
                            r"size=|prog \d+:|\s*\d+\s+\d+:|\s*\d+:",
                            why):
                return (ln + ": " + why)[:300]
        return ln[:300]
    return (lines[-1] if lines else "")[:300]


def cache_key(mutants_text):
    h = hashlib.sha256()
    h.update(mutants_text.encode())
    h.update(open(os.path.abspath(__file__), "rb").read())
    for c in COPIED:
        for d, dirs, files in sorted(os.walk(os.path.join(ROOT, c))):
            dirs.sort()
            for f in sorted(files):
                p = os.path.join(d, f)
                h.update(os.path.relpath(p, ROOT).encode())
                h.update(open(p, "rb").read())
    for cc in sorted(set(COMPILERS.values())):
        v = subprocess.run([cc, "--version"], capture_output=True,
                           text=True).stdout.splitlines()[:1]
        h.update(repr(v).encode())
    return h.hexdigest()[:20]


def one(m, work):
    root = os.path.join(work, m.name)
    copy_sources(root)
    why = apply(m, root)
    if why:
        return m, "stale", why
    what, detail = run_suite(root, m.arch, os.path.join(root, "out"))
    shutil.rmtree(root, ignore_errors=True)
    return m, what, detail


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--list", default=LIST)
    p.add_argument("--only", default="",
                   help="comma-separated mutant names (no cache)")
    p.add_argument("-j", type=int, default=os.cpu_count() or 1)
    p.add_argument("--ktap", default=os.path.join(RESULTS, "mutants.ktap"))
    a = p.parse_args()
    os.makedirs(RESULTS, exist_ok=True)
    ktap = a.ktap
    text = open(a.list).read()
    try:
        mutants = parse(text)
    except ValueError as e:
        log("%s: %s" % (a.list, e))
        with open(ktap, "w") as f:
            f.write("KTAP version 1\n1..1\n# %s\nnot ok 1 mutant_list\n" %
                    e)
        return 1
    if a.only:
        want = a.only.split(",")
        mutants = [m for m in mutants if m.name in want]
    use_cache = os.environ.get("MUTANTS_CACHE", "on") != "off" and \
        not a.only and a.list == LIST
    key = cache_key(text) if use_cache else None
    cached = os.path.join(CACHE, key + ".ktap") if key else None
    if cached and os.path.exists(cached):
        shutil.copy(cached, ktap)
        res = open(ktap).read()
        log("up to date: the %d mutants were run on these sources before "
            "(key %s): %s" % (len(mutants), key,
                              re.search(r"# (\d+ killed.*)", res).group(1)))
        return 0 if "\nnot ok " not in res else 1
    work = tempfile.mkdtemp(prefix="mutants-", dir=BUILD)
    lines = []
    try:
        # The unchanged sources must pass, or every mutant is "killed".
        base = {}
        for arch in sorted(set(m.arch for m in mutants)):
            root = os.path.join(work, "baseline-" + arch)
            copy_sources(root)
            base[arch] = run_suite(root, arch, os.path.join(root, "out"))
            log("baseline %s: %s" % (arch, base[arch][0]))
        log("%d mutants, %d at a time" % (len(mutants), a.j))
        with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            done = list(ex.map(lambda m: one(m, work), mutants))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    killed = survived = bad = 0
    for i, (m, what, detail) in enumerate(done, 1):
        ok = what in ("failed", "crashed", "timed-out") and \
            base[m.arch][0] == "passed"
        if ok:
            killed += 1
            say = "killed (%s)" % what
        elif what == "passed":
            survived += 1
            say = "SURVIVED: the %s suite passed with this change" % m.arch
        elif base[m.arch][0] != "passed":
            bad += 1
            say = "not judged: the unchanged %s suite %s" % (
                m.arch, base[m.arch][0])
        else:
            bad += 1
            say = {"stale": "does not apply",
                   "build-failed": "does not compile",
                   "setup-error": "the suite could not start"}.get(
                       what, what)
        log("%-44s %s" % (m.name, say))
        lines.append("# %s (%s, %s): %s" % (m.name, m.arch, m.path, say))
        if detail:
            lines.append("# " + detail.replace("\n", "\n# "))
        lines.append("%s %d %s" % ("ok" if ok else "not ok", i, m.name))
    total = "%d killed, %d survived, %d invalid of %d mutants" % (
        killed, survived, bad, len(done))
    with open(ktap, "w") as f:
        f.write("KTAP version 1\n# conformance-suite mutants, %s\n1..%d\n"
                % (os.path.relpath(a.list, ROOT), len(done)))
        f.write("\n".join(lines) + "\n# %s\n" % total)
        f.write("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n"
                % (killed, survived + bad))
    log(total + " -> " + os.path.relpath(ktap, ROOT))
    if cached and not survived and not bad:
        os.makedirs(CACHE, exist_ok=True)
        shutil.copy(ktap, cached)
    return 1 if survived or bad else 0


if __name__ == "__main__":
    sys.exit(main())
