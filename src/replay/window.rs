//! The replay's time windows: the log's operations cut into windows by time (or by
//! position when the log has no times), the sample's arrivals mapped onto the same windows,
//! and how many windows a replay has (the same for every candidate of a run).

use crate::engine::Container;
use crate::log::Log;
use crate::stats::arrival::Arrival;

/// At most this many windows.
pub const MAX_WINDOWS: usize = 32;
/// Operations per physical partition a window should hold at least: fewer, and counting
/// noise alone would make partitions look hot.
pub const OPS_PER_PARTITION: u64 = 200;

/// How many windows a replay of `log` (and of the sample's arrivals as creates, when
/// `sample_writes`) has on `container`.
pub(super) fn window_count(
    container: &Container,
    log: Option<&Log>,
    arrival: &Arrival,
    sample_writes: bool,
) -> usize {
    let events = log
        .map_or(0, Log::weighted)
        .saturating_add(if sample_writes {
            arrival_docs(arrival)
        } else {
            0
        });
    // Windows depend on the throughput alone, so every candidate of a run replays the same
    // windows and their needs compare.
    let limits = *container.limits();
    let parts = container.throughput().initial_partitions(&limits) as u64;
    (events / (OPS_PER_PARTITION * parts).max(1)).clamp(1, MAX_WINDOWS as u64) as usize
}

/// When the windows are: the time the first starts (seconds since the epoch), the
/// seconds each spans, and the share of the first and of the last the log covers (the
/// windows keep to the clock: the log need not start or end on a window's edge).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// The first window's start.
    pub start: i64,
    /// Seconds per window.
    pub seconds: f64,
    /// The share of the first window and of the last that the log covers: 1 within, less
    /// where the log starts or ends inside it, more where a neighbour's sliver joined it
    /// (see `aligned`); of a single window, both are its share.
    pub edges: (f64, f64),
}

impl Clock {
    /// The share of window `i` of `n` the log covers.
    pub fn cover(&self, i: usize, n: usize) -> f64 {
        match (i == 0, i + 1 == n) {
            (true, true) => self.edges.0.min(self.edges.1),
            (true, false) => self.edges.0,
            (false, true) => self.edges.1,
            (false, false) => 1.0,
        }
    }
}

/// The window lengths that keep to the clock, in seconds, from the shortest of at least
/// `wanted`: the divisors of an hour, then the divisors of a day that are whole hours,
/// then whole days.
fn clock_lengths(wanted: f64) -> impl Iterator<Item = i128> {
    let hour = (1..=3_600).filter(|d| 3_600 % d == 0);
    let day = [7_200, 10_800, 14_400, 21_600, 28_800, 43_200].into_iter();
    // Whole days from the least that is long enough: the next two, then doubling (a
    // forged span of centuries ends in a few steps).
    let d0 = (wanted / 86_400.0).ceil().clamp(1.0, 1e15) as i128;
    let days = (0..64u32).map(move |k| match k {
        0..=2 => (d0 + i128::from(k)) * 86_400,
        _ => (d0 << (k - 2).min(40)) * 86_400,
    });
    (hour.chain(day).chain(days)).filter(move |&len| len as f64 >= wanted)
}

/// The windows of a log from `lo` to `hi` (seconds, `hi > lo`): the shortest length that
/// keeps to the clock (see [`clock_lengths`]) of at least `span / windows` and that cuts
/// the log into at most [`MAX_WINDOWS`] windows, the first starting on a multiple of it
/// (an hour's windows start on the hour, a day's at midnight UTC). A first or last window
/// the log covers less than half of is one with its neighbour (its few lines say little
/// of a rate), which then covers more than its length.
fn aligned(lo: i64, hi: i64, windows: usize) -> (Clock, usize) {
    let (lo, hi) = (i128::from(lo), i128::from(hi));
    let wanted = (hi - lo) as f64 / windows.max(1) as f64;
    let count = |len: i128| hi.div_euclid(len) - lo.div_euclid(len) + 1;
    // Of lengths of at least `wanted`, the first or the next few cut at most MAX_WINDOWS.
    let len = (clock_lengths(wanted))
        .find(|&len| count(len) <= MAX_WINDOWS as i128)
        .unwrap_or(hi - lo + 1);
    let mut start = lo.div_euclid(len) * len;
    let mut n = count(len).clamp(1, MAX_WINDOWS as i128 + 1);
    if n > 1 && 2 * (start + len - lo) < len {
        start += len;
        n -= 1;
    }
    if n > 1 && 2 * (hi + 1 - (start + (n - 1) * len)) < len {
        n -= 1;
    }
    let f = len as f64;
    let last = start + (n - 1) * len;
    let edges = match n {
        1 => {
            let all = (hi + 1 - lo) as f64 / f;
            (all, all)
        }
        _ => ((start + len - lo) as f64 / f, (hi + 1 - last) as f64 / f),
    };
    let clock = Clock {
        start: i64::try_from(start).unwrap_or(i64::MIN),
        seconds: f,
        edges,
    };
    (clock, n as usize)
}

