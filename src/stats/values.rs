//! Documents and bytes per key value, in bounded memory.
//!
//! While the values fit the memory budget every value is counted exactly. Past it, values
//! are kept by *hash sampling*: only values whose hash has its low `level` bits zero stay
//! in the map (each stands for `2^level` values), and the level rises whenever the map
//! outgrows the budget. A sampled value is either counted from its first document or never,
//! so the sample's frequencies are exact and its statistics (distinct values, values seen
//! once) scale up without bias. The largest values are kept apart from the sample in a
//! small table of heavy hitters, admitted through a row of [`CELLS`] byte counters indexed
//! by the hash of the whole key value (never by its place in the hash space: every value
//! of one tenant of a hierarchical key shares that place). A value is considered only when
//! its cell holds [`HOT_FACTOR`] times the mean cell's bytes, and enters with that cell's
//! bytes as an upper bound of its own; from then on it is counted exactly, which is its
//! lower bound. High-cardinality keys, whose cells stay even, never touch the table.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::histogram::{BUCKETS, EpkHistogram};
use super::sample::{SLOT_BYTES, Sample, Tally};
use crate::engine::Epk;

/// Heavy hitters kept.
pub const HEAVY: usize = 64;
/// Byte counters of the heavy hitters' admission row.
pub const CELLS: usize = BUCKETS;

/// The admission cell of a value hash: its top bits.
#[inline]
fn cell_of(hash: u64) -> usize {
    (hash >> (64 - CELLS.trailing_zeros())) as usize
}

/// What is known of one heavy hitter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueEntry {
    /// Documents with this value (an upper-bound estimate).
    pub docs: u64,
    /// Their bytes: an upper bound.
    pub bytes: u64,
    /// Bytes counted one by one since the value was admitted: a lower bound.
    pub counted: u64,
    /// The value as the report shows it (JSON text).
    pub label: Box<str>,
    /// Its EPK under the candidate's definition.
    pub epk: Epk,
    /// Its admission cell.
    pub cell: u32,
    /// Its first and last arrival seen ([`NO_POSITION`] when unknown).
    pub span: Span,
    /// Some share of the input merged in (another reading thread's, or a profile's) did
    /// not track the value, and its documents there are not in these figures: neither
    /// bound holds, and the value is not reported as exact.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}

/// The arrival position (document ordinal or timestamp) of no document: a value whose
/// documents had none has `first == NO_POSITION.0` and `last == NO_POSITION.1`.
pub const NO_POSITION: (i64, i64) = (i64::MAX, i64::MIN);

/// A value's first and last arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// The first arrival seen.
    pub first: i64,
    /// The last arrival seen.
    pub last: i64,
}

impl Span {
    /// The span of one document at `position` (none: unknown).
    pub fn at(position: Option<i64>) -> Span {
        match position {
            Some(p) => Span { first: p, last: p },
            None => Span {
                first: NO_POSITION.0,
                last: NO_POSITION.1,
            },
        }
    }

    /// The span of both.
    pub fn union(self, other: Span) -> Span {
        Span {
            first: self.first.min(other.first),
            last: self.last.max(other.last),
        }
    }

    /// Whether any arrival is known.
    pub fn is_known(&self) -> bool {
        self.first <= self.last
    }
}

impl ValueEntry {
    fn absorb(&mut self, docs: u64, bytes: u64, counted: u64, span: Span) {
        self.docs = self.docs.saturating_add(docs);
        self.bytes = self.bytes.saturating_add(bytes);
        self.counted = self.counted.saturating_add(counted);
        self.span = self.span.union(span);
    }

    fn view(&self) -> ValueRef<'_> {
        ValueRef {
            docs: self.docs,
            bytes: self.bytes,
            min_bytes: self.counted,
            label: &self.label,
            epk: self.epk.clone(),
            span: self.span,
            partial: self.partial,
        }
    }
}

/// One value as the statistics hold it.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRef<'a> {
    /// Documents with this value.
    pub docs: u64,
    /// Their bytes (an upper bound when `min_bytes` differs).
    pub bytes: u64,
    /// The fewest bytes it may hold (`bytes` when counted exactly).
    pub min_bytes: u64,
    /// The value as the report shows it (JSON text).
    pub label: &'a str,
    /// Its EPK under the candidate's definition.
    pub epk: Epk,
    /// Its first and last arrival (for a heavy hitter, since it was admitted).
    pub span: Span,
    /// A heavy hitter some merged share did not track (see [`ValueEntry::partial`]).
    pub partial: bool,
}

/// The cold half of a kept value, written once: where its label and its EPK lie in the
/// two texts that hold them end to end (one allocation each, not one per value).
#[derive(Clone, Debug, PartialEq)]
struct Detail {
    label: std::ops::Range<u32>,
    epk: std::ops::Range<u32>,
    /// Its first arrival (as seen: the first of its documents read).
    first: i64,
}

/// A detail as a profile holds it: its label's place in the labels' text and its EPK.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct StoredDetail {
    label: std::ops::Range<usize>,
    epk: Epk,
    first: i64,
}

/// The bytes a detail is costed at: its own, and its EPK's (16 a level under Hash V2 and
/// MultiHash, up to 48), rounded up.
const DETAIL_BYTES: usize = 64;

/// What one kept value may cost at the worst moment, an upper bound the budget counts:
/// four slots (a table at most seven eighths full, refilled after a halving), twice its
/// detail and twice its label (the vectors and texts grow by doubling).
fn footprint(label: usize) -> usize {
    4 * SLOT_BYTES + 2 * DETAIL_BYTES + 2 * label
}

/// Past the first halving, the fewest values a key keeps: the sample the figures built
/// on the kept values are read from (see [`PRECISION`]).
pub const FLOOR: usize = 2048;

/// Past the first halving, the half-width at 95% within which the share of documents
/// whose value is seen once ([`ValueStats::singleton_share`]) must stay: a sample larger
/// than [`FLOOR`] is halved again only while the halved sample keeps it.
pub const PRECISION: f64 = 0.01;

/// The counts of values seen `r` times, `r` from 1 to this, that the growth model reads
/// (Good–Turing's counts of counts).
pub const COUNTS_READ: usize = 6;

/// Past the first halving, the values a count of counts must still be read from after a
/// halving, where it was read from as many before (a relative error of about a fifth).
pub const COUNT_SUPPORT: usize = 30;

/// The admission cells of a profile's two rows, each of [`CELLS`] counts or none.
fn cells_of(bytes: Vec<u64>, tracked: Vec<u64>) -> Result<Vec<Cell>, String> {
    let rows = [&bytes, &tracked];
    if rows.iter().any(|r| !r.is_empty() && r.len() != CELLS) {
        return Err("a heavy value outside the hash space".into());
    }
    if rows.iter().all(|r| r.is_empty()) {
        return Ok(Vec::new());
    }
    let at = |r: &[u64], i: usize| r.get(i).copied().unwrap_or(0);
    let cell = |i| Cell {
        bytes: at(&bytes, i),
        tracked: at(&tracked, i),
    };
    Ok((0..CELLS).map(cell).collect())
}

/// A range of one of the texts, to index it.
fn range_of(r: &std::ops::Range<u32>) -> std::ops::Range<usize> {
    r.start as usize..r.end as usize
}

/// The EPK of detail `d` in the EPKs' text.
fn epk_in(epks: &[u8], d: &Detail) -> Epk {
    Epk::from_bytes(&epks[range_of(&d.epk)])
}

/// Moves the bytes of `from` down to `to` (no later than its start) and returns their new
/// range.
fn slide(text: &mut [u8], from: &std::ops::Range<u32>, to: u32) -> std::ops::Range<u32> {
    text.copy_within(range_of(from), to as usize);
    to..to + (from.end - from.start)
}

/// The labels and EPKs written end to end grow past what a detail can point at: the
/// statistics halve their values rather than let them.
const TEXT_MAX: usize = (u32::MAX / 2) as usize;

