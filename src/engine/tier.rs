//! The size and throughput of a fixed collection: each collection of a DocumentDB-era
//! client-side layout is a container of its own that never splits.

use super::GB;

/// A collection's size unless the spec or `--collection-size` says otherwise: 10 GB, the
/// limit of a single-partition collection.
pub const DEFAULT_COLLECTION_BYTES: u64 = 10 * GB;
/// A collection's throughput unless `--collection-throughput` says otherwise: 2,500 RU/s,
/// the legacy S3 performance level.
pub const DEFAULT_COLLECTION_RU: f64 = 2_500.0;
/// The size and throughput of each collection of a layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tier {
    /// Bytes a collection may hold.
    pub bytes: u64,
    /// RU/s each collection is provisioned with.
    pub ru: f64,
}

impl Default for Tier {
    fn default() -> Self {
        Tier {
            bytes: DEFAULT_COLLECTION_BYTES,
            ru: DEFAULT_COLLECTION_RU,
        }
    }
}