/// The log's operations cut into windows: by time when (nearly) every operation has one,
/// windows that keep to the clock (see [`aligned`]: about `windows` of them, so that a
/// burst is billed in the clock hours it happened and no others), with when they are;
/// else `windows` windows by position (weighted by count).
pub(super) fn window_ops(log: &Log, windows: usize) -> (Vec<Vec<usize>>, Option<Clock>) {
    let mut out = vec![Vec::new(); windows];
    let mut clock = None;
    match arrival_times(log) {
        // One second of log says nothing of rates.
        Some(ts) if ts.iter().min() < ts.iter().max() => {
            let lo = ts.iter().min().copied().unwrap_or(0);
            let hi = ts.iter().max().copied().unwrap_or(0);
            let (c, n) = aligned(lo, hi, windows);
            out = vec![Vec::new(); n];
            let len = c.seconds as i128;
            for (i, t) in ts.into_iter().enumerate() {
                let w = (i128::from(t) - i128::from(c.start)).div_euclid(len.max(1));
                out[w.clamp(0, n as i128 - 1) as usize].push(i);
            }
            clock = Some(c);
        }
        Some(ts) => out[0].extend(0..ts.len()),
        None => {
            // The operations kept (a sampled log's counts are scaled).
            let kept = log.ops.iter().fold(0u64, |a, o| a.saturating_add(o.count));
            let total = kept.max(1) as f64;
            let mut seen = 0u64;
            for (i, op) in log.ops.iter().enumerate() {
                let w = ((seen as f64 / total) * windows as f64) as usize;
                out[w.min(windows - 1)].push(i);
                seen = seen.saturating_add(op.count);
            }
        }
    }
    (out, clock)
}

/// Each operation's time, when at least 95% of the weighted operations have one: an
/// operation without (a plain-text `SELECT` line) takes the time of the operation before it
/// (or after it, at the start).
fn arrival_times(log: &Log) -> Option<Vec<i64>> {
    let total = log.ops.iter().fold(0u64, |a, o| a.saturating_add(o.count));
    let timed =
        (log.ops.iter().filter(|o| o.ts.is_some())).fold(0u64, |a, o| a.saturating_add(o.count));
    if total == 0 || (timed as f64) < 0.95 * total as f64 {
        return None;
    }
    let first = log.ops.iter().find_map(|o| o.ts)?;
    let mut last = first;
    Some(
        log.ops
            .iter()
            .map(|o| {
                last = o.ts.unwrap_or(last);
                last
            })
            .collect(),
    )
}

/// One window's sample arrivals: (slice, documents, bytes).
pub(super) type Arrivals = Vec<(usize, u64, u64)>;

fn arrival_docs(arrival: &Arrival) -> u64 {
    arrival
        .windows()
        .iter()
        .map(|(_, w)| w.counted().fold(0u64, |a, (_, s)| a.saturating_add(s.docs)))
        .fold(0u64, u64::saturating_add)
}

/// The sample's arrival windows mapped onto `windows` windows by rank.
pub(super) fn sample_by_window(arrival: &Arrival, windows: usize) -> Vec<Vec<Arrivals>> {
    let mut out = vec![Vec::new(); windows];
    let n = arrival.windows().len().max(1);
    for (i, (_, w)) in arrival.windows().iter().enumerate() {
        let slices: Arrivals = (w.counted())
            .filter(|(_, s)| s.docs > 0)
            .map(|(i, s)| (i, s.docs, s.bytes))
            .collect();
        out[(i * windows / n).min(windows - 1)].push(slices);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-15T00:00:00Z.
    const DAY: i64 = 1_794_700_800;

    #[test]
    fn windows_keep_to_the_clock() {
        // From 00:20 to 23:50, about 32 windows asked: hours, from midnight; the first
        // covered for 40 minutes, the last for 50.
        let (c, n) = aligned(DAY + 1_200, DAY + 23 * 3_600 + 2_999, 32);
        assert_eq!((c.start, c.seconds, n), (DAY, 3_600.0, 24));
        assert!((c.edges.0 - 40.0 / 60.0).abs() < 1e-9, "{c:?}");
        assert!((c.edges.1 - 50.0 / 60.0).abs() < 1e-9, "{c:?}");
        assert_eq!(
            (c.cover(0, n), c.cover(5, n), c.cover(23, n)),
            (c.edges.0, 1.0, c.edges.1)
        );
        // From 00:50 to 04:00:00: the first ten minutes join 01:00-02:00, the last second
        // 03:00-04:00.
        let (c, n) = aligned(DAY + 3_000, DAY + 4 * 3_600, 4);
        assert_eq!((c.start, n), (DAY + 3_600, 3));
        assert!((c.edges.0 - 70.0 / 60.0).abs() < 1e-9, "{c:?}");
        assert!((c.edges.1 - 3_601.0 / 3_600.0).abs() < 1e-9, "{c:?}");
        // One window: its share.
        let (c, n) = aligned(DAY + 60, DAY + 659, 1);
        assert_eq!((n, c.cover(0, 1)), (1, 1.0));
        // An hour's log from 14:00:00 to 14:59:59 in 12: five minutes each, whole.
        let (c, n) = aligned(DAY + 14 * 3_600, DAY + 15 * 3_600 - 1, 12);
        assert_eq!(
            (c.start, c.seconds, n, c.edges),
            (DAY + 14 * 3_600, 300.0, 12, (1.0, 1.0))
        );
        // Ten minutes in 32: 20 seconds (a divisor of the hour), 30 windows.
        let (c, n) = aligned(DAY, DAY + 599, 32);
        assert_eq!((c.seconds, n), (20.0, 30));
        // A fortnight in 32: 12 hours, from midnight, at most 32 windows.
        let (c, n) = aligned(DAY + 7_000, DAY + 14 * 86_400 - 1, 32);
        assert_eq!((c.start, c.seconds, n), (DAY, 43_200.0, 28));
        // A window that would straddle: at most MAX_WINDOWS, the next length up.
        let (_, n) = aligned(DAY + 10, DAY + 32 * 3_600 + 10, 32);
        assert!(n <= MAX_WINDOWS, "{n}");
        // Forged times far apart end in a few steps, not an endless count of days.
        let (c, n) = aligned(i64::MIN / 2, i64::MAX - 1, 32);
        assert!(n <= MAX_WINDOWS && c.seconds > 1e15, "{c:?} {n}");
    }
}
