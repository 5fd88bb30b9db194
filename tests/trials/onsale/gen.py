#!/usr/bin/env python3
"""Trial onsale: ticket orders, 500 GB at 120,000 RU/s (20 partitions); a 0.2% log of four
hours while each hour a different headline event at v-arena takes 1,000 orders a second.
See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import bisect
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, query, write, write_truth  # noqa: E402

UTC = timezone.utc
EVENTS, VENUES, USERS, ARENA = 4_000, 300, 2_000_000, "v-arena"
STATUS = ["paid", "paid", "paid", "held", "refunded"]


def main(out):
    rng = random.Random(20261205)
    os.makedirs(out, exist_ok=True)
    # Venues by Zipf; v-arena is the first. Each event has its venue.
    cv = cumulative([(i + 3) ** -1.0 for i in range(VENUES)])

    def venue():
        i = bisect.bisect_left(cv, rng.random() * cv[-1])
        return ARENA if i == 0 else "v-%03d" % i

    venues = {"e-%04d" % i: venue() for i in range(EVENTS)}
    ce = cumulative([(i + 5) ** -0.9 for i in range(EVENTS)])

    def event():
        return "e-%04d" % bisect.bisect_left(ce, rng.random() * ce[-1])

    def user():
        return "u-%07d" % int(USERS * rng.random() ** 1.3)

    def order(e, when):
        seats = rng.randint(1, 6)
        return {"id": hexid(rng, 16), "eventId": e, "venueId": venues.get(e, ARENA),
                "userId": user(), "status": rng.choice(STATUS), "seats": seats,
                "total": round(seats * rng.uniform(30, 250), 2), "ts": iso(when),
                "channel": rng.choice(["web", "app", "box-office"])}

    # The sample: 20,000 orders from the year before the log.
    now = datetime(2026, 12, 5, 10, tzinfo=UTC)
    start = now - timedelta(days=365)
    docs = [order(event(), start + timedelta(seconds=rng.randrange(365 * 86400)))
            for _ in range(20_000)]
    docs.sort(key=lambda d: d["ts"])

    # The log: 0.2% of 10:00-14:00; hour h's headline event is e-head-(h+1), at v-arena.
    share, ops = 0.002, []
    for h in range(4):
        head = "e-head-%d" % (h + 1)
        venues[head] = ARENA
        t0 = now + timedelta(hours=h)

        def times(n):
            return sorted(t0 + timedelta(microseconds=rng.randrange(3600 * 10 ** 6)) for _ in range(n))

        for when in times(round(1000 * 3600 * share)):
            ops.append((when, {"op": "create", "doc": order(head, when), "ts": iso_ms(when)}))
        for when in times(round(400 * 3600 * share)):
            ops.append((when, {"op": "create", "doc": order(event(), when), "ts": iso_ms(when)}))
        mine = "SELECT * FROM c WHERE c.userId = @u"
        for when in times(round(200 * 3600 * share)):
            ops.append((when, query(mine, when, {"u": user()})))
    ops.sort(key=lambda x: x[0])
    write(out, docs, [o for _, o in ops])

    created = [o for _, o in ops if o["op"] == "create"]
    truth = {"documents": len(docs), "log_lines": len(ops), "creates": len(created),
             "arena_creates": sum(1 for o in created if o["doc"]["venueId"] == ARENA),
             "arena_sample": sum(1 for d in docs if d["venueId"] == ARENA)}
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
