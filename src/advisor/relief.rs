//! What the service itself does for a key's hot spot, without a new key
//! ([`crate::pricing::relief`]): the RU/s the key needs when each physical partition is
//! given its own load (throughput redistribution) instead of an even share, whether the
//! hot spot holds still long enough for that, whether burst capacity absorbs its peaks,
//! and whether the container could later merge partitions.
//!
//! * Even split (what `required_ru` bills): partitions × the hottest partition of the
//!   busiest window, `E`.
//! * Redistributed: each partition set once to its own busiest window's load, `R = Σ
//!   peakᵢ` (a setting holds until changed, so it must cover every window). `R ≤ E`; a hot
//!   spot that moves from partition to partition makes every partition's peak high and
//!   `R` near `E`. The key's own load spread perfectly, `S` (the busiest window's load
//!   over every partition), is less than which nothing serves.
//! * Stable: in each window the skew costs partitions × its hottest partition − its load;
//!   the hot spot is stable when one partition is the hottest of windows that carry at
//!   least half of that cost over the log (and more than its 1 / P by half the rest: three
//!   quarters with two partitions), or there is no skew to speak of (`E ≤ 1.25 S`); moving
//!   otherwise: a setting made from this log then serves the next hot value only if it
//!   lands where this one did, which a moving hot spot does not.
//! * Served: no partition needs more than the 20,000 RU/s one partition may be given, and
//!   the busiest value fits what its partition gets: 10,000, or half of a partition set
//!   above 10,000 (which is split into two).
//! * Burst: the container set at `S`, each partition has `s = S / P`. The partition with
//!   the busiest own window is followed window by window: it starts with five minutes of
//!   idle capacity (`300 × s`), spends it where its load passes `s` (never above 3,000
//!   RU/s, and not at all when `s ≥ 3,000`) and refills it, up to five minutes' worth,
//!   where its load is below. Burst absorbs its peaks when the bucket never runs dry.
//! * Merge: under 3,000 RU/s and 20 GB per partition on average at the RU/s the key
//!   needs, one write region.

use super::evaluate::Evaluation;
use super::need::{Cost, is_sample};
use crate::pricing::relief::{
    BURST_RU, BURST_SECONDS, PARTITION_RU, PARTITION_TARGET_MAX, Setting, burst_bucket,
    merge_possible, set_partition,
};
use crate::pricing::{Model, Prices};
use crate::project::target::Target;
use crate::report::model::{Finding, FindingCode};

/// The skew below which a key has no hot spot to follow: `E ≤ 1.25 S`.
pub const NO_SKEW: f64 = 1.25;
/// A hot spot is stable when one partition is the hottest of windows carrying at least
/// this share of the skew's cost.
pub const STABLE_SHARE: f64 = 0.5;

/// What redistribution, burst and merge do for one key.
#[derive(Clone, Debug, PartialEq)]
pub struct Relief {
    /// RU/s (an autoscale maximum) the key needs with each partition given its own load,
    /// provisioned as the model provisions; `None` when a partition or a value needs more
    /// than one partition may be given.
    pub needed_ru: Option<f64>,
    /// RU/s the key needs with the even split, before the model's steps (`E`).
    pub even_ru: f64,
    /// RU/s with each partition given its own busiest window, before steps (`R`).
    pub redistributed_ru: f64,
    /// RU/s of the key's own load spread perfectly over its busiest window (`S`).
    pub spread_ru: f64,
    /// RU/s the hottest partition needs in its busiest window.
    pub hottest_ru: f64,
    /// Why no per-partition setting serves it, when none does.
    pub unserved: Option<String>,
    /// Whether the hot spot stays on the same partitions.
    pub stable: bool,
    /// Whether burst capacity absorbs the hottest partition's peak with the container set
    /// at the spread load.
    pub burst_absorbs: bool,
    /// Whether the container could merge partitions at the RU/s it needs.
    pub merge_possible: bool,
    /// RU/s the key is provisioned at split evenly: its `required_ru`, or (without one) its
    /// even load as the billing model provisions it. A redistribution that needs as much
    /// saves nothing.
    pub required_ru: f64,
}

