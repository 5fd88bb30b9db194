//! Key values from document fields: each level's component, with synthetic levels written
//! into caller-owned scratch strings so that evaluating a document allocates nothing once
//! the scratch has grown. Also which levels an application that knows some paths can compute.
//!
//! The rules for synthetic values are in the [module documentation](super).

use crate::mix::splitmix64;
use std::fmt::Write;

use crate::engine::definition::MAX_LEVELS;
use crate::engine::murmur::murmur3_x64_128;
use crate::engine::{KeyPath, PkValue, PkValueRef};
use crate::field::Field;

use super::spec::{KeyLevel, KeySpec};

/// Reusable buffers for synthetic levels, one per level. Start with `Default::default()`
/// and pass the same one for every document.
pub type Scratch = [String; MAX_LEVELS];

/// A full key value: one component per level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Components<'x> {
    values: [PkValueRef<'x>; MAX_LEVELS],
    len: usize,
}

impl<'x> Components<'x> {
    /// The components, top level first.
    pub fn as_slice(&self) -> &[PkValueRef<'x>] {
        &self.values[..self.len]
    }

    /// Owned copies of the components.
    pub fn to_owned_values(&self) -> Vec<PkValue> {
        self.as_slice().iter().map(|v| v.to_owned_value()).collect()
    }
}

/// The key value of one document.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeyValue<'x> {
    /// One component per level (`undefined` for a level whose input is missing).
    Components(Components<'x>),
    /// Some level read an object or an array, which cannot be (part of) a key.
    Invalid,
}

/// Why a synthetic level has no text.
enum Stop {
    Undefined,
    Invalid,
}

impl KeySpec {
    /// The key value of a document whose field at `self.inputs()[i]` is `fields[i]`.
    ///
    /// `ordinal` numbers the document (its write) and `seed` the run: together they fix the
    /// `rand_suffix` draws. Synthetic text goes into `scratch`, which the result borrows.
    ///
    /// # Panics
    ///
    /// If `fields` is shorter than [`KeySpec::inputs`].
    pub fn evaluate<'x>(
        &self,
        fields: &[Field<'x>],
        ordinal: u64,
        seed: u64,
        scratch: &'x mut Scratch,
    ) -> KeyValue<'x> {
        // The common case, one plain path: no slots, no scratch.
        if let [KeyLevel::Path(_)] = self.levels() {
            let mut values = [PkValueRef::Undefined; MAX_LEVELS];
            return match fields[self.slots(0)[0]].component() {
                Some(v) => {
                    values[0] = v;
                    KeyValue::Components(Components { values, len: 1 })
                }
                None => KeyValue::Invalid,
            };
        }
        self.evaluate_slots(|slot| fields[slot], Draw { ordinal, seed }, scratch)
    }

    /// [`KeySpec::evaluate`] with the fields looked up by path.
    pub fn evaluate_with<'x>(
        &self,
        field: impl Fn(&KeyPath) -> Field<'x>,
        ordinal: u64,
        seed: u64,
        scratch: &'x mut Scratch,
    ) -> KeyValue<'x> {
        let inputs = self.inputs();
        let draw = Draw { ordinal, seed };
        self.evaluate_slots(|slot| field(&inputs[slot]), draw, scratch)
    }

    fn evaluate_slots<'x>(
        &self,
        field: impl Fn(usize) -> Field<'x>,
        draw: Draw,
        scratch: &'x mut Scratch,
    ) -> KeyValue<'x> {
        let mut values = [PkValueRef::Undefined; MAX_LEVELS];
        let mut written = [false; MAX_LEVELS];
        for (i, level) in self.levels().iter().enumerate() {
            let slots = self.slots(i);
            if let KeyLevel::Path(_) = level {
                match field(slots[0]).component() {
                    Some(v) => values[i] = v,
                    None => return KeyValue::Invalid,
                }
                continue;
            }
            let out = &mut scratch[i];
            match synthesize((i, level), slots, &field, draw, out) {
                Ok(()) => written[i] = true,
                Err(Stop::Undefined) => {}
                Err(Stop::Invalid) => return KeyValue::Invalid,
            }
        }
        let scratch: &'x Scratch = scratch;
        for (i, text) in scratch.iter().enumerate().filter(|&(i, _)| written[i]) {
            values[i] = PkValueRef::Str(text);
        }
        let len = self.levels().len();
        KeyValue::Components(Components { values, len })
    }

    /// For each level, whether an application that knows the paths `known` accepts can
    /// compute its value: used to route point reads.
    pub fn is_known(&self, known: impl Fn(&KeyPath) -> bool) -> Knowledge {
        let levels = self
            .levels()
            .iter()
            .map(|level| {
                let all = level.inputs().into_iter().all(&known);
                match level {
                    KeyLevel::RandSuffix { n, .. } if all => LevelKnowledge::AnyOf(*n),
                    // The base known, the suffix's source not: any of the n suffixes, as
                    // for a random suffix.
                    KeyLevel::HashSuffix { path, n, .. } if !all && known(path) => {
                        LevelKnowledge::AnyOf(*n)
                    }
                    _ if !all => LevelKnowledge::Unknown,
                    _ => LevelKnowledge::Known,
                }
            })
            .collect();
        Knowledge { levels }
    }
}

