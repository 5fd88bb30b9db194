use std::fmt::Write as _;

use predicates::prelude::*;

use crate::util::{candidate, codes, json, pkadvisor, scratch, write};

/// `n` documents over `tenants` tenants (tenant 0 holding half of them), with users and ids.
fn tenant_docs(n: usize, tenants: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let t = if i % 2 == 0 { 0 } else { i % tenants };
        writeln!(
            s,
            r#"{{"id":"doc-{i}","tenantId":"t{t}","userId":"u{}","day":"2026-11-{:02}","payload":{{"n":{i},"text":"{}"}}}}"#,
            i % 997,
            1 + i * 28 / n,
            "x".repeat(200)
        )
        .unwrap();
    }
    s
}

#[test]
fn json_report_has_the_contract_fields_and_ranks_violations_last() {
    let dir = scratch("analyze_contract");
    let docs = write(&dir, "docs.ndjson", &tenant_docs(4000, 40));
    let r = json(&[
        "analyze",
        &docs,
        "--key",
        "/tenantId",
        "--key",
        "/id",
        "--key",
        "/tenantId,/userId",
        "--target-storage",
        "500GB",
        "--throughput",
        "12000",
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(r["schema_version"], "1.2");
    assert_eq!(r["tool"]["name"], "pkadvisor");
    assert_eq!(r["input"]["documents"], 4000);
    assert_eq!(r["target"]["storage_bytes"], 500_000_000_000u64);
    assert_eq!(r["target"]["throughput_ru"], 12000.0);
    // 12,000 RU/s: 2 partitions of 250 GB each, split 8 ways: 16.
    assert_eq!(r["target"]["physical_partitions"], 16);
    let tenant = candidate(&r, "/tenantId");
    // Half the data is tenant t0: 250 GB projected, far past 20 GB.
    assert!(codes(tenant).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()));
    let largest = tenant["storage"]["largest_logical_bytes"].as_f64().unwrap();
    assert!((largest / 250e9 - 1.0).abs() < 0.01, "{largest}");
    // t0 and the 20 odd tenants below 40.
    assert_eq!(tenant["cardinality"]["estimate"], 21);
    assert_eq!(tenant["cardinality"]["exact"], true);
    assert_eq!(tenant["key"]["definition"]["kind"], "Hash");
    let last = r["candidates"].as_array().unwrap().last().unwrap();
    assert_eq!(last["key"]["spec"], "/tenantId");
    let hier = candidate(&r, "/tenantId,/userId");
    assert_eq!(hier["key"]["kind"], "hierarchical");
    assert_eq!(hier["key"]["definition"]["kind"], "MultiHash");
    for c in r["candidates"].as_array().unwrap() {
        let score = c["score"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&score));
        for (_, v) in c["components"].as_object().unwrap() {
            assert!((0.0..=1.0).contains(&v.as_f64().unwrap()));
        }
    }
    assert_eq!(
        r["recommendation"]["spec"],
        r["candidates"][0]["key"]["spec"]
    );
}

#[test]
fn output_is_byte_identical_across_runs_and_threads() {
    let dir = scratch("analyze_deterministic");
    let docs = write(&dir, "docs.ndjson", &tenant_docs(3000, 30));
    let run = |threads: &str| {
        pkadvisor()
            .args([
                "analyze",
                &docs,
                "--key",
                "/tenantId",
                "--key",
                "rand_suffix(/tenantId,10)",
            ])
            .args(["--key", "/userId", "--format", "json", "--threads", threads])
            .output()
            .unwrap()
            .stdout
    };
    let first = run("1");
    assert!(!first.is_empty());
    assert_eq!(first, run("1"));
    assert_eq!(first, run("2"));
}

