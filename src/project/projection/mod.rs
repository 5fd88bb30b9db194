//! Projection of a candidate's sample statistics onto an engine container at the target
//! size.
//!
//! The model. Let `B` be the sample's bytes, `S` the target storage and `k = S / B` the
//! growth factor; the container receives `N = (k - 1) B` bytes beyond the sample's.
//!
//! * **Closed values stop growing.** With `--time-path`, a value whose documents stopped
//!   arriving well before the sample's end (its last arrival is more than four of its own
//!   mean gaps and 5% of the sample's span before the end: a past day, a finished session)
//!   keeps its size: it holds what its period received, and the key's limit for it is an
//!   ingest rate, not a container size. Without `--time-path` arrival is file order, which
//!   an export may group by key, so every value is taken to stay open.
//! * **New values** take a share `p` of the new data: with a log of creates, the share of
//!   their bytes whose key value the sample does not hold (see [`super::newcomers`]: a
//!   pilot's sample cannot know the rollout's mix, its log does), unless the key's values
//!   are periods (clock readings, or values that close), whose newcomers in a log are the
//!   periods to come; else with timestamps, the share of the sample's second half that went
//!   to values first seen in that half (new days, new sessions, new ids); else
//!   Good–Turing's `N1 / N`, the share of documents whose value occurs once.
//! * **Open values** share the rest in proportion to their size: each grows by
//!   `g = 1 + N (1 - p) / B_open`, and, with timestamps and a write rate, at least by what
//!   its own rate writes while the container fills (the time the target takes at the
//!   rate, over the sample's span); not a key whose values close.
//! * **New first levels.** Of a hierarchical key, the log's creates also say which share
//!   of new data comes from first levels the sample never saw (new devices, new tenants):
//!   those values hash anywhere, and the known first levels' periods receive only the rest
//!   of the target's rate.
//!
//! Placement follows the EPK layout. Every value known one by one (all of them while
//! counted exactly; the heavy hitters and the hash-sampled values, scaled, once sampled) is
//! placed at its own EPK. New values of a single-level key hash anywhere, so they spread
//! evenly over the hash space. New values of a hierarchical key extend the prefix of the
//! value they are drawn from (a new session of a user, a new user of a tenant): they are
//! placed inside that prefix's EPK range, spread over the range by their last level's
//! hash, so a prefix that outgrows a partition splits over several exactly where the
//! service would split it, and queries on that prefix reach those partitions. New data is
//! placed in chunks of at most 1 GB, so the engine can split between them.
//!
//! **Retention.** With a time to live `R` (the items' `ttl`, or `--retention`) and
//! `--time-path`, a value holds at most its write rate × `R`: its sample bytes over the
//! sample's span `T`, times `R`, so it grows at most `max(1, R / T)` whatever the target.
//! What open values cannot hold arrives as new values (a rollout brings new meters, not
//! bigger ones), placed as other new values are, and counted as new distinct values of the
//! size the bounded values reach.
//!
//! **Periods.** With `--time-path` and the write rate at the target known (the log's creates
//! ÷ `--log-share`, else the target over its retention), a key most of whose sample bytes
//! are in closed values is one of periods (a few retired devices do not make a device key
//! one), and a closed value stands for the
//! periods to come: one holds its sample bytes × the target's rate over the sample's (the
//! sample's bytes over its span). The period in progress at the sample's end (an open value
//! that began after the sample did and less than one and a half median periods before its
//! end) grows to at most one period at that rate; what it cannot hold arrives as new values,
//! as bytes a retention holds back do. Without a rate, periods keep their sample's size.
//!
//! Limits: the sample is taken to be representative of the future mix and, with
//! `--time-path`, to hold every document of its time span (a closed value's size is its
//! sample size).

use std::collections::BTreeMap;

use rustc_hash::FxHashSet;

use crate::engine::epk::{boundary_at, slice_of_epk};
use crate::engine::{Container, Epk, GB, PartitionKeyDefinition, PartitionKind};
use crate::stats::histogram::{BUCKETS, EpkHistogram};
use crate::stats::{CandidateStats, Span, value_hash};

use super::kinds::{LogKind, SampleKind};
use super::newcomers::HeldGroup;
use super::target::Target;

mod explain;
mod growth;
mod periods;
mod placement;

pub use explain::{Explained, explain};

use growth::*;
use periods::*;
use placement::*;

/// A value whose documents stopped arriving before the sample's end.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosedValue {
    /// Its label.
    pub label: String,
    /// Its projected bytes: its sample bytes (it does not grow), or, when the target's
    /// write rate is known, what a period like it receives at that rate.
    pub bytes: u64,
    /// Seconds (or document positions without `--time-path`) from its first arrival to
    /// its last.
    pub period: i64,
    /// The target's write rate in bytes per second `bytes` was sized at, when known.
    pub rate: Option<f64>,
}

/// The largest value a projection reports one by one (a layout's: its largest collection).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Largest {
    /// Its label (JSON text of the value, or a collection's name).
    pub label: String,
    /// Its projected bytes.
    pub bytes: u64,
    /// The low end of their 95% interval from its count alone (see [`low_bound`]): what
    /// it holds net of chance. `bytes` when its count is exact.
    pub low: u64,
}

/// The 95% interval of `bytes` projected from a value seen `count` times: a snapshot's
/// count is Poisson, `r ± 1.96 sqrt(r)` of `r`; complete values are exact.
pub fn interval(bytes: f64, count: u64, sample: SampleKind) -> (f64, f64) {
    let r = count as f64;
    match sample {
        SampleKind::Snapshot if r > 0.0 => {
            let half = 1.96 * r.sqrt();
            (bytes * ((r - half) / r).max(0.0), bytes * (r + half) / r)
        }
        _ => (bytes, bytes),
    }
}

/// The low end of [`interval`]: what a value holds net of chance.
pub fn low_bound(bytes: f64, count: u64, sample: SampleKind) -> f64 {
    interval(bytes, count, sample).0
}

