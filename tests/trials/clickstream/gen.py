#!/usr/bin/env python3
"""Trial clickstream: 7 days of a site's events (200,000: sessions of mean length 6 from
12,000 users over 300 pages by Zipf) and an hour's log of creates and reads by session and
by user. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import Picker, cli, hexid, iso, write, write_truth  # noqa: E402

UTC = timezone.utc
EVENTS, USERS, PAGES, MEAN_SESSION = 200_000, 12_000, 300, 6
COUNTRIES = ["US", "GB", "DE", "FR", "IN", "BR", "JP", "CA", "AU", "ES", "IT", "NL", "MX",
             "SE", "PL", "KR", "ZA", "AR", "IE", "NO"]
TYPES = ["view", "view", "view", "click", "scroll", "add_to_cart", "search"]


def session_length(rng):
    """1 + a geometric number of further events: mean MEAN_SESSION."""
    n, p = 1, 1 / MEAN_SESSION
    while rng.random() >= p:
        n += 1
    return n


def main(out):
    rng = random.Random(20261205)
    os.makedirs(out, exist_ok=True)
    users = ["u-%06d" % rng.randrange(10 ** 6) for _ in range(USERS)]
    user = Picker(rng, [rng.lognormvariate(0, 1) for _ in range(USERS)])
    page = Picker(rng, [1 / k for k in range(1, PAGES + 1)])
    start = datetime(2026, 11, 25, tzinfo=UTC)

    events, sessions = [], 0
    while len(events) < EVENTS:
        sid, u = "s-" + hexid(rng, 12), users[user()]
        country = rng.choice(COUNTRIES)
        when = start + timedelta(seconds=rng.randrange(7 * 86400))
        for _ in range(min(session_length(rng), EVENTS - len(events))):
            events.append((when, sid, u, country))
            when += timedelta(seconds=rng.randint(5, 60))
        sessions += 1
    events.sort(key=lambda e: e[0])

    def event(when, sid, u, country):
        return {"id": "e-" + hexid(rng, 16), "sessionId": sid, "userId": u,
                "pageId": "p-%03d" % page(), "country": country, "type": rng.choice(TYPES),
                "referrer": rng.choice(["", "search", "social", "email", "direct"]),
                "ts": iso(when)}

    docs = [event(*e) for e in events]

    # An hour of traffic after the sample: creates (new sessions' events), reads by session
    # and by a user's recent events.
    t0, ops, made = start + timedelta(days=7), [], []
    for _ in range(300):
        sid, u = "s-" + hexid(rng, 12), users[user()]
        when = t0 + timedelta(seconds=rng.randrange(3600))
        for _ in range(session_length(rng)):
            d = event(when, sid, u, rng.choice(COUNTRIES))
            made.append(d)
            ops.append((when, {"op": "create", "doc": d, "ts": iso(when)}))
            when += timedelta(seconds=rng.randint(5, 60))
    by_session = "SELECT * FROM c WHERE c.sessionId = @s"
    by_user = "SELECT TOP 50 * FROM c WHERE c.userId = @u ORDER BY c.ts DESC"
    for _ in range(2000):
        d = rng.choice(made)
        when = t0 + timedelta(seconds=rng.randrange(3600))
        ops.append((when, {"op": "query", "sql": by_session,
                           "parameters": [{"name": "@s", "value": d["sessionId"]}], "ts": iso(when)}))
    for _ in range(800):
        when = t0 + timedelta(seconds=rng.randrange(3600))
        ops.append((when, {"op": "query", "sql": by_user,
                           "parameters": [{"name": "@u", "value": users[user()]}], "ts": iso(when)}))
    ops.sort(key=lambda o: o[0])
    sizes = write(out, docs, [o for _, o in ops])

    per_session = {}
    for d in docs:
        per_session[d["sessionId"]] = per_session.get(d["sessionId"], 0) + 1
    alone = sum(1 for n in per_session.values() if n == 1)
    top_page = sum(1 for d in docs if d["pageId"] == "p-000")
    write_truth(out, {
        "documents": len(docs), "bytes": sizes[0], "sessions": len(per_session),
        "session_once_share": round(alone / len(docs), 5),
        "longest_session": max(per_session.values()),
        "mean_event_bytes": round(sizes[0] / len(docs), 2),
        "top_page_share": round(top_page / len(docs), 4),
        "log_creates": len(made),
    })


if __name__ == "__main__":
    cli(main)
