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

/// When the windows are: the time the first starts (seconds since the epoch) and the
/// seconds each spans.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// The first window's start.
    pub start: i64,
    /// Seconds per window.
    pub seconds: f64,
}

/// The log's operations cut into `windows` windows: by time when (nearly) every operation
/// has one (then with when the windows are), else by position (weighted by count).
pub(super) fn window_ops(log: &Log, windows: usize) -> (Vec<Vec<usize>>, Option<Clock>) {
    let mut out = vec![Vec::new(); windows];
    let mut clock = None;
    match arrival_times(log) {
        Some(ts) => {
            let (lo, hi) = (
                ts.iter().min().copied().unwrap_or(0),
                ts.iter().max().copied().unwrap_or(0),
            );
            let span = (hi.saturating_sub(lo)).max(1) as f64;
            // One second of log says nothing of rates.
            clock = (hi > lo).then_some(Clock {
                start: lo,
                seconds: span / windows as f64,
            });
            for (i, t) in ts.into_iter().enumerate() {
                let w = ((t.saturating_sub(lo) as f64 / span) * windows as f64) as usize;
                out[w.min(windows - 1)].push(i);
            }
        }
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
