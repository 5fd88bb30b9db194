//! ARM templates walked as a deployment reads them: container resources at any depth
//! (nested deployments with their own parameters, `copy` loops), their databases' shared
//! throughput, indexing policies and time to live, expressions resolved by [`mod@super::arm`].

use serde_json::{Map, Value};

use super::arm::Scope;
use super::{
    ARM_LEGACY_TYPE, ARM_TYPE, DatabaseThroughput, Declared, DeclaredThroughput, arm_definition,
    declared,
};
use crate::engine::Throughput;
use crate::indexing::IndexingPolicy;

/// The indexing policy an ARM resource (`resource`: its `properties.resource`) declares.
pub(super) fn arm_indexing(resource: &Value) -> Option<Result<IndexingPolicy, String>> {
    let policy = resource.get("indexingPolicy")?;
    Some(IndexingPolicy::from_json(policy, "declared").map_err(|e| format!("indexingPolicy{e}")))
}

/// What to do instead of passing an unresolved key's parameter.
const KEY_INSTEAD: &str = "gate the key with --key SPEC instead of --container";

/// Whether `ty` (the full type) is a SQL database's, current or legacy.
fn is_database_type(ty: &str) -> bool {
    ty.eq_ignore_ascii_case("Microsoft.DocumentDB/databaseAccounts/sqlDatabases")
        || ty.eq_ignore_ascii_case("Microsoft.DocumentDB/databaseAccounts/apis/databases")
}

/// A database resource's name: its `properties.resource.id`, else its name's last segment.
fn arm_database_name(v: &Value, scope: &Scope) -> String {
    let mut lenient = scope.clone();
    lenient.lenient = true;
    let res = v
        .pointer("/properties/resource/id")
        .or_else(|| v.get("name"));
    let raw = res.cloned().unwrap_or(Value::Null);
    let name = match lenient.resolve(&raw) {
        Ok(Value::String(n)) => n,
        _ => raw.as_str().unwrap_or("").to_owned(),
    };
    name.rsplit('/').next().unwrap_or("").to_owned()
}

/// Whether `ty` (the full type) is a container's, current or legacy.
fn is_container_type(ty: &str) -> bool {
    ty.eq_ignore_ascii_case(ARM_TYPE) || ty.eq_ignore_ascii_case(ARM_LEGACY_TYPE)
}

/// ARM resources, nested under their parents or not, and a lone resource object; `scope`
/// resolves their expressions.
/// What the ARM walk finds: containers, and databases that declare throughput.
pub(super) type ArmFound<'a> = (&'a mut Vec<Declared>, &'a mut Vec<DatabaseThroughput>);

pub(super) fn arm(v: &Value, at: &str, parent_type: &str, scope: &Scope, out: &mut ArmFound) {
    let Some(obj) = v.as_object() else { return };
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("");
    let full_type = if ty.contains('/') || parent_type.is_empty() {
        ty.to_owned()
    } else {
        format!("{parent_type}/{ty}")
    };
    // A typed container resource, or a lone resource object without a type.
    let lone = ty.is_empty() && at.is_empty();
    if (is_container_type(&full_type) || lone)
        && v.pointer("/properties/resource/partitionKey").is_some()
    {
        arm_copies(v, at, scope, out.0);
    }
    if is_database_type(&full_type)
        && let Some(t) = arm_throughput(v, scope)
    {
        out.1.push((arm_database_name(v, scope), t));
    }
    // Child resources: an array, or an object keyed by symbolic name (languageVersion 2.0).
    match obj.get("resources") {
        Some(Value::Array(children)) => {
            for (i, child) in children.iter().enumerate() {
                arm(
                    child,
                    &format!("{at}/resources/{i}"),
                    &full_type,
                    scope,
                    out,
                );
            }
        }
        Some(Value::Object(children)) => {
            for (name, child) in children {
                arm(
                    child,
                    &format!("{at}/resources/{name}"),
                    &full_type,
                    scope,
                    out,
                );
            }
        }
        _ => {}
    }
    // Nested deployments (Bicep modules) carry a whole template of their own, with the
    // parameters the outer one passes.
    if let Some(template) = v.pointer("/properties/template") {
        let given = nested_parameters(v, scope);
        let inner = Scope::of(template, given);
        arm(
            template,
            &format!("{at}/properties/template"),
            "",
            &inner,
            out,
        );
    }
}

