//! The Markdown renderer, for a CI step summary (`$GITHUB_STEP_SUMMARY`) or a pull-request
//! comment: the ranking as a table with the recommendation and the findings, and under the
//! table, folded in a `<details>` block, Mermaid bar charts GitHub draws of the best
//! candidates' RU/s and monthly bill; `--explain`'s partition map as a table with whole
//! ranges and values; and check's verdict followed by the ranking.

use std::io::{self, Write};

use super::View;
use super::columns::COLUMNS;
use super::model::{CandidateReport, ExplainReport, Report, Severity};
use super::text::{
    MAP_RANGES, best_alternative, cell, cost_line, declaration_lines, landing_line, largest_values,
    map_header, map_legend, observed_line, partition_name, prices_note, round_up,
    secondary_index_line, small_sample_line, target_line, thousands,
};
use crate::units::human_bytes;

/// Writes `view` as Markdown.
pub fn render(view: View, out: &mut dyn Write) -> io::Result<()> {
    match view {
        View::Ranking(report) => ranking(report, out),
        View::Map(map) => {
            partition_map(map, out)?;
            match &map.growth {
                Some(g) => write!(out, "{}", super::growth::growth_section(g, true, None)),
                None => Ok(()),
            }
        }
        View::Verdict(report) => verdict(report, out),
        View::Migration(plan) => super::plan::markdown(plan, out),
    }
}

/// One table of `rows`, every column.
fn table(rows: &[&CandidateReport], out: &mut dyn Write) -> io::Result<()> {
    let headers: Vec<&str> = COLUMNS.iter().map(|c| c.long_header).collect();
    writeln!(out, "| {} |", headers.join(" | "))?;
    let aligns: Vec<&str> = COLUMNS
        .iter()
        .map(|c| if c.numeric { "---:" } else { "---" })
        .collect();
    writeln!(out, "|{}|", aligns.join("|"))?;
    for c in rows {
        writeln!(out, "{}", row(c))?;
    }
    Ok(())
}

