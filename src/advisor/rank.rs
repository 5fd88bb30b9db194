//! Ranking and the recommendation: candidates without violations first, then by score
//! (unrounded: cost first, see [`super::score`]), then by spec, and each run of keys of
//! one cost (within [`SAME_COST`]) as an expert weighs them; the recommendation says in one
//! sentence what decided it over the runner-up, and says so when the two are tied.

use super::need;
use crate::project::target::Target;
use crate::report::model::{CandidateReport, Finding, Recommendation};
use crate::report::text::thousands;
use crate::units::human_bytes;

/// Orders candidates: without violations first; with a throughput given, in each class
/// the keys it serves first, then those only throughput redistribution serves within it
/// (at their redistributed bill), then those that need more; in each of these
/// the keys that need only the service's minimum first (they bill the same; then by their
/// loads below it); the rest by score, then by spec (stable), and each run of keys that
/// need the same RU/s as the run's first (within [`SAME_COST`]: the replay's own noise) by
/// what an expert weighs between keys of one cost, as [`decided`] says it: no priced
/// hazard, headroom, simplicity, the score.
pub fn rank(candidates: &mut [CandidateReport]) {
    candidates.sort_by(|a, b| {
        a.has_violation()
            .cmp(&b.has_violation())
            .then(fit(a).cmp(&fit(b)))
            .then(redistributed(a).total_cmp(&redistributed(b)))
            .then(b.exact_score.total_cmp(&a.exact_score))
            .then_with(|| a.key.spec.cmp(&b.key.spec))
    });
    let mut start = 0;
    while start < candidates.len() {
        let class = |c: &CandidateReport| (c.has_violation(), fit(c));
        let first = class(&candidates[start]);
        let end = start + candidates[start..].partition_point(|c| class(c) == first);
        match first.1 {
            // At their redistributed bill, runs of one bill as an expert weighs them.
            Fit::Redistributed => in_runs(
                &mut candidates[start..end],
                |c, lead| ratio_of(redistributed(c), redistributed(lead)),
                same_cost_order,
            ),
            _ => order_class(&mut candidates[start..end]),
        }
        start = end;
    }
    for (i, c) in candidates.iter_mut().enumerate() {
        c.rank = i + 1;
    }
}

/// How a key fits the throughput given (a flag or a template): all fit when none is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    /// It needs no more than is given.
    Served,
    /// Only throughput redistribution serves it within what is given: split evenly it
    /// needs more, each partition given its own load no more, and its hot spot holds still.
    Redistributed,
    /// It needs more than is given, even redistributed.
    Short,
}

fn fit(c: &CandidateReport) -> Fit {
    let (Some(given), Some(required)) = (c.cost.provisioned.as_ref(), c.cost.required_ru) else {
        return Fit::Served;
    };
    match given.ru {
        Some(g) if required > g => match c.redistribution.as_ref().is_some_and(|r| r.only_served) {
            true => Fit::Redistributed,
            false => Fit::Short,
        },
        _ => Fit::Served,
    }
}

/// The redistributed bill a key that only redistribution serves ranks at (0 for the rest,
/// which this leaves in score order).
fn redistributed(c: &CandidateReport) -> f64 {
    match fit(c) {
        Fit::Redistributed => (c.redistribution.as_ref())
            .and_then(|r| r.needed_ru)
            .unwrap_or(0.0),
        _ => 0.0,
    }
}

/// Of the bucket counts measured for one generated `hash_suffix` (see
/// [`crate::measure::auto`]: the same paths and the same origin), keeps the best ranked,
/// says in its origin which it was the best of, and numbers the ranks again. A key given
/// is never dropped. `candidates` are in rank order.
pub fn keep_cheapest_buckets(candidates: &mut Vec<CandidateReport>) {
    let keep = kept_buckets(candidates);
    let mut counts: Vec<(usize, Vec<u32>)> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        if let (Some(k), Some(n)) = (keep[i], buckets(c)) {
            match counts.iter_mut().find(|(j, _)| *j == k) {
                Some((_, all)) => all.push(n),
                None => counts.push((k, vec![n])),
            }
        }
    }
    for (i, mut all) in counts.into_iter().filter(|c| c.1.len() > 1) {
        all.sort_unstable();
        let all: Vec<String> = all.iter().map(u32::to_string).collect();
        let o = &mut candidates[i].origin;
        *o = format!("{o}; the best ranked of {} buckets", all.join(", "));
    }
    let mut i = 0;
    candidates.retain(|_| {
        i += 1;
        keep[i - 1].is_none_or(|k| k == i - 1)
    });
    for (i, c) in candidates.iter_mut().enumerate() {
        c.rank = i + 1;
    }
}

/// The specs [`keep_cheapest_buckets`] drops once `candidates` (in any order) are ranked:
/// measured, they stay out of what other keys are compared with.
pub fn dropped_buckets(candidates: &[CandidateReport]) -> Vec<String> {
    let mut ranked = candidates.to_vec();
    rank(&mut ranked);
    let keep = kept_buckets(&ranked);
    (ranked.iter().zip(keep).enumerate())
        .filter(|(i, (_, k))| k.is_some_and(|k| k != *i))
        .map(|(_, (c, _))| c.key.spec.clone())
        .collect()
}

