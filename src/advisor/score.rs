//! The score: named components in 0–1, weighted by the workload's mix, summed to 0–100.
//!
//! | component | 1.0 means | formula |
//! |---|---|---|
//! | `storage_headroom` | the largest logical partition is far from 20 GB | `1 - largest / 20 GB`, 0 past the limit |
//! | `storage_balance` | physical partitions hold equal bytes | `mean / max` partition bytes |
//! | `throughput` | no partition hotter than chance | the usable fraction (worst window) over what the same operations placed at random would allow |
//! | `query_efficiency` | every read reaches one partition | `1 - (avg partitions - 1) / (P - 1)` |
//! | `cardinality` | many more values than partitions | `log(distinct) / log(max(100, 10 P))`, capped at 1 |
//! | `write_spread` | writes spread over partitions in every window | mean / max write load, worst window |
//! | `simplicity` | a native key | 1 plain or hierarchical, 0.9 computed (concat, hash_suffix), 0.7 with a random suffix |
//!
//! Weights: storage headroom 0.15, balance 0.10, throughput 0.15, cardinality 0.10,
//! simplicity 0.05, and 0.45 shared between query efficiency and write spread in
//! proportion to the workload's reads and writes (each keeps at least 0.05; see
//! [`read_share`]).

use std::collections::BTreeMap;

use super::evaluate::Evaluation;
use crate::engine::Limits;
use crate::key::{KeyKind, KeyLevel};

/// The score's components, by name.
pub fn components(e: &Evaluation) -> BTreeMap<String, f64> {
    let limit = Limits::default().logical_bytes as f64;
    let largest = e.projection.largest.as_ref().map_or(0.0, |l| l.1 as f64);
    let parts = e.projection.container.partitions().len();
    let mut c = BTreeMap::new();
    c.insert(
        "storage_headroom".into(),
        (1.0 - largest / limit).clamp(0.0, 1.0),
    );
    c.insert(
        "storage_balance".into(),
        (1.0 / e.storage_skew).clamp(0.0, 1.0),
    );
    c.insert(
        "throughput".into(),
        e.workload.usable_relative.clamp(0.0, 1.0),
    );
    c.insert("query_efficiency".into(), query_efficiency(e, parts));
    c.insert("cardinality".into(), cardinality(e.distinct.0, parts));
    c.insert(
        "write_spread".into(),
        e.workload.write_spread.clamp(0.0, 1.0),
    );
    c.insert("simplicity".into(), simplicity(e));
    c
}

fn query_efficiency(e: &Evaluation, parts: usize) -> f64 {
    if e.workload.reads == 0 || parts <= 1 {
        return 1.0;
    }
    (1.0 - (e.workload.avg_partitions() - 1.0) / (parts as f64 - 1.0)).clamp(0.0, 1.0)
}

fn cardinality(distinct: u64, parts: usize) -> f64 {
    let needed = 100.max(10 * parts as u64) as f64;
    if distinct <= 1 {
        return 0.0;
    }
    ((distinct as f64).ln() / needed.ln()).clamp(0.0, 1.0)
}

fn simplicity(e: &Evaluation) -> f64 {
    let levels = e.spec.levels();
    if levels
        .iter()
        .any(|l| matches!(l, KeyLevel::RandSuffix { .. }))
    {
        0.7
    } else if e.spec.kind() == KeyKind::Synthetic || levels.iter().any(KeyLevel::is_synthetic) {
        0.9
    } else {
        1.0
    }
}

/// The share of reads in the workload's mix. Writes replayed from the sample documents
/// (the log has none) are on another scale than the logged reads, so such a mix counts as
/// read-heavy (0.75); without reads it is all writes.
pub fn read_share(reads: u64, writes: u64, writes_from_sample: bool) -> f64 {
    match (reads, writes) {
        (0, 0) => 0.5,
        (0, _) => 0.0,
        _ if writes_from_sample => 0.75,
        _ => reads as f64 / (reads + writes) as f64,
    }
}

/// The weight of each component, given the workload's [`read_share`].
pub fn weights(read_share: f64) -> BTreeMap<String, f64> {
    let shared = 0.45 - 0.10;
    let mut w = BTreeMap::new();
    w.insert("storage_headroom".into(), 0.15);
    w.insert("storage_balance".into(), 0.10);
    w.insert("throughput".into(), 0.15);
    w.insert("cardinality".into(), 0.10);
    w.insert("simplicity".into(), 0.05);
    w.insert("query_efficiency".into(), 0.05 + shared * read_share);
    w.insert("write_spread".into(), 0.05 + shared * (1.0 - read_share));
    w
}

/// `100 · Σ weight · component`, rounded to one decimal.
pub fn score(components: &BTreeMap<String, f64>, weights: &BTreeMap<String, f64>) -> f64 {
    let s: f64 = components
        .iter()
        .map(|(k, v)| weights.get(k).copied().unwrap_or(0.0) * v)
        .sum();
    (s * 1000.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_one_and_follow_the_mix() {
        for (r, w) in [(0, 0), (100, 0), (0, 100), (70, 30)] {
            let total: f64 = weights(read_share(r, w, false)).values().sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
        assert_eq!(read_share(100, 100_000, true), 0.75);
        assert_eq!(read_share(0, 100, true), 0.0);
        let read_heavy = weights(read_share(90, 10, false));
        assert!(read_heavy["query_efficiency"] > read_heavy["write_spread"]);
        let write_heavy = weights(read_share(10, 90, false));
        assert!(write_heavy["query_efficiency"] < write_heavy["write_spread"]);
    }

    #[test]
    fn perfect_components_score_100() {
        let c: BTreeMap<String, f64> = weights(0.5).keys().map(|k| (k.clone(), 1.0)).collect();
        assert!((score(&c, &weights(0.75)) - 100.0).abs() < 1e-9);
        assert!((cardinality(100, 2) - 1.0).abs() < 1e-12);
        assert!(cardinality(10, 2) < 0.6);
    }
}
