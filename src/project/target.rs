//! The target a candidate is projected onto: the container's size and provisioned
//! throughput, with the defaults the report states when none is given.

use crate::engine::{GB, Throughput};

/// The container size and throughput to project onto.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Bytes the container is expected to hold.
    pub storage_bytes: u64,
    /// Provisioned throughput.
    pub throughput: Throughput,
}

impl Target {
    /// Storage projected onto when none is given: 1 TB.
    pub const DEFAULT_STORAGE: u64 = 1_000 * GB;
    /// The largest storage projected onto: 1 PB (20,000 partitions of 50 GB, past which
    /// the engine's splits take minutes).
    pub const MAX_STORAGE: u64 = 1_000_000_000_000_000;
    /// Throughput projected onto when none is given: 20,000 RU/s manual.
    pub const DEFAULT_THROUGHPUT: Throughput = Throughput::Manual(20_000.0);
}
