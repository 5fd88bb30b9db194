//! Effective partition keys (EPKs), computed bit for bit as the Cosmos DB SDKs do.
//!
//! * Hash V2: component bytes (`type marker` + payload, strings end in `0xFF`) hashed with
//!   MurmurHash3 x64_128; the digest written `h2` then `h1` big-endian, top two bits cleared.
//! * MultiHash: the V2 hash of each component on its own, concatenated.
//! * Hash V1: strings cut to 100 UTF-16 units, MurmurHash3 x86_32 of the component bytes
//!   (strings end in `0x00`), then the order-preserving binary encoding of
//!   `[hash as number, components...]`.
//!
//! An EPK is held as bytes; the SDKs compare upper-case hex strings ordinally, which is the
//! same order as comparing the bytes. The space runs from `""` (inclusive) to `"FF"`
//! (exclusive). The algorithms are the Cosmos DB SDKs' (.NET `PartitionKeyInternal`, Java
//! `PartitionKeyInternalHelper`); `tests/data/epk-vectors.json` holds the official SDK's vectors.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use super::murmur::{Murmur3x64, murmur3_x64_128, murmur3_x64_128_framed, murmur3_x86_32};
use super::value::PkValueRef;

/// Type markers written before each component.
mod marker {
    pub const UNDEFINED: u8 = 0x00;
    pub const NULL: u8 = 0x01;
    pub const FALSE: u8 = 0x02;
    pub const TRUE: u8 = 0x03;
    pub const NUMBER: u8 = 0x05;
    pub const STRING: u8 = 0x08;
}

/// An effective partition key, or a boundary of the EPK space.
///
/// Ordered as the SDKs order them (ordinal comparison of the hex form).
#[derive(Clone)]
pub struct Epk(Repr);

#[derive(Clone)]
enum Repr {
    /// Up to 32 bytes (Hash V2, two-level MultiHash, the space's ends): no heap allocation.
    Inline { len: u8, buf: [u8; INLINE] },
    /// Longer keys: three-level MultiHash, V1 keys with strings.
    Heap(Box<[u8]>),
}

const INLINE: usize = 32;

impl Epk {
    /// The inclusive minimum of the space, `""`.
    pub fn min() -> Epk {
        Epk::from_bytes(&[])
    }

    /// The exclusive maximum of the space, `"FF"`.
    pub fn max() -> Epk {
        Epk::from_bytes(&[0xFF])
    }

    /// An EPK from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Epk {
        if bytes.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..bytes.len()].copy_from_slice(bytes);
            Epk(Repr::Inline {
                len: bytes.len() as u8,
                buf,
            })
        } else {
            Epk(Repr::Heap(bytes.into()))
        }
    }

    /// Parses the hex form (either case). `None` if it is not hex of whole bytes.
    pub fn from_hex(hex: &str) -> Option<Epk> {
        if !hex.len().is_multiple_of(2) {
            return None;
        }
        let bytes: Option<Vec<u8>> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
            .collect();
        Some(Epk::from_bytes(&bytes?))
    }

    /// The bytes of this EPK.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, buf } => &buf[..*len as usize],
            Repr::Heap(b) => b,
        }
    }

    /// Upper-case hex, as the SDKs print it.
    pub fn to_hex(&self) -> String {
        self.to_string()
    }

    /// `self` followed by `FF`: the exclusive end of a MultiHash prefix range.
    pub fn with_ff_suffix(&self) -> Epk {
        let mut v = self.as_bytes().to_vec();
        v.push(0xFF);
        Epk::from_bytes(&v)
    }

    /// Whether this is the empty minimum `""`.
    pub fn is_min(&self) -> bool {
        self.as_bytes().is_empty()
    }
}

impl PartialEq for Epk {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}
impl Eq for Epk {}
impl PartialOrd for Epk {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Epk {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            // Zero-padded buffers compared as big-endian integers, then by length, order
            // exactly as the bytes do (a prefix sorts first). The hot path of every sort.
            (Repr::Inline { len: la, buf: a }, Repr::Inline { len: lb, buf: b }) => {
                let half = |x: &[u8; INLINE], i: usize| {
                    u128::from_be_bytes(x[i..i + 16].try_into().expect("16 bytes"))
                };
                half(a, 0)
                    .cmp(&half(b, 0))
                    .then_with(|| half(a, 16).cmp(&half(b, 16)))
                    .then(la.cmp(lb))
            }
            _ => self.as_bytes().cmp(other.as_bytes()),
        }
    }
}
impl std::hash::Hash for Epk {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state)
    }
}