/// For each candidate (in rank order) that is a generated `hash_suffix`, the index of the
/// best ranked of its family (the same paths and origin); `None` for any other.
fn kept_buckets(candidates: &[CandidateReport]) -> Vec<Option<usize>> {
    let family = |c: &CandidateReport| {
        let s = crate::key::KeySpec::parse(&c.key.spec).ok()?;
        let generated = c.role == crate::report::model::Role::Generated;
        (generated && buckets(c).is_some()).then_some((s, c.origin.clone()))
    };
    let families: Vec<_> = candidates.iter().map(family).collect();
    (0..candidates.len())
        .map(|i| {
            let (s, origin) = families[i].as_ref()?;
            families.iter().position(|f| {
                f.as_ref()
                    .is_some_and(|(t, o)| o == origin && crate::measure::auto::same_suffix(s, t))
            })
        })
        .collect()
}

/// A `hash_suffix` key's bucket count.
fn buckets(c: &CandidateReport) -> Option<u32> {
    let s = crate::key::KeySpec::parse(&c.key.spec).ok()?;
    match s.levels() {
        [crate::key::KeyLevel::HashSuffix { n, .. }] => Some(*n),
        _ => None,
    }
}

/// One class (with or without violations), already in score order: the keys that need only
/// a service minimum no other key of the class undercuts first, in [`floor_order`]; then
/// the rest in runs of one cost.
fn order_class(candidates: &mut [CandidateReport]) {
    let least = (candidates.iter())
        .filter_map(|c| c.cost.need_ru)
        .min_by(f64::total_cmp);
    // At a minimum that is the class's least need: no key of the class undercuts it.
    let at = |c: &CandidateReport| {
        least.is_some_and(|l| need::at_floor(c) && (c.cost.minimum_ru - l).abs() < 0.5)
    };
    candidates.sort_by_key(|c| !at(c));
    let n = candidates.iter().take_while(|c| at(c)).count();
    let (floored, rest) = candidates.split_at_mut(n);
    floor_order(floored);
    in_runs(rest, need::ratio, same_cost_order);
}

/// Keys that bill the same at the service's minimum: no priced hazard first, then the
/// RU/s their load really needs below the minimum (the room left before it costs more),
/// then the partitions a read visits, each within [`SAME_COST`] a tie; then
/// [`same_cost_order`].
fn floor_order(candidates: &mut [CandidateReport]) {
    let visits = |c: &CandidateReport| c.queries.avg_partitions;
    candidates.sort_by(|a, b| {
        (a.hazard.cmp(&b.hazard))
            .then(floor_load(a).total_cmp(&floor_load(b)))
            .then_with(|| a.key.spec.cmp(&b.key.spec))
    });
    let mut start = 0;
    while start < candidates.len() {
        let hazard = candidates[start].hazard;
        let end = start + candidates[start..].partition_point(|c| c.hazard == hazard);
        let loads = |c: &CandidateReport, lead: &CandidateReport| {
            // A load a cost step apart counts; nearer, it is a tie (see FLOOR_LOAD_STEP).
            let r = ratio_of(floor_load(c), floor_load(lead));
            match r.max(1.0 / r) < FLOOR_LOAD_STEP {
                true => 1.0,
                false => r,
            }
        };
        in_runs(&mut candidates[start..end], loads, |a, b| {
            visits(a).total_cmp(&visits(b))
        });
        in_runs(
            &mut candidates[start..end],
            |c, lead| loads(c, lead).max(ratio_of(visits(c), visits(lead))),
            same_cost_order,
        );
        start = end;
    }
}

/// What a key's load needs in its busiest hour, below a service minimum.
fn floor_load(c: &CandidateReport) -> f64 {
    c.cost.load_ru.unwrap_or(0.0)
}

/// A score component of `c` by name (0 when absent).
fn component(c: &CandidateReport, name: &str) -> f64 {
    c.components.get(name).copied().unwrap_or(0.0)
}

/// Below a service minimum, loads this many times apart decide between keys; nearer, they
/// tie. A load under the minimum is the busiest hour's hottest partition of a small
/// workload, mostly chance where few operations land on each partition, so only a cost
/// step counts ([`super::score::COST_STEP`], the step the score guarantees).
pub const FLOOR_LOAD_STEP: f64 = super::score::COST_STEP;

/// `a` over `b`, 1 when both are nothing.
fn ratio_of(a: f64, b: f64) -> f64 {
    match (a > 0.0, b > 0.0) {
        (false, false) => 1.0,
        _ => a.max(f64::MIN_POSITIVE) / b.max(f64::MIN_POSITIVE),
    }
}

/// Splits `candidates` into runs whose members are within [`SAME_COST`] of the run's first
/// by `ratio` (either way), and sorts each run by `order`.
fn in_runs(
    candidates: &mut [CandidateReport],
    ratio: impl Fn(&CandidateReport, &CandidateReport) -> f64,
    order: impl Fn(&CandidateReport, &CandidateReport) -> std::cmp::Ordering,
) {
    let mut start = 0;
    while start < candidates.len() {
        let lead = &candidates[start];
        let same = |c: &CandidateReport| {
            let r = ratio(c, lead);
            r < 1.0 + SAME_COST && r * (1.0 + SAME_COST) > 1.0
        };
        let end = (start + 1..candidates.len())
            .find(|&i| !same(&candidates[i]))
            .unwrap_or(candidates.len());
        candidates[start..end].sort_by(&order);
        start = end;
    }
}

