//! A container's indexing policy, as far as the request charge of a write depends on it:
//! which of a document's values are indexed terms. Azure charges a write 0.2 RU per indexed
//! term it adds or removes (Microsoft's "understand request unit consumption" article), so
//! the readers count, per document, the terms the policy indexes.
//!
//! A term is a scalar value (a string, number, boolean or null; each element of an array)
//! at its path, the path written as an index path: `/a/b/?` for the scalar at `/a/b`,
//! `/tags/[]/?` for the elements of an array. `includedPaths` and `excludedPaths` take
//! `/?` (that scalar) and `/*` (everything below) paths; the most precise path that matches
//! decides (more segments first, then `?` before `*`; an excluded path wins a tie), as the
//! service resolves them. `indexingMode: none` (or `automatic: false`) indexes nothing; each
//! composite index adds one term per document. The default policy indexes every path but
//! `/"_etag"/?`.

use serde_json::Value;

/// One `includedPaths` or `excludedPaths` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
struct IndexPath {
    /// Property names from the root, `[]` for array elements.
    segments: Vec<String>,
    /// `/*`: everything below; else `/?`: the scalar at the path.
    below: bool,
}

impl IndexPath {
    /// Whether it covers the scalar at `path`.
    fn covers(&self, path: &[&str]) -> bool {
        let n = self.segments.len();
        let prefix = path.len() >= n && self.segments.iter().zip(path).all(|(s, p)| s == p);
        prefix && (self.below || path.len() == n)
    }

    /// How precise it is: more segments first, then `?` before `*`.
    fn precision(&self) -> (usize, bool) {
        (self.segments.len(), !self.below)
    }
}

/// Which of a document's scalar values a container indexes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexingPolicy {
    /// `indexingMode: none` or `automatic: false`: nothing is indexed.
    off: bool,
    included: Vec<IndexPath>,
    excluded: Vec<IndexPath>,
    /// Composite indexes: one term each per document.
    composite: u32,
    /// Where it comes from, for the report (`the default policy`, a file).
    pub source: String,
}

impl Default for IndexingPolicy {
    /// The policy of a container created without one: every path but `/"_etag"/?`.
    fn default() -> Self {
        IndexingPolicy {
            off: false,
            included: vec![IndexPath {
                segments: Vec::new(),
                below: true,
            }],
            excluded: vec![etag()],
            composite: 0,
            source: DEFAULT_SOURCE.to_owned(),
        }
    }
}

/// What the default policy is called in the report.
pub const DEFAULT_SOURCE: &str = "the default policy (every path)";

fn etag() -> IndexPath {
    IndexPath {
        segments: vec!["_etag".to_owned()],
        below: false,
    }
}

/// The fields an `indexingPolicy` object may have.
const POLICY_FIELDS: [&str; 8] = [
    "indexingMode",
    "automatic",
    "includedPaths",
    "excludedPaths",
    "compositeIndexes",
    "spatialIndexes",
    "vectorIndexes",
    "fullTextIndexes",
];

