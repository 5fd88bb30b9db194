//! The request-unit cost model, every constant in one place with its source (Microsoft's
//! "understand request unit consumption" and "optimize the cost of reads and writes"
//! articles, and the query-metrics example of the latter).
//!
//! * Point reads and the document part of writes follow the published table by item size
//!   (1 KB to 2 MB), interpolated linearly between its sizes; an item under 1 KB costs the
//!   1 KB figure, one past 2 MB the 2 MB figure in proportion.
//! * A write adds 0.2 RU per indexed term it adds or removes: a create of 1 KB with 10
//!   terms costs 5 + 0.2 × 10 = 7 RU (the table's 4.95 for the document); a replace deletes
//!   and inserts the document and the terms that changed (10 + 0.4 × changed); a patch is a
//!   replace plus 0.4 RU per changed term; a delete is a create's charge.
//! * A query checks the index of every physical partition it visits, at least about 2.5 RU
//!   each even with no match; a partition that returns results costs an index lookup plus,
//!   per result, what reading it costs (below 1 KB, in proportion to its size). The lookup
//!   is fitted to the published query-metrics example (one 9,963-byte item retrieved and
//!   returned: 3.19 RU), which also gives about 1,000 RU for 1,000 results of 1 KB as the
//!   docs say.
//! * Strong and bounded-staleness reads cost twice the charge.
//!
//! An observed `ru` in the log replaces the model for that operation.

/// The published charges by item size: (KB, point read RU, write RU), session or eventual
/// consistency ("understand request unit consumption", document size table).
pub const BY_SIZE: [(f64, f64, f64); 12] = [
    (1.0, 1.00, 4.95),
    (2.0, 1.04, 6.29),
    (4.0, 1.14, 6.67),
    (8.0, 1.33, 7.04),
    (16.0, 1.67, 9.52),
    (32.0, 2.19, 11.23),
    (64.0, 4.76, 22.67),
    (128.0, 9.95, 48.19),
    (256.0, 20.28, 98.29),
    (512.0, 40.95, 184.57),
    (1024.0, 145.90, 625.00),
    (2048.0, 291.80, 1250.00),
];
/// RU per indexed term a write adds or removes ("0.2 × 10 (indexing)").
pub const RU_PER_TERM: f64 = 0.2;
/// A patch's own charge per changed term ("0.4 * 2 (base charge for patch)").
pub const PATCH_RU_PER_TERM: f64 = 0.4;
/// Indexed terms a replace, upsert of an existing item or patch changes, when the log does
/// not say: one, as Microsoft's capacity planner assumes ("updates: one property changed").
pub const CHANGED_TERMS: f64 = 1.0;
/// A query pays at least about 2.5 RU for every physical partition whose index it checks,
/// even with no match ("how-to-query-container": "minimum of about 2.5 RUs each time you
/// check a physical partition's index").
pub const QUERY_RU_PER_PARTITION: f64 = 2.5;
/// What a partition's index lookup costs a query beyond its results: 3.19 RU for one
/// 9,963-byte item less what reading that item costs (1.40 RU by [`read`]).
pub const QUERY_LOOKUP_RU: f64 = 1.79;
/// Documents a query returns when neither `TOP`/`LIMIT` nor an aggregate bounds it: an
/// assumption (a page of ten), the same for every candidate, so it shifts load, not rank.
pub const DEFAULT_QUERY_RESULTS: f64 = 10.0;

/// The table's column `column` (1: reads, 2: writes) at `bytes`, interpolated.
fn by_size(bytes: f64, column: usize) -> f64 {
    let kb = (bytes / 1024.0).max(1.0);
    let at = |i: usize| (BY_SIZE[i].0, [BY_SIZE[i].1, BY_SIZE[i].2][column - 1]);
    for i in 1..BY_SIZE.len() {
        let ((k0, v0), (k1, v1)) = (at(i - 1), at(i));
        if kb <= k1 {
            return v0 + (v1 - v0) * (kb - k0) / (k1 - k0);
        }
    }
    let (k, v) = at(BY_SIZE.len() - 1);
    v * kb / k
}

/// A point read of an item of `bytes`, session or eventual consistency.
pub fn read(bytes: f64) -> f64 {
    by_size(bytes, 1)
}

/// Writing the document of `bytes` (insert or delete), without its index terms.
pub fn document_write(bytes: f64) -> f64 {
    by_size(bytes, 2)
}

/// A create of an item of `bytes` with `terms` indexed terms.
pub fn create(bytes: f64, terms: f64) -> f64 {
    document_write(bytes) + RU_PER_TERM * terms
}

/// A delete of an item of `bytes` with `terms` indexed terms: the document and its terms.
pub fn delete(bytes: f64, terms: f64) -> f64 {
    create(bytes, terms)
}

/// A replace (or an upsert of an existing item) of `bytes` changing `changed` indexed terms:
/// the old document deleted, the new one inserted, each changed term removed and added.
pub fn replace(bytes: f64, changed: f64) -> f64 {
    2.0 * document_write(bytes) + 2.0 * RU_PER_TERM * changed
}

/// A patch of an item of `bytes` changing `changed` indexed terms: a replace and the
/// patch's own charge per term.
pub fn patch(bytes: f64, changed: f64) -> f64 {
    replace(bytes, changed) + PATCH_RU_PER_TERM * changed
}

/// What a query pays for one result of `bytes`: what reading it costs, and below 1 KB
/// that in proportion to its size (a query loads documents, not whole pages: 1,000 results
/// of 1 KB cost about 1,000 RU).
pub fn result(bytes: f64) -> f64 {
    match bytes < 1024.0 {
        true => read(1024.0) * bytes.max(0.0) / 1024.0,
        false => read(bytes),
    }
}

