use assert_cmd::Command;
use predicates::prelude::*;

use pkadvisor::engine::{KeyPath, PartitionKeyDefinition, PartitionKind, PkValue};

fn pkadvisor() -> Command {
    Command::cargo_bin("pkadvisor").expect("binary built")
}

/// Converts a vector value: `{"$undefined": true}` is undefined, numbers go through their
/// JSON text so that integer literals convert as the SDKs do.
fn vector_value(v: &serde_json::Value) -> PkValue {
    if v.get("$undefined").is_some() {
        return PkValue::Undefined;
    }
    PkValue::parse_literal(&v.to_string()).expect("vector value is a key value")
}

#[test]
fn every_golden_vector_matches() {
    let text = include_str!("data/epk-vectors.json");
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 64);
    for case in cases {
        let desc = case["desc"].as_str().unwrap();
        let kind = match case["kind"].as_str().unwrap() {
            "Hash" => PartitionKind::Hash,
            _ => PartitionKind::MultiHash,
        };
        let paths: Vec<KeyPath> = case["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| KeyPath::parse(p.as_str().unwrap()).unwrap())
            .collect();
        let version = case["version"].as_u64().unwrap() as u8;
        let def = PartitionKeyDefinition::new(paths, kind, version).unwrap();
        let values: Vec<PkValue> = case["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(vector_value)
            .collect();
        let refs: Vec<_> = values.iter().map(PkValue::as_ref).collect();
        let range = def.range(&refs).unwrap();
        assert_eq!(
            range.min.to_hex(),
            case["epk"].as_str().unwrap().to_uppercase(),
            "{desc}"
        );
        if let Some(max) = case.get("epk_max") {
            assert_eq!(
                range.max.to_hex(),
                max.as_str().unwrap().to_uppercase(),
                "{desc}"
            );
        }
    }
}

#[test]
fn the_cli_prints_the_epk_of_the_vectors() {
    pkadvisor()
        .args(["epk", "\"redmond\""])
        .assert()
        .success()
        .stdout("22E342F38A486A088463DFF7838A5963\n");
    pkadvisor()
        .args(["epk", "\"redmond\"", "--version", "1"])
        .assert()
        .success()
        .stdout("05C1EFE313830C087366656E706F6500\n");
    pkadvisor()
        .args(["epk", "-1", "--version", "1"])
        .assert()
        .success()
        .stdout("05C1D1A5BDDF9C054010\n");
    pkadvisor()
        .args(["epk", "\"tenant1\"", "\"user1\"", "--kind", "multihash"])
        .assert()
        .success()
        .stdout("0DAE0B8467B011E957BC0B8B0DEB5ACA236A5BE3329A7AD57D4B998E8602BD7B\n");
    pkadvisor()
        .args(["epk", "\"tenant1\"", "--kind", "multihash", "--paths", "2"])
        .assert()
        .success()
        .stdout("0DAE0B8467B011E957BC0B8B0DEB5ACA 0DAE0B8467B011E957BC0B8B0DEB5ACAFF\n");
    pkadvisor()
        .args(["epk", "\"t\"", "\"u\"", "undefined", "--kind", "multihash"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "11622DAA78F835834610ABE56EFF5CB5\n",
        ));
}

#[test]
fn integer_minus_zero_is_plus_zero_but_float_minus_zero_is_not() {
    let zero = pkadvisor().args(["epk", "0"]).output().unwrap().stdout;
    let int_neg = pkadvisor().args(["epk", "-0"]).output().unwrap().stdout;
    let float_neg = pkadvisor().args(["epk", "-0.0"]).output().unwrap().stdout;
    assert_eq!(
        String::from_utf8_lossy(&zero),
        "155B95BEDAC4B1E9EC1CDC9BB0DDDE58\n"
    );
    assert_eq!(zero, int_neg);
    assert_ne!(zero, float_neg);
}

#[test]
fn bad_input_exits_2_with_one_clear_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["epk", "redmond"], "not a JSON literal"),
        (&["epk", "{\"a\":1}"], "never objects or arrays"),
        (&["epk", "[1,2]"], "never objects or arrays"),
        (&["epk", "1", "2"], "2 values given but the key has 1 path"),
        (
            &["epk", "1", "2", "3", "4", "--kind", "multihash"],
            "at most 3 paths",
        ),
        (
            &["epk", "1", "--kind", "multihash", "--paths", "4"],
            "at most 3 paths",
        ),
        (
            &["epk", "1", "--kind", "multihash", "--version", "1"],
            "always version 2",
        ),
        (
            &["epk", "1", "2", "--kind", "multihash", "--paths", "1"],
            "2 values given",
        ),
        (&["epk", "1", "--paths", "2"], "exactly one path"),
        (&["epk", "1", "--version", "3"], "--version"),
    ];
    for (args, message) in cases {
        let out = pkadvisor().args(*args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.get_output().stdout.is_empty());
    }
}

#[test]
fn negative_numbers_in_exponent_form_are_values_not_options() {
    let epk = |args: &[&str]| {
        let out = pkadvisor().args(args).assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    for value in ["-1e+308", "-2.5E-7", "-1e308", "-0.5"] {
        let guarded = epk(&["epk", "--", value]);
        assert_eq!(epk(&["epk", value]), guarded, "{value}");
        assert_eq!(
            epk(&["epk", value, "--version", "1"]),
            epk(&["epk", "--version", "1", "--", value]),
            "{value}"
        );
    }
    // Options stay options, and a value that is no number is still an error.
    pkadvisor().args(["epk", "-x"]).assert().code(2);
    pkadvisor().args(["epk", "-1e+308", "-q"]).assert().code(2);
}
