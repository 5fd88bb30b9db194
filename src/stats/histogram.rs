//! Documents and bytes over equal slices of the hash space: where the values that are not
//! tracked one by one land, so the engine can still place the long tail.
//!
//! One slice's two counters sit side by side (one cache line holds four slices), and there
//! are few enough slices for twenty candidates' histograms to stay in cache. Sampled
//! documents whose arrival is recorded are counted in the arrival windows' slices alone,
//! and added in here at the end (see `CandidateStats::flush`).

use serde::{Deserialize, Serialize};

pub use crate::engine::epk::{BUCKETS, bucket_of, slice_of_epk};

/// One slice: documents and bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Slice {
    /// Documents.
    pub docs: u64,
    /// Bytes.
    pub bytes: u64,
}

impl Slice {
    /// Adds `other`'s counts, saturating.
    #[inline]
    pub fn add(&mut self, other: Slice) {
        self.docs = self.docs.saturating_add(other.docs);
        self.bytes = self.bytes.saturating_add(other.bytes);
    }
}

/// Documents and bytes per slice of the hash space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpkHistogram {
    /// The slices, in hash-space order.
    pub slices: Vec<Slice>,
    /// Bytes in all slices.
    pub total_bytes: u64,
}

impl Default for EpkHistogram {
    fn default() -> Self {
        EpkHistogram {
            slices: vec![Slice::default(); BUCKETS],
            total_bytes: 0,
        }
    }
}

impl EpkHistogram {
    /// Counts one document of `bytes` in slice `slice`; returns the bytes the slice now
    /// holds.
    #[inline]
    pub fn add(&mut self, slice: usize, bytes: u64) -> u64 {
        let s = &mut self.slices[slice];
        s.docs += 1;
        s.bytes += bytes;
        self.total_bytes += bytes;
        s.bytes
    }

    /// Counts `docs` documents of `bytes` in all in slice `slice`.
    pub fn add_to(&mut self, slice: usize, docs: u64, bytes: u64) {
        self.slices[slice].add(Slice { docs, bytes });
        self.total_bytes = self.total_bytes.saturating_add(bytes);
    }

    /// Adds everything `other` counted.
    pub fn merge(&mut self, other: &EpkHistogram) {
        for (a, b) in self.slices.iter_mut().zip(&other.slices) {
            a.add(*b);
        }
        self.total_bytes = self.total_bytes.saturating_add(other.total_bytes);
    }

    /// Whether it has its [`BUCKETS`] slices (a profile file could claim otherwise).
    pub fn is_well_formed(&self) -> bool {
        self.slices.len() == BUCKETS
    }

    /// Bytes of bucket `i`.
    pub fn bytes(&self, i: usize) -> u64 {
        self.slices[i].bytes
    }
}