impl fmt::Display for Epk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.as_bytes() {
            write!(f, "{b:02X}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Epk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Epk(\"{self}\")")
    }
}

impl serde::Serialize for Epk {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Epk {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Epk, D::Error> {
        let hex = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Epk::from_hex(&hex)
            .ok_or_else(|| serde::de::Error::custom(format!("not an EPK in hex: {hex:?}")))
    }
}

/// A half-open range of EPKs, `[min, max)`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EpkRange {
    /// Inclusive start.
    pub min: Epk,
    /// Exclusive end.
    pub max: Epk,
}

impl EpkRange {
    /// The whole space `["", "FF")`.
    pub fn full() -> EpkRange {
        EpkRange {
            min: Epk::min(),
            max: Epk::max(),
        }
    }

    /// Whether `epk` lies in the range.
    pub fn contains(&self, epk: &Epk) -> bool {
        &self.min <= epk && epk < &self.max
    }
}

// ---------------------------------------------------------------------------------------
// Hash V2 and MultiHash

fn feed_v2(h: &mut Murmur3x64, v: PkValueRef<'_>) {
    match v {
        PkValueRef::Undefined => h.write_u8(marker::UNDEFINED),
        PkValueRef::Null => h.write_u8(marker::NULL),
        PkValueRef::Bool(false) => h.write_u8(marker::FALSE),
        PkValueRef::Bool(true) => h.write_u8(marker::TRUE),
        PkValueRef::Number(n) => {
            h.write_u8(marker::NUMBER);
            h.write(&n.to_bits().to_le_bytes());
        }
        PkValueRef::Str(s) => {
            h.write_u8(marker::STRING);
            h.write(s.as_bytes());
            h.write_u8(0xFF);
        }
    }
}

fn digest_to_epk_bytes((h1, h2): (u64, u64)) -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&h2.to_be_bytes());
    out[8..].copy_from_slice(&h1.to_be_bytes());
    out[0] &= 0x3F;
    out
}

/// The 16-byte Hash V2 EPK of one component (also one MultiHash level), hashed straight
/// from the value.
pub fn v2_component(v: PkValueRef<'_>) -> [u8; 16] {
    digest_to_epk_bytes(v2_digest(v))
}

/// A Hash V2 EPK of one component, as the two halves of its digest: what
/// [`v2_component`] writes out. Its slice of the hash space, and the statistics' hash of
/// the value (`h1`), are read from the halves without the bytes being written.
#[derive(Clone, Copy, Debug)]
pub struct V2Digest {
    /// MurmurHash3's first half: the EPK's last eight bytes.
    pub h1: u64,
    /// Its second half: the EPK's first eight bytes, top two bits cleared.
    pub h2: u64,
}

impl V2Digest {
    /// The digest of component `v`.
    #[inline]
    pub fn of(v: PkValueRef<'_>) -> V2Digest {
        let (h1, h2) = v2_digest(v);
        V2Digest { h1, h2 }
    }

    /// The EPK's bytes ([`v2_component`]).
    pub fn bytes(self) -> [u8; 16] {
        digest_to_epk_bytes((self.h1, self.h2))
    }

    /// [`slice_of_epk`] of the EPK (version 2), from the digest: its first eight bytes
    /// read as [`space_fraction`] reads them (their first byte, top bits cleared, is
    /// never `FF`).
    #[inline]
    pub fn slice(self) -> usize {
        let lead = self.h2 & (u64::MAX >> 2);
        let f = lead as f64 / (1u64 << 62) as f64;
        bucket_of(f.clamp(0.0, 1.0 - f64::EPSILON))
    }
}

#[inline]
fn v2_digest(v: PkValueRef<'_>) -> (u64, u64) {
    match v {
        PkValueRef::Str(s) => murmur3_x64_128_framed(marker::STRING, s.as_bytes(), Some(0xFF)),
        PkValueRef::Number(n) => {
            murmur3_x64_128_framed(marker::NUMBER, &n.to_bits().to_le_bytes(), None)
        }
        PkValueRef::Undefined => murmur3_x64_128(&[marker::UNDEFINED]),
        PkValueRef::Null => murmur3_x64_128(&[marker::NULL]),
        PkValueRef::Bool(b) => murmur3_x64_128(&[if b { marker::TRUE } else { marker::FALSE }]),
    }
}