impl IndexingPolicy {
    /// The policy of a JSON `indexingPolicy` object (as in ARM templates and the SDKs);
    /// `source` names it in the report. Errors name the field (a JSON pointer).
    pub fn from_json(v: &Value, source: &str) -> Result<IndexingPolicy, String> {
        let Some(obj) = v.as_object() else {
            return Err(format!(
                "an indexing policy is a JSON object, not {}",
                kind(v)
            ));
        };
        if let Some(k) = obj.keys().find(|k| !POLICY_FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "/{k} is not a field of an indexing policy (expected {}); a template or plan is read with check --container, not --indexing-policy",
                POLICY_FIELDS.join(", ")
            ));
        }
        let mode = match obj.get("indexingMode") {
            None => "consistent".to_owned(),
            Some(Value::String(m)) => m.to_ascii_lowercase(),
            Some(other) => return Err(format!("/indexingMode must be a string, not {other}")),
        };
        if !["consistent", "lazy", "none"].contains(&mode.as_str()) {
            return Err(format!(
                "/indexingMode must be \"consistent\", \"lazy\" or \"none\", not {mode:?}"
            ));
        }
        let automatic = match obj.get("automatic") {
            None => true,
            Some(Value::Bool(b)) => *b,
            Some(other) => return Err(format!("/automatic must be true or false, not {other}")),
        };
        let mut included = paths(obj.get("includedPaths"), "includedPaths")?;
        let excluded = paths(obj.get("excludedPaths"), "excludedPaths")?;
        if included.is_empty() {
            // The service includes the root when no path is given.
            included.push(IndexPath {
                segments: Vec::new(),
                below: true,
            });
        }
        let composite = match obj.get("compositeIndexes") {
            None | Some(Value::Null) => 0,
            Some(Value::Array(a)) => a.len() as u32,
            Some(other) => {
                return Err(format!(
                    "/compositeIndexes must be an array, not {}",
                    kind(other)
                ));
            }
        };
        Ok(IndexingPolicy {
            off: mode == "none" || !automatic,
            included,
            excluded,
            composite,
            source: source.to_owned(),
        })
    }

    /// The policy in the JSON text of `file` (an `indexingPolicy` object, or a container
    /// resource holding one); errors name the file and, for JSON syntax, line and column.
    pub fn read(file: &str, text: &str) -> Result<IndexingPolicy, String> {
        let v: Value = crate::json_error::parse_file(file, text, "an indexing policy object")?;
        let policy = v
            .get("indexingPolicy")
            .or_else(|| v.pointer("/properties/resource/indexingPolicy"))
            .unwrap_or(&v);
        IndexingPolicy::from_json(policy, file).map_err(|e| format!("{file}: {e}"))
    }

    /// Whether it indexes nothing.
    pub fn is_off(&self) -> bool {
        self.off
    }

    /// Whether it indexes every path but `/"_etag"/?` (the default's terms).
    pub fn is_everything(&self) -> bool {
        !self.off
            && self
                .included
                .iter()
                .any(|p| p.segments.is_empty() && p.below)
            && self.excluded.iter().all(|p| *p == etag())
    }

    /// Whether the scalar at `path` (property names, `[]` for array elements) is indexed.
    pub fn indexes(&self, path: &[&str]) -> bool {
        if self.off {
            return false;
        }
        let best = |list: &[IndexPath]| {
            (list.iter())
                .filter(|p| p.covers(path))
                .map(IndexPath::precision)
                .max()
        };
        match (best(&self.included), best(&self.excluded)) {
            (Some(i), Some(e)) => i > e,
            (Some(_), None) => true,
            _ => false,
        }
    }

    /// Terms every document adds beyond its values: one per composite index.
    pub fn extra_terms(&self) -> u32 {
        if self.off { 0 } else { self.composite }
    }

    /// Its rules in short, whatever file they came from: two policies with the same rules
    /// count the same terms.
    pub fn rules(&self) -> String {
        if self.off {
            return "indexing off".to_owned();
        }
        let show = |list: &[IndexPath]| -> Vec<String> { list.iter().map(render).collect() };
        let excluded = match self.excluded.is_empty() {
            true => "none".to_owned(),
            false => show(&self.excluded).join(", "),
        };
        let mut text = format!(
            "included {}; excluded {excluded}",
            show(&self.included).join(", ")
        );
        if self.composite > 0 {
            text.push_str(&format!("; {} composite", self.composite));
        }
        text
    }

    /// Where it comes from and its rules, for the report.
    pub fn describe(&self) -> String {
        match self.source == DEFAULT_SOURCE {
            true => self.source.clone(),
            false => format!("{}: {}", self.source, self.rules()),
        }
    }
}

