//! pkadvisor: a partition-key advisor for Azure Cosmos DB.
//!
//! The library holds everything but the command line: the partition [`engine`] that
//! hashes, splits and routes like Cosmos DB, and the candidate [`key`] grammar with the key
//! values it gives documents. The `pkadvisor` binary parses flags and dispatches to it.
#![deny(missing_docs)]

pub mod engine;
pub mod field;
pub mod key;
pub mod report;
pub mod stats;
pub mod time;
pub mod query;
