//! Ranking and the recommendation: candidates without violations first, then by score,
//! then by spec; the recommendation says why the best one leads the runner-up.

use super::need;
use super::target::Target;
use crate::report::model::{CandidateReport, Finding, Recommendation, Severity};
use crate::units::human_bytes;

fn has_violation(c: &CandidateReport) -> bool {
    c.findings.iter().any(|f| f.severity == Severity::Violation)
}

/// Orders candidates: without violations first, then by score, then by spec (stable).
pub fn rank(candidates: &mut [CandidateReport]) {
    candidates.sort_by(|a, b| {
        has_violation(a)
            .cmp(&has_violation(b))
            .then(b.score.total_cmp(&a.score))
            .then_with(|| a.key.spec.cmp(&b.key.spec))
    });
    for (i, c) in candidates.iter_mut().enumerate() {
        c.rank = i + 1;
    }
}

pub(super) fn recommend(candidates: &[CandidateReport], target: &Target) -> Option<Recommendation> {
    let best = candidates.first()?;
    let mut reason = if has_violation(best) {
        format!(
            "No candidate is free of violations; {} is the least bad (score {:.1}). ",
            best.key.spec, best.score
        )
    } else {
        format!("{} scores {:.1} of 100. ", best.key.spec, best.score)
    };
    reason.push_str(&strengths(best, target));
    if let Some(next) = candidates.get(1) {
        reason.push_str(&format!(
            " The runner-up, {} (score {:.1}), {}{}.",
            next.key.spec,
            next.score,
            cost_against(next, best),
            weakness(next)
        ));
    }
    Some(Recommendation {
        spec: best.key.spec.clone(),
        reason,
        secondary_index: None,
    })
}

/// The runner-up's cost against the best's.
fn cost_against(c: &CandidateReport, best: &CandidateReport) -> String {
    let ratio = need::ratio(c, best);
    let compared = if (ratio - 1.0).abs() < 0.05 {
        "about as much".to_owned()
    } else if ratio > 1.0 {
        format!("{ratio:.1}× as much")
    } else {
        format!("{:.0}% less", (1.0 - ratio) * 100.0)
    };
    format!(
        "needs {} ({compared})",
        crate::report::text::cost_summary(c)
    )
}

fn strengths(c: &CandidateReport, target: &Target) -> String {
    let q = &c.queries;
    let reads = if q.reads > 0 {
        format!(
            " Of the logged reads, {:.0}% reach one key value, {:.0}% are targeted to the partitions of a prefix or a few values, and {:.0}% fan out to every partition.",
            q.single * 100.0,
            q.targeted * 100.0,
            q.fan_out * 100.0
        )
    } else {
        String::new()
    };
    let (unit, limit) = match c.key.definition["collectionBytes"].as_u64() {
        Some(bytes) => ("collection", bytes),
        None => (
            "logical partition",
            crate::engine::Limits::default().logical_bytes,
        ),
    };
    format!(
        "At {} it needs {}; its largest {unit} is projected at {} (limit {}) over {} distinct values, and writes spread at {:.2} of chance.{reads}",
        human_bytes(target.storage_bytes),
        crate::report::text::cost_summary(c),
        human_bytes(c.storage.largest_logical_bytes),
        human_bytes(limit),
        c.cardinality.estimate,
        c.throughput.write_spread
    )
}

fn weakness(c: &CandidateReport) -> String {
    let worst: Vec<&Finding> = c.findings.iter().take(2).collect();
    if worst.is_empty() {
        return String::new();
    }
    let codes: Vec<&str> = worst.iter().map(|f| f.code.as_str()).collect();
    format!(", and has {}: {}", codes.join(" and "), worst[0].message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::findings;
    use crate::report::model::FindingCode;
    use crate::report::model::testing::candidate;

    fn with(spec: &str, score: f64, violation: bool) -> CandidateReport {
        let mut c = candidate(spec, &[]);
        c.score = score;
        if violation {
            c.findings.push(Finding {
                code: FindingCode::LogicalPartitionLimit,
                severity: Severity::Violation,
                message: String::new(),
            });
        }
        c
    }

    #[test]
    fn ranking_puts_violations_last_then_orders_by_score_then_spec() {
        // (spec, score, violation) in input order → expected order of specs.
        type Case<'a> = (&'a [(&'a str, f64, bool)], &'a [&'a str]);
        let cases: &[Case<'_>] = &[
            (&[("/a", 50.0, false), ("/b", 90.0, false)], &["/b", "/a"]),
            (&[("/a", 99.0, true), ("/b", 10.0, false)], &["/b", "/a"]),
            (&[("/b", 70.0, false), ("/a", 70.0, false)], &["/a", "/b"]),
            (
                &[("/c", 80.0, true), ("/a", 60.0, true), ("/b", 5.0, false)],
                &["/b", "/c", "/a"],
            ),
        ];
        for (input, expected) in cases {
            let mut list: Vec<CandidateReport> =
                input.iter().map(|(s, sc, v)| with(s, *sc, *v)).collect();
            rank(&mut list);
            let got: Vec<&str> = list.iter().map(|c| c.key.spec.as_str()).collect();
            assert_eq!(&got, expected, "{input:?}");
            assert!(list.iter().enumerate().all(|(i, c)| c.rank == i + 1));
        }
    }

    #[test]
    fn excess_ru_fires_at_twice_the_cheapest_clean_need() {
        // (needs, violations, which get EXCESS_RU)
        type Case<'a> = (&'a [f64], &'a [bool], &'a [bool]);
        let cases: &[Case<'_>] = &[
            (
                &[100.0, 199.0, 200.0],
                &[false, false, false],
                &[false, false, true],
            ),
            // The cheapest with a violation is not the yardstick.
            (
                &[50.0, 100.0, 250.0],
                &[true, false, false],
                &[false, false, true],
            ),
            (&[0.0, 0.0], &[false, false], &[false, false]),
        ];
        for (needs, violations, expected) in cases {
            let mut list: Vec<CandidateReport> = (needs.iter().zip(violations.iter()))
                .enumerate()
                .map(|(i, (_, v))| {
                    let mut c = with(&format!("/k{i}"), 50.0, *v);
                    // Efficiency follows the need (the same ideal for all), RU/s unknown.
                    c.cost.efficiency = 1.0;
                    c.cost.required_ru = None;
                    c
                })
                .collect();
            findings::excess_ru(&mut list, needs);
            let got: Vec<bool> = (list.iter())
                .map(|c| c.findings.iter().any(|f| f.code == FindingCode::ExcessRu))
                .collect();
            assert_eq!(&got, expected, "{needs:?}");
        }
    }

    #[test]
    fn the_cost_ratio_takes_the_larger_of_efficiency_and_rus() {
        let mut a = candidate("/a", &[]);
        let mut b = candidate("/b", &[]);
        // (a's efficiency, a's RU/s, b's efficiency, b's RU/s, a over b)
        let cases = [
            (0.5, Some(400.0), 1.0, Some(400.0), 2.0),
            (1.0, Some(3_200.0), 1.0, Some(400.0), 8.0),
            (0.25, None, 1.0, Some(400.0), 4.0),
            (1.0, Some(400.0), 0.5, Some(800.0), 0.5),
        ];
        for (ea, ra, eb, rb, ratio) in cases {
            (a.cost.efficiency, a.cost.required_ru) = (ea, ra);
            (b.cost.efficiency, b.cost.required_ru) = (eb, rb);
            assert!(
                (need::ratio(&a, &b) - ratio).abs() < 1e-12,
                "{ea} {ra:?} {eb} {rb:?}"
            );
        }
    }
}
