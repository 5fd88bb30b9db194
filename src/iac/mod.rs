//! Partition keys declared in infrastructure code: ARM templates (and Bicep compiled to
//! ARM JSON), a container resource, its `properties.resource`, a bare `partitionKey`
//! object, and Terraform JSON plans or state (`terraform show -json`).

use serde_json::{Map, Value};

use crate::engine::{DefinitionError, PartitionKeyDefinition, PartitionKind, Throughput};
use crate::indexing::IndexingPolicy;
use crate::key::{KeyLevel, KeySpec};

pub mod arm;
pub mod hcl;
pub mod module;
mod overrides;
pub mod template;
pub mod terraform;
mod tf_json;
mod weigh;

use arm::Scope;
pub use template::arm_parameters;
use template::{arm, arm_indexing};
use terraform::terraform;
pub use terraform::terraform_throughput;
pub(crate) use terraform::{terraform_definition, terraform_indexing};

/// The ARM resource type of a Cosmos DB (API for NoSQL) container.
pub const ARM_TYPE: &str = "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers";
/// The same before API version 2019-08-01 (`account/sql/database/container`).
pub const ARM_LEGACY_TYPE: &str = "Microsoft.DocumentDB/databaseAccounts/apis/databases/containers";
/// The Terraform resource type of one.
pub const TERRAFORM_TYPE: &str = "azurerm_cosmosdb_sql_container";
/// The Terraform resource type of a SQL database (its throughput is shared).
pub const TERRAFORM_DATABASE_TYPE: &str = "azurerm_cosmosdb_sql_database";

/// A container found in a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    /// Its name as written (`properties.resource.id`, or the resource `name`, ARM
    /// expressions included).
    pub name: String,
    /// Where in the file (a JSON pointer).
    pub at: String,
    /// Its partition key, or why it is not one Cosmos DB accepts.
    pub definition: Result<PartitionKeyDefinition, String>,
    /// For a global secondary index (ARM `materializedViewDefinition`): the container it
    /// is filled from (`sourceCollectionId`).
    pub source: Option<String>,
    /// `database/container` when the file says which database holds it (an ARM resource
    /// name `account/database/container`), else the name alone.
    pub qualified: String,
    /// Its indexing policy when the file declares one (ARM `indexingPolicy`, Terraform
    /// `indexing_policy`), or why it is not one the service accepts.
    pub indexing: Option<Result<IndexingPolicy, String>>,
    /// Its throughput when the file declares one (ARM `options.throughput` or
    /// `options.autoscaleSettings.maxThroughput`, Terraform `throughput` or
    /// `autoscale_settings.max_throughput`), or why it cannot be read.
    pub throughput: Option<Result<DeclaredThroughput, String>>,
    /// Its default time to live in seconds (ARM `defaultTtl`, Terraform `default_ttl`):
    /// -1 or absent, items live forever unless their own `ttl` says otherwise; a value
    /// that is not an integer (an unresolved expression) is read as absent.
    pub default_ttl: Option<i64>,
}

/// A container's declared throughput and the field that declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclaredThroughput {
    /// Manual RU/s, or the autoscale maximum.
    pub throughput: Throughput,
    /// The field, and the expression it was resolved from (`options.throughput =
    /// [parameters('throughput')]`).
    pub field: String,
}

/// Every container declared in `doc`, expressions resolved from defaults.
pub fn containers(doc: &Value) -> Vec<Declared> {
    containers_with(doc, &Map::new())
}

/// Every container declared in `doc`, ARM expressions resolved with the parameter values
/// `given` (a parameters file's) and the template's defaults and variables.
pub fn containers_with(doc: &Value, given: &Map<String, Value>) -> Vec<Declared> {
    let mut out = Vec::new();
    if doc.get("paths").is_some_and(Value::is_array) {
        out.push(declared("(partitionKey object)", "", doc));
        return out;
    }
    if let Some(res) = doc.get("partitionKey") {
        let name = doc
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("(resource)");
        let mut d = declared(name, "/partitionKey", res);
        d.indexing = arm_indexing(doc);
        d.default_ttl = doc.get("defaultTtl").and_then(Value::as_i64);
        out.push(d);
        return out;
    }
    let scope = Scope::of(doc, given.clone());
    let mut databases = Vec::new();
    arm(doc, "", "", &scope, &mut (&mut out, &mut databases));
    terraform(doc, "", &mut out, &mut Vec::new(), &mut databases);
    share_database_throughput(&mut out, &databases);
    out
}

/// A database's name and the throughput it declares, shared by its containers that declare
/// none of their own.
pub type DatabaseThroughput = (String, Result<DeclaredThroughput, String>);

