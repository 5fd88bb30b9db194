//! Findings: each problem a candidate shows, with its code, severity and a message that
//! states the threshold. Codes and severities are the contract of `DESIGN.md`.

use super::clock::MONOTONIC_MIN;
use super::cost::Cost;
use super::evaluate::Evaluation;
use super::project::Target;
use crate::engine::Limits;
use crate::report::model::{CandidateReport, Finding, Severity};
use crate::stats::{V1_VALUE_LIMIT, VALUE_LIMIT};
use crate::units::human_bytes;

/// `HOT_PARTITION` when the worst window's usable throughput is below this share of what
/// the same operations placed at random would allow (so that a small sample or a log of a
/// few heavy lines does not pass for a hot key).
pub const HOT_RELATIVE: f64 = 0.5;
/// `HOT_PARTITION` too when, over the whole log, the busiest partition takes at least this
/// many times its share of the RU.
pub const HOT_SKEW: f64 = 2.0;
/// The whole-log skew counts only with at least this many requests per partition.
pub const HOT_MIN_LUMPS: u64 = 20;
/// `WRITE_HOTSPOT` when runs of consecutive writes reach less than this share of the
/// partitions that writes placed at random would reach.
pub const WRITE_SPREAD_MIN: f64 = 0.5;
/// `FAN_OUT_QUERIES` when fan-out reads' visits to partitions beyond the first are at
/// least this share of the reads' RU.
pub const FAN_OUT_RU_SHARE: f64 = 0.25;
/// `EXCESS_RU` when a key needs at least this many times the RU/s of the best candidate.
pub const EXCESS_RU_RATIO: f64 = 2.0;

fn finding(code: &str, severity: Severity, message: String) -> Finding {
    Finding {
        code: code.to_owned(),
        severity,
        message,
    }
}

