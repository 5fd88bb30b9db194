//! pkadvisor: a partition-key advisor for Azure Cosmos DB.
//!
//! The library holds everything but the command line's parsing and printing, in rooms by
//! stage: the readers of documents ([`input`]), query logs ([`log`]) and infrastructure
//! files ([`iac`]); the candidate [`key`] grammar and the query-language parser
//! ([`query`]); the streaming statistics ([`stats`]); the partition [`engine`] that hashes,
//! splits and routes like Cosmos DB; [`measure`], which measures candidates over the
//! sample; [`project`], which projects each onto the container at the target; the workload
//! [`replay`] per candidate; the [`pricing`] of requests, throughput and storage; the
//! [`advisor`] that judges, scores and ranks, and the CI [`gate`] of `check`; the
//! [`report`] model and its renderers; and [`run`], which turns the [`flags`] of a command
//! into a request and report options. The `pkadvisor` binary parses the flags, calls
//! [`run`] and prints.
#![deny(missing_docs)]

pub mod advisor;
pub mod atomic;
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
pub mod migrate;
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
