//! DocumentDB-era client-side layouts (`--layout SPEC`): before containers partitioned
//! themselves, applications spread data over fixed-size collections, each a single
//! partition, with a resolver in the client that picks the collection of every document
//! and of every request.
//!
//! | spec | collections | a document goes to | a request reaches |
//! |---|---|---|---|
//! | `spillover[:SIZE]` | as many as the data needs, each filled to 90% of SIZE | the newest collection | every collection |
//! | `range:/p=A..M,N..Z` | one per range | the first range holding its value | the collections of the values it fixes, else all |
//! | `lookup:/p=FILE` | one per collection FILE names | the collection FILE maps its value to (`"*"`: any other value) | as for `range` |
//! | `hash:/p=N` | `N` | the one of `N` equal ranges of the hash space holding its value's EPK | as for `range` |
//!
//! Ranges: `lo..hi` holds a string `v` when `lo <= v` and `v` either sorts at or below `hi`
//! or starts with it (byte order), so `A..M` holds `Mary` and `2026-01..2026-03` holds
//! `2026-03-31T23:59:59Z`; and a number when `lo <= v <= hi` numerically. A range whose
//! bounds are all numbers holds numbers only. A bound may be left out (`..M`, `N..`), and
//! one value stands for the range of itself (`2026-06`, and so `acme` holds `acme-010`:
//! exact ids belong in a lookup). Other values (booleans, null, a missing path) are in no
//! range. A lookup matches a value by its text (as `concat` writes it).
//!
//! A value the resolver cannot place (outside every range, absent from the map without a
//! `"*"` entry, an object or array) is one the application could not store: the advisor
//! reports it as a violation.

use std::collections::BTreeMap;
use std::fmt;

use crate::engine::epk::{self, space_fraction};
use crate::engine::{Epk, GB, KeyPath, PartitionKeyDefinition, PkValueRef, Tier};

use super::eval::write_text;

/// A spillover layout opens the next collection when the newest reaches this share of its
/// size.
pub const SPILL_AT: f64 = 0.9;
/// The most collections a layout may have (ranges, lookup names, `N` of `hash`, or what a
/// spillover needs at the target).
pub const MAX_COLLECTIONS: usize = 10_000;

/// One bound of a range: its text, and its number when the text is one.
#[derive(Clone, Debug, PartialEq)]
struct Bound {
    text: String,
    number: Option<f64>,
}

impl Bound {
    fn new(text: &str) -> Bound {
        Bound {
            text: text.to_owned(),
            number: text.parse::<f64>().ok().filter(|n| n.is_finite()),
        }
    }
}

/// Whether every value up to `hi` sorts before `lo` (numerically when both are numbers; a
/// string starting with `hi` is up to it).
fn sorts_before(hi: &Bound, lo: &Bound) -> bool {
    match (hi.number, lo.number) {
        (Some(a), Some(b)) => a < b,
        _ => hi.text < lo.text && !lo.text.starts_with(&hi.text),
    }
}

/// Whether `t` is written as a JSON number (`-12`, `3.5`, `1e400`), whatever its size.
fn looks_numeric(t: &str) -> bool {
    let t = t.strip_prefix('-').unwrap_or(t);
    let (mantissa, exponent) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (t, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, "0"));
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    digits(int) && digits(frac) && exponent.is_none_or(digits)
}

/// One range of a `range` layout.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRange {
    lo: Option<Bound>,
    hi: Option<Bound>,
    /// Written as one value (`2026-06`): the range of that value alone.
    single: bool,
}

