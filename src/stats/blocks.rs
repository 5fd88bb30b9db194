//! Which slices of the hash space the documents of short runs reach: blocks of
//! [`BLOCK_BYTES`] of input (a few hundred documents of common sizes, in input order),
//! each with its documents and the set of slices their key values fall in. Replayed as creates, a block shows how many physical partitions the
//! writes of one moment reach: every one for a key whose writes go to new values, one for
//! a key that writes one value at a time (a time bucket), however many values it has over
//! the whole input.
//!
//! At most [`MAX_BLOCKS`] blocks are kept: blocks whose index is a multiple of a stride that
//! doubles when they would be more, so blocks spread over the whole input and two shares
//! of an input merge exactly into the blocks of the whole.

use serde::{Deserialize, Serialize};

use super::arrival::SLICES;

/// Input bytes per block (documents are placed by the offset of their first byte).
pub const BLOCK_BYTES: u64 = 128 * 1024;
/// Blocks kept at most.
pub const MAX_BLOCKS: usize = 128;
const WORDS: usize = SLICES / 64;

/// One block: its documents and the slices they fall in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// Documents counted in it.
    pub docs: u64,
    /// One bit per slice of the hash space.
    #[serde(deserialize_with = "bounded_words")]
    pub slices: Vec<u64>,
}

impl Block {
    fn new() -> Block {
        Block {
            docs: 0,
            slices: vec![0; WORDS],
        }
    }

    /// The slices reached, in order.
    pub fn reached(&self) -> impl Iterator<Item = usize> + '_ {
        self.slices.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| w * 64 + b)
        })
    }

    fn merge(&mut self, other: &Block) {
        self.docs = self.docs.saturating_add(other.docs);
        for (a, b) in self.slices.iter_mut().zip(&other.slices) {
            *a |= b;
        }
    }
}

/// Sampled blocks of consecutive documents, by block index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Blocks {
    /// Only blocks whose index is a multiple of this are kept.
    pub stride: u64,
    /// The blocks, in index order.
    #[serde(deserialize_with = "bounded_blocks")]
    pub blocks: Vec<(u64, Block)>,
}

fn bounded_blocks<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(u64, Block)>, D::Error> {
    super::bounded::seq(d, MAX_BLOCKS, "blocks")
}

fn bounded_words<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
    super::bounded::seq(d, WORDS, "words of slice bits")
}

impl Default for Blocks {
    fn default() -> Self {
        Blocks {
            stride: 1,
            blocks: Vec::new(),
        }
    }
}

impl Blocks {
    /// Records the document starting at input offset `ordinal` whose key falls in `slice`.
    #[inline]
    pub fn add(&mut self, ordinal: u64, slice: usize) {
        let index = ordinal / BLOCK_BYTES;
        if !index.is_multiple_of(self.stride) {
            return;
        }
        let block = self.block(index);
        block.docs += 1;
        block.slices[slice / 64] |= 1 << (slice % 64);
        if self.blocks.len() > MAX_BLOCKS {
            self.coarsen();
        }
    }

    /// The block at `index`, created if needed: documents mostly arrive in order, so the
    /// last block is checked first.
    fn block(&mut self, index: u64) -> &mut Block {
        super::entry(&mut self.blocks, index, Block::new)
    }

    fn coarsen(&mut self) {
        self.stride = self.stride.saturating_mul(2);
        let stride = self.stride;
        self.blocks.retain(|(k, _)| k.is_multiple_of(stride));
    }

    /// Adds everything `other` recorded.
    pub fn merge(&mut self, other: Blocks) {
        while self.stride < other.stride {
            self.coarsen();
        }
        for (k, b) in other.blocks {
            if k.is_multiple_of(self.stride) {
                self.block(k).merge(&b);
            }
        }
        while self.blocks.len() > MAX_BLOCKS {
            self.coarsen();
        }
    }

    /// Whether the blocks are what this module writes (a profile could claim otherwise).
    pub fn is_well_formed(&self) -> bool {
        self.stride > 0
            && self.stride.is_power_of_two()
            && self.blocks.len() <= MAX_BLOCKS
            && self.blocks.windows(2).all(|w| w[0].0 < w[1].0)
            && self.blocks.iter().all(|(k, b)| {
                k.is_multiple_of(self.stride) && b.slices.len() == WORDS && b.docs <= BLOCK_BYTES
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Documents of 512 bytes at `offsets`, the `i`-th falling in `slice(i)`.
    fn fill(b: &mut Blocks, offsets: impl Iterator<Item = u64>, slice: impl Fn(u64) -> usize) {
        for o in offsets {
            b.add(o, slice(o / 512));
        }
    }

    #[test]
    fn blocks_stay_bounded_spread_over_the_input_and_merge_exactly() {
        let slice = |i: u64| ((i * 2_654_435_761) % 1024) as usize;
        let (mut whole, mut a, mut b) = (Blocks::default(), Blocks::default(), Blocks::default());
        // Documents of 512 bytes: 256 to a block.
        let docs = 0..1_000_000u64;
        fill(&mut whole, docs.clone().map(|i| i * 512), slice);
        // Shares cut mid-block: the block's halves merge into it.
        fill(&mut a, (0..400_100).map(|i| i * 512), slice);
        fill(&mut b, (400_100..1_000_000).map(|i| i * 512), slice);
        a.merge(b);
        assert_eq!(a, whole);
        assert!(whole.is_well_formed());
        assert!(whole.blocks.len() <= MAX_BLOCKS && whole.blocks.len() > MAX_BLOCKS / 2);
        let last = whole.blocks.last().unwrap().0 * BLOCK_BYTES;
        assert!(last > 900_000 * 512, "{last}");
        assert!(whole.blocks.iter().all(|(_, b)| b.docs == 256));
    }

    #[test]
    fn a_block_knows_its_slices() {
        let mut b = Blocks::default();
        fill(&mut b, (0..256).map(|i| i * 512), |i| {
            if i < 200 { 7 } else { 900 }
        });
        let slices: Vec<usize> = b.blocks[0].1.reached().collect();
        assert_eq!(slices, [7, 900]);
    }
}
