//! What a copy into a container of another key meets, document by document (`pkadvisor
//! migrate`): for each sample document its place in the source (the source key's EPK and its
//! position: `--time-path`, else its input order), the value of the new key it lands under
//! (hash, EPK and label) and its item id.
//!
//! Two facts come from these records and from nothing coarser: the (id, new key) pairs that
//! two source items share (the copy's insert conflicts), and the order in which the copy
//! reaches each value of the new key (where a value that passes 20 GB stops it).
//!
//! Memory is bounded: each document costs [`RECORD_BYTES`] and its label's bytes; past the
//! budget, documents are kept by the hash of their id (those whose hash has its `level`
//! lowest bits zero, a share `2^-level`), and the level rises one step at a time until the
//! records fit. Every document of an id is kept or dropped together, so the collisions of
//! the ids kept are exact, and stand for `2^level` times as many. Each reading thread's
//! trace has the whole budget and merged traces fit it again: the level is the lowest at
//! which all the records fit, however the input was divided.
//!
//! Every document, kept or not, counts in [`SizeClasses`]: the copy's request units are
//! sums over all of them.

use serde::Serialize;

/// Bytes a record costs besides its label (its fields and the vector's slack).
pub const RECORD_BYTES: usize = 176;

/// An EPK's first [`EPK_BYTES`] bytes (a hierarchical key's three levels), and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct EpkPrefix {
    #[serde(skip)]
    bytes: [u8; EPK_BYTES],
    len: u8,
}

/// Bytes of an EPK kept: three levels of 16.
pub const EPK_BYTES: usize = 48;

impl EpkPrefix {
    /// The first [`EPK_BYTES`] of `bytes`.
    pub fn of(bytes: &[u8]) -> EpkPrefix {
        let mut b = [0u8; EPK_BYTES];
        let n = bytes.len().min(EPK_BYTES);
        b[..n].copy_from_slice(&bytes[..n]);
        EpkPrefix {
            bytes: b,
            len: n as u8,
        }
    }

    /// The bytes kept.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// One sample document, as the copy sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The source key's EPK (the copy reads the source in its EPK order).
    pub source: EpkPrefix,
    /// Where the document arrived: its `--time-path` second, else its input position.
    pub position: i64,
    /// The hash of the source key's value.
    pub from: u64,
    /// The hash of the new key's value.
    pub to: u64,
    /// The new key's EPK (which of the target's partitions takes it).
    pub to_epk: EpkPrefix,
    /// The hash of the item id (without a string id, of the document's input position).
    pub id: u64,
    /// The document's bytes.
    pub bytes: u32,
    /// Its indexed terms.
    pub terms: u32,
    /// The new key's value, as reports print it.
    pub label: String,
    /// The item id, as reports print it (cut like labels).
    pub id_text: String,
    /// Whether the document lacks (a level of) the new key.
    pub missing: bool,
}

/// The sample's documents as the copy sees them, within a memory budget.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CopyTrace {
    records: Vec<Record>,
    /// Bytes the records take.
    used: usize,
    budget: usize,
    /// Ids are kept when their hash's `level` lowest bits are zero.
    level: u32,
    /// Documents seen, kept or not.
    pub documents: u64,
    /// Every document's bytes and terms, by size class.
    pub sizes: SizeClasses,
}

/// Documents by size class: ≤ 1 KB, then (2^(i-1), 2^i] KB up to 2,048 KB, then larger;
/// each with its count, bytes and indexed terms. The published charges are linear in size
/// between these sizes, so a class's charges are its count times the charge of its mean.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SizeClasses {
    /// Per class: documents, bytes, terms.
    pub classes: [(u64, u64, u64); SIZE_CLASSES],
}

/// Classes of [`SizeClasses`].
pub const SIZE_CLASSES: usize = 13;

impl SizeClasses {
    /// Adds a document of `bytes` and `terms`.
    pub fn add(&mut self, bytes: u64, terms: u64) {
        let kb = bytes.div_ceil(1024).max(1);
        let class = (kb.next_power_of_two().trailing_zeros() as usize).min(SIZE_CLASSES - 1);
        let c = &mut self.classes[class];
        c.0 += 1;
        c.1 = c.1.saturating_add(bytes);
        c.2 = c.2.saturating_add(terms);
    }

    /// Adds what `other` counted.
    pub fn merge(&mut self, other: &SizeClasses) {
        for (a, b) in self.classes.iter_mut().zip(&other.classes) {
            a.0 += b.0;
            a.1 = a.1.saturating_add(b.1);
            a.2 = a.2.saturating_add(b.2);
        }
    }
}