/// Between keys of one cost: no priced hazard first, then more headroom, then simpler,
/// then, with no logged reads, the documents' own id, then by score and spec.
fn same_cost_order(a: &CandidateReport, b: &CandidateReport) -> std::cmp::Ordering {
    a.hazard
        .cmp(&b.hazard)
        .then(component(b, "storage_headroom").total_cmp(&component(a, "storage_headroom")))
        .then(component(b, "simplicity").total_cmp(&component(a, "simplicity")))
        .then(routed(b).cmp(&routed(a)))
        .then(natural_id(a).cmp(&natural_id(b)))
        .then(b.exact_score.total_cmp(&a.exact_score))
        .then_with(|| a.key.spec.cmp(&b.key.spec))
}

/// The share of logged reads that name the key's value or prefix, in steps of 5% (nearer
/// is the same): between keys of one cost, the one the reads filter by.
fn routed(c: &CandidateReport) -> u32 {
    let q = &c.queries;
    match q.reads {
        0 => 20,
        _ => ((q.single + q.targeted).clamp(0.0, 1.0) * 20.0).round() as u32,
    }
}

/// With no logged reads nothing says which property reads will filter by, and an expert
/// keys by the documents' natural id: 0 for `/id`, 1 for another single path named as an
/// id (`/productId`), 2 otherwise, and 2 for every key when the log has reads.
fn natural_id(c: &CandidateReport) -> u8 {
    if c.queries.reads > 0 {
        return 2;
    }
    let Ok(spec) = crate::key::KeySpec::parse(&c.key.spec) else {
        return 2;
    };
    match spec.levels() {
        [crate::key::KeyLevel::Path(p)] if p.segments() == ["id"] => 0,
        [crate::key::KeyLevel::Path(p)] if crate::measure::discover::names_an_id(p) => 1,
        _ => 2,
    }
}

pub(super) fn recommend(candidates: &[CandidateReport], target: &Target) -> Option<Recommendation> {
    let best = candidates.first()?;
    let opening = match best.has_violation() {
        true => format!(
            "No candidate is free of violations; {} is the least bad (score {:.1}).",
            best.key.spec, best.score
        ),
        false => format!("{} scores {:.1} of 100.", best.key.spec, best.score),
    };
    let mut reason = format!("{opening} ");
    reason.push_str(&strengths(best, target));
    if best.queries.reads == 0 {
        reason.push_str(" No logged reads: nothing says which properties the reads filter by, so among keys of one cost the documents' own id is preferred; a query log (--queries) weighs the keys the reads use.");
    }
    let decision = candidates.get(1).map(|next| decided(best, next));
    if let (Some(next), Some(decision)) = (candidates.get(1), &decision) {
        reason.push_str(&format!(
            " The runner-up, {} (score {:.1}), {}{}.",
            next.key.spec,
            next.score,
            cost_against(next, best),
            weakness(next)
        ));
        reason.push(' ');
        reason.push_str(decision);
    }
    Some(Recommendation {
        spec: best.key.spec.clone(),
        reason,
        summary: summary(&opening, decision.as_deref(), best.has_violation()),
        secondary_index: None,
    })
}

/// The recommendation in one line: the decision without its "Decided:" or "Tied:" mark,
/// after the opening when no candidate is free of violations; the opening alone when
/// there is no runner-up.
fn summary(opening: &str, decision: Option<&str>, violated: bool) -> String {
    let Some(decision) = decision else {
        return opening.to_owned();
    };
    let said = ["Decided: ", "Tied: "]
        .iter()
        .find_map(|mark| decision.strip_prefix(mark))
        .unwrap_or(decision);
    let mut chars = said.chars();
    let said = chars.next().map_or(String::new(), |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    });
    match violated {
        true => format!("{opening} {said}"),
        false => said,
    }
}

/// Cost ratios within this of 1 are the same cost: the replay's own noise (a sampled log,
/// few operations per partition) moves needs by a few percent.
pub const SAME_COST: f64 = 0.05;

/// What decided the best over the runner-up, in one sentence; or that they are tied.
pub fn decided(best: &CandidateReport, next: &CandidateReport) -> String {
    let (b, n) = (&best.key.spec, &next.key.spec);
    if next.has_violation() && !best.has_violation() {
        return format!("Decided: {n} has a violation, {b} none.");
    }
    if fit(best) < fit(next) {
        return fit_decided(best, next);
    }
    if (fit(best), fit(next)) == (Fit::Redistributed, Fit::Redistributed) {
        return redistributed_decided(best, next);
    }
    if need::floor_tied(best, next) {
        return at_floor_decided(best, next);
    }
    let ratio = need::ratio(next, best);
    if ratio >= 1.0 + SAME_COST {
        return format!(
            "Decided: {b} is cheaper by {ratio:.2}× in RU/s ({}).",
            basis(next, best, true)
        );
    }
    if ratio * (1.0 + SAME_COST) <= 1.0 {
        return dearer_first(best, next, 1.0 / ratio);
    }
    // Figures within 5% can fall either side of one of throughput's steps.
    let rounded = match best.cost.required_ru != next.cost.required_ru {
        true => " before throughput's steps",
        false => "",
    };
    let same = format!(
        "{b} and {n} need the same RU/s (within {:.0}%{rounded})",
        SAME_COST * 100.0
    );
    tie_broken(best, next, &same)
}

