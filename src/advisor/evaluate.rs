//! Evaluates one candidate: projects its statistics onto the target, replays the workload
//! on that container, and gathers the figures findings and scores are made of.

use crate::engine::Container;
use crate::engine::PartitionKeyDefinition;
use crate::key::KeySpec;
use crate::log::Log;
use crate::measure::candidate::Candidate;
use crate::project::kinds::{LogKind, SampleKind};
use crate::project::projection::{Projection, Time, project_at};
use crate::project::target::Target;
use crate::replay::{Sample, Subject, WorkloadStats, replay};
use crate::stats::{CandidateStats, ValueOrder};

/// Everything known of one candidate.
#[derive(Debug)]
pub struct Evaluation {
    /// The key.
    pub spec: KeySpec,
    /// The definition it was evaluated under.
    pub definition: PartitionKeyDefinition,
    /// Why it was considered.
    pub origin: String,
    /// Its role in the report.
    pub role: crate::report::model::Role,
    /// The client-side layout it is, when it is one.
    pub layout: Option<std::sync::Arc<crate::key::Layout>>,
    /// Its sample statistics.
    pub stats: CandidateStats,
    /// Distinct values, and whether counted exactly.
    pub distinct: crate::report::model::Cardinality,
    /// The projection onto the target (the container holds the replayed load too).
    pub projection: Projection,
    /// The replayed workload.
    pub workload: WorkloadStats,
    /// Busiest over mean physical partition bytes.
    pub storage_skew: f64,
    /// Busiest over mean physical partition RU.
    pub ru_skew: f64,
    /// Share of provisioned RU/s usable, worst window.
    pub usable: f64,
    /// Rank correlation of values with their arrival (single-path keys of orderable values).
    pub arrival_order: Option<f64>,
    /// Whether the values are clock readings (dates, times).
    pub clock_reading: bool,
    /// What its requests were charged under.
    pub charges: crate::pricing::charge::Charges,
    /// What its projection knew of time.
    pub time: Time,
}

/// Which levels are clock readings; a profile written before levels were recorded says only
/// whether the whole value is one.
fn clock_levels(order: &crate::stats::ValueOrder) -> u8 {
    match order.clock_levels {
        0 => u8::from(order.clock_reading),
        bits => bits,
    }
}

impl Evaluation {
    /// Distinct values at the target: the sample's, and those that arrive (new ones, and
    /// those that items that expire make room for).
    pub fn distinct_at_target(&self) -> u64 {
        let retained = (self.projection.retention).map_or(0.0, |r| r.new_values);
        let arriving = (retained + self.projection.new_values).round();
        (self.distinct.estimate).saturating_add(arriving as u64)
    }
}

/// What the evaluation needs besides the candidate.
pub struct Context<'a> {
    /// The target.
    pub target: &'a Target,
    /// The query log, if any.
    pub log: Option<&'a Log>,
    /// Seed for random suffixes.
    pub seed: u64,
    /// Whether documents arrived by `--time-path` timestamps (not file order).
    pub timed: bool,
    /// What requests are charged under (indexed terms, consistency).
    pub charges: crate::pricing::charge::Charges,
    /// The share of the real traffic the log holds (`--log-share`).
    pub log_share: f64,
    /// How long items live (seconds), when they expire.
    pub retention: Option<f64>,
    /// The write rate at the target, bytes per second, when known (see
    /// [`crate::project::projection::Time::rate`]).
    pub rate: Option<f64>,
    /// Whether `rate` was measured from the log's creates (see
    /// [`crate::project::projection::Time::rate_measured`]).
    pub rate_measured: bool,
    /// What the sample and the log are.
    pub kinds: crate::project::kinds::Kinds,
    /// The sample's entities among the log's extracted paths (the probed paths: see
    /// [`crate::project::grouping`]).
    pub entities: &'a [usize],
}

/// A clock reading that increases with arrival: at production rates the writes of one
/// moment share its value, one partition, however unique the sample's values are.
fn clock_spread(workload: &mut WorkloadStats, order: &ValueOrder, parts: usize) {
    if order
        .arrival_correlation
        .is_some_and(|r| r >= crate::stats::clock::MONOTONIC_MIN)
        && order.clock_reading
        && parts > 1
    {
        workload.write_spread = workload.write_spread.min(1.0 / parts as f64);
    }
}

/// The candidate's distinct values; a spillover has no key, its unit is the collection.
fn distinct(
    candidate: &Candidate,
    stats: &mut CandidateStats,
    parts: usize,
) -> crate::report::model::Cardinality {
    let (estimate, exact) = match &candidate.layout {
        Some(l) if l.is_spillover() => (parts as u64, true),
        _ => stats.distinct_values(),
    };
    crate::report::model::Cardinality { estimate, exact }
}