/// Whether one level's value can be computed from what the application knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelKnowledge {
    /// Every input is known: the value is fixed.
    Known,
    /// Some input is unknown.
    Unknown,
    /// A `rand_suffix` whose input is known, or a `hash_suffix` whose base is known but
    /// not the property its suffix is hashed from: the value is one of `n`, so reads must
    /// visit every suffix value.
    AnyOf(u32),
}

/// Per-level [`LevelKnowledge`] of a key, top level first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    levels: Vec<LevelKnowledge>,
}

impl Knowledge {
    /// The knowledge of each level.
    pub fn levels(&self) -> &[LevelKnowledge] {
        &self.levels
    }

    /// Whether every level is [`LevelKnowledge::Known`]: one full key value.
    pub fn is_full(&self) -> bool {
        self.levels.iter().all(|l| *l == LevelKnowledge::Known)
    }

    /// How many full key values the knowledge leaves possible, when no level is unknown:
    /// the product of the `AnyOf` counts (1 when every level is known).
    pub fn value_count(&self) -> Option<u64> {
        self.levels.iter().try_fold(1u64, |acc, l| match l {
            LevelKnowledge::Known => Some(acc),
            LevelKnowledge::AnyOf(n) => Some(acc.saturating_mul(u64::from(*n))),
            LevelKnowledge::Unknown => None,
        })
    }
}

/// What fixes the `rand_suffix` draws of one document.
#[derive(Clone, Copy)]
struct Draw {
    ordinal: u64,
    seed: u64,
}

impl Draw {
    /// The suffix of `rand_suffix` level `level`: SplitMix64 output `3 × ordinal + level`,
    /// so each document has its own draw for each level.
    fn suffix(self, level: usize, n: u32) -> u32 {
        let index = self.ordinal.wrapping_mul(MAX_LEVELS as u64);
        rand_suffix(self.seed, index.wrapping_add(level as u64), n)
    }
}

/// Writes synthetic level `index`'s text into `out`.
fn synthesize<'x>(
    (index, level): (usize, &KeyLevel),
    slots: &[usize],
    field: &impl Fn(usize) -> Field<'x>,
    draw: Draw,
    out: &mut String,
) -> Result<(), Stop> {
    let is_invalid = |&s: &usize| matches!(field(s), Field::Object | Field::Array);
    if slots.iter().any(is_invalid) {
        return Err(Stop::Invalid);
    }
    out.clear();
    let text = |k: usize, out: &mut String| push_input(field(slots[k]), out);
    match level {
        KeyLevel::Path(_) => unreachable!("path levels are not synthetic"),
        KeyLevel::Concat(_) => {
            for k in 0..slots.len() {
                if k > 0 {
                    out.push('-');
                }
                text(k, out)?;
            }
        }
        KeyLevel::RandSuffix { n, .. } => {
            text(0, out)?;
            push_suffix(out, draw.suffix(index, *n));
        }
        KeyLevel::HashSuffix { n, .. } => {
            text(0, out)?;
            let start = out.len();
            text(1, out)?;
            let suffix = hash_suffix(&out[start..], *n);
            out.truncate(start);
            push_suffix(out, suffix);
        }
    }
    Ok(())
}