/// What decided between keys that fit the throughput given unlike: `best` needs less of it
/// (none, or only redistribution), `next` more.
fn fit_decided(best: &CandidateReport, next: &CandidateReport) -> String {
    let (b, n) = (&best.key.spec, &next.key.spec);
    let given = (best.cost.provisioned.as_ref())
        .and_then(|p| p.ru)
        .unwrap_or(0.0);
    let redistributed = |c: &CandidateReport| thousands(redistributed(c));
    let required = |c: &CandidateReport| thousands(c.cost.required_ru.unwrap_or(0.0));
    let g = thousands(given);
    match (fit(best), fit(next)) {
        (Fit::Served, Fit::Redistributed) => format!(
            "Decided: {n} fits the {g} RU/s given only with throughput redistribution (at {} RU/s; split evenly it needs {}), {b} without it.",
            redistributed(next),
            required(next)
        ),
        (Fit::Served, _) => format!(
            "Decided: {n} needs {} RU/s, more than the {g} given; {b} fits them.",
            required(next)
        ),
        _ => format!(
            "Decided: {n} needs {} RU/s, more than the {g} given even redistributed; {b} fits them with throughput redistribution (at {} RU/s).",
            required(next),
            redistributed(best)
        ),
    }
}

/// What decided between two keys that only redistribution serves: their redistributed
/// bills, then what decides between keys of one cost.
fn redistributed_decided(best: &CandidateReport, next: &CandidateReport) -> String {
    let (b, n) = (&best.key.spec, &next.key.spec);
    let (rb, rn) = (redistributed(best), redistributed(next));
    let ratio = ratio_of(rn, rb);
    if ratio >= 1.0 + SAME_COST {
        return format!(
            "Decided: both fit the throughput given only with throughput redistribution, {b} at {} RU/s against {} ({ratio:.2}×).",
            thousands(rb),
            thousands(rn)
        );
    }
    let same = format!(
        "{b} and {n} both fit the throughput given only with throughput redistribution, at the same RU/s (within {:.0}%)",
        SAME_COST * 100.0
    );
    tie_broken(best, next, &same)
}

/// What decided between two keys at the same service minimum: they bill the same, so the
/// load each really needs below it decides, then the partitions a read visits, then what
/// decides between keys of one cost.
fn at_floor_decided(best: &CandidateReport, next: &CandidateReport) -> String {
    let (b, n) = (&best.key.spec, &next.key.spec);
    let same = format!(
        "{b} and {n} both need only the service's minimum of {} RU/s, so they bill the same",
        thousands(best.cost.minimum_ru)
    );
    if next.hazard && !best.hazard {
        return format!(
            "Decided: {same}, and {b} needs no key changes and holds every document's key."
        );
    }
    let more = ratio_of(floor_load(next), floor_load(best));
    if more >= FLOOR_LOAD_STEP {
        return format!(
            "Decided: {same}; below it, {b}'s load needs {} RU/s in its busiest hour against {} ({more:.2}×), so it has more room before it costs more.",
            thousands(floor_load(best)),
            thousands(floor_load(next))
        );
    }
    let (vb, vn) = (best.queries.avg_partitions, next.queries.avg_partitions);
    if ratio_of(vn, vb) >= 1.0 + SAME_COST {
        return format!(
            "Decided: {same}, and their loads below it are within a cost step ({FLOOR_LOAD_STEP}×); {b}'s reads visit {vb:.1} partitions on average against {vn:.1}.",
        );
    }
    let same = format!(
        "{same}, their loads below it are within a cost step ({FLOOR_LOAD_STEP}×) and their reads visit as many partitions (within {:.0}%)",
        SAME_COST * 100.0
    );
    tie_broken(best, next, &same)
}

/// Between keys of one cost (`same` says how they are the same): a priced hazard, headroom,
/// simplicity, or a tie.
fn tie_broken(best: &CandidateReport, next: &CandidateReport, same: &str) -> String {
    let b = &best.key.spec;
    if next.hazard && !best.hazard {
        return format!(
            "Decided: {same}, and {b} needs no key changes and holds every document's key."
        );
    }
    if component(best, "storage_headroom") > component(next, "storage_headroom") + 1e-9 {
        return format!("Decided: {same}, and {b} leaves more headroom below the 20 GB limit.");
    }
    if component(best, "simplicity") > component(next, "simplicity") + 1e-9 {
        return format!("Decided: {same}, and {b} is simpler (fewer levels, no computed value).");
    }
    if routed(best) > routed(next) {
        let share = |c: &CandidateReport| (c.queries.single + c.queries.targeted) * 100.0;
        return format!(
            "Decided: {same}, and the reads filter by {b}: {:.0}% of them name its value or prefix, against {:.0}%.",
            share(best),
            share(next)
        );
    }
    if natural_id(best) < natural_id(next) {
        return format!(
            "Decided: {same}, and with no logged reads nothing says which property reads will filter by: {b} is the documents' own id, which every point read names."
        );
    }
    if (best.exact_score - next.exact_score).abs() < TIE_POINTS {
        return format!(
            "{TIED} {same}, neither has a priced hazard or less headroom, they are as simple and the reads filter by both alike; either serves, and {b} is listed first only by its finer figures (spread, balance, cardinality)."
        );
    }
    format!("Decided: {same}; {b} routes, spreads or balances slightly better.")
}

