//! Discovery of candidate paths from the first documents of the input: which scalar
//! properties (nested too, never inside arrays) the documents carry, how often, with how
//! many distinct values, and whether consecutive documents tend to share a value (a key
//! that follows the clock).

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde_json::Value;

use crate::engine::KeyPath;
use crate::engine::murmur::murmur3_x64_128;

/// Distinct values remembered per path; past it the count is "at least".
const DISTINCT_CAP: usize = 50_000;
/// Distinct values remembered over all paths (16 bytes each, about 40 MB with the
/// tables' spare room); past it, values new to a path are no longer counted.
const DISTINCT_TOTAL: usize = 1 << 20;
/// Deepest nesting explored.
const MAX_DEPTH: usize = 4;
/// Entity properties probed at most (see [`Discovery::entities`]).
pub const ENTITIES: usize = 8;
/// Property paths followed at most: documents with a million distinct property names (a
/// map keyed by ids) would otherwise cost a gigabyte; past it, new paths are ignored.
const MAX_PATHS: usize = 10_000;

/// What the first documents show of one path.
#[derive(Clone, Debug, Default)]
pub struct PathStats {
    /// Documents with a scalar there.
    pub present: u64,
    /// Distinct values (capped).
    pub distinct: usize,
    /// Documents whose value equals the previous document's.
    pub repeats: u64,
    /// Documents whose value is a number with a fraction.
    pub fractional: u64,
    /// Count of the most frequent value.
    pub top_count: u64,
    /// The longest value's JSON text, in bytes.
    pub longest: usize,
    /// Documents whose value is a string.
    pub strings: u64,
    /// Of those, strings holding whitespace (words: free text, names).
    pub spaced: u64,
    /// Of those, strings that read as a date with a time of day (`2024-05-01T10:22`,
    /// `2024-05-01 10:22:31`).
    pub times: u64,
    /// Of those, strings that begin as a date or a month (`2024-05-01`, `2024-05`): periods
    /// (times of day among them).
    pub dates: u64,
    /// Documents whose value is a number.
    pub numbers: u64,
    /// Documents whose value is `true` or `false`.
    pub booleans: u64,
    /// Documents per value, by the value's hash.
    counts: FxHashMap<u64, u32>,
    last: Option<u64>,
}

/// What a property is to an expert choosing a key: only properties the application knows
/// at every write and read and that never change make keys (identifiers, tenants, natural
/// keys, and the periods or levels its queries filter on). Free text, measurements,
/// booleans and fine-grained timestamps are never proposed unless the log filters on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// Named as an id (`id`, `…Id`, `…_id`, `…Key`), or tokens: strings without whitespace
    /// that are not dates, with many values (at least 100, or nearly all distinct): a SKU,
    /// an email, a VIN, a serial number.
    IdLike,
    /// Strings with whitespace in at least half of them (titles, names, descriptions).
    FreeText,
    /// Numbers not named as an id (quantities: weights, prices, scores, sizes, counts).
    Measurement,
    /// `true` or `false`.
    Boolean,
    /// Strings that read as a date with a time of day in at least half of them.
    Timestamp,
    /// Anything else: categories, codes, periods, statuses.
    Other,
}

impl Property {
    /// How reports name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Property::IdLike => "id-like",
            Property::FreeText => "free text",
            Property::Measurement => "a measurement",
            Property::Boolean => "a boolean",
            Property::Timestamp => "a fine-grained timestamp",
            Property::Other => "a category",
        }
    }
}

/// Whether a path's last name names an id: `id`, or ending in `Id`, `ID`, `_id`, `-id`,
/// `Key` or `_key`.
pub fn names_an_id(path: &KeyPath) -> bool {
    let Some(last) = path.segments().last() else {
        return false;
    };
    let lower = last.to_ascii_lowercase();
    lower == "id"
        || ["Id", "ID", "Key"]
            .iter()
            .any(|e| last.ends_with(e) && last.len() > e.len())
        || ["_id", "-id", "_key", "-key"]
            .iter()
            .any(|e| lower.ends_with(e))
}

impl PathStats {
    /// What the path's values make it (see [`Property`]): by the share of its values of
    /// each kind (most is 95%, half of its strings for text and times).
    pub fn property(&self, path: &KeyPath) -> Property {
        let present = self.present.max(1) as f64;
        let most = |n: u64| n as f64 >= 0.95 * present;
        let half = |n: u64| self.strings > 0 && 2 * n >= self.strings;
        if most(self.booleans) {
            Property::Boolean
        } else if names_an_id(path) {
            Property::IdLike
        } else if most(self.numbers) {
            Property::Measurement
        } else if half(self.times) {
            Property::Timestamp
        } else if half(self.spaced) {
            Property::FreeText
        } else if most(self.strings)
            && 20 * self.spaced <= self.strings
            && 20 * self.dates <= self.strings
            && (self.distinct >= 100 || self.distinct as f64 >= 0.9 * present)
        {
            Property::IdLike
        } else {
            Property::Other
        }
    }
}