/// What the service does for `e`'s hot spot at `target`, or `None` when rates are unknown,
/// the account is serverless (none of it applies) or the key is a client-side layout.
pub fn relief(e: &Evaluation, cost: &Cost, target: &Target, prices: &Prices) -> Option<Relief> {
    let w = &e.workload;
    let even = cost.load_ru?;
    let seconds = w.window_seconds?.max(1.0);
    let p = match is_sample(e, prices) {
        true => &w.partition_peaks_net,
        false => &w.partition_peaks,
    };
    if prices.model == Model::Serverless || e.layout.is_some() || p.peak.is_empty() {
        return None;
    }
    let per = seconds * prices.log_share.clamp(f64::MIN_POSITIVE, 1.0);
    let (peaks, spread, constancy, series) = (&p.peak, p.spread, p.constancy, &p.hottest_series);
    let redistributed = (peaks.iter().sum::<f64>() / per).min(even);
    let hottest = peaks.iter().copied().fold(0.0, f64::max) / per;
    let spread = (spread / per).min(redistributed);
    let parts = peaks.len().max(1);
    let billing = prices.billing();
    let history = prices.history_min(billing);
    let provision = |ru: f64| billing.provision(ru.max(history), target.storage_bytes);
    let unserved = unserved(hottest, cost.value_ru);
    // Of P shares the largest is at least 1 / P: two partitions would always pass a half.
    let stable =
        even <= NO_SKEW * spread || constancy >= STABLE_SHARE.max((1.0 + 1.0 / parts as f64) / 2.0);
    let share = provision(spread) / parts as f64;
    let loads: Vec<f64> = series.iter().map(|ru| ru / per).collect();
    let needed = cost.required_ru.unwrap_or_else(|| provision(even));
    Some(Relief {
        needed_ru: unserved.is_none().then(|| provision(redistributed)),
        unserved,
        even_ru: even,
        redistributed_ru: redistributed,
        spread_ru: spread,
        hottest_ru: hottest,
        stable,
        burst_absorbs: bursts_absorbed(&loads, share, seconds),
        merge_possible: merge_possible(
            needed,
            target.storage_bytes,
            parts,
            prices.multi_region_writes,
        ),
        required_ru: needed,
    })
}

/// Why no per-partition setting serves a hottest partition of `hottest` RU/s whose busiest
/// value needs `value` RU/s, if none does: one partition may be given at most 20,000, and
/// above 10,000 it is split into two of half each, so its busiest value must fit a half.
fn unserved(hottest: f64, value: Option<f64>) -> Option<String> {
    let value = value.unwrap_or(0.0);
    match set_partition(hottest) {
        None => Some(format!(
            "its hottest partition needs {hottest:.0} RU/s, past the {PARTITION_TARGET_MAX:.0} one partition may be given"
        )),
        Some(Setting::Splits { each, .. }) if value > each => Some(format!(
            "its hottest partition needs {hottest:.0} RU/s, so it is split into two of {each:.0}, and one value needs {value:.0}"
        )),
        _ if value > PARTITION_RU => Some(format!(
            "one value needs {value:.0} RU/s, past the {PARTITION_RU:.0} a partition serves"
        )),
        _ => None,
    }
}

/// Whether burst capacity carries the hottest partition through its windows' `loads`
/// (RU/s) with `share` RU/s of its own and windows of `seconds`: five minutes of idle
/// capacity to start with, spent where the load passes the share (never above 3,000 RU/s)
/// and refilled, up to five minutes' worth, where it is below.
fn bursts_absorbed(loads: &[f64], share: f64, seconds: f64) -> bool {
    let cap = burst_bucket(share, BURST_SECONDS);
    let mut bucket = cap;
    for &load in loads {
        if load <= share {
            bucket = (bucket + (share - load) * seconds).min(cap);
            continue;
        }
        bucket -= (load - share) * seconds;
        if share >= BURST_RU || load > BURST_RU || bucket < 0.0 {
            return false;
        }
    }
    true
}

/// Whether only throughput redistribution serves the key within the throughput provisioned
/// (`cost.provisioned`): split evenly it needs more, with each partition given its own load
/// it needs no more, and its hot spot holds still so a setting keeps serving it.
pub fn only_redistribution(r: &Relief, cost: &Cost) -> bool {
    let (Some(given), Some(required)) = (cost.provisioned.as_ref(), cost.required_ru) else {
        return false;
    };
    required > given.ru && r.stable && r.needed_ru.is_some_and(|n| n <= given.ru)
}

/// Ends each `HOT_PARTITION` of `findings` with [`sentence`], and a `THROUGHPUT_SHORTFALL`
/// that only redistribution serves (see [`only_redistribution`]) with what it would take.
pub fn annotate(findings: &mut [Finding], r: &Relief, cost: &Cost) {
    for f in (findings.iter_mut()).filter(|f| f.code == FindingCode::HotPartition) {
        f.message = format!("{}; {}", f.message, sentence(r));
    }
    let (Some(given), Some(ru)) = (cost.provisioned.as_ref(), r.needed_ru) else {
        return;
    };
    if !only_redistribution(r, cost) {
        return;
    }
    for f in (findings.iter_mut()).filter(|f| f.code == FindingCode::ThroughputShortfall) {
        f.message = format!(
            "{}; throughput redistribution would serve it within the {:.0} RU/s given, at {ru:.0} (the hot spot stays on the same partitions), so it ranks below the keys that need no redistribution",
            f.message, given.ru
        );
    }
}