fn pct(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// Every finding of a candidate, violations first; `throughput_given` says the target's
/// throughput was given (not a default), so a shortfall against it is news.
pub fn findings(
    e: &Evaluation,
    target: &Target,
    cost: &Cost,
    throughput_given: bool,
) -> Vec<Finding> {
    let mut out = Vec::new();
    logical_limit(e, target, &mut out);
    values(e, &mut out);
    distribution(e, &mut out);
    workload(e, &mut out);
    if throughput_given {
        shortfall(cost, target, &mut out);
    }
    out.sort_by_key(|f| f.severity);
    out
}

fn shortfall(cost: &Cost, target: &Target, out: &mut Vec<Finding>) {
    let given = target.throughput.max_ru();
    if let Some(need) = cost.required_ru.filter(|r| *r > given) {
        out.push(finding("THROUGHPUT_SHORTFALL", Severity::Warning, format!(
            "needs {need:.0} RU/s so that no partition throttles in the busiest window, more than the {given:.0} RU/s given")));
    }
}

/// `EXCESS_RU` on every candidate that needs at least [`EXCESS_RU_RATIO`] times the RU/s of
/// the cheapest candidate without violations; `needs[i]` is candidate `i`'s need over the
/// whole log (partitions × its hottest partition's RU: the same operations for every
/// candidate of a run, so needs compare).
pub fn excess_ru(candidates: &mut [CandidateReport], needs: &[f64]) {
    let clean = |c: &CandidateReport| c.findings.iter().all(|f| f.severity != Severity::Violation);
    let best = candidates
        .iter()
        .zip(needs)
        .filter(|(c, n)| clean(c) && **n > 0.0)
        .min_by(|a, b| {
            a.1.total_cmp(b.1)
                .then_with(|| a.0.key.spec.cmp(&b.0.key.spec))
        });
    let Some((best, &least)) = best else { return };
    let name = best.key.spec.clone();
    for (c, &n) in candidates.iter_mut().zip(needs) {
        let ratio = n / least;
        if ratio >= EXCESS_RU_RATIO {
            c.findings.push(finding("EXCESS_RU", Severity::Warning, format!(
                "needs {ratio:.1}× the RU/s of {name}, the cheapest candidate without violations, for the same operations (threshold {EXCESS_RU_RATIO}×)")));
            c.findings.sort_by_key(|f| f.severity);
        }
    }
}

fn logical_limit(e: &Evaluation, target: &Target, out: &mut Vec<Finding>) {
    let limit = Limits::default().logical_bytes;
    let Some((label, bytes)) = &e.projection.largest else {
        return;
    };
    if *bytes <= limit {
        return;
    }
    let breaks = match (
        &e.projection.largest_closed,
        e.projection.max_container_bytes,
    ) {
        (Some(c), _) => format!(
            "; its writes stopped {} after they began (a past period: a day, a session), so its size does not grow with the container: the limit is an ingest rate, and the key breaks whenever one period's writes pass {}",
            period(c.period),
            human_bytes(limit)
        ),
        (None, Some(b)) => format!(
            "; the key breaks once the container passes {}",
            human_bytes(b)
        ),
        (None, None) => String::new(),
    };
    out.push(finding(
        "LOGICAL_PARTITION_LIMIT",
        Severity::Violation,
        format!(
            "value {label} is projected to {} at {} of data, over the {} logical-partition limit{breaks}",
            human_bytes(*bytes),
            human_bytes(target.storage_bytes),
            human_bytes(limit)
        ),
    ));
}

/// A span of seconds in words.
fn period(seconds: i64) -> String {
    let s = seconds.max(0) as f64;
    match s {
        s if s >= 86_400.0 => format!("{:.1} days", s / 86_400.0),
        s if s >= 3_600.0 => format!("{:.1} hours", s / 3_600.0),
        s if s >= 60.0 => format!("{:.0} minutes", s / 60.0),
        s => format!("{s:.0} seconds"),
    }
}

fn values(e: &Evaluation, out: &mut Vec<Finding>) {
    let s = &e.stats;
    if s.invalid > 0 {
        out.push(finding("INVALID_KEY_VALUE", Severity::Violation, format!(
            "{} documents ({:.1}%) hold an object or array at the key path; key values must be strings, numbers, booleans or null",
            s.invalid, pct(s.invalid, s.documents))));
    }
    if is_id(e) {
        let dups: u64 = (e.stats.values.sample().filter(|v| v.docs > 1).count() as u64)
            .saturating_mul(e.stats.values.scale());
        if dups > 0 {
            out.push(finding("INVALID_KEY_VALUE", Severity::Violation, format!(
                "{dups} id values occur in more than one document; with /id as the key every id must be unique")));
        }
    }
    if s.over_limit > 0 {
        out.push(finding("KEY_TOO_LONG", Severity::Violation, format!(
            "{} documents have a key value over {VALUE_LIMIT} bytes (longest {} bytes); Cosmos DB rejects them",
            s.over_limit, s.max_value_bytes)));
    } else if s.over_v1_limit > 0 {
        out.push(finding("KEY_TOO_LONG", Severity::Warning, format!(
            "{} documents have a key value over {V1_VALUE_LIMIT} bytes (longest {} bytes); the container needs large partition keys (version 2)",
            s.over_v1_limit, s.max_value_bytes)));
    }
    if s.missing > 0 {
        out.push(finding("MISSING_KEY", Severity::Warning, format!(
            "{} documents ({:.1}%) lack a path of the key; they all share one logical partition (undefined)",
            s.missing, pct(s.missing, s.documents))));
    }
    if s.unsafe_numbers > 0 {
        out.push(finding("UNSAFE_NUMBER", Severity::Warning, format!(
            "{} documents have a numeric key value beyond ±2^53, which doubles cannot tell apart; store such keys as strings",
            s.unsafe_numbers)));
    }
}

fn is_id(e: &Evaluation) -> bool {
    e.spec.to_string() == "/id"
}

fn distribution(e: &Evaluation, out: &mut Vec<Finding>) {
    let parts = e.projection.container.partitions().len();
    let needed = 100.max(10 * parts as u64);
    if e.distinct.0 < needed {
        out.push(finding("LOW_CARDINALITY", Severity::Warning, format!(
            "{} distinct values, fewer than max(100, 10 × {parts} physical partitions) = {needed}",
            e.distinct.0)));
    }
    let w = &e.workload;
    // Over the whole log: independent of how the log groups requests into lines.
    let skew = w.need_ru / w.counted_ru.max(f64::MIN_POSITIVE);
    // Enough separate requests (log lines, or documents) that chance alone cannot make one
    // partition twice as busy as the mean.
    let lumps = if w.per_op.is_empty() {
        w.writes
    } else {
        w.per_op.len() as u64
    };
    let enough = lumps >= HOT_MIN_LUMPS * parts as u64;
    if parts > 1 && w.counted_ru > 0.0 && enough && skew >= HOT_SKEW {
        out.push(finding("HOT_PARTITION", Severity::Warning, format!(
            "over the whole log the busiest physical partition takes {skew:.1}× its share of RU (threshold {HOT_SKEW}×): the key must provision that many times what its load needs on average")));
    } else if parts > 1 && w.usable_relative < HOT_RELATIVE {
        out.push(finding("HOT_PARTITION", Severity::Warning, format!(
            "the busiest physical partition takes {:.1}× its share of RU; in the worst window only {:.0}% of provisioned throughput is usable, {:.0}% of what random placement of the same operations allows (threshold {:.0}%)",
            e.ru_skew, e.usable * 100.0, w.usable_relative * 100.0, HOT_RELATIVE * 100.0)));
    }
    let mut hotspot = Vec::new();
    if parts > 1 && e.workload.writes > 0 && e.workload.write_spread < WRITE_SPREAD_MIN {
        hotspot.push(format!(
            "writes concentrate in time: runs of consecutive writes reach {:.0}% of the physical partitions that writes placed at random would reach (threshold {:.0}%); a key that follows the clock or has few values",
            e.workload.write_spread * 100.0, WRITE_SPREAD_MIN * 100.0));
    }
    let monotonic = e.arrival_order.filter(|r| *r >= MONOTONIC_MIN);
    match monotonic {
        Some(r) if e.clock_reading => hotspot.push(format!(
            "values are clock readings that increase with arrival (rank correlation {r:.2}, threshold {MONOTONIC_MIN}): writes arriving together share the moment's value, so at production rates every write of a second (or a day) goes to one logical partition, however unique the values look in this sample")),
        Some(r) => out.push(finding("MONOTONIC_KEY", Severity::Info, format!(
            "values increase with arrival (rank correlation {r:.2}, threshold {MONOTONIC_MIN}), like a sequence number: hashing spreads values that stay unique, but writes that ever share a value (a batch number) share its logical partition"))),
        None => {}
    }
    if !hotspot.is_empty() {
        out.push(finding(
            "WRITE_HOTSPOT",
            Severity::Warning,
            hotspot.join("; "),
        ));
    }
}

fn workload(e: &Evaluation, out: &mut Vec<Finding>) {
    let w = &e.workload;
    let parts = e.projection.container.partitions().len();
    let fan_out_share = w.fan_out_ru / w.read_ru.max(f64::MIN_POSITIVE);
    if parts > 1 && fan_out_share >= FAN_OUT_RU_SHARE {
        out.push(finding(
            "FAN_OUT_QUERIES",
            Severity::Warning,
            format!(
                "reads that visit all {parts} physical partitions ({:.0}% of reads fix no key value) spend {:.0}% of the reads' RU on the partitions beyond the first, 2.5 RU each (threshold {:.0}%)",
                w.fraction(w.fan_out) * 100.0,
                fan_out_share * 100.0,
                FAN_OUT_RU_SHARE * 100.0
            ),
        ));
    }
    if w.key_updated > 0 {
        out.push(finding("KEY_UPDATED", Severity::Warning, format!(
            "{} logged writes replace an item under a different key value; keys are immutable, so the application would create a second item",
            w.key_updated)));
    }
    if w.cross_partition_batches > 0 {
        out.push(finding("CROSS_PARTITION_TRANSACTION", Severity::Violation, format!(
            "{} of {} logged batches touch more than one logical partition; transactions are scoped to one",
            w.cross_partition_batches, w.batches)));
    }
}
