//! Arrival order, kept compactly enough to replay writes in windows: per window (of
//! document positions, or of `--time-path` seconds), the documents and bytes that arrived
//! in each coarse slice of the hash space.
//!
//! Windows are aligned to multiples of their width, and the width doubles (merging
//! neighbours) whenever there would be more than [`MAX_WINDOWS`], so two halves of an input
//! merge exactly into the statistics of the whole. A window lists the slices it counts in
//! while they are few, and holds the whole row past that (see [`Window`]).

use serde::{Deserialize, Serialize};

use super::histogram::Slice;
use window::FEW_SLICES;
pub use window::Window;

mod window;

/// At most this many windows are kept.
pub const MAX_WINDOWS: usize = 64;
/// Slices of the hash space per window: the histogram's.
pub const SLICES: usize = super::histogram::BUCKETS;
/// The first width for document positions.
const FIRST_ORDINAL_WIDTH: i64 = 1024;

/// One bit per slice: the slices the hot window counted in.
type Marks = [u64; SLICES / 64];

/// No slice marked.
const NO_MARKS: Marks = [0; SLICES / 64];

/// Marks `slice` in `marks`.
#[inline]
fn mark(marks: &mut Marks, slice: usize) {
    marks[slice / 64] |= 1 << (slice % 64);
}

/// The slices marked in `marks`, in order.
fn marked(marks: &Marks) -> impl Iterator<Item = usize> + '_ {
    marks.iter().enumerate().flat_map(|(word, &bits)| {
        let mut b = bits;
        std::iter::from_fn(move || {
            let at = (b != 0).then(|| word * 64 + b.trailing_zeros() as usize);
            b &= b.wrapping_sub(1);
            at
        })
    })
}

fn bounded_windows<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(i64, Window)>, D::Error> {
    super::bounded::seq(d, MAX_WINDOWS, "arrival windows")
}

/// A hot window's counts of one slice (documents, bytes), as a window's.
fn widened([docs, bytes]: [u32; 2]) -> Slice {
    Slice {
        docs: u64::from(docs),
        bytes: u64::from(bytes),
    }
}

/// Slices marked.
fn count(marks: &Marks) -> usize {
    marks.iter().map(|b| b.count_ones() as usize).sum()
}

/// Windows of arrivals keyed by `position.div_euclid(width)`.
///
/// The newest window is counted apart in 32-bit counters (half the cache lines of the
/// 64-bit window, which is touched for every document and candidate) and added into
/// the windows when another window becomes the newest, before a merge, and on
/// [`flush`](Self::flush), which [`windows`](Self::windows) expects. Comparisons and
/// serialisation see the flushed windows.
#[derive(Clone, Debug, Deserialize)]
pub struct Arrival {
    /// Positions (document ordinals or seconds) per window.
    pub width: i64,
    /// The windows by key, in key order (read through [`windows`](Self::windows)).
    #[serde(deserialize_with = "bounded_windows")]
    windows: Vec<(i64, Window)>,
    /// The key of the window counted in [`hot`](Self::hot), if any.
    #[serde(skip)]
    hot_key: Option<i64>,
    /// The positions that window covers, `start..end` (empty without one): a document
    /// is placed in it by two comparisons, not a division.
    #[serde(skip)]
    hot_span: (i64, i64),
    /// Documents and bytes per slice of that window not yet in `windows` (empty until
    /// first used).
    #[serde(skip)]
    hot: Vec<[u32; 2]>,
    /// Which slices of `hot` hold counts, one bit each (see [`flush`](Self::flush)).
    #[serde(skip)]
    touched: Marks,
}

/// The flushed state: what is compared and written.
#[derive(Serialize)]
#[serde(rename = "Arrival")]
struct Flushed<'a> {
    width: i64,
    windows: &'a [(i64, Window)],
}

impl Serialize for Arrival {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = self.flushed();
        Flushed {
            width: a.width,
            windows: &a.windows,
        }
        .serialize(s)
    }
}

impl PartialEq for Arrival {
    fn eq(&self, other: &Arrival) -> bool {
        let (a, b) = (self.flushed(), other.flushed());
        (a.width, &a.windows) == (b.width, &b.windows)
    }
}

impl Arrival {
    /// Windows over document positions (file order).
    pub fn by_ordinal() -> Self {
        Arrival {
            width: FIRST_ORDINAL_WIDTH,
            windows: Vec::new(),
            hot_key: None,
            hot_span: (0, 0),
            hot: Vec::new(),
            touched: NO_MARKS,
        }
    }

    /// Windows over timestamps in seconds.
    pub fn by_time() -> Self {
        Arrival {
            width: 1,
            windows: Vec::new(),
            hot_key: None,
            hot_span: (0, 0),
            hot: Vec::new(),
            touched: NO_MARKS,
        }
    }

    /// The window with `key`, created if needed. Arrivals are mostly in order, so the
    /// last window is checked first.
    fn window(&mut self, key: i64) -> &mut Window {
        super::entry(&mut self.windows, key, Window::default)
    }

