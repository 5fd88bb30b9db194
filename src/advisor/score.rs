//! The score: named components in 0–1, weighted, summed to 0–100. Founded on cost: most of
//! the weight follows `efficiency`, the RU/s an ideal key needs for the same operations
//! over the RU/s this key needs (see [`super::need`]).
//!
//! | component | 1.0 means | formula | weight |
//! |---|---|---|---|
//! | `efficiency` | the key needs no more RU/s than an ideal one | ideal need / this key's need, over the whole log | 0.45 |
//! | `storage_headroom` | the key breaks far beyond the target | `log(breaks at / target) / log 5`, 0 at or below the target, 1 from 5× (and when values do not grow) | 0.15 |
//! | `routing` | every logged read names its key value or prefix | share of reads single or targeted (1 without reads) | 0.10 |
//! | `write_spread` | writes of a moment reach as many partitions as chance | see [`crate::replay::spread`] | 0.10 |
//! | `cardinality` | many more values than partitions | `log(distinct) / log(max(100, 10 P))`, capped at 1 | 0.10 |
//! | `storage_balance` | physical partitions hold equal bytes | `mean / max` partition bytes | 0.05 |
//! | `simplicity` | a native key of one path | 1 plain, 0.95 per extra hierarchy level (every point operation must name each level), 0.9 computed (concat, hash_suffix), 0.7 with a random suffix, 0.6 a client-side layout | 0.05 |
//!
//! A client-side layout's components are multiplied by the share of documents its resolver
//! can place: a layout that cannot store a tenth of the data earns a tenth less.

use std::collections::BTreeMap;

use super::evaluate::Evaluation;
use super::need::Cost;
use crate::key::{KeyKind, KeyLevel};

/// The components' weights, by name (they sum to 1).
pub const WEIGHTS: [(&str, f64); 7] = [
    ("efficiency", 0.45),
    ("storage_headroom", 0.15),
    ("routing", 0.10),
    ("write_spread", 0.10),
    ("cardinality", 0.10),
    ("storage_balance", 0.05),
    ("simplicity", 0.05),
];

/// The score's components, by name.
pub fn components(e: &Evaluation, cost: &Cost, target_bytes: u64) -> BTreeMap<String, f64> {
    let parts = e.projection.container.partitions().len();
    let mut c = BTreeMap::new();
    c.insert("efficiency".into(), cost.efficiency.clamp(0.0, 1.0));
    c.insert(
        "storage_headroom".into(),
        headroom(e.projection.max_container_bytes, target_bytes),
    );
    c.insert("routing".into(), routing(e));
    c.insert(
        "write_spread".into(),
        e.workload.write_spread.clamp(0.0, 1.0),
    );
    c.insert(
        "cardinality".into(),
        cardinality(e.distinct.estimate, parts),
    );
    c.insert(
        "storage_balance".into(),
        (1.0 / e.storage_skew).clamp(0.0, 1.0),
    );
    c.insert("simplicity".into(), simplicity(e));
    // A layout earns nothing for the documents its resolver cannot place.
    if e.layout.is_some() {
        let placed = 1.0 - e.stats.invalid as f64 / e.stats.documents.max(1) as f64;
        c.values_mut().for_each(|v| *v *= placed.clamp(0.0, 1.0));
    }
    c
}

/// Past this many times the target, a key's break size needs no more margin.
pub const SAFE_MARGIN: f64 = 5.0;

/// How far beyond the target the key breaks, on a log scale: 0 at or below the target,
/// 1 from [`SAFE_MARGIN`] times it, and 1 when values do not grow.
pub fn headroom(breaks_at: Option<u64>, target: u64) -> f64 {
    match breaks_at {
        None => 1.0,
        Some(b) => {
            let margin = b as f64 / target.max(1) as f64;
            (margin.ln() / SAFE_MARGIN.ln()).clamp(0.0, 1.0)
        }
    }
}

/// The share of reads that name the key's value or prefix: no credit for a key no read
/// filters by.
fn routing(e: &Evaluation) -> f64 {
    let w = &e.workload;
    if w.reads == 0 {
        return 1.0;
    }
    w.fraction(w.single.saturating_add(w.targeted))
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
    if e.layout.is_some() {
        LAYOUT_SIMPLICITY
    } else if levels
        .iter()
        .any(|l| matches!(l, KeyLevel::RandSuffix { .. }))
    {
        0.7
    } else if e.spec.kind() == KeyKind::Synthetic || levels.iter().any(KeyLevel::is_synthetic) {
        0.9
    } else {
        1.0 - 0.05 * (levels.len().saturating_sub(1)) as f64
    }
}

/// A client-side layout's simplicity: the application routes every request and moves
/// data between collections by hand.
pub const LAYOUT_SIMPLICITY: f64 = 0.6;

/// The weight of each component.
pub fn weights() -> BTreeMap<String, f64> {
    WEIGHTS.iter().map(|(k, w)| (k.to_string(), *w)).collect()
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
    fn weights_sum_to_one_and_efficiency_leads() {
        let total: f64 = weights().values().sum();
        assert!((total - 1.0).abs() < 1e-12);
        let w = weights();
        assert!(
            w.iter()
                .all(|(k, v)| k == "efficiency" || *v < w["efficiency"])
        );
    }

    #[test]
    fn perfect_components_score_100() {
        let c: BTreeMap<String, f64> = weights().keys().map(|k| (k.clone(), 1.0)).collect();
        assert!((score(&c, &weights()) - 100.0).abs() < 1e-9);
        assert!((cardinality(100, 2) - 1.0).abs() < 1e-12);
        assert!(cardinality(10, 2) < 0.6);
    }

    #[test]
    fn headroom_is_logarithmic_and_saturates() {
        let t = 1_000_000_000_000;
        assert_eq!(headroom(None, t), 1.0);
        assert_eq!(headroom(Some(t / 2), t), 0.0);
        assert_eq!(headroom(Some(t), t), 0.0);
        assert!((headroom(Some(t * 5), t) - 1.0).abs() < 1e-12);
        assert_eq!(headroom(Some(t * 1_000), t), 1.0);
        assert!((headroom(Some(t * 2), t) - 2f64.ln() / 5f64.ln()).abs() < 1e-12);
    }
}
