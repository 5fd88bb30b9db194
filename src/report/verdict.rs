//! The verdict of `pkadvisor check` as text and Markdown (JSON is the report itself, with
//! its `check` block).

use std::io::Write;

use super::Format;
use super::columns::cost_summary;
use super::markdown::cell;
use super::model::{
    CandidateReport, CheckResult, FindingCode, ObservedCheck, Report, Role, Severity,
};
use super::table;
use crate::units::human_bytes;

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
    let c = declared(report);
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
    writeln!(out, "{}", table::target_line(report))?;
    for r in &v.reasons {
        writeln!(out, "  ✗ {r}")?;
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
        writeln!(out, "  ! {} ({severity}): {}", f.code, f.message)?;
    }
    writeln!(out, "Cost: {}", cost_line(report, v))?;
    if let Some(o) = &v.observed {
        writeln!(out, "Observed: {}", observed_line(o))?;
    }
    for i in &report.declared_indexes {
        writeln!(out, "Index {}: {}", i.key.spec, i.reason)?;
    }
    alternative(report, v, out, false)
}

fn observed_line(o: &ObservedCheck) -> String {
    format!(
        "the largest logical partition the Azure Monitor log reports is {} ({}); the projection puts the largest at {} at the target",
        human_bytes(o.largest_bytes),
        o.value,
        human_bytes(o.projected_bytes)
    )
}

/// The declared key's cost, and the cheapest alternative's beside it.
fn cost_line(report: &Report, v: &CheckResult) -> String {
    let c = declared(report);
    let mut line = format!("{} needs {}", c.key.spec, cost_summary(c));
    let alt = v
        .cheapest_alternative
        .as_ref()
        .and_then(|s| report.candidates.iter().find(|o| &o.key.spec == s));
    if let (Some(o), Some(r)) = (alt, v.cost_ratio) {
        let what = match pair_against(report, o) {
            Some(_) => "monthly bill, with its declared indexes",
            None => "RU/s",
        };
        line.push_str(&format!(
            "; the cheapest alternative, {}, needs {} (the {} needs {r:.2}× its {what}; limit {}×)",
            o.key.spec,
            cost_summary(o),
            if c.key.kind == "layout" {
                "layout"
            } else {
                "key"
            },
            v.max_cost_ratio
        ));
    }
    line
}

fn verdict_markdown(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let v = report.check.as_ref().expect("check verdict");
    let c = declared(report);
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
    alternative(report, v, out, true)?;
    writeln!(out)?;
    super::markdown::render(report, out)
}

/// The declared design's candidate: the one the verdict names.
pub fn declared(report: &Report) -> &CandidateReport {
    (report.candidates.iter())
        .find(|c| c.role == Role::Declared)
        .expect("the declared design is a candidate")
}

fn alternative(
    report: &Report,
    v: &CheckResult,
    out: &mut dyn Write,
    md: bool,
) -> std::io::Result<()> {
    let Some(spec) = &v.best_alternative else {
        return Ok(());
    };
    let alt = report
        .candidates
        .iter()
        .find(|c| &c.key.spec == spec)
        .expect("alternative listed");
    let (open, close) = if md { ("**", "**") } else { ("", "") };
    writeln!(
        out,
        "{open}Best alternative: {spec}{close} (score {:.1}, rank {} of {}): {}",
        alt.score,
        alt.rank,
        report.candidates.len(),
        alt.origin
    )
}

/// The monthly bill of the cheapest pair of the container and a declared index, when
/// `alt`'s bill is known too: the cost gate then compares bills, not RU/s.
pub fn pair_against(report: &Report, alt: &CandidateReport) -> Option<f64> {
    alt.cost.monthly.throughput?;
    (report.declared_indexes.iter())
        .filter_map(|i| i.monthly_after)
        .min_by(f64::total_cmp)
}
