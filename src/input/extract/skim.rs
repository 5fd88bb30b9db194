//! The skimming walk: the requested paths' values read straight from a document's text,
//! without building simd-json's tape for members no path needs.
//!
//! Every byte is still checked: a member no path needs is scanned to its end with its
//! strings, escapes, numbers and literals checked by the grammar, and the whole text is
//! checked as UTF-8 first. The walk never rejects: a document it does not accept outright
//! (anything malformed, and the rare valid forms whose reading it leaves to simd-json:
//! escaped names or values on a requested path, surrogate escapes, numbers of more than
//! 17 digits or far exponents, nesting near the limit) is handed back, and the caller parses
//! it in full as before, which accepts it or says where it fails. So what is accepted, the
//! values found and every error's place are the full parser's.

use super::{PathTrie, Visits, assign, bit, head_in};
use crate::engine::PkValueRef;
use crate::field::Field;

/// The document was not accepted outright: parse it in full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unsure;

type Step<T> = Result<T, Unsure>;

/// What one skim found besides the fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Skimmed {
    /// Scalar values in the document (each array element one), less a top-level scalar
    /// `_etag`: the terms of a policy that indexes every path.
    pub scalars: u32,
}

/// A walk over one document's text.
struct Walk<'a, 't> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    trie: &'t PathTrie,
    /// Nesting allowed below the limit (a margin under the parser's).
    depth_left: usize,
    scalars: u32,
    etag: bool,
    /// Open containers of a skipped value: `true` for an object.
    stack: Vec<bool>,
}

impl PathTrie {
    /// Fills `fields` (one per path) from the document `doc`, as [`PathTrie::extract`] does
    /// from its tape; `Err(Unsure)` when the document must be parsed in full (see the
    /// module documentation). `max_depth` is the parser's nesting limit.
    pub fn skim<'a>(
        &self,
        doc: &'a [u8],
        fields: &mut Vec<Field<'a>>,
        v: &mut Visits,
        max_depth: usize,
        stack: &mut Vec<bool>,
    ) -> Result<Skimmed, Unsure> {
        let text = simdutf8::basic::from_utf8(doc).map_err(|_| Unsure)?;
        fields.clear();
        fields.resize(self.paths, Field::Missing);
        self.start(v);
        stack.clear();
        let mut w = Walk {
            text,
            b: doc,
            i: 0,
            trie: self,
            depth_left: max_depth.saturating_sub(2),
            scalars: 0,
            etag: false,
            stack: std::mem::take(stack),
        };
        let walked = w.document(fields, v);
        *stack = std::mem::take(&mut w.stack);
        walked?;
        Ok(Skimmed {
            scalars: w.scalars - u32::from(w.etag),
        })
    }
}

