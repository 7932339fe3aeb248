#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The series as Debian carries kernel patches: quilt patches with DEP-3
headers under debian/patches/, and a check that they give the patched tree.

  quilt.py export OUTDIR   OUTDIR/debian/patches/sleep-tramp/*.patch and
                           OUTDIR/debian/patches/series
  quilt.py check OUTDIR    export, then "quilt push -a" on the pristine
                           files the series touches, and compare every
                           file with the series tip; KTAP in
                           build/results/quilt.ktap

The Debian kernel package keeps its patches in subdirectories of
debian/patches (bugfix/, features/, debian/); ours go in sleep-tramp/, and
the series lines can be appended to the package's own series file.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import source  # noqa: E402  (scripts/source.py)

SUBDIR = "sleep-tramp"


def git(args, **kw):
    return source.git(args, **kw).stdout


def commits():
    return git(["rev-list", "--reverse", "pristine..series"]).split()


def last_update(p):
    """The date of the project's last commit touching this patch's
    sources (its message, diffs and added files)."""
    files = [p["body"]] if p["body"] else []
    files += [src for _, src, _, _ in p["ops"]]
    out = subprocess.run(["git", "log", "-1", "--format=%cs", "--"] + files,
                         cwd=source.ROOT, capture_output=True,
                         text=True).stdout.strip()
    return out or time.strftime("%Y-%m-%d")


def dep3_header(p, number, total):
    """DEP-3 fields: the commit message as Description (first line the
    subject, the rest indented, blank lines as " ."); Forwarded and
    Applied-Upstream from the patch's forwarded and upstream lines in
    ./series."""
    msg = source.commit_message(p).rstrip("\n").split("\n")
    desc = ["Description: %s" % msg[0]]
    for line in msg[1:]:
        desc.append(" " + line if line.strip() else " .")
    while desc[1:] and desc[1] == " .":
        del desc[1]
    fields = ["Author: %s <%s>" % source.AUTHOR,
              "Origin: other, sleepable trampolines series v%d, patch %d/%d"
              % (source.series_version(), number, total)]
    if p.get("upstream"):
        # Upstream made this fix itself: nothing to forward, and the patch
        # goes when the kernel reaches that release.
        ver, ids = p["upstream"]
        fields += ["Forwarded: not-needed",
                   "Applied-Upstream: %s, %s"
                   % (ver, ", ".join("commit:" + i for i in ids))]
    else:
        fields.append("Forwarded: %s" % (p.get("forwarded") or "no"))
    return "\n".join(desc + fields + [
        "Last-Update: %s" % last_update(p),
        "---", ""])


def export(outdir):
    source.prepare()
    patches = source.parse_series()
    ids = commits()
    if len(ids) != len(patches):
        source.die("series has %d patches, the tree %d commits"
                   % (len(patches), len(ids)))
    top = os.path.join(outdir, "debian", "patches")
    shutil.rmtree(os.path.join(outdir, "debian"), ignore_errors=True)
    os.makedirs(os.path.join(top, SUBDIR))
    names = []
    for i, (p, c) in enumerate(zip(patches, ids), 1):
        name = "%s/%04d-%s.patch" % (SUBDIR, i, p["name"])
        diff = git(["show", "--format=", "--stat=72", "--no-renames",
                    "-p", c])
        with open(os.path.join(top, name), "w") as f:
            f.write(dep3_header(p, i, len(patches)) + diff.lstrip("\n"))
        names.append(name)
    with open(os.path.join(top, "series"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    return top, names


def touched_files():
    return git(["diff", "--name-only", "--no-renames", "pristine",
                "series"]).split()


def verify(outdir, names):
    """Apply OUTDIR/debian/patches with quilt to the pristine files the
    series touches: [(check, ok, diagnostics)]."""
    results = []
    files = touched_files()
    in_pristine = set(git(["ls-tree", "-r", "--name-only", "pristine",
                           "--"] + files).split())
    work = tempfile.mkdtemp(prefix="quilt-check-")
    try:
        # The pristine versions of the files the series touches: quilt
        # needs only those, and the rest of the tree is the same by
        # construction.
        if in_pristine:
            arch = subprocess.run(["git", "archive", "pristine", "--"]
                                  + sorted(in_pristine), cwd=source.STOCK,
                                  capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", work], input=arch, check=True)
        shutil.copytree(os.path.join(outdir, "debian"),
                        os.path.join(work, "debian"))
        env = dict(os.environ, QUILT_PATCHES="debian/patches",
                   QUILT_PC=".pc")
        q = subprocess.run(["quilt", "push", "-a", "--fuzz=0"], cwd=work,
                           env=env, capture_output=True, text=True)
        ok = q.returncode == 0
        results.append(("quilt_push_all", ok,
                        ["# quilt push -a --fuzz=0: %d patches, exit %d"
                         % (len(names), q.returncode)] +
                        (["#   " + x for x in
                          (q.stdout + q.stderr).splitlines()[-20:]]
                         if not ok else [])))
        differ = []
        for f in files:
            path = os.path.join(work, f)
            want = git(["ls-tree", "series", "--", f]).split()
            if not want:   # deleted by the series
                if os.path.exists(path):
                    differ.append("%s: still there" % f)
                continue
            if not os.path.exists(path):
                differ.append("%s: missing" % f)
                continue
            got = subprocess.run(["git", "hash-object", path],
                                 cwd=source.STOCK, capture_output=True,
                                 text=True).stdout.strip()
            if got != want[2]:
                differ.append("%s: content differs" % f)
        extra = []
        for d, subdirs, fs in os.walk(work):
            rel = os.path.relpath(d, work)
            if rel.split(os.sep)[0] in ("debian", ".pc"):
                continue
            extra += [os.path.normpath(os.path.join(rel, x)) for x in fs
                      if os.path.normpath(os.path.join(rel, x)) not in files]
        differ += ["%s: not in the series" % x for x in sorted(extra)]
        results.append(("quilt_tree_matches_series", ok and not differ,
                        ["# %d files compared with the series tip %s"
                         % (len(files), git(["rev-parse", "--short=12",
                                             "series"]).strip())] +
                        ["#   " + x for x in differ[:20]]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results


def check(outdir):
    t0 = time.time()
    top, names = export(outdir)
    results = verify(outdir, names)
    res_dir = os.path.join(source.BUILD, "results")
    os.makedirs(res_dir, exist_ok=True)
    path = os.path.join(res_dir, "quilt.ktap")
    with open(path, "w") as f:
        f.write("KTAP version 1\n# make quilt: the series as "
                "debian/patches, applied with quilt to the pristine tree\n")
        f.write("1..%d\n" % len(results))
        for i, (name, ok, diag) in enumerate(results, 1):
            f.write("".join(d + "\n" for d in diag))
            f.write("%s %d %s\n" % ("ok" if ok else "not ok", i, name))
        nbad = sum(not ok for _, ok, _ in results)
        f.write("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n"
                % (len(results) - nbad, nbad))
    bad = [n for n, ok, _ in results if not ok]
    print("[quilt %3.0fs] %d patches in %s; %s -> %s"
          % (time.time() - t0, len(names), os.path.relpath(top),
             "FAILED " + ", ".join(bad) if bad else
             "quilt push -a gives the series tip", os.path.relpath(path)))
    return 1 if bad else 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("export", "check"):
        source.die(__doc__)
    if sys.argv[1] == "export":
        top, names = export(sys.argv[2])
        for n in names:
            print(os.path.join(top, n))
        return 0
    return check(sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
