//! Advice an expert would sign: a value past one partition's throughput is a violation,
//! hazards are priced and the workflow's own moves are refused, a key no document holds
//! fails, time-ranged writes are a hotspot by load, a sampled log is billed net of chance,
//! and `check` compares the declared key with every key given.

use std::fmt::Write as _;

use crate::util::{candidate, codes, json, pkadvisor, scratch, write};

/// RFC 3339 time `s` seconds into the log.
fn at(s: u64) -> String {
    format!(
        "2026-06-01T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// Bets on 50 markets; over 600 seconds market `m0` receives `hot_ru / 5.5` creates a
/// second, lines of 200 operations (each costs 4.95 RU for a document under 1 KB and 0.2
/// for each of its four indexed terms: 5.75); the other markets a trickle; users read
/// their bets.
fn betting(dir: &std::path::Path, hot_ru: f64) -> (String, String) {
    let mut docs = String::new();
    for i in 0..2_000 {
        writeln!(
            docs,
            r#"{{"id":"b{i}","marketId":"m{}","userId":"u{}","stake":{}}}"#,
            i % 50,
            i % 300,
            i % 97
        )
        .unwrap();
    }
    let mut log = String::new();
    let lines_per_second = hot_ru / 5.5 / 200.0;
    let mut due = 0.0;
    let mut n = 0;
    for s in 0..600u64 {
        due += lines_per_second;
        while due >= 1.0 {
            due -= 1.0;
            n += 1;
            writeln!(
                log,
                r#"{{"op":"create","doc":{{"id":"h{n}","marketId":"m0","userId":"u{}","stake":5}},"ts":"{}","count":200}}"#,
                n % 300,
                at(s)
            )
            .unwrap();
        }
        writeln!(
            log,
            r#"{{"op":"create","doc":{{"id":"c{s}","marketId":"m{}","userId":"u{}","stake":5}},"ts":"{}","count":5}}"#,
            1 + s % 49,
            s % 300,
            at(s)
        )
        .unwrap();
        writeln!(
            log,
            r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.userId = 'u{}'","ts":"{}","count":20}}"#,
            s % 300,
            at(s)
        )
        .unwrap();
    }
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, "log.ndjson", &log),
    )
}

fn analyze(docs: &str, log: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["analyze", docs, "--queries", log, "--format", "json", "-q"];
    args.extend(extra);
    json(&args)
}

