//! Keys that follow the clock, from each value's first and last arrival (input order, or
//! `--time-path`), over the values counted one by one (every value while exact, the hash
//! sample once sampled: an unbiased subset).
//!
//! * **Monotonic keys**: values that increase with arrival (timestamps, dates, sequence
//!   numbers). A sample in which every such value is unique looks perfectly spread, yet in
//!   production every write of one moment carries that moment's value. Measured as
//!   Spearman's rank correlation between each value and its first arrival.
//! * **Concurrency**: how many values receive writes at one moment, on average: the sum of
//!   the arrival spans of values seen more than once over the sample's span. A time bucket
//!   has about one, a tenant key as many as its active tenants. It judges write spread at
//!   production rates, where a few hundred writes arrive within the same moment, whatever
//!   the sample's own rate.

use crate::key::{KeyLevel, KeySpec};
use crate::stats::{Span, ValueOrder, ValueStats};

/// A key is monotonic at or above this rank correlation.
pub const MONOTONIC_MIN: f64 = 0.9;
/// Fewer values than this say nothing of an order.
const MIN_VALUES: usize = 20;
/// Values ranked at most (evenly thinned in value order past it).
const MAX_VALUES: usize = 200_000;

/// An orderable key value.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
enum Ordered<'a> {
    Number(f64),
    Text(&'a str),
}

fn ordered(label: &str) -> Option<Ordered<'_>> {
    if label.starts_with('"') {
        return Some(Ordered::Text(label));
    }
    label
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
        .map(Ordered::Number)
}

/// What a key's values say of their order: [`arrival_correlation`] and
/// [`is_clock_reading`] (recorded before `profile --redact` hides the values).
pub fn order(spec: &KeySpec, values: &ValueStats) -> ValueOrder {
    let levels = spec.levels().len();
    let clock_levels = clock_levels(values, levels);
    ValueOrder {
        arrival_correlation: arrival_correlation(spec, values),
        // A hierarchical value's label is an array, never a clock reading as a whole.
        clock_reading: levels <= 1 && clock_levels & 1 != 0,
        clock_levels,
    }
}

