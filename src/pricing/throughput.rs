//! How throughput is billed: each billing model is one type implementing
//! [`ThroughputBilling`] (its list price, the least RU/s a container may have, what to
//! provision for a need, and what a month of [`Demand`] costs), and [`Model`] names the one
//! a run assumes. A new model joins as one more type and one more `Model` variant.
//!
//! Prices, minimums and steps are Microsoft's Cosmos DB pricing, provisioned-throughput,
//! autoscale and serverless documentation:
//!
//! * manual: provisioned in steps of 100 RU/s, at least 400 and 1 per GB stored, billed as
//!   provisioned every hour, 0.008 USD per 100 RU/s-hour (0.016 with multi-region writes);
//! * autoscale: a maximum in steps of 1,000, at least 1,000 and 10 per GB; each hour billed
//!   at the highest RU/s the container scaled to in it, never below a tenth of the maximum;
//!   0.012 USD per 100 RU/s-hour (the multi-write price, 0.016, with multi-region writes).
//!   Classic autoscale scales the whole container, in every region, to its hottest
//!   partition; dynamic autoscale (the default for accounts created since 2024-09-25)
//!   scales and bills each physical partition and region on its own;
//! * serverless: 0.25 USD per million RU consumed, one region, at most 5,000 RU/s per
//!   container up to five physical partitions and 1,000 more per further partition, at
//!   most 1 TB.

use crate::engine::GB;

/// List price of 100 RU/s for an hour, manual throughput, one write region (USD).
pub const MANUAL_RU_HOUR: f64 = 0.008;
/// List price of 100 RU/s for an hour with multi-region writes, manual or autoscale, per
/// region (USD).
pub const MULTI_WRITE_RU_HOUR: f64 = 0.016;
/// List price of 100 RU/s for an hour, autoscale, one write region (USD): 1.5× manual.
pub const AUTOSCALE_RU_HOUR: f64 = 0.012;
/// The share of its maximum autoscale bills at least, every hour.
pub const AUTOSCALE_FLOOR: f64 = 0.1;
/// Manual throughput is set in steps of this many RU/s.
pub const MANUAL_STEP: f64 = 100.0;
/// An autoscale maximum is set in steps of this many RU/s.
pub const AUTOSCALE_STEP: f64 = 1_000.0;
/// The least RU/s of one collection of a client-side layout (a container of its own).
pub const MIN_COLLECTION_RU: f64 = 400.0;
/// List price of a million RU consumed, serverless (USD).
pub const SERVERLESS_RU_MILLION: f64 = 0.25;
/// RU/s a serverless container serves at most, up to [`SERVERLESS_PARTITIONS`] partitions.
pub const SERVERLESS_RU: f64 = 5_000.0;
/// Physical partitions the first [`SERVERLESS_RU`] cover.
pub const SERVERLESS_PARTITIONS: usize = 5;
/// RU/s each further physical partition adds to a serverless container.
pub const SERVERLESS_RU_PER_PARTITION: f64 = 1_000.0;
/// The most a serverless container holds: 1 TB.
pub const SERVERLESS_MAX_BYTES: u64 = 1_000 * GB;
/// Hours in a billing month.
pub const HOURS_PER_MONTH: f64 = 730.0;

/// How autoscale scales.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AutoscaleMode {
    /// Classic: the whole container, in every region, to its hottest partition.
    #[default]
    Container,
    /// Dynamic: each physical partition and region on its own.
    Partition,
}

impl AutoscaleMode {
    /// Its name as `--autoscale-mode` takes it.
    pub fn name(self) -> &'static str {
        match self {
            AutoscaleMode::Container => "container",
            AutoscaleMode::Partition => "partition",
        }
    }
}

/// The billing model a run assumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Manual (standard) provisioned throughput.
    Manual,
    /// Autoscale, scaling as its mode says.
    Autoscale(AutoscaleMode),
    /// Serverless: RU consumed.
    Serverless,
}

