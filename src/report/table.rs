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

use comfy_table::{Cell, CellAlignment, Color, ContentArrangement, Table, presets};

use super::View;
use super::columns::{COLUMNS, Column, WHY};
use super::growth::growth_section;
use super::model::{CandidateReport, ExplainReport, FindingCode, Report, Severity};
use super::remedy::recommended_warnings;
use super::text::{
    best_alternative, cost_line, declaration_lines, landing_line, largest_values, map_header,
    map_legend, observed_line, partition_name, recommended_bills, secondary_index_line,
    small_sample_line, target_line, thousands, wrap,
};
use crate::units::human_bytes;

/// The width fitted to when the output is not a terminal.
pub const DEFAULT_WIDTH: usize = 100;

/// Writes `view` as text, fitted to `width` (`wide`: every column and every digit
/// whatever the width; prose still wraps at it), the ranking's findings coloured by
/// severity when `colour`.
pub fn render(
    view: View,
    width: usize,
    wide: bool,
    colour: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let table_width = (!wide).then_some(width);
    match view {
        View::Ranking(report) => ranking(report, width, table_width, colour, out),
        View::Map(map) => {
            partition_map(map, width, table_width, out)?;
            match &map.growth {
                Some(g) => write!(out, "{}", growth_section(g, false, table_width)),
                None => Ok(()),
            }
        }
        View::Verdict(report) => verdict(report, width, out),
        View::Migration(plan) => super::plan::terminal(plan, table_width, out),
    }
}

/// Writes `text` wrapped at `width`, later lines after `indent`.
fn para(out: &mut dyn Write, text: &str, width: usize, indent: &str) -> io::Result<()> {
    writeln!(out, "{}", wrap(text, width, "", indent))
}

/// The ranking: prose wrapped at `width`, the table fitted to `table_width` (`None`: every
/// column).
fn ranking(
    report: &Report,
    width: usize,
    table_width: Option<usize>,
    colour: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    para(out, &target_line(report), width, "")?;
    if let Some(line) = small_sample_line(report) {
        para(out, &line, width, "")?;
    }
    let all: Vec<&CandidateReport> = report.candidates.iter().collect();
    let every: Vec<&Column> = COLUMNS.iter().collect();
    let columns = fitting(&all, table_width, &every);
    let (clean, violating): (Vec<&CandidateReport>, Vec<&CandidateReport>) =
        all.iter().partition(|c| !c.has_violation());
    if !clean.is_empty() {
        writeln!(out, "{}", candidates(&clean, &columns, colour))?;
    }
    if !violating.is_empty() {
        writeln!(
            out,
            "With violations (ranked after every candidate without):"
        )?;
        // Without the findings, the violations in a few words: every key says why it is here.
        let with_why = match columns.iter().any(|c| c.header == "findings") {
            true => columns.clone(),
            false => {
                let mut set = every.clone();
                set.retain(|c| c.header != "findings");
                set.push(&WHY);
                fitting(&violating, table_width, &set)
            }
        };
        writeln!(out, "{}", candidates(&violating, &with_why, colour))?;
    }
    if columns.len() < COLUMNS.len() {
        let hidden: Vec<&str> = COLUMNS
            .iter()
            .filter(|c| !columns.iter().any(|k| k.header == c.header))
            .map(|c| c.header)
            .collect();
        let line = format!(
            "Hidden at this width: {} (--wide shows every column).",
            hidden.join(", ")
        );
        para(out, &line, width, "")?;
    }
    if let Some(r) = &report.recommendation {
        writeln!(out, "\nRecommendation: {}", r.spec)?;
        para(out, &r.reason, width, "")?;
        if let Some(line) = recommended_bills(report) {
            para(out, &line, width, "")?;
        }
        let warnings = recommended_warnings(report);
        if !warnings.is_empty() {
            writeln!(out, "Its warnings, and what to do:")?;
        }
        for w in warnings {
            writeln!(out, "{}", wrap(&w.sentence(), width, "  ! ", "    "))?;
        }
        if let Some(g) = &r.secondary_index {
            writeln!(out)?;
            para(out, &secondary_index_line(g), width, "")?;
        }
    }
    Ok(())
}

