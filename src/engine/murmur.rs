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
        self.block_words(k1, k2);
    }

    #[inline]
    fn block_words(&mut self, k1: u64, k2: u64) {
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
    pub fn finish(self) -> (u64, u64) {
        let (buf, len) = (self.buf, self.buf_len);
        self.finish_with(&buf[..len])
    }

    /// Mixes in the last `tail` (under 16 bytes) and finalises.
    #[inline]
    fn finish_with(mut self, tail: &[u8]) -> (u64, u64) {
        if tail.len() > 8 {
            self.h2 ^= mix_k2(load_le(&tail[8..]));
        }
        if !tail.is_empty() {
            self.h1 ^= mix_k1(load_le(&tail[..tail.len().min(8)]));
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

/// Up to 8 bytes as a little-endian integer, from at most two overlapping loads (the
/// overlap holds the same bytes in both, so OR-ing them is exact): no byte loop.
#[inline(always)]
fn load_le(b: &[u8]) -> u64 {
    let n = b.len();
    match n {
        8.. => u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
        4..8 => {
            let lo = u32::from_le_bytes(b[..4].try_into().expect("4 bytes")) as u64;
            let hi = u32::from_le_bytes(b[n - 4..n].try_into().expect("4 bytes")) as u64;
            lo | hi << (8 * (n - 4))
        }
        1..4 => {
            let (a, m, z) = (b[0] as u64, b[n / 2] as u64, b[n - 1] as u64);
            a | m << (8 * (n / 2)) | z << (8 * (n - 1))
        }
        0 => 0,
    }
}

/// MurmurHash3 x64_128 of `data` with seed 0, as `(h1, h2)`: one pass over whole blocks,
/// without the streaming hasher's buffering (the hot path of every short key).
#[inline]
pub fn murmur3_x64_128(data: &[u8]) -> (u64, u64) {
    let mut h = Murmur3x64::new();
    let mut chunks = data.chunks_exact(16);
    for chunk in &mut chunks {
        h.block(chunk.try_into().expect("16 bytes"));
    }
    h.total = data.len() as u64;
    h.finish_with(chunks.remainder())
}

/// MurmurHash3 x64_128 with seed 0 of `prefix`, `payload` and `suffix` end to end, read
/// straight from `payload`: a key component (marker byte, value, end byte) is hashed
/// without first being copied, which would stall the loads that follow the copy.
#[inline]
pub fn murmur3_x64_128_framed(prefix: u8, payload: &[u8], suffix: Option<u8>) -> (u64, u64) {
    let frame = Frame {
        prefix,
        payload,
        suffix,
    };
    let len = payload.len() + 1 + usize::from(suffix.is_some());
    let mut h = Murmur3x64::new();
    let blocks = len / 16;
    for b in 0..blocks {
        h.block_words(frame.word(2 * b), frame.word(2 * b + 1));
    }
    h.total = len as u64;
    let tail = len - 16 * blocks;
    if tail > 8 {
        h.h2 ^= mix_k2(frame.word(2 * blocks + 1));
    }
    if tail > 0 {
        h.h1 ^= mix_k1(frame.word(2 * blocks));
    }
    h.finish_with(&[])
}

/// A byte, a payload and maybe a byte, end to end.
struct Frame<'a> {
    prefix: u8,
    payload: &'a [u8],
    suffix: Option<u8>,
}

impl Frame<'_> {
    /// The little-endian word at byte `8 * w` (zeros past the end). Words inside the
    /// payload are one load; only the first and the last two need assembling.
    #[inline(always)]
    fn word(&self, w: usize) -> u64 {
        let (n, start) = (self.payload.len(), 8 * w);
        if start > 0 && start + 7 <= n {
            let at = start - 1;
            return u64::from_le_bytes(self.payload[at..at + 8].try_into().expect("8 bytes"));
        }
        let mut v = if start == 0 {
            let body = if n >= 8 {
                u64::from_le_bytes(self.payload[..8].try_into().expect("8 bytes"))
            } else {
                load_le(self.payload)
            };
            u64::from(self.prefix) | body << 8
        } else if start <= n {
            load_le(&self.payload[start - 1..n.min(start + 7)])
        } else {
            0
        };
        if let Some(x) = self.suffix
            && (start..start + 8).contains(&(n + 1))
        {
            v |= u64::from(x) << (8 * (n + 1 - start));
        }
        v
    }
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
    fn framed_equals_the_bytes_end_to_end() {
        let data: Vec<u8> = (0..90u32).map(|i| (i * 37 + 11) as u8).collect();
        for n in 0..data.len() {
            for suffix in [None, Some(0xFF), Some(0x00)] {
                let mut whole = vec![0x08];
                whole.extend_from_slice(&data[..n]);
                whole.extend(suffix);
                assert_eq!(
                    murmur3_x64_128_framed(0x08, &data[..n], suffix),
                    murmur3_x64_128(&whole),
                    "{n} {suffix:?}"
                );
            }
        }
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
