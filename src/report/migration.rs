//! The model of `pkadvisor migrate`'s plan: what would stop the copy (preflight), what the
//! copy costs and how long it takes, and the container it leaves. Figures only; the
//! renderers say them.

use serde::Serialize;

use super::model::{InputSummary, Tool};

/// The version of the plan's JSON (`schema/migrate.schema.json`).
pub const MIGRATION_SCHEMA_VERSION: &str = "1.0";

/// A plan for copying a container into one of another key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MigrationReport {
    /// `1.0`.
    pub schema_version: String,
    /// The tool.
    pub tool: Tool,
    /// What was read.
    pub input: InputSummary,
    /// The key the container has.
    pub from: String,
    /// The key the copy gives the new container.
    pub to: String,
    /// The container's size the sample is projected to, bytes.
    pub storage_bytes: u64,
    /// Items at that size.
    pub items: u64,
    /// What would stop the copy or needs doing by hand.
    pub preflight: Preflight,
    /// The copy's request units, money and duration.
    pub copy: CopyCost,
    /// The new container after the copy.
    pub after: After,
    /// Whether the copy would complete: no value past 20 GB, no (id, key) collision, and
    /// RU/s left on the source to read it.
    pub passed: bool,
    /// Why it would not, one reason each.
    pub failures: Vec<String>,
    /// Remarks: defaults taken, what is assumed.
    pub notes: Vec<String>,
}

/// What the data and the container say before the copy starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preflight {
    /// The order the copy reads the source in, in words.
    pub read_order: String,
    /// Values of the new key projected past the 20 GB logical-partition limit, in the
    /// order the copy reaches them.
    pub breaches: Vec<Breach>,
    /// (id, new key) pairs that several source items hold.
    pub collisions: CollisionsReport,
    /// Documents without (a level of) the new key: in the sample, and at the target.
    pub missing: Missing,
    /// The container's `defaultTtl` (seconds; -1: items decide), which the copy does not
    /// carry; `null` when unknown or off.
    pub default_ttl: Option<i64>,
    /// Whether an infrastructure file declares the container (a `null` `default_ttl` is
    /// then time to live off: nothing to set).
    pub ttl_declared: bool,
    /// The portal's change-partition-key limits passed, and a merge in the history.
    pub portal: Vec<String>,
}

/// A value of the new key that passes 20 GB during the copy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Breach {
    /// The value (JSON text).
    pub value: String,
    /// Its projected bytes at the target.
    pub bytes: u64,
    /// The low end of its 95% interval: past the limit, the breach is beyond chance.
    pub low_bytes: u64,
    /// Sample documents holding it.
    pub documents: u64,
    /// The share of the copy (by bytes, in read order) done when it passes 20 GB and the
    /// copy stops with 403 substatus 1014.
    pub stops_at: f64,
    /// Whether it passes 20 GB beyond chance: its own low end does, or the values past the
    /// limit do together (their counts pooled, as `LOGICAL_PARTITION_LIMIT` judges them).
    pub beyond_chance: bool,
}

/// The copy's insert conflicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CollisionsReport {
    /// Pairs in the sample (at most [`MAX_LISTED`] listed in `pairs`).
    pub sample_pairs: u64,
    /// Inserts that would conflict, in the sample.
    pub sample_conflicts: u64,
    /// Inserts that would conflict at the target's size: the sample's share of its items
    /// (a lower bound: a snapshot sees both items of a pair less often than one).
    pub estimated_conflicts: f64,
    /// Sample documents repeating an item (the same id and source value), counted once.
    pub repeated: u64,
    /// The pairs: id, value, items.
    pub pairs: Vec<CollisionPair>,
}

/// Pairs listed at most.
pub const MAX_LISTED: usize = 20;

/// One colliding (id, new key) pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CollisionPair {
    /// The item id.
    pub id: String,
    /// The new key's value.
    pub value: String,
    /// Source items holding the pair.
    pub items: u64,
}

/// Documents without the new key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Missing {
    /// In the sample.
    pub documents: u64,
    /// At the target.
    pub items: u64,
    /// Their bytes at the target, in the one logical partition they share.
    pub bytes: u64,
}

/// The copy's request units, money and duration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CopyCost {
    /// RU to read every item through the change feed (a point read each, by size).
    pub read_ru: f64,
    /// RU to write every item into the new container (a create under its indexing policy).
    pub write_ru: f64,
    /// With `--online`: RU the source's own writes pay extra while the copy runs (over the
    /// slowest duration); `null` offline or without a log's rates.
    pub online_ru: Option<f64>,
    /// The surcharge on the source's writes taken with `--online` (1: charged double).
    pub online_surcharge: Option<f64>,
    /// RU/s the source has left for the copy's reads beyond its workload.
    pub source_ru_free: f64,
    /// RU/s the new container is given during the copy.
    pub copy_ru: f64,
    /// Its physical partitions during the copy.
    pub copy_partitions: usize,
    /// RU/s each of them takes (at most 10,000).
    pub partition_ru: f64,
    /// The share of the writes' RU that the busiest of them takes.
    pub hottest_share: f64,
    /// Whether the account is serverless (the copy is billed by its RU, and the new
    /// container serves what its partitions do).
    pub serverless: bool,
    /// The duration's bounds, seconds; `null` when the source has no RU/s left for it.
    pub seconds: Option<Range>,
    /// What bounds the fast end: `source reads`, `target RU/s` or `hottest partition`.
    pub bound: Option<String>,
    /// USD: the new container's throughput over the copy's hours (whole clock hours), in
    /// every region, at list price; serverless: the copy's RU. `null` with `seconds`.
    pub money: Option<Range>,
}

/// A low and a high figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Range {
    /// The low end.
    pub low: f64,
    /// The high end.
    pub high: f64,
}

/// The new container after the copy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct After {
    /// Physical partitions for the workload alone (created at its throughput).
    pub workload_partitions: usize,
    /// Physical partitions left after the copy (splits are not undone), for a container
    /// created at the workload's throughput and raised for the copy.
    pub partitions: usize,
    /// Physical partitions of a new container created at the copy's throughput instead
    /// (⌈RU/s ÷ 6,000⌉ manual, ÷ 10,000 autoscale, split for its storage).
    pub created_at_copy_partitions: usize,
    /// RU/s the workload's reads that visit every partition pay for the partitions the
    /// copy added; `null` without a log's rates.
    pub fan_out_extra_ru: Option<f64>,
    /// The RU/s the workload runs at afterwards.
    pub ru: f64,
    /// Whether the container could merge partitions back (under 3,000 RU/s and 20 GB each
    /// on average, one write region).
    pub merge_possible: bool,
}
