//! Distinct-value counting: exact while small, HyperLogLog++ beyond.
//!
//! HyperLogLog++'s sparse mode costs 150–370 ns per insert on columns with a few thousand
//! repeated values, against ~3 ns once dense. So values are counted exactly in a set of
//! 64-bit hashes until [`EXACT_LIMIT`] distinct values; past it the set is replayed into the
//! registers of a dense sketch, kept one byte each (see [`Distinct`]). Values arrive already
//! hashed (the EPK hash), and reach the crate's sketch through an identity hasher.

use std::hash::{BuildHasher, Hasher};

use hyperloglogplus::{HyperLogLog, HyperLogLogPlus};
use rustc_hash::FxHashSet;
use serde::de::Error;
use serde::{Deserialize, Serialize};

/// Distinct values counted exactly before switching to the sketch: as many as a set of
/// 2^14 slots holds (seven eighths of them). One more would double the set, a table of
/// 2^15 slots (288 KiB) kept for a few thousand values before the sketch replaces it.
pub const EXACT_LIMIT: usize = (1 << 14) / 8 * 7;

/// Sketch precision: 2^14 registers, a standard error of about 0.8%.
const PRECISION: u8 = 14;
/// Registers of a sketch of [`PRECISION`].
const REGISTERS: usize = 1 << PRECISION;
/// The largest register value: one more than the hash bits past the register index.
const MAX_RANK: u8 = 64 - PRECISION + 1;

/// Passes a pre-computed 64-bit hash through unchanged.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 hashes are fed; fold anything else defensively.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Builds [`IdentityHasher`]s.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct IdentityBuild;

impl BuildHasher for IdentityBuild {
    type Hasher = IdentityHasher;
    fn build_hasher(&self) -> IdentityHasher {
        IdentityHasher::default()
    }
}

type Sketch = HyperLogLogPlus<u64, IdentityBuild>;

/// A distinct-value counter over 64-bit value hashes.
///
/// Past [`EXACT_LIMIT`] it keeps the registers of a dense HyperLogLog++ sketch one byte
/// each and sets them as the sketch's crate would (the crate packs them in six bits,
/// which costs a division and two masks per value). The crate's sketch is rebuilt from
/// them, register for register, to estimate and to be written: the estimate and the file
/// are the crate's.
#[derive(Clone, Debug)]
pub enum Distinct {
    /// Every hash seen, while there are few.
    Exact(FxHashSet<u64>),
    /// The registers of a dense HyperLogLog++ sketch.
    Sketch(Box<Registers>),
}

/// The registers of a dense HyperLogLog++ sketch of precision 14, one byte each.
#[derive(Clone, Debug, PartialEq)]
pub struct Registers([u8; REGISTERS]);

impl Registers {
    fn new() -> Box<Registers> {
        Box::new(Registers([0; REGISTERS]))
    }

    /// Counts `hash` as the crate's dense sketch does: the register of its top bits keeps
    /// the largest rank (leading zeros after them, plus one) seen.
    #[inline]
    fn add(&mut self, hash: u64) {
        let index = (hash >> (64 - PRECISION)) as usize;
        let rank = ((hash << PRECISION) | (1 << (PRECISION - 1))).leading_zeros() as u8 + 1;
        let r = &mut self.0[index];
        *r = (*r).max(rank);
    }

