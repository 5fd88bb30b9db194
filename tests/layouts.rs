//! DocumentDB-era client-side layouts (`--layout`) on the `layouts` fixture, whose outcomes
//! are worked out by hand from the fixture's own figures (`fixtures/summary.json`).

use serde_json::Value;

use crate::util::{candidate, codes, json, pkadvisor, scratch, write};

const DOCS: &str = "fixtures/layouts/docs.ndjson";
const LOG: &str = "fixtures/layouts/queries.ndjson";
const MAP: &str = "lookup:/region=fixtures/layouts/regions.json";
const MONTHLY: &str = "range:/month=2026-01,2026-02,2026-03,2026-04,2026-05,2026-06";

fn summary() -> Value {
    let text = std::fs::read_to_string("fixtures/summary.json").expect("summary");
    serde_json::from_str::<Value>(&text).expect("JSON")["layouts"].clone()
}

/// `name`'s share of the bytes in one of the summary's tables.
fn share(table: &str, name: &str) -> f64 {
    let s = summary();
    let total: u64 = s[table]
        .as_object()
        .expect("table")
        .values()
        .map(|v| v.as_u64().expect("bytes"))
        .sum();
    s[table][name].as_u64().expect("entry") as f64 / total as f64
}

fn explain(spec: &str, extra: &[&str]) -> Value {
    let mut args = vec!["analyze", DOCS, "--explain", spec, "--format", "json", "-q"];
    args.extend(extra);
    json(&args)
}

#[test]
fn a_25_gb_spillover_makes_three_collections_and_every_read_visits_all_three() {
    let r = layouts(
        LOG,
        &["spillover"],
        &["--key", "/customerId", "--target-storage", "25GB"],
    );
    let s = candidate(&r, "spillover:10GB");
    assert_eq!(s["key"]["kind"], "layout");
    assert_eq!(
        s["key"]["definition"]["collections"],
        serde_json::json!(["#1", "#2", "#3"])
    );
    // 25 GB in collections filled to 9 GB: 9 + 9 + 7.
    assert_eq!(s["storage"]["physical_partitions"], 3);
    assert_eq!(s["storage"]["largest_logical_bytes"], 9_000_000_000u64);
    assert!(
        s["storage"]["max_container_bytes"].is_null(),
        "a spillover opens collections"
    );
    assert_eq!(s["queries"]["fan_out"], 1.0);
    assert_eq!(s["queries"]["avg_partitions"], 3.0);
    let found = codes(s);
    assert!(found.contains(&"FAN_OUT_QUERIES".to_owned()), "{found:?}");
    assert!(found.contains(&"WRITE_HOTSPOT".to_owned()), "{found:?}");
    // Every create goes to the newest collection: a third of what chance reaches.
    assert!((s["throughput"]["write_spread"].as_f64().unwrap() - 1.0 / 3.0).abs() < 0.01);
    let key = candidate(&r, "/customerId");
    assert!(codes(key).is_empty(), "{:?}", codes(key));
    assert!(key["rank"].as_u64() < s["rank"].as_u64());
}

#[test]
fn a_monthly_range_puts_every_current_write_in_one_collection() {
    // The log's creates, all of June.
    let log = creates_as("layout_monthly", "create");
    assert!(std::fs::read_to_string(&log).unwrap().lines().count() > 100);
    let map = explain(MONTHLY, &["--queries", &log, "--target-storage", "60GB"]);
    assert_eq!(map["collections"][5], "2026-06");
    let ru: Vec<f64> = (map["map"]["partitions"].as_array().unwrap().iter())
        .map(|p| p["ru"].as_f64().unwrap())
        .collect();
    assert_eq!(ru.len(), 6);
    assert!(ru[5] > 0.0 && ru[..5].iter().all(|r| *r == 0.0), "{ru:?}");
    let r = layouts(
        &log,
        &[MONTHLY],
        &["--key", "/customerId", "--target-storage", "60GB"],
    );
    let c = candidate(&r, MONTHLY);
    assert!(
        codes(c).contains(&"WRITE_HOTSPOT".to_owned()),
        "{:?}",
        codes(c)
    );
    assert_eq!(c["throughput"]["busiest_share_by_window"][0], 1.0);
    // June's collection holds June's share of 60 GB, past its 10 GB.
    let june = share("bytes_by_month", "2026-06") * 60e9;
    let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
    assert!((largest / june - 1.0).abs() < 0.01, "{largest} vs {june}");
    assert!(codes(c).contains(&"COLLECTION_LIMIT".to_owned()));
}

