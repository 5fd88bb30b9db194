//! Projection of a client-side layout ([`crate::key::layout`]) onto the engine: its
//! collections are the partitions of a container that never splits, each with the
//! layout's size limit and throughput.
//!
//! * `hash`: values sit at their own EPKs over `N` equal ranges, and new values hash
//!   anywhere, exactly as in a container of `N` physical partitions.
//! * `range` and `lookup`: values sit in their resolver's collection; new values go to the
//!   collections in proportion to the sample's bytes in each (the sample is taken to be
//!   the future mix). With `--time-path`, closed values (a past month) keep their size as
//!   for any key, so growth lands in the collections still written to.
//! * `spillover`: the target's bytes fill collections in turn, each to 90% of its size; the
//!   newest holds the rest and receives every write.
//!
//! The collection is the unit that cannot be divided: the report's largest logical
//! partition is the largest collection, and the layout breaks at the container size where
//! that collection reaches its limit (never, for a spillover, which opens collections).

use super::projection::{NewValues, Projection, Time, project_into};
use super::target::Target;
use crate::engine::{Container, GB, PartitionKeyDefinition, epk};
use crate::key::Layout;
use crate::key::layout::SPILL_AT;
use crate::stats::CandidateStats;

/// Projects a layout measured as `stats` (by its resolver's path, with `definition`) onto
/// the target.
pub fn project(
    layout: &Layout,
    definition: &PartitionKeyDefinition,
    stats: &CandidateStats,
    target: &Target,
    timed: bool,
) -> Projection {
    let n = layout.collections(target.storage_bytes);
    let container = Container::collections(definition.clone(), n, layout.tier());
    let mut p = if layout.is_spillover() {
        spill(container, layout, stats, target)
    } else {
        project_into(container, stats, target, time(timed), new_values(layout))
    };
    let (largest, bytes) = largest_collection(&p.container);
    p.largest = Some(super::projection::Largest {
        label: layout.collection_name(largest),
        bytes,
        low: bytes,
    });
    p.largest_closed = None;
    p.max_container_bytes = match layout.is_spillover() {
        true => None,
        false => limit_size(layout, &p.container, stats, target, timed),
    };
    p
}

/// A layout's collections are not sized by period: only arrivals are known.
fn time(timed: bool) -> Time {
    Time {
        timed,
        ..Time::default()
    }
}

fn new_values(layout: &Layout) -> NewValues {
    match layout.resolver() {
        crate::key::layout::Resolver::Hash { .. } => NewValues::Anywhere,
        _ => NewValues::LikeSample,
    }
}

/// The container size at which the first collection reaches its limit. Each collection's
/// projected bytes are linear in the container size `S` (closed values fixed, the rest
/// growing with the new data): `a + r S`, read from this projection and one at twice the
/// target. `Some(0)` when a collection is past its limit at any size; `None` when none
/// grows.
fn limit_size(
    layout: &Layout,
    at: &Container,
    stats: &CandidateStats,
    target: &Target,
    timed: bool,
) -> Option<u64> {
    let s = target.storage_bytes as f64;
    let twice = Target {
        storage_bytes: target.storage_bytes.saturating_mul(2),
        ..*target
    };
    let n = at.partitions().len();
    let container = Container::collections(at.definition().clone(), n, layout.tier());
    let far = project_into(container, stats, &twice, time(timed), new_values(layout)).container;
    let limit = layout.tier().bytes as f64;
    let mut first: Option<f64> = None;
    for (now, later) in at.partitions().iter().zip(far.partitions()) {
        let rate = (later.bytes() as f64 - now.bytes() as f64) / s;
        let fixed = now.bytes() as f64 - rate * s;
        let breaks = match (fixed >= limit, rate > 0.0) {
            (true, _) => 0.0,
            (false, true) => (limit - fixed) / rate,
            (false, false) => continue,
        };
        first = Some(first.map_or(breaks, |f: f64| f.min(breaks)));
    }
    first.map(|b| b.min(u64::MAX as f64) as u64)
}

/// The index and bytes of the fullest collection (the first on ties).
pub fn largest_collection(c: &Container) -> (usize, u64) {
    (c.partitions().iter().enumerate()).fold((0, 0), |best, (i, p)| match p.bytes() > best.1 {
        true => (i, p.bytes()),
        false => best,
    })
}

