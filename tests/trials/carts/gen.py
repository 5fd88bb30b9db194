#!/usr/bin/env python3
"""Trial carts: an online grocer's cart store (id = cartId) billed from the full log of an
8-minute peak and from every request of 5% of the carts.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson (the full log), carts.ndjson
(every request of the carts whose id hashes into 5% of the space), truth.json)

Traffic: 10 creates, 150 point reads and 50 patches a second; the flagship store st-001 holds
40% of the carts and takes 40% of each kind. Target 150 GB at 24,000 RU/s (4 partitions). See
VERDICT.md. Deterministic: one seeded random.Random, compact JSON, no clock."""
import hashlib
import os
import random
import sys
from collections import Counter
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, jdump, write, write_truth  # noqa: E402

UTC = timezone.utc
STORES = ["st-%03d" % i for i in range(1, 201)]
SECS = 480


def sampled(cart_id):
    """Whether the tracing system keeps this cart: its id's hash in the first 5%."""
    return int(hashlib.sha256(cart_id.encode()).hexdigest()[:8], 16) % 100 < 5


def main(out):
    rng = random.Random(20261205)
    os.makedirs(out, exist_ok=True)
    # The flagship takes 40%; the other 199 stores share the rest by Zipf (1/rank).
    others = cumulative([1.0 / r for r in range(1, 200)])

    def store():
        if rng.random() < 0.40:
            return STORES[0]
        return STORES[1 + rng.choices(range(199), cum_weights=others)[0]]

    users = ["u-%08x" % rng.getrandbits(32) for _ in range(40000)]

    def cart(t):
        cid = "c-" + hexid(rng, 24)
        n = rng.randint(1, 12)
        lines = [{"sku": "sku-%05d" % rng.randrange(30000), "qty": rng.randint(1, 4),
                  "price": round(rng.uniform(0.5, 25.0), 2)} for _ in range(min(n, 6))]
        return {"id": cid, "cartId": cid, "userId": rng.choice(users), "storeId": store(),
                "status": "open", "currency": "USD", "total": round(sum(l["qty"] * l["price"] for l in lines), 2),
                "itemCount": n, "lines": lines, "createdAt": iso(t), "updatedAt": iso(t), "ttl": 604800,
                "channel": rng.choice(["web", "ios", "android"]), "promo": rng.choice(["", "FRESH10", "FREESHIP"]),
                "note": hexid(rng, 390)}

    # Sample: 12,000 carts drawn uniformly from the live store (7-day TTL), creation order.
    now = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)
    docs = [cart(t) for t in sorted(now - timedelta(seconds=rng.random() * 7 * 86400) for _ in range(12000))]

    def times(n):
        return sorted(now + timedelta(microseconds=rng.randrange(SECS * 10 ** 6)) for _ in range(n))

    # Open carts of the evening (opened before the window), by store: reads and patches of a
    # store's carts go to that store's open carts.
    live = {}
    for _ in range(30000):
        c = cart(now)
        live.setdefault(c["storeId"], []).append(c["id"])
    ops = []
    made = {}
    for t in times(10 * SECS):
        d = cart(t)
        ops.append((t, {"op": "create", "doc": d, "ts": iso_ms(t)}))
        made.setdefault(d["storeId"], []).append((t, d["id"]))

    def pick(t):
        s = store()
        pool = live.get(s) or live[STORES[0]]
        recent = [cid for (tc, cid) in made.get(s, []) if tc < t]
        # Half of a store's requests go to the carts opened in the window so far.
        if recent and rng.random() < 0.5:
            return rng.choice(recent[-200:])
        return rng.choice(pool)

    for t in times(150 * SECS):
        cid = pick(t)
        ops.append((t, {"op": "read", "id": cid, "known": {"/cartId": cid}, "ts": iso_ms(t)}))
    for t in times(50 * SECS):
        cid = pick(t)
        ops.append((t, {"op": "patch", "id": cid, "known": {"/cartId": cid}, "ts": iso_ms(t)}))
    ops = [o for _, o in sorted(ops, key=lambda x: x[0])]

    def cart_of(o):
        return o["doc"]["id"] if o["op"] == "create" else o["id"]

    kept = [o for o in ops if sampled(cart_of(o))]
    doc_bytes, _ = write(out, docs, ops)
    with open(os.path.join(out, "carts.ndjson"), "w") as f:
        f.writelines(jdump(o) + "\n" for o in kept)
    truth = {
        "sample_documents": len(docs), "sample_mean_bytes": round(doc_bytes / len(docs), 1),
        "sample_max_bytes": max(len(jdump(d).encode()) for d in docs), "full_log_lines": len(ops),
        "cart_log_lines": len(kept), "cart_log_by_op": dict(sorted(Counter(o["op"] for o in kept).items())),
        "flagship_share": round(sum(1 for d in docs if d["storeId"] == STORES[0]) / len(docs), 4),
        "hand_ru_s": 150 * 1 + 50 * 10 + 10 * 9.5,
    }
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
