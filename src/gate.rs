//! The CI gate of `pkadvisor check`: what a declared design must meet to pass, applied to
//! the ranked report.
//!
//! A design fails for any of these reasons, each typed by its kind:
//! * a violation among its findings ([`ReasonKind::Violation`]);
//! * a finding named with `--deny`, warnings included, unless a declared global secondary
//!   index serves the fanned-out reads it names ([`ReasonKind::Denied`]);
//! * a score below `--min-score` ([`ReasonKind::Score`]), unless a declared global
//!   secondary index serves the reads the key fans out (the key's score prices those reads
//!   on the container; the cost rule then judges the pair's bill);
//! * needing `--max-cost-ratio` times what the cheapest alternative without violations
//!   needs: RU/s, or the monthly bill with its declared indexes ([`ReasonKind::Cost`]);
//! * an Azure Monitor log that already shows one of its logical partitions at 90% of the
//!   20 GB limit ([`ReasonKind::Observed`]);
//! * with `--horizon`, a timeline whose largest logical partition passes 20 GB within it
//!   ([`ReasonKind::Horizon`]).

use crate::advisor::findings::FAN_OUT_RU_SHARE;
use crate::advisor::need;
use crate::advisor::round::cents;
use crate::engine::Limits;
use crate::report::model::{
    CandidateReport, CheckResult, FindingCode, ObservedCheck, Reason, ReasonKind, Report, Role,
    Severity,
};
use crate::report::text::{cost_summary, thousands};
use crate::units::human_bytes;

/// A declared key fails when the log shows a logical partition at this share of 20 GB.
pub const OBSERVED_NEAR_LIMIT: f64 = 0.9;

/// What a design must meet (`check`'s flags), validated.
#[derive(Clone, Debug, PartialEq)]
pub struct GateOptions {
    /// The lowest passing score (0–100).
    pub min_score: f64,
    /// Finding codes that fail the design whatever their severity.
    pub deny: Vec<FindingCode>,
    /// The design fails at this many times the cheapest alternative's need (more than 1).
    pub max_cost_ratio: f64,
    /// `--horizon`: seconds, and as given; the design fails when its timeline breaks
    /// within it.
    pub horizon: Option<(f64, String)>,
}

/// A gate setting out of its range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GateError {
    /// `--min-score` outside 0–100.
    #[error("--min-score must be between 0 and 100, not {0}")]
    MinScore(f64),
    /// `--max-cost-ratio` not above 1.
    #[error("--max-cost-ratio must be more than 1, not {0}")]
    MaxCostRatio(f64),
    /// A `--deny` name that is no finding code.
    #[error("unknown finding code {name:?} for --deny (one of {all})")]
    UnknownCode {
        /// The name given.
        name: String,
        /// Every code, comma-separated.
        all: String,
    },
}

impl GateOptions {
    /// Validated options from the flags' values.
    pub fn new(min_score: f64, deny: &[String], max_cost_ratio: f64) -> Result<Self, GateError> {
        let deny = deny_codes(deny)?;
        if !(0.0..=100.0).contains(&min_score) {
            return Err(GateError::MinScore(min_score));
        }
        if !max_cost_ratio.is_finite() || max_cost_ratio <= 1.0 {
            return Err(GateError::MaxCostRatio(max_cost_ratio));
        }
        Ok(GateOptions {
            min_score,
            deny,
            max_cost_ratio,
            horizon: None,
        })
    }
}

