#!/usr/bin/env python3
"""Trial rollup: a help desk's tickets, the same 20 minutes of traffic logged one request a line
and rolled up by `count` (identical requests of the same second), with one real burst.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson (one request a line),
rollup.ndjson (the same requests rolled up), truth.json)

See VERDICT.md. Deterministic: one seeded random.Random, compact JSON, no clock."""
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import Picker, hexid, iso, iso_ms, jdump, write_truth  # noqa: E402

UTC = timezone.utc
ORGS = 400
START = datetime(2026, 3, 10, 14, 0, tzinfo=UTC)
SECONDS = 1200


def main(out):
    rng = random.Random(20260310)
    os.makedirs(out, exist_ok=True)
    names = ["globex"] + ["org-%03d" % i for i in range(1, ORGS)]
    # globex 6% of the tickets, the rest a Zipf tail.
    weights = [1.0 / (i + 1) ** 0.9 for i in range(ORGS)]
    weights[0] = 0.06 / 0.94 * sum(weights[1:])
    total = sum(weights)
    pick_org = Picker(rng, weights)

    def ticket(org, t):
        tid = "t-" + hexid(rng, 20)
        return {"id": tid, "orgId": org, "ticketId": tid,
                "status": rng.choices(["open", "pending", "solved", "closed"], [20, 10, 30, 40])[0],
                "priority": rng.choice(["low", "normal", "high", "urgent"]),
                "subject": "Issue " + hexid(rng, 12), "body": hexid(rng, 700),
                "assignee": "agent-%04d" % rng.randrange(3000), "createdAt": iso(t), "updatedAt": iso(t),
                "tags": rng.sample(["billing", "login", "bug", "feature", "vip", "refund", "api"], 2)}

    # Sample: 20,000 tickets drawn uniformly from the store (two years), in creation order.
    span = 730 * 86400
    times = sorted(START - timedelta(seconds=rng.random() * span) for _ in range(20000))
    docs = [ticket(names[pick_org()], t) for t in times]
    by_org = {}
    for d in docs:
        by_org.setdefault(d["orgId"], []).append(d["id"])

    reqs = []  # (time, request without ts)

    def at_random(n):
        return [START + timedelta(microseconds=rng.randrange(SECONDS * 10 ** 6)) for _ in range(n)]

    def known_ticket():
        org = names[pick_org()]
        ids = by_org.get(org)
        if not ids:
            return None
        return org, rng.choice(ids)

    for t in at_random(60 * SECONDS):
        k = known_ticket()
        if k:
            reqs.append((t, {"op": "read", "id": k[1], "known": {"/orgId": k[0], "/ticketId": k[1]}}))
    for t in at_random(10 * SECONDS):
        k = known_ticket()
        if k:
            reqs.append((t, {"op": "patch", "id": k[1], "known": {"/orgId": k[0], "/ticketId": k[1]}}))
    for t in at_random(3 * SECONDS):
        reqs.append((t, {"op": "create", "doc": ticket(names[pick_org()], t)}))
    poll = "SELECT * FROM c WHERE c.orgId = @o AND c.status = 'open'"
    for t in at_random(20 * SECONDS):
        reqs.append((t, {"op": "query", "sql": poll, "parameters": [{"name": "@o", "value": names[pick_org()]}]}))
    # The burst: a retry storm of globex's sync re-reads 12 of its tickets, 400 a second for a minute.
    syncing = rng.sample(by_org["globex"], 12)
    burst = START + timedelta(minutes=10)
    for s in range(60):
        for _ in range(400):
            t = burst + timedelta(seconds=s, microseconds=rng.randrange(10 ** 6))
            tid = rng.choice(syncing)
            reqs.append((t, {"op": "read", "id": tid, "known": {"/orgId": "globex", "/ticketId": tid}}))
    reqs.sort(key=lambda r: r[0])

    with open(os.path.join(out, "docs.ndjson"), "w") as f:
        for d in docs:
            f.write(jdump(d) + "\n")
    with open(os.path.join(out, "queries.ndjson"), "w") as f:
        for t, r in reqs:
            f.write(jdump(dict(r, ts=iso_ms(t))) + "\n")
    # Rollup: identical requests of the same second, one line with their count at the
    # second's first time, in order of that time.
    groups = {}
    for t, r in reqs:
        key = (t.replace(microsecond=0), jdump(r))
        g = groups.get(key)
        if g is None:
            groups[key] = [t, r, 1]
        else:
            g[2] += 1
    lines = sorted(groups.values(), key=lambda g: (g[0], jdump(g[1])))
    with open(os.path.join(out, "rollup.ndjson"), "w") as f:
        for t, r, n in lines:
            line = dict(r, ts=iso_ms(t))
            if n > 1:
                line["count"] = n
            f.write(jdump(line) + "\n")
    write_truth(out, {"requests": len(reqs), "rollup_lines": len(lines),
                      "globex_share": weights[0] / total, "globex_docs": len(by_org["globex"])})
    print("%d requests, %d rollup lines; globex %.1f%% of tickets" % (
        len(reqs), len(lines), 100.0 * len(by_org["globex"]) / len(docs)))


if __name__ == "__main__":
    main(sys.argv[1])