/// Hash V2 EPK of a key; several components are hashed in one pass (legacy multi-path
/// Hash), which differs from MultiHash. No components gives the minimum `""`.
pub fn hash_v2(values: &[PkValueRef<'_>]) -> Epk {
    match values {
        [] => return Epk::min(),
        [one] => return Epk::from_bytes(&v2_component(*one)),
        _ => {}
    }
    let mut h = Murmur3x64::new();
    for &v in values {
        feed_v2(&mut h, v);
    }
    Epk::from_bytes(&digest_to_epk_bytes(h.finish()))
}

/// MultiHash EPK: each component hashed on its own, the digests concatenated.
pub fn multi_hash(values: &[PkValueRef<'_>]) -> Epk {
    if let [one] = values {
        return Epk::from_bytes(&v2_component(*one));
    }
    if values.len() <= 3 {
        let mut out = [0u8; 48];
        for (i, &v) in values.iter().enumerate() {
            out[16 * i..16 * (i + 1)].copy_from_slice(&v2_component(v));
        }
        return Epk::from_bytes(&out[..16 * values.len()]);
    }
    let out: Vec<u8> = values.iter().flat_map(|&v| v2_component(v)).collect();
    Epk::from_bytes(&out)
}

/// The EPK range a MultiHash prefix covers: `[concat, concat + "FF")`.
pub fn multi_hash_prefix_range(values: &[PkValueRef<'_>]) -> EpkRange {
    let min = multi_hash(values);
    let max = min.with_ff_suffix();
    EpkRange { min, max }
}

// ---------------------------------------------------------------------------------------
// Hash V1

/// V1 hashes only the first 100 UTF-16 code units of a string. A cut through a surrogate
/// pair leaves a lone high surrogate, which .NET's UTF-8 encoder writes as U+FFFD.
fn v1_truncate(s: &str) -> Cow<'_, str> {
    const LIMIT: usize = 100;
    let mut units = 0;
    for (i, c) in s.char_indices() {
        let w = c.len_utf16();
        if units + w > LIMIT {
            let mut cut = s[..i].to_owned();
            if units < LIMIT {
                cut.push('\u{FFFD}');
            }
            return Cow::Owned(cut);
        }
        units += w;
    }
    Cow::Borrowed(s)
}

fn write_v1_hash_bytes(v: PkValueRef<'_>, out: &mut Vec<u8>) {
    match v {
        PkValueRef::Undefined => out.push(marker::UNDEFINED),
        PkValueRef::Null => out.push(marker::NULL),
        PkValueRef::Bool(false) => out.push(marker::FALSE),
        PkValueRef::Bool(true) => out.push(marker::TRUE),
        PkValueRef::Number(n) => {
            out.push(marker::NUMBER);
            out.extend_from_slice(&n.to_bits().to_le_bytes());
        }
        PkValueRef::Str(s) => {
            out.push(marker::STRING);
            out.extend_from_slice(s.as_bytes());
            out.push(0x00);
        }
    }
}

/// The order-preserving binary encoding of a number (`05` + variable-length form).
pub fn encode_v1_number(n: f64, out: &mut Vec<u8>) {
    let b = n.to_bits();
    let mut u = if b & (1 << 63) == 0 {
        b ^ (1 << 63)
    } else {
        (!b).wrapping_add(1)
    };
    out.push(marker::NUMBER);
    out.push((u >> 56) as u8);
    u <<= 8;
    loop {
        let group = ((u >> 56) as u8) & 0xFE;
        u <<= 7;
        if u == 0 {
            out.push(group);
            return;
        }
        out.push(group | 1);
    }
}

/// Decodes a binary-encoded number at the start of `bytes`; `None` if there is none.
pub fn decode_v1_number(bytes: &[u8]) -> Option<f64> {
    let (&first, rest) = bytes.split_first()?;
    if first != marker::NUMBER {
        return None;
    }
    let (&top, groups) = rest.split_first()?;
    let mut u = (top as u64) << 56;
    for (k, &g) in groups.iter().enumerate().take(8) {
        u |= ((g >> 1) as u64) << (49 - 7 * k as u32);
        if g & 1 == 0 {
            break;
        }
    }
    let b = if u & (1 << 63) != 0 {
        u ^ (1 << 63)
    } else {
        !(u.wrapping_sub(1))
    };
    Some(f64::from_bits(b))
}

fn write_v1_binary(v: PkValueRef<'_>, out: &mut Vec<u8>) {
    match v {
        PkValueRef::Undefined => out.push(marker::UNDEFINED),
        PkValueRef::Null => out.push(marker::NULL),
        PkValueRef::Bool(false) => out.push(marker::FALSE),
        PkValueRef::Bool(true) => out.push(marker::TRUE),
        PkValueRef::Number(n) => encode_v1_number(n, out),
        PkValueRef::Str(s) => {
            out.push(marker::STRING);
            let bytes = s.as_bytes();
            let shown = &bytes[..bytes.len().min(101)];
            out.extend(shown.iter().map(|&b| if b == 0xFF { b } else { b + 1 }));
            if bytes.len() <= 100 {
                out.push(0x00);
            }
        }
    }
}

/// Hash V1 EPK of a key (legacy containers).
pub fn hash_v1(values: &[PkValueRef<'_>]) -> Epk {
    if values.is_empty() {
        return Epk::min();
    }
    let truncated: Vec<Cow<'_, str>> = values
        .iter()
        .map(|v| match v {
            PkValueRef::Str(s) => v1_truncate(s),
            _ => Cow::Borrowed(""),
        })
        .collect();
    let components: Vec<PkValueRef<'_>> = values
        .iter()
        .zip(&truncated)
        .map(|(v, t)| match v {
            PkValueRef::Str(_) => PkValueRef::Str(t),
            other => *other,
        })
        .collect();
    let mut hash_bytes = Vec::new();
    for &c in &components {
        write_v1_hash_bytes(c, &mut hash_bytes);
    }
    let hash = murmur3_x86_32(&hash_bytes);
    let mut out = Vec::with_capacity(16 + hash_bytes.len());
    encode_v1_number(hash as f64, &mut out);
    for &c in &components {
        write_v1_binary(c, &mut out);
    }
    Epk::from_bytes(&out)
}

// ---------------------------------------------------------------------------------------
// Boundaries of the space

/// The largest V2 hash value, `2^126 - 1`: the numeric stand-in for `"FF"`.
const V2_SPACE_MAX: u128 = (1u128 << 126) - 1;
/// The largest V1 hash value.
const V1_SPACE_MAX: f64 = 4_294_967_295.0;

/// A position in the hash space, as the SDKs' midpoint helpers read an EPK.
fn v2_position(epk: &Epk) -> u128 {
    let b = epk.as_bytes();
    if b.first() == Some(&0xFF) {
        return V2_SPACE_MAX;
    }
    let mut buf = [0u8; 16];
    let n = b.len().min(16);
    buf[..n].copy_from_slice(&b[..n]);
    u128::from_be_bytes(buf)
}

fn v1_position(epk: &Epk) -> f64 {
    match epk.as_bytes() {
        [] => 0.0,
        [0xFF, ..] => V1_SPACE_MAX,
        b => decode_v1_number(b).unwrap_or(0.0),
    }
}

fn v2_boundary(pos: u128) -> Epk {
    Epk::from_bytes(&pos.to_be_bytes())
}

fn v1_boundary(pos: f64) -> Epk {
    let mut out = Vec::with_capacity(10);
    encode_v1_number(pos, &mut out);
    Epk::from_bytes(&out)
}

/// Where `epk` lies in the hash space, as a fraction in `[0, 1)`: the same position the
/// SDKs' midpoint helpers read (leading 16 bytes for V2 and MultiHash, the hash number for V1).
pub fn space_fraction(epk: &Epk, v1: bool) -> f64 {
    let f = if v1 {
        v1_position(epk) / (V1_SPACE_MAX + 1.0)
    } else {
        v2_fraction(epk.as_bytes())
    };
    f.clamp(0.0, 1.0 - f64::EPSILON)
}

/// The V2 position as a fraction from the leading 8 bytes: a double holds 53 bits, so the
/// other 8 would not change it, and a 64-bit conversion is far cheaper than a 128-bit one.
fn v2_fraction(b: &[u8]) -> f64 {
    if b.first() == Some(&0xFF) {
        return 1.0;
    }
    let mut buf = [0u8; 8];
    let n = b.len().min(8);
    buf[..n].copy_from_slice(&b[..n]);
    u64::from_be_bytes(buf) as f64 / (1u64 << 62) as f64
}

/// Slices the hash space is cut into wherever values are counted by position (statistics,
/// projections, replays).
pub const BUCKETS: usize = 1024;

/// The slice of a position in the hash space (a fraction in `[0, 1)`).
#[inline]
pub fn bucket_of(fraction: f64) -> usize {
    ((fraction * BUCKETS as f64) as usize).min(BUCKETS - 1)
}

/// The slice of an EPK: where its position in the hash space (as the SDKs' midpoint
/// helpers read it) falls. Statistics, projections and replays all place values with this.
#[inline]
pub fn slice_of_epk(epk: &Epk, v1: bool) -> usize {
    bucket_of(space_fraction(epk, v1))
}

/// The boundary at `fraction` of the hash space (the inverse of [`space_fraction`]).
pub fn boundary_at(fraction: f64, v1: bool) -> Epk {
    let f = fraction.clamp(0.0, 1.0);
    if f <= 0.0 {
        Epk::min()
    } else if f >= 1.0 {
        Epk::max()
    } else if v1 {
        v1_boundary((f * V1_SPACE_MAX).floor())
    } else {
        v2_boundary((f * V2_SPACE_MAX as f64) as u128)
    }
}

/// The `n - 1` inner boundaries that cut the space into `n` equal ranges, as .NET's
/// `PartitionKeyInternal.GetMinInclusiveEffectivePartitionKey(i, n)` computes them.
pub fn even_boundaries(n: usize, v1: bool) -> Vec<Epk> {
    (1..n.max(1))
        .map(|i| {
            if v1 {
                v1_boundary(((V1_SPACE_MAX as u64 / n as u64) * i as u64) as f64)
            } else {
                v2_boundary((V2_SPACE_MAX / n as u128) * i as u128)
            }
        })
        .collect()
}

/// The EPK at `fraction` (in `[0, 1)`) of the `i`-th of `n` equal ranges of the V2 hash
/// space (the ranges [`even_boundaries`] cuts), with `low` as its last 8 bytes (what tells
/// apart values placed at nearly the same fraction): always inside that range.
pub fn within(i: usize, n: usize, fraction: f64, low: u64) -> Epk {
    let n = n.max(1) as u128;
    let width = V2_SPACE_MAX / n;
    let steps = (width >> 64).max(1);
    let high = ((steps as f64 * fraction.clamp(0.0, 1.0)) as u128).min(steps - 1);
    v2_boundary(width * (i as u128).min(n - 1) + (high << 64 | low as u128))
}

/// The hash midpoint of `[min, max)`, or `None` when the range is too narrow to cut there.
pub fn hash_midpoint(range: &EpkRange, v1: bool) -> Option<Epk> {
    let mid = if v1 {
        let (a, b) = (v1_position(&range.min), v1_position(&range.max));
        v1_boundary((a + (b - a) / 2.0).floor())
    } else {
        let (a, b) = (v2_position(&range.min), v2_position(&range.max));
        v2_boundary(a + (b - a) / 2)
    };
    (range.min < mid && mid < range.max).then_some(mid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_examples_from_the_facts() {
        let redmond = [PkValueRef::Str("redmond")];
        assert_eq!(
            hash_v2(&redmond).to_hex(),
            "22E342F38A486A088463DFF7838A5963"
        );
        assert_eq!(
            hash_v1(&redmond).to_hex(),
            "05C1EFE313830C087366656E706F6500"
        );
    }

    #[test]
    fn v1_number_encoding_examples() {
        for (n, hex) in [
            (5.0, "05C014"),
            (-1.0, "054010"),
            (0.0, "058000"),
            (-0.0, "058000"),
            (5.5, "05C016"),
            (1e308, "05FFE1E73D715F5F2340"),
        ] {
            let mut out = Vec::new();
            encode_v1_number(n, &mut out);
            assert_eq!(Epk::from_bytes(&out).to_hex(), hex, "{n}");
        }
    }

    #[test]
    fn v1_number_decoding_inverts_encoding() {
        for n in [
            0.0,
            1.0,
            -1.0,
            5.5,
            2147483647.0,
            4294967295.0,
            -1e300,
            1e308,
        ] {
            let mut out = Vec::new();
            encode_v1_number(n, &mut out);
            assert_eq!(decode_v1_number(&out), Some(n));
        }
    }

    #[test]
    fn boundaries_match_the_sdk_helper() {
        assert_eq!(
            even_boundaries(2, false)[0].to_hex(),
            "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
        );
        let three: Vec<String> = even_boundaries(3, false).iter().map(Epk::to_hex).collect();
        assert_eq!(
            three,
            [
                "15555555555555555555555555555555",
                "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            ]
        );
        let four: Vec<String> = even_boundaries(4, false).iter().map(Epk::to_hex).collect();
        assert_eq!(four[2], "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD");
        assert_eq!(even_boundaries(2, true)[0].to_hex(), "05C1DFFFFFFFFC");
        assert!(even_boundaries(1, false).is_empty());
    }

    #[test]
    fn midpoint_of_the_whole_space_is_the_two_way_boundary() {
        assert_eq!(
            hash_midpoint(&EpkRange::full(), false),
            Some(even_boundaries(2, false).remove(0))
        );
        assert_eq!(
            hash_midpoint(&EpkRange::full(), true),
            Some(even_boundaries(2, true).remove(0))
        );
        let narrow = EpkRange {
            min: Epk::from_hex("00000000000000000000000000000007").unwrap(),
            max: Epk::from_hex("00000000000000000000000000000008").unwrap(),
        };
        assert_eq!(hash_midpoint(&narrow, false), None);
    }

    #[test]
    fn v1_truncation_counts_utf16_units() {
        let long: String = "é".repeat(150);
        assert_eq!(v1_truncate(&long).chars().count(), 100);
        let emoji: String = "😀".repeat(60);
        // 50 emoji are 100 units; the 51st would pass the limit.
        assert_eq!(v1_truncate(&emoji).chars().count(), 50);
        let odd = format!("a{}", "😀".repeat(60));
        // 'a' + 49 emoji = 99 units; the cut splits the 50th pair: U+FFFD.
        assert!(v1_truncate(&odd).ends_with('\u{FFFD}'));
    }

    #[test]
    fn space_fraction_and_boundary_at_invert() {
        for v1 in [false, true] {
            assert_eq!(space_fraction(&Epk::min(), v1), 0.0);
            assert!(space_fraction(&Epk::max(), v1) < 1.0);
            for f in [0.25, 0.5, 0.75] {
                let back = space_fraction(&boundary_at(f, v1), v1);
                assert!((back - f).abs() < 1e-9, "{v1} {f} {back}");
            }
        }
        let half = space_fraction(&even_boundaries(2, false)[0], false);
        assert!((half - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_digest_gives_the_epk_its_slice_and_its_value_hash() {
        let values = [
            PkValueRef::Str("tenant-0677"),
            PkValueRef::Str(""),
            PkValueRef::Number(711.86),
            PkValueRef::Number(-0.0),
            PkValueRef::Bool(true),
            PkValueRef::Null,
            PkValueRef::Undefined,
        ];
        for (i, v) in (0..2000)
            .map(|i| (i, PkValueRef::Number(i as f64 * 1.37)))
            .chain(values.into_iter().enumerate())
        {
            let d = V2Digest::of(v);
            let epk = hash_v2(&[v]);
            assert_eq!(d.bytes(), epk.as_bytes(), "{i}");
            assert_eq!(d.slice(), slice_of_epk(&epk, false), "{i}");
            assert_eq!(d.h1, crate::stats::value_hash(&epk, false), "{i}");
        }
    }

    #[test]
    fn epks_stay_small() {
        assert!(std::mem::size_of::<Epk>() <= 40);
    }

    #[test]
    fn inline_and_heap_order_agree_with_bytes() {
        let samples: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![1],
            vec![0xFF],
            vec![5; 31],
            vec![5; 32],
            vec![5; 33],
            [vec![5; 32], vec![0]].concat(),
            [vec![5; 16], vec![6]].concat(),
        ];
        for a in &samples {
            for b in &samples {
                let (x, y) = (Epk::from_bytes(a), Epk::from_bytes(b));
                assert_eq!(x.cmp(&y), a.cmp(b), "{a:?} vs {b:?}");
                assert_eq!(x == y, a == b);
            }
        }
    }

    #[test]
    fn epk_order_is_the_hex_string_order() {
        let mut hexes = vec!["", "FF", "05C1", "0DAE", "0DAEFF", "3F", "0DAE00"];
        let mut epks: Vec<Epk> = hexes.iter().map(|h| Epk::from_hex(h).unwrap()).collect();
        hexes.sort();
        epks.sort();
        let back: Vec<String> = epks.iter().map(Epk::to_hex).collect();
        assert_eq!(back, hexes);
    }
}
