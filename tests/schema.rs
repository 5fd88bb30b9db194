//! Validates reports against `schema/report.schema.json` with a small validator of the
//! JSON Schema keywords the schema uses: `type`, `required`, `properties`,
//! `additionalProperties: false`, `items`, `enum`, `minimum`, `exclusiveMinimum`, `maximum`
//! and local `$ref`s. The schema is closed: every object it describes lists each property a
//! report may hold, so a field the report gains without the schema fails here.

use serde_json::Value;

use crate::util::{json, pkadvisor, scratch, write};

fn schema() -> Value {
    serde_json::from_str(include_str!("../schema/report.schema.json")).expect("schema is JSON")
}

fn type_ok(v: &Value, t: &str) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => false,
    }
}

/// Every violation of `schema` by `v`, with its JSON pointer.
pub fn validate(root: &Value, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let target = root
            .pointer(r.trim_start_matches('#'))
            .expect("ref resolves");
        return validate(root, target, v, at, errors);
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !types.iter().any(|t| type_ok(v, t)) {
            errors.push(format!("{at}: {v} is not {types:?}"));
            return;
        }
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array)
        && !e.contains(v)
    {
        errors.push(format!("{at}: {v} not in {e:?}"));
    }
    if let (Some(min), Some(x)) = (schema.get("minimum").and_then(Value::as_f64), v.as_f64())
        && x < min
    {
        errors.push(format!("{at}: {x} < {min}"));
    }
    if let (Some(min), Some(x)) = (
        schema.get("exclusiveMinimum").and_then(Value::as_f64),
        v.as_f64(),
    ) && x <= min
    {
        errors.push(format!("{at}: {x} <= {min}"));
    }
    if let (Some(max), Some(x)) = (schema.get("maximum").and_then(Value::as_f64), v.as_f64())
        && x > max
    {
        errors.push(format!("{at}: {x} > {max}"));
    }
    if let Some(obj) = v.as_object() {
        for r in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !obj.contains_key(r.as_str().unwrap()) {
                errors.push(format!("{at}: missing {r}"));
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (k, child) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => validate(root, s, child, &format!("{at}/{k}"), errors),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{at}: {k} is not a declared property"));
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, child) in arr.iter().enumerate() {
            validate(root, items, child, &format!("{at}/{i}"), errors);
        }
    }
}

/// Every violation of the report schema by `report`.
pub fn errors_of(report: &Value) -> Vec<String> {
    let s = schema();
    let mut errors = Vec::new();
    validate(&s, &s, report, "", &mut errors);
    errors
}

#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    let bad = serde_json::json!({"schema_version": "1.0", "tool": {"name": "other", "build": 1}, "candidates": [{"rank": 0}]});
    let errors = errors_of(&bad);
    assert!(
        errors.iter().any(|e| e.contains("missing \"input\"")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("/tool/name")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("/candidates/0/rank")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("/tool: build is not a declared property")),
        "{errors:?}"
    );
}

/// Every object schema in `schema` (by JSON pointer) that is not closed: without
/// `"additionalProperties": false` or without `properties`.
fn open_objects(schema: &Value, at: &str, open: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            let object = match map.get("type") {
                Some(Value::String(t)) => t == "object",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
                _ => false,
            };
            let closed = map.get("additionalProperties") == Some(&Value::Bool(false))
                && map.get("properties").is_some_and(Value::is_object);
            if object && !closed {
                open.push(at.to_owned());
            }
            for (k, v) in map {
                open_objects(v, &format!("{at}/{k}"), open);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                open_objects(v, &format!("{at}/{i}"), open);
            }
        }
        _ => {}
    }
}

#[test]
fn every_object_the_schema_describes_is_closed() {
    let mut open = Vec::new();
    open_objects(&schema(), "", &mut open);
    assert_eq!(open, Vec::<String>::new());
}

/// The report `pkadvisor ARGS` prints, whatever its exit code (a failed `check` exits 1
/// with a whole report).
fn report(args: &[&str]) -> Value {
    crate::util::verdict_json(args)
}

/// Whether `v` holds a value at the path `at` (property names, `*` for any element of an
/// array).
fn holds(v: &Value, at: &[&str]) -> bool {
    match at.split_first() {
        None => true,
        Some((&"*", rest)) => v
            .as_array()
            .is_some_and(|a| a.iter().any(|e| holds(e, rest))),
        Some((k, rest)) => v.get(*k).is_some_and(|c| holds(c, rest)),
    }
}

