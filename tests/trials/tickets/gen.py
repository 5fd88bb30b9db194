#!/usr/bin/env python3
"""Trial tickets: a 15-org support-ticket pilot and an hour of production log at 1/20 from 800
orgs (Zipf 1.0), the largest of which (o0000, 13.8% of the writes) the pilot never saw.

Usage: python3 gen.py OUTDIR  -> OUTDIR/docs.ndjson, OUTDIR/queries.ndjson, OUTDIR/params.json

See VERDICT.md for the workload and the verdict. Standard library only, deterministic (one
seeded random.Random, no clock, compact JSON)."""
import hashlib
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import iso, jdump, Picker, write  # noqa: E402

SEED = 3386  # its pilot draw: the pilot's largest org holds ~17% of the pilot (the notes' 335 GB regime)
ORGS, ZIPF = 800, 1.0
BACKLOG = 3000              # every org's tickets, in the pilot and in the log's hour
PILOT_ORGS, PILOT_DOCS = 15, 30000
PILOT_START, PILOT_DAYS = datetime(2026, 11, 16, tzinfo=timezone.utc), 14
LOG_START = datetime(2026, 12, 14, 14, tzinfo=timezone.utc)
LOG_CREATES, LOG_VIEWS, LOG_QUEUES = 88000, 15000, 3000
KINDS = ["message"] * 5 + ["opened", "status", "status", "assign"]
WORDS = ("printer login error refund invoice password reset shipping delay broken screen update "
         "crash billing account locked export report slow sync mobile app outage escalate").split()

VIEW = "SELECT * FROM c WHERE c.orgId = @o AND c.ticketId = @t ORDER BY c.ts"
QUEUE = ("SELECT TOP 50 c.ticketId, c.status, c.ts FROM c WHERE c.orgId = @o AND c.status = 'open' "
         "ORDER BY c.ts DESC")


def org(k):
    return "o%04d" % k


def ticket(k, i):
    return "tk-" + hashlib.sha1(("%s/%d" % (org(k), i)).encode()).hexdigest()[:12]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)
    weights = [(k + 1) ** -ZIPF for k in range(ORGS)]
    total_w = sum(weights)
    pilot = sorted(rng.sample(range(1, ORGS), PILOT_ORGS))

    def event(k, tk, t):
        kind = rng.choice(KINDS)
        return {"id": "%016x" % rng.getrandbits(64), "orgId": org(k), "ticketId": tk, "kind": kind,
                "status": rng.choice(("open", "open", "pending", "solved")), "author": "a%04d" % rng.randrange(5000),
                "body": " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 8))),
                "channel": rng.choice(("email", "web", "chat", "phone")), "ts": iso(t)}

    # The pilot: 15 orgs at their production rates, 14 days.
    pick_pilot = Picker(rng, [weights[k] for k in pilot])
    span = PILOT_DAYS * 86400
    docs = []
    for _ in range(PILOT_DOCS):
        j = pick_pilot()
        docs.append(event(pilot[j], ticket(pilot[j], rng.randrange(BACKLOG)),
                          PILOT_START + timedelta(seconds=rng.randrange(span))))
    docs.sort(key=lambda d: (d["ts"], d["id"]))

    # The log: an hour of production at 1/20.
    pick = Picker(rng, weights)
    ops = []
    for _ in range(LOG_CREATES):
        s, k = rng.randrange(3600), pick()
        d = event(k, ticket(k, rng.randrange(BACKLOG)), LOG_START + timedelta(seconds=s))
        ops.append((s, {"op": "create", "doc": d, "ts": d["ts"]}))
    for _ in range(LOG_VIEWS):
        s, k = rng.randrange(3600), pick()
        ops.append((s, {"op": "query", "sql": VIEW, "parameters": [
            {"name": "@o", "value": org(k)}, {"name": "@t", "value": ticket(k, rng.randrange(BACKLOG))}],
            "ts": iso(LOG_START + timedelta(seconds=s))}))
    for _ in range(LOG_QUEUES):
        s, k = rng.randrange(3600), pick()
        ops.append((s, {"op": "query", "sql": QUEUE, "parameters": [{"name": "@o", "value": org(k)}],
                        "ts": iso(LOG_START + timedelta(seconds=s))}))
    ops.sort(key=lambda o: o[0])  # stable: equal seconds keep their generation order

    sizes = write(out, docs, [o for _, o in ops])
    created, per_ticket = {}, {}
    for _, o in ops:
        if o["op"] == "create":
            doc = o["doc"]
            created[doc["orgId"]] = created.get(doc["orgId"], 0) + len(jdump(doc).encode())
            if doc["orgId"] == org(0):
                per_ticket[doc["ticketId"]] = per_ticket.get(doc["ticketId"], 0) + 1
    all_created = sum(created.values())
    top = created.get(org(0), 0) / all_created
    pilot_bytes = {}
    for dd in docs:
        pilot_bytes[dd["orgId"]] = pilot_bytes.get(dd["orgId"], 0) + len(jdump(dd).encode())
    params = {
        "seed": SEED, "orgs": ORGS, "zipf": ZIPF, "backlog": BACKLOG,
        "o0000_weight_share": round(weights[0] / total_w, 5),
        "pilot": [org(k) for k in pilot], "pilot_docs": len(docs), "pilot_bytes": sizes[0],
        "pilot_largest_org_share": round(max(pilot_bytes.values()) / sizes[0], 4),
        "avg_doc_bytes": round(sizes[0] / len(docs), 1),
        "log": {"creates": LOG_CREATES, "ticket_views": LOG_VIEWS, "queues": LOG_QUEUES, "bytes": sizes[1]},
        "log_o0000_created_share": round(top, 5),
        "log_pilot_created_share": round(sum(created.get(org(k), 0) for k in pilot) / all_created, 5),
        "o0000_creates_per_ticket": {"mean": round(sum(per_ticket.values()) / BACKLOG, 2),
                                     "max": max(per_ticket.values()), "tickets_seen": len(per_ticket)},
        "at_2TB": {"o0000_GB": round(top * 2000, 1), "o0000_ticket_MB": round(top * 2e6 / BACKLOG, 1),
                   "orgId_breaks_at_GB": round(20 / top, 1)},
    }
    with open(os.path.join(out, "params.json"), "w") as f:
        f.write(json.dumps(params, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
