//! The table renderer, for terminals: one row per candidate, fitted to the width.

use std::io::{self, Write};

use comfy_table::{ContentArrangement, Table, presets};

use super::model::{CandidateReport, Report};

/// Writes the report as a table, then a line on what was read.
pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header([
            "key",
            "kind",
            "distinct",
            "missing",
            "invalid",
            "largest values (share of bytes)",
        ]);
    for c in &report.candidates {
        table.add_row(row(c));
    }
    writeln!(out, "{table}")?;
    let i = &report.input;
    writeln!(
        out,
        "{} documents, {} read{}",
        i.documents,
        human_bytes(i.bytes),
        if i.invalid > 0 {
            format!(", {} invalid skipped", i.invalid)
        } else {
            String::new()
        }
    )
}

fn row(c: &CandidateReport) -> Vec<String> {
    let distinct = if c.cardinality.exact {
        c.cardinality.estimate.to_string()
    } else {
        format!("~{}", c.cardinality.estimate)
    };
    let largest: Vec<String> = c
        .largest_values
        .iter()
        .map(|v| format!("{} {:.1}%", v.value, v.share * 100.0))
        .collect();
    vec![
        c.key.spec.clone(),
        c.key.kind.clone(),
        distinct,
        c.values.missing.to_string(),
        c.values.invalid.to_string(),
        largest.join("\n"),
    ]
}

/// Bytes in the largest fitting decimal unit: `1.5 GB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1000.0 && u < UNITS.len() - 1 {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}