/// A candidate's container at the target, and the figures of the projection.
#[derive(Clone, Debug)]
pub struct Projection {
    /// The engine container with the projected data.
    pub container: Container,
    /// `k`: target bytes over sample bytes.
    pub scale: f64,
    /// `p`: the share of new data that goes to unseen values.
    pub unseen_share: f64,
    /// Where `p` was read.
    pub unseen_from: NewFrom,
    /// `g`: how much each open value seen in the sample grows.
    pub growth: f64,
    /// The share of the sample's bytes in closed values.
    pub closed_share: f64,
    /// The largest value and its projected bytes.
    pub largest: Option<Largest>,
    /// The largest value, when it is closed: its limit is an ingest rate.
    pub largest_closed: Option<ClosedValue>,
    /// The container size at which a value reaches the logical-partition limit net of
    /// chance (the low end of its own 95% interval); `None` when no value grows with the
    /// container (no limit from it).
    pub max_container_bytes: Option<u64>,
    /// With a retention and a write rate: what it bounds.
    pub retention: Option<Retained>,
    /// Values the target holds beyond the sample's: the new values' bytes (`p` of the new
    /// data) over the mean size the sample's values reach at the target.
    pub new_values: f64,
    /// The log's new values placed as values of their own: EPK (hex) and label.
    pub named_new: Vec<(String, String)>,
}

/// What a time to live does to a projection (see the module's **Retention**).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Retained {
    /// Seconds an item lives.
    pub seconds: f64,
    /// The most a value seen in the sample grows: `max(1, R / T)`.
    pub bound: f64,
    /// New values the target holds beyond the sample's: the bytes open values could not
    /// hold, over the mean size the bounded values reach.
    pub new_values: f64,
}

/// Past this container size, a limit is reported as unbounded.
const UNBOUNDED: f64 = 1e18;

/// What a projection knows of time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Time {
    /// Whether arrivals are timestamps (`--time-path`), so closed values can be told apart.
    pub timed: bool,
    /// How long items live, seconds (none: forever).
    pub retention: Option<f64>,
    /// The write rate at the target, bytes per second, when known: future periods are
    /// sized at it.
    pub rate: Option<f64>,
    /// The share of the log's created bytes whose key value the sample does not hold,
    /// when measured (see [`super::newcomers`]): the share of new data new values take.
    pub newcomers: Option<crate::project::newcomers::Newcomers>,
    /// What the sample is (see [`crate::project::kinds`]).
    pub sample: SampleKind,
    /// What the log is.
    pub log: LogKind,
    /// `--log-share`.
    pub log_share: f64,
    /// Of a key whose values gather several of the units a log of values samples (see
    /// [`crate::project::kinds::Unit`]): how many times its documents each value holds
    /// at the target, `1 / share` (a past day held every unit's readings, and the target
    /// has `1 / share` as many units). A closed value grows by it.
    pub gathered: Option<f64>,
    /// Whether `rate` was measured (the log's creates ÷ `--log-share`), not read back from
    /// the target over the retention: only a measured rate says how much faster than the
    /// sample's arrivals a snapshot's values are written.
    pub rate_measured: bool,
}

/// Where the share of new data that new values take was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NewFrom {
    /// The log's creates (see [`super::newcomers`]).
    Log,
    /// The sample's `--time-path` arrivals: values first seen in its second half.
    Arrivals,
    /// Good–Turing: the share of documents whose value occurs once in the sample.
    #[default]
    Singletons,
}

/// Projects `stats` of a key with `definition` onto `target`; `timed` says arrivals are
/// timestamps (`--time-path`), so closed values can be told apart.
pub fn project(
    definition: &PartitionKeyDefinition,
    stats: &CandidateStats,
    target: &Target,
    timed: bool,
) -> Projection {
    project_retained(definition, stats, target, timed, None)
}

/// [`project`] with items that live `retention` seconds (none: forever).
pub fn project_retained(
    definition: &PartitionKeyDefinition,
    stats: &CandidateStats,
    target: &Target,
    timed: bool,
    retention: Option<f64>,
) -> Projection {
    let time = Time {
        timed,
        retention,
        rate: None,
        newcomers: None,
        ..Time::default()
    };
    project_at(definition, stats, target, time)
}

/// [`project`] with what is known of `time`.
pub fn project_at(
    definition: &PartitionKeyDefinition,
    stats: &CandidateStats,
    target: &Target,
    time: Time,
) -> Projection {
    let container = Container::new(definition.clone(), target.throughput);
    project_into(container, stats, target, time, NewValues::Anywhere)
}

/// Where the new values of a projection go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewValues {
    /// Anywhere in the hash space (a hash of the value decides), or, for a hierarchical
    /// key, inside their parent prefix's range.
    Anywhere,
    /// To each physical partition in proportion to the sample's bytes in it, spread over
    /// its range (the collections of a range or lookup layout: a resolver, not a hash,
    /// decides, and new values follow the sample's mix).
    LikeSample,
}