/// The columns of `set` that fit `width` terminal columns, in display order: kept by
/// priority, each as wide as its widest cell or header (plus padding and a border).
fn fitting<'c>(
    rows: &[&CandidateReport],
    width: Option<usize>,
    set: &[&'c Column],
) -> Vec<&'c Column> {
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
        return set.to_vec();
    };
    let mut by_priority: Vec<&Column> = set.to_vec();
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
    (set.iter().copied())
        .filter(|c| kept.contains(&c.header))
        .collect()
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
            if !colour || !["findings", "why"].contains(&col.header) {
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

/// Each range's start cut after the hex digits that tell it from the boundaries beside it
/// (the next range's start is its end); whole when `wide`.
fn starts(r: &ExplainReport, wide: bool) -> Vec<String> {
    let mut all: Vec<&str> = r.map.partitions.iter().map(|p| p.min.as_str()).collect();
    all.extend(r.map.partitions.last().map(|p| p.max.as_str()));
    let common = |a: &str, b: &str| a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    (0..r.map.partitions.len())
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

/// The characters a value's label should keep: columns are dropped (pkrange, then the
/// logical count, then the EPK) until it does or none is left to drop.
const WANT_LABEL: usize = 32;

/// The map's ranges as the terminal shows them.
const TABLE_RANGES: &str = "EPK from: where its EPK range begins, in hex (it ends where the next begins), cut after the digits that tell it from its neighbours";

/// One column of the map: its header, cells, alignment and when it is dropped (0: never).
struct MapColumn {
    header: &'static str,
    cells: Vec<String>,
    right: bool,
    drop: u8,
}

impl MapColumn {
    fn width(&self) -> usize {
        let cells = self.cells.iter().map(|c| c.chars().count());
        cells.max().unwrap_or(0).max(self.header.chars().count()) + 3
    }
}

/// The map's columns but the values.
fn map_columns(r: &ExplainReport, wide: bool) -> Vec<MapColumn> {
    let parts = &r.map.partitions;
    let col = |header, right, drop, cells: Vec<String>| MapColumn {
        header,
        cells,
        right,
        drop,
    };
    vec![
        col(
            "#",
            true,
            0,
            (1..=parts.len()).map(|i| i.to_string()).collect(),
        ),
        col(
            "pkrange",
            false,
            1,
            (parts.iter().enumerate())
                .map(|(i, p)| partition_name(r, i, p))
                .collect(),
        ),
        col("EPK from", false, 3, starts(r, wide)),
        col(
            "bytes",
            true,
            0,
            parts.iter().map(|p| human_bytes(p.bytes)).collect(),
        ),
        col(
            "logical",
            true,
            2,
            (parts.iter())
                .map(|p| thousands(p.logical_partitions as f64))
                .collect(),
        ),
        col(
            "RU",
            true,
            0,
            parts.iter().map(|p| thousands(p.ru)).collect(),
        ),
    ]
}

/// The partition map: its heading and legend wrapped at `width`, the table fitted to
/// `table_width` (`None`: every column, ranges and values whole).
fn partition_map(
    r: &ExplainReport,
    width: usize,
    table_width: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut columns = map_columns(r, table_width.is_none());
    // A value's line: its size (and mark), a space, its label.
    let sizes = (r.map.partitions.iter().flat_map(|p| &p.largest))
        .map(|l| human_bytes(l.bytes).chars().count() + 2)
        .max()
        .unwrap_or(0);
    let label_width = |columns: &[MapColumn], w: usize| {
        let used: usize = columns.iter().map(MapColumn::width).sum::<usize>() + 1;
        w.saturating_sub(used + 3 + sizes)
    };
    let mut hidden = Vec::new();
    if let Some(w) = table_width {
        for order in 1..=3 {
            if label_width(&columns, w) >= WANT_LABEL {
                break;
            }
            hidden.extend(columns.iter().filter(|c| c.drop == order).map(|c| c.header));
            columns.retain(|c| c.drop != order);
        }
    }
    let label = table_width.map(|w| label_width(&columns, w).max(MIN_LABEL));
    para(out, &map_header(r), width, "")?;
    para(out, &map_legend(TABLE_RANGES), width, "")?;
    para(out, &map_cuts(&hidden), width, "")?;
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(columns.iter().map(|c| c.header).chain(["largest values"]));
    for (i, p) in r.map.partitions.iter().enumerate() {
        let mut row: Vec<Cell> = columns.iter().map(|c| Cell::new(&c.cells[i])).collect();
        row.push(Cell::new(largest_values(r, p, label)));
        t.add_row(row);
    }
    for (k, c) in columns.iter().enumerate() {
        if c.right
            && let Some(col) = t.column_mut(k)
        {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{t}")?;
    for v in &r.values {
        para(out, &landing_line(r, v), width, "  ")?;
    }
    Ok(())
}

/// What the terminal's map cut to fit, and how to see it whole.
fn map_cuts(hidden: &[&str]) -> String {
    let hidden = match hidden.is_empty() {
        true => String::new(),
        false => format!("; hidden at this width: {}", hidden.join(", ")),
    };
    format!(
        "Values cut in the middle{hidden} (--wide shows everything whole; --explain-value V shows where one value lands)."
    )
}

/// The fewest characters a value's label is cut to.
const MIN_LABEL: usize = 12;

/// check's verdict: whether the declared design passed, why, what it costs, and its best
/// alternative, wrapped at `width`.
fn verdict(report: &Report, width: usize, out: &mut dyn Write) -> io::Result<()> {
    let v = report.check.as_ref().expect("check verdict");
    let c = report.declared();
    let status = if v.passed { "PASS" } else { "FAIL" };
    let container = v
        .container
        .as_ref()
        .map_or(String::new(), |n| format!(" (container {n})"));
    let head = format!(
        "{status}  {}{container}  score {:.1} (minimum {})",
        v.key, c.score, v.min_score
    );
    para(out, &head, width, "      ")?;
    para(out, &target_line(report), width, "")?;
    if let Some(line) = small_sample_line(report) {
        para(out, &line, width, "")?;
    }
    for r in &v.reasons {
        writeln!(out, "{}", wrap(&r.to_string(), width, "  ✗ ", "    "))?;
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
        let line = format!("{} ({severity}): {}", f.code, f.message);
        writeln!(out, "{}", wrap(&line, width, "  ! ", "    "))?;
    }
    para(out, &format!("Cost: {}", cost_line(report, v)), width, "  ")?;
    if let Some(o) = &v.observed {
        para(out, &format!("Observed: {}", observed_line(o)), width, "  ")?;
    }
    for i in &report.declared_indexes {
        let line = format!("Index {}: {}", i.key.spec, i.reason);
        para(out, &line, width, "  ")?;
    }
    if let Some((spec, tail)) = best_alternative(report, v) {
        let line = format!("Best alternative: {spec} {tail}");
        para(out, &line, width, "  ")?;
        let lines = declaration_lines(report, v);
        if !lines.is_empty() {
            writeln!(out, "Declared as:")?;
            for l in lines {
                // Code: never wrapped, so it can be copied as it is.
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
                summary: "Because.".to_owned(),
                secondary_index: None,
            }),
            check: None,
            declared_indexes: Vec::new(),
        };
        let mut out = Vec::new();
        render(View::Ranking(&report), DEFAULT_WIDTH, true, false, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // Prose wraps at the width even when every column is kept: read it as one line.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
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
            "Recommendation: hash_suffix(/date,/vin,400) Because.",
            // The recommended key's own violation, explained.
            "! CROSS_PARTITION_TRANSACTION:",
            "What to do: choose a key the batch's items share",
        ] {
            assert!(flat.contains(expected), "{expected:?} missing from\n{text}");
        }
        assert!(
            text.lines()
                .all(|l| l.starts_with(['┌', '│', '╞', '└']) || l.chars().count() <= DEFAULT_WIDTH),
            "{text}"
        );
        // Not a terminal here: no colour escapes.
        assert!(!text.contains('\u{1b}'));
        // Fitted to 100 columns: no line wider, no header word cut, key and codes whole.
        let mut out = Vec::new();
        render(
            View::Ranking(&report),
            DEFAULT_WIDTH,
            false,
            false,
            &mut out,
        )
        .unwrap();
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
