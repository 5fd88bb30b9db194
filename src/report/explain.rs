//! Renders one candidate's partition map (`analyze --explain`): EPK ranges, bytes, logical
//! partitions, RU and the largest values of each physical partition.

use std::io::{self, Write};

use comfy_table::{ContentArrangement, Table, presets};

use super::Format;
use super::markdown::cell;
use super::model::ExplainReport;
use crate::units::human_bytes;

/// Writes the map in `format`.
pub fn render(report: &ExplainReport, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Json => {
            let text = serde_json::to_string_pretty(report).map_err(io::Error::other)?;
            out.write_all(text.as_bytes())?;
            writeln!(out)
        }
        Format::Table | Format::WideTable => table(report, out),
        Format::Markdown => markdown(report, out),
    }
}

fn header(r: &ExplainReport) -> String {
    format!(
        "{} at {}: {} physical partitions, {:.0} RU/s each",
        r.key.spec,
        human_bytes(r.storage_bytes),
        r.map.partitions.len(),
        r.map.ru_per_partition
    )
}

fn largest(r: &ExplainReport, p: &crate::engine::map::PhysicalView) -> String {
    p.largest
        .iter()
        .map(|l| {
            let label = r
                .labels
                .get(&l.epk)
                .map_or("(small values, projected)", String::as_str);
            format!("{label} {}", human_bytes(l.bytes))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn short(epk: &str) -> String {
    if epk.len() > 20 {
        format!("{}…", &epk[..20])
    } else if epk.is_empty() {
        "\"\"".to_owned()
    } else {
        epk.to_owned()
    }
}

fn table(r: &ExplainReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", header(r))?;
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header([
            "id",
            "EPK range",
            "bytes",
            "logical",
            "RU",
            "largest values",
        ]);
    for p in &r.map.partitions {
        t.add_row([
            p.id.to_string(),
            format!("[{}, {})", short(&p.min), short(&p.max)),
            human_bytes(p.bytes),
            p.logical_partitions.to_string(),
            format!("{:.0}", p.ru),
            largest(r, p),
        ]);
    }
    writeln!(out, "{t}")
}

fn markdown(r: &ExplainReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## {}\n", cell(&header(r)))?;
    writeln!(
        out,
        "| id | min | max | bytes | logical | RU | largest values |"
    )?;
    writeln!(out, "|---:|---|---|---:|---:|---:|---|")?;
    for p in &r.map.partitions {
        writeln!(
            out,
            "| {} | `{}` | `{}` | {} | {} | {:.0} | {} |",
            p.id,
            p.min,
            p.max,
            human_bytes(p.bytes),
            p.logical_partitions,
            p.ru,
            cell(&largest(r, p))
        )?;
    }
    Ok(())
}
