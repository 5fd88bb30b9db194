//! The kept values' hot counts, by value hash: an open-addressing table whose slot for a
//! hash can be fetched into cache ahead of its use ([`Sample::prefetch`]).
//!
//! Twenty candidates' tables do not fit in cache, so a probe of one usually waits on
//! memory. The reader knows every candidate's value hash before it counts the first, and
//! asks for the slots while it hashes the rest; a general-purpose map hides where its
//! slots lie, so it could not be asked.
//!
//! Keys are value hashes, already strong; the home slot is taken from the top bits of the
//! hash times an odd constant, so that sampled hashes (low bits zero) spread as well as any.
//! Linear probing, at most seven eighths full: when the table doubles, the old and the
//! new slots together stay within the four slots a value is costed at (at most 3.43). A
//! retain filters the table in place and never shrinks it: sampling halves the values
//! and the next ones refill the same slots, with no memory given back and asked for again.

use std::sync::OnceLock;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The hot half of a kept value, which every document with it updates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Tally {
    /// Documents with the value: at least one for a kept value (none marks a free slot).
    pub docs: u64,
    pub bytes: u64,
    /// Its slice of the hash space.
    pub slice: u32,
    /// Its index among the details.
    pub detail: u32,
    /// Its last arrival.
    pub last: i64,
}

/// One slot: a hash and its tally, free when the tally has no documents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Slot {
    hash: u64,
    tally: Tally,
}

const FREE_SLOT: Slot = Slot {
    hash: 0,
    tally: Tally {
        docs: 0,
        bytes: 0,
        slice: 0,
        detail: 0,
        last: 0,
    },
};

impl Slot {
    /// Whether the slot holds a value.
    #[inline]
    fn is_held(&self) -> bool {
        self.tally.docs != 0
    }
}

/// The home slot of `hash` in a table of `size` slots (a power of two).
#[inline]
fn home_in(hash: u64, size: usize) -> usize {
    let bits = size.trailing_zeros();
    (hash.wrapping_mul(GOLDEN) >> (64 - bits)) as usize
}

/// The bytes of one slot.
pub(super) const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// Slots of the first table.
const FIRST: usize = 16;

/// Kept values by hash.
#[derive(Clone, Debug, Default)]
pub(super) struct Sample {
    slots: Vec<Slot>,
    len: usize,
    /// The held slots in hash order, once asked for (see [`sorted`](Self::sorted)): the
    /// projection, the report and the profile read the values in this order several times
    /// each. Forgotten whenever a value is placed.
    order: OnceLock<Vec<usize>>,
}

impl PartialEq for Sample {
    fn eq(&self, other: &Sample) -> bool {
        self.len == other.len && self.iter().all(|(h, t)| other.get(h) == Some(t))
    }
}

impl Sample {
    /// Slots allocated (held or free).
    #[cfg(test)]
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Values held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no value is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The home slot of `hash`.
    #[inline]
    fn home(&self, hash: u64) -> usize {
        home_in(hash, self.slots.len())
    }

    /// Where `hash` is, or the free slot where it would go.
    #[inline]
    fn find(&self, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = self.home(hash);
        loop {
            let s = &self.slots[at];
            if !s.is_held() || s.hash == hash {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// Asks for the cache lines where `hash` would be found (a hint: it changes nothing).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        if self.slots.is_empty() {
            return;
        }
        let slot = &self.slots[self.home(hash)];
        // A slot may straddle two lines, and its neighbours are the next probes.
        let p = (slot as *const Slot).cast::<u8>();
        for line in [0, 64, 128] {
            super::prefetch(p.wrapping_add(line));
        }
    }

    /// The slot that holds `hash`, if any.
    #[inline]
    fn position(&self, hash: u64) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let at = self.find(hash);
        self.slots[at].is_held().then_some(at)
    }

