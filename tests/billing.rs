//! Bills as Azure makes them, on workloads priced by hand from Microsoft's published rules:
//! splits as the service splits, writes by what they index, autoscale hour by hour, and the
//! rest of the bill (regions, consistency, serverless, reserved capacity).

use std::fmt::Write as _;

use crate::util::{candidate, codes, json, scratch, write};

/// `n` documents of about 1 KB with unique ids: a uniform key.
fn uniform_docs(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        writeln!(
            s,
            r#"{{"id":"u{i}","v":{},"body":"{}"}}"#,
            i % 97,
            "x".repeat(960)
        )
        .unwrap();
    }
    s
}

/// `n` creates of new ids over an hour, one a line.
fn uniform_writes(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let ts = 1_794_700_800 + (i * 3_600 / n) as i64;
        writeln!(
            s,
            r#"{{"op":"create","doc":{{"id":"w{i}","v":1}},"ts":{ts}}}"#
        )
        .unwrap();
    }
    s
}

#[test]
fn a_uniform_key_is_laid_out_evenly_at_round_sizes() {
    let dir = scratch("billing_round_sizes");
    let docs = write(&dir, "docs.ndjson", &uniform_docs(4_000));
    let log = write(&dir, "log.ndjson", &uniform_writes(16_000));
    let mut efficiencies = Vec::new();
    for size in ["99GB", "100GB", "101GB", "200GB", "400GB"] {
        let common = [
            "--queries",
            &log,
            "--target-storage",
            size,
            "--throughput",
            "400",
        ];
        let mut args = vec!["analyze", &docs, "--explain", "/id", "--format", "json"];
        args.extend(common);
        let map = json(&args);
        let parts = map["map"]["partitions"].as_array().unwrap();
        let bytes: Vec<f64> = parts.iter().map(|p| p["bytes"].as_f64().unwrap()).collect();
        let (lo, hi) = (
            bytes.iter().copied().fold(f64::MAX, f64::min),
            bytes.iter().copied().fold(0.0, f64::max),
        );
        assert!(hi <= 1.1 * lo, "{size}: partitions of {bytes:?}");
        // The same RU per GB on every partition: the writes land as the data lies.
        let total_ru: f64 = parts.iter().map(|p| p["ru"].as_f64().unwrap()).sum();
        let total_bytes: f64 = bytes.iter().sum();
        for p in parts {
            let per = p["ru"].as_f64().unwrap() / p["bytes"].as_f64().unwrap();
            let mean = total_ru / total_bytes;
            assert!(
                (per / mean - 1.0).abs() < 0.15,
                "{size}: {per} against {mean}"
            );
        }
        let mut args = vec!["analyze", &docs, "--key", "/id", "--format", "json"];
        args.extend(common);
        let r = json(&args);
        let c = candidate(&r, "/id");
        efficiencies.push(c["cost"]["efficiency"].as_f64().unwrap());
        assert!(
            !codes(c).contains(&"THROUGHPUT_SHORTFALL".to_owned()),
            "{size}: {:?}",
            c["findings"]
        );
    }
    let (lo, hi) = (
        efficiencies.iter().copied().fold(f64::MAX, f64::min),
        efficiencies.iter().copied().fold(0.0, f64::max),
    );
    // Before, 100, 200 and 400 GB needed 1.375–1.5× what 99 and 101 GB needed.
    assert!(hi <= 1.1 * lo, "efficiencies {efficiencies:?}");
}
