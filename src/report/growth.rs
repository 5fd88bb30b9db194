//! The growth of a candidate's largest values month by month, the section `--explain`
//! prints after the partition map when a timeline is known.

use crate::advisor::timeline::ValueGrowth;
use crate::units::human_bytes;

/// The section as plain text (`markdown`: a Markdown table).
pub fn growth_section(g: &ValueGrowth, markdown: bool) -> String {
    let b = &g.basis;
    let mut s = format!(
        "\n{}Growth of {}'s largest values from {}: {} a day from {}, month by month (steady growth at that ingest, each value at its share).\n\n",
        if markdown { "### " } else { "" },
        g.spec,
        b.from,
        human_bytes(b.ingest_bytes_per_day),
        human_bytes(b.start_bytes)
    );
    let mut header = vec!["month".to_owned(), "day".to_owned(), "container".to_owned()];
    header.extend(g.values.iter().cloned());
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
