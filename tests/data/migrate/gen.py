#!/usr/bin/env python3
"""Writes docs.ndjson: orders of an online shop whose container is keyed by /customerId.

200 customers of 10 orders each; a customer lives in one region (eu 50%, us 35%, ap 15%
of the customers, and so of the orders). Item ids are unique per customer only. Planted:
- id "dup-a" under customers c-0 and c-1 (both eu), "dup-b" under c-0, c-1 and c-2 (all
  eu): copied into a container keyed by /region they collide (2 pairs, 3 conflicts);
- "dup-c" under c-10 (us) and c-20 (eu): different regions, no collision;
- "dup-d" twice under c-10: the same item exported twice, not a collision.
Deterministic: the same file every run.
"""
import json
import random

REGIONS = ["eu"] * 10 + ["us"] * 7 + ["ap"] * 3


def region(i):
    return REGIONS[i % 20]


def order(rng, customer, oid, seq):
    return {
        "id": oid,
        "customerId": f"c-{customer}",
        "region": region(customer),
        "orderId": f"{customer}-{seq}",
        "amount": rng.randrange(100, 100000),
    }


def main():
    rng = random.Random(7)
    docs = []
    for c in range(200):
        for k in range(10):
            docs.append(order(rng, c, f"{c}-{k}", k))
    planted = [(0, "dup-a"), (1, "dup-a"), (0, "dup-b"), (1, "dup-b"), (2, "dup-b"),
               (10, "dup-c"), (20, "dup-c"), (10, "dup-d")]
    for c, oid in planted:
        docs.append(order(rng, c, oid, oid))
    docs.append(dict(docs[-1]))  # dup-d exported twice
    rng.shuffle(docs)
    with open("docs.ndjson", "w") as f:
        for d in docs:
            f.write(json.dumps(d, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