    fn merge(&mut self, other: &Registers) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = (*a).max(*b);
        }
    }

    /// The crate's sketch with these registers: a dense empty sketch, given for every
    /// non-zero register the one hash that sets it to its value.
    fn to_sketch(&self) -> Sketch {
        let mut sketch = empty_dense_sketch().clone();
        for (i, &rank) in self.0.iter().enumerate() {
            if rank > 0 {
                sketch.insert(&hash_of_rank(i, rank));
            }
        }
        sketch
    }

    /// The registers of a sketch read from a file, if it is what [`to_sketch`](Self::to_sketch) makes
    /// (a file could claim anything, and the crate indexes its tables unchecked).
    fn from_sketch(sketch: &Sketch) -> Option<Box<Registers>> {
        let value = serde_json::to_value(sketch).ok()?;
        if shape(&value)? != *reference_shape() {
            return None;
        }
        let words = value["registers"]["buf"].as_array()?;
        let mut r = Registers::new();
        for (i, slot) in r.0.iter_mut().enumerate() {
            let word = words.get(i / PER_WORD)?.as_u64()?;
            let rank = (word >> (BITS * (i % PER_WORD))) & ((1 << BITS) - 1);
            *slot = u8::try_from(rank).ok().filter(|&x| x <= MAX_RANK)?;
        }
        let zeros = r.0.iter().filter(|&&x| x == 0).count() as u64;
        (value["registers"]["zeros"].as_u64()? == zeros).then_some(r)
    }
}

/// The hash that the register `index` counts with `rank`: its index on top, then
/// `rank - 1` zeros and a one (none at the largest rank).
fn hash_of_rank(index: usize, rank: u8) -> u64 {
    let bits = 64 - u32::from(PRECISION);
    let one = (1u64 << (bits - 1)) >> (rank - 1).min(63);
    (index as u64) << bits | one
}

/// The crate's dense registers: six bits each, five to a 32-bit word.
const BITS: usize = 6;
const PER_WORD: usize = 5;

impl Default for Distinct {
    fn default() -> Self {
        Distinct::Exact(FxHashSet::default())
    }
}

impl Distinct {
    /// Counts one value hash.
    #[inline]
    pub fn add(&mut self, hash: u64) {
        match self {
            Distinct::Exact(set) if set.len() < EXACT_LIMIT => {
                set.insert(hash);
            }
            // A full set is only looked in: placing a value, even one it holds, would
            // double it first. A new value is counted by the sketch.
            Distinct::Exact(set) if set.contains(&hash) => {}
            Distinct::Exact(_) => {
                self.promote();
                self.add(hash);
            }
            Distinct::Sketch(r) => r.add(hash),
        }
    }

    fn promote(&mut self) {
        if let Distinct::Exact(set) = self {
            let mut r = Registers::new();
            for &h in set.iter() {
                r.add(h);
            }
            *self = Distinct::Sketch(r);
        }
    }

    /// Adds everything `other` counted.
    pub fn merge(&mut self, other: Distinct) {
        match other {
            Distinct::Exact(set) => {
                for h in set {
                    self.add(h);
                }
            }
            Distinct::Sketch(theirs) => {
                self.promote();
                if let Distinct::Sketch(mine) = self {
                    mine.merge(&theirs);
                }
            }
        }
    }

    /// Whether the registers are ones a sketch can hold (a profile file is checked as it
    /// is read: see [`Deserialize`]).
    pub fn is_well_formed(&self) -> bool {
        match self {
            Distinct::Exact(_) => true,
            Distinct::Sketch(r) => r.0.iter().all(|&x| x <= MAX_RANK),
        }
    }

    /// The number of distinct values: exact, or the sketch's estimate.
    pub fn estimate(&self) -> u64 {
        match self {
            Distinct::Exact(set) => set.len() as u64,
            Distinct::Sketch(r) => r.to_sketch().count().round() as u64,
        }
    }

    /// Whether [`estimate`](Self::estimate) is exact.
    pub fn is_exact(&self) -> bool {
        matches!(self, Distinct::Exact(_))
    }
}

/// How a counter is written: the exact set, or the crate's sketch.
#[derive(Serialize)]
#[serde(rename = "Distinct")]
enum Written<'a> {
    Exact(&'a FxHashSet<u64>),
    Sketch(Box<Sketch>),
}

/// How a counter is read.
#[derive(Deserialize)]
#[serde(rename = "Distinct")]
enum Read {
    Exact(FxHashSet<u64>),
    Sketch(Box<Sketch>),
}

