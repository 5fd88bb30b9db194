#!/usr/bin/env python3
"""Trial session: a web session store (id = sessionId) billed from its full log and from 1% of it.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson (the full log), thin.ndjson
(each of its lines kept with probability 1%), truth.json)

The full log is every request of a flat 10-minute evening peak: 72,000 point reads, 21,000 cart
patches, 15,000 session creates (about 775 RU/s by hand). Target 180 GB at 1,600 RU/s. See
VERDICT.md. Deterministic: one seeded random.Random, compact JSON, no clock."""
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, hexid, iso, iso_ms, jdump, write_truth  # noqa: E402

UTC = timezone.utc


def main(out):
    rng = random.Random(20260203)
    os.makedirs(out, exist_ok=True)

    def session(t):
        sid = "s-" + hexid(rng, 24)
        ch = rng.choices(["web", "ios", "android"], [55, 25, 20])[0]
        n = rng.choices([0, 1, 2, 3, 4], [30, 30, 20, 12, 8])[0]
        return {"id": sid, "sessionId": sid,
                "userId": "u-%08x" % rng.getrandbits(32) if rng.random() < 0.4 else None,
                "channel": ch, "region": rng.choices(["na", "eu", "apac", "latam"], [50, 30, 15, 5])[0],
                "createdAt": iso(t), "updatedAt": iso(t), "ttl": 10368000, "status": "active",
                "cart": {"currency": "USD", "subtotal": round(n * rng.uniform(4, 120), 2), "itemCount": n},
                "device": {"agent": rng.choice(["chrome", "safari", "edge", "firefox"]) if ch == "web" else ch + "-app",
                           "app": "%d.%d" % (rng.randint(4, 6), rng.randint(0, 30))},
                "landing": rng.choice(["/", "/c/shoes", "/c/jackets", "/c/sale", "/p/detail", "/search"]),
                "utm": rng.choice(["direct", "email", "social", "search", "affiliate"]), "pageViews": rng.randint(1, 40),
                "locale": rng.choice(["en-US", "en-GB", "de-DE", "fr-FR", "es-MX", "ja-JP"]),
                "consent": {"analytics": rng.random() < 0.7, "marketing": rng.random() < 0.4}, "csrf": hexid(rng, 32),
                "state": hexid(rng, 257)}

    # Sample: 10,000 sessions drawn uniformly from the live store (120 days), creation order.
    now = datetime(2026, 2, 3, 20, 0, tzinfo=UTC)
    span = 120 * 86400
    docs = [session(t) for t in sorted(now - timedelta(seconds=rng.random() * span) for _ in range(10000))]

    # Full log: every request of 2026-02-03 20:00-20:10 UTC, flat rates.
    secs = 600

    def times(n):
        return sorted(now + timedelta(microseconds=rng.randrange(secs * 10 ** 6)) for _ in range(n))

    live = ["s-" + hexid(rng, 24) for _ in range(20000)]  # sessions opened earlier this evening
    ops, created = [], []
    for t in times(25 * secs):
        d = session(t)
        ops.append((t, {"op": "create", "doc": d, "ts": iso_ms(t)}))
        created.append((t, d["id"]))

    def pick(t, state):
        # a live session: those opened earlier this evening, then those the log created before t;
        # 40% a recent one (exponential, mean 1,500 sessions back), else any of them
        while state[0] < len(created) and created[state[0]][0] < t:
            state[0] += 1
        made = len(live) + state[0]
        back = min(made - 1, int(rng.expovariate(1 / 1500.0))) if rng.random() < 0.4 else rng.randrange(made)
        i = made - 1 - back
        return live[i] if i < len(live) else created[i - len(live)][1]

    state = [0]
    for t in times(35 * secs):
        sid = pick(t, state)
        ops.append((t, {"op": "patch", "id": sid, "known": {"/sessionId": sid}, "ts": iso_ms(t)}))
    state = [0]
    for t in times(120 * secs):
        sid = pick(t, state)
        ops.append((t, {"op": "read", "id": sid, "known": {"/sessionId": sid}, "ts": iso_ms(t)}))
    ops.sort(key=lambda x: x[0])
    lines = [jdump(o) for _, o in ops]
    thin = [l for l in lines if rng.random() < 0.01]

    with open(os.path.join(out, "docs.ndjson"), "w") as f:
        for d in docs:
            f.write(jdump(d) + "\n")
    with open(os.path.join(out, "queries.ndjson"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "thin.ndjson"), "w") as f:
        f.write("\n".join(thin) + "\n")
    sizes = [len(jdump(d).encode()) for d in docs]
    kinds = {}
    for l in thin:
        k = json.loads(l)["op"]
        kinds[k] = kinds.get(k, 0) + 1
    truth = {
        "sample_documents": len(docs), "sample_mean_bytes": round(sum(sizes) / len(sizes), 1),
        "sample_max_bytes": max(sizes), "full_log_lines": len(lines), "thin_log_lines": len(thin),
        "thin_log_by_op": dict(sorted(kinds.items())),
        "hand_ru_s": 120 * 1 + 35 * 11.6 + 25 * (5.5 + 0.2 * 22),
    }
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
