//! Documents and bytes per key value, in bounded memory.
//!
//! While the values fit the memory budget every value is counted exactly. Past it, values
//! are kept by *hash sampling*: only values whose hash has its low `level` bits zero stay
//! in the map (each stands for `2^level` values), and the level rises whenever the map
//! outgrows the budget. A sampled value is either counted from its first document or never,
//! so the sample's frequencies are exact and its statistics (distinct values, values seen
//! once) scale up without bias. The largest values are kept apart from the sample in a
//! small table of heavy hitters, admitted through the hash-space histogram: a value is
//! considered only when its slice of the hash space holds [`HOT_FACTOR`] times the mean
//! slice's bytes, and enters with that slice's bytes as an upper bound of its own, then is
//! counted exactly. High-cardinality keys, whose slices stay even, never touch the table.

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::histogram::BUCKETS;
use crate::engine::Epk;

/// Heavy hitters kept.
pub const HEAVY: usize = 64;

/// What is known of one value.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueEntry {
    /// Documents with this value.
    pub docs: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The value as the report shows it (JSON text).
    pub label: Box<str>,
    /// Its EPK under the candidate's definition.
    pub epk: Epk,
    /// Its slice of the hash-space histogram.
    pub slice: u32,
}

impl ValueEntry {
    /// What one entry really costs at the worst moment: a hash table doubling holds the old
    /// and the new table at once, up to four slots per entry; plus its label's allocation,
    /// rounded up as the allocator does, with its header.
    fn footprint(&self) -> usize {
        4 * std::mem::size_of::<(u64, ValueEntry)>() + self.label.len().next_multiple_of(16) + 16
    }

    fn absorb(&mut self, other: &ValueEntry) {
        self.docs += other.docs;
        self.bytes += other.bytes;
    }
}

/// One of the largest values, for reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopValue {
    /// The value (JSON text).
    pub value: String,
    /// Documents with it.
    pub docs: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Whether the figures are exact (otherwise upper-bound estimates).
    pub exact: bool,
    /// Its EPK (hex).
    pub epk: String,
}

/// A value is considered heavy once its hash-space slice holds this many times the mean.
pub const HOT_FACTOR: u64 = 4;

/// Per-value documents and bytes within a memory budget.
#[derive(Clone, Debug)]
pub struct ValueStats {
    budget: usize,
    level: u32,
    used: usize,
    sample: FxHashMap<u64, ValueEntry>,
    /// Tracked apart once sampling has begun.
    heavy: FxHashMap<u64, ValueEntry>,
    /// Every value hash, handed over once when exact counting ends.
    promoted: Option<Vec<u64>>,
    /// Bytes of the heavy table's entries per histogram slice.
    tracked: Vec<u64>,
}

impl ValueStats {
    /// Statistics that may use about `budget` bytes.
    pub fn new(budget: usize) -> Self {
        ValueStats {
            budget: budget.max(64 * 1024),
            level: 0,
            used: 0,
            sample: FxHashMap::default(),
            heavy: FxHashMap::default(),
            promoted: None,
            tracked: Vec::new(),
        }
    }

    #[inline]
    fn sampled(&self, hash: u64) -> bool {
        hash & ((1u64 << self.level) - 1) == 0
    }

    /// Counts one document of `bytes` with the value of `hash`, whose hash-space slice
    /// now holds `slice.1` bytes against a mean of `slice.2` (`slice.0` is its index);
    /// `entry` builds the value's label and EPK, and is called only when the value is
    /// first kept.
    #[inline]
    pub fn add(
        &mut self,
        hash: u64,
        bytes: u64,
        slice: (u32, u64, u64),
        entry: impl Fn() -> (String, Epk),
    ) {
        if self.level > 0 {
            self.add_heavy(hash, bytes, slice, &entry);
        }
        if !self.sampled(hash) {
            return;
        }
        if let Some(e) = self.sample.get_mut(&hash) {
            e.docs += 1;
            e.bytes += bytes;
            return;
        }
        let (label, epk) = entry();
        let e = ValueEntry {
            docs: 1,
            bytes,
            label: label.into_boxed_str(),
            epk,
            slice: slice.0,
        };
        self.used += e.footprint();
        self.sample.insert(hash, e);
        if self.used > self.budget {
            self.raise_level();
        }
    }

