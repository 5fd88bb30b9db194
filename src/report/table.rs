//! The table renderer, for terminals: the ranking, `--explain`'s partition map, and
//! check's verdict as plain text. Whether to colour, and the width, are the command's
//! decision ([`super::Style`]), passed in.
//!
//! The ranking: the target, the candidates without violations, then apart those with
//! violations (so the score column reads in order), then the recommendation. Columns are
//! kept by priority to fit the terminal (100 columns when output is not a terminal;
//! `--wide` keeps all).
//!
//! The partition map: the physical partitions in EPK order with their ranges (cut after
//! the digits that tell neighbours apart; `--wide` prints them whole), bytes, logical
//! partitions, the RU the log charged them and their largest values.

use std::io::{self, Write};

use comfy_table::{
    Cell, CellAlignment, Color, ColumnConstraint, ContentArrangement, Table, presets,
};

use super::View;
use super::columns::{COLUMNS, Column};
use super::model::{CandidateReport, ExplainReport, FindingCode, Report, Severity};
use super::text::{
    MAP_LEGEND, best_alternative, cost_line, declaration_lines, largest_values, map_header,
    observed_line, partition_name, secondary_index_line, small_sample_line, target_line,
};
use crate::units::human_bytes;

/// The width fitted to when the output is not a terminal.
pub const DEFAULT_WIDTH: usize = 100;

/// Writes `view` as text, fitted to `width` (`None`: `--wide`, every column and every
/// digit whatever the width), the ranking's findings coloured by severity when `colour`.
pub fn render(
    view: View,
    width: Option<usize>,
    colour: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match view {
        View::Ranking(report) => ranking(report, width, colour, out),
        View::Map(map) => partition_map(map, width, out),
        View::Verdict(report) => verdict(report, out),
    }
}