impl ValueRange {
    fn parse(text: &str) -> Result<ValueRange, String> {
        // A number past a double's range would be read as text, sorting as no number does.
        for t in text.split("..").map(str::trim) {
            if looks_numeric(t) && !t.parse::<f64>().is_ok_and(f64::is_finite) {
                return Err(format!(
                    "range {text:?}: the bound {t} is past the largest number a value can hold (about 1.8e308)"
                ));
            }
        }
        // Spaces around `..` are the writer's, not the bound's.
        let bound = |t: &str| (!t.trim().is_empty()).then(|| Bound::new(t.trim()));
        match text.split_once("..") {
            Some((_, hi)) if hi.contains("..") => Err(format!(
                "range {text:?} has more than one '..' (write lo..hi)"
            )),
            Some((lo, hi)) => {
                let r = ValueRange {
                    lo: bound(lo),
                    hi: bound(hi),
                    single: false,
                };
                match r.is_inverted() {
                    true => Err(format!("range {text:?} ends before it starts")),
                    false => Ok(r),
                }
            }
            None if text.is_empty() => {
                Err("empty range (write lo..hi, lo.., ..hi or a value)".into())
            }
            None => Ok(ValueRange {
                lo: bound(text),
                hi: bound(text),
                single: true,
            }),
        }
    }

    /// Whether the upper bound sorts before the lower (numerically when both are numbers).
    fn is_inverted(&self) -> bool {
        let (Some(lo), Some(hi)) = (&self.lo, &self.hi) else {
            return false;
        };
        sorts_before(hi, lo)
    }

    /// Whether every value `self` holds sorts before every value `other` holds (a string
    /// starting with the upper bound is within it: `A..M` holds `Mz`).
    fn ends_before(&self, other: &ValueRange) -> bool {
        let (Some(hi), Some(lo)) = (&self.hi, &other.lo) else {
            return false;
        };
        sorts_before(hi, lo)
    }

    /// Whether a value could be in both: then the first would take it, and the second
    /// would be shadowed (in part or whole).
    fn overlaps(&self, other: &ValueRange) -> bool {
        self.is_numeric() == other.is_numeric()
            && !self.ends_before(other)
            && !other.ends_before(self)
    }

    /// Whether every bound given is a number (then only numbers are in the range).
    fn is_numeric(&self) -> bool {
        let bounds = [&self.lo, &self.hi];
        bounds.iter().any(|b| b.is_some())
            && bounds
                .iter()
                .all(|b| b.as_ref().is_none_or(|b| b.number.is_some()))
    }

    /// Whether the range holds `value`.
    pub fn contains(&self, value: PkValueRef<'_>) -> bool {
        match value {
            PkValueRef::Str(_) if self.is_numeric() => false,
            PkValueRef::Str(s) => {
                self.lo.as_ref().is_none_or(|lo| lo.text.as_str() <= s)
                    && (self.hi.as_ref())
                        .is_none_or(|hi| s <= hi.text.as_str() || s.starts_with(&hi.text))
            }
            PkValueRef::Number(x) => {
                let at_least = |b: &Bound| b.number.is_some_and(|n| n <= x);
                let at_most = |b: &Bound| b.number.is_some_and(|n| x <= n);
                self.lo.as_ref().is_none_or(at_least) && self.hi.as_ref().is_none_or(at_most)
            }
            _ => false,
        }
    }
}

impl ValueRange {
    /// Its text with each bound passed through `hide`.
    fn show(&self, hide: &dyn Fn(&str) -> String) -> String {
        let text = |b: &Option<Bound>| b.as_ref().map_or(String::new(), |b| hide(&b.text));
        if self.single {
            text(&self.lo)
        } else {
            format!("{}..{}", text(&self.lo), text(&self.hi))
        }
    }
}

impl fmt::Display for ValueRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.show(&|v| v.to_owned()))
    }
}

/// How a layout picks a document's collection.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolver {
    /// Fill the newest collection; open the next at 90% of its size.
    Spillover,
    /// One collection per range of the path's value.
    Range {
        /// The path read.
        path: KeyPath,
        /// The ranges, in the order given (the first holding a value wins).
        ranges: Vec<ValueRange>,
    },
    /// An explicit map from the path's value to a collection.
    Lookup {
        /// The path read.
        path: KeyPath,
        /// The map's file, as given.
        file: String,
        /// The collections, sorted by name.
        names: Vec<String>,
        /// Value text → index in `names`.
        map: BTreeMap<String, usize>,
        /// The collection of every other value (the `"*"` entry).
        default: Option<usize>,
    },
    /// The hash of the path's value over `n` collections.
    Hash {
        /// The path read.
        path: KeyPath,
        /// How many collections.
        n: usize,
    },
}