/// Gives each container without throughput of its own the throughput its database declares
/// (shared throughput: the container gets at most the database's RU/s, shared with the
/// database's other containers without their own); a container whose database is unknown
/// takes it when one database alone declares throughput.
pub fn share_database_throughput(containers: &mut [Declared], databases: &[DatabaseThroughput]) {
    let database_of = |d: &Declared| -> Option<String> {
        let (db, _) = d.qualified.split_once('/')?;
        Some(db.to_owned())
    };
    let sharing = |db: &str, all: &[Declared]| {
        (all.iter())
            .filter(|d| d.throughput.is_none() && database_of(d).as_deref() == Some(db))
            .count()
    };
    let counts: Vec<usize> = (databases.iter())
        .map(|(db, _)| sharing(db, containers))
        .collect();
    for d in containers.iter_mut().filter(|d| d.throughput.is_none()) {
        let found = match database_of(d) {
            Some(db) => databases.iter().position(|(name, _)| *name == db),
            None if databases.len() == 1 => Some(0),
            None => None,
        };
        let Some(i) = found else { continue };
        let (db, declared) = &databases[i];
        d.throughput = Some(declared.clone().map(|t| DeclaredThroughput {
            throughput: t.throughput,
            field: format!(
                "database {db}'s {}, shared by the {} of its containers that declare none",
                t.field,
                counts[i].max(1)
            ),
        }));
    }
}

fn declared(name: &str, at: &str, pk: &Value) -> Declared {
    Declared {
        name: name.to_owned(),
        at: at.to_owned(),
        definition: arm_definition(pk),
        source: None,
        qualified: name.to_owned(),
        indexing: None,
        throughput: None,
        default_ttl: None,
    }
}

fn definition(
    paths: Vec<String>,
    kind: &str,
    version: Option<u64>,
) -> Result<PartitionKeyDefinition, String> {
    let kind = match kind.to_ascii_lowercase().as_str() {
        "hash" => PartitionKind::Hash,
        "multihash" => PartitionKind::MultiHash,
        other => {
            return Err(format!(
                "unknown partition key kind {other:?} (Hash or MultiHash)"
            ));
        }
    };
    // A missing version means 1 for Hash (containers created without large partition keys).
    let version = match (version, kind) {
        (Some(v), _) => u8::try_from(v).unwrap_or(u8::MAX),
        (None, PartitionKind::MultiHash) => 2,
        (None, PartitionKind::Hash) => 1,
    };
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    PartitionKeyDefinition::parse(&refs, kind, version).map_err(|e: DefinitionError| e.to_string())
}

/// An ARM template expression (`[parameters('pk')]`): its value is known only once deployed.
fn unresolved(field: &str, text: &str) -> Option<String> {
    (text.starts_with('[') && text.ends_with(']') && !text.starts_with("[[")).then(|| {
        format!(
            "{field} is the ARM expression {}, known only when deployed: give a template with its parameters resolved, or the key with --key",
            crate::units::clipped(text, arm::EXPR_CHARS)
        )
    })
}

fn strings(v: Option<&Value>, field: &str) -> Result<Vec<String>, String> {
    let one = |p: &Value| match p.as_str() {
        Some(text) => unresolved(field, text).map_or(Ok(text.to_owned()), Err),
        None => Err(format!("{field}: path {p} is not a string")),
    };
    match v {
        Some(Value::Array(a)) => a.iter().map(one).collect(),
        Some(s @ Value::String(_)) => Ok(vec![one(s)?]),
        _ => Err(format!("no partition key paths ({field})")),
    }
}

/// The kind: absent means Hash; anything but a string is an error naming the field.
fn kind_of<'a>(v: Option<&'a Value>, field: &str) -> Result<&'a str, String> {
    match v {
        None => Ok("Hash"),
        Some(Value::String(s)) => unresolved(field, s).map_or(Ok(s.as_str()), Err),
        Some(other) => Err(format!(
            "{field} must be \"Hash\" or \"MultiHash\", not {other}"
        )),
    }
}

/// The version: absent, or the number 1 or 2 (`2.0` too); a string or anything else is an
/// error naming the field, never a silent version 1.
fn version_of(v: Option<&Value>, field: &str) -> Result<Option<u64>, String> {
    let Some(v) = v else { return Ok(None) };
    if let Some(text) = v.as_str()
        && let Some(e) = unresolved(field, text)
    {
        return Err(e);
    }
    match v.as_f64() {
        Some(n) if n == 1.0 || n == 2.0 => Ok(Some(n as u64)),
        _ => Err(format!("{field} must be the number 1 or 2, not {v}")),
    }
}

/// `{"paths": [...], "kind": "Hash", "version": 2}`.
pub fn arm_definition(pk: &Value) -> Result<PartitionKeyDefinition, String> {
    let paths = strings(pk.get("paths"), "partitionKey.paths")?;
    let kind = kind_of(pk.get("kind"), "partitionKey.kind")?;
    definition(
        paths,
        kind,
        version_of(pk.get("version"), "partitionKey.version")?,
    )
}

/// The most names an error lists; a file of thousands of containers gets the first ones
/// and how many more.
const LISTED: usize = 20;

