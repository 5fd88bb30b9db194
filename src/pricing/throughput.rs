//! How provisioned throughput is billed: each billing model is one type implementing
//! [`ThroughputBilling`] (its list price, the least RU/s a container may have, the least
//! it bills), and [`billing`] gives the model of the engine's throughput mode. A new model
//! (autoscale billed by the hour, serverless, reserved capacity) joins as one more type.
//!
//! Prices and minimums are Microsoft's Cosmos DB pricing and provisioned-throughput
//! documentation: manual 400 RU/s and 1 RU/s per GB stored at least; an autoscale maximum
//! 1,000 and 10 per GB at least, billed at 1.5× manual's price and at least a tenth of the
//! maximum.

use crate::engine::{GB, Throughput};

/// List price of 100 RU/s for an hour, manual throughput, one write region (USD).
pub const MANUAL_RU_HOUR: f64 = 0.008;
/// List price of 100 RU/s for an hour, autoscale, one write region (USD): 1.5× manual.
pub const AUTOSCALE_RU_HOUR: f64 = 0.012;
/// The share of its maximum autoscale bills at least.
pub const AUTOSCALE_FLOOR: f64 = 0.1;
/// The least RU/s of one collection of a client-side layout (a container of its own).
pub const MIN_COLLECTION_RU: f64 = 400.0;

/// A way Cosmos DB bills provisioned throughput.
pub trait ThroughputBilling {
    /// List price of 100 RU/s for an hour, one write region (USD).
    fn list_ru_hour(&self) -> f64;

    /// The least RU/s a container of `storage_bytes` may be given.
    fn min_ru(&self, storage_bytes: u64) -> f64;

    /// The least RU/s billed for a container of `storage_bytes`, whatever its load.
    fn least_billed(&self, storage_bytes: u64) -> f64 {
        self.min_ru(storage_bytes)
    }
}

/// Manual throughput: the RU/s provisioned, billed as provisioned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Manual;

impl ThroughputBilling for Manual {
    fn list_ru_hour(&self) -> f64 {
        MANUAL_RU_HOUR
    }

    /// 400, and 1 per GB.
    fn min_ru(&self, storage_bytes: u64) -> f64 {
        let gb = storage_bytes as f64 / GB as f64;
        gb.max(400.0)
    }
}

/// Autoscale: a maximum RU/s provisioned, at a higher price.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Autoscale;

impl ThroughputBilling for Autoscale {
    fn list_ru_hour(&self) -> f64 {
        AUTOSCALE_RU_HOUR
    }

    /// A maximum of 1,000, and 10 per GB.
    fn min_ru(&self, storage_bytes: u64) -> f64 {
        let gb = storage_bytes as f64 / GB as f64;
        (gb * 10.0).max(1_000.0)
    }

    /// A tenth of the maximum, itself at least its minimum.
    fn least_billed(&self, storage_bytes: u64) -> f64 {
        AUTOSCALE_FLOOR * self.min_ru(storage_bytes)
    }
}

/// The billing model of `throughput`'s mode.
pub fn billing(throughput: Throughput) -> &'static dyn ThroughputBilling {
    match throughput {
        Throughput::Manual(_) => &Manual,
        Throughput::Autoscale(_) => &Autoscale,
    }
}

/// The least RU/s a container of `storage_bytes` may have under `throughput`'s mode.
pub fn min_ru(throughput: Throughput, storage_bytes: u64) -> f64 {
    billing(throughput).min_ru(storage_bytes)
}
