//! The prices a run assumes (list prices by default, Microsoft's Cosmos DB pricing
//! documentation) and the monthly bill: throughput by the billing model of
//! [`super::throughput`], storage at a price per GB-month, both in every region.

use super::charge::Consistency;
use super::throughput::{
    HOURS_PER_MONTH, Model, RuPrice, SERVERLESS_RU_MILLION, ThroughputBilling,
};
use crate::engine::{GB, Throughput};

/// List price of a GB stored for a month (USD).
pub const GB_MONTH: f64 = 0.25;
/// Where the default prices come from.
pub const LIST_PRICE_SOURCE: &str = "list prices from Microsoft's pricing documentation (USD, a US region); real prices vary by region and agreement";

/// Reserved capacity bought for throughput.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reserved {
    /// One year: about 20% off.
    OneYear,
    /// Three years: about 30% off.
    ThreeYears,
}

impl Reserved {
    /// The share taken off the throughput bill (below 1 M RU/s; more at larger sizes).
    pub fn discount(self) -> f64 {
        match self {
            Reserved::OneYear => 0.20,
            Reserved::ThreeYears => 0.30,
        }
    }

    /// Its name as `--reserved` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Reserved::OneYear => "1y",
            Reserved::ThreeYears => "3y",
        }
    }
}

/// The prices and scale the cost uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Prices {
    /// The billing model.
    pub model: Model,
    /// USD per 100 RU/s for an hour under `model` (its list price, or the price given).
    pub ru_hour_per_100: f64,
    /// Whether `ru_hour_per_100` was given (it then holds for every model).
    pub ru_hour_given: bool,
    /// USD per million RU (serverless).
    pub ru_million: f64,
    /// USD per GB-month.
    pub gb_month: f64,
    /// Regions holding the container (throughput and storage are paid in each).
    pub regions: u32,
    /// Whether every region takes writes (the multi-write price).
    pub multi_region_writes: bool,
    /// Reserved capacity, a discount on throughput.
    pub reserved: Option<Reserved>,
    /// The consistency of reads (strong and bounded staleness reads cost twice).
    pub consistency: Consistency,
    /// The share of the real traffic the log holds (its rates are divided by it).
    pub log_share: f64,
    /// Where the prices come from.
    pub source: String,
    /// The indexing policy the writes are charged under, described.
    pub indexing: String,
    /// The throughput the container is given by a flag or a template (`None` for the
    /// default and serverless): billed as provisioned beside what a key needs, and the
    /// highest it has had, which bounds how far it may come down.
    pub given: Option<Given>,
}

/// Throughput given to the container: RU/s (an autoscale maximum) and where it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Given {
    /// RU/s, or the autoscale maximum.
    pub ru: f64,
    /// The flag or the template that gives it.
    pub source: String,
}

impl Prices {
    /// List prices for `throughput`'s mode, one region, a log of all the traffic.
    pub fn list(throughput: Throughput) -> Prices {
        Prices::of_model(Model::of(throughput))
    }

    /// List prices for `model`, one region, a log of all the traffic.
    pub fn of_model(model: Model) -> Prices {
        Prices {
            model,
            ru_hour_per_100: model.billing().list_ru_hour(false),
            ru_hour_given: false,
            ru_million: SERVERLESS_RU_MILLION,
            gb_month: GB_MONTH,
            regions: 1,
            multi_region_writes: false,
            reserved: None,
            consistency: Consistency::Session,
            log_share: 1.0,
            source: LIST_PRICE_SOURCE.to_owned(),
            indexing: crate::indexing::DEFAULT_SOURCE.to_owned(),
            given: None,
        }
    }

    /// The billing rules of the model.
    pub fn billing(&self) -> &'static dyn ThroughputBilling {
        self.model.billing()
    }

    /// The price of 100 RU/s for an hour under `billing`: its list price (with or without
    /// multi-region writes) unless a price was given, which holds for every model.
    pub fn ru_hour(&self, billing: &dyn ThroughputBilling) -> f64 {
        match self.ru_hour_given {
            true => self.ru_hour_per_100,
            false => billing.list_ru_hour(self.multi_region_writes),
        }
    }

    /// The least RU/s (an autoscale maximum) the given throughput's history allows under
    /// `billing`: 0 when none is given.
    pub fn history_min(&self, billing: &dyn ThroughputBilling) -> f64 {
        self.given
            .as_ref()
            .map_or(0.0, |g| billing.history_min(g.ru))
    }

    /// What throughput costs under `billing`: its price, regions and discount.
    pub fn ru_price(&self, billing: &dyn ThroughputBilling) -> RuPrice {
        RuPrice {
            ru_hour: self.ru_hour(billing),
            ru_million: self.ru_million,
            regions: self.regions.max(1),
            discount: self.reserved.map_or(0.0, Reserved::discount),
        }
    }
}

/// USD a month for `ru` RU/s provisioned every hour at `price` per 100 RU/s-hour, in every
/// region, less reserved capacity's discount.
pub fn monthly(ru: f64, price: f64, prices: &Prices) -> f64 {
    let discount = prices.reserved.map_or(0.0, Reserved::discount);
    ru / 100.0 * price * HOURS_PER_MONTH * prices.regions.max(1) as f64 * (1.0 - discount)
}

/// USD a month for storing `storage_bytes` (at least 1 GB), in every region.
pub fn monthly_storage(storage_bytes: u64, prices: &Prices) -> f64 {
    let gb = storage_bytes as f64 / GB as f64;
    gb.max(1.0) * prices.gb_month * prices.regions.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::super::throughput::{Autoscale, AutoscaleMode, MANUAL_RU_HOUR};
    use super::*;

    #[test]
    fn list_prices_follow_the_mode_and_the_write_regions() {
        assert_eq!(
            Prices::list(Throughput::Manual(400.0)).ru_hour_per_100,
            0.008
        );
        assert_eq!(
            Prices::list(Throughput::Autoscale(4000.0)).ru_hour_per_100,
            0.012
        );
        // 1,000 RU/s for a month at the manual price: 10 × 0.008 × 730 = 58.4 USD.
        let usd = 1_000.0 / 100.0 * MANUAL_RU_HOUR * HOURS_PER_MONTH;
        assert!((usd - 58.4).abs() < 1e-9);
        let mut multi = Prices::list(Throughput::Manual(400.0));
        multi.multi_region_writes = true;
        let auto = Autoscale {
            mode: AutoscaleMode::Container,
        };
        assert_eq!(multi.ru_hour(&auto), 0.016);
        assert_eq!(multi.ru_hour(Model::Manual.billing()), 0.016);
    }

    #[test]
    fn a_price_given_holds_for_every_model_and_reserved_capacity_discounts_it() {
        let manual = Prices::list(Throughput::Manual(400.0));
        let auto = Autoscale::default();
        assert_eq!(manual.ru_hour(&auto), 0.012);
        let given = Prices {
            ru_hour_per_100: 0.02,
            ru_hour_given: true,
            reserved: Some(Reserved::ThreeYears),
            ..manual
        };
        assert_eq!(given.ru_hour(&auto), 0.02);
        // 1,000 RU/s at 0.02, 30% off: 10 × 0.02 × 730 × 0.7 = 102.2 USD.
        assert!((monthly(1_000.0, 0.02, &given) - 102.2).abs() < 1e-9);
        assert_eq!(given.ru_price(&auto).discount, 0.3);
    }
}
