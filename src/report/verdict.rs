//! The verdict of `pkadvisor check` as text and Markdown (JSON is the report itself, with
//! its `check` block).

use std::io::Write;

use super::Format;
use super::model::{Report, Severity};
use super::text::{best_alternative, cell, cost_line, observed_line, target_line};

/// Writes the verdict of `check` in `format`: JSON is the report with its `check` block;
/// table and Markdown say whether the declared design passed, why, and its best alternative.
pub fn render(report: &Report, format: Format, out: &mut dyn Write) -> std::io::Result<()> {
    match format {
        Format::Json => super::json::render(report, out),
        Format::Table | Format::WideTable => verdict_text(report, out),
        Format::Markdown => verdict_markdown(report, out),
    }
}

fn verdict_text(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
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
    for r in &v.reasons {
        writeln!(out, "  ✗ {r}")?;
    }
    let denied = |code: &str| v.reasons.iter().any(|r| r.starts_with(code));
    for f in c
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Violation && !denied(f.code.as_str()))
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
    match best_alternative(report, v) {
        Some((spec, tail)) => writeln!(out, "Best alternative: {spec} {tail}"),
        None => Ok(()),
    }
}

fn verdict_markdown(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
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
        writeln!(out, "- ❌ {}", cell(r))?;
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
    super::markdown::render(report, out)
}
