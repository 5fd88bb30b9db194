//! What a key needs and what that costs: the RU/s it must provision so that its hottest
//! physical partition is not throttled in the busiest window (throughput divides evenly
//! over partitions), and its monthly bill at the prices of [`crate::pricing`].
//!
//! * `ru_per_operation`: RU charged per logged operation (or sample create) under the key.
//! * `efficiency` in (0, 1]: what an ideal key needs over what this key needs: the same
//!   operations each at its single-partition charge, spread perfectly, against partitions ×
//!   this key's hottest partition, over the whole log (a log line's `count` lands in one
//!   replay window, so windows would mistake counts for bursts). Fan-out (every query pays
//!   2.5 RU per partition it visits) and hot partitions both lower it; it needs no
//!   timestamps.
//! * `required_ru`: with timestamps on the logged operations, the key's need over the whole
//!   log scaled to the workload's busiest window (its share of the ideal RU, the same for
//!   every key) per second, and by `--log-share`, and never below the service minimums (manual: 400
//!   RU/s and 1 RU/s per GB stored; autoscale maximum: 1,000 and 10 per GB).
//! * `monthly`: the required RU/s and the target's storage billed a month
//!   ([`crate::pricing::bill`]).

use super::evaluate::Evaluation;
use super::target::Target;
use crate::pricing::throughput::MIN_COLLECTION_RU;
use crate::pricing::{Prices, min_ru, monthly, monthly_storage};

/// A candidate's cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    /// Mean RU per operation.
    pub ru_per_operation: f64,
    /// Ideal need over this key's need.
    pub efficiency: f64,
    /// RU/s to provision, when rates are known.
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
}

impl Cost {
    /// The monthly total: storage, plus throughput when known.
    pub fn monthly_total(&self) -> f64 {
        self.monthly_storage + self.monthly_throughput.unwrap_or(0.0)
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
    let (required_ru, unknown_because) = match required(e, target, prices) {
        Ok(ru) => (Some(ru), None),
        Err(why) => (None, Some(why.to_owned())),
    };
    let monthly_throughput = required_ru.map(|ru| monthly(ru, prices.ru_hour_per_100, prices));
    Cost {
        ru_per_operation: w.ru / ops,
        efficiency,
        required_ru,
        unknown_because,
        monthly_throughput,
        monthly_storage: monthly_storage(target.storage_bytes, prices),
        need,
        value_ru: value_rate(e, prices),
    }
}

/// Logged lines per window below which the busiest window and partition are partly chance,
/// whatever `--log-share` says.
pub const FEW_LINES_PER_WINDOW: f64 = 200.0;

/// Whether the log is a sample of the traffic: a `--log-share` below 1, a log the tool
/// thinned to stay within `--memory`, or few lines per window. Its maxima are then billed
/// net of chance.
pub fn is_sample(e: &Evaluation, prices: &Prices) -> bool {
    let w = &e.workload;
    prices.log_share < 1.0
        || w.log_thinned
        || (w.lines_per_window > 0.0 && w.lines_per_window < FEW_LINES_PER_WINDOW)
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
pub fn ratio(
    c: &crate::report::model::CandidateReport,
    alt: &crate::report::model::CandidateReport,
) -> f64 {
    let by_efficiency = alt.cost.efficiency / c.cost.efficiency.max(f64::MIN_POSITIVE);
    let by_ru = match (c.cost.required_ru, alt.cost.required_ru) {
        (Some(mine), Some(theirs)) => mine / theirs.max(f64::MIN_POSITIVE),
        _ => 0.0,
    };
    by_efficiency.max(by_ru)
}

/// The RU/s to provision, or why it is unknown.
fn required(e: &Evaluation, target: &Target, prices: &Prices) -> Result<f64, &'static str> {
    let per_need = rate(e, prices)?;
    let per_second = key_need(e, prices) * per_need;
    // A layout's collections are containers of their own: 400 RU/s each at least.
    let collections = match e.layout {
        Some(_) => e.projection.container.partitions().len() as f64 * MIN_COLLECTION_RU,
        None => 0.0,
    };
    Ok(per_second
        .max(min_ru(target.throughput, target.storage_bytes))
        .max(collections)
        .ceil())
}

/// RU/s to provision per unit of `need_ru` (the same for every candidate of a run: they
/// replay the same windows), or why rates are unknown.
pub fn rate(e: &Evaluation, prices: &Prices) -> Result<f64, &'static str> {
    let w = &e.workload;
    if w.reads == 0 && !w.writes_from_sample && w.writes == 0 {
        return Err("no operations to measure");
    }
    if w.writes_from_sample && w.reads == 0 {
        return Err("no query log: the sample's documents arrive at no known rate");
    }
    if w.writes_from_sample {
        return Err(
            "the log holds no writes: the sample's documents stand in for them at no known rate",
        );
    }
    let Some(seconds) = w.window_seconds else {
        return Err("the log's operations lack timestamps (ts), so rates are unknown");
    };
    let share = prices.log_share.clamp(f64::MIN_POSITIVE, 1.0);
    // The key's need over the whole log, at the workload's peak: the busiest window's share
    // of the ideal RU (the same for every key, so RU/s follow efficiency).
    let peak = match is_sample(e, prices) {
        true => w.peak_ideal_ru_net,
        false => w.peak_ideal_ru,
    };
    let peak = peak / w.ideal_need_ru.max(f64::MIN_POSITIVE);
    Ok(peak / seconds.max(1.0) / share)
}