impl<'a> Walk<'a, '_> {
    fn document(&mut self, fields: &mut [Field<'a>], v: &mut Visits) -> Step<()> {
        self.ws();
        if self.peek() != b'{' {
            return Err(Unsure);
        }
        self.object(0, true, fields, v)?;
        self.ws();
        if self.i != self.b.len() {
            return Err(Unsure);
        }
        Ok(())
    }

    #[inline]
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                break;
            }
            self.i += 1;
        }
    }

    #[inline]
    fn expect(&mut self, c: u8) -> Step<()> {
        self.ws();
        if self.peek() != c {
            return Err(Unsure);
        }
        self.i += 1;
        Ok(())
    }

    /// The object at `i` (its `{`) under trie node `n`, whose members some path needs.
    fn object(
        &mut self,
        n: usize,
        root: bool,
        fields: &mut [Field<'a>],
        v: &mut Visits,
    ) -> Step<()> {
        self.enter()?;
        self.i += 1;
        self.ws();
        if self.peek() == b'}' {
            self.i += 1;
            self.depth_left += 1;
            return Ok(());
        }
        let mut k = 0;
        loop {
            self.ws();
            if self.peek() != b'"' {
                return Err(Unsure);
            }
            let start = self.i + 1;
            let (name, escaped) = self.string()?;
            if escaped {
                return Err(Unsure);
            }
            self.expect(b':')?;
            self.ws();
            if root && name == b"_etag" && !matches!(self.peek(), b'{' | b'[') {
                self.etag = true;
            }
            let h = head_in(self.b, start, name.len());
            match self.trie.member_headed(n, k, name, h, v) {
                Some(child) => self.visit(child, fields, v)?,
                None => self.skip_value()?,
            }
            k += 1;
            self.ws();
            match self.peek() {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    self.depth_left += 1;
                    return Ok(());
                }
                _ => return Err(Unsure),
            }
        }
    }

    /// The value at `i`, reached at trie node `n`.
    fn visit(&mut self, n: usize, fields: &mut [Field<'a>], v: &mut Visits) -> Step<()> {
        let node = &self.trie.nodes[n];
        if v.stamp[n] == v.doc {
            // A repeated property: the last occurrence wins, whole.
            for &t in &node.below {
                fields[t] = Field::Missing;
                v.beyond &= !bit(t);
            }
        }
        v.stamp[n] = v.doc;
        let c = self.peek();
        if !node.targets.is_empty() {
            let (f, beyond) = match c {
                b'{' => (Field::Object, false),
                b'[' => (Field::Array, false),
                _ => self.scalar()?,
            };
            assign(&node.targets, f, beyond, fields, v);
            if !matches!(c, b'{' | b'[') {
                return Ok(());
            }
        }
        if c == b'{' && !node.children.is_empty() {
            self.object(n, false, fields, v)
        } else {
            self.skip_value()
        }
    }

    /// One more level of nesting.
    #[inline]
    fn enter(&mut self) -> Step<()> {
        self.depth_left = self.depth_left.checked_sub(1).ok_or(Unsure)?;
        Ok(())
    }

    /// A scalar value a path needs, and whether it is an integer literal beyond ±2^53.
    fn scalar(&mut self) -> Step<(Field<'a>, bool)> {
        self.scalars += 1;
        let value = match self.peek() {
            b'"' => {
                let start = self.i + 1;
                let (_, escaped) = self.string()?;
                if escaped {
                    return Err(Unsure);
                }
                let s = self.text.get(start..self.i - 1).ok_or(Unsure)?;
                return Ok((Field::Scalar(PkValueRef::Str(s)), false));
            }
            b't' => self.literal(b"true", PkValueRef::Bool(true))?,
            b'f' => self.literal(b"false", PkValueRef::Bool(false))?,
            b'n' => self.literal(b"null", PkValueRef::Null)?,
            _ => {
                let (n, beyond) = self.number()?.ok_or(Unsure)?;
                return Ok((Field::Scalar(PkValueRef::Number(n)), beyond));
            }
        };
        Ok((Field::Scalar(value), false))
    }

    fn literal(&mut self, word: &[u8], value: PkValueRef<'a>) -> Step<PkValueRef<'a>> {
        if !self.b[self.i..].starts_with(word) {
            return Err(Unsure);
        }
        self.i += word.len();
        Ok(value)
    }

    /// Skips the value at `i`, checking all of it; containers are walked with an explicit
    /// stack, so that deep nesting costs no recursion.
    fn skip_value(&mut self) -> Step<()> {
        let base = self.stack.len();
        loop {
            // At the start of a value.
            match self.peek() {
                c @ (b'{' | b'[') => {
                    self.enter()?;
                    self.i += 1;
                    self.ws();
                    let close = if c == b'{' { b'}' } else { b']' };
                    if self.peek() == close {
                        self.i += 1;
                        self.depth_left += 1;
                    } else {
                        self.stack.push(c == b'{');
                        if c == b'{' {
                            self.member_name()?;
                        }
                        continue;
                    }
                }
                b'"' => {
                    self.scalars += 1;
                    self.string()?;
                }
                b't' => self.skip_literal(b"true")?,
                b'f' => self.skip_literal(b"false")?,
                b'n' => self.skip_literal(b"null")?,
                _ => {
                    self.scalars += 1;
                    self.number()?;
                }
            }
            // After a value: close containers until one goes on.
            loop {
                if self.stack.len() == base {
                    return Ok(());
                }
                let object = self.stack[self.stack.len() - 1];
                self.ws();
                match (self.peek(), object) {
                    (b',', _) => {
                        self.i += 1;
                        self.ws();
                        if object {
                            self.member_name()?;
                        }
                        break;
                    }
                    (b'}', true) | (b']', false) => {
                        self.i += 1;
                        self.depth_left += 1;
                        self.stack.pop();
                    }
                    _ => return Err(Unsure),
                }
            }
        }
    }

    /// A skipped object's member name and colon, leaving `i` at its value.
    fn member_name(&mut self) -> Step<()> {
        if self.peek() != b'"' {
            return Err(Unsure);
        }
        self.string()?;
        self.expect(b':')?;
        self.ws();
        Ok(())
    }

    fn skip_literal(&mut self, word: &[u8]) -> Step<()> {
        self.scalars += 1;
        if !self.b[self.i..].starts_with(word) {
            return Err(Unsure);
        }
        self.i += word.len();
        Ok(())
    }

    /// The string at `i` (its opening quote): its raw content and whether it holds an
    /// escape; `i` ends after the closing quote. Escapes are checked; a surrogate escape is
    /// left to the parser, and so is a control character.
    #[inline(always)]
    fn string(&mut self) -> Step<(&'a [u8], bool)> {
        let b = self.b;
        let start = self.i + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            i = special(b, i);
            match b.get(i) {
                Some(b'"') => {
                    self.i = i + 1;
                    return Ok((&b[start..i], escaped));
                }
                Some(b'\\') => {
                    escaped = true;
                    i = escape(b, i + 1)?;
                }
                _ => return Err(Unsure),
            }
        }
    }

    /// The number at `i`: its value and whether it is an integer literal beyond ±2^53 when
    /// this walk reads it as the parser does, `None` when that is left to the parser (a
    /// skipped number needs only its grammar); `Err` when it is not a number it accepts
    /// outright.
    fn number(&mut self) -> Step<Option<(f64, bool)>> {
        let b = self.b;
        let mut i = self.i;
        let negative = b.get(i) == Some(&b'-');
        i += usize::from(negative);
        let (mut mantissa, mut digits) = (0u64, 0usize);
        let leading_zero = b.get(i) == Some(&b'0');
        while let Some(&c @ b'0'..=b'9') = b.get(i) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            digits += 1;
            i += 1;
            if leading_zero {
                break;
            }
        }
        if digits == 0 {
            return Err(Unsure);
        }
        let mut fraction = 0usize;
        if b.get(i) == Some(&b'.') {
            i += 1;
            while let Some(&c @ b'0'..=b'9') = b.get(i) {
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                fraction += 1;
                i += 1;
            }
            if fraction == 0 {
                return Err(Unsure);
            }
        }
        let (exponent, has_exponent) = match b.get(i) {
            Some(b'e' | b'E') => (exponent(b, &mut i)?, true),
            _ => (0, false),
        };
        if digits + fraction > 17 {
            return Err(Unsure);
        }
        self.i = i;
        if fraction == 0 && !has_exponent {
            // An integer: the parser's I64 or U64, as a double (`-0` is +0).
            let value = if negative {
                -(mantissa as i64) as f64
            } else {
                mantissa as f64
            };
            return Ok(Some((value, mantissa > 1 << 53)));
        }
        // A decimal whose digits and power of ten are both exact doubles: the quotient or
        // product is correctly rounded, and it is the parser's own fast reading.
        let power = exponent - fraction as i64;
        if mantissa > MAX_EXACT || !(-22..=22).contains(&power) {
            return Ok(None);
        }
        let scale = POW10[power.unsigned_abs() as usize];
        let magnitude = if power < 0 {
            mantissa as f64 / scale
        } else {
            mantissa as f64 * scale
        };
        Ok(Some((if negative { -magnitude } else { magnitude }, false)))
    }
}