fn render(p: &IndexPath) -> String {
    let mut s = String::new();
    for seg in &p.segments {
        let plain = seg == "[]" || seg.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match plain {
            true => s.push_str(&format!("/{seg}")),
            false => s.push_str(&format!("/{seg:?}")),
        }
    }
    s.push_str(if p.below { "/*" } else { "/?" });
    s
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The entries of `includedPaths` or `excludedPaths`.
fn paths(v: Option<&Value>, field: &str) -> Result<Vec<IndexPath>, String> {
    let items = match v {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(other) => return Err(format!("/{field} must be an array, not {}", kind(other))),
    };
    (items.iter().enumerate())
        .map(|(i, item)| {
            let at = format!("/{field}/{i}/path");
            match item.get("path") {
                Some(Value::String(p)) => parse_path(p).map_err(|e| format!("{at}: {e}")),
                Some(other) => Err(format!("{at} must be a string, not {}", kind(other))),
                None => Err(format!("/{field}/{i} has no \"path\"")),
            }
        })
        .collect()
}

/// `/a/"b c"/[]/?` or `/a/*`.
fn parse_path(text: &str) -> Result<IndexPath, String> {
    let Some(mut rest) = text.strip_prefix('/') else {
        return Err(format!("{text:?} does not start with /"));
    };
    let mut segments = Vec::new();
    loop {
        let (seg, after) = match rest.strip_prefix('"') {
            Some(quoted) => {
                let end = quoted
                    .find('"')
                    .ok_or_else(|| format!("{text:?}: a quoted name is not closed"))?;
                (quoted[..end].to_owned(), &quoted[end + 1..])
            }
            None => {
                let end = rest.find('/').unwrap_or(rest.len());
                (rest[..end].to_owned(), &rest[end..])
            }
        };
        match after.strip_prefix('/') {
            Some(next) => {
                if seg.is_empty() || seg == "?" || seg == "*" {
                    return Err(format!("{text:?}: an empty name, or ? or * before the end"));
                }
                segments.push(seg);
                rest = next;
            }
            None if after.is_empty() => {
                return match seg.as_str() {
                    "?" => Ok(IndexPath {
                        segments,
                        below: false,
                    }),
                    "*" => Ok(IndexPath {
                        segments,
                        below: true,
                    }),
                    _ => Err(format!("{text:?} must end with /? or /*")),
                };
            }
            None => return Err(format!("{text:?}: characters after a quoted name")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(v: Value) -> IndexingPolicy {
        IndexingPolicy::from_json(&v, "test").unwrap()
    }

    #[test]
    fn the_most_precise_path_decides() {
        let p = policy(serde_json::json!({
            "indexingMode": "consistent",
            "includedPaths": [{"path": "/*"}, {"path": "/big/keep/?"}],
            "excludedPaths": [{"path": "/big/*"}, {"path": "/\"_etag\"/?"}]
        }));
        assert!(p.indexes(&["a"]));
        assert!(p.indexes(&["tags", "[]"]));
        assert!(!p.indexes(&["big", "x"]));
        assert!(!p.indexes(&["big", "x", "y"]));
        assert!(p.indexes(&["big", "keep"]));
        assert!(!p.indexes(&["big", "keep", "deeper"]));
        assert!(!p.indexes(&["_etag"]));
        assert!(!p.is_everything());
        assert!(IndexingPolicy::default().is_everything());
    }

    #[test]
    fn only_included_paths_are_indexed_when_the_root_is_excluded() {
        let p = policy(serde_json::json!({
            "includedPaths": [{"path": "/customerId/?"}, {"path": "/tags/[]/?"}],
            "excludedPaths": [{"path": "/*"}],
            "compositeIndexes": [[{"path": "/a"}, {"path": "/b"}]]
        }));
        assert!(p.indexes(&["customerId"]));
        assert!(p.indexes(&["tags", "[]"]));
        assert!(!p.indexes(&["customerId", "x"]));
        assert!(!p.indexes(&["other"]));
        assert_eq!(p.extra_terms(), 1);
        let off = policy(serde_json::json!({"indexingMode": "none"}));
        assert!(off.is_off() && !off.indexes(&["a"]) && off.extra_terms() == 0);
        assert!(policy(serde_json::json!({"automatic": false})).is_off());
    }

    #[test]
    fn bad_policies_say_which_field_is_wrong() {
        let err = |v: Value| IndexingPolicy::from_json(&v, "t").unwrap_err();
        assert!(err(serde_json::json!({"indexingMode": "eager"})).contains("/indexingMode"));
        assert!(err(serde_json::json!({"includedPaths": [{"path": "/a"}]})).contains("/? or /*"));
        assert!(err(serde_json::json!({"excludedPaths": [{"p": 1}]})).contains("/excludedPaths/0"));
        assert!(
            err(serde_json::json!({"includedPaths": [{"path": "a/?"}]}))
                .contains("/includedPaths/0/path")
        );
        assert!(err(serde_json::json!([1])).contains("JSON object"));
        let e = IndexingPolicy::read("p.json", "{\n  \"indexingMode\": ,\n}").unwrap_err();
        assert!(e.starts_with("p.json:2:"), "{e}");
    }

    #[test]
    fn quoted_names_and_container_resources_are_read() {
        let text = r#"{"properties":{"resource":{"indexingPolicy":{"includedPaths":[{"path":"/\"my-prop\"/?"}],"excludedPaths":[{"path":"/*"}]}}}}"#;
        let p = IndexingPolicy::read("c.json", text).unwrap();
        assert!(p.indexes(&["my-prop"]) && !p.indexes(&["other"]));
        assert_eq!(p.describe(), "c.json: included /\"my-prop\"/?; excluded /*");
    }
}