/// Why the best leads a runner-up that is `cheaper` times cheaper: a priced hazard on the
/// runner-up, or, within a cost step, headroom or simplicity.
fn dearer_first(best: &CandidateReport, next: &CandidateReport, cheaper: f64) -> String {
    let (b, n) = (&best.key.spec, &next.key.spec);
    let why = if next.hazard && !best.hazard {
        "carries a priced hazard (items that change key value, or documents without the key), which outweighs a cost step"
    } else if component(best, "storage_headroom") > component(next, "storage_headroom") + 1e-9 {
        "breaks nearer the target, and within a cost step headroom decides"
    } else if component(best, "simplicity") > component(next, "simplicity") + 1e-9 {
        "is less simple, and within a cost step simplicity decides"
    } else {
        "is within a cost step, where routing, spread and balance decide"
    };
    format!("Decided: {n} needs {cheaper:.2}× fewer RU/s than {b} but {why}.")
}

/// How the decision sentence begins when the two keys are tied.
const TIED: &str = "Tied:";

/// Whether the ranking put `best` above `next` by a tie (the same cost, hazards, headroom
/// and simplicity, scores within [`TIE_POINTS`]), not for a reason an expert gives.
pub fn tied(best: &CandidateReport, next: &CandidateReport) -> bool {
    decided(best, next).starts_with(TIED)
}

/// Scores closer than this are a tie when cost, hazards, headroom and simplicity agree.
pub const TIE_POINTS: f64 = 0.5;

/// The figures a cost ratio of `c` against `alt` was read from, as the report prints them:
/// `c`'s first, or `alt`'s when `alt_first`.
fn basis(c: &CandidateReport, alt: &CandidateReport, alt_first: bool) -> String {
    let (_, by) = need::ratio_by(c, alt);
    let (c, alt) = match alt_first {
        true => (alt, c),
        false => (c, alt),
    };
    match by {
        need::Basis::Floor => format!(
            "both at the service's minimum of {} RU/s",
            thousands(c.cost.minimum_ru)
        ),
        need::Basis::Efficiency => {
            let mut s = format!(
                "over the whole log, {:.1}% efficient against {:.1}%",
                c.cost.efficiency * 100.0,
                alt.cost.efficiency * 100.0
            );
            // The table shows RU an operation: when it points the other way, say why the
            // RU/s do not follow it.
            let (op, alt_op) = (c.cost.ru_per_operation, alt.cost.ru_per_operation);
            let opposite = (c.cost.efficiency > alt.cost.efficiency) == (op > alt_op);
            if opposite && format!("{op:.1}") != format!("{alt_op:.1}") {
                s += &format!(
                    ", though {op:.1} RU an operation against {alt_op:.1}: the busiest partition, not the RU an operation, sets the RU/s"
                );
            }
            s
        }
        need::Basis::Provisioned => format!(
            "to provision, {} against {} RU/s before throughput's steps",
            thousands(c.cost.need_ru.unwrap_or(0.0)),
            thousands(alt.cost.need_ru.unwrap_or(0.0))
        ),
    }
}

/// The runner-up's cost against the best's.
fn cost_against(c: &CandidateReport, best: &CandidateReport) -> String {
    let ratio = need::ratio(c, best);
    let compared = if (ratio - 1.0).abs() < 0.05 {
        "about as much".to_owned()
    } else if ratio > 1.0 {
        format!("{ratio:.1}× as much: {}", basis(c, best, false))
    } else {
        format!(
            "{:.0}% less: {}",
            (1.0 - ratio) * 100.0,
            basis(c, best, false)
        )
    };
    format!(
        "needs {} ({compared})",
        crate::report::text::cost_summary(c)
    )
}

fn strengths(c: &CandidateReport, target: &Target) -> String {
    let q = &c.queries;
    let reads = if q.reads > 0 {
        format!(
            " Of the logged reads, {:.0}% reach one key value, {:.0}% are targeted to the partitions of a prefix or a few values, and {:.0}% fan out to every partition.",
            q.single * 100.0,
            q.targeted * 100.0,
            q.fan_out * 100.0
        )
    } else {
        String::new()
    };
    let (unit, limit) = match c.key.definition["collectionBytes"].as_u64() {
        Some(bytes) => ("collection", bytes),
        None => (
            "logical partition",
            crate::engine::Limits::default().logical_bytes,
        ),
    };
    format!(
        "At {} it needs {}; its largest {unit} is projected at {} (limit {}) over {} distinct values, and writes spread at {:.2} of chance.{reads}",
        human_bytes(target.storage_bytes),
        crate::report::text::cost_summary(c),
        human_bytes(c.storage.largest_logical_bytes),
        human_bytes(limit),
        c.cardinality.estimate,
        c.throughput.write_spread
    )
}

