//! What a key needs and what that costs: the RU/s it must provision so that its hottest
//! physical partition is not throttled in the busiest window (throughput divides evenly
//! over partitions), and its monthly bill under the billing model of [`crate::pricing`].
//!
//! * `ru_per_operation`: RU charged per logged operation (or sample create) under the key.
//! * `efficiency` in (0, 1]: what an ideal key needs over what this key needs: the same
//!   operations each at its single-partition charge, spread perfectly, against partitions ×
//!   this key's hottest partition, over the whole log (a window's busiest partition is
//!   partly the chance of when its requests arrived). Fan-out (every query pays
//!   2.5 RU per partition it visits) and hot partitions both lower it; it needs no
//!   timestamps.
//! * the [`Demand`]: with timestamps on the logged operations, each clock hour's volume
//!   (the ideal RU/s of its busiest window, by `--log-share`), what the key needs in it
//!   (partitions × the hottest partition of its busiest window, so that a hot spot that
//!   lands each hour on another partition costs what each hour needs, not what the whole
//!   log's totals average it to) and how the key spreads it over the log (each partition's
//!   share), net of chance when the log is a sample. The month is the log's hours repeated: a log of ten minutes stands for every
//!   hour, one of a day for every day.
//! * `required_ru`: the key's need in its busiest hour (its busiest window's hottest
//!   partition), provisioned as the model provisions
//!   (manual in steps of 100, at least 400 and 1 RU/s per GB; an autoscale maximum in steps
//!   of 1,000, at least 1,000 and 10 per GB; serverless the need itself).
//! * `monthly`: the demand billed a month by the model ([`crate::pricing::throughput`]) and
//!   the target's storage ([`crate::pricing::bill`]).

use super::evaluate::Evaluation;
use crate::pricing::throughput::MIN_COLLECTION_RU;
use crate::pricing::{Demand, Prices, monthly_storage};
use crate::project::target::Target;

/// A candidate's cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    /// Mean RU per operation.
    pub ru_per_operation: f64,
    /// Ideal need over this key's need.
    pub efficiency: f64,
    /// RU/s to provision (an autoscale maximum; serverless: the busiest hour's RU/s), when
    /// rates are known.
    pub required_ru: Option<f64>,
    /// Why `required_ru` is unknown.
    pub unknown_because: Option<String>,
    /// USD per month for throughput (when `required_ru` is known).
    pub monthly_throughput: Option<f64>,
    /// USD per month for storage.
    pub monthly_storage: f64,
    /// What the key needs provisioned for the whole log (partitions × its hottest
    /// partition's RU): comparable between the candidates of one run.
    pub need: f64,
    /// RU/s the busiest single key value needs in the busiest window at the target's rates
    /// (net of chance), when the log's operations have times.
    pub value_ru: Option<f64>,
    /// RU/s the load needs in its busiest hour, before the service's minimums and steps.
    pub load_ru: Option<f64>,
    /// The least RU/s the service allows the target's storage (and a layout's collections),
    /// whatever the load.
    pub minimum_ru: f64,
    /// The demand billed, when rates are known.
    pub demand: Option<Demand>,
    /// The bill for the throughput given, when one is.
    pub provisioned: Option<Provisioned>,
}

/// The throughput a flag or a template gives the container, and its bill.
#[derive(Clone, Debug, PartialEq)]
pub struct Provisioned {
    /// RU/s (an autoscale maximum) billed: the throughput given, at least the storage
    /// minimum.
    pub ru: f64,
    /// Where it comes from.
    pub source: String,
    /// USD a month for it (autoscale: unknown without rates).
    pub monthly_throughput: Option<f64>,
}

impl Cost {
    /// The monthly total: storage, plus throughput when known.
    pub fn monthly_total(&self) -> f64 {
        self.monthly_storage + self.monthly_throughput.unwrap_or(0.0)
    }

