//! The table renderer, for terminals: the target, one row per candidate (fitted to the
//! terminal width), then the recommendation. Colour only on a terminal, never with
//! `NO_COLOR` set.

use std::io::{self, IsTerminal, Write};

use comfy_table::{Cell, Color, ColumnConstraint, ContentArrangement, Table, Width, presets};

use super::model::{CandidateReport, Report, Severity};
use crate::units::human_bytes;

/// Writes the report as a table.
pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", target_line(report))?;
    let colour = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header([
            "#",
            "key",
            "score",
            "distinct",
            "largest LP",
            "breaks at",
            "skew",
            "usable RU",
            "reads single/targeted/fan-out",
            "findings",
        ]);
    for c in &report.candidates {
        table.add_row(row(c, colour));
    }
    keep_whole(&mut table, report);
    writeln!(out, "{table}")?;
    if let Some(r) = &report.recommendation {
        writeln!(out, "\nRecommendation: {}\n{}", r.spec, r.reason)?;
    }
    Ok(())
}

/// On a narrow terminal the numbers wrap, never the keys or finding codes: a spec cut in two
/// cannot be pasted back into `--key`.
fn keep_whole(table: &mut Table, report: &Report) {
    let widest =
        |f: &dyn Fn(&CandidateReport) -> usize| report.candidates.iter().map(f).max().unwrap_or(0);
    let key = widest(&|c| c.key.spec.chars().count()).clamp(3, 48);
    let code = widest(&|c| c.findings.iter().map(|f| f.code.len()).max().unwrap_or(0)).max(8);
    for (column, width) in [(1, key), (9, code)] {
        if let Some(col) = table.column_mut(column) {
            // The width counts the cell's padding, one space each side.
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
                width as u16 + 2,
            )));
        }
    }
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
    format!(
        "{} documents ({}){ops}{invalid}. Projected onto {} at {} RU/s {} = {} physical partitions{defaulted}.",
        i.documents,
        human_bytes(i.bytes),
        human_bytes(t.storage_bytes),
        t.throughput_ru,
        t.throughput_mode,
        t.physical_partitions
    )
}

fn row(c: &CandidateReport, colour: bool) -> Vec<Cell> {
    let distinct = if c.cardinality.exact {
        c.cardinality.estimate.to_string()
    } else {
        format!("~{}", c.cardinality.estimate)
    };
    let max_size = c
        .storage
        .max_container_bytes
        .map_or("unbounded".to_owned(), human_bytes);
    let q = &c.queries;
    let routing = if q.reads == 0 {
        "no reads".to_owned()
    } else {
        format!(
            "{:.0}/{:.0}/{:.0}%",
            q.single * 100.0,
            q.targeted * 100.0,
            q.fan_out * 100.0
        )
    };
    let codes: Vec<&str> = c.findings.iter().map(|f| f.code.as_str()).collect();
    let mut findings = Cell::new(codes.join("\n"));
    if colour {
        let worst = c.findings.iter().map(|f| f.severity).min();
        findings = match worst {
            Some(Severity::Violation) => findings.fg(Color::Red),
            Some(Severity::Warning) => findings.fg(Color::Yellow),
            _ => findings,
        };
    }
    vec![
        Cell::new(c.rank),
        Cell::new(&c.key.spec),
        Cell::new(format!("{:.1}", c.score)),
        Cell::new(distinct),
        Cell::new(human_bytes(c.storage.largest_logical_bytes)),
        Cell::new(max_size),
        Cell::new(format!("{:.2}", c.storage.physical_skew)),
        Cell::new(format!("{:.0}%", c.throughput.usable_fraction * 100.0)),
        Cell::new(routing),
        findings,
    ]
}
