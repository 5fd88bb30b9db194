//! Streaming statistics of one candidate key over the sample documents. Every accumulator
//! has `add` and `merge`, and `Default`-like empty states, so that inputs can be read in
//! parallel chunks and merged: merging the statistics of two halves of an input gives the
//! statistics of the whole.

pub mod arrival;
pub mod blocks;
mod bounded;
pub mod clock;
pub mod copy;
pub mod distinct;
pub mod histogram;
pub mod novelty;
pub mod owners;
mod sample;
pub mod values;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::engine::{Epk, PkValueRef};

pub use arrival::Arrival;
pub use blocks::Blocks;
pub use distinct::Distinct;
pub use histogram::EpkHistogram;
use histogram::slice_of_epk;
pub use values::{NO_POSITION, Promotion, Span, TopValue, ValueRef, ValueStats};

/// `n` default (zero) values, written rather than allocated zeroed. A zeroed allocation
/// maps the shared zero page, so a count's first read-then-write of each page faults
/// twice: once to map it, once to copy it on write, with a flush of every thread's TLB.
pub(crate) fn written_zeros<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    // Seen by something opaque, the fresh allocation may hold anything: the zeros are
    // stored, not folded into a zeroed allocation.
    std::hint::black_box(v.as_mut_ptr());
    v.resize(n, T::default());
    v
}

/// The most documents statistics read from a profile may claim (2^53).
pub const PROFILE_MAX_DOCUMENTS: u64 = 1 << 53;
/// The most bytes statistics read from a profile may claim (2^60, an exabyte).
pub const PROFILE_MAX_BYTES: u64 = 1 << 60;

/// Values a layout could not place that are kept as examples.
const UNPLACED_KEPT: usize = 5;
/// Characters kept of each.
const UNPLACED_CHARS: usize = 64;

/// Key values longer than this need large partition keys (Hash V2).
pub const V1_VALUE_LIMIT: usize = 101;
/// Key values longer than this are rejected by the service.
pub const VALUE_LIMIT: usize = 2048;

/// Everything measured about one candidate key.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CandidateStats {
    /// Documents seen.
    pub documents: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Documents lacking a path of the key (at least one level undefined).
    pub missing: u64,
    /// Documents whose key value is an object or array.
    pub invalid: u64,
    /// Documents with a numeric key component beyond ±2^53.
    pub unsafe_numbers: u64,
    /// Documents with a key component over 101 bytes.
    pub over_v1_limit: u64,
    /// Documents with a key component over 2,048 bytes.
    pub over_limit: u64,
    /// The longest key component seen, in bytes.
    pub max_value_bytes: u64,
    /// Distinct key values once values are sampled (while they are counted exactly, the
    /// exact map is the count and this stays empty: one hash table per document, not two).
    pub distinct: Distinct,
    /// Documents and bytes per value.
    pub values: ValueStats,
    /// Documents and bytes over the hash space once values are sampled (while they are
    /// counted exactly, the values hold it: see [`histogram`](Self::histogram)).
    histogram: EpkHistogram,
    /// Arrivals per window over the hash space.
    pub arrival: Arrival,
    /// Whether the histogram is the arrival windows' totals, left to them: while values
    /// are sampled and every document's arrival is recorded, the windows count the same
    /// documents in the same slices (one line fewer a document).
    /// [`settle_histogram`](Self::settle_histogram) takes them back.
    #[serde(skip)]
    deferred: bool,
    /// The slices reached by short runs of consecutive documents.
    pub blocks: Blocks,
    /// A client-side layout: the first few values (in text order) its resolver could not
    /// place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<String>,
    /// What the values said of their order before their labels were replaced by hashes
    /// (`profile --redact`): hashes order nothing, so what depends on the values' order is
    /// decided on them first and kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<ValueOrder>,
    /// The key these statistics measure (canonical spec), as a profile writes it: a
    /// candidate list reordered by hand no longer pairs a key with another's statistics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<String>,
    /// Which value each document's item id is held under (see [`owners`]); not kept in a
    /// profile, which holds no ids.
    #[serde(skip)]
    pub owners: owners::Owners,
}

