//! Terraform JSON plans and state (`terraform show -json`): every module's
//! `azurerm_cosmosdb_sql_container` resources and planned changes, and what a Terraform
//! container declares (key, throughput, indexing policy), shared with the HCL reader.

use serde_json::Value;

use super::template::ru_of;
use super::{
    DatabaseThroughput, Declared, DeclaredThroughput, TERRAFORM_DATABASE_TYPE, TERRAFORM_TYPE,
    definition, kind_of, strings, version_of,
};
use crate::engine::PartitionKeyDefinition;
use crate::indexing::IndexingPolicy;

/// The indexing policy a Terraform container declares (`indexing_policy`, a list of one
/// block of `indexing_mode`, `included_path`, `excluded_path` and `composite_index`), read
/// as the ARM object it stands for.
pub(crate) fn terraform_indexing(values: &Value) -> Option<Result<IndexingPolicy, String>> {
    let block = match values.get("indexing_policy")? {
        Value::Array(a) => a.first()?,
        other => other,
    };
    let paths = |field: &str| -> Value {
        let items = block.get(field).and_then(Value::as_array);
        let each = items.into_iter().flatten().map(|p| match p.get("path") {
            Some(path) => serde_json::json!({ "path": path }),
            None => p.clone(),
        });
        Value::Array(each.collect())
    };
    let composite = block.get("composite_index").cloned().unwrap_or(Value::Null);
    let arm = serde_json::json!({
        "indexingMode": block.get("indexing_mode").cloned().unwrap_or_else(|| "consistent".into()),
        "includedPaths": paths("included_path"),
        "excludedPaths": paths("excluded_path"),
        "compositeIndexes": composite,
    });
    Some(IndexingPolicy::from_json(&arm, "declared").map_err(|e| format!("indexing_policy{e}")))
}

/// Terraform JSON plans and state: every module's resources, and planned changes.
/// `addresses`: the resource addresses already read (a plan lists each resource twice).
pub(super) fn terraform(
    v: &Value,
    at: &str,
    out: &mut Vec<Declared>,
    addresses: &mut Vec<String>,
    databases: &mut Vec<DatabaseThroughput>,
) {
    match v {
        Value::Object(obj) => {
            if obj.get("type").and_then(Value::as_str) == Some(TERRAFORM_DATABASE_TYPE)
                && let Some(values) = obj.get("values").or_else(|| v.pointer("/change/after"))
                && let (Some(name), Some(t)) = (
                    values.get("name").and_then(Value::as_str),
                    terraform_throughput(values),
                )
                && !databases.iter().any(|(n, _)| n == name)
            {
                databases.push((name.to_owned(), t));
            }
            if obj.get("type").and_then(Value::as_str) == Some(TERRAFORM_TYPE)
                && let Some(values) = obj.get("values").or_else(|| v.pointer("/change/after"))
            {
                let name = values
                    .get("name")
                    .or_else(|| obj.get("address"))
                    .and_then(Value::as_str)
                    .unwrap_or("(unnamed)");
                let at = format!("{at}/values");
                let address = obj.get("address").and_then(Value::as_str);
                // A database known only after apply: the resource's address tells same-named
                // containers apart.
                let qualified = match (values.get("database_name").and_then(Value::as_str), address)
                {
                    (Some(db), _) => format!("{db}/{name}"),
                    (None, Some(a)) => a.to_owned(),
                    (None, None) => name.to_owned(),
                };
                // A plan lists a container twice (planned values, resource changes): once per
                // resource address; without addresses, once per database and name (a
                // listing without its database, a change's `after`, is the same-named one).
                let unqualified = |d: &Declared| d.qualified == d.name || qualified == name;
                let listed = match address {
                    Some(a) => addresses.iter().any(|seen| seen == a),
                    None => (out.iter())
                        .any(|d| d.name == name && (d.qualified == qualified || unqualified(d))),
                };
                if let Some(a) = address {
                    addresses.push(a.to_owned());
                }
                if !listed {
                    out.push(Declared {
                        name: name.to_owned(),
                        at,
                        definition: terraform_definition(values),
                        source: None,
                        qualified,
                        indexing: terraform_indexing(values),
                        throughput: terraform_throughput(values),
                        default_ttl: values.get("default_ttl").and_then(Value::as_i64),
                    });
                }
                return;
            }
            // A plan's prior state holds the key before the change: what is gated is the
            // planned one.
            let plan = obj.contains_key("planned_values") || obj.contains_key("resource_changes");
            for (k, child) in obj {
                if plan && k == "prior_state" {
                    continue;
                }
                terraform(child, &format!("{at}/{k}"), out, addresses, databases);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                terraform(child, &format!("{at}/{i}"), out, addresses, databases);
            }
        }
        _ => {}
    }
}

/// The throughput a Terraform container declares: `throughput`, or
/// `autoscale_settings.max_throughput` (a list of one block in JSON, a block in HCL).
pub fn terraform_throughput(values: &Value) -> Option<Result<DeclaredThroughput, String>> {
    let autoscale = match values.get("autoscale_settings") {
        Some(Value::Array(a)) => a.first(),
        other => other,
    }
    .and_then(|b| b.get("max_throughput"))
    .filter(|v| !v.is_null());
    let (field, value, auto) = match (autoscale, values.get("throughput").filter(|v| !v.is_null()))
    {
        (Some(max), _) => ("autoscale_settings.max_throughput", max, true),
        (None, Some(ru)) => ("throughput", ru, false),
        (None, None) => return None,
    };
    Some(ru_of(value, field, value, auto))
}

pub(crate) fn terraform_definition(values: &Value) -> Result<PartitionKeyDefinition, String> {
    let paths = strings(
        values
            .get("partition_key_paths")
            .or_else(|| values.get("partition_key_path")),
        "partition_key_paths",
    )?;
    let kind = kind_of(values.get("partition_key_kind"), "partition_key_kind")?;
    let version = version_of(values.get("partition_key_version"), "partition_key_version")?;
    definition(paths, kind, version)
}
