#!/usr/bin/env python3
"""Trial `game`: a mobile game's player events (see VERDICT.md).

Usage: python3 gen.py OUTDIR   writes OUTDIR/docs.ndjson (the pilot: 60,000 events over
3 days) and OUTDIR/queries.ndjson (an hour's log at 1/10: 3,000 operations).

120,000 players (activity Zipf 0.8), 1,500 guilds (membership Zipf 1.0), 6 regions;
2,500 asynchronous matches of 8 seats drawn by activity, each event a seat's turn.
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import sys
from datetime import datetime, timedelta, timezone
from random import Random
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, iso, jdump_ascii as jdump  # noqa: E402

SEED = 36
PLAYERS, PLAYER_S = 120000, 0.8
GUILDS, GUILD_S = 1500, 1.0
REGIONS = ["us-east", "us-west", "eu-west", "eu-north", "ap-south", "ap-east"]
MATCHES, SEATS = 2500, 8
EVENTS = 60000
DOC_BYTES = 600
PILOT_START = datetime(2026, 3, 2, tzinfo=timezone.utc)
PILOT_SECONDS = 3 * 86400
LOG_START = datetime(2026, 3, 5, 12, tzinfo=timezone.utc)
LOG_SECONDS = 3600
# The log's mix: 3,000 operations.
MIX = [("create", 900), ("recent", 900), ("read", 300), ("guild", 450), ("scoreboard", 300),
       ("leaderboard", 150)]
EVENT_KINDS = ["turn", "attack", "build", "trade", "chat", "score"]
WORDS = ("able acid aged also area army away baby back ball band bank base bath bear beat bell best "
         "bird blow blue boat body bone book born bowl bulk burn bush busy call calm camp card care "
         "case cash cast cell chat chip city club coal coat code cold cook cool copy core cost crew "
         "crop dark data date dawn deal dear deep desk dial diet disc door dose down draw drop dual "
         "dust duty earn ease east easy edge even exit face fact fail fair fall farm fast fear feed").split()


def cumulative(n, s):
    acc, out = 0.0, []
    for r in range(1, n + 1):
        acc += r ** -s
        out.append(acc)
    return out


def main(outdir):
    rng = Random(SEED)
    os.makedirs(outdir, exist_ok=True)

    # Players by activity rank; each in one guild (Zipf 1.0 by guild rank) and one region.
    player_ids = ["p%06d" % n for n in rng.sample(range(100000, 1000000), PLAYERS)]
    guild_ids = ["g%04d" % n for n in rng.sample(range(1000, 10000), GUILDS)]
    guild_cw = cumulative(GUILDS, GUILD_S)
    guild_of = [guild_ids[g] for g in rng.choices(range(GUILDS), cum_weights=guild_cw, k=PLAYERS)]
    region_of = [rng.choice(REGIONS) for _ in range(PLAYERS)]

    # Matches: 8 seats each, drawn by activity (a player drawn twice holds two seats).
    match_ids = ["m%010x" % rng.getrandbits(40) for _ in range(MATCHES)]
    player_cw = cumulative(PLAYERS, PLAYER_S)
    seat_player = rng.choices(range(PLAYERS), cum_weights=player_cw, k=MATCHES * SEATS)

    def event(seat, t):
        p = seat_player[seat]
        doc = {
            "id": "%016x" % rng.getrandbits(64),
            "playerId": player_ids[p],
            "guildId": guild_of[p],
            "region": region_of[p],
            "matchId": match_ids[seat // SEATS],
            "ts": iso(t),
            "event": rng.choice(EVENT_KINDS),
            "score": rng.randint(0, 5000),
            "level": rng.randint(1, 80),
            "platform": rng.choice(("android", "ios")),
            "stats": {"damage": rng.randint(0, 900), "kills": rng.randint(0, 9), "gold": rng.randint(0, 400),
                      "xp": rng.randint(0, 250)},
            "client": "5.%d.%d" % (rng.randint(0, 14), rng.randint(0, 9)),
            "detail": "",
        }
        want = DOC_BYTES + rng.randint(-40, 40) - len(jdump(doc))
        words = []
        while want > 0:
            w = rng.choice(WORDS)
            words.append(w)
            want -= len(w) + 1
        doc["detail"] = " ".join(words)
        return doc

    # The pilot: each event a seat's turn at a random moment of the 3 days (matches run for
    # days, so every match is in play throughout), written in time order.
    arrivals = sorted((rng.random() * PILOT_SECONDS, rng.randrange(MATCHES * SEATS)) for _ in range(EVENTS))
    docs = [event(seat, PILOT_START + timedelta(seconds=int(s))) for s, seat in arrivals]
    with open(os.path.join(outdir, "docs.ndjson"), "w") as f:
        for d in docs:
            f.write(jdump(d) + "\n")

    # The log: an hour at 1/10, the mix shuffled over time-ordered moments.
    kinds = [k for k, n in MIX for _ in range(n)]
    rng.shuffle(kinds)
    moments = sorted(rng.random() * LOG_SECONDS for _ in kinds)
    with open(os.path.join(outdir, "queries.ndjson"), "w") as f:
        for kind, s in zip(kinds, moments):
            t = LOG_START + timedelta(seconds=s)
            ts = iso(t)
            if kind == "create":
                op = {"op": "create", "doc": event(rng.randrange(MATCHES * SEATS), t), "ts": ts}
            elif kind == "recent":
                p = seat_player[rng.randrange(MATCHES * SEATS)]
                op = {"op": "query", "sql": "SELECT TOP 20 * FROM c WHERE c.playerId = @p ORDER BY c.ts DESC",
                      "parameters": [{"name": "@p", "value": player_ids[p]}], "ts": ts}
            elif kind == "read":
                d = docs[rng.randrange(len(docs))]
                op = {"op": "read", "id": d["id"], "known": {"/playerId": d["playerId"]}, "ts": ts}
            elif kind == "guild":
                p = seat_player[rng.randrange(MATCHES * SEATS)]
                op = {"op": "query", "sql": "SELECT TOP 50 * FROM c WHERE c.guildId = @g ORDER BY c.ts DESC",
                      "parameters": [{"name": "@g", "value": guild_of[p]}], "ts": ts}
            elif kind == "scoreboard":
                op = {"op": "query", "sql": "SELECT * FROM c WHERE c.matchId = @m ORDER BY c.score DESC",
                      "parameters": [{"name": "@m", "value": match_ids[rng.randrange(MATCHES)]}], "ts": ts}
            else:
                op = {"op": "query",
                      "sql": "SELECT TOP 100 c.playerId, c.score FROM c WHERE c.region = @r ORDER BY c.score DESC",
                      "parameters": [{"name": "@r", "value": rng.choice(REGIONS)}], "ts": ts}
            f.write(jdump(op) + "\n")


if __name__ == "__main__":
    cli(main)
