//! When a key breaks, as a date: generated data whose values take known shares of the
//! ingest, projected forward at `--growth` or the log's creates.

use std::fmt::Write as _;

use crate::util::{by_device, candidate, json, pkadvisor, scratch, write};

/// 20 devices over 10 days, every device writing throughout; device `d0` writes
/// `heavy` times as many readings as each other. Returns the documents and d0's share of
/// the bytes.
fn fleet(heavy: usize) -> (String, f64) {
    let start = 1_793_491_200i64; // 2026-11-01T00:00:00Z
    let mut s = String::new();
    let (mut d0, mut all) = (0.0, 0.0);
    let mut i = 0;
    for step in 0..1_000i64 {
        let t = start + step * 864;
        for device in 0..20 {
            for _ in 0..if device == 0 { heavy } else { 1 } {
                let line = format!(
                    r#"{{"id":"r{i}","deviceId":"d{device}","ts":{t},"v":{}}}"#,
                    i % 97
                );
                all += line.len() as f64;
                if device == 0 {
                    d0 += line.len() as f64;
                }
                writeln!(s, "{line}").unwrap();
                i += 1;
            }
        }
    }
    (s, d0 / all)
}

const GB: f64 = 1e9;

/// Days from 2027-01-01 to `day` (YYYY-MM-DD, in 2027).
fn days_into_2027(day: &str) -> f64 {
    let d: jiff::civil::Date = day.parse().unwrap();
    jiff::civil::date(2027, 1, 1)
        .duration_until(d)
        .as_secs_f64()
        / 86_400.0
}

fn timeline_of(docs: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "analyze",
        docs,
        "--key",
        "/deviceId",
        "--time-path",
        "/ts",
        "--as-of",
        "2027-01-01",
        "--format",
        "json",
    ];
    args.extend(extra);
    json(&args)
}

#[test]
fn a_key_breaks_on_the_day_its_largest_value_passes_20_gb_at_the_growth_given() {
    let dir = scratch("timeline_growth");
    let (text, share) = fleet(5);
    let docs = write(&dir, "docs.ndjson", &text);
    // d0 holds `share` of every byte: 20 GB once the container holds 20 GB / share.
    let r = timeline_of(
        &docs,
        &["--target-storage", "20GB", "--growth", "30GB/month"],
    );
    let errors = crate::schema::errors_of(&r);
    assert!(errors.is_empty(), "{errors:?}");
    let basis = &r["target"]["timeline"];
    assert_eq!(basis["ingest_from"], "growth");
    assert_eq!(basis["dated_from"], "as-of");
    let per_day = 30.0 * GB / 30.0;
    assert!((basis["ingest_bytes_per_day"].as_f64().unwrap() - per_day).abs() < 1.0);
    let want = (20.0 * GB / share - 20.0 * GB) / per_day;
    let t = &candidate(&r, "/deviceId")["timeline"];
    assert_eq!(t["from"], "2027-01-01");
    let got = days_into_2027(t["breaks_on"].as_str().unwrap());
    assert!(
        (got - want).abs() <= 0.05 * want + 1.0,
        "{got} vs {want} days"
    );
    // The bill after 12 months pays for the storage of nine more months than after 3.
    let gb_month = r["target"]["prices"]["gb_month"].as_f64().unwrap();
    let m = &t["monthly_at"];
    let more = m["12"].as_f64().unwrap() - m["3"].as_f64().unwrap();
    let days = jiff::civil::date(2027, 4, 1)
        .duration_until(jiff::civil::date(2028, 1, 1))
        .as_secs_f64()
        / 86_400.0;
    let want_more = per_day * days / GB * gb_month;
    assert!(
        (more - want_more).abs() <= 0.01 * want_more,
        "{more} vs {want_more}"
    );
    // From a smaller start the same size is reached later by the difference over the rate.
    let r = timeline_of(
        &docs,
        &[
            "--target-storage",
            "20GB",
            "--start-storage",
            "10GB",
            "--growth",
            "30GB/month",
        ],
    );
    let later = days_into_2027(
        candidate(&r, "/deviceId")["timeline"]["breaks_on"]
            .as_str()
            .unwrap(),
    );
    let want = want + 10.0 * GB / per_day;
    assert!(
        (later - want).abs() <= 0.05 * want + 1.0,
        "{later} vs {want}"
    );
}

