//! Snapshots of every format's full output on fixed, hand-built reports: the ranking, the
//! partition map and the verdict (passing and failing). The expected text lives in
//! `src/report/snapshots/`; `UPDATE_SNAPSHOTS=1 cargo test` writes it anew (review the
//! diff before committing it).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::model::testing::candidate;
use super::model::*;
use super::{Format, Style, View};
use crate::engine::Throughput;

/// Compares `actual` with the snapshot `name`, or writes it when `UPDATE_SNAPSHOTS=1`.
fn assert_snapshot(name: &str, actual: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "src/report/snapshots", name]
        .iter()
        .collect();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).expect("writing the snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", path.display()));
    if expected != actual {
        panic!(
            "{name} differs from its snapshot (- expected, + actual; UPDATE_SNAPSHOTS=1 accepts it):\n{}",
            diff(&expected, actual)
        );
    }
}

/// A line diff by longest common subsequence: small texts only.
fn diff(expected: &str, actual: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = match a[i] == b[j] {
                true => lcs[i + 1][j + 1] + 1,
                false => lcs[i + 1][j].max(lcs[i][j + 1]),
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out += &format!("  {}\n", a[i]);
            (i, j) = (i + 1, j + 1);
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out += &format!("- {}\n", a[i]);
            i += 1;
        } else {
            out += &format!("+ {}\n", b[j]);
            j += 1;
        }
    }
    out
}

fn finding(code: &str, severity: Severity, message: &str) -> Finding {
    Finding {
        code: FindingCode::parse(code).expect("a finding code"),
        severity,
        message: message.to_owned(),
    }
}

fn key(spec: &str, kind: &str) -> KeyInfo {
    KeyInfo {
        spec: spec.to_owned(),
        kind: kind.to_owned(),
        definition: serde_json::json!({"paths": spec.split(',').collect::<Vec<_>>(), "kind": "Hash", "version": 2}),
    }
}

/// Three candidates: a clean synthetic key, a single path without rates or reads, and a
/// key with a violation.
fn candidates() -> Vec<CandidateReport> {
    let mut best = candidate("hash_suffix(/date,/vin,400)", &[]);
    best.findings = vec![finding(
        "WRITE_HOTSPOT",
        Severity::Warning,
        "writes cluster | on 3 of 32 partitions",
    )];
    best.origin = "given with --key".to_owned();
    let mut vin = candidate("/vin", &[]);
    vin.rank = 2;
    vin.score = 64.5;
    vin.key = key("/vin", "single");
    vin.cardinality = Cardinality {
        estimate: 87,
        exact: true,
    };
    vin.storage.max_container_bytes = Some(690_000_000_000);
    vin.cost.required_ru = None;
    vin.cost.monthly.throughput = None;
    vin.cost.monthly.total = 250.0;
    vin.queries.reads = 0;
    vin.findings = vec![finding(
        "LOW_CARDINALITY",
        Severity::Info,
        "87 values for 32 partitions",
    )];
    vin.origin = "the field most reads filter on".to_owned();
    let mut date = candidate("/date", &[]);
    date.rank = 3;
    date.score = 41.0;
    date.key = key("/date", "single");
    date.cost.efficiency = 0.125;
    date.cost.required_ru = Some(98_760.4);
    date.cost.monthly.total = 5_940.5;
    date.storage.max_container_bytes = Some(40_000_000_000);
    date.findings = vec![
        finding(
            "LOGICAL_PARTITION_LIMIT",
            Severity::Violation,
            "one day holds 25 GB at the target (limit 20 GB)",
        ),
        finding(
            "MONOTONIC_KEY",
            Severity::Warning,
            "every write goes to today",
        ),
    ];
    date.origin = "a time field".to_owned();
    vec![best, vin, date]
}

fn index() -> SecondaryIndex {
    SecondaryIndex {
        key: key("/vin", "single"),
        proposed: true,
        queries_moved: 0.3,
        ru_saved: 12_000.0,
        write_ru_added: 3_000.0,
        change_feed_ru: 500.0,
        storage_added_bytes: 1_000_000_000_000,
        monthly_before: 970.95,
        monthly_after: Some(812.4),
        reason: "the reads by /vin move to it and cost less there.".to_owned(),
        fan_out_share: None,
    }
}

