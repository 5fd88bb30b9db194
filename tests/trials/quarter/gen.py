#!/usr/bin/env python3
"""Trial quarter: a bank ledger whose current quarter takes 78% of the writes.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)

10 quarters online (2024Q1 .. 2026Q2); 300,000 accounts (activity lognormal(0, 1)). The log
is 2% of 20 minutes' requests (--log-share 0.02): 36,000 entry creates, 78% dated in the
current quarter and 22% late postings in the nine earlier ones (weights 0.6^k), and 7,200
statement pages by account and quarter. Target 1 TB at 30,000 RU/s. See VERDICT.md.
Deterministic: one seeded random.Random, compact JSON, no clock."""
import math
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, jdump, write, write_truth  # noqa: E402

UTC = timezone.utc
QUARTERS = ["%dQ%d" % (y, q) for y in (2024, 2025, 2026) for q in (1, 2, 3, 4)][:10]  # 2024Q1 .. 2026Q2
TYPES = ["card", "card", "card", "transfer", "transfer", "direct-debit", "fee", "interest", "atm", "payroll"]


def quarter_start(q):
    y, n = int(q[:4]), int(q[-1])
    return datetime(y, 3 * (n - 1) + 1, 1, tzinfo=UTC)


def main(out):
    rng = random.Random(20260514)
    os.makedirs(out, exist_ok=True)

    n_acc = 300_000
    accounts = ["acc-%08d" % (i * 7919 % 100_000_000) for i in range(n_acc)]
    acc_cw = cumulative([rng.lognormvariate(0, 1) for _ in range(n_acc)])

    def pick_account():
        return rng.choices(accounts, cum_weights=acc_cw)[0]

    def entry(acc, q, posted, booked):
        amount = round(rng.lognormvariate(3.5, 1.3), 2)
        return {"id": "le-" + hexid(rng, 16), "accountId": acc, "quarter": q, "postedAt": iso(posted),
                "bookingDate": booked.strftime("%Y-%m-%d"), "amount": amount,
                "currency": rng.choice(["EUR", "EUR", "EUR", "USD", "GBP"]), "type": rng.choice(TYPES),
                "direction": rng.choice(["debit", "debit", "credit"]), "channel": rng.choice(["pos", "online", "branch", "batch"]),
                "counterparty": "cp-" + hexid(rng, 8), "reference": hexid(rng, 20), "memo": "ref %s %s" % (hexid(rng, 6), rng.choice(TYPES)),
                "balanceAfter": round(rng.uniform(-2000, 40000), 2), "status": "booked", "batchId": "b-" + hexid(rng, 10)}

    # Sample: 20,000 entries drawn uniformly from the container, in time order. Each quarter
    # 4% larger than the one before; the current quarter (2026Q2) six weeks old at 2026-05-14.
    now = datetime(2026, 5, 14, 10, 0, tzinfo=UTC)
    weights = []
    for i, q in enumerate(QUARTERS):
        w = 1.04 ** i
        if q == QUARTERS[-1]:
            w *= (now - quarter_start(q)).total_seconds() / (91 * 86400)
        weights.append(w)
    q_cw = cumulative(weights)
    rows = []
    for _ in range(20000):
        q = rng.choices(QUARTERS, cum_weights=q_cw)[0]
        qs = quarter_start(q)
        qe = now if q == QUARTERS[-1] else quarter_start(QUARTERS[QUARTERS.index(q) + 1])
        posted = qs + timedelta(seconds=rng.random() * (qe - qs).total_seconds())
        rows.append((posted, q))
    rows.sort()
    docs = [entry(pick_account(), q, t, t) for t, q in rows]

    # Log: 2% of the requests of 2026-05-14 10:00-10:20 UTC.
    secs, share = 1200, 0.02

    def times(n):
        return sorted(now + timedelta(microseconds=rng.randrange(secs * 10 ** 6)) for _ in range(n))

    earlier = QUARTERS[:-1][::-1]  # 2026Q1, 2025Q4, ...
    late_cw = cumulative([0.6 ** k for k in range(len(earlier))])
    ops = []
    for t in times(int(1500 * secs * share)):
        if rng.random() < 0.78:
            q, booked = QUARTERS[-1], t
        else:
            q = rng.choices(earlier, cum_weights=late_cw)[0]
            qs = quarter_start(q)
            booked = qs + timedelta(days=rng.randint(0, 89))
        ops.append((t, {"op": "create", "doc": entry(pick_account(), q, t, booked), "ts": iso_ms(t)}))
    stmt = "SELECT TOP 50 * FROM c WHERE c.accountId = @a AND c.quarter = @q ORDER BY c.postedAt"
    for t in times(int(300 * secs * share)):
        q = QUARTERS[-1] if rng.random() < 0.6 else rng.choice(QUARTERS[:-1])
        ops.append((t, {"op": "query", "sql": stmt, "parameters": [{"name": "@a", "value": pick_account()},
                                                                   {"name": "@q", "value": q}], "ts": iso_ms(t)}))
    ops.sort(key=lambda x: x[0])

    write(out, docs, [o for _, o in ops])
    creates = [o["doc"] for _, o in ops if o["op"] == "create"]
    by_q = {}
    for d in creates:
        by_q[d["quarter"]] = by_q.get(d["quarter"], 0) + 1
    by_acc = {}
    for d in creates:
        by_acc[d["accountId"]] = by_acc.get(d["accountId"], 0) + 1
    sample_q = {}
    for d in docs:
        sample_q[d["quarter"]] = sample_q.get(d["quarter"], 0) + 1
    truth = {
        "sample_documents": len(docs), "sample_by_quarter": dict(sorted(sample_q.items())),
        "log_creates": len(creates), "log_creates_by_quarter": dict(sorted(by_q.items())),
        "log_current_quarter_share": round(by_q.get(QUARTERS[-1], 0) / len(creates), 4),
        "log_busiest_account_share": round(max(by_acc.values()) / len(creates), 5),
        "log_queries": sum(1 for _, o in ops if o["op"] == "query"),
        "partitions_hand": {"at_creation": math.ceil(30000 / 6000), "of_50GB": 20, "of_25GB": 40},
    }
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