impl Serialize for Distinct {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Distinct::Exact(set) => Written::Exact(set),
            Distinct::Sketch(r) => Written::Sketch(Box::new(r.to_sketch())),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Distinct {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Read::deserialize(d)? {
            Read::Exact(set) => Ok(Distinct::Exact(set)),
            Read::Sketch(sketch) => Registers::from_sketch(&sketch)
                .map(Distinct::Sketch)
                .ok_or_else(|| D::Error::custom("a distinct-value sketch not made here")),
        }
    }
}

/// What is checked of a sketch read from a file: its precision, table sizes, an empty
/// sparse form, and the size of its dense registers (with their count of zeros in range).
#[derive(Debug, PartialEq)]
struct Shape {
    precision: serde_json::Value,
    counts: serde_json::Value,
    tmpset: serde_json::Value,
    sparse: serde_json::Value,
    registers: usize,
    register_count: serde_json::Value,
}

fn shape(v: &serde_json::Value) -> Option<Shape> {
    let registers = &v["registers"];
    let count = registers["count"].as_u64()?;
    if registers["zeros"].as_u64()? > count {
        return None;
    }
    Some(Shape {
        precision: v["precision"].clone(),
        counts: v["counts"].clone(),
        tmpset: v["tmpset"].clone(),
        sparse: v["sparse"].clone(),
        registers: registers["buf"].as_array()?.len(),
        register_count: registers["count"].clone(),
    })
}

/// The written form of the crate's sketch of [`PRECISION`] made dense by a replay of more
/// than [`EXACT_LIMIT`] values, as the counter was before it kept registers itself: the
/// shape every sketch read must have, and the form of an empty dense one. Made once (the
/// replay's sparse inserts take milliseconds).
fn dense_form() -> &'static serde_json::Value {
    static FORM: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    FORM.get_or_init(|| {
        let mut sketch = Sketch::new(PRECISION, IdentityBuild).expect("precision within 4..=18");
        for i in 0..2 * EXACT_LIMIT as u64 {
            sketch.insert(&crate::mix::splitmix64(i, 0x5eed));
        }
        serde_json::to_value(sketch).expect("a sketch serialises")
    })
}

/// The shape of a dense sketch.
fn reference_shape() -> &'static Shape {
    static SHAPE: std::sync::OnceLock<Shape> = std::sync::OnceLock::new();
    SHAPE.get_or_init(|| shape(dense_form()).expect("a dense sketch has its shape"))
}