#[test]
fn a_value_past_a_partitions_throughput_is_a_violation_at_any_throughput() {
    let dir = scratch("advice_hot_value");
    let (docs, log) = betting(&dir, 15_000.0);
    for throughput in ["400", "20000", "1000000"] {
        let keys = [
            "--key",
            "/marketId",
            "--key",
            "hash_suffix(/marketId,/id,16)",
        ];
        let mut extra = vec!["--target-storage", "100GB", "--throughput", throughput];
        extra.extend(keys);
        let r = analyze(&docs, &log, &extra);
        let market = candidate(&r, "/marketId");
        let f = (market["findings"].as_array().unwrap().iter())
            .find(|f| f["code"] == "LOGICAL_PARTITION_THROUGHPUT")
            .unwrap_or_else(|| panic!("{throughput}: {:?}", codes(market)));
        assert_eq!(f["severity"], "violation");
        let message = f["message"].as_str().unwrap();
        assert!(message.contains("\"m0\""), "{message}");
        // The figure: 15,000 / 5.5 creates a second of 5.75 RU, less at most two standard
        // deviations of its lines.
        let hot = 15_000.0 / 5.5 * (4.95 + 0.2 * 4.0);
        let ru: f64 = message
            .split(" needs ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((0.73 * hot..=1.035 * hot).contains(&ru), "{ru} of {hot}");
        // Spread by a suffix, no value passes the limit: it ranks first.
        let spread = candidate(&r, "hash_suffix(/marketId,/id,16)");
        assert!(!codes(spread).contains(&"LOGICAL_PARTITION_THROUGHPUT".to_owned()));
        assert_eq!(spread["rank"], 1);
    }
    // The gate refuses it whatever it is given.
    let out = (pkadvisor().args(["check", "--key", "/marketId", &docs, "--queries", &log]))
        .args(["--throughput", "1000000", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("LOGICAL_PARTITION_THROUGHPUT"));
}

#[test]
fn auto_mode_reports_the_cheapest_bucket_count_of_a_hot_values_suffix() {
    let dir = scratch("advice_suffix_buckets");
    let (docs, log) = betting(&dir, 15_000.0);
    // The market book is read too: the hot market's key is one the reads want.
    let mut text = std::fs::read_to_string(&log).unwrap();
    for s in 0..600u64 {
        writeln!(
            text,
            r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.marketId = 'm{}'","ts":"{}","count":20}}"#,
            s % 50,
            at(s)
        )
        .unwrap();
    }
    let log = write(&dir, "book.ndjson", &text);
    let extra = ["--target-storage", "100GB", "--throughput", "60000"];
    let r = analyze(&docs, &log, &extra);
    let all = r["candidates"].as_array().unwrap();
    let suffixes: Vec<&serde_json::Value> = (all.iter())
        .filter(|c| (c["key"]["spec"].as_str().unwrap()).starts_with("hash_suffix(/marketId,"))
        .collect();
    assert_eq!(suffixes.len(), 1, "{all:?}");
    let kept = suffixes[0]["key"]["spec"].as_str().unwrap();
    let origin = suffixes[0]["origin"].as_str().unwrap();
    let counts: Vec<u32> = (origin.split("the best ranked of ").nth(1))
        .unwrap_or_else(|| panic!("{origin}"))
        .trim_end_matches(" buckets")
        .split(", ")
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(
        counts.len() >= 2 && counts.windows(2).all(|w| w[0] * 2 == w[1]),
        "{counts:?}"
    );
    // Ranks stay 1, 2, 3, ... once the others are dropped.
    assert!(all.iter().enumerate().all(|(i, c)| c["rank"] == i + 1));
    // Given every count, the one auto mode kept ranks first among them.
    let by = kept.split(',').nth(1).unwrap();
    let specs: Vec<String> = (counts.iter())
        .map(|n| format!("hash_suffix(/marketId,{by},{n})"))
        .collect();
    let mut args: Vec<&str> = extra.to_vec();
    for s in &specs {
        args.extend(["--key", s]);
    }
    let given = analyze(&docs, &log, &args);
    let first = (given["candidates"].as_array().unwrap().iter())
        .find(|c| specs.iter().any(|s| c["key"]["spec"] == s.as_str()))
        .unwrap();
    assert_eq!(first["key"]["spec"], kept);
}

#[test]
fn a_value_within_a_partitions_throughput_is_no_violation() {
    let dir = scratch("advice_warm_value");
    let (docs, log) = betting(&dir, 5_000.0);
    let r = analyze(
        &docs,
        &log,
        &["--key", "/marketId", "--throughput", "100000"],
    );
    assert!(
        !codes(candidate(&r, "/marketId")).contains(&"LOGICAL_PARTITION_THROUGHPUT".to_owned())
    );
}

/// Trips created without a driver, most given one when a driver accepts.
fn rides(dir: &std::path::Path, accepted_per_mille: u64) -> (String, String) {
    let mut docs = String::new();
    let mut log = String::new();
    for i in 0..3_000u64 {
        writeln!(
            docs,
            r#"{{"id":"t{i}","riderId":"r{}","driverId":"d{}","city":"c{}"}}"#,
            i % 700,
            i % 400,
            i % 20
        )
        .unwrap();
        let s = i / 5;
        writeln!(
            log,
            r#"{{"op":"create","doc":{{"id":"n{i}","riderId":"r{}","city":"c{}"}},"ts":"{}"}}"#,
            i % 700,
            i % 20,
            at(s)
        )
        .unwrap();
        if i % 1_000 < accepted_per_mille {
            writeln!(
                log,
                r#"{{"op":"replace","doc":{{"id":"n{i}","riderId":"r{}","driverId":"d{}","city":"c{}"}},"ts":"{}"}}"#,
                i % 700,
                i % 400,
                i % 20,
                at(s + 30)
            )
            .unwrap();
        }
        writeln!(
            log,
            r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.riderId = 'r{}'","ts":"{}"}}"#,
            i % 700,
            at(s)
        )
        .unwrap();
    }
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, "log.ndjson", &log),
    )
}