/// `names` joined with commas, at most [`LISTED`] of them and then how many more.
fn listed(names: &[String]) -> String {
    let shown = names
        .iter()
        .take(LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    match names.len().saturating_sub(LISTED) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// Why a file's declared container cannot be gated: each message says what to do.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum IacError {
    /// The file is not JSON.
    #[error(
        "{file}:{line}:{column}: not JSON ({error}); --container reads ARM and Terraform JSON, Terraform HCL as a .tf file, and Bicep compiled to ARM JSON (az bicep build --file FILE.bicep)"
    )]
    NotJson {
        /// The file.
        file: String,
        /// 1-based line of the syntax error.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON parser said.
        error: String,
    },
    /// A `.tf` file that is not HCL.
    #[error("{file}:{line}:{column}: not Terraform HCL ({error})")]
    NotHcl {
        /// The file.
        file: String,
        /// 1-based line of the syntax error.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the HCL parser said.
        error: String,
    },
    /// A Bicep source file: it must be compiled first.
    #[error(
        "{file}: a Bicep file; compile it to ARM JSON first and give that: az bicep build --file {file} --outfile {stem}.json"
    )]
    Bicep {
        /// The file.
        file: String,
        /// The file without its `.bicep` extension.
        stem: String,
    },
    /// The `--parameters` file cannot be read for the format at hand.
    #[error("{0}")]
    Parameters(String),
    /// No container in the file.
    #[error(
        "{file}: no Cosmos DB container found (looked for ARM resources of type {ARM_TYPE}, a partitionKey object, and Terraform {TERRAFORM_TYPE} resources); to gate a key declared elsewhere, give it with --key SPEC instead of --container"
    )]
    NoContainer {
        /// The file.
        file: String,
    },
    /// `--container-name` names none of them.
    #[error(
        "{file}: no container named {name:?}; it declares: {}",
        listed(declared)
    )]
    NoSuchName {
        /// The file.
        file: String,
        /// The name asked for.
        name: String,
        /// The containers it declares (qualified names).
        declared: Vec<String>,
    },
    /// `--container-name` names several (in several databases).
    #[error(
        "{file}: several containers are named {name:?}: {}; pick one with --container-name database/container",
        listed(matching)
    )]
    AmbiguousName {
        /// The file.
        file: String,
        /// The name asked for.
        name: String,
        /// The containers of that name (qualified names).
        matching: Vec<String>,
    },
    /// Several containers and no `--container-name`.
    #[error(
        "{file} declares {} containers; pick one with --container-name: {}",
        declared.len(),
        listed(declared)
    )]
    PickOne {
        /// The file.
        file: String,
        /// The containers it declares (qualified names).
        declared: Vec<String>,
    },
    /// The chosen container's key is not one Cosmos DB accepts.
    #[error("{file}: {what} {name:?} (at {at}) declares an invalid partition key: {error}")]
    InvalidKey {
        /// The file.
        file: String,
        /// `container` or `global secondary index`.
        what: String,
        /// Its name.
        name: String,
        /// Where in the file (a JSON pointer).
        at: String,
        /// Why.
        error: String,
    },
    /// The declared paths make no key spec.
    #[error("declared key: {0}")]
    Spec(String),
    /// The chosen container's indexing policy is not one the service accepts.
    #[error("{file}: container {name:?} declares an invalid indexing policy: {error}")]
    InvalidPolicy {
        /// The file.
        file: String,
        /// The container's name.
        name: String,
        /// Why, with the field.
        error: String,
    },
}

/// Every container declared in `text`, the contents of `file`.
pub fn read(file: &str, text: &str) -> Result<Vec<Declared>, IacError> {
    read_with(file, text, &Map::new())
}

/// The syntax of an infrastructure file, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// ARM templates, resources, Terraform JSON: anything but the two below.
    Json,
    /// Terraform configuration (`.tf`).
    Hcl,
    /// Bicep source (`.bicep`), refused with the command that compiles it.
    Bicep,
}

impl Syntax {
    /// The syntax `file` is written in, by its extension (a `.tf.json` file is Terraform
    /// configuration, read with its module).
    pub fn of(file: &str) -> Syntax {
        let lower = file.to_ascii_lowercase();
        // Terraform's JSON configuration syntax is a module's file like any .tf.
        if lower.ends_with(".tf") || lower.ends_with(".tf.json") {
            Syntax::Hcl
        } else if lower.ends_with(".bicep") {
            Syntax::Bicep
        } else {
            Syntax::Json
        }
    }
}

/// Every container `file` (its contents `text`) declares, read in its syntax; `parameters`
/// is the `--parameters` file (name and contents): ARM parameters for a template, variable
/// values (`.tfvars`, `.tfvars.json`) for Terraform.
pub fn read_file(
    file: &str,
    text: &str,
    parameters: Option<(&str, &str)>,
) -> Result<Vec<Declared>, IacError> {
    match Syntax::of(file) {
        Syntax::Bicep => Err(IacError::Bicep {
            file: file.to_owned(),
            stem: file[..file.len() - ".bicep".len()].to_owned(),
        }),
        Syntax::Hcl => {
            let given = match parameters {
                Some((p, t)) => hcl::tfvars(p, t).map_err(IacError::Parameters)?,
                None => Map::new(),
            };
            hcl::read(file, text, &given)
        }
        Syntax::Json => {
            let given = match parameters {
                Some((p, t)) => arm_parameters(p, t).map_err(IacError::Parameters)?,
                None => Map::new(),
            };
            read_with(file, text, &given)
        }
    }
}