/// A client-side layout: its resolver and its collections' tier.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    resolver: Resolver,
    tier: Tier,
}

/// Why a layout spec is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LayoutError(pub String);

fn fail<T>(message: impl Into<String>) -> Result<T, LayoutError> {
    Err(LayoutError(message.into()))
}

const GRAMMAR: &str =
    "expected spillover[:SIZE], range:/path=A..M,N..Z, lookup:/path=FILE or hash:/path=N";

impl Layout {
    /// Parses a spec; `tier` gives each collection's size and throughput (a spillover's own
    /// `SIZE` replaces the size), and `read_map` reads a lookup's file (its text).
    pub fn parse(
        text: &str,
        tier: Tier,
        read_map: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<Layout, LayoutError> {
        let text = text.trim();
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        if kind == "spillover" {
            return Layout::spillover(rest, tier);
        }
        let Some((path, arg)) = rest.split_once('=') else {
            return fail(format!("{text:?}: {GRAMMAR}"));
        };
        let path = KeyPath::parse(path.trim())
            .map_err(|e| LayoutError(format!("{text:?}: the path: {}", e.message)))?;
        let arg = arg.trim();
        let resolver = match kind {
            "range" => {
                let texts: Vec<&str> = arg.split(',').map(str::trim).collect();
                let ranges = (texts.iter())
                    .map(|r| ValueRange::parse(r))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| LayoutError(format!("{text:?}: {e}")))?;
                for (i, j) in
                    (0..ranges.len()).flat_map(|i| (i + 1..ranges.len()).map(move |j| (i, j)))
                {
                    if ranges[i].overlaps(&ranges[j]) {
                        return fail(format!(
                            "{text:?}: ranges {:?} and {:?} overlap: a value goes to the first that holds it, so the second is shadowed; make them disjoint",
                            texts[i], texts[j]
                        ));
                    }
                }
                Resolver::Range { path, ranges }
            }
            "lookup" => {
                let json = read_map(arg).map_err(LayoutError)?;
                lookup(path, arg, &json)?
            }
            "hash" => match arg.parse::<usize>() {
                Ok(n) if (1..=MAX_COLLECTIONS).contains(&n) => Resolver::Hash { path, n },
                _ => {
                    return fail(format!(
                        "{text:?}: expected the number of collections after '=', an integer from 1 to {MAX_COLLECTIONS}"
                    ));
                }
            },
            _ => return fail(format!("{text:?}: unknown layout {kind:?}: {GRAMMAR}")),
        };
        let layout = Layout { resolver, tier };
        if layout.collections(0) > MAX_COLLECTIONS {
            return fail(format!("{text:?}: more than {MAX_COLLECTIONS} collections"));
        }
        Ok(layout)
    }

    fn spillover(size: &str, mut tier: Tier) -> Result<Layout, LayoutError> {
        if !size.is_empty() {
            tier.bytes = crate::units::parse_size(size)
                .map_err(|e| LayoutError(format!("spillover size: {e}")))?;
        }
        if tier.bytes < GB / 1000 {
            return fail("a spillover collection holds at least 1MB");
        }
        Ok(Layout {
            resolver: Resolver::Spillover,
            tier,
        })
    }

    /// The resolver.
    pub fn resolver(&self) -> &Resolver {
        &self.resolver
    }

    /// Each collection's size and throughput.
    pub fn tier(&self) -> Tier {
        self.tier
    }

