//! When a key breaks, as a date: each candidate's projection run forward at the container's
//! ingest.
//!
//! The model. The container receives `I` bytes a day (the log's creates ÷ `--log-share`,
//! else the sample's `--time-path` arrivals, else `--growth`) from `S₀` bytes on the first
//! day (`--start-storage`, else the target's storage): on day `d` it holds `S₀ + I d`, and
//! with a retention `R` it settles at `I R` (it stops growing there). Each value grows at
//! its own share of the ingest, as the projection grows it with the container: so the day
//! the largest logical partition passes 20 GB is the day the container reaches the size
//! the projection says the key breaks at (`max_container_bytes`), and never when that size
//! is past where the container settles or when no value grows (closed periods stay, a
//! value bounded by its time to live settles at its rate × it). Requests keep today's
//! rates (the log's, ÷ `--log-share`): a value that needs more than 10,000 RU/s needs it
//! from the first day, and one that does not never does. Physical partitions split as the
//! engine splits evenly spread data: the generation splits together when the container
//! passes 50 GB a partition. The bill keeps today's throughput and pays for the storage of
//! the day.

use std::collections::BTreeMap;

use jiff::civil::Date;

use super::evaluate::Evaluation;
use super::need::Cost;
use super::round::cents;
use crate::engine::Limits;
use crate::project::target::Target;
use crate::report::model::{
    GrowthMonth, PartitionsOn, TimelineBasisReport, TimelineReport, ValueGrowth,
};

/// The months the monthly bill is given at.
pub const MONTHS: [i8; 3] = [3, 12, 36];

/// Past this many days a key is taken never to break (a century).
const NEVER_DAYS: f64 = 36_525.0;

/// Where an ingest was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IngestSource {
    /// The log's creates ÷ `--log-share`.
    Log,
    /// The sample's `--time-path` arrivals.
    TimePath,
    /// `--growth`.
    Growth,
}

impl IngestSource {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            IngestSource::Log => "log",
            IngestSource::TimePath => "time-path",
            IngestSource::Growth => "growth",
        }
    }
}

/// Where the first day was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatedFrom {
    /// `--as-of`.
    AsOf,
    /// The log's last timestamp.
    Log,
    /// The sample's latest `--time-path` value.
    TimePath,
    /// Today's UTC date (the output then changes from day to day).
    Today,
}

impl DatedFrom {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            DatedFrom::AsOf => "as-of",
            DatedFrom::Log => "log",
            DatedFrom::TimePath => "time-path",
            DatedFrom::Today => "today",
        }
    }
}

/// What every candidate's timeline starts from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Basis {
    /// Bytes a day.
    pub ingest_per_day: f64,
    /// Where the ingest was read.
    pub ingest_from: IngestSource,
    /// The container's bytes on the first day.
    pub start_bytes: u64,
    /// The first day.
    pub from: Date,
    /// Where the first day was read.
    pub dated_from: DatedFrom,
    /// How long items live, seconds, when they expire.
    pub retention: Option<f64>,
}

impl Basis {
    /// The size the container settles at: ingest × retention (never below the start).
    pub fn settles(&self) -> Option<f64> {
        (self.retention).map(|r| (self.ingest_per_day * r / 86_400.0).max(self.start_bytes as f64))
    }

    /// The container's bytes `days` after the first day.
    pub fn storage_after(&self, days: f64) -> f64 {
        let grown = self.start_bytes as f64 + self.ingest_per_day * days.max(0.0);
        self.settles().map_or(grown, |s| grown.min(s))
    }

    /// Days until the container holds `bytes`: 0 when it already does, `None` when it never
    /// does (it settles below, nothing arrives, or not within a century).
    pub fn days_until(&self, bytes: f64) -> Option<f64> {
        let start = self.start_bytes as f64;
        if bytes <= start {
            return Some(0.0);
        }
        if self.ingest_per_day <= 0.0 || self.settles().is_some_and(|s| s < bytes) {
            return None;
        }
        let days = (bytes - start) / self.ingest_per_day;
        (days <= NEVER_DAYS).then_some(days)
    }

    /// The day `days` after the first, as `YYYY-MM-DD`.
    pub fn day(&self, days: f64) -> String {
        let whole = days.max(0.0).floor() as i64;
        (self.from.checked_add(jiff::Span::new().days(whole)))
            .unwrap_or(Date::MAX)
            .to_string()
    }

    /// Days from the first day to `months` calendar months after it.
    pub fn days_in_months(&self, months: i8) -> f64 {
        let to = (self.from.checked_add(jiff::Span::new().months(months))).unwrap_or(self.from);
        self.from.duration_until(to).as_secs_f64() / 86_400.0
    }

    /// The report's statement of it.
    pub fn report(&self) -> TimelineBasisReport {
        TimelineBasisReport {
            ingest_bytes_per_day: self.ingest_per_day.round() as u64,
            ingest_from: self.ingest_from.name().to_owned(),
            start_bytes: self.start_bytes,
            from: self.from.to_string(),
            dated_from: self.dated_from.name().to_owned(),
            settles_bytes: self.settles().map(|s| s.round() as u64),
        }
    }
}

