//! The workload: a query log read into operations, routed per candidate key through the
//! engine, and charged request units by a cost model.

pub mod cost;
pub mod format;
pub mod log;
pub mod monitor;
pub mod op;
pub mod replay;
pub mod route;
pub mod spread;

pub use log::{Log, LogError, read_log};
pub use op::{OpKind, Operation};
