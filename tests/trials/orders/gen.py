#!/usr/bin/env python3
"""Trial orders: 36,000 orders of 4,200 customers (Zipf 0.8: the largest places 4.53%), no
TTL, and one hour of log at 1/10 (3,900 creates, order-history queries, point reads) whose
creates give ~468 MB a day. See VERDICT.md.

Usage: python3 gen.py OUTDIR   writes OUTDIR/docs.ndjson and OUTDIR/queries.ndjson.
Deterministic (one seeded random.Random), standard library only."""
import os
import random
import sys
from datetime import datetime, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import iso_epoch as iso, jdump_ascii as jdump  # noqa: E402

SEED = 300_468
CUSTOMERS = 4_200
ZIPF = 0.8
STORES = 50
SAMPLE = 36_000
SAMPLE_START = datetime(2026, 6, 1, tzinfo=timezone.utc)
SAMPLE_END = datetime(2026, 12, 1, tzinfo=timezone.utc)
LOG_START = datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)
LOG_SECONDS = 3600
LOG_CREATES = 3_900                    # 39,000 orders an hour in production
LOG_HISTORY = 7_200
LOG_READS = 3_600

HISTORY = "SELECT * FROM c WHERE c.customerId = @c ORDER BY c.ts DESC OFFSET 0 LIMIT 20"
CITIES = [("Lyon", "69003"), ("Paris", "75011"), ("Lille", "59000"), ("Nantes", "44000"), ("Nice", "06000"),
          ("Bordeaux", "33000"), ("Toulouse", "31000"), ("Rennes", "35000"), ("Grenoble", "38000"),
          ("Strasbourg", "67000"), ("Marseille", "13001"), ("Dijon", "21000")]
STATUSES = ["placed", "paid", "shipped", "delivered", "delivered", "delivered", "returned"]
METHODS = ["card", "card", "card", "paypal", "transfer"]
CHANNELS = ["web", "web", "app", "app", "store"]
STREETS = ["Victor Hugo", "de la Paix", "Pasteur", "Jean Jaures", "des Lilas"]


def customer_id(k):
    return "c%04d" % k


def order(rng, n, customer, t, status):
    """One order of ~500 bytes."""
    items = [{"sku": "sku-%06d" % rng.randrange(1_000_000), "name": "item %d" % rng.randrange(10_000),
              "qty": rng.randint(1, 3), "price": round(rng.uniform(3.0, 120.0), 2)}
             for _ in range(rng.randint(1, 4))]
    city, zip_ = rng.choice(CITIES)
    oid = "o%07d" % n
    return {"id": oid, "orderId": oid, "customerId": customer, "storeId": "st%02d" % rng.randrange(STORES),
            "channel": rng.choice(CHANNELS), "status": status,
            "total": round(sum(i["qty"] * i["price"] for i in items), 2), "currency": "EUR", "ts": iso(t),
            "items": items, "payment": {"method": rng.choice(METHODS), "ref": "%012x" % rng.getrandbits(48)},
            "shipTo": {"name": "customer %s" % customer,
                       "street": "%d rue %s" % (rng.randint(1, 200), rng.choice(STREETS)),
                       "city": city, "zip": zip_, "country": "FR"}}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)
    weights = [k ** -ZIPF for k in range(1, CUSTOMERS + 1)]
    cum, acc = [], 0.0
    for w in weights:
        acc += w
        cum.append(acc)
    names = [customer_id(k) for k in range(1, CUSTOMERS + 1)]

    def customer():
        return rng.choices(names, cum_weights=cum, k=1)[0]

    # The sample: 36,000 orders over six months, in time order.
    t_start, t_end = int(SAMPLE_START.timestamp()), int(SAMPLE_END.timestamp())
    times = sorted(rng.randrange(t_start, t_end) for _ in range(SAMPLE))
    docs = [order(rng, n + 1, customer(), t, rng.choice(STATUSES)) for n, t in enumerate(times)]
    with open(os.path.join(out, "docs.ndjson"), "w") as f:
        f.write("".join(jdump(d) + "\n" for d in docs))

    # The log: one hour at 1/10, in time order.
    t0 = int(LOG_START.timestamp())
    ops = []  # (time, sequence, line)
    for n in range(LOG_CREATES):
        t = t0 + rng.randrange(LOG_SECONDS)
        ops.append((t, len(ops), {"op": "create", "doc": order(rng, SAMPLE + n + 1, customer(), t, "placed"),
                                  "ts": iso(t)}))
    for _ in range(LOG_HISTORY):
        t = t0 + rng.randrange(LOG_SECONDS)
        ops.append((t, len(ops), {"op": "query", "sql": HISTORY, "parameters": [{"name": "@c", "value": customer()}],
                                  "ts": iso(t)}))
    for _ in range(LOG_READS):
        t = t0 + rng.randrange(LOG_SECONDS)
        d = docs[rng.randrange(SAMPLE)]
        ops.append((t, len(ops), {"op": "read", "id": d["id"],
                                  "known": {"/customerId": d["customerId"], "/orderId": d["orderId"]}, "ts": iso(t)}))
    ops.sort(key=lambda o: (o[0], o[1]))
    with open(os.path.join(out, "queries.ndjson"), "w") as f:
        f.write("".join(jdump(o[2]) + "\n" for o in ops))


if __name__ == "__main__":
    main()
