#!/usr/bin/env python3
"""Trial crm: a 20-tenant CRM pilot and an hour of production log at 1/100 from 5,000 tenants
(Zipf 1.1), the largest of which (t00000, ~16% of the writes) the pilot never saw.

Usage: python3 gen.py OUTDIR  -> OUTDIR/docs.ndjson, OUTDIR/queries.ndjson, OUTDIR/params.json

See VERDICT.md for the workload and the verdict. Standard library only, deterministic (one
seeded random.Random, no clock, compact JSON)."""
import hashlib
import json
import os
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import iso, jdump, Picker, write  # noqa: E402

SEED = 3198  # its pilot draw: t00075 the pilot's largest, ~0.36% of the log (the notes' 25.8 GB regime)
TENANTS, ZIPF = 5000, 1.1
CONTACTS = 200              # every tenant's contacts, equally active
PILOT_TENANTS, PILOT_DOCS = 20, 60000
PILOT_START, PILOT_DAYS = datetime(2026, 11, 16, tzinfo=timezone.utc), 14
LOG_START = datetime(2026, 12, 14, 14, tzinfo=timezone.utc)
LOG_CREATES, LOG_TIMELINES, LOG_DASHBOARDS = 72500, 8000, 2200
PAIRS = 0.1                 # touches of two activities on one contact
TYPES = ["email", "email", "email", "call", "call", "meeting", "note", "note", "task"]
WORDS = ("follow up demo renewal pricing quote contract intro call onboarding review issue "
         "invoice upgrade trial meeting notes proposal feedback support question kickoff").split()

TIMELINE = "SELECT * FROM c WHERE c.tenantId = @t AND c.contactId = @c ORDER BY c.ts DESC OFFSET 0 LIMIT 20"
DASHBOARD = "SELECT c.type, COUNT(1) AS n FROM c WHERE c.tenantId = @t AND c.ts >= @since GROUP BY c.type"


def tenant(k):
    return "t%05d" % k


def contact(k, i):
    return "ct-" + hashlib.sha1(("%s/%d" % (tenant(k), i)).encode()).hexdigest()[:12]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random_state()
    weights = [(k + 1) ** -ZIPF for k in range(TENANTS)]
    total_w = sum(weights)
    pilot = sorted(rng.sample(range(1, TENANTS), PILOT_TENANTS))
    def new_id():
        return "%016x" % rng.getrandbits(64)

    def activity(k, c, t):
        return {"id": new_id(), "tenantId": tenant(k), "contactId": contact(k, c),
                "type": rng.choice(TYPES), "ownerId": "u%03d" % rng.randrange(40),
                "subject": " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 4))),
                "status": rng.choice(("done", "done", "open")), "dur": rng.randrange(3600), "ts": iso(t)}

    def touch(k, t, room):
        """An activity on one contact of tenant k, or two (a tenth: a call and its note)."""
        c = rng.randrange(CONTACTS)
        n = min(room, 2 if rng.random() < PAIRS else 1)
        return [activity(k, c, t + timedelta(seconds=5 * j)) for j in range(n)]

    # The pilot: 20 tenants at their production rates, 14 days.
    pick_pilot = Picker(rng, [weights[k] for k in pilot])
    docs, span = [], PILOT_DAYS * 86400 - 60
    while len(docs) < PILOT_DOCS:
        t = PILOT_START + timedelta(seconds=rng.randrange(span))
        docs += touch(pilot[pick_pilot()], t, PILOT_DOCS - len(docs))
    docs.sort(key=lambda d: (d["ts"], d["id"]))

    # The log: an hour of production at 1/100.
    pick = Picker(rng, weights)
    ops = []
    creates = 0
    while creates < LOG_CREATES:
        s = rng.randrange(3600 - 15)
        batch = touch(pick(), LOG_START + timedelta(seconds=s), LOG_CREATES - creates)
        for j, d in enumerate(batch):
            ops.append((s + 5 * j, {"op": "create", "doc": d, "ts": d["ts"]}))
        creates += len(batch)
    for _ in range(LOG_TIMELINES):
        s, k = rng.randrange(3600), pick()
        ops.append((s, {"op": "query", "sql": TIMELINE, "parameters": [
            {"name": "@t", "value": tenant(k)}, {"name": "@c", "value": contact(k, rng.randrange(CONTACTS))}],
            "ts": iso(LOG_START + timedelta(seconds=s))}))
    for _ in range(LOG_DASHBOARDS):
        s, k = rng.randrange(3600), pick()
        t = LOG_START + timedelta(seconds=s)
        ops.append((s, {"op": "query", "sql": DASHBOARD, "parameters": [
            {"name": "@t", "value": tenant(k)}, {"name": "@since", "value": iso(t - timedelta(days=30))}],
            "ts": iso(t)}))
    ops.sort(key=lambda o: o[0])  # stable: equal seconds keep their generation order

    sizes = write(out, docs, [o for _, o in ops])
    created = {}
    for _, o in ops:
        if o["op"] == "create":
            b = len(jdump(o["doc"]).encode())
            key = o["doc"]["tenantId"]
            created[key] = created.get(key, 0) + b
    all_created = sum(created.values())
    top = created.get(tenant(0), 0) / all_created
    pilot_share = sum(created.get(tenant(k), 0) for k in pilot) / all_created
    per_contact = {}
    for _, o in ops:
        if o["op"] == "create" and o["doc"]["tenantId"] == tenant(0):
            per_contact[o["doc"]["contactId"]] = per_contact.get(o["doc"]["contactId"], 0) + 1
    params = {
        "seed": SEED, "tenants": TENANTS, "zipf": ZIPF, "contacts_per_tenant": CONTACTS,
        "t00000_weight_share": round(weights[0] / total_w, 5),
        "pilot": [tenant(k) for k in pilot], "pilot_docs": len(docs), "pilot_bytes": sizes[0],
        "avg_doc_bytes": round(sizes[0] / len(docs), 1),
        "log": {"creates": LOG_CREATES, "timelines": LOG_TIMELINES, "dashboards": LOG_DASHBOARDS, "bytes": sizes[1]},
        "log_t00000_created_share": round(top, 5), "log_pilot_created_share": round(pilot_share, 5),
        "t00000_creates_per_contact": {"mean": round(sum(per_contact.values()) / max(1, len(per_contact)), 1),
                                       "max": max(per_contact.values()), "contacts": len(per_contact)},
        "at_20TB": {"t00000_TB": round(top * 20, 3), "t00000_contact_GB": round(top * 20000 / CONTACTS, 2),
                    "tenantId_breaks_at_GB": round(20 / top, 1),
                    "contact_keys_break_at_TB": round(20 * 20 / (top * 20000 / CONTACTS), 1)},
    }
    with open(os.path.join(out, "params.json"), "w") as f:
        f.write(json.dumps(params, indent=1, sort_keys=True) + "\n")


def random_state():
    import random
    return random.Random(SEED)


if __name__ == "__main__":
    main()
