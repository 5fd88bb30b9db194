//! Validates reports against `schema/report.schema.json` with a small validator of the
//! JSON Schema keywords the schema uses: `type`, `required`, `properties`, `items`,
//! `enum`, `minimum`, `exclusiveMinimum`, `maximum` and local `$ref`s.

use serde_json::Value;

use crate::util::{json, scratch, write};

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
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, s) in props {
                if let Some(child) = obj.get(k) {
                    validate(root, s, child, &format!("{at}/{k}"), errors);
                }
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
    let bad = serde_json::json!({"schema_version": "1.0", "tool": {"name": "other"}, "candidates": [{"rank": 0}]});
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