/// What a key's values said of their order, recorded before redaction (see
/// [`CandidateStats::order`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueOrder {
    /// Spearman's rank correlation of value and first arrival, when it applies.
    pub arrival_correlation: Option<f64>,
    /// Whether the values are readings of the clock.
    pub clock_reading: bool,
    /// Which levels' values are readings of the clock: bit `i` for level `i`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub clock_levels: u8,
}

fn is_zero(bits: &u8) -> bool {
    *bits == 0
}

impl ValueOrder {
    /// Whether it could have been measured: a correlation within -1..=1.
    pub fn is_well_formed(&self) -> bool {
        self.arrival_correlation
            .is_none_or(|r| r.is_finite() && (-1.0..=1.0).contains(&r))
    }

    /// Two shares' orders, each weighted by its documents: the correlation a weighted mean
    /// (the shares' own values never meet), a clock reading when both are.
    fn merge(self, docs: u64, other: ValueOrder, other_docs: u64) -> ValueOrder {
        let (a, b) = (docs.max(1) as f64, other_docs.max(1) as f64);
        let arrival_correlation = match (self.arrival_correlation, other.arrival_correlation) {
            (Some(x), Some(y)) => Some((x * a + y * b) / (a + b)),
            (x, y) => x.or(y),
        };
        ValueOrder {
            arrival_correlation,
            clock_reading: self.clock_reading && other.clock_reading,
            clock_levels: self.clock_levels & other.clock_levels,
        }
    }
}

impl CandidateStats {
    /// Empty statistics; `budget` bounds the per-value map, `by_time` picks time windows.
    pub fn new(budget: usize, by_time: bool) -> Self {
        CandidateStats {
            documents: 0,
            bytes: 0,
            missing: 0,
            invalid: 0,
            unsafe_numbers: 0,
            over_v1_limit: 0,
            over_limit: 0,
            max_value_bytes: 0,
            distinct: Distinct::default(),
            values: ValueStats::new(budget),
            histogram: EpkHistogram::default(),
            arrival: if by_time {
                Arrival::by_time()
            } else {
                Arrival::by_ordinal()
            },
            deferred: false,
            blocks: Blocks::default(),
            unplaced: Vec::new(),
            order: None,
            measured: None,
            owners: owners::Owners::default(),
        }
    }

    /// Counts a document whose key value is an object or array.
    pub fn add_invalid(&mut self, bytes: u64) {
        self.documents += 1;
        self.bytes += bytes;
        self.invalid += 1;
    }

    /// Notes a value a client-side layout could not place (see [`Self::unplaced`]).
    pub fn note_unplaced(&mut self, value: PkValueRef<'_>) {
        let mut text = String::new();
        crate::key::write_text(value, &mut text);
        let text: String = text.chars().take(UNPLACED_CHARS).collect();
        self.merge_unplaced(vec![text]);
    }

    fn merge_unplaced(&mut self, more: Vec<String>) {
        if more.is_empty() {
            return;
        }
        self.unplaced.extend(more);
        self.unplaced.sort_unstable();
        self.unplaced.dedup();
        self.unplaced.truncate(UNPLACED_KEPT);
    }