/// A candidate's statistics and what the log's creates say of its values (see
/// [`crate::project::newcomers`]), measured before the sample's kind is known: the kind is
/// read from them.
pub struct Measured {
    /// Its sample statistics.
    pub stats: CandidateStats,
    /// What its values say of their order (see [`crate::stats::clock::order`]).
    pub order: ValueOrder,
    /// The log's new values, when the log has creates to test.
    pub newcomers: Option<crate::project::newcomers::Newcomers>,
}

/// The share of the sample's documents that share the key's value with another, for a
/// single-level key; none for a hierarchical one (see [`crate::project::kinds::Kinds::coarse`]).
fn shared(candidate: &Candidate, stats: &CandidateStats) -> Option<f64> {
    let docs = stats.documents.saturating_sub(stats.invalid);
    (candidate.spec.levels().len() == 1).then(|| 1.0 - stats.values.singleton_share(docs))
}

/// What the projection reads time through for this candidate: the run's sample and log,
/// as they are to its values. A key whose values gather several of the units a log of
/// values samples is, to its values, a snapshot and a share of their requests (see
/// [`crate::project::kinds::Kinds::coarse`]).
fn time(
    candidate: &Candidate,
    stats: &mut CandidateStats,
    newcomers: Option<crate::project::newcomers::Newcomers>,
    ctx: &Context<'_>,
) -> Time {
    let coarse = (ctx.kinds).coarse(stats.distinct_values().0, shared(candidate, stats));
    let (sample, log) = match coarse {
        true => (SampleKind::Snapshot, LogKind::Requests),
        false => (ctx.kinds.sample, ctx.kinds.log),
    };
    Time {
        timed: ctx.timed,
        retention: ctx.retention,
        rate: ctx.rate,
        // A snapshot's values the log holds and the sample does not are its thinness, not
        // new values: it stands for the container at the target (see
        // [`crate::project::kinds`]).
        newcomers: newcomers.filter(|_| sample == SampleKind::Complete),
        sample,
        log,
        log_share: ctx.log_share,
        // Complete values gathered: the target holds `1 / share` as many units in each.
        gathered: (coarse && ctx.kinds.sample == SampleKind::Complete)
            .then(|| 1.0 / ctx.log_share.clamp(f64::MIN_POSITIVE, 1.0)),
        rate_measured: ctx.rate_measured,
    }
}

/// The subject of a candidate, for the log's routing.
fn subject<'a>(
    candidate: &'a Candidate,
    definition: &'a PartitionKeyDefinition,
    inputs: &'a [usize],
    ctx: &Context<'_>,
) -> Subject<'a> {
    Subject {
        spec: &candidate.spec,
        definition,
        inputs,
        seed: ctx.seed,
        layout: candidate.layout.as_deref(),
        log_share: ctx.log_share,
        exact_values: None,
        items_whole: ctx.kinds.log == LogKind::Values && ctx.log_share < 1.0,
    }
}

/// Measures the log's creates against a candidate's statistics.
pub fn measure(
    candidate: &Candidate,
    stats: CandidateStats,
    inputs: &[usize],
    ctx: &Context<'_>,
) -> Measured {
    let definition = candidate.definition();
    // Redacted values order nothing: what they said before is recorded.
    let order =
        (stats.order).unwrap_or_else(|| crate::stats::clock::order(&candidate.spec, &stats.values));
    let subject = subject(candidate, &definition, inputs, ctx);
    let newcomers = (ctx.log)
        .filter(|_| subject.layout.is_none())
        .and_then(|log| crate::project::newcomers::measure(log, &subject, &stats, ctx.entities))
        .and_then(|n| n.of_entities(clock_levels(&order)));
    Measured {
        stats,
        order,
        newcomers,
    }
}

