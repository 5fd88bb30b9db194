//! The table renderer, for terminals: the target, the candidates without violations, then
//! apart those with violations (so the score column reads in order), then the
//! recommendation. Columns are kept by priority to fit the terminal (100 columns when
//! output is not a terminal; `--wide` keeps all). Whether to colour, and the width, are
//! the command's decision ([`super::Style`]).

use std::io::{self, Write};

use comfy_table::{Cell, CellAlignment, Color, ContentArrangement, Table, presets};

use super::columns::{COLUMNS, Column, fitting};
use super::model::{CandidateReport, Report, Severity};
use crate::units::human_bytes;

/// The width fitted to when the output is not a terminal.
pub const DEFAULT_WIDTH: usize = 100;

/// Writes the report as a table fitted to `width` (`None`: every column whatever the
/// width), findings coloured by severity when `colour`.
pub fn render(
    report: &Report,
    out: &mut dyn Write,
    width: Option<usize>,
    colour: bool,
) -> io::Result<()> {
    writeln!(out, "{}", target_line(report))?;
    let all: Vec<&CandidateReport> = report.candidates.iter().collect();
    let columns = fitting(&all, width);
    let (clean, violating): (Vec<&CandidateReport>, Vec<&CandidateReport>) =
        all.iter().partition(|c| !has_violation(c));
    if !clean.is_empty() {
        writeln!(out, "{}", table(&clean, &columns, colour))?;
    }
    if !violating.is_empty() {
        writeln!(
            out,
            "With violations (ranked after every candidate without):"
        )?;
        writeln!(out, "{}", table(&violating, &columns, colour))?;
    }
    if columns.len() < COLUMNS.len() {
        let hidden: Vec<&str> = COLUMNS
            .iter()
            .filter(|c| !columns.iter().any(|k| k.header == c.header))
            .map(|c| c.header)
            .collect();
        writeln!(
            out,
            "Hidden at this width: {} (--wide shows every column).",
            hidden.join(", ")
        )?;
    }
    if let Some(r) = &report.recommendation {
        writeln!(out, "\nRecommendation: {}\n{}", r.spec, r.reason)?;
        if let Some(g) = &r.secondary_index {
            writeln!(out, "\n{}", secondary_index_line(g))?;
        }
    }
    Ok(())
}

/// The secondary-index paragraph of the table and Markdown outputs.
pub fn secondary_index_line(g: &super::model::SecondaryIndex) -> String {
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

fn has_violation(c: &CandidateReport) -> bool {
    c.findings.iter().any(|f| f.severity == Severity::Violation)
}

fn table(rows: &[&CandidateReport], columns: &[&Column], colour: bool) -> Table {
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(columns.iter().map(|c| c.header));
    if colour {
        // The command decided: colour even where the table cannot see a terminal.
        table.enforce_styling();
    }
    for c in rows {
        table.add_row(row(c, columns, colour));
    }
    for (i, c) in columns.iter().enumerate() {
        if c.numeric
            && let Some(col) = table.column_mut(i)
        {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    table
}

fn row(c: &CandidateReport, columns: &[&Column], colour: bool) -> Vec<Cell> {
    columns
        .iter()
        .map(|col| {
            let cell = Cell::new((col.text)(c));
            if !colour || col.header != "findings" {
                return cell;
            }
            match c.findings.iter().map(|f| f.severity).min() {
                Some(Severity::Violation) => cell.fg(Color::Red),
                Some(Severity::Warning) => cell.fg(Color::Yellow),
                _ => cell,
            }
        })
        .collect()
}

/// What an Azure Monitor log showed, in a few words.
fn monitor_note(m: &super::model::MonitorReport) -> String {
    let mut parts = vec![format!("{} Azure Monitor rows", m.rows)];
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

/// The line saying what was read and projected onto.
pub fn target_line(report: &Report) -> String {
    let t = &report.target;
    let i = &report.input;
    let defaulted = if t.defaults.is_empty() {
        String::new()
    } else {
        format!(
            " (default {}; set --target-storage / --throughput)",
            t.defaults.join(", ")
        )
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
    format!(
        "{} documents ({}){ops}{invalid}{redacted}{monitor}. Projected onto {} at {} RU/s {} = {} physical partitions{defaulted}.",
        i.documents,
        human_bytes(i.bytes),
        human_bytes(t.storage_bytes),
        t.throughput_ru,
        t.throughput_mode,
        t.physical_partitions
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::*;

    use crate::report::model::testing::candidate;

    #[test]
    fn renders_every_column_and_the_recommendation() {
        let spec = "hash_suffix(/date,/vin,400)";
        let report = Report {
            schema_version: SCHEMA_VERSION.to_owned(),
            tool: Tool::default(),
            input: InputSummary {
                redacted: false,
                monitor: None,
                documents: 10,
                bytes: 2_000,
                invalid: 1,
                operations: 10,
            },
            target: TargetReport {
                storage_bytes: 1_000_000_000_000,
                throughput_ru: 20_000.0,
                throughput_mode: "manual".to_owned(),
                physical_partitions: 32,
                defaults: vec!["storage".to_owned()],
                prices: PricesReport {
                    ru_hour_per_100: 0.008,
                    gb_month: 0.25,
                    regions: 1,
                    source: "list".to_owned(),
                },
                log_share: 1.0,
            },
            candidates: vec![candidate(spec, &["CROSS_PARTITION_TRANSACTION"])],
            recommendation: Some(Recommendation {
                spec: spec.to_owned(),
                reason: "Because.".to_owned(),
                secondary_index: None,
            }),
            check: None,
            declared_indexes: Vec::new(),
        };
        let mut out = Vec::new();
        render(&report, &mut out, None, false).unwrap();
        let text = String::from_utf8(out).unwrap();
        for expected in [
            "10 documents (2.0 kB), 10 logged operations, 1 invalid skipped.",
            "1.0 TB at 20000 RU/s manual = 32 physical partitions (default storage;",
            spec,
            "CROSS_PARTITION_TRANSACTION",
            "87.2",
            "12,345",
            "50%",
            "971",
            "~1234",
            "2.5 GB",
            "unbounded",
            "70/25/5%",
            "Recommendation: hash_suffix(/date,/vin,400)\nBecause.",
        ] {
            assert!(text.contains(expected), "{expected:?} missing from\n{text}");
        }
        // Not a terminal here: no colour escapes.
        assert!(!text.contains('\u{1b}'));
        // Fitted to 100 columns: no line wider, no header word cut, key and codes whole.
        let mut out = Vec::new();
        render(&report, &mut out, Some(DEFAULT_WIDTH), false).unwrap();
        let text = String::from_utf8(out).unwrap();
        let table: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(['┌', '│', '╞', '└']))
            .collect();
        assert!(
            table.iter().all(|l| l.chars().count() <= DEFAULT_WIDTH),
            "{text}"
        );
        for expected in [
            spec,
            "CROSS_PARTITION_TRANSACTION",
            "score",
            "RU/s",
            "--wide",
        ] {
            assert!(text.contains(expected), "{expected:?} missing from\n{text}");
        }
    }
}
