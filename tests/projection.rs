//! The projection and the write replay on data built for each rule: hierarchical prefixes
//! that outgrow a partition, figures that do not depend on the other candidates, time
//! buckets and clock keys, and values whose period has ended.

use std::fmt::Write as _;

use crate::util::{by_device, candidate, codes, json, json_with_keys, pkadvisor, scratch, write};

/// The seconds [`telemetry`]`(n)`'s documents arrive over (14 days, evenly).
fn telemetry_span(n: usize) -> f64 {
    ((n as i64 - 1) * 14 * 86_400 / n as i64) as f64
}

/// The busiest device's bytes a second in `text`, [`telemetry`]`(n)`.
fn busiest_rate(text: &str, n: usize) -> f64 {
    let mut bytes = std::collections::BTreeMap::<String, f64>::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        *bytes
            .entry(v["deviceId"].as_str().unwrap().to_owned())
            .or_default() += line.len() as f64;
    }
    bytes.values().copied().fold(0.0, f64::max) / telemetry_span(n)
}

/// Telemetry over 14 days, in time order: `n` documents from 400 devices, each with its
/// timestamp, day and 10-minute bucket.
fn telemetry(n: usize) -> String {
    let mut s = String::new();
    let start = 1_793_491_200i64; // 2026-11-01T00:00:00Z
    for i in 0..n {
        let t = start + (i as i64 * 14 * 86_400) / n as i64;
        let day = (t - start) / 86_400;
        let secs = (t - start) % 86_400;
        let (h, m) = (secs / 3_600, secs % 3_600 / 60);
        writeln!(
            s,
            r#"{{"id":"r{i}","deviceId":"d{}","ts":{t},"day":"2026-11-{:02}","bucket":"2026-11-{:02}T{h:02}:{}0","v":{}}}"#,
            (i * 7919) % 400,
            1 + day,
            1 + day,
            m / 10,
            i % 100
        )
        .unwrap();
    }
    s
}

fn analyze_telemetry(docs: &str, target: &str) -> serde_json::Value {
    json(&[
        "analyze",
        docs,
        "--key",
        "/bucket",
        "--key",
        "/day",
        "--key",
        "/deviceId",
        "--key",
        "/id",
        "--key",
        "/ts",
        "--time-path",
        "/ts",
        "--target-storage",
        target,
        "--format",
        "json",
    ])
}

