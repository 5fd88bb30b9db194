//! The score: named components in 0–1, weighted, summed to 0–100. Cost decides; headroom,
//! routing, spread and simplicity only break ties between keys of about the same cost, and
//! priced hazards (a key the application changes, documents without the key) weigh like a
//! step of cost.
//!
//! | component | 1.0 means | formula | weight |
//! |---|---|---|---|
//! | `efficiency` | the key needs no more RU/s than an ideal one | `1 + ln(ideal need / need) / ln 64`: a ratio of cost counts the same at any level, 0 from 64× the ideal | 0.9 |
//! | `hazards` | the application never moves an item between values, every document holds the key | 0 with a priced hazard (see [`HAZARD_SHARE`]) | 0.054 |
//! | `storage_headroom` | the key breaks at least `--margin` times past the target | `ln(breaks at / target) / ln margin`, 0 at or below the target, 1 from the margin (and when values do not grow): past the margin more headroom earns nothing | 0.02 |
//! | `simplicity` | a native key of one path | 1 plain, 0.95 per extra hierarchy level (every point operation must name each level), 0.9 computed (concat, hash_suffix), 0.7 with a random suffix, 0.6 a client-side layout | 0.01 |
//! | `routing` | every logged read names its key value or prefix | share of reads single or targeted (1 without reads) | 0.004 |
//! | `write_spread` | writes of a moment load partitions as evenly as chance | see [`crate::replay::spread`] | 0.004 |
//! | `cardinality` | many more values than partitions | `log(distinct) / log(max(100, 10 P))`, capped at 1 | 0.004 |
//! | `storage_balance` | physical partitions hold equal bytes | `mean / max` partition bytes | 0.004 |
//!
//! Why these weights: a key that needs 1.25× the RU/s of another loses
//! `0.9 · ln 1.25 / ln 64 = 0.048` of cost, more than every tie-breaker together (0.046),
//! so it ranks below the cheaper key unless that key has a priced hazard (0.054) or a
//! violation. A score of 50 is a key that needs about 8× the RU/s of an ideal one. Among keys of equal cost and hazards, headroom below the margin counts first,
//! then simplicity. Scaling every charge by a constant changes no ratio, so no
//! rank.
//!
//! A client-side layout's components are multiplied by the share of documents its resolver
//! can place: a layout that cannot store a tenth of the data earns a tenth less.

use std::collections::BTreeMap;

use super::evaluate::Evaluation;
use super::need::Cost;
use crate::key::{KeyKind, KeyLevel};

/// The components' weights, by name (they sum to 1).
pub const WEIGHTS: [(&str, f64); 8] = [
    ("efficiency", 0.9),
    ("hazards", 0.054),
    ("storage_headroom", 0.02),
    ("simplicity", 0.01),
    ("routing", 0.004),
    ("write_spread", 0.004),
    ("cardinality", 0.004),
    ("storage_balance", 0.004),
];

/// The cost ratio to the ideal at which `efficiency` reaches 0.
pub const COST_RANGE: f64 = 64.0;

/// A key whose need is at least this many times another's ranks below it (unless that one
/// has a violation or a priced hazard): what the weights guarantee.
pub const COST_STEP: f64 = 1.25;

/// A hazard is priced (the `hazards` component drops to 0) when it touches at least this
/// share of the writes (key changes) or documents (a missing key): 0.1%.
pub const HAZARD_SHARE: f64 = 0.001;

/// The headroom past which a larger break size earns nothing more, unless `--margin` says
/// otherwise: twice the target.
pub const DEFAULT_MARGIN: f64 = 2.0;

/// The cost component of an efficiency (ideal need over this key's need): by ratio, so
/// that 2× costs the same at any level.
pub fn cost_component(efficiency: f64) -> f64 {
    (1.0 + efficiency.max(f64::MIN_POSITIVE).ln() / COST_RANGE.ln()).clamp(0.0, 1.0)
}

