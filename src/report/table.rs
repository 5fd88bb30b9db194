//! The table renderer, for terminals: the target, one row per candidate (fitted to the
//! terminal width), then the recommendation. Colour only on a terminal, never with
//! `NO_COLOR` set.

use std::io::{self, IsTerminal, Write};

use comfy_table::{Cell, Color, ColumnConstraint, ContentArrangement, Table, Width, presets};

use super::model::{CandidateReport, Report, Severity};
use crate::units::human_bytes;

/// Writes the report as a table.
pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", target_line(report))?;
    let colour = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header([
            "#",
            "key",
            "score",
            "distinct",
            "largest LP",
            "breaks at",
            "skew",
            "usable RU",
            "reads single/targeted/fan-out",
            "findings",
        ]);
    for c in &report.candidates {
        table.add_row(row(c, colour));
    }
    keep_whole(&mut table, report);
    writeln!(out, "{table}")?;
    if let Some(r) = &report.recommendation {
        writeln!(out, "\nRecommendation: {}\n{}", r.spec, r.reason)?;
    }
    Ok(())
}

/// On a narrow terminal the numbers wrap, never the keys or finding codes: a spec cut in two
/// cannot be pasted back into `--key`.
fn keep_whole(table: &mut Table, report: &Report) {
    let widest =
        |f: &dyn Fn(&CandidateReport) -> usize| report.candidates.iter().map(f).max().unwrap_or(0);
    let key = widest(&|c| c.key.spec.chars().count()).clamp(3, 48);
    let code = widest(&|c| c.findings.iter().map(|f| f.code.len()).max().unwrap_or(0)).max(8);
    for (column, width) in [(1, key), (9, code)] {
        if let Some(col) = table.column_mut(column) {
            // The width counts the cell's padding, one space each side.
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
                width as u16 + 2,
            )));
        }
    }
}

/// The line saying what was read and projected onto.
pub fn target_line(report: &Report) -> String {
    let t = &report.target;
    let i = &report.input;
    let defaulted = if t.defaults.is_empty() {
        String::new()
    } else {
        format!(
            " (default {}; set --target-storage / --throughput)",
            t.defaults.join(", ")
        )
    };
    let ops = if i.operations > 0 {
        format!(", {} logged operations", i.operations)
    } else {
        String::new()
    };
    let invalid = if i.invalid > 0 {
        format!(", {} invalid skipped", i.invalid)
    } else {
        String::new()
    };
    format!(
        "{} documents ({}){ops}{invalid}. Projected onto {} at {} RU/s {} = {} physical partitions{defaulted}.",
        i.documents,
        human_bytes(i.bytes),
        human_bytes(t.storage_bytes),
        t.throughput_ru,
        t.throughput_mode,
        t.physical_partitions
    )
}

fn row(c: &CandidateReport, colour: bool) -> Vec<Cell> {
    let distinct = if c.cardinality.exact {
        c.cardinality.estimate.to_string()
    } else {
        format!("~{}", c.cardinality.estimate)
    };
    let max_size = c
        .storage
        .max_container_bytes
        .map_or("unbounded".to_owned(), human_bytes);
    let q = &c.queries;
    let routing = if q.reads == 0 {
        "no reads".to_owned()
    } else {
        format!(
            "{:.0}/{:.0}/{:.0}%",
            q.single * 100.0,
            q.targeted * 100.0,
            q.fan_out * 100.0
        )
    };
    let codes: Vec<&str> = c.findings.iter().map(|f| f.code.as_str()).collect();
    let mut findings = Cell::new(codes.join("\n"));
    if colour {
        let worst = c.findings.iter().map(|f| f.severity).min();
        findings = match worst {
            Some(Severity::Violation) => findings.fg(Color::Red),
            Some(Severity::Warning) => findings.fg(Color::Yellow),
            _ => findings,
        };
    }
    vec![
        Cell::new(c.rank),
        Cell::new(&c.key.spec),
        Cell::new(format!("{:.1}", c.score)),
        Cell::new(distinct),
        Cell::new(human_bytes(c.storage.largest_logical_bytes)),
        Cell::new(max_size),
        Cell::new(format!("{:.2}", c.storage.physical_skew)),
        Cell::new(format!("{:.0}%", c.throughput.usable_fraction * 100.0)),
        Cell::new(routing),
        findings,
    ]
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::report::model::*;

    fn candidate(spec: &str, findings: &[&str]) -> CandidateReport {
        CandidateReport {
            rank: 1,
            score: 87.25,
            components: BTreeMap::new(),
            key: KeyInfo {
                spec: spec.to_owned(),
                kind: "synthetic".to_owned(),
                definition: serde_json::json!({}),
            },
            cardinality: Cardinality {
                estimate: 1234,
                exact: false,
            },
            storage: StorageReport {
                largest_logical_bytes: 2_500_000_000,
                max_container_bytes: None,
                physical_skew: 1.08,
                physical_partitions: 32,
            },
            throughput: ThroughputReport {
                physical_skew: 1.2,
                usable_fraction: 0.5,
                write_spread: 0.9,
                busiest_share_by_window: vec![],
            },
            queries: QueryReport {
                single: 0.7,
                targeted: 0.25,
                fan_out: 0.05,
                avg_partitions: 1.8,
                reads: 10,
                writes: 0,
                writes_from_sample: true,
            },
            values: ValueCounts {
                documents: 10,
                missing: 0,
                invalid: 0,
                unsafe_numbers: 0,
                over_101_bytes: 0,
                over_2048_bytes: 0,
            },
            largest_values: vec![],
            findings: findings
                .iter()
                .map(|c| Finding {
                    code: (*c).to_owned(),
                    severity: Severity::Warning,
                    message: String::new(),
                })
                .collect(),
            origin: String::new(),
        }
    }

    #[test]
    fn renders_every_column_and_the_recommendation() {
        let spec = "hash_suffix(/date,/vin,400)";
        let report = Report {
            schema_version: SCHEMA_VERSION.to_owned(),
            tool: Tool::default(),
            input: InputSummary {
                documents: 10,
                bytes: 2_000,
                invalid: 1,
                operations: 10,
            },
            target: TargetReport {
                storage_bytes: 1_000_000_000_000,
                throughput_ru: 20_000.0,
                throughput_mode: "manual".to_owned(),
                physical_partitions: 32,
                defaults: vec!["storage".to_owned()],
            },
            candidates: vec![candidate(spec, &["CROSS_PARTITION_TRANSACTION"])],
            recommendation: Some(Recommendation {
                spec: spec.to_owned(),
                reason: "Because.".to_owned(),
            }),
            check: None,
        };
        let mut out = Vec::new();
        render(&report, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for expected in [
            "10 documents (2.0 kB), 10 logged operations, 1 invalid skipped.",
            "1.0 TB at 20000 RU/s manual = 32 physical partitions (default storage;",
            spec,
            "CROSS_PARTITION_TRANSACTION",
            "87.2",
            "~1234",
            "2.5 GB",
            "unbounded",
            "70/25/5%",
            "Recommendation: hash_suffix(/date,/vin,400)\nBecause.",
        ] {
            assert!(text.contains(expected), "{expected:?} missing from\n{text}");
        }
        // Not a terminal here: no colour escapes.
        assert!(!text.contains('\u{1b}'));
    }
}