/// The parameter values a nested deployment passes to its template, those the outer
/// scope resolves.
fn nested_parameters(deployment: &Value, outer: &Scope) -> Map<String, Value> {
    let mut given = Map::new();
    let passed = deployment
        .pointer("/properties/parameters")
        .and_then(Value::as_object);
    for (name, p) in passed.into_iter().flatten() {
        if let Some(Ok(v)) = p.get("value").map(|v| outer.resolve(v)) {
            given.insert(name.clone(), v);
        }
    }
    given
}

/// The most copies an ARM `copy` loop deploys ("the count can't exceed 800").
const MAX_COPIES: u64 = 800;

/// A container resource, once per iteration of its `copy` loop when its count resolves.
fn arm_copies(v: &Value, at: &str, scope: &Scope, out: &mut Vec<Declared>) {
    let Some(copy) = v.get("copy") else {
        out.push(arm_container(v, at, scope));
        return;
    };
    let count = copy.get("count").map(|c| scope.resolve(c));
    match count {
        Some(Ok(Value::Number(n))) if n.as_u64().is_some_and(|n| n <= MAX_COPIES) => {
            // One scope for every copy, its index set again for each: a scope per copy
            // would copy every parameter (the loop's own array among them) once per copy.
            let mut each = scope.clone();
            for i in 0..n.as_u64().unwrap_or(0) {
                each.copy_index = usize::try_from(i).ok();
                let mut d = arm_container(v, at, &each);
                d.at.push_str(&format!(" (copy {i})"));
                out.push(d);
            }
        }
        other => {
            let why = match other {
                Some(Err(e)) => e.message("copy.count", KEY_INSTEAD),
                Some(Ok(Value::Number(n))) if n.as_u64().is_some() => format!(
                    "copy.count is {n}: Azure Resource Manager deploys at most {MAX_COPIES} copies of a resource"
                ),
                Some(Ok(n)) => format!("copy.count is {n}, not a count"),
                None => "a copy loop without a count".to_owned(),
            };
            let mut d = arm_container(v, at, scope);
            d.definition = Err(why);
            out.push(d);
        }
    }
}

/// One container resource with its expressions resolved in `scope`.
fn arm_container(v: &Value, at: &str, scope: &Scope) -> Declared {
    let res = v.pointer("/properties/resource").unwrap_or(&Value::Null);
    let raw_name = (res.get("id").or_else(|| v.get("name")))
        .and_then(Value::as_str)
        .unwrap_or("(unnamed)");
    let name = match scope.resolve(&Value::String(raw_name.to_owned())) {
        Ok(Value::String(n)) => n,
        _ => raw_name.to_owned(),
    };
    let pk = res.get("partitionKey").unwrap_or(&Value::Null);
    let mut d = declared(&name, &format!("{at}/properties/resource/partitionKey"), pk);
    d.definition = match scope.resolve(pk) {
        Ok(pk) => arm_definition(&pk),
        Err(e) => Err(e.message("partitionKey", KEY_INSTEAD)),
    };
    d.indexing = match res.get("indexingPolicy").map(|p| scope.resolve(p)) {
        None => None,
        Some(Ok(p)) => arm_indexing(&serde_json::json!({ "indexingPolicy": p })),
        Some(Err(e)) => Some(Err(
            e.message("indexingPolicy", "give the policy with --indexing-policy")
        )),
    };
    d.throughput = arm_throughput(v, scope);
    // A default time to live: an integer once resolved (an expression left is absent).
    d.default_ttl = res
        .get("defaultTtl")
        .and_then(|t| scope.resolve(t).ok())
        .and_then(|t| t.as_i64());
    d.source = res
        .pointer("/materializedViewDefinition/sourceCollectionId")
        .and_then(|s| scope.resolve(s).ok())
        .and_then(|s| s.as_str().map(str::to_owned));
    d.qualified = qualified_name(v, &name, scope);
    d
}