/// The first documents and their paths.
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    /// The documents read, as their JSON text, end to end (parsed again when needed: a
    /// parsed document takes ten times its text).
    text: Vec<u8>,
    /// Where each document ends in `text`.
    ends: Vec<usize>,
    /// Per scalar path.
    pub paths: BTreeMap<KeyPath, PathStats>,
    /// Distinct values remembered over all paths.
    remembered: usize,
}

impl Discovery {
    /// Documents seen.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no document was seen.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The documents seen, parsed one at a time.
    pub fn docs(&self) -> impl Iterator<Item = Value> + '_ {
        (0..self.ends.len()).filter_map(move |i| {
            let start = i.checked_sub(1).map_or(0, |j| self.ends[j]);
            serde_json::from_slice(&self.text[start..self.ends[i]]).ok()
        })
    }

    /// Share of documents carrying `path`.
    pub fn presence(&self, path: &KeyPath) -> f64 {
        self.paths
            .get(path)
            .map_or(0.0, |p| p.present as f64 / self.len().max(1) as f64)
    }

    /// The most present property whose values read as times of day (carried by at least
    /// half of the documents; ties by path): where the documents say when they were
    /// written, for `--time-path`.
    pub fn time_property(&self) -> Option<KeyPath> {
        (self.paths.iter())
            .filter(|(path, p)| {
                p.property(path) == Property::Timestamp && 2 * p.present >= self.len() as u64
            })
            .max_by(|a, b| a.1.present.cmp(&b.1.present).then_with(|| b.0.cmp(a.0)))
            .map(|(path, _)| path.clone())
    }

    /// The properties whose values are entities (ids, tenants, codes, categories; not
    /// periods, times, text, measurements or booleans) carried by at least half of the
    /// documents, those named as an id first, then the most present (ties by path), at most
    /// [`ENTITIES`], without
    /// `/id` and the service's `_` properties: what tells a pilot of some entities from a
    /// snapshot of them all (see
    /// [`crate::stats::novelty`]). A new day in a log says nothing of the sample; a new
    /// tenant does.
    pub fn entities(&self) -> Vec<KeyPath> {
        let mut found: Vec<(&KeyPath, u64)> = (self.paths.iter())
            .filter(|(path, p)| {
                let kind = p.property(path);
                let entity = matches!(kind, Property::IdLike | Property::Other);
                let period = p.strings > 0 && 20 * p.dates > p.strings;
                let top = path.segments().first().map(String::as_str);
                // The item's id, and the service's own properties (_rid, _self, _etag,
                // _ts, _attachments in an export), which no create logs.
                let own = top.is_some_and(|t| t == "id" || t.starts_with('_'));
                entity && !period && !own && 2 * p.present >= self.len() as u64
            })
            .map(|(path, p)| (path, p.present))
            .collect();
        // Named as an id first: a tenant, store or device before a status or a region.
        found.sort_by(|a, b| {
            (names_an_id(b.0).cmp(&names_an_id(a.0)))
                .then(b.1.cmp(&a.1))
                .then_with(|| a.0.cmp(b.0))
        });
        found
            .into_iter()
            .take(ENTITIES)
            .map(|(p, _)| p.clone())
            .collect()
    }
}

/// Parses up to `max_docs` documents from the start of `text` (NDJSON, concatenated JSON,
/// or the beginning of a JSON array). A document it cannot read is passed over to the next
/// line (reading reports it, with its position); it stops at the end of the text.
pub fn discover(text: &[u8], max_docs: usize) -> Discovery {
    let mut d = Discovery::default();
    discover_into(&mut d, text, max_docs);
    d
}

/// [`discover`] adding to `d` (the next source's first documents), up to `max_docs` in all.
pub fn discover_into(d: &mut Discovery, text: &[u8], max_docs: usize) {
    let mut rest = skip_ws(text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text));
    if let Some(r) = rest.strip_prefix(b"[") {
        rest = r;
    }
    while d.len() < max_docs && !rest.is_empty() {
        rest = skip_ws(rest);
        rest = rest.strip_prefix(b",").unwrap_or(rest);
        let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
        let doc = match stream.next() {
            Some(Ok(doc)) => doc,
            // Past a broken line to the next one; a document cut by the end of the text
            // (or one without a line end after it) ends discovery.
            _ => match memchr::memchr(b'\n', rest) {
                Some(nl) => {
                    rest = &rest[nl + 1..];
                    continue;
                }
                None => break,
            },
        };
        let used = &rest[..stream.byte_offset()];
        rest = &rest[stream.byte_offset()..];
        if doc.is_object() {
            let mut seen = Vec::new();
            walk(&doc, &mut Vec::new(), &mut seen);
            for (path, scalar) in seen {
                if d.paths.len() >= MAX_PATHS && !d.paths.contains_key(&path) {
                    continue;
                }
                let room = d.remembered < DISTINCT_TOTAL;
                let added = record(d.paths.entry(path).or_default(), scalar, room);
                d.remembered += added as usize;
            }
            d.text.extend_from_slice(used);
            d.ends.push(d.text.len());
        }
    }
}