    /// Heavy hitters: a value is admitted when the bytes of its slice not already held by
    /// the table are hot, with those bytes as the upper bound of its own; then it is
    /// counted exactly. A slice whose heavy value is tracked cools down, so the table does
    /// not churn.
    fn add_heavy(
        &mut self,
        hash: u64,
        bytes: u64,
        (slice, slice_bytes, mean_slice): (u32, u64, u64),
        entry: &dyn Fn() -> (String, Epk),
    ) {
        if self.tracked.is_empty() {
            self.tracked = vec![0; BUCKETS];
        }
        if let Some(e) = self.heavy.get_mut(&hash) {
            e.docs += 1;
            e.bytes += bytes;
            self.tracked[e.slice as usize] += bytes;
            return;
        }
        let untracked = slice_bytes.saturating_sub(self.tracked[slice as usize]);
        if untracked <= HOT_FACTOR * mean_slice.max(1) {
            return;
        }
        let smallest = self.smallest_heavy();
        if self.heavy.len() >= HEAVY && untracked <= smallest.1 {
            return;
        }
        let (label, epk) = entry();
        if self.heavy.len() >= HEAVY
            && let Some(old) = self.heavy.remove(&smallest.0)
        {
            let t = &mut self.tracked[old.slice as usize];
            *t = t.saturating_sub(old.bytes);
        }
        self.tracked[slice as usize] += untracked;
        let entry = ValueEntry {
            docs: (untracked / bytes.max(1)).max(1),
            bytes: untracked,
            label: label.into_boxed_str(),
            epk,
            slice,
        };
        self.heavy.insert(hash, entry);
    }

    fn retrack(&mut self) {
        self.tracked = vec![0; BUCKETS];
        for e in self.heavy.values() {
            self.tracked[e.slice as usize] += e.bytes;
        }
    }

    /// The heavy hitter with the fewest bytes (ties: highest hash), `(0, 0)` if none.
    fn smallest_heavy(&self) -> (u64, u64) {
        self.heavy
            .iter()
            .map(|(h, e)| (*h, e.bytes))
            .min_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .unwrap_or((0, 0))
    }

    /// Halves the sample (and starts the heavy table when leaving exact counting).
    fn raise_level(&mut self) {
        if self.level == 0 {
            self.start_heavy();
            self.promoted = Some(self.sample.keys().copied().collect());
        }
        while self.used > self.budget && self.level < 63 {
            self.level += 1;
            let mask = (1u64 << self.level) - 1;
            self.sample.retain(|h, _| h & mask == 0);
            self.used = self.sample.values().map(ValueEntry::footprint).sum();
        }
    }