/// `database/container` when the resource's `account/database/container` name says which
/// database (legacy names: `account/sql/database/container`), else the name alone.
fn qualified_name(v: &Value, name: &str, scope: &Scope) -> String {
    let raw = v.get("name").and_then(Value::as_str).unwrap_or("");
    let mut lenient = scope.clone();
    lenient.lenient = true;
    let full = match lenient.resolve(&Value::String(raw.to_owned())) {
        Ok(Value::String(n)) => n,
        _ => raw.to_owned(),
    };
    let parts: Vec<&str> = full.trim_matches(['[', ']']).split('/').collect();
    // `?` stands for what is known only when deployed; no database name holds one.
    if let [.., db, c] = parts[..]
        && parts.len() >= 3
        && !db.contains(['(', '?'])
        && c.trim_end_matches([')', '\'']) == name
    {
        return format!("{db}/{name}");
    }
    name.to_owned()
}

/// The throughput a container resource declares in `properties.options`.
fn arm_throughput(v: &Value, scope: &Scope) -> Option<Result<DeclaredThroughput, String>> {
    let options = v.pointer("/properties/options")?;
    let (field, raw, autoscale) = match (
        options.get("throughput"),
        options.pointer("/autoscaleSettings/maxThroughput"),
    ) {
        (_, Some(max)) => ("options.autoscaleSettings.maxThroughput", max, true),
        (Some(ru), None) => ("options.throughput", ru, false),
        (None, None) => return None,
    };
    Some(match scope.resolve(raw) {
        Ok(value) => ru_of(&value, field, raw, autoscale),
        Err(e) => Err(e.message(field, "give --throughput or --autoscale-max")),
    })
}

/// The RU/s `value` (resolved from `raw`) of `field` declares.
pub(super) fn ru_of(
    value: &Value,
    field: &str,
    raw: &Value,
    autoscale: bool,
) -> Result<DeclaredThroughput, String> {
    let ru = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|ru| ru.is_finite() && *ru > 0.0)
    .ok_or_else(|| format!("{field} must be a number of RU/s, not {value}"))?;
    let field = match raw {
        Value::String(expr) if expr.starts_with('[') => format!("{field} = {expr} = {ru}"),
        _ => format!("{field} = {ru}"),
    };
    let throughput = match autoscale {
        true => Throughput::Autoscale(ru),
        false => Throughput::Manual(ru),
    };
    Ok(DeclaredThroughput { throughput, field })
}

/// The values of an ARM parameters file (`{"parameters": {"name": {"value": ...}}}`);
/// Key Vault references are left to the template's defaults.
pub fn arm_parameters(file: &str, text: &str) -> Result<Map<String, Value>, String> {
    let doc: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("{file}:{}:{}: not JSON ({e})", e.line(), e.column()))?;
    let shape = "expected the ARM parameters format {\"parameters\": {\"name\": {\"value\": ...}}}";
    let Some(params) = doc.get("parameters").and_then(Value::as_object) else {
        return Err(format!("{file}: no \"parameters\" object: {shape}"));
    };
    let mut out = Map::new();
    for (name, p) in params {
        match (p.get("value"), p.get("reference")) {
            (Some(v), _) => {
                out.insert(name.clone(), v.clone());
            }
            (None, Some(_)) => {}
            (None, None) => {
                return Err(format!(
                    "{file}: parameter {name:?} has no \"value\": {shape}"
                ));
            }
        }
    }
    Ok(out)
}