fn skip_ws(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

fn walk<'a>(v: &'a Value, prefix: &mut Vec<String>, out: &mut Vec<(KeyPath, &'a Value)>) {
    let Value::Object(map) = v else { return };
    for (k, child) in map {
        prefix.push(k.clone());
        match child {
            Value::Object(_) if prefix.len() < MAX_DEPTH => walk(child, prefix, out),
            Value::Object(_) | Value::Array(_) => {}
            scalar => out.push((KeyPath::from_segments(prefix.clone()), scalar)),
        }
        prefix.pop();
    }
}

/// Whether `s` reads as a date with a time of day: `YYYY-MM-DD` then `T` or a space and
/// `HH:MM`.
pub fn is_time_of_day(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
        && matches!(b.get(10), Some(b'T' | b't' | b' '))
        && digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16)
}

/// Whether `s` begins as a month, `YYYY-MM`, and is at most a date and a time.
fn is_dated(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 7
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && (b.len() == 7 || b[7] == b'-')
}

/// Counts one value of a path; `room` says a new value may be remembered. Returns whether
/// one was.
fn record(p: &mut PathStats, scalar: &Value, room: bool) -> bool {
    let text = scalar.to_string();
    p.present += 1;
    match scalar {
        Value::String(s) => {
            p.strings += 1;
            p.spaced += s.chars().any(char::is_whitespace) as u64;
            p.times += is_time_of_day(s) as u64;
            p.dates += is_dated(s) as u64;
        }
        Value::Number(n) => {
            p.numbers += 1;
            p.fractional += n.as_f64().is_some_and(|f| f.fract() != 0.0) as u64;
        }
        Value::Bool(_) => p.booleans += 1,
        _ => {}
    }
    p.longest = p.longest.max(text.len());
    let hash = murmur3_x64_128(text.as_bytes()).0;
    if p.last == Some(hash) {
        p.repeats += 1;
    }
    p.last = Some(hash);
    let known = p.counts.get_mut(&hash);
    let added = known.is_none() && room && p.distinct < DISTINCT_CAP;
    let count = match known {
        Some(c) => Some(c),
        None if added => Some(p.counts.entry(hash).or_default()),
        None => None,
    };
    if let Some(c) = count {
        *c += 1;
        p.top_count = p.top_count.max(*c as u64);
    }
    p.distinct = p.counts.len();
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_are_ids_and_categories_most_documents_carry() {
        let mut text = String::new();
        for i in 0..200 {
            let sparse = match i % 10 {
                0 => format!(r#","region":"r{}","#, i % 3),
                _ => ",".to_owned(),
            };
            text += &format!(
                r#"{{"id":"i{i}","_rid":"r{i}x","_etag":"e{i}","tenantId":"t{}","code":"{}"{sparse}"day":"2026-11-{:02}","title":"a b {i}","price":{}.5,"ok":true,"ts":"2026-11-01T10:{:02}:00Z","meta":{{"siteId":{}}}}}"#,
                i % 5,
                ["A", "B"][i % 2],
                1 + i % 28,
                i,
                i % 60,
                i % 4
            );
            text.push('\n');
        }
        let d = discover(text.as_bytes(), 1000);
        let names: Vec<String> = d.entities().iter().map(|p| p.to_string()).collect();
        assert_eq!(names, ["/meta/siteId", "/tenantId", "/code"]);
        assert_eq!(
            d.time_property().map(|p| p.to_string()).as_deref(),
            Some("/ts")
        );
    }

    #[test]
    fn what_a_property_is_follows_its_values_and_its_name() {
        // (documents, path, expected): each from 200 documents whose value at `path` the
        // closure gives for document i.
        type Make = fn(usize) -> String;
        let cases: &[(Make, &str, Property)] = &[
            (|i| format!("\"C-{i:05}\""), "/sku", Property::IdLike),
            (|i| format!("\"t{}\"", i % 7), "/tenantId", Property::IdLike),
            (|i| format!("{i}"), "/orderId", Property::IdLike),
            (
                |i| format!("{}", 1_500 + i * 3),
                "/Weight_in_lbs",
                Property::Measurement,
            ),
            (
                |i| format!("{}.{}", i, i % 100),
                "/price",
                Property::Measurement,
            ),
            (
                |i| format!("{}", i % 2 == 0),
                "/processed",
                Property::Boolean,
            ),
            (
                |i| format!("\"The product called {i}\""),
                "/description",
                Property::FreeText,
            ),
            (
                |i| format!("\"2024-05-{:02}T10:{:02}:00Z\"", 1 + i % 28, i % 60),
                "/createdAt",
                Property::Timestamp,
            ),
            (
                |i| format!("\"2024-05-{:02}\"", 1 + i % 28),
                "/day",
                Property::Other,
            ),
            (
                |i| format!("\"{}-{:02}-{:02}\"", 2020 + i % 5, 1 + i % 12, 1 + i % 28),
                "/date",
                Property::Other,
            ),
            (
                |i| format!("\"1GCAA28E4SH{:06}\"", i % 150),
                "/vin",
                Property::IdLike,
            ),
            (
                |i| format!("\"cc-{}\"", i % 13),
                "/costCenter",
                Property::Other,
            ),
        ];
        for (make, path, want) in cases {
            let field = &path[1..];
            let text: String = (0..200)
                .map(|i| format!("{{\"id\":\"{i}\",\"{field}\":{}}}\n", make(i)))
                .collect();
            let d = discover(text.as_bytes(), 1_000);
            let p = KeyPath::parse(path).unwrap();
            assert_eq!(d.paths[&p].property(&p), *want, "{path}");
        }
        // Names: an id is named so, not merely ending in the letters.
        for (name, id) in [
            ("id", true),
            ("userId", true),
            ("user_id", true),
            ("ID", true),
            ("rowKey", true),
            ("paid", false),
            ("valid", false),
            ("Key", false),
        ] {
            assert_eq!(names_an_id(&KeyPath::from_segments([name])), id, "{name}");
        }
    }

    #[test]
    fn property_names_are_bounded() {
        // One document whose properties are a map keyed by 50,000 ids.
        let mut text = String::from("{\"id\":\"x\",\"m\":{");
        for i in 0..50_000 {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&format!("\"k{i}\":{i}"));
        }
        text.push_str("}}\n");
        let d = discover(text.as_bytes(), 10);
        assert_eq!(d.paths.len(), MAX_PATHS);
    }

    #[test]
    fn finds_nested_scalar_paths_in_every_form() {
        let ndjson =
            b"{\"id\":\"1\",\"a\":{\"b\":2},\"arr\":[1]}\n{\"id\":\"2\",\"a\":{\"b\":2}}\n";
        let d = discover(ndjson, 100);
        assert_eq!(d.len(), 2);
        let ab = KeyPath::parse("/a/b").unwrap();
        assert_eq!(d.paths[&ab].distinct, 1);
        assert_eq!(d.paths[&ab].repeats, 1);
        assert!(!d.paths.contains_key(&KeyPath::parse("/arr").unwrap()));
        let array = b"[{\"id\":\"1\"},\n {\"id\":\"2\"}, {\"id\"";
        assert_eq!(discover(array, 100).len(), 2);
    }

    #[test]
    fn distinct_values_are_bounded_over_all_paths() {
        // 300 paths of unique values in 4,000 documents: 1.2 million values.
        let mut text = String::new();
        for d in 0..4_000 {
            let fields: Vec<String> = (0..300)
                .map(|p| format!("\"p{p}\":{}", d * 300 + p))
                .collect();
            text.push_str(&format!("{{{}}}\n", fields.join(",")));
        }
        let d = discover(text.as_bytes(), 10_000);
        assert_eq!(d.len(), 4_000);
        let kept: usize = d.paths.values().map(|p| p.distinct).sum();
        assert_eq!(kept, DISTINCT_TOTAL);
        assert!(d.paths.values().all(|p| p.present == 4_000));
        // The documents are kept as their text, parsed again on demand.
        assert_eq!(d.docs().count(), 4_000);
    }

    #[test]
    fn a_broken_line_is_passed_over_and_sources_add_up() {
        let text = b"{\"id\":\"1\"}\n{\"id\": oops}\nnot json\n{\"id\":\"3\",\"t\":1}\n";
        let mut d = discover(text, 100);
        assert_eq!(d.len(), 2);
        discover_into(&mut d, b"{\"t\":2}\n{\"t\":3}\n", 3);
        assert_eq!(d.len(), 3, "max_docs counts across sources");
        assert_eq!(d.paths[&KeyPath::parse("/t").unwrap()].present, 2);
    }
}
