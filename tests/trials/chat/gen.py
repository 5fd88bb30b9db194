#!/usr/bin/env python3
"""Trial chat: a 10-workspace messaging pilot (every message of 7 days) and an hour of
production at 1/50 from 5,000 workspaces, among them w-0000 (8% of all messages over 400
channels) and w-0001 (10.1% over a few channels), neither in the pilot. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, write, write_truth  # noqa: E402

UTC = timezone.utc
DAILY, BIG_SHARE, BIG_CHANNELS, OTHERS = 12_000_000, 0.08, 400, 4999
WORDS = ["deploy", "review", "lunch", "standup", "ticket", "release", "invoice", "design",
         "call", "budget", "draft", "ship", "bug", "meeting", "ok", "thanks", "later", "done"]


def message(rng, ws, channel, when):
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 30)))
    return {"id": "m-" + hexid(rng, 12), "workspaceId": ws, "channelId": channel,
            "messageId": "m-" + hexid(rng, 12), "author": "u-%05d" % rng.randint(1, 60000),
            "text": text, "sentAt": iso(when)}


def main(out):
    rng = random.Random(20261206)
    os.makedirs(out, exist_ok=True)
    h = sum(1 / k for k in range(1, OTHERS + 1))
    spaces = ["w-%04d" % i for i in range(OTHERS + 1)]
    share = {spaces[0]: BIG_SHARE}
    share.update({spaces[k]: (1 - BIG_SHARE) / (h * k) for k in range(1, OTHERS + 1)})
    channels = {spaces[0]: ["c-" + hexid(rng, 10) for _ in range(BIG_CHANNELS)]}
    for ws in spaces[1:]:
        channels[ws] = ["c-" + hexid(rng, 10) for _ in range(rng.randint(5, 20))]

    # The pilot: every message of 10 workspaces of ranks 500-4,999 over 7 days.
    pilot = sorted(rng.sample(spaces[500:], 10))
    start, docs = datetime(2026, 11, 23, tzinfo=UTC), []
    events = []
    for ws in pilot:
        n = round(DAILY * share[ws] * 7)
        for _ in range(n):
            events.append((start + timedelta(seconds=rng.randrange(7 * 86400)), ws))
    events.sort()
    docs = [message(rng, ws, rng.choice(channels[ws]), when) for when, ws in events]

    # One hour of production at 1/50.
    t0, rate = datetime(2026, 12, 2, 14, tzinfo=UTC), 0.02
    cw = cumulative([share[w] for w in spaces])

    def times(n):
        return sorted(t0 + timedelta(microseconds=rng.randrange(3600 * 10 ** 6)) for _ in range(n))

    ops, created = [], []
    for when in times(round(DAILY / 24 * rate)):
        ws = rng.choices(spaces, cum_weights=cw)[0]
        d = message(rng, ws, rng.choice(channels[ws]), when)
        created.append(d)
        ops.append((when, {"op": "create", "doc": d, "ts": iso_ms(when)}))
    read = "SELECT * FROM c WHERE c.workspaceId = @w AND c.channelId = @c ORDER BY c.sentAt DESC"
    for when in times(3000):
        d = rng.choice(created)
        ops.append((when, {"op": "query", "sql": read, "parameters": [
            {"name": "@w", "value": d["workspaceId"]}, {"name": "@c", "value": d["channelId"]}],
            "ts": iso_ms(when)}))
    search = "SELECT * FROM c WHERE c.workspaceId = @w AND CONTAINS(c.text, @q)"
    for when in times(300):
        ws = rng.choices(spaces, cum_weights=cw)[0]
        ops.append((when, {"op": "query", "sql": search, "parameters": [
            {"name": "@w", "value": ws}, {"name": "@q", "value": rng.choice(WORDS)}], "ts": iso_ms(when)}))
    ops.sort(key=lambda x: x[0])
    write(out, docs, [o for _, o in ops])

    lines = {}
    for d in created:
        if d["workspaceId"] == spaces[0]:
            lines[d["channelId"]] = lines.get(d["channelId"], 0) + 1
    seen = sorted(lines.items(), key=lambda kv: (-kv[1], kv[0]))
    write_truth(out, {
        "pilot": pilot, "documents": len(docs), "log_creates": len(created),
        "big_lines": sum(lines.values()), "big_channels_seen": len(lines),
        "big_channel": seen[len(seen) // 2][0],
        "big_channel_GB": round(5000 * BIG_SHARE / BIG_CHANNELS, 2),
        "second_channels": len(channels[spaces[1]]),
        "second_channel_GB": round(5000 * share[spaces[1]] / len(channels[spaces[1]]), 1),
    })


if __name__ == "__main__":
    cli(main)