#[test]
fn a_ten_minute_bucket_writes_one_partition_at_a_time() {
    let dir = scratch("projection_bucket");
    let docs = write(&dir, "docs.ndjson", &telemetry(40_000));
    let r = analyze_telemetry(&docs, "1TB");
    let spread = |spec: &str| candidate(&r, spec)["throughput"]["write_spread"].as_f64();
    let bucket = spread("/bucket").unwrap();
    assert!(bucket < 0.1, "bucket {bucket}");
    assert!(codes(candidate(&r, "/bucket")).contains(&"WRITE_HOTSPOT".to_owned()));
    for spec in ["/deviceId", "/id"] {
        let s = spread(spec).unwrap();
        assert!(s > 0.8, "{spec} {s}");
        assert!(!codes(candidate(&r, spec)).contains(&"WRITE_HOTSPOT".to_owned()));
    }
    // Unique timestamps look spread in the sample, but production writes share each second.
    let ts = candidate(&r, "/ts");
    assert!(spread("/ts").unwrap() < 0.1);
    let hotspot = ts["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "WRITE_HOTSPOT")
        .expect("WRITE_HOTSPOT on /ts");
    assert!(
        hotspot["message"]
            .as_str()
            .unwrap()
            .contains("increase with arrival")
    );
}

#[test]
fn a_past_day_does_not_grow_with_the_container() {
    let dir = scratch("projection_day");
    let docs = write(&dir, "docs.ndjson", &telemetry(40_000));
    let largest = |target: &str| {
        let r = analyze_telemetry(&docs, target);
        let day = candidate(&r, "/day");
        assert!(day["storage"]["max_container_bytes"].is_null(), "{day}");
        let device = candidate(&r, "/deviceId")["storage"]["largest_logical_bytes"]
            .as_f64()
            .unwrap();
        (
            day["storage"]["largest_logical_bytes"].as_f64().unwrap(),
            device,
        )
    };
    let (day_small, device_small) = largest("100GB");
    let (day_big, device_big) = largest("10TB");
    // A day holds what its day received, whatever the container's size ...
    assert!(
        (day_big / day_small - 1.0).abs() < 1e-9,
        "{day_small} {day_big}"
    );
    // ... while a device keeps receiving data.
    assert!((device_big / device_small / 100.0 - 1.0).abs() < 0.05);
}

#[test]
fn an_ingest_limited_key_says_so() {
    // Two days of 30 MB each: past 20 GB only if the sample is scaled, never by growth.
    let dir = scratch("projection_ingest");
    let mut s = String::new();
    let pad = "x".repeat(3_000);
    for i in 0..20_000i64 {
        let day = 1 + i / 10_000;
        let t = 1_793_491_200 + i * 8;
        writeln!(s, r#"{{"id":"r{i}","day":"d{day}","ts":{t},"p":"{pad}"}}"#).unwrap();
    }
    let docs = write(&dir, "docs.ndjson", &s);
    let r = json(&[
        "analyze",
        &docs,
        "--key",
        "/day",
        "--time-path",
        "/ts",
        "--format",
        "json",
    ]);
    let day = candidate(&r, "/day");
    assert!(day["storage"]["max_container_bytes"].is_null());
    assert!(
        day["storage"]["largest_logical_bytes"].as_u64().unwrap() < 40_000_000,
        "{day}"
    );
}

#[test]
fn figures_do_not_depend_on_the_other_candidates() {
    // 4 MB of memory: one candidate is counted exactly, twelve share it and are sampled.
    let keys = [
        "/tenantId,/userId,/sessionId",
        "/tenantId,/userId",
        "/tenantId",
        "/userId",
        "/sessionId",
        "/id",
        "/type",
        "concat(/tenantId,/userId)",
        "/ts",
        "/tenantId,/type",
        "hash_suffix(/type,/userId,160)",
        "rand_suffix(/tenantId,10)",
    ];
    let run = |n: usize| {
        let args = [
            "analyze",
            "fixtures/multitenant/docs.ndjson",
            "--queries",
            "fixtures/multitenant/queries.ndjson",
            "--memory",
            "4MB",
            "--target-storage",
            "500GB",
            "--format",
            "json",
        ];
        let r = json_with_keys(&args, &keys[..n]);
        candidate(&r, keys[0]).clone()
    };
    let alone = run(1);
    for n in [4, 12] {
        let c = run(n);
        let f = |c: &serde_json::Value, p: &str| c.pointer(p).unwrap().as_f64().unwrap();
        // Sampled values place the data a little differently: the hottest partition and so
        // the efficiency move within the sample's error, not with the other candidates.
        let score = (f(&c, "/score"), f(&alone, "/score"));
        assert!((score.0 - score.1).abs() <= 3.0, "{n}: {score:?}");
        let distinct = f(&c, "/cardinality/estimate") / f(&alone, "/cardinality/estimate");
        assert!((distinct - 1.0).abs() < 0.05, "{n}: {distinct}");
        let largest =
            f(&c, "/storage/largest_logical_bytes") / f(&alone, "/storage/largest_logical_bytes");
        assert!((largest - 1.0).abs() < 0.15, "{n}: {largest}");
        // Every listed value is a real one, its bounds around what exact counting found.
        let exact: Vec<&serde_json::Value> =
            alone["largest_values"].as_array().unwrap().iter().collect();
        for v in c["largest_values"].as_array().unwrap() {
            let bytes = (
                v["min_bytes"].as_u64().unwrap(),
                v["bytes"].as_u64().unwrap(),
            );
            if let Some(e) = exact.iter().find(|e| e["value"] == v["value"]) {
                let real = e["bytes"].as_u64().unwrap();
                assert!(bytes.0 <= real && real <= bytes.1, "{v} holds {real}");
            }
        }
        assert_eq!(codes(&c), codes(&alone), "{n}");
    }
}

#[test]
fn a_sequence_is_monotonic_but_no_hotspot() {
    let dir = scratch("projection_sequence");
    let mut s = String::new();
    for i in 0..5_000u64 {
        writeln!(s, r#"{{"id":"r{i}","seq":{},"v":{}}}"#, 10_000 + i, i % 7).unwrap();
    }
    let docs = write(&dir, "docs.ndjson", &s);
    let r = json(&[
        "analyze",
        &docs,
        "--key",
        "/seq",
        "--target-storage",
        "1TB",
        "--format",
        "json",
    ]);
    let c = candidate(&r, "/seq");
    let found: Vec<(String, String)> = c["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        found.contains(&("MONOTONIC_KEY".to_owned(), "info".to_owned())),
        "{found:?}"
    );
    assert!(!found.iter().any(|f| f.0 == "WRITE_HOTSPOT"), "{found:?}");
    assert!(c["throughput"]["write_spread"].as_f64().unwrap() > 0.8);
}

#[test]
fn a_time_path_that_matches_nothing_is_an_error() {
    let dir = scratch("projection_time_path");
    let docs = write(&dir, "docs.ndjson", &telemetry(2_000));
    let run = |extra: &[&str]| {
        let args = [
            &[
                "analyze",
                docs.as_str(),
                "--key",
                "/deviceId",
                "--time-path",
                "/when",
            ][..],
            extra,
        ]
        .concat();
        crate::util::pkadvisor().args(&args).output().unwrap()
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--time-path /when: 2000 of 2000 documents"),
        "{err}"
    );
    // With --skip-invalid it goes on, and says so.
    let out = run(&["--skip-invalid"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("left out of the arrival windows"));
}

#[test]
fn with_timestamps_file_order_changes_nothing() {
    // 20 tenants writing over 30 days: in time order, and grouped by tenant newest first
    // (an export by key). With --time-path both are the same data.
    let dir = scratch("projection_file_order");
    let mut rows: Vec<(u64, i64, String)> = (0..6_000u64)
        .map(|i| {
            let t = i % 20;
            let ts = 1_793_491_200 + (i as i64 * 30 * 86_400) / 6_000;
            (
                t,
                ts,
                format!(
                    r#"{{"id":"r{i}","tenant":"t{t}","ts":{ts},"p":"{}"}}"#,
                    "x".repeat(200)
                ),
            )
        })
        .collect();
    let text = |rows: &[(u64, i64, String)]| {
        rows.iter()
            .map(|r| format!("{}\n", r.2))
            .collect::<String>()
    };
    let sorted = write(&dir, "sorted.ndjson", &text(&rows));
    rows.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let grouped = write(&dir, "grouped.ndjson", &text(&rows));
    let figures = |docs: &str| {
        let r = json(&[
            "analyze",
            docs,
            "--key",
            "/tenant",
            "--time-path",
            "/ts",
            "--target-storage",
            "1TB",
            "--format",
            "json",
        ]);
        let c = candidate(&r, "/tenant").clone();
        (
            c["storage"]["largest_logical_bytes"].as_u64().unwrap(),
            c["throughput"]["write_spread"].as_f64().unwrap(),
            codes(&c),
        )
    };
    assert_eq!(figures(&sorted), figures(&grouped));
}

/// A key of 20,000 even values (three documents each), measured once within --memory and
/// once past it, where values are sampled: the sampled projection spreads the values not
/// kept as the histogram of every document says, so it scores like the exact one. It used
/// to place them where the small sample fell, and scored the key 8 points lower.
#[test]
fn a_sampled_key_projects_like_the_exact_one() {
    let dir = scratch("projection-sampled");
    let mut docs = String::new();
    for i in 0..60_000u64 {
        let user = i * 7_919 % 20_000;
        let pad = "x".repeat((i % 50) as usize);
        let _ = writeln!(
            docs,
            r#"{{"id":"d{i:06}","userId":"u{user:05}","pad":"{pad}"}}"#
        );
    }
    let docs = write(&dir, "even.ndjson", &docs);
    let run = |memory: &str| {
        let report = json(&[
            "analyze", &docs, "--key", "/userId", "--memory", memory, "--format", "json",
        ]);
        candidate(&report, "/userId").clone()
    };
    let (sampled, exact) = (run("4MB"), run("512MB"));
    assert_eq!(sampled["cardinality"]["exact"], false, "values sampled");
    assert_eq!(exact["cardinality"]["exact"], true);
    let score = |c: &serde_json::Value| c["score"].as_f64().expect("score");
    let efficiency = |c: &serde_json::Value| c["cost"]["efficiency"].as_f64().expect("eff");
    assert!(score(&exact) > 99.0, "{exact}");
    assert!(
        (score(&sampled) - score(&exact)).abs() < 2.0,
        "sampled {} against exact {}",
        score(&sampled),
        score(&exact)
    );
    assert!((efficiency(&sampled) - efficiency(&exact)).abs() < 0.03);
}

#[test]
fn a_retention_bounds_each_value_at_its_rate_whatever_the_target() {
    let dir = scratch("projection_retention");
    let n = 40_000;
    let text = telemetry(n);
    let docs = write(&dir, "docs.ndjson", &text);
    // The busiest device's bytes over the sample's span, times 30 days.
    let bound = busiest_rate(&text, n) * 30.0 * 86_400.0;
    let run = |target: &str, extra: &[&str]| {
        let mut args = vec![
            "analyze",
            &docs,
            "--key",
            "/deviceId",
            "--time-path",
            "/ts",
            "--target-storage",
            target,
            "--format",
            "json",
        ];
        args.extend(extra);
        json(&args)
    };
    for target in ["1TB", "50TB"] {
        let r = run(target, &["--retention", "30d"]);
        let c = candidate(&r, "/deviceId");
        let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
        assert!(
            (largest - bound).abs() <= 0.05 * bound,
            "{target}: largest {largest}, rate × 30 days {bound}"
        );
        // The rollout brings new devices: no limit, and no low cardinality from the pilot.
        let found = codes(c);
        assert!(
            !found.contains(&"LOGICAL_PARTITION_LIMIT".to_owned()),
            "{target} {found:?}"
        );
        assert!(
            !found.contains(&"LOW_CARDINALITY".to_owned()),
            "{target} {found:?}"
        );
    }
    // Without the retention the 400 devices grow with the container past 20 GB.
    let r = run("50TB", &[]);
    assert!(codes(candidate(&r, "/deviceId")).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()));
}

#[test]
fn check_reads_the_containers_default_ttl_from_its_template_unless_retention_is_given() {
    let dir = scratch("projection_default_ttl");
    let n = 20_000;
    let text = telemetry(n);
    let docs = write(&dir, "docs.ndjson", &text);
    let rate = busiest_rate(&text, n);
    let arm = |ttl: i64| {
        serde_json::json!({"type": "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers",
            "name": "acct/db/readings", "properties": {"resource": {"id": "readings",
            "partitionKey": {"paths": ["/deviceId"], "kind": "Hash"}, "defaultTtl": ttl}}})
        .to_string()
    };
    let tf = |ttl: i64| {
        serde_json::json!({"type": "azurerm_cosmosdb_sql_container", "values": {"name": "readings",
            "partition_key_paths": ["/deviceId"], "default_ttl": ttl}})
        .to_string()
    };
    let run = |template: String, extra: &[&str]| {
        let file = write(&dir, "container.json", &template);
        let mut args = vec![
            "check",
            "--container",
            &file,
            &docs,
            "--time-path",
            "/ts",
            "--target-storage",
            "50TB",
            "--format",
            "json",
        ];
        args.extend(extra);
        let out = pkadvisor().args(&args).output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let c = candidate(&r, "/deviceId");
        let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
        let retention = r["target"]["retention"].as_str().unwrap_or("").to_owned();
        (largest, codes(c), retention)
    };
    for template in [arm, tf] {
        // 30 days declared: a device holds its rate × 30 days, and the header says why.
        let (largest, found, said) = run(template(30 * 86_400), &[]);
        let bound = rate * 30.0 * 86_400.0;
        assert!(
            (largest - bound).abs() <= 0.05 * bound,
            "{largest} vs {bound}"
        );
        assert!(
            !found.contains(&"LOGICAL_PARTITION_LIMIT".to_owned()),
            "{found:?}"
        );
        assert!(
            said.starts_with("30 days")
                && said.contains("defaultTtl 2592000 of container readings"),
            "{said}"
        );
        // --retention overrides the template.
        let (largest, _, said) = run(template(30 * 86_400), &["--retention", "60d"]);
        let bound = rate * 60.0 * 86_400.0;
        assert!(
            (largest - bound).abs() <= 0.05 * bound,
            "{largest} vs {bound}"
        );
        assert_eq!(said, "60 days (--retention)");
        // -1: items live forever, so the 400 devices grow with the container past 20 GB.
        let (largest, found, said) = run(template(-1), &[]);
        assert!(largest > 20e9, "{largest}");
        assert!(
            found.contains(&"LOGICAL_PARTITION_LIMIT".to_owned()),
            "{found:?}"
        );
        assert!(said.starts_with("forever"), "{said}");
    }
}

#[test]
fn a_profile_records_its_retention_and_profiles_of_another_retention_are_refused() {
    let dir = scratch("projection_profile_retention");
    let n = 20_000;
    let text = telemetry(n);
    let docs = write(&dir, "docs.ndjson", &text);
    let bound = busiest_rate(&text, n) * 30.0 * 86_400.0;
    let profile = |docs: &str, name: &str, retention: &str| {
        let out = dir.join(name).to_string_lossy().into_owned();
        let mut args = vec!["profile", docs, "-o", &out, "-q", "--key", "/deviceId"];
        args.extend(["--time-path", "/ts", "--retention", retention]);
        pkadvisor().args(&args).assert().success();
        out
    };
    let whole = profile(&docs, "whole.profile", "30d");
    let r = json(&[
        "analyze",
        "--profile",
        &whole,
        "--target-storage",
        "50TB",
        "--format",
        "json",
    ]);
    let c = candidate(&r, "/deviceId");
    let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
    assert!(
        (largest - bound).abs() <= 0.05 * bound,
        "{largest} vs {bound}"
    );
    assert!(!codes(c).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()));
    // A profile that records none takes analyze's --retention.
    let out = dir.join("none.profile").to_string_lossy().into_owned();
    pkadvisor()
        .args([
            "profile",
            &docs,
            "-o",
            &out,
            "-q",
            "--key",
            "/deviceId",
            "--time-path",
            "/ts",
        ])
        .assert()
        .success();
    let r = json(&[
        "analyze",
        "--profile",
        &out,
        "--retention",
        "30d",
        "--target-storage",
        "50TB",
        "--format",
        "json",
    ]);
    let largest = candidate(&r, "/deviceId")["storage"]["largest_logical_bytes"]
        .as_f64()
        .unwrap();
    assert!(
        (largest - bound).abs() <= 0.05 * bound,
        "{largest} vs {bound}"
    );
    // Halves of the sample measured with other retentions do not merge.
    let lines: Vec<&str> = text.lines().collect();
    let half = |from: usize, name: &str| {
        let part: String = lines[from..from + n / 2]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect();
        write(&dir, name, &part)
    };
    let (a, b) = (half(0, "a.ndjson"), half(n / 2, "b.ndjson"));
    let pa = profile(&a, "a.profile", "30d");
    let pb = profile(&b, "b.profile", "60d");
    pkadvisor()
        .args(["analyze", "--profile", &pa, "--profile", &pb])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "b.profile holds items that live 60 days, the first profile's 30 days",
        ));
}