    /// Records a document of `bytes` at `position`, landing in `slice` of the hash space
    /// (see [`slice_of_epk`](super::histogram::slice_of_epk)).
    #[inline]
    pub fn add(&mut self, position: i64, slice: usize, bytes: u64) {
        let (start, end) = self.hot_span;
        if (start..end).contains(&position) && self.count_hot(slice, bytes) {
            return;
        }
        self.add_cold(position, position.div_euclid(self.width), slice, bytes);
    }

    /// Counts the document in the hot window's 32-bit counters of `slice`, unless they
    /// would overflow.
    #[inline]
    fn count_hot(&mut self, slice: usize, bytes: u64) -> bool {
        let s = &mut self.hot[slice];
        let b = s[1] as u64 + bytes;
        if s[0] < u32::MAX && b <= u32::MAX as u64 {
            if s[0] == 0 {
                mark(&mut self.touched, slice);
            }
            s[0] += 1;
            s[1] = b as u32;
            return true;
        }
        false
    }

    /// [`add`](Self::add) outside the hot window's counters: a newer window becomes the
    /// hot one; an older one, or a count past 32 bits, goes to `windows`.
    #[cold]
    #[inline(never)]
    fn add_cold(&mut self, position: i64, key: i64, slice: usize, bytes: u64) {
        if self.hot_key.is_none_or(|h| key > h) {
            self.flush();
            self.window(key);
            if self.windows.len() > MAX_WINDOWS {
                self.coarsen();
            }
            if self.hot.is_empty() {
                self.hot = vec![[0; 2]; SLICES];
            }
            let key = position.div_euclid(self.width);
            self.hot_key = Some(key);
            // Empty where it would overflow: those documents take this path, and land
            // by their key.
            let start = key.checked_mul(self.width);
            let end = start.and_then(|s| s.checked_add(self.width));
            self.hot_span = start.zip(end).unwrap_or((0, 0));
            if self.count_hot(slice, bytes) {
                return;
            }
        }
        // The width may have doubled above.
        let w = self.window(position.div_euclid(self.width));
        w.add(slice, Slice { docs: 1, bytes });
        if self.windows.len() > MAX_WINDOWS {
            self.coarsen();
        }
    }

    /// The windows by key, in key order, once [flushed](Self::flush) (checked in debug
    /// builds: counts still in the hot window would be missing).
    pub fn windows(&self) -> &[(i64, Window)] {
        debug_assert!(
            self.hot_key.is_none(),
            "arrival windows read before a flush"
        );
        &self.windows
    }

    /// Documents and bytes per slice over every window, the hot one's counts included.
    pub fn slice_totals(&self) -> Vec<Slice> {
        let mut total = vec![Slice::default(); SLICES];
        for (_, w) in &self.windows {
            w.counted().for_each(|(i, s)| total[i].add(s));
        }
        for (t, h) in total.iter_mut().zip(&self.hot) {
            t.add(widened(*h));
        }
        total
    }

