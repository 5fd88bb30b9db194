//! Findings: each problem a candidate shows, with its code, severity and a message that
//! states the threshold. Codes and severities are a contract (the README's findings table).

use super::evaluate::Evaluation;
use super::need::Cost;
use super::score::HAZARD_SHARE;
use crate::engine::Limits;
use crate::key::Layout;
use crate::pricing::{Model, Serverless, ThroughputBilling};
use crate::project::target::Target;
use crate::report::model::{CandidateReport, Finding, FindingCode, Severity};
use crate::stats::clock::MONOTONIC_MIN;
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

fn finding(code: FindingCode, severity: Severity, message: String) -> Finding {
    debug_assert!(
        code.severities().contains(&severity),
        "{code} is not raised as {severity:?} (FindingCode::severities)"
    );
    Finding {
        code,
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
    (throughput_given, model): (bool, Model),
    redact: bool,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let hide = crate::redact::hider(redact);
    match &e.layout {
        Some(l) => {
            collection_limit(e, l, target, &hide, &mut out);
            unmapped(e, l, &hide, &mut out);
            layout_missing(e, l, &mut out);
            collection_shortfall(e, l, cost, &mut out);
        }
        None => {
            logical_limit(e, target, &mut out);
            value_throughput(e, cost, &hide, &mut out);
            values(e, target, &mut out);
            if model == Model::Serverless {
                let parts = e.projection.container.partitions().len();
                let most = Serverless.capacity(0.0, parts);
                let source = format!(
                    "the {most:.0} RU/s a serverless container of {parts} physical partition(s) serves"
                );
                shortfall(cost, most, "partition", &source, &mut out);
            } else if throughput_given {
                let given = target.throughput.max_ru();
                let source = match &cost.provisioned {
                    Some(p) => format!("the {given:.0} RU/s provisioned ({})", p.source),
                    None => format!("the {given:.0} RU/s given"),
                };
                shortfall(cost, given, "partition", &source, &mut out);
            }
            over_provisioned(cost, &mut out);
        }
    }
    distribution(e, cost, target, &mut out);
    workload(e, &mut out);
    out.sort_by_key(|f| f.severity);
    out
}

/// `THROUGHPUT_SHORTFALL` when the RU/s required pass `given`, which `source` describes;
/// `unit` is what throttles (a partition, a layout's collection). It says which is the
/// cause: the load (throttling), or the service's minimum for the data stored (1 RU/s per
/// GB manual, an autoscale maximum of 10 per GB), which the load alone would not need.
fn shortfall(cost: &Cost, given: f64, unit: &str, source: &str, out: &mut Vec<Finding>) {
    let Some(need) = cost.required_ru.filter(|r| *r > given) else {
        return;
    };
    let load = cost.load_ru.unwrap_or(need);
    let message = if load <= given && cost.minimum_ru > given {
        format!(
            "needs {need:.0} RU/s, more than {source}, because of the storage minimum: the data stored requires at least {:.0} RU/s (1 RU/s per GB manual, an autoscale maximum of 10 per GB) whatever the load, which needs {load:.0}: no {unit} throttles",
            cost.minimum_ru
        )
    } else {
        format!(
            "needs {need:.0} RU/s so that no {unit} throttles in the busiest window, more than {source}: throttling (the load needs {load:.0} RU/s)"
        )
    };
    out.push(finding(
        FindingCode::ThroughputShortfall,
        Severity::Warning,
        message,
    ));
}

/// `EXCESS_RU` (info) when the throughput provisioned bills at least [`EXCESS_RU_RATIO`]
/// times what the key needs: the bill as provisioned against the bill as needed, both
/// named, with what keeps the need from coming lower (the storage minimum, the
/// container's history).
fn over_provisioned(cost: &Cost, out: &mut Vec<Finding>) {
    let (Some(p), Some(needed)) = (&cost.provisioned, cost.required_ru) else {
        return;
    };
    let (paid, owed) = match (p.monthly_throughput, cost.monthly_throughput) {
        (Some(a), Some(b)) => (a, b),
        _ => (p.ru, needed),
    };
    let ratio = paid / owed.max(f64::MIN_POSITIVE);
    if ratio < EXCESS_RU_RATIO {
        return;
    }
    let usd = |v: Option<f64>| v.map_or(String::new(), |v| format!(", {} USD a month", money(v)));
    let ru = |v: f64| crate::report::text::thousands(v);
    let floor = match cost.load_ru.is_some_and(|l| l < cost.minimum_ru) {
        true => format!(
            " (the load needs {:.0}; {:.0} is the least the service allows this container, its storage and the throughput it has had)",
            cost.load_ru.unwrap_or(0.0),
            cost.minimum_ru
        ),
        false => String::new(),
    };
    out.push(finding(
        FindingCode::ExcessRu,
        Severity::Info,
        format!(
            "as provisioned, {} RU/s ({}){}; as needed, {} RU/s{}{floor}: the throughput given bills {ratio:.1}× what the key needs (threshold {EXCESS_RU_RATIO}×)",
            ru(p.ru),
            p.source,
            usd(p.monthly_throughput),
            ru(needed),
            usd(cost.monthly_throughput),
        ),
    ));
}

/// USD as bills print them: whole dollars with separators from 100 up, cents below.
fn money(usd: f64) -> String {
    match usd >= 100.0 {
        true => crate::report::text::thousands(usd),
        false => format!("{usd:.2}"),
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
    let (name, best) = (best.key.spec.clone(), best.clone());
    for (c, &n) in candidates.iter_mut().zip(needs) {
        // The RU/s to provision too, when known: a layout's collections have minimums.
        let ratio = (n / least).max(super::need::ratio(c, &best));
        if ratio >= EXCESS_RU_RATIO {
            c.findings.push(finding(FindingCode::ExcessRu, Severity::Warning, format!(
                "needs {ratio:.1}× the RU/s of {name}, the cheapest candidate without violations, for the same operations (threshold {EXCESS_RU_RATIO}×)")));
            c.findings.sort_by_key(|f| f.severity);
        }
    }
}

/// What a candidate's partitions are called in messages: a layout's are its collections.
fn unit(e: &Evaluation) -> &'static str {
    match e.layout {
        Some(_) => "collection",
        None => "physical partition",
    }
}

/// `COLLECTION_LIMIT`: collections of a layout projected past their size.
fn collection_limit(
    e: &Evaluation,
    l: &Layout,
    target: &Target,
    hide: &dyn Fn(&str) -> String,
    out: &mut Vec<Finding>,
) {
    let c = &e.projection.container;
    let limit = l.tier().bytes;
    let mut over: Vec<(u64, String)> = (c.partitions().iter().enumerate())
        .filter(|(_, p)| p.bytes() > limit)
        .map(|(i, p)| (p.bytes(), l.collection_name_with(i, hide)))
        .collect();
    if over.is_empty() {
        return;
    }
    over.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let named: Vec<String> = (over.iter().take(3))
        .map(|(b, n)| format!("{n} ({})", human_bytes(*b)))
        .collect();
    let more = match over.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    let breaks = e.projection.max_container_bytes.map_or(String::new(), |b| {
        format!(
            "; the layout holds at most {} before its fullest collection is full",
            human_bytes(b)
        )
    });
    out.push(finding(FindingCode::CollectionLimit, Severity::Violation, format!(
        "{} of {} collections are projected past their {} limit at {} of data: {}{more}{breaks}",
        over.len(), c.partitions().len(), human_bytes(limit), human_bytes(target.storage_bytes), named.join(", "))));
}

/// `UNMAPPED_VALUE`: documents the layout's resolver cannot place.
fn unmapped(e: &Evaluation, l: &Layout, hide: &dyn Fn(&str) -> String, out: &mut Vec<Finding>) {
    let s = &e.stats;
    if s.invalid == 0 {
        return;
    }
    let why = match l.kind() {
        "range" => "a value in no range",
        "lookup" => "a value the map does not name (and no \"*\" entry)",
        _ => "an object or array",
    };
    let examples: Vec<String> = s
        .unplaced
        .iter()
        .map(|v| format!("{:?}", hide(v)))
        .collect();
    let examples = match examples.is_empty() {
        true => String::new(),
        false => format!(", e.g. {}", examples.join(", ")),
    };
    out.push(finding(
        FindingCode::UnmappedValue,
        Severity::Violation,
        format!(
            "{} documents ({:.1}%) have {why} at {}: the resolver cannot place them{examples}",
            s.invalid,
            pct(s.invalid, s.documents),
            l.path().map_or_else(String::new, ToString::to_string)
        ),
    ));
}

/// `MISSING_KEY` for a layout: documents without its resolver's path.
fn layout_missing(e: &Evaluation, l: &Layout, out: &mut Vec<Finding>) {
    let s = &e.stats;
    let Some(path) = l.path().filter(|_| s.missing > 0) else {
        return;
    };
    let fate = match l.kind() {
        "hash" => "the resolver hashes them all (undefined) into one collection",
        "lookup" => {
            "the resolver sends them to the map's \"*\" collection, or cannot place them without one"
        }
        _ => "they are in no range: the resolver cannot place them",
    };
    out.push(finding(
        FindingCode::MissingKey,
        Severity::Warning,
        format!(
            "{} documents ({:.1}%) lack {path}; {fate}",
            s.missing,
            pct(s.missing, s.documents)
        ),
    ));
}

/// `THROUGHPUT_SHORTFALL` for a layout: it needs more than its collections provide.
fn collection_shortfall(e: &Evaluation, l: &Layout, cost: &Cost, out: &mut Vec<Finding>) {
    let n = e.projection.container.partitions().len();
    let given = l.tier().ru * n as f64;
    let source = format!(
        "its {n} collections at {:.0} RU/s provide ({given:.0} RU/s)",
        l.tier().ru
    );
    shortfall(cost, given, "collection", &source, out);
}

fn logical_limit(e: &Evaluation, target: &Target, out: &mut Vec<Finding>) {
    let limit = Limits::default().logical_bytes;
    let Some(crate::project::projection::Largest { label, bytes, low }) = &e.projection.largest
    else {
        return;
    };
    // Net of chance: a snapshot's count carries its Poisson error, and only a value past
    // the limit at the low end of its 95% interval breaks it beyond chance.
    if *low <= limit {
        return;
    }
    let breaks = match (
        &e.projection.largest_closed,
        e.projection.max_container_bytes,
    ) {
        (Some(c), _) => match c.rate {
            Some(rate) => format!(
                "; it is a period (its writes last about {}: a day, a session), and one period at the target's write rate of {}/day holds that much whatever the container's size: the limit is an ingest rate, and the key breaks whenever one period's writes pass {}",
                period(c.period),
                human_bytes((rate * 86_400.0).round() as u64),
                human_bytes(limit)
            ),
            None => format!(
                "; its writes stopped {} after they began (a past period: a day, a session), so its size does not grow with the container: the limit is an ingest rate, and the key breaks whenever one period's writes pass {}",
                period(c.period),
                human_bytes(limit)
            ),
        },
        (None, Some(b)) => format!(
            "; the key breaks once the container passes {}",
            human_bytes(b)
        ),
        (None, None) => String::new(),
    };
    out.push(finding(
        FindingCode::LogicalPartitionLimit,
        Severity::Violation,
        format!(
            "value {label} is projected to {}{} at {} of data, over the {} logical-partition limit{breaks}",
            human_bytes(*bytes),
            match low < bytes {
                true => format!(" (at least {} net of chance, 95%)", human_bytes(*low)),
                false => String::new(),
            },
            human_bytes(target.storage_bytes),
            human_bytes(limit)
        ),
    ));
}

/// `LOGICAL_PARTITION_THROUGHPUT`: one key value needs more than a physical partition
/// serves. A logical partition lives on one physical partition, so no provisioning, split
/// or autoscale maximum serves it; only a key that spreads the value does.
fn value_throughput(
    e: &Evaluation,
    cost: &Cost,
    hide: &dyn Fn(&str) -> String,
    out: &mut Vec<Finding>,
) {
    let limit = Limits::default().physical_ru;
    let (Some(ru), Some(hot)) = (cost.value_ru, e.workload.hot_value.as_ref()) else {
        return;
    };
    if ru <= limit {
        return;
    }
    let label = (e.stats.values.heavy_entries())
        .find(|v| v.epk == hot.epk)
        .map_or_else(|| format!("of EPK {}", hot.epk.to_hex()), |v| hide(v.label));
    out.push(finding(FindingCode::LogicalPartitionThroughput, Severity::Violation, format!(
        "value {label} needs {ru:.0} RU/s in the busiest window at the target's rates (net of chance), over the {limit:.0} RU/s one physical partition serves: a logical partition cannot span partitions, so no throughput serves it; spread the value (a suffix, or a level below it)")));
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

fn values(e: &Evaluation, target: &Target, out: &mut Vec<Finding>) {
    let s = &e.stats;
    if s.invalid > 0 {
        out.push(finding(FindingCode::InvalidKeyValue, Severity::Violation, format!(
            "{} documents ({:.1}%) hold an object or array at the key path; key values must be strings, numbers, booleans or null",
            s.invalid, pct(s.invalid, s.documents))));
    }
    if is_id(e) {
        let dups: u64 = (e.stats.values.sample().filter(|v| v.docs > 1).count() as u64)
            .saturating_mul(e.stats.values.scale());
        if dups > 0 {
            out.push(finding(FindingCode::InvalidKeyValue, Severity::Violation, format!(
                "{dups} id values occur in more than one document; with /id as the key every id must be unique")));
        }
    }
    if s.over_limit > 0 {
        out.push(finding(FindingCode::KeyTooLong, Severity::Violation, format!(
            "{} documents have a key value over {VALUE_LIMIT} bytes (longest {} bytes); Cosmos DB rejects them",
            s.over_limit, s.max_value_bytes)));
    } else if s.over_v1_limit > 0 {
        out.push(finding(FindingCode::KeyTooLong, Severity::Warning, format!(
            "{} documents have a key value over {V1_VALUE_LIMIT} bytes (longest {} bytes); the container needs large partition keys (version 2)",
            s.over_v1_limit, s.max_value_bytes)));
    }
    missing_key(e, target, out);
    if s.unsafe_numbers > 0 {
        out.push(finding(FindingCode::UnsafeNumber, Severity::Warning, format!(
            "{} documents have a numeric key value beyond ±2^53, which doubles cannot tell apart; store such keys as strings",
            s.unsafe_numbers)));
    }
}

/// `MISSING_KEY`: documents without a path of the key share the undefined value (one
/// logical partition, or one per value of the levels above under a hierarchical key).
/// Every document without it is a violation: the path is misspelt or a placeholder.
fn missing_key(e: &Evaluation, target: &Target, out: &mut Vec<Finding>) {
    let s = &e.stats;
    if s.missing == 0 {
        return;
    }
    if s.missing >= s.documents {
        out.push(finding(FindingCode::MissingKey, Severity::Violation, format!(
            "none of the {} documents holds the key: every item would share one logical partition (undefined); check the path",
            s.documents)));
        return;
    }
    let share = s.missing as f64 / s.documents.max(1) as f64;
    let levels = e.spec.levels().len();
    let land = match levels {
        1 => format!(
            "they all share one logical partition (undefined), about {} at {} of data",
            human_bytes((share * target.storage_bytes as f64) as u64),
            human_bytes(target.storage_bytes)
        ),
        _ => "they share one logical partition (undefined) per value of the levels above the missing one".to_owned(),
    };
    let weight = match share >= HAZARD_SHARE {
        true => format!(
            "; at {:.1}% of the documents this weighs on the ranking like key changes",
            share * 100.0
        ),
        false => String::new(),
    };
    out.push(finding(
        FindingCode::MissingKey,
        Severity::Warning,
        format!(
            "{} documents ({:.1}%) lack a path of the key; {land}{weight}",
            s.missing,
            pct(s.missing, s.documents)
        ),
    ));
}

fn is_id(e: &Evaluation) -> bool {
    e.spec.to_string() == "/id"
}

fn distribution(e: &Evaluation, cost: &Cost, target: &Target, out: &mut Vec<Finding>) {
    // The target's partitions, or the key's if it split into more: a key of few values
    // cannot split, and its own count would lower the bar it is measured against.
    let even = (target.throughput).even_partitions(target.storage_bytes, &Limits::default());
    let parts = e.projection.container.partitions().len().max(even);
    let unit = unit(e);
    let needed = 100.max(10 * parts as u64);
    let at_target = e.distinct_at_target();
    if at_target < needed && e.layout.is_none() {
        let sample = match at_target > e.distinct.estimate {
            true => format!(" ({} in the sample)", e.distinct.estimate),
            false => String::new(),
        };
        out.push(finding(FindingCode::LowCardinality, Severity::Warning, format!(
            "{at_target} distinct values at the target{sample}, fewer than max(100, 10 × {parts} physical partitions) = {needed}")));
    }
    let w = &e.workload;
    // Over the whole log: independent of how the log groups requests into lines.
    // Net of chance when the log is a sample (see `need::key_need`).
    let skew = cost.need / w.counted_ru.max(f64::MIN_POSITIVE);
    // Enough separate requests (log lines, or documents) that chance alone cannot make one
    // partition twice as busy as the mean.
    let lumps = if w.per_op.is_empty() {
        w.writes
    } else {
        w.per_op.len() as u64
    };
    let enough = lumps >= HOT_MIN_LUMPS * parts as u64;
    if parts > 1 && w.counted_ru > 0.0 && enough && skew >= HOT_SKEW {
        out.push(finding(FindingCode::HotPartition, Severity::Warning, format!(
            "over the whole log the busiest {unit} takes {skew:.1}× its share of RU (threshold {HOT_SKEW}×): it must provision that many times what its load needs on average")));
    } else if parts > 1 && w.usable_relative < HOT_RELATIVE {
        out.push(finding(FindingCode::HotPartition, Severity::Warning, format!(
            "the busiest {unit} takes {:.1}× its share of RU; in the worst window only {:.0}% of provisioned throughput is usable, {:.0}% of what random placement of the same operations allows (threshold {:.0}%)",
            e.ru_skew, e.usable * 100.0, w.usable_relative * 100.0, HOT_RELATIVE * 100.0)));
    }
    let mut hotspot = Vec::new();
    if parts > 1 && e.workload.writes > 0 && e.workload.write_spread < WRITE_SPREAD_MIN {
        let why = match e.layout.as_deref().map(Layout::kind) {
            Some("spillover") => "a spillover writes to its newest collection only",
            Some("range") => {
                "the writes of a moment fall in one range (a range of time takes every current write)"
            }
            Some(_) => "the writes of a moment share few values, so few collections",
            None => "a key that follows the clock or has few values",
        };
        let w = &e.workload;
        hotspot.push(if w.write_spread_load <= w.write_spread + 1e-9 {
            format!(
                "writes concentrate: in the log's windows the busiest {unit} takes the writes' load at {:.0}% of the even spread that writes placed at random give (threshold {:.0}%); {why}",
                w.write_spread * 100.0, WRITE_SPREAD_MIN * 100.0)
        } else {
            format!(
                "writes concentrate in time: runs of consecutive writes reach {:.0}% of the {unit}s that writes placed at random would reach (threshold {:.0}%); {why}",
                w.write_spread * 100.0, WRITE_SPREAD_MIN * 100.0)
        });
    }
    let monotonic = e.arrival_order.filter(|r| *r >= MONOTONIC_MIN);
    match monotonic {
        Some(r) if e.clock_reading => hotspot.push(format!(
            "values are clock readings that increase with arrival (rank correlation {r:.2}, threshold {MONOTONIC_MIN}): writes arriving together share the moment's value, so at production rates every write of a second (or a day) goes to one {}, however unique the values look in this sample",
            if e.layout.is_some() { "collection" } else { "logical partition" })),
        Some(_) if e.layout.is_some() => {}
        Some(r) => out.push(finding(FindingCode::MonotonicKey, Severity::Info, format!(
            "values increase with arrival (rank correlation {r:.2}, threshold {MONOTONIC_MIN}), like a sequence number: hashing spreads values that stay unique, but writes that ever share a value (a batch number) share its logical partition"))),
        None => {}
    }
    if !hotspot.is_empty() {
        out.push(finding(
            FindingCode::WriteHotspot,
            Severity::Warning,
            hotspot.join("; "),
        ));
    }
}

/// `KEY_UPDATED` when the workflow itself moves items between key values, as a share of
/// the items the log writes: from this share the key is unusable as the application is
/// written (a violation).
pub const MOVED_ITEMS_VIOLATION: f64 = 0.05;

/// `KEY_UPDATED`: logged writes that change an item's key value. Each is a move (read,
/// delete, create: two logical partitions, so not atomic); a material share of the items
/// is a violation, and from [`HAZARD_SHARE`] of the writes it weighs on the ranking.
fn key_updated(w: &crate::replay::WorkloadStats, out: &mut Vec<Finding>) {
    if w.key_updated == 0 {
        return;
    }
    let items = w.moved_items as f64 / w.written_items.max(1) as f64;
    let writes = w.key_updated as f64 / w.writes.max(1) as f64;
    let moves = format!(
        "{} logged writes ({:.2}% of writes) change an item's key value, {} of the {} items written ({:.1}%); a key value cannot change in place: each is a read, a delete and a create in two logical partitions (charged so, and not atomic)",
        w.key_updated,
        writes * 100.0,
        w.moved_items,
        w.written_items,
        items * 100.0
    );
    let (severity, tail) = if items >= MOVED_ITEMS_VIOLATION {
        let t = format!(
            "; the workflow moves items (threshold {:.0}% of items, e.g. a key set after creation): the key is unusable as the application is written",
            MOVED_ITEMS_VIOLATION * 100.0
        );
        (Severity::Violation, t)
    } else if writes >= HAZARD_SHARE {
        let t = "; this weighs on the ranking like a step of cost".to_owned();
        (Severity::Warning, t)
    } else {
        (Severity::Warning, String::new())
    };
    out.push(finding(
        FindingCode::KeyUpdated,
        severity,
        format!("{moves}{tail}"),
    ));
}

fn workload(e: &Evaluation, out: &mut Vec<Finding>) {
    let w = &e.workload;
    let unit = unit(e);
    let parts = e.projection.container.partitions().len();
    let fan_out_share = w.fan_out_ru / w.read_ru.max(f64::MIN_POSITIVE);
    if parts > 1 && fan_out_share >= FAN_OUT_RU_SHARE {
        out.push(finding(
            FindingCode::FanOutQueries,
            Severity::Warning,
            format!(
                "reads that visit all {parts} {unit}s ({:.0}% of reads fix no key value) spend {:.0}% of the reads' RU on the partitions beyond the first, 2.5 RU each (threshold {:.0}%)",
                w.fraction(w.fan_out) * 100.0,
                fan_out_share * 100.0,
                FAN_OUT_RU_SHARE * 100.0
            ),
        ));
    }
    key_updated(w, out);
    if w.cross_partition_batches > 0 {
        out.push(finding(FindingCode::CrossPartitionTransaction, Severity::Violation, format!(
            "{} of {} logged batches touch more than one logical partition; transactions are scoped to one",
            w.cross_partition_batches, w.batches)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GB, Throughput};

    const TARGET: Target = Target {
        storage_bytes: 1_000 * GB,
        throughput: Throughput::Manual(20_000.0),
    };

    /// An evaluation of `/k` over 32 partitions with no problem at all: each case changes
    /// one figure.
    fn clean() -> Evaluation {
        crate::advisor::evaluate::testing::evaluation("/k")
    }

    use crate::advisor::need::testing::cost;

    fn codes(e: &Evaluation, throughput_given: bool) -> Vec<FindingCode> {
        // The need the cost takes from the replay (a full log: as counted).
        let cost = Cost {
            need: e.workload.need_ru,
            ..cost()
        };
        findings(e, &TARGET, &cost, (throughput_given, Model::Manual), false)
            .into_iter()
            .map(|f| f.code)
            .collect()
    }

    #[test]
    fn each_threshold_fires_on_its_side_of_the_line() {
        type Edit = fn(&mut Evaluation);
        // (what changes, the finding, just past the threshold, just short of it)
        let cases: [(&str, FindingCode, Edit, Edit); 9] = [
            (
                "a value past 20 GB",
                FindingCode::LogicalPartitionLimit,
                |e| set_largest(e, 20 * GB + 1, 20 * GB + 1),
                |e| set_largest(e, 20 * GB, 20 * GB),
            ),
            (
                // Projected past the limit, but not beyond chance (its 95% low end under it).
                "a value past 20 GB beyond chance",
                FindingCode::LogicalPartitionLimit,
                |e| set_largest(e, 30 * GB, 20 * GB + 1),
                |e| set_largest(e, 30 * GB, 20 * GB),
            ),
            (
                "fewer values than max(100, 10 P)",
                FindingCode::LowCardinality,
                |e| e.distinct.estimate = 319,
                |e| e.distinct.estimate = 320,
            ),
            (
                "writes reaching under half of chance",
                FindingCode::WriteHotspot,
                |e| e.workload.write_spread = 0.49,
                |e| e.workload.write_spread = 0.5,
            ),
            (
                "usable under half of chance",
                FindingCode::HotPartition,
                |e| e.workload.usable_relative = 0.49,
                |e| e.workload.usable_relative = 0.5,
            ),
            (
                "fan-out spending 25% of the reads' RU",
                FindingCode::FanOutQueries,
                |e| (e.workload.read_ru, e.workload.fan_out_ru) = (100.0, 25.0),
                |e| (e.workload.read_ru, e.workload.fan_out_ru) = (100.0, 24.9),
            ),
            (
                "a value over 2,048 bytes",
                FindingCode::KeyTooLong,
                |e| e.stats.over_limit = 1,
                |e| e.stats.over_limit = 0,
            ),
            (
                "documents without the path",
                FindingCode::MissingKey,
                |e| e.stats.missing = 1,
                |e| e.stats.missing = 0,
            ),
            (
                "a replace under another key",
                FindingCode::KeyUpdated,
                |e| e.workload.key_updated = 1,
                |e| e.workload.key_updated = 0,
            ),
        ];
        assert!(
            codes(&clean(), true).is_empty(),
            "{:?}",
            codes(&clean(), true)
        );
        for (what, code, past, short) in cases {
            let mut e = clean();
            past(&mut e);
            assert!(
                codes(&e, false).contains(&code),
                "{what}: {:?}",
                codes(&e, false)
            );
            let mut e = clean();
            short(&mut e);
            assert!(
                !codes(&e, false).contains(&code),
                "{what}: {:?}",
                codes(&e, false)
            );
        }
    }

    /// Sets the largest value's projected bytes and the low end of their interval.
    fn set_largest(e: &mut Evaluation, bytes: u64, low: u64) {
        let l = e.projection.largest.as_mut().unwrap();
        (l.bytes, l.low) = (bytes, low);
    }

    #[test]
    fn whole_log_skew_needs_enough_requests_and_a_shortfall_needs_a_given_throughput() {
        let mut e = clean();
        (e.workload.need_ru, e.workload.counted_ru) = (2.0, 1.0);
        // 32 partitions × 20 requests each are needed for the skew to count.
        e.workload.writes = 639;
        assert!(!codes(&e, false).contains(&FindingCode::HotPartition));
        e.workload.writes = 640;
        assert!(codes(&e, false).contains(&FindingCode::HotPartition));
        // 1,000 RU/s required against 20,000 given: no shortfall; against 999, one, only
        // when the throughput was given.
        let short = Target {
            throughput: Throughput::Manual(999.0),
            ..TARGET
        };
        let f = |given| findings(&clean(), &short, &cost(), (given, Model::Manual), false);
        let found = f(true);
        let shortfall = (found.iter())
            .find(|f| f.code == FindingCode::ThroughputShortfall)
            .expect("a shortfall");
        assert!(
            shortfall.message.contains("throttling"),
            "{}",
            shortfall.message
        );
        assert!(
            !f(false)
                .iter()
                .any(|f| f.code == FindingCode::ThroughputShortfall)
        );
        // Violations come first.
        let mut e = clean();
        e.stats.missing = 1;
        set_largest(&mut e, 30 * GB, 30 * GB);
        let all = findings(&e, &TARGET, &cost(), (false, Model::Manual), false);
        assert_eq!(all[0].severity, Severity::Violation);
    }

    #[test]
    fn a_shortfall_says_whether_the_load_or_the_storage_minimum_causes_it() {
        // 2 TB need 2,000 RU/s manual whatever the load, which needs 300: 1,000 given.
        let given = Target {
            throughput: Throughput::Manual(1_000.0),
            ..TARGET
        };
        let stored = Cost {
            required_ru: Some(2_000.0),
            load_ru: Some(300.0),
            minimum_ru: 2_000.0,
            ..cost()
        };
        let message = |c: &Cost, model: Model| -> String {
            (findings(&clean(), &given, c, (true, model), false).into_iter())
                .find(|f| f.code == FindingCode::ThroughputShortfall)
                .map(|f| f.message)
                .unwrap_or_default()
        };
        let m = message(&stored, Model::Manual);
        assert!(
            m.contains("storage minimum") && !m.contains(": throttling"),
            "{m}"
        );
        let loaded = Cost {
            load_ru: Some(1_500.0),
            ..stored
        };
        let m = message(&loaded, Model::Manual);
        assert!(m.contains(": throttling (the load needs 1500"), "{m}");
        // Serverless: 32 partitions serve 32,000 RU/s at most, whatever was given.
        let busy = Cost {
            required_ru: Some(40_000.0),
            load_ru: Some(40_000.0),
            minimum_ru: 0.0,
            ..cost()
        };
        let m = message(&busy, Model::Serverless);
        assert!(m.contains("32000 RU/s a serverless container of 32"), "{m}");
    }
}