/// The ranking fitted to `width`.
fn ranking(
    report: &Report,
    width: Option<usize>,
    colour: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "{}", target_line(report))?;
    if let Some(line) = small_sample_line(report) {
        writeln!(out, "{line}")?;
    }
    let all: Vec<&CandidateReport> = report.candidates.iter().collect();
    let columns = fitting(&all, width);
    let (clean, violating): (Vec<&CandidateReport>, Vec<&CandidateReport>) =
        all.iter().partition(|c| !has_violation(c));
    if !clean.is_empty() {
        writeln!(out, "{}", candidates(&clean, &columns, colour))?;
    }
    if !violating.is_empty() {
        writeln!(
            out,
            "With violations (ranked after every candidate without):"
        )?;
        writeln!(out, "{}", candidates(&violating, &columns, colour))?;
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
/// as wide as its widest cell or header (plus padding and a border).
fn fitting(rows: &[&CandidateReport], width: Option<usize>) -> Vec<&'static Column> {
    let need = |c: &Column| {
        let cells = rows.iter().flat_map(|r| {
            let text = (c.text)(r);
            text.lines().map(|l| l.chars().count()).collect::<Vec<_>>()
        });
        // The table never wraps: a header of two words takes its whole length.
        let header = c.header.chars().count();
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

fn candidates(rows: &[&CandidateReport], columns: &[&Column], colour: bool) -> Table {
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
        table.add_row(candidate_row(c, columns, colour));
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

fn candidate_row(c: &CandidateReport, columns: &[&Column], colour: bool) -> Vec<Cell> {
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

/// Characters of a value's label in the table (`--wide`: all of it).
const VALUE_WIDTH: usize = 9;

/// Each boundary (the ranges' mins, then the last max) cut after the hex digits that tell
/// it from the boundaries beside it; whole when `wide`.
fn boundaries(r: &ExplainReport, wide: bool) -> Vec<String> {
    let mut all: Vec<&str> = r.map.partitions.iter().map(|p| p.min.as_str()).collect();
    all.extend(r.map.partitions.last().map(|p| p.max.as_str()));
    let common = |a: &str, b: &str| a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    (0..all.len())
        .map(|i| {
            let e = all[i];
            if e.is_empty() {
                return "\"\"".to_owned();
            }
            let before = i.checked_sub(1).map_or(0, |j| common(all[j], e));
            let after = all.get(i + 1).map_or(0, |n| common(e, n));
            let keep = (before.max(after) + 2).max(4).min(e.len());
            if wide || keep >= e.len() {
                e.to_owned()
            } else if keep <= 12 {
                format!("{}…", &e[..keep])
            } else {
                // Long shared prefixes (a big tenant's partitions): its head, then the
                // digits where neighbours part.
                format!("{}…{}…", &e[..4], &e[keep - 8..keep])
            }
        })
        .collect()
}

/// The partition map fitted to `width`.
fn partition_map(r: &ExplainReport, width: Option<usize>, out: &mut dyn Write) -> io::Result<()> {
    let wide = width.is_none();
    writeln!(out, "{}", map_header(r))?;
    writeln!(out, "{MAP_LEGEND}")?;
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header([
            "#",
            "pkrange",
            "EPK range",
            "bytes",
            "logical",
            "RU",
            "largest values",
        ]);
    if let Some(w) = width {
        t.set_width(w.min(u16::MAX as usize) as u16);
    }
    let edges = boundaries(r, wide);
    for (i, p) in r.map.partitions.iter().enumerate() {
        t.add_row([
            (i + 1).to_string(),
            partition_name(r, i, p),
            format!("[{}, {})", edges[i], edges[i + 1]),
            human_bytes(p.bytes),
            p.logical_partitions.to_string(),
            format!("{:.0}", p.ru),
            largest_values(r, p, (!wide).then_some(VALUE_WIDTH)),
        ]);
    }
    // Ranges and counts never wrap: only the values do.
    for (i, col) in t.column_iter_mut().enumerate().take(6) {
        let _ = i;
        col.set_constraint(ColumnConstraint::ContentWidth);
    }
    writeln!(out, "{t}")
}

/// check's verdict: whether the declared design passed, why, what it costs, and its best
/// alternative.
fn verdict(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let v = report.check.as_ref().expect("check verdict");
    let c = report.declared();
    let status = if v.passed { "PASS" } else { "FAIL" };
    let container = v
        .container
        .as_ref()
        .map_or(String::new(), |n| format!(" (container {n})"));
    writeln!(
        out,
        "{status}  {}{container}  score {:.1} (minimum {})",
        v.key, c.score, v.min_score
    )?;
    writeln!(out, "{}", target_line(report))?;
    if let Some(line) = small_sample_line(report) {
        writeln!(out, "{line}")?;
    }
    for r in &v.reasons {
        writeln!(out, "  ✗ {r}")?;
    }
    let denied = |code: FindingCode| v.reasons.iter().any(|r| r.code == Some(code));
    for f in c
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Violation && !denied(f.code))
    {
        let severity = if f.severity == Severity::Info {
            "info"
        } else {
            "warning"
        };
        writeln!(out, "  ! {} ({severity}): {}", f.code, f.message)?;
    }
    writeln!(out, "Cost: {}", cost_line(report, v))?;
    if let Some(o) = &v.observed {
        writeln!(out, "Observed: {}", observed_line(o))?;
    }
    for i in &report.declared_indexes {
        writeln!(out, "Index {}: {}", i.key.spec, i.reason)?;
    }
    if let Some((spec, tail)) = best_alternative(report, v) {
        writeln!(out, "Best alternative: {spec} {tail}")?;
        let lines = declaration_lines(report, v);
        if !lines.is_empty() {
            writeln!(out, "Declared as:")?;
            for l in lines {
                writeln!(out, "{l}")?;
            }
        }
    }
    Ok(())
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
            target: crate::report::model::testing::target(),
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
        render(View::Ranking(&report), None, false, &mut out).unwrap();
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
        render(View::Ranking(&report), Some(DEFAULT_WIDTH), false, &mut out).unwrap();
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