impl Model {
    /// Its billing rules.
    pub fn billing(self) -> &'static dyn ThroughputBilling {
        match self {
            Model::Manual => &Manual,
            Model::Autoscale(AutoscaleMode::Container) => &Autoscale {
                mode: AutoscaleMode::Container,
            },
            Model::Autoscale(AutoscaleMode::Partition) => &Autoscale {
                mode: AutoscaleMode::Partition,
            },
            Model::Serverless => &Serverless,
        }
    }

    /// The model of the engine's throughput mode.
    pub fn of(throughput: crate::engine::Throughput) -> Model {
        match throughput {
            crate::engine::Throughput::Manual(_) => Model::Manual,
            crate::engine::Throughput::Autoscale(_) => Model::Autoscale(AutoscaleMode::default()),
        }
    }
}

/// What a key asks of its container over a month, as every billing model reads it: the
/// workload's volume hour by hour and how the key spreads it over its partitions. RU/s are
/// at the target's rates (the log's share of the traffic taken out).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Demand {
    /// The clock hours the log spans, as `(volume, hours)`: the RU/s an ideal key needs in
    /// the busiest window of that hour, and how many hours have it. The month is made of
    /// these hours in their proportions (a log shorter than an hour or a day repeats).
    pub hours: Vec<(f64, f64)>,
    /// What the key needs over what an ideal key needs: partitions × its hottest
    /// partition's RU over the ideal RU (1 when perfectly spread, more with skew and
    /// fan-out).
    pub factor: f64,
    /// Each hour of `hours` (same order): the RU/s the key needs in it, partitions × the
    /// hottest partition of its busiest window, so that a hot spot that moves from
    /// partition to partition costs what each hour needs. Empty: `factor` × the volume.
    pub needs: Vec<f64>,
    /// Each physical partition's RU over the ideal RU: its RU/s at an hour's volume.
    pub partitions: Vec<f64>,
    /// The same for the writes alone: what each partition serves in every other region.
    pub partition_writes: Vec<f64>,
    /// Each clock hour's physical partitions by their own RU/s in it, as `(sketch, hours)`
    /// (see [`crate::replay::outcome::HourLoads`]: `(RU/s, partitions)` buckets): what
    /// autoscale by partition bills in the region serving the reads. Empty: each
    /// partition's share of the whole log at each hour's volume.
    pub partition_hours: Vec<(Vec<(f64, f64)>, f64)>,
    /// RU the key consumes over the ideal RU (fan-out included): serverless's bill.
    pub consumed: f64,
    /// The workload's mean volume over the log (ideal RU/s).
    pub mean_volume: f64,
    /// Bytes stored.
    pub storage_bytes: u64,
}

impl Demand {
    /// The RU/s the key needs in its busiest hour (partitions × its hottest partition).
    pub fn peak(&self) -> f64 {
        (0..self.hours.len())
            .map(|i| self.need_at(i))
            .fold(0.0, f64::max)
    }

    /// The RU/s the key needs in hour `i` of `hours`.
    pub fn need_at(&self, i: usize) -> f64 {
        match self.needs.get(i) {
            Some(&n) => n,
            None => self.factor * self.hours.get(i).map_or(0.0, |h| h.0),
        }
    }

    /// The mean over the log's hours of `bill` of each hour's `(volume, need)`.
    pub fn hourly_mean(&self, bill: impl Fn(f64, f64) -> f64) -> f64 {
        let hours: f64 = self.hours.iter().map(|h| h.1).sum();
        let total: f64 = (self.hours.iter().enumerate())
            .map(|(i, &(v, n))| bill(v, self.need_at(i)) * n)
            .sum();
        total / hours.max(f64::MIN_POSITIVE)
    }

    /// Clock hours the log spans.
    pub fn span_hours(&self) -> f64 {
        self.hours.iter().map(|h| h.1).sum()
    }

