//! Documents and bytes per key value, in bounded memory.
//!
//! While the values fit the memory budget every value is counted exactly. Past it, values
//! are kept by *hash sampling*: only values whose hash has its low `level` bits zero stay
//! in the map (each stands for `2^level` values), and the level rises whenever the map
//! outgrows the budget. A sampled value is either counted from its first document or never,
//! so the sample's frequencies are exact and its statistics (distinct values, values seen
//! once) scale up without bias. The largest values are found apart from the sample by a
//! count-min sketch of bytes feeding a small table of heavy hitters: a value enters the
//! table only once its estimated bytes pass both the table's smallest entry and twice a
//! sketch cell's mean, so high-cardinality keys never touch the table.

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::engine::Epk;

/// Heavy hitters kept.
pub const HEAVY: usize = 64;
const CMS_DEPTH: usize = 4;
const CMS_WIDTH: usize = 4096;

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
}

impl ValueEntry {
    fn footprint(&self) -> usize {
        std::mem::size_of::<(u64, ValueEntry)>() + self.label.len() + 16
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

/// A count-min sketch of bytes per value hash.
#[derive(Clone, Debug, PartialEq)]
struct CountMin {
    cells: Vec<u64>,
    total: u64,
}

impl CountMin {
    fn new() -> Self {
        CountMin {
            cells: vec![0; CMS_DEPTH * CMS_WIDTH],
            total: 0,
        }
    }

    #[inline]
    fn index(hash: u64, row: usize) -> usize {
        let h = hash.rotate_left(16 * row as u32) as usize;
        row * CMS_WIDTH + (h % CMS_WIDTH)
    }

    /// Adds `bytes` for `hash`; returns the new estimate.
    #[inline]
    fn add(&mut self, hash: u64, bytes: u64) -> u64 {
        self.total += bytes;
        let mut est = u64::MAX;
        for row in 0..CMS_DEPTH {
            let c = &mut self.cells[Self::index(hash, row)];
            *c += bytes;
            est = est.min(*c);
        }
        est
    }

    fn estimate(&self, hash: u64) -> u64 {
        (0..CMS_DEPTH)
            .map(|row| self.cells[Self::index(hash, row)])
            .min()
            .unwrap_or(0)
    }

    fn merge(&mut self, other: &CountMin) {
        for (a, b) in self.cells.iter_mut().zip(&other.cells) {
            *a += b;
        }
        self.total += other.total;
    }

    /// Estimates below this are noise from colliding values.
    fn floor(&self) -> u64 {
        2 * self.total / CMS_WIDTH as u64
    }
}

/// Per-value documents and bytes within a memory budget.
#[derive(Clone, Debug)]
pub struct ValueStats {
    budget: usize,
    level: u32,
    used: usize,
    sample: FxHashMap<u64, ValueEntry>,
    /// Present once sampling has begun.
    sketch: Option<Box<CountMin>>,
    heavy: FxHashMap<u64, ValueEntry>,
}

impl ValueStats {
    /// Statistics that may use about `budget` bytes.
    pub fn new(budget: usize) -> Self {
        ValueStats {
            budget: budget.max(64 * 1024),
            level: 0,
            used: 0,
            sample: FxHashMap::default(),
            sketch: None,
            heavy: FxHashMap::default(),
        }
    }

    #[inline]
    fn sampled(&self, hash: u64) -> bool {
        hash & ((1u64 << self.level) - 1) == 0
    }

    /// Counts one document of `bytes` with the value of `hash`; `entry` builds the value's
    /// label and EPK, and is called only when the value is first kept.
    #[inline]
    pub fn add(&mut self, hash: u64, bytes: u64, entry: impl Fn() -> (String, Epk)) {
        if let Some(sketch) = &mut self.sketch {
            let est = sketch.add(hash, bytes);
            let floor = sketch.floor();
            self.add_heavy(hash, bytes, est, floor, &entry);
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
        };
        self.used += e.footprint();
        self.sample.insert(hash, e);
        if self.used > self.budget {
            self.raise_level();
        }
    }

    fn add_heavy(
        &mut self,
        hash: u64,
        bytes: u64,
        est: u64,
        floor: u64,
        entry: &dyn Fn() -> (String, Epk),
    ) {
        if let Some(e) = self.heavy.get_mut(&hash) {
            e.docs += 1;
            e.bytes += bytes;
            return;
        }
        let smallest = self.smallest_heavy();
        if est <= floor || (self.heavy.len() >= HEAVY && est <= smallest.1) {
            return;
        }
        let (label, epk) = entry();
        if self.heavy.len() >= HEAVY {
            self.heavy.remove(&smallest.0);
        }
        let docs = (est / bytes.max(1)).max(1);
        let label = label.into_boxed_str();
        self.heavy.insert(
            hash,
            ValueEntry {
                docs,
                bytes: est,
                label,
                epk,
            },
        );
    }

    /// The heavy hitter with the fewest bytes (ties: highest hash), `(0, 0)` if none.
    fn smallest_heavy(&self) -> (u64, u64) {
        self.heavy
            .iter()
            .map(|(h, e)| (*h, e.bytes))
            .min_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .unwrap_or((0, 0))
    }

    /// Halves the sample (and starts the sketch when leaving exact counting).
    fn raise_level(&mut self) {
        if self.sketch.is_none() {
            self.start_sketch();
        }
        while self.used > self.budget && self.level < 63 {
            self.level += 1;
            let mask = (1u64 << self.level) - 1;
            self.sample.retain(|h, _| h & mask == 0);
            self.used = self.sample.values().map(ValueEntry::footprint).sum();
        }
    }

    fn start_sketch(&mut self) {
        let mut sketch = CountMin::new();
        for (h, e) in &self.sample {
            sketch.add(*h, e.bytes);
        }
        let mut all: Vec<(&u64, &ValueEntry)> = self.sample.iter().collect();
        all.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(b.0)));
        self.heavy = all
            .into_iter()
            .take(HEAVY)
            .map(|(h, e)| (*h, e.clone()))
            .collect();
        self.sketch = Some(Box::new(sketch));
    }

