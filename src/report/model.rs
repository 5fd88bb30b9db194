//! The report model: plain data that every renderer reads. Serialised as-is for
//! `--format json`, so its field names are a contract (see DESIGN.md); add fields, never
//! rename them without bumping [`SCHEMA_VERSION`].

use serde::Serialize;

/// Version of the JSON report's shape.
pub const SCHEMA_VERSION: &str = "0.1";

/// One run's findings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Version of this shape.
    pub schema_version: String,
    /// The program that wrote it.
    pub tool: Tool,
    /// What was read.
    pub input: InputSummary,
    /// Candidates, in the order given.
    pub candidates: Vec<CandidateReport>,
}

/// Name and version of the program.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tool {
    /// `pkadvisor`.
    pub name: String,
    /// Its version.
    pub version: String,
}

impl Default for Tool {
    fn default() -> Self {
        Tool {
            name: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

/// What was read.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct InputSummary {
    /// Documents read (skipped ones excluded).
    pub documents: u64,
    /// Bytes read, after decompression.
    pub bytes: u64,
    /// Documents skipped as invalid (`--skip-invalid`).
    pub invalid: u64,
    /// Logged operations read.
    pub operations: u64,
}

/// One candidate key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CandidateReport {
    /// The key.
    pub key: KeyInfo,
    /// Distinct key values.
    pub cardinality: Cardinality,
    /// Value-level counts.
    pub values: ValueCounts,
    /// The largest key values by bytes.
    pub largest_values: Vec<LargestValue>,
}

/// A candidate's identity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyInfo {
    /// Canonical spec, as `--key` accepts it.
    pub spec: String,
    /// `single`, `synthetic` or `hierarchical`.
    pub kind: String,
    /// The Cosmos DB `partitionKey` object.
    pub definition: serde_json::Value,
}

/// Distinct values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cardinality {
    /// Count or estimate.
    pub estimate: u64,
    /// Whether it is an exact count.
    pub exact: bool,
}

/// Document-level counts for one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueCounts {
    /// Documents seen.
    pub documents: u64,
    /// Documents without (a level of) the key.
    pub missing: u64,
    /// Documents whose key value is an object or array.
    pub invalid: u64,
    /// Documents with a number beyond ±2^53 in the key.
    pub unsafe_numbers: u64,
    /// Documents with a key value over 101 bytes.
    pub over_101_bytes: u64,
    /// Documents with a key value over 2,048 bytes.
    pub over_2048_bytes: u64,
}

/// One of the largest values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LargestValue {
    /// The value (JSON text; a hash with `--redact`).
    pub value: String,
    /// Documents with it.
    pub documents: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Their share of the sample's bytes (0–1).
    pub share: f64,
    /// Whether the figures are exact (otherwise sketch estimates).
    pub exact: bool,
}