    /// The tally of `hash`.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<&Tally> {
        Some(&self.slots[self.position(hash)?].tally)
    }

    /// The tally of `hash`, to update.
    #[inline]
    pub fn get_mut(&mut self, hash: u64) -> Option<&mut Tally> {
        let at = self.position(hash)?;
        Some(&mut self.slots[at].tally)
    }

    /// Whether the next value placed would double the table.
    #[inline]
    pub fn is_full(&self) -> bool {
        8 * (self.len + 1) > 7 * self.slots.len()
    }

    /// Keeps `tally` (at least one document) for `hash`, replacing what it held.
    pub fn insert(&mut self, hash: u64, tally: Tally) {
        debug_assert!(tally.docs > 0, "a kept value has documents");
        if self.is_full() {
            self.resize((2 * self.slots.len()).max(FIRST));
        }
        let at = self.find(hash);
        self.len += !self.slots[at].is_held() as usize;
        self.slots[at] = Slot { hash, tally };
        self.order.take();
    }

    /// Moves every value into a table of `size` slots (a power of two, no smaller), in the
    /// same allocation grown: the allocator may move its pages rather than copy them, and
    /// the values are placed again where they are.
    fn resize(&mut self, size: usize) {
        self.slots.resize(size, FREE_SLOT);
        self.place_within(size);
    }

    /// Lays the values out in a table of `size` slots, the first of the allocation, in
    /// place, and gives back the rest, when that table would hold `values` values at most
    /// seven eighths full and is smaller than this one: the room a sample that has settled
    /// at `values` needs, in fewer cache lines.
    pub fn shrink_for(&mut self, values: usize) {
        let size = (8 * values.max(self.len) / 7 + 1)
            .next_power_of_two()
            .max(FIRST);
        self.shrink_to(size);
    }

    /// Places the values in the first `size` slots and gives back the rest, when `size`
    /// (a power of two, room for the values held) is fewer slots than the table has.
    fn shrink_to(&mut self, size: usize) {
        if size >= self.slots.len() {
            return;
        }
        self.place_within(size);
        self.slots.truncate(size);
        self.slots.shrink_to_fit();
    }

    /// Places every value again in the first `size` slots (a power of two, at least the
    /// values held and at most the slots): each held slot not yet placed is taken and its
    /// value put at the first slot from its home in a table of `size` that is free or
    /// holds a value not yet placed (which it takes in turn). Placed values never move
    /// again, so each stays behind a run of placed values.
    fn place_within(&mut self, size: usize) {
        let mask = size - 1;
        let mut placed = vec![0u64; size.div_ceil(64)];
        let is_placed =
            |placed: &[u64], at: usize| at < size && placed[at / 64] >> (at % 64) & 1 == 1;
        for i in 0..self.slots.len() {
            if !self.slots[i].is_held() || is_placed(&placed, i) {
                continue;
            }
            let mut moving = std::mem::replace(&mut self.slots[i], FREE_SLOT);
            loop {
                let mut at = home_in(moving.hash, size);
                while self.slots[at].is_held() && is_placed(&placed, at) {
                    at = (at + 1) & mask;
                }
                placed[at / 64] |= 1 << (at % 64);
                moving = std::mem::replace(&mut self.slots[at], moving);
                if !moving.is_held() {
                    break;
                }
            }
        }
        self.order.take();
    }

    /// Halves the table while it is less than a quarter full, and gives back the rest: for
    /// a table that is done growing, such as a merge's.
    pub fn trim(&mut self) {
        let mut size = self.slots.len();
        while size > FIRST && 4 * self.len < size {
            size /= 2;
        }
        self.shrink_to(size);
    }

    /// Keeps only the values whose hash `keep` accepts, in place: the table keeps its
    /// size (the values it held will be kept again before long) and nothing is allocated.
    ///
    /// Freed slots break probe sequences, so the rest are placed again. Unrolled at a slot
    /// that was free before any was freed, no probe sequence wraps, and visiting the slots
    /// in that order moves each value to the first free slot from its home: at or before
    /// where it was, and past slots that only values already placed will fill.
    pub fn retain(&mut self, keep: impl Fn(u64) -> bool) {
        let Some(boundary) = self.slots.iter().position(|s| !s.is_held()) else {
            return;
        };
        let before = self.len;
        for s in &mut self.slots {
            if s.is_held() && !keep(s.hash) {
                *s = FREE_SLOT;
                self.len -= 1;
            }
        }
        if self.len == before {
            return;
        }
        self.order.take();
        let mask = self.slots.len() - 1;
        for k in 1..self.slots.len() {
            let at = (boundary + k) & mask;
            if !self.slots[at].is_held() {
                continue;
            }
            let s = std::mem::replace(&mut self.slots[at], FREE_SLOT);
            let to = self.find(s.hash);
            self.slots[to] = s;
        }
    }

    /// The values held, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Tally)> {
        (self.slots.iter())
            .filter(|s| s.is_held())
            .map(|s| (s.hash, &s.tally))
    }

    /// The values held, in hash order: an order that does not depend on how the table was
    /// filled (a profile read back, a merge), so that sums over them do not either.
    pub fn sorted(&self) -> impl Iterator<Item = (u64, &Tally)> {
        let order = self.order.get_or_init(|| {
            let mut held: Vec<usize> = (0..self.slots.len())
                .filter(|&i| self.slots[i].is_held())
                .collect();
            held.sort_unstable_by_key(|&i| self.slots[i].hash);
            held
        });
        order
            .iter()
            .map(|&i| (self.slots[i].hash, &self.slots[i].tally))
    }

    /// The hashes held.
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter().map(|(h, _)| h)
    }

    /// The tallies held.
    pub fn values(&self) -> impl Iterator<Item = &Tally> {
        self.iter().map(|(_, t)| t)
    }

    /// The tallies held, to update (never to zero documents).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Tally> {
        (self.slots.iter_mut())
            .filter(|s| s.is_held())
            .map(|s| &mut s.tally)
    }
}

