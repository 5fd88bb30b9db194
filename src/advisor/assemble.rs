//! Report assembly: turns evaluated candidates into the report model (each candidate's
//! figures, cost and findings), ranks them and attaches the recommendation and the
//! secondary-index proposal.

use std::collections::BTreeMap;

use super::evaluate::Evaluation;
use super::key_block::key_of;
use super::rank::{rank, recommend};
use super::round::{cents, round4};
use super::{findings, gsi, need, relief, score};
use crate::pricing::throughput::HOURS_PER_MONTH;
use crate::pricing::{Model, Prices, Reserved};
use crate::project::target::Target;
use crate::redact::redact;
use crate::report::model::{
    Bill, CandidateReport, CostReport, InputSummary, KindReport, LargestValue, Monthly,
    NEEDED_SOURCE, PricesReport, QueryReport, RedistributionReport, Report, SCHEMA_VERSION,
    StorageReport, TargetReport, ThroughputReport, Tool, ValueCounts,
};

/// Past this many times the sample's bytes, a default target is called out.
pub const SMALL_SAMPLE_RATIO: f64 = 10_000.0;

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
    pub prices: crate::pricing::Prices,
    /// The headroom (times the target) past which a larger break size earns nothing.
    pub margin: f64,
    /// Weigh a global secondary index for the recommended key's fanned-out reads.
    pub gsi: bool,
    /// `check`: the declared key's spec and the specs of the global secondary indexes
    /// declared beside it, to price as pairs.
    pub declared_indexes: Option<(String, Vec<String>)>,
    /// Fill each candidate's [`partitions`](CandidateReport::partitions), for the charts of
    /// formats that draw them.
    pub partitions: bool,
    /// How long items live and where that was read (`--retention`, a template's
    /// `defaultTtl`), for the header; none when neither says.
    pub retention: Option<String>,
    /// How the default storage was chosen when not the fixed default (`ingest 1.2 GB/day ×
    /// 30 days retention`).
    pub storage_default: Option<String>,
    /// What the timelines start from, when an ingest is known.
    pub timeline: Option<super::timeline::Basis>,
    /// Where figures not given with flags come from (`throughput`, `indexing`: the
    /// infrastructure file that declares them).
    pub sources: std::collections::BTreeMap<String, String>,
    /// What the sample and the log are, and why.
    pub kinds: crate::project::kinds::Kinds,
    /// Whether a log was read (its kind is stated only then).
    pub logged: bool,
}

/// Builds the ranked report from evaluated candidates.
pub fn build_report(
    mut evals: Vec<Evaluation>,
    mut input: InputSummary,
    opts: &ReportOptions,
) -> Report {
    // Values that came hashed (redacted profiles) are not shown beside raw ones.
    let redacting = ReportOptions {
        redact: opts.redact || input.redacted,
        ..opts.clone()
    };
    let opts = &redacting;
    if opts.redact {
        redact_labels(&mut evals, &mut input);
    }
    let (mut candidates, costs): (Vec<CandidateReport>, Vec<need::Cost>) =
        evals.iter_mut().map(|e| candidate(e, opts)).unzip();
    // Bucket counts the report will drop are no yardstick for the others.
    let dropped = super::rank::dropped_buckets(&candidates);
    let needs: Vec<f64> = (costs.iter().zip(&candidates))
        .map(|(c, r)| match dropped.contains(&r.key.spec) {
            true => f64::INFINITY,
            false => c.need,
        })
        .collect();
    findings::excess_ru(&mut candidates, &needs);
    let unranked = candidates.clone();
    rank(&mut candidates);
    super::rank::keep_cheapest_buckets(&mut candidates);
    let mut recommendation = recommend(&candidates, &opts.target);
    if let Some(r) = recommendation.as_mut().filter(|_| opts.gsi) {
        let best = (unranked.iter().position(|c| c.key.spec == r.spec))
            .filter(|&b| evals[b].layout.is_none());
        r.secondary_index =
            best.and_then(|b| gsi::propose(&evals, &unranked, b, &opts.target, &opts.prices));
    }
    let declared_indexes = declared_indexes(&evals, &unranked, opts);
    let t = &opts.target;
    // A target far past the sample, not asked for: its figures are a long extrapolation.
    let ratio = t.storage_bytes as f64 / input.bytes.max(1) as f64;
    let sample_ratio = (input.bytes > 0
        && ratio > SMALL_SAMPLE_RATIO
        && opts.defaults.iter().any(|d| d == "storage"))
    .then_some(ratio);
    Report {
        schema_version: SCHEMA_VERSION.to_owned(),
        tool: Tool::default(),
        input,
        target: target_report(
            opts,
            sample_ratio,
            prices_report(&opts.prices, &evals, &costs),
        ),
        candidates,
        recommendation,
        check: None,
        declared_indexes,
    }
}

