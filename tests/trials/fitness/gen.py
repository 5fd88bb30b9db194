#!/usr/bin/env python3
"""Trial fitness: a 25,000-workout snapshot of a fitness app (60,000 users), and a log of 10% of
an hour: recent lists 300/s, point reads 200/s, type lists 50/s, creates 40/s. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import bisect
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cumulative, hexid, iso, iso_ms, query, write  # noqa: E402

UTC = timezone.utc
T0 = datetime(2026, 3, 9, 7, 0, tzinfo=UTC)
TYPES = ["run", "walk", "ride", "swim", "yoga", "row", "hike", "strength", "hiit"]
PLACES = "park river track hills gym pool city beach forest".split()
WORDS = "felt strong easy tired windy hot cold fast slow steady great hard recovery tempo".split()


def guid(rng):
    h = hexid(rng, 32)
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def main(out):
    rng = random.Random(20260309)
    os.makedirs(out, exist_ok=True)
    n_users = 60_000
    users = ["usr-" + hexid(rng, 12) for _ in range(n_users)]
    serial = ["W" + hexid(rng, 10).upper() for _ in range(n_users)]
    weights = [rng.lognormvariate(0, 1.0) for _ in range(n_users)]
    cw = cumulative(weights)

    def user():
        return bisect.bisect_left(cw, rng.random() * cw[-1])

    def workout(u, t):
        kind = rng.choice(TYPES)
        dur = rng.randint(600, 7200)
        return {"id": guid(rng), "userId": users[u], "deviceSerial": serial[u], "workoutType": kind,
                "distanceKm": round(rng.uniform(0.5, 42.0), 2), "calories": int(dur * rng.uniform(0.08, 0.2)),
                "durationSec": dur, "completed": rng.random() < 0.93, "startedAt": iso(t),
                "title": "%s %s in the %s" % (rng.choice(["Morning", "Evening", "Lunch"]), kind, rng.choice(PLACES)),
                "notes": " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 18)))}

    docs, known = [], []
    for _ in range(25_000):
        u = user()
        d = workout(u, T0 - timedelta(days=rng.uniform(0, 1000)))
        docs.append(d)
        known.append((u, d["id"]))
    share = 0.1
    ops = []

    def at():
        return T0 + timedelta(seconds=rng.uniform(0, 3600))

    recent = "SELECT TOP 20 * FROM c WHERE c.userId = @u ORDER BY c.startedAt DESC"
    for _ in range(round(300 * 3600 * share)):
        t = at()
        ops.append((t, query(recent, t, {"u": users[user()]})))
    for _ in range(round(200 * 3600 * share)):
        u, i = known[rng.randrange(len(known))] if rng.random() < 0.4 else (user(), guid(rng))
        t = at()
        ops.append((t, {"op": "read", "id": i, "known": {"/userId": users[u]}, "ts": iso_ms(t)}))
    by_type = "SELECT * FROM c WHERE c.userId = @u AND c.workoutType = @t"
    for _ in range(round(50 * 3600 * share)):
        t = at()
        ops.append((t, query(by_type, t, {"u": users[user()], "t": rng.choice(TYPES)})))
    for _ in range(round(40 * 3600 * share)):
        t = at()
        ops.append((t, {"op": "create", "doc": workout(user(), t), "ts": iso_ms(t)}))
    ops.sort(key=lambda o: o[0])
    write(out, docs, [o for _, o in ops])


if __name__ == "__main__":
    main(sys.argv[1])
