//! The advisor's verdicts on the realistic fixtures (see fixtures/README.md): the rankings
//! and finding codes an expert would give.

use crate::util::{candidate, codes, json, json_with_keys};

fn analyze(set: &str, target: &str, keys: &[&str]) -> serde_json::Value {
    let docs = format!("fixtures/{set}/docs.ndjson");
    let log = format!("fixtures/{set}/queries.ndjson");
    let args = [
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
    json_with_keys(&args, keys)
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

fn summary() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string("fixtures/summary.json").unwrap()).unwrap()
}

/// Every verdict `fixtures/summary.json` states for a data set: the best key is one it
/// names, every finding it lists is raised, and exactly the keys it lists are free of
/// violations.
#[test]
fn every_stated_verdict_of_every_data_set_holds() {
    let s = summary();
    let mut checked = 0;
    for (set, figures) in s.as_object().unwrap() {
        let Some(verdicts) = figures["verdicts"].as_array() else {
            continue;
        };
        for v in verdicts {
            let raise = v["must_raise"].as_object().unwrap();
            let keys: Vec<&str> = raise.keys().map(String::as_str).collect();
            let target = v["target_storage"].as_str().unwrap();
            let r = analyze(set, target, &keys);
            let best_named: Vec<&str> = (v["best"].as_array().unwrap().iter())
                .map(|b| b.as_str().unwrap())
                .collect();
            assert!(
                best_named.contains(&best(&r).as_str()),
                "{set} at {target}: best {}",
                best(&r)
            );
            let clean: Vec<&str> = (v["without_violation"].as_array().unwrap().iter())
                .map(|b| b.as_str().unwrap())
                .collect();
            for (spec, codes) in raise {
                let expected: Vec<&str> = (codes.as_array().unwrap().iter())
                    .map(|c| c.as_str().unwrap())
                    .collect();
                has(&r, spec, &expected);
                checked += expected.len();
                let free = violations(&r, spec) == 0;
                assert_eq!(
                    free,
                    clean.contains(&spec.as_str()),
                    "{set} at {target}: {spec}"
                );
            }
        }
    }
    assert!(checked >= 50, "{checked} stated findings checked");
}

/// Every result stated for the bad inputs: exit codes with file, line and column and the
/// message; counts with --skip-invalid; findings with their counts and severities.
#[test]
fn every_stated_result_of_the_bad_inputs_holds() {
    let s = summary();
    for (file, stated) in s["bad"].as_object().unwrap() {
        let path = format!("fixtures/bad/{file}");
        let is_log = file.contains("queries");
        let mut args: Vec<String> = if is_log {
            let docs = stated["docs"].as_str().unwrap_or("base-docs.ndjson");
            vec![
                "analyze".into(),
                format!("fixtures/bad/{docs}"),
                "--queries".into(),
                path.clone(),
            ]
        } else {
            vec!["analyze".into(), path.clone()]
        };
        let key = stated["key"].as_str().unwrap_or("/id").to_owned();
        args.extend([
            "--key".into(),
            key.clone(),
            "-q".into(),
            "--format".into(),
            "json".into(),
        ]);
        let run = |extra: &[&str]| {
            crate::util::pkadvisor()
                .args(&args)
                .args(extra)
                .output()
                .unwrap()
        };
        if stated["exit"] == 2 {
            let out = run(&[]);
            assert_eq!(out.status.code(), Some(2), "{file}");
            let err = String::from_utf8_lossy(&out.stderr);
            let at = match (stated["line"].as_u64(), stated["column"].as_u64()) {
                (Some(l), Some(c)) => format!("{file}:{l}:{c}:"),
                (Some(l), None) => format!("{file}:{l}:"),
                _ => file.clone(),
            };
            assert!(err.contains(&at), "{file}: expected {at} in {err}");
            if let Some(e) = stated["error"].as_str() {
                assert!(err.contains(e), "{file}: expected {e:?} in {err}");
            }
            if let Some(n) = stated["complete_documents"].as_u64() {
                assert!(err.contains(&format!("line {}", n + 1)), "{file}: {err}");
            }
            if let Some(skip) = stated.get("skip_invalid") {
                let out = run(&["--skip-invalid"]);
                let documents = skip["documents"].as_u64().unwrap();
                if documents == 0 {
                    assert_eq!(out.status.code(), Some(2), "{file}: no valid documents");
                    continue;
                }
                let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
                assert_eq!(r["input"]["documents"], documents, "{file}");
                assert_eq!(r["input"]["invalid"], skip["invalid"], "{file}");
            }
            continue;
        }
        let out = run(&[]);
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if let Some(n) = stated["documents"].as_u64() {
            assert_eq!(r["input"]["documents"], n, "{file}");
        }
        if let Some(n) = stated["invalid"].as_u64() {
            assert_eq!(r["input"]["invalid"], n, "{file}");
        }
        let Some(code) = stated["finding"].as_str() else {
            continue;
        };
        if is_log {
            // The keys the log's lines break, and those they leave alone.
            for (spec, lines) in stated["lines"].as_object().unwrap() {
                let mut a = args.clone();
                a.extend(["--key".into(), spec.clone()]);
                let out = crate::util::pkadvisor().args(&a).output().unwrap();
                let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
                let raised = codes(candidate(&r, spec)).iter().any(|c| c == code);
                assert_eq!(
                    raised,
                    !lines.as_array().unwrap().is_empty(),
                    "{file}: {spec}"
                );
            }
            continue;
        }
        let c = candidate(&r, &key);
        let f = (c["findings"].as_array().unwrap().iter())
            .find(|f| f["code"] == code)
            .unwrap_or_else(|| panic!("{file}: no {code}"));
        if let Some(sev) = stated["severity"].as_str() {
            assert_eq!(f["severity"], sev, "{file}");
        }
        if let Some(n) = stated["affected"].as_u64() {
            let field = match (code, stated["severity"].as_str()) {
                ("UNSAFE_NUMBER", _) => "unsafe_numbers",
                ("KEY_TOO_LONG", Some("violation")) => "over_2048_bytes",
                ("KEY_TOO_LONG", _) => "over_101_bytes",
                _ => "invalid",
            };
            assert_eq!(c["values"][field], n, "{file}: {field}");
        }
        for clean in stated["clean_keys"].as_array().into_iter().flatten() {
            let spec = clean.as_str().unwrap();
            let mut a = args.clone();
            a.extend(["--key".into(), spec.into()]);
            let out = crate::util::pkadvisor().args(&a).output().unwrap();
            let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(
                !codes(candidate(&r, spec)).iter().any(|c| c == code),
                "{file}: {spec}"
            );
        }
    }
}