/// Moving out of a table visits its slots in a scattered order (slot `i * step`, a step of
/// 0.618 of the table), never in slot order: values read in one table's slot order arrive
/// in the order of their home slots, and put into another table (a merge) they land, one
/// after the other, at the end of the run of held slots their predecessors have just
/// lengthened. Where that table is no larger, the run grows with every value and each
/// insertion walks all of it.
impl IntoIterator for Sample {
    type Item = (u64, Tally);
    type IntoIter = Scattered;

    fn into_iter(self) -> Scattered {
        let bits = self.slots.len().trailing_zeros();
        let step = (GOLDEN.checked_shr(64 - bits).unwrap_or(0) | 1) as usize;
        Scattered {
            slots: self.slots,
            next: 0,
            step,
        }
    }
}

/// The golden ratio in 64 bits: a table of `2^k` slots is visited `2^k · 0.618` slots
/// apart, an odd step, which reaches every slot once.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A table's values, moved out in a scattered order (see [`Sample::into_iter`]).
#[derive(Debug)]
pub(super) struct Scattered {
    slots: Vec<Slot>,
    next: usize,
    step: usize,
}

impl Iterator for Scattered {
    type Item = (u64, Tally);

    fn next(&mut self) -> Option<(u64, Tally)> {
        let mask = self.slots.len().wrapping_sub(1);
        while self.next < self.slots.len() {
            let s = self.slots[self.next.wrapping_mul(self.step) & mask];
            self.next += 1;
            if s.is_held() {
                return Some((s.hash, s.tally));
            }
        }
        None
    }
}

impl Serialize for Sample {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len))?;
        for (h, t) in self.sorted() {
            map.serialize_entry(&h, t)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Sample {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(SampleVisitor)
    }
}

struct SampleVisitor;

