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

use super::target::Target;

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
    /// The container size at which the largest value reaches the logical-partition
    /// limit; `None` when values do not grow with the container (no limit from it).
    pub max_container_bytes: Option<u64>,
    /// With a retention and a write rate: what it bounds.
    pub retention: Option<Retained>,
    /// Values the target holds beyond the sample's: the new values' bytes (`p` of the new
    /// data) over the mean size the sample's values reach at the target.
    pub new_values: f64,
    /// The log's new values placed as values of their own: EPK (hex) and label.
    pub named_new: Vec<(String, String)>,
}

/// A new value of the log's placed as a value of its own (see
/// [`super::newcomers::Newcomers::values`]): its share of the new values' bytes (of a
/// hierarchical key, of the new first levels'), at the target.
struct Carried<'t> {
    epk: &'t Epk,
    label: &'t str,
    bytes: f64,
    /// The bytes it gains for each sample's worth the container grows: it takes a fixed
    /// share of the new data.
    per_sample: f64,
}

/// The log's new values placed on their own, when values are counted exactly, new values
/// hash where their key says (not a layout's), the key is not one of periods (a session
/// of the log's hour stands for none of those to come) and the container grows.
fn carried<'t>(
    time: &'t Time,
    stats: &CandidateStats,
    (carriers, g): (&[Carrier<'_>], &Growth),
    (scale, hierarchical, new): (f64, bool, NewValues),
) -> Vec<Carried<'t>> {
    let Some(n) = time.newcomers.as_ref() else {
        return Vec::new();
    };
    if new != NewValues::Anywhere || !stats.values.is_exact() || g.periodic || scale <= 1.0 {
        return Vec::new();
    }
    // The mass their shares are of: all new values' of a single-level key; of a
    // hierarchical one, the new first levels'.
    let mass: f64 = (carriers.iter())
        .map(|c| match parent(c.epk, hierarchical) {
            Some(_) => c.bytes * g.unseen_per_byte * g.new_firsts,
            None => c.bytes * g.unseen_per_byte,
        })
        .sum();
    (n.values.iter())
        .map(|v| Carried {
            epk: &v.epk,
            label: &v.label,
            bytes: v.share * mass,
            per_sample: v.share * mass / (scale - 1.0),
        })
        .collect()
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

/// The largest logical partition never exceeds this many bytes in one placed chunk.
const CHUNK: f64 = GB as f64;
/// Past this container size, a limit is reported as unbounded.
const UNBOUNDED: f64 = 1e18;

/// A value placed one by one.
struct Carrier<'a> {
    epk: &'a Epk,
    /// Sample bytes and documents it stands for where it lies (scaled when hash-sampled,
    /// and fitted to the histogram: see [`fit_to_histogram`]).
    bytes: f64,
    docs: f64,
    /// Sample bytes of values like it: its own bytes, scaled when hash-sampled but not
    /// fitted (see [`fit_to_histogram`]). What values grow, close or arrive new is read
    /// from these; where bytes land, from `bytes`.
    held: f64,
    /// Its own documents (not scaled).
    count: u64,
    span: Span,
    /// Its label, for values reported one by one (exact or heavy).
    label: Option<&'a str>,
    /// Whether its writes have stopped (see [`Arrivals::is_closed`]).
    closed: bool,
    /// The most it grows on its own (a period in progress at the target's write rate: see
    /// [`Periods`]); infinite otherwise.
    cap: f64,
}

/// The values placed one by one: every value while counted exactly; once sampled, the heavy
/// hitters and the other sampled values, scaled so that all of them hold the sample's bytes
/// where the histogram says they lie (see [`fit_to_histogram`]).
fn carriers(stats: &CandidateStats, v1: bool) -> Vec<Carrier<'_>> {
    let mut out = Vec::new();
    let mut heavy = FxHashSet::default();
    for v in stats.values.heavy_entries() {
        heavy.insert(value_hash(v.epk, v1));
        out.push(Carrier {
            epk: v.epk,
            bytes: v.bytes as f64,
            docs: v.docs as f64,
            held: v.bytes as f64,
            count: v.docs,
            span: v.span,
            label: Some(v.label),
            closed: false,
            cap: f64::INFINITY,
        });
    }
    if !stats.values.is_exact() {
        let heavy_bytes: f64 = out.iter().map(|c| c.bytes).sum();
        let scale = stats.values.scale() as f64;
        let from = out.len();
        for v in stats.values.sample() {
            if !heavy.contains(&value_hash(v.epk, v1)) {
                out.push(Carrier {
                    epk: v.epk,
                    bytes: v.bytes as f64 * scale,
                    docs: v.docs as f64 * scale,
                    held: v.bytes as f64 * scale,
                    count: v.docs,
                    span: v.span,
                    label: None,
                    closed: false,
                    cap: f64::INFINITY,
                });
            }
        }
        let sampled: f64 = out[from..].iter().map(|c| c.bytes).sum();
        let rest = stats.histogram().total_bytes as f64 - heavy_bytes;
        if sampled > 0.0 && rest > 0.0 {
            fit_to_histogram(&mut out, from, &stats.histogram(), v1);
            // The fitted bytes' whole, shared as the sample's own bytes are.
            let fitted: f64 = out[from..].iter().map(|c| c.bytes).sum();
            for c in &mut out[from..] {
                c.held *= fitted / sampled;
            }
        }
    }
    out
}

