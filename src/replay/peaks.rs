//! What throughput set partition by partition meets, read from each window's partitions
//! by their judged RU (the replay's windows, each partition's RU beyond its share only by
//! what chance would not give it): each partition's own busiest window, the busiest
//! window over all of them, how constantly one partition is the hottest, the hottest
//! one's load window by window, and each clock hour's partitions by their own load. Each
//! window is read at the rate of the part of it the log covers (`cover`).

use rustc_hash::FxHashMap;

use super::outcome::{HourLoads, PartitionPeaks};
use super::window::Clock;

/// [`PartitionPeaks`] of the windows `judged` (each a slice of `parts` partitions' RU).
pub(super) fn partition_peaks(
    judged: &[Vec<f64>],
    parts: usize,
    cover: &dyn Fn(usize) -> f64,
) -> PartitionPeaks {
    let mut peak = vec![0.0; parts];
    let mut spread: f64 = 0.0;
    // For each partition, the skew cost (partitions × the hottest − the window's RU) of
    // the windows where it was the hottest.
    let mut hottest: FxHashMap<usize, f64> = FxHashMap::default();
    for (w, window) in judged.iter().enumerate() {
        let c = cover(w).max(f64::MIN_POSITIVE);
        let window: Vec<f64> = window.iter().map(|ru| ru / c).collect();
        let total: f64 = window.iter().sum();
        spread = spread.max(total);
        for (p, &ru) in peak.iter_mut().zip(&window) {
            *p = f64::max(*p, ru);
        }
        let top =
            (0..window.len()).max_by(|&a, &b| window[a].total_cmp(&window[b]).then(b.cmp(&a)));
        if let Some(i) = top {
            let cost = window[i] * window.len() as f64 - total;
            *hottest.entry(i).or_insert(0.0) += cost.max(0.0);
        }
    }
    let total: f64 = hottest.values().sum();
    let most = hottest.values().copied().fold(0.0, f64::max);
    let top = (0..peak.len()).max_by(|&a, &b| peak[a].total_cmp(&peak[b]));
    let hottest_series = top.map_or_else(Vec::new, |t| {
        (judged.iter().enumerate())
            .map(|(w, window)| window[t] / cover(w).max(f64::MIN_POSITIVE))
            .collect()
    });
    PartitionPeaks {
        peak,
        spread,
        constancy: match total > 0.0 {
            true => most / total,
            false => 1.0,
        },
        hottest_series,
    }
}

/// Each clock hour's partitions by their own RU in it (the busiest of the hour's windows
/// for each; a window longer than an hour stands alone, for its hours), from the windows
/// `judged` as counted and net of chance.
pub(super) fn hour_loads(
    judged: &[Vec<Vec<f64>>; 2],
    parts: usize,
    clock: &Clock,
    cover: &dyn Fn(usize) -> f64,
) -> Vec<HourLoads> {
    let long = clock.seconds > 3_600.0;
    let mut groups: Vec<(i64, [Vec<f64>; 2])> = Vec::new();
    for w in 0..judged[0].len() {
        let key = match long {
            true => w as i64,
            false => (clock.start as f64 + w as f64 * clock.seconds).div_euclid(3_600.0) as i64,
        };
        if groups.last().is_none_or(|g| g.0 != key) {
            groups.push((key, [vec![0.0; parts], vec![0.0; parts]]));
        }
        let c = cover(w).max(f64::MIN_POSITIVE);
        let Some((_, loads)) = groups.last_mut() else {
            continue;
        };
        for (load, windows) in loads.iter_mut().zip(judged) {
            for (l, ru) in load.iter_mut().zip(&windows[w]) {
                *l = f64::max(*l, ru / c);
            }
        }
    }
    let hours = match long {
        true => clock.seconds / 3_600.0,
        false => 1.0,
    };
    (groups.into_iter())
        .map(|(_, [counted, net])| HourLoads {
            hours,
            counted: HourLoads::sketch(counted),
            net: HourLoads::sketch(net),
        })
        .collect()
}