    /// The path the resolver reads (none for a spillover).
    pub fn path(&self) -> Option<&KeyPath> {
        match &self.resolver {
            Resolver::Spillover => None,
            Resolver::Range { path, .. }
            | Resolver::Lookup { path, .. }
            | Resolver::Hash { path, .. } => Some(path),
        }
    }

    /// Whether it is a spillover layout.
    pub fn is_spillover(&self) -> bool {
        self.resolver == Resolver::Spillover
    }

    /// The resolver's name: `spillover`, `range`, `lookup` or `hash`.
    pub fn kind(&self) -> &'static str {
        match self.resolver {
            Resolver::Spillover => "spillover",
            Resolver::Range { .. } => "range",
            Resolver::Lookup { .. } => "lookup",
            Resolver::Hash { .. } => "hash",
        }
    }

    /// How many collections hold `storage` bytes: fixed by the spec, or for a spillover
    /// as many as are filled to 90% of their size.
    pub fn collections(&self, storage: u64) -> usize {
        match &self.resolver {
            Resolver::Spillover => {
                let fill = self.tier.bytes as f64 * SPILL_AT;
                ((storage as f64 / fill).ceil() as usize).max(1)
            }
            Resolver::Range { ranges, .. } => ranges.len(),
            Resolver::Lookup { names, .. } => names.len(),
            Resolver::Hash { n, .. } => *n,
        }
    }

    /// Collection `i`'s name: a range's text, a lookup's name, or its number from 1.
    pub fn collection_name(&self, i: usize) -> String {
        self.collection_name_with(i, &|v| v.to_owned())
    }

    /// Collection `i`'s name with the values in it (range bounds, lookup names) passed
    /// through `hide` (`--redact`).
    pub fn collection_name_with(&self, i: usize, hide: &dyn Fn(&str) -> String) -> String {
        match &self.resolver {
            Resolver::Range { ranges, .. } => ranges[i].show(hide),
            Resolver::Lookup { names, .. } => hide(&names[i]),
            Resolver::Spillover | Resolver::Hash { .. } => format!("#{}", i + 1),
        }
    }

    /// The canonical spec with range bounds passed through `hide` (`--redact`).
    pub fn spec_with(&self, hide: &dyn Fn(&str) -> String) -> String {
        match &self.resolver {
            Resolver::Range { path, ranges } => {
                let ranges: Vec<String> = ranges.iter().map(|r| r.show(hide)).collect();
                format!("range:{path}={}", ranges.join(","))
            }
            _ => self.to_string(),
        }
    }

    /// The collection a value goes to, among `n`; `None` when the resolver cannot place it.
    /// A hash layout places by EPK (see [`Layout::place`]), so this is for the others.
    fn collection_of(&self, value: PkValueRef<'_>) -> Option<usize> {
        match &self.resolver {
            Resolver::Range { ranges, .. } => ranges.iter().position(|r| r.contains(value)),
            Resolver::Lookup { map, default, .. } => {
                if value == PkValueRef::Undefined {
                    return *default;
                }
                let mut text = String::new();
                write_text(value, &mut text);
                map.get(&text).copied().or(*default)
            }
            Resolver::Spillover | Resolver::Hash { .. } => None,
        }
    }

    /// The EPK that stands for `value` in the layout's container of `n` collections (see
    /// [`crate::engine::Container::collections`]): inside its collection's range, at a
    /// position taken from the value's own hash, so that values stay apart. `None` when
    /// the resolver cannot place it. `definition` is the path's own (Hash V2).
    pub fn place(
        &self,
        value: PkValueRef<'_>,
        definition: &PartitionKeyDefinition,
        n: usize,
    ) -> Option<Epk> {
        let own = definition.epk_unchecked(&[value]);
        match &self.resolver {
            Resolver::Hash { .. } => Some(own),
            // A spillover places by arrival, not by value: the newest collection.
            Resolver::Spillover => Some(newest(n)),
            _ => {
                let i = self.collection_of(value)?;
                let b = own.as_bytes();
                let low = u64::from_be_bytes(b[b.len() - 8..].try_into().ok()?);
                Some(epk::within(i, n, space_fraction(&own, false), low))
            }
        }
    }

    /// The layout as a JSON object for the report's `definition`, its collections' names
    /// passed through `hide`.
    pub fn to_json(&self, n: usize, hide: &dyn Fn(&str) -> String) -> serde_json::Value {
        let names: Vec<String> = (0..n).map(|i| self.collection_name_with(i, hide)).collect();
        serde_json::json!({
            "kind": "Layout",
            "layout": self.kind(),
            "paths": self.path().map(|p| vec![p.to_string()]).unwrap_or_default(),
            "collections": names,
            "collectionBytes": self.tier.bytes,
            "collectionThroughput": self.tier.ru,
        })
    }
}