#[test]
fn the_logs_creates_give_the_ingest_unless_growth_overrides_it() {
    let dir = scratch("timeline_log");
    let (text, share) = fleet(5);
    let docs = write(&dir, "docs.ndjson", &text);
    // An hour of creates, one line every ten seconds standing for 1,000 writes of 100 B.
    let doc = format!(
        r#"{{"id":"n","deviceId":"d3","ts":1794355200,"v":"{}"}}"#,
        "x".repeat(50)
    );
    let mut log = String::new();
    for i in 0..360 {
        let t = 1_794_355_200 + i * 10;
        writeln!(
            log,
            r#"{{"op":"create","doc":{doc},"ts":{t},"count":1000}}"#
        )
        .unwrap();
    }
    let log = write(&dir, "log.ndjson", &log);
    let per_day = doc.len() as f64 * 360_000.0 / 3_590.0 / 0.1 * 86_400.0;
    let logged = [
        "--queries",
        &log,
        "--log-share",
        "0.1",
        "--target-storage",
        "20GB",
    ];
    let r = by_device(&docs, &logged);
    let basis = &r["target"]["timeline"];
    assert_eq!(basis["ingest_from"], "log");
    // Dated from the log's last timestamp: 2026-11-11.
    assert_eq!(basis["dated_from"], "log");
    assert_eq!(basis["from"], "2026-11-11");
    let got = basis["ingest_bytes_per_day"].as_f64().unwrap();
    assert!(
        (got - per_day).abs() <= 0.01 * per_day,
        "{got} vs {per_day}"
    );
    let t = &candidate(&r, "/deviceId")["timeline"];
    let on: jiff::civil::Date = t["breaks_on"].as_str().unwrap().parse().unwrap();
    let days = jiff::civil::date(2026, 11, 11)
        .duration_until(on)
        .as_secs_f64()
        / 86_400.0;
    let want = (20.0 * GB / share - 20.0 * GB) / per_day;
    assert!((days - want).abs() <= 0.05 * want + 1.0, "{days} vs {want}");
    // --growth overrides the log.
    let r = by_device(&docs, &[&logged[..], &["--growth", "1TB/year"]].concat());
    assert_eq!(r["target"]["timeline"]["ingest_from"], "growth");
    let got = r["target"]["timeline"]["ingest_bytes_per_day"]
        .as_f64()
        .unwrap();
    assert!((got - 1e12 / 365.0).abs() < 1.0, "{got}");
}

#[test]
fn a_value_that_expires_settles_and_never_breaks() {
    let dir = scratch("timeline_ttl");
    let (text, _) = fleet(5);
    let docs = write(&dir, "docs.ndjson", &text);
    for target in ["20GB", "50TB"] {
        let r = timeline_of(
            &docs,
            &[
                "--target-storage",
                target,
                "--growth",
                "100GB/day",
                "--retention",
                "30d",
            ],
        );
        let errors = crate::schema::errors_of(&r);
        assert!(errors.is_empty(), "{errors:?}");
        let basis = &r["target"]["timeline"];
        // The container settles at 30 days of ingest (never below where it starts).
        let start = basis["start_bytes"].as_f64().unwrap();
        let settles = basis["settles_bytes"].as_f64().unwrap();
        let want = (100.0 * GB * 30.0).max(start);
        assert!((settles - want).abs() <= 1.0, "{settles} vs {want}");
        let c = candidate(&r, "/deviceId");
        assert!(c["timeline"]["breaks_on"].is_null(), "{target}: {c}");
    }
}