/// The first number after `marker` in `text`, read up to the next character that is not
/// part of it.
fn number_after(text: &str, marker: &str) -> Option<f64> {
    let at = text.find(marker)? + marker.len();
    let digits: String = (text[at..].chars())
        .skip_while(|c| *c == ' ')
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    digits.trim_end_matches('.').parse().ok()
}

#[test]
fn the_decision_sentence_reads_its_ratios_from_the_reports_own_figures() {
    // Every fixture, with and without its log, in auto mode: a "cheaper by R×" says what
    // it was read from, and R is those figures' ratio (within rounding); "bill the same"
    // comes only with equal RU/s.
    for set in ["multitenant", "iot", "nutrition", "profiles"] {
        let docs = format!("fixtures/{set}/docs.ndjson");
        let log = format!("fixtures/{set}/queries.ndjson");
        for with_log in [true, false] {
            let mut args = vec!["analyze", docs.as_str(), "--format", "json", "--quiet"];
            if with_log {
                args.extend(["--queries", log.as_str()]);
            }
            let r = json(&args);
            let reason = r["recommendation"]["reason"]
                .as_str()
                .unwrap_or("")
                .to_owned();
            let c = r["candidates"].as_array().unwrap();
            if c.len() < 2 {
                continue;
            }
            let (best, next) = (&c[0]["cost"], &c[1]["cost"]);
            if let Some(said) = number_after(&reason, "is cheaper by ") {
                let tail = &reason[reason.find("is cheaper by ").unwrap()..];
                let figure =
                    |k: &str| number_after(tail, k).unwrap_or_else(|| panic!("{set}: {reason}"));
                let read = if reason.contains("over the whole log, ") {
                    let (b, n) = (
                        figure("over the whole log, "),
                        figure("% efficient against "),
                    );
                    let (eb, en) = (
                        best["efficiency"].as_f64().unwrap(),
                        next["efficiency"].as_f64().unwrap(),
                    );
                    assert!(
                        (b - eb * 100.0).abs() < 0.06 && (n - en * 100.0).abs() < 0.06,
                        "{set}: {reason}"
                    );
                    b / n
                } else {
                    figure("to provision, ") / figure(" against ")
                };
                assert!(
                    (said / read - 1.0).abs() < 0.02,
                    "{set} log {with_log}: {said} against {read}: {reason}"
                );
            }
            if reason.contains("bill the same") {
                assert_eq!(best["required_ru"], next["required_ru"], "{set}: {reason}");
            }
            // "though 7.9 RU an operation against 7.4": the table's own RU an operation,
            // the best's first, pointing the other way from the efficiencies.
            if let Some(at) = reason.find("is cheaper by ")
                && let Some(mine) = number_after(&reason[at..], ", though ")
            {
                let theirs = number_after(&reason[at..], " RU an operation against ").unwrap();
                let (b, n) = (
                    best["ru_per_operation"].as_f64().unwrap(),
                    next["ru_per_operation"].as_f64().unwrap(),
                );
                assert!(
                    (mine - b).abs() < 0.06 && (theirs - n).abs() < 0.06,
                    "{set}: {reason}"
                );
                assert!(mine > theirs, "{set}: {reason}");
            }
        }
    }
}