/// Every container a Terraform module declares: its `.tf` files and, in order (later values
/// win), its variable files (the `terraform.tfvars` and `*.auto.tfvars` Terraform loads
/// itself, then `--var-file`), each as `(name, text)`.
pub fn read_module(
    files: &[(String, String)],
    var_files: &[(String, String)],
) -> Result<Vec<Declared>, IacError> {
    let mut given = Map::new();
    for (name, text) in var_files {
        given.extend(hcl::tfvars(name, text).map_err(IacError::Parameters)?);
    }
    hcl::read_module(files, &given)
}

/// Every container declared in `text`, the contents of `file`, with ARM parameter values
/// `given`.
pub fn read_with(
    file: &str,
    text: &str,
    given: &Map<String, Value>,
) -> Result<Vec<Declared>, IacError> {
    let doc: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        let (line, column) = crate::json_error::position(&e);
        IacError::NotJson {
            file: file.to_owned(),
            line,
            column,
            error: crate::json_error::message(&e),
        }
    })?;
    Ok(containers_with(&doc, given))
}

/// The container to gate among `found` in `file`: the one named (by name or
/// `database/container`), or the only one.
pub fn pick(file: &str, found: Vec<Declared>, name: Option<&str>) -> Result<Declared, IacError> {
    let file = file.to_owned();
    if found.is_empty() {
        return Err(IacError::NoContainer { file });
    }
    let declared: Vec<String> = found.iter().map(|d| d.qualified.clone()).collect();
    let Some(n) = name else {
        return match found.len() {
            1 => Ok(found.into_iter().next().expect("one")),
            _ => Err(IacError::PickOne { file, declared }),
        };
    };
    let mut matching: Vec<Declared> = (found.into_iter())
        .filter(|d| d.name == n || d.qualified == n)
        .collect();
    let name = n.to_owned();
    match matching.len() {
        0 => Err(IacError::NoSuchName {
            file,
            name,
            declared,
        }),
        1 => Ok(matching.remove(0)),
        _ => Err(IacError::AmbiguousName {
            file,
            name,
            matching: matching.into_iter().map(|d| d.qualified).collect(),
        }),
    }
}

impl Declared {
    /// The key spec and definition it declares, `what` (a container, an index) in `file`
    /// naming it when the key is invalid.
    pub fn key(
        self,
        file: &str,
        what: &str,
    ) -> Result<(KeySpec, PartitionKeyDefinition), IacError> {
        let definition = self.definition.map_err(|error| IacError::InvalidKey {
            file: file.to_owned(),
            what: what.to_owned(),
            name: self.name,
            at: self.at,
            error,
        })?;
        Ok((spec_of(&definition)?, definition))
    }
}

impl Declared {
    /// The indexing policy it declares in `file`, named after them, if any.
    pub fn indexing_policy(&self, file: &str) -> Result<Option<IndexingPolicy>, IacError> {
        match &self.indexing {
            None => Ok(None),
            Some(Ok(p)) => {
                let mut p = p.clone();
                p.source = format!("{file} (container {})", self.name);
                Ok(Some(p))
            }
            Some(Err(error)) => Err(IacError::InvalidPolicy {
                file: file.to_owned(),
                name: self.name.clone(),
                error: error.clone(),
            }),
        }
    }
}