#[test]
fn without_a_target_the_container_settles_at_ingest_times_retention() {
    let dir = scratch("projection_settles");
    let n = 20_000;
    let text = telemetry(n);
    let docs = write(&dir, "docs.ndjson", &text);
    // The sample's bytes over the span they arrived in, times 30 days.
    let bytes: f64 = text.lines().map(|l| l.len() as f64).sum();
    let settled = bytes / telemetry_span(n) * 30.0 * 86_400.0;
    let run = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            &docs,
            "--key",
            "/deviceId",
            "--time-path",
            "/ts",
            "--format",
            "json",
        ];
        args.extend(extra);
        json(&args)
    };
    let r = run(&["--retention", "30d"]);
    let t = &r["target"];
    let storage = t["storage_bytes"].as_f64().unwrap();
    assert!(
        (storage - settled).abs() <= 0.02 * settled,
        "{storage} vs {settled}"
    );
    assert_eq!(t["defaults"][0], "storage");
    let how = t["storage_default"].as_str().unwrap();
    assert!(
        how.starts_with("ingest ") && how.ends_with("/day × 30 days retention"),
        "{how}"
    );
    // The header states it.
    let out = pkadvisor()
        .args(["analyze", &docs, "--key", "/deviceId", "--time-path", "/ts"])
        .args(["--retention", "30d"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("(default storage: ingest "), "{table}");
    // Without a retention the fixed default; a target given is kept.
    let r = run(&[]);
    assert_eq!(
        r["target"]["storage_bytes"].as_u64(),
        Some(1_000_000_000_000)
    );
    assert!(r["target"].get("storage_default").is_none());
    let r = run(&["--retention", "30d", "--target-storage", "2TB"]);
    assert_eq!(
        r["target"]["storage_bytes"].as_u64(),
        Some(2_000_000_000_000)
    );
    assert_eq!(r["target"]["defaults"].as_array().unwrap().len(), 1);
}

#[test]
fn the_items_own_ttl_bounds_them_and_minus_one_never_expires() {
    let dir = scratch("projection_item_ttl");
    let n = 20_000;
    let with_ttl = |ttl: i64| {
        (telemetry(n).lines())
            .map(|l| format!("{},\"ttl\":{ttl}}}\n", &l[..l.len() - 1]))
            .collect::<String>()
    };
    let largest = |text: String| {
        let docs = write(&dir, "docs.ndjson", &text);
        let r = by_device(&docs, &["--target-storage", "50TB"]);
        candidate(&r, "/deviceId")["storage"]["largest_logical_bytes"]
            .as_f64()
            .unwrap()
    };
    let month = largest(with_ttl(30 * 86_400));
    let forever = largest(with_ttl(-1));
    // 50 TB over 400 devices is about 125 GB each; thirty days of one is a few MB.
    assert!(
        month < 1e9 && forever > 20e9,
        "month {month}, forever {forever}"
    );
}

/// A log of an hour of creates for the day after [`telemetry`]'s: `lines` creates of the
/// same document, one every ten seconds, each standing for `count`. Returns the log and the
/// bytes its creates write a second.
fn creates_log(lines: i64, count: u64) -> (String, f64) {
    let start = 1_793_491_200i64 + 14 * 86_400;
    let doc = r#"{"id":"n","deviceId":"d9","ts":1794700800,"day":"2026-11-15","v":1}"#;
    let mut s = String::new();
    for i in 0..lines {
        let t = start + i * 10;
        writeln!(
            s,
            r#"{{"op":"create","doc":{doc},"ts":{t},"count":{count}}}"#
        )
        .unwrap();
    }
    let span = ((lines - 1) * 10) as f64;
    (s, doc.len() as f64 * (lines as u64 * count) as f64 / span)
}

