//! pkadvisor: a partition-key advisor for Azure Cosmos DB.
//!
//! The library holds everything but the command line: the partition [`engine`] that
//! hashes, splits and routes like Cosmos DB; the document readers in [`input`]; the
//! candidate [`key`] grammar; the query-language parser in [`query`]; the streaming
//! statistics in [`stats`]; the query [`log`] readers and the workload [`replay`] per
//! candidate; the [`pricing`] of requests, throughput and storage; the [`advisor`] that
//! projects, scores and ranks candidates; the CI [`gate`] of `check` and the infrastructure
//! files it reads ([`iac`]); and the [`report`] renderers. The `pkadvisor` binary parses
//! flags and dispatches to it.
#![deny(missing_docs)]

pub mod advisor;
pub mod engine;
pub mod field;
pub mod flags;
pub mod gate;
pub mod iac;
pub mod indexing;
pub mod input;
pub mod json_error;
pub mod key;
pub mod log;
pub mod measure;
pub mod mix;
pub mod parallel;
pub mod pricing;
pub mod project;
pub mod query;
pub mod redact;
pub mod replay;
pub mod report;
pub mod run;
pub mod stats;
pub mod time;
pub mod units;
