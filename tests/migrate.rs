//! `pkadvisor migrate` on tests/data/migrate (planted collisions, regions past 20 GB): what
//! stops the copy, its RU and money by hand from the published charges, its duration under
//! two skews, and the partitions a raise leaves.

use crate::util::{pkadvisor, scratch, write};

const DOCS: &str = "tests/data/migrate/docs.ndjson";
const GB: f64 = 1e9;

/// The plan as JSON, and the exit code.
fn plan(extra: &[&str]) -> (serde_json::Value, i32) {
    let mut args = vec![
        "migrate",
        DOCS,
        "--from",
        "/customerId",
        "--target-storage",
        "100GB",
        "--throughput",
        "20000",
        "--format",
        "json",
    ];
    args.extend(extra);
    let out = pkadvisor().args(&args).output().expect("runs");
    let code = out.status.code().expect("exit code");
    assert!(
        code < 2,
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (serde_json::from_slice(&out.stdout).expect("JSON"), code)
}

fn f(v: &serde_json::Value, pointer: &str) -> f64 {
    v.pointer(pointer)
        .and_then(serde_json::Value::as_f64)
        .unwrap_or_else(|| panic!("{pointer} in {v}"))
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(f64::MIN_POSITIVE)
}

/// The fixture's documents: (bytes, scalar values) each, as the reader counts them.
fn documents() -> Vec<(f64, f64)> {
    let text = std::fs::read_to_string(DOCS).expect("fixture");
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let terms = v.as_object().unwrap().len() as f64;
            (l.len() as f64, terms)
        })
        .collect()
}