/// One of the largest values, for reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopValue {
    /// The value (JSON text).
    pub value: String,
    /// Documents with it.
    pub docs: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The fewest bytes it may hold (`bytes` when exact).
    pub min_bytes: u64,
    /// Whether the figures are exact (otherwise `bytes` is an upper bound, unless
    /// `partial`).
    pub exact: bool,
    /// Some merged share did not track the value: its figures miss the documents there
    /// (see [`ValueEntry::partial`]).
    pub partial: bool,
    /// Its EPK (hex).
    pub epk: String,
}

/// A value is considered heavy once its admission cell holds this many times the mean.
pub const HOT_FACTOR: u64 = 4;
/// Documents per cell, on average, before any value is admitted: with fewer, chance alone
/// makes some cell hold four times the mean.
const SETTLED_DOCS_PER_CELL: u64 = 8;

/// What exact counting knew when it ended: every value hash, and the histogram of every
/// document (while exact, the histogram is not kept apart: the values hold it).
#[derive(Debug)]
pub struct Promotion {
    /// The hash of every value seen.
    pub hashes: Vec<u64>,
    /// Documents and bytes over the hash space.
    pub histogram: EpkHistogram,
}

/// Per-value documents and bytes within a memory budget.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "Stored")]
pub struct ValueStats {
    budget: usize,
    level: u32,
    used: usize,
    /// Past the first halving, the kept values at which the precision is looked at again
    /// (at least [`FLOOR`]; doubled whenever a halving would lose it); `usize::MAX` for
    /// a key that keeps what the budget allows (see [`keep_to_budget`](Self::keep_to_budget)).
    cap: usize,
    sample: Sample,
    details: Vec<Detail>,
    /// The kept values' labels, end to end: one allocation, not one per value.
    labels: String,
    /// The kept values' EPKs, end to end.
    epks: Vec<u8>,
    /// Scratch of [`compact`](Self::compact), kept with its allocation.
    kept: Vec<u32>,
    /// Tracked apart once sampling has begun.
    heavy: FxHashMap<u64, ValueEntry>,
    /// The admission cells once sampling has begun: each document reads and writes its
    /// cell's two counts, side by side in one cache line.
    cells: Vec<Cell>,
    /// Documents in the cells.
    celled: u64,
    /// Bytes of every document counted.
    total: u64,
}

/// The sums [`ValueStats::singleton_share`] reads from the kept values.
#[derive(Default)]
struct Terms {
    /// Values seen once.
    ones: f64,
    /// Documents of the values seen more than once, heavy hitters left out.
    repeated: f64,
    /// Those documents squared, value by value.
    squares: f64,
}

/// One admission cell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Cell {
    /// Bytes of every document whose value falls in the cell.
    bytes: u64,
    /// Bytes of the heavy table's entries in the cell.
    tracked: u64,
}

/// [`ValueStats`] as a profile holds it: each detail with its EPK.
#[derive(Deserialize)]
struct Stored {
    budget: usize,
    level: u32,
    used: usize,
    cap: usize,
    sample: Sample,
    details: Vec<StoredDetail>,
    labels: String,
    heavy: FxHashMap<u64, ValueEntry>,
    #[serde(deserialize_with = "bounded_cells")]
    cells: Vec<u64>,
    celled: u64,
    total: u64,
    #[serde(deserialize_with = "bounded_cells")]
    tracked: Vec<u64>,
}

impl TryFrom<Stored> for ValueStats {
    type Error = String;

    fn try_from(s: Stored) -> Result<ValueStats, String> {
        if s.labels.len() > TEXT_MAX {
            return Err(format!("labels of {} bytes", s.labels.len()));
        }
        let mut epks = Vec::new();
        let mut details = Vec::with_capacity(s.details.len());
        for d in s.details {
            let to_u32 = |x: usize| u32::try_from(x).map_err(|_| "a label past its text");
            let at = epks.len();
            epks.extend_from_slice(d.epk.as_bytes());
            if epks.len() > TEXT_MAX {
                return Err("EPKs past what the statistics hold".into());
            }
            details.push(Detail {
                label: to_u32(d.label.start)?..to_u32(d.label.end)?,
                epk: at as u32..epks.len() as u32,
                first: d.first,
            });
        }
        Ok(ValueStats {
            budget: s.budget,
            level: s.level,
            used: s.used,
            cap: s.cap.max(FLOOR),
            sample: s.sample,
            details,
            labels: s.labels,
            epks,
            kept: Vec::new(),
            heavy: s.heavy,
            cells: cells_of(s.cells, s.tracked)?,
            celled: s.celled,
            total: s.total,
        })
    }
}

/// Written in the order of the values' hashes (the kept values, their details and labels,
/// the heavy hitters), whatever order they were kept in: the same statistics give the same
/// bytes, however they were read, merged or compacted.
impl Serialize for ValueStats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let order: Vec<(u64, &Tally)> = self.sample.sorted().collect();
        let mut labels = String::new();
        let details: Vec<StoredDetail> = (order.iter())
            .map(|(_, t)| {
                let d = &self.details[t.detail as usize];
                let start = labels.len();
                labels.push_str(self.label(d));
                StoredDetail {
                    label: start..labels.len(),
                    epk: self.epk_of(d),
                    first: d.first,
                }
            })
            .collect();
        let heavy: std::collections::BTreeMap<u64, &ValueEntry> =
            self.heavy.iter().map(|(h, e)| (*h, e)).collect();
        let mut st = s.serialize_struct("ValueStats", 12)?;
        st.serialize_field("budget", &self.budget)?;
        st.serialize_field("level", &self.level)?;
        st.serialize_field("used", &self.used)?;
        st.serialize_field("cap", &self.cap)?;
        st.serialize_field("sample", &Renumbered(&order))?;
        st.serialize_field("details", &details)?;
        st.serialize_field("labels", &labels)?;
        st.serialize_field("heavy", &heavy)?;
        st.serialize_field(
            "cells",
            &self.cells.iter().map(|c| c.bytes).collect::<Vec<_>>(),
        )?;
        st.serialize_field("celled", &self.celled)?;
        st.serialize_field("total", &self.total)?;
        let tracked: Vec<u64> = self.cells.iter().map(|c| c.tracked).collect();
        st.serialize_field("tracked", &tracked)?;
        st.end()
    }
}

/// Kept values in hash order, each pointing at the detail of its own rank.
struct Renumbered<'a>(&'a [(u64, &'a Tally)]);

impl Serialize for Renumbered<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (i, (h, t)) in self.0.iter().enumerate() {
            let t = Tally {
                detail: i as u32,
                ..**t
            };
            map.serialize_entry(h, &t)?;
        }
        map.end()
    }
}

fn bounded_cells<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
    super::bounded::seq(d, CELLS, "admission cells")
}

impl ValueStats {
    /// Statistics that may use about `budget` bytes.
    pub fn new(budget: usize) -> Self {
        ValueStats {
            budget: budget.max(64 * 1024),
            level: 0,
            used: 0,
            cap: FLOOR,
            sample: Sample::default(),
            details: Vec::new(),
            labels: String::new(),
            epks: Vec::new(),
            kept: Vec::new(),
            heavy: FxHashMap::default(),
            cells: Vec::new(),
            celled: 0,
            total: 0,
        }
    }

    /// Keeps as many values as the budget allows once sampled, whatever the precision
    /// [`PRECISION`] asks for: for a hierarchical key, whose prefixes (a tenant and its
    /// users) are sized from the kept values that share them, each value standing for
    /// `2^level`, so that a prefix's size is only as precise as the values kept under it.
    pub fn keep_to_budget(&mut self) {
        self.cap = usize::MAX;
    }

    #[inline]
    fn sampled(&self, hash: u64) -> bool {
        hash & ((1u64 << self.level) - 1) == 0
    }