#[test]
fn a_key_the_workflow_sets_after_creation_is_refused() {
    let dir = scratch("advice_moved");
    let (docs, log) = rides(&dir, 900);
    let r = analyze(&docs, &log, &["--key", "/driverId", "--key", "/riderId"]);
    let driver = candidate(&r, "/driverId");
    let f = (driver["findings"].as_array().unwrap().iter())
        .find(|f| f["code"] == "KEY_UPDATED")
        .expect("KEY_UPDATED");
    assert_eq!(f["severity"], "violation", "{f}");
    assert!(f["message"].as_str().unwrap().contains("not atomic"));
    assert_eq!(r["recommendation"]["spec"], "/riderId");
    let out = (pkadvisor().args([
        "check",
        "--key",
        "/driverId",
        &docs,
        "--queries",
        &log,
        "-q",
    ]))
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// Items created under `k` and replaced 30 seconds later, under another value of `k` when
/// `moved`, else under the same one.
fn renames(dir: &std::path::Path, moved: bool) -> (String, String) {
    let (mut docs, mut log) = (String::new(), String::new());
    for i in 0..2_000u64 {
        writeln!(
            docs,
            r#"{{"id":"n{i}","k":"a{}","body":"{}"}}"#,
            i % 400,
            "x".repeat(600)
        )
        .unwrap();
        let doc = |k: &str| {
            format!(
                r#"{{"id":"n{i}","k":"{k}{}","body":"{}"}}"#,
                i % 400,
                "x".repeat(600)
            )
        };
        writeln!(
            log,
            r#"{{"op":"create","doc":{},"ts":"{}"}}"#,
            doc("a"),
            at(i / 2)
        )
        .unwrap();
        let k = if moved { "b" } else { "a" };
        writeln!(
            log,
            r#"{{"op":"replace","doc":{},"ts":"{}"}}"#,
            doc(k),
            at(i / 2 + 30)
        )
        .unwrap();
    }
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, "log.ndjson", &log),
    )
}

#[test]
fn what_moves_cost_is_provisioned_as_well_as_charged() {
    let figures = |moved: bool| {
        let dir = scratch(if moved {
            "advice_renamed"
        } else {
            "advice_kept"
        });
        let (docs, log) = renames(&dir, moved);
        // One physical partition: the key needs what the log charges it, moves included.
        let one = ["--target-storage", "10GB", "--throughput", "4000"];
        let flags = [&["--key", "/k", "--log-share", "0.001"][..], &one].concat();
        let r = analyze(&docs, &log, &flags);
        assert_eq!(r["target"]["physical_partitions"], 1);
        let cost = &candidate(&r, "/k")["cost"];
        let per_op = cost["ru_per_operation"].as_f64().unwrap();
        (per_op, cost["required_ru"].as_f64().unwrap())
    };
    let (kept, renamed) = (figures(false), figures(true));
    // Each move is a read, a delete and a create where the log shows one replace.
    let charged = renamed.0 / kept.0;
    assert!(
        charged > 1.05,
        "moves add to the charges: {kept:?} {renamed:?}"
    );
    let provisioned = renamed.1 / kept.1;
    assert!(
        (provisioned / charged - 1.0).abs() < 0.02,
        "RU/s rise with the charges: {kept:?} {renamed:?}"
    );
}

#[test]
fn a_key_no_document_holds_fails_at_any_target() {
    let docs = "fixtures/multitenant/docs.ndjson";
    for target in ["1GB", "1TB"] {
        let out = (pkadvisor().args(["check", "--key", "/myPartitionKey", docs]))
            .args(["--target-storage", target, "--format", "json", "-q"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{target}");
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let c = candidate(&r, "/myPartitionKey");
        let f = (c["findings"].as_array().unwrap().iter())
            .find(|f| f["code"] == "MISSING_KEY")
            .expect("MISSING_KEY");
        assert_eq!(f["severity"], "violation");
    }
}

/// Ledger entries: the current quarter takes 78% of the writes, late corrections spread
/// over nine earlier quarters; accounts are many.
fn ledger(dir: &std::path::Path) -> (String, String) {
    let mut docs = String::new();
    let mut log = String::new();
    for i in 0..20_000u64 {
        let quarter = if i % 100 < 78 { 9 } else { i % 9 };
        let line = format!(
            r#"{{"id":"e{i}","accountId":"a{}","quarter":"q{quarter}","amount":{}}}"#,
            (i * 7_919) % 2_000,
            i % 1_000
        );
        writeln!(docs, "{line}").unwrap();
        writeln!(
            log,
            r#"{{"op":"create","doc":{line},"ts":"{}"}}"#,
            at(i / 20)
        )
        .unwrap();
    }
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, "log.ndjson", &log),
    )
}