#[test]
fn the_same_input_gives_the_same_dates_and_a_date_in_the_table() {
    let dir = scratch("timeline_same");
    let (text, _) = fleet(5);
    let docs = write(&dir, "docs.ndjson", &text);
    let run = |format: &str| {
        let out = pkadvisor()
            .args(["analyze", &docs, "--key", "/deviceId", "--time-path", "/ts"])
            .args([
                "--target-storage",
                "20GB",
                "--growth",
                "30GB/month",
                "--wide",
            ])
            .args(["--format", format])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (run("json"), run("json"));
    assert_eq!(a, b);
    // Dated from the sample's latest --time-path value (2026-11-10), as the header says.
    let r: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert_eq!(r["target"]["timeline"]["dated_from"], "time-path");
    let day = candidate(&r, "/deviceId")["timeline"]["breaks_on"]
        .as_str()
        .unwrap()
        .to_owned();
    let html = run("html");
    assert!(
        html.contains(&format!("passes 20 GB on <strong>{day}</strong>")),
        "{day} missing from the HTML timeline"
    );
    let table = run("table");
    assert!(
        crate::util::flat(&table).contains("Timeline from 2026-11-10 (the sample's last day)"),
        "{table}"
    );
    assert!(table.contains(&day), "{day} missing from\n{table}");
}

#[test]
fn check_fails_a_key_that_breaks_within_the_horizon_and_says_when() {
    let dir = scratch("timeline_horizon");
    let (text, _) = fleet(5);
    let docs = write(&dir, "docs.ndjson", &text);
    let check = |horizon: &str| {
        pkadvisor()
            .args(["check", &docs, "--key", "/deviceId", "--time-path", "/ts"])
            .args(["--target-storage", "20GB", "--growth", "30GB/month"])
            .args([
                "--as-of",
                "2027-01-01",
                "--min-score",
                "0",
                "--max-cost-ratio",
                "1000",
            ])
            .args(["--horizon", horizon, "--format", "json"])
            .output()
            .unwrap()
    };
    let r = by_device(
        &docs,
        &[
            "--target-storage",
            "20GB",
            "--growth",
            "30GB/month",
            "--as-of",
            "2027-01-01",
        ],
    );
    let on = candidate(&r, "/deviceId")["timeline"]["breaks_on"]
        .as_str()
        .unwrap()
        .to_owned();
    let days = days_into_2027(&on);
    // A horizon past the day fails and names it; one short of it passes.
    let out = check(&format!("{}d", days.ceil() + 1.0));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reasons = v["check"]["reasons"].to_string();
    assert!(
        reasons.contains(&format!("breaks on {on}, within --horizon")),
        "{reasons}"
    );
    let out = check(&format!("{}d", (days - 2.0).max(1.0)));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        !v["check"]["reasons"].to_string().contains("--horizon"),
        "{v}"
    );
    // Without an ingest there is no date to gate on: an error, exit 2.
    let out = pkadvisor()
        .args(["check", &docs, "--key", "/deviceId", "--horizon", "3y"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--horizon needs"));
}

#[test]
fn explain_follows_the_largest_values_month_by_month() {
    let dir = scratch("timeline_explain");
    let (text, share) = fleet(5);
    let docs = write(&dir, "docs.ndjson", &text);
    let out = pkadvisor()
        .args([
            "analyze",
            &docs,
            "--explain",
            "/deviceId",
            "--time-path",
            "/ts",
        ])
        .args(["--target-storage", "20GB", "--growth", "30GB/month"])
        .args(["--as-of", "2027-01-01"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        crate::util::flat(&text).contains("Growth of /deviceId's largest values from 2027-01-01"),
        "{text}"
    );
    // Month 12: the container holds 20 GB + 365 days of 1 GB, d0 its share of it.
    let row = (text.lines())
        .find(|l| l.trim_start().starts_with("12  2028-01-01"))
        .unwrap_or_else(|| panic!("no month 12 in\n{text}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    let gb = |value: &str, unit: &str| {
        assert_eq!(unit, "GB", "{row}");
        value.parse::<f64>().unwrap()
    };
    let container = gb(cells[2], cells[3]);
    assert!((container - 385.0).abs() < 0.1, "{row}");
    let d0 = gb(cells[4], cells[5]);
    assert!(
        (d0 - share * 385.0).abs() <= 0.05 * share * 385.0,
        "{row}: {share}"
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("36  2030-01-01"))
    );
}
