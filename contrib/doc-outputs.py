#!/usr/bin/env python3
"""Rewrites the real outputs that README.md and GUIDE.md quote, from a release binary, so that
the documents show what the tool prints today. Each quoted output is a ```text block whose first
line is the first line of a command's output; the commands are listed below. Run from the
checkout's root:  contrib/doc-outputs.py [BIN] [--check] [--screenshots]
(BIN defaults to target/release/pkadvisor; --check exits 1 when a block is out of date and
rewrites nothing; --screenshots also redraws docs/multitenant-{1400,800}.png, the README's
pictures of the HTML report, with a headless Chromium: `chromium` on the PATH, or $CHROMIUM)."""
import os
import shutil
import subprocess
import sys
import tempfile

MT = ["fixtures/multitenant/docs.ndjson", "--queries", "fixtures/multitenant/queries.ndjson"]
BLOCKS = [
    ("README.md", "3600 documents (1.6 MB)", ["analyze"] + MT),
    ("README.md", "pkadvisor migrate: /tenantId", ["migrate", "--container", "tests/data/infra/arm-nested.json"]
     + MT + ["--to", "/tenantId,/userId", "--target-storage", "60GB", "--copy-throughput", "100000"]),
    ("GUIDE.md", "FAIL  /tenantId (container events)", ["check", "--container", "tests/data/infra/arm-nested.json"]
     + MT),
]


def output(binary, args):
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    r = subprocess.run([binary] + args + ["--quiet"], capture_output=True, text=True, env=env)
    if r.returncode not in (0, 1):
        sys.exit("%s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()[-300:]))
    return r.stdout.rstrip("\n")


def screenshots(binary):
    """The multitenant fixture's HTML report at 1400 and 800 pixels wide, 1800 high."""
    browser = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("--screenshots: no chromium on the PATH (or $CHROMIUM)")
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "multitenant.html")
        subprocess.run([binary, "analyze"] + MT + ["--format", "html", "-o", page, "--quiet"], check=True)
        for width in (1400, 800):
            png = os.path.abspath("docs/multitenant-%d.png" % width)
            subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                            "--disable-dev-shm-usage", "--disable-background-networking", "--hide-scrollbars",
                            "--user-data-dir=" + os.path.join(tmp, "profile-%d" % width), "--screenshot=" + png,
                            "--window-size=%d,1800" % width, "file://" + page],
                           check=True, capture_output=True, timeout=120)
            print("drew: " + os.path.relpath(png))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv[1:]
    binary = args[0] if args else "target/release/pkadvisor"
    stale = []
    for path, first, cmd in BLOCKS:
        text = open(path, encoding="utf-8").read()
        start = text.find("```text\n" + first)
        if start < 0:
            sys.exit("%s: no ```text block starting with %r" % (path, first))
        body = start + len("```text\n")
        end = text.index("\n```", body)
        new = output(binary, cmd)
        if text[body:end] != new:
            stale.append(path + ": " + first)
            if not check:
                open(path, "w", encoding="utf-8").write(text[:body] + new + text[end:])
    for s in stale:
        print(("stale: " if check else "rewrote: ") + s)
    if "--screenshots" in sys.argv[1:] and not check:
        screenshots(binary)
    sys.exit(1 if check and stale else 0)


if __name__ == "__main__":
    main()