    /// The clock hours windows of `seconds` each span, the first starting at `start`
    /// (seconds since the epoch), window `i` with volume `volumes[i]`, as `(volume, hours)`:
    /// an hour several windows touch takes the busiest of them, the hours inside one window
    /// its volume (a window longer than an hour says nothing finer).
    pub fn clock_hours(volumes: &[f64], start: i64, seconds: f64) -> Vec<(f64, f64)> {
        let mut edges: std::collections::BTreeMap<i64, f64> = Default::default();
        let mut hours = Vec::new();
        for (i, &v) in volumes.iter().enumerate() {
            let t0 = start as f64 + i as f64 * seconds;
            let h0 = (t0 / 3_600.0).floor() as i64;
            let h1 = (((t0 + seconds) / 3_600.0).ceil() as i64 - 1).max(h0);
            for h in [h0, h1] {
                let e = edges.entry(h).or_insert(0.0);
                *e = e.max(v);
            }
            if h1 - h0 > 1 {
                hours.push((v, (h1 - h0 - 1) as f64));
            }
        }
        hours.extend(edges.into_values().map(|v| (v, 1.0)));
        hours
    }

    /// The same demand with every RU figure of the key times `k` (a container that serves
    /// part of the key's load: the source of a global secondary index).
    pub fn scaled(&self, k: f64) -> Demand {
        let times = |v: &Vec<f64>| v.iter().map(|x| x * k).collect();
        let sketch = |v: &Vec<(f64, f64)>| v.iter().map(|&(ru, n)| (ru * k, n)).collect();
        Demand {
            factor: self.factor * k,
            needs: self.needs.iter().map(|n| n * k).collect(),
            partition_hours: (self.partition_hours.iter())
                .map(|(loads, hours)| (sketch(loads), *hours))
                .collect(),
            partitions: times(&self.partitions),
            partition_writes: times(&self.partition_writes),
            consumed: self.consumed * k,
            ..self.clone()
        }
    }
}

/// A way Cosmos DB bills throughput.
pub trait ThroughputBilling: Sync {
    /// Its name in the report (`manual`, `autoscale`, `serverless`).
    fn name(&self) -> &'static str;

    /// List price of 100 RU/s for an hour (USD), with one write region or several.
    fn list_ru_hour(&self, multi_region_writes: bool) -> f64;

    /// The least RU/s (an autoscale maximum) a container of `storage_bytes` may be given.
    fn min_ru(&self, storage_bytes: u64) -> f64;

    /// What to provision for a need of `ru` RU/s: at least the minimum, rounded up to the
    /// model's step.
    fn provision(&self, ru: f64, storage_bytes: u64) -> f64;

    /// The least RU/s (an autoscale maximum) a container that once had `highest` may come
    /// down to: a hundredth of the highest manual throughput, a tenth of the highest
    /// autoscale maximum; nothing serverless.
    fn history_min(&self, highest: f64) -> f64;

    /// The least RU/s billed an hour for a container of `storage_bytes`, whatever its load.
    fn least_billed(&self, storage_bytes: u64) -> f64 {
        self.min_ru(storage_bytes)
    }

    /// The RU/s billed on average over the month's hours, all regions together, for
    /// `demand` with `provisioned` RU/s (an autoscale maximum).
    fn billed_ru(&self, demand: &Demand, provisioned: f64, regions: u32) -> f64;

    /// USD a month for `demand` with `provisioned` RU/s at `price` per 100 RU/s-hour.
    fn monthly(&self, demand: &Demand, provisioned: f64, price: &RuPrice) -> f64 {
        let ru = self.billed_ru(demand, provisioned, price.regions);
        ru / 100.0 * price.ru_hour * HOURS_PER_MONTH * (1.0 - price.discount)
    }

    /// The most RU/s a container with `provisioned` RU/s over `partitions` physical
    /// partitions serves.
    fn capacity(&self, provisioned: f64, _partitions: usize) -> f64 {
        provisioned
    }
}

/// What a run pays for throughput: the price of 100 RU/s for an hour, a million RU
/// (serverless), the regions and the reserved-capacity discount.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuPrice {
    /// USD per 100 RU/s-hour.
    pub ru_hour: f64,
    /// USD per million RU (serverless).
    pub ru_million: f64,
    /// Regions holding the container.
    pub regions: u32,
    /// The share taken off throughput by reserved capacity.
    pub discount: f64,
}

/// `ru` rounded up to a multiple of `step`.
pub fn round_up(ru: f64, step: f64) -> f64 {
    (ru / step - 1e-9).ceil().max(0.0) * step
}