/// A dense sketch with every register zero: a replayed sketch's form with its registers
/// cleared, which no sequence of inserts could give (the crate stays sparse until it holds
/// many values).
fn empty_dense_sketch() -> &'static Sketch {
    static EMPTY: std::sync::OnceLock<Sketch> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| {
        let mut v = dense_form().clone();
        let registers = &mut v["registers"];
        for w in registers["buf"].as_array_mut().expect("dense registers") {
            *w = 0.into();
        }
        registers["zeros"] = registers["count"].clone();
        serde_json::from_value(v).expect("a cleared sketch reads back")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(i: u64) -> u64 {
        crate::mix::splitmix64(i, 0)
    }

    #[test]
    fn exact_while_small() {
        let mut d = Distinct::default();
        for i in 0..10_000 {
            d.add(mix(i % 3_000));
        }
        assert!(d.is_exact());
        assert_eq!(d.estimate(), 3_000);
    }

    /// Exact up to the limit, in a set that never doubles past 2^14 slots (7/8 full at
    /// most: a capacity of the limit); one value more is counted by the sketch.
    #[test]
    fn exact_to_the_limit_in_a_set_that_never_doubles() {
        let mut d = Distinct::default();
        for i in 0..EXACT_LIMIT as u64 {
            d.add(mix(i));
            d.add(mix(i / 2));
        }
        let Distinct::Exact(set) = &d else {
            panic!("exact at the limit")
        };
        assert_eq!((set.len(), set.capacity()), (EXACT_LIMIT, EXACT_LIMIT));
        d.add(mix(EXACT_LIMIT as u64));
        assert!(!d.is_exact());
        let e = d.estimate() as f64;
        assert!((e / (EXACT_LIMIT as f64 + 1.0) - 1.0).abs() < 0.03, "{e}");
    }

    #[test]
    fn sketch_within_two_percent_at_a_million() {
        let mut d = Distinct::default();
        for i in 0..1_000_000 {
            d.add(mix(i));
        }
        assert!(!d.is_exact());
        let e = d.estimate() as f64;
        assert!((e / 1e6 - 1.0).abs() < 0.03, "{e}");
    }

    #[test]
    fn merging_halves_equals_the_whole() {
        for n in [5_000u64, 200_000] {
            let (mut a, mut b, mut whole): (Distinct, Distinct, Distinct) = Default::default();
            for i in 0..n {
                let h = mix(i % (n * 3 / 4));
                if i % 2 == 0 { &mut a } else { &mut b }.add(h);
                whole.add(h);
            }
            a.merge(b);
            let (x, y) = (a.estimate() as f64, whole.estimate() as f64);
            assert!((x - y).abs() <= y * 0.001, "{n}: {x} vs {y}");
        }
    }

    /// The crate's own sketch fed `hashes`, as the counter fed it before it kept registers.
    fn crate_sketch(hashes: impl Iterator<Item = u64>) -> Sketch {
        let mut sketch = Sketch::new(PRECISION, IdentityBuild).unwrap();
        for h in hashes {
            sketch.insert(&h);
        }
        sketch
    }

    #[test]
    fn registers_give_the_crates_sketch_and_estimate() {
        // Random hashes, and hashes of every rank up to the largest (low bits all zero).
        let ranks = (0..64u64).map(|b| (b * 977) << 50 | (1u64 << 50 >> b.min(50)) >> 1);
        for n in [EXACT_LIMIT as u64 + 1, 300_000] {
            let hashes: Vec<u64> = (0..n).map(mix).chain(ranks.clone()).collect();
            let mut d = Distinct::default();
            hashes.iter().for_each(|&h| d.add(h));
            let mut theirs = crate_sketch(hashes.iter().copied());
            let ours = serde_json::to_value(&d).unwrap();
            assert_eq!(
                ours["Sketch"],
                serde_json::to_value(&theirs).unwrap(),
                "{n}"
            );
            assert_eq!(d.estimate(), theirs.count().round() as u64, "{n}");
        }
    }

    #[test]
    fn every_rank_has_its_hash() {
        for rank in 1..=MAX_RANK {
            let mut r = Registers::new();
            r.add(hash_of_rank(REGISTERS - 1, rank));
            assert_eq!(r.0[REGISTERS - 1], rank);
            assert!(r.0[..REGISTERS - 1].iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn a_written_sketch_reads_back_and_a_forged_one_is_refused() {
        let mut d = Distinct::default();
        (0..100_000).for_each(|i| d.add(mix(i)));
        d.add(0);
        let text = serde_json::to_string(&d).unwrap();
        let back: Distinct = serde_json::from_str(&text).unwrap();
        match (&back, &d) {
            (Distinct::Sketch(a), Distinct::Sketch(b)) => assert_eq!(a, b),
            _ => panic!("not a sketch"),
        }
        type Edit = fn(&mut serde_json::Value);
        let forgeries: [Edit; 3] = [
            // A register past the largest rank.
            |v| v["registers"]["buf"][7] = (63u64 << 12).into(),
            // Zeros the registers do not have.
            |v| v["registers"]["zeros"] = 3.into(),
            // A short table.
            |v| drop(v["registers"]["buf"].as_array_mut().unwrap().pop()),
        ];
        for edit in forgeries {
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            edit(&mut v["Sketch"]);
            let err = serde_json::from_value::<Distinct>(v).unwrap_err();
            assert!(err.to_string().contains("not made here"), "{err}");
        }
    }
}
