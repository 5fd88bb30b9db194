//! The monthly bill at the prices given (list prices by default, Microsoft's Cosmos DB
//! pricing documentation): throughput = RU/s × 730 h × the price per 100 RU/s-hour,
//! storage = GB × the price per GB-month, both × regions.

use super::throughput::{Manual, ThroughputBilling, billing};
use crate::engine::{GB, Throughput};

/// Hours in a billing month.
pub const HOURS_PER_MONTH: f64 = 730.0;
/// List price of a GB stored for a month (USD).
pub const GB_MONTH: f64 = 0.25;
/// Where the default prices come from.
pub const LIST_PRICE_SOURCE: &str = "list prices from Microsoft's pricing documentation (USD, a US region, one write region); real prices vary by region and agreement";

/// The prices and scale the cost uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Prices {
    /// USD per 100 RU/s for an hour.
    pub ru_hour_per_100: f64,
    /// USD per GB-month.
    pub gb_month: f64,
    /// Regions holding the container (both throughput and storage multiply).
    pub regions: u32,
    /// The share of the real traffic the log holds (its rates are divided by it).
    pub log_share: f64,
    /// Where the prices come from.
    pub source: String,
}

impl Prices {
    /// List prices for `throughput`'s mode, one region, a log of all the traffic.
    pub fn list(throughput: Throughput) -> Prices {
        Prices {
            ru_hour_per_100: billing(throughput).list_ru_hour(),
            gb_month: GB_MONTH,
            regions: 1,
            log_share: 1.0,
            source: LIST_PRICE_SOURCE.to_owned(),
        }
    }

    /// The price of 100 RU/s for an hour under `model`: its list price when the price
    /// given is manual's list price, else the price given (a price given holds for every
    /// model).
    pub fn ru_hour(&self, model: &dyn ThroughputBilling) -> f64 {
        if (self.ru_hour_per_100 - Manual.list_ru_hour()).abs() < 1e-12 {
            model.list_ru_hour()
        } else {
            self.ru_hour_per_100
        }
    }
}

/// USD a month for `ru` RU/s at `price` per 100 RU/s-hour, in every region.
pub fn monthly(ru: f64, price: f64, prices: &Prices) -> f64 {
    ru / 100.0 * price * HOURS_PER_MONTH * prices.regions.max(1) as f64
}

/// USD a month for storing `storage_bytes` (at least 1 GB), in every region.
pub fn monthly_storage(storage_bytes: u64, prices: &Prices) -> f64 {
    let gb = storage_bytes as f64 / GB as f64;
    gb.max(1.0) * prices.gb_month * prices.regions.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::super::throughput::{Autoscale, MANUAL_RU_HOUR};
    use super::*;

    #[test]
    fn list_prices_follow_the_mode() {
        assert_eq!(
            Prices::list(Throughput::Manual(400.0)).ru_hour_per_100,
            0.008
        );
        assert_eq!(
            Prices::list(Throughput::Autoscale(4000.0)).ru_hour_per_100,
            0.012
        );
        // 1,000 RU/s for a month at the manual price: 10 × 0.008 × 730 = 58.4 USD.
        let ru = 1_000.0_f64;
        let usd = ru / 100.0 * MANUAL_RU_HOUR * HOURS_PER_MONTH;
        assert!((usd - 58.4).abs() < 1e-9);
    }

    #[test]
    fn autoscale_is_priced_at_its_list_price_unless_a_price_is_given() {
        let manual = Prices::list(Throughput::Manual(400.0));
        assert_eq!(manual.ru_hour(&Autoscale), 0.012);
        let given = Prices {
            ru_hour_per_100: 0.02,
            ..manual
        };
        assert_eq!(given.ru_hour(&Autoscale), 0.02);
    }
}