#[test]
fn a_lookup_with_one_huge_region_shows_that_collection_past_its_size() {
    let r = layouts(
        LOG,
        &[MAP],
        &["--key", "/customerId", "--target-storage", "60GB"],
    );
    let c = candidate(&r, MAP);
    let us = share("bytes_by_lookup_collection", "orders-us") * 60e9;
    let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
    assert!((largest / us - 1.0).abs() < 0.01, "{largest} vs {us}");
    let limit = c["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "COLLECTION_LIMIT")
        .expect("COLLECTION_LIMIT");
    assert_eq!(limit["severity"], "violation");
    let message = limit["message"].as_str().unwrap();
    assert!(message.contains("orders-us"), "{message}");
    // eu holds a quarter of the bytes: 15 GB, past 10 GB too; apac and the rest do not.
    assert!(message.contains("2 of 4 collections"), "{message}");
    assert_eq!(candidate(&r, "/customerId")["rank"], 1);
    // A region's report names its region: one collection. A customer's history names none.
    assert!(c["queries"]["single"].as_f64().unwrap() > 0.0);
    assert!(c["queries"]["fan_out"].as_f64().unwrap() > 0.5);
}

#[test]
fn a_hash_layout_over_8_collections_matches_the_engines_hash_spread() {
    // 48,000 RU/s manual lays a container out in 8 partitions; 100 GB splits none.
    let layout = explain("hash:/customerId=8", &["--target-storage", "100GB"]);
    let engine = explain(
        "/customerId",
        &["--target-storage", "100GB", "--throughput", "48000"],
    );
    let parts = |m: &Value| -> Vec<(String, String, u64)> {
        (m["map"]["partitions"].as_array().unwrap().iter())
            .map(|p| {
                let s = |k: &str| p[k].as_str().unwrap().to_owned();
                (s("min"), s("max"), p["bytes"].as_u64().unwrap())
            })
            .collect()
    };
    assert_eq!(parts(&layout).len(), 8);
    assert_eq!(parts(&layout), parts(&engine));
    assert_eq!(layout["map"]["ru_per_partition"], 2500.0);
}

#[test]
fn values_outside_every_range_are_a_violation_with_examples() {
    let text = std::fs::read_to_string(DOCS).unwrap();
    let outside = ["2026-04", "2026-05", "2026-06"]
        .iter()
        .map(|m| text.matches(&format!("\"month\":\"{m}\"")).count())
        .sum::<usize>();
    let spec = "range:/month=2026-01..2026-03";
    let r = json(&[
        "analyze", DOCS, "--layout", spec, "--key", "/id", "--format", "json", "-q",
    ]);
    let f = candidate(&r, spec)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "UNMAPPED_VALUE")
        .expect("UNMAPPED_VALUE")
        .clone();
    let message = f["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("{outside} documents")),
        "{message}"
    );
    assert!(message.contains("\"2026-04\""), "{message}");
    assert_eq!(f["severity"], "violation");
}

#[test]
fn check_gates_a_layout_as_the_declared_design() {
    let out = pkadvisor()
        .args([
            "check",
            DOCS,
            "--queries",
            LOG,
            "--layout",
            MAP,
            "--target-storage",
            "60GB",
        ])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["check"]["key"], MAP);
    let reasons = r["check"]["reasons"].to_string();
    assert!(reasons.contains("COLLECTION_LIMIT"), "{reasons}");
    // Eight collections of 400 RU/s at least against one container of 400: the gate on
    // cost fails the hash layout; a generous ratio lets it pass.
    let hash = [
        "check",
        DOCS,
        "--queries",
        LOG,
        "--layout",
        "hash:/customerId=8",
    ];
    let out = pkadvisor()
        .args(hash)
        .args(["--target-storage", "60GB", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        r["check"]["reasons"]
            .to_string()
            .contains("--max-cost-ratio")
    );
    pkadvisor()
        .args(hash)
        .args(["--target-storage", "60GB", "--max-cost-ratio", "20", "-q"])
        .assert()
        .code(0);
}

