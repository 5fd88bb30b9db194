//! pkadvisor: a partition-key advisor for Azure Cosmos DB.
//!
//! The library holds everything but the command line: the partition [`engine`] that
//! hashes, splits and routes like Cosmos DB, and the document readers in [`input`] that
//! stream sample documents into it. The `pkadvisor` binary parses flags and dispatches.
#![deny(missing_docs)]

pub mod engine;
pub mod field;
pub mod input;
