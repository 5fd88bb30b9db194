#!/usr/bin/env python3
"""Trial viral: a short-video app's reactions, 1 TB at 300,000 RU/s (50 partitions); a 1%
log of 10 minutes while p-viral takes 3,000 reactions a second (60% of creates) and 40% of
the post counters. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import bisect
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import (cli, cumulative, hexid, iso, iso_ms, jdump, query, write,  # noqa: E402
                      write_truth)

UTC = timezone.utc
POSTS, USERS, VIRAL = 2_000_000, 5_000_000, "p-viral"
KINDS = ["like", "like", "like", "love", "laugh", "wow"]


def main(out):
    rng = random.Random(20261205)
    os.makedirs(out, exist_ok=True)
    cw = cumulative([(i + 10) ** -1.1 for i in range(POSTS)])

    def post():
        return "p-%07d" % bisect.bisect_left(cw, rng.random() * cw[-1])

    def user():
        return "u-%07d" % int(USERS * rng.random() ** 1.5)

    def reaction(p, when):
        return {"id": hexid(rng, 16), "postId": p, "userId": user(), "kind": rng.choice(KINDS),
                "ts": iso(when), "client": rng.choice(["ios", "android", "web"]),
                "region": rng.choice(["us", "eu", "br", "in", "jp"])}

    # The sample: 20,000 reactions from two years, 0.2% of them p-viral's (its last hours).
    now = datetime(2026, 12, 4, 20, tzinfo=UTC)
    start = now - timedelta(days=730)
    docs = []
    for i in range(20_000):
        if i < 40:
            when = now - timedelta(seconds=rng.randrange(7200))
            docs.append(reaction(VIRAL, when))
        else:
            docs.append(reaction(post(), start + timedelta(seconds=rng.randrange(730 * 86400 - 7200))))
    docs.sort(key=lambda d: d["ts"])

    # The log: 1% of 20:00-20:10.
    secs, share = 600, 0.01

    def times(n):
        return sorted(now + timedelta(microseconds=rng.randrange(secs * 10 ** 6)) for _ in range(n))

    ops = []
    for when in times(round(5000 * secs * share)):
        p = VIRAL if rng.random() < 0.6 else post()
        ops.append((when, {"op": "create", "doc": reaction(p, when), "ts": iso_ms(when)}))
    count = "SELECT VALUE COUNT(1) FROM c WHERE c.postId = @p"
    for when in times(round(2000 * secs * share)):
        ops.append((when, query(count, when, {"p": VIRAL if rng.random() < 0.4 else post()})))
    mine = "SELECT TOP 20 * FROM c WHERE c.userId = @u ORDER BY c.ts DESC"
    for when in times(round(500 * secs * share)):
        ops.append((when, query(mine, when, {"u": user()})))
    ops.sort(key=lambda x: x[0])
    write(out, docs, [o for _, o in ops])

    created = [o for _, o in ops if o["op"] == "create"]
    size = sum(len(jdump(o["doc"]).encode()) for o in created) / len(created)
    truth = {"documents": len(docs), "log_lines": len(ops), "creates": len(created),
             "viral_creates": sum(1 for o in created if o["doc"]["postId"] == VIRAL),
             "mean_create_bytes": round(size, 1)}
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
