//! The growth of every value to the target: the sample's values as carriers of bytes, the
//! share of new data that new values take, and each open value's growth.

use super::*;
use crate::stats::values::COUNTS_READ;

/// A value placed one by one.
pub(super) struct Carrier<'a> {
    pub(super) epk: Epk,
    /// Sample bytes and documents it stands for where it lies (scaled when hash-sampled,
    /// and fitted to the histogram: see [`fit_to_histogram`]).
    pub(super) bytes: f64,
    pub(super) docs: f64,
    /// Sample bytes of values like it: its own bytes, scaled when hash-sampled but not
    /// fitted (see [`fit_to_histogram`]). What values grow, close or arrive new is read
    /// from these; where bytes land, from `bytes`.
    pub(super) held: f64,
    /// Its own documents (not scaled).
    pub(super) count: u64,
    pub(super) span: Span,
    /// Its label, for values reported one by one (exact or heavy).
    pub(super) label: Option<&'a str>,
    /// Whether its writes have stopped (see [`Arrivals::is_closed`]).
    pub(super) closed: bool,
    /// The most it grows on its own (a period in progress at the target's write rate: see
    /// [`Periods`]); infinite otherwise.
    pub(super) cap: f64,
    /// Of a snapshot, the share of its growth its count earns net of chance: a value seen
    /// `r` times stands for `r*` of them (see [`credible`]); 1 otherwise.
    pub(super) credible: f64,
    /// The values it stands for: one, or for a hash-sampled value its share of the key's
    /// values not tracked as heavy (see [`carriers`]).
    pub(super) values: f64,
}

/// The values placed one by one: every value while counted exactly; once sampled, the heavy
/// hitters and the other sampled values, scaled so that all of them hold the sample's bytes
/// where the histogram says they lie (see [`fit_to_histogram`]).
pub(super) fn carriers(stats: &CandidateStats, v1: bool) -> Vec<Carrier<'_>> {
    let mut out = Vec::new();
    let mut heavy = FxHashSet::default();
    for v in stats.values.heavy_entries() {
        heavy.insert(value_hash(&v.epk, v1));
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
            credible: 1.0,
            values: 1.0,
        });
    }
    if !stats.values.is_exact() {
        let heavy_bytes: f64 = out.iter().map(|c| c.bytes).sum();
        let scale = stats.values.scale() as f64;
        let from = out.len();
        for v in stats.values.sample() {
            if !heavy.contains(&value_hash(&v.epk, v1)) {
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
                    credible: 1.0,
                    values: scale,
                });
            }
        }
        stand_for_the_sketch(&mut out[from..], stats, from);
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

