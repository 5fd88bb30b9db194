//! Which values the sample holds of the properties that tell a pilot from a snapshot, and
//! which items: what the log's creates are tested against to say what the sample is (see
//! [`crate::project::kinds`]).
//!
//! It is measured once for the sample, on paths chosen from the documents alone, with a
//! memory of its own: what the sample is does not depend on the keys compared, on their
//! number, or on `--memory`. Each table keeps the values whose hash lies under a limit
//! that halves while it holds more than [`KEPT`] (a sample by hash, the same however the
//! input is divided), so a share of bytes measured on the values kept is the share of all.

use rustc_hash::FxHashMap;

/// Values (or ids) a table keeps at most: Good–Turing's share read from 4,096 values kept
/// at random is within about 1.5 points of all of them'.
pub const KEPT: usize = 1 << 12;

/// Values kept by hash, each with its documents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kept {
    counts: FxHashMap<u64, u32>,
    /// Hashes are kept when `hash >> (64 - level) == 0` (level 0: all).
    level: u32,
}

impl Kept {
    /// Whether a value of hash `h` is kept at this table's level.
    pub fn keeps(&self, h: u64) -> bool {
        self.level == 0 || h >> (64 - self.level) == 0
    }

    /// The share of hashes kept.
    pub fn share(&self) -> f64 {
        0.5f64.powi(self.level as i32)
    }

    /// The documents of the value of hash `h`, when kept (0: kept, never seen).
    pub fn get(&self, h: u64) -> u32 {
        self.counts.get(&h).copied().unwrap_or(0)
    }

    /// Values kept.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Counts a document of the value of hash `h`.
    pub fn add(&mut self, h: u64) {
        if !self.keeps(h) {
            return;
        }
        let c = self.counts.entry(h).or_insert(0);
        *c = c.saturating_add(1);
        self.shrink();
    }

    /// Adds what `other` kept.
    pub fn merge(&mut self, other: Kept) {
        if other.level > self.level {
            self.raise(other.level);
        }
        for (h, c) in other.counts {
            if self.keeps(h) {
                let e = self.counts.entry(h).or_insert(0);
                *e = e.saturating_add(c);
            }
        }
        self.shrink();
    }

    fn shrink(&mut self) {
        while self.counts.len() > KEPT && self.level < 63 {
            self.raise(self.level + 1);
        }
    }

    /// Keeps only the values kept at `level`.
    fn raise(&mut self, level: u32) {
        self.level = level;
        self.counts.retain(|h, _| h >> (64 - level) == 0);
    }

    /// Of `docs` documents, the share whose value occurs in no other (Good–Turing's chance
    /// that the next value is new), read from the values kept.
    pub fn singleton_share(&self, docs: u64) -> f64 {
        let ones = self.counts.values().filter(|&&c| c == 1).count() as f64;
        (ones / self.share() / docs.max(1) as f64).min(1.0)
    }
}

/// The sample's values on each probed path, and its item ids.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Novelty {
    /// Per path: the values kept and the documents holding a scalar there.
    pub paths: Vec<(Kept, u64)>,
    /// The items' ids (by [`crate::stats::owners::id_hash`]).
    pub ids: Kept,
}

impl Novelty {
    /// An empty record of `paths` paths.
    pub fn new(paths: usize) -> Novelty {
        Novelty {
            paths: vec![(Kept::default(), 0); paths],
            ids: Kept::default(),
        }
    }

    /// Counts a document's value (of hash `h`) on path `i`.
    pub fn add(&mut self, i: usize, h: u64) {
        let (kept, docs) = &mut self.paths[i];
        kept.add(h);
        *docs += 1;
    }

    /// Counts a document's id (of hash `h`).
    pub fn add_id(&mut self, h: u64) {
        self.ids.add(h);
    }

    /// Adds what `other` counted (of the same paths).
    pub fn merge(&mut self, other: Novelty) {
        for ((kept, docs), (k, d)) in self.paths.iter_mut().zip(other.paths) {
            kept.merge(k);
            *docs += d;
        }
        self.ids.merge(other.ids);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(i: u64) -> u64 {
        crate::engine::murmur::murmur3_x64_128(&i.to_le_bytes()).0
    }

    #[test]
    fn a_table_stays_bounded_and_merging_halves_agrees_with_one_pass() {
        let mut whole = Kept::default();
        let (mut a, mut b) = (Kept::default(), Kept::default());
        for i in 0..300_000u64 {
            // Values 0..200,000: the first 100,000 twice.
            let h = spread(i % 200_000);
            whole.add(h);
            if i % 3 == 0 { a.add(h) } else { b.add(h) }
        }
        a.merge(b);
        assert_eq!(a, whole);
        assert!(whole.len() <= KEPT && whole.share() < 1.0);
        // Half of 300,000 documents are of values seen once.
        let s = whole.singleton_share(300_000);
        assert!((s - 1.0 / 3.0).abs() < 0.03, "{s}");
    }

    #[test]
    fn few_values_are_kept_whole() {
        let mut k = Kept::default();
        for i in 0..1000u64 {
            k.add(spread(i % 10));
        }
        assert_eq!((k.len(), k.share()), (10, 1.0));
        assert_eq!(k.get(spread(3)), 100);
        assert_eq!(k.singleton_share(1000), 0.0);
    }
}