/// The largest integer below 2^53: every integer up to it is an exact double.
const MAX_EXACT: u64 = (1 << 53) - 1;

/// The powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The exponent whose `e` is at `*i`, leaving `*i` after it: at most two digits (far
/// exponents, which round to zero or overflow, are the parser's).
fn exponent(b: &[u8], i: &mut usize) -> Step<i64> {
    *i += 1;
    let negative = b.get(*i) == Some(&b'-');
    if matches!(b.get(*i), Some(b'-' | b'+')) {
        *i += 1;
    }
    let start = *i;
    let mut e = 0i64;
    while let Some(&c @ b'0'..=b'9') = b.get(*i) {
        // Any number of digits: past three the value no longer matters.
        e = (e * 10 + i64::from(c - b'0')).min(1000);
        *i += 1;
    }
    if *i == start || *i - start > 2 {
        return Err(Unsure);
    }
    Ok(if negative { -e } else { e })
}

/// The index of the first byte from `i` that is a quote, a backslash or a control
/// character (or the end): sixteen bytes at a time where SSE2 is (every x86-64), then
/// eight at a time.
#[inline]
fn special(b: &[u8], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of every x86-64.
    let i = match unsafe { special_sse2(b, i) } {
        Ok(found) => return found,
        Err(rest) => rest,
    };
    special_swar(b, i)
}

