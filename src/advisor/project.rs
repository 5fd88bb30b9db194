//! Projection of a candidate's sample statistics onto an engine container at the target
//! size.
//!
//! The model. Let `B` be the sample's bytes, `S` the target storage and `k = S / B` the
//! growth factor. Good–Turing estimates the share of *new* data that will carry values
//! never seen before as `p0 = N1 / N`, the share of sample documents whose value occurs
//! exactly once. Growth splits accordingly:
//!
//! * each value seen in the sample grows by `g = 1 + (k - 1)(1 - p0)` (a tenant keeps
//!   receiving data; an id never does);
//! * the remaining `(k - 1) · p0 · B` bytes go to new values, spread evenly over the hash
//!   space for a single-level key (new values hash uniformly) and in proportion to the
//!   existing data for a hierarchical key (new values mostly extend existing prefixes: a
//!   new user of an existing tenant).
//!
//! When the target is smaller than the sample (`k < 1`) everything shrinks by `k`. Values
//! tracked one by one are placed at their exact EPK; the untracked tail and the new values
//! are placed per slice of the hash space in chunks of at most 1 GB, so the engine can
//! still split between them. Limits of the model: it assumes the sample is representative
//! of the future mix, that existing values grow in proportion to their current size, and
//! that new values are like the sample's singletons.

use crate::engine::epk::boundary_at;
use crate::engine::{Container, GB, PartitionKeyDefinition, Throughput};
use crate::stats::CandidateStats;
use crate::stats::histogram::{BUCKETS, slice_of_epk};

/// The container size and throughput to project onto.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Bytes the container is expected to hold.
    pub storage_bytes: u64,
    /// Provisioned throughput.
    pub throughput: Throughput,
}

impl Target {
    /// Storage projected onto when none is given: 1 TB.
    pub const DEFAULT_STORAGE: u64 = 1_000 * GB;
    /// Throughput projected onto when none is given: 20,000 RU/s manual.
    pub const DEFAULT_THROUGHPUT: Throughput = Throughput::Manual(20_000.0);
}

/// A candidate's container at the target, and the figures of the projection.
#[derive(Clone, Debug)]
pub struct Projection {
    /// The engine container with the projected data.
    pub container: Container,
    /// `k`: target bytes over sample bytes.
    pub scale: f64,
    /// `p0`: the Good–Turing share of new data that goes to unseen values.
    pub unseen_share: f64,
    /// `g`: how much each value seen in the sample grows.
    pub growth: f64,
    /// The largest value (its label) and its projected bytes.
    pub largest: Option<(String, u64)>,
    /// The container size at which the largest value reaches the logical-partition
    /// limit; `None` when values do not grow with the container (no limit from it).
    pub max_container_bytes: Option<u64>,
}

/// The largest logical partition never exceeds this many bytes in one placed chunk.
const CHUNK: f64 = GB as f64;

/// Projects `stats` of a key with `definition` onto `target`.
pub fn project(
    definition: &PartitionKeyDefinition,
    stats: &CandidateStats,
    target: &Target,
) -> Projection {
    let histogram = stats.histogram();
    let sample = histogram.total_bytes.max(1) as f64;
    let scale = target.storage_bytes as f64 / sample;
    let unseen_share = if stats.documents == 0 {
        0.0
    } else {
        (stats.values.singletons() as f64 / stats.documents as f64).clamp(0.0, 1.0)
    };
    let growth = if scale >= 1.0 {
        1.0 + (scale - 1.0) * (1.0 - unseen_share)
    } else {
        scale
    };
    let mut container = Container::new(definition.clone(), target.throughput);
    let v1 = definition.is_v1();
    let mut tail: Vec<f64> = histogram.slices.iter().map(|s| s.bytes as f64).collect();
    let mut largest: Option<(String, u64)> = None;
    let mut largest_sample = 0.0;
    for e in stats.values.heavy_entries() {
        let bytes = e.bytes as f64 * growth;
        let items = (e.docs as f64 * growth).round().max(1.0) as u64;
        container.insert_unsplit(e.epk.clone(), bytes.round() as u64, items);
        tail[slice_of_epk(e.epk, v1)] -= e.bytes as f64;
        let b = bytes.round() as u64;
        // Ties go to the smallest label, so the choice does not depend on map order.
        if largest
            .as_ref()
            .is_none_or(|l| b > l.1 || (b == l.1 && *e.label < *l.0))
        {
            largest = Some((e.label.to_string(), b));
            largest_sample = e.bytes as f64;
        }
    }
    let unseen = if scale > 1.0 {
        (scale - 1.0) * unseen_share * sample
    } else {
        0.0
    };
    // New values of a single-level key hash anywhere; new values of a hierarchical key
    // mostly extend existing prefixes (a new user of a tenant), so they follow the data.
    let hierarchical = definition.kind() == crate::engine::PartitionKind::MultiHash;
    let avg_doc = sample / stats.documents.max(1) as f64;
    for (i, t) in tail.iter().enumerate() {
        let share = if hierarchical {
            histogram.bytes(i) as f64 / sample
        } else {
            1.0 / BUCKETS as f64
        };
        let mass = t.max(0.0) * growth + unseen * share;
        place_chunks(&mut container, i, mass, avg_doc, v1);
    }
    container.settle();
    let max_container_bytes = largest
        .as_ref()
        .and_then(|_| limit_size(largest_sample, sample, unseen_share, definition));
    Projection {
        container,
        scale,
        unseen_share,
        growth,
        largest,
        max_container_bytes,
    }
}

