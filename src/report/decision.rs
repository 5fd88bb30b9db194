//! The HTML page's first block: the recommendation's reason in one line, then the best
//! candidates side by side (RU/s and bill as bars, findings as marks), those with a
//! violation apart under a divider. It carries the decision; the sections below explain it.

use super::html::esc;
use super::model::{CandidateReport, Report, Role};
use super::text::thousands;

/// Candidates without a violation the comparison shows.
pub const BEST: usize = 5;
/// Candidates with a violation shown under the divider.
pub const VIOLATORS: usize = 3;

/// One figure compared: its header, how it reads, and its value per candidate.
struct Measure {
    header: &'static str,
    unit: fn(f64) -> String,
    /// Its value for a candidate, given the first-ranked candidate's whole-log efficiency.
    value: fn(&CandidateReport, f64) -> Option<f64>,
}

/// The best `n` of `of` (in rank order), and the key `check` gates wherever it ranks.
fn pick<'r>(of: &[&'r CandidateReport], n: usize) -> Vec<&'r CandidateReport> {
    (of.iter().enumerate())
        .filter(|(i, c)| *i < n || c.role == Role::Declared)
        .map(|(_, c)| *c)
        .collect()
}

/// The block: nothing without candidates.
pub fn block(report: &Report) -> String {
    let (Some(first), Some(r)) = (report.candidates.first(), &report.recommendation) else {
        return String::new();
    };
    let (clean_all, bad_all): (Vec<&CandidateReport>, Vec<&CandidateReport>) =
        report.candidates.iter().partition(|c| !c.has_violation());
    let (clean, violators) = (pick(&clean_all, BEST), pick(&bad_all, VIOLATORS));
    let measures = measures(first);
    // Without rates RU/s are compared as whole-log efficiencies, against the first's.
    let best = first.cost.efficiency;
    let shown: Vec<&CandidateReport> = clean.iter().chain(&violators).copied().collect();
    let tops: Vec<f64> = (measures.iter())
        .map(|m| {
            (shown.iter())
                .filter_map(|c| (m.value)(c, best))
                .fold(0.0, f64::max)
        })
        .collect();
    let mut s = format!(
        "<section class=\"decision\" id=\"decision\">\n<p class=\"why\"><strong>Recommended: <code class=\"key\">{}</code>.</strong> {}</p>\n\
         <table class=\"compare\">\n<thead><tr><th>candidate</th>",
        esc(&r.spec),
        esc(&r.summary)
    );
    for m in &measures {
        s += &format!("<th>{}</th>", m.header);
    }
    s += "<th>findings</th></tr></thead>\n";
    if !clean.is_empty() {
        s += "<tbody>\n";
        for c in &clean {
            s += &row(c, &measures, &tops, best);
        }
        if clean.len() < clean_all.len() {
            s += &format!(
                "<tr class=\"more\"><td colspan=\"{}\">{} of {} without violations shown; the ranking lists every one</td></tr>\n",
                measures.len() + 2,
                clean.len(),
                clean_all.len()
            );
        }
        s += "</tbody>\n";
    }
    if !violators.is_empty() {
        s += &format!(
            "<tbody class=\"violators\">\n<tr class=\"divider\"><th colspan=\"{}\">{} ({})</th></tr>\n",
            measures.len() + 2,
            match clean.is_empty() {
                true => "Every candidate has a violation: the first is the least bad",
                false => "With violations: not to be used",
            },
            shown_of(violators.len(), bad_all.len())
        );
        for c in &violators {
            s += &row(c, &measures, &tops, best);
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

/// What the candidates are compared on: RU/s needed and the monthly bill when the log
/// gives rates (and the provisioned bill when throughput is given), else RU per operation.
fn measures(first: &CandidateReport) -> Vec<Measure> {
    if first.cost.required_ru.is_none() {
        // Without rates a key's RU/s follow its whole-log efficiency (the busiest
        // partition's share), which decides; the RU an operation is what the table shows.
        return vec![
            Measure {
                header: "RU/s, × #1's (by whole-log efficiency)",
                unit: |v| format!("{v:.2}×"),
                value: |c, best| (c.cost.efficiency > 0.0).then(|| best / c.cost.efficiency),
            },
            Measure {
                header: "RU per operation",
                unit: |v| format!("{v:.1}"),
                value: |c, _| Some(c.cost.ru_per_operation),
            },
        ];
    }
    let mut out = vec![
        Measure {
            header: "RU/s needed",
            unit: thousands,
            value: |c, _| c.cost.required_ru,
        },
        Measure {
            header: "USD a month",
            unit: thousands,
            value: |c, _| Some(c.cost.monthly.total),
        },
    ];
    if first.cost.provisioned.is_some() {
        out.push(Measure {
            header: "USD a month, as provisioned",
            unit: thousands,
            value: |c, _| c.cost.provisioned.as_ref().map(|b| b.monthly.total),
        });
    }
    out
}

/// One candidate's row: its rank and key, a bar per measure with its figure beside it,
/// and a mark per finding.
fn row(c: &CandidateReport, measures: &[Measure], tops: &[f64], best: f64) -> String {
    let mut s = format!(
        "<tr id=\"d{0}\"><td><a href=\"#c{0}\">#{0}</a> <code>{1}</code></td>",
        c.rank,
        esc(&c.key.spec).replace(',', ",<wbr>")
    );
    for (m, top) in measures.iter().zip(tops) {
        s += &match (m.value)(c, best) {
            Some(v) => format!(
                "<td><div class=\"bv\"><div class=\"bar\" style=\"width:{w:.1}%\" data-value=\"{v}\"></div><span class=\"v\" style=\"left:{w:.1}%\">{f}</span></div></td>",
                w = bar_width(v, *top),
                f = esc(&(m.unit)(v))
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
                super::html::severity(f.severity),
                esc(&f.message),
                f.code
            );
        }
    }
    s + "</td></tr>\n"
}

/// A bar's width in percent of its track (the cell less a margin the figure beside the
/// bar's end stands in; the same in every row, so that bars keep their proportions): the
/// largest shown takes all of it.
fn bar_width(v: f64, top: f64) -> f64 {
    match top > 0.0 {
        true => 100.0 * (v / top).clamp(0.0, 1.0),
        false => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_shares_of_the_largest_shown() {
        assert!((bar_width(1_800.0, 3_600.0) - 50.0).abs() < 1e-9);
        assert!((bar_width(3_600.0, 3_600.0) - 100.0).abs() < 1e-9);
        assert!(bar_width(5.0, 0.0).abs() < 1e-9);
        assert_eq!(shown_of(3, 3), "all 3");
    }
}