    /// Whether the value of `hash` is among the values counted, and how many values the
    /// answer stands for: a heavy hitter is known one by one (1); any other value only
    /// when its hash is sampled (`2^level`, held or not); `None` when the statistics
    /// cannot tell (a value outside the sampled share of the hash space).
    pub fn holds(&self, hash: u64) -> Option<(bool, f64)> {
        if self.heavy.contains_key(&hash) {
            return Some((true, 1.0));
        }
        let weight = 2f64.powi(self.level.min(63) as i32);
        self.sampled(hash)
            .then(|| (self.sample.get(hash).is_some(), weight))
    }

    /// The EPKs of the values counted one by one (the sample's and the heavy hitters'),
    /// in no order; a value in both comes twice.
    pub fn epks(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (self.sample.values())
            .map(|t| &self.epks[range_of(&self.details[t.detail as usize].epk)])
            .chain(self.heavy.values().map(|e| e.epk.as_bytes()))
    }

    /// Asks for the slot of the value of `hash`, if it is kept or would be (a hint): the
    /// one line of a candidate's that is seldom in cache. Its other counts (sketch
    /// registers, histogram slices, admission cells, arrival counters) are small enough to
    /// stay there, and asking for them, twenty candidates at a time, cost more than it
    /// saved.
    #[inline]
    pub fn prefetch_kept(&self, hash: u64) {
        if self.sampled(hash) {
            self.sample.prefetch(hash);
        }
    }

    /// Counts one document of `bytes` with the value of `hash` if the value is already
    /// kept, and returns the value's slice of the hash space; `None` if it is not kept
    /// (while exact: a value never seen, to [`keep`](Self::keep)).
    #[inline(always)]
    pub fn count(&mut self, hash: u64, bytes: u64, position: Option<i64>) -> Option<u32> {
        let t = self.sample.get_mut(hash)?;
        t.docs += 1;
        t.bytes += bytes;
        if let Some(p) = position {
            if p >= t.last && t.last != NO_POSITION.1 {
                t.last = p;
            } else {
                t.last = t.last.max(p);
                // Out of order (a file grouped by key): the first arrival may move back.
                let d = &mut self.details[t.detail as usize];
                d.first = d.first.min(p);
            }
        }
        self.total += bytes;
        Some(t.slice)
    }

    /// Starts keeping the value of `hash` (not kept yet, and sampled) with its first
    /// document of `bytes`; `label` writes the value's label. May end exact counting: see
    /// [`shrink`](Self::shrink).
    pub fn keep(
        &mut self,
        hash: u64,
        (bytes, slice, span): (u64, u32, Span),
        label: impl FnOnce(&mut String),
        epk: Epk,
    ) {
        let start = self.labels.len();
        label(&mut self.labels);
        self.used += footprint(self.labels.len() - start);
        self.total += bytes;
        let at = self.epks.len();
        self.epks.extend_from_slice(epk.as_bytes());
        let detail = self.details.len() as u32;
        // Within `TEXT_MAX`, which `over_budget` keeps the texts under.
        self.details.push(Detail {
            label: start as u32..self.labels.len() as u32,
            epk: at as u32..self.epks.len() as u32,
            first: span.first,
        });
        let t = Tally {
            docs: 1,
            bytes,
            slice,
            detail,
            last: span.last,
        };
        self.sample.insert(hash, t);
    }

    fn label(&self, d: &Detail) -> &str {
        &self.labels[range_of(&d.label)]
    }

    fn epk_of(&self, d: &Detail) -> Epk {
        epk_in(&self.epks, d)
    }

    /// Whether [`keep`](Self::keep) went past the budget; then call
    /// [`shrink`](Self::shrink).
    pub fn over_budget(&self) -> bool {
        self.over_memory() || (self.level > 0 && self.sample.len() > self.cap)
    }

    /// Whether the kept values went past the memory budget, or, while exact, fill a table
    /// the budget would not let grow (see [`worth_growing`](Self::worth_growing)).
    fn over_memory(&self) -> bool {
        self.used > self.budget
            || self.labels.len() > TEXT_MAX
            || self.epks.len() > TEXT_MAX
            || (self.level == 0 && self.sample.is_full() && !self.worth_growing())
    }

    /// Whether the budget lets a full table, doubled, hold half as many values again as it
    /// holds: a table doubled for a few more values before the first halving would take
    /// twice the memory for the rest of the run. Once sampling, every value the budget
    /// allows is kept (a hierarchical key's prefixes are sized from them).
    fn worth_growing(&self) -> bool {
        let each = self.used / self.sample.len().max(1);
        let room = self.budget.saturating_sub(self.used) / each.max(1);
        2 * room >= self.sample.len()
    }

    /// Whether the values a halving would keep still read the figures built on them as
    /// well as [`PRECISION`] and [`COUNT_SUPPORT`] ask: the share of documents whose value
    /// is seen once within [`PRECISION`] at 95%, with the variance
    /// [`singleton_share`](Self::singleton_share) reads it with (`s(s-1)` times the values
    /// seen once, or the squared documents of the others, whichever is smaller, over the
    /// documents squared; `s` the values each kept value would stand for); and no count of
    /// the values seen `r` times (`r` up to [`COUNTS_READ`]) that the sample reads from at
    /// least [`COUNT_SUPPORT`] values read from fewer.
    fn halving_keeps_precision(&self) -> bool {
        let mask = (1u64 << (self.level + 1)) - 1;
        let Terms { ones, squares, .. } = self.terms(mask);
        let s = (mask + 1) as f64;
        let docs = (self.celled as f64).max(1.0);
        let variance = s * (s - 1.0) * f64::min(ones, squares) / (docs * docs);
        let (now, halved) = (self.counts_of_counts(0), self.counts_of_counts(mask));
        let counts_kept =
            (now.iter().zip(halved)).all(|(&n, h)| n < COUNT_SUPPORT || h >= COUNT_SUPPORT);
        1.96 * variance.sqrt() <= PRECISION && counts_kept
    }

    /// Drops the kept values of the next level's halving.
    fn halve(&mut self) {
        self.level += 1;
        let mask = (1u64 << self.level) - 1;
        self.sample.retain(|h| h & mask == 0);
        self.compact();
    }

    /// Counts one document of `bytes` with the value of `hash` once sampling has begun;
    /// `slice` is its slice of the hash space, `label` writes the value's label, and `epk`
    /// is its EPK.
    #[inline]
    pub fn add_sampled(
        &mut self,
        hash: u64,
        (bytes, slice, position): (u64, u32, Option<i64>),
        label: impl Fn(&mut String),
        epk: &dyn Fn() -> Epk,
    ) {
        self.add_heavy(hash, bytes, position, &label, epk);
        if !self.sampled(hash) {
            self.total += bytes;
            return;
        }
        if self.count(hash, bytes, position).is_some() {
            return;
        }
        let span = Span::at(position);
        self.keep(hash, (bytes, slice, span), label, epk());
        if self.over_budget() {
            self.shrink();
        }
    }

    /// Heavy hitters: a value is admitted when the bytes of its cell not already held by
    /// the table are hot, with those bytes as the upper bound of its own; then it is
    /// counted exactly. A cell whose heavy value is tracked cools down, so the table does
    /// not churn. Inlined: most documents only add to their cell and find it cool, and
    /// a call cost more than that.
    #[inline(always)]
    fn add_heavy(
        &mut self,
        hash: u64,
        bytes: u64,
        position: Option<i64>,
        label: &dyn Fn(&mut String),
        epk: &dyn Fn() -> Epk,
    ) {
        if self.cells.is_empty() {
            self.start_rows();
        }
        let cell = cell_of(hash);
        let c = &mut self.cells[cell];
        c.bytes += bytes;
        self.celled += 1;
        // A tracked value's cell holds its bytes: most documents, in cells without one,
        // skip the table.
        let (tracked, untracked) = (c.tracked, c.bytes.saturating_sub(c.tracked));
        if tracked > 0
            && let Some(e) = self.heavy.get_mut(&hash)
        {
            e.absorb(1, bytes, bytes, Span::at(position));
            self.cells[cell].tracked += bytes;
            return;
        }
        // The mean cell, counting this document (`total` counts it after).
        let mean = (self.total + bytes) / CELLS as u64;
        let settled = self.celled >= SETTLED_DOCS_PER_CELL * CELLS as u64;
        if !settled || untracked <= HOT_FACTOR * mean.max(1) {
            return;
        }
        self.admit(hash, (bytes, position, cell, untracked), label, epk);
    }

