//! What a replay found for one candidate: its operations by route class, the RU charged
//! and what the key needs provisioned, its write spread, and per logged operation what its
//! reads cost.

/// What replaying the workload found for one candidate (operations weighted by `count`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkloadStats {
    /// Read operations (queries and point reads).
    pub reads: u64,
    /// Reads reaching one key value.
    pub single: u64,
    /// Reads reaching prefixes or sets of values.
    pub targeted: u64,
    /// Reads reaching every partition.
    pub fan_out: u64,
    /// Physical partitions reached, summed over reads.
    pub partitions_reached: u64,
    /// Write operations (logged, or sample documents as creates).
    pub writes: u64,
    /// Whether the writes are the sample documents (the log had none).
    pub writes_from_sample: bool,
    /// Writes that change an item's key value under the same id.
    pub key_updated: u64,
    /// Items (ids) whose key value a logged write changed.
    pub moved_items: u64,
    /// Items (ids) the log writes.
    pub written_items: u64,
    /// The busiest single key value of the busiest window, net of chance (logged
    /// operations only).
    pub hot_value: Option<super::load::HotValue>,
    /// Batches whose operations span several logical partitions.
    pub cross_partition_batches: u64,
    /// Batches seen.
    pub batches: u64,
    /// Over runs of a few hundred consecutive writes, the physical partitions they reach
    /// relative to what the same writes placed at random would reach (1.0: as spread as
    /// chance; near 0: one partition at a time).
    pub write_spread: f64,
    /// The part of `write_spread` measured by load in each window (1 when there is none):
    /// see [`super::load`].
    pub write_spread_load: f64,
    /// Total RU charged.
    pub ru: f64,
    /// RU charged to reads.
    pub read_ru: f64,
    /// What the cost model charges the logged writes by their kind (creates, replaces,
    /// patches, deletes; observed charges aside): what the same writes cost a container
    /// that copies this one (a global secondary index).
    pub write_ru_model: f64,
    /// RU that reads visiting every partition spend on partitions beyond the first.
    pub fan_out_ru: f64,
    /// Over the whole replay: partitions × the hottest partition's RU. Provisioned RU/s
    /// divide evenly, so this is what the key needs provisioned for the workload's mix
    /// (logged operations only when there is a log; else the sample's documents as
    /// creates).
    pub need_ru: f64,
    /// The same for an ideal key: its single-partition charges, spread perfectly.
    pub ideal_need_ru: f64,
    /// The ideal RU of the busiest window (by ideal RU, the same for every key): the
    /// workload's peak, for RU/s.
    pub peak_ideal_ru: f64,
    /// `need_ru` net of chance: the hottest partition's excess over the mean shrunk by the
    /// variance its own lines give it (see [`super::load::net_of_chance`]).
    pub need_ru_net: f64,
    /// `peak_ideal_ru` net of chance, likewise.
    pub peak_ideal_ru_net: f64,
    /// Whether the log was thinned to stay within `--memory` (its kept lines stand for
    /// several).
    pub log_thinned: bool,
    /// The RU counted in `need_ru`, all partitions together.
    pub counted_ru: f64,
    /// Seconds per replay window, when every logged operation has a timestamp (rates are
    /// known).
    pub window_seconds: Option<f64>,
    /// When the first replay window starts (seconds since the epoch), with
    /// `window_seconds`: the windows' clock hours.
    pub log_start: Option<i64>,
    /// How many windows' worth of time the log covers (its first and last windows may be
    /// covered in part; see [`super::Clock`]), when it has times; 0 otherwise.
    pub covered_windows: f64,
    /// Each replay window's ideal RU (the workload's volume in it, the same for every key),
    /// as counted.
    pub window_ideal: Vec<f64>,
    /// The same net of chance (see [`super::load::net_of_chance`]).
    pub window_ideal_net: Vec<f64>,
    /// Each replay window's need: partitions × the window's hottest partition's RU (a
    /// hot spot that moves from window to window is not averaged away), beyond what
    /// chance gives the busiest partition of a window, against the whole log's shares as
    /// counted.
    pub window_need: Vec<f64>,
    /// The same against the whole log's shares net of chance.
    pub window_need_net: Vec<f64>,
    /// Each physical partition's RU over the whole replay (what `need_ru` counts).
    pub partition_ru: Vec<f64>,
    /// The same net of chance.
    pub partition_ru_net: Vec<f64>,
    /// Each physical partition's RU of writes over the whole replay: what every other
    /// region's copy of it serves (writes are replicated, reads are served where they
    /// arrive).
    pub partition_write_ru: Vec<f64>,
    /// The same net of chance.
    pub partition_write_ru_net: Vec<f64>,
    /// What throughput set partition by partition meets, against the whole log's shares
    /// as counted (see [`PartitionPeaks`]).
    pub partition_peaks: PartitionPeaks,
    /// The same against the whole log's shares net of chance.
    pub partition_peaks_net: PartitionPeaks,
    /// Each clock hour's physical partitions, by their own RU in the hour (the busiest of
    /// the hour's windows for each, judged as in `partition_peaks`): what autoscale by
    /// partition bills. Empty without times.
    pub hour_loads: Vec<HourLoads>,
    /// Per logged operation (in log order): the RU its reads were charged (times `count`)
    /// and whether any of them visited every partition. Writes: zero.
    pub per_op: Vec<OpCharge>,
    /// The worst window's usable fraction relative to what the same operations placed at
    /// random would allow (1.0: no hotter than chance).
    pub usable_relative: f64,
}