#[test]
fn planted_regions_past_20_gb_and_collisions_stop_the_copy_and_are_named() {
    let (p, code) = plan(&["--to", "/region"]);
    assert_eq!(code, 1, "the copy would fail");
    let breaches = p["preflight"]["breaches"].as_array().unwrap();
    let values: Vec<&str> = breaches
        .iter()
        .map(|b| b["value"].as_str().unwrap())
        .collect();
    // eu holds half the orders (50 GB at 100 GB), us 35%: both pass 20 GB; ap (15%) does not.
    assert_eq!(
        values,
        ["\"eu\"", "\"us\""],
        "in the order the copy meets them"
    );
    let docs = documents();
    let total: f64 = docs.iter().map(|d| d.0).sum();
    let text = std::fs::read_to_string(DOCS).unwrap();
    for (b, region) in breaches.iter().zip(["eu", "us"]) {
        let own: f64 = (text.lines())
            .filter(|l| l.contains(&format!("\"region\":\"{region}\"")))
            .map(|l| l.len() as f64)
            .sum();
        let bytes = own / total * 100.0 * GB;
        assert!(close(f(b, "/bytes"), bytes, 0.01), "{b} against {bytes}");
        // Customers are spread over the source's EPK space, so each region's items arrive
        // evenly through the copy: it stops near 20 GB over the region's bytes.
        let stops = f(b, "/stops_at");
        assert!((stops - 20.0 * GB / bytes).abs() < 0.08, "{b}: {stops}");
    }
    let c = &p["preflight"]["collisions"];
    let pairs: Vec<(String, u64)> = (c["pairs"].as_array().unwrap().iter())
        .map(|x| {
            (
                x["id"].as_str().unwrap().to_owned(),
                x["items"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(pairs, [("dup-a".to_owned(), 2), ("dup-b".to_owned(), 3)]);
    assert_eq!(c["sample_conflicts"], 3);
    assert_eq!(c["repeated"], 1, "dup-d exported twice is one item");
    let failures = p["failures"].as_array().unwrap();
    assert_eq!(
        failures.len(),
        2,
        "the first breach, the collisions: {failures:?}"
    );
    let first = failures[0].as_str().unwrap();
    assert!(
        first.contains("\"eu\"") && first.contains("403 substatus 1014"),
        "{first}"
    );
    assert!(
        first.ends_with("1 more value would stop it later"),
        "{first}"
    );
}

#[test]
fn a_key_that_keeps_values_small_and_ids_apart_copies() {
    let (p, code) = plan(&["--to", "/customerId,/orderId"]);
    assert_eq!(code, 0, "{}", p["failures"]);
    assert_eq!(p["preflight"]["breaches"].as_array().unwrap().len(), 0);
    assert_eq!(p["preflight"]["collisions"]["sample_pairs"], 0);
    assert_eq!(p["preflight"]["missing"]["documents"], 0);
}

#[test]
fn the_copys_ru_and_money_are_the_published_charges_by_hand() {
    let (p, _) = plan(&["--to", "/customerId,/orderId"]);
    let docs = documents();
    let total: f64 = docs.iter().map(|d| d.0).sum();
    let scale = 100.0 * GB / total;
    // Every document is under 1 KB: a point read is 1.00 RU, a create 4.95 RU for the
    // document and 0.2 RU for each indexed value (every path indexed).
    let read = docs.len() as f64 * 1.00 * scale;
    let write: f64 = docs.iter().map(|d| 4.95 + 0.2 * d.1).sum::<f64>() * scale;
    assert!(
        close(f(&p, "/copy/read_ru"), read, 0.01),
        "{} against {read}",
        p["copy"]
    );
    assert!(
        close(f(&p, "/copy/write_ru"), write, 0.01),
        "{} against {write}",
        p["copy"]
    );
    // The new container at 20,000 RU/s (manual, 0.008 USD per 100 RU/s-hour) for the
    // copy's whole clock hours.
    // A reservation covers steady throughput, not the copy's: the same list price.
    let (reserved, _) = plan(&["--to", "/customerId,/orderId", "--reserved", "1y"]);
    assert_eq!(reserved["copy"]["money"], p["copy"]["money"]);
    for (end, seconds) in [("low", "/copy/seconds/low"), ("high", "/copy/seconds/high")] {
        let hours = (f(&p, seconds) / 3600.0).ceil();
        let usd = 20_000.0 / 100.0 * 0.008 * hours;
        let got = f(&p, &format!("/copy/money/{end}"));
        assert!(close(got, usd, 0.01), "{end}: {got} against {usd}");
    }
}

#[test]
fn the_duration_is_bounded_by_the_hottest_partition_under_each_skew() {
    for (to, hottest) in [("/customerId,/orderId", 0.1), ("/region", 0.5)] {
        let (p, _) = plan(&["--to", to, "--copy-throughput", "100000"]);
        let c = &p["copy"];
        let partitions = f(c, "/copy_partitions");
        assert_eq!(partitions, 10.0, "100,000 RU/s: ten partitions of 10,000");
        let share = f(c, "/hottest_share");
        assert!(close(share, hottest, 0.02), "{to}: {share}");
        // The fast end: the busiest partition's share of the writes at 10,000 RU/s, unless
        // the source's reads take longer.
        let writes = f(c, "/write_ru") * share / 10_000.0;
        let low = f(c, "/seconds/low");
        match c["bound"].as_str() {
            Some("source reads") => assert!(low >= writes, "{to}: {low}"),
            _ => assert!(close(low, writes, 0.001), "{to}: {low} against {writes}"),
        }
        assert!(f(c, "/seconds/high") >= low);
        let bound = if share > 0.11 {
            "hottest partition"
        } else {
            "target RU/s"
        };
        assert_eq!(c["bound"], bound, "{to}");
    }
}

#[test]
fn a_raise_for_the_copy_splits_partitions_that_stay_after_it() {
    // 100 GB at 20,000 RU/s manual: four partitions of 25 GB. A raise to C RU/s splits
    // until each takes at most 10,000 (the engine's rule, as the service's), and lowering
    // merges nothing.
    for (copy, expected) in [("20000", 4), ("60000", 6), ("200000", 20)] {
        let (p, _) = plan(&["--to", "/customerId,/orderId", "--copy-throughput", copy]);
        let a = &p["after"];
        assert_eq!(a["workload_partitions"], 4, "{copy}");
        assert_eq!(p["copy"]["copy_partitions"], expected, "{copy}");
        assert_eq!(a["partitions"], expected, "{copy}: splits are not undone");
        if copy == "20000" {
            assert_eq!(
                a["created_at_copy_partitions"], 4,
                "no raise, one container"
            );
        }
        // 20,000 RU/s over the partitions left: under 3,000 each (and 20 GB) can merge back.
        let n = f64::from(expected);
        let merge = 20_000.0 / n < 3_000.0 && 100.0 / n < 20.0;
        assert_eq!(a["merge_possible"], merge, "{copy}");
    }
}

#[test]
fn the_declared_container_gives_the_source_key_its_throughput_and_its_ttl() {
    let dir = scratch("migrate-ttl");
    let template = std::fs::read_to_string("tests/data/infra/arm-nested.json").unwrap();
    let with_ttl = template.replacen(
        "\"partitionKey\":",
        "\"defaultTtl\": 86400, \"partitionKey\":",
        1,
    );
    let file = write(&dir, "arm.json", &with_ttl);
    let out = pkadvisor()
        .args([
            "migrate",
            "--container",
            &file,
            "fixtures/multitenant/docs.ndjson",
            "--to",
            "/tenantId,/userId",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let p: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(p["from"], "/tenantId");
    assert_eq!(p["preflight"]["default_ttl"], 86400);
    assert_eq!(f(&p, "/after/ru"), 20_000.0, "the template's throughput");
    let notes = p["notes"].to_string();
    assert!(
        notes.contains("defaultTtl (86400) is not copied"),
        "{notes}"
    );
}

#[test]
fn usage_errors_name_the_flag() {
    for (args, says) in [
        (
            vec!["--to", "/customerId"],
            "is the container's key already",
        ),
        (vec!["--to", "/region", "--key", "/x"], "not --key"),
        (
            vec!["--to", "/region", "--copy-throughput", "150"],
            "--copy-throughput",
        ),
        (
            vec!["--to", "/region", "--copy-throughput", "400"],
            "is below the 1,000 RU/s the new container needs at this size",
        ),
        (
            vec!["--to", "/region", "--online", "--online-surcharge", "11"],
            "--online-surcharge",
        ),
    ] {
        let mut all = vec!["migrate", DOCS, "--from", "/customerId"];
        all.extend(args);
        pkadvisor()
            .args(&all)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}

#[test]
fn the_plan_reads_the_same_in_markdown_and_hides_values_under_redact() {
    let out = pkadvisor()
        .args(["migrate", DOCS, "--from", "/customerId", "--to", "/region"])
        .args([
            "--target-storage",
            "100GB",
            "--format",
            "markdown",
            "--redact",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    for part in [
        "**FAIL  the copy would stop**",
        "### Preflight",
        "| values past 20 GB | 2: ",
        "### Copy",
        "### After the copy",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    for raw in ["\"eu\"", "\"us\"", "dup-a", "dup-b"] {
        assert!(!text.contains(raw), "{raw} printed under --redact: {text}");
    }
}

#[test]
fn the_readmes_plan_is_what_the_binary_prints() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let section = &readme[readme.find("## Changing a key: `migrate`").unwrap()..];
    let start = section.find("```text\n").unwrap() + "```text\n".len();
    let shown = &section[start..start + section[start..].find("```").unwrap()];
    let out = pkadvisor()
        .args(["migrate", "--container", "tests/data/infra/arm-nested.json"])
        .args(["fixtures/multitenant/docs.ndjson", "--queries"])
        .args([
            "fixtures/multitenant/queries.ndjson",
            "--to",
            "/tenantId,/userId",
        ])
        .args(["--target-storage", "60GB", "--copy-throughput", "100000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), shown);
}

#[test]
fn values_past_20_gb_together_beyond_chance_stop_the_copy() {
    // 400 devices of 50 documents each, about 25 GB each at 10 TB: each one's own count
    // (50 ± 14) cannot say it passes 20 GB, all 20,000 together do (the finding pools them).
    let dir = scratch("migrate-pooled");
    let mut text = String::new();
    for n in 0..20_000 {
        text.push_str(&format!(
            "{{\"id\":\"r{n}\",\"dev\":\"d{}\",\"site\":\"s{}\",\"p\":\"{}\"}}\n",
            n % 400,
            n % 997,
            "x".repeat(150)
        ));
    }
    let docs = write(&dir, "devices.ndjson", &text);
    let out = pkadvisor()
        .args(["migrate", &docs, "--from", "/site", "--to", "/dev"])
        .args([
            "--target-storage",
            "10TB",
            "--throughput",
            "100000",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let p: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let breaches = p["preflight"]["breaches"].as_array().unwrap();
    assert_eq!(breaches.len(), 400);
    assert!(breaches.iter().all(|b| b["beyond_chance"] == true));
    let first = p["failures"][0].as_str().unwrap();
    assert!(
        first.ends_with("399 more values would stop it later"),
        "{first}"
    );
    assert!(
        p["notes"].as_array().unwrap().len() < 10,
        "no note per value: {}",
        p["notes"]
    );
}
