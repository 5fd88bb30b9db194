//! The words and figures more than one renderer writes: numbers with separators, a
//! candidate's cost in a sentence, the line saying what was read and projected onto, the
//! partition map's heading and cells, and the verdict's sentences. Each renderer lays them
//! out its own way; Markdown escapes them with [`cell`].

use super::model::{
    CandidateReport, CheckResult, ExplainReport, ObservedCheck, PhysicalView, Report,
    SecondaryIndex, ValueLanding,
};
use crate::units::human_bytes;

/// A whole number with thousands separators: `12,345`.
pub fn thousands(x: f64) -> String {
    let n = x.round().max(0.0) as u64;
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The smallest round figure, 1, 2, 2.5 or 5 × 10ⁿ, at or above `x` (1 for nothing): a
/// chart axis's end or a gridline's step.
pub fn round_up(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(x.log10().floor());
    let f = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .find(|f| f * mag >= x)
        .unwrap_or(10.0);
    f * mag
}

/// `text` wrapped at spaces to lines of at most `width` characters (a word longer than
/// that keeps a line of its own, whole), the first line after `first`, the others after
/// `rest`; the text's own line breaks, and the spaces within a line, are kept.
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut out = String::new();
    for (n, paragraph) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let mut line = String::from(if n == 0 { first } else { rest });
        let mut empty = true;
        let mut gap = 0;
        for word in paragraph.split(' ') {
            if word.is_empty() {
                gap += 1;
                continue;
            }
            let spaces = if empty { 0 } else { gap + 1 };
            if !empty && line.chars().count() + spaces + word.chars().count() > width {
                out.push_str(&line);
                out.push('\n');
                line = String::from(rest);
                empty = true;
            }
            if !empty {
                line.extend(std::iter::repeat_n(' ', gap + 1));
            }
            line.push_str(word);
            (empty, gap) = (false, 0);
        }
        out.push_str(line.trim_end());
    }
    out
}

/// Escapes what would break a Markdown table cell.
pub fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// What a key needs in words: RU/s, efficiency and the monthly bill when the log gives
/// rates, else RU per operation and efficiency.
pub fn cost_summary(c: &CandidateReport) -> String {
    let k = &c.cost;
    match k.required_ru {
        Some(ru) => format!(
            "{} RU/s ({:.0}% efficient; {} USD a month with storage)",
            thousands(ru),
            k.efficiency * 100.0,
            thousands(k.monthly.total)
        ),
        None => format!(
            "{:.1} RU per operation ({:.0}% efficient)",
            k.ru_per_operation,
            k.efficiency * 100.0
        ),
    }
}

/// The two bills of a key when a flag or the template gives the throughput: as
/// provisioned (what Azure charges for it) and as needed (the least the key needs); `None`
/// when no throughput is given.
pub fn bills_line(c: &CandidateReport) -> Option<String> {
    let p = c.cost.provisioned.as_ref()?;
    Some(format!(
        "Bills of {}: as provisioned ({}), {}; as needed, {} (at least {} RU/s: the storage and the throughput the container has had allow no less).",
        c.key.spec,
        p.source,
        bill(p),
        bill(&c.cost.needed),
        thousands(c.cost.minimum_ru)
    ))
}

/// A bill in words: its RU/s and what they cost a month.
fn bill(b: &crate::report::model::Bill) -> String {
    let ru = b.ru.map_or("unknown RU/s".to_owned(), |r| {
        format!("{} RU/s", thousands(r))
    });
    match b.monthly.throughput {
        Some(usd) => format!("{ru}, {} USD a month for throughput", thousands(usd)),
        None => format!("{ru}, its monthly bill unknown without rates"),
    }
}

/// [`bills_line`] of the recommended candidate, when a throughput is given.
pub fn recommended_bills(report: &Report) -> Option<String> {
    let spec = &report.recommendation.as_ref()?.spec;
    bills_line(report.candidates.iter().find(|c| &c.key.spec == spec)?)
}

