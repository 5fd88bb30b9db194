//! Terraform's JSON configuration syntax (`.tf.json`) read into the blocks the HCL files of
//! a module give: `resource` and `data` (`{"TYPE": {"NAME": {...}}}`), `variable`,
//! `output`, `module` and `provider` (`{"NAME": {...}}`) and `locals` (`{...}`). A string
//! holding `${` is a template, as Terraform reads it; an object or a list of objects under
//! the name of a nested block a container resource takes is that block.

use hcl::{Attribute, Block, Body, Expression, Identifier, ObjectKey, Structure, TemplateExpr};
use serde_json::Value;

/// The nested blocks of the resources read (Azure's container and database, and their
/// indexing policies), which the JSON syntax writes as objects.
const NESTED: [&str; 11] = [
    "autoscale_settings",
    "indexing_policy",
    "included_path",
    "excluded_path",
    "composite_index",
    "index",
    "spatial_index",
    "unique_key",
    "conflict_resolution_policy",
    "timeouts",
    "lifecycle",
];

/// The blocks of the `.tf.json` text of `file`.
pub fn body(file: &str, text: &str) -> Result<Body, String> {
    let v: Value = crate::json_error::parse_file(file, text, "Terraform JSON configuration")?;
    let Value::Object(top) = v else {
        return Err(format!(
            "{file}: Terraform JSON configuration is one object"
        ));
    };
    let mut out = Vec::new();
    for (kind, v) in &top {
        let labels = match kind.as_str() {
            "resource" | "data" => 2,
            "variable" | "output" | "module" | "provider" => 1,
            "locals" => 0,
            _ => continue,
        };
        blocks(kind, v, labels, &mut Vec::new(), &mut out);
    }
    Ok(Body(out))
}

/// The blocks of `kind` in `v`, which nests `labels` more levels of names (`names` so far).
fn blocks(kind: &str, v: &Value, labels: usize, names: &mut Vec<String>, out: &mut Vec<Structure>) {
    if labels == 0 {
        for each in one_or_many(v) {
            if let Value::Object(m) = each {
                out.push(Structure::Block(Block {
                    identifier: Identifier::sanitized(kind),
                    labels: names
                        .iter()
                        .map(|n| hcl::BlockLabel::String(n.clone()))
                        .collect(),
                    body: attributes(m),
                }));
            }
        }
        return;
    }
    if let Value::Object(m) = v {
        for (name, inner) in m {
            names.push(name.clone());
            blocks(kind, inner, labels - 1, names, out);
            names.pop();
        }
    }
}

/// An object, or each object of a list of them.
fn one_or_many(v: &Value) -> Vec<&Value> {
    match v {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    }
}

/// A block's body: nested blocks by [`NESTED`] name, attributes otherwise.
fn attributes(m: &serde_json::Map<String, Value>) -> Body {
    let mut out = Vec::new();
    for (k, v) in m {
        let nested = NESTED.contains(&k.as_str()) && one_or_many(v).iter().all(|x| x.is_object());
        if nested {
            blocks(k, v, 0, &mut Vec::new(), &mut out);
        } else {
            out.push(Structure::Attribute(Attribute {
                key: Identifier::sanitized(k),
                expr: expression(v),
            }));
        }
    }
    Body(out)
}

/// A JSON value as an expression: strings holding `${` are templates.
fn expression(v: &Value) -> Expression {
    match v {
        Value::Null => Expression::Null,
        Value::Bool(b) => Expression::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Expression::Number(i.into()),
            None => hcl::Number::from_f64(n.as_f64().unwrap_or(0.0))
                .map_or(Expression::Null, Expression::Number),
        },
        Value::String(s) if s.contains("${") => {
            Expression::TemplateExpr(Box::new(TemplateExpr::QuotedString(s.clone())))
        }
        Value::String(s) => Expression::String(s.clone()),
        Value::Array(a) => Expression::Array(a.iter().map(expression).collect()),
        Value::Object(m) => Expression::Object(
            (m.iter())
                .map(|(k, v)| {
                    (
                        ObjectKey::Expression(Expression::String(k.clone())),
                        expression(v),
                    )
                })
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_configuration_reads_as_its_hcl() {
        let b = body(
            "main.tf.json",
            r#"{"resource": {"azurerm_cosmosdb_sql_container": {"events": {
                "name": "events", "partition_key_paths": ["${var.key}"],
                "autoscale_settings": {"max_throughput": 4000}}}},
              "variable": {"key": {"default": "/tenantId"}},
              "locals": {"n": 3}}"#,
        )
        .unwrap();
        let text = hcl::to_string(&b).unwrap();
        for part in [
            "resource \"azurerm_cosmosdb_sql_container\" \"events\"",
            "autoscale_settings {",
            "max_throughput = 4000",
            "\"${var.key}\"",
            "variable \"key\"",
            "locals {",
        ] {
            assert!(text.contains(part), "{part} in {text}");
        }
        assert!(
            body("x.tf.json", "[1]")
                .unwrap_err()
                .contains("is one object")
        );
        let e = body("x.tf.json", "{").unwrap_err();
        assert!(
            e.starts_with("x.tf.json:1:") && e.contains("not JSON"),
            "{e}"
        );
    }
}