/// Projects `stats` onto `container` (empty, laid out for the target) as [`project`] does,
/// with what is known of `time`; `new` says where new values go.
pub fn project_into(
    mut container: Container,
    stats: &CandidateStats,
    target: &Target,
    time: Time,
    new: NewValues,
) -> Projection {
    let retention = time.retention;
    let v1 = container.definition().is_v1();
    let hierarchical = hierarchical_of(container.definition());
    let free = |c: &[Carrier<'_>], g: &Growth| placed(c, g, new, &container, hierarchical);
    let Grown {
        carriers,
        arrivals,
        g,
        periods,
        sample,
        scale,
        free,
    } = grow(stats, v1, target, &time, free);
    let avg_doc = sample / stats.documents.max(1) as f64;
    let grows = placed(&carriers, &g, new, &container, hierarchical);
    // What a value cannot hold past its bound arrives as new values.
    let held_back: Vec<f64> = (carriers.iter().zip(&free).zip(&grows))
        .map(|((c, f), g)| c.bytes * (f - g).max(0.0))
        .collect();
    let (parents, anywhere, new_firsts) = place_carriers(
        &mut container,
        &carriers,
        (&grows, &held_back),
        &g,
        hierarchical,
    );
    let (named_new, anywhere) = place_log_news(
        &mut container,
        (stats, &time),
        (&carriers, &g),
        (scale, hierarchical, new, avg_doc),
        (anywhere, new_firsts),
    );
    match new {
        NewValues::Anywhere => {
            for i in 0..BUCKETS {
                place_chunks(&mut container, i, anywhere / BUCKETS as f64, avg_doc, v1);
            }
        }
        NewValues::LikeSample => {
            place_like_sample(&mut container, &carriers, &arrivals, anywhere, avg_doc)
        }
    }
    for (prefix, mass) in parents {
        place_in_prefix(&mut container, prefix, mass, avg_doc);
    }
    container.settle();
    let kinds = (sample, time.sample);
    let grown = (&carriers[..], &g, periods.as_ref(), &named_new[..]);
    let (largest, largest_closed, max_container_bytes) = limits(grown, kinds);
    let grown = (&carriers[..], &g, periods.as_ref());
    let (retention, new_values) = new_values_of(grown, (&grows, &held_back), retention);
    Projection {
        container,
        scale,
        unseen_share: g.unseen_share,
        unseen_from: g.from,
        growth: g.open,
        closed_share: g.closed_bytes / sample,
        largest,
        largest_closed,
        max_container_bytes,
        retention,
        new_values,
        named_new: (named_new.iter())
            .map(|v| (v.epk.to_hex(), v.label.to_owned()))
            .collect(),
    }
}

/// A sample's values grown onto a target, as both [`project_into`] and [`named_sizes`] read
/// them.
struct Grown<'s> {
    /// The values placed one by one, closed or not, capped when periods in progress.
    carriers: Vec<Carrier<'s>>,
    arrivals: Arrivals,
    /// Their growth, bounded by the retention.
    g: Growth,
    periods: Option<Periods>,
    /// The sample's bytes.
    sample: f64,
    /// The target's bytes over the sample's.
    scale: f64,
    /// What `free` made of the growth before caps and bounds.
    free: Vec<f64>,
}

/// Grows `stats`' values onto `target` with what is known of `time`; `free` is given the
/// growth before periods cap and a retention bounds it (what values would hold unbounded:
/// the projection's bytes held back are the difference).
fn grow<'s>(
    stats: &'s CandidateStats,
    v1: bool,
    target: &Target,
    time: &Time,
    free: impl FnOnce(&[Carrier<'_>], &Growth) -> Vec<f64>,
) -> Grown<'s> {
    let sample = stats.histogram().total_bytes.max(1) as f64;
    let scale = target.storage_bytes as f64 / sample;
    let mut carriers = carriers(stats, v1);
    let arrivals = Arrivals::of(&carriers, time.timed);
    for c in &mut carriers {
        c.closed = arrivals.is_closed(c);
    }
    let mut g = growth(stats, &carriers, (scale, time), &arrivals);
    let free = free(&carriers, &g);
    if time.sample == SampleKind::Snapshot {
        let earned = credible(&stats.values.kept_counts_of_counts());
        for c in &mut carriers {
            c.credible = earned.get(c.count as usize).copied().unwrap_or(1.0);
        }
    }
    let periods = Periods::of(&carriers, &arrivals, sample, &g);
    if let Some(p) = &periods {
        for c in &mut carriers {
            c.cap = p.cap(c, &arrivals, time.retention);
        }
    }
    // A value holds at most its real rate × the time to live, and never less than it
    // holds: the bound is taken past the real rate, then floored at 1.
    let real = real_over_sample(time, &arrivals, sample);
    if let Some(b) = time.retention.and_then(|r| arrivals.bound(r * real)) {
        g.bound = b;
    }
    Grown {
        carriers,
        arrivals,
        g,
        periods,
        sample,
        scale,
        free,
    }
}

/// How many times faster than the sample's arrivals the real container writes each value:
/// of a snapshot (a uniform share of the documents), the target's measured write rate over
/// the sample's bytes a second, at least 1; of complete values, or without a measured rate,
/// 1 (each value's rate is its own). A retention bounds a value at its real rate times the
/// time to live.
fn real_over_sample(time: &Time, a: &Arrivals, sample: f64) -> f64 {
    let span = a.span();
    match (time.sample, time.rate.filter(|_| time.rate_measured)) {
        (SampleKind::Snapshot, Some(rate)) if a.timed && span > 0.0 && rate.is_finite() => {
            (rate * span / sample.max(1.0)).max(1.0)
        }
        _ => 1.0,
    }
}

fn hierarchical_of(definition: &PartitionKeyDefinition) -> bool {
    definition.kind() == PartitionKind::MultiHash
}