#[test]
fn a_day_is_sized_at_the_targets_write_rate() {
    let dir = scratch("projection_day_rate");
    let docs = write(&dir, "docs.ndjson", &telemetry(40_000));
    let (log, logged) = creates_log(360, 500);
    let log = write(&dir, "log.ndjson", &log);
    let run = |share: f64| {
        let share = share.to_string();
        let r = json(&[
            "analyze",
            &docs,
            "--key",
            "/day",
            "--key",
            "/deviceId",
            "--time-path",
            "/ts",
            "--queries",
            &log,
            "--log-share",
            &share,
            "--target-storage",
            "10TB",
            "--format",
            "json",
        ]);
        let day = candidate(&r, "/day").clone();
        let bytes = day["storage"]["largest_logical_bytes"].as_f64().unwrap();
        (bytes, codes(&day), day)
    };
    // At the log's rate over its share, one day receives rate × 86,400 s.
    for (share, want_limit) in [
        (logged * 86_400.0 / 355e9, true),
        (logged * 86_400.0 / 2e9, false),
    ] {
        let day = logged / share * 86_400.0;
        let (bytes, codes, r) = run(share);
        assert!((bytes - day).abs() <= 0.05 * day, "{bytes} vs {day}");
        let limit = codes.contains(&"LOGICAL_PARTITION_LIMIT".to_owned());
        assert_eq!(limit, want_limit, "day of {day}: {r}");
        if want_limit {
            // Whatever the container's size: the key breaks at any size.
            let breaks = r["storage"]["max_container_bytes"].as_f64().unwrap();
            assert!(breaks < 1e9, "{breaks}");
        }
    }
}

#[test]
fn the_logs_creates_are_the_ingest_a_container_settles_at() {
    let dir = scratch("projection_settles_log");
    let docs = write(&dir, "docs.ndjson", &telemetry(20_000));
    let (log, logged) = creates_log(360, 50);
    let log = write(&dir, "log.ndjson", &log);
    let r = by_device(
        &docs,
        &[
            "--queries",
            &log,
            "--log-share",
            "0.01",
            "--retention",
            "30d",
        ],
    );
    // The log's creates over its share, times 30 days, rather than the sample's arrivals.
    let settled = logged / 0.01 * 30.0 * 86_400.0;
    let storage = r["target"]["storage_bytes"].as_f64().unwrap();
    assert!(
        (storage - settled).abs() <= 0.02 * settled,
        "{storage} vs {settled}"
    );
    let how = r["target"]["storage_default"].as_str().unwrap();
    assert!(how.contains("(the log's creates ÷ --log-share)"), "{how}");
}

#[test]
fn a_container_declared_without_default_ttl_ignores_the_items_ttl() {
    let dir = scratch("projection_ttl_off");
    let docs = (telemetry(20_000).lines())
        .map(|l| format!("{},\"ttl\":2592000}}\n", &l[..l.len() - 1]))
        .collect::<String>();
    let docs = write(&dir, "docs.ndjson", &docs);
    let arm = |ttl: Option<i64>| {
        let mut resource = serde_json::json!({"id": "readings",
            "partitionKey": {"paths": ["/deviceId"], "kind": "Hash"}});
        if let Some(t) = ttl {
            resource["defaultTtl"] = t.into();
        }
        serde_json::json!({"type": "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers",
            "name": "acct/db/readings", "properties": {"resource": resource}})
        .to_string()
    };
    let run = |ttl: Option<i64>| {
        let file = write(&dir, "container.json", &arm(ttl));
        let out = pkadvisor()
            .args(["check", "--container", &file, &docs, "--time-path", "/ts"])
            .args(["--target-storage", "50TB", "--format", "json"])
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let largest = candidate(&r, "/deviceId")["storage"]["largest_logical_bytes"]
            .as_f64()
            .unwrap();
        (largest, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // No defaultTtl: time to live is off, the items' 30 days do not bound a device.
    let (off, warned) = run(None);
    assert!(off > 20e9, "{off}");
    assert!(warned.contains("declares no defaultTtl"), "{warned}");
    // defaultTtl -1: on, and each item's own ttl holds.
    let (on, warned) = run(Some(-1));
    assert!(on < 1e9, "{on}");
    assert!(!warned.contains("declares no defaultTtl"), "{warned}");
}

/// A production log after [`telemetry`]'s sample: `lines` creates, one every `step`
/// seconds, every `pilot`-th from a device of the sample (none when 0) and the rest from
/// devices it never saw, each standing for `count`; `ids` names their items. Returns the
/// log, the share of created bytes from unseen devices and the bytes a second created.
fn fleet_log(lines: i64, (pilot, step): (i64, i64), count: u64, ids: &str) -> (String, f64, f64) {
    let start = 1_793_491_200i64 + 14 * 86_400;
    let (mut s, mut new, mut all) = (String::new(), 0.0, 0.0);
    for i in 0..lines {
        let t = start + i * step;
        let seen = pilot > 0 && i % pilot == 0;
        let device = match seen {
            true => format!("d{}", i % 400),
            false => format!("n{i}"),
        };
        let doc = format!(
            r#"{{"id":"{ids}{i}","deviceId":"{device}","ts":{t},"day":"2026-11-15","v":1}}"#
        );
        all += doc.len() as f64;
        if !seen {
            new += doc.len() as f64;
        }
        writeln!(
            s,
            r#"{{"op":"create","doc":{doc},"ts":{t},"count":{count}}}"#
        )
        .unwrap();
    }
    (
        s,
        new / all,
        all * count as f64 / ((lines - 1) * step) as f64,
    )
}

/// [`telemetry`]'s bytes, its busiest device's and its busiest device-day's.
fn telemetry_bytes(text: &str) -> (f64, f64, f64) {
    let mut device = std::collections::BTreeMap::<String, f64>::new();
    let mut day = std::collections::BTreeMap::<String, f64>::new();
    let mut all = 0.0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let d = v["deviceId"].as_str().unwrap().to_owned();
        *day.entry(format!("{d} {}", v["day"])).or_default() += line.len() as f64;
        *device.entry(d).or_default() += line.len() as f64;
        all += line.len() as f64;
    }
    let max = |m: &std::collections::BTreeMap<String, f64>| m.values().copied().fold(0.0, f64::max);
    (all, max(&device), max(&day))
}

fn analyze_fleet(docs: &str, log: &str, keys: &[&str]) -> serde_json::Value {
    // The sample is a pilot: every document of its devices (told here; the inference is
    // `what_the_sample_is_does_not_depend_on_the_keys_compared_nor_the_memory`'s).
    let args = [
        "analyze",
        docs,
        "--queries",
        log,
        "--sample",
        "complete",
        "--time-path",
        "/ts",
        "--target-storage",
        "10TB",
        "--format",
        "json",
    ];
    json_with_keys(&args, keys)
}

#[test]
fn a_log_of_new_devices_keeps_a_pilots_devices_at_their_own_rate() {
    let dir = scratch("projection_pilot");
    let text = telemetry(20_000);
    let docs = write(&dir, "docs.ndjson", &text);
    let (sample, busiest, _) = telemetry_bytes(&text);
    let span = telemetry_span(20_000);
    let target = 10e12;
    for pilot in [0, 10] {
        let (log, share, rate) = fleet_log(600, (pilot, 1), 100, "c");
        let log = write(&dir, &format!("log{pilot}.ndjson"), &log);
        let r = analyze_fleet(&docs, &log, &["/deviceId"]);
        let c = candidate(&r, "/deviceId");
        let new = &c["storage"]["new_values"];
        assert_eq!(new["from"], "log", "{c}");
        let p = new["share"].as_f64().unwrap();
        assert!((p - share).abs() < 1e-3, "{p} vs {share}");
        // Open values take (1 - p) of the new data, and at least what their own rate
        // writes while the container fills at the log's rate.
        let own = target / rate / span;
        let g = (1.0 + (target - sample) * (1.0 - share) / sample).max(own);
        let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
        assert!(
            (largest - busiest * g).abs() <= 0.05 * busiest * g,
            "{largest} vs {}",
            busiest * g
        );
        if pilot == 0 {
            // The new values' bytes over the size the sample's values reach.
            let want = 400.0 + (target - sample) / (sample * own / 400.0);
            let at = new["at_target"].as_f64().unwrap();
            assert!((at - want).abs() <= 0.05 * want, "{at} vs {want}");
            assert!(!codes(c).contains(&"LOW_CARDINALITY".to_owned()), "{c}");
        }
    }
    // A log far slower than the sample (a create every two minutes against the sample's
    // one a minute): the devices' own rate would put more than the whole target in them;
    // they take at most all the new data, and new values none.
    let (log, _, rate) = fleet_log(600, (0, 120), 1, "c");
    assert!(
        target / rate / span > target / sample,
        "the log is not slow enough"
    );
    let log = write(&dir, "slow.ndjson", &log);
    let r = analyze_fleet(&docs, &log, &["/deviceId"]);
    let c = candidate(&r, "/deviceId");
    let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
    let all = busiest * target / sample;
    assert!((largest - all).abs() <= 0.05 * all, "{largest} vs {all}");
    assert!(
        c["storage"]["new_values"]["share"].as_f64().unwrap() < 1e-3,
        "{c}"
    );
    // Without the log, the sample's 400 devices are the whole fleet: each takes 1/400 of
    // 10 TB, past the 20 GB limit.
    let alone = by_device(&docs, &["--target-storage", "10TB"]);
    let alone = candidate(&alone, "/deviceId");
    assert!(
        codes(alone).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()),
        "{alone}"
    );
}