/// An EPK in the newest (last) of `n` collections: where a spillover writes.
pub fn newest(n: usize) -> Epk {
    epk::within(n.saturating_sub(1), n, 0.5, 0)
}

/// A lookup map from its JSON text: an object of value → collection name.
fn lookup(path: KeyPath, file: &str, json: &str) -> Result<Resolver, LayoutError> {
    let doc: Entries = serde_json::from_str(json.trim_start_matches('\u{feff}')).map_err(|e| {
        let expected = "a lookup map is an object of value → collection name, e.g. {\"us\": \"orders-us\", \"*\": \"orders-other\"}";
        let (line, column) = crate::json_error::position(&e);
        let e = crate::json_error::message(&e);
        LayoutError(format!("{file}:{line}:{column}: {e}; {expected}"))
    })?;
    let mut by_value: BTreeMap<String, String> = BTreeMap::new();
    for (value, name) in &doc.0 {
        if by_value.contains_key(value) {
            return fail(format!(
                "{file}: value {} is mapped twice (JSON keeps only one of them)",
                crate::redact::in_message(&format!("{value:?}"))
            ));
        }
        let Some(name) = name.as_str().filter(|n| !n.is_empty()) else {
            return fail(format!(
                "{file}: the collection of {} must be a non-empty string, not {name}",
                crate::redact::in_message(&format!("{value:?}"))
            ));
        };
        by_value.insert(value.clone(), name.to_owned());
    }
    let mut names: Vec<String> = by_value.values().cloned().collect();
    names.sort();
    names.dedup();
    if names.is_empty() {
        return fail(format!("{file}: the map names no collection"));
    }
    let index = |n: &String| names.binary_search(n).unwrap_or(0);
    let default = by_value.remove("*").map(|n| index(&n));
    let map = by_value
        .iter()
        .map(|(v, n)| (v.clone(), index(n)))
        .collect();
    Ok(Resolver::Lookup {
        path,
        file: file.to_owned(),
        names,
        map,
        default,
    })
}

