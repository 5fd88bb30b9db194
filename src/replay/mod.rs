//! Replaying a query log per candidate key: each operation is routed through the engine
//! ([`route`]), charged by the request-unit cost model ([`crate::pricing::charge`]) to the
//! partitions it
//! reaches, and counted as single-partition, targeted or fan-out (`replayer`). The replay
//! runs in time windows (`window`): the logged operations, and the sample documents as
//! creates when the log holds no writes. Write spread is judged apart, over short runs of
//! consecutive writes ([`spread`]) and by load in each window, where the busiest single
//! value's load is also kept ([`load`]). What throughput set partition by partition meets is
//! read from the windows in `peaks`. What a replay is given is in [`subject`], what it found
//! in [`outcome`]. The log itself is read by [`crate::log`].

pub mod load;
pub mod outcome;
mod peaks;
mod replayer;
pub mod route;
pub mod spread;
pub mod subject;
mod window;

use crate::engine::Container;
use crate::engine::epk::boundary_at;
use crate::log::Log;
use crate::stats::arrival::SLICES;
use replayer::{Replayer, Start, slice_owners};
use spread::{block_spread, random_reach};
use window::{sample_by_window, window_count, window_ops};

pub use outcome::{OpCharge, WorkloadStats};
pub use subject::{Sample, Subject};
pub use window::{Clock, MAX_WINDOWS, OPS_PER_PARTITION};

/// Replays `log` (if any) and, when it has no writes, the sample documents as creates.
pub fn replay(
    container: &mut Container,
    subject: &Subject<'_>,
    log: Option<&Log>,
    sample: &Sample<'_>,
) -> WorkloadStats {
    let sample_writes = !log.is_some_and(Log::has_writes);
    let windows = window_count(container, log, sample.arrival, sample_writes);
    let (ops_by_window, clock) = match log {
        Some(l) => window_ops(l, windows),
        None => (vec![Vec::new(); windows], None),
    };
    let timed_log = log.zip(clock).map(|(l, c)| {
        // A sampled log keeps a share of the lines: its values' loads are partly chance.
        let kept = kept_share(subject, Some(l));
        let start = l.ops.iter().filter_map(|o| o.ts).min().unwrap_or(0);
        ((c.seconds.min(load::VALUE_SECONDS), 1.0 - kept), start)
    });
    // Windows that keep to the clock may number one more than asked.
    let windows = ops_by_window.len();
    let sample_windows = match sample_writes {
        true => sample_by_window(sample.arrival, windows),
        false => vec![Vec::new(); windows],
    };
    let start = Start {
        clock,
        value_clock: timed_log.map(|(c, _)| c),
        log_start: timed_log.map(|(_, s)| s),
        writes_from_sample: sample_writes,
        slices: slice_owners(container, subject.definition.is_v1()),
    };
    let mut r = Replayer::new(container, subject, log, sample, start);
    for (ops, creates) in ops_by_window.iter().zip(&sample_windows) {
        r.window(log, ops, creates);
    }
    r.close_need(log);
    r.stats.write_spread = if sample_writes {
        sample_spread(r.container, subject, sample, &r.slices)
    } else {
        r.logged_spread()
    };
    r.stats
}

/// The share of the real traffic's lines the log kept: `--log-share`, halved for each
/// level the log was thinned to fit `--memory`.
fn kept_share(subject: &Subject<'_>, log: Option<&Log>) -> f64 {
    let share = subject.log_share.clamp(0.0, 1.0);
    log.map_or(share, |l| l.kept_share(share))
}

/// The write spread of the sample's documents replayed as creates, whose data lies in
/// `slices` (see [`slice_owners`]).
fn sample_spread(
    c: &Container,
    subject: &Subject<'_>,
    sample: &Sample<'_>,
    slices: &[Vec<(usize, f64)>],
) -> f64 {
    let v1 = subject.definition.is_v1();
    let fallback = |s: usize| c.route(&boundary_at((s as f64 + 0.5) / SLICES as f64, v1));
    let parts = c.partitions().len();
    let spillover = subject.layout.is_some_and(|l| l.is_spillover());
    let blocks = if spillover {
        // Every write goes to the newest collection.
        1.0 / random_reach(spread::RUN_WRITES, parts).max(1.0)
    } else if sample.timed {
        1.0
    } else {
        block_spread(sample.blocks, slices, parts, fallback)
    };
    // At production rates, the writes of a moment reach the partitions of the values
    // open at that moment, where writes placed at random would reach them all.
    let moment = sample
        .concurrency
        .map_or(1.0, |n| random_reach(n, parts) / parts as f64);
    blocks.min(moment)
}
