//! The Markdown renderer, for a CI step summary (`$GITHUB_STEP_SUMMARY`) or a pull-request
//! comment: the ranking as a table with the recommendation and the findings, `--explain`'s
//! partition map as a table with whole ranges and values, and check's verdict followed by
//! the ranking.

use std::io::{self, Write};

use super::View;
use super::columns::COLUMNS;
use super::model::{CandidateReport, ExplainReport, Report, Severity};
use super::text::{
    MAP_LEGEND, best_alternative, cell, cost_line, largest_values, map_header, observed_line,
    partition_name, secondary_index_line, target_line,
};
use crate::units::human_bytes;

/// Writes `view` as Markdown.
pub fn render(view: View, out: &mut dyn Write) -> io::Result<()> {
    match view {
        View::Ranking(report) => ranking(report, out),
        View::Map(map) => partition_map(map, out),
        View::Verdict(report) => verdict(report, out),
    }
}

/// The ranking, the prices, the recommendation and the findings.
fn ranking(report: &Report, out: &mut dyn Write) -> io::Result<()> {
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

/// The partition map, ranges and values whole.
fn partition_map(r: &ExplainReport, out: &mut dyn Write) -> io::Result<()> {
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

/// check's verdict, then the ranking it was drawn from.
fn verdict(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let v = report.check.as_ref().expect("check verdict");
    let c = report.declared();
    let status = if v.passed { "✅ PASS" } else { "❌ FAIL" };
    writeln!(out, "## pkadvisor check: {status}\n")?;
    let container = v
        .container
        .as_ref()
        .map_or(String::new(), |n| format!(" (container `{}`)", cell(n)));
    writeln!(
        out,
        "Key `{}`{container}: score **{:.1}** (minimum {}).\n",
        cell(&v.key),
        c.score,
        v.min_score
    )?;
    for r in &v.reasons {
        writeln!(out, "- ❌ {}", cell(&r.text))?;
    }
    writeln!(out, "- Cost: {}", cell(&cost_line(report, v)))?;
    if let Some(o) = &v.observed {
        writeln!(out, "- Observed: {}", cell(&observed_line(o)))?;
    }
    for i in &report.declared_indexes {
        writeln!(out, "- Index `{}`: {}", cell(&i.key.spec), cell(&i.reason))?;
    }
    for f in c
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Violation)
    {
        writeln!(out, "- ⚠️ `{}`: {}", f.code, cell(&f.message))?;
    }
    writeln!(out)?;
    if let Some((spec, tail)) = best_alternative(report, v) {
        writeln!(out, "**Best alternative: {spec}** {tail}")?;
    }
    writeln!(out)?;
    ranking(report, out)
}