/// A candidate's timeline (see the module's model).
pub fn timeline(e: &Evaluation, cost: &Cost, b: &Basis, target: &Target) -> TimelineReport {
    let breaks_on = (e.projection.max_container_bytes)
        .and_then(|m| b.days_until(m as f64))
        .map(|d| b.day(d));
    let throughput_limit_on = (cost.value_ru)
        .filter(|&ru| ru > Limits::default().physical_ru)
        .map(|_| b.day(0.0));
    let monthly_at = (MONTHS.iter())
        .map(|&m| {
            let storage = b.storage_after(b.days_in_months(m));
            let per_byte = cost.monthly_storage / target.storage_bytes.max(1) as f64;
            let total = cost.monthly_total() - cost.monthly_storage + per_byte * storage;
            (m.to_string(), cents(total))
        })
        .collect::<BTreeMap<_, _>>();
    TimelineReport {
        from: b.day(0.0),
        breaks_on,
        throughput_limit_on,
        partitions: partitions(e, b, target),
        monthly_at,
    }
}

/// Physical partitions on the first day (the candidate's own count when the timeline starts
/// at the target, else an even layout's), and each doubling within 36 months. Evenly spread
/// data splits a generation together once the container passes 50 GB a partition; the
/// candidate's count follows the even layout's in proportion (a key whose values cannot
/// split keeps its ratio to it). A layout's collections do not split.
fn partitions(e: &Evaluation, b: &Basis, target: &Target) -> Vec<PartitionsOn> {
    let limits = Limits::default();
    let even = (target.throughput)
        .even_partitions(b.start_bytes, &limits)
        .max(1);
    let own = match b.start_bytes == target.storage_bytes {
        true => e.projection.container.partitions().len().max(1),
        false => even,
    };
    let mut out = vec![PartitionsOn {
        on: b.day(0.0),
        count: own,
    }];
    if e.layout.is_some() {
        return out;
    }
    let horizon = b.days_in_months(MONTHS[MONTHS.len() - 1]);
    let mut generation = even;
    while generation < 1 << 20 {
        let full = generation as f64 * limits.physical_bytes as f64;
        match b.days_until(full).filter(|&d| d > 0.0 && d <= horizon) {
            Some(d) => {
                generation *= 2;
                out.push(PartitionsOn {
                    on: b.day(d),
                    count: own * generation / even,
                });
            }
            None => break,
        }
    }
    out
}

/// The growth of the `top` largest values of a candidate (a key, not a layout) month by
/// month over 36 months: each month's container size projected as the ranking projects
/// the target (see [`crate::project::projection::named_sizes`]); `hide` redacts labels.
pub fn value_growth(
    e: &Evaluation,
    b: &Basis,
    target: &Target,
    top: usize,
    hide: &dyn Fn(&str) -> String,
) -> ValueGrowth {
    let last = MONTHS[MONTHS.len() - 1];
    let sizes = |month: i8| {
        let storage = b.storage_after(b.days_in_months(month)).round().max(1.0) as u64;
        let at = Target {
            storage_bytes: storage,
            ..*target
        };
        let named = crate::project::projection::named_sizes(&e.definition, &e.stats, &at, &e.time);
        (storage, named.into_iter().collect::<BTreeMap<_, _>>())
    };
    let (_, end) = sizes(last);
    let mut largest: Vec<(&String, &u64)> = end.iter().collect();
    largest.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let values: Vec<String> = largest
        .iter()
        .take(top)
        .map(|(l, _)| (*l).clone())
        .collect();
    let months = (0..=last)
        .map(|m| {
            let (storage, named) = sizes(m);
            GrowthMonth {
                month: m,
                on: b.day(b.days_in_months(m)),
                container_bytes: storage,
                bytes: (values.iter())
                    .map(|v| named.get(v).copied().unwrap_or(0))
                    .collect(),
            }
        })
        .collect();
    ValueGrowth {
        spec: e.spec.to_string(),
        basis: b.report(),
        values: values.iter().map(|v| hide(v)).collect(),
        months,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GB;

    fn basis(start: u64, per_day: f64, retention: Option<f64>) -> Basis {
        Basis {
            ingest_per_day: per_day,
            ingest_from: IngestSource::Growth,
            start_bytes: start,
            from: jiff::civil::date(2026, 1, 31),
            dated_from: DatedFrom::AsOf,
            retention,
        }
    }

    #[test]
    fn the_container_grows_at_its_ingest_until_it_settles() {
        let b = basis(100 * GB, 10.0 * GB as f64, None);
        assert_eq!(b.days_until(350.0 * GB as f64), Some(25.0));
        assert_eq!(b.day(25.9), "2026-02-25");
        assert_eq!(b.days_until(50.0 * GB as f64), Some(0.0));
        // Thirty days of retention: it settles at 300 GB and never holds 350 GB.
        let r = basis(100 * GB, 10.0 * GB as f64, Some(30.0 * 86_400.0));
        assert_eq!(r.days_until(350.0 * GB as f64), None);
        assert!((r.storage_after(1_000.0) - 300.0 * GB as f64).abs() < 1.0);
        // Calendar months: January 31st plus a month is February 28th.
        assert!((b.days_in_months(1) - 28.0).abs() < 1e-9);
        // Nothing arrives, or not within a century: never.
        assert_eq!(basis(GB, 0.0, None).days_until(2.0 * GB as f64), None);
        assert_eq!(basis(GB, 1.0, None).days_until(2.0 * GB as f64), None);
    }
}