/// Replaces every value label of the evaluations and of the log's summary by its hash:
/// every label of every source takes this one path.
fn redact_labels(evals: &mut [Evaluation], input: &mut InputSummary) {
    for e in evals {
        if let Some(l) = &mut e.projection.largest {
            l.label = redact(&l.label);
        }
    }
    for p in (input.monitor.iter_mut()).flat_map(|m| &mut m.largest_partitions) {
        p.value = redact(&p.value);
    }
}

/// `check`'s declared key priced as a pair with each index declared beside it.
fn declared_indexes(
    evals: &[Evaluation],
    unranked: &[CandidateReport],
    opts: &ReportOptions,
) -> Vec<crate::report::model::SecondaryIndex> {
    let Some((source, indexes)) = &opts.declared_indexes else {
        return Vec::new();
    };
    let at = |spec: &str| unranked.iter().position(|c| c.key.spec == spec);
    let source = at(source);
    (indexes.iter().filter_map(|i| Some((source?, at(i)?))))
        .map(|pair| gsi::pair(evals, unranked, pair, &opts.target, &opts.prices))
        .collect()
}

/// The target as the report states it.
fn target_report(
    opts: &ReportOptions,
    sample_ratio: Option<f64>,
    prices: PricesReport,
) -> TargetReport {
    let (t, k) = (&opts.target, &opts.kinds);
    TargetReport {
        storage_bytes: t.storage_bytes,
        throughput_ru: t.throughput.max_ru(),
        throughput_mode: billing_mode(&opts.prices),
        physical_partitions: t
            .throughput
            .even_partitions(t.storage_bytes, &crate::engine::Limits::default()),
        defaults: opts.defaults.clone(),
        sources: opts.sources.clone(),
        sample_ratio,
        prices,
        log_share: opts.prices.log_share,
        sample: KindReport {
            kind: k.sample.name().to_owned(),
            why: k.sample_why.clone(),
        },
        log_kind: opts.logged.then(|| KindReport {
            kind: k.log.name().to_owned(),
            why: k.log_why.clone(),
        }),
        unit: (k.unit.as_ref()).map(|u| crate::report::model::UnitReport {
            path: u.path.clone(),
            values: u.values,
        }),
        retention: opts.retention.clone(),
        storage_default: opts.storage_default.clone(),
        timeline: opts.timeline.as_ref().map(super::timeline::Basis::report),
    }
}

/// The prices and what the bill assumes, as the report states them: the indexed terms of
/// the sample, and how the log's hours (the same for every candidate) make a month.
fn prices_report(p: &Prices, evals: &[Evaluation], costs: &[need::Cost]) -> PricesReport {
    let terms = evals.first().map_or(0.0, |e| e.charges.terms);
    let hours = (costs.iter()).find_map(|c| c.demand.as_ref().map(|d| d.span_hours()));
    let month = match hours {
        Some(h) => format!(
            "{HOURS_PER_MONTH:.0} hours: the log's {h:.0} clock hour(s), each at its busiest window, repeated"
        ),
        None => "no hourly bill: the log gives no rates".to_owned(),
    };
    let autoscale_mode = match p.model {
        Model::Autoscale(m) => Some(m.name().to_owned()),
        _ => None,
    };
    PricesReport {
        ru_hour_per_100: match p.model {
            Model::Serverless => 0.0,
            _ => p.ru_hour_per_100,
        },
        gb_month: p.gb_month,
        regions: p.regions,
        source: p.source.clone(),
        billing: billing_mode(p),
        autoscale_mode,
        ru_million: (p.model == Model::Serverless).then_some(p.ru_million),
        multi_region_writes: p.multi_region_writes,
        consistency: p.consistency.name().to_owned(),
        reserved: p.reserved.map(|r| r.name().to_owned()),
        reserved_discount: p.reserved.map_or(0.0, Reserved::discount),
        indexing: p.indexing.clone(),
        terms_per_document: round4(terms),
        month,
        log_hours: hours,
    }
}