/// The score's components, by name; `margin` is the headroom that earns full marks.
pub fn components(
    e: &Evaluation,
    cost: &Cost,
    target_bytes: u64,
    margin: f64,
) -> BTreeMap<String, f64> {
    let parts = e.projection.container.partitions().len();
    let mut c = BTreeMap::new();
    c.insert("efficiency".into(), cost_component(cost.efficiency));
    c.insert("hazards".into(), hazards(e));
    c.insert(
        "storage_headroom".into(),
        headroom(e.projection.max_container_bytes, target_bytes, margin),
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

/// Whether a candidate carries a priced hazard: logged writes that change an item's key
/// value on at least [`HAZARD_SHARE`] of the writes, or documents without the key path on
/// at least that share of the documents.
pub fn has_hazard(e: &Evaluation) -> bool {
    let w = &e.workload;
    let changes =
        w.key_updated as f64 >= HAZARD_SHARE * w.writes.max(1) as f64 && w.key_updated > 0;
    let s = &e.stats;
    let missing = s.missing > 0 && s.missing as f64 >= HAZARD_SHARE * s.documents.max(1) as f64;
    changes || (missing && e.layout.is_none())
}

fn hazards(e: &Evaluation) -> f64 {
    if has_hazard(e) { 0.0 } else { 1.0 }
}

/// How far beyond the target the key breaks, on a log scale: 0 at or below the target,
/// 1 from `margin` times it, and 1 when values do not grow.
pub fn headroom(breaks_at: Option<u64>, target: u64, margin: f64) -> f64 {
    match breaks_at {
        None => 1.0,
        Some(b) => {
            let ratio = b as f64 / target.max(1) as f64;
            (ratio.ln() / margin.max(1.0 + 1e-9).ln()).clamp(0.0, 1.0)
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

/// `100 · Σ weight · component`, unrounded: what ranks candidates (tie-breakers are worth
/// less than the report's one decimal).
pub fn exact_score(components: &BTreeMap<String, f64>, weights: &BTreeMap<String, f64>) -> f64 {
    let s: f64 = components
        .iter()
        .map(|(k, v)| weights.get(k).copied().unwrap_or(0.0) * v)
        .sum();
    100.0 * s
}

/// What ranks a candidate: [`exact_score`], less what its cost loses past [`COST_RANGE`]
/// times the ideal (where the `efficiency` component stops at 0), so that keys far from the
/// ideal still rank by cost: one needing 300× the ideal ranks below one needing 150×.
pub fn rank_score(components: &BTreeMap<String, f64>, efficiency: f64) -> f64 {
    let weights = weights();
    let beyond = (1.0 + efficiency.max(f64::MIN_POSITIVE).ln() / COST_RANGE.ln()).min(0.0);
    exact_score(components, &weights) + 100.0 * weights["efficiency"] * beyond
}

/// [`exact_score`] rounded to one decimal, as reported.
pub fn score(components: &BTreeMap<String, f64>, weights: &BTreeMap<String, f64>) -> f64 {
    (exact_score(components, weights) * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cost_step_outweighs_every_tie_breaker_and_a_hazard_outweighs_a_step() {
        let w = weights();
        let step = w["efficiency"] * COST_STEP.ln() / COST_RANGE.ln();
        let breakers: f64 = (w.iter())
            .filter(|(k, _)| !matches!(k.as_str(), "efficiency" | "hazards"))
            .map(|(_, v)| v)
            .sum();
        assert!(step > breakers, "{step} against {breakers}");
        assert!(w["hazards"] > step);
        // By ratio: 2× costs the same at any level.
        let drop = |eff: f64| cost_component(eff) - cost_component(eff / 2.0);
        assert!((drop(1.0) - drop(0.25)).abs() < 1e-12);
    }

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
    fn headroom_is_logarithmic_and_saturates_at_the_margin() {
        let t = 1_000_000_000_000;
        let m = DEFAULT_MARGIN;
        assert_eq!(headroom(None, t, m), 1.0);
        assert_eq!(headroom(Some(t / 2), t, m), 0.0);
        assert_eq!(headroom(Some(t), t, m), 0.0);
        assert!((headroom(Some(t * 2), t, m) - 1.0).abs() < 1e-12);
        assert_eq!(headroom(Some(t * 1_000), t, m), 1.0);
        assert!((headroom(Some(t * 3 / 2), t, m) - 1.5f64.ln() / 2f64.ln()).abs() < 1e-12);
        assert!((headroom(Some(t * 2), t, 5.0) - 2f64.ln() / 5f64.ln()).abs() < 1e-12);
    }
}
