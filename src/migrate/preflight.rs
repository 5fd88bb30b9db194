//! What stops a copy halfway, and what it leaves to do by hand.
//!
//! **Values past 20 GB.** The new key's projection onto the container's size gives each
//! value's bytes. A value of `B` bytes reaches the 20 GB limit once the copy has written
//! `20 GB / B` of its items; the copy then stops (403, substatus 1014). Where that happens
//! is read from the sample in the copy's order: the source's partitions one after another
//! in EPK order, each in the order its items were written (`--time-path`, else the input's
//! order): the share of all bytes read when the value's own bytes pass that fraction.
//!
//! **Collisions.** Ids are unique only within a logical partition, so two source items of
//! one id under different source values that share a new value collide on insert. They are
//! counted exactly on the sample (on the ids the trace kept, see [`crate::stats::copy`]).
//! At the container's size that count (over the share of ids the trace kept) is a lower
//! bound: the container holds every pair the sample does, and more that the sample holds
//! one item of or none (a snapshot of a share `s` of the items holds both items of a pair
//! with chance `s²`); the copy fails on the first.

use super::{CopyOrder, Inputs};
use crate::engine::Limits;
use crate::project::projection::low_bound;
use crate::report::migration::{
    Breach, CollisionPair, CollisionsReport, MAX_LISTED, Missing, Preflight,
};
use crate::report::text::thousands;
use crate::stats::copy::collisions;
use crate::units::human_bytes;

/// The portal's change of key needs a support request above these.
pub const PORTAL_MAX_RU: f64 = 1_000_000.0;
/// The portal's change of key needs a support request above this many bytes (4 TB).
pub const PORTAL_MAX_BYTES: u64 = 4_000 * crate::engine::GB;

/// Values that may stop the copy named one by one in the notes at most.
const NOTED: usize = 5;

/// The order the copy reads in, in words.
pub const READ_ORDER: &str = "the source's physical partitions one after another in EPK order of the source key, each in the order its items were last written (--time-path, else the input's order)";

/// The preflight of `inp`, whose records the copy reads in `order`.
pub fn preflight(inp: &Inputs<'_>, order: &CopyOrder<'_>) -> Preflight {
    Preflight {
        read_order: READ_ORDER.to_owned(),
        breaches: breaches(inp, order),
        collisions: collided(inp),
        missing: missing(inp),
        default_ttl: inp.default_ttl,
        ttl_declared: inp.ttl_declared,
        portal: portal(inp),
    }
}

/// The values of the new key the projection puts past 20 GB, and where the copy meets
/// each limit, in that order.
fn breaches(inp: &Inputs<'_>, order: &CopyOrder<'_>) -> Vec<Breach> {
    let limit = Limits::default().logical_bytes;
    let big = super::value_sizes(inp.target.container, |bytes| bytes > limit);
    if big.is_empty() {
        return Vec::new();
    }
    let total: f64 = order.iter().map(|(_, r)| f64::from(r.bytes)).sum();
    // Per value: its bytes and documents in the sample, and its label.
    let mut own: std::collections::BTreeMap<u64, (f64, u64, &str)> = Default::default();
    for (_, r) in order.iter().filter(|(_, r)| big.contains_key(&r.to)) {
        let e = own.entry(r.to).or_insert((0.0, 0, r.label.as_str()));
        e.0 += f64::from(r.bytes);
        e.1 += 1;
    }
    let mut done: std::collections::BTreeMap<u64, f64> = Default::default();
    let mut out = Vec::new();
    let mut read = 0.0;
    for (_, r) in order {
        read += f64::from(r.bytes);
        let Some(&bytes) = big.get(&r.to) else {
            continue;
        };
        let (sample_bytes, docs, label) = own[&r.to];
        let d = done.entry(r.to).or_insert(0.0);
        let before = *d;
        *d += f64::from(r.bytes);
        let at = limit as f64 / bytes as f64 * sample_bytes;
        if before < at && *d >= at {
            let documents = (docs as f64 / inp.trace.kept_share()).round() as u64;
            let low_bytes = low_bound(bytes as f64, documents, inp.sample).round() as u64;
            out.push(Breach {
                value: crate::redact::hider(inp.redact)(label),
                bytes,
                low_bytes,
                documents,
                stops_at: read / total.max(1.0),
                beyond_chance: inp.target.breaks || low_bytes > limit,
            });
        }
    }
    out
}

/// The copy's insert conflicts.
fn collided(inp: &Inputs<'_>) -> CollisionsReport {
    let c = collisions(inp.trace.records());
    let hide = crate::redact::hider(inp.redact);
    CollisionsReport {
        sample_pairs: c.pairs.len() as u64,
        sample_conflicts: c.conflicts,
        estimated_conflicts: c.conflicts as f64 / inp.trace.kept_share(),
        repeated: c.repeated,
        pairs: (c.pairs.into_iter().take(MAX_LISTED))
            .map(|p| CollisionPair {
                id: hide(&p.id),
                value: hide(&p.value),
                items: p.items,
            })
            .collect(),
    }
}

