#!/usr/bin/env python3
"""Trial betting-final: a sportsbook's bets in the 10 minutes before the World Cup final.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)

The final's match-odds market (`mkt-wc2026-final-match-odds`) takes 2,000 of the 3,200 bet
placements a second; receipts and "my bets" are read by user. The log is 1% of the requests
(--log-share 0.01); the target is 500 GB at 60,000 RU/s. See VERDICT.md for the workload and
the verdict. Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso_ms, jdump, write, write_truth  # noqa: E402

UTC = timezone.utc
FINAL = "mkt-wc2026-final-match-odds"
FINAL_EVENT = "evt-wc2026-final"
FINAL_OTHER_KINDS = [
    "correct-score", "total-goals-2-5", "both-teams-score", "first-goalscorer", "anytime-goalscorer",
    "double-chance", "draw-no-bet", "asian-handicap", "european-handicap", "half-time-result",
    "half-time-full-time", "total-corners", "total-cards", "to-qualify", "method-of-victory",
    "winning-margin", "first-team-to-score", "last-goalscorer", "player-shots", "player-assists",
    "penalty-awarded", "red-card", "extra-time", "penalty-shootout", "clean-sheet-home",
    "clean-sheet-away", "goals-odd-even", "highest-scoring-half", "score-cast", "wincast",
]
KINDS = ["match-odds", "total-goals", "btts", "correct-score", "handicap", "corners", "cards", "first-scorer",
         "double-chance", "draw-no-bet"]
SPORTS = ["football", "tennis", "basketball", "ice-hockey", "baseball", "cricket"]
COMPETITIONS = ["premier-league", "la-liga", "serie-a", "bundesliga", "ligue-1", "mls", "atp", "wta", "nba",
                "nhl", "mlb", "ipl", "eredivisie", "primeira-liga"]


def main(out):
    rng = random.Random(20260719)
    os.makedirs(out, exist_ok=True)

    def pick_user():  # 4,000,000 customers, power-law activity: P(index < x) = (x/n)^(1/1.5)
        idx = min(3_999_999, int(4_000_000 * rng.random() ** 1.5))
        return "u-%010x" % ((idx * 0x9E3779B1 + 0x2026) % 16 ** 10)

    # Other events: 2,000, each with 6-10 markets.
    events, markets = [], []
    market_event, market_sport = {}, {}
    for _ in range(2000):
        e = "evt-" + hexid(rng, 8)
        sport = rng.choice(SPORTS)
        comp = rng.choice(COMPETITIONS)
        events.append(e)
        for k in rng.sample(KINDS, rng.randint(6, 10)):
            m = "mkt-%s-%s" % (e[4:], k)
            markets.append(m)
            market_event[m] = (e, sport, comp)
    rng.shuffle(markets)
    other_cw = cumulative([(i + 50) ** -0.9 for i in range(len(markets))])
    live = rng.sample(markets, 1500)
    live_cw = cumulative([(i + 20) ** -0.9 for i in range(len(live))])
    final_others = ["mkt-wc2026-final-" + k for k in FINAL_OTHER_KINDS]
    final_cw = cumulative([(i + 1) ** -1.0 for i in range(len(final_others))])
    for m in [FINAL] + final_others:
        market_event[m] = (FINAL_EVENT, "football", "fifa-world-cup")

    def bet(m, t, status):
        bid = "bet-" + hexid(rng, 16)
        e, sport, comp = market_event[m]
        stake = round(rng.lognormvariate(2.3, 1.0), 2)
        odds = round(rng.uniform(1.2, 9.0), 2)
        d = {"id": bid, "betId": bid, "userId": pick_user(), "marketId": m, "eventId": e, "competition": comp,
             "sport": sport, "selection": rng.choice(["home", "draw", "away", "over", "under", "yes", "no"]),
             "stake": stake, "odds": odds, "potentialReturn": round(stake * odds, 2),
             "currency": rng.choice(["USD", "GBP", "EUR", "EUR", "MXN", "CAD"]), "placedAt": iso_ms(t),
             "status": status, "channel": rng.choices(["app", "web", "retail"], [70, 25, 5])[0],
             "inPlay": False, "promo": rng.choice(["none", "none", "none", "boost10", "freebet"]),
             "device": {"os": rng.choice(["ios", "android", "web"]), "app": "%d.%d.%d" % (
                 rng.randint(7, 9), rng.randint(0, 30), rng.randint(0, 9))},
             "geo": {"country": rng.choice(["US", "GB", "MX", "CA", "DE", "ES", "IE"]), "ipHash": hexid(rng, 24)},
             "limits": {"tier": rng.choice(["std", "std", "std", "vip", "sharp"]),
                        "maxStake": rng.choice([50, 100, 250, 500, 1000])},
             "settlement": {"ruleset": rng.choice(["90min", "inc-et", "as-played"])}}
        return d

    # Sample: 20,000 bets drawn uniformly from the container (time order); the final's markets
    # only since the semi-finals (2026-07-15), about 0.05% of the sample.
    start = datetime(2024, 8, 1, tzinfo=UTC)
    end = datetime(2026, 7, 19, 18, 50, tzinfo=UTC)
    semis = datetime(2026, 7, 15, tzinfo=UTC)
    span = (end - start).total_seconds()
    docs = []
    for t in sorted(start + timedelta(seconds=rng.random() * span) for _ in range(20000)):
        if t >= semis and rng.random() < 0.09:
            m = FINAL if rng.random() < 0.5 else rng.choices(final_others, cum_weights=final_cw)[0]
        else:
            m = rng.choices(markets, cum_weights=other_cw)[0]
        docs.append(bet(m, t, rng.choices(["won", "lost", "cashed-out", "void"], [30, 62, 6, 2])[0]))

    # Log: 1% of the requests of 2026-07-19 18:50-19:00 UTC, flat rates.
    share, secs = 0.01, 600
    n_create, n_read, n_mine = int(3200 * secs * share), int(800 * secs * share), int(600 * secs * share)

    def times(n):
        return sorted(end + timedelta(microseconds=rng.randrange(secs * 10 ** 6)) for _ in range(n))

    ops, placed = [], []
    for t in times(n_create):
        r = rng.random()
        if r < 0.625:
            m = FINAL
        elif r < 0.875:
            m = rng.choices(final_others, cum_weights=final_cw)[0]
        else:
            m = rng.choices(live, cum_weights=live_cw)[0]
        d = bet(m, t, "open")
        ops.append((t, {"op": "create", "doc": d, "ts": iso_ms(t)}))
        placed.append((t, d))

    def earlier(t):
        # a bet placed in the window before t (placed is in time order)
        lo, hi = 0, len(placed)
        while lo < hi:
            mid = (lo + hi) // 2
            if placed[mid][0] < t:
                lo = mid + 1
            else:
                hi = mid
        return placed[rng.randrange(lo)][1] if lo else None

    for t in times(n_read):
        d = earlier(t)
        if d is None:
            d = placed[0][1]
            t = placed[0][0] + timedelta(milliseconds=1)
        ops.append((t, {"op": "read", "id": d["id"], "known": {"/userId": d["userId"], "/betId": d["betId"]},
                        "ts": iso_ms(t)}))
    mine = "SELECT TOP 5 * FROM c WHERE c.userId = @u ORDER BY c.placedAt DESC"
    for t in times(n_mine):
        d = earlier(t) if rng.random() < 0.7 else None
        u = d["userId"] if d else pick_user()
        ops.append((t, {"op": "query", "sql": mine, "parameters": [{"name": "@u", "value": u}], "ts": iso_ms(t)}))
    ops.sort(key=lambda x: x[0])

    write(out, docs, [o for _, o in ops])
    creates = [o["doc"] for _, o in ops if o["op"] == "create"]
    sizes = [len(jdump(d).encode()) for d in docs]
    truth = {
        "sample_documents": len(docs), "sample_mean_bytes": round(sum(sizes) / len(sizes), 1),
        "sample_max_bytes": max(sizes), "sample_final_market_docs": sum(1 for d in docs if d["marketId"] == FINAL),
        "sample_final_event_docs": sum(1 for d in docs if d["eventId"] == FINAL_EVENT),
        "log_creates": len(creates), "log_creates_final_match_odds": sum(1 for d in creates if d["marketId"] == FINAL),
        "log_reads": n_read, "log_my_bets": n_mine,
        "hand_final_market_ru_s": 2000 * (5.5 + 0.2 * 24),
    }
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