#[test]
fn reports_on_the_fixtures_validate_against_the_closed_schema() {
    const MT: &str = "fixtures/multitenant/docs.ndjson";
    const MT_LOG: &str = "fixtures/multitenant/queries.ndjson";
    const MONITOR: &str = "tests/data/monitor/storage.json";
    let dir = scratch("schema_fixtures");
    let profile = dir.join("mt.profile.zst").to_string_lossy().into_owned();
    let out = (pkadvisor().args(["profile", MT, "--key", "/tenantId", "--redact", "-o"]))
        .arg(&profile)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs: &[&[&str]] = &[
        &["analyze", MT, "--queries", MT_LOG, "--format", "json"],
        &[
            "analyze",
            MT,
            "--queries",
            MONITOR,
            "--current-key",
            "/tenantId,/userId",
            "--memory",
            "2MB",
            "--format",
            "json",
        ],
        &[
            "check",
            "--container",
            "tests/data/infra/arm-nested.json",
            MT,
            "--queries",
            MT_LOG,
            "--format",
            "json",
        ],
        &[
            "check",
            "--key",
            "/tenantId",
            MT,
            "--queries",
            MONITOR,
            "--format",
            "json",
        ],
        &[
            "analyze",
            "fixtures/iot/docs.ndjson",
            "--key",
            "/vin",
            "--key",
            "hash_suffix(/date,/vin,400)",
            "--time-path",
            "/ts",
            "--format",
            "json",
        ],
        &[
            "analyze",
            "fixtures/layouts/docs.ndjson",
            "--queries",
            "fixtures/layouts/queries.ndjson",
            "--layout",
            "spillover",
            "--layout",
            "lookup:/region=fixtures/layouts/regions.json",
            "--target-storage",
            "60GB",
            "--format",
            "json",
        ],
        &["analyze", "--profile", &profile, "--format", "json"],
    ];
    let reports: Vec<Value> = runs.iter().map(|args| report(args)).collect();
    for (args, r) in runs.iter().zip(&reports) {
        assert_eq!(errors_of(r), Vec::<String>::new(), "{args:?}");
    }
    // The optional parts of the report are among what was validated.
    for at in [
        "/recommendation/secondary_index/key/definition",
        "/input/monitor/largest_partitions/*/bytes",
        "/input/redacted",
        "/check/observed",
        "/check/best_alternative",
        "/candidates/*/cost/required_ru_unknown",
        "/candidates/*/key/definition/collections",
        "/candidates/*/findings/*/code",
    ] {
        let path: Vec<&str> = at.split('/').skip(1).collect();
        assert!(
            reports.iter().any(|r| holds(r, &path)),
            "no report holds {at}"
        );
    }
}

#[test]
fn analyze_reports_validate_against_the_schema() {
    let dir = scratch("schema_analyze");
    let mut docs = String::new();
    for i in 0..500 {
        docs.push_str(&format!(
            "{{\"id\":\"{i}\",\"t\":\"t{}\",\"u\":{},\"o\":{}}}\n",
            i % 7,
            i % 50,
            if i % 100 == 0 { "{}" } else { "1" }
        ));
    }
    let docs = write(&dir, "d.ndjson", &docs);
    let log = write(
        &dir,
        "q.ndjson",
        "SELECT * FROM c WHERE c.t = 't1'\n{\"op\":\"read\",\"id\":\"3\",\"known\":{\"/t\":\"t3\"}}\n",
    );
    let report = json(&[
        "analyze",
        &docs,
        "--queries",
        &log,
        "--key",
        "/t",
        "--key",
        "/t,/u",
        "--key",
        "/o",
        "--key",
        "concat(/t,/u)",
        "--key",
        "/id",
        "--format",
        "json",
    ]);
    assert_eq!(errors_of(&report), Vec::<String>::new());
    let auto = json(&["analyze", &docs, "--queries", &log, "--format", "json"]);
    assert_eq!(errors_of(&auto), Vec::<String>::new());
    assert!(auto["candidates"].as_array().unwrap().len() >= 2);
}

#[test]
fn migration_plans_validate_against_their_closed_schema() {
    let root: Value = serde_json::from_str(include_str!("../schema/migrate.schema.json"))
        .expect("schema is JSON");
    let docs = "tests/data/migrate/docs.ndjson";
    let base = ["migrate", docs, "--from", "/customerId", "--format", "json"];
    for extra in [
        &["--to", "/region", "--target-storage", "100GB"][..],
        &[
            "--to",
            "/customerId,/orderId",
            "--copy-throughput",
            "100000",
            "--online",
        ][..],
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let plan = report(&args);
        let mut errors = Vec::new();
        validate(&root, &root, &plan, "", &mut errors);
        assert!(errors.is_empty(), "{args:?}: {errors:?}");
    }
    let mut open = Vec::new();
    open_objects(&root, "", &mut open);
    assert_eq!(open, ["/properties/input/properties/monitor"]);
}