/// The spec of a declared definition: one path, or a hierarchical key. A one-level
/// MultiHash key hashes like Hash V2: its spec is the single path (the candidate keeps
/// the declared definition).
pub fn spec_of(def: &PartitionKeyDefinition) -> Result<KeySpec, IacError> {
    let levels: Vec<KeyLevel> = def.paths().iter().cloned().map(KeyLevel::Path).collect();
    KeySpec::new(levels).map_err(|e| IacError::Spec(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrecognised_versions_and_kinds_are_errors_naming_the_field() {
        let def = |pk: Value| arm_definition(&pk);
        assert_eq!(
            def(serde_json::json!({"paths": ["/a"], "kind": "Hash", "version": 2.0}))
                .unwrap()
                .version(),
            2
        );
        for (pk, field) in [
            (
                serde_json::json!({"paths": ["/a"], "version": "2"}),
                "partitionKey.version",
            ),
            (
                serde_json::json!({"paths": ["/a"], "version": 3}),
                "partitionKey.version",
            ),
            (
                serde_json::json!({"paths": ["/a"], "kind": 5}),
                "partitionKey.kind",
            ),
            (
                serde_json::json!({"paths": ["/a"], "version": "[parameters('v')]"}),
                "ARM expression",
            ),
            (
                serde_json::json!({"paths": "[parameters('pk')]"}),
                "ARM expression",
            ),
        ] {
            let e = def(pk.clone()).unwrap_err();
            assert!(e.contains(field), "{pk}: {e}");
        }
    }

    #[test]
    fn indexing_policies_are_read_from_arm_and_terraform() {
        let arm = serde_json::json!({"type": ARM_TYPE, "name": "a/db/c", "properties": {"resource": {
            "id": "c", "partitionKey": {"paths": ["/k"]},
            "indexingPolicy": {"includedPaths": [{"path": "/k/?"}], "excludedPaths": [{"path": "/*"}]}}}});
        let tf = serde_json::json!({"type": TERRAFORM_TYPE, "values": {"name": "t",
            "partition_key_paths": ["/k"], "partition_key_version": 2,
            "indexing_policy": [{"indexing_mode": "consistent",
                "included_path": [{"path": "/k/?"}], "excluded_path": [{"path": "/*"}],
                "composite_index": [{"index": [{"path": "/k", "order": "Ascending"}]}]}]}});
        for (doc, composite) in [(arm, 0), (tf, 1)] {
            let d = containers(&doc).remove(0);
            let p = d.indexing_policy("f.json").unwrap().expect("a policy");
            assert!(p.indexes(&["k"]) && !p.indexes(&["other"]), "{doc}");
            assert_eq!(p.extra_terms(), composite);
            assert!(
                p.describe().starts_with("f.json (container "),
                "{}",
                p.describe()
            );
        }
        let bad = serde_json::json!({"type": TERRAFORM_TYPE, "values": {"name": "t",
            "partition_key_paths": ["/k"], "indexing_policy": [{"indexing_mode": "eager"}]}});
        let e = containers(&bad)
            .remove(0)
            .indexing_policy("f.json")
            .unwrap_err();
        assert!(
            e.to_string().contains("indexing_policy/indexingMode"),
            "{e}"
        );
        let none = serde_json::json!({"paths": ["/k"]});
        assert!(containers(&none).remove(0).indexing.is_none());
    }

    #[test]
    fn templates_resolve_as_deployed_with_copy_loops_and_throughput() {
        let doc = serde_json::json!({
            "parameters": {
                "items": {"type": "array"},
                "ru": {"type": "int", "defaultValue": 4000},
                "db": {"type": "string", "defaultValue": "shop"}
            },
            "variables": {"prefix": "[concat('/', 'tenant')]"},
            "resources": [{"type": ARM_LEGACY_TYPE, "copy": {"name": "c", "count": "[length(parameters('items'))]"},
                "name": "[concat(uniqueString('x'), '/sql/', parameters('db'), '/', parameters('items')[copyIndex()].name)]",
                "properties": {"resource": {"id": "[parameters('items')[copyIndex()].name]",
                    "partitionKey": {"paths": ["[format('{0}{1}', variables('prefix'), parameters('items')[copyIndex()].suffix)]"], "kind": "hash"}},
                    "options": {"autoscaleSettings": {"maxThroughput": "[parameters('ru')]"}}}}]
        });
        let given = serde_json::json!({"items": [{"name": "a", "suffix": "Id"}, {"name": "b", "suffix": "Key"}]});
        let found = containers_with(&doc, given.as_object().unwrap());
        let got: Vec<(String, String)> = (found.iter())
            .map(|d| {
                let path = d.definition.as_ref().unwrap().paths()[0].to_string();
                (d.qualified.clone(), path)
            })
            .collect();
        assert_eq!(
            got,
            [
                ("shop/a".to_owned(), "/tenantId".to_owned()),
                ("shop/b".to_owned(), "/tenantKey".to_owned())
            ]
        );
        let t = found[1].throughput.clone().unwrap().unwrap();
        assert_eq!(t.throughput, Throughput::Autoscale(4000.0));
        assert!(
            t.field
                .contains("maxThroughput = [parameters('ru')] = 4000"),
            "{}",
            t.field
        );
        // Without the array the loop cannot be expanded: one container, an error naming it.
        let none = containers(&doc);
        assert_eq!(none.len(), 1);
        let e = none[0].definition.as_ref().unwrap_err();
        assert!(
            e.contains("copy.count is the ARM expression [length(parameters('items'))]"),
            "{e}"
        );
        // Terraform JSON: autoscale before throughput, null taken as absent.
        let tf = serde_json::json!({"throughput": null, "autoscale_settings": [{"max_throughput": 1000}]});
        let t = terraform_throughput(&tf).unwrap().unwrap();
        assert_eq!(t.throughput, Throughput::Autoscale(1000.0));
        assert!(terraform_throughput(&serde_json::json!({"throughput": null})).is_none());
    }

    #[test]
    fn a_database_shares_its_throughput_with_containers_that_declare_none() {
        let db = "Microsoft.DocumentDB/databaseAccounts/sqlDatabases";
        let doc = serde_json::json!({
            "parameters": {"ru": {"type": "int", "defaultValue": 1000}},
            "resources": [
                {"type": db, "name": "acct/shop",
                 "properties": {"resource": {"id": "shop"},
                    "options": {"autoscaleSettings": {"maxThroughput": "[parameters('ru')]"}}}},
                {"type": db, "name": "acct/logs", "properties": {"resource": {"id": "logs"}}},
                {"type": ARM_TYPE, "name": "acct/shop/orders",
                 "properties": {"resource": {"id": "orders", "partitionKey": {"paths": ["/c"]}}}},
                {"type": ARM_TYPE, "name": "acct/shop/carts",
                 "properties": {"resource": {"id": "carts", "partitionKey": {"paths": ["/c"]}}}},
                {"type": ARM_TYPE, "name": "acct/shop/audit",
                 "properties": {"resource": {"id": "audit", "partitionKey": {"paths": ["/c"]}},
                    "options": {"throughput": 400}}},
                {"type": ARM_TYPE, "name": "acct/logs/events",
                 "properties": {"resource": {"id": "events", "partitionKey": {"paths": ["/c"]}}}}
            ]
        });
        let found = containers(&doc);
        let ru = |name: &str| {
            let d = found.iter().find(|d| d.name == name).unwrap();
            d.throughput.clone().map(|t| t.unwrap())
        };
        // Two of shop's three containers share its autoscale maximum; audit keeps its own.
        for shared in ["orders", "carts"] {
            let t = ru(shared).unwrap();
            assert_eq!(t.throughput, Throughput::Autoscale(1000.0));
            assert!(
                t.field
                    .starts_with("database shop's options.autoscaleSettings"),
                "{}",
                t.field
            );
            assert!(
                t.field.contains("shared by the 2 of its containers"),
                "{}",
                t.field
            );
        }
        assert_eq!(ru("audit").unwrap().throughput, Throughput::Manual(400.0));
        // A database without throughput gives none.
        assert!(ru("events").is_none());
        // Terraform plans: the database resource's throughput, by the container's database.
        let plan = serde_json::json!({"values": {"root_module": {"resources": [
            {"type": TERRAFORM_DATABASE_TYPE, "values": {"name": "shop", "throughput": 600}},
            {"type": TERRAFORM_TYPE, "address": "x.orders", "values": {"name": "orders",
                "database_name": "shop", "partition_key_paths": ["/c"]}}
        ]}}});
        let t = containers(&plan)[0].throughput.clone().unwrap().unwrap();
        assert_eq!(t.throughput, Throughput::Manual(600.0));
        assert!(
            t.field.starts_with("database shop's throughput = 600"),
            "{}",
            t.field
        );
    }

    #[test]
    fn parameters_files_are_read_and_others_refused_with_the_format() {
        let ok = r#"{"parameters": {"a": {"value": [1]}, "s": {"reference": {"keyVault": {}}}}}"#;
        let p = arm_parameters("p.json", ok).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p["a"], serde_json::json!([1]));
        for (bad, says) in [
            ("{", "p.json:1:1: not JSON"),
            ("{}", "no \"parameters\" object"),
            (
                r#"{"parameters": {"a": 1}}"#,
                "parameter \"a\" has no \"value\"",
            ),
        ] {
            let e = arm_parameters("p.json", bad).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn default_ttls_are_read_from_arm_and_terraform() {
        let arm = |ttl: serde_json::Value| {
            serde_json::json!({"type": ARM_TYPE, "name": "a/db/c", "properties": {"resource": {
                "id": "c", "partitionKey": {"paths": ["/k"]}, "defaultTtl": ttl}}})
        };
        let tf = |ttl: serde_json::Value| {
            serde_json::json!({"type": TERRAFORM_TYPE, "values": {"name": "t",
                "partition_key_paths": ["/k"], "default_ttl": ttl}})
        };
        let ttl = |doc: serde_json::Value| containers(&doc).remove(0).default_ttl;
        for build in [arm, tf] {
            assert_eq!(ttl(build(serde_json::json!(2_592_000))), Some(2_592_000));
            assert_eq!(ttl(build(serde_json::json!(-1))), Some(-1));
            assert_eq!(ttl(build(serde_json::json!("[parameters('t')]"))), None);
        }
        assert_eq!(ttl(serde_json::json!({"paths": ["/k"]})), None);
    }

    #[test]
    fn same_named_containers_are_told_apart_by_database() {
        let c = |name: &str, id: &str, path: &str| {
            serde_json::json!({"type": ARM_TYPE, "name": name,
                "properties": {"resource": {"id": id, "partitionKey": {"paths": [path], "kind": "Hash", "version": 2}}}})
        };
        let doc = serde_json::json!({"resources": [
            c("acct/db1/events", "events", "/a"),
            c("[concat(parameters('account'), '/db2/events')]", "events", "/b"),
        ]});
        let found = containers(&doc);
        let q: Vec<&str> = found.iter().map(|d| d.qualified.as_str()).collect();
        assert_eq!(q, ["db1/events", "db2/events"]);
    }

    #[test]
    fn a_plan_gates_its_planned_key_not_the_prior_one() {
        let resource = |path: &str| {
            serde_json::json!({"type": TERRAFORM_TYPE, "address": "azurerm_cosmosdb_sql_container.c",
                "values": {"name": "events", "partition_key_paths": [path], "partition_key_version": 2}})
        };
        let plan = serde_json::json!({
            "prior_state": {"values": {"root_module": {"resources": [resource("/old")]}}},
            "resource_changes": [{"type": TERRAFORM_TYPE, "address": "azurerm_cosmosdb_sql_container.c",
                "change": {"after": {"name": "events", "partition_key_paths": ["/new"], "partition_key_version": 2}}}]
        });
        let found = containers(&plan);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].definition.as_ref().unwrap().paths()[0].to_string(),
            "/new"
        );
    }

    #[test]
    fn a_global_secondary_index_names_its_source() {
        let doc = serde_json::json!({"resources": [
            {"type": ARM_TYPE, "name": "a/db/orders",
             "properties": {"resource": {"id": "orders", "partitionKey": {"paths": ["/userId"], "kind": "Hash", "version": 2}}}},
            {"type": ARM_TYPE, "name": "a/db/orders-by-number",
             "properties": {"resource": {"id": "orders-by-number",
                "partitionKey": {"paths": ["/orderNumber"], "kind": "Hash", "version": 2},
                "materializedViewDefinition": {"sourceCollectionId": "orders", "definition": "SELECT * FROM c"}}}}]});
        let found = containers(&doc);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].source, None);
        assert_eq!(found[1].source.as_deref(), Some("orders"));
        assert_eq!(
            found[1].definition.as_ref().unwrap().paths()[0].to_string(),
            "/orderNumber"
        );
    }

    #[test]
    fn arm_nested_and_flat() {
        let doc = serde_json::json!({"resources": [
            {"type": "Microsoft.DocumentDB/databaseAccounts", "name": "acct", "resources": [
                {"type": "sqlDatabases", "name": "db", "resources": [
                    {"type": "containers", "name": "[concat('a', 'b')]",
                     "properties": {"resource": {"partitionKey": {"paths": ["/t", "/u"], "kind": "MultiHash", "version": 2}}}}]}]},
            {"type": ARM_TYPE, "name": "acct/db/orders",
             "properties": {"resource": {"id": "orders", "partitionKey": {"paths": ["/customerId"], "kind": "Hash"}}}}
        ]});
        let found = containers(&doc);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].name, "ab");
        assert_eq!(found[0].definition.as_ref().unwrap().paths().len(), 2);
        assert_eq!(found[1].name, "orders");
        assert_eq!(found[1].definition.as_ref().unwrap().version(), 1);
    }

    #[test]
    fn bare_objects_and_invalid_keys() {
        let pk = serde_json::json!({"paths": ["/a", "/b"], "kind": "Hash", "version": 2});
        let found = containers(&pk);
        assert!(
            found[0]
                .definition
                .as_ref()
                .unwrap_err()
                .contains("exactly one path")
        );
        let res = serde_json::json!({"id": "c1", "partitionKey": {"paths": ["/a","/b","/c","/d"], "kind": "MultiHash", "version": 2}});
        assert!(containers(&res)[0].definition.is_err());
    }

    #[test]
    fn bicep_modules_and_symbolic_names() {
        let doc = serde_json::json!({"languageVersion": "2.0", "resources": {
            "events": {"type": ARM_TYPE, "name": "a/db/events",
                "properties": {"resource": {"id": "events", "partitionKey": {"paths": ["/t"], "kind": "Hash", "version": 2}}}},
            "mod": {"type": "Microsoft.Resources/deployments", "name": "cosmos",
                "properties": {"template": {"resources": [
                    {"type": ARM_TYPE, "name": "a/db/orders",
                     "properties": {"resource": {"id": "orders", "partitionKey": {"paths": ["/o"], "kind": "Hash", "version": 2}}}}]}}}
        }});
        let names: Vec<String> = containers(&doc).into_iter().map(|d| d.name).collect();
        assert_eq!(names, ["events", "orders"]);
    }

    #[test]
    fn terraform_plan() {
        let plan = serde_json::json!({"planned_values": {"root_module": {"resources": [
            {"address": "azurerm_cosmosdb_sql_container.events", "type": TERRAFORM_TYPE,
             "values": {"name": "events", "partition_key_paths": ["/tenantId", "/userId"], "partition_key_kind": "MultiHash", "partition_key_version": 2}}
        ]}}});
        let found = containers(&plan);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name, "events");
        assert_eq!(
            found[0].definition.as_ref().unwrap().kind(),
            PartitionKind::MultiHash
        );
    }

    #[test]
    fn errors_list_twenty_names_and_count_the_rest() {
        let names: Vec<String> = (0..7257).map(|i| format!("c{i}")).collect();
        let text = listed(&names);
        assert!(text.starts_with("c0, c1, "), "{text}");
        assert!(text.ends_with("c18, c19 and 7237 more"), "{text}");
        assert_eq!(listed(&names[..2]), "c0, c1");
    }

    #[test]
    fn pick_takes_the_named_or_only_container_and_says_what_to_give() {
        let doc = serde_json::json!({"resources": [
            {"type": ARM_TYPE, "name": "acct/db1/orders",
             "properties": {"resource": {"id": "orders", "partitionKey": {"paths": ["/a"]}}}},
            {"type": ARM_TYPE, "name": "acct/db2/orders",
             "properties": {"resource": {"id": "orders", "partitionKey": {"paths": ["/b"]}}}},
            {"type": ARM_TYPE, "name": "acct/db1/events",
             "properties": {"resource": {"id": "events", "partitionKey": {"paths": ["/c"]}}}}
        ]});
        let found = containers(&doc);
        // (name, the path picked, or what the error says)
        let cases: [(Option<&str>, Result<&str, &str>); 5] = [
            (Some("events"), Ok("/c")),
            (Some("db2/orders"), Ok("/b")),
            (
                Some("orders"),
                Err("several containers are named \"orders\""),
            ),
            (
                Some("nope"),
                Err("no container named \"nope\"; it declares: db1/orders"),
            ),
            (
                None,
                Err("declares 3 containers; pick one with --container-name"),
            ),
        ];
        for (name, expected) in cases {
            let got = pick("f.json", found.clone(), name);
            match expected {
                Ok(path) => {
                    let (spec, _) = got.unwrap().key("f.json", "container").unwrap();
                    assert_eq!(spec.to_string(), path);
                }
                Err(says) => assert!(got.unwrap_err().to_string().contains(says), "{name:?}"),
            }
        }
        let none = pick("f.json", Vec::new(), None).unwrap_err();
        assert!(matches!(none, IacError::NoContainer { .. }));
        let bad = read("f.json", "{").unwrap_err().to_string();
        assert!(bad.starts_with("f.json:1:1: not JSON"), "{bad}");
    }

    #[test]
    fn terraform_containers_of_one_name_in_two_databases_are_both_declared() {
        let container = |db: &str, path: &str| {
            serde_json::json!({"type": "azurerm_cosmosdb_sql_container", "address": format!("azurerm_cosmosdb_sql_container.{db}"),
                "values": {"name": "orders", "database_name": db, "partition_key_paths": [path], "partition_key_version": 2}})
        };
        let plan = serde_json::json!({"planned_values": {"root_module": {"resources": [container("shop", "/customerId"), container("archive", "/year")]}},
            "resource_changes": [{"type": "azurerm_cosmosdb_sql_container", "change": {"after": {"name": "orders", "database_name": "shop", "partition_key_paths": ["/customerId"], "partition_key_version": 2}}}]});
        let found = read("plan.json", &plan.to_string()).unwrap();
        let names: Vec<&str> = found.iter().map(|d| d.qualified.as_str()).collect();
        assert_eq!(names, ["shop/orders", "archive/orders"]);
        let e = pick("plan.json", found.clone(), Some("orders"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("several containers are named \"orders\""), "{e}");
        let archive = pick("plan.json", found, Some("archive/orders")).unwrap();
        assert_eq!(
            archive.key("plan.json", "container").unwrap().0.to_string(),
            "/year"
        );
    }

    #[test]
    fn terraform_twins_whose_database_is_known_after_apply_go_by_address() {
        // Each resource twice (planned values, a change's `after`), no database_name in
        // either: known only after apply.
        let values = |path: &str| serde_json::json!({"name": "events", "partition_key_paths": [path], "partition_key_version": 2});
        let planned = |id: &str, path: &str| {
            let address = format!("azurerm_cosmosdb_sql_container.{id}");
            let planned = serde_json::json!({"type": TERRAFORM_TYPE, "address": address, "values": values(path)});
            let change = serde_json::json!({"type": TERRAFORM_TYPE, "address": address, "change": {"after": values(path)}});
            (planned, change)
        };
        let ((pa, ca), (pb, cb)) = (planned("a", "/tenantId"), planned("b", "/tenantId/x"));
        let plan = serde_json::json!({"planned_values": {"root_module": {"resources": [pa, pb]}},
            "resource_changes": [ca, cb]});
        let found = read("plan.json", &plan.to_string()).unwrap();
        let names: Vec<&str> = found.iter().map(|d| d.qualified.as_str()).collect();
        let addresses = [
            "azurerm_cosmosdb_sql_container.a",
            "azurerm_cosmosdb_sql_container.b",
        ];
        assert_eq!(names, addresses);
        let e = pick("plan.json", found.clone(), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains(addresses[1]), "{e}");
        let b = pick("plan.json", found, Some(addresses[1])).unwrap();
        assert_eq!(
            b.key("plan.json", "container").unwrap().0.to_string(),
            "/tenantId/x"
        );
    }
}