    /// Counts a document of `bytes` arriving at `position` (none: unknown) whose key has
    /// `components` and `epk` (`v1`: the definition hashes with version 1). Returns the
    /// value's slice of the hash space.
    #[inline]
    pub fn add(
        &mut self,
        components: &[PkValueRef<'_>],
        epk: &Epk,
        v1: bool,
        bytes: u64,
        position: Option<i64>,
    ) -> usize {
        let hash = value_hash(epk, v1);
        let slice = || slice_of_epk(epk, v1);
        self.add_hashed(components, hash, slice, &|| epk.clone(), bytes, position)
    }

    /// [`add`](Self::add) given what is derived from the value's EPK, for a caller that
    /// has them without the EPK: its [`value_hash`], its slice of the hash space
    /// ([`slice_of_epk`]; asked for only when needed) and the EPK itself (made only for a
    /// value kept). They must be the EPK's, or the statistics mix up values.
    #[inline]
    pub fn add_hashed(
        &mut self,
        components: &[PkValueRef<'_>],
        hash: u64,
        slice: impl FnOnce() -> usize,
        epk: &dyn Fn() -> Epk,
        bytes: u64,
        position: Option<i64>,
    ) -> usize {
        self.documents += 1;
        self.bytes += bytes;
        self.check_components(components);
        let exact = self.values.is_exact();
        let slice = if exact {
            self.add_exact(hash, components, slice, epk, bytes, position)
        } else {
            // A document the arrival windows miss: the histogram counts it itself.
            if position.is_none() {
                self.settle_histogram();
            }
            self.add_sampled(hash, components, slice(), epk, bytes, position)
        };
        if let Some(p) = position {
            self.arrival.add(p, slice, bytes);
            // Sampling has just begun: the histogram holds every document counted so far,
            // and so do the windows if none came without an arrival.
            if exact && !self.values.is_exact() {
                self.deferred = self.arrival.slice_totals() == self.histogram.slices;
            }
        }
        slice
    }

    /// While exact, a document touches its value's counts only: the distinct count and the
    /// histogram are the values'. Returns the value's slice of the hash space.
    #[inline]
    fn add_exact(
        &mut self,
        hash: u64,
        components: &[PkValueRef<'_>],
        slice: impl FnOnce() -> usize,
        epk: &dyn Fn() -> Epk,
        bytes: u64,
        position: Option<i64>,
    ) -> usize {
        if let Some(slice) = self.values.count(hash, bytes, position) {
            return slice as usize;
        }
        let slice = slice();
        let label = |out: &mut String| label_into(components, out);
        let at = (bytes, slice as u32, values::Span::at(position));
        self.values.keep(hash, at, label, epk());
        if self.values.over_budget()
            && let Some(p) = self.values.shrink()
        {
            self.promote(p);
        }
        slice
    }

    /// Exact counting has ended: the sketch and the histogram start from what it knew.
    fn promote(&mut self, p: Promotion) {
        for h in p.hashes {
            self.distinct.add(h);
        }
        self.histogram = p.histogram;
    }

    /// Counts a document once sampling has begun; returns its slice. Always inlined, and
    /// the heavy hitters' common case with it: a call for every value of every candidate
    /// cost more instructions than most of them do.
    #[inline(always)]
    fn add_sampled(
        &mut self,
        hash: u64,
        components: &[PkValueRef<'_>],
        slice: usize,
        epk: &dyn Fn() -> Epk,
        bytes: u64,
        position: Option<i64>,
    ) -> usize {
        self.distinct.add(hash);
        if !self.deferred {
            self.histogram.add(slice, bytes);
        }
        let label = |out: &mut String| label_into(components, out);
        let at = (bytes, slice as u32, position);
        self.values.add_sampled(hash, at, label, epk);
        slice
    }

    /// Brings every count into the public fields (see [`Arrival::flush`]): call once
    /// documents have been added and before [`arrival`](Self::arrival) is read.
    pub fn flush(&mut self) {
        self.arrival.flush();
        self.settle_histogram();
    }

    /// Takes back into the histogram the documents left to the arrival windows (see
    /// [`deferred`](Self::deferred)), and counts in it again from here on.
    fn settle_histogram(&mut self) {
        if std::mem::take(&mut self.deferred) {
            self.histogram = self.arrival_histogram();
        }
    }

    /// The arrival windows' totals as a histogram.
    fn arrival_histogram(&self) -> EpkHistogram {
        let slices = self.arrival.slice_totals();
        let total_bytes = slices.iter().fold(0u64, |t, s| t.saturating_add(s.bytes));
        EpkHistogram {
            slices,
            total_bytes,
        }
    }

    /// Documents and bytes over the hash space.
    pub fn histogram(&self) -> Cow<'_, EpkHistogram> {
        if self.values.is_exact() {
            Cow::Owned(self.values.histogram())
        } else if self.deferred {
            Cow::Owned(self.arrival_histogram())
        } else {
            Cow::Borrowed(&self.histogram)
        }
    }

    /// Distinct values: `(count, exact)`; an estimate is never above the documents.
    pub fn distinct_values(&self) -> (u64, bool) {
        if self.values.is_exact() {
            (self.values.len() as u64, true)
        } else {
            let estimate = self.distinct.estimate().min(self.documents);
            (estimate, self.distinct.is_exact())
        }
    }

    /// The distinct-value counter with every value seen, exact or sketched.
    fn full_distinct(&mut self) -> Distinct {
        let mut d = std::mem::take(&mut self.distinct);
        if self.values.is_exact() {
            for h in self.values.hashes() {
                d.add(h);
            }
        }
        d
    }

    fn check_components(&mut self, components: &[PkValueRef<'_>]) {
        let mut longest = 0;
        let (mut missing, mut unsafe_number) = (false, false);
        for c in components {
            match c {
                PkValueRef::Undefined => missing = true,
                PkValueRef::Number(n) => {
                    unsafe_number |= crate::engine::value::is_unsafe_number(*n);
                    longest = longest.max(8);
                }
                PkValueRef::Str(s) => longest = longest.max(s.len()),
                _ => longest = longest.max(1),
            }
        }
        self.missing += missing as u64;
        self.unsafe_numbers += unsafe_number as u64;
        self.over_v1_limit += (longest > V1_VALUE_LIMIT) as u64;
        self.over_limit += (longest > VALUE_LIMIT) as u64;
        self.max_value_bytes = self.max_value_bytes.max(longest as u64);
    }

    /// Checks statistics read from a profile file before they are used.
    pub fn validate(&self) -> Result<(), String> {
        if !self.histogram.is_well_formed()
            || !self.arrival.is_well_formed()
            || !self.blocks.is_well_formed()
        {
            return Err("a histogram of the wrong shape".into());
        }
        if !self.distinct.is_well_formed() {
            return Err("a distinct-value sketch not made here".into());
        }
        if !self.order.is_none_or(|o| o.is_well_formed()) {
            return Err("a rank correlation outside -1..1".into());
        }
        // Parts never exceed the whole, and the whole stays far from overflowing when
        // profiles are added up.
        let (docs, bytes) = (self.documents, self.bytes);
        if docs > PROFILE_MAX_DOCUMENTS || bytes > PROFILE_MAX_BYTES {
            return Err(format!("{docs} documents of {bytes} bytes"));
        }
        let counts = [
            ("missing", self.missing),
            ("invalid", self.invalid),
            ("unsafe-number", self.unsafe_numbers),
            ("over-101-byte", self.over_v1_limit),
            ("over-2048-byte", self.over_limit),
        ];
        if let Some((what, n)) = counts.iter().find(|(_, n)| *n > docs) {
            return Err(format!("{n} {what} documents of {docs}"));
        }
        if self.max_value_bytes > bytes {
            return Err(format!(
                "a value of {} bytes in {bytes}",
                self.max_value_bytes
            ));
        }
        let sum = |parts: &mut dyn Iterator<Item = (u64, u64)>| {
            parts.fold((0u64, 0u64), |(d, b), (x, y)| {
                (d.saturating_add(x), b.saturating_add(y))
            })
        };
        let histogram = sum(&mut self.histogram.slices.iter().map(|s| (s.docs, s.bytes)));
        let arrival = sum(&mut self
            .arrival
            .windows()
            .iter()
            .flat_map(|(_, w)| w.counted().map(|(_, s)| (s.docs, s.bytes))));
        let within = |(d, b): (u64, u64)| d <= docs && b <= bytes;
        if !within(histogram) || self.histogram.total_bytes > bytes || !within(arrival) {
            return Err("histograms that hold more than the documents".into());
        }
        self.values.validate(docs, bytes)?;
        // Sampled values are some of the documents the histogram counts, all of them.
        if !self.values.is_exact() && self.values.held_bytes() > self.histogram.total_bytes {
            return Err("sampled values that hold more than their histogram".into());
        }
        Ok(())
    }

    /// Adds everything `other` counted.
    pub fn merge(&mut self, mut other: CandidateStats) {
        self.settle_histogram();
        other.settle_histogram();
        self.order = match (self.order, other.order) {
            (Some(a), Some(b)) => Some(a.merge(self.documents, b, other.documents)),
            (a, b) => a.or(b),
        };
        // Saturating: statistics read from a profile file may claim anything.
        self.documents = self.documents.saturating_add(other.documents);
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.missing = self.missing.saturating_add(other.missing);
        self.invalid = self.invalid.saturating_add(other.invalid);
        self.unsafe_numbers = self.unsafe_numbers.saturating_add(other.unsafe_numbers);
        self.over_v1_limit = self.over_v1_limit.saturating_add(other.over_v1_limit);
        self.over_limit = self.over_limit.saturating_add(other.over_limit);
        self.max_value_bytes = self.max_value_bytes.max(other.max_value_bytes);
        let both_exact = self.values.is_exact() && other.values.is_exact();
        let (distinct, histogram) = if both_exact {
            (Distinct::default(), EpkHistogram::default())
        } else {
            let mut h = self.histogram().into_owned();
            h.merge(&other.histogram());
            let mut d = self.full_distinct();
            d.merge(other.full_distinct());
            (d, h)
        };
        self.distinct = distinct;
        self.histogram = histogram;
        // Two exact halves whose union outgrew the budget: the sketch starts from all of it.
        if let Some(p) = self.values.merge(other.values) {
            self.promote(p);
        }
        self.arrival.merge(other.arrival);
        self.blocks.merge(other.blocks);
        self.merge_unplaced(other.unplaced);
        self.owners.merge(other.owners);
    }
}

/// The value at `key` in a vector sorted by key, inserted by `make` if absent. Keys mostly
/// arrive in order, so the last entry is checked first.
fn entry<K: Ord + Copy, V>(v: &mut Vec<(K, V)>, key: K, make: impl FnOnce() -> V) -> &mut V {
    let at = match v.last() {
        Some((k, _)) if *k == key => v.len() - 1,
        _ => match v.binary_search_by_key(&key, |(k, _)| *k) {
            Ok(i) => i,
            Err(i) => {
                v.insert(i, (key, make()));
                i
            }
        },
    };
    &mut v[at].1
}

/// Asks for the cache line that holds `p` ahead of its use: a hint that reads nothing the
/// program sees, so any address will do.
#[inline(always)]
pub(crate) fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no effect the program can observe, whatever
    // the address; SSE is part of every x86-64.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// A 64-bit identity of a key value, uniform over its bits (sketches, sampling and cells
/// read them all), taken from its EPK under a definition of version 2 (`v1` false) or 1.
///
/// A version-2 EPK is already a strong hash: the low half of each 16-byte digest, folded.
/// A version-1 EPK is a 32-bit hash followed by the value's own bytes, whatever its
/// length (16 bytes for an eight-character string), so every byte is hashed.
pub fn value_hash(epk: &Epk, v1: bool) -> u64 {
    let b = epk.as_bytes();
    if !v1 && b.len() >= 16 && b.len().is_multiple_of(16) {
        return b.chunks_exact(16).enumerate().fold(0u64, |acc, (i, c)| {
            let low = u64::from_be_bytes(c[8..16].try_into().expect("8 bytes"));
            acc ^ low.rotate_left(21 * i as u32)
        });
    }
    crate::engine::murmur::murmur3_x64_128(b).0
}

/// The report's text for a key value: JSON of the component, or a JSON array of them.
/// Integral numbers print as integers (`42`, not `42.0`); `-0.0` keeps its sign.
pub fn label(components: &[PkValueRef<'_>]) -> String {
    let mut out = String::new();
    label_into(components, &mut out);
    out
}

/// Labels longer than this many bytes are cut (reports print values whole otherwise: a
/// 200 MB value would make a 200 MB report).
pub const MAX_LABEL_BYTES: usize = 256;

/// Writes [`label`] at the end of `out`: cut past [`MAX_LABEL_BYTES`], with the whole
/// label's length and a hash of it.
pub fn label_into(components: &[PkValueRef<'_>], out: &mut String) {
    let start = out.len();
    write_label(components, out);
    cut_from(out, start);
}

/// A label or name from any source (an Azure Monitor log's value, a collection name) as a
/// report shows it: cut past [`MAX_LABEL_BYTES`] as [`label_into`] cuts values.
pub fn cut_label(text: &str) -> String {
    let mut out = text.to_owned();
    cut_from(&mut out, 0);
    out
}

/// Cuts the text of `out` from `start` past [`MAX_LABEL_BYTES`], adding its whole length
/// and a hash of it (two long values stay apart).
fn cut_from(out: &mut String, start: usize) {
    let len = out.len() - start;
    if len > MAX_LABEL_BYTES {
        let (h1, _) = crate::engine::murmur::murmur3_x64_128(&out.as_bytes()[start..]);
        let mut cut = start + MAX_LABEL_BYTES - 64;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        use std::fmt::Write as _;
        let _ = write!(out, "… ({len} bytes, #{:012x})", h1 >> 16);
    }
}

fn write_label(components: &[PkValueRef<'_>], out: &mut String) {
    match components {
        [one] => component_label(*one, out),
        many => {
            out.push('[');
            for (i, c) in many.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                component_label(*c, out);
            }
            out.push(']');
        }
    }
}

fn component_label(c: PkValueRef<'_>, out: &mut String) {
    use std::fmt::Write as _;
    match c {
        // Most strings need no escape: written directly, as serde_json would write them.
        PkValueRef::Str(s) if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        PkValueRef::Number(n)
            if n.fract() == 0.0 && n.abs() < 1e15 && !(n == 0.0 && n.is_sign_negative()) =>
        {
            let _ = write!(out, "{}", n as i64);
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::epk::hash_v2;

    #[test]
    fn version_1_value_hashes_are_uniform_whatever_the_epk_length() {
        // Eight-character strings have 16-byte V1 EPKs (the first of them from 0 on), which
        // once took the V2 path: their hashes were the strings' own bytes.
        let epks: Vec<Epk> = (0..1_000_000)
            .map(|i| crate::engine::epk::hash_v1(&[PkValueRef::Str(&format!("{i:08}"))]))
            .filter(|e| e.as_bytes().len() == 16)
            .take(5_000)
            .collect();
        assert_eq!(epks.len(), 5_000);
        let hashes: Vec<u64> = epks.iter().map(|e| value_hash(e, true)).collect();
        // Top bits (sketch registers, cells): 5,000 uniform values leave about 8 of 1,024
        // cells empty. Low bits (sampling): about one in 256 has its low byte zero.
        let cells: std::collections::HashSet<u64> = hashes.iter().map(|h| h >> 54).collect();
        assert!(cells.len() > 990, "{}", cells.len());
        let zero_low = hashes.iter().filter(|h| *h & 0xFF == 0).count();
        assert!((5..40).contains(&zero_low), "{zero_low}");
        // The same bytes under V2 keep the digest's half: the definition picks the path.
        assert_ne!(value_hash(&epks[0], true), value_hash(&epks[0], false));
    }

    fn add(s: &mut CandidateStats, v: &str, bytes: u64, pos: i64) {
        let c = [PkValueRef::Str(v)];
        s.add(&c, &hash_v2(&c), false, bytes, Some(pos));
    }

    #[test]
    fn counts_and_limits() {
        let mut s = CandidateStats::new(1 << 20, false);
        add(&mut s, "a", 10, 0);
        add(&mut s, &"x".repeat(150), 10, 1);
        add(&mut s, &"y".repeat(3000), 10, 2);
        let c = [PkValueRef::Number(1e17)];
        s.add(&c, &hash_v2(&c), false, 5, Some(3));
        let c = [PkValueRef::Undefined];
        s.add(&c, &hash_v2(&c), false, 5, None);
        s.add_invalid(7);
        assert_eq!(s.documents, 6);
        assert_eq!(s.bytes, 47);
        assert_eq!((s.missing, s.invalid, s.unsafe_numbers), (1, 1, 1));
        assert_eq!(
            (s.over_v1_limit, s.over_limit, s.max_value_bytes),
            (2, 1, 3000)
        );
        assert_eq!(s.distinct_values(), (5, true));
    }

    #[test]
    fn merging_halves_equals_the_whole() {
        let mut whole = CandidateStats::new(1 << 20, false);
        let (mut a, mut b) = (
            CandidateStats::new(1 << 20, false),
            CandidateStats::new(1 << 20, false),
        );
        for i in 0..20_000i64 {
            let v = format!("tenant-{}", (i * i) % 1_500);
            add(&mut whole, &v, (i % 97) as u64, i);
            add(
                if i < 8_000 { &mut a } else { &mut b },
                &v,
                (i % 97) as u64,
                i,
            );
        }
        a.merge(b);
        assert_eq!((a.documents, a.bytes), (whole.documents, whole.bytes));
        assert_eq!(a.distinct_values(), whole.distinct_values());
        assert_eq!(a.values.top(50), whole.values.top(50));
        assert_eq!(a.histogram(), whole.histogram());
        assert_eq!(a.arrival, whole.arrival);
    }

    #[test]
    fn distinct_values_survive_sampling_and_merging() {
        let (mut whole, mut a, mut b) = (
            CandidateStats::new(64 * 1024, false),
            CandidateStats::new(64 * 1024, false),
            CandidateStats::new(64 * 1024, false),
        );
        for i in 0..200_000i64 {
            let v = format!("id-{i}");
            add(&mut whole, &v, 100, i);
            add(if i % 2 == 0 { &mut a } else { &mut b }, &v, 100, i);
        }
        let (w, exact) = whole.distinct_values();
        assert!(!exact && (w as f64 / 200_000.0 - 1.0).abs() < 0.02, "{w}");
        a.merge(b);
        let (m, _) = a.distinct_values();
        assert!((m as f64 / 200_000.0 - 1.0).abs() < 0.02, "{m}");
        // Exact halves whose union outgrows the budget hand every value to the sketch.
        let (mut c, mut d) = (
            CandidateStats::new(2 << 20, false),
            CandidateStats::new(2 << 20, false),
        );
        for i in 0..30_000i64 {
            add(
                if i < 15_000 { &mut c } else { &mut d },
                &format!("k{i}"),
                10,
                i,
            );
        }
        c.merge(d);
        let (n, _) = c.distinct_values();
        assert!((n as f64 / 30_000.0 - 1.0).abs() < 0.02, "{n}");
    }

    /// Document `i` of the histogram tests (45,000 values, a few documents each): its
    /// value, EPK and bytes, counted in `reference` one by one.
    fn histogram_row(i: i64, reference: &mut EpkHistogram) -> (String, Epk, u64) {
        let v = format!("v{}", (i * 7) % 45_000);
        let epk = hash_v2(&[PkValueRef::Str(&v)]);
        let bytes = 100 + (i % 13) as u64;
        reference.add(slice_of_epk(&epk, false), bytes);
        (v, epk, bytes)
    }

    /// Every document's slice, recorded one by one: what the histogram must equal whether
    /// the values are counted exactly or sampled, whole or merged from halves.
    #[test]
    fn the_histogram_holds_every_document_exact_or_sampled() {
        let mut reference = EpkHistogram::default();
        let small = 64 * 1024;
        let (mut whole, mut a, mut b) = (
            CandidateStats::new(small, false),
            CandidateStats::new(small, false),
            CandidateStats::new(1 << 30, false),
        );
        for i in 0..60_000i64 {
            let (v, _, bytes) = histogram_row(i, &mut reference);
            add(&mut whole, &v, bytes, i);
            // One half sampled, the other still exact.
            add(if i % 3 == 0 { &mut a } else { &mut b }, &v, bytes, i);
        }
        assert!(!whole.values.is_exact() && !a.values.is_exact() && b.values.is_exact());
        assert_eq!(*whole.histogram(), reference);
        a.merge(b);
        assert_eq!(*a.histogram(), reference);
    }

    /// Sampled documents are left to the arrival windows while each has a position; one
    /// without (a missing timestamp) brings them back, and the histogram counts on itself.
    #[test]
    fn the_histogram_holds_documents_with_and_without_an_arrival() {
        let mut reference = EpkHistogram::default();
        let (mut whole, mut a, mut b, mut early) = (
            CandidateStats::new(64 * 1024, true),
            CandidateStats::new(64 * 1024, true),
            CandidateStats::new(64 * 1024, true),
            CandidateStats::new(64 * 1024, true),
        );
        for i in 0..60_000i64 {
            let (v, epk, bytes) = histogram_row(i, &mut reference);
            let c = [PkValueRef::Str(&v)];
            // Untimed now and then past the first half (sampling has begun by then), and
            // never in `b`.
            let position = (i < 30_000 || i % 1_000 != 0).then_some(i / 10);
            whole.add(&c, &epk, false, bytes, position);
            // Untimed once, before sampling: the windows never hold every document.
            early.add(&c, &epk, false, bytes, (i != 5).then_some(i));
            let half = if i % 2 == 0 { &mut a } else { &mut b };
            half.add(
                &c,
                &epk,
                false,
                bytes,
                position.or((i % 2 == 1).then_some(i)),
            );
            if i == 20_000 {
                assert!(whole.deferred, "sampled and every arrival known");
                assert_eq!(*whole.histogram(), reference, "read before a flush");
            }
        }
        assert!(!whole.values.is_exact() && !whole.deferred);
        assert_eq!(*whole.histogram(), reference);
        assert!(b.deferred);
        assert!(!early.values.is_exact() && !early.deferred);
        assert_eq!(*early.histogram(), reference);
        a.merge(b);
        assert_eq!(*a.histogram(), reference);
        whole.flush();
        assert_eq!(*whole.histogram(), reference);
    }

    /// `(tenant, user, n)` rows: tenant `big` holds a quarter of the documents, spread over
    /// 400 users; 2,000 other tenants share the rest; user `big-u0` has 2,000 documents.
    fn hierarchical_rows() -> impl Iterator<Item = (String, String, u64)> {
        (0..120_000u64).map(|i| {
            let r = crate::mix::splitmix64(i, 9);
            if i % 60 == 0 {
                ("big".to_owned(), "big-u0".to_owned(), i)
            } else if i % 4 == 0 {
                ("big".to_owned(), format!("big-u{}", 1 + r % 400), i)
            } else {
                let t = r % 2_000;
                (format!("t{t}"), format!("t{t}-u{}", (r >> 20) % 5), i)
            }
        })
    }

    fn add_rows(s: &mut CandidateStats, levels: usize) {
        for (t, u, n) in hierarchical_rows() {
            let id = format!("id{n}");
            let c = [
                PkValueRef::Str(&t),
                PkValueRef::Str(&u),
                PkValueRef::Str(&id),
            ];
            let c = &c[..levels];
            let epk = crate::engine::epk::multi_hash(c);
            s.add(c, &epk, false, 100 + n % 7, Some(n as i64));
        }
    }

    #[test]
    fn a_sampled_hierarchical_key_invents_no_heavy_value() {
        // Every (tenant, user, id) occurs once: no value may pass for a heavy one because
        // its tenant (the first level, hence its place in the hash space) is.
        let mut s = CandidateStats::new(256 * 1024, false);
        add_rows(&mut s, 3);
        assert!(!s.values.is_exact());
        for v in s.values.top(10) {
            assert!(v.docs <= 2 && v.bytes <= 2 * 110, "{v:?}");
        }
    }

    #[test]
    fn sampled_largest_values_bound_the_exact_ones() {
        let mut exact = CandidateStats::new(1 << 30, false);
        let mut sampled = CandidateStats::new(64 * 1024, false);
        add_rows(&mut exact, 2);
        add_rows(&mut sampled, 2);
        assert!(exact.values.is_exact() && !sampled.values.is_exact());
        let truth: std::collections::BTreeMap<String, u64> = exact
            .values
            .top(usize::MAX)
            .into_iter()
            .map(|v| (v.value, v.bytes))
            .collect();
        let top = sampled.values.top(5);
        assert_eq!(top[0].value, "[\"big\",\"big-u0\"]");
        for v in &top {
            let real = truth[&v.value];
            assert!(v.min_bytes <= real && real <= v.bytes, "{v:?} holds {real}");
            // The bound is tight for the heaviest: within a cell's mean share.
            if v.value == top[0].value {
                assert!(v.bytes - v.min_bytes < real / 10, "{v:?} holds {real}");
            }
        }
    }

    #[test]
    fn long_labels_are_cut_with_their_length_and_a_hash() {
        let long = "é".repeat(50_000);
        let l = label(&[PkValueRef::Str(&long)]);
        assert!(l.len() <= MAX_LABEL_BYTES + 40, "{}", l.len());
        assert!(l.contains("(100002 bytes, #"), "{l}");
        let other = label(&[PkValueRef::Str(&format!("{long}x"))]);
        assert_ne!(l, other);
        assert_eq!(label(&[PkValueRef::Str("short")]), "\"short\"");
    }

    #[test]
    fn labels_are_json() {
        assert_eq!(label(&[PkValueRef::Str("a\"b")]), "\"a\\\"b\"");
        for s in [
            "plain",
            "caf\u{e9} \u{1F600}",
            "tab\there",
            "back\\slash",
            "",
            "\u{7f}",
        ] {
            let want = serde_json::to_string(s).unwrap();
            assert_eq!(label(&[PkValueRef::Str(s)]), want);
        }
        assert_eq!(
            label(&[
                PkValueRef::Str("t"),
                PkValueRef::Number(2.0),
                PkValueRef::Undefined
            ]),
            "[\"t\",2,undefined]"
        );
    }
}
