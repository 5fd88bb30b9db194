//! The Markdown renderer: a table and the recommendation, for a CI step summary
//! (`$GITHUB_STEP_SUMMARY`) or a pull-request comment.

use std::io::{self, Write};

use super::model::{CandidateReport, Report};
use super::table::target_line;
use crate::units::human_bytes;

/// Escapes what would break a Markdown table cell.
pub fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Writes the report as Markdown.
pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## Partition-key analysis\n")?;
    writeln!(out, "{}\n", target_line(report))?;
    writeln!(
        out,
        "| # | key | score | distinct | largest logical partition | breaks at (container size) | usable RU | reads single / targeted / fan-out | findings |"
    )?;
    writeln!(out, "|---|---|---:|---:|---:|---:|---:|---|---|")?;
    for c in &report.candidates {
        writeln!(out, "{}", row(c))?;
    }
    if let Some(r) = &report.recommendation {
        writeln!(
            out,
            "\n**Recommendation: `{}`**\n\n{}",
            cell(&r.spec),
            r.reason
        )?;
    }
    let details: Vec<&CandidateReport> = report
        .candidates
        .iter()
        .filter(|c| !c.findings.is_empty())
        .collect();
    if !details.is_empty() {
        writeln!(out, "\n### Findings\n")?;
        for c in details {
            for f in &c.findings {
                let sev = serde_json::to_value(f.severity)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "- `{}` **{}** ({sev}): {}",
                    cell(&c.key.spec),
                    f.code,
                    cell(&f.message)
                )?;
            }
        }
    }
    Ok(())
}

fn row(c: &CandidateReport) -> String {
    let q = &c.queries;
    let routing = if q.reads == 0 {
        "no reads".to_owned()
    } else {
        format!(
            "{:.0}% / {:.0}% / {:.0}%",
            q.single * 100.0,
            q.targeted * 100.0,
            q.fan_out * 100.0
        )
    };
    let codes: Vec<String> = c.findings.iter().map(|f| format!("`{}`", f.code)).collect();
    format!(
        "| {} | `{}` | {:.1} | {}{} | {} | {} | {:.0}% | {routing} | {} |",
        c.rank,
        cell(&c.key.spec),
        c.score,
        if c.cardinality.exact { "" } else { "~" },
        c.cardinality.estimate,
        human_bytes(c.storage.largest_logical_bytes),
        c.storage
            .max_container_bytes
            .map_or("unbounded".to_owned(), human_bytes),
        c.throughput.usable_fraction * 100.0,
        codes.join(" ")
    )
}