/// The line above the table when the default target is far past the sample.
pub fn small_sample_line(report: &Report) -> Option<String> {
    let ratio = report.target.sample_ratio?;
    Some(format!(
        "Small sample, big default: the sample's {} are projected onto the default {}, {}× as much: its proportions are extrapolated that far; give --target-storage with the size you expect.",
        human_bytes(report.input.bytes),
        human_bytes(report.target.storage_bytes),
        thousands(ratio.round())
    ))
}

/// The line saying what was read and projected onto.
pub fn target_line(report: &Report) -> String {
    let t = &report.target;
    let i = &report.input;
    let flags = match t.sources.contains_key("throughput") {
        true => "--target-storage",
        false => "--target-storage / --throughput",
    };
    let defaulted = if t.defaults.is_empty() {
        String::new()
    } else {
        format!(
            " (default {}; set {flags})",
            (t.defaults.iter())
                .map(|d| match (d.as_str(), &t.storage_default) {
                    ("storage", Some(how)) => format!("storage: {how}"),
                    _ => d.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let declared = match t.sources.get("throughput") {
        Some(source) => format!(" (throughput declared in {source})"),
        None => String::new(),
    };
    let ops = if i.operations > 0 {
        format!(", {} logged operations", i.operations)
    } else {
        String::new()
    };
    let invalid = if i.invalid > 0 {
        format!(", {} invalid skipped", i.invalid)
    } else {
        String::new()
    };
    let redacted = match i.redacted {
        true => ", key values redacted in the profiles (shown as hashes)",
        false => "",
    };
    let monitor = i.monitor.as_ref().map_or(String::new(), monitor_note);
    let retention = (t.retention.as_ref()).map_or(String::new(), |r| format!(" Items live {r}."));
    let timeline = t.timeline.as_ref().map_or(String::new(), timeline_note);
    let kinds = kinds_note(t);
    format!(
        "{} documents ({}){ops}{invalid}{redacted}{monitor}. Projected onto {} at {} RU/s {} = {} physical partitions{defaulted}{declared}.{kinds}{retention}{timeline} {}",
        i.documents,
        human_bytes(i.bytes),
        human_bytes(t.storage_bytes),
        t.throughput_ru,
        t.throughput_mode,
        t.physical_partitions,
        billing_note(&t.prices)
    )
}

/// What the sample and the log are, and why, as a sentence of the header (with its leading
/// space).
pub fn kinds_note(t: &super::model::TargetReport) -> String {
    let sample = match t.sample.kind.as_str() {
        "complete" => "every document of the values it holds",
        _ => "a snapshot, a uniform share of the container",
    };
    let log = t.log_kind.as_ref().map_or(String::new(), |l| {
        let kind = match l.kind.as_str() {
            "values" => "every request of a share of the values",
            _ => "a share of the requests",
        };
        let why = match l.why == t.sample.why {
            true => "the same test",
            false => l.why.as_str(),
        };
        format!("; the log, {kind} ({why})")
    });
    let unit = t.unit.as_ref().map_or(String::new(), |u| {
        format!(
            " The share is of {}'s {} values: a key of at most {} values gathers several of them in each and is sized and rated as a snapshot's, × 1/share.",
            u.path,
            u.values,
            u.values / 2
        )
    });
    format!(" Sample: {sample} ({}){log}.{unit}", t.sample.why)
}

/// How a value reaches its projected size, step by step (`--explain-value`), as a sentence.
pub fn arithmetic_line(x: &super::model::ValueArithmetic) -> String {
    let kinds = format!(
        "to this key the sample is {} and the log of {}",
        match x.sample.as_str() {
            "complete" => "complete values",
            _ => "a snapshot",
        },
        match x.log_kind.as_str() {
            "values" => "values (rates exact)",
            _ => "requests (rates ÷ --log-share)",
        }
    );
    let state = match (x.closed, x.credible < 1.0) {
        (true, _) => "closed: its writes stopped".to_owned(),
        (false, true) => format!(
            "open; seen {} times, its count earns {:.0}% of the open values' growth ×{:.1} (Good–Turing)",
            x.documents,
            x.credible * 100.0,
            x.open_growth
        ),
        (false, false) => format!("open; the open values grow ×{:.1}", x.open_growth),
    };
    let held = x.held_lines.map_or(String::new(), |[n, net]| {
        format!(
            "; the sample's values take their share of the new data from {n:.0} {} of the log's creates, {net:.1} net of chance",
            if n == 1.0 { "line" } else { "lines" }
        )
    });
    let rate = x.rate_bytes_per_second.map_or(String::new(), |r| {
        format!("; written at {}/s", human_bytes(r.round() as u64))
    });
    let open = x.open_seconds.map_or(String::new(), |s| {
        format!(" for {:.1} days until the target", s / 86_400.0)
    });
    let bound = x.bound.map_or(String::new(), |b| {
        format!("; bounded at ×{b:.1} (its rate × the time to live, or a period)")
    });
    let interval = match x.interval_bytes[0] == x.interval_bytes[1] {
        true => " (exact: complete values)".to_owned(),
        false => format!(
            " (95%: {} to {} from its count)",
            human_bytes(x.interval_bytes[0]),
            human_bytes(x.interval_bytes[1])
        ),
    };
    format!(
        "How: {kinds}; {state}{rate}{open}{held}{bound}. Grown ×{:.1}: {} at the target{interval}.",
        x.growth,
        human_bytes(x.bytes),
    )
}

/// What the timelines start from, as a sentence of the header (with its leading space).
pub fn timeline_note(b: &super::model::TimelineBasisReport) -> String {
    let ingest = match b.ingest_from.as_str() {
        "log" => "the log's creates ÷ --log-share",
        "growth" => "--growth",
        _ => "the sample's --time-path arrivals",
    };
    let dated = match b.dated_from.as_str() {
        "as-of" => "--as-of",
        "log" => "the log's last day",
        "time-path" => "the sample's last day",
        _ => "today, UTC; give --as-of for a fixed date",
    };
    let settles = b.settles_bytes.map_or(String::new(), |s| {
        format!(", settling at {}", human_bytes(s))
    });
    format!(
        " Timeline from {} ({dated}): {} a day ({ingest}) from {}{settles}.",
        b.from,
        human_bytes(b.ingest_bytes_per_day),
        human_bytes(b.start_bytes)
    )
}

/// What the bill assumes, in one sentence: the model and its price, the regions, reserved
/// capacity, the consistency of reads, what writes index, and how the log makes a month.
fn billing_note(p: &super::model::PricesReport) -> String {
    let model = match (&p.autoscale_mode, p.ru_million) {
        (_, Some(m)) => format!("serverless at {m} USD per million RU"),
        (Some(mode), _) => format!(
            "autoscale by {mode}, {} USD per 100 RU/s-hour",
            p.ru_hour_per_100
        ),
        _ => format!(
            "{} at {} USD per 100 RU/s-hour",
            p.billing, p.ru_hour_per_100
        ),
    };
    let writes = match p.multi_region_writes {
        true => ", writes in every region",
        false => "",
    };
    let reserved = match &p.reserved {
        Some(r) => format!(", reserved {r} ({:.0}% off)", p.reserved_discount * 100.0),
        None => String::new(),
    };
    format!(
        "Billed: {model}, {} region(s){writes}{reserved}; {} reads; writes indexed by {}, {:.1} terms a document; {}.",
        p.regions,
        p.consistency.replace('-', " "),
        p.indexing,
        p.terms_per_document,
        p.month
    )
}

/// The prices the bill uses and where they come from, in one sentence: throughput by the
/// hour (by the million RU when serverless), storage, regions, reserved capacity.
pub(super) fn prices_note(p: &super::model::PricesReport) -> String {
    let throughput = match p.ru_million {
        Some(m) => format!("{m} USD per million RU"),
        None => format!("{} USD per 100 RU/s-hour", p.ru_hour_per_100),
    };
    let reserved = match &p.reserved {
        Some(r) => format!(" ({:.0}% off, reserved {r})", p.reserved_discount * 100.0),
        None => String::new(),
    };
    format!(
        "Prices: {throughput}{reserved}, {} USD per GB-month, {} region(s): {}.",
        p.gb_month, p.regions, p.source
    )
}

/// What an Azure Monitor log showed, in a few words.
fn monitor_note(m: &super::model::MonitorReport) -> String {
    let mut parts = vec![match &m.container {
        Some(c) => format!("{} Azure Monitor rows of {c}", m.rows),
        None => format!("{} Azure Monitor rows", m.rows),
    }];
    if !m.containers_left.is_empty() {
        let rows: u64 = m.containers_left.iter().map(|c| c.rows).sum();
        let n = m.containers_left.len();
        parts.push(format!(
            "{rows} {} of {n} other {} left ({})",
            if rows == 1 { "row" } else { "rows" },
            if n == 1 { "container" } else { "containers" },
            (m.containers_left.iter().map(|c| c.container.as_str()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    match &m.current_key {
        Some(k) => parts.push(format!(
            "{} point operations keyed by the current key {k}",
            m.keyed
        )),
        None => parts.push("no --current-key: point operations know no key value".to_owned()),
    }
    if m.throttled > 0 {
        parts.push(format!("{} requests throttled (429)", m.throttled));
    }
    if m.hidden > 0 {
        parts.push(format!(
            "{} queries with hidden values routed by their shape, placed as the sample's documents lie",
            m.hidden
        ));
    }
    if m.unroutable > 0 {
        parts.push(format!("{} unroutable (no text, no key)", m.unroutable));
    }
    if m.duplicates > 0 {
        parts.push(format!(
            "{} duplicate rows read once (an export given twice?)",
            m.duplicates
        ));
    }
    if m.uncorrelated > 0 {
        parts.push(format!(
            "{} query pages without a usable CorrelatedActivityId (each counted a query)",
            m.uncorrelated
        ));
    }
    if m.unjoined > 0 {
        parts.push(format!(
            "{} query {} without a request row (charged by the model)",
            m.unjoined,
            if m.unjoined == 1 { "page" } else { "pages" }
        ));
    }
    if let Some(p) = m.largest_partitions.first() {
        parts.push(format!(
            "largest logical partition observed {} ({})",
            human_bytes(p.bytes),
            p.value
        ));
    }
    format!(" ({})", parts.join("; "))
}

/// The secondary-index paragraph of the table and Markdown outputs.
pub fn secondary_index_line(g: &SecondaryIndex) -> String {
    let verdict = if g.proposed {
        "proposed"
    } else {
        "weighed, not proposed"
    };
    format!(
        "Global secondary index keyed by {} ({verdict}): {}",
        g.key.spec, g.reason
    )
}

/// What the partition map's columns hold, its ranges described by `ranges` (a format
/// showing whole ranges passes [`MAP_RANGES`]).
pub fn map_legend(ranges: &str) -> String {
    format!(
        "In EPK order. pkrange: the partition's id (a layout's collection); {ranges}; logical: logical partitions; RU: request units the replayed log charged it; largest values: their projected bytes (! past the 20 GB limit of one logical partition), (others) the projected small values together."
    )
}

/// The map's ranges where they are whole.
pub const MAP_RANGES: &str = "min, max: its EPK range [min, max) in hex";

/// The partition map's heading: the key, the size, the partitions (or collections) and the
/// RU/s each gets.
pub fn map_header(r: &ExplainReport) -> String {
    let unit = match r.collections.is_empty() {
        true => "physical partitions",
        false => "collections",
    };
    format!(
        "{} at {}: {} {unit}, {} RU/s each",
        r.key.spec,
        human_bytes(r.storage_bytes),
        r.map.partitions.len(),
        thousands(r.map.ru_per_partition)
    )
}

/// What the map's first column names the `i`th partition by: its pkrange id, or a layout's
/// collection.
pub fn partition_name(r: &ExplainReport, i: usize, p: &PhysicalView) -> String {
    r.collections
        .get(i)
        .cloned()
        .unwrap_or_else(|| p.id.to_string())
}

/// Where an `--explain-value` lands, in one paragraph.
pub fn landing_line(r: &ExplainReport, v: &ValueLanding) -> String {
    let limit = crate::engine::Limits::default().logical_bytes;
    let n = r.map.partitions.len();
    let reach = match v.partitions.as_slice() {
        [one] => format!("partition #{one} of {n}"),
        [first, .., last] => format!(
            "partitions #{first} to #{last} ({} of {n})",
            v.partitions.len()
        ),
        [] => "no partition".to_owned(),
    };
    let past = |b: u64| match b > limit {
        true => format!(" (! past the {} limit)", human_bytes(limit)),
        false => String::new(),
    };
    match (&v.epk_max, v.logical_partitions) {
        (Some(max), count) => format!(
            "The prefix {} spans EPK [{}, {max}) on {reach}: projected {} in {} logical {}, the largest {}{}.",
            v.value,
            v.epk,
            human_bytes(v.bytes),
            thousands(count as f64),
            if count == 1 {
                "partition"
            } else {
                "partitions"
            },
            human_bytes(v.largest_bytes),
            past(v.largest_bytes)
        ),
        (None, 0) => format!(
            "{} has EPK {} on {reach}: not among the values the projection places one by one (absent from the sample, or one of its small values, projected together).",
            v.value, v.epk
        ),
        (None, _) => {
            let sample = v.sample.as_ref().map_or(String::new(), |s| {
                format!(
                    "; in the sample {} documents, {}",
                    thousands(s.documents as f64),
                    human_bytes(s.bytes)
                )
            });
            let how = v
                .arithmetic
                .as_ref()
                .map_or(String::new(), |x| format!(" {}", arithmetic_line(x)));
            format!(
                "{} has EPK {} on {reach}: projected {}{}, {} items{sample}.{how}",
                v.value,
                v.epk,
                human_bytes(v.bytes),
                past(v.bytes),
                thousands(v.items as f64)
            )
        }
    }
}

/// The partition's largest values with their bytes, one a line, `!` before a value past
/// the 20 GB limit; labels cut in the middle to `width` characters when given.
pub fn largest_values(r: &ExplainReport, p: &PhysicalView, width: Option<usize>) -> String {
    let limit = crate::engine::Limits::default().logical_bytes;
    let any_past = p.largest.iter().any(|l| l.bytes > limit);
    p.largest
        .iter()
        .map(|l| {
            let tail = if width.is_some() {
                "(others)"
            } else {
                "(small values, projected)"
            };
            let label = r.labels.get(&l.epk).map_or(tail, String::as_str);
            let label = match width {
                Some(w) => elide_label(label, w),
                None => label.to_owned(),
            };
            let mark = match (l.bytes > limit && !l.epk.is_empty(), any_past) {
                (true, _) => "!",
                (false, true) => " ",
                (false, false) => "",
            };
            format!("{mark}{} {label}", human_bytes(l.bytes))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A value's label cut to `width` characters: a hierarchical value (a JSON array) level
/// by level, each level keeping a fair share of the width, so every level stays readable;
/// anything else in the middle.
pub fn elide_label(label: &str, width: usize) -> String {
    let levels: Vec<String> = match serde_json::from_str::<serde_json::Value>(label) {
        Ok(serde_json::Value::Array(a)) if a.len() > 1 && label.chars().count() > width => {
            a.iter().map(|v| v.to_string()).collect()
        }
        _ => return elide(label, width),
    };
    let budget = width.saturating_sub(levels.len() + 1);
    // Water-filling: short levels keep all they have, the rest share what remains.
    let mut order: Vec<usize> = (0..levels.len()).collect();
    order.sort_by_key(|&i| levels[i].chars().count());
    let mut share = vec![0; levels.len()];
    let mut left = budget;
    for (k, &i) in order.iter().enumerate() {
        let fair = left / (levels.len() - k);
        share[i] = levels[i].chars().count().min(fair);
        left -= share[i];
    }
    let cut: Vec<String> = (levels.iter().zip(&share))
        .map(|(l, &w)| elide(l, w.max(3)))
        .collect();
    format!("[{}]", cut.join(","))
}

/// `text` cut to `width` characters in the middle (its head and its tail kept: values of
/// one tenant differ at the end).
pub fn elide(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width || width < 3 {
        return text.to_owned();
    }
    let head = (width - 1) * 3 / 5;
    let tail = width - 1 - head;
    let chars: Vec<char> = text.chars().collect();
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[n - tail..]);
    out
}

/// The verdict's cost sentence: the declared key's cost, and the cheapest alternative's
/// beside it.
pub fn cost_line(report: &Report, v: &CheckResult) -> String {
    let c = report.declared();
    let mut line = format!("{} needs {}", c.key.spec, cost_summary(c));
    // EXCESS_RU (info) names the bill as provisioned already.
    let excess = (c.findings.iter()).any(|f| {
        f.code == super::model::FindingCode::ExcessRu && f.severity == super::model::Severity::Info
    });
    if let Some(p) = c.cost.provisioned.as_ref().filter(|_| !excess) {
        line.push_str(&format!(" (as provisioned, {}: {})", p.source, bill(p)));
    }
    let alt = v
        .cheapest_alternative
        .as_ref()
        .and_then(|s| report.candidates.iter().find(|o| &o.key.spec == s));
    if let (Some(o), Some(r)) = (alt, v.cost_ratio) {
        let what = match report.pair_against(o) {
            Some(_) => "monthly bill, with its declared indexes",
            None => "RU/s",
        };
        line.push_str(&format!(
            "; the cheapest alternative, {}, needs {} (the {} needs {r:.2}× its {what}; limit {}×)",
            o.key.spec,
            cost_summary(o),
            if c.key.kind == "layout" {
                "layout"
            } else {
                "key"
            },
            v.max_cost_ratio
        ));
    }
    line
}

/// The verdict's sentence on what an Azure Monitor log observed of the declared key.
pub fn observed_line(o: &ObservedCheck) -> String {
    format!(
        "the largest logical partition the Azure Monitor log reports is {} ({}); the projection puts the largest at {} at the target",
        human_bytes(o.largest_bytes),
        o.value,
        human_bytes(o.projected_bytes)
    )
}

/// The best alternative the verdict names, if any: its spec, and what follows it on its
/// line (its score, rank and origin).
pub fn best_alternative<'a>(report: &Report, v: &'a CheckResult) -> Option<(&'a str, String)> {
    let spec = v.best_alternative.as_deref()?;
    let alt = report
        .candidates
        .iter()
        .find(|c| c.key.spec == spec)
        .expect("alternative listed");
    let tail = format!(
        "(score {:.1}, rank {} of {}): {}",
        alt.score,
        alt.rank,
        report.candidates.len(),
        alt.origin
    );
    Some((spec, tail))
}

/// The lines that declare `check`'s best alternative in ARM, Bicep and Terraform, when it
/// is a key Cosmos DB declares (one path, or a hierarchy: kind MultiHash, version 2).
pub fn declaration_lines(report: &Report, v: &CheckResult) -> Vec<String> {
    let Some(spec) = v.best_alternative.as_deref() else {
        return Vec::new();
    };
    let Some(alt) = report.candidates.iter().find(|c| c.key.spec == spec) else {
        return Vec::new();
    };
    let d = &alt.key.definition;
    let (Some(paths), Some(kind), Some(version)) = (
        d.get("paths").and_then(|p| p.as_array()),
        d.get("kind").and_then(|k| k.as_str()),
        d.get("version").and_then(|v| v.as_u64()),
    ) else {
        return Vec::new();
    };
    if alt.key.kind == "synthetic" {
        return Vec::new();
    }
    let paths: Vec<&str> = paths.iter().filter_map(|p| p.as_str()).collect();
    let quoted = |q: char| {
        let each: Vec<String> = paths.iter().map(|p| format!("{q}{p}{q}")).collect();
        each.join(", ")
    };
    // One property a line, as each language is usually written: the lines fit a narrow
    // terminal and paste as they are.
    vec![
        "  ARM (properties.resource):".to_owned(),
        "    \"partitionKey\": {".to_owned(),
        format!("      \"paths\": [{}],", quoted('"')),
        format!("      \"kind\": \"{kind}\","),
        format!("      \"version\": {version}"),
        "    }".to_owned(),
        "  Bicep:".to_owned(),
        "    partitionKey: {".to_owned(),
        format!("      paths: [ {} ]", quoted('\'')),
        format!("      kind: '{kind}'"),
        format!("      version: {version}"),
        "    }".to_owned(),
        "  Terraform:".to_owned(),
        format!("    partition_key_paths   = [{}]", quoted('"')),
        format!("    partition_key_kind    = \"{kind}\""),
        format!("    partition_key_version = {version}"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0.4), "0");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(1_543.0), "1,543");
        assert_eq!(thousands(12_345_678.0), "12,345,678");
    }

    #[test]
    fn the_prices_line_names_what_each_model_charges_for() {
        let mut p = crate::report::model::testing::target().prices;
        assert!(prices_note(&p).starts_with("Prices: 0.008 USD per 100 RU/s-hour, 0.25 USD"));
        (p.ru_million, p.ru_hour_per_100) = (Some(0.25), 0.0);
        let serverless = prices_note(&p);
        assert!(serverless.starts_with("Prices: 0.25 USD per million RU, 0.25 USD"));
        assert!(!serverless.contains("RU/s-hour"), "{serverless}");
        (p.ru_million, p.ru_hour_per_100) = (None, 0.012);
        (p.reserved, p.reserved_discount) = (Some("3y".to_owned()), 0.3);
        assert!(prices_note(&p).contains("0.012 USD per 100 RU/s-hour (30% off, reserved 3y)"));
    }

    #[test]
    fn prose_wraps_at_spaces_and_never_cuts_a_word() {
        let text = "one two three four five six seven eight nine ten";
        let w = wrap(text, 14, "", "  ");
        assert_eq!(
            w,
            "one two three\n  four five\n  six seven\n  eight nine\n  ten"
        );
        assert!(w.lines().all(|l| l.chars().count() <= 14));
        // A word wider than the line keeps a line of its own, whole.
        let long = wrap("a abcdefghijklmnop b", 8, "> ", "  ");
        assert_eq!(long, "> a\n  abcdefghijklmnop\n  b");
        // The text's own breaks and spaces are kept, but not at a line's start.
        assert_eq!(wrap("x  y\nz", 80, "", ""), "x  y\nz");
        assert_eq!(wrap("aaaa  bbbb", 6, "", ""), "aaaa\nbbbb");
        let joined: Vec<&str> = w.split_whitespace().collect();
        assert_eq!(joined.join(" "), text);
    }

    #[test]
    fn labels_are_cut_in_the_middle_and_level_by_level() {
        assert_eq!(elide("\"velvet-media\"", 14), "\"velvet-media\"");
        assert_eq!(elide("abcdefghijklmnopqrst", 11), "abcdef…qrst");
        let h = r#"["bright-media","0f3a9c2e-7d41-4b8e-948ae5a"]"#;
        let cut = elide_label(h, 33);
        assert_eq!(cut.chars().count(), 33, "{cut}");
        // Each level keeps its head and tail: the tenant whole, the user's ends.
        assert!(cut.starts_with(r#"["bright-media",""#), "{cut}");
        assert!(cut.ends_with(r#"8ae5a"]"#), "{cut}");
        assert_eq!(elide_label(h, 80), h);
        assert_eq!(elide_label("\"plain\"", 80), "\"plain\"");
    }

    #[test]
    fn round_figures_at_or_above() {
        assert_eq!(round_up(1_783.0), 2_000.0);
        assert_eq!(round_up(354.0), 500.0);
        assert_eq!(round_up(25.0), 25.0);
        assert_eq!(round_up(12.5e9), 2e10);
        assert_eq!(round_up(0.0), 1.0);
    }
}