/// Appends the text of one input, or says why there is none.
fn push_input(field: Field<'_>, out: &mut String) -> Result<(), Stop> {
    match field {
        Field::Scalar(PkValueRef::Undefined) | Field::Missing => Err(Stop::Undefined),
        Field::Scalar(v) => {
            write_text(v, out);
            Ok(())
        }
        Field::Object | Field::Array => Err(Stop::Invalid),
    }
}

fn push_suffix(out: &mut String, suffix: u32) {
    write!(out, ".{suffix}").expect("writing to a String");
}

/// The `index`-th output (from 0) of SplitMix64 seeded with `seed`, mod `n`, plus 1.
pub fn rand_suffix(seed: u64, index: u64, n: u32) -> u32 {
    (splitmix64(seed, index) % u64::from(n)) as u32 + 1
}

/// `h1` of MurmurHash3 x64_128 (seed 0) over the UTF-8 bytes of `text`, mod `n`, plus 1.
pub fn hash_suffix(text: &str, n: u32) -> u32 {
    let (h1, _) = murmur3_x64_128(text.as_bytes());
    (h1 % u64::from(n)) as u32 + 1
}

/// Appends the text form of a scalar: strings as they are, `true`/`false`/`null` as words,
/// numbers as JavaScript's `String(number)` writes them.
pub fn write_text(value: PkValueRef<'_>, out: &mut String) {
    match value {
        PkValueRef::Str(s) => out.push_str(s),
        PkValueRef::Number(n) => write_number(n, out),
        PkValueRef::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        PkValueRef::Null => out.push_str("null"),
        PkValueRef::Undefined => out.push_str("undefined"),
    }
}

/// Appends `x` as ECMAScript's Number::toString does: the shortest digits that round-trip,
/// plain decimal for magnitudes in [1e-6, 1e21), exponent form (`1e+21`, `1.5e-7`) outside,
/// `0` for both zeros.
pub fn write_number(x: f64, out: &mut String) {
    if x == 0.0 {
        out.push('0');
    } else if x.is_nan() {
        out.push_str("NaN");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        write!(out, "{}", x as i64).expect("writing to a String");
    } else {
        if x < 0.0 {
            out.push('-');
        }
        let mut sci = StackText::default();
        write!(sci, "{:e}", x.abs()).expect("fits in 32 bytes");
        let (mantissa, exponent) = sci.as_str().split_once('e').expect("{:e} has an 'e'");
        let exponent: i32 = exponent.parse().expect("{:e} exponent");
        let mut digits = StackText::default();
        for c in mantissa.chars().filter(char::is_ascii_digit) {
            digits.push(c as u8);
        }
        write_digits(digits.as_str(), exponent + 1, out);
    }
}

/// ECMAScript's layout of digits `d` (k of them, no leading zero) times 10^(n-k).
fn write_digits(d: &str, n: i32, out: &mut String) {
    let k = d.len() as i32;
    if k <= n && n <= 21 {
        out.push_str(d);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        let (int, frac) = d.split_at(n as usize);
        write!(out, "{int}.{frac}").expect("writing to a String");
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(d);
    } else {
        let (first, rest) = d.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let sign = if n > 0 { '+' } else { '-' };
        write!(out, "{first}{dot}{rest}e{sign}{}", (n - 1).abs()).expect("writing to a String");
    }
}

/// A few bytes of ASCII text on the stack, to take `{:e}` apart without allocating.
#[derive(Default)]
struct StackText {
    buf: [u8; 32],
    len: usize,
}

impl StackText {
    fn push(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).expect("ASCII")
    }
}

