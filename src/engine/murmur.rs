//! MurmurHash3 (Austin Appleby, public domain), the two variants Cosmos DB uses:
//! `x86_32` for Hash V1 keys and `x64_128` for Hash V2 and MultiHash keys, both with seed 0.
//!
//! [`Murmur3x64`] is a streaming hasher so that a partition-key component can be fed as
//! marker byte, payload and suffix without first being copied into a buffer.

const C1_64: u64 = 0x87c3_7b91_1142_53d5;
const C2_64: u64 = 0x4cf5_ad43_2745_937f;

#[inline]
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

#[inline]
fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1_64).rotate_left(31).wrapping_mul(C2_64)
}

#[inline]
fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2_64).rotate_left(33).wrapping_mul(C1_64)
}

/// Streaming MurmurHash3 x64_128 with seed 0.
#[derive(Clone, Debug, Default)]
pub struct Murmur3x64 {
    h1: u64,
    h2: u64,
    buf: [u8; 16],
    buf_len: usize,
    total: u64,
}

impl Murmur3x64 {
    /// A hasher with seed 0, as Cosmos DB uses.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn block(&mut self, block: &[u8; 16]) {
        let k1 = u64::from_le_bytes(block[..8].try_into().expect("8 bytes"));
        let k2 = u64::from_le_bytes(block[8..].try_into().expect("8 bytes"));
        self.h1 ^= mix_k1(k1);
        self.h1 = self
            .h1
            .rotate_left(27)
            .wrapping_add(self.h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        self.h2 ^= mix_k2(k2);
        self.h2 = self
            .h2
            .rotate_left(31)
            .wrapping_add(self.h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }

    /// Feeds more bytes.
    pub fn write(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.buf_len > 0 {
            let take = (16 - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < 16 {
                return;
            }
            let block = self.buf;
            self.block(&block);
            self.buf_len = 0;
        }
        let mut chunks = data.chunks_exact(16);
        for chunk in &mut chunks {
            self.block(chunk.try_into().expect("16 bytes"));
        }
        let rest = chunks.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// Feeds one byte.
    #[inline]
    pub fn write_u8(&mut self, b: u8) {
        self.write(&[b]);
    }

    /// Finishes the hash: `(h1, h2)`, the SDKs' `(low, high)` halves.
    pub fn finish(mut self) -> (u64, u64) {
        let tail = &self.buf[..self.buf_len];
        let (mut k1, mut k2) = (0u64, 0u64);
        for (i, &b) in tail.iter().enumerate() {
            if i < 8 {
                k1 |= (b as u64) << (8 * i);
            } else {
                k2 |= (b as u64) << (8 * (i - 8));
            }
        }
        if tail.len() > 8 {
            self.h2 ^= mix_k2(k2);
        }
        if !tail.is_empty() {
            self.h1 ^= mix_k1(k1);
        }
        let (mut h1, mut h2) = (self.h1 ^ self.total, self.h2 ^ self.total);
        h1 = h1.wrapping_add(h2);
        h2 = h2.wrapping_add(h1);
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 = h1.wrapping_add(h2);
        h2 = h2.wrapping_add(h1);
        (h1, h2)
    }
}

/// MurmurHash3 x64_128 of `data` with seed 0, as `(h1, h2)`: one pass over whole blocks,
/// without the streaming hasher's buffering (the hot path of every short key).
pub fn murmur3_x64_128(data: &[u8]) -> (u64, u64) {
    let mut h = Murmur3x64::new();
    let mut chunks = data.chunks_exact(16);
    for chunk in &mut chunks {
        h.block(chunk.try_into().expect("16 bytes"));
    }
    let rest = chunks.remainder();
    h.buf[..rest.len()].copy_from_slice(rest);
    h.buf_len = rest.len();
    h.total = data.len() as u64;
    h.finish()
}

/// MurmurHash3 x86_32 of `data` with seed 0.
pub fn murmur3_x86_32(data: &[u8]) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mix = |k: u32| k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    let mut h: u32 = 0;
    let mut chunks = data.chunks_exact(4);
    for chunk in &mut chunks {
        h ^= mix(u32::from_le_bytes(chunk.try_into().expect("4 bytes")));
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let k = tail
            .iter()
            .enumerate()
            .fold(0u32, |k, (i, &b)| k | (b as u32) << (8 * i));
        h ^= mix(k);
    }
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x86_32_sanity_value_from_the_facts() {
        assert_eq!(murmur3_x86_32(&[0x01]), 0xE45A_D1AB);
        // SMHasher reference: empty input with seed 0 hashes to 0.
        assert_eq!(murmur3_x86_32(b""), 0);
    }

    #[test]
    fn x64_128_sanity_value_from_the_facts() {
        let (h1, h2) = murmur3_x64_128(&[0x01]);
        let hex = format!("{h2:016X}{h1:016X}");
        assert_eq!(hex, "778867E4430E67857ACE5C908374FE16");
    }

    #[test]
    fn one_shot_equals_streaming_for_every_length() {
        let data: Vec<u8> = (0u8..=90).map(|i| i.wrapping_mul(53)).collect();
        for len in 0..data.len() {
            let mut h = Murmur3x64::new();
            for b in &data[..len] {
                h.write_u8(*b);
            }
            assert_eq!(murmur3_x64_128(&data[..len]), h.finish(), "len {len}");
        }
    }

    #[test]
    fn streaming_equals_one_shot_for_every_split() {
        let data: Vec<u8> = (0u8..=70).map(|i| i.wrapping_mul(37)).collect();
        for len in 0..data.len() {
            let whole = murmur3_x64_128(&data[..len]);
            for cut in 0..=len {
                let mut h = Murmur3x64::new();
                h.write(&data[..cut]);
                h.write(&data[cut..len]);
                assert_eq!(h.finish(), whole, "len {len} cut {cut}");
            }
        }
    }
}
