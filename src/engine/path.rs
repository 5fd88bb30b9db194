//! Partition-key paths: `/a/b`, with quoted segments `/"my-prop"` or `/'x'` for names that
//! are not letters, digits and `_` (a backslash escapes the quote or itself), as the SDKs'
//! path parser accepts them.

use std::fmt;

/// A parsed partition-key path: the property names from the document root down.
///
/// Paths are compared constantly while routing, so each carries a fingerprint of its
/// segments that settles most inequalities without comparing strings.
#[derive(Clone, Debug)]
pub struct KeyPath {
    segments: Vec<String>,
    fingerprint: u64,
}

fn fingerprint(segments: &[String]) -> u64 {
    segments.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, s| {
        s.bytes()
            .chain([0xFF])
            .fold(h, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
    })
}

impl PartialEq for KeyPath {
    fn eq(&self, other: &Self) -> bool {
        self.fingerprint == other.fingerprint && self.segments == other.segments
    }
}
impl Eq for KeyPath {}
impl std::hash::Hash for KeyPath {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.segments.hash(state)
    }
}
impl PartialOrd for KeyPath {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for KeyPath {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if self == other {
            return std::cmp::Ordering::Equal;
        }
        self.segments.cmp(&other.segments)
    }
}

/// Why a path was rejected, and at which byte of the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} at character {}", .offset + 1)]
pub struct PathError {
    /// Byte offset into the path text where the problem was found.
    pub offset: usize,
    /// What was expected.
    pub message: String,
}

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, PathError> {
    Err(PathError {
        offset,
        message: message.into(),
    })
}

fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl KeyPath {
    /// Parses a whole path.
    pub fn parse(text: &str) -> Result<KeyPath, PathError> {
        let (path, used) = KeyPath::parse_prefix(text)?;
        if used != text.len() {
            let c = text[used..].chars().next().unwrap_or(' ');
            return err(
                used,
                format!(
                    "unexpected '{c}' in path (property names are letters, digits and '_'; quote others: /\"my-prop\")"
                ),
            );
        }
        Ok(path)
    }

    /// Parses a path at the start of `text`; returns it and the bytes it used. Stops at the
    /// first character that cannot continue a path (`,` or `)` in a key spec).
    pub fn parse_prefix(text: &str) -> Result<(KeyPath, usize), PathError> {
        let mut segments = Vec::new();
        let mut pos = 0;
        while text[pos..].starts_with('/') {
            pos += 1;
            let (segment, used) = parse_segment(text, pos)?;
            segments.push(segment);
            pos += used;
        }
        if segments.is_empty() {
            return err(pos, "expected a path starting with '/'");
        }
        Ok((KeyPath::new(segments), pos))
    }

    /// A path from already-split property names.
    pub fn from_segments<S: Into<String>>(segments: impl IntoIterator<Item = S>) -> KeyPath {
        KeyPath::new(segments.into_iter().map(Into::into).collect())
    }

    fn new(segments: Vec<String>) -> KeyPath {
        KeyPath {
            fingerprint: fingerprint(&segments),
            segments,
        }
    }

    /// The property names, root first.
    pub fn segments(&self) -> &[String] {
        &self.segments
    }
}

fn parse_segment(text: &str, start: usize) -> Result<(String, usize), PathError> {
    let rest = &text[start..];
    match rest.chars().next() {
        Some(q @ ('"' | '\'')) => parse_quoted(text, start, q),
        Some('*') => err(start, "wildcards are not allowed in partition-key paths"),
        Some(c) if is_plain(c) => {
            let len = rest.find(|c: char| !is_plain(c)).unwrap_or(rest.len());
            Ok((rest[..len].to_owned(), len))
        }
        Some('/') => err(start, "empty property name ('//')"),
        None => err(
            start,
            "trailing '/' (a path names a property after each '/')",
        ),
        Some(c) => err(
            start,
            format!(
                "unexpected '{c}' in path (property names are letters, digits and '_'; quote others: /\"my-prop\")"
            ),
        ),
    }
}

fn parse_quoted(text: &str, start: usize, quote: char) -> Result<(String, usize), PathError> {
    let mut out = String::new();
    let mut chars = text[start + 1..].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, e)) => out.push(e),
                None => break,
            },
            c if c == quote => {
                if out.is_empty() {
                    return err(start, "empty quoted property name");
                }
                return Ok((out, i + 2));
            }
            c => out.push(c),
        }
    }
    err(
        start,
        format!("unterminated quoted property name (missing {quote})"),
    )
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.segments {
            if !s.is_empty() && s.chars().all(is_plain) {
                write!(f, "/{s}")?;
            } else {
                f.write_str("/\"")?;
                for c in s.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(p: &str) -> Vec<String> {
        KeyPath::parse(p).unwrap().segments().to_vec()
    }

    #[test]
    fn plain_nested_and_quoted_paths() {
        assert_eq!(segs("/tenantId"), ["tenantId"]);
        assert_eq!(segs("/a/b_2/C3"), ["a", "b_2", "C3"]);
        assert_eq!(segs("/\"my-prop\""), ["my-prop"]);
        assert_eq!(segs("/'x y'/z"), ["x y", "z"]);
        assert_eq!(segs(r#"/"a\"b""#), ["a\"b"]);
    }

    #[test]
    fn canonical_form_round_trips() {
        for p in ["/tenantId", "/a/b", "/\"my-prop\"", r#"/"a\"b\\c"/d"#] {
            let parsed = KeyPath::parse(p).unwrap();
            assert_eq!(KeyPath::parse(&parsed.to_string()).unwrap(), parsed);
        }
        assert_eq!(KeyPath::parse("/'x'").unwrap().to_string(), "/x");
    }

    #[test]
    fn invalid_paths_say_where() {
        for (p, offset) in [
            ("tenantId", 0),
            ("/", 1),
            ("/a/", 3),
            ("//a", 1),
            ("/a/*", 3),
            ("/my-prop", 3),
            ("/\"open", 1),
            ("/\"\"", 1),
        ] {
            let e = KeyPath::parse(p).unwrap_err();
            assert_eq!(e.offset, offset, "{p}: {e}");
        }
    }

    #[test]
    fn prefix_parsing_stops_at_spec_punctuation() {
        let (p, used) = KeyPath::parse_prefix("/a/b,/c").unwrap();
        assert_eq!((p.to_string().as_str(), used), ("/a/b", 4));
        let (_, used) = KeyPath::parse_prefix("/d)").unwrap();
        assert_eq!(used, 2);
    }
}