fn ranking() -> Report {
    Report {
        schema_version: SCHEMA_VERSION.to_owned(),
        tool: Tool {
            name: "pkadvisor".to_owned(),
            version: "0.0.0-snapshot".to_owned(),
        },
        input: InputSummary {
            documents: 10_000,
            bytes: 12_345_678,
            invalid: 2,
            operations: 5_000,
            redacted: false,
            monitor: Some(MonitorReport {
                rows: 1_200,
                requests: 1_000,
                throttled: 3,
                unroutable: 2,
                unjoined: 1,
                hidden: 4,
                keyed: 900,
                duplicates: 0,
                uncorrelated: 0,
                current_key: Some("/vin".to_owned()),
                largest_partitions: vec![ObservedPartitionReport {
                    value: "[\"V123\"]".to_owned(),
                    bytes: 1_500_000_000,
                }],
                container: None,
                containers_left: Vec::new(),
            }),
        },
        target: crate::report::model::testing::target(),
        candidates: candidates(),
        recommendation: Some(Recommendation {
            spec: "hash_suffix(/date,/vin,400)".to_owned(),
            reason: "It spreads writes and keeps 70% of reads on one partition.".to_owned(),
            summary: "It spreads writes and keeps 70% of reads on one partition.".to_owned(),
            secondary_index: Some(index()),
        }),
        check: None,
        declared_indexes: Vec::new(),
    }
}

/// `check` passing on the best candidate.
fn passing() -> Report {
    let mut report = ranking();
    report.input.monitor = None;
    report.candidates[0].role = Role::Declared;
    report.candidates[0].findings.push(finding(
        "FAN_OUT_QUERIES",
        Severity::Info,
        "5% of reads fan out",
    ));
    report.check = Some(CheckResult {
        passed: true,
        key: "hash_suffix(/date,/vin,400)".to_owned(),
        container: Some("telemetry".to_owned()),
        min_score: 50.0,
        reasons: Vec::new(),
        best_alternative: None,
        max_cost_ratio: 3.0,
        cheapest_alternative: Some("/vin".to_owned()),
        cost_ratio: Some(1.0),
        observed: None,
    });
    report
}

/// `check` failing on the violating candidate, with a declared index, an observed log and a
/// better alternative.
fn failing() -> Report {
    let mut report = ranking();
    report.candidates[2].role = Role::Declared;
    report.candidates[2].findings.push(finding(
        "FAN_OUT_QUERIES",
        Severity::Warning,
        "40% of reads fan out",
    ));
    report.declared_indexes = vec![index()];
    report.check = Some(CheckResult {
        passed: false,
        key: "/date".to_owned(),
        container: Some("telemetry|eu".to_owned()),
        min_score: 50.0,
        reasons: vec![
            Reason::new(
                ReasonKind::Violation,
                Some(FindingCode::LogicalPartitionLimit),
                "LOGICAL_PARTITION_LIMIT (violation): one day holds 25 GB at the target (limit 20 GB)"
                    .to_owned(),
            ),
            Reason::new(
                ReasonKind::Denied,
                Some(FindingCode::FanOutQueries),
                "FAN_OUT_QUERIES (denied with --deny): 40% of reads fan out".to_owned(),
            ),
            Reason::new(
                ReasonKind::Score,
                None,
                "score 41.0 is below --min-score 50".to_owned(),
            ),
        ],
        best_alternative: Some("hash_suffix(/date,/vin,400)".to_owned()),
        max_cost_ratio: 3.0,
        cheapest_alternative: Some("hash_suffix(/date,/vin,400)".to_owned()),
        cost_ratio: Some(0.84),
        observed: Some(ObservedCheck {
            largest_bytes: 1_500_000_000,
            value: "[\"2024-05-01\"]".to_owned(),
            projected_bytes: 25_000_000_000,
        }),
    });
    report
}

fn logical(epk: &str, bytes: u64) -> LogicalView {
    LogicalView {
        epk: epk.to_owned(),
        bytes,
        items: bytes / 1_000,
        ru: bytes as f64 / 1e6,
    }
}

fn physical(id: u64, min: &str, max: &str, largest: Vec<LogicalView>) -> PhysicalView {
    let bytes = largest.iter().map(|l| l.bytes).sum::<u64>() * 3;
    PhysicalView {
        id,
        parent: (id > 2).then_some(0),
        min: min.to_owned(),
        max: max.to_owned(),
        bytes,
        items: bytes / 1_000,
        logical_partitions: 40 + id,
        ru: 1_234.5 * id as f64,
        largest,
    }
}

