//! The table renderer, for terminals: the target, the candidates without violations, then
//! apart those with violations (so the score column reads in order), then the
//! recommendation. Columns are kept by priority to fit the terminal (100 columns when
//! output is not a terminal; `--wide` keeps all). Whether to colour, and the width, are
//! the command's decision ([`super::Style`]).

use std::io::{self, Write};

use comfy_table::{Cell, CellAlignment, Color, ContentArrangement, Table, presets};

use super::columns::{COLUMNS, Column};
use super::model::{CandidateReport, Report, Severity};
use super::text::{secondary_index_line, target_line};

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

/// The columns that fit `width` terminal columns, in display order: kept by priority, each
/// as wide as its widest cell or header word (plus padding and a border).
fn fitting(rows: &[&CandidateReport], width: Option<usize>) -> Vec<&'static Column> {
    let need = |c: &Column| {
        let cells = rows.iter().flat_map(|r| {
            let text = (c.text)(r);
            text.lines().map(|l| l.chars().count()).collect::<Vec<_>>()
        });
        let header = c.header.split(' ').map(str::len).max().unwrap_or(0);
        cells.max().unwrap_or(0).max(header) + 3
    };
    let Some(width) = width else {
        return COLUMNS.iter().collect();
    };
    let mut by_priority: Vec<&Column> = COLUMNS.iter().collect();
    by_priority.sort_by_key(|c| c.priority);
    let mut used = 1;
    let mut kept: Vec<&'static str> = Vec::new();
    for c in by_priority {
        let w = need(c);
        if used + w <= width || c.priority == 0 {
            used += w;
            kept.push(c.header);
        }
    }
    COLUMNS
        .iter()
        .filter(|c| kept.contains(&c.header))
        .collect()
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