    /// The admission rows, where sampling has just begun without them.
    #[cold]
    #[inline(never)]
    fn start_rows(&mut self) {
        if self.cells.is_empty() {
            self.cells = vec![Cell::default(); CELLS];
        }
    }

    /// Admits the value of `hash` to the heavy table, whose `cell` holds `untracked` hot
    /// bytes, unless the table is full of larger values.
    #[cold]
    #[inline(never)]
    fn admit(
        &mut self,
        hash: u64,
        (bytes, position, cell, untracked): (u64, Option<i64>, usize, u64),
        label: &dyn Fn(&mut String),
        epk: &dyn Fn() -> Epk,
    ) {
        let smallest = self.smallest_heavy();
        if self.heavy.len() >= HEAVY && untracked <= smallest.1 {
            return;
        }
        if self.heavy.len() >= HEAVY
            && let Some(old) = self.heavy.remove(&smallest.0)
        {
            let t = &mut self.cells[old.cell as usize].tracked;
            *t = t.saturating_sub(old.bytes);
        }
        self.cells[cell].tracked += untracked;
        let mut text = String::new();
        label(&mut text);
        let entry = ValueEntry {
            docs: (untracked / bytes.max(1)).max(1),
            bytes: untracked,
            counted: bytes,
            label: text.into_boxed_str(),
            epk: epk(),
            cell: cell as u32,
            span: Span::at(position),
            partial: false,
        };
        self.heavy.insert(hash, entry);
    }

    fn retrack(&mut self) {
        self.start_rows();
        self.cells.iter_mut().for_each(|c| c.tracked = 0);
        for e in self.heavy.values() {
            let t = &mut self.cells[e.cell as usize].tracked;
            *t = t.saturating_add(e.bytes);
        }
    }

