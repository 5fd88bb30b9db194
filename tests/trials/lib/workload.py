"""What the trials' generators share: compact JSON, RFC 3339 times, weighted draws, and
writing a workload's two files. Standard library only; deterministic."""
import json
import os
import sys
from datetime import datetime, timezone


def jdump(o):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_ms(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


class Picker:
    """Draws an index by cumulative weights."""

    def __init__(self, rng, weights):
        self.rng, self.cw, acc = rng, [], 0.0
        for w in weights:
            acc += w
            self.cw.append(acc)
        self.items = list(range(len(weights)))

    def __call__(self):
        return self.rng.choices(self.items, cum_weights=self.cw, k=1)[0]


def write(out, docs, ops):
    n = [0, 0]
    with open(os.path.join(out, "docs.ndjson"), "w") as f:
        for d in docs:
            line = jdump(d)
            n[0] += len(line.encode())
            f.write(line + "\n")
    with open(os.path.join(out, "queries.ndjson"), "w") as f:
        for o in ops:
            line = jdump(o)
            n[1] += len(line.encode()) + 1
            f.write(line + "\n")
    return n


def jdump_ascii(o):
    """Compact JSON with non-ASCII characters escaped."""
    return json.dumps(o, separators=(",", ":"))


_DAYS = {}


def iso_epoch(t):
    """RFC 3339 UTC to the second, for whole epoch seconds t."""
    d, s = divmod(t, 86400)
    day = _DAYS.get(d)
    if day is None:
        day = _DAYS[d] = datetime.fromtimestamp(d * 86400, timezone.utc).strftime("%Y-%m-%d")
    return "%sT%02d:%02d:%02dZ" % (day, s // 3600, s // 60 % 60, s % 60)


def hexid(rng, n):
    """n random hexadecimal digits from rng."""
    return "%0*x" % (n, rng.getrandbits(4 * n))


def cumulative(weights):
    """The running sums of weights, for random.choices(cum_weights=...)."""
    acc, out = 0.0, []
    for w in weights:
        acc += w
        out.append(acc)
    return out


def query(sql, t, params):
    """A logged query at time t, its parameters given as a dict (names without the @)."""
    return {"op": "query", "sql": sql, "ts": iso_ms(t),
            "parameters": [{"name": "@" + k, "value": v} for k, v in params.items()]}


def write_truth(out, truth):
    """Writes what the generator knows of its workload to OUTDIR/truth.json."""
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)


def cli(main):
    """Runs main(OUTDIR) with the one argument gen.py takes."""
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
