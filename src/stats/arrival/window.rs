//! One arrival window: documents and bytes per slice of the hash space. A window lists
//! the slices it counts in while they are few (every window of a key of few values, and
//! the first, narrow windows of any key) and holds the whole row of [`SLICES`] past that:
//! sixty-four windows of twenty candidates are 20 MiB a thread as rows, most of it zeros.

use serde::{Deserialize, Serialize};

use super::super::histogram::Slice;
use super::SLICES;

/// A window lists its slices while it counts in at most this many (24 bytes each, against
/// 16 KiB for a row); so does the hot window's flush go through its counted slices.
pub(super) const FEW_SLICES: usize = SLICES / 8;

/// One window's arrivals.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Window {
    /// Documents and bytes per slice.
    #[serde(with = "sparse")]
    slices: Slices,
}

/// How a window holds its counts.
#[derive(Clone, Debug)]
enum Slices {
    /// The slices that hold counts, in slice order: at most [`FEW_SLICES`].
    Few(Vec<(u32, Slice)>),
    /// Every slice.
    All(Vec<Slice>),
}

impl Slices {
    /// The slices that hold counts, in slice order.
    fn counted(&self) -> impl Iterator<Item = (usize, Slice)> + '_ {
        let (few, all): (&[(u32, Slice)], &[Slice]) = match self {
            Slices::Few(few) => (few, &[]),
            Slices::All(all) => (&[], all),
        };
        let listed = few.iter().map(|&(i, s)| (i as usize, s));
        let row = all
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, s)| !is_empty(s));
        listed.chain(row)
    }
}

impl Default for Slices {
    fn default() -> Self {
        Slices::Few(Vec::new())
    }
}

/// Windows compare by their counts, however they hold them.
impl PartialEq for Window {
    fn eq(&self, other: &Window) -> bool {
        self.counted().eq(other.counted())
    }
}

/// Whether a slice holds no count.
fn is_empty(s: &Slice) -> bool {
    s.docs == 0 && s.bytes == 0
}

impl Window {
    /// The slices that hold counts, in slice order.
    pub fn counted(&self) -> impl Iterator<Item = (usize, Slice)> + '_ {
        self.slices.counted()
    }

    /// The counts of `slice` (below [`SLICES`]).
    pub fn slice(&self, slice: usize) -> Slice {
        match &self.slices {
            Slices::Few(few) => few
                .binary_search_by_key(&(slice as u32), |(i, _)| *i)
                .map_or_else(|_| Slice::default(), |at| few[at].1),
            Slices::All(all) => all[slice],
        }
    }

    /// Adds `counts` to `slice` (below [`SLICES`]).
    pub(super) fn add(&mut self, slice: usize, counts: Slice) {
        match &mut self.slices {
            Slices::All(all) => all[slice].add(counts),
            Slices::Few(few) => match few.binary_search_by_key(&(slice as u32), |(i, _)| *i) {
                Ok(at) => few[at].1.add(counts),
                Err(at) => {
                    few.insert(at, (slice as u32, counts));
                    self.spill();
                }
            },
        }
    }

    /// Adds counts given in increasing slice order.
    pub(super) fn add_sorted(&mut self, counts: impl Iterator<Item = (usize, Slice)>) {
        let few = match &mut self.slices {
            Slices::All(all) => {
                counts.for_each(|(i, s)| all[i].add(s));
                return;
            }
            Slices::Few(few) => few,
        };
        let mine = std::mem::take(few);
        let mut merged = Vec::with_capacity(mine.len() + counts.size_hint().0);
        let mut mine = mine.into_iter().peekable();
        for (i, s) in counts.filter(|(_, s)| !is_empty(s)) {
            while let Some(m) = mine.next_if(|m| (m.0 as usize) < i) {
                merged.push(m);
            }
            match mine.next_if(|m| m.0 as usize == i) {
                Some((_, mut m)) => {
                    m.add(s);
                    merged.push((i as u32, m));
                }
                None => merged.push((i as u32, s)),
            }
        }
        merged.extend(mine);
        *few = merged;
        self.spill();
    }

    /// Adds every slice of `row` (of [`SLICES`]), as a row from now on.
    pub(super) fn add_row(&mut self, row: impl Iterator<Item = Slice>) {
        let all = self.row();
        for (a, b) in all.iter_mut().zip(row) {
            a.add(b);
        }
    }

    /// Adds `other`'s counts.
    pub(super) fn merge(&mut self, other: &Window) {
        match &other.slices {
            Slices::All(theirs) => self.add_row(theirs.iter().copied()),
            Slices::Few(theirs) => self.add_sorted(theirs.iter().map(|&(i, s)| (i as usize, s))),
        }
    }

    /// Whether its slices lie within the hash space, listed in order and few (a profile
    /// file could claim otherwise).
    pub(super) fn is_well_formed(&self) -> bool {
        match &self.slices {
            Slices::Few(few) => {
                few.len() <= FEW_SLICES
                    && few.windows(2).all(|w| w[0].0 < w[1].0)
                    && few.last().is_none_or(|l| (l.0 as usize) < SLICES)
            }
            Slices::All(all) => all.len() == SLICES,
        }
    }

    /// The whole row, made from the list if it is one.
    fn row(&mut self) -> &mut Vec<Slice> {
        if let Slices::Few(few) = &self.slices {
            let mut all = super::super::written_zeros(SLICES);
            for &(i, s) in few {
                all[i as usize] = s;
            }
            self.slices = Slices::All(all);
        }
        match &mut self.slices {
            Slices::All(all) => all,
            Slices::Few(_) => unreachable!("made a row above"),
        }
    }

    /// A list grown past [`FEW_SLICES`] becomes a row.
    fn spill(&mut self) {
        if matches!(&self.slices, Slices::Few(few) if few.len() > FEW_SLICES) {
            self.row();
        }
    }

    /// A window of the counts in `row` (of [`SLICES`]).
    fn from_row(row: Vec<Slice>) -> Window {
        let counted = row.iter().filter(|s| !is_empty(s)).count();
        let slices = if counted <= FEW_SLICES {
            let listed = row.into_iter().enumerate().filter(|(_, s)| !is_empty(s));
            Slices::Few(listed.map(|(i, s)| (i as u32, s)).collect())
        } else {
            Slices::All(row)
        };
        Window { slices }
    }
}

