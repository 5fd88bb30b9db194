//! Which key value each sample document's item id is held under: a replay then sees that an
//! upsert or replace in the log moves an item the sample holds under another value (a key
//! change), not only items the log itself wrote twice.
//!
//! Memory is bounded: each id costs [`ENTRY_BYTES`]; past the budget, ids are kept by hash
//! (an id whose hash has its `level` lowest bits zero, a share `2^-level` of them), and the
//! level rises one step at a time until the map fits. A replay then finds the moves of that
//! share of the sample's items (see [`Owners::sampled_share`]).

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
///
/// The ids sit in an open-addressing table whose slot for an id can be fetched into cache
/// ahead of its use ([`Owners::prefetch`]): every candidate keeps one, twenty of them do
/// not fit in cache, and a general-purpose map hides where its slots lie.
#[derive(Clone, Debug, Default)]
pub struct Owners {
    table: Table,
    /// Bytes the map may take.
    budget: usize,
    /// Ids are kept when their hash's `level` lowest bits are zero.
    level: u32,
    /// Whether the sample's items were recorded at all (not for a run whose log does not
    /// write, nor in a profile, which holds no ids).
    recorded: bool,
}

impl PartialEq for Owners {
    fn eq(&self, other: &Owners) -> bool {
        self.budget == other.budget
            && self.recorded == other.recorded
            && self.level == other.level
            && self.table.len == other.table.len
            && self.table.iter().all(|(id, o)| other.get(id) == Some(o))
    }
}

impl Owners {
    /// An empty map of at most `budget` bytes.
    pub fn new(budget: usize) -> Owners {
        Owners {
            budget,
            recorded: true,
            ..Owners::default()
        }
    }

    /// Whether the sample's items were recorded: without, nothing is known of them.
    pub fn is_recorded(&self) -> bool {
        self.recorded
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
        self.table.len * ENTRY_BYTES
    }

    /// Asks for the cache line where id (hash) `id` is recorded, if it is kept (a hint:
    /// it changes nothing).
    #[inline]
    pub fn prefetch(&self, id: u64) {
        if self.keeps(id) {
            self.table.prefetch(id);
        }
    }

    /// Records a sample document of item id (hash) `id` under the value of hash `value`.
    #[inline]
    pub fn add(&mut self, id: u64, value: u64) {
        if !self.keeps(id) {
            return;
        }
        self.table.record(id, Owner::One(value));
        self.fit();
    }

    /// What the sample holds under id (hash) `id`, when it is kept.
    pub fn get(&self, id: u64) -> Option<Owner> {
        self.table.get(id)
    }

    /// Adds what `other` recorded: the higher level of the two, the union of the ids kept
    /// at it (an id under different values in each is under several).
    pub fn merge(&mut self, other: Owners) {
        self.budget = self.budget.max(other.budget);
        self.recorded &= other.recorded;
        self.level = self.level.max(other.level);
        let level = self.level;
        self.table
            .retain(|id| level == 0 || id.trailing_zeros() >= level);
        // Taken in the other table's slot order, ids arrive in runs of neighbouring home
        // slots: a smaller table here would pile each run up into one long probe.
        let wanted = (self.table.len + other.table.len) * 8 / 7 + 1;
        let size = wanted.next_power_of_two().max(other.table.slots.len());
        if size > self.table.slots.len() {
            self.table.resize(size);
        }
        for (id, o) in other.table.iter() {
            if self.keeps(id) {
                self.table.record(id, o);
            }
        }
        self.fit();
    }

    /// Raises the level until the map fits its budget.
    fn fit(&mut self) {
        while self.bytes() > self.budget && self.level < 64 {
            self.level += 1;
            let level = self.level;
            self.table.retain(|id| id.trailing_zeros() >= level);
        }
    }
}

/// One slot of the table: free when `state` is 0, else an id and its owner.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    id: u64,
    /// The value's hash when `state` is [`ONE`].
    value: u64,
    state: u8,
}

const ONE: u8 = 1;
const SEVERAL: u8 = 2;

impl Slot {
    fn owner(&self) -> Owner {
        match self.state {
            ONE => Owner::One(self.value),
            _ => Owner::Several,
        }
    }
}

/// Ids by hash: linear probing, at most seven eighths full.
#[derive(Clone, Debug, Default)]
struct Table {
    slots: Vec<Slot>,
    len: usize,
}

impl Table {
    /// The home slot of `id`: its hash times an odd constant, top bits (kept ids have
    /// their low bits zero).
    #[inline]
    fn home(&self, id: u64) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// Where `id` is, or the free slot where it would go.
    #[inline]
    fn find(&self, id: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = self.home(id);
        while self.slots[at].state != 0 && self.slots[at].id != id {
            at = (at + 1) & mask;
        }
        at
    }

    #[inline]
    fn prefetch(&self, id: u64) {
        if !self.slots.is_empty() {
            let p = (&self.slots[self.home(id)] as *const Slot).cast::<u8>();
            super::prefetch(p);
            super::prefetch(p.wrapping_add(64));
        }
    }

    fn get(&self, id: u64) -> Option<Owner> {
        if self.len == 0 {
            return None;
        }
        let s = &self.slots[self.find(id)];
        (s.state != 0).then(|| s.owner())
    }

    /// Records `owner` for `id`: kept if new, several if it differs from what is held.
    #[inline]
    fn record(&mut self, id: u64, owner: Owner) {
        if 8 * (self.len + 1) > 7 * self.slots.len() {
            self.resize((2 * self.slots.len()).max(16));
        }
        let at = self.find(id);
        let s = &mut self.slots[at];
        if s.state == 0 {
            self.len += 1;
            *s = match owner {
                Owner::One(value) => Slot {
                    id,
                    value,
                    state: ONE,
                },
                Owner::Several => Slot {
                    id,
                    value: 0,
                    state: SEVERAL,
                },
            };
        } else if s.owner() != owner {
            s.state = SEVERAL;
        }
    }

    fn iter(&self) -> impl Iterator<Item = (u64, Owner)> + '_ {
        (self.slots.iter())
            .filter(|s| s.state != 0)
            .map(|s| (s.id, s.owner()))
    }

    fn resize(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        self.place(old.into_iter().filter(|s| s.state != 0));
    }

    fn place(&mut self, held: impl Iterator<Item = Slot>) {
        self.len = 0;
        for s in held {
            let at = self.find(s.id);
            self.slots[at] = s;
            self.len += 1;
        }
    }

    /// Keeps the ids `keep` accepts, in a table halved while it is less than a quarter
    /// full.
    fn retain(&mut self, keep: impl Fn(u64) -> bool) {
        let kept: Vec<Slot> = (self.slots.iter())
            .filter(|s| s.state != 0 && keep(s.id))
            .copied()
            .collect();
        if kept.len() == self.len {
            return;
        }
        let mut size = self.slots.len();
        while size > 16 && 4 * kept.len() < size {
            size /= 2;
        }
        self.slots.clear();
        self.slots.resize(size, Slot::default());
        self.slots.shrink_to(size);
        self.place(kept.into_iter());
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
