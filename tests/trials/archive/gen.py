#!/usr/bin/env python3
"""Trial archive: a 40,000-item snapshot of an e-discovery archive (5,000 matters, one holding 8%
of the items; 800 clients), a whole hour's log: reads 10/s (browse 45%, point 30%, custodian 15%,
client count 10%), creates 4/s (40% into the litigation matter), patches 2/s. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import Picker, hexid, iso, iso_ms, query, write  # noqa: E402

UTC = timezone.utc
T0 = datetime(2026, 9, 14, 10, 0, tzinfo=UTC)
WORDS = ("contract invoice memo email draft board minutes merger audit review privileged "
         "settlement exhibit deposition notice payment shipment schedule").split()
TYPES = [("email", 0.6), ("attachment", 0.25), ("scan", 0.15)]


def main(out):
    rng = random.Random(20260914)
    os.makedirs(out, exist_ok=True)
    n = 5000
    matters = ["mat-%05d" % i for i in range(n)]
    size = [rng.lognormvariate(0, 1.2) for _ in range(n)]
    big = 0  # the litigation matter: 8% of all items
    size[big] = 0.08 / 0.92 * sum(size[1:])
    clients = ["cli-" + hexid(rng, 6) for _ in range(800)]
    client_pick = Picker(rng, [1.0 / (r + 2) for r in range(800)])
    client = [clients[client_pick()] for _ in range(n)]
    custodians = [["cus-%d-%d" % (i, j) for j in range(rng.randint(5, 60))] for i in range(n)]
    custodians[big] = ["cus-0-%d" % j for j in range(40)]
    matter = Picker(rng, size)
    types = Picker(rng, [w for _, w in TYPES])

    def item(m, t):
        cw = custodians[m]
        c = cw[min(int(rng.expovariate(4.0 / len(cw))), len(cw) - 1)]
        summary = " ".join(rng.choice(WORDS) for _ in range(rng.randint(110, 150)))
        return {"id": "doc-" + hexid(rng, 16), "matterId": matters[m], "clientId": client[m], "custodian": c,
                "docType": TYPES[types()][0], "receivedAt": iso(t), "sha256": hexid(rng, 64),
                "title": " ".join(rng.choice(WORDS) for _ in range(6)), "summary": summary}

    docs, known = [], []
    for _ in range(40_000):
        m = matter()
        d = item(m, T0 - timedelta(days=rng.uniform(0, 2000)))
        docs.append(d)
        known.append((m, d["id"], d["custodian"]))
    ops = []

    def at():
        return T0 + timedelta(seconds=rng.uniform(0, 3600))

    def some_item():
        if rng.random() < 0.5:
            return known[rng.randrange(len(known))]
        m = matter()
        return (m, "doc-" + hexid(rng, 16), rng.choice(custodians[m]))

    browse = "SELECT TOP 50 * FROM c WHERE c.matterId = @m ORDER BY c.receivedAt DESC"
    custodian = "SELECT * FROM c WHERE c.matterId = @m AND c.custodian = @c"
    count = "SELECT VALUE COUNT(1) FROM c WHERE c.clientId = @c"
    for _ in range(round(10 * 3600 * 0.45)):
        t = at()
        ops.append((t, query(browse, t, {"m": matters[matter()]})))
    for _ in range(round(10 * 3600 * 0.30)):
        m, i, _ = some_item()
        t = at()
        ops.append((t, {"op": "read", "id": i, "known": {"/matterId": matters[m]}, "ts": iso_ms(t)}))
    for _ in range(round(10 * 3600 * 0.15)):
        m, _, c = some_item()
        t = at()
        ops.append((t, query(custodian, t, {"m": matters[m], "c": c})))
    for _ in range(round(10 * 3600 * 0.10)):
        t = at()
        ops.append((t, query(count, t, {"c": client[matter()]})))
    for _ in range(round(4 * 3600)):
        t = at()
        m = big if rng.random() < 0.4 else matter()
        ops.append((t, {"op": "create", "doc": item(m, t), "ts": iso_ms(t)}))
    for _ in range(round(2 * 3600)):
        m, i, _ = some_item()
        t = at()
        ops.append((t, {"op": "patch", "id": i, "known": {"/matterId": matters[m]}, "ts": iso_ms(t)}))
    ops.sort(key=lambda o: o[0])
    write(out, docs, [o for _, o in ops])


if __name__ == "__main__":
    main(sys.argv[1])