/// Evaluates a candidate whose inputs are at `inputs` among the log's extracted paths.
pub fn evaluate(
    candidate: &Candidate,
    measured: Measured,
    inputs: &[usize],
    ctx: &Context<'_>,
) -> Evaluation {
    let Measured {
        mut stats,
        order,
        newcomers,
    } = measured;
    let spec = candidate.spec.clone();
    let origin = candidate.origin.clone();
    let definition = candidate.definition();
    let mut subject = subject(candidate, &definition, inputs, ctx);
    let time = time(candidate, &mut stats, newcomers, ctx);
    // Each value of a log of every request of a share of the values is logged whole.
    subject.exact_values = (time.log == LogKind::Values).then_some(ctx.log_share.clamp(0.0, 1.0));
    let mut projection = match &candidate.layout {
        Some(l) => crate::project::layout::project(l, &definition, &stats, ctx.target, ctx.timed),
        None => project_at(&definition, &stats, ctx.target, time.clone()),
    };
    let avg_doc = stats.bytes as f64 / stats.documents.max(1) as f64;
    let sample = Sample {
        arrival: &stats.arrival,
        blocks: &stats.blocks,
        avg_doc,
        concurrency: crate::stats::clock::concurrency(&stats.values, stats.documents),
        timed: ctx.timed,
        charges: ctx.charges,
        owners: &stats.owners,
        share: (stats.bytes as f64 / ctx.target.storage_bytes.max(1) as f64).min(1.0),
    };
    let mut workload = replay(&mut projection.container, &subject, ctx.log, &sample);
    let parts = projection.container.partitions().len();
    clock_spread(&mut workload, &order, parts);
    let c = &projection.container;
    let storage_skew = skew(c, |p| p.bytes() as f64);
    let ru_skew = skew(c, |p| p.ru());
    let usable = c.usable_fraction();
    let distinct = distinct(candidate, &mut stats, parts);
    Evaluation {
        spec,
        definition,
        origin,
        role: candidate.role,
        layout: candidate.layout.clone(),
        stats,
        distinct,
        projection,
        workload,
        storage_skew,
        ru_skew,
        usable,
        arrival_order: order.arrival_correlation,
        clock_reading: order.clock_reading,
        charges: ctx.charges,
        time,
    }
}

/// Busiest over mean of a per-partition figure (1.0 when all are zero).
fn skew(c: &Container, f: impl Fn(&crate::engine::Physical) -> f64) -> f64 {
    let values: Vec<f64> = c.partitions().iter().map(f).collect();
    let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
    let max = values.iter().copied().fold(0.0, f64::max);
    if mean <= 0.0 { 1.0 } else { max / mean }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Throughput;
    use crate::engine::epk::within;

    #[test]
    fn skew_is_the_busiest_over_the_mean_partition() {
        let def = KeySpec::parse("/k").unwrap().definition();
        // Four partitions holding 1, 1, 1 and 5 bytes: mean 2, busiest 5.
        let mut c = Container::new(def, Throughput::Manual(24_000.0));
        assert_eq!(c.partitions().len(), 4);
        for (i, bytes) in [1, 1, 1, 5].into_iter().enumerate() {
            c.insert(within(i, 4, 0.5, i as u64), bytes, 1, 0.0);
        }
        assert!((skew(&c, |p| p.bytes() as f64) - 2.5).abs() < 1e-12);
        // Nothing charged: even, not infinite.
        assert_eq!(skew(&c, |p| p.ru()), 1.0);
    }
}

/// Evaluations built by hand, for the tests of what is made of them.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::engine::{Container, GB, Throughput};
    use crate::key::KeySpec;
    use crate::project::projection::{Largest, Projection};
    use crate::replay::WorkloadStats;
    use crate::report::model::Cardinality;
    use crate::stats::CandidateStats;

    /// An evaluation of `spec` over 32 partitions with no problem at all: tests change
    /// one figure at a time.
    pub fn evaluation(spec: &str) -> Evaluation {
        let spec = KeySpec::parse(spec).unwrap();
        let definition = spec.definition();
        let container = Container::new(definition.clone(), Throughput::Manual(192_000.0));
        let mut stats = CandidateStats::new(1 << 20, false);
        stats.documents = 1_000;
        stats.bytes = 1_000_000;
        Evaluation {
            spec,
            definition,
            origin: String::new(),
            role: Default::default(),
            layout: None,
            stats,
            distinct: Cardinality {
                estimate: 10_000,
                exact: true,
            },
            projection: Projection {
                container,
                scale: 1.0,
                unseen_share: 0.0,
                unseen_from: Default::default(),
                growth: 1.0,
                closed_share: 0.0,
                largest: Some(Largest {
                    label: "\"a\"".into(),
                    bytes: GB,
                    low: GB,
                }),
                largest_closed: None,
                max_container_bytes: None,
                retention: None,
                new_values: 0.0,
                named_new: Vec::new(),
            },
            workload: WorkloadStats {
                reads: 1_000,
                single: 1_000,
                writes: 1_000,
                write_spread: 1.0,
                usable_relative: 1.0,
                ..Default::default()
            },
            storage_skew: 1.0,
            ru_skew: 1.0,
            usable: 1.0,
            charges: Default::default(),
            time: Default::default(),
            arrival_order: None,
            clock_reading: false,
        }
    }
}
