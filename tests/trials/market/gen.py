#!/usr/bin/env python3
"""Trial market: a 30-seller marketplace pilot and an hour of production log at 1/50 from 3,000
sellers (Zipf 0.9), the largest of which (s00000, 7.8% of the writes) the pilot never saw.

Usage: python3 gen.py OUTDIR  -> OUTDIR/docs.ndjson, OUTDIR/queries.ndjson, OUTDIR/params.json

See VERDICT.md for the workload and the verdict. Standard library only, deterministic (one
seeded random.Random, no clock, compact JSON)."""
import hashlib
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import iso, jdump, Picker, write  # noqa: E402

SEED = 3253  # its pilot draw: s00201 the pilot's largest (the notes' 3.4 GB pilot seller regime)
SELLERS, ZIPF = 3000, 0.9
PRODUCTS = 1050             # every seller's catalog, equally active
PILOT_SELLERS, PILOT_DOCS = 30, 40000
PILOT_START, PILOT_DAYS = datetime(2026, 11, 16, tzinfo=timezone.utc), 14
LOG_START = datetime(2026, 12, 14, 14, tzinfo=timezone.utc)
LOG_CREATES, LOG_PAGES, LOG_DASHBOARDS = 90000, 20000, 1200
TYPES = ["order"] * 7 + ["review", "price", "stock"]

PAGE = "SELECT * FROM c WHERE c.sellerId = @s AND c.productId = @p ORDER BY c.ts DESC OFFSET 0 LIMIT 20"
DASHBOARD = ("SELECT c.type, COUNT(1) AS n, SUM(c.amount) AS total FROM c WHERE c.sellerId = @s "
             "AND c.ts >= @since GROUP BY c.type")


def seller(k):
    return "s%05d" % k


def product(k, i):
    return "p-" + hashlib.sha1(("%s/%d" % (seller(k), i)).encode()).hexdigest()[:12]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)
    weights = [(k + 1) ** -ZIPF for k in range(SELLERS)]
    total_w = sum(weights)
    pilot = sorted(rng.sample(range(1, SELLERS), PILOT_SELLERS))

    def event(k, t):
        kind = rng.choice(TYPES)
        qty = rng.randint(1, 4) if kind == "order" else (rng.randint(0, 500) if kind == "stock" else 0)
        return {"id": "%016x" % rng.getrandbits(64), "sellerId": seller(k), "productId": product(k, rng.randrange(PRODUCTS)),
                "type": kind, "qty": qty, "amount": round(rng.uniform(3, 250), 2) if kind in ("order", "price") else 0,
                "buyerId": "b%07d" % rng.randrange(10 ** 7) if kind in ("order", "review") else "",
                "currency": "USD", "channel": rng.choice(("web", "web", "app", "api")), "ts": iso(t)}

    # The pilot: 30 sellers at their production rates, 14 days.
    pick_pilot = Picker(rng, [weights[k] for k in pilot])
    span = PILOT_DAYS * 86400
    docs = [event(pilot[pick_pilot()], PILOT_START + timedelta(seconds=rng.randrange(span)))
            for _ in range(PILOT_DOCS)]
    docs.sort(key=lambda d: (d["ts"], d["id"]))

    # The log: an hour of production at 1/50.
    pick = Picker(rng, weights)
    ops = []
    for _ in range(LOG_CREATES):
        s = rng.randrange(3600)
        d = event(pick(), LOG_START + timedelta(seconds=s))
        ops.append((s, {"op": "create", "doc": d, "ts": d["ts"]}))
    for _ in range(LOG_PAGES):
        s, k = rng.randrange(3600), pick()
        ops.append((s, {"op": "query", "sql": PAGE, "parameters": [
            {"name": "@s", "value": seller(k)}, {"name": "@p", "value": product(k, rng.randrange(PRODUCTS))}],
            "ts": iso(LOG_START + timedelta(seconds=s))}))
    for _ in range(LOG_DASHBOARDS):
        s, k = rng.randrange(3600), pick()
        t = LOG_START + timedelta(seconds=s)
        ops.append((s, {"op": "query", "sql": DASHBOARD, "parameters": [
            {"name": "@s", "value": seller(k)}, {"name": "@since", "value": iso(t - timedelta(days=7))}],
            "ts": iso(t)}))
    ops.sort(key=lambda o: o[0])  # stable: equal seconds keep their generation order

    sizes = write(out, docs, [o for _, o in ops])
    created, per_product = {}, {}
    for _, o in ops:
        if o["op"] == "create":
            doc = o["doc"]
            created[doc["sellerId"]] = created.get(doc["sellerId"], 0) + len(jdump(doc).encode())
            if doc["sellerId"] == seller(0):
                per_product[doc["productId"]] = per_product.get(doc["productId"], 0) + 1
    all_created = sum(created.values())
    top = created.get(seller(0), 0) / all_created
    params = {
        "seed": SEED, "sellers": SELLERS, "zipf": ZIPF, "products_per_seller": PRODUCTS,
        "s00000_weight_share": round(weights[0] / total_w, 5),
        "pilot": [seller(k) for k in pilot], "pilot_docs": len(docs), "pilot_bytes": sizes[0],
        "avg_doc_bytes": round(sizes[0] / len(docs), 1),
        "log": {"creates": LOG_CREATES, "product_pages": LOG_PAGES, "dashboards": LOG_DASHBOARDS, "bytes": sizes[1]},
        "log_s00000_created_share": round(top, 5),
        "log_pilot_created_share": round(sum(created.get(seller(k), 0) for k in pilot) / all_created, 5),
        "s00000_creates_per_product": {"mean": round(sum(per_product.values()) / PRODUCTS, 2),
                                       "max": max(per_product.values()), "products_seen": len(per_product)},
        "at_5TB": {"s00000_GB": round(top * 5000, 1), "s00000_product_GB": round(top * 5000 / PRODUCTS, 3),
                   "sellerId_breaks_at_GB": round(20 / top, 1)},
    }
    with open(os.path.join(out, "params.json"), "w") as f:
        f.write(json.dumps(params, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
