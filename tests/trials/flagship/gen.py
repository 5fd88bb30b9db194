#!/usr/bin/env python3
"""Trial flagship: point-of-sale receipts of 400 stores, 200 GB at 2,000 RU/s (4
partitions); a 1% log of one hour while the flagship s-001 takes 30% of the creates and
the store reads. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import bisect
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, query, write, write_truth  # noqa: E402

UTC = timezone.utc
STORES, FLAGSHIP = 400, "s-001"


def main(out):
    rng = random.Random(20261206)
    os.makedirs(out, exist_ok=True)
    # The other stores by Zipf, s-002 the largest of them.
    cs = cumulative([(i + 2) ** -0.8 for i in range(STORES - 1)])

    def other():
        return "s-%03d" % (2 + bisect.bisect_left(cs, rng.random() * cs[-1]))

    def receipt(store, when):
        n = rng.randint(1, 12)
        return {"id": hexid(rng, 16), "storeId": store, "receiptId": "r-%09d" % rng.randrange(10 ** 9),
                "day": when.strftime("%Y-%m-%d"), "till": rng.randint(1, 30),
                "total": round(n * rng.uniform(2, 40), 2), "items": n, "ts": iso(when),
                "payment": rng.choice(["card", "card", "cash", "mobile"])}

    # The sample: 20,000 receipts of the year before the log, the flagship 6% of them.
    now = datetime(2026, 12, 5, 12, tzinfo=UTC)
    start = now - timedelta(days=365)
    docs = []
    for _ in range(20_000):
        when = start + timedelta(seconds=rng.randrange(365 * 86400))
        docs.append(receipt(FLAGSHIP if rng.random() < 0.06 else other(), when))
    docs.sort(key=lambda d: d["ts"])

    # The log: 1% of 12:00-13:00; the flagship's sale takes 30% of creates and store reads.
    share, ops = 0.01, []

    def times(n):
        return sorted(now + timedelta(microseconds=rng.randrange(3600 * 10 ** 6)) for _ in range(n))

    def store():
        return FLAGSHIP if rng.random() < 0.3 else other()

    for when in times(round(150 * 3600 * share)):
        ops.append((when, {"op": "create", "doc": receipt(store(), when), "ts": iso_ms(when)}))
    today = "SELECT * FROM c WHERE c.storeId = @s AND c.day = @d"
    for when in times(round(100 * 3600 * share)):
        ops.append((when, query(today, when, {"s": store(), "d": "2026-12-05"})))
    ops.sort(key=lambda x: x[0])
    write(out, docs, [o for _, o in ops])

    created = [o for _, o in ops if o["op"] == "create"]
    truth = {"documents": len(docs), "log_lines": len(ops), "creates": len(created),
             "flagship_creates": sum(1 for o in created if o["doc"]["storeId"] == FLAGSHIP),
             "flagship_sample": sum(1 for d in docs if d["storeId"] == FLAGSHIP)}
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