/// The sentence `HOT_PARTITION` ends with: whether redistribution would serve the key's
/// hot spot, and at what.
pub fn sentence(r: &Relief) -> String {
    let figures = format!(
        "each partition given its own busiest window needs {:.0} RU/s against {:.0} split evenly",
        r.redistributed_ru, r.even_ru
    );
    match (r.needed_ru, r.stable) {
        (None, _) => format!(
            "throughput redistribution would not serve it: {}",
            r.unserved.as_deref().unwrap_or("no setting serves it")
        ),
        (Some(ru), true) if ru >= r.required_ru => format!(
            "throughput redistribution would save nothing: it needs {ru:.0} RU/s, what the key is provisioned at split evenly (the service's minimums and steps; {figures})"
        ),
        (Some(ru), true) => format!(
            "throughput redistribution would serve it at {ru:.0} RU/s: the hot spot stays on the same partitions ({figures})"
        ),
        (Some(_), false) => format!(
            "throughput redistribution would not serve it: the hot spot moves between partitions, so a setting made for this log's windows ({figures}) misses where the next hot value lands"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GB, Throughput};
    use crate::replay::outcome::PartitionPeaks;

    /// A key over four partitions whose windows last 300 seconds, with each partition's
    /// own busiest window's RU `peaks`, the busiest window's RU over all of them `spread`,
    /// and an even-split need of `even` RU/s, at `storage` GB.
    fn case(peaks: [f64; 4], spread: f64, even: f64) -> (Evaluation, Cost) {
        let mut e = crate::advisor::evaluate::testing::evaluation("/k");
        let w = &mut e.workload;
        // One partition the hottest throughout when one peak stands out, else none.
        let top = peaks.iter().filter(|&&p| p >= peaks[0]).count();
        w.window_seconds = Some(300.0);
        w.partition_peaks = PartitionPeaks {
            peak: peaks.to_vec(),
            spread,
            constancy: 1.0 / top as f64,
            // The hottest partition's windows: its peak, once.
            hottest_series: vec![peaks[0]],
        };
        w.partition_peaks_net = w.partition_peaks.clone();
        let cost = Cost {
            load_ru: Some(even),
            required_ru: Some(even),
            value_ru: None,
            ..crate::advisor::need::testing::cost()
        };
        (e, cost)
    }

    fn run(peaks: [f64; 4], spread: f64, even: f64, gb: u64) -> Relief {
        let (e, cost) = case(peaks, spread, even);
        let target = Target {
            storage_bytes: gb * GB,
            throughput: Throughput::Manual(4_000.0),
        };
        relief(&e, &cost, &target, &Prices::list(target.throughput)).unwrap()
    }

    #[test]
    fn a_hot_spot_that_holds_still_is_served_and_one_that_moves_is_not() {
        // Stable: partition 0 peaks at 600 RU/s (180,000 RU over 300 s) and is the hottest
        // of every window, the others at 100; the busiest window holds 900 RU/s in all.
        // Even split: 4 × 600 = 2,400; each partition its own peak: 600 + 3 × 100 = 900;
        // at 4 GB: 900 RU/s in steps of 100.
        let r = run(
            [180_000.0, 30_000.0, 30_000.0, 30_000.0],
            270_000.0,
            2_400.0,
            4,
        );
        assert!((r.redistributed_ru - 900.0).abs() < 1e-9, "{r:?}");
        assert!(r.stable, "{r:?}");
        assert_eq!(r.needed_ru, Some(900.0));
        // Moving: each partition is the hot one in some window (a quarter of the skew's
        // cost each), at 600 RU/s; a window holds 900. Each its own peak: 2,400.
        let r = run([180_000.0; 4], 270_000.0, 2_400.0, 4);
        assert!((r.redistributed_ru - 2_400.0).abs() < 1e-9, "{r:?}");
        assert!(!r.stable, "{r:?}");
        // Past 20,000 RU/s on one partition (6,300,000 RU over 300 s = 21,000): refused.
        let r = run([6_300_000.0, 0.0, 0.0, 0.0], 6_300_000.0, 84_000.0, 4);
        assert_eq!(r.needed_ru, None, "{r:?}");
        assert!(sentence(&r).contains("past the 20000"), "{}", sentence(&r));
    }

    #[test]
    fn a_redistribution_at_the_storage_floor_saves_nothing_and_says_so() {
        // The stable hot spot above (900 RU/s redistributed against 2,400 split evenly), at
        // 2 TB: 1 RU/s per GB puts both at the floor of 2,000, so the key is provisioned
        // at 2,000 either way (`required_ru` as the bill sets it).
        let (e, mut cost) = case(
            [180_000.0, 30_000.0, 30_000.0, 30_000.0],
            270_000.0,
            1_900.0,
        );
        cost.required_ru = Some(2_000.0);
        let target = Target {
            storage_bytes: 2_000 * GB,
            throughput: Throughput::Manual(4_000.0),
        };
        let r = relief(&e, &cost, &target, &Prices::list(target.throughput)).unwrap();
        assert!(r.stable, "{r:?}");
        assert_eq!(r.needed_ru, Some(2_000.0));
        let s = sentence(&r);
        assert!(
            s.starts_with("throughput redistribution would save nothing: it needs 2000 RU/s"),
            "{s}"
        );
        // At 4 GB the same hot spot is served below its even split.
        let r = run(
            [180_000.0, 30_000.0, 30_000.0, 30_000.0],
            270_000.0,
            2_400.0,
            4,
        );
        assert!(sentence(&r).starts_with("throughput redistribution would serve it at 900 RU/s"));
    }

    #[test]
    fn burst_capacity_absorbs_a_short_excess_of_a_partition_under_3000() {
        // Spread 1,600 RU/s over four partitions: 400 each. A hottest partition at 700 RU/s
        // (the others at 300) for a 300-second window takes 300 × 300 = 90,000 RU beyond its share, less than
        // the 300 × 400 = 120,000 five idle minutes keep: absorbed.
        let r = run(
            [210_000.0, 90_000.0, 90_000.0, 90_000.0],
            480_000.0,
            2_800.0,
            1,
        );
        assert!((r.spread_ru - 1_600.0).abs() < 1e-9, "{r:?}");
        assert!(r.burst_absorbs, "{r:?}");
        // At 900 RU/s (the others at 233): 500 × 300 = 150,000 RU beyond, more than 120,000: not absorbed.
        let r = run(
            [270_000.0, 70_000.0, 70_000.0, 70_000.0],
            480_000.0,
            3_600.0,
            1,
        );
        assert!(!r.burst_absorbs, "{r:?}");
    }

    #[test]
    fn a_burst_lasts_as_long_as_five_idle_minutes_and_refills_only_when_idle() {
        // 400 RU/s of its own, a five-minute bucket of 120,000 RU. At 700 RU/s for one
        // 300-second window: 90,000 spent. For two in a row: 180,000, more than it keeps.
        assert!(bursts_absorbed(&[700.0], 400.0, 300.0));
        assert!(!bursts_absorbed(&[700.0, 700.0], 400.0, 300.0));
        // A quiet window between them (100 RU/s: 90,000 refilled) carries the second.
        assert!(bursts_absorbed(&[700.0, 100.0, 700.0], 400.0, 300.0));
        // Above 3,000 RU/s, or a partition at 3,000 of its own: no burst at all.
        assert!(!bursts_absorbed(&[3_100.0], 2_900.0, 1.0));
        assert!(!bursts_absorbed(&[3_100.0], 3_000.0, 1.0));
    }

    #[test]
    fn a_split_partition_serves_a_value_only_within_its_half() {
        // 16,000 RU/s on one partition: split into two of 8,000; a value of 9,000 does
        // not fit a half, one of 7,000 does; 12,000 on one value never fits.
        assert!(
            unserved(16_000.0, Some(9_000.0))
                .unwrap()
                .contains("two of 8000")
        );
        assert_eq!(unserved(16_000.0, Some(7_000.0)), None);
        assert!(
            unserved(9_000.0, Some(12_000.0))
                .unwrap()
                .contains("past the 10000")
        );
        assert_eq!(unserved(9_000.0, None), None);
    }

    #[test]
    fn merging_is_read_at_the_rus_the_key_needs_and_its_storage() {
        // 2,400 RU/s over four partitions: 600 each; 4 GB: 1 GB each.
        let r = run([180_000.0; 4], 270_000.0, 2_400.0, 4);
        assert!(r.merge_possible, "{r:?}");
        // 200 GB: 50 GB each, past 20.
        let r = run([180_000.0; 4], 270_000.0, 2_400.0, 200);
        assert!(!r.merge_possible, "{r:?}");
    }
}
