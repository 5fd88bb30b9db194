#!/usr/bin/env python3
"""Trial notes: a 30,000-note snapshot of a notes app (250,000 users, lognormal notes per user,
3-8 notebooks each); a log of 1% of an hour: point reads 1,500/s, recent lists 400/s, notebook
lists 300/s, patches 250/s, creates 50/s. See VERDICT.md.

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
T0 = datetime(2026, 6, 2, 14, 0, tzinfo=UTC)
WORDS = "idea plan list draft trip recipe book meeting todo budget garden project code poem".split()


def main(out):
    rng = random.Random(20260602)
    os.makedirs(out, exist_ok=True)
    n_users = 250_000
    users = ["u-" + hexid(rng, 10) for _ in range(n_users)]
    notes = [max(1, int(rng.lognormvariate(3.7, 1.0))) for _ in range(n_users)]
    books = [rng.randint(3, 8) for _ in range(n_users)]
    cw = cumulative(notes)
    total = cw[-1]

    def user():
        return bisect.bisect_left(cw, rng.random() * total)

    def note(u, t):
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(120, 200)))
        return {"id": "n-" + hexid(rng, 12), "userId": users[u], "notebookId": "nb-%d" % rng.randrange(books[u]),
                "title": " ".join(rng.choice(WORDS) for _ in range(3)), "body": body,
                "tags": rng.sample(WORDS, 2), "updatedAt": iso(t)}

    docs, known = [], []
    for _ in range(30_000):
        u = user()
        d = note(u, T0 - timedelta(days=rng.uniform(0, 900)))
        docs.append(d)
        known.append((u, d["id"], d["notebookId"]))
    share = 0.01
    ops = []

    def at():
        return T0 + timedelta(seconds=rng.uniform(0, 3600))

    def some_note():
        if rng.random() < 0.3:
            return known[rng.randrange(len(known))]
        u = user()
        return (u, "n-" + hexid(rng, 12), "nb-%d" % rng.randrange(books[u]))

    for _ in range(round(1500 * 3600 * share)):
        u, i, nb = some_note()
        t = at()
        ops.append((t, {"op": "read", "id": i, "known": {"/userId": users[u], "/notebookId": nb}, "ts": iso_ms(t)}))
    recent = "SELECT TOP 30 * FROM c WHERE c.userId = @u ORDER BY c.updatedAt DESC"
    for _ in range(round(400 * 3600 * share)):
        t = at()
        ops.append((t, query(recent, t, {"u": users[user()]})))
    book = "SELECT * FROM c WHERE c.userId = @u AND c.notebookId = @n"
    for _ in range(round(300 * 3600 * share)):
        u, _, nb = some_note()
        t = at()
        ops.append((t, query(book, t, {"u": users[u], "n": nb})))
    for _ in range(round(250 * 3600 * share)):
        u, i, nb = some_note()
        t = at()
        ops.append((t, {"op": "patch", "id": i, "known": {"/userId": users[u], "/notebookId": nb}, "ts": iso_ms(t)}))
    for _ in range(round(50 * 3600 * share)):
        t = at()
        ops.append((t, {"op": "create", "doc": note(user(), t), "ts": iso_ms(t)}))
    ops.sort(key=lambda o: o[0])
    write(out, docs, [o for _, o in ops])


if __name__ == "__main__":
    main(sys.argv[1])
