#!/usr/bin/env python3
"""Trial franchise: a 12-store point-of-sale pilot (every order of 14 days) and a lunch hour
of production at 1/100 from 1,800 stores and a stadium (st-9000, 16% of all orders) the
pilot never saw. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, jdump, write, write_truth  # noqa: E402

UTC = timezone.utc
STADIUM, STADIUM_SHARE = "st-9000", 0.16
MENU = [("burger", 6.5), ("fries", 2.9), ("cola", 2.2), ("salad", 7.1), ("wrap", 5.8),
        ("shake", 3.9), ("nuggets", 4.6), ("coffee", 1.9), ("pie", 2.4), ("water", 1.5)]


def order(rng, store, opened, ticket, status):
    lines = []
    for _ in range(rng.randint(1, 6)):
        name, price = rng.choice(MENU)
        lines.append({"sku": "sku-" + name, "name": name, "qty": rng.randint(1, 3), "price": price})
    closed = opened + timedelta(minutes=rng.randint(3, 25))
    d = {"id": "ord-" + hexid(rng, 16), "storeId": store, "orderId": "o-" + hexid(rng, 10),
         "ticket": ticket, "status": status, "channel": rng.choice(["counter", "counter", "drive", "app"]),
         "items": lines, "total": round(sum(x["qty"] * x["price"] for x in lines), 2), "currency": "USD",
         "openedAt": iso(opened), "ttl": 63072000}
    if status == "closed":
        d["closedAt"] = iso(closed)
    return d


def main(out):
    rng = random.Random(20261204)
    os.makedirs(out, exist_ok=True)
    stores = ["st-%04d" % i for i in range(1, 1801)]
    rate = {s: rng.randint(100, 200) for s in stores}  # orders a day
    pilot = sorted(rng.sample(stores, 12))

    # The pilot: every order of its stores over 14 days, in time order.
    start = datetime(2026, 11, 16, tzinfo=UTC)
    docs = []
    for day in range(14):
        base = start + timedelta(days=day)
        todays = []
        for s in pilot:
            for t in range(rate[s]):
                opened = base + timedelta(hours=7) + timedelta(seconds=rng.randrange(15 * 3600))
                todays.append((opened, s, t + 1))
        todays.sort()
        docs += [order(rng, s, opened, t, "closed") for opened, s, t in todays]

    # Production's weights: the stadium 16%, the stores the rest by their rates.
    total = sum(rate.values())
    names = stores + [STADIUM]
    weights = [(1 - STADIUM_SHARE) * rate[s] / total for s in stores] + [STADIUM_SHARE]
    cw = cumulative(weights)

    def pick():
        return rng.choices(names, cum_weights=cw)[0]

    # One lunch hour at 1/100: the chain's 12:00-13:00 orders (a seventh of a day's).
    hour, share = datetime(2026, 12, 12, 12, tzinfo=UTC), 0.01
    daily = total / (1 - STADIUM_SHARE)

    def times(n):
        return sorted(hour + timedelta(microseconds=rng.randrange(3600 * 10 ** 6)) for _ in range(n))

    ops, created = [], []
    for when in times(round(daily / 7 * share)):
        d = order(rng, pick(), when, rng.randint(1, 400), "open")
        created.append(d)
        ops.append((when, {"op": "create", "doc": d, "ts": iso_ms(when)}))
    for when in times(900):
        d = rng.choice(created)
        ops.append((when, {"op": "read", "id": d["id"], "known": {"/storeId": d["storeId"]}, "ts": iso_ms(when)}))
    kds = "SELECT * FROM c WHERE c.storeId = @s AND c.status = 'open'"
    for when in times(300):
        ops.append((when, {"op": "query", "sql": kds, "parameters": [{"name": "@s", "value": pick()}],
                           "ts": iso_ms(when)}))
    ops.sort(key=lambda x: x[0])
    write(out, docs, [o for _, o in ops])

    size = sum(len(jdump(d).encode()) for d in docs) / len(docs)
    per_store = {}
    for d in docs:
        per_store[d["storeId"]] = per_store.get(d["storeId"], 0) + len(jdump(d).encode())
    busiest = max(per_store.items(), key=lambda kv: (kv[1], kv[0]))
    truth = {
        "pilot": pilot, "documents": len(docs), "mean_bytes": round(size, 1),
        "busiest_pilot_store": busiest[0],
        "busiest_pilot_store_two_years_MB": round(busiest[1] / 14 * 730 / 1e6, 1),
        "stadium_GB_at_250GB": STADIUM_SHARE * 250,
        "log_creates": len(created), "log_stores": len({d["storeId"] for d in created}),
        "log_stadium_creates": sum(1 for d in created if d["storeId"] == STADIUM),
    }
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