/// Four partitions: one from the start, two with a long shared prefix, one to the end; a
/// labelled value cut in the table, an unlabelled (projected) one.
fn map() -> ExplainReport {
    let labels = [
        ("0A11", "[\"contoso\",\"user-00042\"]"),
        ("1F3A5C7E9B0011223344AA", "[\"big\"]"),
        ("1F3A5C7E9B0011223399", "[\"fabrikam|eu\",\"u7\"]"),
    ];
    ExplainReport {
        schema_version: SCHEMA_VERSION.to_owned(),
        key: key("/tenantId,/userId", "hierarchical"),
        storage_bytes: 500_000_000_000,
        map: PartitionMap {
            definition: serde_json::json!({"paths": ["/tenantId", "/userId"], "kind": "MultiHash", "version": 2}),
            throughput: Throughput::Manual(20_000.0),
            ru_per_partition: 5_000.0,
            partitions: vec![
                physical(
                    0,
                    "",
                    "1F3A5C7E9B",
                    vec![logical("0A11", 9_000_000_000), logical("0B", 1_000_000)],
                ),
                physical(
                    1,
                    "1F3A5C7E9B",
                    "1F3A5C7E9B0011223344AA",
                    vec![logical("1F3A5C7E9B00", 4_000_000_000)],
                ),
                physical(
                    3,
                    "1F3A5C7E9B0011223344AA",
                    "1F3A5C7E9B0011223399",
                    vec![logical("1F3A5C7E9B0011223344AA", 30_000_000_000)],
                ),
                physical(
                    4,
                    "1F3A5C7E9B0011223399",
                    "FF",
                    vec![logical("1F3A5C7E9B0011223399", 2_000_000_000)],
                ),
            ],
        },
        labels: labels
            .iter()
            .map(|(e, l)| (e.to_string(), l.to_string()))
            .collect::<BTreeMap<_, _>>(),
        collections: Vec::new(),
        values: vec![
            ValueLanding {
                value: "[\"contoso\",\"user-00042\"]".to_owned(),
                prefix: false,
                epk: "0A11".to_owned(),
                epk_max: None,
                partitions: vec![1],
                logical_partitions: 1,
                bytes: 9_000_000_000,
                items: 4_500_000,
                largest_bytes: 9_000_000_000,
                sample: Some(SampleFigures {
                    documents: 90,
                    bytes: 45_000,
                }),
                arithmetic: Some(ValueArithmetic {
                    sample_bytes: 45_000,
                    documents: 90,
                    sample: "snapshot".to_owned(),
                    log_kind: "requests".to_owned(),
                    closed: false,
                    credible: 1.0,
                    open_growth: 200_000.0,
                    held_lines: None,
                    rate_bytes_per_second: Some(3_472.0),
                    open_seconds: Some(2_592_000.0),
                    bound: None,
                    growth: 200_000.0,
                    bytes: 9_000_000_000,
                    interval_bytes: [7_140_000_000, 10_860_000_000],
                }),
            },
            ValueLanding {
                value: "[\"big\"]".to_owned(),
                prefix: true,
                epk: "1F3A5C7E9B0011223344".to_owned(),
                epk_max: Some("1F3A5C7E9B0011223344FF".to_owned()),
                partitions: vec![2, 3],
                logical_partitions: 1,
                bytes: 30_000_000_000,
                items: 15_000_000,
                largest_bytes: 30_000_000_000,
                sample: None,
                arithmetic: None,
            },
        ],
        growth: None,
    }
}

/// A layout's map: its partitions named by collection.
fn layout_map() -> ExplainReport {
    let mut m = map();
    m.key = key("spillover", "layout");
    m.collections = ["orders-0", "orders-1", "orders-big", "orders-3"]
        .map(str::to_owned)
        .to_vec();
    m
}

const PLAIN: Style = Style {
    colour: false,
    width: 100,
};

fn ranking_text(format: Format, style: Style) -> String {
    let mut out = Vec::new();
    super::render(View::Ranking(&ranking()), format, style, &mut out).expect("rendered");
    String::from_utf8(out).expect("UTF-8")
}

fn map_text(map: &ExplainReport, format: Format, style: Style) -> String {
    let mut out = Vec::new();
    super::render(View::Map(map), format, style, &mut out).expect("rendered");
    String::from_utf8(out).expect("UTF-8")
}