#[test]
fn what_the_sample_is_does_not_depend_on_the_keys_compared_nor_the_memory() {
    // A pilot of 400 devices and a production log whose creates come from devices it never
    // saw: the sample's own entity (/deviceId) says so, whichever keys are compared (a
    // hierarchical key alone, the item id alone) and however little memory they get.
    let dir = scratch("projection_kind_probe");
    let docs = write(&dir, "docs.ndjson", &telemetry(20_000));
    let (log, _, _) = fleet_log(600, (0, 1), 100, "c");
    let log = write(&dir, "log.ndjson", &log);
    let runs: [(&[&str], &str); 4] = [
        (&["/deviceId"], "1GB"),
        (&["/deviceId,/day"], "1GB"),
        (&["/id"], "1GB"),
        (&["/id", "/deviceId,/day", "/day"], "64MB"),
    ];
    for (keys, memory) in runs {
        let args = [
            "analyze",
            docs.as_str(),
            "--queries",
            log.as_str(),
            "--target-storage",
            "10TB",
            "--memory",
            memory,
            "--format",
            "json",
        ];
        let r = json_with_keys(&args, keys);
        let sample = &r["target"]["sample"];
        assert_eq!(sample["kind"], "complete", "{keys:?} {memory}: {sample}");
        let why = sample["why"].as_str().unwrap();
        assert!(
            why.contains("values of /deviceId the sample never saw"),
            "{why}"
        );
        assert!(why.contains("100% of its created bytes"), "{why}");
    }
    // Without --time-path a pilot's values grow by their share of the log's creates: the
    // run says so and names where the documents carry their times.
    let warned = |extra: &[&str]| {
        let out = crate::util::pkadvisor()
            .args([
                "analyze",
                &docs,
                "--queries",
                &log,
                "--key",
                "/deviceId",
                "-q",
            ])
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = warned(&[]);
    assert!(
        err.contains("without --time-path their own write rate is unknown"),
        "{err}"
    );
    assert!(err.contains("give --time-path /bucket"), "{err}");
    assert!(!warned(&["--time-path", "/ts"]).contains("--time-path"));
    // The same devices logged again: a snapshot, whatever the keys.
    let (log, _, _) = fleet_log(600, (1, 1), 100, "c");
    let log = write(&dir, "again.ndjson", &log);
    for keys in [&["/deviceId,/day"][..], &["/id"]] {
        let args = ["analyze", &docs, "--queries", &log, "--format", "json"];
        let r = json_with_keys(&args, keys);
        assert_eq!(r["target"]["sample"]["kind"], "snapshot", "{keys:?}");
    }
}

#[test]
fn a_retired_device_does_not_make_a_device_key_one_of_periods() {
    let dir = scratch("projection_pilot_retired");
    // Device d0 stops writing on the fourth day: a closed value among 399 open ones.
    let text: String = (telemetry(20_000).lines())
        .filter(|l| !l.contains(r#""deviceId":"d0","#) || l.contains(r#""day":"2026-11-0"#))
        .map(|l| format!("{l}\n"))
        .collect();
    let docs = write(&dir, "docs.ndjson", &text);
    let (log, share, _) = fleet_log(600, (0, 1), 100, "c");
    let log = write(&dir, "log.ndjson", &log);
    let r = analyze_fleet(&docs, &log, &["/deviceId"]);
    let c = candidate(&r, "/deviceId");
    assert_eq!(c["storage"]["new_values"]["from"], "log", "{c}");
    let p = c["storage"]["new_values"]["share"].as_f64().unwrap();
    assert!((p - share).abs() < 1e-3, "{p} vs {share}");
    assert!(
        !codes(c).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()),
        "{c}"
    );
}

#[test]
fn creates_of_items_the_sample_holds_say_nothing_of_new_values() {
    let dir = scratch("projection_pilot_after");
    let docs = write(&dir, "docs.ndjson", &telemetry(20_000));
    // The sample was exported after the log: its items carry the log's ids.
    let (log, _, _) = fleet_log(600, (0, 1), 100, "r");
    let log = write(&dir, "log.ndjson", &log);
    let r = analyze_fleet(&docs, &log, &["/deviceId"]);
    let new = &candidate(&r, "/deviceId")["storage"]["new_values"];
    assert!(new.is_object(), "{r}");
    assert_ne!(new["from"], "log", "{new}");
}

#[test]
fn new_devices_of_a_hierarchical_key_hash_anywhere() {
    let dir = scratch("projection_pilot_hierarchical");
    let text = telemetry(20_000);
    let docs = write(&dir, "docs.ndjson", &text);
    let (_, _, device_day) = telemetry_bytes(&text);
    let (log, _, _) = fleet_log(600, (0, 1), 100, "c");
    let log = write(&dir, "log.ndjson", &log);
    let r = analyze_fleet(&docs, &log, &["/deviceId,/day", "/deviceId"]);
    let c = candidate(&r, "/deviceId,/day");
    // Every create is from a device the sample never saw: new values hash over the whole
    // space, not into the 400 devices' prefixes, and a device-day of the sample gets none
    // of the fleet's rate. Its writes spread as the single-level key's do.
    assert_eq!(
        c["storage"]["new_values"]["share"].as_f64(),
        Some(1.0),
        "{c}"
    );
    let skew = c["storage"]["physical_skew"].as_f64().unwrap();
    assert!(skew < 1.3, "{skew}");
    let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
    assert!(largest <= 1.05 * device_day, "{largest} vs {device_day}");
    let single = candidate(&r, "/deviceId");
    let ru = |c: &serde_json::Value| c["cost"]["required_ru"].as_f64().unwrap();
    assert!(
        (ru(c) - ru(single)).abs() <= 0.1 * ru(single),
        "{c}\n{single}"
    );
    for code in ["HOT_PARTITION", "WRITE_HOTSPOT"] {
        let has = |c: &serde_json::Value| codes(c).contains(&code.to_owned());
        assert_eq!(has(c), has(single), "{code}: {c}\n{single}");
    }
}

#[test]
fn a_day_key_under_a_retention_holds_few_days_at_the_target() {
    let dir = scratch("projection_day_retention");
    let docs = write(&dir, "docs.ndjson", &telemetry(20_000));
    let (log, _) = creates_log(360, 500);
    let log = write(&dir, "log.ndjson", &log);
    let args = format!("analyze {docs} --key /day --time-path /ts --queries {log} --retention 10d");
    let mut args: Vec<&str> = args.split(' ').collect();
    args.extend(["--format", "json"]);
    let r = json(&args);
    let day = candidate(&r, "/day");
    // The container settles at ingest × 10 days, S = rate × 864,000 s: beside the sample's
    // 14 days (counted, though they would have expired), the new data S - B arrives as
    // days of one day at the log's rate each, not as thousands of days of the sample's size.
    let (_, rate) = creates_log(360, 500);
    let sample: f64 = telemetry(20_000).lines().map(|l| l.len() as f64).sum();
    let want = 14.0 + (rate * 864_000.0 - sample) / (rate * 86_400.0);
    let at = day["storage"]["new_values"]["at_target"].as_f64().unwrap();
    assert!((at - want).abs() <= 0.1 * want + 1.0, "{at} vs {want}");
    assert!(codes(day).contains(&"LOW_CARDINALITY".to_owned()), "{day}");
}

#[test]
fn a_day_key_counts_every_day_the_target_holds() {
    let dir = scratch("projection_day_count");
    // 10.5 days of readings, a minute apart: the sample's second half (from day 5.25)
    // holds 4.5 days first seen in it, so its arrivals give new days 4.5 / 5.25 = 6/7 of
    // the new data, and the day in progress the rest, of which it holds at most one day.
    let end = 1_793_491_200 + 907_200;
    let ts = |l: &str| -> i64 {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["ts"].as_i64().unwrap()
    };
    let text: String = (telemetry(20_000).lines())
        .filter(|l| ts(l) < end)
        .map(|l| format!("{l}\n"))
        .collect();
    let docs = write(&dir, "docs.ndjson", &text);
    let (log, rate) = creates_log(360, 500);
    let log = write(&dir, "log.ndjson", &log);
    // A target of 100 days at the log's rate: the sample's 11 days, and the rest as days
    // of one day at that rate each, whatever share the arrivals gave them: what the day in
    // progress cannot hold arrives as new days, and is counted as them.
    let sample: f64 = text.lines().map(|l| l.len() as f64).sum();
    let target = rate * 86_400.0 * 100.0;
    let args = format!(
        "analyze {docs} --key /day --time-path /ts --queries {log} --target-storage {:.0}MB --format json",
        target / 1e6
    );
    let r = json(&args.split(' ').collect::<Vec<_>>());
    let day = candidate(&r, "/day");
    let want = 11.0 + (target - sample) / (rate * 86_400.0);
    let new = &day["storage"]["new_values"];
    let at = new["at_target"].as_f64().unwrap();
    assert!(
        (at - want).abs() <= 0.05 * want + 1.0,
        "{at} vs {want}: {new} ({args})"
    );
    let share = new["share"].as_f64().unwrap();
    assert!((share - 6.0 / 7.0).abs() < 0.02, "{new}");
    // 14 whole days, the last in progress a minute before the sample ends: the days to
    // come are like the 13 closed ones, not like the mean of those and a day that holds
    // a day's share of the sample (each new day a full one: 14 + 100, not 122).
    let text = telemetry(20_000);
    write(&dir, "whole.ndjson", &text);
    let sample: f64 = text.lines().map(|l| l.len() as f64).sum();
    let args = args.replace("docs.ndjson", "whole.ndjson");
    let r = json(&args.split(' ').collect::<Vec<_>>());
    let new = &candidate(&r, "/day")["storage"]["new_values"];
    let want = 14.0 + (target - sample) / (rate * 86_400.0);
    let at = new["at_target"].as_f64().unwrap();
    assert!(
        (at - want).abs() <= 0.05 * want + 1.0,
        "{at} vs {want}: {new} ({args})"
    );
}

#[test]
fn a_large_new_first_level_takes_its_share_inside_its_own_prefix() {
    let dir = scratch("projection_pilot_big_device");
    let docs = write(&dir, "docs.ndjson", &telemetry(20_000));
    // Every other create of the log is from one device the sample never saw.
    let (log, _, _) = fleet_log(600, (0, 1), 100, "c");
    let log: String = (log.lines().enumerate())
        .map(|(i, l)| match i % 2 {
            0 => format!("{}\n", l.replace(&format!("\"n{i}\""), "\"nbig\"")),
            _ => format!("{l}\n"),
        })
        .collect();
    let log = write(&dir, "log.ndjson", &log);
    let r = analyze_fleet(&docs, &log, &["/deviceId,/id"]);
    let c = candidate(&r, "/deviceId,/id");
    // Half the new data is the big device's, placed in its prefix's range, which splits
    // over many partitions as it grows: its writes (each of its own item) land on those,
    // not on the one partition that would hold the whole prefix.
    // One partition with half the writes of P would take P / 2 times its share.
    let parts = c["storage"]["physical_partitions"].as_f64().unwrap();
    let skew = c["throughput"]["physical_skew"].as_f64().unwrap();
    assert!(skew < parts / 2.0 / 10.0, "{c}");
    assert!(!codes(c).contains(&"WRITE_HOTSPOT".to_owned()), "{c}");
}

/// [`fleet_log`] of `lines` with every other create from one device `big` the sample never
/// saw, its `v` cycling through `values`; returns the log and the big device's share of
/// the created bytes.
fn big_device_log(big: &str, values: u64, lines: i64) -> (String, f64) {
    let (log, _, _) = fleet_log(lines, (0, 1), 100, "c");
    let (mut out, mut mine, mut all) = (String::new(), 0.0, 0.0);
    for (i, line) in log.lines().enumerate() {
        let line = match i % 2 {
            0 => line
                .replace(&format!("\"n{i}\""), &format!("\"{big}\""))
                .replace("\"v\":1", &format!("\"v\":{}", (i / 2) as u64 % values)),
            _ => line.to_owned(),
        };
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let doc = serde_json::to_string(&v["doc"]).unwrap().len() as f64;
        all += doc;
        if i % 2 == 0 {
            mine += doc;
        }
        writeln!(out, "{line}").unwrap();
    }
    (out, mine / all)
}

/// What [`big_device_run`] gives: the report, the sample's bytes, the big device's share
/// of the log, and the documents' and the log's paths.
type BigDeviceRun = (serde_json::Value, f64, f64, [String; 2]);

/// [`analyze_fleet`] of the telemetry sample and a [`big_device_log`] under `key`.
fn big_device_run(name: &str, (values, lines): (u64, i64), key: &str) -> BigDeviceRun {
    let dir = scratch(name);
    let text = telemetry(20_000);
    let docs = write(&dir, "docs.ndjson", &text);
    let (sample, _, _) = telemetry_bytes(&text);
    let (log, share) = big_device_log("nbig", values, lines);
    let log = write(&dir, "log.ndjson", &log);
    (
        analyze_fleet(&docs, &log, &[key]),
        sample,
        share,
        [docs, log],
    )
}

#[test]
fn a_large_new_value_of_the_log_is_sized_named_and_dated() {
    let run = big_device_run("projection_big_new_value", (1, 600), "/deviceId");
    let (r, sample, share, [docs, log]) = run;
    let c = candidate(&r, "/deviceId");
    let storage = &c["storage"];
    let p = storage["new_values"]["share"].as_f64().unwrap();
    // Every create is of a new device: the big one's share of them is its share of the
    // new values' bytes, p of the new data (its 300 lines shrink by under 1%: the other
    // devices' single lines tell that the spread is the devices', not chance's).
    let want = share * p * (10e12 - sample);
    let largest = storage["largest_logical_bytes"].as_f64().unwrap();
    assert!((largest - want).abs() <= 0.05 * want, "{largest} vs {want}");
    let limit = finding(c, "LOGICAL_PARTITION_LIMIT");
    assert!(limit.contains("\"nbig\""), "{limit}");
    // It takes a fixed share of the new data: it reaches 20 GB once the container has
    // grown by 20 GB over that share.
    let breaks = storage["max_container_bytes"].as_f64().unwrap();
    let at = sample + 20e9 / (share * p);
    assert!((breaks - at).abs() <= 0.05 * at, "{breaks} vs {at}");
    assert!(c["timeline"]["breaks_on"].is_string(), "{c}");
    // The partition map names it.
    let map = json(&[
        "analyze",
        &docs,
        "--queries",
        &log,
        "--sample",
        "complete",
        "--time-path",
        "/ts",
        "--target-storage",
        "10TB",
        "--key",
        "/deviceId",
        "--explain",
        "/deviceId",
        "--format",
        "json",
    ]);
    let named = map["labels"].as_object().unwrap();
    assert!(named.values().any(|l| l == "\"nbig\""), "{map}");
}

#[test]
fn a_new_first_levels_values_are_sized_alike_and_placed_where_they_are_written() {
    // A new device writes half the log over 200 values of `v`, 30 lines each: each will
    // hold about 25 GB, under a physical partition's 50 GB, and the log puts some 60
    // lines on each partition, so that chance alone makes none twice as busy.
    let run = big_device_run("projection_big_new_prefix", (200, 12_000), "/deviceId,/v");
    let (r, sample, share, _) = run;
    let c = candidate(&r, "/deviceId,/v");
    // New first levels take all new data; each of the device's values a 200th of its
    // share, placed at its own EPK inside the device's prefix.
    let q = c["storage"]["new_values"]["share"].as_f64().unwrap();
    let want = share / 200.0 * q * (10e12 - sample);
    let largest = c["storage"]["largest_logical_bytes"].as_f64().unwrap();
    assert!((largest - want).abs() <= 0.05 * want, "{largest} vs {want}");
    // The device's writes land on the partitions that hold its values' bytes: no
    // partition takes twice its share.
    let skew = c["throughput"]["physical_skew"].as_f64().unwrap();
    assert!(skew < 2.0, "{c}");
    for code in ["HOT_PARTITION", "WRITE_HOTSPOT"] {
        assert!(!codes(c).contains(&code.to_owned()), "{c}");
    }
}

/// The message of `c`'s finding `code`.
fn finding(c: &serde_json::Value, code: &str) -> String {
    let f = c["findings"].as_array().unwrap().iter();
    let mut f = f.filter(|f| f["code"] == code);
    f.next().unwrap_or_else(|| panic!("no {code}: {c}"))["message"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A thin snapshot of a hospital's records: 30,000 documents of 350 bytes over 3 million
/// patients (a patient holds 1.2 kB at 3.6 TB: 3.6e12 / 3e6), plus one tenant whose
/// 3,000 documents keep coming back, and a log whose creates write new patients about as
/// often as the sample's thinness predicts.
fn hospital_snapshot(dir: &std::path::Path) -> (String, String) {
    let mut docs = String::new();
    let mut log = String::new();
    for i in 0..30_000u64 {
        // Patients drawn from 3 million: a few of them twice, by chance.
        let patient = (i * 2_654_435_761) % 3_000_000 / 10 + (i % 7) * 300_000;
        let _ = writeln!(
            docs,
            r#"{{"id":"d{i}","hospitalId":"h{}","patientId":"p{patient:07}","pad":"{}"}}"#,
            i % 60,
            "x".repeat(280)
        );
    }
    for i in 0..600u64 {
        let patient = 3_000_000 + i;
        let _ = writeln!(
            log,
            r#"{{"op":"create","doc":{{"id":"n{i}","hospitalId":"h{}","patientId":"p{patient:07}","pad":"y"}},"ts":"2025-12-01T10:{:02}:00Z"}}"#,
            i % 60,
            i % 60
        );
    }
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, "log.ndjson", &log),
    )
}

/// The sample's and the log's kinds are inferred and stated (a snapshot here: the log's
/// 600 new patients are fewer than the sample's own, nothing says it holds some values
/// only), a flag overrides them, and a
/// patient of the snapshot is sized as one patient of millions, not as its share of the
/// growth.
#[test]
fn the_sample_and_the_log_say_what_they_are() {
    let dir = scratch("projection-kinds");
    let (docs, log) = hospital_snapshot(&dir);
    let base = [
        "analyze",
        docs.as_str(),
        "--queries",
        log.as_str(),
        "--target-storage",
        "3.6TB",
        "--format",
        "json",
    ];
    let r = json_with_keys(&base, &["/patientId", "/hospitalId,/patientId"]);
    let sample = &r["target"]["sample"];
    assert_eq!(sample["kind"], "snapshot", "{sample}");
    assert!(
        sample["why"].as_str().unwrap().starts_with("inferred: "),
        "{sample}"
    );
    assert_eq!(r["target"]["log_kind"]["kind"], "requests");
    // A patient seen twice by chance in a 1-in-120,000 share is one of 3 million: its
    // count earns nothing past Good–Turing's r* (no patient is seen three times), so it
    // stays near its own size, far under 1 MB.
    for key in ["/patientId", "/hospitalId,/patientId"] {
        let largest = candidate(&r, key)["storage"]["largest_logical_bytes"]
            .as_f64()
            .unwrap();
        assert!(largest < 1e6, "{key}: {largest}");
        assert!(!codes(candidate(&r, key)).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()));
    }
    // Told it is complete, the header says so and why.
    let mut flagged = base.to_vec();
    flagged.extend(["--sample", "complete", "--log-kind", "values"]);
    let r = json_with_keys(&flagged, &["/patientId"]);
    assert_eq!(r["target"]["sample"]["kind"], "complete");
    assert_eq!(r["target"]["sample"]["why"], "--sample");
    assert_eq!(r["target"]["log_kind"]["why"], "--log-kind");
    // The table's header states both.
    let out = pkadvisor()
        .args([
            "analyze",
            &docs,
            "--queries",
            &log,
            "--target-storage",
            "3.6TB",
        ])
        .args(["--key", "/patientId"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Sample: a snapshot"), "{text}");
    assert!(text.contains("the log, a share of the requests"), "{text}");
}

/// A pilot of `meters` smart meters over three utilities (60%, 30%, 10% of them), each
/// writing a ~110-byte reading every 15 minutes with a 30-day ttl: the pilot's last
/// `hours` as documents, and an hour of creates as a log, either every create of the pilot
/// (`pilot`) or one create of each of as many meters of the fleet, none of them the
/// pilot's.
fn meter_pilot(
    dir: &std::path::Path,
    (meters, hours): (usize, i64),
    pilot: bool,
) -> (String, String) {
    let utility = |m: usize| match m % 10 {
        0..=5 => "north",
        6..=8 => "lake",
        _ => "valley",
    };
    let reading = |m: usize, t: i64| {
        format!(
            r#"{{"id":"m{m}-{t}","meterId":"m{m:05}","utilityId":"{}","ts":{t},"kwh":0.{:04},"ttl":2592000}}"#,
            utility(m),
            (m * 7919 + t as usize) % 10_000
        )
    };
    let mut docs = String::new();
    for k in 0..4 * hours {
        for m in 0..meters {
            writeln!(docs, "{}", reading(m, k * 900 + (m as i64 % 300))).unwrap();
        }
    }
    let mut log = String::new();
    for k in 4 * hours..4 * hours + 4 {
        for m in 0..meters {
            let t = k * 900 + (m as i64 % 300);
            let fleet = 100_000 + (k - 4 * hours) as usize * meters + m;
            let meter = if pilot { m } else { fleet };
            writeln!(
                log,
                r#"{{"op":"create","ts":{t},"doc":{}}}"#,
                reading(meter, t)
            )
            .unwrap();
        }
    }
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, "log.ndjson", &log),
    )
}

#[test]
fn a_pilot_logged_whole_spreads_its_values_and_gathers_its_utilities() {
    let dir = scratch("projection-pilot");
    // 2,000 meters of 3 million: share 1/1,500. The fleet writes 3 million × 4 readings an
    // hour, 3,333 a second; at ~6 RU a create that is ~20,000 RU/s, which 3 million meters
    // hashed over the partitions spread evenly: /meterId needs about the ideal.
    let (docs, log) = meter_pilot(&dir, (2_000, 6), true);
    let base = [
        "analyze",
        docs.as_str(),
        "--queries",
        log.as_str(),
        "--log-share",
        "0.000666667",
        "--time-path",
        "/ts",
        "--target-storage",
        "1.7TB",
        "--format",
        "json",
    ];
    let keys = ["/meterId", "/utilityId"];
    let r = json_with_keys(&base, &keys);
    assert_eq!(r["target"]["sample"]["kind"], "complete", "{}", r["target"]);
    assert_eq!(r["target"]["log_kind"]["kind"], "values");
    // The unit is the meter: 2,000 values, the log's creates all on them.
    assert_eq!(r["target"]["unit"]["path"], "/meterId");
    assert_eq!(r["target"]["unit"]["values"], 2_000);
    let meter = candidate(&r, "/meterId");
    let eff = meter["cost"]["efficiency"].as_f64().unwrap();
    assert!(eff > 0.9, "efficiency {eff}");
    // A meter holds at most 30 days × 96 readings × ~110 bytes: well under 1 MB.
    let largest = meter["storage"]["largest_logical_bytes"].as_f64().unwrap();
    assert!(largest < 1e6, "{largest}");
    assert!(!codes(meter).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()));
    // A utility gathers meters: the north holds 60% of the fleet's 3 million meters, each
    // at most 2,880 readings (30 days) of the sample's mean size: ~0.5 TB, past 20 GB.
    let text = std::fs::read_to_string(&docs).unwrap();
    let mean = text.len() as f64 / text.lines().count() as f64;
    let north = 0.6 * 3e6 * 2880.0 * mean;
    let utility = candidate(&r, "/utilityId");
    let largest = utility["storage"]["largest_logical_bytes"]
        .as_f64()
        .unwrap();
    assert!((largest / north - 1.0).abs() < 0.25, "{largest} vs {north}");
    assert!(codes(utility).contains(&"LOGICAL_PARTITION_LIMIT".to_owned()));
    // The same hour's traffic logged as a share of the requests, one create from each of
    // as many of the fleet's meters, needs the same RU/s within 5%.
    let sampled_dir = scratch("projection-pilot-requests");
    let (_, sampled) = meter_pilot(&sampled_dir, (2_000, 6), false);
    let mut by_requests = base.to_vec();
    by_requests[3] = sampled.as_str();
    by_requests.extend(["--log-kind", "requests"]);
    let q = json_with_keys(&by_requests, &["/meterId"]);
    let (a, b) = (
        meter["cost"]["required_ru"].as_f64().unwrap(),
        candidate(&q, "/meterId")["cost"]["required_ru"]
            .as_f64()
            .unwrap(),
    );
    assert!((a / b - 1.0).abs() < 0.05, "values {a}, requests {b}");
    // --explain-value shows the arithmetic, and it adds up: a meter is complete, exact,
    // bounded by its rate × 30 days; the north is a snapshot's value whose rate is its
    // share of the container's.
    let explained = |key: &str, value: &str| {
        let mut args = base.to_vec();
        args.extend(["--explain", key, "--explain-value", value]);
        json_with_keys(&args, &keys)["values"][0]["arithmetic"].clone()
    };
    let m = explained("/meterId", "m00000");
    assert_eq!(
        (m["sample"].as_str(), m["closed"].as_bool()),
        (Some("complete"), Some(false))
    );
    let (sample, bytes) = (
        m["sample_bytes"].as_f64().unwrap(),
        m["bytes"].as_f64().unwrap(),
    );
    // Its 24 readings arrive over 23 × 900 + 299 = 20,999 s of arrivals; 30 days of them
    // hold 2,592,000 / 20,999 = ×123.4, the bound.
    assert!((m["bound"].as_f64().unwrap() - 123.43).abs() < 0.05, "{m}");
    assert!(
        (bytes / sample - m["growth"].as_f64().unwrap()).abs() < 0.01,
        "{m}"
    );
    assert_eq!(m["interval_bytes"][0], m["interval_bytes"][1]);
    let n = explained("/utilityId", "north");
    assert_eq!(n["sample"], "snapshot", "{n}");
    // Its rate: its share of the sample's bytes, of the container's write rate (the
    // timeline's ingest, the log's creates ÷ --log-share).
    let total = r["input"]["bytes"].as_f64().unwrap();
    let ingest = r["target"]["timeline"]["ingest_bytes_per_day"]
        .as_f64()
        .unwrap()
        / 86_400.0;
    let rate = n["sample_bytes"].as_f64().unwrap() / total * ingest;
    let got = n["rate_bytes_per_second"].as_f64().unwrap();
    assert!((got / rate - 1.0).abs() < 0.02, "{got} vs {rate}");
    // Its bytes are the ranking's largest logical partition for the key.
    let largest = candidate(&r, "/utilityId")["storage"]["largest_logical_bytes"]
        .as_f64()
        .unwrap();
    assert!(
        (n["bytes"].as_f64().unwrap() / largest - 1.0).abs() < 0.01,
        "{n}"
    );
    // Told the share is of utilities, a utility is a unit and stays its own size.
    let mut told = base.to_vec();
    told.extend(["--unit", "/utilityId"]);
    let u = json_with_keys(&told, &keys);
    let largest = candidate(&u, "/utilityId")["storage"]["largest_logical_bytes"]
        .as_f64()
        .unwrap();
    assert!(largest < 1e10, "{largest}");
}

