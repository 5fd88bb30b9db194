//! Which key value each sample document's item id is held under: a replay then sees that an
//! upsert or replace in the log moves an item the sample holds under another value (a key
//! change), not only items the log itself wrote twice.
//!
//! Memory is bounded: each id costs [`ENTRY_BYTES`]; past the budget, ids are kept by hash
//! (an id whose hash has its `level` lowest bits zero, a share `2^-level` of them), and the
//! level rises one step at a time until the map fits. A replay then finds the moves of that
//! share of the sample's items (see [`Owners::sampled_share`]).

use rustc_hash::FxHashMap;

/// Bytes one id costs the map (two 8-byte hashes and the table's overhead).
pub const ENTRY_BYTES: usize = 32;

/// What the sample holds under an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// One item, under the value of this hash.
    One(u64),
    /// Items under several values: ids are unique per logical partition only, so the id
    /// names one item per value, and a write under another value moves nothing.
    Several,
}

/// Item id (hash) → the value (hash) the sample holds it under.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Owners {
    map: FxHashMap<u64, Owner>,
    /// Bytes the map may take.
    budget: usize,
    /// Ids are kept when their hash's `level` lowest bits are zero.
    level: u32,
}

impl Owners {
    /// An empty map of at most `budget` bytes.
    pub fn new(budget: usize) -> Owners {
        Owners {
            budget,
            ..Owners::default()
        }
    }

    /// Whether an id of hash `id` is kept at the current level.
    pub fn keeps(&self, id: u64) -> bool {
        self.level == 0 || id.trailing_zeros() >= self.level
    }

    /// The share of ids kept: 1 until the budget was reached.
    pub fn sampled_share(&self) -> f64 {
        0.5f64.powi(self.level.min(64) as i32)
    }

    /// Bytes the map takes.
    pub fn bytes(&self) -> usize {
        self.map.len() * ENTRY_BYTES
    }

    /// Records a sample document of item id (hash) `id` under the value of hash `value`.
    pub fn add(&mut self, id: u64, value: u64) {
        if !self.keeps(id) {
            return;
        }
        let e = self.map.entry(id).or_insert(Owner::One(value));
        if *e != Owner::One(value) {
            *e = Owner::Several;
        }
        self.fit();
    }

    /// What the sample holds under id (hash) `id`, when it is kept.
    pub fn get(&self, id: u64) -> Option<Owner> {
        self.map.get(&id).copied()
    }

    /// Adds what `other` recorded: the higher level of the two, the union of the ids kept
    /// at it (an id under different values in each is under several).
    pub fn merge(&mut self, other: Owners) {
        self.budget = self.budget.max(other.budget);
        self.level = self.level.max(other.level);
        let level = self.level;
        self.map
            .retain(|&id, _| level == 0 || id.trailing_zeros() >= level);
        for (id, o) in other.map {
            if !self.keeps(id) {
                continue;
            }
            let e = self.map.entry(id).or_insert(o);
            if *e != o {
                *e = Owner::Several;
            }
        }
        self.fit();
    }

    /// Raises the level until the map fits its budget.
    fn fit(&mut self) {
        while self.bytes() > self.budget && self.level < 64 {
            self.level += 1;
            let level = self.level;
            self.map.retain(|&id, _| id.trailing_zeros() >= level);
        }
    }
}

/// The hash of an item id, as the replay and the sample both take it.
pub fn id_hash(id: &str) -> u64 {
    crate::engine::murmur::murmur3_x64_128(id.as_bytes()).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_under_two_values_is_several_and_merging_agrees() {
        let mut a = Owners::new(1 << 20);
        a.add(1, 10);
        a.add(2, 20);
        a.add(2, 21);
        assert_eq!(a.get(1), Some(Owner::One(10)));
        assert_eq!(a.get(2), Some(Owner::Several));
        let mut b = Owners::new(1 << 20);
        b.add(1, 11);
        b.add(3, 30);
        a.merge(b);
        assert_eq!(a.get(1), Some(Owner::Several));
        assert_eq!(a.get(3), Some(Owner::One(30)));
    }

    #[test]
    fn past_the_budget_ids_are_sampled_by_hash_and_the_map_fits() {
        let budget = 100 * ENTRY_BYTES;
        let mut whole = Owners::new(budget);
        let ids: Vec<u64> = (0..1_000u64)
            .map(|i| id_hash(&format!("item-{i}")))
            .collect();
        ids.iter().for_each(|&id| whole.add(id, 7));
        assert!(whole.bytes() <= budget);
        assert!(whole.sampled_share() < 1.0);
        // Every id kept is one whose hash the level keeps, and every such id is kept.
        for &id in &ids {
            assert_eq!(whole.get(id).is_some(), whole.keeps(id), "{id}");
        }
        // Two halves merged keep the same ids as the whole.
        let (mut a, mut b) = (Owners::new(budget), Owners::new(budget));
        ids[..500].iter().for_each(|&id| a.add(id, 7));
        ids[500..].iter().for_each(|&id| b.add(id, 7));
        a.merge(b);
        assert_eq!(a, whole);
    }
}
