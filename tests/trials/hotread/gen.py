#!/usr/bin/env python3
"""Trial `hotread`: one tenant's reads (see VERDICT.md).

Usage: python3 gen.py OUTDIR   writes OUTDIR/docs.ndjson (100 equal tenants, 20,000 items)
and three logs of the same hour, 10,000 operations each (4,000 creates, 6,000 reads), that
differ only in the reads' tenants:
  queries.ndjson        t0 takes 10% of the reads, in bursts of 10 within a minute;
  queries-even.ndjson   every tenant 1%, reads one by one;
  queries-t0-5.ndjson   t0 takes 5% of the reads, in bursts of 10 within a minute.
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import sys
from datetime import datetime, timedelta, timezone
from random import Random
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, iso, jdump_ascii as jdump  # noqa: E402

SEED = 31
TENANTS, USERS, ITEMS_PER_USER = 100, 100, 2
DOC_BYTES = 700
SAMPLE_START = datetime(2026, 3, 1, tzinfo=timezone.utc)
SAMPLE_SECONDS = 31 * 86400
LOG_START = datetime(2026, 4, 1, 9, tzinfo=timezone.utc)
LOG_SECONDS = 3600
CREATES, READS = 4000, 6000
BURST, BURST_SECONDS = 10, 60
READ_SQL = "SELECT TOP 10 * FROM c WHERE c.tenantId = @t AND c.userId = @u ORDER BY c.ts DESC"
KINDS = ["note", "task", "invoice", "contact", "event"]
WORDS = ("able acid aged also area army away baby back ball band bank base bath bear beat bell best "
         "bird blow blue boat body bone book born bowl bulk burn bush busy call calm camp card care "
         "case cash cast cell chat chip city club coal coat code cold cook cool copy core cost crew "
         "crop dark data date dawn deal dear deep desk dial diet disc door dose down draw drop dual").split()
# (file, t0's share of the reads, whether t0's reads come in bursts)
LOGS = [("queries.ndjson", 0.10, True), ("queries-even.ndjson", 0.01, False), ("queries-t0-5.ndjson", 0.05, True)]


def tenant(i):
    return "t%d" % i


def user(i, u):
    return "t%d-u%03d" % (i, u)


def item(rng, t, u, when):
    doc = {
        "id": "%016x" % rng.getrandbits(64),
        "tenantId": tenant(t),
        "userId": user(t, u),
        "kind": rng.choice(KINDS),
        "ts": iso(when),
        "title": " ".join(rng.choice(WORDS) for _ in range(4)),
        "status": rng.choice(("open", "done", "archived")),
        "priority": rng.randint(1, 5),
        "amount": rng.randint(0, 100000) / 100,
        "tags": [rng.choice(WORDS), rng.choice(WORDS)],
        "body": "",
    }
    want = DOC_BYTES + rng.randint(-50, 50) - len(jdump(doc))
    words = []
    while want > 0:
        w = rng.choice(WORDS)
        words.append(w)
        want -= len(w) + 1
    doc["body"] = " ".join(words)
    return doc


def split(total, parts):
    """`total` spread over `parts` as evenly as whole numbers allow (the first get one more)."""
    q, r = divmod(total, parts)
    return [q + (1 if i < r else 0) for i in range(parts)]


def main(outdir):
    rng = Random(SEED)
    os.makedirs(outdir, exist_ok=True)

    # The sample: every user of every tenant 2 items over March, in time order.
    docs = []
    for t in range(TENANTS):
        for u in range(USERS):
            for _ in range(ITEMS_PER_USER):
                docs.append((rng.random() * SAMPLE_SECONDS, t, u))
    docs.sort()
    with open(os.path.join(outdir, "docs.ndjson"), "w") as f:
        for s, t, u in docs:
            f.write(jdump(item(rng, t, u, SAMPLE_START + timedelta(seconds=int(s)))) + "\n")

    # The creates, the same in every log: 40 per tenant at random moments.
    creates = []
    for t in range(TENANTS):
        for _ in range(CREATES // TENANTS):
            s = rng.random() * LOG_SECONDS
            creates.append((s, item(rng, t, rng.randrange(USERS), LOG_START + timedelta(seconds=s))))

    for name, share, bursty in LOGS:
        hot = round(READS * share)
        reads = []  # (seconds, tenant, user)
        if bursty:
            for _ in range(hot // BURST):
                start = rng.random() * (LOG_SECONDS - BURST_SECONDS)
                for u in rng.sample(range(USERS), BURST):
                    reads.append((start + rng.random() * BURST_SECONDS, 0, u))
        else:
            reads += [(rng.random() * LOG_SECONDS, 0, rng.randrange(USERS)) for _ in range(hot)]
        for t, n in zip(range(1, TENANTS), split(READS - hot, TENANTS - 1)):
            reads += [(rng.random() * LOG_SECONDS, t, rng.randrange(USERS)) for _ in range(n)]
        ops = [(s, 0, jdump({"op": "create", "doc": doc, "ts": doc["ts"]})) for s, doc in creates]
        for s, t, u in reads:
            ops.append((s, 1, jdump({"op": "query", "sql": READ_SQL,
                                     "parameters": [{"name": "@t", "value": tenant(t)},
                                                    {"name": "@u", "value": user(t, u)}],
                                     "ts": iso(LOG_START + timedelta(seconds=s))})))
        ops.sort()
        with open(os.path.join(outdir, name), "w") as f:
            for _, _, line in ops:
                f.write(line + "\n")


if __name__ == "__main__":
    cli(main)
