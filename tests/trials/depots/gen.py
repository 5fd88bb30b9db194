#!/usr/bin/env python3
"""Trial depots: a parcel carrier of 592 ordinary depots (500 scans a day) and 8 hubs (5,000),
two pilots of 8 depots each (the hubs; 8 ordinary depots), every scan of 2 days, and 4 hours
of production's requests at 1/100. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes hubs.ndjson, depots.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, jdump, write_truth  # noqa: E402

UTC = timezone.utc
HUBS, ORDINARY, HUB_RATE, RATE = 8, 592, 5000, 500
TYPES = ["arrive", "sort", "load", "out", "delivered"]


def scan(rng, depot, when):
    return {"id": "sc-" + hexid(rng, 16), "depotId": depot, "parcelId": "p-" + hexid(rng, 12),
            "scanType": rng.choice(TYPES), "lane": "L%02d" % rng.randint(1, 40),
            "scannedAt": iso(when), "operator": "op-%04d" % rng.randint(1, 3000)}


def pilot(rng, depots, rate, start, days):
    out = []
    for day in range(days):
        base = start + timedelta(days=day)
        todays = sorted((base + timedelta(seconds=rng.randrange(86400)), d)
                        for d in depots for _ in range(rate[d]))
        out += [scan(rng, d, when) for when, d in todays]
    return out


def dump(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(jdump(r) + "\n")


def main(out):
    rng = random.Random(20261205)
    os.makedirs(out, exist_ok=True)
    depots = ["dp-%04d" % i for i in range(1, HUBS + ORDINARY + 1)]
    rate = {d: (HUB_RATE if i < HUBS else RATE) for i, d in enumerate(depots)}
    hubs = depots[:HUBS]
    ordinary = sorted(rng.sample(depots[HUBS:], 8))
    start = datetime(2026, 11, 30, tzinfo=UTC)
    dump(os.path.join(out, "hubs.ndjson"), pilot(rng, hubs, rate, start, 2))
    dump(os.path.join(out, "depots.ndjson"), pilot(rng, ordinary, rate, start, 2))

    # Four hours of production at 1/100, depots by their rates.
    total = sum(rate.values())
    cw = cumulative([rate[d] / total for d in depots])
    t0, share, hours = datetime(2026, 12, 3, 8, tzinfo=UTC), 0.01, 4

    def times(n):
        return sorted(t0 + timedelta(microseconds=rng.randrange(hours * 3600 * 10 ** 6)) for _ in range(n))

    ops, created = [], []
    for when in times(round(total * hours / 24 * share)):
        d = scan(rng, rng.choices(depots, cum_weights=cw)[0], when)
        created.append(d)
        ops.append((when, {"op": "create", "doc": d, "ts": iso_ms(when)}))
    for when in times(400):
        p = rng.choice(created)["parcelId"]
        ops.append((when, {"op": "query", "sql": "SELECT * FROM c WHERE c.parcelId = @p",
                           "parameters": [{"name": "@p", "value": p}], "ts": iso_ms(when)}))
    dash = "SELECT * FROM c WHERE c.depotId = @d AND c.scannedAt > @t"
    for when in times(200):
        d = rng.choices(depots, cum_weights=cw)[0]
        ops.append((when, {"op": "query", "sql": dash, "parameters": [
            {"name": "@d", "value": d}, {"name": "@t", "value": iso(when - timedelta(hours=1))}],
            "ts": iso_ms(when)}))
    ops.sort(key=lambda x: x[0])
    dump(os.path.join(out, "queries.ndjson"), [o for _, o in ops])

    mean = sum(len(jdump(scan(random.Random(i), "dp-0001", t0)).encode()) for i in range(200)) / 200
    lines = {}
    for d in created:
        lines[d["depotId"]] = lines.get(d["depotId"], 0) + 1
    write_truth(out, {
        "hubs": hubs, "ordinary_pilot": ordinary, "scan_bytes": round(mean, 1),
        "hub_GB_at_2TB": round(2000 * HUB_RATE / total, 2),
        "depot_GB_at_2TB": round(2000 * RATE / total, 2),
        "log_creates": len(created),
        "log_lines_hubs": sum(lines.get(d, 0) for d in hubs),
        "log_lines_ordinary_pilot": sum(lines.get(d, 0) for d in ordinary),
    })


if __name__ == "__main__":
    cli(main)
