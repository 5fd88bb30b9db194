//! The advisor: measures candidate keys over the sample, projects each onto the partition
//! engine at the target, replays the workload, and turns the figures into ranked,
//! explained candidates (the report model).

pub mod auto;
pub mod candidate;
pub mod clock;
pub mod cost;
pub mod discover;
pub mod evaluate;
pub mod findings;
pub mod gsi;
pub mod layout;
pub mod measure;
pub mod pipeline;
pub mod profile;
pub mod project;
pub mod score;

use std::collections::BTreeMap;

use crate::engine::PartitionKeyDefinition;
use crate::engine::murmur::murmur3_x64_128;
use crate::key::KeySpec;
use crate::report::model::{
    CandidateReport, CostReport, ExplainReport, Finding, InputSummary, KeyInfo, LargestValue,
    LogicalView, Monthly, PartitionMap, PhysicalView, PricesReport, QueryReport, Recommendation,
    Report, SCHEMA_VERSION, Severity, StorageReport, TargetReport, ThroughputReport, Tool,
    ValueCounts,
};
use crate::units::human_bytes;
use evaluate::Evaluation;
use project::Target;

/// How many of the largest values a candidate's report lists by default.
pub const DEFAULT_TOP_VALUES: usize = 3;

/// How the report is put together.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The target projected onto.
    pub target: Target,
    /// Which target figures are defaults (`storage`, `throughput`).
    pub defaults: Vec<String>,
    /// Largest values listed per candidate.
    pub top_values: usize,
    /// Replace key values by stable hashes.
    pub redact: bool,
    /// Prices and the log's share of the traffic, for the cost.
    pub prices: cost::Prices,
    /// Weigh a global secondary index for the recommended key's fanned-out reads.
    pub gsi: bool,
    /// `check`: the declared key's spec and the specs of the global secondary indexes
    /// declared beside it, to price as pairs.
    pub declared_indexes: Option<(String, Vec<String>)>,
}

/// A stable stand-in for a key value that must not leave the machine.
pub fn redact(label: &str) -> String {
    let (h1, _) = murmur3_x64_128(label.as_bytes());
    format!("\"#{:012x}\"", h1 >> 16)
}

/// [`redact`] keyed with `key`: without the key, a guessed value (a tenant's name) cannot be
/// confirmed by hashing it. MurmurHash3 of the key, a zero byte and the value: it stops
/// guessing, not an attacker holding many known pairs (it is not a cryptographic MAC).
pub fn redact_keyed(label: &str, key: &[u8]) -> String {
    if key.is_empty() {
        return redact(label);
    }
    let mut bytes = Vec::with_capacity(key.len() + 1 + label.len());
    bytes.extend_from_slice(key);
    bytes.push(0);
    bytes.extend_from_slice(label.as_bytes());
    let (h1, _) = murmur3_x64_128(&bytes);
    format!("\"#{:012x}\"", h1 >> 16)
}