/// A key's need `ru` rounded up to a multiple of `step`, past which it must go by more
/// than [`STEP_SLACK`] of itself to need the next step (the service's minimums are
/// rounded exactly: see [`round_up`]).
pub fn round_up_need(ru: f64, step: f64) -> f64 {
    let up = round_up(ru, step);
    let below = up - step;
    match below > 0.0 && ru <= below * (1.0 + STEP_SLACK) {
        true => below,
        false => up,
    }
}

/// How far past a step a need may go and still be served at it: 0.1%, finer than the
/// charges are known (the published table's create costs 4.95 RU where the example says 5)
/// and than the burst capacity a partition saves from its quieter seconds absorbs. A
/// partition that needs 3,000.1 RU/s at its busiest (3,000 reads a second and a create a
/// minute) is served by an autoscale maximum of 6,000 for two partitions, not 7,000.
pub const STEP_SLACK: f64 = 1e-3;

/// Manual throughput: the RU/s provisioned, billed as provisioned every hour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Manual;

impl ThroughputBilling for Manual {
    fn name(&self) -> &'static str {
        "manual"
    }

    fn list_ru_hour(&self, multi_region_writes: bool) -> f64 {
        match multi_region_writes {
            true => MULTI_WRITE_RU_HOUR,
            false => MANUAL_RU_HOUR,
        }
    }

    /// 400, and 1 per GB.
    fn min_ru(&self, storage_bytes: u64) -> f64 {
        let gb = storage_bytes as f64 / GB as f64;
        gb.max(400.0)
    }

    fn provision(&self, ru: f64, storage_bytes: u64) -> f64 {
        round_up_need(ru, MANUAL_STEP).max(round_up(self.min_ru(storage_bytes), MANUAL_STEP))
    }

    /// A hundredth of the highest ever provisioned, in steps of 100.
    fn history_min(&self, highest: f64) -> f64 {
        round_up(highest / 100.0, MANUAL_STEP)
    }

    fn billed_ru(&self, _demand: &Demand, provisioned: f64, regions: u32) -> f64 {
        provisioned * regions.max(1) as f64
    }
}

/// Autoscale: a maximum RU/s, each hour billed at the highest RU/s reached in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Autoscale {
    /// How it scales.
    pub mode: AutoscaleMode,
}

impl ThroughputBilling for Autoscale {
    fn name(&self) -> &'static str {
        "autoscale"
    }

    fn list_ru_hour(&self, multi_region_writes: bool) -> f64 {
        match multi_region_writes {
            true => MULTI_WRITE_RU_HOUR,
            false => AUTOSCALE_RU_HOUR,
        }
    }

    /// A maximum of 1,000, and 10 per GB.
    fn min_ru(&self, storage_bytes: u64) -> f64 {
        let gb = storage_bytes as f64 / GB as f64;
        (gb * 10.0).max(1_000.0)
    }

    fn provision(&self, ru: f64, storage_bytes: u64) -> f64 {
        round_up_need(ru, AUTOSCALE_STEP).max(round_up(self.min_ru(storage_bytes), AUTOSCALE_STEP))
    }

    /// A tenth of the highest maximum ever set, in the maximum's steps.
    fn history_min(&self, highest: f64) -> f64 {
        round_up(highest / 10.0, AUTOSCALE_STEP)
    }

    /// A tenth of the least maximum.
    fn least_billed(&self, storage_bytes: u64) -> f64 {
        AUTOSCALE_FLOOR * self.provision(0.0, storage_bytes)
    }

    /// Container: every hour, in every region, the key's need in that hour, at least a
    /// tenth of the maximum. Partition: every hour, each partition's own load (at least a
    /// tenth of its share of the maximum) in the region serving the reads, the busiest of
    /// them at least the hour's need over the partitions (the hour's hottest partition,
    /// wherever it is), and its writes alone in every other region.
    fn billed_ru(&self, demand: &Demand, max: f64, regions: u32) -> f64 {
        let regions = regions.max(1) as f64;
        let floor = AUTOSCALE_FLOOR * max;
        match self.mode {
            AutoscaleMode::Container => {
                regions * demand.hourly_mean(|_, need| need.clamp(floor, max))
            }
            AutoscaleMode::Partition => {
                let p = demand.partitions.len().max(1) as f64;
                let each = |shares: &[f64], v: f64, hot: f64| -> f64 {
                    let mut loads: Vec<f64> = shares.iter().map(|s| s * v).collect();
                    // The hour's hottest partition in place of the log's hottest.
                    let top = (0..loads.len()).max_by(|&a, &b| loads[a].total_cmp(&loads[b]));
                    if let Some(t) = top {
                        loads[t] = loads[t].max(hot);
                    }
                    let own = loads.iter().map(|l| l.clamp(floor / p, max / p));
                    own.sum::<f64>() + (p - shares.len() as f64).max(0.0) * floor / p
                };
                let writes = demand.hourly_mean(|v, _| each(&demand.partition_writes, v, 0.0));
                let reads = match demand.partition_hours.is_empty() {
                    true => demand.hourly_mean(|v, need| each(&demand.partitions, v, need / p)),
                    false => own_hours(&demand.partition_hours, floor / p, max / p),
                };
                reads + (regions - 1.0) * writes
            }
        }
    }
}

