#!/usr/bin/env python3
"""Trial flashsale: 6,000 sample orders of 3,000 customers (a Pareto-heavy tail: c1 places
17%) in 20 stores (s0 30%), and one hour of log at 1/10: 40 creates/s, 200 customer
queries/s, and a 10-minute flash sale sending 60% of creates to store s7. See VERDICT.md.

Usage: python3 gen.py OUTDIR   writes OUTDIR/docs.ndjson and OUTDIR/queries.ndjson.
Deterministic (one seeded random.Random), standard library only."""
import os
import random
import sys
from datetime import datetime, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cumulative, iso_epoch as iso, jdump_ascii as jdump  # noqa: E402

SEED = 500_020_000
CUSTOMERS = 3_000
PARETO_SHAPE = 0.9                     # customer of rank k orders in proportion to k^(-1/0.9)
STORES = 20
S0_SHARE = 0.30
SAMPLE = 6_000
SAMPLE_START = datetime(2026, 11, 1, tzinfo=timezone.utc)
SAMPLE_END = datetime(2026, 12, 1, tzinfo=timezone.utc)
LOG_START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
LOG_SECONDS = 3600
CREATES_PER_S = 40
QUERIES_PER_S = 200
QUERY_COUNT = 5                        # one query line stands for 5 queries of one customer
SALE_FROM, SALE_TO = 1800, 2400        # 10:30-10:40
SALE_STORE, SALE_SHARE = "s7", 0.6
# Queries draw their customer by the same Pareto weights as orders (see VERDICT.md's rebuild note).
STATUSES = ["placed", "paid", "shipped", "delivered", "delivered"]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)
    customers = ["c%d" % k for k in range(1, CUSTOMERS + 1)]
    cust_cum = cumulative([k ** (-1.0 / PARETO_SHAPE) for k in range(1, CUSTOMERS + 1)])
    stores = ["s%d" % k for k in range(STORES)]
    store_cum = cumulative([S0_SHARE] + [(1.0 - S0_SHARE) / (STORES - 1)] * (STORES - 1))

    def order(t, store=None, status="placed"):
        """One order of ~120 bytes: 7 indexed terms; a random id."""
        oid = "o%010x" % rng.getrandbits(40)
        return {"id": oid, "customerId": rng.choices(customers, cum_weights=cust_cum, k=1)[0],
                "storeId": store or rng.choices(stores, cum_weights=store_cum, k=1)[0], "status": status,
                "total": round(rng.uniform(5.0, 250.0), 2), "items": rng.randint(1, 6), "ts": iso(t)}

    # The sample: 6,000 orders of November, in time order.
    t_start, t_end = int(SAMPLE_START.timestamp()), int(SAMPLE_END.timestamp())
    times = sorted(rng.randrange(t_start, t_end) for _ in range(SAMPLE))
    with open(os.path.join(out, "docs.ndjson"), "w") as f:
        f.write("".join(jdump(order(t, status=rng.choice(STATUSES))) + "\n" for t in times))

    # The log: one hour at 1/10, second by second; creates one a line, queries QUERY_COUNT a line.
    t0 = int(LOG_START.timestamp())
    with open(os.path.join(out, "queries.ndjson"), "w") as f:
        for s in range(LOG_SECONDS):
            ts = iso(t0 + s)
            lines = []
            for _ in range(CREATES_PER_S):
                sale = SALE_FROM <= s < SALE_TO and rng.random() < SALE_SHARE
                lines.append({"op": "create", "doc": order(t0 + s, SALE_STORE if sale else None), "ts": ts})
            for _ in range(QUERIES_PER_S // QUERY_COUNT):
                c = rng.choices(customers, cum_weights=cust_cum, k=1)[0]
                lines.append({"op": "query", "sql": "SELECT * FROM c WHERE c.customerId = '%s'" % c,
                              "count": QUERY_COUNT, "ts": ts})
            rng.shuffle(lines)
            f.write("".join(jdump(o) + "\n" for o in lines))


if __name__ == "__main__":
    main()