/// Builds the ranked report from evaluated candidates.
pub fn build_report(
    mut evals: Vec<Evaluation>,
    input: InputSummary,
    opts: &ReportOptions,
) -> Report {
    if opts.redact {
        for e in &mut evals {
            if let Some(l) = &mut e.projection.largest {
                l.label = redact(&l.label);
            }
        }
    }
    let (mut candidates, needs): (Vec<CandidateReport>, Vec<f64>) =
        evals.iter_mut().map(|e| candidate(e, opts)).unzip();
    findings::excess_ru(&mut candidates, &needs);
    let unranked = candidates.clone();
    rank(&mut candidates);
    let mut recommendation = recommend(&candidates, &opts.target);
    if let Some(r) = recommendation.as_mut().filter(|_| opts.gsi) {
        let best = (unranked.iter().position(|c| c.key.spec == r.spec))
            .filter(|&b| evals[b].layout.is_none());
        r.secondary_index =
            best.and_then(|b| gsi::propose(&evals, &unranked, b, &opts.target, &opts.prices));
    }
    let declared_indexes = match &opts.declared_indexes {
        Some((source, indexes)) => {
            let at = |spec: &str| unranked.iter().position(|c| c.key.spec == spec);
            let source = at(source);
            (indexes.iter().filter_map(|i| Some((source?, at(i)?))))
                .map(|pair| gsi::pair(&evals, &unranked, pair, &opts.target, &opts.prices))
                .collect()
        }
        None => Vec::new(),
    };
    let t = &opts.target;
    Report {
        schema_version: SCHEMA_VERSION.to_owned(),
        tool: Tool::default(),
        input,
        target: TargetReport {
            storage_bytes: t.storage_bytes,
            throughput_ru: t.throughput.max_ru(),
            throughput_mode: match t.throughput {
                crate::engine::Throughput::Manual(_) => "manual".into(),
                crate::engine::Throughput::Autoscale(_) => "autoscale".into(),
            },
            physical_partitions: t
                .throughput
                .even_partitions(t.storage_bytes, &crate::engine::Limits::default()),
            defaults: opts.defaults.clone(),
            prices: PricesReport {
                ru_hour_per_100: opts.prices.ru_hour_per_100,
                gb_month: opts.prices.gb_month,
                regions: opts.prices.regions,
                source: opts.prices.source.clone(),
            },
            log_share: opts.prices.log_share,
        },
        candidates,
        recommendation,
        check: None,
        declared_indexes,
    }
}

/// A candidate's report, and what its busiest window needs (to compare candidates).
fn candidate(e: &mut Evaluation, opts: &ReportOptions) -> (CandidateReport, f64) {
    let cost = cost::cost(e, &opts.target, &opts.prices);
    let components = score::components(e, &cost, opts.target.storage_bytes);
    let score = score::score(&components, &score::weights());
    let throughput_given = !opts.defaults.iter().any(|d| d == "throughput");
    let findings = findings::findings(e, &opts.target, &cost, throughput_given, opts.redact);
    let w = &e.workload;
    let report = CandidateReport {
        rank: 0,
        score,
        components: round_all(components),
        key: key_of(e, opts.redact),
        cardinality: e.distinct.clone(),
        storage: StorageReport {
            largest_logical_bytes: e.projection.largest.as_ref().map_or(0, |l| l.bytes),
            max_container_bytes: e.projection.max_container_bytes,
            physical_skew: round4(e.storage_skew),
            physical_partitions: e.projection.container.partitions().len(),
        },
        throughput: ThroughputReport {
            physical_skew: round4(e.ru_skew),
            usable_fraction: round4(e.usable),
            write_spread: round4(w.write_spread),
            busiest_share_by_window: e
                .projection
                .container
                .load()
                .windows()
                .iter()
                .map(|w| round4(w.max / w.total))
                .collect(),
        },
        cost: cost_report(&cost),
        queries: QueryReport {
            single: round4(w.fraction(w.single)),
            targeted: round4(w.fraction(w.targeted)),
            fan_out: round4(w.fraction(w.fan_out)),
            avg_partitions: round4(w.avg_partitions()),
            reads: w.reads,
            writes: w.writes,
            writes_from_sample: w.writes_from_sample,
        },
        values: value_counts(e),
        largest_values: largest_values(e, opts),
        findings,
        origin: e.origin.clone(),
        role: e.role,
    };
    (report, cost.need)
}

fn cost_report(c: &cost::Cost) -> CostReport {
    CostReport {
        ru_per_operation: round4(c.ru_per_operation),
        efficiency: round4(c.efficiency),
        required_ru: c.required_ru,
        required_ru_unknown: c.unknown_because.clone(),
        monthly: Monthly {
            throughput: c.monthly_throughput.map(cents),
            storage: cents(c.monthly_storage),
            total: cents(c.monthly_total()),
            currency: "USD".into(),
        },
    }
}

fn value_counts(e: &Evaluation) -> ValueCounts {
    let s = &e.stats;
    ValueCounts {
        documents: s.documents,
        missing: s.missing,
        invalid: s.invalid,
        unsafe_numbers: s.unsafe_numbers,
        over_101_bytes: s.over_v1_limit,
        over_2048_bytes: s.over_limit,
    }
}