/// The codes given with `--deny`, each one the design names.
fn deny_codes(names: &[String]) -> Result<Vec<FindingCode>, GateError> {
    (names.iter())
        .map(|n| {
            FindingCode::parse(n).ok_or_else(|| GateError::UnknownCode {
                name: n.clone(),
                all: (FindingCode::ALL.iter().map(|c| c.as_str()))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        })
        .collect()
}

/// Applies the gate to the report's declared design; `container` names the container it
/// was declared for.
pub fn gate(report: &Report, container: Option<String>, opts: &GateOptions) -> CheckResult {
    let c = report.declared();
    let mut reasons = finding_reasons(report, c, &opts.deny);
    if c.score < opts.min_score && !index_serves(report) {
        reasons.push(Reason::new(
            ReasonKind::Score,
            None,
            format!(
                "score {:.1} is below --min-score {}",
                c.score, opts.min_score
            ),
        ));
    }
    let cheapest = cheapest_alternative(report, c);
    let cost_ratio = cheapest.map(|o| cost_ratio(report, c, o));
    if let (Some(o), Some(r)) = (cheapest, cost_ratio)
        && r >= opts.max_cost_ratio
    {
        reasons.push(cost_reason(report, c, o, r, opts.max_cost_ratio));
    }
    let observed = observed(report, c);
    reasons.extend(observed.as_ref().and_then(observed_reason));
    reasons.extend(opts.horizon.as_ref().and_then(|h| horizon_reason(c, h)));
    CheckResult {
        observed,
        passed: reasons.is_empty(),
        key: c.key.spec.clone(),
        container,
        min_score: opts.min_score,
        reasons,
        best_alternative: best_alternative(report, c),
        max_cost_ratio: opts.max_cost_ratio,
        cheapest_alternative: cheapest.map(|o| o.key.spec.clone()),
        cost_ratio: cost_ratio.map(cents),
    }
}

/// Whether a declared index leaves fan-out below the threshold: it serves those reads.
fn index_serves(report: &Report) -> bool {
    (report.declared_indexes.iter()).any(|i| i.fan_out_share.is_some_and(|f| f < FAN_OUT_RU_SHARE))
}

/// Violations, and the findings named with `--deny` that no declared index serves.
fn finding_reasons(report: &Report, c: &CandidateReport, deny: &[FindingCode]) -> Vec<Reason> {
    let served = |code: &FindingCode| *code == FindingCode::FanOutQueries && index_serves(report);
    let mut reasons = Vec::new();
    for f in &c.findings {
        let (kind, how) = if f.severity == Severity::Violation {
            (ReasonKind::Violation, "violation")
        } else if deny.contains(&f.code) && !served(&f.code) {
            (ReasonKind::Denied, "denied with --deny")
        } else {
            continue;
        };
        let text = format!("{} ({how}): {}", f.code, f.message);
        reasons.push(Reason::new(kind, Some(f.code), text));
    }
    reasons
}

/// The best-ranked alternative, when it scores above the declared design.
fn best_alternative(report: &Report, c: &CandidateReport) -> Option<String> {
    // Any alternative without violations beats a design with one, whatever the scores;
    // otherwise one the ranking puts above the design for a reason, not by a tie.
    let violates = c.findings.iter().any(|f| f.severity == Severity::Violation);
    (report.candidates.iter())
        .find(|o| is_alternative(o, c))
        .filter(|o| violates || (o.rank < c.rank && !crate::advisor::rank::tied(o, c)))
        .map(|o| o.key.spec.clone())
}

fn cost_reason(
    report: &Report,
    c: &CandidateReport,
    o: &CandidateReport,
    ratio: f64,
    max: f64,
) -> Reason {
    let (what, mine) = match report.pair_against(o) {
        Some(p) => (
            "with its declared indexes, the monthly bill",
            format!("{} USD a month with its indexes", thousands(p)),
        ),
        None => ("the RU/s", cost_summary(c)),
    };
    let text = format!(
        "needs {ratio:.1}× {what} of {} (--max-cost-ratio {max}): {mine} against {}",
        o.key.spec,
        cost_summary(o)
    );
    Reason::new(ReasonKind::Cost, None, text)
}

fn observed_reason(o: &ObservedCheck) -> Option<Reason> {
    let limit = Limits::default().logical_bytes;
    if (o.largest_bytes as f64) < OBSERVED_NEAR_LIMIT * limit as f64 {
        return None;
    }
    let text = format!(
        "the Azure Monitor log shows logical partition {} at {} already, {:.0}% of the {} limit (CDBPartitionKeyStatistics)",
        o.value,
        human_bytes(o.largest_bytes),
        100.0 * o.largest_bytes as f64 / limit as f64,
        human_bytes(limit)
    );
    Some(Reason::new(ReasonKind::Observed, None, text))
}

/// With `--horizon` (seconds, and as given): the day the key breaks when it falls within
/// the horizon from the timeline's first day.
fn horizon_reason(c: &CandidateReport, (seconds, given): &(f64, String)) -> Option<Reason> {
    let t = c.timeline.as_ref()?;
    let on = t.breaks_on.as_deref()?;
    let from: jiff::civil::Date = t.from.parse().ok()?;
    let day: jiff::civil::Date = on.parse().ok()?;
    let days = from.duration_until(day).as_secs_f64() / 86_400.0;
    if days > seconds / 86_400.0 {
        return None;
    }
    let text = format!(
        "breaks on {on}, within --horizon {given}: its largest logical partition passes {} then, {days:.0} days after {} at the timeline's ingest",
        human_bytes(Limits::default().logical_bytes),
        t.from
    );
    Some(Reason::new(ReasonKind::Horizon, None, text))
}

/// The largest partition an Azure Monitor log observed of the declared key (its current
/// key), beside the projection's.
fn observed(report: &Report, c: &CandidateReport) -> Option<ObservedCheck> {
    let m = report.input.monitor.as_ref()?;
    if m.current_key.as_deref() != Some(c.key.spec.as_str()) {
        return None;
    }
    let p = m.largest_partitions.first()?;
    Some(ObservedCheck {
        largest_bytes: p.bytes,
        value: p.value.clone(),
        projected_bytes: c.storage.largest_logical_bytes,
    })
}

/// What the declared key (with its declared indexes, priced as pairs: the cheapest pair's
/// monthly bill against the alternative's) needs over what `alt` needs: by efficiency, or
/// by the RU/s to provision when both are known and that says more (a layout's
/// collections each need 400 RU/s, whatever their load).
fn cost_ratio(report: &Report, c: &CandidateReport, alt: &CandidateReport) -> f64 {
    match report.pair_against(alt) {
        Some(p) => p / alt.cost.monthly.total.max(f64::MIN_POSITIVE),
        _ => need::ratio(c, alt),
    }
}

/// A candidate the `declared` key is compared with: neither it nor a declared index, not
/// its own paths under another hash version, and free of violations.
fn is_alternative(o: &CandidateReport, declared: &CandidateReport) -> bool {
    !matches!(o.role, Role::Declared | Role::Index)
        && o.key.spec != declared.key.spec
        && o.findings.iter().all(|f| f.severity != Severity::Violation)
}

/// The alternative to `declared` without violations that needs the fewest RU/s (ties:
/// the better rank).
fn cheapest_alternative<'r>(
    report: &'r Report,
    declared: &CandidateReport,
) -> Option<&'r CandidateReport> {
    (report.candidates.iter())
        .filter(|o| is_alternative(o, declared))
        .max_by(|a, b| (a.cost.efficiency.total_cmp(&b.cost.efficiency)).then(b.rank.cmp(&a.rank)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::testing::candidate;
    use crate::report::model::{Finding, InputSummary, SCHEMA_VERSION, Tool};

    /// A report of `candidates`, ranked as analysis ranks them.
    fn report(mut candidates: Vec<CandidateReport>) -> Report {
        crate::advisor::rank::rank(&mut candidates);
        Report {
            schema_version: SCHEMA_VERSION.to_owned(),
            tool: Tool::default(),
            input: InputSummary::default(),
            target: crate::report::model::testing::target(),
            candidates,
            recommendation: None,
            check: None,
            declared_indexes: vec![],
        }
    }

    /// A candidate with `score`, `efficiency` and findings given as (code, violation).
    fn with(spec: &str, role: Role, score: f64, eff: f64, f: &[(&str, bool)]) -> CandidateReport {
        let mut c = candidate(spec, &[]);
        (c.role, c.score, c.cost.efficiency) = (role, score, eff);
        c.findings = (f.iter())
            .map(|(code, violation)| Finding {
                code: FindingCode::parse(code).expect("a code"),
                severity: match violation {
                    true => Severity::Violation,
                    false => Severity::Warning,
                },
                message: "m".into(),
            })
            .collect();
        c
    }

    fn opts(min_score: f64, deny: &[&str], ratio: f64) -> GateOptions {
        let deny: Vec<String> = deny.iter().map(|d| d.to_string()).collect();
        GateOptions::new(min_score, &deny, ratio).expect("valid options")
    }

    #[test]
    fn each_rule_fails_the_design_with_its_kind() {
        use ReasonKind::*;
        let fan_out = [("FAN_OUT_QUERIES", false)];
        let limit = [("LOGICAL_PARTITION_LIMIT", true)];
        // (declared score, efficiency, findings; alternative's efficiency; options; kinds)
        type Case<'a> = (
            f64,
            f64,
            &'a [(&'a str, bool)],
            f64,
            GateOptions,
            &'a [ReasonKind],
        );
        let cases: Vec<Case<'_>> = vec![
            (80.0, 1.0, &[], 1.0, opts(50.0, &[], 2.0), &[]),
            (80.0, 1.0, &limit, 1.0, opts(50.0, &[], 2.0), &[Violation]),
            (80.0, 1.0, &fan_out, 1.0, opts(50.0, &[], 2.0), &[]),
            (
                80.0,
                1.0,
                &fan_out,
                1.0,
                opts(50.0, &["FAN_OUT_QUERIES"], 2.0),
                &[Denied],
            ),
            (40.0, 1.0, &[], 1.0, opts(50.0, &[], 2.0), &[Score]),
            // Half the alternative's efficiency: twice its need, at the ratio exactly.
            (80.0, 0.5, &[], 1.0, opts(50.0, &[], 2.0), &[Cost]),
            (80.0, 0.5, &[], 0.99, opts(50.0, &[], 2.0), &[]),
            (
                30.0,
                0.25,
                &limit,
                1.0,
                opts(50.0, &[], 2.0),
                &[Violation, Score, Cost],
            ),
        ];
        for (score, eff, findings, alt_eff, o, kinds) in cases {
            let declared = with("/d", Role::Declared, score, eff, findings);
            let alt = with("/a", Role::Generated, 70.0, alt_eff, &[]);
            let v = gate(&report(vec![declared, alt]), None, &o);
            let got: Vec<ReasonKind> = v.reasons.iter().map(|r| r.kind).collect();
            assert_eq!(got, kinds, "{score} {eff} {findings:?} {alt_eff}");
            assert_eq!(v.passed, kinds.is_empty());
            let coded = v.reasons.iter().filter(|r| r.code.is_some()).count();
            let by_finding = kinds.iter().filter(|k| matches!(k, Violation | Denied));
            assert_eq!(coded, by_finding.count());
        }
    }

    #[test]
    fn alternatives_exclude_the_design_its_indexes_and_violators() {
        let declared = with("/d", Role::Declared, 60.0, 0.2, &[]);
        let index = with("/i", Role::Index, 90.0, 1.0, &[]);
        let violator = with(
            "/v",
            Role::Generated,
            95.0,
            1.0,
            &[("LOGICAL_PARTITION_LIMIT", true)],
        );
        let alt = with("/a", Role::Generated, 70.0, 0.4, &[]);
        let v = gate(
            &report(vec![index, violator, declared, alt]),
            None,
            &opts(50.0, &[], 3.0),
        );
        assert_eq!(v.best_alternative.as_deref(), Some("/a"));
        assert_eq!(v.cheapest_alternative.as_deref(), Some("/a"));
        assert_eq!(v.cost_ratio, Some(2.0));
        assert!(v.passed, "{:?}", v.reasons);
        // A declared key with a violation is beaten by any alternative without one, even
        // of a lower score (a misspelt key scores high on a cheap, empty workload).
        let broken = with("/d", Role::Declared, 92.0, 0.2, &[("MISSING_KEY", true)]);
        let alt = with("/a", Role::Generated, 70.0, 0.4, &[]);
        let v = gate(&report(vec![alt, broken]), None, &opts(50.0, &[], 3.0));
        assert!(!v.passed);
        assert_eq!(v.best_alternative.as_deref(), Some("/a"));
    }

    #[test]
    fn options_out_of_range_are_refused_with_the_flag() {
        let cases: [(f64, &[&str], f64, &str); 4] = [
            (101.0, &[], 2.0, "--min-score"),
            (50.0, &[], 1.0, "--max-cost-ratio"),
            (50.0, &[], f64::NAN, "--max-cost-ratio"),
            (
                50.0,
                &["NOT_A_CODE"],
                2.0,
                "unknown finding code \"NOT_A_CODE\"",
            ),
        ];
        for (min, deny, ratio, says) in cases {
            let deny: Vec<String> = deny.iter().map(|d| d.to_string()).collect();
            let e = GateOptions::new(min, &deny, ratio).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
        }
    }
}