    /// What the key needs provisioned before the model's steps: its load or the minimums,
    /// whichever is more (keys compare on it: steps of 1,000 would make 1,001 twice 1,000).
    pub fn need_ru(&self) -> Option<f64> {
        self.load_ru.map(|l| l.max(self.minimum_ru))
    }
}

/// The cost of an evaluated candidate at `target`.
pub fn cost(e: &Evaluation, target: &Target, prices: &Prices) -> Cost {
    let w = &e.workload;
    let ops = w.reads.saturating_add(w.writes).max(1) as f64;
    let need = key_need(e, prices);
    let efficiency = if need > 0.0 {
        (w.ideal_need_ru / need).clamp(f64::MIN_POSITIVE, 1.0)
    } else {
        1.0
    };
    let billing = prices.billing();
    // The container's history: one that had the throughput given may come down only so far.
    let history = prices.history_min(billing);
    let minimum_ru = (billing.min_ru(target.storage_bytes))
        .max(history)
        .max(collections_minimum(e));
    let demand = demand(e, target, prices);
    let load_ru = demand.as_ref().ok().map(Demand::peak);
    let required_ru = load_ru.map(|l| {
        billing
            .provision(l.max(history), target.storage_bytes)
            .max(collections_minimum(e))
    });
    let monthly_throughput = match (&demand, required_ru) {
        (Ok(d), Some(ru)) => Some(billing.monthly(d, ru, &prices.ru_price(billing))),
        _ => None,
    };
    let provisioned = provisioned(demand.as_ref().ok(), target, prices);
    Cost {
        ru_per_operation: w.ru / ops,
        efficiency,
        required_ru,
        unknown_because: demand.as_ref().err().map(|why| (*why).to_owned()),
        monthly_throughput,
        monthly_storage: monthly_storage(target.storage_bytes, prices),
        need,
        value_ru: value_rate(e, prices),
        load_ru,
        minimum_ru,
        demand: demand.ok(),
        provisioned,
    }
}

/// The bill as provisioned: the throughput given (at least the storage minimum, which the
/// service would have raised it to), billed by the model: manual as provisioned whatever
/// the load, autoscale each hour at the key's need within its tenth and its maximum (so
/// unknown when rates are). `None` when no throughput is given.
fn provisioned(demand: Option<&Demand>, target: &Target, prices: &Prices) -> Option<Provisioned> {
    let given = prices.given.as_ref()?;
    let billing = prices.billing();
    let ru = given.ru.max(billing.provision(0.0, target.storage_bytes));
    let price = prices.ru_price(billing);
    let monthly_throughput = match (prices.model, demand) {
        (crate::pricing::Model::Manual, _) => Some(billing.monthly(&Demand::default(), ru, &price)),
        (_, Some(d)) => Some(billing.monthly(d, ru, &price)),
        (_, None) => None,
    };
    Some(Provisioned {
        ru,
        source: given.source.clone(),
        monthly_throughput,
    })
}

/// A layout's collections are containers of their own: 400 RU/s each at least.
fn collections_minimum(e: &Evaluation) -> f64 {
    match e.layout {
        Some(_) => e.projection.container.partitions().len() as f64 * MIN_COLLECTION_RU,
        None => 0.0,
    }
}

/// Whether the operations replayed are a sample of the traffic: a `--log-share` below 1, a
/// log the tool thinned to stay within `--memory`, or no logged operation at all (the
/// sample's documents replayed as creates stand for the container's writes). Their maxima
/// are then billed net of chance. A complete log is the traffic: billed as logged, however
/// few its lines or however it groups its operations into them.
pub fn is_sample(e: &Evaluation, prices: &Prices) -> bool {
    let w = &e.workload;
    prices.log_share < 1.0 || w.log_thinned || (w.writes_from_sample && w.reads == 0)
}

/// What the key needs over the whole log (partitions × its hottest partition's RU): as
/// counted, or net of chance when the log is a sample.
pub fn key_need(e: &Evaluation, prices: &Prices) -> f64 {
    let w = &e.workload;
    match is_sample(e, prices) {
        true => w.need_ru_net,
        false => w.need_ru,
    }
}