fn largest_values(e: &Evaluation, opts: &ReportOptions) -> Vec<LargestValue> {
    let total = e.stats.bytes.max(1) as f64;
    e.stats
        .values
        .top(opts.top_values)
        .into_iter()
        .map(|v| LargestValue {
            share: round4(v.bytes as f64 / total),
            value: if opts.redact {
                redact(&v.value)
            } else {
                v.value
            },
            documents: v.docs,
            bytes: v.bytes,
            exact: v.exact,
            partial: v.partial,
            min_bytes: v.min_bytes,
        })
        .collect()
}

/// Values listed per physical partition by `--explain`.
const EXPLAIN_VALUES: usize = 3;

/// The partition map of one evaluated candidate, each partition listing its largest
/// values and, as one entry with an empty EPK, the projected tail of small values.
pub fn explain(e: &mut Evaluation, storage_bytes: u64, redact_values: bool) -> ExplainReport {
    // A spillover's documents have no values: its collections hold projected chunks.
    let spillover = e.layout.as_ref().is_some_and(|l| l.is_spillover());
    let mut entries: Vec<_> = (e.stats.values.heavy_entries())
        .filter(|_| !spillover)
        .collect();
    entries.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.label.cmp(b.label)));
    let mut labels: BTreeMap<String, String> = entries
        .into_iter()
        .take(1 << 16)
        .map(|v| {
            let label = if redact_values {
                redact(v.label)
            } else {
                v.label.to_string()
            };
            (v.epk.to_hex(), label)
        })
        .collect();
    let mut map = partition_map(&mut e.projection.container, usize::MAX);
    for p in &mut map.partitions {
        let (named, tail): (Vec<_>, Vec<_>) = p
            .largest
            .drain(..)
            .partition(|l| labels.contains_key(&l.epk));
        p.largest = named.into_iter().take(EXPLAIN_VALUES).collect();
        let tail_bytes: u64 = tail.iter().map(|l| l.bytes).sum();
        if tail_bytes > 0 {
            p.largest.push(crate::report::model::LogicalView {
                epk: String::new(),
                bytes: tail_bytes,
                items: tail.iter().map(|l| l.items).sum(),
                ru: tail.iter().map(|l| l.ru).sum(),
            });
        }
    }
    let shown: std::collections::BTreeSet<String> = map
        .partitions
        .iter()
        .flat_map(|p| p.largest.iter().map(|l| l.epk.clone()))
        .collect();
    labels.retain(|k, _| shown.contains(k));
    let hide = hider(redact_values);
    let collections = match &e.layout {
        Some(l) => (0..map.partitions.len())
            .map(|i| l.collection_name_with(i, &hide))
            .collect(),
        None => Vec::new(),
    };
    ExplainReport {
        schema_version: SCHEMA_VERSION.to_owned(),
        key: key_of(e, redact_values),
        storage_bytes,
        labels,
        map,
        collections,
    }
}

/// A plain snapshot of a container's partition map, with the `top` largest logical
/// partitions of each physical partition.
pub fn partition_map(c: &mut crate::engine::Container, top: usize) -> PartitionMap {
    let partitions = (0..c.partitions().len())
        .map(|idx| {
            let mut largest: Vec<crate::engine::Logical> = c.logical_partitions(idx).to_vec();
            let logical_partitions = largest.len() as u64;
            largest.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.epk.cmp(&b.epk)));
            largest.truncate(top);
            let p = &c.partitions()[idx];
            PhysicalView {
                id: p.id(),
                parent: p.parent(),
                min: p.range().min.to_hex(),
                max: p.range().max.to_hex(),
                bytes: p.bytes(),
                items: p.items(),
                logical_partitions,
                ru: p.ru(),
                largest: (largest.into_iter())
                    .map(|l| LogicalView {
                        epk: l.epk.to_hex(),
                        bytes: l.bytes,
                        items: l.items,
                        ru: l.ru,
                    })
                    .collect(),
            }
        })
        .collect();
    PartitionMap {
        definition: c.definition().to_json(),
        throughput: c.throughput(),
        ru_per_partition: c.ru_per_partition(),
        partitions,
    }
}

