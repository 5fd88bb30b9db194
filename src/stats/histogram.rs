//! Documents and bytes over equal slices of the hash space: where the values that are not
//! tracked one by one land, so the engine can still place the long tail.

use serde::Serialize;

/// Slices of the hash space.
pub const BUCKETS: usize = 4096;

/// Documents and bytes per slice of the hash space.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpkHistogram {
    /// Documents per bucket.
    pub docs: Vec<u64>,
    /// Bytes per bucket.
    pub bytes: Vec<u64>,
    /// Bytes in all buckets.
    pub total_bytes: u64,
}

impl Default for EpkHistogram {
    fn default() -> Self {
        EpkHistogram {
            docs: vec![0; BUCKETS],
            bytes: vec![0; BUCKETS],
            total_bytes: 0,
        }
    }
}

/// The bucket of a position in the hash space (a fraction in `[0, 1)`).
#[inline]
pub fn bucket_of(fraction: f64) -> usize {
    ((fraction * BUCKETS as f64) as usize).min(BUCKETS - 1)
}

impl EpkHistogram {
    /// Counts one document of `bytes` at `fraction` of the hash space; returns the bytes its
    /// bucket now holds.
    #[inline]
    pub fn add(&mut self, fraction: f64, bytes: u64) -> u64 {
        let b = bucket_of(fraction);
        self.docs[b] += 1;
        self.bytes[b] += bytes;
        self.total_bytes += bytes;
        self.bytes[b]
    }

    /// Adds everything `other` counted.
    pub fn merge(&mut self, other: &EpkHistogram) {
        for (a, b) in self.docs.iter_mut().zip(&other.docs) {
            *a += b;
        }
        for (a, b) in self.bytes.iter_mut().zip(&other.bytes) {
            *a += b;
        }
        self.total_bytes += other.total_bytes;
    }
}