/// A query visiting `partitions` and returning `results` documents of `bytes` each, the
/// results shared evenly by the partitions: `(what the partitions charge beyond the
/// results, what the results cost)`. Each partition charges its index lookup and its
/// results ([`result`]), and at least [`QUERY_RU_PER_PARTITION`].
pub fn query(partitions: usize, results: f64, bytes: f64) -> (f64, f64) {
    let n = partitions.max(1) as f64;
    let payload = results * result(bytes);
    let each = (QUERY_LOOKUP_RU + payload / n).max(QUERY_RU_PER_PARTITION);
    (each * n - payload, payload)
}

/// A query's whole charge on one partition.
pub fn query_one(results: f64, bytes: f64) -> f64 {
    let (overhead, payload) = query(1, results, bytes);
    overhead + payload
}

/// The consistency level of the account's reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Consistency {
    /// Strong: reads cost twice.
    Strong,
    /// Bounded staleness: reads cost twice.
    BoundedStaleness,
    /// Session (the default of new accounts).
    #[default]
    Session,
    /// Consistent prefix.
    ConsistentPrefix,
    /// Eventual.
    Eventual,
}

impl Consistency {
    /// What a read costs under it, in times its session charge: 2 for strong and bounded
    /// staleness ("the RU cost of any read operation is doubled").
    pub fn read_factor(self) -> f64 {
        match self {
            Consistency::Strong | Consistency::BoundedStaleness => 2.0,
            _ => 1.0,
        }
    }

    /// Its name as the flag takes it.
    pub fn name(self) -> &'static str {
        match self {
            Consistency::Strong => "strong",
            Consistency::BoundedStaleness => "bounded-staleness",
            Consistency::Session => "session",
            Consistency::ConsistentPrefix => "consistent-prefix",
            Consistency::Eventual => "eventual",
        }
    }
}

/// What a container's requests are charged under: its documents' indexed terms and the
/// account's consistency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Charges {
    /// Indexed terms per document (the sample's mean under the indexing policy).
    pub terms: f64,
    /// The consistency of reads.
    pub consistency: Consistency,
}

impl Default for Charges {
    /// Ten terms a document (the published example's), session consistency.
    fn default() -> Self {
        Charges {
            terms: 10.0,
            consistency: Consistency::Session,
        }
    }
}

impl Charges {
    /// A point read of `bytes`.
    pub fn read(&self, bytes: f64) -> f64 {
        read(bytes) * self.consistency.read_factor()
    }

    /// A query's `(overhead, payload)` (see [`query`]), at the consistency's factor.
    pub fn query(&self, partitions: usize, results: f64, bytes: f64) -> (f64, f64) {
        let f = self.consistency.read_factor();
        let (overhead, payload) = query(partitions, results, bytes);
        (overhead * f, payload * f)
    }

    /// A create of `bytes` with the documents' terms.
    pub fn create(&self, bytes: f64) -> f64 {
        create(bytes, self.terms)
    }

    /// A delete of `bytes` with the documents' terms.
    pub fn delete(&self, bytes: f64) -> f64 {
        delete(bytes, self.terms)
    }

    /// A replace of `bytes` changing [`CHANGED_TERMS`] of the terms.
    pub fn replace(&self, bytes: f64) -> f64 {
        replace(bytes, CHANGED_TERMS.min(self.terms))
    }

    /// A patch of `bytes` changing [`CHANGED_TERMS`] of the terms.
    pub fn patch(&self, bytes: f64) -> f64 {
        patch(bytes, CHANGED_TERMS.min(self.terms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KB: f64 = 1024.0;

    #[test]
    fn the_published_examples() {
        // Point reads by size, and between sizes on the line through their neighbours.
        assert!((read(KB) - 1.0).abs() < 1e-9 && (read(100.0) - 1.0).abs() < 1e-9);
        assert!((read(64.0 * KB) - 4.76).abs() < 1e-9);
        assert!((read(3.0 * KB) - (1.04 + 1.14) / 2.0).abs() < 1e-9);
        assert!((read(4096.0 * KB) - 2.0 * 291.8).abs() < 1e-6);
        // Writes: 1 KB with 10 terms 7 RU (4.95 for the document: 6.95), 40 terms 13.
        assert!((create(KB, 10.0) - 7.0).abs() < 0.06);
        assert!((create(KB, 40.0) - 13.0).abs() < 0.06);
        // A replace changing two terms: 10.8; a patch of two: 11.6; a delete of ten: 7.
        assert!((replace(KB, 2.0) - 10.8).abs() < 0.11);
        assert!((patch(KB, 2.0) - 11.6).abs() < 0.11);
        assert!((delete(KB, 10.0) - 7.0).abs() < 0.06);
        // The query-metrics example: one 9,963-byte item, 3.19 RU; a thousand results of
        // 1 KB about 1,000 RU; a partition with no match 2.5 RU.
        assert!((query_one(1.0, 9_963.0) - 3.19).abs() < 0.01);
        assert!((query_one(1_000.0, KB) - 1_000.0).abs() < 2.0);
        // A small result costs its share of a kilobyte: ten of 512 bytes, 1.79 + 5.
        assert!((query_one(10.0, 512.0) - 6.79).abs() < 1e-9);
        let (overhead, results) = query(4, 0.0, KB);
        assert!((overhead - 10.0).abs() < 1e-9 && results == 0.0);
        // Strong reads cost twice; writes do not change.
        let strong = Charges {
            consistency: Consistency::Strong,
            ..Charges::default()
        };
        assert!((strong.read(KB) - 2.0).abs() < 1e-9);
        assert!((strong.create(KB) - Charges::default().create(KB)).abs() < 1e-9);
    }
}
