//! The Markdown renderer: a table and the recommendation, for a CI step summary
//! (`$GITHUB_STEP_SUMMARY`) or a pull-request comment.

use std::io::{self, Write};

use super::columns::COLUMNS;
use super::model::{CandidateReport, Report};
use super::text::{cell, secondary_index_line, target_line};

/// Writes the report as Markdown.
pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## Partition-key analysis\n")?;
    writeln!(out, "{}\n", target_line(report))?;
    let headers: Vec<&str> = COLUMNS.iter().map(|c| c.long_header).collect();
    writeln!(out, "| {} |", headers.join(" | "))?;
    let aligns: Vec<&str> = COLUMNS
        .iter()
        .map(|c| if c.numeric { "---:" } else { "---" })
        .collect();
    writeln!(out, "|{}|", aligns.join("|"))?;
    for c in &report.candidates {
        writeln!(out, "{}", row(c))?;
    }
    writeln!(
        out,
        "\nPrices: {} USD per 100 RU/s-hour, {} USD per GB-month, {} region(s): {}.",
        report.target.prices.ru_hour_per_100,
        report.target.prices.gb_month,
        report.target.prices.regions,
        report.target.prices.source
    )?;
    if let Some(r) = &report.recommendation {
        writeln!(
            out,
            "\n**Recommendation: `{}`**\n\n{}",
            cell(&r.spec),
            r.reason
        )?;
        if let Some(g) = &r.secondary_index {
            writeln!(out, "\n{}", secondary_index_line(g))?;
        }
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
    let cells: Vec<String> = COLUMNS
        .iter()
        .map(|col| match col.header {
            "key" => format!("`{}`", cell(&c.key.spec)),
            "findings" => {
                let codes: Vec<String> =
                    c.findings.iter().map(|f| format!("`{}`", f.code)).collect();
                codes.join(" ")
            }
            _ => cell(&(col.text)(c)),
        })
        .collect();
    format!("| {} |", cells.join(" | "))
}