#[test]
fn bad_layouts_are_usage_errors_that_say_what_was_expected() {
    for (args, says) in [
        (vec!["--layout", "hash:/customerId"], "hash:/path=N"),
        (
            vec!["--layout", "lookup:/region=no-such.json"],
            "no-such.json",
        ),
        (
            vec!["--layout", "spillover:1MB", "--target-storage", "1TB"],
            "more than 10000",
        ),
        (
            vec!["--layout", "hash:/a=2", "--collection-throughput", "5"],
            "--collection-throughput",
        ),
    ] {
        let out = pkadvisor()
            .args(["analyze", DOCS, "-q"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let out = pkadvisor()
        .args(["check", DOCS, "--key", "/id", "--layout", "spillover"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("one design"));
}

#[test]
fn layout_reports_validate_against_the_schema() {
    let r = layouts(
        LOG,
        &["spillover", MAP, MONTHLY, "hash:/customerId=8"],
        &["--target-storage", "60GB"],
    );
    assert_eq!(crate::schema::errors_of(&r), Vec::<String>::new());
    // Layouts alone are compared with the keys auto mode finds.
    let kinds: Vec<&str> = (r["candidates"].as_array().unwrap().iter())
        .map(|c| c["key"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "layout").count(), 4);
    assert!(kinds.len() > 4);
}

#[test]
fn redact_hides_the_values_in_layout_specs_collections_and_examples() {
    let dir = scratch("layout_redact");
    let map = write(
        &dir,
        "strict.json",
        "{\"us\": \"orders-us\", \"eu\": \"orders-eu\"}",
    );
    let lookup = format!("lookup:/region={map}");
    for format in ["json", "table", "markdown"] {
        let out = pkadvisor()
            .args([
                "analyze",
                DOCS,
                "--queries",
                LOG,
                "--layout",
                "range:/month=2026-01..2026-03",
            ])
            .args([
                "--layout",
                &lookup,
                "--key",
                "/customerId",
                "--redact",
                "-q",
                "--wide",
            ])
            .args(["--target-storage", "60GB", "--format", format])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        // A month value (2026-01), not a day of the timeline (2026-06-29: the log's).
        let month = text.match_indices("2026-0").any(|(i, _)| {
            let rest = text[i + 7..].as_bytes();
            !(rest.len() >= 3 && rest[0] == b'-' && rest[1..3].iter().all(u8::is_ascii_digit))
        });
        assert!(!month, "{format}: a month leaks:\n{text}");
        for raw in ["orders-us", "orders-eu", "\"apac\"", "latam", "cust-0"] {
            assert!(!text.contains(raw), "{format}: {raw} leaks:\n{text}");
        }
        assert!(text.contains("UNMAPPED_VALUE"), "{format}");
    }
    let map = pkadvisor()
        .args([
            "analyze",
            DOCS,
            "--explain",
            &lookup,
            "--redact",
            "--format",
            "json",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&map.stdout).contains("orders-us"));
}

#[test]
fn a_layout_that_cannot_place_every_document_scores_below_one_that_can() {
    // The same collections, June left out.
    let partial = "range:/month=2026-01,2026-02,2026-03,2026-04,2026-05";
    let r = layouts(
        LOG,
        &[partial, MONTHLY],
        &["--target-storage", "60GB", "--key", "/id"],
    );
    let (p, full) = (candidate(&r, partial), candidate(&r, MONTHLY));
    assert!(codes(p).contains(&"UNMAPPED_VALUE".to_owned()));
    assert!(
        p["score"].as_f64() < full["score"].as_f64(),
        "{} vs {}",
        p["score"],
        full["score"]
    );
    // June's reads name a month the resolver cannot place: the application looks everywhere.
    assert!(p["queries"]["fan_out"].as_f64() >= full["queries"]["fan_out"].as_f64());
}

#[test]
fn with_time_path_a_closed_range_keeps_its_size_and_the_open_one_takes_the_growth() {
    // Unique timestamps: no value repeats, yet the first half's collection stopped
    // receiving writes in March.
    let spec = "range:/createdAt=2026-01..2026-03,2026-04..2026-06";
    let map = explain(
        spec,
        &["--time-path", "/createdAt", "--target-storage", "60GB"],
    );
    let bytes: Vec<u64> = (map["map"]["partitions"].as_array().unwrap().iter())
        .map(|p| p["bytes"].as_u64().unwrap())
        .collect();
    let text = std::fs::read_to_string(DOCS).unwrap();
    let first_half: u64 = text
        .lines()
        .filter(|l| {
            ["2026-01", "2026-02", "2026-03"]
                .iter()
                .any(|m| l.contains(&format!("\"month\":\"{m}\"")))
        })
        .map(|l| l.len() as u64 + 1)
        .sum();
    assert!(
        (bytes[0] as f64 / first_half as f64 - 1.0).abs() < 0.01,
        "{bytes:?} vs {first_half}"
    );
    assert!(bytes[1] as f64 > 59.9e9, "{bytes:?}");
}

#[test]
fn a_spillover_fed_by_upserts_writes_to_its_newest_collection() {
    let log = creates_as("layout_upserts", "upsert");
    let r = layouts(
        &log,
        &["spillover"],
        &["--key", "/customerId", "--target-storage", "60GB"],
    );
    let s = candidate(&r, "spillover:10GB");
    assert!(
        codes(s).contains(&"WRITE_HOTSPOT".to_owned()),
        "{:?}",
        codes(s)
    );
    assert!(s["throughput"]["write_spread"].as_f64().unwrap() < 0.2);
}

/// The fixture log's creates, written as operations `op`, in a scratch file.
fn creates_as(name: &str, op: &str) -> String {
    let text = std::fs::read_to_string(LOG).unwrap();
    let lines: String = (text.lines())
        .filter(|l| l.contains("\"op\":\"create\""))
        .map(|l| l.replace("\"op\":\"create\"", &format!("\"op\":\"{op}\"")) + "\n")
        .collect();
    write(&scratch(name), "log.ndjson", &lines)
}

/// `analyze DOCS` with the log `log` (none when empty), each of `specs` as a `--layout`,
/// and `extra`, as JSON.
fn layouts(log: &str, specs: &[&str], extra: &[&str]) -> Value {
    let mut args = vec!["analyze", DOCS, "--format", "json", "-q"];
    if !log.is_empty() {
        args.extend(["--queries", log]);
    }
    for s in specs {
        args.extend(["--layout", s]);
    }
    args.extend(extra);
    json(&args)
}

#[test]
fn a_collection_whose_writes_stopped_stays_its_size_when_values_are_sampled() {
    // The first half holds sessions of five documents under A..M, which stop at mid-sample;
    // 2,000 customers under N..Z write all along. At 2 TB, A..M keeps its size and N..Z
    // takes the growth: hash-sampled or exact, the projection is the same.
    let dir = scratch("layout-closed-sampled");
    let n = 120_000;
    let docs: String = (0..n)
        .map(|i| {
            let key = if i < n / 2 && i % 2 == 0 {
                format!("A-s{}", i / 10)
            } else {
                format!("Z-c{}", (i * 7919) % 2_000)
            };
            let pad = "x".repeat(60 + (i * 31) % 80);
            format!(
                "{{\"id\":\"e{i}\",\"sk\":\"{key}\",\"ts\":{},\"p\":\"{pad}\"}}\n",
                1_767_225_600 + i * 50
            )
        })
        .collect();
    let docs = write(&dir, "docs.ndjson", &docs);
    let layout = "range:/sk=A..M,N..Z";
    let run = |memory: &str| {
        let args = ["analyze", &docs, "--layout", layout, "--time-path", "/ts"];
        let r = json(
            &[
                &args[..],
                &[
                    "--target-storage",
                    "2TB",
                    "--memory",
                    memory,
                    "--format",
                    "json",
                ],
            ]
            .concat(),
        );
        candidate(&r, layout)["storage"].clone()
    };
    let (exact, sampled) = (run("512MB"), run("1MB"));
    for field in [
        "largest_logical_bytes",
        "physical_skew",
        "max_container_bytes",
    ] {
        let (e, s) = (
            exact[field].as_f64().unwrap(),
            sampled[field].as_f64().unwrap(),
        );
        assert!(
            (s / e - 1.0).abs() < 0.05,
            "{field}: {s} sampled, {e} exact"
        );
    }
}
