//! What the service itself does for a hot spot without a new key
//! (`cosmos-facts.md` §20, from the redistribution, burst-capacity and merge pages):
//!
//! * throughput redistribution: RU/s set partition by partition (manual or autoscale), one
//!   partition up to 20,000; above 10,000 it first gets 10,000 and is then split in two,
//!   each with half; the container's throughput becomes the sum of the partitions';
//! * burst capacity: a partition provisioned under 3,000 RU/s keeps up to 5 minutes of
//!   its idle throughput and spends it at up to 3,000 RU/s;
//! * merge: a container under 3,000 RU/s and 20 GB per partition on average, with one
//!   write region, may merge partitions.

use crate::engine::GB;

/// RU/s a physical partition serves at most.
pub const PARTITION_RU: f64 = 10_000.0;
/// RU/s one partition may be set to at most (above [`PARTITION_RU`] it is split).
pub const PARTITION_TARGET_MAX: f64 = 20_000.0;
/// Seconds of idle throughput a partition keeps for bursts.
pub const BURST_SECONDS: f64 = 300.0;
/// RU/s a burst is spent at, at most; partitions provisioned at it or above keep none.
pub const BURST_RU: f64 = 3_000.0;
/// A container may merge partitions under this many RU/s per partition on average.
pub const MERGE_RU: f64 = 3_000.0;
/// ... and under this many bytes per partition on average.
pub const MERGE_BYTES: u64 = 20 * GB;

/// What setting one partition to some RU/s does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setting {
    /// The partition takes it as it is (at most 10,000).
    Holds(f64),
    /// It first takes 10,000, then is split in two, each with half.
    Splits {
        /// RU/s it has at once.
        first: f64,
        /// RU/s each of the two has after the split.
        each: f64,
    },
}

/// Setting one partition to `ru`: `None` past 20,000, which the service refuses.
pub fn set_partition(ru: f64) -> Option<Setting> {
    match ru {
        r if r > PARTITION_TARGET_MAX || r.is_nan() => None,
        r if r > PARTITION_RU => Some(Setting::Splits {
            first: PARTITION_RU,
            each: r / 2.0,
        }),
        r => Some(Setting::Holds(r.max(0.0))),
    }
}

/// The container's throughput once each partition is set to `targets`: their sum,
/// whatever it had.
pub fn redistributed(targets: &[f64]) -> f64 {
    targets.iter().sum()
}

/// RU a partition provisioned at `ru` RU/s keeps for bursts after `idle_seconds` unused:
/// at most five minutes' worth, none at 3,000 RU/s or more.
pub fn burst_bucket(ru: f64, idle_seconds: f64) -> f64 {
    match ru < BURST_RU {
        true => ru.max(0.0) * idle_seconds.clamp(0.0, BURST_SECONDS),
        false => 0.0,
    }
}

/// Seconds a burst of `bucket` RU lasts spent at `ru` RU/s (at most 3,000).
pub fn burst_seconds(bucket: f64, ru: f64) -> f64 {
    bucket / ru.clamp(f64::MIN_POSITIVE, BURST_RU)
}

/// Whether a container of `ru` RU/s and `bytes` over `partitions` partitions may merge
/// them: under 3,000 RU/s and 20 GB each on average, one write region.
pub fn merge_possible(ru: f64, bytes: u64, partitions: usize, multi_region_writes: bool) -> bool {
    let p = partitions.max(1) as f64;
    partitions > 1
        && !multi_region_writes
        && ru / p < MERGE_RU
        && (bytes as f64) / p < MERGE_BYTES as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_examples() {
        // 100 RU/s idle for five minutes: 30,000 RU, ten seconds at 3,000 RU/s; idle
        // longer keeps no more; at 3,000 RU/s a partition keeps none.
        assert_eq!(burst_bucket(100.0, 300.0), 30_000.0);
        assert_eq!(burst_bucket(100.0, 3_600.0), 30_000.0);
        assert_eq!(burst_seconds(30_000.0, 3_000.0), 10.0);
        assert_eq!(burst_seconds(30_000.0, 9_000.0), 10.0);
        assert_eq!(burst_bucket(3_000.0, 300.0), 0.0);
        // 6,000 RU/s over three partitions set to 2,000, 4,000 and 1,000: 7,000.
        assert_eq!(redistributed(&[2_000.0, 4_000.0, 1_000.0]), 7_000.0);
        // 15,000 on one partition: 10,000 at once, then two of 7,500; past 20,000 refused.
        assert_eq!(
            set_partition(15_000.0),
            Some(Setting::Splits {
                first: 10_000.0,
                each: 7_500.0
            })
        );
        assert_eq!(set_partition(4_000.0), Some(Setting::Holds(4_000.0)));
        assert_eq!(set_partition(20_001.0), None);
    }

    #[test]
    fn merging_needs_little_throughput_and_data_per_partition_and_one_write_region() {
        // 17 partitions of 1,000 RU/s and 5 GB: 59 RU/s and 0.3 GB each.
        assert!(merge_possible(1_000.0, 5 * GB, 17, false));
        assert!(!merge_possible(1_000.0, 5 * GB, 17, true));
        // 60,000 RU/s over 17: 3,529 each; 400 GB over 17: 23.5 GB each.
        assert!(!merge_possible(60_000.0, 5 * GB, 17, false));
        assert!(!merge_possible(1_000.0, 400 * GB, 17, false));
        // One partition has nothing to merge.
        assert!(!merge_possible(400.0, GB, 1, false));
    }
}
