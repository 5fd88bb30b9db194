//! The candidate columns the table and Markdown renderers share: each with its header, its
//! priority when the width is short, and the text of its cell.

use super::model::{CandidateReport, FindingCode, Severity};
use super::text::thousands;
use crate::units::human_bytes;

/// One column of the candidate table.
pub struct Column {
    /// Its header: one word, or words that may wrap only between them.
    pub header: &'static str,
    /// Its header in Markdown, where width is free.
    pub long_header: &'static str,
    /// Lower is kept first when the width is short.
    pub priority: u8,
    /// Whether numbers align right.
    pub numeric: bool,
    /// The cell's text.
    pub text: fn(&CandidateReport) -> String,
}

/// Every column, in display order.
pub const COLUMNS: [Column; 12] = [
    col("#", "#", 5, true, |c| c.rank.to_string()),
    col("key", "key", 0, false, |c| c.key.spec.clone()),
    col("score", "score", 3, true, |c| format!("{:.1}", c.score)),
    col("RU/s", "RU/s needed", 1, true, ru_needed),
    col("eff", "efficiency", 8, true, |c| {
        format!("{:.0}%", c.cost.efficiency * 100.0)
    }),
    col("$/month", "$/month", 2, true, monthly),
    col(
        "breaks at",
        "breaks at (day, or container size)",
        6,
        true,
        breaks_at,
    ),
    col("largest", "largest logical partition", 9, true, |c| {
        human_bytes(c.storage.largest_logical_bytes)
    }),
    col(
        "reads s/t/f",
        "reads single / targeted / fan-out",
        7,
        false,
        reads,
    ),
    col("distinct", "distinct", 10, true, distinct),
    col("skew", "storage skew", 11, true, |c| {
        format!("{:.2}", c.storage.physical_skew)
    }),
    col("findings", "findings", 4, false, |c| {
        // A code raised twice (EXCESS_RU against the best key and against what is
        // provisioned) is one line.
        let mut codes: Vec<&str> = Vec::new();
        for code in c.findings.iter().map(|f| f.code.as_str()) {
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
        codes.join("\n")
    }),
];

/// In place of `findings` when it does not fit: each violation in a few words, so that
/// every key in the table of violations still says why it is there.
pub const WHY: Column = col("why", "violations", 4, false, why);

fn why(c: &CandidateReport) -> String {
    let short: Vec<&str> = (c.findings.iter())
        .filter(|f| f.severity == Severity::Violation)
        .map(|f| match f.code {
            FindingCode::LogicalPartitionLimit => "over 20 GB",
            FindingCode::LogicalPartitionThroughput => "over 10k RU/s",
            FindingCode::InvalidKeyValue => "invalid value",
            FindingCode::CrossPartitionTransaction => "cross-key txn",
            FindingCode::CollectionLimit => "collection full",
            FindingCode::UnmappedValue => "unmapped",
            FindingCode::KeyTooLong => "key too long",
            FindingCode::MissingKey => "missing key",
            FindingCode::KeyUpdated => "key changes",
            other => other.as_str(),
        })
        .collect();
    short.join("\n")
}

const fn col(
    header: &'static str,
    long_header: &'static str,
    priority: u8,
    numeric: bool,
    text: fn(&CandidateReport) -> String,
) -> Column {
    Column {
        header,
        long_header,
        priority,
        numeric,
        text,
    }
}

/// RU/s to provision, or RU per operation (marked `/op`) when the log gives no rates.
fn ru_needed(c: &CandidateReport) -> String {
    match c.cost.required_ru {
        Some(ru) => thousands(ru),
        None => format!("{:.1}/op", c.cost.ru_per_operation),
    }
}

fn monthly(c: &CandidateReport) -> String {
    let m = &c.cost.monthly;
    match m.throughput {
        Some(_) => thousands(m.total),
        None => format!("{}+", thousands(m.total)),
    }
}

/// With a timeline, the day the key breaks or `never`; without, the container size it
/// breaks at.
fn breaks_at(c: &CandidateReport) -> String {
    // With a timeline every row is a day, or never (within a century): a size beside
    // days would read as one.
    if let Some(t) = &c.timeline {
        return t.breaks_on.clone().unwrap_or_else(|| "never".to_owned());
    }
    c.storage
        .max_container_bytes
        .map_or("unbounded".to_owned(), human_bytes)
}

fn reads(c: &CandidateReport) -> String {
    let q = &c.queries;
    if q.reads == 0 {
        return "no reads".to_owned();
    }
    format!(
        "{:.0}/{:.0}/{:.0}%",
        q.single * 100.0,
        q.targeted * 100.0,
        q.fan_out * 100.0
    )
}

fn distinct(c: &CandidateReport) -> String {
    let exact = if c.cardinality.exact { "" } else { "~" };
    format!("{exact}{}", c.cardinality.estimate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priorities_are_distinct() {
        let mut p: Vec<u8> = COLUMNS.iter().map(|c| c.priority).collect();
        p.sort_unstable();
        p.dedup();
        assert_eq!(p.len(), COLUMNS.len());
    }
}