/// The ranking, the prices, the recommendation and the findings.
fn ranking(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "## Partition-key analysis\n")?;
    writeln!(out, "{}\n", target_line(report))?;
    if let Some(line) = small_sample_line(report) {
        writeln!(out, "> {line}\n")?;
    }
    // Candidates with a violation are set apart, as the terminal's table does.
    let (clean, violating): (Vec<&CandidateReport>, Vec<&CandidateReport>) =
        (report.candidates.iter()).partition(|c| !c.has_violation());
    if !clean.is_empty() {
        table(&clean, out)?;
    }
    if !violating.is_empty() {
        if !clean.is_empty() {
            writeln!(out)?;
        }
        writeln!(
            out,
            "**With violations** (ranked after every candidate without):\n"
        )?;
        table(&violating, out)?;
    }
    writeln!(out, "\n{}", prices_note(&report.target.prices))?;
    write!(out, "{}", charts(&report.candidates))?;
    if let Some(r) = &report.recommendation {
        writeln!(
            out,
            "\n**Recommendation: `{}`**\n\n{}",
            cell(&r.spec),
            r.reason
        )?;
        if let Some(line) = super::text::recommended_bills(report) {
            writeln!(out, "\n{line}")?;
        }
        let warnings = super::remedy::recommended_warnings(report);
        if !warnings.is_empty() {
            writeln!(out, "\nIts warnings, and what to do:\n")?;
        }
        for w in warnings {
            writeln!(out, "- {}", cell(&w.sentence()))?;
        }
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

/// Candidates the Mermaid charts show: the best ones.
pub const CHART_CANDIDATES: usize = 5;

/// The best candidates' RU/s and monthly bill as Mermaid bar charts (RU per operation when
/// the log gives no rates), folded in a `<details>` block; nothing without candidates.
fn charts(candidates: &[CandidateReport]) -> String {
    let top = &candidates[..candidates.len().min(CHART_CANDIDATES)];
    if top.is_empty() {
        return String::new();
    }
    let labels: Vec<String> = top.iter().map(chart_label).collect();
    let rates: Option<Vec<f64>> = top.iter().map(|c| c.cost.required_ru).collect();
    let mut s = format!(
        "\n<details><summary>Chart: the {} best candidates' {}</summary>\n\n",
        top.len(),
        match rates {
            Some(_) => "RU/s and monthly bill",
            None => "RU per operation",
        }
    );
    match rates {
        Some(ru) => {
            s += &xychart("RU/s needed", "RU/s", &labels, &ru, 0);
            let usd: Vec<f64> = top.iter().map(|c| c.cost.monthly.total).collect();
            s += &xychart("Monthly bill (USD)", "USD a month", &labels, &usd, 0);
        }
        None => {
            let per_op: Vec<f64> = top.iter().map(|c| c.cost.ru_per_operation).collect();
            s += &xychart("RU per operation", "RU", &labels, &per_op, 1);
        }
    }
    s + "</details>\n"
}

/// A candidate's label on a chart's axis: its rank and key, cut to fit, in double quotes
/// (Mermaid's strings have no escapes, so a key's own double quotes become single).
fn chart_label(c: &CandidateReport) -> String {
    const WIDTH: usize = 40;
    let spec = c.key.spec.replace('"', "'");
    let spec = match spec.chars().count() > WIDTH {
        true => format!("{}…", spec.chars().take(WIDTH - 1).collect::<String>()),
        false => spec,
    };
    format!("\"#{} {spec}\"", c.rank)
}

/// One Mermaid `xychart-beta` bar chart in a fenced block: horizontal, so that keys read
/// whole, its axis from 0 (Mermaid's own would start at the smallest bar and make small
/// differences look large), values with `decimals`.
fn xychart(title: &str, axis: &str, labels: &[String], values: &[f64], decimals: usize) -> String {
    let top = values.iter().copied().fold(0.0, f64::max);
    let texts: Vec<String> = values.iter().map(|v| format!("{v:.decimals$}")).collect();
    format!(
        "```mermaid\nxychart-beta horizontal\n    title \"{title}\"\n    x-axis [{}]\n    y-axis \"{axis}\" 0 --> {}\n    bar [{}]\n```\n\n",
        labels.join(", "),
        round_up(top),
        texts.join(", ")
    )
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
    writeln!(out, "{}\n", map_legend(MAP_RANGES))?;
    writeln!(
        out,
        "| # | pkrange | min | max | bytes | logical | RU | largest values |"
    )?;
    writeln!(out, "|---:|---:|---|---|---:|---:|---:|---|")?;
    for (i, p) in r.map.partitions.iter().enumerate() {
        writeln!(
            out,
            "| {} | {} | `{}` | `{}` | {} | {} | {} | {} |",
            i + 1,
            partition_name(r, i, p),
            p.min,
            p.max,
            human_bytes(p.bytes),
            p.logical_partitions,
            thousands(p.ru),
            cell(&largest_values(r, p, None))
        )?;
    }
    for v in &r.values {
        writeln!(out, "\n{}", cell(&landing_line(r, v)))?;
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
        let lines = declaration_lines(report, v);
        if !lines.is_empty() {
            writeln!(out, "\nDeclared as:\n\n```text\n{}\n```", lines.join("\n"))?;
        }
    }
    writeln!(out)?;
    // A pull request's comment stays short: the analysis folds away.
    writeln!(out, "<details><summary>Full analysis</summary>\n")?;
    ranking(report, out)?;
    writeln!(out, "\n</details>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::testing::candidate;

    #[test]
    fn chart_axes_start_at_zero_and_end_at_a_round_figure() {
        let chart = xychart("t", "RU/s", &["\"a\"".into()], &[1_783.4], 0);
        assert!(
            chart.contains("y-axis \"RU/s\" 0 --> 2000\n    bar [1783]\n"),
            "{chart}"
        );
    }

    #[test]
    fn chart_labels_are_mermaid_strings_of_rank_and_key() {
        let mut c = candidate("/\"my-prop\"", &[]);
        c.rank = 3;
        assert_eq!(chart_label(&c), "\"#3 /'my-prop'\"");
        c.key.spec = format!("concat({})", ["/aaaaaaaaaa"; 5].join(","));
        let label = chart_label(&c);
        assert_eq!(label.chars().count(), "\"#3 \"".len() + 40, "{label}");
        assert!(label.ends_with("…\""));
    }

    #[test]
    fn charts_show_the_bill_with_rates_and_ru_per_operation_without() {
        let mut cs: Vec<CandidateReport> = (1..=7)
            .map(|i| CandidateReport {
                rank: i,
                ..candidate(&format!("/k{i}"), &[])
            })
            .collect();
        let with = charts(&cs);
        assert_eq!(with.matches("```mermaid").count(), 2);
        assert!(with.contains("#5 /k5") && !with.contains("#6"), "{with}");
        assert!(with.starts_with("\n<details><summary>") && with.ends_with("</details>\n"));
        cs[0].cost.required_ru = None;
        let without = charts(&cs);
        assert_eq!(without.matches("```mermaid").count(), 1);
        assert!(without.contains("RU per operation"));
        assert_eq!(charts(&[]), "");
    }
}