/// Documents without the new key, in the sample and at the target.
fn missing(inp: &Inputs<'_>) -> Missing {
    let kept = inp.trace.kept_share();
    let (docs, bytes) = (inp.trace.records().iter())
        .filter(|r| r.missing)
        .fold((0u64, 0f64), |(n, b), r| (n + 1, b + f64::from(r.bytes)));
    let w = inp.weight();
    Missing {
        documents: (docs as f64 / kept).round() as u64,
        items: (docs as f64 * w).round() as u64,
        bytes: (bytes * w).round() as u64,
    }
}

/// The portal's limits the container passes, and a merge in its history.
fn portal(inp: &Inputs<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if inp.source.ru > PORTAL_MAX_RU {
        out.push(format!(
            "{} RU/s is over the portal's 1,000,000 for a change of key: it needs a support request (or a container copy job, the Spark connector or the change feed)",
            thousands(inp.source.ru.round())
        ));
    }
    if inp.storage_bytes > PORTAL_MAX_BYTES {
        out.push(format!(
            "{} is over the portal's 4 TB for a change of key: it needs a support request (or a container copy job, the Spark connector or the change feed)",
            human_bytes(inp.storage_bytes)
        ));
    }
    if inp.merged {
        out.push("the container has had a partition merge (--merged): the portal's change of key is not offered; use a container copy job, the Spark connector or the change feed".to_owned());
    }
    out
}

/// Why the copy would stop, from the preflight.
pub fn failures(pre: &Preflight, inp: &Inputs<'_>) -> Vec<String> {
    let mut out = Vec::new();
    // Past the limit together beyond chance (the finding pools their counts), one of
    // them stops the copy: the first the copy reaches is where.
    let certain: Vec<&Breach> = pre.breaches.iter().filter(|b| b.beyond_chance).collect();
    if let Some(b) = certain.first() {
        let more = match certain.len() - 1 {
            0 => String::new(),
            1 => "; 1 more value would stop it later".to_owned(),
            n => format!("; {n} more values would stop it later"),
        };
        out.push(format!(
            "value {} of {} reaches 20 GB at {:.0}% of the copy ({} at the target): the copy stops with 403 substatus 1014{more}",
            b.value,
            inp.target.spec,
            b.stops_at * 100.0,
            human_bytes(b.bytes)
        ));
    }
    let c = &pre.collisions;
    if c.sample_conflicts > 0 {
        let (pairs, are) = match c.sample_pairs {
            1 => (format!("1 (id, {}) pair", inp.target.spec), "is"),
            n => (format!("{n} (id, {}) pairs", inp.target.spec), "are"),
        };
        out.push(format!(
            "{pairs} in the sample {are} held by more than one item ({} inserts conflict, at least {} at the target): the copy fails on insert conflicts",
            c.sample_conflicts,
            thousands(c.estimated_conflicts.round())
        ));
    }
    out
}

/// What the preflight leaves to the user, in words.
pub fn notes(pre: &Preflight, inp: &Inputs<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let uncertain: Vec<&Breach> = pre.breaches.iter().filter(|b| !b.beyond_chance).collect();
    for b in uncertain.iter().take(NOTED) {
        out.push(format!(
            "value {} is projected to {} but only {} net of chance: it may reach 20 GB at {:.0}% of the copy",
            b.value,
            human_bytes(b.bytes),
            human_bytes(b.low_bytes),
            b.stops_at * 100.0
        ));
    }
    if uncertain.len() > NOTED {
        out.push(format!(
            "{} more values may reach 20 GB (the plan's breaches list them)",
            uncertain.len() - NOTED
        ));
    }
    let kept = inp.trace.kept_share();
    if kept < 1.0 {
        out.push(format!(
            "the trace kept the items of 1 id in {} within --memory (an eighth of it): collisions are counted on those and scaled; {} times the --memory counts them all",
            thousands(1.0 / kept),
            thousands(1.0 / kept)
        ));
    }
    if pre.missing.documents > 0 {
        let where_ = match inp.target.levels {
            1 => "under no key value, all into one logical partition",
            _ => "with the levels they lack undefined",
        };
        out.push(format!(
            "{} sample documents ({} items, {} at the target) lack {}: they are copied {where_}",
            thousands(pre.missing.documents as f64),
            thousands(pre.missing.items as f64),
            human_bytes(pre.missing.bytes),
            inp.target.spec
        ));
    }
    if let Some((value, bytes)) = &inp.source.largest {
        out.push(format!(
            "under {} the container's largest value, {value}, is projected to {} at this size, past 20 GB: the container cannot hold it today, so plan at the size it has (--target-storage)",
            inp.source.spec,
            human_bytes(*bytes)
        ));
    }
    if let Some(t) = pre.default_ttl {
        out.push(format!(
            "the container's defaultTtl ({t}) is not copied: set it on the new container before the copy; each item's expiry then counts again from the copy, which rewrites its _ts"
        ));
    }
    out.extend(pre.portal.iter().cloned());
    out
}
