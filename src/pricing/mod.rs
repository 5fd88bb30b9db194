//! Prices, in one place: what Cosmos DB charges a request in request units, and what
//! throughput and storage cost a month. No statistics and no candidates here: the replay
//! charges each operation by [`charge`], and the advisor turns a key's need into a bill
//! with [`bill`] under the billing model of [`throughput`].
//!
//! * [`charge`]: the request-unit cost of a point read, a write, a query (with its
//!   per-partition overhead), every constant with its source;
//! * [`throughput`]: how provisioned throughput is billed, one type per billing model
//!   (manual, autoscale): its list price, the least RU/s a container may have and bills;
//! * [`bill`]: the prices given ([`Prices`]) and the monthly bill for RU/s and storage.

pub mod bill;
pub mod charge;
pub mod throughput;

pub use bill::{Prices, monthly, monthly_storage};
pub use throughput::{Autoscale, Manual, ThroughputBilling, billing, min_ru};
