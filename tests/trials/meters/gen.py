#!/usr/bin/env python3
"""Trial meters: a smart-meter pilot with a 30-day TTL (400 meters on 40 sites, 7 days, a
reading every 15 minutes) and one production hour at 1/1,000 from 12 M meters on 40,000
sites. See VERDICT.md.

Usage: python3 gen.py OUTDIR   writes OUTDIR/docs.ndjson and OUTDIR/queries.ndjson.
Deterministic (one seeded random.Random), standard library only."""
import os
import random
import sys
from datetime import datetime, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import iso_epoch as iso, jdump_ascii as jdump  # noqa: E402

SEED = 31_000_400
METERS = 12_000_000                    # production meters m00000001..m12000000
PER_SITE = 300                         # production: meter k on site ceil(k / 300)
PILOT_SITES = 40                       # s00001..s00040
PILOT_PER_SITE = 10                    # the first 10 meters of each pilot site
TTL = 30 * 86400
PILOT_START = datetime(2026, 11, 20, tzinfo=timezone.utc)
PILOT_DAYS = 7
EVERY = 900                            # a reading every 15 minutes
LOG_START = datetime(2026, 11, 27, 10, 0, tzinfo=timezone.utc)
LOG_SECONDS = 3600
LOG_CREATES = 48_000                   # 12 M x 4 readings an hour x 1/1,000
LOG_METER_READS = 3_600                # 1,000/s in production
LOG_SITE_DASHBOARDS = 360              # 100/s in production

METER_READ = "SELECT * FROM c WHERE c.meterId = @m AND c.ts >= @since"
SITE_DASHBOARD = "SELECT * FROM c WHERE c.siteId = @s AND c.day = @d"


def guid(rng):
    h = "%032x" % rng.getrandbits(128)
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def meter_id(k):
    return "m%08d" % k


def site_id(k):
    """The site of meter k."""
    return "s%05d" % ((k - 1) // PER_SITE + 1)


def reading(rng, k, t):
    """One reading of ~160 bytes: 7 indexed terms, living 30 days."""
    ts = iso(t)
    return {"id": guid(rng), "meterId": meter_id(k), "siteId": site_id(k), "day": ts[:10], "ts": ts,
            "kwh": round(rng.uniform(0.02, 0.9), 4), "ttl": TTL}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)

    # The pilot: 10 meters on each of 40 sites, each at its own offset within the 15 minutes.
    meters = [(s - 1) * PER_SITE + m for s in range(1, PILOT_SITES + 1) for m in range(1, PILOT_PER_SITE + 1)]
    offsets = {k: rng.randrange(EVERY) for k in meters}
    order = sorted(meters, key=lambda k: (offsets[k], k))
    start = int(PILOT_START.timestamp())
    with open(os.path.join(out, "docs.ndjson"), "w") as f:
        for s in range(PILOT_DAYS * 86400 // EVERY):
            base = start + s * EVERY
            f.write("".join(jdump(reading(rng, k, base + offsets[k])) + "\n" for k in order))

    # The log: one production hour at 1/1,000, in time order.
    t0 = int(LOG_START.timestamp())
    ops = []  # (time, sequence, line)
    for _ in range(LOG_CREATES):
        t = t0 + rng.randrange(LOG_SECONDS)
        ops.append((t, len(ops), {"op": "create", "doc": reading(rng, rng.randint(1, METERS), t), "ts": iso(t)}))
    for _ in range(LOG_METER_READS):
        t = t0 + rng.randrange(LOG_SECONDS)
        ops.append((t, len(ops), {"op": "query", "sql": METER_READ, "parameters": [
            {"name": "@m", "value": meter_id(rng.randint(1, METERS))},
            {"name": "@since", "value": iso(t - 86400)}], "ts": iso(t)}))
    for _ in range(LOG_SITE_DASHBOARDS):
        t = t0 + rng.randrange(LOG_SECONDS)
        ops.append((t, len(ops), {"op": "query", "sql": SITE_DASHBOARD, "parameters": [
            {"name": "@s", "value": "s%05d" % rng.randint(1, METERS // PER_SITE)},
            {"name": "@d", "value": iso(t)[:10]}], "ts": iso(t)}))
    ops.sort(key=lambda o: (o[0], o[1]))
    with open(os.path.join(out, "queries.ndjson"), "w") as f:
        f.write("".join(jdump(o[2]) + "\n" for o in ops))


if __name__ == "__main__":
    main()