    /// Adds everything `other` counted.
    pub fn merge(&mut self, mut other: ValueStats) {
        if other.sketch.is_some() && self.sketch.is_none() {
            self.start_sketch();
        }
        if self.sketch.is_some() && other.sketch.is_none() {
            other.start_sketch();
        }
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
        if let (Some(mine), Some(theirs)) = (&mut self.sketch, &other.sketch) {
            mine.merge(theirs);
            self.merge_heavy(other.heavy);
        }
        if self.used > self.budget {
            self.raise_level();
        }
    }

    /// Re-ranks the union of both tables by the merged sketch's estimates (exact figures
    /// where the sample has them).
    fn merge_heavy(&mut self, theirs: FxHashMap<u64, ValueEntry>) {
        let sketch = self.sketch.as_ref().expect("sketch present");
        let mut union = std::mem::take(&mut self.heavy);
        for (h, e) in theirs {
            union.entry(h).or_insert(e);
        }
        let mut ranked: Vec<(u64, ValueEntry)> = union
            .into_iter()
            .map(|(h, mut e)| {
                match self.sample.get(&h) {
                    Some(exact) if self.level == 0 => e = exact.clone(),
                    _ => {
                        let est = sketch.estimate(h);
                        e.docs = e.docs.max(est / (e.bytes / e.docs.max(1)).max(1));
                        e.bytes = est;
                    }
                }
                (h, e)
            })
            .collect();
        ranked.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(&b.0)));
        ranked.truncate(HEAVY);
        self.heavy = ranked.into_iter().collect();
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
        let source = if exact { &self.sample } else { &self.heavy };
        let mut all: Vec<&ValueEntry> = source.values().collect();
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

    /// The tracked entries behind [`top`](Self::top): for the engine to place exactly.
    pub fn heavy_entries(&self) -> Vec<&ValueEntry> {
        let source = if self.is_exact() {
            &self.sample
        } else {
            &self.heavy
        };
        let mut all: Vec<&ValueEntry> = source.values().collect();
        all.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.label.cmp(&b.label)));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(i: u64) -> u64 {
        let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn entry(i: u64) -> impl Fn() -> (String, Epk) {
        move || (format!("\"v{i}\""), Epk::from_bytes(&mix(i).to_be_bytes()))
    }

    #[test]
    fn exact_within_budget() {
        let mut v = ValueStats::new(1 << 20);
        for i in 0..10_000u64 {
            let k = i % 100;
            v.add(mix(k), 10 + k, entry(k));
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
        for i in 0..300_000u64 {
            let k = match i % 10 {
                0 => 1_000_000,
                1 => 1_000_001,
                _ => i,
            };
            v.add(mix(k), 500, entry(k));
        }
        assert!(!v.is_exact());
        let top = v.top(2);
        let labels: Vec<&str> = top.iter().map(|t| t.value.as_str()).collect();
        assert_eq!(labels.len(), 2);
        assert!(labels.contains(&"\"v1000000\"") && labels.contains(&"\"v1000001\""));
        for t in &top {
            // 30,000 documents of 500 bytes; the sketch may only overestimate, slightly.
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
        for i in 0..5_000u64 {
            let k = i % 700;
            whole.add(mix(k), i % 13, entry(k));
            if i % 3 == 0 { &mut a } else { &mut b }.add(mix(k), i % 13, entry(k));
        }
        a.merge(b);
        assert_eq!(a.top(700), whole.top(700));
        assert_eq!(a.singletons(), whole.singletons());
    }

    #[test]
    fn merging_sampled_halves_keeps_the_heavy_values() {
        let (mut a, mut b) = (ValueStats::new(128 * 1024), ValueStats::new(128 * 1024));
        for i in 0..200_000u64 {
            let k = if i % 5 == 0 { 7 } else { i };
            if i < 100_000 { &mut a } else { &mut b }.add(mix(k), 100, entry(k));
        }
        a.merge(b);
        let top = a.top(1);
        assert_eq!(top[0].value, "\"v7\"");
        assert!(top[0].bytes >= 4_000_000, "{:?}", top[0]);
    }
}
