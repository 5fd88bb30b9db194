#!/usr/bin/env python3
"""Trial fleet: a 150-device telemetry pilot (7 days, a reading every 5 minutes) and 30
minutes of the rollout's log at 1/1,000 (1.2 M devices reading once a minute). See VERDICT.md.

Usage: python3 gen.py OUTDIR   writes OUTDIR/docs.ndjson and OUTDIR/queries.ndjson.
Deterministic (one seeded random.Random), standard library only."""
import os
import random
import sys
from datetime import datetime, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import iso_epoch as iso, jdump_ascii as jdump  # noqa: E402

SEED = 20261127
PILOT_DEVICES = 150
FLEET = 1_200_000                      # production devices, d0000001..d1200000
# The log's creates name devices the pilot never had (d0000151..d1200000), as the notes say.
PILOT_START = datetime(2026, 11, 20, tzinfo=timezone.utc)
PILOT_DAYS = 7
PILOT_EVERY = 300                      # seconds between a pilot device's readings
LOG_START = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)
LOG_SECONDS = 1800                     # 30 minutes
LOG_CREATES = 36_000                   # 20,000 readings/s x 1,800 s x 1/1,000
LOG_ALARMS = 30                        # one a minute in the log (1,000 a minute in production)
LOG_DEVICE_QUERIES = 900               # 500/s in production

ALARM = "SELECT c.deviceId, c.ts, c.temp FROM c WHERE c.temp > @limit AND c.ts >= @since"
DEVICE = "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= @since"


def device_id(k):
    return "d%07d" % k


class Device:
    """A device's place and the baseline its readings wander around."""

    def __init__(self, rng, k):
        self.id = device_id(k)
        self.lat = rng.uniform(45.0, 49.0)
        self.lon = rng.uniform(-124.0, -117.0)
        self.temp = rng.uniform(15.0, 30.0)
        self.rpm = rng.randint(900, 2400)


def reading(rng, dev, t):
    """One reading of ~174 bytes: 10 indexed terms."""
    ts = iso(t)
    return {"id": "%s-%d" % (dev.id, t), "deviceId": dev.id, "day": ts[:10], "ts": ts,
            "temp": round(dev.temp + rng.uniform(-3.0, 3.0), 1), "hum": round(rng.uniform(30.0, 70.0), 1),
            "volt": round(rng.uniform(11.8, 12.9), 2), "rpm": dev.rpm + rng.randint(-150, 150),
            "lat": round(dev.lat + rng.uniform(-0.01, 0.01), 4), "lon": round(dev.lon + rng.uniform(-0.01, 0.01), 4)}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)

    # The pilot: 150 devices, each at its own offset within the 5 minutes, in time order.
    devices = [Device(rng, k) for k in range(1, PILOT_DEVICES + 1)]
    offsets = [rng.randrange(PILOT_EVERY) for _ in devices]
    order = sorted(range(PILOT_DEVICES), key=lambda i: (offsets[i], i))
    start = int(PILOT_START.timestamp())
    slots = PILOT_DAYS * 86400 // PILOT_EVERY
    with open(os.path.join(out, "docs.ndjson"), "w") as f:
        for s in range(slots):
            base = start + s * PILOT_EVERY
            f.write("".join(jdump(reading(rng, devices[i], base + offsets[i])) + "\n" for i in order))

    # The log: 30 minutes of the rollout at 1/1,000, in time order.
    t0 = int(LOG_START.timestamp())
    ops = []  # (time, sequence, line)
    for n in range(LOG_CREATES):
        t = t0 + rng.randrange(LOG_SECONDS)
        doc = reading(rng, Device(rng, rng.randint(PILOT_DEVICES + 1, FLEET)), t)
        ops.append((t, len(ops), {"op": "create", "doc": doc, "ts": iso(t)}))
    for m in range(LOG_ALARMS):
        t = t0 + 60 * m
        ops.append((t, len(ops), {"op": "query", "sql": ALARM, "parameters": [
            {"name": "@limit", "value": 80}, {"name": "@since", "value": iso(t - 60)}], "ts": iso(t)}))
    for n in range(LOG_DEVICE_QUERIES):
        t = t0 + rng.randrange(LOG_SECONDS)
        ops.append((t, len(ops), {"op": "query", "sql": DEVICE, "parameters": [
            {"name": "@d", "value": device_id(rng.randint(1, FLEET))},
            {"name": "@since", "value": iso(t - 3600)}], "ts": iso(t)}))
    ops.sort(key=lambda o: (o[0], o[1]))
    with open(os.path.join(out, "queries.ndjson"), "w") as f:
        f.write("".join(jdump(o[2]) + "\n" for o in ops))


if __name__ == "__main__":
    main()
