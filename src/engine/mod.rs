//! The partition engine: an in-memory model of a Cosmos DB container that hashes keys to
//! effective partition keys exactly as the SDKs do, lays out and splits physical
//! partitions as the service does, and routes operations to them.
//!
//! It knows nothing of the command line or of input formats.

pub mod container;
pub mod definition;
pub mod epk;
pub mod load;
pub mod murmur;
pub mod path;
#[cfg(test)]
mod properties;
pub mod tier;
pub mod value;

pub use container::{Container, GB, Limits, Logical, Physical, SplitError, Throughput};
pub use definition::{DefinitionError, KeyValueError, PartitionKeyDefinition, PartitionKind};
pub use epk::{Epk, EpkRange};
pub use load::{WindowStats, WindowedLoad};
pub use path::{KeyPath, PathError};
pub use tier::Tier;
pub use value::{PkValue, PkValueRef};