/// The target's bytes in collections filled in turn to 90% of their size, each spread over
/// its range in chunks of at most 1 GB.
fn spill(
    mut container: Container,
    layout: &Layout,
    stats: &CandidateStats,
    target: &Target,
) -> Projection {
    let n = container.partitions().len();
    let fill = (layout.tier().bytes as f64 * SPILL_AT).floor();
    let avg_doc = stats.bytes as f64 / stats.documents.max(1) as f64;
    let mut left = target.storage_bytes as f64;
    for i in 0..n {
        let bytes = if i + 1 == n { left } else { fill.min(left) };
        left -= bytes;
        let pieces = (bytes / GB as f64).ceil().clamp(1.0, 256.0) as usize;
        for j in 0..pieces {
            let at = epk::within(i, n, (j as f64 + 0.5) / pieces as f64, j as u64);
            let piece = bytes / pieces as f64;
            let items = (piece / avg_doc.max(1.0)).round().max(1.0) as u64;
            container.insert_unsplit(at, piece.round() as u64, items);
        }
    }
    container.settle();
    let sample = stats.bytes.max(1) as f64;
    Projection {
        container,
        scale: target.storage_bytes as f64 / sample,
        unseen_share: 1.0,
        unseen_from: Default::default(),
        growth: 1.0,
        closed_share: 0.0,
        largest: None,
        largest_closed: None,
        max_container_bytes: None,
        retention: None,
        new_values: 0.0,
        named_new: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Tier;
    use crate::engine::{PkValueRef, Throughput};
    use crate::key::KeySpec;

    fn layout(spec: &str) -> Layout {
        Layout::parse(spec, Tier::default(), &|_| Err("no maps".into())).unwrap()
    }

    fn target(gb: u64) -> Target {
        Target {
            storage_bytes: gb * GB,
            throughput: Throughput::Manual(20_000.0),
        }
    }

    /// `docs` documents of 1 kB, user `i % users`.
    fn users(spec: &str, l: Option<&Layout>, docs: u64, users: u64) -> CandidateStats {
        let def = KeySpec::parse(spec).unwrap().definition();
        let mut stats = CandidateStats::new(64 << 20, false);
        for i in 0..docs {
            let name = format!("user-{}", i % users);
            let v = PkValueRef::Str(&name);
            let epk = match l {
                Some(l) => l.place(v, &def, l.collections(0)).unwrap(),
                None => def.epk_unchecked(&[v]),
            };
            stats.add(&[v], &epk, false, 1_000, Some(i as i64));
        }
        stats
    }

    #[test]
    fn a_25_gb_spillover_fills_three_collections_in_turn() {
        let l = layout("spillover:10GB");
        let def = KeySpec::parse("/id").unwrap().definition();
        let stats = users("/id", None, 1_000, 1_000);
        let p = project(&l, &def, &stats, &target(25), false);
        let bytes: Vec<u64> = p.container.partitions().iter().map(|c| c.bytes()).collect();
        assert_eq!(bytes, [9 * GB, 9 * GB, 7 * GB]);
        let l = p.largest.clone().unwrap();
        assert_eq!((l.label.as_str(), l.bytes), ("#1", 9 * GB));
        assert_eq!(p.max_container_bytes, None, "a spillover opens collections");
        assert!(p.container.unsplittable().is_empty());
    }

    #[test]
    fn a_hash_layout_spreads_like_the_engine_over_as_many_partitions() {
        let l = layout("hash:/userId=8");
        let def = KeySpec::parse("/userId").unwrap().definition();
        let stats = users("/userId", Some(&l), 20_000, 2_000);
        let p = project(&l, &def, &stats, &target(100), false);
        // A container of 8 physical partitions: 48,000 RU/s manual makes 8 at creation,
        // and 100 GB over 8 splits none.
        let engine = crate::project::projection::project(
            &def,
            &stats,
            &Target {
                storage_bytes: 100 * GB,
                throughput: Throughput::Manual(48_000.0),
            },
            false,
        );
        let of = |c: &Container| c.partitions().iter().map(|p| p.bytes()).collect::<Vec<_>>();
        assert_eq!(engine.container.partitions().len(), 8);
        assert_eq!(of(&p.container), of(&engine.container));
        let (_, largest) = largest_collection(&p.container);
        assert!(largest > 10 * GB, "100 GB over 8 collections of 10 GB");
        assert_eq!(p.container.unsplittable().len(), 8);
        // Everything grows with the container: the fullest collection is full at
        // target × limit / its bytes.
        let breaks = p.max_container_bytes.unwrap() as f64;
        assert!((breaks / (100e9 * 10e9 / largest as f64) - 1.0).abs() < 1e-6);
    }
}