/// A JSON object's entries in the order written, a key given twice included.
struct Entries(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Entries, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of value → collection name")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = m.next_entry()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// A size as a spec writes it: whole GB, MB or kB when it is one, else bytes.
fn compact_size(bytes: u64) -> String {
    for (unit, scale) in [
        ("TB", GB * 1000),
        ("GB", GB),
        ("MB", GB / 1000),
        ("kB", 1000),
    ] {
        if bytes >= scale && bytes.is_multiple_of(scale) {
            return format!("{}{unit}", bytes / scale);
        }
    }
    format!("{bytes}B")
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.resolver {
            Resolver::Spillover => write!(f, "spillover:{}", compact_size(self.tier.bytes)),
            Resolver::Range { path, ranges } => {
                let ranges: Vec<String> = ranges.iter().map(ToString::to_string).collect();
                write!(f, "range:{path}={}", ranges.join(","))
            }
            Resolver::Lookup { path, file, .. } => write!(f, "lookup:{path}={file}"),
            Resolver::Hash { path, n } => write!(f, "hash:{path}={n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Layout, LayoutError> {
        let map = |file: &str| match file {
            "regions.json" => {
                Ok(r#"{"us": "orders-us", "eu": "orders-eu", "*": "orders-rest"}"#.to_owned())
            }
            "strict.json" => Ok(r#"{"us": "orders-us", "42": "numbers"}"#.to_owned()),
            other => Err(format!("cannot read {other}")),
        };
        Layout::parse(text, Tier::default(), &map)
    }

    fn s(v: &str) -> PkValueRef<'_> {
        PkValueRef::Str(v)
    }

    #[test]
    fn specs_print_canonically_and_parse_back() {
        for (given, canonical) in [
            ("spillover", "spillover:10GB"),
            ("spillover:25GB", "spillover:25GB"),
            ("spillover:1.5GB", "spillover:1500MB"),
            ("range:/name=A..M,N..Z", "range:/name=A..M,N..Z"),
            (
                "range: /month = 2026-01 , 2026-02..",
                "range:/month=2026-01,2026-02..",
            ),
            ("lookup:/region=regions.json", "lookup:/region=regions.json"),
            ("hash:/userId=8", "hash:/userId=8"),
        ] {
            let l = parse(given).unwrap();
            assert_eq!(l.to_string(), canonical, "{given}");
            assert_eq!(parse(canonical).unwrap(), l);
        }
    }

    #[test]
    fn bad_specs_say_what_was_expected() {
        for (text, says) in [
            ("hash:/userId", "spillover[:SIZE]"),
            ("hash:/userId=0", "integer from 1 to 10000"),
            ("hash:/userId=x", "integer from 1 to 10000"),
            ("modulo:/a=3", "unknown layout"),
            ("range:/a=A..B..C", "more than one '..'"),
            ("range:/a=A,,B", "empty range"),
            ("range:/a=b..a", "ends before it starts"),
            ("range:/n=20..10", "ends before it starts"),
            ("range:a=A", "path"),
            ("lookup:/r=missing.json", "cannot read missing.json"),
            ("spillover:5XB", "spillover size"),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
        let map = |_: &str| Ok(r#"{"us": 3}"#.to_owned());
        let e = Layout::parse("lookup:/r=m.json", Tier::default(), &map).unwrap_err();
        assert!(e.to_string().contains("must be a non-empty string"), "{e}");
        let map = |_: &str| Ok("{\"us\": \n".to_owned());
        let e = Layout::parse("lookup:/r=m.json", Tier::default(), &map).unwrap_err();
        assert!(e.to_string().starts_with("m.json:2:"), "{e}");
        let map = |_: &str| Ok(r#"{"us": "c1", "eu": "c2", "us": "c3"}"#.to_owned());
        let e = Layout::parse("lookup:/r=m.json", Tier::default(), &map).unwrap_err();
        assert!(
            e.to_string().contains("value \"us\" is mapped twice"),
            "{e}"
        );
    }

    #[test]
    fn overlapping_duplicate_or_shadowed_ranges_are_refused() {
        for (text, first, second) in [
            ("range:/a=A..M,K..Z", "A..M", "K..Z"),
            ("range:/a=A..M,N..Z,A..M", "A..M", "A..M"),
            ("range:/a=..M,B..C", "..M", "B..C"),
            ("range:/a=A..M,Mz..Z", "A..M", "Mz..Z"),
            ("range:/n=1..10,5", "1..10", "5"),
            (
                "range:/m=2026-01..2026-06,2026-03",
                "2026-01..2026-06",
                "2026-03",
            ),
        ] {
            let e = parse(text).unwrap_err().to_string();
            let want = format!("ranges {first:?} and {second:?} overlap");
            assert!(e.contains(&want), "{text}: {e}");
        }
        for fine in [
            "range:/a=A..M,N..Z",
            "range:/n=1..10,11..20",
            "range:/m=2026-01,2026-02..",
            "range:/x=1..5,A..Z",
        ] {
            assert!(parse(fine).is_ok(), "{fine}");
        }
        // Spaces around `..` are not part of a bound.
        assert_eq!(
            parse("range:/a=A .. M, N ..").unwrap().to_string(),
            "range:/a=A..M,N.."
        );
    }

    #[test]
    fn ranges_hold_prefixes_numbers_and_open_ends() {
        assert!(
            ValueRange::parse("1e400..")
                .unwrap_err()
                .contains("past the largest number")
        );
        assert!(ValueRange::parse("-1E+999..0").is_err());
        assert!(ValueRange::parse("1e300..").is_ok() && ValueRange::parse("inf..").is_ok());
        let r = |t: &str| ValueRange::parse(t).unwrap();
        assert!(r("A..M").contains(s("Mary")));
        assert!(r("A..M").contains(s("A")));
        assert!(!r("A..M").contains(s("N")));
        assert!(
            !r("A..M").contains(s("alice")),
            "byte order: lower case sorts after Z"
        );
        assert!(r("2026-01..2026-03").contains(s("2026-03-31T23:59:59Z")));
        assert!(!r("2026-01..2026-03").contains(s("2026-04-01")));
        assert!(r("2026-06").contains(s("2026-06-15")));
        assert!(!r("2026-06").contains(s("2026-07-01")));
        assert!(r("N..").contains(s("zeta")));
        assert!(r("..M").contains(s("")));
        assert!(r("10..20").contains(PkValueRef::Number(20.0)));
        assert!(!r("10..20").contains(PkValueRef::Number(20.5)));
        assert!(!r("A..M").contains(PkValueRef::Number(1.0)));
        assert!(!r("10..20").contains(PkValueRef::Null));
        // Numeric bounds hold numbers only: "15" is text.
        assert!(!r("..9.5").contains(s("15")));
        assert!(!r("10..20").contains(s("15")));
        assert!(r("10..").contains(PkValueRef::Number(1e9)));
    }

    #[test]
    fn collections_and_placement_follow_the_resolver() {
        let def = crate::key::KeySpec::parse("/region").unwrap().definition();
        let lookup = parse("lookup:/region=regions.json").unwrap();
        assert_eq!(lookup.collections(0), 3);
        assert_eq!(lookup.collection_name(0), "orders-eu");
        let n = 3;
        let c = crate::engine::Container::collections(def.clone(), n, Tier::default());
        let at = |v: PkValueRef<'_>| lookup.place(v, &def, n).map(|e| c.route(&e));
        assert_eq!(at(s("eu")), Some(0));
        assert_eq!(lookup.collection_name(1), "orders-rest");
        assert_eq!(at(s("us")), Some(2));
        assert_eq!(at(s("mars")), Some(1), "the \"*\" entry");
        assert_eq!(at(PkValueRef::Undefined), Some(1));
        // Two values of one collection stay apart, to the statistics' value hash too.
        let (mars, venus) = (
            lookup.place(s("mars"), &def, n),
            lookup.place(s("venus"), &def, n),
        );
        assert_eq!(
            (
                c.route(mars.as_ref().unwrap()),
                c.route(venus.as_ref().unwrap())
            ),
            (1, 1)
        );
        let h = |e: Option<Epk>| crate::stats::value_hash(&e.unwrap(), false);
        assert_ne!(h(mars), h(venus));
        let strict = parse("lookup:/region=strict.json").unwrap();
        assert_eq!(strict.place(s("fr"), &def, 2), None);
        assert!(strict.place(PkValueRef::Number(42.0), &def, 2).is_some());
        let spill = parse("spillover:10GB").unwrap();
        assert_eq!(spill.collections(25 * GB), 3, "9 GB each: 9 + 9 + 7");
        assert_eq!(spill.collections(18 * GB), 2);
        assert_eq!(spill.collections(0), 1);
        let c3 = crate::engine::Container::collections(def.clone(), 3, Tier::default());
        let e = spill.place(s("anything"), &def, 3).unwrap();
        assert_eq!(c3.route(&e), 2, "the newest collection");
    }
}