#[test]
fn writes_that_load_one_time_range_are_a_hotspot_by_load() {
    let dir = scratch("advice_quarter");
    let (docs, log) = ledger(&dir);
    let r = analyze(
        &docs,
        &log,
        &[
            "--key",
            "/quarter",
            "--key",
            "/accountId",
            "--target-storage",
            "200GB",
        ],
    );
    let quarter = candidate(&r, "/quarter");
    assert!(
        codes(quarter).contains(&"WRITE_HOTSPOT".to_owned()),
        "{:?}",
        codes(quarter)
    );
    assert!(quarter["throughput"]["write_spread"].as_f64().unwrap() < 0.3);
    // Spread by its many values: only the partitions' unequal ranges (after splits) keep
    // it from chance.
    let account = candidate(&r, "/accountId");
    assert!(!codes(account).contains(&"WRITE_HOTSPOT".to_owned()));
    assert!(account["throughput"]["write_spread"].as_f64().unwrap() > 0.6);
}

/// A session store: reads and writes by session at a steady rate over 600 seconds; the
/// line `i` is kept in the 1% sample when its hash says so.
fn sessions(dir: &std::path::Path) -> (String, String, String) {
    let mut docs = String::new();
    for i in 0..3_000u64 {
        writeln!(
            docs,
            r#"{{"id":"s{i}","sessionId":"s{i}","userId":"u{}","data":"{}"}}"#,
            i % 500,
            "x".repeat(400)
        )
        .unwrap();
    }
    let (mut full, mut thin) = (String::new(), String::new());
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..100_000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let s = x % 3_000;
        let line = if i % 4 == 0 {
            format!(
                r#"{{"op":"upsert","doc":{{"id":"s{s}","sessionId":"s{s}","userId":"u{}","data":"{}"}},"ts":"{}"}}"#,
                s % 500,
                "y".repeat(400),
                at(i * 600 / 100_000)
            )
        } else {
            format!(
                r#"{{"op":"read","id":"s{s}","known":{{"/sessionId":"s{s}"}},"ts":"{}"}}"#,
                at(i * 600 / 100_000)
            )
        };
        writeln!(full, "{line}").unwrap();
        if (x >> 32).is_multiple_of(100) {
            writeln!(thin, "{line}").unwrap();
        }
    }
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, "full.ndjson", &full),
        write(dir, "thin.ndjson", &thin),
    )
}

#[test]
fn a_log_thinned_to_one_percent_bills_what_the_full_log_bills() {
    let dir = scratch("advice_thinned");
    let (docs, full, thin) = sessions(&dir);
    let keys = [
        "--key",
        "/sessionId",
        "--key",
        "/userId",
        "--target-storage",
        "50GB",
    ];
    let ru = |r: &serde_json::Value, spec: &str| {
        candidate(r, spec)["cost"]["required_ru"].as_f64().unwrap()
    };
    let whole = analyze(&docs, &full, &keys);
    let mut sampled_args = keys.to_vec();
    sampled_args.extend(["--log-share", "0.01"]);
    let sampled = analyze(&docs, &thin, &sampled_args);
    let (a, b) = (ru(&whole, "/sessionId"), ru(&sampled, "/sessionId"));
    assert!((b / a - 1.0).abs() < 0.10, "full {a}, 1% {b}");
    // Provisioned just above what the full log needs (in steps of 100, as manual
    // throughput is set): neither raises a shortfall.
    let given = format!("{}", (a * 1.05 / 100.0).ceil() * 100.0);
    let mut w = keys.to_vec();
    w.extend(["--throughput", &given]);
    let whole = analyze(&docs, &full, &w);
    w.extend(["--log-share", "0.01"]);
    let sampled = analyze(&docs, &thin, &w);
    for r in [&whole, &sampled] {
        let c = candidate(r, "/sessionId");
        assert!(
            !codes(c).contains(&"THROUGHPUT_SHORTFALL".to_owned()),
            "{:?}",
            codes(c)
        );
        assert!(
            !codes(c).contains(&"HOT_PARTITION".to_owned()),
            "{:?}",
            codes(c)
        );
    }
}

