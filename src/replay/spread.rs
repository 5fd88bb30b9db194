//! Write spread at the key's own time scale: over short runs of consecutive writes (a few
//! hundred each), how many physical partitions receive them, against how many the same
//! writes placed at random would reach. A key whose every write goes to a new value (`/id`)
//! reaches as many as chance does (1.0); a key that writes one value at a time (a time
//! bucket) reaches one partition per run, however many values it has over the whole log.
//! Runs are cut from the log's writes in arrival order, or, when the log has none, are the
//! blocks of consecutive sample documents ([`crate::stats::blocks`]), each judged against
//! chance for its own number of documents.

use rustc_hash::FxHashMap;

use crate::stats::Blocks;

/// Writes (weighted by `count`) per run.
pub const RUN_WRITES: f64 = 256.0;

/// The partitions, among `parts`, that `n` independent writes placed at random reach on
/// average: `P (1 - (1 - 1/P)^n)`.
pub fn random_reach(n: f64, parts: usize) -> f64 {
    let p = parts as f64;
    if parts == 0 || n <= 0.0 {
        return 0.0;
    }
    p * (1.0 - (1.0 - 1.0 / p).powf(n))
}

/// The writes of the log cut into runs, in arrival order.
#[derive(Debug)]
pub struct Runs {
    parts: usize,
    /// The run in which each partition was last reached, plus one.
    stamp: Vec<u32>,
    run: u32,
    reached: usize,
    /// This run's writes as lumps: `(Σ count, Σ count²)`.
    lumps: (f64, f64),
    /// Σ weight · spread and Σ weight over closed runs.
    total: (f64, f64),
}

impl Runs {
    /// Runs over a container of `parts` physical partitions.
    pub fn new(parts: usize) -> Runs {
        Runs {
            parts,
            stamp: vec![0; parts],
            run: 1,
            reached: 0,
            lumps: (0.0, 0.0),
            total: (0.0, 0.0),
        }
    }

    /// One write operation of `count` reaching `partitions`.
    pub fn add(&mut self, partitions: impl IntoIterator<Item = usize>, count: f64) {
        for p in partitions {
            if p < self.parts && self.stamp[p] != self.run {
                self.stamp[p] = self.run;
                self.reached += 1;
            }
        }
        self.lumps.0 += count;
        self.lumps.1 += count * count;
        if self.lumps.0 >= RUN_WRITES {
            self.close();
        }
    }

    fn close(&mut self) {
        let (sum, sum_sq) = self.lumps;
        if sum > 0.0 && sum_sq > 0.0 {
            let expected = random_reach(sum * sum / sum_sq, self.parts);
            let spread = (self.reached as f64 / expected.max(1.0)).min(1.0);
            self.total.0 += sum * spread;
            self.total.1 += sum;
        }
        self.run += 1;
        self.reached = 0;
        self.lumps = (0.0, 0.0);
    }

    /// The spread over all runs, weighted by their writes (1.0 without writes or with one
    /// partition). A last run shorter than a quarter of one counts only when it is the only
    /// one.
    pub fn spread(mut self) -> f64 {
        if self.lumps.0 >= RUN_WRITES / 4.0 || self.total.1 == 0.0 {
            self.close();
        }
        if self.parts <= 1 || self.total.1 <= 0.0 {
            return 1.0;
        }
        self.total.0 / self.total.1
    }
}

/// The spread of the sample's blocks replayed as creates: `owners[s]` are the partitions
/// holding slice `s` with their shares of it (`fallback(s)` when it holds no data). A
/// block's documents are taken to divide evenly over its slices, and a slice's documents
/// over its owners by their shares.
pub fn block_spread(
    blocks: &Blocks,
    owners: &[Vec<(usize, f64)>],
    parts: usize,
    fallback: impl Fn(usize) -> usize,
) -> f64 {
    if parts <= 1 {
        return 1.0;
    }
    let (mut total, mut weight) = (0.0, 0.0);
    for (_, block) in &blocks.blocks {
        let slices: Vec<usize> = block.reached().collect();
        if slices.is_empty() {
            continue;
        }
        let docs = block.docs as f64;
        let each = docs / slices.len() as f64;
        // Per partition, the chance that none of the block's documents lands on it.
        let mut missed: FxHashMap<usize, f64> = FxHashMap::default();
        for s in slices {
            match owners.get(s).filter(|o| !o.is_empty()) {
                Some(o) => {
                    for &(p, share) in o {
                        *missed.entry(p).or_insert(1.0) *= (1.0 - share).powf(each);
                    }
                }
                None => *missed.entry(fallback(s)).or_insert(1.0) = 0.0,
            }
        }
        let reached: f64 = missed.values().map(|m| 1.0 - m).sum();
        let expected = random_reach(docs, parts).max(1.0);
        total += docs * (reached / expected).min(1.0);
        weight += docs;
    }
    if weight <= 0.0 { 1.0 } else { total / weight }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chance_reaches_most_partitions_one_value_reaches_one() {
        assert!((random_reach(1.0, 100) - 1.0).abs() < 1e-9);
        assert!((random_reach(256.0, 100) - 100.0 * (1.0 - 0.99f64.powi(256))).abs() < 1e-9);
        // Every write to a partition of its own: as spread as chance.
        let mut runs = Runs::new(100);
        for i in 0..2_560 {
            runs.add([(i * 37) % 100], 1.0);
        }
        assert!((runs.spread() - 1.0).abs() < 1e-9);
        // One partition per run of writes (a bucket that changes every 256 writes).
        let mut runs = Runs::new(100);
        for i in 0..2_560usize {
            runs.add([i / 256], 1.0);
        }
        let s = runs.spread();
        assert!(s < 0.02 && s > 0.0, "{s}");
    }

    #[test]
    fn lumps_lower_what_chance_would_reach() {
        // Ten lines of 25 writes each reach ten partitions; chance with ten lumps reaches
        // about as many.
        let mut runs = Runs::new(100);
        for i in 0..10 {
            runs.add([i * 10], 25.0);
        }
        let s = runs.spread();
        assert!(s > 0.95, "{s}");
    }

    #[test]
    fn blocks_of_one_slice_reach_one_partition() {
        let mut blocks = Blocks::default();
        // Documents of 512 bytes: 256 to a block.
        for i in 0..25_600u64 {
            blocks.add(i * 512, (i / 256) as usize);
        }
        // 1024 slices over 64 partitions of 16 slices each.
        let owners: Vec<Vec<(usize, f64)>> = (0..1024).map(|s| vec![(s / 16, 1.0)]).collect();
        let s = block_spread(&blocks, &owners, 64, |s| s / 16);
        assert!(s < 0.03, "{s}");
        let mut spread_out = Blocks::default();
        for i in 0..25_600u64 {
            spread_out.add(i * 512, ((i * 2_654_435_761) % 1024) as usize);
        }
        let s = block_spread(&spread_out, &owners, 64, |s| s / 16);
        assert!(s > 0.9, "{s}");
    }
}