/// Windows written as `[slice, documents, bytes]` triples of their non-empty slices, as
/// they are held or not.
mod sparse {
    use serde::de::Error;
    use serde::{Deserializer, Serialize, Serializer};

    use super::{SLICES, Slice, Slices, Window};

    pub fn serialize<S: Serializer>(slices: &Slices, s: S) -> Result<S::Ok, S::Error> {
        let used: Vec<(usize, u64, u64)> = slices
            .counted()
            .map(|(i, x)| (i, x.docs, x.bytes))
            .collect();
        used.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Slices, D::Error> {
        let used: Vec<(usize, u64, u64)> = super::super::super::bounded::seq(d, SLICES, "slices")?;
        let mut row = vec![Slice::default(); SLICES];
        for (i, docs, bytes) in used {
            *row.get_mut(i)
                .ok_or_else(|| D::Error::custom(format!("slice {i} of {SLICES}")))? =
                Slice { docs, bytes };
        }
        Ok(Window::from_row(row).slices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row's counted slices, as a window lists them.
    fn counted(row: &[Slice]) -> Vec<(usize, Slice)> {
        let all = row.iter().copied().enumerate();
        all.filter(|(_, s)| !is_empty(s)).collect()
    }

    fn is_list(w: &Window) -> bool {
        matches!(w.slices, Slices::Few(_))
    }

    #[test]
    fn a_list_counts_as_a_row_would_and_becomes_one_past_few_slices() {
        let mut w = Window::default();
        let mut row = vec![Slice::default(); SLICES];
        // Slices come one at a time, in sorted runs, and from other windows (lists and
        // rows), again and again, until more than a list holds.
        let mut next = 7u64;
        let mut step = || {
            next = next
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (next >> 33) as usize
        };
        for round in 0..60 {
            let slice = step() % SLICES;
            let one = Slice {
                docs: 1,
                bytes: round,
            };
            w.add(slice, one);
            row[slice].add(one);
            let mut run: Vec<usize> = (0..3).map(|_| step() % SLICES).collect();
            run.sort_unstable();
            run.dedup();
            w.add_sorted(run.iter().map(|&i| (i, Slice { docs: 2, bytes: 5 })));
            for &i in &run {
                row[i].add(Slice { docs: 2, bytes: 5 });
            }
            let mut other = Window::default();
            other.add(step() % SLICES, Slice { docs: 3, bytes: 9 });
            if round == 50 {
                other.add_row((0..SLICES).map(|i| Slice {
                    docs: (i % 2) as u64,
                    bytes: i as u64 % 3,
                }));
            }
            for (i, s) in other.counted() {
                row[i].add(s);
            }
            w.merge(&other);
            assert_eq!(
                w.counted().collect::<Vec<_>>(),
                counted(&row),
                "round {round}"
            );
            assert_eq!(is_list(&w), counted(&row).len() <= FEW_SLICES);
            assert!(w.is_well_formed());
        }
        assert!(!is_list(&w));
        assert_eq!(w.slice(SLICES - 1), row[SLICES - 1]);
    }

    #[test]
    fn a_window_read_back_is_a_list_when_few_and_counts_as_written() {
        // A zero triple counts nothing; a slice given twice keeps its last counts.
        let text = r#"{"slices":[[3,1,10],[900,0,0],[5,2,20],[3,4,40]]}"#;
        let w: Window = serde_json::from_str(text).unwrap();
        let got: Vec<(usize, u64, u64)> = w.counted().map(|(i, s)| (i, s.docs, s.bytes)).collect();
        assert_eq!(got, [(3, 4, 40), (5, 2, 20)]);
        assert!(is_list(&w) && w.is_well_formed());
        assert_eq!(
            serde_json::to_string(&w).unwrap(),
            r#"{"slices":[[3,4,40],[5,2,20]]}"#
        );
        let many: Vec<String> = (0..=FEW_SLICES).map(|i| format!("[{i},1,1]")).collect();
        let w: Window =
            serde_json::from_str(&format!(r#"{{"slices":[{}]}}"#, many.join(","))).unwrap();
        assert!(!is_list(&w) && w.is_well_formed());
        assert_eq!(w.counted().count(), FEW_SLICES + 1);
        let past = format!(r#"{{"slices":[[{SLICES},1,1]]}}"#);
        assert!(serde_json::from_str::<Window>(&past).is_err());
    }
}