/// Shares the key's values not tracked as heavy (the distinct-value sketch's count less the
/// `heavy` carriers, about 0.8% off) evenly among the `sampled` carriers: the sample says
/// which values the key holds, the sketch how many. Read as the sampled values' count times
/// the values each stands for, the count would be off by one over the square root of the
/// values kept (3% at 1,000). Never fewer than one a carrier.
fn stand_for_the_sketch(sampled: &mut [Carrier<'_>], stats: &CandidateStats, heavy: usize) {
    let distinct = stats.distinct_values().0 as f64;
    let each = (distinct - heavy as f64) / sampled.len().max(1) as f64;
    for c in sampled {
        c.values = each.max(1.0);
    }
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
/// of values seen many times, given to a value seen once, would not grow): [`growth()`] reads
/// that from the sampled values' own bytes ([`Carrier::held`]).
pub(super) fn fit_to_histogram(
    out: &mut [Carrier<'_>],
    from: usize,
    histogram: &EpkHistogram,
    v1: bool,
) {
    let mut tail: Vec<f64> = histogram.slices.iter().map(|s| s.bytes as f64).collect();
    for c in &out[..from] {
        tail[slice_of_epk(&c.epk, v1)] -= c.bytes;
    }
    let slices: Vec<usize> = out[from..]
        .iter()
        .map(|c| slice_of_epk(&c.epk, v1))
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

/// How the new data divides.
pub(super) struct Growth {
    /// `g` of open values (`k` when the target is smaller than the sample).
    pub(super) open: f64,
    /// Of closed values.
    pub(super) closed: f64,
    /// `p`.
    pub(super) unseen_share: f64,
    /// New values' bytes per sample byte.
    pub(super) unseen_per_byte: f64,
    /// Sample bytes of closed values.
    pub(super) closed_bytes: f64,
    /// Sample bytes of the values that grow.
    pub(super) growing: f64,
    /// The most a value grows (a retention's bound; infinite without one).
    pub(super) bound: f64,
    /// Where `p` was read.
    pub(super) from: NewFrom,
    /// Of a hierarchical key, the share of new values' bytes whose first level is new:
    /// they hash anywhere, not inside the prefixes of the values they are drawn from.
    pub(super) new_firsts: f64,
    /// Whether the key is one of periods: at least [`PERIODIC_SHARE`] of its sample bytes
    /// in closed values (a few retired devices do not make a device key one).
    pub(super) periodic: bool,
    /// The target's write rate, bytes per second, when known.
    pub(super) rate: Option<f64>,
    /// The share of that rate the first levels the sample knows receive (a pilot's devices
    /// get theirs, not the fleet's): 1 less the log's share of new first levels, measured
    /// while the values are counted exactly (sampled, it is an upper bound).
    pub(super) known_rate: f64,
}

impl Growth {
    /// How much a value grows: open values seen more than once by `g`; values seen once
    /// are what new values look like, and closed values are done.
    pub(super) fn of(&self, c: &Carrier<'_>) -> f64 {
        if c.closed || (c.count < 2 && self.open >= 1.0) {
            self.closed
        } else {
            // A period in progress is bounded at the target's rate (its cap, which counts
            // the retention); the retention's bound is the sample's rate's.
            let bound = if c.cap.is_finite() { c.cap } else { self.bound };
            (1.0 + (self.open - 1.0) * c.credible).min(bound)
        }
    }
}

pub(super) fn growth(
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
        - (logged_shares(time).1)
            .filter(|_| stats.values.is_exact())
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
    // A closed value that gathers units holds `1 / share` times its documents; what it
    // gains is not new data's.
    let closed = time.gathered.map_or(1.0, |g| g.max(1.0));
    let new = ((scale - 1.0) * sample - (closed - 1.0) * closed_bytes).max(0.0);
    // With no value left to grow, all new data goes to new values.
    let p = if growing <= 0.0 { 1.0 } else { p };
    let mut open = match growing > 0.0 {
        true => 1.0 + new * (1.0 - p) / growing,
        false => 1.0,
    };
    let mut p = p;
    // Values that close are periods, whose own rate stops with them; a retention bounds
    // each value already.
    // A snapshot holds each value's share of the container already: no time passes.
    let complete = time.sample == SampleKind::Complete;
    if complete && growing > 0.0 && new > 0.0 && !periodic && time.retention.is_none() {
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
        closed,
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

/// `p`, where it was read, and of a hierarchical key the share of new data from new
/// first levels (see the module's **New values**).
pub(super) fn new_share(
    stats: &CandidateStats,
    carriers: &[Carrier<'_>],
    (time, a): (&Time, &Arrivals),
    periodic: bool,
) -> (f64, NewFrom, Option<f64>) {
    let exact = stats.values.is_exact();
    let temporal = (a.timed)
        .then(|| temporal_new_share(carriers, a, exact))
        .flatten();
    let (logged, first) = logged_shares(time);
    let (p, from) = match (logged, temporal) {
        // Periods: the log's unseen values are mostly the periods to come, whose share
        // the sample's own arrivals measure.
        (_, Some(t)) if periodic => (t, NewFrom::Arrivals),
        (Some(l), _) => (l, NewFrom::Log),
        (None, Some(t)) => (t, NewFrom::Arrivals),
        (None, None) => (good_turing(stats), NewFrom::Singletons),
    };
    // New first levels of a hierarchical key are new values too.
    match first {
        Some(q) if q > p => (q, NewFrom::Log, first),
        _ => (p, from, first),
    }
}

/// The log's shares of new data that values, and of a hierarchical key first levels, the
/// sample does not hold take. Of complete values read from a log of requests, the sample's
/// own take what their lines say net of chance (see [`HeldGroup::net_lines`]): a pilot of a
/// dozen stores is a handful of a short log's lines, and as many of the log's typical
/// stores write about as many; a log of values has every request of its values, and a
/// snapshot's values are most of the log.
pub(super) fn logged_shares(time: &Time) -> (Option<f64>, Option<f64>) {
    let Some(n) = time.newcomers.as_ref() else {
        return (None, None);
    };
    let net = nets_held(time);
    let of = |share: Option<f64>, held: &HeldGroup| match net {
        true => share.map(|p| held.net_new_share(p, time.log_share)),
        false => share,
    };
    (of(n.share, &n.held), of(n.new_first_levels, &n.held_firsts))
}

/// Whether the sample's values take the log's creates net of chance (see
/// [`logged_shares`]).
fn nets_held(time: &Time) -> bool {
    time.sample == SampleKind::Complete && time.log == LogKind::Requests
}

/// The sample's values' (of a hierarchical key, first levels') lines of the log's creates,
/// as logged and net of chance, where the share of new data was read from them (`from`
/// the log; of a hierarchical key, from its first levels, when they give more than its
/// values) and chance took some off.
pub(super) fn held_lines(time: &Time, hierarchical: bool, from: NewFrom) -> Option<(u64, f64)> {
    let n = time.newcomers.as_ref().filter(|_| nets_held(time))?;
    let (held, used) = match hierarchical {
        true => {
            let q = logged_shares(time).1;
            (
                &n.held_firsts,
                q.is_some_and(|q| n.share.is_none_or(|p| q > p)),
            )
        }
        false => (&n.held, n.share.is_some()),
    };
    let net = held.net_lines(time.log_share);
    (used && from == NewFrom::Log && net < held.lines as f64).then_some((held.lines, net))
}

/// How much the bytes placed for each carrier grow: a value reported one by one by its
/// own growth; a hash-sampled value by the mean growth, weighted by their own bytes, of
/// the sampled values of its group, where `group[i]` says which values lie together (one
/// collection of a layout, one parent of a hierarchical key, all the hash space of a
/// single-level key, whose values hash at random). A sampled value's fitted bytes are its
/// slice's, of every kind of value (see [`fit_to_histogram`]), so its own growth would
/// not do.
pub(super) fn placed_growth<K: Ord>(carriers: &[Carrier<'_>], g: &Growth, group: &[K]) -> Vec<f64> {
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
pub(super) fn parent(epk: &Epk, hierarchical: bool) -> Option<&[u8]> {
    let b = epk.as_bytes();
    (hierarchical && b.len() > 16).then(|| &b[..b.len() - 16])
}

/// Good–Turing: the share of documents whose value occurs once (see
/// [`ValueStats::singleton_share`](crate::stats::ValueStats::singleton_share)).
pub(super) fn good_turing(stats: &CandidateStats) -> f64 {
    let docs = stats.documents.saturating_sub(stats.invalid);
    stats.values.singleton_share(docs)
}

/// A value's projected bytes: grown as [`Growth::of`] says, or, with `periods`, a closed
/// value as one period at the target's write rate.
pub(super) fn projected(c: &Carrier<'_>, g: &Growth, periods: Option<&Periods>) -> f64 {
    let grown = c.bytes * g.of(c);
    match periods {
        Some(p) if c.closed => p.closed(c.bytes).max(grown),
        _ => grown,
    }
}

/// New values at the target: the bytes new values take (`p` of the new data) over the mean
/// size the sample's values reach there (a period at the target's rate, a device at its own
/// rate, an id at its one document). Of a key of periods, the periods to come are like the
/// closed ones: the period in progress at the sample's end, which holds part of one, is
/// left out of the mean (14 days of which the last is a few minutes old are 13 periods).
pub(super) fn arriving(carriers: &[Carrier<'_>], g: &Growth, periods: Option<&Periods>) -> f64 {
    let (mut bytes, mut values, mut new) = (0.0, 0.0, 0.0);
    let closed_only = periods.is_some() && carriers.iter().any(|c| c.closed);
    for c in carriers {
        new += c.bytes * g.unseen_per_byte;
        if closed_only && !c.closed {
            continue;
        }
        bytes += projected(c, g, periods);
        values += c.values;
    }
    match bytes > 0.0 && values > 0.0 {
        true => new / (bytes / values),
        false => 0.0,
    }
}

/// Largest count Good–Turing's estimate is read for; past it a value's count is its own.
/// Its counts of counts are those a sampled key keeps precise when it halves (see
/// [`COUNTS_READ`]).
pub(super) const CREDIBLE_BELOW: u64 = COUNTS_READ as u64;

/// Of a snapshot, how much of its count each value seen `r < CREDIBLE_BELOW` times earns:
/// Good–Turing's `r* = (r + 1) N(r+1) / N(r)` over `r`, at most 1, where `N(r)` is the
/// number of values the sample saw `r` times (`counts[r - 1]`). A value seen twice in a
/// thin share of a container of millions of values is mostly chance (a patient seen twice
/// among 20 million): of the values seen twice, as many more would be seen three times
/// were they twice as large as one; the rest of what their counts say goes to values
/// never seen. The counts are those of the values the statistics hold one by one: all of
/// them, or a uniform share by hash, heavy hitters in it included (see
/// [`ValueStats::kept_counts_of_counts`](crate::stats::ValueStats::kept_counts_of_counts)).
/// Values past the cut keep their count, and so do all once the counts of counts stop
/// falling (`N(r) > N(r - 1)`: not a thin share's pattern, whatever the flag says). Where
/// they fall to nothing (`N(r) = 0` from `r` to the cut and at it), a value seen `r`
/// times (a heavy hitter outside a sampled share) earns what it would as the one value
/// seen `r` times, nothing, as exact counts would say: whether a share of 2,000 values
/// happened to see three values twice or none must not decide whether a heavy value seen
/// twice is chance. Values seen more often than that keep their counts.
pub(super) fn credible(counts: &[usize; COUNTS_READ]) -> [f64; CREDIBLE_BELOW as usize] {
    let n = |r: usize| counts.get(r.wrapping_sub(1)).map_or(0.0, |&c| c as f64);
    let mut out = [1.0; CREDIBLE_BELOW as usize];
    // Only while the counts of counts fall from the values seen once, as a thin share's
    // do: 20,000 users seen three times each, none once, is every document of them.
    for (r, earned) in out.iter_mut().enumerate().skip(1) {
        if n(1) <= 0.0 || (r > 1 && n(r) > n(r - 1)) {
            break;
        }
        if n(r) <= 0.0 {
            // The counts fell to nothing. A value seen `r` times here is a heavy hitter
            // outside a sampled share: it earns what it would as the one value seen `r`
            // times, `(r + 1) N(r+1) / r` with `N(r+1) = 0`, nothing. A value seen more
            // often than any the share saw repeat is no thin share's chance (the counts
            // would rise again at it, as exact counts do), and keeps its count; so do all
            // when the counts come back (none seen twice, some thrice, or six times).
            if (r..=CREDIBLE_BELOW as usize).all(|q| n(q) <= 0.0) {
                *earned = 0.0;
            }
            break;
        }
        *earned = ((r + 1) as f64 * n(r + 1) / (r as f64 * n(r))).min(1.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sampled key's values are counted by its sketch, not by its sample: 200,000
    /// values seen once each, kept a few thousand at a time, are carried as 200,000 within
    /// the sketch's error (the sample's count times the values each stands for would be
    /// off by one over the square root of the values kept), shared evenly.
    #[test]
    fn sampled_values_stand_for_the_sketchs_count() {
        let mut stats = CandidateStats::new(64 * 1024, false);
        for i in 0..200_000u64 {
            let v = format!("id-{i}");
            let c = [crate::engine::PkValueRef::Str(&v)];
            let epk = crate::engine::epk::hash_v2(&c);
            stats.add(&c, &epk, false, 100, None);
        }
        assert!(!stats.values.is_exact());
        let out = carriers(&stats, false);
        let sampled: Vec<&Carrier<'_>> = out.iter().filter(|c| c.label.is_none()).collect();
        assert!(
            sampled.len() > 100 && sampled.len() < 5_000,
            "{}",
            sampled.len()
        );
        let heavy = out.len() - sampled.len();
        let all: f64 = out.iter().map(|c| c.values).sum();
        assert!((all / 200_000.0 - 1.0).abs() < 0.03, "{all}");
        let each = sampled[0].values;
        assert!(sampled.iter().all(|c| c.values == each));
        let sketch = stats.distinct_values().0 as f64;
        assert!((each * sampled.len() as f64 + heavy as f64 - sketch).abs() < 1.0);
    }

    #[test]
    fn a_count_earns_what_good_turing_says_while_counts_of_counts_fall() {
        // N(1) = 100, N(2) = 10, N(3) = 1: a value seen once earns 2 × 10 / 100 = 0.2 of
        // its count, twice 3 × 1 / (2 × 10) = 0.15, three times 4 × 0 / 3 = 0, and so
        // four times (as the one value seen four times); five times, more often than any
        // the counts saw repeat, and past the cut (6 or more) its own count.
        let c = credible(&[100, 10, 1, 0, 0, 0]);
        for (r, want) in [(1, 0.2), (2, 0.15), (3, 0.0), (4, 0.0), (5, 1.0)] {
            assert!((c[r] - want).abs() < 1e-12, "r = {r}: {}", c[r]);
        }
        // Every value seen three times, none once: not a thin share; nothing shrinks.
        assert!(credible(&[0, 0, 1_000, 0, 0, 0]).iter().all(|&x| x == 1.0));
        // N = 64, 32, 16, 8, 4, 2 gives r* / r = (r + 1) / (2 r), 5 times 6 / 10 = 0.6.
        let c = credible(&[64, 32, 16, 8, 4, 2]);
        for (r, got) in c.iter().enumerate().skip(1) {
            let want = (r + 1) as f64 / (2 * r) as f64;
            assert!((got - want).abs() < 1e-12, "r = {r}: {got}");
        }
        // A share whose values were all seen once: a heavy hitter seen twice is chance,
        // as a share that saw a few twice and none thrice says; one seen three to five
        // times, more often than chance repeats a value there, keeps its count.
        assert_eq!(
            credible(&[2_000, 0, 0, 0, 0, 0])[1..],
            [0.0, 0.0, 1.0, 1.0, 1.0]
        );
        // None twice but some three times, or six: the counts come back, no thin
        // share's; the values seen more than once keep their counts.
        assert_eq!(
            credible(&[2_000, 0, 5, 0, 0, 0])[1..],
            [0.0, 1.0, 1.0, 1.0, 1.0]
        );
        assert_eq!(
            credible(&[2_000, 0, 0, 0, 0, 7])[1..],
            [0.0, 1.0, 1.0, 1.0, 1.0]
        );
        // Nothing seen once, nothing to read: every count is its own.
        assert!(credible(&[0; COUNTS_READ]).iter().all(|&x| x == 1.0));
        // The counts of counts rise at 3 (N = 100, 10, 50): a value seen twice still
        // earns 3 × 50 / 20, at most 1; from 3 on its own count.
        let c = credible(&[100, 10, 50, 1, 0, 0]);
        assert_eq!((c[1], c[2], c[3]), (0.2, 1.0, 1.0));
    }
}
