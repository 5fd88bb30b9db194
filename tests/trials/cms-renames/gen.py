#!/usr/bin/env python3
"""Trial cms-renames: a hosted CMS's pages and their slug-less audit trail, with renames.

Usage: python3 gen.py OUTDIR   (writes docs.ndjson, queries.ndjson, truth.json)

2,500 sites (Zipf (rank+2)^-1.1); pages carry a slug, audit entries (70% of the documents)
only the page's id. The log is 10% of an hour's requests (--log-share 0.1): 79,200 audit
creates, 5,040 page upserts, 1,080 page creates, 176 renames (replaces under a new slug: 38 of
pages written earlier in the log, 138 of pages only the sample holds), 18,000 renders by site
and slug, 1,800 history queries. Target 400 GB at 8,000 RU/s. See VERDICT.md. Deterministic:
one seeded random.Random, compact JSON, no clock."""
import os
import random
import sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from workload import cli, cumulative, hexid, iso, iso_ms, jdump, write, write_truth  # noqa: E402

UTC = timezone.utc
WORDS = (
    "acre amber angle apron arch atlas attic azure badge basin beacon birch blade bloom bluff bolt "
    "brass brick brook cabin canal candle canyon cargo cedar chalk chart cider civic cliff clover "
    "cobalt comet coral cotton crane creek crest crown delta denim depot dune eagle ember epoch "
    "fable falcon fern fiber field fjord flint forge fossil frost garnet geyser glade granite "
    "grove harbor hazel heron hollow ivory jade jasper kelp kernel lagoon lantern larch ledger "
    "lemon linen lotus lumen maple marble meadow mesa mint moss nectar noble oak oasis onyx orbit"
).split()
SECTIONS = ["news", "blog", "docs", "shop", "help", "events", "about", "careers"]
AUDIT_ACTIONS = ["autosave", "autosave", "autosave", "autosave", "edit", "publish", "unpublish", "permission",
                 "comment", "review"]


