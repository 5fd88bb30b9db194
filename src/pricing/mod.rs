//! Prices, in one place: what Cosmos DB charges a request in request units, and what
//! throughput and storage cost a month. No statistics and no candidates here: the replay
//! charges each operation by [`charge`], and the advisor turns a key's [`Demand`] into a
//! bill with [`bill`] under the billing model of [`throughput`].
//!
//! * [`charge`]: the request-unit cost of a point read, a write by what it indexes, a query
//!   (with its per-partition overhead), by consistency, every constant with its source;
//! * [`throughput`]: how throughput is billed, one type per billing model (manual,
//!   autoscale by container or by partition, serverless): its list price, the least RU/s a
//!   container may have, its steps, and what a month of demand costs;
//! * [`relief`]: what the service does for a hot spot without a new key (throughput
//!   redistribution, burst capacity, merge);
//! * [`bill`]: the prices a run assumes ([`Prices`]: regions, multi-region writes, reserved
//!   capacity, consistency) and the monthly bill for RU/s and storage.

pub mod bill;
pub mod charge;
pub mod relief;
pub mod throughput;

pub use bill::{Given, Prices, Reserved, monthly, monthly_storage};
pub use throughput::{
    Autoscale, AutoscaleMode, Demand, Manual, Model, Serverless, ThroughputBilling,
};