/// A candidate's report, and its cost.
fn candidate(e: &mut Evaluation, opts: &ReportOptions) -> (CandidateReport, need::Cost) {
    let cost = need::cost(e, &opts.target, &opts.prices);
    let components = score::components(e, &cost, opts.target.storage_bytes, opts.margin);
    let exact_score = score::exact_score(&components, &score::weights());
    let rank_score = score::rank_score(&components, cost.efficiency);
    let throughput_given = !opts.defaults.iter().any(|d| d == "throughput");
    let given = (throughput_given, opts.prices.model);
    let mut findings = findings::findings(e, &opts.target, &cost, given, opts.redact);
    let relief = relief::relief(e, &cost, &opts.target, &opts.prices);
    if let Some(r) = &relief {
        relief::annotate(&mut findings, r, &cost);
    }
    let w = &e.workload;
    let report = CandidateReport {
        rank: 0,
        score: (exact_score * 10.0).round() / 10.0,
        exact_score: rank_score,
        hazard: score::has_hazard(e),
        components: round_all(components),
        key: key_of(e, opts.redact),
        cardinality: e.distinct.clone(),
        storage: StorageReport {
            largest_logical_bytes: e.projection.largest.as_ref().map_or(0, |l| l.bytes),
            max_container_bytes: e.projection.max_container_bytes,
            physical_skew: round4(e.storage_skew),
            physical_partitions: e.projection.container.partitions().len(),
            new_values: (e.projection.scale > 1.0 && e.layout.is_none()).then(|| {
                crate::report::model::NewValuesReport {
                    share: round4(e.projection.unseen_share),
                    from: new_values_from(e.projection.unseen_from),
                    at_target: e.distinct_at_target(),
                }
            }),
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
        partitions: opts
            .partitions
            .then(|| super::map::partition_load(e, &opts.prices, cost.required_ru)),
        timeline: (opts.timeline.as_ref())
            .map(|b| super::timeline::timeline(e, &cost, b, &opts.target)),
        redistribution: relief.as_ref().map(|r| redistribution_report(r, &cost)),
    };
    (report, cost)
}

fn redistribution_report(r: &relief::Relief, cost: &need::Cost) -> RedistributionReport {
    RedistributionReport {
        only_served: relief::only_redistribution(r, cost),
        needed_ru: r.needed_ru,
        even_ru: r.even_ru.round(),
        hottest_partition_ru: r.hottest_ru.round(),
        stable: r.stable,
        burst_absorbs: r.burst_absorbs,
        merge_possible: r.merge_possible,
    }
}

fn cost_report(c: &need::Cost) -> CostReport {
    let monthly = |throughput: Option<f64>| Monthly {
        throughput: throughput.map(cents),
        storage: cents(c.monthly_storage),
        total: cents(c.monthly_storage + throughput.unwrap_or(0.0)),
        currency: "USD".into(),
    };
    CostReport {
        ru_per_operation: round4(c.ru_per_operation),
        efficiency: round4(c.efficiency),
        required_ru: c.required_ru,
        required_ru_unknown: c.unknown_because.clone(),
        need_ru: c.need_ru(),
        load_ru: c.load_ru.map(|r| r.round()),
        minimum_ru: c.minimum_ru.round(),
        monthly: monthly(c.monthly_throughput),
        needed: Bill {
            ru: c.required_ru,
            source: NEEDED_SOURCE.to_owned(),
            monthly: monthly(c.monthly_throughput),
        },
        provisioned: c.provisioned.as_ref().map(|p| Bill {
            ru: Some(p.ru),
            source: p.source.clone(),
            monthly: monthly(p.monthly_throughput),
        }),
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

fn round_all(m: BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    m.into_iter().map(|(k, v)| (k, round4(v))).collect()
}

/// The report's name for where the new values' share was read.
fn new_values_from(
    from: crate::project::projection::NewFrom,
) -> crate::report::model::NewValuesFrom {
    use crate::project::projection::NewFrom;
    use crate::report::model::NewValuesFrom;
    match from {
        NewFrom::Log => NewValuesFrom::Log,
        NewFrom::Arrivals => NewValuesFrom::Arrivals,
        NewFrom::Singletons => NewValuesFrom::Singletons,
    }
}

/// How the report names the billing model of `p`.
fn billing_mode(p: &crate::pricing::Prices) -> crate::report::model::BillingMode {
    use crate::report::model::BillingMode;
    match p.model {
        Model::Manual => BillingMode::Manual,
        Model::Autoscale(_) => BillingMode::Autoscale,
        Model::Serverless => BillingMode::Serverless,
    }
}
