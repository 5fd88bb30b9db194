#!/usr/bin/env python3
"""Trial resellers: a uniform export of 40,000 orders from a marketplace of about 7.9 billion
(40 resellers hold 4% of them, 150 million buyers the rest, 3,000 sellers by Zipf) and an
hour's log of reads by buyer, by order and by seller, with creates. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import Picker, cli, hexid, iso, iso_ms, query, write, write_truth  # noqa: E402

UTC = timezone.utc
ORDERS, RESELLERS, RESELLER_SHARE, BUYERS, SELLERS = 40_000, 40, 0.04, 150_000_000, 3_000
STATUSES = ["open", "paid", "paid", "shipped", "shipped", "shipped", "delivered", "delivered",
            "delivered", "delivered", "returned"]
CITIES = ["Seattle", "Austin", "Denver", "Boston", "Chicago", "Portland", "Atlanta", "Phoenix"]


def main(out):
    rng = random.Random(20261205_2)
    os.makedirs(out, exist_ok=True)
    resellers = ["r-%04d" % k for k in range(RESELLERS)]
    # Each reseller between 0.05% and 0.15% of all orders; together RESELLER_SHARE.
    weights = [rng.uniform(0.5, 1.5) for _ in resellers]
    scale = RESELLER_SHARE / sum(weights)
    reseller_share = [w * scale for w in weights]
    reseller = Picker(rng, reseller_share)
    seller = Picker(rng, [1 / k ** 1.1 for k in range(1, SELLERS + 1)])
    start = datetime(2024, 12, 1, tzinfo=UTC)

    def buyer():
        if rng.random() < RESELLER_SHARE:
            return resellers[reseller()]
        return "u-%09d" % rng.randrange(BUYERS)

    def order(b, when, status=None):
        items = [{"sku": "sku-%06d" % rng.randrange(200_000), "qty": rng.randint(1, 4),
                  "price": round(rng.uniform(3, 120), 2)} for _ in range(rng.randint(1, 3))]
        return {"id": "o-" + hexid(rng, 16), "buyerId": b, "sellerId": "s-%05d" % seller(),
                "status": status or rng.choice(STATUSES), "currency": "USD",
                "total": round(sum(i["qty"] * i["price"] for i in items), 2), "items": items,
                "shipTo": {"city": rng.choice(CITIES), "zip": "%05d" % rng.randrange(100_000)},
                "createdAt": iso(when)}

    docs = [order(buyer(), start + timedelta(seconds=rng.randrange(730 * 86400)))
            for _ in range(ORDERS)]

    # An hour after the export: reads by buyer, by order with its buyer, by seller; creates.
    t0, ops = start + timedelta(days=731), []
    history = "SELECT TOP 20 * FROM c WHERE c.buyerId = @b ORDER BY c.createdAt DESC"
    one = "SELECT * FROM c WHERE c.buyerId = @b AND c.id = @id"
    sellers_open = "SELECT * FROM c WHERE c.sellerId = @s AND c.status = 'open'"
    for _ in range(5_000):
        when = t0 + timedelta(milliseconds=rng.randrange(3_600_000))
        x = rng.random()
        if x < 0.55:
            ops.append((when, query(history, when, {"b": buyer()})))
        elif x < 0.80:
            d = rng.choice(docs)
            ops.append((when, query(one, when, {"b": d["buyerId"], "id": d["id"]})))
        elif x < 0.90:
            ops.append((when, query(sellers_open, when, {"s": "s-%05d" % seller()})))
        else:
            ops.append((when, {"op": "create", "doc": order(buyer(), when, "open"),
                               "ts": iso_ms(when)}))
    ops.sort(key=lambda o: o[0])
    sizes = write(out, docs, [o for _, o in ops])

    count = {}
    for d in docs:
        count[d["buyerId"]] = count.get(d["buyerId"], 0) + 1
    twice = sorted(b for b, n in count.items() if n == 2 and b.startswith("u-"))
    by_seller = {}
    for d in docs:
        by_seller[d["sellerId"]] = by_seller.get(d["sellerId"], 0) + 1
    top_reseller = max((n, b) for b, n in count.items() if b.startswith("r-"))
    write_truth(out, {
        "documents": len(docs), "bytes": sizes[0], "mean_order_bytes": round(sizes[0] / len(docs), 2),
        "buyers": len(count), "buyers_seen_twice": twice,
        "buyers_seen_more_than_twice": sum(1 for b, n in count.items() if n > 2 and b.startswith("u-")),
        "top_reseller": top_reseller[1], "top_reseller_orders": top_reseller[0],
        "top_reseller_share": round(top_reseller[0] / len(docs), 5),
        "top_seller_share": round(max(by_seller.values()) / len(docs), 4),
    })


if __name__ == "__main__":
    cli(main)