    /// The heavy table starts as the largest values counted exactly so far.
    fn start_heavy(&mut self) {
        let mut all: Vec<(&u64, &ValueEntry)> = self.sample.iter().collect();
        all.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(b.0)));
        self.heavy = all
            .into_iter()
            .take(HEAVY)
            .map(|(h, e)| (*h, e.clone()))
            .collect();
        self.retrack();
    }

    /// Adds everything `other` counted.
    pub fn merge(&mut self, mut other: ValueStats) {
        if other.level > 0 && self.level == 0 {
            self.start_heavy();
        }
        if self.level > 0 && other.level == 0 {
            other.start_heavy();
        }
        let sampling = self.level > 0 || other.level > 0;
        self.level = self.level.max(other.level);
        let mask = (1u64 << self.level) - 1;
        self.sample.retain(|h, _| h & mask == 0);
        for (h, e) in other.sample {
            if h & mask != 0 {
                continue;
            }
            match self.sample.get_mut(&h) {
                Some(mine) => mine.absorb(&e),
                None => {
                    self.sample.insert(h, e);
                }
            }
        }
        self.used = self.sample.values().map(ValueEntry::footprint).sum();
        if sampling {
            self.merge_heavy(other.heavy);
        }
        if self.used > self.budget {
            self.raise_level();
        }
    }

    /// The union of both tables (figures added where both hold a value), largest first.
    fn merge_heavy(&mut self, theirs: FxHashMap<u64, ValueEntry>) {
        for (h, e) in theirs {
            match self.heavy.get_mut(&h) {
                Some(mine) => mine.absorb(&e),
                None => {
                    self.heavy.insert(h, e);
                }
            }
        }
        let mut ranked: Vec<(u64, ValueEntry)> = self.heavy.drain().collect();
        ranked.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(&b.0)));
        ranked.truncate(HEAVY);
        self.heavy = ranked.into_iter().collect();
        self.retrack();
    }

    /// The hash of every value seen, once, when exact counting has just ended (for the
    /// distinct-value sketch to take over).
    pub fn take_promoted(&mut self) -> Option<Vec<u64>> {
        self.promoted.take()
    }

    /// Hashes of the values held: every value while exact.
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.sample.keys().copied()
    }

    /// Values held (all of them while exact).
    pub fn len(&self) -> usize {
        self.sample.len()
    }

    /// Whether no value was seen.
    pub fn is_empty(&self) -> bool {
        self.sample.is_empty()
    }

    /// Whether every value is counted exactly.
    pub fn is_exact(&self) -> bool {
        self.level == 0
    }

    /// Each sampled value stands for this many values.
    pub fn scale(&self) -> u64 {
        1u64 << self.level
    }

    /// The sampled values (all values when exact), in no particular order.
    pub fn sample(&self) -> impl Iterator<Item = &ValueEntry> {
        self.sample.values()
    }

    /// Estimated number of values seen in exactly one document (exact when exact).
    pub fn singletons(&self) -> u64 {
        self.sample.values().filter(|e| e.docs == 1).count() as u64 * self.scale()
    }

    /// The `n` largest values by bytes, largest first (ties by label).
    pub fn top(&self, n: usize) -> Vec<TopValue> {
        let exact = self.is_exact();
        let mut all: Vec<&ValueEntry> = self.heavy_entries().collect();
        all.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.label.cmp(&b.label)));
        all.into_iter()
            .take(n)
            .map(|e| TopValue {
                value: e.label.to_string(),
                docs: e.docs,
                bytes: e.bytes,
                exact,
                epk: e.epk.to_hex(),
            })
            .collect()
    }

    /// The entries to place one by one: every value when exact, else the heavy hitters.
    /// In no particular order.
    pub fn heavy_entries(&self) -> impl Iterator<Item = &ValueEntry> {
        let source = if self.is_exact() {
            &self.sample
        } else {
            &self.heavy
        };
        source.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(i: u64) -> u64 {
        crate::key::splitmix64(i, 0)
    }

    fn entry(i: u64) -> impl Fn() -> (String, Epk) {
        move || (format!("\"v{i}\""), Epk::from_bytes(&mix(i).to_be_bytes()))
    }

    /// A hash-space histogram beside the statistics, as `CandidateStats` keeps one.
    struct Feeder {
        slices: Vec<u64>,
        total: u64,
    }

    impl Feeder {
        fn new() -> Self {
            Feeder {
                slices: vec![0; 1024],
                total: 0,
            }
        }

        fn add(&mut self, v: &mut ValueStats, k: u64, bytes: u64) {
            let h = mix(k);
            let slice = (h >> 54) as usize;
            self.slices[slice] += bytes;
            self.total += bytes;
            v.add(
                h,
                bytes,
                (slice as u32, self.slices[slice], self.total / 1024),
                entry(k),
            );
        }
    }

    #[test]
    fn exact_within_budget() {
        let mut v = ValueStats::new(1 << 20);
        for i in 0..10_000u64 {
            let k = i % 100;
            v.add(mix(k), 10 + k, (0, 0, 0), entry(k));
        }
        assert!(v.is_exact());
        let top = v.top(2);
        assert_eq!(top[0].value, "\"v99\"");
        assert_eq!((top[0].docs, top[0].bytes), (100, 100 * 109));
        assert_eq!(v.singletons(), 0);
    }

    #[test]
    fn heavy_values_survive_sampling_and_singletons_scale() {
        // Two heavy tenants among 300,000 single-document ids, budget for a few thousand.
        let mut v = ValueStats::new(256 * 1024);
        let mut f = Feeder::new();
        for i in 0..300_000u64 {
            let k = match i % 10 {
                0 => 1_000_000,
                1 => 1_000_001,
                _ => i,
            };
            f.add(&mut v, k, 500);
        }
        assert!(!v.is_exact());
        let top = v.top(2);
        let labels: Vec<&str> = top.iter().map(|t| t.value.as_str()).collect();
        assert_eq!(labels.len(), 2);
        assert!(labels.contains(&"\"v1000000\"") && labels.contains(&"\"v1000001\""));
        for t in &top {
            // 30,000 documents of 500 bytes; the slice bound may only overestimate, slightly.
            assert!(
                t.bytes >= 15_000_000 && t.bytes < 15_000_000 * 11 / 10,
                "{t:?}"
            );
        }
        let singles = v.singletons() as f64;
        assert!((singles / 240_000.0 - 1.0).abs() < 0.1, "{singles}");
    }

    #[test]
    fn merging_halves_equals_the_whole_when_exact() {
        let (mut a, mut b, mut whole) = (
            ValueStats::new(1 << 20),
            ValueStats::new(1 << 20),
            ValueStats::new(1 << 20),
        );
        let (mut fw, mut fa, mut fb) = (Feeder::new(), Feeder::new(), Feeder::new());
        for i in 0..5_000u64 {
            let k = i % 700;
            fw.add(&mut whole, k, i % 13);
            if i % 3 == 0 {
                fa.add(&mut a, k, i % 13);
            } else {
                fb.add(&mut b, k, i % 13);
            }
        }
        a.merge(b);
        assert_eq!(a.top(700), whole.top(700));
        assert_eq!(a.singletons(), whole.singletons());
    }

    #[test]
    fn merging_sampled_halves_keeps_the_heavy_values() {
        let (mut a, mut b) = (ValueStats::new(128 * 1024), ValueStats::new(128 * 1024));
        let (mut fa, mut fb) = (Feeder::new(), Feeder::new());
        for i in 0..200_000u64 {
            let k = if i % 5 == 0 { 7 } else { i };
            if i < 100_000 {
                fa.add(&mut a, k, 100);
            } else {
                fb.add(&mut b, k, 100);
            }
        }
        a.merge(b);
        let top = a.top(1);
        assert_eq!(top[0].value, "\"v7\"");
        assert!(top[0].bytes >= 4_000_000, "{:?}", top[0]);
    }
}