/// The busiest single value's RU/s at the target's rates: its busiest stretch's RU (net of
/// chance when the log is a sample), over the stretch's seconds and the log's share of
/// the traffic.
fn value_rate(e: &Evaluation, prices: &Prices) -> Option<f64> {
    let w = &e.workload;
    let hot = w.hot_value.as_ref()?;
    w.window_seconds?;
    let share = prices.log_share.clamp(f64::MIN_POSITIVE, 1.0);
    Some(hot.ru.max(0.0) / hot.seconds.max(1.0) / share)
}

/// How many times what `alt` needs `c` needs: by efficiency (the same operations over the
/// whole log), or by the RU/s to provision when both are known and that says more (the
/// service minimums: a layout's collections each need 400 RU/s, whatever their load).
/// Two keys at the same service minimum need the same: 1.
pub fn ratio(
    c: &crate::report::model::CandidateReport,
    alt: &crate::report::model::CandidateReport,
) -> f64 {
    ratio_by(c, alt).0
}

/// Which figure a cost ratio was read from, so that a sentence can show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Both keys need only the same service minimum.
    Floor,
    /// Efficiency over the whole log (what each needs for the same operations).
    Efficiency,
    /// The RU/s each needs provisioned, before the billing model's steps.
    Provisioned,
}

/// [`ratio`], and the figure it was read from.
pub fn ratio_by(
    c: &crate::report::model::CandidateReport,
    alt: &crate::report::model::CandidateReport,
) -> (f64, Basis) {
    if floor_tied(c, alt) {
        return (1.0, Basis::Floor);
    }
    let by_efficiency = alt.cost.efficiency / c.cost.efficiency.max(f64::MIN_POSITIVE);
    let by_ru = match (c.cost.need_ru, alt.cost.need_ru) {
        (Some(mine), Some(theirs)) => mine / theirs.max(f64::MIN_POSITIVE),
        _ => 0.0,
    };
    match by_ru > by_efficiency {
        true => (by_ru, Basis::Provisioned),
        false => (by_efficiency, Basis::Efficiency),
    }
}

/// Whether a key needs only the service's minimum: its load's busiest hour asks for no
/// more RU/s than the least the service allows the target.
pub fn at_floor(c: &crate::report::model::CandidateReport) -> bool {
    c.cost.load_ru.is_some_and(|l| l <= c.cost.minimum_ru)
}

/// Whether two keys meet the same service minimum: they provision and bill the same,
/// whatever their loads, so their cost is tied (see [`ratio`]).
pub fn floor_tied(
    a: &crate::report::model::CandidateReport,
    b: &crate::report::model::CandidateReport,
) -> bool {
    at_floor(a) && at_floor(b) && (a.cost.minimum_ru - b.cost.minimum_ru).abs() < 0.5
}

/// Why rates are unknown, when they are.
fn rates_unknown(e: &Evaluation) -> Option<&'static str> {
    let w = &e.workload;
    if w.reads == 0 && !w.writes_from_sample && w.writes == 0 {
        return Some("no operations to measure");
    }
    if w.writes_from_sample && w.reads == 0 {
        return Some("no query log: the sample's documents arrive at no known rate");
    }
    if w.writes_from_sample {
        return Some(
            "the log holds no writes: the sample's documents stand in for them at no known rate",
        );
    }
    if w.window_seconds.is_none() {
        return Some("the log's operations lack timestamps (ts), so rates are unknown");
    }
    None
}

/// RU/s at the workload's peak per RU of the whole log (the same for every candidate of a
/// run: they replay the same windows), or why rates are unknown: a partition's RU over the
/// log times it is its RU/s in the busiest window.
pub fn rate(e: &Evaluation, prices: &Prices) -> Result<f64, &'static str> {
    if let Some(why) = rates_unknown(e) {
        return Err(why);
    }
    let w = &e.workload;
    let seconds = w.window_seconds.unwrap_or(1.0).max(1.0);
    let share = prices.log_share.clamp(f64::MIN_POSITIVE, 1.0);
    let peak = match is_sample(e, prices) {
        true => w.peak_ideal_ru_net,
        false => w.peak_ideal_ru,
    };
    Ok(peak / w.ideal_need_ru.max(f64::MIN_POSITIVE) / seconds / share)
}

