#!/usr/bin/env python3
"""Trial tenant: a B2B work-management SaaS whose largest user holds 0.345% of the items.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)

400 tenants (Zipf (rank+1)^-1: the largest 15.2%), about 30,000 users (Zipf (rank+10)^-0.8
within each tenant), and the largest tenant's integration account `svc-sync` with 0.345% of
all items (6.9 GB at 2 TB). The log is 1% of 10 minutes' requests (--log-share 0.01): 7,200
creates, 6,000 user queries, 9,000 point reads, 600 tenant dashboards. Target 2 TB at 60,000
RU/s. See VERDICT.md. Deterministic: one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, jdump, write, write_truth  # noqa: E402

UTC = timezone.utc
SVC_SHARE = 0.00345
WORDS = (
    "acre amber angle apron arch atlas attic azure badge basin beacon birch blade bloom bluff bolt "
    "brass brick brook cabin canal candle canyon cargo cedar chalk chart cider civic cliff clover "
    "cobalt comet coral cotton crane creek crest crown delta denim depot dune eagle ember epoch "
    "fable falcon fern fiber field fjord flint forge fossil frost garnet geyser glade granite"
).split()


def main(out):
    rng = random.Random(20260310)
    os.makedirs(out, exist_ok=True)

    def words(lo, hi):
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))

    # Population: tenants by share of items, their users, the integration account.
    n_t = 400
    tw = [(i + 1) ** -1.0 for i in range(n_t)]
    tot = sum(tw)
    tshare = [w / tot for w in tw]
    tenants = ["tn-" + hexid(rng, 6) for _ in range(n_t)]  # tenants[0] is the largest
    members, weights = [], []  # (tenant, user), share of all items
    for i, t in enumerate(tenants):
        n_u = max(2, round(30000 * tshare[i]))
        uw = [(j + 10) ** -0.8 for j in range(n_u)]
        s = sum(uw)
        room = tshare[i] - (SVC_SHARE if i == 0 else 0.0)
        for j in range(n_u):
            members.append((t, "usr-" + hexid(rng, 8)))
            weights.append(room * uw[j] / s)
        if i == 0:
            members.append((t, "svc-sync"))
            weights.append(SVC_SHARE)
    m_cw = cumulative(weights)
    t_cw = cumulative(tshare)

    def pick_member():
        return rng.choices(members, cum_weights=m_cw)[0]

    def pick_tenant():
        return rng.choices(tenants, cum_weights=t_cw)[0]

    projects = {}

    def item(t, u, when):
        p = projects.setdefault(t, ["prj-" + hexid(rng, 6) for _ in range(rng.randint(3, 40))])
        return {"id": "it-" + hexid(rng, 16), "tenantId": t, "userId": u,
                "type": rng.choice(["task", "task", "comment", "comment", "activity"]), "projectId": rng.choice(p),
                "title": words(3, 8), "status": rng.choice(["open", "open", "in-progress", "done", "done", "done"]),
                "priority": rng.choice(["low", "medium", "medium", "high"]), "createdAt": iso(when),
                "updatedAt": iso(when + timedelta(hours=rng.randint(0, 400))),
                "dueDate": (when + timedelta(days=rng.randint(1, 60))).strftime("%Y-%m-%d"),
                "estimate": rng.choice([1, 2, 3, 5, 8, 13]), "source": "sync" if u == "svc-sync" else rng.choice(["web", "app", "email"]),
                "parentId": "it-" + hexid(rng, 16), "body": words(25, 40), "watchers": rng.randint(0, 12),
                "archived": rng.random() < 0.1, "rev": rng.randint(1, 30)}

    # Sample: 24,000 items drawn uniformly from the container (time order).
    start, now = datetime(2022, 1, 1, tzinfo=UTC), datetime(2026, 3, 10, 14, 0, tzinfo=UTC)
    span = (now - start).total_seconds()
    docs = []
    for when in sorted(start + timedelta(seconds=rng.random() * span) for _ in range(24000)):
        t, u = pick_member()
        docs.append(item(t, u, when))

    # Log: 1% of the requests of 2026-03-10 14:00-14:10 UTC.
    secs, share = 600, 0.01

    def times(n):
        return sorted(now + timedelta(microseconds=rng.randrange(secs * 10 ** 6)) for _ in range(n))

    ops, created = [], []
    for when in times(int(1200 * secs * share)):
        t, u = pick_member()
        d = item(t, u, when)
        d["updatedAt"] = iso(when)
        ops.append((when, {"op": "create", "doc": d, "ts": iso_ms(when)}))
        created.append((when, d))
    mine = "SELECT TOP 20 * FROM c WHERE c.tenantId = @t AND c.userId = @u ORDER BY c.updatedAt DESC"
    for when in times(int(1000 * secs * share)):
        t, u = pick_member()
        ops.append((when, {"op": "query", "sql": mine, "parameters": [{"name": "@t", "value": t},
                                                                      {"name": "@u", "value": u}], "ts": iso_ms(when)}))
    made = 0  # creates before `when` (both lists are in time order)
    for when in times(int(1500 * secs * share)):
        while made < len(created) and created[made][0] < when:
            made += 1
        if made and rng.random() < 0.3:  # an item created in the last minutes
            d = created[rng.randrange(max(0, made - 400), made)][1]
        else:
            d = rng.choice(docs)
        ops.append((when, {"op": "read", "id": d["id"], "known": {"/tenantId": d["tenantId"], "/userId": d["userId"]},
                           "ts": iso_ms(when)}))
    dash = "SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t AND c.status = 'open'"
    for when in times(int(100 * secs * share)):
        ops.append((when, {"op": "query", "sql": dash, "parameters": [{"name": "@t", "value": pick_tenant()}],
                           "ts": iso_ms(when)}))
    ops.sort(key=lambda x: x[0])

    write(out, docs, [o for _, o in ops])
    per_user, per_tenant, total = {}, {}, 0
    for d in docs:
        n = len(jdump(d).encode())
        total += n
        k = (d["tenantId"], d["userId"])
        per_user[k] = per_user.get(k, 0) + n
        per_tenant[d["tenantId"]] = per_tenant.get(d["tenantId"], 0) + n
    top_u = sorted(per_user.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    top_t = sorted(per_tenant.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    ordinary = max(w for (t, u), w in zip(members, weights) if u != "svc-sync")
    truth = {
        "users": len(members), "tenants": n_t,
        "largest_ordinary_user_share": round(ordinary, 5), "svc_sync_share": SVC_SHARE,
        "sample_documents": len(docs), "sample_mean_bytes": round(total / len(docs), 1),
        "sample_largest_users": [[list(k), round(b / total, 5), round(b / total * 2000, 2)] for k, b in top_u],
        "sample_largest_tenants": [[k, round(b / total, 4)] for k, b in top_t],
        "hand_largest_user_GB_at_2TB": round(SVC_SHARE * 2000, 2),
        "log_creates_svc_sync": sum(1 for _, d in created if d["userId"] == "svc-sync"),
        "log_lines": len(ops),
    }
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