/// What a retention bounds, and the values the target holds beyond the sample's: those the
/// new data makes (see [`arriving`]) and those made of what values could not hold past
/// their bounds (a retention's, or a period in progress at its one period), of the size
/// the bounded values reach, counted once.
fn new_values_of(
    (carriers, g, periods): (&[Carrier<'_>], &Growth, Option<&Periods>),
    (grows, held_back): (&[f64], &[f64]),
    retention: Option<f64>,
) -> (Option<Retained>, f64) {
    let held_values = held_back_values(carriers, grows, held_back);
    let retention = (retention.filter(|_| g.bound.is_finite())).map(|seconds| Retained {
        seconds,
        bound: g.bound,
        new_values: held_values,
    });
    let unbounded = if retention.is_none() {
        held_values
    } else {
        0.0
    };
    (retention, arriving(carriers, g, periods) + unbounded)
}

/// The values the bytes held back past their bounds make: new values of the mean size the
/// bounded values reach (a hash-sampled value stands for [`Carrier::values`] values).
fn held_back_values(carriers: &[Carrier<'_>], grows: &[f64], held_back: &[f64]) -> f64 {
    let (mut bytes, mut values) = (0.0, 0.0);
    for ((c, &g), &lost) in carriers.iter().zip(grows).zip(held_back) {
        if lost > 0.0 {
            bytes += c.bytes * g;
            values += c.values;
        }
    }
    let lost: f64 = held_back.iter().sum();
    match bytes > 0.0 {
        true => lost / (bytes / values.max(1.0)),
        false => 0.0,
    }
}

/// The largest value reported one by one, projected; and it again when it is closed (or,
/// with `periods`, a period in progress). With `periods`, a closed value stands for the
/// periods to come: it holds what one receives at the target's write rate.
fn largest(
    carriers: &[Carrier<'_>],
    g: &Growth,
    periods: Option<&Periods>,
    named_new: &[Carried<'_>],
    sample: SampleKind,
) -> (Option<Largest>, Option<ClosedValue>) {
    let mut best: Option<(&Carrier<'_>, u64)> = None;
    // The values past the logical-partition limit, labelled or not: how many, their bytes
    // and their documents (see `pooled_low`).
    let limit = crate::engine::Limits::default().logical_bytes as f64;
    let mut past = (0u64, 0.0, 0u64);
    for c in carriers {
        let bytes = projected(c, g, periods);
        if bytes > limit {
            past = (past.0 + 1, past.1 + bytes, past.2.saturating_add(c.count));
        }
        let Some(label) = c.label else { continue };
        let b = bytes.round() as u64;
        // Ties go to the smallest label, so the choice does not depend on map order.
        let better = best.is_none_or(|(l, lb)| b > lb || (b == lb && Some(label) < l.label));
        if better {
            best = Some((c, b));
        }
    }
    // A new value of the log's larger than any: it is open.
    let new = (named_new.iter())
        .map(|v| (v.label, v.bytes.round() as u64))
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)));
    if let Some((label, b)) = new.filter(|n| best.is_none_or(|(_, lb)| n.1 > lb)) {
        let label = label.to_owned();
        return (
            Some(Largest {
                label,
                bytes: b,
                low: b,
            }),
            None,
        );
    }
    let Some((c, b)) = best else {
        return (None, None);
    };
    let label = c.label.unwrap_or_default().to_owned();
    let in_progress = c.cap.is_finite() && periods.is_some();
    let closed = (c.closed || in_progress).then(|| ClosedValue {
        label: label.clone(),
        bytes: b,
        period: match (in_progress, periods) {
            (true, Some(p)) => p.length as i64,
            _ => c.span.last - c.span.first,
        },
        rate: periods.map(|p| p.rate),
    });
    let low = low_bound(b as f64, c.count, sample)
        .max(pooled_low(past, sample))
        .min(b as f64)
        .round() as u64;
    (
        Some(Largest {
            label,
            bytes: b,
            low,
        }),
        closed,
    )
}

/// Of the values projected past the logical-partition limit (`past`: how many, their
/// bytes and their documents), the low end of their mean's 95% interval from all their
/// counts together: 400 devices seen 50 times each, all projected at 25 GB, break the limit
/// beyond chance though each one's own count (50 ± 14) would not say so; one value seen 6
/// times does not. 0 when none passes.
fn pooled_low((n, bytes, count): (u64, f64, u64), sample: SampleKind) -> f64 {
    match n {
        0 => 0.0,
        _ => low_bound(bytes / n as f64, count, sample),
    }
}

/// The projected bytes of each value reported one by one, by label, as [`project_at`]
/// grows them onto `target`, without building the container: to follow values as a
/// container grows.
pub fn named_sizes(
    definition: &PartitionKeyDefinition,
    stats: &CandidateStats,
    target: &Target,
    time: &Time,
) -> Vec<(String, u64)> {
    let Grown {
        carriers,
        g,
        periods,
        scale,
        ..
    } = grow(stats, definition.is_v1(), target, time, |_, _| Vec::new());
    let hierarchical = hierarchical_of(definition);
    let news = carried(
        time,
        stats,
        (&carriers, &g),
        (scale, hierarchical, NewValues::Anywhere),
    );
    (carriers.iter())
        .filter_map(|c| {
            let label = c.label?;
            let bytes = projected(c, &g, periods.as_ref());
            Some((label.to_owned(), bytes.round() as u64))
        })
        .chain(
            news.iter()
                .map(|v| (v.label.to_owned(), v.bytes.round() as u64)),
        )
        .collect()
}

/// The container size at which the largest open value reported one by one reaches the
/// logical limit: solve `bytes · (1 + (k - 1) B (1 - p) / B_open) = limit` for `k`, times
/// the sample size `B`. A period past the limit (a closed value, or with `periods` one at
/// the target's write rate) breaks the key at any size; `None` when open values do not
/// grow (or not before an exabyte).
fn limit_size(
    carriers: &[Carrier<'_>],
    g: &Growth,
    (sample, kind): (f64, SampleKind),
    periods: Option<&Periods>,
    named_new: &[Carried<'_>],
) -> Option<u64> {
    let own = limit_size_of_sample(carriers, g, (sample, kind), periods);
    // A new value of the log's reaches the limit when its share of the new data does.
    let limit = crate::engine::Limits::default().logical_bytes as f64;
    let new = (named_new.iter())
        .filter(|v| v.per_sample > 0.0)
        .map(|v| (1.0 + limit / v.per_sample) * sample)
        .filter(|s| *s < UNBOUNDED)
        .fold(f64::INFINITY, f64::min);
    match (own, new.is_finite()) {
        (Some(o), true) => Some(o.min(new as u64)),
        (None, true) => Some(new as u64),
        (o, false) => o,
    }
}

/// The largest value (and whether it is closed), and the container size at which the key
/// breaks, net of chance: of `(carriers, growth, periods, the log's new values)` and a
/// sample of `(bytes, kind)`.
fn limits(
    (carriers, g, periods, named_new): (&[Carrier<'_>], &Growth, Option<&Periods>, &[Carried<'_>]),
    (sample, kind): (f64, SampleKind),
) -> (Option<Largest>, Option<ClosedValue>, Option<u64>) {
    let (largest, closed) = largest(carriers, g, periods, named_new, kind);
    let size = limit_size(carriers, g, (sample, kind), periods, named_new);
    (largest, closed, size)
}

/// [`limit_size`] of the values the sample holds.
fn limit_size_of_sample(
    carriers: &[Carrier<'_>],
    g: &Growth,
    (sample, kind): (f64, SampleKind),
    periods: Option<&Periods>,
) -> Option<u64> {
    let limit = crate::engine::Limits::default().logical_bytes as f64;
    // Each value net of chance, as LOGICAL_PARTITION_LIMIT judges it: the low end of its
    // 95% interval from its own count (a value of two documents is no break).
    let net = |c: &Carrier<'_>| low_bound(1.0, c.count, kind);
    let named = carriers.iter().filter(|c| c.label.is_some());
    let period_max = (named.clone())
        .map(|c| match (c.closed, periods) {
            (true, Some(p)) => p.closed(c.bytes) * net(c),
            (true, None) => c.bytes * net(c),
            // A period in progress reaches at most its cap.
            (false, _) if c.cap.is_finite() => c.bytes * c.cap * net(c),
            (false, _) => 0.0,
        })
        .fold(0.0, f64::max);
    if period_max >= limit {
        return Some(sample as u64);
    }
    // A value bounded (by its retention, or as a period) below the limit never reaches it.
    let open_max = named
        .filter(|c| !c.closed && c.count >= 2 && c.bytes * net(c) * g.bound.min(c.cap) >= limit)
        .map(|c| c.bytes * c.credible * net(c))
        .fold(0.0, f64::max);
    let per_k = sample * (1.0 - g.unseen_share) / g.growing.max(1.0);
    if open_max <= 0.0 || per_k <= 1e-12 {
        return None;
    }
    let k = 1.0 + (limit / open_max - 1.0) / per_k;
    let size = (k * sample).max(0.0);
    (size < UNBOUNDED).then_some(size as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::epk::hash_v2;
    use crate::engine::{KeyPath, PkValueRef, Throughput};

    #[test]
    fn sampled_values_take_their_slices_bytes_and_keep_the_whole() {
        // Slices 10, 20 and 30 hold 1,000, 3,000 and 500 bytes; a heavy hitter's upper
        // bound in slice 30 (900) passes that slice's bytes; slice 20 has no sampled value.
        let at = |s: usize| boundary_at((s as f64 + 0.5) / BUCKETS as f64, false);
        let epks = [at(30), at(10), at(11), at(19), at(30)];
        let mut histogram = EpkHistogram::default();
        for (s, bytes) in [(10, 1_000), (20, 3_000), (30, 500)] {
            histogram.add_to(s, 1, bytes);
        }
        let carrier = |epk, bytes| Carrier {
            epk,
            bytes,
            docs: 1.0,
            held: bytes,
            count: 1,
            span: Span::at(None),
            label: None,
            closed: false,
            cap: f64::INFINITY,
            credible: 1.0,
            values: 1.0,
        };
        let mut out = vec![
            carrier(epks[0].clone(), 900.0),
            carrier(epks[1].clone(), 10.0),
            carrier(epks[2].clone(), 30.0),
            carrier(epks[3].clone(), 1.0),
            carrier(epks[4].clone(), 5.0),
        ];
        fit_to_histogram(&mut out, 1, &histogram, false);
        let total: f64 = out.iter().map(|c| c.bytes).sum();
        assert!((total - 4_500.0).abs() < 1e-6, "{total}");
        // Slice 20's tail goes to slice 19 (nearest); the overshoot in slice 30 (400)
        // comes off the other tails in proportion: 1,000 + 3,000 scaled by 3,600 / 4,000.
        let f = 3_600.0 / 4_000.0;
        assert!(
            (out[1].bytes - 1_000.0 * f).abs() < 1e-6,
            "{}",
            out[1].bytes
        );
        assert_eq!(out[2].bytes, 0.0, "slice 11 holds nothing");
        assert!(
            (out[3].bytes - 3_000.0 * f).abs() < 1e-6,
            "{}",
            out[3].bytes
        );
        assert_eq!(out[4].bytes, 0.0, "slice 30 is all the heavy hitter's");
    }

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

    /// `n` documents of customers drawn by Zipf (s = 1) from `customers`, in a shuffled
    /// order of names (`salt` picks it), 100 to 139 bytes each; counted within `budget`.
    fn zipf_stats(n: u64, customers: u64, salt: u64, budget: usize) -> CandidateStats {
        let weights: Vec<f64> = (1..=customers).map(|k| 1.0 / k as f64).collect();
        let total: f64 = weights.iter().sum();
        let mut cumulative = Vec::with_capacity(weights.len());
        let mut acc = 0.0;
        for w in &weights {
            acc += w / total;
            cumulative.push(acc);
        }
        let mut s = CandidateStats::new(budget, false);
        for i in 0..n {
            let u = (crate::mix::splitmix64(i, salt) >> 11) as f64 / (1u64 << 53) as f64;
            let k = cumulative.partition_point(|&c| c < u) as u64;
            let name = format!("C{:07}", crate::mix::splitmix64(k, salt) % 10_000_000);
            let c = [PkValueRef::Str(&name)];
            let bytes = 100 + crate::mix::splitmix64(i, !salt) % 40;
            s.add(&c, &hash_v2(&c), false, bytes, Some(i as i64));
        }
        s
    }

    /// One row of the growth model's table: what the sample and time are, and what value
    /// `"a"` (10 documents of 100 bytes, among 100 values alike: 101,000 bytes, no value
    /// seen once, arriving one a second over 1,009 s) comes to at 10,100,000 bytes (×100).
    struct Row {
        what: &'static str,
        sample: SampleKind,
        /// The log's creates' share on new values.
        new_share: Option<f64>,
        /// `"a"`'s documents arrive first and stop (a closed value).
        closed: bool,
        /// Retention seconds, and the measured write rate (bytes a second).
        retention: Option<(f64, f64)>,
        /// The log's creates of the sample's values, as one group, from a log of 1% of the
        /// requests.
        held: HeldGroup,
        want: f64,
    }

    #[test]
    fn the_growth_model_by_hand() {
        let target = Target {
            storage_bytes: 10_100_000,
            throughput: Throughput::Manual(400.0),
        };
        let row = |what, sample, new_share, closed, retention, want| Row {
            what,
            sample,
            new_share,
            closed,
            retention,
            held: HeldGroup::default(),
            want,
        };
        let (snapshot, complete) = (SampleKind::Snapshot, SampleKind::Complete);
        let rows = [
            // The open values share the ×100: 1,000 × (1 + 99 × 101,000 / 101,000).
            row("a snapshot scales", snapshot, None, false, None, 100_000.0),
            // The log's creates all go to new values: more values, not larger ones.
            row(
                "complete values multiply",
                complete,
                Some(1.0),
                false,
                None,
                1_000.0,
            ),
            // Its writes stopped: it holds what it held.
            row(
                "a closed value takes nothing",
                snapshot,
                None,
                true,
                None,
                1_000.0,
            ),
            // Real rate 1,000 B/s against the sample's 101,000 / 1,009 = 100.1: ×9.99.
            // Items live 504.5 s, half the span: "a" holds at most its real rate × the
            // time to live, 1,000 × 0.5 × 9.99 = 4,995 bytes, not ×100.
            row(
                "the TTL bound uses the real rate",
                snapshot,
                None,
                false,
                Some((504.5, 1_000.0)),
                4_995.0,
            ),
            // A complete value is written at its own rate: 1,000 × max(1, 0.5).
            row(
                "a complete value's TTL bound is its own rate",
                complete,
                None,
                false,
                Some((504.5, 1_000.0)),
                1_000.0,
            ),
            // A pilot's 10% of the creates is 10 lines, where 101 typical values write
            // 101 × 0.06 = 6.06, to which chance adds up to 1.96 √(0.99 × 6.06) = 4.80:
            // 10 − 4.80 is less than 6.06, so it takes 10% × 6.06 / 10 = 6.06% of the
            // 9,999,000 new bytes, and the open values grow 1 + 9,999,000 × 0.0606 /
            // 101,000 = ×7.0 (×10.9 from its lines as logged).
            Row {
                held: HeldGroup {
                    lines: 10,
                    values: 101.0,
                    typical: Some(0.06),
                },
                ..row(
                    "a pilot's few lines are read net of chance",
                    complete,
                    Some(0.9),
                    false,
                    None,
                    6_999.4,
                )
            },
        ];
        for row in rows {
            let others = (0..10).flat_map(|_| (0..100).map(|v| (format!("v{v}"), 100)));
            let a = (0..10).map(|_| ("a".to_owned(), 100));
            // Arrivals 0-1,009 in this order: "a" first when it closes, last otherwise.
            let all: Vec<(String, u64)> = match row.closed {
                true => a.chain(others).collect(),
                false => others.chain(a).collect(),
            };
            let stats = stats_of(all.into_iter());
            let newcomers = row
                .new_share
                .map(|share| crate::project::newcomers::Newcomers {
                    share: Some(share),
                    new_first_levels: None,
                    heavy_firsts: Vec::new(),
                    values: Vec::new(),
                    new_values: 1_000,
                    held: row.held.clone(),
                    held_firsts: Default::default(),
                });
            let time = Time {
                timed: row.closed || row.retention.is_some(),
                retention: row.retention.map(|r| r.0),
                rate: row.retention.map(|r| r.1),
                rate_measured: row.retention.is_some(),
                newcomers,
                sample: row.sample,
                log_share: 0.01,
                ..Time::default()
            };
            let x = explain(&def(), &stats, &target, &time, "a").expect("a is placed");
            assert!(
                (x.bytes / row.want - 1.0).abs() < 0.01,
                "{}: {} bytes, by hand {} ({x:?})",
                row.what,
                x.bytes,
                row.want
            );
        }
    }

    #[test]
    fn a_snapshot_values_size_net_of_chance_is_its_counts_low_end() {
        // (bytes, count, kind, low) by hand: r - 1.96 sqrt(r) of r.
        let cases = [
            (100.0, 100, SampleKind::Snapshot, 80.4),
            (100.0, 4, SampleKind::Snapshot, 2.0),
            (100.0, 1, SampleKind::Snapshot, 0.0),
            (100.0, 4, SampleKind::Complete, 100.0),
        ];
        for (bytes, count, kind, want) in cases {
            let low = low_bound(bytes, count, kind);
            assert!((low - want).abs() < 1e-9, "{count} {kind:?}: {low}");
        }
        // The largest value reports it: 10 documents of a 1,010-document snapshot.
        let values = (0..10).flat_map(|_| (0..101).map(|v| (format!("v{v}"), 100)));
        let target = Target {
            storage_bytes: 10_100_000,
            throughput: Throughput::Manual(400.0),
        };
        let p = project_at(&def(), &stats_of(values), &target, Time::default());
        let l = p.largest.expect("a largest value");
        let want = l.bytes as f64 * (10.0 - 1.96 * 10f64.sqrt()) / 10.0;
        assert!((l.low as f64 - want).abs() <= 1.0, "{l:?}");
    }

    #[test]
    fn a_new_value_takes_its_rate_times_the_time_to_the_target() {
        // The growth model's table, one more row: a pilot (complete values) of the same
        // 101,000 bytes whose log writes every create to new values, one new value "n"
        // taking 1% of them. Its rate is 1% of the container's ingest R; the container
        // reaches the target after (10,100,000 - 101,000) / R seconds; so "n" holds
        // 0.01 × R × 9,999,000 / R = 99,990 bytes, whatever R, and never its share of
        // lines of the whole growth counted twice. The sample's values, complete, keep
        // their 1,000 bytes.
        let target = Target {
            storage_bytes: 10_100_000,
            throughput: Throughput::Manual(400.0),
        };
        let values = (0..10).flat_map(|_| (0..101).map(|v| (format!("v{v}"), 100)));
        let stats = stats_of(values);
        let n = [PkValueRef::Str("n")];
        let newcomers = crate::project::newcomers::Newcomers {
            share: Some(1.0),
            new_first_levels: None,
            heavy_firsts: Vec::new(),
            values: vec![crate::project::newcomers::NewValue {
                epk: def().epk(&n).expect("a string value hashes"),
                label: "\"n\"".to_owned(),
                share: 0.01,
            }],
            new_values: 100,
            held: Default::default(),
            held_firsts: Default::default(),
        };
        for rate in [10.0, 1_000.0] {
            let time = Time {
                newcomers: Some(newcomers.clone()),
                sample: SampleKind::Complete,
                rate: Some(rate),
                rate_measured: true,
                ..Time::default()
            };
            let p = project_at(&def(), &stats, &target, time);
            let largest = p.largest.as_ref().expect("a largest value");
            assert_eq!(largest.label, "\"n\"", "rate {rate}: {largest:?}");
            let want = 0.01 * (10_100_000.0 - 101_000.0);
            assert!(
                (largest.bytes as f64 / want - 1.0).abs() < 0.01,
                "rate {rate}: {} bytes, by hand {want}",
                largest.bytes
            );
        }
    }

    #[test]
    fn a_sampled_skewed_key_projects_its_largest_value_as_the_exact_count_does() {
        // A few customers hold much of the data and most of the rest comes back: once the
        // values are sampled (about one per slice of the hash space), the largest value
        // must still grow as the values seen more than once do, not as the sample's value
        // in each slice happens to be (once seen or more).
        let target = Target {
            storage_bytes: 400 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        for salt in [1, 2, 3] {
            let exact = zipf_stats(150_000, 60_000, salt, 64 << 20);
            let sampled = zipf_stats(150_000, 60_000, salt, 256 << 10);
            assert!(exact.values.is_exact() && !sampled.values.is_exact());
            let (e, s) = (
                project(&def(), &exact, &target, false),
                project(&def(), &sampled, &target, false),
            );
            let ratio = |a: Option<u64>, b: Option<u64>| a.unwrap() as f64 / b.unwrap() as f64;
            let largest = |p: &Projection| p.largest.as_ref().map(|l| l.bytes);
            let (l, m) = (
                ratio(largest(&s), largest(&e)),
                ratio(s.max_container_bytes, e.max_container_bytes),
            );
            assert!((l - 1.0).abs() < 0.05, "salt {salt}: largest {l}");
            assert!((m - 1.0).abs() < 0.05, "salt {salt}: limit {m}");
        }
    }

    #[test]
    fn the_new_value_share_is_read_steadily_from_a_sample_of_either_shape() {
        // Skewed: the exact share against the sampled one, three draws.
        for salt in [4, 5, 6] {
            let exact = good_turing(&zipf_stats(150_000, 60_000, salt, 64 << 20));
            let sampled = good_turing(&zipf_stats(150_000, 60_000, salt, 256 << 10));
            assert!(
                (sampled - exact).abs() < 0.01,
                "skewed {salt}: {sampled} vs {exact}"
            );
        }
        // Mostly unique, a tenth of the documents in pairs: the share is 0.9, and what is
        // not new (0.1) must not come out as the difference of two large estimates.
        for salt in [7, 8, 9] {
            let docs = (0..120_000u64).map(|i| {
                let v = if i % 10 == 0 { i / 20 } else { 1_000_000 + i };
                (format!("v{}", crate::mix::splitmix64(v, salt)), 120)
            });
            let mut s = CandidateStats::new(2 << 20, false);
            for (i, (v, bytes)) in docs.enumerate() {
                let c = [PkValueRef::Str(&v)];
                s.add(&c, &hash_v2(&c), false, bytes, Some(i as i64));
            }
            assert!(!s.values.is_exact());
            let share = good_turing(&s);
            assert!((share - 0.9).abs() < 0.01, "pairs {salt}: {share}");
        }
    }

    #[test]
    fn a_sampled_hierarchical_key_grows_each_parent_as_its_own_values_do() {
        // Tenant "big": a quarter of the documents over 500 users who come back; 3,000
        // other tenants whose every document has a new user. Sampled, big's users must
        // still take big's growth, not the mean of every tenant's.
        let def = crate::key::KeySpec::parse("/tenantId,/userId")
            .unwrap()
            .definition();
        let stats = |budget: usize| {
            let mut s = CandidateStats::new(budget, false);
            for i in 0..200_000u64 {
                let (t, u) = match i % 4 {
                    0 => (
                        "big".to_string(),
                        format!("u{}", crate::mix::splitmix64(i, 1) % 500),
                    ),
                    _ => (format!("t{}", i % 3_000), format!("n{i}")),
                };
                let c = [PkValueRef::Str(&t), PkValueRef::Str(&u)];
                s.add(&c, &def.epk_unchecked(&c), false, 120, Some(i as i64));
            }
            s
        };
        let target = Target {
            storage_bytes: 1_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        let big = def.epk_unchecked(&[PkValueRef::Str("big")]);
        let under_big = |s: &CandidateStats| {
            let mut p = project(&def, s, &target, false);
            let mut bytes = 0u64;
            for i in 0..p.container.partitions().len() {
                for lp in p.container.logical_partitions(i) {
                    if lp.epk.as_bytes().starts_with(big.as_bytes()) {
                        bytes += lp.bytes;
                    }
                }
            }
            (bytes as f64, p.container.bytes())
        };
        let (exact, sampled) = (stats(64 << 20), stats(1 << 20));
        assert!(exact.values.is_exact() && !sampled.values.is_exact());
        let ((e, e_total), (s, s_total)) = (under_big(&exact), under_big(&sampled));
        for total in [e_total, s_total] {
            assert!((total as f64 / 1e12 - 1.0).abs() < 1e-6, "{total}");
        }
        assert!((s / e - 1.0).abs() < 0.1, "big: {s} sampled, {e} exact");
    }

    #[test]
    fn repeated_values_grow_with_the_container() {
        // 10 tenants, 1,000 documents each of 1,000 bytes: 10 MB sample, no singletons.
        let s = stats_of((0..10_000).map(|i| (format!("t{}", i % 10), 1_000)));
        let target = Target {
            storage_bytes: 1_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        let p = project(&def(), &s, &target, false);
        assert!((p.scale - 100_000.0).abs() < 1e-6);
        assert_eq!(p.unseen_share, 0.0);
        let largest = p.largest.clone().unwrap().bytes;
        assert!((largest as f64 / 100e9 - 1.0).abs() < 1e-6, "{largest}");
        // Each tenant holds 1 MB of the sample: 20 GB is reached at 200 GB of container,
        // and net of chance later: each tenant's 1,000 documents, 1,000 − 1.96 √1,000.
        let max = p.max_container_bytes.unwrap() as f64;
        let net = 200e9 / (1.0 - 1.96 / 1_000f64.sqrt());
        assert!((max / net - 1.0).abs() < 1e-6, "{max} against {net}");
        assert_eq!(p.container.bytes(), 1_000 * GB);
    }

    #[test]
    fn singleton_values_do_not_grow_new_ones_carry_the_data() {
        let s = stats_of((0..10_000).map(|i| (format!("id{i}"), 1_000)));
        let target = Target {
            storage_bytes: 1_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        let p = project(&def(), &s, &target, false);
        assert_eq!(p.unseen_share, 1.0);
        assert_eq!(p.growth, 1.0);
        assert_eq!(p.largest.unwrap().bytes, 1_000);
        assert_eq!(p.max_container_bytes, None);
        let total = p.container.bytes() as f64;
        assert!((total / 1e12 - 1.0).abs() < 1e-3, "{total}");
        // Spread evenly: 1 TB over 4 initial partitions splits to 32 of ~31 GB.
        assert_eq!(p.container.partitions().len(), 32);
    }

    /// 40,000 events of 500 bytes: tenant "big" holds a quarter, over 500 users; 3,000
    /// other tenants hold the rest; every event has its own id. Keyed by tenant, user and
    /// id (`levels` 3), or by tenant and id (2).
    fn big_tenant_stats(budget: usize, levels: usize) -> CandidateStats {
        let mut s = CandidateStats::new(budget, false);
        for i in 0..40_000u64 {
            let r = crate::mix::splitmix64(i, 3);
            let (t, u) = if i % 4 == 0 {
                ("big".to_owned(), format!("u{}", r % 500))
            } else {
                (format!("t{}", r % 3_000), format!("u{}", r >> 40))
            };
            let id = format!("e{i}");
            let all = [
                PkValueRef::Str(&t),
                PkValueRef::Str(&u),
                PkValueRef::Str(&id),
            ];
            let two = [all[0], all[2]];
            let c: &[PkValueRef<'_>] = if levels == 3 { &all } else { &two };
            let epk = crate::engine::epk::multi_hash(c);
            s.add(c, &epk, false, 500, Some(i as i64));
        }
        s
    }

    /// The partitions a prefix's EPK range overlaps, and the most bytes one of them holds.
    fn prefix_partitions(p: &Projection, prefix: &[PkValueRef<'_>]) -> (usize, u64) {
        let c = &p.container;
        let range = c.definition().range(prefix).unwrap();
        let idx = c.route_range(&range);
        let most = idx
            .clone()
            .map(|i| c.partitions()[i].bytes())
            .max()
            .unwrap();
        (idx.len(), most)
    }

    #[test]
    fn a_large_hierarchical_prefix_spreads_over_the_partitions_its_range_splits_into() {
        let def = crate::key::KeySpec::parse("/tenantId,/userId,/id")
            .unwrap()
            .definition();
        let target = Target {
            storage_bytes: 5_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        // Counted exactly, and sampled by hash.
        for budget in [64 << 20, 256 << 10] {
            let s = big_tenant_stats(budget, 3);
            assert_eq!(s.values.is_exact(), budget > 1 << 20);
            let p = project(&def, &s, &target, false);
            let total = p.container.bytes() as f64;
            assert!((total / 5e12 - 1.0).abs() < 0.02, "{total}");
            // A quarter of 5 TB is 1.25 TB: at least 25 partitions of at most 50 GB.
            let (parts, most) = prefix_partitions(&p, &[PkValueRef::Str("big")]);
            assert!(parts >= 25, "{parts} partitions");
            assert!(most <= 50 * GB, "{most}");
            // Every id is unique: no value grows.
            let largest = p.largest.clone().unwrap().bytes;
            assert!(largest <= 1_000, "{largest}");
            assert_eq!(p.max_container_bytes, None);
        }
    }

    #[test]
    fn an_extra_level_changes_where_a_user_lives() {
        // /tenantId,/id spreads a user's events over the whole tenant; the 3-level key keeps
        // them under the user's own prefix.
        let levels = |n: usize| {
            let spec = if n == 3 {
                "/tenantId,/userId,/id"
            } else {
                "/tenantId,/id"
            };
            crate::key::KeySpec::parse(spec).unwrap().definition()
        };
        let target = Target {
            storage_bytes: 5_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        let three = project(&levels(3), &big_tenant_stats(64 << 20, 3), &target, false);
        let user = [PkValueRef::Str("big"), PkValueRef::Str("u7")];
        let (parts, _) = prefix_partitions(&three, &user);
        assert!(parts <= 2, "{parts}");
        // Under /tenantId,/id a query for that user can only be narrowed to the tenant.
        let two = project(&levels(2), &big_tenant_stats(64 << 20, 2), &target, false);
        let (tenant, _) = prefix_partitions(&two, &user[..1]);
        assert!(tenant >= 25, "{tenant}");
    }

    #[test]
    fn closed_values_keep_their_size() {
        // 14 days of one value each, 1,000 documents a day, timestamps in seconds.
        let mut s = CandidateStats::new(64 << 20, true);
        for i in 0..14_000i64 {
            let day = format!("2026-11-{:02}", 1 + i / 1_000);
            let c = [PkValueRef::Str(&day)];
            s.add(&c, &hash_v2(&c), false, 1_000, Some(i * 86));
        }
        let sizes: Vec<u64> = [100 * GB, 1_000 * GB, 10_000 * GB]
            .into_iter()
            .map(|storage| {
                let target = Target {
                    storage_bytes: storage,
                    throughput: Throughput::Manual(20_000.0),
                };
                let p = project(&def(), &s, &target, true);
                assert!(p.largest_closed.is_some());
                assert_eq!(p.max_container_bytes, None);
                assert!(p.unseen_share > 0.9, "{}", p.unseen_share);
                p.largest.unwrap().bytes
            })
            .collect();
        // Each past day holds its million bytes; the open last day grows at most a little.
        assert!(sizes.iter().all(|&b| b == 1_000_000), "{sizes:?}");
        // Without timestamps nothing is known to close: days grow with the container.
        let target = Target {
            storage_bytes: 1_000 * GB,
            throughput: Throughput::Manual(20_000.0),
        };
        let p = project(&def(), &s, &target, false);
        assert!(p.largest.unwrap().bytes > 10 * GB);
    }
}