fn weakness(c: &CandidateReport) -> String {
    let worst: Vec<&Finding> = c.findings.iter().take(2).collect();
    if worst.is_empty() {
        return String::new();
    }
    let codes: Vec<&str> = worst.iter().map(|f| f.code.as_str()).collect();
    format!(", and has {}: {}", codes.join(" and "), worst[0].message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::findings;

    #[test]
    fn the_summary_is_the_decision_or_the_opening() {
        let opening = "/a scores 90.0 of 100.";
        let decided = "Decided: /a and /b need the same RU/s, and /a leaves more headroom.";
        assert_eq!(
            summary(opening, Some(decided), false),
            "/a and /b need the same RU/s, and /a leaves more headroom."
        );
        assert_eq!(summary(opening, None, false), opening);
        assert_eq!(
            summary(
                "/a scores 68.9 of 100.",
                Some("Tied: /a and /b need the same; either serves."),
                false
            ),
            "/a and /b need the same; either serves."
        );
        let none = "No candidate is free of violations; /t is the least bad (score 40.0).";
        assert_eq!(
            summary(none, Some("Decided: /t is cheaper by 1.40× in RU/s."), true),
            format!("{none} /t is cheaper by 1.40× in RU/s.")
        );
        assert_eq!(summary(none, None, true), none);
    }
    use crate::report::model::testing::candidate;
    use crate::report::model::{FindingCode, Severity};

    fn with(spec: &str, score: f64, violation: bool) -> CandidateReport {
        let mut c = candidate(spec, &[]);
        (c.score, c.exact_score) = (score, score);
        if violation {
            c.findings.push(Finding {
                code: FindingCode::LogicalPartitionLimit,
                severity: Severity::Violation,
                message: String::new(),
            });
        }
        c
    }

    #[test]
    fn ranking_puts_violations_last_then_orders_by_score_then_spec() {
        // (spec, score, violation) in input order → expected order of specs.
        type Case<'a> = (&'a [(&'a str, f64, bool)], &'a [&'a str]);
        let cases: &[Case<'_>] = &[
            (&[("/a", 50.0, false), ("/b", 90.0, false)], &["/b", "/a"]),
            (&[("/a", 99.0, true), ("/b", 10.0, false)], &["/b", "/a"]),
            (&[("/b", 70.0, false), ("/a", 70.0, false)], &["/a", "/b"]),
            (
                &[("/c", 80.0, true), ("/a", 60.0, true), ("/b", 5.0, false)],
                &["/b", "/c", "/a"],
            ),
        ];
        for (input, expected) in cases {
            let mut list: Vec<CandidateReport> =
                input.iter().map(|(s, sc, v)| with(s, *sc, *v)).collect();
            rank(&mut list);
            let got: Vec<&str> = list.iter().map(|c| c.key.spec.as_str()).collect();
            assert_eq!(&got, expected, "{input:?}");
            assert!(list.iter().enumerate().all(|(i, c)| c.rank == i + 1));
        }
    }

    #[test]
    fn of_one_suffixs_bucket_counts_the_best_ranked_generated_one_stays() {
        let generated = |spec: &str, score: f64| {
            let mut c = with(spec, score, false);
            c.role = crate::report::model::Role::Generated;
            c.origin = "hot".to_owned();
            c
        };
        // In rank order: the scores (all of one cost) fall down the list.
        let mut list = vec![
            generated("hash_suffix(/m,/id,64)", 60.0),
            with("hash_suffix(/m,/id,32)", 55.0, false),
            generated("hash_suffix(/m,/id,16)", 50.0),
            generated("hash_suffix(/m,/u,16)", 45.0),
            generated("/u", 40.0),
        ];
        // The same origin and paths make a family; measured, the others are dropped.
        assert_eq!(dropped_buckets(&list), ["hash_suffix(/m,/id,16)"]);
        keep_cheapest_buckets(&mut list);
        let got: Vec<(&str, &str, usize)> = (list.iter())
            .map(|c| (c.key.spec.as_str(), c.origin.as_str(), c.rank))
            .collect();
        let given = &list[1].origin;
        assert_eq!(
            got,
            [
                (
                    "hash_suffix(/m,/id,64)",
                    "hot; the best ranked of 16, 64 buckets",
                    1
                ),
                ("hash_suffix(/m,/id,32)", given.as_str(), 2),
                ("hash_suffix(/m,/u,16)", "hot", 3),
                ("/u", "hot", 4),
            ]
        );
    }

    #[test]
    fn excess_ru_fires_at_twice_the_cheapest_clean_need() {
        // (needs, violations, which get EXCESS_RU)
        type Case<'a> = (&'a [f64], &'a [bool], &'a [bool]);
        let cases: &[Case<'_>] = &[
            (
                &[100.0, 199.0, 200.0],
                &[false, false, false],
                &[false, false, true],
            ),
            // The cheapest with a violation is not the yardstick.
            (
                &[50.0, 100.0, 250.0],
                &[true, false, false],
                &[false, false, true],
            ),
            (&[0.0, 0.0], &[false, false], &[false, false]),
        ];
        for (needs, violations, expected) in cases {
            let mut list: Vec<CandidateReport> = (needs.iter().zip(violations.iter()))
                .enumerate()
                .map(|(i, (_, v))| {
                    let mut c = with(&format!("/k{i}"), 50.0, *v);
                    // Efficiency follows the need (the same ideal for all), RU/s unknown.
                    c.cost.efficiency = 1.0;
                    (c.cost.required_ru, c.cost.need_ru) = (None, None);
                    c
                })
                .collect();
            findings::excess_ru(&mut list, needs);
            let got: Vec<bool> = (list.iter())
                .map(|c| c.findings.iter().any(|f| f.code == FindingCode::ExcessRu))
                .collect();
            assert_eq!(&got, expected, "{needs:?}");
        }
    }

    /// A key of `score` and `efficiency` whose busiest hour needs `load` RU/s against a
    /// service minimum of 6,000 (6 TB at 1 RU/s per GB), whose reads visit `visits`
    /// partitions.
    fn floored(spec: &str, score: f64, load: f64, visits: f64) -> CandidateReport {
        let mut c = with(spec, score, false);
        c.cost.load_ru = Some(load);
        c.cost.minimum_ru = 6_000.0;
        c.cost.need_ru = Some(load.max(6_000.0));
        c.cost.required_ru = c.cost.need_ru;
        c.cost.efficiency = score / 100.0;
        c.queries.avg_partitions = visits;
        c
    }

    #[test]
    fn keys_at_one_service_minimum_bill_the_same_and_their_loads_decide() {
        // (spec, score, load RU/s, partitions a read visits) → order, and the sentence's
        // figures. By hand: 6 TB at 1 RU/s per GB is 6,000 RU/s whatever the key; below
        // it, /b's load of 85 RU/s leaves more room than /a's 183 (2.15×), though /a's
        // whole-log efficiency (0.62) beats /b's (0.61): the bills are equal.
        type Case<'a> = (&'a [(&'a str, f64, f64, f64)], &'a [&'a str], &'a str);
        let cases: &[Case<'_>] = &[
            (
                &[("/a", 62.0, 183.0, 27.3), ("/b", 61.0, 85.0, 28.5)],
                &["/b", "/a"],
                "85 RU/s in its busiest hour against 183 (2.15×)",
            ),
            // Loads within a cost step (100 against 85, 1.18× < 1.25×): the partitions a
            // read visits decide (134.6 against 28.5).
            (
                &[("/id", 70.0, 85.0, 134.6), ("/b", 61.0, 100.0, 28.5)],
                &["/b", "/id"],
                "reads visit 28.5 partitions on average against 134.6",
            ),
            // Loads and visits within 5%: simplicity decides, as between keys of one cost.
            (
                &[("/a,/m", 62.0, 84.0, 28.0), ("/a", 61.0, 85.0, 28.5)],
                &["/a", "/a,/m"],
                "is simpler",
            ),
            // A key above the minimum bills more: the floored key leads whatever its score.
            (
                &[("/hot", 90.0, 6_900.0, 1.0), ("/b", 61.0, 85.0, 28.5)],
                &["/b", "/hot"],
                "cheaper by 1.15× in RU/s",
            ),
        ];
        for (input, order, said) in cases {
            let mut list: Vec<CandidateReport> = (input.iter())
                .map(|(s, sc, l, v)| floored(s, *sc, *l, *v))
                .collect();
            if input[0].0 == "/a,/m" {
                list[0].components.insert("simplicity".into(), 0.95);
                list[1].components.insert("simplicity".into(), 1.0);
            }
            rank(&mut list);
            let got: Vec<&str> = list.iter().map(|c| c.key.spec.as_str()).collect();
            assert_eq!(&got, order, "{input:?}");
            let sentence = decided(&list[0], &list[1]);
            assert!(sentence.contains(said), "{sentence}");
            let floored = need::floor_tied(&list[0], &list[1]);
            assert_eq!(floored, sentence.contains("bill the same"), "{sentence}");
        }
    }

    #[test]
    fn the_cost_ratio_takes_the_larger_of_efficiency_and_rus() {
        // RU/s before the billing model's steps: what the keys need.
        let mut a = candidate("/a", &[]);
        let mut b = candidate("/b", &[]);
        // (a's efficiency, a's RU/s, b's efficiency, b's RU/s, a over b)
        let cases = [
            (0.5, Some(400.0), 1.0, Some(400.0), 2.0),
            (1.0, Some(3_200.0), 1.0, Some(400.0), 8.0),
            (0.25, None, 1.0, Some(400.0), 4.0),
            (1.0, Some(400.0), 0.5, Some(800.0), 0.5),
        ];
        for (ea, ra, eb, rb, ratio) in cases {
            (a.cost.efficiency, a.cost.need_ru) = (ea, ra);
            (b.cost.efficiency, b.cost.need_ru) = (eb, rb);
            assert!(
                (need::ratio(&a, &b) - ratio).abs() < 1e-12,
                "{ea} {ra:?} {eb} {rb:?}"
            );
        }
    }

    /// The rules of the ranking, through the whole assembly (components, findings, rank).
    mod rules {
        use crate::advisor::evaluate::Evaluation;
        use crate::advisor::evaluate::testing::evaluation;
        use crate::advisor::{ReportOptions, build_report, score};
        use crate::engine::{GB, Throughput};
        use crate::project::Target;
        use crate::report::model::InputSummary;

        const TARGET: Target = Target {
            storage_bytes: 1_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };

        /// `spec` needing `need` where an ideal key needs 100 (whole-log RU, even spread).
        fn key(spec: &str, need: f64) -> Evaluation {
            let mut e = evaluation(spec);
            let w = &mut e.workload;
            (w.need_ru, w.counted_ru, w.ideal_need_ru) = (need, need, 100.0);
            (w.ru, w.read_ru) = (need, need / 2.0);
            e
        }

        /// The specs in rank order, and their scores.
        fn ranked(evals: Vec<Evaluation>) -> Vec<(String, f64)> {
            let opts = ReportOptions {
                target: TARGET,
                defaults: vec![],
                top_values: 3,
                redact: false,
                prices: crate::pricing::Prices::list(TARGET.throughput),
                margin: score::DEFAULT_MARGIN,
                gsi: false,
                declared_indexes: None,
                partitions: false,
                retention: None,
                storage_default: None,
                timeline: None,
                sources: Default::default(),
                kinds: Default::default(),
                logged: false,
            };
            let r = build_report(evals, InputSummary::default(), &opts);
            (r.candidates.iter())
                .map(|c| (c.key.spec.clone(), c.score))
                .collect()
        }

        fn specs(r: &[(String, f64)]) -> Vec<&str> {
            r.iter().map(|(s, _)| s.as_str()).collect()
        }

        /// Every tie-breaker at its worst: breaks just past the target, two computed levels,
        /// writes in one place, few values, one full partition.
        fn worst_breakers(mut e: Evaluation) -> Evaluation {
            e.projection.max_container_bytes = Some(TARGET.storage_bytes + GB);
            e.workload.write_spread = 0.0;
            e.workload.single = 0;
            e.distinct.estimate = 2_000;
            e.storage_skew = 4.0;
            e
        }

        #[test]
        fn scaling_every_charge_changes_no_rank_and_no_score() {
            let make = |k: f64| {
                let mut v = vec![
                    key("/a", 130.0 * k),
                    key("/b", 100.0 * k),
                    key("/c", 260.0 * k),
                ];
                v.iter_mut().for_each(|e| e.workload.ideal_need_ru *= k);
                v[2].workload.key_updated = 3;
                ranked(v)
            };
            let base = make(1.0);
            for k in [0.01, 3.7, 1e4] {
                assert_eq!(make(k), base, "charges × {k}");
            }
        }

        #[test]
        fn a_key_costing_a_step_more_never_outranks_the_cheaper() {
            // (cheap need, dear need): the dear key has every tie-breaker at its best.
            for (cheap, dear) in [
                (100.0, 125.0),
                (100.0, 200.0),
                (400.0, 500.0),
                (150.0, 1_500.0),
            ] {
                let cheap_key = worst_breakers(key("hash_suffix(/a,/b,8)", cheap));
                let r = ranked(vec![key("/z", dear), cheap_key]);
                assert_eq!(
                    specs(&r)[0],
                    "hash_suffix(/a,/b,8)",
                    "{cheap} against {dear}: {r:?}"
                );
            }
        }

        #[test]
        fn keys_of_one_cost_rank_by_simplicity_whatever_their_finer_figures() {
            // 104 against 100 RU: within 5%, the same cost. The cheaper key has an extra
            // level; the dearer is plain and ranks first, though its score is lower.
            let r = ranked(vec![key("/a,/b", 100.0), key("/a", 104.0)]);
            assert_eq!(specs(&r), ["/a", "/a,/b"], "{r:?}");
            assert!(r[0].1 < r[1].1, "{r:?}");
            // 106 against 100: a cost step of its own; the cheaper leads.
            let r = ranked(vec![key("/a,/b", 100.0), key("/a", 106.0)]);
            assert_eq!(specs(&r), ["/a,/b", "/a"], "{r:?}");
        }

        #[test]
        fn far_from_the_ideal_cost_still_decides() {
            // 150× and 300× the ideal: both past the score's range, still ranked by cost.
            let mut dear = key("/orderId", 30_000.0);
            dear.projection.max_container_bytes = None;
            let mut cheap = worst_breakers(key("/customerId", 15_000.0));
            cheap.projection.max_container_bytes = Some(TARGET.storage_bytes + GB);
            let r = ranked(vec![dear, cheap]);
            assert_eq!(specs(&r), ["/customerId", "/orderId"], "{r:?}");
        }

        #[test]
        fn a_level_that_only_adds_headroom_past_the_margin_never_outranks_the_simpler() {
            // Breaking at 2× (the margin), 3.3× or never: no more credit past the margin.
            for breaks in [Some(2_000 * GB), Some(3_300 * GB), None] {
                let mut simple = key("/customerId", 100.0);
                simple.projection.max_container_bytes = Some(2_000 * GB);
                let mut deeper = key("/customerId,/id", 100.0);
                deeper.projection.max_container_bytes = breaks;
                let r = ranked(vec![deeper, simple]);
                assert_eq!(specs(&r)[0], "/customerId", "{breaks:?}: {r:?}");
            }
            // Below the margin, headroom counts: breaking at 1.2× loses to breaking at 2×.
            let mut near = key("/customerId", 100.0);
            near.projection.max_container_bytes = Some(1_200 * GB);
            let mut deeper = key("/customerId,/id", 100.0);
            deeper.projection.max_container_bytes = None;
            assert_eq!(specs(&ranked(vec![near, deeper]))[0], "/customerId,/id");
        }

        #[test]
        fn key_changes_on_half_a_percent_of_writes_rank_a_key_below_its_equal() {
            let mut moved = key("/a", 100.0);
            moved.workload.key_updated = 5; // of 1,000 writes
            let r = ranked(vec![moved, key("/b", 100.0)]);
            assert_eq!(specs(&r), ["/b", "/a"], "{r:?}");
            // ... and below a clean key up to a cost step dearer.
            let mut moved = key("/a", 100.0);
            moved.workload.key_updated = 5;
            let r = ranked(vec![moved, key("/b", 124.0)]);
            assert_eq!(specs(&r), ["/b", "/a"], "{r:?}");
        }

        #[test]
        fn documents_without_the_key_weigh_like_key_changes() {
            let mut missing = key("/a", 100.0);
            missing.stats.missing = 20; // of 1,000 documents
            let r = ranked(vec![missing, key("/b", 110.0)]);
            assert_eq!(specs(&r), ["/b", "/a"], "{r:?}");
        }
    }
}