impl CopyTrace {
    /// An empty trace of at most `budget` bytes.
    pub fn new(budget: usize) -> CopyTrace {
        CopyTrace {
            budget,
            ..CopyTrace::default()
        }
    }

    /// Whether documents of id hash `id` are kept at the current level.
    pub fn keeps(&self, id: u64) -> bool {
        self.level == 0 || id.trailing_zeros() >= self.level
    }

    /// The share of ids (and so of documents) kept: 1 until the budget was reached.
    pub fn kept_share(&self) -> f64 {
        0.5f64.powi(self.level.min(64) as i32)
    }

    /// Adds one document.
    pub fn add(&mut self, r: Record) {
        self.documents += 1;
        self.sizes.add(u64::from(r.bytes), u64::from(r.terms));
        if !self.keeps(r.id) {
            return;
        }
        self.used += cost(&r);
        self.records.push(r);
        self.fit();
    }

    /// Adds what `other` recorded, at the higher level of the two.
    pub fn merge(&mut self, other: CopyTrace) {
        self.budget = self.budget.max(other.budget);
        self.level = self.level.max(other.level);
        self.documents += other.documents;
        self.sizes.merge(&other.sizes);
        self.used += other.used;
        self.records.extend(other.records);
        self.refilter();
        self.fit();
    }

    /// The records kept, each with the source partition `range` places its EPK in, in the
    /// order the copy reads them: partition by partition, each in the order its documents
    /// were written (position, then source EPK and id for ties).
    pub fn in_copy_order(&self, range: impl Fn(&EpkPrefix) -> usize) -> Vec<(usize, &Record)> {
        let mut out: Vec<(usize, &Record)> =
            self.records.iter().map(|r| (range(&r.source), r)).collect();
        out.sort_by(|(ra, a), (rb, b)| {
            ra.cmp(rb)
                .then(a.position.cmp(&b.position))
                .then(a.source.cmp(&b.source))
                .then(a.id.cmp(&b.id))
                .then(a.to.cmp(&b.to))
        });
        out
    }

    /// The records kept, in no particular order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Drops the records whose id the level no longer keeps.
    fn refilter(&mut self) {
        let level = self.level;
        if level == 0 {
            return;
        }
        self.records.retain(|r| r.id.trailing_zeros() >= level);
        self.used = self.records.iter().map(cost).sum();
    }

    /// Raises the level until the records fit the budget.
    fn fit(&mut self) {
        while self.used > self.budget && self.level < 64 {
            self.level += 1;
            self.refilter();
        }
    }
}

/// What a record costs the budget.
fn cost(r: &Record) -> usize {
    RECORD_BYTES + r.label.len() + r.id_text.len()
}

/// Pairs of (id, new key value) that more than one source item holds: the copy's insert
/// conflicts. Items are told apart by their source value: the same id under the same
/// source value twice is one item the sample holds twice (see [`Collisions::repeated`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Collisions {
    /// Each colliding pair: the id, the new key's value, and the source items that hold it.
    pub pairs: Vec<Collision>,
    /// Items beyond the first of each pair: the inserts that would conflict.
    pub conflicts: u64,
    /// Documents that repeat an (id, source value) pair, left out as one item.
    pub repeated: u64,
}

/// One (id, new key value) pair held by several source items.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Collision {
    /// The item id.
    pub id: String,
    /// The new key's value.
    pub value: String,
    /// Source items holding the pair.
    pub items: u64,
}