fn verdict_text(report: &Report, format: Format) -> String {
    let mut out = Vec::new();
    super::render(View::Verdict(report), format, PLAIN, &mut out).expect("rendered");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn ranking_in_every_format() {
    assert_snapshot("ranking.table.txt", &ranking_text(Format::Table, PLAIN));
    assert_snapshot("ranking.wide.txt", &ranking_text(Format::WideTable, PLAIN));
    let colour = Style {
        colour: true,
        ..PLAIN
    };
    assert_snapshot(
        "ranking.colour.txt",
        &ranking_text(Format::WideTable, colour),
    );
    assert_snapshot("ranking.md", &ranking_text(Format::Markdown, PLAIN));
    assert_snapshot("ranking.json", &ranking_text(Format::Json, PLAIN));
}

#[test]
fn partition_map_in_every_format() {
    let m = map();
    assert_snapshot("map.table.txt", &map_text(&m, Format::Table, PLAIN));
    assert_snapshot("map.wide.txt", &map_text(&m, Format::WideTable, PLAIN));
    assert_snapshot("map.md", &map_text(&m, Format::Markdown, PLAIN));
    assert_snapshot("map.json", &map_text(&m, Format::Json, PLAIN));
    let l = layout_map();
    assert_snapshot("map-layout.table.txt", &map_text(&l, Format::Table, PLAIN));
}

#[test]
fn verdicts_in_every_format() {
    for (name, report) in [("pass", passing()), ("fail", failing())] {
        let text = verdict_text(&report, Format::Table);
        assert_eq!(text, verdict_text(&report, Format::WideTable));
        assert_snapshot(&format!("verdict-{name}.txt"), &text);
        let md = verdict_text(&report, Format::Markdown);
        assert_snapshot(&format!("verdict-{name}.md"), &md);
        let json = verdict_text(&report, Format::Json);
        assert_snapshot(&format!("verdict-{name}.json"), &json);
    }
}

/// Four partitions over three windows: the first candidate's with rates (a hot second
/// partition), the second's without (RU only, heat against the busiest cell).
fn with_partitions(mut report: Report) -> Report {
    let load = |rates: bool| PartitionLoad {
        ids: vec![4, 1, 5, 2],
        bytes: vec![
            41_000_000_000,
            48_500_000_000,
            12_000_000_000,
            30_000_000_000,
        ],
        ru: vec![1_000.0, 4_000.0, 800.0, 1_200.0],
        ru_per_second: rates.then(|| vec![250.0, 1_000.0, 200.0, 300.0]),
        heat: vec![
            vec![0.1, 0.55, 0.0, 0.2],
            vec![0.3, 1.0, 0.15, 0.25],
            vec![0.05, 0.95, 0.1, 0.12],
        ],
        heat_of_required: rates,
        window_seconds: rates.then_some(900.0),
        window_start: rates.then_some(1_794_733_200),
        heat_windows: vec![0, 1, 3],
        partition_bytes_limit: 50_000_000_000,
        logical_bytes_limit: 20_000_000_000,
        partition_ru_limit: 10_000.0,
        collections: false,
        read_ru: 4_500.0,
        write_ru: 2_000.0,
        fan_out_ru: 500.0,
    };
    report.candidates[0].partitions = Some(load(true));
    report.candidates[1].partitions = Some(load(false));
    report
}

fn html(view: View) -> String {
    let mut out = Vec::new();
    super::render(view, Format::Html, PLAIN, &mut out).expect("rendered");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn html_pages() {
    assert_snapshot(
        "ranking.html",
        &html(View::Ranking(&with_partitions(ranking()))),
    );
    assert_snapshot("map.html", &html(View::Map(&map())));
    let failing = with_partitions(failing());
    assert_snapshot("verdict-fail.html", &html(View::Verdict(&failing)));
}

/// The partitions the HTML charts are drawn from change no other format: JSON, tables and
/// Markdown are the same bytes with them and without.
#[test]
fn partitions_leave_every_other_format_unchanged() {
    let (plain, charted) = (ranking(), with_partitions(ranking()));
    for format in [
        Format::Json,
        Format::Table,
        Format::WideTable,
        Format::Markdown,
    ] {
        let render = |r: &Report| {
            let mut out = Vec::new();
            super::render(View::Ranking(r), format, PLAIN, &mut out).expect("rendered");
            out
        };
        assert_eq!(render(&plain), render(&charted), "{format:?}");
    }
    let mut out = Vec::new();
    super::render(View::Ranking(&charted), Format::Json, PLAIN, &mut out).expect("rendered");
    assert!(!String::from_utf8(out).expect("UTF-8").contains("heat"));
}

#[test]
fn a_diff_marks_what_changed() {
    assert_eq!(diff("a\nb\nc\n", "a\nx\nc\n"), "  a\n- b\n+ x\n  c\n");
}
