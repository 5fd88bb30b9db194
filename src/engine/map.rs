//! A plain snapshot of a container's partition map, for renderers (`analyze --explain`).

use serde::Serialize;

use super::container::Throughput;

/// The physical partitions of a container with their ranges, bytes and RU.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartitionMap {
    /// The Cosmos DB `partitionKey` object.
    pub definition: serde_json::Value,
    /// Provisioned throughput.
    pub throughput: Throughput,
    /// RU/s each physical partition gets.
    pub ru_per_partition: f64,
    /// Physical partitions in EPK order.
    pub partitions: Vec<PhysicalView>,
}

/// One physical partition.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhysicalView {
    /// Its id.
    pub id: u64,
    /// The partition it split from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<u64>,
    /// Inclusive start of its EPK range (hex).
    pub min: String,
    /// Exclusive end of its EPK range (hex).
    pub max: String,
    /// Bytes stored.
    pub bytes: u64,
    /// Items stored.
    pub items: u64,
    /// Logical partitions it holds.
    pub logical_partitions: u64,
    /// RU charged to it.
    pub ru: f64,
    /// Its largest logical partitions by bytes.
    pub largest: Vec<LogicalView>,
}

/// One logical partition.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogicalView {
    /// EPK (hex).
    pub epk: String,
    /// Bytes stored.
    pub bytes: u64,
    /// Items stored.
    pub items: u64,
    /// RU charged.
    pub ru: f64,
}
