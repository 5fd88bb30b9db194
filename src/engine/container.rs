//! An in-memory Cosmos DB container: physical partitions owning half-open EPK ranges that
//! tile `["", "FF")`, logical partitions (one per full key value) inside them, storage
//! splits at the byte median snapped to a logical-partition boundary, throughput splits at
//! the hash midpoint, routing by binary search, and RU charged per time window.

use std::ops::Range;

use super::definition::{PartitionKeyDefinition, PartitionKind};
use super::epk::{self, Epk, EpkRange};
use super::load::WindowedLoad;

/// How near the storage limit a partition must be to split with one of its generation that
/// passed it (a share of the limit): 0.1%, 50 MB of 50 GB. Halves of evenly spread data
/// differ by the few logical partitions the median cut cannot divide (kilobytes to
/// megabytes); a skewed key's partitions a few hundred MB short of the limit have not
/// reached it.
pub const TOGETHER: f64 = 0.001;

/// 1 GB as Cosmos DB's storage limits count it (decimal; the smaller reading, so limits
/// are met no later than the service would meet them).
pub const GB: u64 = 1_000_000_000;

/// The service limits the engine enforces (Microsoft's Cosmos DB service-quotas article; see GUIDE.md's partition engine section).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// A physical partition splits once it holds more than this (50 GB).
    pub physical_bytes: u64,
    /// A physical partition serves at most this many RU/s (10,000).
    pub physical_ru: f64,
    /// A logical partition may hold at most this (20 GB).
    pub logical_bytes: u64,
    /// RU/s per physical partition at creation with manual throughput (6,000).
    pub manual_ru_per_partition: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            physical_bytes: 50 * GB,
            physical_ru: 10_000.0,
            logical_bytes: 20 * GB,
            manual_ru_per_partition: 6_000.0,
        }
    }
}

/// Provisioned throughput.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "mode", content = "ru", rename_all = "snake_case")]
pub enum Throughput {
    /// Manual RU/s.
    Manual(f64),
    /// Autoscale with this maximum RU/s.
    Autoscale(f64),
}

impl Throughput {
    /// The RU/s the container can serve at most.
    pub fn max_ru(self) -> f64 {
        match self {
            Throughput::Manual(ru) | Throughput::Autoscale(ru) => ru,
        }
    }

    /// Physical partitions at creation: ⌈RU/6000⌉ for manual, ⌈max RU/10000⌉ for
    /// autoscale, at least one.
    pub fn initial_partitions(self, limits: &Limits) -> usize {
        let n = match self {
            Throughput::Manual(ru) => ru / limits.manual_ru_per_partition,
            Throughput::Autoscale(ru) => ru / limits.physical_ru,
        };
        (n.ceil() as usize).max(1)
    }

    /// Physical partitions of a container holding `storage` bytes spread evenly: the
    /// initial layout, then each partition split in two until it holds at most the limit.
    pub fn even_partitions(self, storage: u64, limits: &Limits) -> usize {
        let mut n = self.initial_partitions(limits);
        n = n.max((self.max_ru() / limits.physical_ru).ceil() as usize);
        let per = storage as f64 / n as f64;
        let mut splits = 1usize;
        while per / splits as f64 > limits.physical_bytes as f64 && splits < 1 << 20 {
            splits *= 2;
        }
        n * splits
    }
}

/// One logical partition: every item sharing one full key value.
#[derive(Clone, Debug, PartialEq)]
pub struct Logical {
    /// The EPK of its key value.
    pub epk: Epk,
    /// Bytes stored.
    pub bytes: u64,
    /// Items stored.
    pub items: u64,
    /// RU charged to operations on it.
    pub ru: f64,
}

/// One physical partition.
#[derive(Clone, Debug)]
pub struct Physical {
    id: u64,
    parent: Option<u64>,
    /// How many splits separate it from the initial layout.
    depth: u32,
    range: EpkRange,
    bytes: u64,
    items: u64,
    /// RU charged to the partition as a whole (queries), beyond its logical partitions'.
    range_ru: f64,
    logical_ru: f64,
    logical: Vec<Logical>,
    /// How many leading entries of `logical` are sorted by EPK and free of duplicates.
    compacted: usize,
}