/// Rounds to whole cents.
pub fn cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Rounds to 4 decimals, so output does not depend on the last bits of a float sum.
pub fn round4(x: f64) -> f64 {
    if x.is_finite() {
        (x * 1e4).round() / 1e4
    } else {
        0.0
    }
}

fn round_all(m: BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    m.into_iter().map(|(k, v)| (k, round4(v))).collect()
}

fn has_violation(c: &CandidateReport) -> bool {
    c.findings.iter().any(|f| f.severity == Severity::Violation)
}

/// Orders candidates: without violations first, then by score, then by spec (stable).
pub fn rank(candidates: &mut [CandidateReport]) {
    candidates.sort_by(|a, b| {
        has_violation(a)
            .cmp(&has_violation(b))
            .then(b.score.total_cmp(&a.score))
            .then_with(|| a.key.spec.cmp(&b.key.spec))
    });
    for (i, c) in candidates.iter_mut().enumerate() {
        c.rank = i + 1;
    }
}

/// The key block of an evaluated candidate: a key's, or a layout's (`kind` `layout`, its
/// canonical spec, and its collections in place of a definition); `redact` hides the
/// values a layout's spec and collection names hold.
pub fn key_of(e: &Evaluation, redact: bool) -> KeyInfo {
    let hide = hider(redact);
    match &e.layout {
        Some(l) => KeyInfo {
            spec: l.spec_with(&hide),
            kind: "layout".to_owned(),
            definition: l.to_json(e.projection.container.partitions().len(), &hide),
        },
        None => key_info(&e.spec, &e.definition),
    }
}

/// What shows a value in a name: itself, or with `redact` its stable hash.
pub fn hider(redact: bool) -> impl Fn(&str) -> String {
    move |v: &str| match redact {
        true => self::redact(v).trim_matches('"').to_owned(),
        false => v.to_owned(),
    }
}

/// The key block of a report: canonical spec, kind and Cosmos DB definition.
pub fn key_info(spec: &KeySpec, definition: &PartitionKeyDefinition) -> KeyInfo {
    KeyInfo {
        spec: spec.to_string(),
        kind: spec.kind().as_str().to_owned(),
        definition: definition.to_json(),
    }
}

fn recommend(candidates: &[CandidateReport], target: &Target) -> Option<Recommendation> {
    let best = candidates.first()?;
    let mut reason = if has_violation(best) {
        format!(
            "No candidate is free of violations; {} is the least bad (score {:.1}). ",
            best.key.spec, best.score
        )
    } else {
        format!("{} scores {:.1} of 100. ", best.key.spec, best.score)
    };
    reason.push_str(&strengths(best, target));
    if let Some(next) = candidates.get(1) {
        reason.push_str(&format!(
            " The runner-up, {} (score {:.1}), {}{}.",
            next.key.spec,
            next.score,
            cost_against(next, best),
            weakness(next)
        ));
    }
    Some(Recommendation {
        spec: best.key.spec.clone(),
        reason,
        secondary_index: None,
    })
}

/// The runner-up's cost against the best's.
fn cost_against(c: &CandidateReport, best: &CandidateReport) -> String {
    let ratio = cost::ratio(c, best);
    let compared = if (ratio - 1.0).abs() < 0.05 {
        "about as much".to_owned()
    } else if ratio > 1.0 {
        format!("{ratio:.1}× as much")
    } else {
        format!("{:.0}% less", (1.0 - ratio) * 100.0)
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
    use crate::report::model::FindingCode;
    use crate::report::model::testing::candidate;

    fn with(spec: &str, score: f64, violation: bool) -> CandidateReport {
        let mut c = candidate(spec, &[]);
        c.score = score;
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
                    c.cost.required_ru = None;
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

    #[test]
    fn the_cost_ratio_takes_the_larger_of_efficiency_and_rus() {
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
            (a.cost.efficiency, a.cost.required_ru) = (ea, ra);
            (b.cost.efficiency, b.cost.required_ru) = (eb, rb);
            assert!(
                (cost::ratio(&a, &b) - ratio).abs() < 1e-12,
                "{ea} {ra:?} {eb} {rb:?}"
            );
        }
    }
}
