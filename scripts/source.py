#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Kernel source trees for the stock and patched variants.

The pristine Debian linux-source-6.1 tarball is extracted once into a git
repository (build/stock/linux, commit tagged "pristine").  The patched tree is
a git worktree of the same repository (build/patched/linux) whose HEAD is the
tip of our series, one commit per patch, built with git plumbing on a
temporary index.  Moving the worktree from one tip to the next only rewrites
the files that differ, so kbuild rebuilds only what a change touched.

The upstream tree (build/upstream/linux, make bench only) is Debian's
linux-source-6.12, extracted as it is.

Usage: source.py prepare | upstream | series-tip | export OUTDIR | commits
"""
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
TARBALL = "/usr/src/linux-source-6.1.tar.xz"
STOCK = os.path.join(BUILD, "stock", "linux")
PATCHED = os.path.join(BUILD, "patched", "linux")
UPSTREAM_PKG = "linux-source-6.12"
UPSTREAM = os.path.join(BUILD, "upstream", "linux")
SERIES = os.path.join(ROOT, "series")
AUTHOR = ("Sleepable Trampolines Project", "sleep-tramp@example.org")
# Fixed dates keep commit ids, and so the exported series, reproducible.
DATE = "2026-01-01T00:00:00+00:00"

T0 = time.time()


def log(msg):
    print("[source %5.0fs] %s" % (time.time() - T0, msg), flush=True)


def die(msg):
    print("source: error: " + msg, file=sys.stderr, flush=True)
    sys.exit(1)


def git(args, cwd=STOCK, env=None, inp=None, check=True):
    e = dict(os.environ)
    e.update({"GIT_AUTHOR_NAME": AUTHOR[0], "GIT_AUTHOR_EMAIL": AUTHOR[1],
              "GIT_COMMITTER_NAME": AUTHOR[0],
              "GIT_COMMITTER_EMAIL": AUTHOR[1],
              "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE})
    if env:
        e.update(env)
    p = subprocess.run(["git"] + args, cwd=cwd, env=e, input=inp,
                       capture_output=True, text=True)
    if check and p.returncode:
        die("git %s failed:\n%s%s" % (" ".join(args), p.stdout, p.stderr))
    return p


def pkg_version(pkg="linux-source-6.1", tarball=TARBALL):
    p = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                       capture_output=True, text=True)
    if p.returncode or not os.path.exists(tarball):
        die("%s missing: install Debian's %s (make deps does it)"
            % (tarball, pkg))
    return p.stdout.strip()


def kernel_version(tree):
    v = {}
    with open(os.path.join(tree, "Makefile")) as f:
        for line in f:
            m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(\S*)", line)
            if m:
                v[m.group(1)] = m.group(2)
            if len(v) == 4:
                break
    return "%s.%s.%s%s" % (v["VERSION"], v["PATCHLEVEL"], v["SUBLEVEL"],
                           v.get("EXTRAVERSION", ""))


def extract():
    """Extract the tarball into a fresh git repository (once per package)."""
    pv = pkg_version()
    stamp = os.path.join(BUILD, "stock", ".source-version")
    if os.path.exists(stamp) and open(stamp).read().strip() == pv:
        return
    log("extracting %s (linux-source-6.1 %s)" % (TARBALL, pv))
    for d in (os.path.dirname(STOCK), os.path.dirname(PATCHED)):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(STOCK)
    subprocess.run(["tar", "-xf", TARBALL, "-C", STOCK,
                    "--strip-components=1"], check=True)
    log("recording pristine tree in git")
    git(["init", "-q"])
    git(["config", "core.looseCompression", "1"])
    git(["config", "gc.auto", "0"])
    git(["add", "-A", "-f", "."])
    kv = kernel_version(STOCK)
    git(["commit", "-q", "-m", "Linux %s (Debian linux-source-6.1 %s)"
         % (kv, pv)])
    git(["tag", "pristine"])
    with open(os.path.join(BUILD, "stock", "source-version.txt"), "w") as f:
        f.write("linux %s, Debian linux-source-6.1 %s\n" % (kv, pv))
    with open(stamp, "w") as f:
        f.write(pv + "\n")


def extract_upstream():
    """Extract linux-source-6.12 as it is (once per package version)."""
    tarball = "/usr/src/%s.tar.xz" % UPSTREAM_PKG
    pv = pkg_version(UPSTREAM_PKG, tarball)
    top = os.path.dirname(UPSTREAM)
    stamp = os.path.join(top, ".source-version")
    if os.path.exists(stamp) and open(stamp).read().strip() == pv:
        return
    log("extracting %s (%s %s)" % (tarball, UPSTREAM_PKG, pv))
    shutil.rmtree(UPSTREAM, ignore_errors=True)
    os.makedirs(UPSTREAM)
    subprocess.run(["tar", "-xf", tarball, "-C", UPSTREAM,
                    "--strip-components=1"], check=True)
    with open(os.path.join(top, "source-version.txt"), "w") as f:
        f.write("linux %s, Debian %s %s\n"
                % (kernel_version(UPSTREAM), UPSTREAM_PKG, pv))
    with open(stamp, "w") as f:
        f.write(pv + "\n")
    log("upstream tree ready: %s" % UPSTREAM)


def parse_series():
    """Read the series manifest into a list of patch descriptions.

    A patch starts with "patch NAME" and then has lines:
      subject TEXT        first line of the commit message
      body FILE           rest of the commit message (project path)
      add SRC DST         copy project file SRC to kernel path DST
      diff FILE           apply a unified diff (project path) to the tree
      upstream VER ID..   upstream has the fix since release VER, by the
                          commit(s) ID (for quilt.py's DEP-3 header only)
      forwarded VALUE     DEP-3 Forwarded (quilt.py), "no" if not given
    Blank lines and lines starting with '#' are ignored.  upstream and
    forwarded change neither the commits nor their messages.
    """
    patches = []
    cur = None
    if not os.path.exists(SERIES):
        return patches
    for n, raw in enumerate(open(SERIES), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        where = "series:%d" % n
        if word == "patch":
            cur = {"name": rest, "subject": None, "body": None, "ops": [],
                   "where": where, "upstream": None, "forwarded": None}
            patches.append(cur)
            continue
        if cur is None:
            if word == "version":
                continue
            die("%s: '%s' before the first 'patch'" % (where, word))
        if word == "subject":
            cur["subject"] = rest
        elif word == "body":
            cur["body"] = rest
        elif word == "add":
            src, _, dst = rest.partition(" ")
            cur["ops"].append(("add", src, dst.strip() or None, where))
        elif word == "diff":
            cur["ops"].append(("diff", rest, None, where))
        elif word == "upstream":
            ver, *ids = rest.split() or [""]
            if not re.match(r"^\d+\.\d+$", ver) or not ids or not all(
                    re.match(r"^[0-9a-f]{12,40}$", i) for i in ids):
                die("%s: 'upstream VERSION COMMIT...' wants a release such "
                    "as 6.3 and commit ids of 12 or more hex digits" % where)
            cur["upstream"] = (ver, ids)
        elif word == "forwarded":
            if not rest:
                die("%s: 'forwarded' needs a value" % where)
            cur["forwarded"] = rest
        else:
            die("%s: unknown keyword '%s'" % (where, word))
    for p in patches:
        if not p["subject"]:
            die("%s: patch %s has no subject" % (p["where"], p["name"]))
    return patches


def series_version():
    """The series' version ("version N" before the first patch), or 1."""
    for raw in open(SERIES) if os.path.exists(SERIES) else []:
        word, _, rest = raw.strip().partition(" ")
        if word == "version":
            return int(rest)
        if word == "patch":
            break
    return 1


TRAILER = re.compile(r"^[A-Z][A-Za-z-]+: \S")


def commit_message(p):
    msg = p["subject"] + "\n"
    if p["body"]:
        path = os.path.join(ROOT, p["body"])
        if not os.path.exists(path):
            die("%s: body file %s missing" % (p["where"], p["body"]))
        msg += "\n" + open(path).read().rstrip() + "\n"
    if "Signed-off-by:" not in msg:
        # Into the trailer block the body ends with (Fixes:), if any.
        last = msg.rstrip("\n").split("\n\n")[-1].split("\n")
        sep = "" if p["body"] and all(TRAILER.match(x) for x in last) \
            else "\n"
        msg += sep + "Signed-off-by: %s <%s>\n" % AUTHOR
    return msg


def trailers(p):
    """The Fixes: lines of a patch's message."""
    return [x for x in commit_message(p).splitlines()
            if x.startswith("Fixes: ")]


def base_description():
    """The base tree in words: the Debian package and the upstream release
    it carries."""
    pv = pkg_version()
    kv = kernel_version(STOCK)
    return textwrap.fill(
        "Base: Debian's linux-source-6.1 %s, which is upstream v%s with "
        "Debian's own patches, as /usr/src/linux-source-6.1.tar.xz ships "
        "it.  scripts/source.py commits that tree as it is; base-commit "
        "below names that commit, made reproducibly from the package, not "
        "a commit of upstream's history." % (pv, kv), 72)


def reflow(par):
    """A paragraph wrapped at 72 columns again after the patch numbers went
    in; a list ("- " items) item by item."""
    def join(text):   # one line, two spaces after a sentence kept
        return re.sub(r"\s*\n\s*", " ", re.sub(r"\.\n", ".  ", text))

    items = re.split(r"\n(?=- )", par)
    if len(items) == 1 and not par.startswith("- "):
        return textwrap.fill(join(par), 72)
    return "\n".join(textwrap.fill(join(it), 72, subsequent_indent="  ")
                     for it in items)


def suite_case_count():
    """How many cases our suite's table (selftests/sleeptest.c) holds."""
    src = open(os.path.join(ROOT, "selftests", "sleeptest.c")).read()
    m = re.search(r"^static const struct test_case cases\[\] = \{\n(.*?)^\};",
                  src, re.M | re.S)
    if not m:
        die("selftests/sleeptest.c: no cases[] table")
    return len(re.findall(r'\{ "\w+",', m.group(1)))


def cover_letter():
    """Subject and body of the cover letter, from cover-letter.txt with the
    patch numbers, base and patch list filled in from ./series."""
    patches = parse_series()
    num = {p["name"]: i for i, p in enumerate(patches, 1)}

    def number(m):
        a, _, b = m.group(1).partition("..")
        for name in (a, b) if b else (a,):
            if name not in num:
                die("cover-letter.txt: no patch named %s in series" % name)
        return "%d-%d" % (num[a], num[b]) if b else str(num[a])

    lines = [x for x in open(os.path.join(ROOT, "cover-letter.txt"))
             .read().splitlines() if not x.startswith("#")]
    listing = ["The patches, and the commits whose bugs they fix:"]
    for i, p in enumerate(patches, 1):
        listing.append("  %2d/%d %s" % (i, len(patches), p["subject"]))
        listing += ["        " + f for f in trailers(p)]
    body = re.sub(r"\{#([\w.-]+)\}", number, "\n".join(lines[1:]).strip())
    body = "\n\n".join(reflow(par) for par in body.split("\n\n"))
    body = body.replace("{CASES}", str(suite_case_count()))
    body = body.replace("{BASE}", base_description())
    body = body.replace("{LIST}", "\n".join(listing))
    return lines[0].strip(), body


def build_series():
    """Commit every patch of the series on top of 'pristine'; return tip."""
    index = os.path.join(BUILD, "stock", "series.index")
    env = {"GIT_INDEX_FILE": index}
    if os.path.exists(index):
        os.unlink(index)
    git(["read-tree", "pristine"], env=env)
    parent = git(["rev-parse", "pristine^{commit}"]).stdout.strip()
    for p in parse_series():
        for op, src, dst, where in p["ops"]:
            path = os.path.join(ROOT, src)
            if not os.path.exists(path):
                die("%s: %s does not exist" % (where, src))
            if op == "add":
                if not dst:
                    die("%s: 'add %s' needs a kernel path" % (where, src))
                blob = git(["hash-object", "-w", path]).stdout.strip()
                mode = "100755" if os.access(path, os.X_OK) else "100644"
                git(["update-index", "--add", "--cacheinfo",
                     "%s,%s,%s" % (mode, blob, dst)], env=env)
            else:
                r = git(["apply", "--cached", "-v", path], env=env,
                        check=False)
                if r.returncode:
                    die("patch %s: %s does not apply to the tree:\n%s%s"
                        % (p["name"], src, r.stdout, r.stderr))
        tree = git(["write-tree"], env=env).stdout.strip()
        parent = git(["commit-tree", tree, "-p", parent],
                     inp=commit_message(p)).stdout.strip()
    os.unlink(index)
    git(["update-ref", "refs/heads/series", parent])
    return parent


def prepare():
    extract()
    tip = build_series()
    if not os.path.exists(os.path.join(PATCHED, ".git")):
        log("creating the patched worktree")
        shutil.rmtree(PATCHED, ignore_errors=True)
        os.makedirs(os.path.dirname(PATCHED), exist_ok=True)
        git(["worktree", "prune"])
        git(["worktree", "add", "-q", "--detach", PATCHED, tip])
    head = git(["rev-parse", "HEAD"], cwd=PATCHED).stdout.strip()
    if head != tip:
        n = git(["rev-list", "--count", "pristine.." + tip]).stdout.strip()
        log("patched tree -> series tip %s (%s patches)" % (tip[:12], n))
        git(["checkout", "-q", "--detach", "-f", tip], cwd=PATCHED)
    dirty = git(["status", "--porcelain", "-uno"], cwd=PATCHED).stdout
    if dirty.strip():
        log("restoring files edited by hand in the patched tree")
        git(["checkout", "-q", "-f", tip], cwd=PATCHED)
    if not os.path.exists(os.path.join(BUILD, "patched",
                                       "source-version.txt")):
        shutil.copy(os.path.join(BUILD, "stock", "source-version.txt"),
                    os.path.join(BUILD, "patched", "source-version.txt"))


def export(outdir):
    prepare()
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    n = int(git(["rev-list", "--count", "pristine..series"]).stdout)
    if n == 0:
        log("the series is empty: nothing to export")
        return
    git(["format-patch", "-q", "--no-signature", "--cover-letter" if n > 1
         else "--no-cover-letter", "--subject-prefix=PATCH 6.1",
         "-v%d" % series_version(), "--base=pristine", "-o", outdir,
         "pristine..series"])
    covers = [f for f in os.listdir(outdir) if "0000-cover-letter" in f]
    if covers:
        cover = os.path.join(outdir, covers[0])
        subject, body = cover_letter()
        text = open(cover).read()
        text = text.replace("*** SUBJECT HERE ***", subject)
        text = text.replace("*** BLURB HERE ***", body)
        open(cover, "w").write(text)
    for f in sorted(os.listdir(outdir)):
        print(os.path.join(outdir, f))


def main():
    if len(sys.argv) < 2:
        die(__doc__)
    cmd = sys.argv[1]
    if cmd == "prepare":
        prepare()
    elif cmd == "upstream":
        extract_upstream()
    elif cmd == "series-tip":
        extract()
        print(build_series())
    elif cmd == "commits":
        prepare()
        print(git(["rev-list", "--reverse", "pristine..series"]).stdout,
              end="")
    elif cmd == "export":
        export(sys.argv[2])
    else:
        die("unknown command " + cmd)


if __name__ == "__main__":
    main()