    /// The admission cells from the values counted exactly so far.
    fn start_cells(&mut self) {
        self.start_rows();
        self.cells.iter_mut().for_each(|c| c.bytes = 0);
        self.celled = 0;
        for (h, t) in self.sample.iter() {
            let c = &mut self.cells[cell_of(h)].bytes;
            *c = c.saturating_add(t.bytes);
            self.celled = self.celled.saturating_add(t.docs);
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

    /// Brings the sample back within the budget by halving it as often as needed, then
    /// past [`FLOOR`] values halves it again while the halved sample keeps [`PRECISION`]
    /// (else the values kept may double before it is looked at again). Ends
    /// exact counting if it was on: the heavy table starts from the largest values, and
    /// what exact counting knew waits in the returned promotion.
    pub fn shrink(&mut self) -> Option<Promotion> {
        let promotion = (self.level == 0).then(|| {
            self.start_cells();
            self.start_heavy();
            Promotion {
                hashes: self.sample.keys().collect(),
                histogram: self.histogram(),
            }
        });
        while self.over_memory() && self.level < 63 {
            self.halve();
        }
        while self.sample.len() > self.cap && self.level < 63 {
            if !self.halving_keeps_precision() {
                while self.cap < self.sample.len() {
                    self.cap = self.cap.saturating_mul(2);
                }
                break;
            }
            self.halve();
        }
        if self.level > 0 && self.cap < usize::MAX {
            self.sample.shrink_for(self.cap);
        }
        promotion
    }

    /// Replaces every label by `hide(label)` (a profile made to travel): the values' EPKs,
    /// counts and sizes stay as measured.
    pub fn redact_labels(&mut self, hide: &dyn Fn(&str) -> String) {
        self.relabel(|_, label, out| out.push_str(&hide(label)));
        for e in self.heavy.values_mut() {
            e.label = hide(&e.label).into_boxed_str();
        }
    }

    /// Drops the details, labels and EPKs of values no longer kept and recounts the bytes
    /// used, in place: the details keep their order and their labels and EPKs slide down
    /// their texts, whose allocations stay for the values that will take their places (a
    /// sampled key halves and refills them again and again).
    fn compact(&mut self) {
        // Which details are kept, then where each goes: their indices, in order.
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        kept.resize(self.details.len(), u32::MAX);
        for t in self.sample.values() {
            kept[t.detail as usize] = 0;
        }
        if !self.labels_in_order() {
            // Only the kept labels are copied: a profile may hold details no value uses,
            // their labels overlapping.
            self.relabel(|i, label, out| {
                if kept[i] != u32::MAX {
                    out.push_str(label);
                }
            });
        }
        let mut text = std::mem::take(&mut self.labels).into_bytes();
        let (mut next, mut end, mut epk_end) = (0usize, 0u32, 0u32);
        self.used = 0;
        for (i, place) in kept.iter_mut().enumerate() {
            if *place == u32::MAX {
                continue;
            }
            // Labels and EPKs lie in order (checked above, and kept so): the ends never
            // pass a range's start, and the bytes moved are still its own.
            let d = &mut self.details[i];
            d.label = slide(&mut text, &d.label, end);
            d.epk = slide(&mut self.epks, &d.epk, epk_end);
            (end, epk_end) = (d.label.end, d.epk.end);
            self.used += footprint(d.label.len());
            self.details.swap(next, i);
            *place = next as u32;
            next += 1;
        }
        text.truncate(end as usize);
        self.epks.truncate(epk_end as usize);
        // Whole labels moved, so the text is still UTF-8; checking it costs one pass.
        self.labels = String::from_utf8(text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        self.details.truncate(next);
        for t in self.sample.values_mut() {
            t.detail = kept[t.detail as usize];
        }
        self.kept = kept;
    }

    /// Whether the details' labels lie end to end in the details' order, as keeping and
    /// compacting leave them (a profile read back may not).
    fn labels_in_order(&self) -> bool {
        let mut end = 0;
        self.details.iter().all(|d| {
            let ok = d.label.start >= end
                && d.label.end >= d.label.start
                && d.label.end as usize <= self.labels.len();
            end = d.label.end;
            ok
        })
    }

    /// Writes the labels again, end to end in the details' order, each as `write` puts
    /// the label of the detail at its index (nothing, for one it drops).
    fn relabel(&mut self, write: impl Fn(usize, &str, &mut String)) {
        let text = std::mem::take(&mut self.labels);
        for (i, d) in self.details.iter_mut().enumerate() {
            let start = self.labels.len();
            write(
                i,
                text.get(range_of(&d.label)).unwrap_or_default(),
                &mut self.labels,
            );
            d.label = start as u32..self.labels.len() as u32;
        }
    }

    /// The heavy table starts as the largest values counted exactly so far.
    fn start_heavy(&mut self) {
        let mut all: Vec<(u64, &Tally)> = self.sample.iter().collect();
        // Hashes are unique: the order is total, and the largest are the same whether all
        // are sorted or only the largest picked out (in linear time) and sorted.
        largest_first(&mut all, HEAVY, |a, b| {
            b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(&b.0))
        });
        self.heavy = all
            .into_iter()
            .take(HEAVY)
            .map(|(h, t)| {
                let d = &self.details[t.detail as usize];
                let e = ValueEntry {
                    docs: t.docs,
                    bytes: t.bytes,
                    counted: t.bytes,
                    label: self.label(d).into(),
                    epk: self.epk_of(d),
                    cell: cell_of(h) as u32,
                    span: self.span_of(t),
                    partial: false,
                };
                (h, e)
            })
            .collect();
        self.retrack();
    }

    /// Documents and bytes of the kept values over the hash space: every document's while
    /// exact.
    pub fn histogram(&self) -> EpkHistogram {
        let mut h = EpkHistogram::default();
        for t in self.sample.values() {
            h.add_to(t.slice as usize, t.docs, t.bytes);
        }
        h
    }

    /// Adds everything `other` counted; two exact halves whose union outgrows the budget
    /// end exact counting, and the promotion is returned.
    pub fn merge(&mut self, mut other: ValueStats) -> Option<Promotion> {
        if other.level > 0 && self.level == 0 {
            self.start_cells();
            self.start_heavy();
        }
        if self.level > 0 && other.level == 0 {
            other.start_cells();
            other.start_heavy();
        }
        let sampling = self.level > 0 || other.level > 0;
        if sampling {
            // A value one side tracks as heavy and the other does not: what the other
            // counted of it, read before the two are mixed.
            let mine = other.shares_of(&self.heavy);
            let theirs = self.shares_of(&other.heavy);
            absorb_shares(&mut self.heavy, mine);
            absorb_shares(&mut other.heavy, theirs);
        }
        // Counted here, not by `keep` and `count_many` below.
        let total = self.total.saturating_add(other.total);
        if sampling {
            self.start_rows();
            for (a, b) in self.cells.iter_mut().zip(&other.cells) {
                a.bytes = a.bytes.saturating_add(b.bytes);
            }
            self.celled = self.celled.saturating_add(other.celled);
        }
        self.level = self.level.max(other.level);
        self.cap = self.cap.max(other.cap);
        if sampling {
            // The level the union will need, reached before it is built: the table then
            // never grows to hold values the budget drops at once.
            self.level = self.union_level(&other);
        }
        let mask = (1u64 << self.level) - 1;
        self.sample.retain(|h| h & mask == 0);
        for (h, t) in other.sample {
            let d = &other.details[t.detail as usize];
            // `other.sample` is moved out: the span is built here, not by `span_of`.
            let span = Span {
                first: d.first,
                last: t.last,
            };
            if h & mask != 0 || self.count_many(h, (t.docs, t.bytes), span) {
                continue;
            }
            let label = &other.labels[range_of(&d.label)];
            self.keep(
                h,
                (t.bytes, t.slice, span),
                |out| out.push_str(label),
                epk_in(&other.epks, d),
            );
            let mine = self.sample.get_mut(h).expect("just kept");
            mine.docs = t.docs;
        }
        self.compact();
        self.total = total;
        if sampling {
            self.merge_heavy(other.heavy);
        }
        let promotion = self.over_budget().then(|| self.shrink()).flatten();
        self.trim();
        promotion
    }

    /// Gives back what a merge left unused: the union was built before it was compacted,
    /// and a table, text or vector more than twice what it holds would stay so (no more
    /// values follow a merge to refill it).
    fn trim(&mut self) {
        let fit = |len: usize| 2 * len.next_power_of_two();
        if self.labels.capacity() > fit(self.labels.len()) {
            self.labels.shrink_to(self.labels.len().next_power_of_two());
        }
        if self.epks.capacity() > fit(self.epks.len()) {
            self.epks.shrink_to(self.epks.len().next_power_of_two());
        }
        if self.details.capacity() > fit(self.details.len()) {
            self.details
                .shrink_to(self.details.len().next_power_of_two());
        }
        self.kept = Vec::new();
        self.sample.trim();
    }

    /// The lowest level, from this one up, at which the values of both sides together
    /// fit the budget: what [`shrink`](Self::shrink) would reach after the merge.
    fn union_level(&self, other: &ValueStats) -> u32 {
        // The bytes of the union's values by the level up to which each is kept.
        let mut by_level = [0usize; 64];
        let mut add = |h: u64, label: usize| {
            by_level[h.trailing_zeros().min(63) as usize] += footprint(label);
        };
        for (h, t) in self.sample.iter().filter(|(h, _)| self.sampled(*h)) {
            add(h, self.details[t.detail as usize].label.len());
        }
        let theirs = other.sample.iter().filter(|(h, _)| self.sampled(*h));
        for (h, t) in theirs.filter(|(h, _)| self.sample.get(*h).is_none()) {
            add(h, other.details[t.detail as usize].label.len());
        }
        let mut used: usize = by_level[self.level as usize..].iter().sum();
        let mut level = self.level;
        while used > self.budget && level < 63 {
            used -= by_level[level as usize];
            level += 1;
        }
        level
    }

    fn count_many(&mut self, hash: u64, (docs, bytes): (u64, u64), span: Span) -> bool {
        match self.sample.get_mut(hash) {
            Some(t) => {
                t.docs = t.docs.saturating_add(docs);
                t.bytes = t.bytes.saturating_add(bytes);
                t.last = t.last.max(span.last);
                let d = &mut self.details[t.detail as usize];
                d.first = d.first.min(span.first);
                true
            }
            None => false,
        }
    }

    /// For each value of `heavy` this side does not track as heavy, what it counted of
    /// it: exact figures when its sample holds the value, none when the value's hash is
    /// sampled but absent (it was not seen), else unknown.
    fn shares_of(&self, heavy: &FxHashMap<u64, ValueEntry>) -> Vec<(u64, Option<Share>)> {
        let share = |h: u64| match self.sample.get(h) {
            Some(t) => Some(Share {
                docs: t.docs,
                bytes: t.bytes,
                span: self.span_of(t),
            }),
            None if self.sampled(h) => Some(Share {
                docs: 0,
                bytes: 0,
                span: Span::at(None),
            }),
            None => None,
        };
        heavy
            .keys()
            .filter(|h| !self.heavy.contains_key(h))
            .map(|&h| (h, share(h)))
            .collect()
    }

    /// A kept value's first and last arrival.
    fn span_of(&self, t: &Tally) -> Span {
        Span {
            first: self.details[t.detail as usize].first,
            last: t.last,
        }
    }

    /// The union of both tables (figures added where both hold a value), largest first.
    fn merge_heavy(&mut self, theirs: FxHashMap<u64, ValueEntry>) {
        for (h, e) in theirs {
            match self.heavy.get_mut(&h) {
                Some(mine) => {
                    mine.absorb(e.docs, e.bytes, e.counted, e.span);
                    mine.partial |= e.partial;
                }
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

    /// Checks what a profile file claims: every index and range within bounds, and no
    /// value with more than the `docs` documents and `bytes` bytes of the whole.
    pub fn validate(&self, docs: u64, bytes: u64) -> Result<(), String> {
        let (mut d, mut b) = (0u64, 0u64);
        for t in self.sample.values() {
            d = d.saturating_add(t.docs);
            b = b.saturating_add(t.bytes);
        }
        // A heavy value's documents are an estimate (its bytes over one document's): only
        // its bytes are bounded by the whole.
        let heavy_ok = self.heavy.values().all(|e| {
            e.bytes <= bytes && e.counted <= e.bytes && e.docs <= super::PROFILE_MAX_DOCUMENTS
        });
        let cells: u64 = (self.cells.iter()).fold(0, |a, c| a.saturating_add(c.bytes));
        if d > docs
            || b > bytes
            || !heavy_ok
            || self.cells.iter().any(|c| c.tracked > bytes)
            || cells > bytes
            || self.total > bytes
        {
            return Err("values that hold more than the documents".into());
        }
        if self.level > 63 || self.budget == 0 {
            return Err(format!("sampling level {} of 63", self.level));
        }
        // Level L is reached only once 2^(L-1) values were kept at the level below: a level
        // past the documents makes each value stand for more than all of them (and the
        // engine split a container of that many values).
        if self.level > 0 && (1u128 << (self.level - 1)) > u128::from(docs.max(1)) {
            return Err(format!(
                "sampling level {}: each value would stand for more than the {docs} documents",
                self.level
            ));
        }
        // Hash sampling keeps only the values whose hash has its low `level` bits zero.
        if !self.sample.keys().all(|h| self.sampled(h)) {
            return Err(format!(
                "values that sampling level {} would not keep",
                self.level
            ));
        }
        for t in self.sample.values() {
            let d = self
                .details
                .get(t.detail as usize)
                .ok_or("a value without its details")?;
            if t.slice as usize >= BUCKETS || self.labels.get(range_of(&d.label)).is_none() {
                return Err("a value outside the hash space or its labels".into());
            }
        }
        if self.heavy.values().any(|e| e.cell as usize >= CELLS) {
            return Err("a heavy value outside the hash space".into());
        }
        Ok(())
    }

    /// The bytes of the values held (all of them while exact).
    pub fn held_bytes(&self) -> u64 {
        (self.sample.values()).fold(0, |b, t| b.saturating_add(t.bytes))
    }

    /// Hashes of the values held: every value while exact.
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.sample.keys()
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

    /// The sampled values (all values when exact), in the order of their hashes (which
    /// does not depend on how they were counted: read, merged, or read from a profile).
    pub fn sample(&self) -> impl Iterator<Item = ValueRef<'_>> {
        self.sample.sorted().map(|(_, t)| {
            let d = &self.details[t.detail as usize];
            ValueRef {
                docs: t.docs,
                bytes: t.bytes,
                min_bytes: t.bytes,
                label: self.label(d),
                epk: self.epk_of(d),
                span: self.span_of(t),
                partial: false,
            }
        })
    }

    /// Estimated number of values seen in exactly one document (exact when exact).
    pub fn singletons(&self) -> u64 {
        (self.sample.values().filter(|t| t.docs == 1).count() as u64).saturating_mul(self.scale())
    }

    /// Of `docs` documents, the share whose value occurs in no other (Good–Turing's chance
    /// that the next value is new): exact when exact.
    ///
    /// Once values are sampled (one value in `s` kept by its hash, each standing for `s`),
    /// it is read one of two ways, whichever the sample's own variances say moves less
    /// with the luck of the sample:
    /// - from the sampled values seen once, scaled (variance `s(s-1)` per such value):
    ///   steadier for a skewed key, whose repeated documents lie in a few large values;
    /// - as one less the documents of the values seen more than once: the heavy hitters'
    ///   (whose bytes the projection's growing values hold too) and the other sampled
    ///   values', scaled (variance `s(s-1)` times each one's documents squared): steadier
    ///   for a key of mostly unique values with a few repeats.
    pub fn singleton_share(&self, docs: u64) -> f64 {
        if docs == 0 {
            return 0.0;
        }
        let Terms {
            ones,
            repeated,
            squares,
        } = self.terms(0);
        let heavy: f64 = (self.heavy.values())
            .filter(|e| e.docs > 1)
            .map(|e| e.docs as f64)
            .sum();
        let (docs, s) = (docs as f64, self.scale() as f64);
        let share = if self.is_exact() || ones <= squares {
            ones * s / docs
        } else {
            1.0 - (heavy + repeated * s) / docs
        };
        share.clamp(0.0, 1.0)
    }

    /// What [`singleton_share`](Self::singleton_share) reads from the kept values whose hash
    /// has the bits of `mask` zero (all of them at the current level, half at the next).
    fn terms(&self, mask: u64) -> Terms {
        let mut t = Terms::default();
        for (h, v) in self.sample.iter().filter(|(h, _)| h & mask == 0) {
            let d = v.docs as f64;
            if v.docs == 1 {
                t.ones += 1.0;
            } else if !self.heavy.contains_key(&h) {
                t.repeated += d;
                t.squares += d * d;
            }
        }
        t
    }

    /// Of the kept values whose hash has the bits of `mask` zero, how many were seen `r`
    /// times, `r` from 1 to [`COUNTS_READ`] (index `r - 1`). Heavy hitters among them
    /// count: kept by hash, they are as much a uniform share as the others, and where every
    /// value seen twice is tracked as heavy (a few busy drivers among 20,000 riders), a
    /// share without them would have lost its repeats.
    fn counts_of_counts(&self, mask: u64) -> [usize; COUNTS_READ] {
        let mut n = [0; COUNTS_READ];
        for (_, v) in self.sample.iter().filter(|(h, _)| h & mask == 0) {
            if let Some(slot) = n.get_mut((v.docs as usize).wrapping_sub(1)) {
                *slot += 1;
            }
        }
        n
    }

    /// Good–Turing's counts of counts: how many values were seen `r` times, `r` from 1 to
    /// [`COUNTS_READ`] (index `r - 1`), of every value while exact, of the uniform share
    /// kept by hash once sampled, heavy hitters in it included.
    pub fn kept_counts_of_counts(&self) -> [usize; COUNTS_READ] {
        self.counts_of_counts(0)
    }

    /// The `n` largest values by bytes, largest first (ties by label).
    pub fn top(&self, n: usize) -> Vec<TopValue> {
        let exact = self.is_exact();
        // Ties (labels hidden alike in a profile made to travel) keep the entries' order,
        // as a stable sort would: the order is total (see `largest_first`).
        let mut all: Vec<(usize, ValueRef<'_>)> = self.heavy_entries().enumerate().collect();
        largest_first(&mut all, n, |(i, a), (j, b)| {
            (b.bytes.cmp(&a.bytes))
                .then_with(|| a.label.cmp(b.label))
                .then(i.cmp(j))
        });
        all.into_iter()
            .take(n)
            .map(|(_, e)| TopValue {
                value: e.label.to_string(),
                docs: e.docs,
                bytes: e.bytes,
                min_bytes: e.min_bytes,
                exact: (exact || e.min_bytes == e.bytes) && !e.partial,
                partial: e.partial,
                epk: e.epk.to_hex(),
            })
            .collect()
    }

    /// The entries to place one by one: every value when exact, else the heavy hitters.
    /// In no particular order.
    pub fn heavy_entries(&self) -> Box<dyn Iterator<Item = ValueRef<'_>> + '_> {
        if self.is_exact() {
            Box::new(self.sample())
        } else {
            Box::new(self.heavy.values().map(ValueEntry::view))
        }
    }
}

/// Puts the first `n` of `all` under the total order `cmp` first, in that order: the
/// prefix a full sort gives, found in time linear in `all` (an exact key holds every
/// value, and only the largest are wanted).
fn largest_first<T>(all: &mut [T], n: usize, cmp: impl Fn(&T, &T) -> std::cmp::Ordering) {
    if n == 0 {
        return;
    }
    if n < all.len() {
        all.select_nth_unstable_by(n - 1, &cmp);
    }
    let head = n.min(all.len());
    all[..head].sort_unstable_by(&cmp);
}

/// What one side of a merge counted, exactly, of a value the other tracks as heavy.
#[derive(Clone, Copy, Debug)]
struct Share {
    docs: u64,
    bytes: u64,
    span: Span,
}

/// Adds each side's exact share to its heavy value, which stays as exact as it was; a
/// value whose share is unknown becomes [partial](ValueEntry::partial).
fn absorb_shares(heavy: &mut FxHashMap<u64, ValueEntry>, shares: Vec<(u64, Option<Share>)>) {
    for (h, share) in shares {
        let Some(e) = heavy.get_mut(&h) else {
            continue;
        };
        match share {
            Some(s) => e.absorb(s.docs, s.bytes, s.bytes, s.span),
            None => e.partial = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn mix(i: u64) -> u64 {
        crate::mix::splitmix64(i, 0)
    }

    fn label(i: u64) -> impl Fn(&mut String) {
        move |out| out.push_str(&format!("\"v{i}\""))
    }

    fn epk(i: u64) -> Epk {
        Epk::from_bytes(&mix(i).to_be_bytes())
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

        /// Adds as `CandidateStats` does: values alone while exact, the histogram and
        /// the heavy table once sampling.
        fn add(&mut self, v: &mut ValueStats, k: u64, bytes: u64) {
            let h = mix(k);
            let slice = (h >> 54) as usize;
            self.slices[slice] += bytes;
            self.total += bytes;
            if !v.is_exact() {
                v.add_sampled(h, (bytes, slice as u32, None), label(k), &|| epk(k));
                return;
            }
            if v.count(h, bytes, None).is_none() {
                v.keep(h, (bytes, slice as u32, Span::at(None)), label(k), epk(k));
                if v.over_budget() {
                    let p = v.shrink().expect("exact counting ends");
                    assert_eq!(p.histogram.total_bytes, self.total);
                }
            }
        }
    }

    /// The sampled values come out in one order however the table was filled (documents
    /// in another order, a profile read back): sums over them give the same last digit.
    #[test]
    fn the_sample_is_listed_in_one_order_whatever_the_filling() {
        let fill = |order: &mut dyn Iterator<Item = u64>| {
            let (mut v, mut f) = (ValueStats::new(64 * 1024), Feeder::new());
            for k in order {
                f.add(&mut v, k, 100 + k % 7);
            }
            v
        };
        let forward = fill(&mut (0..5_000u64));
        let backward = fill(&mut (0..5_000u64).rev());
        assert!(!forward.is_exact() && forward.len() > 50, "sampled");
        let listed = |v: &ValueStats| v.sample().map(|r| r.label.to_string()).collect::<Vec<_>>();
        assert_eq!(listed(&forward), listed(&backward));
        let text = serde_json::to_string(&forward).expect("serialises");
        let back: ValueStats = serde_json::from_str(&text).expect("reads back");
        assert_eq!(listed(&back), listed(&forward));
    }

    #[test]
    fn exact_within_budget() {
        let mut v = ValueStats::new(1 << 20);
        let mut f = Feeder::new();
        for i in 0..10_000u64 {
            let k = i % 100;
            f.add(&mut v, k, 10 + k);
        }
        assert!(v.is_exact());
        let top = v.top(2);
        assert_eq!(top[0].value, "\"v99\"");
        assert_eq!((top[0].docs, top[0].bytes), (100, 100 * 109));
        assert_eq!(v.singletons(), 0);
        let h = v.histogram();
        assert_eq!(h.total_bytes, f.total);
        let slices: Vec<u64> = h.slices.iter().map(|s| s.bytes).collect();
        assert_eq!(slices, f.slices);
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

    #[test]
    fn a_value_heavy_on_one_side_only_is_exact_only_if_the_other_side_counted_it() {
        // Two values heavy in the first half and rare in the second, where neither is
        // tracked as heavy: one whose hash any sampling level keeps, one no level keeps.
        let kept = (0..).find(|&k| mix(k) & 0xffff == 0).expect("a kept hash");
        let dropped = (0..).find(|&k| mix(k) & 1 == 1).expect("a dropped hash");
        let (mut a, mut b) = (ValueStats::new(128 * 1024), ValueStats::new(128 * 1024));
        let (mut fa, mut fb) = (Feeder::new(), Feeder::new());
        for i in 0..100_000u64 {
            let first = [kept, dropped, 1_000_000 + i, 1_000_000 + i, 1_000_000 + i];
            fa.add(&mut a, first[i as usize % 5], 100);
            let second = match i % 2_000 {
                0 => kept,
                1 => dropped,
                _ => 2_000_000 + i,
            };
            fb.add(&mut b, second, 100);
        }
        assert!(!a.is_exact() && !b.is_exact());
        assert!(!b.heavy.contains_key(&mix(kept)) && !b.heavy.contains_key(&mix(dropped)));
        a.merge(b);
        let top = a.top(2);
        let find = |k: u64| {
            let label = format!("\"v{k}\"");
            top.iter()
                .find(|t| t.value == label)
                .expect("a heavy value")
        };
        let truth = 20_000 * 100 + 50 * 100;
        // Counted exactly in the second half's sample: the sum is exact.
        let v = find(kept);
        assert!(v.exact && v.bytes == truth && v.min_bytes == truth, "{v:?}");
        // Not counted there: its figure misses those documents and says it is not exact
        // (it used to say exact, at the first half's bytes).
        let v = find(dropped);
        assert!(!v.exact && v.partial && v.bytes < truth, "{v:?}");
        assert!(!find(kept).partial);
        // The mark travels through a profile, and through a further merge.
        let text = serde_json::to_string(&a).expect("serialise");
        let mut back: ValueStats = serde_json::from_str(&text).expect("read back");
        back.merge(ValueStats::new(128 * 1024));
        let v = back
            .top(2)
            .into_iter()
            .find(|t| t.value.contains(&dropped.to_string()));
        assert!(!v.expect("kept").exact);
    }

    /// A near-unique key halves its values again and again; past the first halvings the
    /// refills land in the memory the halvings emptied, and every kept value keeps its own
    /// label and EPK through the slides.
    #[test]
    fn halving_refills_the_same_memory() {
        let (mut v, mut f) = (ValueStats::new(64 * 1024), Feeder::new());
        // Labels of one length ("v" and six digits), so the text needs no more room later.
        for k in 100_000..130_000u64 {
            f.add(&mut v, k, 100);
        }
        let level = v.level;
        assert!(level >= 3, "{level}");
        let room = |v: &ValueStats| {
            let r = (v.sample.slot_count(), v.details.capacity());
            (r, v.labels.capacity(), v.details.as_ptr())
        };
        let before = room(&v);
        for k in 130_000..900_000u64 {
            f.add(&mut v, k, 100);
        }
        assert!(v.level >= level + 4, "{} then {}", level, v.level);
        assert_eq!(room(&v), before);
        for r in v.sample() {
            let k: u64 = r.label.trim_matches('"')[1..]
                .parse()
                .expect("a label of ours");
            assert_eq!((r.epk, r.docs), (epk(k), 1), "{}", r.label);
        }
    }

    /// Documents of values seen once (`ones` of them) and of values seen twice (`twos`),
    /// in a scattered order; value keys from `base`.
    fn once_and_twice(base: u64, ones: u64, twos: u64) -> Vec<u64> {
        let pairs = (0..twos).flat_map(|k| [base + ones + k; 2]);
        let docs = (0..ones).map(|k| base + k).chain(pairs);
        let mut scattered: Vec<(u64, u64)> = (docs.enumerate())
            .map(|(i, k)| (mix(i as u64 ^ 0xA5A5), k))
            .collect();
        scattered.sort_unstable();
        scattered.into_iter().map(|(_, k)| k).collect()
    }

    /// Past the first halving a key keeps the values its figures need. A key of values
    /// seen once each reads its share of documents seen once from its few repeats: it
    /// falls to the floor. A key of which half the documents repeat reads it from both
    /// kinds: halving again would take its error past a point, so it keeps about 14,400
    /// values or more (`1.96² · 3/8 / 0.01²`: `min(ones, squares)` is two thirds of the
    /// values, the documents four thirds). Both read the share within the precision.
    #[test]
    fn a_sampled_key_keeps_the_values_its_precision_needs() {
        let budget = 8 << 20;
        let (mut unique, mut f) = (ValueStats::new(budget), Feeder::new());
        for k in 1_000_000..1_400_000u64 {
            f.add(&mut unique, k, 100);
        }
        assert!(!unique.is_exact());
        let n = unique.len();
        assert!(n > FLOOR / 2 && n <= FLOOR, "{n} values kept");
        let share = unique.singleton_share(400_000);
        assert!((share - 1.0).abs() <= PRECISION, "{share}");
        let (mut mixed, mut f) = (ValueStats::new(budget), Feeder::new());
        let docs = once_and_twice(5_000_000, 120_000, 60_000);
        for &k in &docs {
            f.add(&mut mixed, k, 100);
        }
        assert!(!mixed.is_exact());
        let n = mixed.len();
        assert!(n > 14_000 && n < 2 * 14_406 + 1_000, "{n} values kept");
        // Each value stands for `scale` values: the sample is what the memory allows
        // no more than the precision asks for.
        let share = mixed.singleton_share(docs.len() as u64);
        assert!((share - 0.5).abs() <= PRECISION, "{share}");
    }

    /// Good–Turing reads its counts of counts from the share kept by hash, heavy hitters
    /// in it included: of 64 busy values among 12,000 seen once, those the heavy table
    /// tracks (the largest when exact counting ended) stay among the share's repeats.
    #[test]
    fn counts_of_counts_keep_the_heavy_hitters_in_the_share() {
        let busy = (0..64u64).flat_map(|k| [7_000_000 + k; 4]);
        let mut docs: Vec<(u64, u64)> = (1_000_000..1_012_000u64)
            .chain(busy)
            .enumerate()
            .map(|(i, k)| (mix(i as u64 ^ 0x5A5A), k))
            .collect();
        docs.sort_unstable();
        let (mut v, mut f) = (ValueStats::new(1 << 20), Feeder::new());
        for &(_, k) in &docs {
            f.add(&mut v, k, 100);
        }
        assert!(!v.is_exact());
        let heavy: BTreeSet<Vec<u8>> = v
            .heavy_entries()
            .map(|x| x.epk.as_bytes().to_vec())
            .collect();
        let seen4: Vec<Vec<u8>> = (v.sample().filter(|x| x.docs == 4))
            .map(|x| x.epk.as_bytes().to_vec())
            .collect();
        assert!(
            seen4.iter().any(|e| heavy.contains(e)),
            "{} kept",
            seen4.len()
        );
        let counts = v.kept_counts_of_counts();
        assert_eq!(counts[3], seen4.len());
        assert_eq!(counts[0], v.sample().filter(|x| x.docs == 1).count());
    }

    /// A full table doubles only when the budget lets it hold half as many values again:
    /// at a budget that ends exact counting a little past a full table of 2^14 slots, the
    /// key samples with that table; at twice the budget the table doubles. Past the first
    /// halving either is laid out again, smaller, for the values the key keeps.
    #[test]
    fn a_table_the_budget_would_not_fill_is_not_grown() {
        // Labels of nine bytes: a footprint of 306 bytes; 14,336 values fill 2^14 slots.
        let tight = 14_336 * 306 + 200 * 306;
        for (budget, slots) in [(tight, 1 << 14), (2 * tight, 1 << 15)] {
            let (mut v, mut f) = (ValueStats::new(budget), Feeder::new());
            let mut largest = 0;
            for k in 1_000_000..1_040_000u64 {
                f.add(&mut v, k, 100);
                largest = largest.max(v.sample.slot_count());
            }
            assert!(!v.is_exact());
            assert_eq!(largest, slots, "budget {budget}");
            // Settled at the floor, the table is laid out again for it: FLOOR values at
            // most seven eighths full.
            assert_eq!(v.sample.slot_count(), (FLOOR * 8 / 7).next_power_of_two());
        }
    }

    /// The bytes written depend on what the statistics hold, not on the order it came in:
    /// the same values kept in two orders, and two halves merged either way round.
    #[test]
    fn the_same_statistics_are_written_as_the_same_bytes() {
        let doc = |k: u64| (k % 300, 100 + k % 300);
        let forward = filled(1 << 20, (0..3_000u64).map(doc));
        let backward = filled(1 << 20, (0..3_000u64).rev().map(doc));
        assert!(forward.is_exact());
        let text = |v: &ValueStats| serde_json::to_string(v).expect("serialises");
        assert_eq!(text(&forward), text(&backward));
        let half = |odd: u64| {
            let keys = (0..40_000u64).filter(|i| i % 2 == odd);
            filled(
                64 * 1024,
                keys.map(|i| (if i % 7 == 0 { 5 } else { i }, 100)),
            )
        };
        let (mut ab, mut ba) = (half(0), half(1));
        assert!(!ab.is_exact() && !ba.is_exact());
        ab.merge(half(1));
        ba.merge(half(0));
        assert_eq!(text(&ab), text(&ba));
        let back: ValueStats = serde_json::from_str(&text(&ab)).expect("reads back");
        assert_eq!(text(&back), text(&ab));
    }

    /// Statistics within `budget` fed, as `CandidateStats` feeds them, a document of each
    /// `(key, bytes)`.
    fn filled(budget: usize, docs: impl IntoIterator<Item = (u64, u64)>) -> ValueStats {
        let (mut v, mut f) = (ValueStats::new(budget), Feeder::new());
        for (k, bytes) in docs {
            f.add(&mut v, k, bytes);
        }
        v
    }

    /// A merge takes the union to the level a halving after it would reach: within the
    /// budget, and the level below would not be.
    #[test]
    fn a_merge_levels_the_union_to_the_budget_at_once() {
        let half = |from: u64| filled(64 * 1024, (from..from + 25_000).map(|k| (k, 100)));
        let (a, b) = (half(0), half(20_000));
        let mut merged = a.clone();
        merged.merge(b.clone());
        assert!(!merged.over_budget());
        assert!(merged.level >= a.level.max(b.level));
        // The union's footprint one level lower, counted by hand.
        let below = (1u64 << (merged.level - 1)) - 1;
        let mut union = std::collections::BTreeMap::new();
        for v in [&a, &b] {
            for (h, t) in v.sample.iter().filter(|(h, _)| h & below == 0) {
                union.insert(h, footprint(v.details[t.detail as usize].label.len()));
            }
        }
        if merged.level > a.level.max(b.level) {
            assert!(union.values().sum::<usize>() > merged.budget);
        }
        let kept = (union.keys())
            .filter(|h| *h & ((below << 1) | 1) == 0)
            .count();
        assert_eq!(merged.len(), kept);
    }

    /// A merge builds the union before compacting it, and nothing refills what it leaves:
    /// the merged statistics give back what they do not hold (halves whose early values had
    /// short labels and later ones long labels left 1.4 times the budget held).
    #[test]
    fn a_merge_keeps_no_more_memory_than_it_holds() {
        let half = |from: u64| {
            let (mut v, mut f) = (ValueStats::new(256 * 1024), Feeder::new());
            for k in from..from + 20_000 {
                f.add(&mut v, k, 100);
            }
            for k in from + 20_000..from + 60_000 {
                let h = mix(k);
                let slice = (h >> 54) as u32;
                let long = move |out: &mut String| out.push_str(&format!("\"{k:01500}\""));
                if !v.is_exact() {
                    v.add_sampled(h, (100, slice, None), long, &|| epk(k));
                }
                f.total += 100;
            }
            v
        };
        let mut merged = half(0);
        merged.merge(half(1_000_000));
        assert!(!merged.is_exact());
        let len = merged.labels.len().next_power_of_two();
        assert!(
            merged.labels.capacity() <= 2 * len,
            "{}",
            merged.labels.capacity()
        );
        let slots = merged.sample.slot_count();
        assert!(slots <= (4 * merged.len()).max(16), "{slots} slots");
        assert!(merged.details.capacity() <= 2 * merged.len().next_power_of_two());
    }

    /// A profile may hold details no value uses, their labels overlapping; compacting
    /// copies only the labels of kept values (copying every detail's made 2,000 copies of
    /// one label out of a 200 KB file).
    #[test]
    fn compacting_a_profile_copies_only_the_labels_values_use() {
        let v = filled(1 << 20, (0..50u64).map(|k| (k, 100)));
        let mut forged: serde_json::Value = serde_json::to_value(&v).expect("serialises");
        let mut detail = forged["details"][0].clone();
        detail["label"] =
            serde_json::json!({"start": 0, "end": forged["labels"].as_str().unwrap().len()});
        let details = forged["details"].as_array_mut().expect("details");
        details.extend(std::iter::repeat_n(detail, 2_000));
        let mut back: ValueStats = serde_json::from_value(forged).expect("reads");
        assert_eq!(back.validate(50, 5_000), Ok(()));
        let text = v.labels.len();
        back.compact();
        let room = back.labels.capacity();
        assert!(room <= 2 * text.next_power_of_two(), "{room} for {text}");
        let labels: Vec<String> = back.sample().map(|r| r.label.to_string()).collect();
        assert_eq!(
            labels,
            v.sample().map(|r| r.label.to_string()).collect::<Vec<_>>()
        );
    }
}