/// Spreads `mass` bytes over slice `bucket` of the hash space in chunks of at most 1 GB.
fn place_chunks(c: &mut Container, bucket: usize, mass: f64, avg_doc: f64, v1: bool) {
    if mass < 1.0 {
        return;
    }
    let pieces = (mass / CHUNK).ceil().clamp(1.0, 256.0) as usize;
    let each = mass / pieces as f64;
    for j in 0..pieces {
        let f = (bucket as f64 + (j as f64 + 0.5) / pieces as f64) / BUCKETS as f64;
        let items = (each / avg_doc).round().max(1.0) as u64;
        c.insert_unsplit(boundary_at(f, v1), each.round() as u64, items);
    }
}

/// The container size at which a value of `bytes` in the sample reaches the logical limit:
/// solve `bytes · (1 + (k - 1)(1 - p0)) = limit` for `k`, times the sample size.
fn limit_size(
    bytes: f64,
    sample: f64,
    unseen_share: f64,
    definition: &PartitionKeyDefinition,
) -> Option<u64> {
    let _ = definition;
    let limit = crate::engine::Limits::default().logical_bytes as f64;
    if bytes <= 0.0 || unseen_share >= 1.0 {
        return None;
    }
    let k = 1.0 + (limit / bytes - 1.0) / (1.0 - unseen_share);
    let size = (k * sample).max(0.0);
    (size < u64::MAX as f64).then_some(size as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::epk::hash_v2;
    use crate::engine::{KeyPath, PkValueRef};

    fn def() -> PartitionKeyDefinition {
        PartitionKeyDefinition::hash_v2(KeyPath::parse("/k").unwrap())
    }

    fn stats_of(values: impl Iterator<Item = (String, u64)>) -> CandidateStats {
        let mut s = CandidateStats::new(64 << 20, false);
        for (i, (v, bytes)) in values.enumerate() {
            let c = [PkValueRef::Str(&v)];
            s.add(&c, &hash_v2(&c), false, bytes, Some(i as i64));
        }
        s
    }

    #[test]
    fn repeated_values_grow_with_the_container() {
        // 10 tenants, 1,000 documents each of 1,000 bytes: 10 MB sample, no singletons.
        let s = stats_of((0..10_000).map(|i| (format!("t{}", i % 10), 1_000)));
        let target = Target {
            storage_bytes: 1_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        let p = project(&def(), &s, &target);
        assert!((p.scale - 100_000.0).abs() < 1e-6);
        assert_eq!(p.unseen_share, 0.0);
        let (_, largest) = p.largest.clone().unwrap();
        assert!((largest as f64 / 100e9 - 1.0).abs() < 1e-6, "{largest}");
        // Each tenant holds 1 MB of the sample: 20 GB is reached at 200 GB of container.
        let max = p.max_container_bytes.unwrap() as f64;
        assert!((max / 200e9 - 1.0).abs() < 1e-6, "{max}");
        assert_eq!(p.container.bytes(), 1_000 * GB);
    }

    #[test]
    fn singleton_values_do_not_grow_new_ones_carry_the_data() {
        let s = stats_of((0..10_000).map(|i| (format!("id{i}"), 1_000)));
        let target = Target {
            storage_bytes: 1_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        let p = project(&def(), &s, &target);
        assert_eq!(p.unseen_share, 1.0);
        assert_eq!(p.growth, 1.0);
        assert_eq!(p.largest.unwrap().1, 1_000);
        assert_eq!(p.max_container_bytes, None);
        let total = p.container.bytes() as f64;
        assert!((total / 1e12 - 1.0).abs() < 1e-3, "{total}");
        // Spread evenly: 1 TB over 4 initial partitions splits to 32 of ~31 GB.
        assert_eq!(p.container.partitions().len(), 32);
    }
}
