#!/usr/bin/env python3
"""Trial library: a 1-in-40,000 snapshot of a document library (2 TB of 2 KB versions, 400
tenants by Zipf 1.0, acme 15.2%), acme's handbook with 0.2% of all versions; a log of 2% of 20
minutes: saves 300/s, opens 600/s, recent lists 100/s. See VERDICT.md.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson)
Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cumulative, hexid, iso, iso_ms, write  # noqa: E402

UTC = timezone.utc
HANDBOOK = 0.002
WORDS = (
    "agenda audit budget chart clause client draft figure folder index invoice ledger memo "
    "minutes notice outline policy quote record report review schedule section sheet slide "
    "statement summary survey table target ticket timeline update vendor version workflow"
).split()


def main(out):
    rng = random.Random(20260601)
    os.makedirs(out, exist_ok=True)
    n_t = 400
    tw = [(i + 1) ** -1.0 for i in range(n_t)]
    tot = sum(tw)
    tenants = ["tn-acme"] + ["tn-" + hexid(rng, 6) for _ in range(n_t - 1)]
    t_cw = cumulative([w / tot for w in tw])
    # 125 million documents, each tenant's in proportion to its share.
    n_docs = [max(1000, round(125e6 * w / tot)) for w in tw]
    people = {t: ["u-" + hexid(rng, 6) for _ in range(rng.randint(5, 60))] for t in tenants}

    def pick():
        """A version's tenant and document: the handbook, else a document of millions."""
        if rng.random() < HANDBOOK:
            return "tn-acme", "doc-handbook"
        k = rng.choices(range(n_t), cum_weights=t_cw)[0]
        return tenants[k], "doc-%s-%d" % (tenants[k][3:], rng.randrange(n_docs[k]))

    def version(t, d, when):
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(230, 260)))
        return {"id": "v-" + hexid(rng, 16), "tenantId": t, "docId": d, "version": rng.randint(1, 40),
                "editedBy": rng.choice(people[t]), "editedAt": iso(when),
                "title": " ".join(rng.choice(WORDS) for _ in range(4)),
                "mime": rng.choice(["text/markdown", "application/vnd.sheet", "application/vnd.doc"]),
                "tags": rng.sample(WORDS, 3), "body": body}

    start, end = datetime(2021, 6, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    span = (end - start).total_seconds()
    whens = sorted(rng.random() * span for _ in range(25000))
    docs = [version(*pick(), start + timedelta(seconds=s)) for s in whens]

    t0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    ops = []
    for i in range(24000):
        at = t0 + timedelta(seconds=1200.0 * i / 24000)
        u = rng.random()
        if u < 0.3:
            ops.append({"op": "create", "doc": version(*pick(), at), "ts": iso_ms(at)})
        elif u < 0.9:
            t, d = pick()
            ops.append({"op": "query", "sql": "SELECT TOP 1 * FROM c WHERE c.tenantId = @t AND c.docId = @d "
                        "ORDER BY c.version DESC",
                        "parameters": [{"name": "@t", "value": t}, {"name": "@d", "value": d}], "ts": iso_ms(at)})
        else:
            t = rng.choices(tenants, cum_weights=t_cw)[0]
            ops.append({"op": "query", "sql": "SELECT TOP 20 * FROM c WHERE c.tenantId = @t ORDER BY c.editedAt DESC",
                        "parameters": [{"name": "@t", "value": t}], "ts": iso_ms(at)})
    write(out, docs, ops)


if __name__ == "__main__":
    main(sys.argv[1])
