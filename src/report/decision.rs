//! The HTML page's first block: the recommendation's reason in one line, then the best
//! candidates side by side (RU/s and bill as bars, findings as marks), those with a
//! violation apart under a divider. It carries the decision; the sections below explain it.

use super::html::esc;
use super::model::{CandidateReport, Report, Severity};
use super::text::thousands;

/// Candidates without a violation the comparison shows.
pub const BEST: usize = 5;
/// Candidates with a violation shown under the divider.
pub const VIOLATORS: usize = 3;

/// One figure compared: its header, how it reads, and its value per candidate.
struct Measure {
    header: &'static str,
    unit: fn(f64) -> String,
    value: fn(&CandidateReport) -> Option<f64>,
}

/// The block: nothing without candidates.
pub fn block(report: &Report) -> String {
    let (Some(first), Some(r)) = (report.candidates.first(), &report.recommendation) else {
        return String::new();
    };
    let clean: Vec<&CandidateReport> = (report.candidates.iter())
        .filter(|c| !violates(c))
        .take(BEST)
        .collect();
    let violators: Vec<&CandidateReport> = (report.candidates.iter())
        .filter(|c| violates(c))
        .take(VIOLATORS)
        .collect();
    let measures = measures(first);
    let shown: Vec<&CandidateReport> = clean.iter().chain(&violators).copied().collect();
    let tops: Vec<f64> = (measures.iter())
        .map(|m| {
            (shown.iter())
                .filter_map(|c| (m.value)(c))
                .fold(0.0, f64::max)
        })
        .collect();
    let mut s = format!(
        "<section class=\"decision\" id=\"decision\">\n<p class=\"why\"><strong>Recommended: <code class=\"key\">{}</code>.</strong> {}</p>\n\
         <table class=\"compare\">\n<thead><tr><th>candidate</th>",
        esc(&r.spec),
        esc(&one_line_reason(&r.reason))
    );
    for m in &measures {
        s += &format!("<th>{}</th>", m.header);
    }
    s += "<th>findings</th></tr></thead>\n<tbody>\n";
    for c in &clean {
        s += &row(c, &measures, &tops);
    }
    s += "</tbody>\n";
    if !violators.is_empty() {
        let count = report.candidates.iter().filter(|c| violates(c)).count();
        s += &format!(
            "<tbody class=\"violators\">\n<tr class=\"divider\"><th colspan=\"{}\">With violations: not to be used ({})</th></tr>\n",
            measures.len() + 2,
            shown_of(violators.len(), count)
        );
        for c in &violators {
            s += &row(c, &measures, &tops);
        }
        s += "</tbody>\n";
    }
    s + "</table>\n</section>\n"
}

/// "3 of 8 shown" or "all 3".
fn shown_of(shown: usize, all: usize) -> String {
    match shown == all {
        true => format!("all {all}"),
        false => format!("{shown} of {all} shown; the ranking lists every one"),
    }
}

/// Whether a candidate has a violation.
pub fn violates(c: &CandidateReport) -> bool {
    c.findings.iter().any(|f| f.severity == Severity::Violation)
}

/// What the candidates are compared on: RU/s needed and the monthly bill when the log
/// gives rates (and the provisioned bill when throughput is given), else RU per operation.
fn measures(first: &CandidateReport) -> Vec<Measure> {
    if first.cost.required_ru.is_none() {
        return vec![Measure {
            header: "RU per operation",
            unit: |v| format!("{v:.1}"),
            value: |c| Some(c.cost.ru_per_operation),
        }];
    }
    let mut out = vec![
        Measure {
            header: "RU/s needed",
            unit: thousands,
            value: |c| c.cost.required_ru,
        },
        Measure {
            header: "USD a month",
            unit: thousands,
            value: |c| Some(c.cost.monthly.total),
        },
    ];
    if first.cost.provisioned.is_some() {
        out.push(Measure {
            header: "USD a month, as provisioned",
            unit: thousands,
            value: |c| c.cost.provisioned.as_ref().map(|b| b.monthly.total),
        });
    }
    out
}

/// One candidate's row: its rank and key, a bar per measure with its figure beside it,
/// and a mark per finding.
fn row(c: &CandidateReport, measures: &[Measure], tops: &[f64]) -> String {
    let mut s = format!(
        "<tr id=\"d{0}\"><td><a href=\"#c{0}\">#{0}</a> <code>{1}</code></td>",
        c.rank,
        esc(&c.key.spec).replace(',', ",<wbr>")
    );
    for (m, top) in measures.iter().zip(tops) {
        s += &match (m.value)(c) {
            Some(v) => format!(
                "<td><div class=\"bv\"><div class=\"bar\" style=\"width:{:.1}%\" data-value=\"{v}\"></div><span class=\"v\">{}</span></div></td>",
                bar_width(v, *top),
                esc(&(m.unit)(v))
            ),
            None => "<td>unknown</td>".to_owned(),
        };
    }
    s += "<td>";
    let mut codes: Vec<&str> = Vec::new();
    for f in &c.findings {
        if !codes.contains(&f.code.as_str()) {
            codes.push(f.code.as_str());
            s += &format!(
                "<span class=\"mk {}\" title=\"{}\">{}</span> ",
                severity(f.severity),
                esc(&f.message),
                f.code
            );
        }
    }
    s + "</td></tr>\n"
}

/// A bar's width in percent of its cell: the largest shown takes 70%, leaving room for the
/// figure beside it.
fn bar_width(v: f64, top: f64) -> f64 {
    match top > 0.0 {
        true => 70.0 * (v / top).clamp(0.0, 1.0),
        false => 0.0,
    }
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Violation => "violation",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// The recommendation's reason in one line: its decision ("Decided: ...", the sentence
/// that says why it beats the runner-up), else its first sentence.
pub fn one_line_reason(reason: &str) -> String {
    if let Some(at) = reason.find("Decided: ") {
        let decided = &reason[at + "Decided: ".len()..];
        let mut chars = decided.chars();
        return chars.next().map_or(String::new(), |first| {
            first.to_uppercase().collect::<String>() + chars.as_str()
        });
    }
    match reason.find(". ") {
        Some(end) => reason[..=end].to_owned(),
        None => reason.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_is_the_decision_or_the_first_sentence() {
        let reason = "/a scores 72.5 of 100. It needs 1,800 RU/s. Decided: /a and /b need the same RU/s, and /a leaves more headroom.";
        assert_eq!(
            one_line_reason(reason),
            "/a and /b need the same RU/s, and /a leaves more headroom."
        );
        assert_eq!(
            one_line_reason("/a scores 90.0 of 100. It needs 400 RU/s."),
            "/a scores 90.0 of 100."
        );
    }

    #[test]
    fn bars_are_shares_of_the_largest_shown() {
        assert!((bar_width(1_800.0, 3_600.0) - 35.0).abs() < 1e-9);
        assert!((bar_width(3_600.0, 3_600.0) - 70.0).abs() < 1e-9);
        assert!(bar_width(5.0, 0.0).abs() < 1e-9);
        assert_eq!(shown_of(3, 3), "all 3");
    }
}
