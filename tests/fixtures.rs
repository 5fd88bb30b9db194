//! The advisor's verdicts on the realistic fixtures (see fixtures/README.md): the rankings
//! and finding codes an expert would give.

use crate::util::{candidate, codes, json};

fn analyze(set: &str, target: &str, keys: &[&str]) -> serde_json::Value {
    let docs = format!("fixtures/{set}/docs.ndjson");
    let log = format!("fixtures/{set}/queries.ndjson");
    let mut args = vec![
        "analyze",
        docs.as_str(),
        "--queries",
        log.as_str(),
        "--target-storage",
        target,
        "--format",
        "json",
        "--quiet",
    ];
    for k in keys {
        args.extend(["--key", k]);
    }
    json(&args)
}

fn has(r: &serde_json::Value, spec: &str, expected: &[&str]) {
    let found = codes(candidate(r, spec));
    for code in expected {
        assert!(
            found.iter().any(|c| c == code),
            "{spec}: expected {code} in {found:?}"
        );
    }
}

fn best(r: &serde_json::Value) -> String {
    r["candidates"][0]["key"]["spec"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn violations(r: &serde_json::Value, spec: &str) -> usize {
    candidate(r, spec)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "violation")
        .count()
}

#[test]
fn multitenant_wants_a_hierarchical_key_led_by_tenant_and_user() {
    let keys = [
        "/tenantId",
        "/tenantId,/userId",
        "/tenantId,/userId,/sessionId",
        "/userId",
        "/sessionId",
        "/id",
        "/type",
        "concat(/tenantId,/userId)",
    ];
    let r = analyze("multitenant", "500GB", &keys);
    assert!(
        best(&r).starts_with("/tenantId,/userId"),
        "best {}",
        best(&r)
    );
    assert_eq!(violations(&r, &best(&r)), 0);
    has(&r, "/tenantId", &["LOGICAL_PARTITION_LIMIT"]);
    for k in ["/userId", "/sessionId", "concat(/tenantId,/userId)"] {
        has(&r, k, &["FAN_OUT_QUERIES"]);
    }
    has(
        &r,
        "/id",
        &["FAN_OUT_QUERIES", "CROSS_PARTITION_TRANSACTION"],
    );
    has(
        &r,
        "/type",
        &[
            "LOGICAL_PARTITION_LIMIT",
            "LOW_CARDINALITY",
            "CROSS_PARTITION_TRANSACTION",
            "FAN_OUT_QUERIES",
        ],
    );
    let q = &candidate(&r, "/tenantId,/userId")["queries"];
    assert!((q["single"].as_f64().unwrap() - 0.70).abs() < 0.01, "{q}");
    assert!((q["targeted"].as_f64().unwrap() - 0.25).abs() < 0.01, "{q}");
    assert!((q["fan_out"].as_f64().unwrap() - 0.05).abs() < 0.01, "{q}");
    // contoso: 24.83% of bytes of a 500 GB container.
    let t = &candidate(&r, "/tenantId")["storage"];
    let largest = t["largest_logical_bytes"].as_f64().unwrap();
    assert!((largest / (0.2483 * 500e9) - 1.0).abs() < 0.02, "{largest}");
}

#[test]
fn multitenant_at_two_terabytes_keeps_only_the_three_level_key_clean() {
    let r = analyze(
        "multitenant",
        "2TB",
        &["/tenantId,/userId", "/tenantId,/userId,/sessionId"],
    );
    assert_eq!(best(&r), "/tenantId,/userId,/sessionId");
    has(&r, "/tenantId,/userId", &["LOGICAL_PARTITION_LIMIT"]);
}

#[test]
fn auto_mode_finds_the_seed_answer_on_multitenant() {
    let r = json(&[
        "analyze",
        "fixtures/multitenant/docs.ndjson",
        "--queries",
        "fixtures/multitenant/queries.ndjson",
        "--format",
        "json",
        "--quiet",
    ]);
    let top = best(&r);
    assert!(top.starts_with("/tenantId,/userId"), "auto picked {top}");
    let origin = r["candidates"][0]["origin"].as_str().unwrap();
    assert!(origin.contains("query log"), "{origin}");
    assert!(r["candidates"].as_array().unwrap().len() <= 20);
}

#[test]
fn iot_telemetry_keyed_by_date_is_a_write_hotspot() {
    let keys = [
        "/vin",
        "/date",
        "concat(/vin,/date)",
        "hash_suffix(/date,/vin,400)",
        "rand_suffix(/date,400)",
        "/id",
        "/fleetId",
        "/vehicle/make",
    ];
    let r = analyze("iot", "1TB", &keys);
    assert_eq!(best(&r), "/vin");
    has(
        &r,
        "/date",
        &[
            "WRITE_HOTSPOT",
            "LOW_CARDINALITY",
            "LOGICAL_PARTITION_LIMIT",
        ],
    );
    for k in ["rand_suffix(/date,400)", "/id"] {
        has(&r, k, &["FAN_OUT_QUERIES"]);
    }
    for k in ["/fleetId", "/vehicle/make"] {
        has(
            &r,
            k,
            &[
                "LOGICAL_PARTITION_LIMIT",
                "LOW_CARDINALITY",
                "FAN_OUT_QUERIES",
            ],
        );
    }
    assert_eq!(violations(&r, "hash_suffix(/date,/vin,400)"), 0);
    let date = candidate(&r, "/date")["throughput"]["write_spread"]
        .as_f64()
        .unwrap();
    let vin = candidate(&r, "/vin")["throughput"]["write_spread"]
        .as_f64()
        .unwrap();
    assert!(date < 0.5 && vin > 0.5, "date {date} vin {vin}");
}

#[test]
fn profiles_read_by_id_want_the_id() {
    let keys = [
        "/id",
        "/userId",
        "/email",
        "/country",
        "/plan",
        "/country,/userId",
    ];
    let r = analyze("profiles", "100GB", &keys);
    assert!(
        ["/id", "/userId"].contains(&best(&r).as_str()),
        "best {}",
        best(&r)
    );
    let q = &candidate(&r, "/id")["queries"];
    assert!((q["single"].as_f64().unwrap() - 0.90).abs() < 0.01, "{q}");
    for k in ["/country", "/plan"] {
        has(
            &r,
            k,
            &[
                "LOGICAL_PARTITION_LIMIT",
                "LOW_CARDINALITY",
                "FAN_OUT_QUERIES",
            ],
        );
    }
    for k in ["/email", "/country,/userId"] {
        has(&r, k, &["FAN_OUT_QUERIES"]);
    }
}

#[test]
fn nutrition_food_group_is_skewed() {
    let r = analyze(
        "nutrition",
        "500GB",
        &["/foodGroup", "/id", "/description", "/version"],
    );
    assert_eq!(best(&r), "/id");
    has(
        &r,
        "/foodGroup",
        &[
            "LOGICAL_PARTITION_LIMIT",
            "LOW_CARDINALITY",
            "FAN_OUT_QUERIES",
        ],
    );
    let small = analyze("nutrition", "1GB", &["/foodGroup", "/id"]);
    assert_eq!(violations(&small, "/foodGroup"), 0);
    has(&small, "/foodGroup", &["LOW_CARDINALITY"]);
}

#[test]
fn bad_fixtures_raise_their_findings() {
    let cases: &[(&str, &str, &str, Option<&str>)] = &[
        (
            "key-object-or-array.ndjson",
            "/tenantId",
            "INVALID_KEY_VALUE",
            None,
        ),
        (
            "number-beyond-2-53.ndjson",
            "/accountId",
            "UNSAFE_NUMBER",
            None,
        ),
        (
            "key-over-2048-bytes.ndjson",
            "/tenantId",
            "KEY_TOO_LONG",
            None,
        ),
        (
            "key-over-101-bytes.ndjson",
            "/tenantId",
            "KEY_TOO_LONG",
            None,
        ),
        ("duplicate-id.ndjson", "/id", "INVALID_KEY_VALUE", None),
        (
            "base-docs.ndjson",
            "/tenantId",
            "CROSS_PARTITION_TRANSACTION",
            Some("cross-partition-batch.queries.ndjson"),
        ),
        (
            "base-docs.ndjson",
            "/tenantId",
            "KEY_UPDATED",
            Some("key-updated.queries.ndjson"),
        ),
    ];
    for (file, key, code, log) in cases {
        let docs = format!("fixtures/bad/{file}");
        let mut args = vec![
            "analyze".to_owned(),
            docs,
            "--key".into(),
            (*key).into(),
            "--format".into(),
            "json".into(),
        ];
        if let Some(l) = log {
            args.extend(["--queries".into(), format!("fixtures/bad/{l}")]);
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = json(&refs);
        has(&r, key, &[code]);
    }
}

#[test]
fn numbers_beyond_2_53_are_judged_on_their_literal() {
    // 9007199254740993 reads as the double 2^53, exact 9007199254740992 does too: only the
    // literal tells the first unsafe. The fixture states how many documents are affected.
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("fixtures/summary.json").unwrap()).unwrap();
    let stated = &summary["bad"]["number-beyond-2-53.ndjson"];
    let r = json(&[
        "analyze",
        "fixtures/bad/number-beyond-2-53.ndjson",
        "--key",
        "/accountId",
        "--key",
        "concat(/tenantId,/accountId)",
        "--format",
        "json",
    ]);
    for spec in ["/accountId", "concat(/tenantId,/accountId)"] {
        let c = crate::util::candidate(&r, spec);
        assert_eq!(c["values"]["unsafe_numbers"], stated["affected"], "{spec}");
    }
}