/// The special byte from `i`, found sixteen bytes at a time: `Err` with where fewer than
/// sixteen are left when none is found before.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn special_sse2(b: &[u8], mut i: usize) -> Result<usize, usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let quote = _mm_set1_epi8(b'"' as i8);
    let backslash = _mm_set1_epi8(b'\\' as i8);
    let below_space = _mm_set1_epi8(0x1f);
    while let Some(block) = b.get(i..i + 16) {
        // SAFETY: `block` is sixteen readable bytes, and the load needs no alignment.
        let v = unsafe { _mm_loadu_si128(block.as_ptr().cast::<__m128i>()) };
        // A control character is one whose unsigned maximum with 0x1F is 0x1F.
        let control = _mm_cmpeq_epi8(_mm_max_epu8(v, below_space), below_space);
        let hits = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
            control,
        );
        let m = _mm_movemask_epi8(hits) as u32;
        if m != 0 {
            return Ok(i + m.trailing_zeros() as usize);
        }
        i += 16;
    }
    Err(i)
}

/// The special byte from `i`, found eight bytes at a time.
#[inline]
fn special_swar(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    while let Some(block) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(block.try_into().expect("8 bytes"));
        // Below 0x20: the byte minus 0x20 borrows into its high bit (bytes of 0x80 and up
        // have it set already and are masked out by `!v`).
        let m = zero(v ^ (ONES * u64::from(b'"')))
            | zero(v ^ (ONES * u64::from(b'\\')))
            | (v.wrapping_sub(ONES * 0x20) & !v & HIGH);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// The index after the escape whose letter is at `i`.
#[inline]
fn escape(b: &[u8], i: usize) -> Step<usize> {
    match b.get(i) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 1),
        Some(b'u') => {
            let hex = b.get(i + 1..i + 5).ok_or(Unsure)?;
            let mut code = 0u32;
            for &h in hex {
                let d = (h as char).to_digit(16).ok_or(Unsure)?;
                code = code * 16 + d;
            }
            if (0xD800..0xE000).contains(&code) {
                return Err(Unsure);
            }
            Ok(i + 5)
        }
        _ => Err(Unsure),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::KeyPath;

    /// Fields, terms and integers beyond ±2^53 of one document.
    type Read = (String, u32, u64);

    /// What the walk reads (if it accepts the document), and the tape walk after a full
    /// parse.
    fn both(doc: &str, paths: &[&str]) -> (Option<Read>, Read) {
        let paths: Vec<KeyPath> = paths.iter().map(|p| KeyPath::parse(p).unwrap()).collect();
        let trie = PathTrie::new(&paths);
        let (mut fields, mut v, mut stack) = (Vec::new(), Visits::default(), Vec::new());
        let skimmed = trie
            .skim(doc.as_bytes(), &mut fields, &mut v, 128, &mut stack)
            .ok()
            .map(|s| (format!("{fields:?}"), s.scalars, v.beyond));
        let mut bytes = doc.as_bytes().to_vec();
        let tape = simd_json::to_tape(&mut bytes).unwrap();
        let mut fields = Vec::new();
        let mut v = Visits::default();
        trie.extract(&tape.0, &mut fields, &mut v);
        let policy = crate::indexing::IndexingPolicy::default();
        let terms = crate::input::terms::count(&tape.0, &policy);
        (skimmed, (format!("{fields:?}"), terms, v.beyond))
    }

    /// Ordinary documents are read by the walk itself, as the parser reads them.
    #[test]
    fn ordinary_documents_are_skimmed_to_the_same_fields() {
        let docs = [
            r#"{"id":"a-1","t":"x","n":{"a":[1,2,{"b":null}],"c":true},"v":-12.5e3,"w":0}"#,
            r#"{ "t" : "é😀" , "n" : { "c" : false } , "_etag" : "\"0a\"" , "id" : "b" }"#,
            r#"{"id":"c","n":{"c":{"deep":[[],{}]}},"t":9007199254740993,"v":1e-7}"#,
            r#"{"id":"d","t":"x","t":{"y":1},"n":1,"n":{"c":"last"},"z":"\\ \n \u00e9"}"#,
            r#"{"_etag":1,"_etag":[1],"id":"e","v":-0}"#,
        ];
        let paths = ["/id", "/t", "/n/c", "/v", "/missing", "/n"];
        for doc in docs {
            let (skimmed, full) = both(doc, &paths);
            assert_eq!(skimmed, Some(full), "{doc}");
        }
    }

    #[test]
    fn what_the_walk_leaves_to_the_parser() {
        let paths = ["/a", "/b"];
        for doc in [
            r#"{"a":"x\"y"}"#,
            r#"{"\u0061":1}"#,
            r#"{"z":"\ud83d\ude00"}"#,
            r#"{"a":123456789012345678}"#,
            r#"{"a":1e100}"#,
            r#"{"a":0.1234567890123456789}"#,
        ] {
            assert_eq!(both(doc, &paths).0, None, "{doc}");
        }
        // Skipped members need only be valid: escapes, long numbers and far exponents
        // outside the paths do not stop the walk unless it must read them.
        let (skimmed, full) = both(r#"{"z":"x\"y\n","a":1,"y":[1.25e-5]}"#, &paths);
        assert_eq!(skimmed, Some(full));
    }

    #[test]
    fn special_bytes_are_found_in_any_lane() {
        for len in 0..40 {
            for at in 0..=len {
                for c in [b'"', b'\\', 0x00, 0x1f] {
                    let mut b = vec![b'a'; len];
                    b.extend_from_slice(&[0xC3, 0xA9, 0x7F, 0x20]);
                    if at < b.len() {
                        b[at] = c;
                    }
                    let slow = b.iter().position(|&x| x == b'"' || x == b'\\' || x < 0x20);
                    assert_eq!(special(&b, 0), slow.unwrap_or(b.len()), "{len} {at} {c}");
                }
            }
        }
    }
}