#[test]
fn query_log_fractions_are_exact() {
    let dir = scratch("analyze_fractions");
    let docs = write(&dir, "docs.ndjson", &tenant_docs(2000, 20));
    let mut log = String::new();
    // 60% tenant+user, 25% tenant only, 15% by day: weighted with count.
    log.push_str(r#"{"op":"query","sql":"SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u","parameters":[{"name":"@t","value":"t3"},{"name":"@u","value":"u3"}],"count":60}"#);
    log.push('\n');
    log.push_str("SELECT VALUE COUNT(1) FROM c WHERE c[\"tenantId\"] = 't5'\n");
    log.push_str(
        r#"{"op":"query","sql":"SELECT * FROM c WHERE c.tenantId IN ('t1','t2')","count":24}"#,
    );
    log.push('\n');
    log.push_str(r#"{"op":"query","sql":"SELECT * FROM c WHERE c.day = '2026-11-03'","count":15}"#);
    log.push('\n');
    let log = write(&dir, "q.ndjson", &log);
    let r = json(&[
        "analyze",
        &docs,
        "--queries",
        &log,
        "--key",
        "/tenantId,/userId",
        "--key",
        "/tenantId",
        "--key",
        "/id",
        "--format",
        "json",
    ]);
    assert_eq!(r["input"]["operations"], 100);
    let h = candidate(&r, "/tenantId,/userId")["queries"].clone();
    assert_eq!(
        (
            h["single"].as_f64(),
            h["targeted"].as_f64(),
            h["fan_out"].as_f64()
        ),
        (Some(0.6), Some(0.25), Some(0.15))
    );
    assert_eq!(h["reads"], 100);
    let t = candidate(&r, "/tenantId")["queries"].clone();
    // Tenant+user and tenant-only both fix one tenant; the IN list is two values.
    assert_eq!(
        (
            t["single"].as_f64(),
            t["targeted"].as_f64(),
            t["fan_out"].as_f64()
        ),
        (Some(0.61), Some(0.24), Some(0.15))
    );
    let id = candidate(&r, "/id");
    assert_eq!(id["queries"]["fan_out"].as_f64(), Some(1.0));
    assert!(codes(id).contains(&"FAN_OUT_QUERIES".to_owned()));
    let parts = id["storage"]["physical_partitions"].as_f64().unwrap();
    assert!((id["queries"]["avg_partitions"].as_f64().unwrap() - parts).abs() < 1e-9);
    // Every read of /id fans out evenly; the sample's creates spread by id too: no window
    // has a partition far above its share.
    let shares = id["throughput"]["busiest_share_by_window"]
        .as_array()
        .unwrap();
    assert!(!shares.is_empty());
    for s in shares {
        assert!(
            s.as_f64().unwrap() < 3.0 / parts,
            "{s} of {parts} partitions"
        );
    }
    // Under /tenantId the query for t3 and t5 land on their tenants' partitions.
    let hot = candidate(&r, "/tenantId")["throughput"]["busiest_share_by_window"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        hot.iter().any(|s| s.as_f64().unwrap() > 2.0 / parts),
        "{hot:?}"
    );
}

#[test]
fn bad_key_specs_and_documents_exit_2_with_positions() {
    let dir = scratch("analyze_errors");
    let docs = write(&dir, "docs.ndjson", "{\"a\":1}\n{\"a\":2,}\n{\"a\":3}\n");
    pkadvisor()
        .args(["analyze", &docs, "--key", "concat(/a,)"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid --key").and(predicate::str::contains("^")));
    pkadvisor()
        .args(["analyze", &docs, "--key", "/a"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("docs.ndjson:2:")
                .and(predicate::str::contains("panicked").not()),
        );
    let r = json(&[
        "analyze",
        &docs,
        "--key",
        "/a",
        "--skip-invalid",
        "--format",
        "json",
    ]);
    assert_eq!(r["input"]["invalid"], 1);
    assert_eq!(r["input"]["documents"], 2);
    pkadvisor()
        .args(["analyze", &docs, "--key", "/a", "--target-storage", "5XB"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--target-storage"));
}

#[test]
fn findings_for_bad_values() {
    let dir = scratch("analyze_values");
    let mut s = String::new();
    for i in 0..300 {
        let k = match i % 10 {
            0 => "{\"o\":1}".to_owned(),
            1 => "18014398509481984".to_owned(),
            2 => format!("\"{}\"", "k".repeat(3000)),
            _ => format!("\"v{}\"", i % 150),
        };
        writeln!(s, r#"{{"id":"{}","k":{k}}}"#, i % 290).unwrap();
    }
    s.push_str("{\"id\":\"lonely\"}\n");
    let docs = write(&dir, "docs.ndjson", &s);
    let r = json(&[
        "analyze", &docs, "--key", "/k", "--key", "/id", "--format", "json",
    ]);
    let k = codes(candidate(&r, "/k"));
    for code in [
        "INVALID_KEY_VALUE",
        "KEY_TOO_LONG",
        "MISSING_KEY",
        "UNSAFE_NUMBER",
    ] {
        assert!(k.contains(&code.to_owned()), "{code} in {k:?}");
    }
    let id = candidate(&r, "/id");
    assert!(
        codes(id).contains(&"INVALID_KEY_VALUE".to_owned()),
        "duplicate ids"
    );
    assert_eq!(candidate(&r, "/k")["values"]["invalid"], 30);
}

#[test]
fn clock_like_keys_are_write_hotspots() {
    let dir = scratch("analyze_hotspot");
    let docs = write(&dir, "docs.ndjson", &tenant_docs(20_000, 40));
    let r = json(&[
        "analyze",
        &docs,
        "--key",
        "/day",
        "--key",
        "/id",
        "--target-storage",
        "100GB",
        "--throughput",
        "40000",
        "--format",
        "json",
    ]);
    assert!(codes(candidate(&r, "/day")).contains(&"WRITE_HOTSPOT".to_owned()));
    assert!(!codes(candidate(&r, "/id")).contains(&"WRITE_HOTSPOT".to_owned()));
    let day = candidate(&r, "/day")["throughput"]["write_spread"]
        .as_f64()
        .unwrap();
    assert!(day < 0.5, "{day}");
}

#[test]
fn explain_and_markdown() {
    let dir = scratch("analyze_explain");
    let docs = write(&dir, "docs.ndjson", &tenant_docs(2000, 20));
    let map = json(&[
        "analyze",
        &docs,
        "--explain",
        "/tenantId",
        "--format",
        "json",
    ]);
    let parts = map["map"]["partitions"].as_array().unwrap();
    assert!(parts.len() > 1);
    assert_eq!(parts[0]["min"], "");
    assert_eq!(parts.last().unwrap()["max"], "FF");
    for w in parts.windows(2) {
        assert_eq!(w[0]["max"], w[1]["min"]);
    }
    assert!(
        map["labels"]
            .as_object()
            .unwrap()
            .values()
            .any(|v| v == "\"t0\"")
    );
    pkadvisor()
        .args([
            "analyze",
            &docs,
            "--key",
            "/tenantId",
            "--key",
            "/id",
            "--format",
            "markdown",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("| # | key | score |")
                .and(predicate::str::contains("**Recommendation: `")),
        );
    let redacted = pkadvisor()
        .args([
            "analyze",
            &docs,
            "--key",
            "/tenantId",
            "--format",
            "json",
            "--redact",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&redacted.stdout);
    assert!(!text.contains("\"t0\"") && text.contains("#"), "{text}");
}

#[test]
fn bad_fixtures_report_file_line_and_column() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["fixtures/bad/syntax-error.ndjson"],
            "fixtures/bad/syntax-error.ndjson:4:49: expected a value",
        ),
        (
            &["fixtures/bad/deep-nesting.ndjson"],
            "deep-nesting.ndjson:1:166: document nests deeper than 128 levels (--max-depth)",
        ),
        (
            &["fixtures/bad/truncated.ndjson.gz"],
            "truncated.ndjson.gz: truncated gzip data",
        ),
        (
            &["fixtures/bad/not-an-object.ndjson"],
            "not-an-object.ndjson:3:1:",
        ),
        (
            &[
                "fixtures/bad/base-docs.ndjson",
                "--queries",
                "fixtures/bad/queries-syntax-error.ndjson",
            ],
            "queries-syntax-error.ndjson:3:131: trailing comma",
        ),
    ];
    for (args, message) in cases {
        pkadvisor()
            .arg("analyze")
            .args(*args)
            .args(["--key", "/tenantId"])
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains(*message).and(predicate::str::contains("panicked").not()),
            );
    }
    let dir = scratch("analyze_bad_query");
    let log = write(
        &dir,
        "q.log",
        "SELECT * FROM c WHERE c.a = 1\nSELECT * FROM c WHER c.a = 1\n",
    );
    pkadvisor()
        .args([
            "analyze",
            "fixtures/bad/base-docs.ndjson",
            "--queries",
            &log,
            "--key",
            "/tenantId",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "q.log:2:17: query does not parse: expected JOIN, WHERE",
        ));
    let r = json(&[
        "analyze",
        "fixtures/bad/base-docs.ndjson",
        "--queries",
        &log,
        "--key",
        "/tenantId",
        "--skip-invalid",
        "--format",
        "json",
    ]);
    assert_eq!(
        (
            r["input"]["invalid"].as_u64(),
            r["input"]["operations"].as_u64()
        ),
        (Some(1), Some(1))
    );
    let deep = json(&[
        "analyze",
        "fixtures/bad/deep-nesting.ndjson",
        "fixtures/bad/base-docs.ndjson",
        "--key",
        "/tenantId",
        "--skip-invalid",
        "--format",
        "json",
    ]);
    assert_eq!(deep["input"]["invalid"], 1);
}

#[test]
fn hostile_log_values_are_errors_not_wraparounds() {
    let dir = scratch("analyze_hostile_log");
    let docs = write(&dir, "d.ndjson", &tenant_docs(500, 10));
    let cases = [
        (
            r#"{"op":"query","sql":"SELECT * FROM c","count":18446744073709551615}"#,
            "at most 2^53",
        ),
        (r#"{"op":"batch","ops":[]}"#, "at least one operation"),
        (
            r#"{"op":"create","doc":{"id":"x"},"ts":1e300}"#,
            "\"ts\" must be",
        ),
        // Counts that add up past what counters hold (fractions would sum to two).
        (
            &[r#"{"op":"query","sql":"SELECT * FROM c","count":9007199254740992}"#; 200].join("\n"),
            "q.ndjson:129:1: the log's counts add up to more than 2^60",
        ),
        // A charge that would overflow sums (and make a hot workload look even).
        (
            r#"{"op":"query","sql":"SELECT * FROM c","ru":1e308}"#,
            "between 0 and 1,000,000",
        ),
    ];
    for (line, message) in cases {
        let log = write(&dir, "q.ndjson", &format!("{line}\n"));
        pkadvisor()
            .args(["analyze", &docs, "--queries", &log, "--key", "/tenantId"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("q.ndjson:").and(predicate::str::contains(message)));
    }
    pkadvisor()
        .args([
            "analyze",
            &docs,
            "-",
            "--queries",
            "-",
            "--key",
            "/tenantId",
        ])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--queries - reads standard input"));
}

#[test]
fn read_only_batches_keep_the_sample_as_writes_and_random_suffixes_never_look_updated() {
    let dir = scratch("analyze_batches");
    let docs = write(&dir, "d.ndjson", &tenant_docs(800, 10));
    let mut log = String::from(
        r#"{"op":"batch","ops":[{"op":"read","id":"doc-1","known":{"/tenantId":"t1"}}]}"#,
    );
    log.push('\n');
    for i in 0..20 {
        writeln!(
            log,
            r#"{{"op":"upsert","doc":{{"id":"i{}","tenantId":"t1"}}}}"#,
            i % 4
        )
        .unwrap();
    }
    let only_reads = write(&dir, "reads.ndjson", log.lines().next().unwrap());
    let r = json(&[
        "analyze",
        &docs,
        "--queries",
        &only_reads,
        "--key",
        "/tenantId",
        "--format",
        "json",
    ]);
    let q = &candidate(&r, "/tenantId")["queries"];
    assert_eq!(
        (q["writes"].as_u64(), q["writes_from_sample"].as_bool()),
        (Some(800), Some(true))
    );
    let upserts = write(&dir, "upserts.ndjson", &log);
    let r = json(&[
        "analyze",
        &docs,
        "--queries",
        &upserts,
        "--key",
        "rand_suffix(/tenantId,10)",
        "--key",
        "/tenantId",
        "--format",
        "json",
    ]);
    assert!(!codes(candidate(&r, "rand_suffix(/tenantId,10)")).contains(&"KEY_UPDATED".to_owned()));
    assert!(!codes(candidate(&r, "/tenantId")).contains(&"KEY_UPDATED".to_owned()));
}

#[test]
fn a_long_log_is_sampled_within_memory_and_still_estimates_its_fractions() {
    let dir = scratch("analyze_log_sampled");
    let docs = write(&dir, "docs.ndjson", &tenant_docs(2000, 20));
    let mut log = String::new();
    for i in 0..60_000 {
        let line = match i % 20 {
            0..12 => format!(
                r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.tenantId = 't{}' AND c.userId = 'u{}'"}}"#,
                i % 20,
                i % 7
            ),
            12..17 => format!("SELECT * FROM c WHERE c.tenantId = 't{}'", i % 20),
            _ => "SELECT * FROM c WHERE c.day = '2026-11-03'".to_owned(),
        };
        log.push_str(&line);
        log.push('\n');
    }
    // One heavy line: always kept, with its own count.
    log.push_str(
        r#"{"op":"query","sql":"SELECT * FROM c WHERE c.day = '2026-11-04'","count":60000}"#,
    );
    log.push('\n');
    let log = write(&dir, "q.ndjson", &log);
    let out = pkadvisor()
        .args([
            "analyze",
            &docs,
            "--queries",
            &log,
            "--key",
            "/tenantId,/userId",
        ])
        .args(["--memory", "16MB", "--format", "json", "-q"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("sampled down to"), "{stderr}");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(r["input"]["operations"], 120_000);
    let q = &candidate(&r, "/tenantId,/userId")["queries"];
    // Exact: 36,000 / 15,000 / 69,000 of 120,000.
    for (field, exact) in [("single", 0.3), ("targeted", 0.125), ("fan_out", 0.575)] {
        let got = q[field].as_f64().expect(field);
        assert!((got - exact).abs() < 0.02, "{field}: {got} vs {exact}");
    }
}

#[test]
fn large_in_lists_count_at_their_size_against_memory() {
    // 600 queries of 2,000 literals each: far fewer operations than the allowance's floor,
    // but hundreds of kilobytes each once parsed. They must be sampled to stay in bounds.
    let dir = scratch("analyze_in_lists");
    let docs = write(&dir, "d.ndjson", &tenant_docs(500, 10));
    let list: Vec<String> = (0..2_000).map(|i| format!("'t{i}'")).collect();
    let line = format!(
        "{{\"op\":\"query\",\"sql\":\"SELECT * FROM c WHERE c.tenantId IN ({})\"}}\n",
        list.join(",")
    );
    let log = write(&dir, "q.ndjson", &line.repeat(600));
    pkadvisor()
        .args([
            "analyze",
            &docs,
            "--queries",
            &log,
            "--key",
            "/tenantId",
            "--memory",
            "16MB",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("were sampled down"));
}

#[test]
fn a_compressed_log_on_standard_input_is_spooled_to_disk_not_memory() {
    use std::io::Write as _;
    let dir = crate::util::scratch("stdin_log_spool");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let docs = "fixtures/multitenant/docs.ndjson";
    let log = "fixtures/multitenant/queries.ndjson";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&std::fs::read(log).unwrap()).unwrap();
    let gz = gz.finish().unwrap();
    // Auto mode reads the log twice: to generate candidates, then to replay it.
    let args = ["analyze", docs, "--format", "json", "-q", "--auto", "5"];
    let from_stdin = pkadvisor()
        .args(args)
        .args(["--queries", "-"])
        .env("TMPDIR", &tmp)
        .write_stdin(gz)
        .output()
        .unwrap();
    assert!(
        from_stdin.status.success(),
        "{}",
        String::from_utf8_lossy(&from_stdin.stderr)
    );
    let from_file = pkadvisor()
        .args(args)
        .args(["--queries", log])
        .output()
        .unwrap();
    assert_eq!(from_stdin.stdout, from_file.stdout);
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "the spool is removed: {left:?}");
}

#[test]
fn auto_mode_discovers_across_sources_past_an_empty_or_broken_first_file() {
    let dir = crate::util::scratch("discover_sources");
    let empty = crate::util::write(&dir, "empty.ndjson", "");
    let iot = "fixtures/iot/docs.ndjson";
    let specs = |args: &[&str]| -> Vec<String> {
        let r = crate::util::json(args);
        let mut s: Vec<String> = (r["candidates"].as_array().unwrap().iter())
            .map(|c| c["key"]["spec"].as_str().unwrap().to_owned())
            .collect();
        s.sort();
        s
    };
    let alone = specs(&["analyze", iot, "--format", "json", "-q", "--auto", "8"]);
    let after_empty = specs(&[
        "analyze", &empty, iot, "--format", "json", "-q", "--auto", "8",
    ]);
    assert_eq!(after_empty, alone);
    // A broken first file: its bad line is reported as a syntax error without
    // --skip-invalid, and passed over with it.
    let broken = "fixtures/bad/syntax-error.ndjson";
    pkadvisor()
        .args(["analyze", broken, iot, "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("syntax-error.ndjson:4:49"));
    let found = specs(&[
        "analyze",
        broken,
        iot,
        "--format",
        "json",
        "-q",
        "--skip-invalid",
    ]);
    assert!(found.iter().any(|s| s.contains("/vin")), "{found:?}");
}

#[test]
fn colour_is_the_commands_decision() {
    let run = |extra: &[&str], no_color: bool| {
        let mut cmd = pkadvisor();
        cmd.args([
            "analyze",
            "fixtures/multitenant/docs.ndjson",
            "--key",
            "/tenantId",
            "-q",
        ]);
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let out = cmd.args(extra).output().unwrap();
        String::from_utf8_lossy(&out.stdout).contains('\u{1b}')
    };
    // Not a terminal: no colour unless asked for; NO_COLOR keeps `auto` plain.
    assert!(!run(&[], false));
    assert!(run(&["--color", "always"], false));
    assert!(!run(&["--color", "never"], false));
    assert!(!run(&["--color", "auto"], true));
}