/// The (id, new key value) pairs of `records` held by more than one source item, in the
/// order of their id and value labels. Documents without a string id are left out.
pub fn collisions(records: &[Record]) -> Collisions {
    let mut sorted: Vec<&Record> = records.iter().filter(|r| !r.id_text.is_empty()).collect();
    sorted.sort_by(|a, b| {
        (a.id, a.to, &a.id_text, &a.label, a.from).cmp(&(b.id, b.to, &b.id_text, &b.label, b.from))
    });
    let mut out = Collisions::default();
    for group in sorted.chunk_by(|a, b| a.id == b.id && a.to == b.to && a.id_text == b.id_text) {
        let mut items = 1u64;
        for w in group.windows(2) {
            match w[0].from == w[1].from {
                true => out.repeated += 1,
                false => items += 1,
            }
        }
        if items > 1 {
            out.conflicts += items - 1;
            out.pairs.push(Collision {
                id: group[0].id_text.clone(),
                value: group[0].label.clone(),
                items,
            });
        }
    }
    out.pairs
        .sort_by(|a, b| (&a.id, &a.value).cmp(&(&b.id, &b.value)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, from: u64, to: u64, position: i64) -> Record {
        Record {
            source: EpkPrefix::of(&from.to_be_bytes()),
            position,
            from,
            to,
            to_epk: EpkPrefix::of(&to.to_be_bytes()),
            id: crate::stats::owners::id_hash(id),
            bytes: 1000,
            terms: 10,
            label: format!("\"v{to}\""),
            id_text: id.to_owned(),
            missing: false,
        }
    }

    #[test]
    fn two_items_of_one_id_under_one_new_value_collide_and_a_repeat_does_not() {
        let records = vec![
            record("a", 1, 7, 0),
            record("a", 2, 7, 1),
            record("a", 3, 8, 2),
            record("b", 1, 7, 3),
            record("b", 1, 7, 4),
            record("c", 1, 7, 5),
            record("c", 2, 7, 6),
            record("c", 3, 7, 7),
        ];
        let c = collisions(&records);
        let pairs: Vec<(&str, &str, u64)> = (c.pairs.iter())
            .map(|p| (p.id.as_str(), p.value.as_str(), p.items))
            .collect();
        assert_eq!(pairs, [("a", "\"v7\"", 2), ("c", "\"v7\"", 3)]);
        assert_eq!(c.conflicts, 3, "one for a, two for c");
        assert_eq!(c.repeated, 1, "b is one item held twice");
    }

    #[test]
    fn the_copy_reads_partition_by_partition_each_in_write_order() {
        let mut t = CopyTrace::new(1 << 20);
        t.add(record("x", 5, 1, 30));
        t.add(record("y", 1, 1, 20));
        t.add(record("z", 9, 1, 10));
        // Sources 1 and 5 in one partition, 9 in the next.
        let order: Vec<&str> = (t
            .in_copy_order(|s| usize::from(s.as_bytes()[7] >= 9))
            .iter())
        .map(|(_, r)| r.id_text.as_str())
        .collect();
        assert_eq!(order, ["y", "x", "z"]);
    }

    #[test]
    fn past_its_budget_a_trace_keeps_whole_ids_and_merges_to_the_same_records() {
        let ids: Vec<String> = (0..2_000).map(|i| format!("item-{i}")).collect();
        let all: Vec<Record> = (ids.iter().enumerate())
            .flat_map(|(i, id)| [record(id, 1, i as u64, 0), record(id, 2, i as u64, 1)])
            .collect();
        let budget = 500 * (RECORD_BYTES + 16);
        let mut whole = CopyTrace::new(budget);
        all.iter().cloned().for_each(|r| whole.add(r));
        assert!(whole.kept_share() < 1.0 && whole.used <= budget);
        // Every kept id keeps both its documents: each one a collision.
        let c = collisions(whole.records());
        assert_eq!(c.pairs.len() * 2, whole.records().len());
        let expected = 4_000.0 * whole.kept_share();
        let kept = whole.records().len() as f64;
        assert!(
            (kept - expected).abs() < 0.2 * expected,
            "{kept} of {expected}"
        );
        let (mut a, mut b) = (CopyTrace::new(budget), CopyTrace::new(budget));
        for (i, r) in all.into_iter().enumerate() {
            match i % 3 {
                0 => a.add(r),
                _ => b.add(r),
            }
        }
        a.merge(b);
        let key = |t: &CopyTrace| {
            let mut v: Vec<_> = t.records().iter().map(|r| (r.id, r.from)).collect();
            v.sort_unstable();
            v
        };
        assert_eq!(a.kept_share(), whole.kept_share());
        assert_eq!(key(&a), key(&whole));
        assert_eq!(a.documents, whole.documents);
        assert_eq!(a.sizes, whole.sizes);
        assert_eq!(
            whole.sizes.classes[0],
            (4_000, 4_000_000, 40_000),
            "all 1,000 bytes"
        );
    }

    #[test]
    fn size_classes_end_at_the_published_sizes() {
        let mut s = SizeClasses::default();
        for bytes in [
            1,
            1024,
            1025,
            2048,
            2049,
            4096,
            2048 * 1024,
            2048 * 1024 + 1,
            u64::MAX / 2,
        ] {
            s.add(bytes, 1);
        }
        let counts: Vec<u64> = s.classes.iter().map(|c| c.0).collect();
        assert_eq!(counts, [2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
    }
}