/// What the key asks of its container over a month at `target` (see [`Demand`]), or why
/// rates are unknown.
pub fn demand(e: &Evaluation, target: &Target, prices: &Prices) -> Result<Demand, &'static str> {
    if let Some(why) = rates_unknown(e) {
        return Err(why);
    }
    let w = &e.workload;
    let seconds = w.window_seconds.unwrap_or(1.0).max(1.0);
    let share = prices.log_share.clamp(f64::MIN_POSITIVE, 1.0);
    let sample = is_sample(e, prices);
    let ideal = w.ideal_need_ru.max(f64::MIN_POSITIVE);
    let pick = |counted: &[f64], net: &[f64], per: f64| -> Vec<f64> {
        (if sample { net } else { counted })
            .iter()
            .map(|r| r / per)
            .collect()
    };
    // Each window's volume: its ideal RU a second at the target's rates.
    let volumes = pick(&w.window_ideal, &w.window_ideal_net, seconds * share);
    let windows = match w.covered_windows > 0.0 {
        true => w.covered_windows,
        false => w.window_ideal.len().max(1) as f64,
    };
    let start = w.log_start.unwrap_or(0);
    // Each window's need: its volume times what the key needs over the ideal in that
    // window (partitions × its own hottest partition, see `window_need`), so that a burst
    // in time is judged as the volumes are and a hot spot in the window as the window's
    // partitions are. An evaluation without them (a combined or adjusted one) needs the
    // whole log's factor throughout.
    let n = w.window_ideal.len();
    let needs = match w.window_need.len() == n && w.window_need_net.len() == n && n > 0 {
        true => {
            let need = if sample {
                &w.window_need_net
            } else {
                &w.window_need
            };
            let needs: Vec<f64> = (volumes.iter().zip(need).zip(&w.window_ideal))
                .map(|((v, need), ideal)| match *ideal > 0.0 {
                    true => v * need / ideal,
                    false => need / (seconds * share),
                })
                .collect();
            (Demand::clock_hours(&needs, start, seconds).into_iter())
                .map(|h| h.0)
                .collect()
        }
        false => Vec::new(),
    };
    Ok(Demand {
        hours: Demand::clock_hours(&volumes, start, seconds),
        factor: key_need(e, prices) / ideal,
        needs,
        partitions: pick(&w.partition_ru, &w.partition_ru_net, ideal),
        partition_writes: pick(&w.partition_write_ru, &w.partition_write_ru_net, ideal),
        partition_hours: (w.hour_loads.iter())
            .map(|h| {
                let loads = if sample { &h.net } else { &h.counted };
                let per = seconds * share;
                (
                    loads.iter().map(|&(ru, n)| (ru / per, n)).collect(),
                    h.hours,
                )
            })
            .collect(),
        consumed: w.counted_ru / ideal,
        mean_volume: w.ideal_need_ru / (windows * seconds) / share,
        storage_bytes: target.storage_bytes,
    })
}

/// Costs built by hand, for the tests of what is made of them.
#[cfg(test)]
pub(crate) mod testing {
    use super::Cost;

    /// A key that needs 1,000 RU/s at 1 RU per operation, perfectly efficient, over a
    /// minimum of 400: tests change one figure at a time.
    pub fn cost() -> Cost {
        Cost {
            ru_per_operation: 1.0,
            efficiency: 1.0,
            required_ru: Some(1_000.0),
            unknown_because: None,
            monthly_throughput: None,
            monthly_storage: 0.0,
            need: 0.0,
            value_ru: None,
            load_ru: Some(1_000.0),
            minimum_ru: 400.0,
            demand: None,
            provisioned: None,
        }
    }
}