#[test]
fn check_compares_the_declared_key_with_every_key_given() {
    let out = (pkadvisor().args(["check", "--container", "tests/data/infra/arm-nested.json"]))
        .args([
            "fixtures/multitenant/docs.ndjson",
            "--queries",
            "fixtures/multitenant/queries.ndjson",
        ])
        .args(["--key", "/userId", "--auto", "1", "--format", "json", "-q"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let given = candidate(&r, "/userId");
    assert_eq!(given["role"], "given");
    assert!(r["check"]["cheapest_alternative"].is_string());
}

#[test]
fn an_upsert_that_moves_an_item_the_sample_holds_is_a_key_change() {
    let dir = scratch("advice_moved_from_sample");
    // Yesterday's snapshot holds 2,000 items; tonight's job upserts 500 of them, each
    // once, under tonight's date: every one moves an item the sample holds under another
    // value, though the log writes no item twice.
    let mut docs = String::new();
    for i in 0..2_000u64 {
        writeln!(
            docs,
            r#"{{"id":"i{i}","asOf":"2026-11-30","region":"r{}","qty":{i}}}"#,
            i % 10
        )
        .unwrap();
    }
    let mut log = String::new();
    let moved = 500u64;
    for i in 0..moved {
        writeln!(
            log,
            r#"{{"op":"upsert","doc":{{"id":"i{}","asOf":"2026-12-01","region":"r{}","qty":1}},"ts":{}}}"#,
            i * 4,
            i * 4 % 10,
            1_794_787_200 + i
        )
        .unwrap();
    }
    let docs = write(&dir, "docs.ndjson", &docs);
    let log = write(&dir, "log.ndjson", &log);
    let r = analyze(&docs, &log, &["--key", "/asOf", "--key", "/region"]);
    let snapshot = candidate(&r, "/asOf");
    let f = (snapshot["findings"].as_array().unwrap().iter())
        .find(|f| f["code"] == "KEY_UPDATED")
        .expect("KEY_UPDATED");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("{moved} logged writes")),
        "{message}"
    );
    assert!(
        message.contains(&format!("{moved} of the {moved} items")),
        "{message}"
    );
    assert_eq!(f["severity"], "violation", "{f}");
    // The same upserts keep each item's region: no move.
    assert!(!codes(candidate(&r, "/region")).contains(&"KEY_UPDATED".to_owned()));
}

/// A complete ten-minute log of bursts: every 20 seconds one user runs the same query
/// 1,000 times at one instant (and writes one item), written `per_line` operations a line
/// (the same operations, grouped differently); and 2,000 documents of 200 users.
fn bursts(dir: &std::path::Path, per_line: u64) -> (String, String) {
    let mut docs = String::new();
    for i in 0..2_000u64 {
        writeln!(
            docs,
            r#"{{"id":"e{i}","userId":"u{}","sessionId":"s{}","data":"{}"}}"#,
            i % 200,
            i % 700,
            "x".repeat(300)
        )
        .unwrap();
    }
    // Two writes mark the log's span, whole windows from its first second to its last.
    let mut log = String::new();
    for (i, ts) in ["2026-06-01T00:00:00Z", "2026-06-01T00:09:59.999Z"]
        .iter()
        .enumerate()
    {
        writeln!(
            log,
            r#"{{"op":"create","doc":{{"id":"m{i}","userId":"u{i}","sessionId":"m{i}"}},"ts":"{ts}"}}"#
        )
        .unwrap();
    }
    for burst in 0..30u64 {
        let user = burst * 37 % 200;
        // A write a burst, so that the log's rates are the traffic's.
        writeln!(
            log,
            r#"{{"op":"create","doc":{{"id":"n{burst}","userId":"u{user}","sessionId":"s{burst}"}},"ts":"{}"}}"#,
            at(burst * 20 + 10)
        )
        .unwrap();
        let mut left = 1_000u64;
        while left > 0 {
            let n = left.min(per_line);
            writeln!(
                log,
                r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.userId = @u","parameters":[{{"name":"@u","value":"u{user}"}}],"ts":"{}","count":{n}}}"#,
                at(burst * 20 + 10)
            )
            .unwrap();
            left -= n;
        }
    }
    let log_name = format!("bursts-{per_line}.ndjson");
    (
        write(dir, "docs.ndjson", &docs),
        write(dir, &log_name, &log),
    )
}

