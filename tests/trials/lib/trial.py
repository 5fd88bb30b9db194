"""Helpers of the trials in tests/trials: each trial is a folder with `gen.py` (writes the
workload), `VERDICT.md` (the verdict, written before the tool ever ran on it) and `check`
(runs the binary and tests each verdict).

A check prints one line per verdict, `  ID holds` or `  ID FAILS: what was observed`, then a
summary line; it exits 0 when every verdict holds, 1 when one falls short, 2 when it could not
run. `tests/trials/run` runs them all and compares with `tests/trials/expect`.

Environment: PKADVISOR_BIN (the binary; default: `cargo build --release` and
target/release/pkadvisor), TRIALS_DATA (where workloads are generated; default: the system
temp folder). A workload is generated once per content of its gen.py, this file and
workload.py (the generators' shared helpers)."""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

LIB = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(LIB)))
DATA = os.environ.get("TRIALS_DATA") or os.path.join(tempfile.gettempdir(), "pkadvisor-trials")


def fail(msg):
    """The check could not run: exit 2 with the reason."""
    print("cannot run: " + msg)
    sys.exit(2)


def binary():
    b = os.environ.get("PKADVISOR_BIN")
    if b:
        if not os.path.exists(b):
            fail("PKADVISOR_BIN=%s does not exist" % b)
        return b
    r = subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        fail("cargo build --release failed: " + (r.stderr.strip().splitlines() or ["?"])[-1][:150])
    return os.path.join(ROOT, "target", "release", "pkadvisor")


def data(name):
    """Generates the trial's workload (once per content of its gen.py) and returns its folder."""
    gen = os.path.join(ROOT, "tests", "trials", name, "gen.py")
    h = hashlib.sha256()
    for p in (gen, __file__, os.path.join(LIB, "workload.py")):
        with open(p, "rb") as f:
            h.update(f.read())
    out = os.path.join(DATA, name)
    stamp = os.path.join(out, ".generated")
    digest = h.hexdigest()
    if os.path.exists(stamp) and open(stamp).read() == digest:
        return out
    os.makedirs(out, exist_ok=True)
    if os.path.exists(stamp):
        os.remove(stamp)
    r = subprocess.run([sys.executable, gen, out], capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: gen.py failed: %s" % (name, (r.stderr.strip().splitlines() or ["?"])[-1][:200]))
    with open(stamp, "w") as f:
        f.write(digest)
    return out


def run(args, timeout=600):
    """Runs the binary with `args`; returns (exit code, stdout, stderr)."""
    r = subprocess.run([str(a) for a in args], capture_output=True, timeout=timeout)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def workload_args(d, docs="docs.ndjson", queries="queries.ndjson"):
    args = [os.path.join(d, docs)]
    if queries and os.path.exists(os.path.join(d, queries)):
        args += ["--queries", os.path.join(d, queries)]
    return args


def analyze(b, d, extra=(), keys=(), docs="docs.ndjson", queries="queries.ndjson"):
    """`analyze --format json` on the workload in folder d; returns a Report."""
    args = [b, "analyze"] + workload_args(d, docs, queries) + ["--format", "json", "--quiet"] + list(extra)
    for k in keys:
        args += ["--key", k]
    code, out, err = run(args)
    if code != 0:
        fail("analyze exited %d: %s" % (code, (err.strip().splitlines() or ["?"])[-1][:200]))
    try:
        return Report(json.loads(out))
    except ValueError as e:
        fail("analyze --format json printed no JSON: %s" % e)


def explain_bytes(b, d, key, value, extra=(), docs="docs.ndjson", queries="queries.ndjson"):
    """The projected bytes of one value of `key` (`--explain KEY --explain-value VALUE`, JSON
    text as the flag takes it); None when the run fails or the value is not placed."""
    args = [b, "analyze"] + workload_args(d, docs, queries) + list(extra) + [
        "--key", key, "--explain", key, "--explain-value", value, "--format", "json", "--quiet"]
    code, out, _ = run(args)
    if code != 0:
        return None
    return (json.loads(out).get("values") or [{}])[0].get("bytes")


def check(b, d, key, extra=(), docs="docs.ndjson", queries="queries.ndjson"):
    """`check --key KEY` on the workload; returns (exit code, stdout)."""
    args = [b, "check"] + workload_args(d, docs, queries) + ["--key", key, "--quiet"] + list(extra)
    code, out, err = run(args)
    if code not in (0, 1):
        fail("check exited %d: %s" % (code, (err.strip().splitlines() or ["?"])[-1][:200]))
    return code, out


class Report:
    """One analyze report, with lookups that end the check when a candidate is missing."""

    def __init__(self, r):
        self.r = r
        self.c = {c["key"]["spec"]: c for c in r["candidates"]}
        self.rank = {c["key"]["spec"]: i for i, c in enumerate(r["candidates"])}

    def top(self):
        return self.r["candidates"][0]["key"]["spec"]

    def cand(self, spec):
        if spec not in self.c:
            fail("candidate %s missing from the report (specs: %s)" % (spec, ", ".join(self.c)))
        return self.c[spec]

    def codes(self, spec):
        return {f["code"] for f in self.cand(spec).get("findings", [])}

    def score(self, spec):
        return self.cand(spec)["score"]

    def ru(self, spec):
        return self.cand(spec)["cost"]["required_ru"]

    def largest(self, spec):
        """The largest logical partition projected at the target, in bytes."""
        return self.cand(spec)["storage"]["largest_logical_bytes"]

    def above(self, a, b):
        self.cand(a), self.cand(b)
        return self.rank[a] < self.rank[b]

    def brief(self, spec):
        return "%s #%d %.1f %s RU/s largest %s [%s]" % (
            spec, self.rank[spec] + 1, self.score(spec), self.ru(spec), gb(self.largest(spec)),
            ",".join(sorted(self.codes(spec))))


def gb(n):
    return "%.2f GB" % (n / 1e9) if n is not None else "unknown"


class Verdicts:
    def __init__(self, name):
        self.name, self.results = name, []

    def expect(self, vid, ok, observed):
        """Records verdict `vid`; `observed` says what the tool gave when it does not hold."""
        self.results.append((vid, bool(ok), observed))

    def finish(self, summary=""):
        for vid, ok, observed in self.results:
            print("  %-3s %s" % (vid, "holds" if ok else "FAILS: " + observed))
        failed = [v for v, ok, _ in self.results if not ok]
        print("%s: %d of %d verdicts hold%s" % (self.name, len(self.results) - len(failed), len(self.results),
                                                "; " + summary if summary else ""))
        sys.exit(1 if failed else 0)