def main(out):
    rng = random.Random(20260602)
    os.makedirs(out, exist_ok=True)

    def words(lo, hi):
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))

    sites = ["s-%04d" % i for i in range(2500)]
    rng.shuffle(sites)  # sites[0] is the largest
    site_cw = cumulative([(i + 2) ** -1.1 for i in range(len(sites))])

    def pick_site():
        return rng.choices(sites, cum_weights=site_cw)[0]

    def slug_for():
        return "%s/%s-%s" % (rng.choice(SECTIONS), rng.choice(WORDS), rng.choice(WORDS)) + (
            "-%d" % rng.randint(2, 999) if rng.random() < 0.5 else "")

    def page(site, t, slug=None):
        pid = "p-" + hexid(rng, 12)
        return {"id": pid, "pageId": pid, "siteId": site, "docType": "page", "slug": slug or slug_for(),
                "title": words(3, 7).title(), "status": rng.choice(["published", "published", "draft"]),
                "locale": rng.choice(["en-US", "en-GB", "de-DE", "fr-FR", "es-ES"]),
                "template": rng.choice(["article", "landing", "product", "doc"]), "author": "u-" + hexid(rng, 6),
                "version": rng.randint(1, 40), "updatedAt": iso(t), "publishedAt": iso(t - timedelta(days=rng.randint(0, 300))),
                "body": words(30, 45), "seo": {"title": words(3, 6), "description": words(8, 14)},
                "tags": [rng.choice(WORDS) for _ in range(3)]}

    def audit(site, pid, t):
        return {"id": "a-" + hexid(rng, 12), "siteId": site, "pageId": pid, "docType": "audit",
                "action": rng.choice(AUDIT_ACTIONS), "by": "u-" + hexid(rng, 6), "at": iso(t), "version": rng.randint(1, 60)}

    def touched(d, t, slug=None):
        d = dict(d)
        d["seo"] = dict(d["seo"])
        d["version"] += 1
        d["updatedAt"] = iso(t)
        d["body"] = words(30, 45)
        if slug:
            d["slug"] = slug
        return d

    # Sample: 16,000 documents drawn uniformly from the container (time order): 30% pages, 70% audit.
    start, end = datetime(2021, 1, 1, tzinfo=UTC), datetime(2026, 6, 2, 9, 0, tzinfo=UTC)
    span = (end - start).total_seconds()
    pool = {}  # site -> list of the pages known to the generator (their current documents)
    docs, sample_pages = [], []
    for t in sorted(start + timedelta(seconds=rng.random() * span) for _ in range(16000)):
        s = pick_site()
        if rng.random() < 0.30:
            d = page(s, t)
            pool.setdefault(s, []).append(d)
            sample_pages.append(d)
        else:
            known = pool.get(s)
            pid = rng.choice(known)["id"] if known and rng.random() < 0.3 else "p-" + hexid(rng, 12)
            d = audit(s, pid, t)
        docs.append(d)

    # Log: 10% of the requests of 2026-06-02 09:00-10:00 UTC.
    secs = 3600

    def times(n, lo=0.0, hi=1.0):
        return sorted(end + timedelta(microseconds=rng.randrange(int(lo * secs * 10 ** 6), int(hi * secs * 10 ** 6)))
                      for _ in range(n))

    ops = []
    current = {}  # id -> the page's document as the log last wrote it
    written_at = {}  # id -> time of its first write in the log
    renamed = set()
    # Pages created in the log.
    created = []
    for t in times(1080):
        d = page(pick_site(), t)
        d["version"] = 1
        ops.append((t, {"op": "create", "doc": d, "ts": iso_ms(t)}))
        created.append((t, d))
        current[d["id"]] = d
        written_at[d["id"]] = t
        pool.setdefault(d["siteId"], []).append(d)
    # The sample's pages that the 138 renames from the sample take: held apart from the edits.
    held = rng.sample(sample_pages, 138)
    held_ids = {d["id"] for d in held}
    editable = [d for d in sample_pages if d["id"] not in held_ids]
    # Page edits: 5,040 upserts over about 4,000 pages (the sample's, those created earlier in the
    # log, and pages the sample does not hold).
    edit_targets = []
    others = []
    for t in times(5040):
        r = rng.random()
        n_before = sum(1 for c in created[:1080] if c[0] < t) if r >= 0.35 and r < 0.55 else 0
        if r < 0.35:
            p = rng.choice(editable)
            base = current.get(p["id"], p)
        elif r < 0.55 and n_before:
            base = current[created[rng.randrange(n_before)][1]["id"]]
        elif r < 0.75 and others:
            base = current[rng.choice(others)]
        else:
            base = page(pick_site(), t - timedelta(days=rng.randint(1, 900)))
            others.append(base["id"])
        d = touched(base, t)
        ops.append((t, {"op": "upsert", "doc": d, "ts": iso_ms(t)}))
        current[d["id"]] = d
        written_at.setdefault(d["id"], t)
        edit_targets.append(d["id"])
    # Renames: 38 of pages written earlier in the log, 138 of the held sample pages.
    in_log = sorted(i for i in set(edit_targets) | {d["id"] for _, d in created} if i not in held_ids)
    rng.shuffle(in_log)
    chosen_log = []
    for pid in in_log:
        if len(chosen_log) == 38:
            break
        if written_at[pid] < end + timedelta(seconds=secs * 0.9):
            chosen_log.append(pid)
    last_write = {}
    for t, o in ops:
        if "doc" in o:
            last_write[o["doc"]["id"]] = max(last_write.get(o["doc"]["id"], t), t)
    for pid in chosen_log:
        t0 = last_write[pid]
        t = t0 + timedelta(seconds=rng.uniform(1, (end + timedelta(seconds=secs) - t0).total_seconds() - 1))
        old = current[pid]
        d = touched(old, t, slug=slug_for())
        ops.append((t, {"op": "replace", "doc": d, "ts": iso_ms(t)}))
        current[pid] = d
        renamed.add(pid)
    for old, t in zip(held, times(138)):
        d = touched(old, t, slug=slug_for())
        ops.append((t, {"op": "replace", "doc": d, "ts": iso_ms(t)}))
        renamed.add(d["id"])

    # Audit entries: 79,200 creates, pages of their site.
    for t in times(79200):
        s = pick_site()
        known = pool.get(s)
        pid = rng.choice(known)["id"] if known and rng.random() < 0.5 else "p-" + hexid(rng, 12)
        ops.append((t, {"op": "create", "doc": audit(s, pid, t), "ts": iso_ms(t)}))
    # Renders by site and slug (CDN misses), 18,000; history panels, 1,800.
    render = "SELECT * FROM c WHERE c.siteId = @s AND c.slug = @g AND c.docType = 'page'"
    for t in times(18000):
        s = pick_site()
        known = pool.get(s)
        g = rng.choice(known)["slug"] if known else slug_for()
        ops.append((t, {"op": "query", "sql": render, "parameters": [{"name": "@s", "value": s},
                                                                     {"name": "@g", "value": g}], "ts": iso_ms(t)}))
    hist = ("SELECT TOP 20 * FROM c WHERE c.siteId = @s AND c.pageId = @p AND c.docType = 'audit' "
            "ORDER BY c.at DESC")
    for t in times(1800):
        s = pick_site()
        known = pool.get(s)
        p = rng.choice(known)["id"] if known else "p-" + hexid(rng, 12)
        ops.append((t, {"op": "query", "sql": hist, "parameters": [{"name": "@s", "value": s},
                                                                   {"name": "@p", "value": p}], "ts": iso_ms(t)}))
    ops.sort(key=lambda x: x[0])

    write(out, docs, [o for _, o in ops])
    writes = [o for _, o in ops if o["op"] != "query"]
    items = sorted({o["doc"]["id"] for o in writes})
    site_bytes = {}
    for d in docs:
        site_bytes[d["siteId"]] = site_bytes.get(d["siteId"], 0) + len(jdump(d).encode())
    total = sum(site_bytes.values())
    top = sorted(site_bytes.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    truth = {
        "sample_documents": len(docs), "sample_pages": len(sample_pages),
        "sample_without_slug": sum(1 for d in docs if "slug" not in d),
        "largest_sites_share": [[s, round(b / total, 4)] for s, b in top],
        "log_writes": len(writes), "log_items_written": len(items), "renames": len(renamed),
        "renames_of_pages_written_earlier_in_log": len(chosen_log), "renames_of_sample_pages": len(held),
        "renames_share_of_items": round(len(renamed) / len(items), 5),
        "log_lines": len(ops),
    }
    write_truth(out, truth)


if __name__ == "__main__":
    cli(main)