/// The mean over `hours` (each `(sketch, hours)`) of the sum over its partitions of each
/// one's own RU/s held between `floor` and `ceiling`.
fn own_hours(hours: &[(Vec<(f64, f64)>, f64)], floor: f64, ceiling: f64) -> f64 {
    let span: f64 = hours.iter().map(|h| h.1).sum();
    let total: f64 = (hours.iter())
        .map(|(loads, n)| {
            n * loads
                .iter()
                .map(|&(ru, k)| k * ru.clamp(floor, ceiling))
                .sum::<f64>()
        })
        .sum();
    total / span.max(f64::MIN_POSITIVE)
}

/// Serverless: no provisioned throughput, RU consumed billed by the million.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Serverless;

impl ThroughputBilling for Serverless {
    fn name(&self) -> &'static str {
        "serverless"
    }

    fn list_ru_hour(&self, _multi_region_writes: bool) -> f64 {
        0.0
    }

    fn min_ru(&self, _storage_bytes: u64) -> f64 {
        0.0
    }

    /// The need itself: nothing is provisioned.
    fn provision(&self, ru: f64, _storage_bytes: u64) -> f64 {
        ru.max(0.0).ceil()
    }

    fn history_min(&self, _highest: f64) -> f64 {
        0.0
    }

    fn least_billed(&self, _storage_bytes: u64) -> f64 {
        0.0
    }

    /// The mean RU/s consumed (one region).
    fn billed_ru(&self, demand: &Demand, _provisioned: f64, _regions: u32) -> f64 {
        demand.consumed * demand.mean_volume
    }

    /// RU consumed a month at `price` per million.
    fn monthly(&self, demand: &Demand, provisioned: f64, price: &RuPrice) -> f64 {
        let per_second = self.billed_ru(demand, provisioned, 1);
        per_second * 3_600.0 * HOURS_PER_MONTH / 1e6 * price.ru_million
    }

    /// 5,000 RU/s up to five partitions, 1,000 more for each further one.
    fn capacity(&self, _provisioned: f64, partitions: usize) -> f64 {
        let more = partitions.saturating_sub(SERVERLESS_PARTITIONS) as f64;
        SERVERLESS_RU + more * SERVERLESS_RU_PER_PARTITION
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// List prices with `ru_hour` per 100 RU/s-hour, one region, no discount.
    fn one_region(ru_hour: f64) -> RuPrice {
        RuPrice {
            ru_hour,
            ru_million: SERVERLESS_RU_MILLION,
            regions: 1,
            discount: 0.0,
        }
    }

    /// 24 hours: two busy hours at 9,000 RU/s of volume, the rest at 500.
    fn day(factor: f64) -> Demand {
        let mut hours = vec![(500.0, 22.0)];
        hours.push((9_000.0, 2.0));
        Demand {
            hours,
            factor,
            needs: Vec::new(),
            partitions: vec![factor / 2.0; 2],
            partition_writes: vec![0.1; 2],
            partition_hours: Vec::new(),
            consumed: 1.0,
            mean_volume: (500.0 * 22.0 + 9_000.0 * 2.0) / 24.0,
            storage_bytes: 10 * GB,
        }
    }

    #[test]
    fn windows_become_clock_hours() {
        // Four windows of 20 minutes from 00:40: hours 0 (one window), 1 (three windows,
        // the busiest counts).
        let h = Demand::clock_hours(&[5.0, 9.0, 1.0, 2.0], 2_400, 1_200.0);
        assert_eq!(h, vec![(5.0, 1.0), (9.0, 1.0)]);
        // Two windows of five hours from 01:00: ten hours, five at each window's volume.
        let h = Demand::clock_hours(&[4.0, 7.0], 3_600, 18_000.0);
        let total: f64 = h.iter().map(|x| x.1).sum();
        assert_eq!(total, 10.0);
        let busy: f64 = h.iter().filter(|x| x.0 == 7.0).map(|x| x.1).sum();
        assert_eq!(busy, 5.0);
    }

    #[test]
    fn by_partition_each_partition_is_billed_its_own_hour() {
        // Two partitions, a maximum of 6,000 (each between 300 and 3,000): an hour with one
        // at 3,000 and the other at 135, and three hours with both at 135.
        let demand = Demand {
            hours: vec![(3_135.0, 1.0), (270.0, 3.0)],
            partitions: vec![0.5, 0.5],
            partition_hours: vec![
                (vec![(3_000.0, 1.0), (135.0, 1.0)], 1.0),
                (vec![(135.0, 2.0)], 3.0),
            ],
            ..Demand::default()
        };
        let a = Autoscale {
            mode: AutoscaleMode::Partition,
        };
        // (3,000 + 300 + 3 × 600) / 4 = 1,275.
        assert!((a.billed_ru(&demand, 6_000.0, 1) - 1_275.0).abs() < 1e-9);
    }

    #[test]
    fn a_container_comes_down_only_so_far_from_its_highest_throughput() {
        // Manual: a hundredth of the highest ever; autoscale: a tenth of the highest
        // maximum, in its steps of 1,000; serverless has no history.
        assert_eq!(Manual.history_min(100_000.0), 1_000.0);
        assert_eq!(Manual.history_min(20_000.0), 200.0);
        assert_eq!(Manual.history_min(100_100.0), 1_100.0);
        assert_eq!(Autoscale::default().history_min(100_000.0), 10_000.0);
        assert_eq!(Autoscale::default().history_min(15_000.0), 2_000.0);
        assert_eq!(Serverless.history_min(1e6), 0.0);
    }

    #[test]
    fn steps_and_minimums() {
        assert_eq!(Manual.provision(401.0, GB), 500.0);
        assert_eq!(Manual.provision(10.0, 1_000 * GB), 1_000.0);
        let a = Autoscale::default();
        assert_eq!(a.provision(2_316.0, GB), 3_000.0);
        // Within 0.1% past a step: that step; beyond it, the next.
        assert_eq!(a.provision(6_000.2, GB), 6_000.0);
        assert_eq!(a.provision(6_007.0, GB), 7_000.0);
        assert_eq!(Manual.provision(1_000.9, GB), 1_000.0);
        assert_eq!(Manual.provision(1_001.1, GB), 1_100.0);
        // A need on a step is that step, however large.
        assert_eq!(Manual.provision(100_000.0, GB), 100_000.0);
        assert_eq!(Manual.provision(100_050.0, GB), 100_000.0);
        assert_eq!(Manual.provision(100_150.0, GB), 100_100.0);
        assert_eq!(Manual.provision(2_003.0, GB), 2_100.0);
        // The minimums are the service's: 100.09 GB needs an autoscale maximum of 2,000.
        assert_eq!(a.provision(10.0, 100_090 * GB / 1_000), 2_000.0);
        assert_eq!(a.provision(10.0, 1_000 * GB), 10_000.0);
        // An idle 1 TB autoscale container: 1,000 RU/s an hour, 87.60 USD a month a region.
        assert_eq!(a.least_billed(1_000 * GB), 1_000.0);
        let idle = Demand {
            hours: vec![(0.0, 1.0)],
            factor: 1.0,
            ..Demand::default()
        };
        let price = one_region(AUTOSCALE_RU_HOUR);
        assert!((a.monthly(&idle, 10_000.0, &price) - 87.60).abs() < 1e-9);
    }

    #[test]
    fn autoscale_bills_each_hour_at_its_peak_and_never_below_a_tenth() {
        let a = Autoscale::default();
        let d = day(1.0);
        let max = a.provision(d.peak(), d.storage_bytes);
        assert_eq!(max, 9_000.0);
        // 22 hours at the floor (900), two at 9,000: a mean of 1,575 RU/s, two regions.
        let expected = 2.0 * (22.0 * 900.0 + 2.0 * 9_000.0) / 24.0;
        assert!((a.billed_ru(&d, max, 2) - expected).abs() < 1e-9);
        // Per partition: each of two partitions at half the volume (floor 450 each); the
        // other region serves writes alone (0.1 of the volume, floored).
        let p = Autoscale {
            mode: AutoscaleMode::Partition,
        };
        let write_region = (22.0 * 900.0 + 2.0 * 9_000.0) / 24.0;
        let other = 2.0 * (22.0 * 450.0 + 2.0 * 900.0) / 24.0;
        assert!((p.billed_ru(&d, max, 2) - (write_region + other)).abs() < 1e-9);
        // Manual bills what it provisions, every hour, in every region.
        assert_eq!(Manual.billed_ru(&d, 9_000.0, 2), 18_000.0);
    }

    #[test]
    fn each_hour_bills_its_own_need() {
        // Two partitions, an even spread over the log; hour 1 needs 4,000 (its hottest
        // partition at 2,000), hour 2 needs 1,000: the peak is the first hour's, and
        // autoscale bills each hour at its own need.
        let d = Demand {
            hours: vec![(1_000.0, 1.0), (1_000.0, 1.0)],
            factor: 1.0,
            needs: vec![4_000.0, 1_000.0],
            partitions: vec![0.5, 0.5],
            partition_writes: vec![0.0, 0.0],
            ..Demand::default()
        };
        assert_eq!(d.peak(), 4_000.0);
        let classic = Autoscale::default();
        assert_eq!(classic.billed_ru(&d, 4_000.0, 1), (4_000.0 + 1_000.0) / 2.0);
        // By partition: hour 1, the hot partition at 2,000 and the other at 500; hour 2,
        // both at 500.
        let dynamic = Autoscale {
            mode: AutoscaleMode::Partition,
        };
        assert_eq!(dynamic.billed_ru(&d, 4_000.0, 1), (2_500.0 + 1_000.0) / 2.0);
    }

    #[test]
    fn the_published_dynamic_scaling_example() {
        // 1,000 RU/s over two partitions, two regions, for an hour: in the write region P1
        // at 500 (50 of them writes) and P2 at 200 (reads); the other region serves P1's
        // 50 RU/s of replicated writes. Classic: both regions at 1,000, 2,000 RU/s. By
        // partition: 500 + 200 + 50 + 50 (P2's floor, a tenth of its 500) = 800; the
        // published 900 also has 100 RU/s of reads served in the read region.
        let d = Demand {
            hours: vec![(1_000.0, 1.0)],
            factor: 1.0,
            partitions: vec![0.5, 0.2],
            partition_writes: vec![0.05, 0.0],
            ..Demand::default()
        };
        let classic = Autoscale::default();
        let dynamic = Autoscale {
            mode: AutoscaleMode::Partition,
        };
        assert_eq!(classic.billed_ru(&d, 1_000.0, 2), 2_000.0);
        assert_eq!(dynamic.billed_ru(&d, 1_000.0, 2), 800.0);
    }

    #[test]
    fn serverless_bills_ru_consumed_and_serves_by_its_partitions() {
        let d = day(1.0);
        let price = one_region(0.0);
        let ru_month = d.mean_volume * 3_600.0 * 730.0;
        assert!((Serverless.monthly(&d, 0.0, &price) - ru_month / 1e6 * 0.25).abs() < 1e-9);
        assert_eq!(Serverless.capacity(0.0, 1), 5_000.0);
        assert_eq!(Serverless.capacity(0.0, 5), 5_000.0);
        assert_eq!(Serverless.capacity(0.0, 20), 20_000.0);
    }
}
