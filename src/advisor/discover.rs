//! Discovery of candidate paths from the first documents of the input: which scalar
//! properties (nested too, never inside arrays) the documents carry, how often, with how
//! many distinct values, and whether consecutive documents tend to share a value (a key
//! that follows the clock).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::engine::KeyPath;

/// Distinct values remembered per path; past it the count is "at least".
const DISTINCT_CAP: usize = 50_000;
/// Deepest nesting explored.
const MAX_DEPTH: usize = 4;
/// Property paths followed at most: documents with a million distinct property names (a
/// map keyed by ids) would otherwise cost a gigabyte; past it, new paths are ignored.
const MAX_PATHS: usize = 10_000;

/// What the first documents show of one path.
#[derive(Clone, Debug, Default)]
pub struct PathStats {
    /// Documents with a scalar there.
    pub present: u64,
    /// Distinct values (capped).
    pub distinct: BTreeSet<String>,
    /// Documents whose value equals the previous document's.
    pub repeats: u64,
    /// Documents whose value is a number with a fraction.
    pub fractional: u64,
    /// Count of the most frequent value.
    pub top_count: u64,
    /// The longest value's JSON text, in bytes.
    pub longest: usize,
    counts: BTreeMap<String, u64>,
    last: Option<String>,
}

/// The first documents and their paths.
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    /// The documents parsed.
    pub docs: Vec<Value>,
    /// Per scalar path.
    pub paths: BTreeMap<KeyPath, PathStats>,
}

impl Discovery {
    /// Documents seen.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether no document was seen.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Share of documents carrying `path`.
    pub fn presence(&self, path: &KeyPath) -> f64 {
        self.paths
            .get(path)
            .map_or(0.0, |p| p.present as f64 / self.docs.len().max(1) as f64)
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
    while d.docs.len() < max_docs && !rest.is_empty() {
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
        rest = &rest[stream.byte_offset()..];
        if doc.is_object() {
            let mut seen = Vec::new();
            walk(&doc, &mut Vec::new(), &mut seen);
            for (path, text, fractional) in seen {
                if d.paths.len() >= MAX_PATHS && !d.paths.contains_key(&path) {
                    continue;
                }
                record(d.paths.entry(path).or_default(), text, fractional);
            }
            d.docs.push(doc);
        }
    }
}

fn skip_ws(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

fn walk(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<(KeyPath, String, bool)>) {
    let Value::Object(map) = v else { return };
    for (k, child) in map {
        prefix.push(k.clone());
        match child {
            Value::Object(_) if prefix.len() < MAX_DEPTH => walk(child, prefix, out),
            Value::Object(_) | Value::Array(_) => {}
            scalar => {
                let fractional = scalar.as_f64().is_some_and(|f| f.fract() != 0.0);
                out.push((
                    KeyPath::from_segments(prefix.clone()),
                    scalar.to_string(),
                    fractional,
                ));
            }
        }
        prefix.pop();
    }
}

fn record(p: &mut PathStats, text: String, fractional: bool) {
    p.present += 1;
    p.fractional += fractional as u64;
    p.longest = p.longest.max(text.len());
    if p.last.as_deref() == Some(text.as_str()) {
        p.repeats += 1;
    }
    if p.distinct.len() < DISTINCT_CAP {
        p.distinct.insert(text.clone());
        let c = p.counts.entry(text.clone()).or_default();
        *c += 1;
        p.top_count = p.top_count.max(*c);
    }
    p.last = Some(text);
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(d.paths[&ab].distinct.len(), 1);
        assert_eq!(d.paths[&ab].repeats, 1);
        assert!(!d.paths.contains_key(&KeyPath::parse("/arr").unwrap()));
        let array = b"[{\"id\":\"1\"},\n {\"id\":\"2\"}, {\"id\"";
        assert_eq!(discover(array, 100).len(), 2);
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