/// Spearman's rank correlation of value and first arrival, for a single-path key whose
/// values are all numbers or all strings; `None` when it does not apply.
pub fn arrival_correlation(spec: &KeySpec, values: &ValueStats) -> Option<f64> {
    if !matches!(spec.levels(), [KeyLevel::Path(_)]) {
        return None;
    }
    let mut pairs: Vec<(Ordered<'_>, i64)> = Vec::new();
    for v in values.sample().filter(|v| v.span.is_known()) {
        pairs.push((ordered(v.label)?, v.span.first));
    }
    let numbers = pairs
        .iter()
        .filter(|p| matches!(p.0, Ordered::Number(_)))
        .count();
    if pairs.len() < MIN_VALUES || (numbers != 0 && numbers != pairs.len()) {
        return None;
    }
    pairs.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    if pairs.len() > MAX_VALUES {
        let step = pairs.len().div_ceil(MAX_VALUES);
        pairs = pairs.into_iter().step_by(step).collect();
    }
    Some(spearman(&pairs.iter().map(|p| p.1).collect::<Vec<_>>()))
}

/// Whether the key's values are readings of the clock: dates or times (RFC 3339 text, or
/// epoch seconds or milliseconds of 2017–2099). Concurrent writes share such a value at its
/// resolution; they do not share a sequence number.
pub fn is_clock_reading(values: &ValueStats) -> bool {
    let mut seen = 0;
    let mut times = 0;
    for v in values.sample().take(100) {
        seen += 1;
        times += is_clock_label(v.label) as usize;
    }
    seen > 0 && times * 10 >= seen * 9
}

/// Whether one value's label (JSON text) reads as the clock.
fn is_clock_label(label: &str) -> bool {
    match ordered(label) {
        Some(Ordered::Text(t)) => {
            let text = t.trim_matches('"');
            crate::time::parse_rfc3339(text).is_some()
        }
        // Epoch seconds or milliseconds of 2017–2099: sequence numbers seldom fall there.
        Some(Ordered::Number(n)) => (1.5e9..4.1e9).contains(&n) || (1.5e12..4.1e12).contains(&n),
        None => false,
    }
}

/// Which of a key's `levels` hold clock readings (bit `i` for level `i`, as
/// [`is_clock_reading`] judges a whole value): a hierarchical value's label is the JSON
/// array of its levels.
pub fn clock_levels(values: &ValueStats, levels: usize) -> u8 {
    if levels <= 1 {
        return u8::from(is_clock_reading(values));
    }
    let (mut seen, mut times) = (0usize, vec![0usize; levels]);
    for v in values.sample().take(100) {
        let Ok(parts) = serde_json::from_str::<Vec<serde_json::Value>>(v.label) else {
            continue;
        };
        seen += 1;
        for (t, part) in times.iter_mut().zip(&parts) {
            *t += is_clock_label(&part.to_string()) as usize;
        }
    }
    (times.into_iter().enumerate().take(8))
        .filter(|(_, t)| seen > 0 && t * 10 >= seen * 9)
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

/// The mean number of values receiving writes at one moment, when most documents hold
/// values seen more than once (otherwise each write has a value of its own: `None`).
pub fn concurrency(values: &ValueStats, documents: u64) -> Option<f64> {
    let scale = values.scale() as f64;
    let (mut open, mut repeated) = (0.0, 0.0);
    let mut span = Span::at(None);
    for v in values.sample().filter(|v| v.span.is_known()) {
        span = span.union(v.span);
        if v.docs > 1 {
            open += (v.span.last - v.span.first) as f64 * scale;
            repeated += v.docs as f64 * scale;
        }
    }
    if !span.is_known() {
        return None;
    }
    let width = span.last as f64 - span.first as f64;
    if width <= 0.0 || repeated < 0.5 * documents as f64 {
        return None;
    }
    Some((open / width).max(1.0))
}

/// Spearman's correlation between position in `times` (already in value order) and the
/// rank of each time, tied times sharing their average rank (Pearson's correlation of the
/// ranks); 0 when the times do not vary (nothing is known of their order).
fn spearman(times: &[i64]) -> f64 {
    let n = times.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| times[i]);
    let mut rank = vec![0.0; n];
    let mut start = 0;
    while start < n {
        let mut end = start;
        while end + 1 < n && times[order[end + 1]] == times[order[start]] {
            end += 1;
        }
        let average = (start + end) as f64 / 2.0;
        for &i in &order[start..=end] {
            rank[i] = average;
        }
        start = end + 1;
    }
    let mean = (n as f64 - 1.0) / 2.0;
    let (mut cov, mut var_pos, mut var_rank) = (0.0, 0.0, 0.0);
    for (pos, r) in rank.iter().enumerate() {
        let (a, b) = (pos as f64 - mean, r - mean);
        cov += a * b;
        var_pos += a * a;
        var_rank += b * b;
    }
    if var_rank <= 0.0 || var_pos <= 0.0 {
        return 0.0;
    }
    cov / (var_pos * var_rank).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::PkValueRef;
    use crate::engine::epk::hash_v2;
    use crate::stats::CandidateStats;

    fn stats(value: impl Fn(i64) -> String) -> CandidateStats {
        let mut s = CandidateStats::new(1 << 24, false);
        for i in 0..2_000i64 {
            let v = value(i);
            let c = [PkValueRef::Str(&v)];
            s.add(&c, &hash_v2(&c), false, 100, Some(i * 100));
        }
        s
    }

    #[test]
    fn timestamps_are_monotonic_ids_are_not() {
        let spec = KeySpec::parse("/ts").unwrap();
        let ts = stats(|i| format!("2026-11-01T10:{:02}:{:02}", i / 60 % 60, i % 60));
        let r = arrival_correlation(&spec, &ts.values).unwrap();
        assert!(r > 0.99, "{r}");
        let ids = stats(|i| format!("{:016x}", crate::mix::splitmix64(i as u64, 1)));
        let r = arrival_correlation(&spec, &ids.values).unwrap();
        assert!(r.abs() < 0.1, "{r}");
        let hier = KeySpec::parse("/a,/ts").unwrap();
        assert_eq!(arrival_correlation(&hier, &ts.values), None);
    }

    #[test]
    fn a_time_bucket_writes_one_value_at_a_time() {
        // 40 buckets of 50 documents each, one after the other.
        let buckets = stats(|i| format!("b{:03}", i / 50));
        let c = concurrency(&buckets.values, 2_000).unwrap();
        assert!((c - 1.0).abs() < 0.05, "{c}");
        // 25 tenants writing all the time.
        let tenants = stats(|i| format!("t{}", i % 25));
        let c = concurrency(&tenants.values, 2_000).unwrap();
        assert!((c - 25.0).abs() < 1.0, "{c}");
        // Unique ids: each write a value of its own.
        let ids = stats(|i| format!("id{i}"));
        assert_eq!(concurrency(&ids.values, 2_000), None);
    }

    #[test]
    fn clock_readings_are_told_from_sequences() {
        let ts = stats(|i| format!("2026-11-01T10:{:02}:{:02}", i / 60 % 60, i % 60));
        assert!(is_clock_reading(&ts.values));
        let days = stats(|i| format!("2026-11-{:02}", 1 + i / 100));
        assert!(is_clock_reading(&days.values));
        let seq = stats(|i| format!("order-{i:08}"));
        assert!(!is_clock_reading(&seq.values));
    }

    #[test]
    fn values_without_arrivals_say_nothing() {
        let mut s = CandidateStats::new(1 << 20, true);
        for i in 0..100 {
            let v = format!("v{}", i % 10);
            let c = [PkValueRef::Str(&v)];
            s.add(&c, &hash_v2(&c), false, 100, None);
        }
        assert_eq!(concurrency(&s.values, 100), None);
        let spec = KeySpec::parse("/v").unwrap();
        assert_eq!(arrival_correlation(&spec, &s.values), None);
    }

    #[test]
    fn perfect_orders() {
        assert!((spearman(&[1, 2, 3, 4]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[4, 3, 2, 1]) + 1.0).abs() < 1e-12);
    }

    #[test]
    fn tied_times_say_nothing_of_order() {
        // Every value first seen at the same moment (a coarse or constant --time-path).
        assert_eq!(spearman(&[5; 50]), 0.0);
        // Two batches, each in no particular value order: far from monotonic.
        let batches: Vec<i64> = (0..100).map(|i| if i % 2 == 0 { 1 } else { 2 }).collect();
        assert!(spearman(&batches).abs() < 0.1);
    }
}