#[test]
fn a_large_value_of_two_documents_hides_no_smaller_one_that_breaks() {
    // A: 2 documents of 75 KB (net of chance, nothing); B: 50 documents of 2 KB; 500 values
    // of 2 documents of 1 KB. B breaks the key at one size whatever the target.
    let dir = crate::util::scratch("projection-hidden");
    let mut text = String::new();
    let doc = |id: String, k: &str, pad: usize| {
        format!(
            "{{\"id\":\"{id}\",\"k\":\"{k}\",\"p\":\"{}\"}}\n",
            "x".repeat(pad)
        )
    };
    for i in 0..2 {
        text.push_str(&doc(format!("a{i}"), "A", 75_000));
    }
    for i in 0..50 {
        text.push_str(&doc(format!("b{i}"), "B", 2_000));
    }
    for i in 0..500 {
        for j in 0..2 {
            text.push_str(&doc(format!("c{i}-{j}"), &format!("v{i}"), 1_000));
        }
    }
    let docs = crate::util::write(&dir, "docs.ndjson", &text);
    let sizes: Vec<u64> = ["125GB", "300GB", "1TB"]
        .iter()
        .map(|t| {
            let r = crate::util::json(&[
                "analyze",
                &docs,
                "--key",
                "/k",
                "--target-storage",
                t,
                "--format",
                "json",
            ]);
            r["candidates"][0]["storage"]["max_container_bytes"]
                .as_u64()
                .expect("breaks")
        })
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{sizes:?}");
}
