#!/usr/bin/env python3
"""Trial chargers: every item of a 300-charge-point pilot over 24 hours (one ~260-byte status
every 10 minutes, ttl 14 days), picked at random across four operators (40/30/20/10%) of a
1,000,000-point fleet; a log of every request of the pilot over the next hour (log share
0.0003): 6 creates a point, latest-status queries (real 600/s), one-day listings (real 100/s).
See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import hexid, iso, iso_ms, query, write  # noqa: E402

UTC = timezone.utc
START = datetime(2026, 5, 11, 0, 0, tzinfo=UTC)
SHARE = 300 / 1_000_000
OPERATORS = [("op-voltway", 120), ("op-chargeco", 90), ("op-gridpark", 60), ("op-amperia", 30)]


def main(out):
    rng = random.Random(20260511)
    os.makedirs(out, exist_ok=True)
    points = []
    for op, n in OPERATORS:
        for _ in range(n):
            points.append(("cp-" + hexid(rng, 10), op, "site-" + hexid(rng, 8)))
    rng.shuffle(points)
    offset = {p[0]: rng.uniform(0, 600) for p in points}

    def status(p, t):
        cp, op, site = p
        busy = rng.random() < 0.3
        return {"id": "%s-%d" % (cp, int(t.timestamp())), "chargerId": cp, "operatorId": op,
                "siteId": site, "ts": iso(t), "status": "charging" if busy else "available",
                "connector": rng.choice(["ccs2", "type2", "chademo"]),
                "kw": round(rng.uniform(7, 150), 1) if busy else 0.0,
                "energyKwh": round(rng.uniform(0, 80), 3), "fw": "evse-2.%d.%d" % (rng.randint(0, 9), rng.randint(0, 20)),
                "meter": {"v": round(rng.gauss(400, 5), 1), "a": round(rng.uniform(0, 200), 1)},
                "ttl": 1209600}

    docs = []
    for k in range(144):
        for p in points:
            t = START + timedelta(seconds=600 * k + offset[p[0]])
            docs.append(status(p, t))
    docs.sort(key=lambda d: d["ts"])

    log0 = START + timedelta(days=1)
    ops = []
    for k in range(6):
        for p in points:
            t = log0 + timedelta(seconds=600 * k + offset[p[0]])
            ops.append((t, {"op": "create", "doc": status(p, t), "ts": iso_ms(t)}))
    latest = "SELECT TOP 1 * FROM c WHERE c.chargerId = @c ORDER BY c.ts DESC"
    for _ in range(round(600 * 3600 * SHARE)):
        t = log0 + timedelta(seconds=rng.uniform(0, 3600))
        p = rng.choice(points)
        ops.append((t, query(latest, t, {"c": p[0]})))
    day = "SELECT * FROM c WHERE c.operatorId = @o AND c.chargerId = @c AND c.ts >= @from"
    for _ in range(round(100 * 3600 * SHARE)):
        t = log0 + timedelta(seconds=rng.uniform(0, 3600))
        p = rng.choice(points)
        ops.append((t, query(day, t, {"o": p[1], "c": p[0], "from": iso(t - timedelta(days=1))})))
    ops.sort(key=lambda o: o[0])
    write(out, docs, [o for _, o in ops])


if __name__ == "__main__":
    main(sys.argv[1])
