//! The request-unit cost model, every constant in one place with its source
//! (from the Cosmos DB request-unit documentation).
//!
//! An observed `ru` in the log replaces the model for that operation.

/// Point read of a 1 KB item: 1 RU; of a 100 KB item: 10 RU ("request-units",
/// "optimize-cost-reads-writes"). Between and beyond, the cost follows the power law
/// through both points: `1 · KB^0.5`.
pub const READ_RU_PER_KB: f64 = 1.0;
/// The exponent of the read curve: `log(10 / 1) / log(100)`.
pub const READ_EXPONENT: f64 = 0.5;
/// Insert of a 1 KB item without indexing: about 5.5 RU; of 100 KB about 50 RU
/// ("optimize-cost-reads-writes", "key-value-store-cost"): `5.5 · KB^0.479`.
pub const CREATE_RU_PER_KB: f64 = 5.5;
/// The exponent of the write curve: `log(50 / 5.5) / log(100)`.
pub const CREATE_EXPONENT: f64 = 0.479;
/// Replace and upsert cost about twice an insert ("optimize-cost-reads-writes").
pub const REPLACE_FACTOR: f64 = 2.0;
/// A query pays about 2.5 RU for every physical partition whose index it checks, even with
/// no match ("how-to-query-container": "minimum of about 2.5 RUs each time you check a
/// physical partition's index").
pub const QUERY_RU_PER_PARTITION: f64 = 2.5;
/// Returned documents cost about 1 RU per KB ("1000 results of 1 KB ≈ 1000 RU").
pub const QUERY_RU_PER_RESULT_KB: f64 = 1.0;
/// Documents a query returns when neither `TOP`/`LIMIT` nor an aggregate bounds it: an
/// assumption (a page of ten), the same for every candidate, so it shifts load, not rank.
pub const DEFAULT_QUERY_RESULTS: f64 = 10.0;

fn kb(bytes: f64) -> f64 {
    (bytes / 1024.0).max(1.0)
}

/// A point read of an item of `bytes`.
pub fn read(bytes: f64) -> f64 {
    READ_RU_PER_KB * kb(bytes).powf(READ_EXPONENT)
}

/// A create (also delete) of an item of `bytes`.
pub fn create(bytes: f64) -> f64 {
    CREATE_RU_PER_KB * kb(bytes).powf(CREATE_EXPONENT)
}

/// A replace, upsert or patch of an item of `bytes`.
pub fn replace(bytes: f64) -> f64 {
    REPLACE_FACTOR * create(bytes)
}

/// A query visiting `partitions` and returning `results` documents of `bytes` each:
/// `(per-partition overhead, cost of the results)`.
pub fn query(partitions: usize, results: f64, bytes: f64) -> (f64, f64) {
    (
        QUERY_RU_PER_PARTITION * partitions as f64,
        QUERY_RU_PER_RESULT_KB * results * bytes / 1024.0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_examples() {
        assert!((read(1024.0) - 1.0).abs() < 1e-9);
        assert!((read(100.0 * 1024.0) - 10.0).abs() < 1e-9);
        assert!((create(1024.0) - 5.5).abs() < 1e-9);
        assert!((create(100.0 * 1024.0) - 50.0).abs() < 0.5);
        assert!((replace(1024.0) - 11.0).abs() < 1e-9);
        // Items under 1 KB cost the 1 KB price.
        assert!((read(100.0) - 1.0).abs() < 1e-9);
        let (overhead, results) = query(4, 1000.0, 1024.0);
        assert!((overhead - 10.0).abs() < 1e-9 && (results - 1000.0).abs() < 1e-9);
    }
}
