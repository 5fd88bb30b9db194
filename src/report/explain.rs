//! Renders one candidate's partition map (`analyze --explain`): the physical partitions in
//! EPK order with their ranges (cut after the digits that tell neighbours apart; `--wide`
//! prints them whole), bytes, logical partitions, the RU the log charged them and their
//! largest values.

use std::io::{self, Write};

use comfy_table::{ColumnConstraint, ContentArrangement, Table, presets};

use super::Format;
use super::model::ExplainReport;
use super::text::{MAP_LEGEND, cell, largest_values, map_header, partition_name};
use crate::units::human_bytes;

/// Writes the map in `format`.
pub fn render(
    report: &ExplainReport,
    format: Format,
    style: super::Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Json => super::json::render(report, out),
        Format::Table => table(report, out, Some(style.width)),
        Format::WideTable => table(report, out, None),
        Format::Markdown => markdown(report, out),
    }
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

fn table(r: &ExplainReport, out: &mut dyn Write, width: Option<usize>) -> io::Result<()> {
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

fn markdown(r: &ExplainReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## {}\n", cell(&map_header(r)))?;
    writeln!(out, "{}\n", MAP_LEGEND.replace(" (--wide: whole)", ""))?;
    writeln!(
        out,
        "| # | pkrange | min | max | bytes | logical | RU | largest values |"
    )?;
    writeln!(out, "|---:|---:|---|---|---:|---:|---:|---|")?;
    for (i, p) in r.map.partitions.iter().enumerate() {
        writeln!(
            out,
            "| {} | {} | `{}` | `{}` | {} | {} | {:.0} | {} |",
            i + 1,
            partition_name(r, i, p),
            p.min,
            p.max,
            human_bytes(p.bytes),
            p.logical_partitions,
            p.ru,
            cell(&largest_values(r, p, None))
        )?;
    }
    Ok(())
}
