//! Distinct-value counting: exact while small, HyperLogLog++ beyond.
//!
//! HyperLogLog++'s sparse mode costs 150–370 ns per insert on columns with a few thousand
//! repeated values, against ~3 ns once dense. So values are counted exactly in a set of
//! 64-bit hashes until [`EXACT_LIMIT`] distinct values; past it the set is replayed into a
//! fresh sketch, which is dense from then on. Values arrive already hashed (the EPK hash),
//! and reach the sketch through an identity hasher.

use std::hash::{BuildHasher, Hasher};

use hyperloglogplus::{HyperLogLog, HyperLogLogPlus};
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};

/// Distinct values counted exactly before switching to the sketch.
pub const EXACT_LIMIT: usize = 1 << 14;

/// Sketch precision: 2^14 registers (12 KiB, which a replay of the exact set fills past its sparse form), a standard error of about 0.8%.
const PRECISION: u8 = 14;

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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Distinct {
    /// Every hash seen, while there are few.
    Exact(FxHashSet<u64>),
    /// A HyperLogLog++ sketch.
    Sketch(Box<Sketch>),
}

impl Default for Distinct {
    fn default() -> Self {
        Distinct::Exact(FxHashSet::default())
    }
}

fn new_sketch() -> Box<Sketch> {
    Box::new(Sketch::new(PRECISION, IdentityBuild).expect("precision within 4..=18"))
}

impl Distinct {
    /// Counts one value hash.
    #[inline]
    pub fn add(&mut self, hash: u64) {
        match self {
            Distinct::Exact(set) => {
                if set.insert(hash) && set.len() > EXACT_LIMIT {
                    self.promote();
                }
            }
            Distinct::Sketch(s) => s.insert(&hash),
        }
    }

    fn promote(&mut self) {
        if let Distinct::Exact(set) = self {
            let mut sketch = new_sketch();
            for h in set.iter() {
                sketch.insert(h);
            }
            *self = Distinct::Sketch(sketch);
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
                    mine.merge(&theirs).expect("same precision");
                }
            }
        }
    }

    /// Whether a sketch is what this module makes (a profile file could claim anything):
    /// dense, of the precision used here, with the register table of that precision. The
    /// sketch's crate indexes its tables unchecked, so nothing else may reach it.
    pub fn is_well_formed(&self) -> bool {
        match self {
            Distinct::Exact(_) => true,
            Distinct::Sketch(s) => shape(s).is_some_and(|x| x == *reference_shape()),
        }
    }

    /// The number of distinct values: exact, or the sketch's estimate.
    pub fn estimate(&mut self) -> u64 {
        match self {
            Distinct::Exact(set) => set.len() as u64,
            Distinct::Sketch(s) => s.count().round() as u64,
        }
    }

    /// Whether [`estimate`](Self::estimate) is exact.
    pub fn is_exact(&self) -> bool {
        matches!(self, Distinct::Exact(_))
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

fn shape(s: &Sketch) -> Option<Shape> {
    let v = serde_json::to_value(s).ok()?;
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

/// The shape of a sketch made here: promoted past [`EXACT_LIMIT`], hence dense.
fn reference_shape() -> &'static Shape {
    static SHAPE: std::sync::OnceLock<Shape> = std::sync::OnceLock::new();
    SHAPE.get_or_init(|| {
        let mut d = Distinct::default();
        for i in 0..2 * EXACT_LIMIT as u64 {
            d.add(crate::mix::splitmix64(i, 0x5eed));
        }
        match &d {
            Distinct::Sketch(s) => shape(s).expect("a sketch made here has its shape"),
            Distinct::Exact(_) => unreachable!("promoted past the exact limit"),
        }
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
}