impl Physical {
    fn new(id: u64, parent: Option<u64>, depth: u32, range: EpkRange) -> Self {
        Physical {
            id,
            parent,
            depth,
            range,
            bytes: 0,
            items: 0,
            range_ru: 0.0,
            logical_ru: 0.0,
            logical: Vec::new(),
            compacted: 0,
        }
    }

    /// Its identifier (like a pkrange `id`; children get new ones).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The EPK range it owns.
    pub fn range(&self) -> &EpkRange {
        &self.range
    }

    /// Bytes stored.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Items stored.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// The partition it split from.
    pub fn parent(&self) -> Option<u64> {
        self.parent
    }

    /// RU charged to it in all.
    pub fn ru(&self) -> f64 {
        self.range_ru + self.logical_ru
    }

    /// Sorts the logical partitions added since the last compaction and merges them into
    /// the sorted run: each entry is sorted once and merged O(log n) times.
    fn compact(&mut self) {
        if self.compacted == self.logical.len() {
            return;
        }
        let mut tail = self.logical.split_off(self.compacted);
        tail.sort_unstable_by(|a, b| a.epk.cmp(&b.epk));
        let head = std::mem::take(&mut self.logical);
        self.logical = merge_sorted(head, tail);
        self.compacted = self.logical.len();
    }

    fn push(&mut self, lp: Logical) {
        self.bytes += lp.bytes;
        self.items += lp.items;
        self.logical_ru += lp.ru;
        if self.logical.len() == self.logical.capacity() {
            // Grow by half, not double: at ten million logical partitions the spare capacity
            // of doubling costs hundreds of megabytes, and smaller steps cost more copies.
            let extra = (self.logical.len() / 2).max(64);
            self.logical.reserve_exact(extra);
        }
        self.logical.push(lp);
        // Merge duplicates once pending entries reach three times the merged ones: each entry
        // is merged O(log4 n) times and memory stays within four times the distinct keys
        // (plus a 64 Ki floor).
        if self.logical.len() - self.compacted > (3 * self.compacted).max(1 << 16) {
            self.compact();
        }
    }
}

/// Why a partition could not be split.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// No such partition.
    #[error("no physical partition at index {0}")]
    NoPartition(usize),
    /// All its data is one logical partition, which is never divided.
    #[error("physical partition {0} holds a single logical partition, which cannot be divided")]
    SingleLogical(u64),
    /// The hash range is too narrow to cut at its midpoint.
    #[error("physical partition {0} is too narrow to split at its hash midpoint")]
    TooNarrow(u64),
}

/// An in-memory container.
#[derive(Clone, Debug)]
pub struct Container {
    definition: PartitionKeyDefinition,
    limits: Limits,
    throughput: Throughput,
    partitions: Vec<Physical>,
    next_id: u64,
    load: WindowedLoad,
    /// Partitions that passed the storage limit but could not split.
    unsplittable: Vec<u64>,
    /// Whether partitions never split (the fixed collections of a client-side layout).
    fixed: bool,
}

impl Container {
    /// A new container laid out for its throughput, with the default limits.
    pub fn new(definition: PartitionKeyDefinition, throughput: Throughput) -> Self {
        Self::with_limits(definition, throughput, Limits::default())
    }

    /// A new container with explicit limits (tests and what-if projections).
    pub fn with_limits(
        definition: PartitionKeyDefinition,
        throughput: Throughput,
        limits: Limits,
    ) -> Self {
        let n = throughput.initial_partitions(&limits);
        let partitions = even_partitions(n, definition.is_v1());
        let mut c = Container {
            definition,
            limits,
            throughput,
            next_id: partitions.len() as u64,
            load: WindowedLoad::new(partitions.len()),
            partitions,
            unsplittable: Vec::new(),
            fixed: false,
        };
        c.split_for_throughput();
        c
    }