impl<'de> Visitor<'de> for SampleVisitor {
    type Value = Sample;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("kept values by hash")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Sample, A::Error> {
        use serde::de::Error;
        let mut sample = Sample::default();
        while let Some((hash, tally)) = map.next_entry::<u64, Tally>()? {
            if tally.docs == 0 {
                return Err(A::Error::custom("a kept value with no documents"));
            }
            if sample.get(hash).is_some() {
                return Err(A::Error::custom("a value kept twice"));
            }
            sample.insert(hash, tally);
        }
        Ok(sample)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn tally(docs: u64) -> Tally {
        Tally {
            docs,
            bytes: 10 * docs,
            slice: (docs % 1024) as u32,
            detail: docs as u32,
            last: docs as i64,
        }
    }

    /// Asserts that `table` holds what `map` holds, each value found where it is looked
    /// for.
    fn holds_what(table: &Sample, map: &BTreeMap<u64, Tally>) {
        let held: BTreeMap<u64, Tally> = table.iter().map(|(h, t)| (h, *t)).collect();
        assert_eq!(&held, map);
        assert_eq!(table.len(), map.len());
        assert!(map.iter().all(|(h, t)| table.get(*h) == Some(t)));
    }

    /// Hashes of the shape sampling keeps: low bits zero, so the home slot must come from
    /// the others.
    fn hash(i: u64) -> u64 {
        (i.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ i >> 7) << 6
    }

    #[test]
    fn the_table_holds_what_a_map_holds_through_growth_updates_and_retains() {
        let (mut table, mut map) = (Sample::default(), BTreeMap::new());
        for i in 1..=5_000u64 {
            table.insert(hash(i), tally(i));
            map.insert(hash(i), tally(i));
            if i % 3 == 0 {
                let t = table.get_mut(hash(i / 3)).expect("kept");
                t.docs += 1;
                map.get_mut(&hash(i / 3)).expect("kept").docs += 1;
            }
        }
        let same = |table: &Sample, map: &BTreeMap<u64, Tally>| {
            holds_what(table, map);
            // In hash order, asked for twice: the second reads the order kept by the first.
            for _ in 0..2 {
                let sorted: Vec<(u64, Tally)> = table.sorted().map(|(h, t)| (h, *t)).collect();
                let expected: Vec<(u64, Tally)> = map.iter().map(|(h, t)| (*h, *t)).collect();
                assert_eq!(sorted, expected);
            }
        };
        same(&table, &map);
        assert!(
            table.slots.len() >= 5_000 * 8 / 7,
            "at most seven eighths full"
        );
        assert_eq!(table.get(hash(6_000)), None);
        // Sampling's retain: only hashes with one more low bit zero stay.
        table.retain(|h| h & 0x40 == 0);
        map.retain(|h, _| h & 0x40 == 0);
        assert!(map.len() > 2_000 && map.len() < 3_000, "{}", map.len());
        same(&table, &map);
        // Freed slots must not hide values placed past them.
        for i in 5_001..=7_000u64 {
            table.insert(hash(i), tally(i));
            map.insert(hash(i), tally(i));
        }
        same(&table, &map);
        let moved: BTreeMap<u64, Tally> = table.clone().into_iter().collect();
        assert_eq!(moved, map);
    }

    /// Slots looked at to find `hash` or the free slot where it would go.
    fn probes(table: &Sample, hash: u64) -> usize {
        let mask = table.slots.len() - 1;
        let at = table.find(hash);
        (at.wrapping_sub(table.home(hash)) & mask) + 1
    }

    #[test]
    fn a_tables_values_move_into_another_in_few_probes_each() {
        let fill = |from: u64| {
            let mut t = Sample::default();
            for i in from..from + 14_000 {
                t.insert(hash(i), tally(i));
            }
            t
        };
        let (mut mine, theirs) = (fill(1), fill(100_000));
        let mut moved = std::collections::BTreeSet::new();
        let mut looked = 0;
        for (h, t) in theirs {
            looked += probes(&mine, h);
            mine.insert(h, t);
            moved.insert(h);
        }
        assert_eq!(moved.len(), 14_000, "every value once");
        assert_eq!(mine.len(), 28_000);
        // In slot order each value's home is at or past the last one's, and lands at the
        // end of the run of held slots the last ones lengthened: 29 slots a value here.
        let mean = looked as f64 / 14_000.0;
        assert!(mean < 12.0, "{mean} slots a value");
        assert_eq!(Sample::default().into_iter().count(), 0);
    }

    #[test]
    fn a_profile_table_reads_back_and_forged_ones_are_refused() {
        let mut table = Sample::default();
        for i in 1..=100u64 {
            table.insert(hash(i), tally(i));
        }
        let text = serde_json::to_string(&table).unwrap();
        let back: Sample = serde_json::from_str(&text).unwrap();
        assert_eq!(back, table);
        let empty = r#"{"5": {"docs": 0, "bytes": 0, "slice": 0, "detail": 0, "last": 0}}"#;
        let err = serde_json::from_str::<Sample>(empty).unwrap_err();
        assert!(err.to_string().contains("no documents"), "{err}");
        let one = r#"{"docs": 1, "bytes": 1, "slice": 0, "detail": 0, "last": 0}"#;
        let twice = format!(r#"{{"5": {one}, "5": {one}}}"#);
        let err = serde_json::from_str::<Sample>(&twice).unwrap_err();
        assert!(err.to_string().contains("twice"), "{err}");
    }

    /// Sampling's retain, again and again on tables filled to seven eighths (long runs of
    /// held slots, some wrapping past the end): every value kept is found, none dropped
    /// is, and the table keeps its memory.
    #[test]
    fn a_retain_filters_in_place_and_keeps_every_value_findable() {
        let (mut table, mut map) = (Sample::default(), BTreeMap::new());
        let mut next = 1u64;
        for round in 0..30u64 {
            let size = table.slots.len().max(FIRST);
            while 8 * (table.len() + 1) <= 7 * size {
                let h = crate::mix::splitmix64(next, 7);
                next += 1;
                table.insert(h, tally(next));
                map.insert(h, tally(next));
            }
            let at = (table.slots.as_ptr(), table.slots.len());
            let keep = |h: u64| !crate::mix::splitmix64(h, round).is_multiple_of(3);
            table.retain(keep);
            map.retain(|h, _| keep(*h));
            assert_eq!(
                (table.slots.as_ptr(), table.slots.len()),
                at,
                "kept in place"
            );
            holds_what(&table, &map);
            // Grown every third round, so that tables of several sizes are filtered.
            while round % 3 == 2 && table.slots.len() == at.1 {
                let h = crate::mix::splitmix64(next, 7);
                next += 1;
                table.insert(h, tally(next));
                map.insert(h, tally(next));
            }
        }
        assert!(table.slots.len() >= 16 << 9, "{}", table.slots.len());
    }

    /// Hashes (from `seed`) whose home lies in the last `2^-bits` of any table of at least
    /// `2^bits` slots: their runs wrap past the table's end.
    fn homed_in_last(seed: u64, bits: u32) -> impl Iterator<Item = u64> {
        (1u64..)
            .map(move |i| crate::mix::splitmix64(i, seed))
            .filter(move |h| h.wrapping_mul(GOLDEN) >> (64 - bits) == (1 << bits) - 1)
    }

    /// Laid out again smaller, in place, every value is found, none twice, including runs
    /// that wrap past the end of the smaller table; a table already small enough stays.
    #[test]
    fn a_table_shrinks_in_place_for_the_values_it_will_hold() {
        let (mut table, mut map) = (Sample::default(), BTreeMap::new());
        let at_end = homed_in_last(5, 3);
        let spread = (1u64..).map(|i| crate::mix::splitmix64(i, 6));
        for (n, h) in at_end.take(300).chain(spread.take(6_000)).enumerate() {
            table.insert(h, tally(n as u64 + 1));
            map.insert(h, tally(n as u64 + 1));
        }
        assert_eq!(table.slots.len(), 8192);
        let keep = |h: u64| h.is_multiple_of(5);
        table.retain(keep);
        map.retain(|h, _| keep(*h));
        table.shrink_for(1_000);
        assert_eq!(table.slots.len(), 2048, "{} values", map.len());
        holds_what(&table, &map);
        table.shrink_for(1_500);
        assert_eq!(table.slots.len(), 2048);
        for i in 0..500u64 {
            let h = crate::mix::splitmix64(i, 9);
            table.insert(h, tally(i + 1));
            map.insert(h, tally(i + 1));
        }
        holds_what(&table, &map);
    }

    /// Growing places the values again in the grown allocation: runs that wrap past the
    /// end of the table (every value homed in its last slots) survive doubling after
    /// doubling, with every value found and none twice.
    #[test]
    fn a_table_grows_in_place_with_runs_that_wrap() {
        let (mut table, mut map) = (Sample::default(), BTreeMap::new());
        // Hashes whose home is in the last sixteenth of any table of up to 2^16 slots.
        let at_end = homed_in_last(3, 4);
        for (n, h) in at_end.take(3_000).enumerate() {
            table.insert(h, tally(n as u64 + 1));
            map.insert(h, tally(n as u64 + 1));
        }
        assert!(table.slots.len() >= 4096, "{}", table.slots.len());
        holds_what(&table, &map);
    }
}
