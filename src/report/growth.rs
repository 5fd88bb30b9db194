//! The growth of a candidate's largest values month by month, the section `--explain`
//! prints after the partition map when a timeline is known.

use super::model::ValueGrowth;
use super::text::{cell, elide_label, wrap};
use crate::units::human_bytes;

/// The section as a Markdown table when `markdown`, else as text for a terminal of `width`
/// columns (`None`: `--wide`, labels whole): the values are named in a legend above the
/// table, which heads their columns `value 1`, `value 2`...
pub fn growth_section(g: &ValueGrowth, markdown: bool, width: Option<usize>) -> String {
    let b = &g.basis;
    let heading = format!(
        "Growth of {}'s largest values from {}: {} a day from {}, month by month (steady growth at that ingest, each value at its share).",
        g.spec,
        b.from,
        human_bytes(b.ingest_bytes_per_day),
        human_bytes(b.start_bytes)
    );
    let mut s = match (markdown, width) {
        (true, _) => format!("\n### {}\n\n", cell(&heading)),
        (false, Some(w)) => format!("\n{}\n", wrap(&heading, w, "", "")),
        (false, None) => format!("\n{heading}\n"),
    };
    let mut header = vec!["month".to_owned(), "day".to_owned(), "container".to_owned()];
    match markdown {
        true => header.extend(g.values.iter().map(|v| cell(v))),
        false => {
            for (i, v) in g.values.iter().enumerate() {
                let name = format!("value {}", i + 1);
                let label = match width {
                    Some(w) => elide_label(v, w.saturating_sub(name.len() + 2).max(12)),
                    None => v.clone(),
                };
                s += &format!("{name}: {label}\n");
                header.push(name);
            }
            s.push('\n');
        }
    }
    let rows: Vec<Vec<String>> = (g.months.iter())
        .map(|m| {
            let mut row = vec![
                m.month.to_string(),
                m.on.clone(),
                human_bytes(m.container_bytes),
            ];
            row.extend(m.bytes.iter().map(|&b| human_bytes(b)));
            row
        })
        .collect();
    match markdown {
        true => {
            s += &format!("| {} |\n", header.join(" | "));
            s += &format!("|{}\n", "---|".repeat(header.len()));
            for r in &rows {
                s += &format!("| {} |\n", r.join(" | "));
            }
        }
        false => {
            let widths: Vec<usize> = (0..header.len())
                .map(|i| {
                    let cells = rows.iter().map(|r| r[i].chars().count());
                    cells.chain([header[i].chars().count()]).max().unwrap_or(0)
                })
                .collect();
            let line = |cells: &[String]| {
                let padded: Vec<String> = (cells.iter().zip(&widths))
                    .map(|(c, &w)| format!("{c:>w$}"))
                    .collect();
                padded.join("  ").trim_end().to_owned() + "\n"
            };
            s += &line(&header);
            for r in &rows {
                s += &line(r);
            }
        }
    }
    s
}