impl WorkloadStats {
    /// Fraction of reads in a class.
    pub fn fraction(&self, n: u64) -> f64 {
        if self.reads == 0 {
            0.0
        } else {
            n as f64 / self.reads as f64
        }
    }

    /// Physical partitions reached per read.
    pub fn avg_partitions(&self) -> f64 {
        if self.reads == 0 {
            0.0
        } else {
            self.partitions_reached as f64 / self.reads as f64
        }
    }
}

/// What one logged operation's reads cost under a key.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OpCharge {
    /// RU charged to its reads, times its `count` (single precision: eight bytes an
    /// operation and candidate).
    pub ru: f32,
    /// Its reads, times its `count` (a weight: single precision is plenty for shares).
    pub reads: f32,
    /// Whether a read of it visited every physical partition (of more than one).
    pub everywhere: bool,
}

/// Over the replay's windows, each physical partition's RU judged beyond its share of the
/// window only by what chance would not give it: what throughput set partition by
/// partition meets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PartitionPeaks {
    /// Each partition's RU in its own busiest window: what it must be given.
    pub peak: Vec<f64>,
    /// The busiest window's RU over every partition: the key's own load spread perfectly.
    pub spread: f64,
    /// How constantly one partition is the window's hottest: the share of the windows'
    /// skew cost (partitions × the hottest − the window's RU) whose hottest partition is
    /// the one most often hottest (1 without skew).
    pub constancy: f64,
    /// The RU of the partition with the busiest own window, window by window: what burst
    /// capacity is judged on.
    pub hottest_series: Vec<f64>,
}

/// One clock hour's (or one window's, when windows are longer) physical partitions by
/// their own RU, as a sketch: sorted from the busiest, at most [`HourLoads::BUCKETS`]
/// `(mean RU, partitions)` buckets of equal counts (each partition its own bucket when
/// they are fewer).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HourLoads {
    /// Clock hours it stands for (1, or a longer window's hours).
    pub hours: f64,
    /// Against the whole log's shares as counted.
    pub counted: Vec<(f64, f64)>,
    /// Net of chance.
    pub net: Vec<(f64, f64)>,
}

impl HourLoads {
    /// Buckets a sketch keeps at most: a bill that clamps each partition between a floor
    /// and a ceiling errs only on the buckets that straddle them.
    pub const BUCKETS: usize = 64;

    /// The sketch of `loads`.
    pub fn sketch(mut loads: Vec<f64>) -> Vec<(f64, f64)> {
        loads.sort_by(|a, b| b.total_cmp(a));
        let per = loads.len().div_ceil(Self::BUCKETS).max(1);
        (loads.chunks(per))
            .map(|c| (c.iter().sum::<f64>() / c.len() as f64, c.len() as f64))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::HourLoads;

    #[test]
    fn a_sketch_keeps_few_partitions_whole_and_many_in_equal_buckets() {
        assert_eq!(
            HourLoads::sketch(vec![1.0, 3.0, 2.0]),
            vec![(3.0, 1.0), (2.0, 1.0), (1.0, 1.0)]
        );
        // 128 partitions, loads 0..127: 64 buckets of two, the busiest (127 + 126) / 2.
        let s = HourLoads::sketch((0..128).map(f64::from).collect());
        assert_eq!(s.len(), HourLoads::BUCKETS);
        assert_eq!(s[0], (126.5, 2.0));
        let total: f64 = s.iter().map(|(ru, n)| ru * n).sum();
        assert_eq!(total, (0..128).sum::<i32>() as f64);
    }
}