/// Scales the sampled values (`out[from..]`; the heavy hitters come before them) so that
/// each slice of the hash space holds what the histogram counted there. Each sampled value
/// stands for many values not kept; scaled up alone, their bytes would lie where the sample
/// happened to fall, and a key of many even values would look as uneven as its sample is
/// small. The histogram has every document's slice: a slice's tail (its bytes less its heavy
/// hitters') is shared among the sampled values in it, in proportion to their bytes, and a
/// slice no sampled value fell in hands its tail to the nearest slice that has one.
///
/// A slice holds about as many sampled values as the sample has per slice, often one: its
/// tail then goes whole to that value, whatever it is. That places bytes where they were
/// counted, but the fitted bytes no longer say what kind of values hold them (a tail mostly
/// of values seen many times, given to a value seen once, would not grow): [`growth`] reads
/// that from the sampled values' own bytes ([`Carrier::held`]).
fn fit_to_histogram(out: &mut [Carrier<'_>], from: usize, histogram: &EpkHistogram, v1: bool) {
    let mut tail: Vec<f64> = histogram.slices.iter().map(|s| s.bytes as f64).collect();
    for c in &out[..from] {
        tail[slice_of_epk(c.epk, v1)] -= c.bytes;
    }
    let slices: Vec<usize> = out[from..]
        .iter()
        .map(|c| slice_of_epk(c.epk, v1))
        .collect();
    let mut held = vec![0.0; BUCKETS];
    for (c, &s) in out[from..].iter().zip(&slices) {
        held[s] += c.bytes;
    }
    let filled: Vec<usize> = (0..BUCKETS).filter(|&s| held[s] > 0.0).collect();
    for s in (0..BUCKETS).filter(|&s| held[s] == 0.0) {
        let at = filled.partition_point(|&f| f < s);
        let below = at.checked_sub(1).map(|i| filled[i]);
        let nearest = match (below, filled.get(at)) {
            (Some(b), Some(&a)) if s - b <= a - s => b,
            (_, Some(&a)) => a,
            (Some(b), None) => b,
            (None, None) => return,
        };
        tail[nearest] += tail[s];
        tail[s] = 0.0;
    }
    // A slice whose heavy hitters' upper bounds pass its bytes has no tail; what they
    // overshoot comes off the other slices' tails, so that the whole is kept.
    let whole: f64 = (0..BUCKETS)
        .filter(|&s| held[s] > 0.0)
        .map(|s| tail[s])
        .sum();
    let positive: f64 = (0..BUCKETS)
        .filter(|&s| held[s] > 0.0)
        .map(|s| tail[s].max(0.0))
        .sum();
    let k = if positive > 0.0 {
        whole.max(0.0) / positive
    } else {
        0.0
    };
    for (c, &s) in out[from..].iter_mut().zip(&slices) {
        c.bytes = match held[s] > 0.0 {
            true => c.bytes * tail[s].max(0.0) * k / held[s],
            false => 0.0,
        };
    }
}

/// The sample's arrival span and whether each value is closed.
struct Arrivals {
    start: i64,
    end: i64,
    /// Whether closed values are recognised at all (`--time-path`).
    timed: bool,
}

impl Arrivals {
    fn of(carriers: &[Carrier<'_>], timed: bool) -> Arrivals {
        let known = carriers.iter().map(|c| c.span).filter(Span::is_known);
        let span = known.fold(Span::at(None), Span::union);
        Arrivals {
            start: span.first,
            end: span.last,
            timed: timed && span.is_known() && span.last > span.first,
        }
    }

    /// The sample's span in seconds (or positions): 0 when no arrival is known.
    fn span(&self) -> f64 {
        match self.start <= self.end {
            true => self.end.saturating_sub(self.start) as f64,
            false => 0.0,
        }
    }

    /// A value of several documents whose last arrival is more than four of its mean gaps
    /// and 5% of the sample's span before the sample's end.
    fn is_closed(&self, c: &Carrier<'_>) -> bool {
        self.is_closed_span(c.span, c.count)
    }

    /// The same for `count` documents arriving over `span` (a value, or a layout's
    /// collection of values).
    /// The most a value grows when items live `retention` seconds: its write rate (its
    /// sample bytes over the sample's span) times the retention, over its sample bytes;
    /// `None` without timestamps (no rate is known).
    fn bound(&self, retention: f64) -> Option<f64> {
        let span = self.span();
        (self.timed && span > 0.0 && retention > 0.0).then(|| (retention / span).max(1.0))
    }

    fn is_closed_span(&self, span: Span, count: u64) -> bool {
        if !self.timed || !span.is_known() || count < 2 {
            return false;
        }
        let gap = (span.last - span.first) as f64 / (count - 1) as f64;
        let quiet = (self.end - span.last) as f64;
        quiet > 4.0 * gap + 0.05 * self.span()
    }
}

/// A key's periods at the target's write rate (see the module's **Periods**): a key most of
/// whose sample bytes are in closed values.
#[derive(Clone, Copy, Debug)]
struct Periods {
    /// The target's write rate, bytes per second.
    rate: f64,
    /// Bytes a period receives at the target per byte it received in the sample: the
    /// target's write rate over the sample's, times the share of it that goes to the first
    /// levels the sample holds when the log measured it (see [`super::newcomers`]).
    ratio: f64,
    /// A period's length: the median of the closed values' spans, seconds (0 when none
    /// closed).
    length: f64,
}

impl Periods {
    /// With a write rate at the target and timestamps; `sample` is the sample's bytes.
    fn of(carriers: &[Carrier<'_>], a: &Arrivals, sample: f64, g: &Growth) -> Option<Self> {
        let rate = (g.rate).filter(|r| *r > 0.0 && r.is_finite() && a.timed && g.periodic)?;
        let known = g.known_rate;
        let span = a.span();
        let mut spans: Vec<i64> = (carriers.iter().filter(|c| c.closed))
            .map(|c| c.span.last - c.span.first)
            .collect();
        spans.sort_unstable();
        Some(Periods {
            rate,
            ratio: known * rate * span / sample.max(1.0),
            length: spans.get(spans.len() / 2).map_or(0.0, |&p| p as f64),
        })
    }

    /// The most an open value grows when it is a period in progress: the key has closed
    /// periods, and it began after the sample did (past 5% of its span) and less than one
    /// and a half periods before its end. It receives at the target what its sample
    /// rate, scaled to the target's, brings over a whole period: `ratio · length /
    /// elapsed` (a retention shorter than a period keeps `ratio · retention / elapsed`), at
    /// least 1; a retention's bound on growth does not apply to it. Infinite for any other
    /// value.
    fn cap(&self, c: &Carrier<'_>, a: &Arrivals, retention: Option<f64>) -> f64 {
        let span = a.span();
        let in_progress = self.length > 0.0
            && !c.closed
            && c.count >= 2
            && c.span.is_known()
            && (c.span.first - a.start) as f64 > 0.05 * span
            && ((a.end - c.span.first) as f64) < 1.5 * self.length;
        match in_progress {
            true => {
                let elapsed = ((a.end - c.span.first) as f64).max(1.0);
                // Items that expire within a period leave it what they live.
                let kept = self.length.min(retention.unwrap_or(f64::INFINITY));
                (self.ratio * kept / elapsed).max(1.0)
            }
            false => f64::INFINITY,
        }
    }

    /// What a closed value (a past period) of `bytes` holds as a period at the target.
    fn closed(&self, bytes: f64) -> f64 {
        bytes * self.ratio.max(1.0)
    }
}

/// How the new data divides.
struct Growth {
    /// `g` of open values (`k` when the target is smaller than the sample).
    open: f64,
    /// Of closed values.
    closed: f64,
    /// `p`.
    unseen_share: f64,
    /// New values' bytes per sample byte.
    unseen_per_byte: f64,
    /// Sample bytes of closed values.
    closed_bytes: f64,
    /// Sample bytes of the values that grow.
    growing: f64,
    /// The most a value grows (a retention's bound; infinite without one).
    bound: f64,
    /// Where `p` was read.
    from: NewFrom,
    /// Of a hierarchical key, the share of new values' bytes whose first level is new:
    /// they hash anywhere, not inside the prefixes of the values they are drawn from.
    new_firsts: f64,
    /// Whether the key is one of periods: at least [`PERIODIC_SHARE`] of its sample bytes
    /// in closed values (a few retired devices do not make a device key one).
    periodic: bool,
    /// The target's write rate, bytes per second, when known.
    rate: Option<f64>,
    /// The share of that rate the first levels the sample knows receive (a pilot's devices
    /// get theirs, not the fleet's): 1 less the log's share of new first levels, measured
    /// while the values are counted exactly (sampled, it is an upper bound).
    known_rate: f64,
}

impl Growth {
    /// How much a value grows: open values seen more than once by `g`; values seen once
    /// are what new values look like, and closed values are done.
    fn of(&self, c: &Carrier<'_>) -> f64 {
        if c.closed || (c.count < 2 && self.open >= 1.0) {
            self.closed
        } else {
            // A period in progress is bounded at the target's rate (its cap, which counts
            // the retention); the retention's bound is the sample's rate's.
            let bound = if c.cap.is_finite() { c.cap } else { self.bound };
            self.open.min(bound)
        }
    }
}

fn growth(
    stats: &CandidateStats,
    carriers: &[Carrier<'_>],
    (scale, time): (f64, &Time),
    a: &Arrivals,
) -> Growth {
    let sample: f64 = carriers.iter().map(|c| c.held).sum();
    let closed_bytes: f64 = carriers.iter().filter(|c| c.closed).map(|c| c.held).sum();
    let growing: f64 = carriers
        .iter()
        .filter(|c| !c.closed && c.count >= 2)
        .map(|c| c.held)
        .sum();
    let periodic = sample > 0.0 && closed_bytes >= PERIODIC_SHARE * sample;
    let known_rate = 1.0
        - (time.newcomers.as_ref())
            .filter(|_| stats.values.is_exact())
            .and_then(|n| n.new_first_levels)
            .unwrap_or(0.0);
    if scale < 1.0 || sample <= 0.0 {
        let k = scale.min(1.0);
        return Growth {
            open: k,
            closed: k,
            unseen_share: 0.0,
            unseen_per_byte: 0.0,
            closed_bytes,
            growing,
            bound: f64::INFINITY,
            from: NewFrom::Singletons,
            new_firsts: 0.0,
            periodic,
            rate: time.rate,
            known_rate,
        };
    }
    let (p, from, first) = new_share(stats, carriers, (time, a), periodic);
    let new = (scale - 1.0) * sample;
    // With no value left to grow, all new data goes to new values.
    let p = if growing <= 0.0 { 1.0 } else { p };
    let mut open = match growing > 0.0 {
        true => 1.0 + new * (1.0 - p) / growing,
        false => 1.0,
    };
    let mut p = p;
    // Values that close are periods, whose own rate stops with them; a retention bounds
    // each value already.
    if growing > 0.0 && new > 0.0 && !periodic && time.retention.is_none() {
        let own = own_rate(scale * sample, time, a);
        if own > open {
            // At most all new data goes to the values that grow: the rest is new values'.
            open = own.min(1.0 + new / growing);
            p = (1.0 - (open - 1.0) * growing / new).max(0.0);
        }
    }
    let new_firsts = match first {
        Some(q) if p > 0.0 => (q / p).min(1.0),
        _ => 0.0,
    };
    Growth {
        open,
        closed: 1.0,
        unseen_share: p,
        unseen_per_byte: new * p / sample,
        closed_bytes,
        growing,
        bound: f64::INFINITY,
        from,
        new_firsts,
        periodic,
        rate: time.rate,
        known_rate,
    }
}

/// Values that close hold at least this share of a key's sample bytes for the key to be
/// one of periods (days, sessions): a retired device or two do not make a device key one.
const PERIODIC_SHARE: f64 = 0.5;

/// `p`, where it was read, and of a hierarchical key the share of new data from new
/// first levels (see the module's **New values**).
fn new_share(
    stats: &CandidateStats,
    carriers: &[Carrier<'_>],
    (time, a): (&Time, &Arrivals),
    periodic: bool,
) -> (f64, NewFrom, Option<f64>) {
    let exact = stats.values.is_exact();
    let temporal = (a.timed)
        .then(|| temporal_new_share(carriers, a, exact))
        .flatten();
    let logged = time.newcomers.as_ref().and_then(|n| n.share);
    let (p, from) = match (logged, temporal) {
        // Periods: the log's unseen values are mostly the periods to come, whose share
        // the sample's own arrivals measure.
        (_, Some(t)) if periodic => (t, NewFrom::Arrivals),
        (Some(l), _) => (l, NewFrom::Log),
        (None, Some(t)) => (t, NewFrom::Arrivals),
        (None, None) => (good_turing(stats), NewFrom::Singletons),
    };
    // New first levels of a hierarchical key are new values too.
    let first = time.newcomers.as_ref().and_then(|n| n.new_first_levels);
    match first {
        Some(q) if q > p => (q, NewFrom::Log, first),
        _ => (p, from, first),
    }
}

/// How much an open value grows by its own rate alone: at the target's write rate the
/// container took `target / rate` to fill, and a value that kept writing as it did over the
/// sample's span `T` holds that time over `T` its sample bytes (at least 1); 1 without
/// timestamps or a rate. It is a floor on the open values' growth, for keys not of periods
/// and without a retention: when the log shows new values taking nearly all new data (a
/// pilot's devices among a fleet's), the sample's values still keep writing. The bytes it
/// adds are taken from the new values', never past all of them (see [`growth`]).
fn own_rate(target: f64, time: &Time, a: &Arrivals) -> f64 {
    let span = a.span();
    match time.rate.filter(|r| *r > 0.0 && r.is_finite()) {
        Some(rate) if a.timed && span > 0.0 => (target / rate / span).max(1.0),
        _ => 1.0,
    }
}

/// How much the bytes placed for each carrier grow: a value reported one by one by its
/// own growth; a hash-sampled value by the mean growth, weighted by their own bytes, of
/// the sampled values of its group, where `group[i]` says which values lie together (one
/// collection of a layout, one parent of a hierarchical key, all the hash space of a
/// single-level key, whose values hash at random). A sampled value's fitted bytes are its
/// slice's, of every kind of value (see [`fit_to_histogram`]), so its own growth would
/// not do.
fn placed_growth<K: Ord>(carriers: &[Carrier<'_>], g: &Growth, group: &[K]) -> Vec<f64> {
    // Per group: own bytes, own bytes grown, fitted bytes.
    let mut groups: BTreeMap<&K, (f64, f64, f64)> = BTreeMap::new();
    for (c, k) in carriers
        .iter()
        .zip(group)
        .filter(|(c, _)| c.label.is_none())
    {
        let e = groups.entry(k).or_default();
        *e = (e.0 + c.held, e.1 + c.held * g.of(c), e.2 + c.bytes);
    }
    let tail = |e: &(f64, f64, f64)| if e.0 > 0.0 { e.1 / e.0 } else { 1.0 };
    // The growth past 1 is scaled so that the groups gain on their fitted bytes what
    // their own bytes gain: the projected whole stays the target.
    let gained: f64 = groups.values().map(|e| e.0 * (tail(e) - 1.0)).sum();
    let placed: f64 = groups.values().map(|e| e.2 * (tail(e) - 1.0)).sum();
    let r = if placed != 0.0 { gained / placed } else { 1.0 };
    let factor: BTreeMap<&K, f64> = (groups.iter())
        .map(|(&k, e)| (k, 1.0 + (tail(e) - 1.0) * r))
        .collect();
    (carriers.iter().zip(group))
        .map(|(c, k)| match c.label {
            Some(_) => g.of(c),
            None => factor.get(k).copied().unwrap_or(1.0),
        })
        .collect()
}

/// The parent of a hierarchical key's value (its EPK less the last level's 16 bytes), where
/// its new values go; `None` for a value of one level or a key that is not hierarchical.
fn parent(epk: &Epk, hierarchical: bool) -> Option<&[u8]> {
    let b = epk.as_bytes();
    (hierarchical && b.len() > 16).then(|| &b[..b.len() - 16])
}

/// Good–Turing: the share of documents whose value occurs once (see
/// [`ValueStats::singleton_share`](crate::stats::ValueStats::singleton_share)).
fn good_turing(stats: &CandidateStats) -> f64 {
    let docs = stats.documents.saturating_sub(stats.invalid);
    stats.values.singleton_share(docs)
}

/// Of the bytes that arrived in the sample's second half, the share held by values first
/// seen in that half. A value seen earlier is taken to have received its bytes evenly over
/// its span; a heavy hitter of a sampled key (first seen when admitted) counts as seen
/// earlier.
fn temporal_new_share(carriers: &[Carrier<'_>], a: &Arrivals, exact: bool) -> Option<f64> {
    if a.start > a.end {
        return None;
    }
    let mid = a.start + a.end.saturating_sub(a.start) / 2;
    let (mut fresh, mut old) = (0.0, 0.0);
    for c in carriers.iter().filter(|c| c.span.is_known()) {
        let (first, last) = (c.span.first, c.span.last);
        let heavy = !exact && c.label.is_some();
        if first > mid && !heavy {
            fresh += c.held;
        } else if last > mid {
            let after = (last - mid.max(first)) as f64 / (last - first).max(1) as f64;
            old += c.held * after.clamp(0.0, 1.0);
        }
    }
    (fresh + old > 0.0).then(|| fresh / (fresh + old))
}

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
    pub newcomers: Option<super::newcomers::Newcomers>,
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
    let (largest, largest_closed) = largest(&carriers, &g, periods.as_ref(), &named_new);
    let max_container_bytes = limit_size(&carriers, &g, sample, periods.as_ref(), &named_new);
    let new_values = arriving(&carriers, &g, periods.as_ref());
    let retention = retention
        .filter(|_| g.bound.is_finite())
        .map(|seconds| retained(&carriers, &grows, &held_back, (seconds, g.bound)));
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
    let periods = Periods::of(&carriers, &arrivals, sample, &g);
    if let Some(p) = &periods {
        for c in &mut carriers {
            c.cap = p.cap(c, &arrivals, time.retention);
        }
    }
    if let Some(b) = time.retention.and_then(|r| arrivals.bound(r)) {
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

fn hierarchical_of(definition: &PartitionKeyDefinition) -> bool {
    definition.kind() == PartitionKind::MultiHash
}

/// How much the bytes placed for each carrier grow, grouped as `new` places new values.
fn placed(
    carriers: &[Carrier<'_>],
    g: &Growth,
    new: NewValues,
    container: &Container,
    hierarchical: bool,
) -> Vec<f64> {
    match new {
        NewValues::LikeSample => {
            let routes: Vec<usize> = carriers.iter().map(|c| container.route(c.epk)).collect();
            placed_growth(carriers, g, &routes)
        }
        NewValues::Anywhere => {
            let parents: Vec<_> = carriers
                .iter()
                .map(|c| parent(c.epk, hierarchical))
                .collect();
            placed_growth(carriers, g, &parents)
        }
    }
}

/// What the retention bounded: the bytes held back, as new values of the mean size the
/// bounded values reach (a hash-sampled value stands for `docs / count` values).
fn retained(
    carriers: &[Carrier<'_>],
    grows: &[f64],
    held_back: &[f64],
    (seconds, bound): (f64, f64),
) -> Retained {
    let (mut bytes, mut values) = (0.0, 0.0);
    for ((c, &g), &lost) in carriers.iter().zip(grows).zip(held_back) {
        if lost > 0.0 {
            bytes += c.bytes * g;
            values += c.docs / c.count.max(1) as f64;
        }
    }
    let lost: f64 = held_back.iter().sum();
    let new_values = match bytes > 0.0 {
        true => lost / (bytes / values.max(1.0)),
        false => 0.0,
    };
    Retained {
        seconds,
        bound,
        new_values,
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
) -> (Option<Largest>, Option<ClosedValue>) {
    let mut best: Option<(&Carrier<'_>, u64)> = None;
    for c in carriers {
        let Some(label) = c.label else { continue };
        let b = projected(c, g, periods).round() as u64;
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
        return (Some(Largest { label, bytes: b }), None);
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
    (Some(Largest { label, bytes: b }), closed)
}

/// A value's projected bytes: grown as [`Growth::of`] says, or, with `periods`, a closed
/// value as one period at the target's write rate.
fn projected(c: &Carrier<'_>, g: &Growth, periods: Option<&Periods>) -> f64 {
    let grown = c.bytes * g.of(c);
    match periods {
        Some(p) if c.closed => p.closed(c.bytes).max(grown),
        _ => grown,
    }
}

/// New values at the target: the bytes new values take (`p` of the new data) over the mean
/// size the sample's values reach there (a period at the target's rate, a device at its own
/// rate, an id at its one document).
fn arriving(carriers: &[Carrier<'_>], g: &Growth, periods: Option<&Periods>) -> f64 {
    let (mut bytes, mut values, mut new) = (0.0, 0.0, 0.0);
    for c in carriers {
        bytes += projected(c, g, periods);
        values += c.docs / c.count.max(1) as f64;
        new += c.bytes * g.unseen_per_byte;
    }
    match bytes > 0.0 && values > 0.0 {
        true => new / (bytes / values),
        false => 0.0,
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

/// Spreads `mass` bytes over slice `bucket` of the hash space in chunks of at most 1 GB.
fn place_chunks(c: &mut Container, bucket: usize, mass: f64, avg_doc: f64, v1: bool) {
    let pieces = pieces(mass);
    for j in 0..pieces {
        let f = (bucket as f64 + (j as f64 + 0.5) / pieces as f64) / BUCKETS as f64;
        insert_piece(c, boundary_at(f, v1), mass / pieces as f64, avg_doc);
    }
}

/// Spreads `mass` bytes over the partitions of `c` in proportion to the carriers' bytes in
/// each partition still written to (all of them when none is), over each one's range, in
/// chunks of at most 1 GB (evenly when carriers hold nothing). For a container of equal
/// fixed ranges (a layout's collections): a collection is closed as a value is, judged on
/// the arrivals of all its values (a past quarter of unique timestamps is closed though no
/// timestamp repeats).
fn place_like_sample(
    c: &mut Container,
    carriers: &[Carrier<'_>],
    arrivals: &Arrivals,
    mass: f64,
    avg_doc: f64,
) {
    let n = c.partitions().len();
    let mut groups = vec![(0.0, 0u64, Span::at(None)); n];
    for carrier in carriers {
        let g = &mut groups[c.route(carrier.epk)];
        g.0 += carrier.bytes;
        g.1 += carrier.count;
        g.2 = g.2.union(carrier.span);
    }
    let open: Vec<bool> = (groups.iter())
        .map(|g| g.0 > 0.0 && !arrivals.is_closed_span(g.2, g.1))
        .collect();
    let any_open = open.iter().any(|o| *o);
    let weights: Vec<f64> = (groups.iter().zip(&open))
        .map(|(g, o)| if *o || !any_open { g.0 } else { 0.0 })
        .collect();
    let total: f64 = weights.iter().sum();
    for (i, w) in weights.into_iter().enumerate() {
        let share = if total > 0.0 {
            w / total
        } else {
            1.0 / n as f64
        };
        let pieces = pieces(mass * share);
        for j in 0..pieces {
            let f = (j as f64 + 0.5) / pieces as f64;
            let epk = crate::engine::epk::within(i, n, f, j as u64);
            insert_piece(c, epk, mass * share / pieces as f64, avg_doc);
        }
    }
}

/// Spreads `mass` bytes of new values under a hierarchical `prefix` over its EPK range, by
/// their last level's hash, in chunks of at most 1 GB.
fn place_in_prefix(c: &mut Container, prefix: &[u8], mass: f64, avg_doc: f64) {
    let pieces = pieces(mass);
    let mut epk = Vec::with_capacity(prefix.len() + 16);
    for j in 0..pieces {
        let f = (j as f64 + 0.5) / pieces as f64;
        epk.clear();
        epk.extend_from_slice(prefix);
        epk.extend_from_slice(boundary_at(f, false).as_bytes());
        insert_piece(c, Epk::from_bytes(&epk), mass / pieces as f64, avg_doc);
    }
}

/// Places each of `heavy`'s shares of `mass` inside its prefix's range (see
/// [`place_in_prefix`]); returns what is left for anywhere.
fn place_at_prefixes(c: &mut Container, heavy: &[(Vec<u8>, f64)], mass: f64, avg_doc: f64) -> f64 {
    for (prefix, share) in heavy {
        place_in_prefix(c, prefix, mass * share, avg_doc);
    }
    let placed: f64 = heavy.iter().map(|h| h.1).sum();
    mass * (1.0 - placed).max(0.0)
}

/// Inserts each carrier grown by `grows`; returns the new values' bytes (with what each
/// carrier's bound holds back) per parent prefix of a hierarchical key, over the whole
/// space, and of new first levels.
fn place_carriers<'c>(
    container: &mut Container,
    carriers: &'c [Carrier<'_>],
    (grows, held_back): (&[f64], &[f64]),
    g: &Growth,
    hierarchical: bool,
) -> (BTreeMap<&'c [u8], f64>, f64, f64) {
    let mut parents: BTreeMap<&[u8], f64> = BTreeMap::new();
    let (mut anywhere, mut new_firsts) = (0.0, 0.0);
    for ((c, &grow), lost) in carriers.iter().zip(grows).zip(held_back) {
        let items = (c.docs * grow).round().max(1.0) as u64;
        container.insert_unsplit(c.epk.clone(), (c.bytes * grow).round() as u64, items);
        let new = c.bytes * g.unseen_per_byte;
        match parent(c.epk, hierarchical) {
            Some(p) => {
                *parents.entry(p).or_default() += new * (1.0 - g.new_firsts) + lost;
                new_firsts += new * g.new_firsts;
            }
            None => anywhere += new + lost,
        }
    }
    (parents, anywhere, new_firsts)
}

/// Places the log's new first levels at their prefixes and its large new values at their
/// own EPKs (see [`carried`]), out of `new_firsts` (the new first levels' bytes) and
/// `anywhere` (the other new values'); returns those values and what is left of
/// `anywhere`. Only while the values are counted exactly: sampled, a known first level may
/// look new.
fn place_log_news<'t>(
    container: &mut Container,
    (stats, time): (&CandidateStats, &'t Time),
    (carriers, g): (&[Carrier<'_>], &Growth),
    (scale, hierarchical, new, avg_doc): (f64, bool, NewValues, f64),
    (anywhere, new_firsts): (f64, f64),
) -> (Vec<Carried<'t>>, f64) {
    let heavy = (time.newcomers.as_ref())
        .filter(|_| hierarchical && stats.values.is_exact())
        .map_or(&[][..], |n| &n.heavy_firsts[..]);
    // The values' bytes come out of the new values' (of a hierarchical key, out of their
    // prefix's).
    let named = carried(time, stats, (carriers, g), (scale, hierarchical, new));
    let heavy = prefixes_less(heavy, &named, new_firsts);
    let mut anywhere = anywhere + place_at_prefixes(container, &heavy, new_firsts, avg_doc);
    for v in &named {
        insert_piece(container, v.epk.clone(), v.bytes, avg_doc);
    }
    anywhere = (anywhere - named.iter().map(|v| v.bytes).sum::<f64>()).max(0.0);
    (named, anywhere)
}

/// The shares of `heavy` (new first levels) less the bytes of `values` of the same first
/// level, out of `mass`.
fn prefixes_less(
    heavy: &[(Vec<u8>, f64)],
    values: &[Carried<'_>],
    mass: f64,
) -> Vec<(Vec<u8>, f64)> {
    let mut out = heavy.to_vec();
    for v in values.iter().filter(|_| mass > 0.0) {
        let first = super::newcomers::first_level(v.epk.as_bytes());
        if let Some(h) = out.iter_mut().find(|h| h.0 == first) {
            h.1 = (h.1 - v.bytes / mass).max(0.0);
        }
    }
    out
}

/// Chunks of at most 1 GB for `mass` bytes (none below a byte; at most 256).
fn pieces(mass: f64) -> usize {
    if mass < 1.0 {
        return 0;
    }
    (mass / CHUNK).ceil().clamp(1.0, 256.0) as usize
}

fn insert_piece(c: &mut Container, epk: Epk, bytes: f64, avg_doc: f64) {
    let items = (bytes / avg_doc).round().max(1.0) as u64;
    c.insert_unsplit(epk, bytes.round() as u64, items);
}

/// The container size at which the largest open value reported one by one reaches the
/// logical limit: solve `bytes · (1 + (k - 1) B (1 - p) / B_open) = limit` for `k`, times
/// the sample size `B`. A period past the limit (a closed value, or with `periods` one at
/// the target's write rate) breaks the key at any size; `None` when open values do not
/// grow (or not before an exabyte).
fn limit_size(
    carriers: &[Carrier<'_>],
    g: &Growth,
    sample: f64,
    periods: Option<&Periods>,
    named_new: &[Carried<'_>],
) -> Option<u64> {
    let own = limit_size_of_sample(carriers, g, sample, periods);
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

/// [`limit_size`] of the values the sample holds.
fn limit_size_of_sample(
    carriers: &[Carrier<'_>],
    g: &Growth,
    sample: f64,
    periods: Option<&Periods>,
) -> Option<u64> {
    let limit = crate::engine::Limits::default().logical_bytes as f64;
    let named = carriers.iter().filter(|c| c.label.is_some());
    let period_max = (named.clone())
        .map(|c| match (c.closed, periods) {
            (true, Some(p)) => p.closed(c.bytes),
            (true, None) => c.bytes,
            // A period in progress reaches at most its cap.
            (false, _) if c.cap.is_finite() => c.bytes * c.cap,
            (false, _) => 0.0,
        })
        .fold(0.0, f64::max);
    if period_max >= limit {
        return Some(sample as u64);
    }
    // A value bounded (by its retention, or as a period) below the limit never reaches it.
    let open_max = named
        .filter(|c| !c.closed && c.count >= 2 && c.bytes * g.bound.min(c.cap) >= limit)
        .map(|c| c.bytes)
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
        };
        let mut out = vec![
            carrier(&epks[0], 900.0),
            carrier(&epks[1], 10.0),
            carrier(&epks[2], 30.0),
            carrier(&epks[3], 1.0),
            carrier(&epks[4], 5.0),
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