    /// The `n` collections of a client-side layout as one container of `n` partitions that
    /// never split: equal ranges of the V2 hash space, each holding at most `tier.bytes`
    /// (more is recorded as [`unsplittable`](Self::unsplittable)) and provisioned with
    /// `tier.ru` RU/s.
    pub fn collections(definition: PartitionKeyDefinition, n: usize, tier: super::Tier) -> Self {
        let n = n.max(1);
        let limits = Limits {
            physical_bytes: tier.bytes,
            physical_ru: tier.ru,
            logical_bytes: tier.bytes,
            manual_ru_per_partition: tier.ru,
        };
        let partitions = even_partitions(n, false);
        Container {
            definition,
            limits,
            throughput: Throughput::Manual(tier.ru * n as f64),
            next_id: n as u64,
            load: WindowedLoad::new(n),
            partitions,
            unsplittable: Vec::new(),
            fixed: true,
        }
    }

    /// Whether its partitions never split (a client-side layout's collections).
    pub fn is_fixed(&self) -> bool {
        self.fixed
    }

    /// The partition-key definition.
    pub fn definition(&self) -> &PartitionKeyDefinition {
        &self.definition
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Provisioned throughput.
    pub fn throughput(&self) -> Throughput {
        self.throughput
    }

    /// The physical partitions, in EPK order.
    pub fn partitions(&self) -> &[Physical] {
        &self.partitions
    }

    /// Provisioned RU/s each physical partition gets (an even share).
    pub fn ru_per_partition(&self) -> f64 {
        self.throughput.max_ru() / self.partitions.len() as f64
    }

    /// Total bytes stored.
    pub fn bytes(&self) -> u64 {
        self.partitions.iter().map(|p| p.bytes).sum()
    }

    /// Ids of partitions over the storage limit that could not split (one logical
    /// partition holds all their data).
    pub fn unsplittable(&self) -> &[u64] {
        &self.unsplittable
    }

    /// The index of the physical partition that owns `epk`. O(log n).
    pub fn route(&self, epk: &Epk) -> usize {
        self.partitions
            .partition_point(|p| &p.range.min <= epk)
            .saturating_sub(1)
    }

    /// The indices of the physical partitions that overlap `range`. O(log n).
    pub fn route_range(&self, range: &EpkRange) -> Range<usize> {
        if range.min >= range.max {
            return 0..0;
        }
        let start = self.route(&range.min);
        let end = self.partitions.partition_point(|p| p.range.min < range.max);
        start..end.max(start)
    }

    /// Stores `items` items totalling `bytes` under the key whose EPK is `epk`, charging
    /// `ru` to it; splits the owning partition while it is over the storage limit.
    pub fn insert(&mut self, epk: Epk, bytes: u64, items: u64, ru: f64) -> usize {
        let idx = self.route(&epk);
        self.partitions[idx].push(Logical {
            epk,
            bytes,
            items,
            ru,
        });
        if ru != 0.0 {
            self.load.charge(idx, ru);
        }
        if self.partitions[idx].bytes > self.limits.physical_bytes {
            self.split_for_storage(idx);
        }
        idx
    }

    /// Stores data like [`insert`](Self::insert) but leaves splitting to
    /// [`settle`](Self::settle): for loading a projected container whose data grew evenly
    /// over time, where partitions split at the medians of their final contents.
    pub fn insert_unsplit(&mut self, epk: Epk, bytes: u64, items: u64) {
        let idx = self.route(&epk);
        self.partitions[idx].push(Logical {
            epk,
            bytes,
            items,
            ru: 0.0,
        });
    }

    /// Splits every partition over the storage limit, at byte medians, generation by
    /// generation as data that grew evenly splits: when a partition passes the limit, every
    /// partition of its generation (as many splits from the initial layout) within
    /// [`TOGETHER`] of the limit reached it at the same time and splits with it. A uniform
    /// key at 100 GB is then laid out 25/25/25/25, not 50/25/25 because one half of the
    /// first split held a few bytes more than the other.
    pub fn settle(&mut self) {
        if self.fixed {
            for idx in 0..self.partitions.len() {
                if self.partitions[idx].bytes > self.limits.physical_bytes {
                    self.split_for_storage(idx);
                }
            }
            return;
        }
        let limit = self.limits.physical_bytes;
        let together = limit - (limit as f64 * TOGETHER) as u64;
        // Partitions that hold one logical partition: they never split.
        let mut whole: Vec<u64> = Vec::new();
        loop {
            let over = (self.partitions.iter())
                .filter(|p| p.bytes > limit && !whole.contains(&p.id))
                .map(|p| p.depth)
                .min();
            let Some(depth) = over else { return };
            // From the last: splitting one shifts no index below it.
            for idx in (0..self.partitions.len()).rev() {
                let p = &self.partitions[idx];
                if p.depth != depth || p.bytes < together || whole.contains(&p.id) {
                    continue;
                }
                if let Err(SplitError::SingleLogical(id)) = self.split_at_median(idx) {
                    whole.push(id);
                    if self.partitions[idx].bytes > limit && !self.unsplittable.contains(&id) {
                        self.unsplittable.push(id);
                    }
                }
            }
        }
    }

    /// Charges `ru` to the logical partition of `epk` (creating an empty one if needed).
    pub fn charge_key(&mut self, epk: Epk, ru: f64) -> usize {
        self.insert(epk, 0, 0, ru)
    }

    /// Charges `ru` to a physical partition as a whole (e.g. its share of a query).
    pub fn charge_partition(&mut self, idx: usize, ru: f64) {
        self.partitions[idx].range_ru += ru;
        self.load.charge(idx, ru);
    }

    /// Closes the current time window and opens the next.
    pub fn next_window(&mut self) {
        self.load.close_window(self.partitions.len());
    }

    /// The windowed load seen so far.
    pub fn load(&self) -> &WindowedLoad {
        &self.load
    }

    /// The share of provisioned RU/s the container can serve before its hottest
    /// partition saturates, in the worst window (1.0 with no load).
    pub fn usable_fraction(&self) -> f64 {
        self.load.usable_fraction()
    }

    /// Raises (or lowers) provisioned throughput; splits at hash midpoints while a partition
    /// would get more than its RU/s limit. Lowering never merges partitions.
    pub fn set_throughput(&mut self, throughput: Throughput) {
        self.throughput = throughput;
        self.split_for_throughput();
    }

    fn split_for_throughput(&mut self) {
        if self.fixed {
            return;
        }
        let needed = (self.throughput.max_ru() / self.limits.physical_ru).ceil() as usize;
        while self.partitions.len() < needed {
            // The least-split (widest) range first keeps the layout even, as the service's
            // 2^k splits of equal ranges do; ties go to the lowest EPK.
            let v1 = self.definition.is_v1();
            let widest = (0..self.partitions.len())
                .filter(|&i| epk::hash_midpoint(&self.partitions[i].range, v1).is_some())
                .min_by_key(|&i| (self.partitions[i].depth, i));
            match widest {
                Some(i) => {
                    let _ = self.split_at_midpoint(i);
                }
                None => break,
            }
        }
    }

    /// Splits partition `idx` while it holds more than the storage limit.
    fn split_for_storage(&mut self, idx: usize) {
        if self.fixed {
            let id = self.partitions[idx].id;
            if !self.unsplittable.contains(&id) {
                self.unsplittable.push(id);
            }
            return;
        }
        let mut pending = vec![idx];
        while let Some(i) = pending.pop() {
            if self.partitions[i].bytes <= self.limits.physical_bytes {
                continue;
            }
            match self.split_at_median(i) {
                // The right child first: splitting it shifts no index at or below `i`.
                Ok(()) => pending.extend([i, i + 1]),
                Err(_) => {
                    let id = self.partitions[i].id;
                    if !self.unsplittable.contains(&id) {
                        self.unsplittable.push(id);
                    }
                }
            }
        }
    }

    /// Splits partition `idx` where its stored bytes reach half, snapped to a
    /// logical-partition boundary: no logical partition is ever divided.
    pub fn split_at_median(&mut self, idx: usize) -> Result<(), SplitError> {
        let p = self
            .partitions
            .get_mut(idx)
            .ok_or(SplitError::NoPartition(idx))?;
        p.compact();
        if p.logical.len() < 2 {
            return Err(SplitError::SingleLogical(p.id));
        }
        let k = median_cut(&p.logical, p.bytes);
        let boundary = shortest_boundary(
            &p.logical[k - 1].epk,
            &p.logical[k].epk,
            self.definition.kind(),
        );
        self.split(idx, boundary, k);
        Ok(())
    }

    /// Splits partition `idx` at the midpoint of its hash range.
    pub fn split_at_midpoint(&mut self, idx: usize) -> Result<(), SplitError> {
        let p = self
            .partitions
            .get_mut(idx)
            .ok_or(SplitError::NoPartition(idx))?;
        let mid = epk::hash_midpoint(&p.range, self.definition.is_v1())
            .ok_or(SplitError::TooNarrow(p.id))?;
        p.compact();
        let k = p.logical.partition_point(|lp| lp.epk < mid);
        self.split(idx, mid, k);
        Ok(())
    }

    /// Replaces partition `idx` by two children cut at `boundary`; the first `k` logical
    /// partitions (in EPK order) go left. Partition-wide RU is shared in halves.
    fn split(&mut self, idx: usize, boundary: Epk, k: usize) {
        let mut parent = self.partitions.remove(idx);
        let right_lps = parent.logical.split_off(k);
        parent.logical.shrink_to_fit();
        let (lid, rid) = (self.next_id, self.next_id + 1);
        self.next_id += 2;
        let depth = parent.depth + 1;
        let mut left = Physical::new(
            lid,
            Some(parent.id),
            depth,
            EpkRange {
                min: parent.range.min,
                max: boundary.clone(),
            },
        );
        let mut right = Physical::new(
            rid,
            Some(parent.id),
            depth,
            EpkRange {
                min: boundary,
                max: parent.range.max,
            },
        );
        for (child, lps) in [(&mut left, parent.logical), (&mut right, right_lps)] {
            child.range_ru = parent.range_ru / 2.0;
            child.bytes = lps.iter().map(|l| l.bytes).sum();
            child.items = lps.iter().map(|l| l.items).sum();
            child.logical_ru = lps.iter().map(|l| l.ru).sum();
            child.compacted = lps.len();
            child.logical = lps;
        }
        self.partitions.insert(idx, right);
        self.partitions.insert(idx, left);
        self.load.split(idx);
    }

    /// Merges pending logical partitions everywhere (cheap when nothing is pending).
    pub fn compact(&mut self) {
        for p in &mut self.partitions {
            p.compact();
        }
    }

    /// The logical partitions of partition `idx`, in EPK order.
    pub fn logical_partitions(&mut self, idx: usize) -> &[Logical] {
        let p = &mut self.partitions[idx];
        p.compact();
        &p.logical
    }

    /// The logical partition of `epk`, if it holds anything.
    pub fn logical(&mut self, epk: &Epk) -> Option<&Logical> {
        let idx = self.route(epk);
        let lps = self.logical_partitions(idx);
        lps.binary_search_by(|lp| lp.epk.cmp(epk))
            .ok()
            .map(|i| &lps[i])
    }
}

/// `n` empty partitions owning equal ranges of the hash space, as a container is laid out.
fn even_partitions(n: usize, v1: bool) -> Vec<Physical> {
    let mut bounds = vec![Epk::min()];
    bounds.extend(epk::even_boundaries(n, v1));
    bounds.push(Epk::max());
    (bounds.windows(2).enumerate())
        .map(|(i, w)| {
            let range = EpkRange {
                min: w[0].clone(),
                max: w[1].clone(),
            };
            Physical::new(i as u64, None, 0, range)
        })
        .collect()
}

/// Merges two runs sorted by EPK into one, adding up entries with the same key.
fn merge_sorted(head: Vec<Logical>, tail: Vec<Logical>) -> Vec<Logical> {
    let mut out: Vec<Logical> = Vec::with_capacity(head.len() + tail.len());
    let (mut a, mut b) = (head.into_iter().peekable(), tail.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.epk <= y.epk => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        let Some(lp) = next else { return out };
        match out.last_mut() {
            Some(last) if last.epk == lp.epk => {
                last.bytes += lp.bytes;
                last.items += lp.items;
                last.ru += lp.ru;
            }
            _ => out.push(lp),
        }
    }
}

/// The cut `k` (1..n) that brings the left side's bytes closest to half.
fn median_cut(lps: &[Logical], total: u64) -> usize {
    let half = total / 2;
    let mut cum = 0u64;
    for (i, lp) in lps.iter().enumerate() {
        if cum + lp.bytes > half {
            // Cut before or after this logical partition, whichever is nearer half.
            let before = half - cum;
            let after = cum + lp.bytes - half;
            let k = if before <= after { i } else { i + 1 };
            return k.clamp(1, lps.len() - 1);
        }
        cum += lp.bytes;
    }
    lps.len() / 2
}

/// The boundary between two adjacent keys: for MultiHash, the shortest whole-level prefix
/// of `right` above `left` (so a level-1 cut is 32 hex characters, as the service's are);
/// otherwise `right` itself.
fn shortest_boundary(left: &Epk, right: &Epk, kind: PartitionKind) -> Epk {
    if kind == PartitionKind::MultiHash {
        let r = right.as_bytes();
        for len in (16..r.len()).step_by(16) {
            let candidate = Epk::from_bytes(&r[..len]);
            if &candidate > left {
                return candidate;
            }
        }
    }
    right.clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::path::KeyPath;
    use crate::engine::value::PkValueRef;

    fn hash_def() -> PartitionKeyDefinition {
        PartitionKeyDefinition::hash_v2(KeyPath::parse("/pk").unwrap())
    }

    fn small_limits() -> Limits {
        Limits {
            physical_bytes: 1_000,
            logical_bytes: 400,
            ..Limits::default()
        }
    }

    #[test]
    fn initial_layout_follows_throughput() {
        let c = Container::new(hash_def(), Throughput::Manual(150_000.0));
        assert_eq!(c.partitions().len(), 25);
        let c = Container::new(hash_def(), Throughput::Manual(400.0));
        assert_eq!(c.partitions().len(), 1);
        let c = Container::new(hash_def(), Throughput::Autoscale(40_000.0));
        assert_eq!(c.partitions().len(), 4);
        assert!((c.ru_per_partition() - 10_000.0).abs() < 1e-9);
        let c = Container::new(hash_def(), Throughput::Manual(18_000.0));
        assert_eq!(c.partitions().len(), 3);
        assert_eq!(
            c.partitions()[1].range().min.to_hex(),
            "15555555555555555555555555555555"
        );
    }

    #[test]
    fn even_partition_counts() {
        let l = Limits::default();
        // 4 partitions at 20,000 RU/s; 1 TB over 4 is 250 GB each: 8 pieces of 31.25 GB.
        assert_eq!(
            Throughput::Manual(20_000.0).even_partitions(1_000 * GB, &l),
            32
        );
        assert_eq!(Throughput::Manual(400.0).even_partitions(10 * GB, &l), 1);
        assert_eq!(Throughput::Manual(400.0).even_partitions(60 * GB, &l), 2);
        assert_eq!(Throughput::Autoscale(100_000.0).even_partitions(GB, &l), 10);
    }

    #[test]
    fn raising_throughput_splits_at_midpoints() {
        let mut c = Container::new(hash_def(), Throughput::Manual(6_000.0));
        c.set_throughput(Throughput::Manual(40_000.0));
        assert_eq!(c.partitions().len(), 4);
        let mins: Vec<String> = c
            .partitions()
            .iter()
            .map(|p| p.range().min.to_hex())
            .collect();
        assert_eq!(mins[2], "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
        assert!((c.ru_per_partition() - 10_000.0).abs() < 1e-9);
    }

    #[test]
    fn storage_split_cuts_at_the_byte_median() {
        let mut c = Container::with_limits(hash_def(), Throughput::Manual(400.0), small_limits());
        for i in 0..20 {
            let v = format!("k{i}");
            c.insert(hash_def().epk(&[PkValueRef::Str(&v)]).unwrap(), 60, 1, 0.0);
        }
        // 1,200 bytes over a 1,000-byte limit: one split, 600 each side (±1 key).
        assert_eq!(c.partitions().len(), 2);
        for p in c.partitions() {
            assert!((540..=660).contains(&p.bytes()), "{}", p.bytes());
        }
        assert_eq!(c.bytes(), 1_200);
    }

    /// Data of `n` keys of `each` bytes, loaded unsplit under a 1 MB limit and settled.
    fn settled(n: usize, each: impl Fn(usize) -> u64) -> Container {
        let limits = Limits {
            physical_bytes: 1_000_000,
            logical_bytes: 400_000,
            ..Limits::default()
        };
        let mut c = Container::with_limits(hash_def(), Throughput::Manual(400.0), limits);
        for i in 0..n {
            let v = format!("k{i}");
            c.insert_unsplit(hash_def().epk(&[PkValueRef::Str(&v)]).unwrap(), each(i), 1);
        }
        c.settle();
        c
    }

    #[test]
    fn a_generation_that_reaches_the_limit_together_splits_together() {
        let sizes =
            |c: &Container| -> Vec<u64> { c.partitions().iter().map(|p| p.bytes()).collect() };
        // 2,000,500 bytes over a 1 MB limit: the halves hold about 1 MB each, one a few
        // hundred bytes over and the other within 0.1% of it; both split, as data growing
        // evenly splits them. 1,960,000 bytes: neither.
        let even = settled(2_001, |i| if i == 0 { 1_500 } else { 1_000 });
        assert_eq!(even.partitions().len(), 4, "{:?}", sizes(&even));
        let quarter = 400_000..=600_000;
        assert!(
            even.partitions()
                .iter()
                .all(|p| quarter.contains(&p.bytes()))
        );
        let under = settled(1_960, |_| 1_000);
        assert_eq!(under.partitions().len(), 2, "{:?}", sizes(&under));
    }

    #[test]
    fn only_the_generation_near_the_limit_splits_with_the_one_past_it() {
        // Four initial partitions filled to 1,001,000, 999,500, 990,000 and 500,000 bytes
        // under a 1 MB limit: the first passes it, the second is within 0.1% and splits
        // too, the last two have not reached it.
        let limits = Limits {
            physical_bytes: 1_000_000,
            logical_bytes: 400_000,
            ..Limits::default()
        };
        let mut c = Container::with_limits(hash_def(), Throughput::Manual(20_000.0), limits);
        assert_eq!(c.partitions().len(), 4);
        let mut left = [1_001_000u64, 999_500, 990_000, 500_000];
        for i in 0.. {
            if left.iter().all(|&b| b == 0) {
                break;
            }
            let v = format!("k{i}");
            let epk = hash_def().epk(&[PkValueRef::Str(&v)]).unwrap();
            let slot = &mut left[c.route(&epk)];
            let bytes = (*slot).min(500);
            if bytes > 0 {
                *slot -= bytes;
                c.insert_unsplit(epk, bytes, 1);
            }
        }
        c.settle();
        let sizes: Vec<u64> = c.partitions().iter().map(|p| p.bytes()).collect();
        assert_eq!(sizes.len(), 6, "{sizes:?}");
        assert!(
            sizes.contains(&990_000) && sizes.contains(&500_000),
            "{sizes:?}"
        );
    }

    #[test]
    fn one_logical_partition_never_splits() {
        let mut c = Container::with_limits(hash_def(), Throughput::Manual(400.0), small_limits());
        let e = hash_def().epk(&[PkValueRef::Str("hot")]).unwrap();
        for _ in 0..30 {
            c.insert(e.clone(), 100, 1, 1.0);
        }
        assert_eq!(c.partitions().len(), 1);
        assert_eq!(c.unsplittable(), &[0]);
        let lp = c.logical(&e).unwrap();
        assert_eq!((lp.bytes, lp.items), (3_000, 30));
    }
}