#[test]
fn a_bill_is_the_same_however_the_log_groups_its_requests_into_lines() {
    let dir = scratch("advice_grouping");
    let keys = [
        "--key",
        "/userId",
        "--key",
        "/sessionId",
        "--target-storage",
        "300GB",
        "--throughput",
        "400",
    ];
    let figures = |share: &[&str]| -> Vec<[f64; 2]> {
        [1u64, 10, 1_000]
            .iter()
            .map(|&per_line| {
                let (docs, log) = bursts(&dir, per_line);
                let mut args = keys.to_vec();
                args.extend(["--log-share"]);
                args.extend(share);
                let r = analyze(&docs, &log, &args);
                let c = candidate(&r, "/userId");
                let load = c["cost"]["load_ru"].as_f64().unwrap();
                if share == ["1"] {
                    // Each 20-second window holds one burst, all of it on the partition of
                    // its user. A complete log is billed as logged: the key needs
                    // partitions × the burst's RU over 20 seconds, with nothing taken off
                    // for chance (load_ru is whole RU/s).
                    let parts = c["storage"]["physical_partitions"].as_f64().unwrap();
                    let burst = c["cost"]["ru_per_operation"].as_f64().unwrap() * 1_001.0;
                    let logged = parts * burst / 20.0;
                    assert!(
                        (load - logged).abs() <= 1.0 + 0.005 * logged,
                        "{per_line} a line: {load} RU/s against {logged} as logged"
                    );
                }
                let fanned = candidate(&r, "/sessionId")["cost"]["load_ru"].as_f64();
                [load, fanned.unwrap()]
            })
            .collect()
    };
    // A log of a share of the values keeps each value's requests whole: there too the
    // grouping moves nothing.
    for share in [&["1"][..], &["0.5"], &["0.5", "--log-kind", "values"]] {
        let f = figures(share);
        for (i, key) in ["/userId", "/sessionId"].iter().enumerate() {
            for g in &f[1..] {
                assert!(
                    (g[i] / f[0][i] - 1.0).abs() <= 0.02,
                    "{key} at --log-share {share:?}: one a line {}, grouped {}",
                    f[0][i],
                    g[i]
                );
            }
        }
    }
}

/// 4,000 sessions, and a log of 30 of them each patched 400 times at one instant within ten
/// minutes, written 400 lines of one request (`per_line` 1) or one line of `count` 400.
fn session_bursts(dir: &std::path::Path, per_line: u64) -> (String, String) {
    let mut docs = String::new();
    for i in 0..4_000u64 {
        writeln!(
            docs,
            r#"{{"id":"s{i:05}","k":"s{i:05}","pad":"{}"}}"#,
            "x".repeat(300)
        )
        .unwrap();
    }
    let mut log = String::new();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..30 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (s, t) = (x % 4_000, (x >> 32) % 600);
        for _ in 0..400 / per_line {
            writeln!(
                log,
                r#"{{"op":"patch","id":"s{s:05}","known":{{"/k":"s{s:05}"}},"ts":"{}","count":{per_line}}}"#,
                at(t)
            )
            .unwrap();
        }
    }
    let name = format!("session-bursts-{per_line}.ndjson");
    (write(dir, "docs.ndjson", &docs), write(dir, &name, &log))
}

#[test]
fn a_log_of_values_bills_the_same_however_its_lines_group_a_values_requests() {
    // A log of half the values kept each session whole: its unit is the session, however
    // its 400 requests were written. Counted a line at a time, the same requests billed
    // 1,969 RU/s one a line and 1,807 as one line.
    let dir = scratch("advice_value_grouping");
    let load = |per_line: u64| {
        let (docs, log) = session_bursts(&dir, per_line);
        let args = [
            "--key",
            "/k",
            "--log-share",
            "0.5",
            "--log-kind",
            "values",
            "--sample",
            "snapshot",
            "--target-storage",
            "200GB",
        ];
        let r = analyze(&docs, &log, &args);
        candidate(&r, "/k")["cost"]["load_ru"].as_f64().unwrap()
    };
    let (one, grouped) = (load(1), load(400));
    assert!(
        (grouped / one - 1.0).abs() <= 0.02,
        "one a line {one} RU/s, grouped {grouped}"
    );
}