    /// Itself with the hot window's counts in the windows: borrowed when there are none.
    fn flushed(&self) -> std::borrow::Cow<'_, Arrival> {
        if self.hot_key.is_none() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut c = self.clone();
        c.flush();
        std::borrow::Cow::Owned(c)
    }

    /// Adds the hot window's counts into the windows.
    pub fn flush(&mut self) {
        let Some(key) = self.hot_key.take() else {
            return;
        };
        self.hot_span = (0, 0);
        let mut hot = std::mem::take(&mut self.hot);
        let bits = std::mem::replace(&mut self.touched, NO_MARKS);
        let w = self.window(key);
        let mut take = |i: usize| (i, widened(std::mem::take(&mut hot[i])));
        if count(&bits) <= FEW_SLICES {
            w.add_sorted(marked(&bits).map(&mut take));
        } else {
            w.add_row((0..SLICES).map(|i| take(i).1));
        }
        self.hot = hot;
    }

    /// Doubles the width, merging neighbouring windows.
    fn coarsen(&mut self) {
        self.flush();
        self.width = self.width.saturating_mul(2);
        let old = std::mem::take(&mut self.windows);
        for (k, w) in old {
            match self.windows.last_mut() {
                Some((last, into)) if *last == k.div_euclid(2) => into.merge(&w),
                _ => self.windows.push((k.div_euclid(2), w)),
            }
        }
    }

    /// Whether windows are positive-width, in key order, at most [`MAX_WINDOWS`], each of
    /// [`SLICES`] slices (a profile file could claim otherwise).
    pub fn is_well_formed(&self) -> bool {
        // Widths start at a power of two and double: any two meet by doubling.
        self.width > 0
            && (self.width as u64).is_power_of_two()
            && self.windows.len() <= MAX_WINDOWS
            && self.windows.windows(2).all(|w| w[0].0 < w[1].0)
            && self.windows.iter().all(|(_, w)| w.is_well_formed())
    }

    /// Adds everything `other` recorded.
    pub fn merge(&mut self, mut other: Arrival) {
        self.flush();
        other.flush();
        while other.width < self.width {
            other.coarsen();
        }
        while self.width < other.width {
            self.coarsen();
        }
        for (k, w) in other.windows {
            self.window(k).merge(&w);
        }
        while self.windows.len() > MAX_WINDOWS {
            self.coarsen();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::histogram::bucket_of;
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn windows_of_few_slices_and_of_many_keep_every_count_where_it_landed() {
        let mut a = Arrival::by_ordinal();
        // Few slices a window first (a key of three values, in three different words of
        // the hot window's marks), then many (a unique key), then few again, flushed into
        // listed windows through the marks or into rows whole, at each new window.
        let slice = |i: i64| match i {
            0..60_000 | 150_000.. => (i % 3 * 400 + 7) as usize,
            _ => (i.wrapping_mul(7_919) % SLICES as i64) as usize,
        };
        let bytes = |i: i64| (i % 50 + 1) as u64;
        for i in 0..200_000i64 {
            a.add(i * 7, slice(i), bytes(i));
        }
        a.flush();
        let mut expected: BTreeMap<(i64, usize), (u64, u64)> = BTreeMap::new();
        for i in 0..200_000i64 {
            let e = expected
                .entry(((i * 7).div_euclid(a.width), slice(i)))
                .or_default();
            e.0 += 1;
            e.1 += bytes(i);
        }
        let mut got: BTreeMap<(i64, usize), (u64, u64)> = BTreeMap::new();
        for (k, w) in a.windows() {
            for (i, s) in w.counted() {
                got.insert((*k, i), (s.docs, s.bytes));
            }
        }
        assert_eq!(got, expected);
        // The hot window's counters are clear again after every flush.
        assert!(a.hot.iter().all(|h| *h == [0, 0]));
    }

    #[test]
    fn windows_stay_bounded_and_keep_every_document() {
        let mut a = Arrival::by_ordinal();
        for i in 0..1_000_000i64 {
            a.add(i, bucket_of((i % 997) as f64 / 997.0), 10);
        }
        a.flush();
        assert!(a.windows.len() <= MAX_WINDOWS);
        let docs: u64 = a
            .windows
            .iter()
            .map(|(_, w)| w.counted().map(|(_, s)| s.docs).sum::<u64>())
            .sum();
        assert_eq!(docs, 1_000_000);
    }

    #[test]
    fn out_of_order_and_past_32_bits_every_document_is_kept() {
        let mut a = Arrival::by_time();
        let mut expected = (0u64, 0u64);
        for i in 0..5_000i64 {
            // Back and forth in time, some documents past 4 GiB, one slice again and again.
            let position = (i * 7919) % 3001 - 1500;
            let bytes = if i % 1000 == 0 { 5 << 30 } else { 3 << 20 };
            a.add(position, 7, bytes);
            expected = (expected.0 + 1, expected.1 + bytes);
        }
        a.flush();
        let got = a.windows.iter().fold((0, 0), |(d, b), (_, w)| {
            (d + w.slice(7).docs, b + w.slice(7).bytes)
        });
        assert_eq!(got, expected);
        assert!(a.is_well_formed());
    }

    #[test]
    fn merging_halves_equals_the_whole() {
        let (mut first, mut second, mut whole) = (
            Arrival::by_ordinal(),
            Arrival::by_ordinal(),
            Arrival::by_ordinal(),
        );
        for i in 0..300_000i64 {
            let f = bucket_of(((i * 7919) % 1000) as f64 / 1000.0);
            whole.add(i, f, 3);
            if i < 100_000 { &mut first } else { &mut second }.add(i, f, 3);
        }
        first.merge(second);
        assert_eq!(first, whole);
    }

    #[test]
    fn windows_read_back_from_a_profile_merge_every_slice() {
        // Few slices a window (listed) and many (rows), one half written out and read
        // back: each window read is listed or a row as its counts say.
        let (mut first, mut second, mut whole) = (
            Arrival::by_ordinal(),
            Arrival::by_ordinal(),
            Arrival::by_ordinal(),
        );
        for i in 0..300_000i64 {
            let slice = match i {
                0..100_000 => (i % 5 * 200 + 3) as usize,
                _ => bucket_of(((i * 7919) % 1000) as f64 / 1000.0),
            };
            whole.add(i * 3, slice, 7);
            if i % 2 == 0 { &mut first } else { &mut second }.add(i * 3, slice, 7);
        }
        let text = serde_json::to_string(&second).unwrap();
        let read: Arrival = serde_json::from_str(&text).unwrap();
        assert_eq!(read, second);
        first.merge(read);
        assert_eq!(first, whole);
    }

    #[test]
    fn a_width_past_every_power_of_two_still_places_by_key() {
        // Two profiles' widths of 2^62 merge into a saturated width: a window's first
        // position then overflows, and documents must still land by their key.
        let mut a = Arrival::by_time();
        a.width = i64::MAX;
        for p in [i64::MIN, -5, -3, i64::MAX] {
            a.add(p, 1, 10);
        }
        a.flush();
        let docs: Vec<(i64, u64)> = a
            .windows
            .iter()
            .map(|(k, w)| (*k, w.slice(1).docs))
            .collect();
        assert_eq!(docs, [(-2, 1), (-1, 2), (1, 1)]);
    }
}