impl Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document as (path, field) pairs; unlisted paths are missing.
    fn doc<'d>(pairs: &'d [(&str, Field<'d>)]) -> impl Fn(&KeyPath) -> Field<'d> {
        move |p: &KeyPath| {
            let text = p.to_string();
            pairs
                .iter()
                .find(|(q, _)| *q == text)
                .map_or(Field::Missing, |(_, f)| *f)
        }
    }

    fn str(s: &str) -> Field<'_> {
        Field::Scalar(PkValueRef::Str(s))
    }

    fn num(n: f64) -> Field<'static> {
        Field::Scalar(PkValueRef::Number(n))
    }

    /// The owned key value of a document at ordinal 0, seed 1 (`None` when invalid).
    fn eval(spec: &str, pairs: &[(&str, Field<'_>)]) -> Option<Vec<PkValue>> {
        let spec = KeySpec::parse(spec).unwrap();
        let mut scratch = Scratch::default();
        match spec.evaluate_with(doc(pairs), 0, 1, &mut scratch) {
            KeyValue::Components(c) => Some(c.to_owned_values()),
            KeyValue::Invalid => None,
        }
    }

    fn s(text: &str) -> PkValue {
        PkValue::String(text.to_owned())
    }

    #[test]
    fn numbers_print_as_javascript_does() {
        for (x, text) in [
            (42.0, "42"),
            (-7.0, "-7"),
            (1.5, "1.5"),
            (0.0, "0"),
            (-0.0, "0"),
            (123.456, "123.456"),
            (0.1 + 0.2, "0.30000000000000004"),
            (9007199254740992.0, "9007199254740992"),
            (1e15, "1000000000000000"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e21, "1e+21"),
            (-1.5e300, "-1.5e+300"),
            (f64::MAX, "1.7976931348623157e+308"),
            (0.000001, "0.000001"),
            (0.0000012, "0.0000012"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (5e-324, "5e-324"),
        ] {
            let mut out = String::new();
            write_number(x, &mut out);
            assert_eq!(out, text, "{x:e}");
        }
    }

    #[test]
    fn plain_paths_borrow_the_document() {
        let spec = KeySpec::parse("/t,/n").unwrap();
        let fields = [str("acme"), num(3.0)];
        let mut scratch = Scratch::default();
        let KeyValue::Components(c) = spec.evaluate(&fields, 0, 0, &mut scratch) else {
            panic!("valid");
        };
        assert_eq!(
            c.as_slice(),
            [PkValueRef::Str("acme"), PkValueRef::Number(3.0)]
        );
        assert!(scratch.iter().all(|s| s.capacity() == 0), "no allocation");
        assert_eq!(eval("/t", &[]), Some(vec![PkValue::Undefined]));
        assert_eq!(eval("/t", &[("/t", Field::Object)]), None);
        assert_eq!(eval("/a,/t", &[("/t", Field::Array)]), None);
    }

    #[test]
    fn concat_joins_texts_with_dashes() {
        let pairs = [("/deviceId", str("dev1")), ("/date", num(20240101.0))];
        assert_eq!(
            eval("concat(/deviceId,/date)", &pairs),
            Some(vec![s("dev1-20240101")])
        );
        let words = [
            ("/a", Field::Scalar(PkValueRef::Bool(true))),
            ("/b", Field::Scalar(PkValueRef::Null)),
            ("/c", num(-0.5)),
        ];
        assert_eq!(
            eval("concat(/a,/b,/c)", &words),
            Some(vec![s("true-null--0.5")])
        );
    }

    #[test]
    fn missing_inputs_are_undefined_and_objects_invalid() {
        let pairs = [("/a", str("x")), ("/o", Field::Object)];
        assert_eq!(
            eval("concat(/a,/b)", &pairs),
            Some(vec![PkValue::Undefined])
        );
        assert_eq!(
            eval("hash_suffix(/a,/b,9)", &pairs),
            Some(vec![PkValue::Undefined])
        );
        assert_eq!(
            eval("rand_suffix(/b,9)", &pairs),
            Some(vec![PkValue::Undefined])
        );
        assert_eq!(eval("concat(/b,/o)", &pairs), None, "invalid wins");
        assert_eq!(eval("hash_suffix(/a,/o,9)", &pairs), None);
        assert_eq!(
            eval("/a,concat(/a,/b)", &pairs),
            Some(vec![s("x"), PkValue::Undefined])
        );
    }

    #[test]
    fn hash_suffix_is_deterministic_and_in_range() {
        assert_eq!(hash_suffix("", 400), 1, "h1 of no bytes is 0");
        let pairs = [("/date", str("2024-01-01")), ("/vin", str("VIN1"))];
        let expected = format!("2024-01-01.{}", hash_suffix("VIN1", 400));
        assert_eq!(
            eval("hash_suffix(/date,/vin,400)", &pairs),
            Some(vec![s(&expected)])
        );
        let numeric = [("/date", num(1.0)), ("/vin", num(42.0))];
        let expected = format!("1.{}", hash_suffix("42", 7));
        assert_eq!(
            eval("hash_suffix(/date,/vin,7)", &numeric),
            Some(vec![s(&expected)])
        );
        let mut seen = [0u32; 7];
        for i in 0..1000 {
            let suffix = hash_suffix(&format!("VIN{i}"), 7);
            assert!((1..=7).contains(&suffix));
            seen[suffix as usize - 1] += 1;
        }
        assert!(seen.iter().all(|&c| c > 100), "{seen:?}");
        assert_eq!(hash_suffix("anything", 1), 1);
    }

    #[test]
    fn rand_suffix_is_reproducible_and_uniform() {
        let spec = KeySpec::parse("rand_suffix(/d,10)").unwrap();
        let fields = [str("day")];
        let mut counts = [0u32; 10];
        let mut scratch = Scratch::default();
        for ordinal in 0..10_000 {
            let KeyValue::Components(c) = spec.evaluate(&fields, ordinal, 7, &mut scratch) else {
                panic!("valid");
            };
            let PkValueRef::Str(text) = c.as_slice()[0] else {
                panic!("string")
            };
            let suffix: usize = text.strip_prefix("day.").unwrap().parse().unwrap();
            counts[suffix - 1] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..=1200).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(rand_suffix(7, 3, 400), rand_suffix(7, 3, 400));
        assert!((0..100).any(|i| rand_suffix(1, i, 400) != rand_suffix(2, i, 400)));
    }

    #[test]
    fn each_rand_suffix_level_draws_its_own_number() {
        let spec = KeySpec::parse("rand_suffix(/a,1000),rand_suffix(/b,1000)").unwrap();
        let fields = [num(1.0), num(1.0)];
        let mut scratch = Scratch::default();
        let differ =
            (0..20).any(
                |ordinal| match spec.evaluate(&fields, ordinal, 0, &mut scratch) {
                    KeyValue::Components(c) => c.as_slice()[0] != c.as_slice()[1],
                    KeyValue::Invalid => false,
                },
            );
        assert!(differ);
    }

    #[test]
    fn knowledge_per_level() {
        use LevelKnowledge::*;
        let knows = |spec: &str, known: &[&str]| {
            let spec = KeySpec::parse(spec).unwrap();
            spec.is_known(|p| known.contains(&p.to_string().as_str()))
        };
        let k = knows(
            "/t,concat(/a,/b),rand_suffix(/d,40)",
            &["/t", "/a", "/b", "/d"],
        );
        assert_eq!(k.levels(), [Known, Known, AnyOf(40)]);
        assert!(!k.is_full());
        assert_eq!(k.value_count(), Some(40));
        let k = knows(
            "/t,concat(/a,/b),hash_suffix(/d,/v,9)",
            &["/t", "/a", "/d", "/v"],
        );
        assert_eq!(k.levels(), [Known, Unknown, Known]);
        assert_eq!(k.value_count(), None);
        // The base of a hash suffix known, its source not: one of the 9 suffixes.
        let k = knows("/t,hash_suffix(/d,/v,9)", &["/t", "/d"]);
        assert_eq!(k.levels(), [Known, AnyOf(9)]);
        assert_eq!(k.value_count(), Some(9));
        assert_eq!(knows("hash_suffix(/d,/v,9)", &["/v"]).levels(), [Unknown]);
        let k = knows("hash_suffix(/d,/v,9)", &["/d", "/v"]);
        assert!(k.is_full());
        assert_eq!(k.value_count(), Some(1));
        assert_eq!(knows("rand_suffix(/d,9)", &[]).levels(), [Unknown]);
    }
}
