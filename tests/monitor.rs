//! Azure Monitor diagnostic logs as the query log: every shape of every table read, query
//! statistics joined to their charges, routed per candidate exactly as the equivalent NDJSON
//! log (`tests/data/monitor/`, written by its `generate.py` from the documented columns).

use serde_json::Value;

use crate::util::{json, json_with_keys, pkadvisor, scratch, write};

const DOCS: &str = "fixtures/multitenant/docs.ndjson";
const DIR: &str = "tests/data/monitor";
const SHAPES: [&str; 5] = [
    "resource-specific.json",
    "resource-specific.csv",
    "azure-diagnostics.json",
    "storage.json",
    "eventhubs.json",
];
const KEYS: [&str; 5] = [
    "/tenantId",
    "/tenantId,/userId",
    "/userId",
    "/id",
    "/sessionId",
];

fn analyze(log: &str, extra: &[&str]) -> Value {
    let mut args = vec!["analyze", DOCS, "--queries", log, "--format", "json", "-q"];
    args.extend(["--current-key", "/tenantId,/userId"]);
    args.extend(extra);
    json_with_keys(&args, &KEYS)
}

/// Per candidate: reads, writes, the three read fractions and RU per operation.
fn figures(r: &Value) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = (r["candidates"].as_array().unwrap().iter())
        .map(|c| {
            let q = &c["queries"];
            let f = serde_json::json!([
                q["reads"],
                q["writes"],
                q["single"],
                q["targeted"],
                q["fan_out"],
                c["cost"]["ru_per_operation"]
            ]);
            (c["key"]["spec"].as_str().unwrap().to_owned(), f)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn rows() -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{DIR}/resource-specific.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_shape_routes_like_the_equivalent_ndjson_log() {
    let ndjson = analyze(&format!("{DIR}/equivalent.ndjson"), &[]);
    let expected = figures(&ndjson);
    assert_eq!(expected.len(), KEYS.len());
    for shape in SHAPES {
        let r = analyze(&format!("{DIR}/{shape}"), &[]);
        assert_eq!(figures(&r), expected, "{shape}");
        assert_eq!(
            r["input"]["operations"], ndjson["input"]["operations"],
            "{shape}"
        );
    }
}

#[test]
fn joins_throttles_and_what_cannot_be_routed_are_counted_by_hand() {
    let rows = rows();
    let of = |t: &'static str| -> Vec<&Value> { rows.iter().filter(|r| r["Type"] == t).collect() };
    let ids = |t: &'static str| -> std::collections::BTreeSet<String> {
        of(t)
            .iter()
            .filter_map(|r| r["ActivityId"].as_str().map(str::to_owned))
            .collect()
    };
    let (pages, requests) = (
        ids("CDBQueryRuntimeStatistics"),
        ids("CDBDataPlaneRequests"),
    );
    let throttled = of("CDBDataPlaneRequests")
        .iter()
        .filter(|r| r["StatusCode"] == 429)
        .count();
    let unjoined = pages.difference(&requests).count();
    let unroutable = of("CDBDataPlaneRequests")
        .iter()
        .filter(|r| {
            r["OperationName"] == "Query" && !pages.contains(r["ActivityId"].as_str().unwrap())
        })
        .count();
    assert!(throttled > 0 && unjoined == 1 && unroutable == 1);
    for shape in SHAPES {
        let m = &analyze(&format!("{DIR}/{shape}"), &[])["input"]["monitor"];
        assert_eq!(m["rows"], rows.len(), "{shape}");
        assert_eq!(m["requests"], requests.len(), "{shape}");
        assert_eq!(m["throttled"], throttled, "{shape}");
        assert_eq!(m["unjoined"], unjoined, "{shape}");
        assert_eq!(m["unroutable"], unroutable, "{shape}");
        assert_eq!(
            m["largest_partitions"][0]["bytes"], 9_500_000_000u64,
            "{shape}"
        );
    }
}

#[test]
fn obfuscated_queries_route_by_their_shape_and_say_so() {
    let plain = analyze(&format!("{DIR}/equivalent.ndjson"), &[]);
    let hidden = analyze(&format!("{DIR}/obfuscated.json"), &[]);
    let queries = rows()
        .iter()
        .filter(|r| r["Type"] == "CDBQueryRuntimeStatistics")
        .filter_map(|r| r["CorrelatedActivityId"].as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    assert_eq!(hidden["input"]["monitor"]["hidden"], queries);
    for spec in KEYS {
        let (p, h) = (
            crate::util::candidate(&plain, spec),
            crate::util::candidate(&hidden, spec),
        );
        // The same properties are compared: what fans out still does, what names the key
        // still reaches one partition (or a few), wherever the hidden value puts it.
        assert_eq!(p["queries"]["fan_out"], h["queries"]["fan_out"], "{spec}");
        let named = |c: &Value| {
            c["queries"]["single"].as_f64().unwrap() + c["queries"]["targeted"].as_f64().unwrap()
        };
        assert!((named(p) - named(h)).abs() < 1e-3, "{spec}");
    }
    let table = pkadvisor()
        .args([
            "analyze",
            DOCS,
            "--queries",
            &format!("{DIR}/obfuscated.json"),
            "-q",
            "--key",
            "/tenantId",
        ])
        .output()
        .unwrap();
    assert!(
        crate::util::flat(&String::from_utf8_lossy(&table.stdout))
            .contains("queries with hidden values routed by their shape")
    );
}

#[test]
fn check_compares_the_observed_partitions_with_the_projection() {
    let check = |log: &str| {
        let mut cmd = pkadvisor();
        cmd.args([
            "check",
            "--key",
            "/tenantId,/userId",
            DOCS,
            "--queries",
            log,
            "-q",
        ]);
        cmd
    };
    let log = format!("{DIR}/resource-specific.json");
    let out = check(&log).args(["--format", "json"]).output().unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = &r["check"]["observed"];
    assert_eq!(o["largest_bytes"], 9_500_000_000u64);
    assert!(o["projected_bytes"].as_u64().unwrap() > 0);
    // A partition the log already shows near 20 GB fails the gate.
    let dir = scratch("monitor_near_limit");
    let stats = r#"[{"Type":"CDBPartitionKeyStatistics","TimeGenerated":"2026-11-15T10:00:00Z","PartitionKey":"[\"contoso\",\"u1\"]","SizeKb":19000000}]"#;
    let near = write(&dir, "stats.json", stats);
    check(&near)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("CDBPartitionKeyStatistics"));
}

/// `--redact` hashes the key values `CDBPartitionKeyStatistics` reports too, with the same
/// hash as the candidates' values; sizes stay exact.
#[test]
fn redact_hides_the_observed_partitions_values() {
    let log = format!("{DIR}/storage.json");
    let plain = analyze(&log, &[]);
    let hidden = analyze(&log, &["--redact"]);
    let (p, h) = (
        plain["input"]["monitor"]["largest_partitions"]
            .as_array()
            .unwrap(),
        hidden["input"]["monitor"]["largest_partitions"]
            .as_array()
            .unwrap(),
    );
    assert_eq!(p.len(), 3);
    assert_eq!(p.len(), h.len());
    for (p, h) in p.iter().zip(h) {
        assert_eq!(p["bytes"], h["bytes"]);
        let (value, hash) = (p["value"].as_str().unwrap(), h["value"].as_str().unwrap());
        assert!(
            value.contains("contoso") || value.contains("fabrikam") || value.contains("northwind")
        );
        assert!(hash.starts_with("\"#") && hash.len() == 15, "{hash}");
    }
    let text = serde_json::to_string(&hidden).unwrap();
    assert!(
        !text.contains("u-0") && !text.contains("[\\\"contoso"),
        "a value left: {text}"
    );
}

#[test]
fn bad_rows_name_their_line_and_skip_invalid_counts_them() {
    let dir = scratch("monitor_bad");
    let good = r#"{"time":"2026-11-15T10:00:00Z","category":"DataPlaneRequests","operationName":"Read","properties":{"activityId":"a1","requestCharge":"1.0","statusCode":"200"}}"#;
    let log = write(&dir, "bad.json", &format!("{good}\nnot json\n{good}\n"));
    let out = by_tenant(&log, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.json:2:1: not JSON"));
    let out = by_tenant(&log, &["--format", "json", "--skip-invalid"]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["input"]["invalid"], 1);
    // The NDJSON reader is forced: the export is no log of operations.
    let out = by_tenant(
        &format!("{DIR}/storage.json"),
        &["--queries-format", "ndjson"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing \"op\""));
}

/// `analyze` of the multitenant documents with `log`, keyed by `/tenantId`.
fn by_tenant(log: &str, extra: &[&str]) -> std::process::Output {
    (pkadvisor().args([
        "analyze",
        DOCS,
        "--queries",
        log,
        "--key",
        "/tenantId",
        "-q",
    ]))
    .args(extra)
    .output()
    .unwrap()
}

#[test]
fn monitor_reports_validate_against_the_schema() {
    let r = analyze(&format!("{DIR}/azure-diagnostics.json"), &[]);
    assert_eq!(crate::schema::errors_of(&r), Vec::<String>::new());
}

/// The resource-specific rows rewritten by `f` into a scratch file.
fn rewritten(name: &str, f: impl Fn(&mut serde_json::Map<String, Value>)) -> String {
    let mut rows = rows();
    for r in &mut rows {
        f(r.as_object_mut().unwrap());
    }
    let dir = scratch(&format!("monitor_{}", name.replace('.', "_")));
    write(&dir, name, &serde_json::to_string(&rows).unwrap())
}

#[test]
fn dense_exports_and_the_portals_csv_read_like_the_others() {
    let expected = figures(&analyze(&format!("{DIR}/equivalent.ndjson"), &[]));
    // AzureDiagnostics rows as az writes them: Type names the table AzureDiagnostics,
    // Category the category, and every column of the union is present, empty or not.
    let columns = [
        "QueryText",
        "PartitionKey",
        "SizeKb",
        "CorrelatedActivityId",
        "RequestCharge",
        "StatusCode",
        "OperationName",
    ];
    let dense = rewritten("dense.json", |r| {
        let t = r["Type"]
            .as_str()
            .unwrap()
            .trim_start_matches("CDB")
            .to_owned();
        r.insert("Category".into(), t.into());
        r.insert("Type".into(), "AzureDiagnostics".into());
        for c in columns {
            r.entry(c).or_insert_with(|| "".into());
        }
    });
    assert_eq!(figures(&analyze(&dense, &[])), expected);
    // The portal's times, under its column name.
    let portal = rewritten("portal.json", |r| {
        let t = r.remove("TimeGenerated").unwrap();
        let t = t.as_str().unwrap();
        let (date, clock) = t.split_once('T').unwrap();
        let mut d = date.split('-');
        let (y, m, day) = (d.next().unwrap(), d.next().unwrap(), d.next().unwrap());
        let hh: u32 = clock[..2].parse().unwrap();
        let (h12, half) = match hh {
            0 => (12, "AM"),
            1..=11 => (hh, "AM"),
            12 => (12, "PM"),
            _ => (hh - 12, "PM"),
        };
        let stamp = format!(
            "{}/{}/{y}, {h12}:{} {half}",
            m.trim_start_matches('0'),
            day.trim_start_matches('0'),
            &clock[3..8]
        );
        r.insert("TimeGenerated [UTC]".into(), stamp.into());
    });
    let r = analyze(&portal, &[]);
    assert_eq!(figures(&r), expected);
    assert!(
        !crate::util::candidate(&r, "/tenantId")["cost"]["required_ru"].is_null(),
        "times read: rates known"
    );
}

#[test]
fn key_rows_without_activity_ids_are_not_counted_twice_and_bad_keys_warn() {
    let ops = analyze(&format!("{DIR}/resource-specific.json"), &[])["input"]["operations"].clone();
    let older = rewritten("older.json", |r| {
        if r["Type"] == "CDBPartitionKeyRUConsumption" {
            r.remove("ActivityId");
        }
    });
    assert_eq!(analyze(&older, &[])["input"]["operations"], ops);
    // PartitionKey arrays of two elements under a one-level current key, then none.
    let storage = |extra: &[&str]| {
        let log = format!("{DIR}/storage.json");
        let out = pkadvisor()
            .args([
                "analyze",
                DOCS,
                "--queries",
                &log,
                "--key",
                "/tenantId",
                "-q",
            ])
            .args(extra)
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (text(&out.stdout), text(&out.stderr))
    };
    let (_, err) = storage(&["--current-key", "/tenantId"]);
    assert!(err.contains("do not fit --current-key /tenantId"));
    let (out, err) = storage(&[]);
    assert!(err.contains("no --current-key"));
    assert!(out.contains("no --current-key"));
}

#[test]
fn empty_exports_and_rows_that_are_not_objects() {
    let dir = scratch("monitor_arrays");
    let empty = write(&dir, "empty.json", "[]\n");
    let r = json(&[
        "analyze",
        DOCS,
        "--queries",
        &empty,
        "--key",
        "/tenantId",
        "-q",
        "--format",
        "json",
    ]);
    assert_eq!(r["input"]["monitor"]["rows"], 0);
    let bad = write(
        &dir,
        "bad.json",
        r#"[{"Type":"CDBDataPlaneRequests","ActivityId":"a","OperationName":"Read","RequestCharge":1}, 42]"#,
    );
    pkadvisor()
        .args([
            "analyze",
            DOCS,
            "--queries",
            &bad,
            "--key",
            "/tenantId",
            "-q",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "bad.json:2:1: element 2: expected a row object",
        ));
}
