//! The `--key` parser: text to [`KeySpec`], or a [`SpecError`] that points at the byte where
//! the text stops making sense and says what was expected there.

use std::fmt;
use std::str::FromStr;

use crate::engine::KeyPath;
use crate::engine::definition::MAX_LEVELS;

use super::spec::{KeyLevel, KeySpec, MAX_SUFFIXES, RuleError};

/// Why a spec was rejected, and at which byte of the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} at character {}", .offset + 1)]
pub struct SpecError {
    /// Byte offset into the spec where the problem was found (the text's length when the
    /// spec ended too early).
    pub offset: usize,
    /// What was expected there.
    pub message: String,
}

impl SpecError {
    fn at(offset: usize, message: impl Into<String>) -> SpecError {
        SpecError {
            offset,
            message: message.into(),
        }
    }

    /// The message, then the spec on its own line indented by two spaces, then a caret under
    /// the offending character. A command line prints it after `invalid --key: `:
    ///
    /// ```text
    /// concat joins at least 2 paths: expected ',' and another path
    ///   concat(/a)
    ///            ^
    /// ```
    ///
    /// Control characters (tabs, newlines) show as spaces so the caret stays in its column.
    pub fn render(&self, spec: &str) -> String {
        let shown: String = spec
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let column = spec
            .char_indices()
            .take_while(|&(i, _)| i < self.offset)
            .count();
        format!("{}\n  {shown}\n  {}^", self.message, " ".repeat(column))
    }
}

const EXPECTED_LEVEL: &str = "expected a key level: a path like /tenantId, or concat(...), rand_suffix(...) or hash_suffix(...)";

const PATH_CHARS: &str = "property names are letters, digits and '_'; quote others: /\"my-prop\"";

impl KeySpec {
    /// Parses a spec: 1 to 3 comma-separated levels, each a path or a synthetic function.
    /// Whitespace around tokens is allowed.
    pub fn parse(text: &str) -> Result<KeySpec, SpecError> {
        Parser { text, pos: 0 }.spec()
    }
}

impl FromStr for KeySpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<KeySpec, SpecError> {
        KeySpec::parse(text)
    }
}

/// A cursor over the spec text.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

/// The functions and how they are called, for error messages.
#[derive(Clone, Copy)]
enum Function {
    Concat,
    RandSuffix,
    HashSuffix,
}

impl Function {
    fn from_name(name: &str) -> Option<Function> {
        match name {
            "concat" => Some(Function::Concat),
            "rand_suffix" => Some(Function::RandSuffix),
            "hash_suffix" => Some(Function::HashSuffix),
            _ => None,
        }
    }

    fn usage(self) -> &'static str {
        match self {
            Function::Concat => "concat(/path,/path,...)",
            Function::RandSuffix => "rand_suffix(/path,N)",
            Function::HashSuffix => "hash_suffix(/path,/hashedPath,N)",
        }
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let usage = self.usage();
        f.write_str(&usage[..usage.find('(').unwrap_or(usage.len())])
    }
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Consumes `c` (after whitespace) or fails with `message` where it should have been.
    fn expect(&mut self, c: char, message: impl FnOnce() -> String) -> Result<(), SpecError> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            Ok(())
        } else {
            Err(SpecError::at(self.pos, message()))
        }
    }

    fn spec(mut self) -> Result<KeySpec, SpecError> {
        let mut levels: Vec<KeyLevel> = Vec::new();
        loop {
            self.skip_ws();
            let start = self.pos;
            if levels.len() == MAX_LEVELS {
                return Err(SpecError::at(
                    start,
                    "a hierarchical key has at most 3 levels",
                ));
            }
            let level = self.level()?;
            if let Some(first) = levels.iter().position(|l| *l == level) {
                let rule = RuleError::Duplicate {
                    level: levels.len() + 1,
                    first: first + 1,
                };
                return Err(SpecError::at(start, rule.to_string()));
            }
            levels.push(level);
            self.skip_ws();
            match self.peek() {
                None => break,
                Some(',') => self.pos += 1,
                Some(c) => {
                    let message = format!(
                        "expected ',' and another level, or the end of the key, found '{c}'"
                    );
                    return Err(SpecError::at(self.pos, message));
                }
            }
        }
        KeySpec::new(levels).map_err(|rule| SpecError::at(0, rule.to_string()))
    }

    fn level(&mut self) -> Result<KeyLevel, SpecError> {
        if self.peek() == Some('/') {
            return Ok(KeyLevel::Path(self.path()?));
        }
        let start = self.pos;
        let name = self.word();
        self.skip_ws();
        if name.is_empty() || self.peek() != Some('(') {
            return Err(SpecError::at(start, missing_slash(name)));
        }
        let Some(function) = Function::from_name(name) else {
            let message = format!(
                "unknown function '{name}' (expected concat, rand_suffix or hash_suffix, in lower case)"
            );
            return Err(SpecError::at(start, message));
        };
        self.pos += 1;
        let level = self.arguments(function)?;
        self.expect(')', || format!("expected ')' to close {function}("))?;
        Ok(level)
    }

    /// A run of letters, digits and `_` (a function name, or a path missing its `/`).
    fn word(&mut self) -> &'a str {
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        self.pos += len;
        &rest[..len]
    }

    fn arguments(&mut self, function: Function) -> Result<KeyLevel, SpecError> {
        let path = self.argument_path(function)?;
        Ok(match function {
            Function::Concat => KeyLevel::Concat(self.more_paths(path)?),
            Function::RandSuffix => KeyLevel::RandSuffix {
                path,
                n: self.count(function)?,
            },
            Function::HashSuffix => {
                self.comma(function)?;
                let by = self.argument_path(function)?;
                let n = self.count(function)?;
                KeyLevel::HashSuffix { path, by, n }
            }
        })
    }

    /// The rest of `concat`'s paths after the first: at least one more.
    fn more_paths(&mut self, first: KeyPath) -> Result<Vec<KeyPath>, SpecError> {
        let mut paths = vec![first];
        loop {
            self.skip_ws();
            if self.peek() != Some(',') {
                break;
            }
            self.pos += 1;
            paths.push(self.argument_path(Function::Concat)?);
        }
        if paths.len() < 2 {
            let message = "concat joins at least 2 paths: expected ',' and another path";
            return Err(SpecError::at(self.pos, message));
        }
        Ok(paths)
    }

    fn comma(&mut self, function: Function) -> Result<(), SpecError> {
        self.expect(',', || {
            format!("expected ',' and the next argument of {}", function.usage())
        })
    }

    fn argument_path(&mut self, function: Function) -> Result<KeyPath, SpecError> {
        self.skip_ws();
        if self.peek() != Some('/') {
            let message = format!(
                "expected a path starting with '/' (usage: {})",
                function.usage()
            );
            return Err(SpecError::at(self.pos, message));
        }
        self.path()
    }

    /// A path, which must end at whitespace, `,`, `)` or the end of the text.
    fn path(&mut self) -> Result<KeyPath, SpecError> {
        let (path, used) = KeyPath::parse_prefix(self.rest())
            .map_err(|e| SpecError::at(self.pos + e.offset, e.message))?;
        self.pos += used;
        match self.peek() {
            Some(c) if !(c.is_whitespace() || c == ',' || c == ')') => {
                let message = format!("unexpected '{c}' in path ({PATH_CHARS})");
                Err(SpecError::at(self.pos, message))
            }
            _ => Ok(path),
        }
    }

    /// `, N` with N in `1..=MAX_SUFFIXES`.
    fn count(&mut self, function: Function) -> Result<u32, SpecError> {
        self.comma(function)?;
        self.skip_ws();
        let rest = self.rest();
        let len = rest
            .find(|c: char| c == ',' || c == ')' || c.is_whitespace())
            .unwrap_or(rest.len());
        let token = &rest[..len];
        let n = token
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| token.parse::<u32>().ok())
            .flatten()
            .filter(|n| (1..=MAX_SUFFIXES).contains(n))
            .ok_or_else(|| SpecError::at(self.pos, RuleError::SuffixCount.to_string()))?;
        self.pos += len;
        Ok(n)
    }
}

/// The message for a level that is neither a path nor a function call.
fn missing_slash(word: &str) -> String {
    if word.is_empty() {
        EXPECTED_LEVEL.to_owned()
    } else {
        format!("{EXPECTED_LEVEL} (a path starts with '/': /{word})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::KeyKind;

    fn canonical(text: &str) -> String {
        match KeySpec::parse(text) {
            Ok(spec) => spec.to_string(),
            Err(e) => panic!("{text:?}: {}", e.render(text)),
        }
    }

    #[test]
    fn every_form_parses_and_prints_canonically() {
        for (input, expected) in [
            ("/tenantId", "/tenantId"),
            (" /a/b ", "/a/b"),
            ("/\"my-prop\"", "/\"my-prop\""),
            ("/'x'/y", "/x/y"),
            (
                "/tenantId, /userId ,/sessionId",
                "/tenantId,/userId,/sessionId",
            ),
            ("concat( /deviceId , /date )", "concat(/deviceId,/date)"),
            ("concat(/a,/b,/c/d)", "concat(/a,/b,/c/d)"),
            ("rand_suffix(/date, 400)", "rand_suffix(/date,400)"),
            ("rand_suffix (/date,007)", "rand_suffix(/date,7)"),
            ("hash_suffix(/date,/vin,400)", "hash_suffix(/date,/vin,400)"),
            ("\t/tenantId,\nconcat(/a,/b)", "/tenantId,concat(/a,/b)"),
            (
                "/t, rand_suffix(/d,1000000), hash_suffix(/\"a,b\",/c,1)",
                "/t,rand_suffix(/d,1000000),hash_suffix(/\"a,b\",/c,1)",
            ),
        ] {
            assert_eq!(canonical(input), expected, "{input:?}");
            assert_eq!(canonical(expected), expected);
        }
    }

    #[test]
    fn parse_builds_the_levels() {
        let spec: KeySpec = "/t,hash_suffix(/d,/v,9)".parse().unwrap();
        let path = |p: &str| KeyPath::parse(p).unwrap();
        assert_eq!(
            spec.levels(),
            [
                KeyLevel::Path(path("/t")),
                KeyLevel::HashSuffix {
                    path: path("/d"),
                    by: path("/v"),
                    n: 9
                }
            ]
        );
        assert_eq!(spec.kind(), KeyKind::Hierarchical);
    }

    #[test]
    fn errors_point_at_the_offending_byte() {
        for (spec, offset, says) in [
            ("", 0, "expected a key level"),
            ("   ", 3, "expected a key level"),
            ("concat(", 7, "expected a path starting with '/'"),
            ("concat(/a)", 9, "at least 2 paths"),
            ("concat(/a,)", 10, "expected a path starting with '/'"),
            ("rand_suffix(/a,0)", 15, "integer from 1 to 1000000"),
            ("rand_suffix(/a,x)", 15, "integer from 1 to 1000000"),
            ("rand_suffix(/a, 1.5)", 16, "integer from 1 to 1000000"),
            ("rand_suffix(/a,-3)", 15, "integer from 1 to 1000000"),
            ("rand_suffix(/a,+3)", 15, "integer from 1 to 1000000"),
            ("rand_suffix(/a,1000001)", 15, "integer from 1 to 1000000"),
            (
                "rand_suffix(/a,99999999999999999999)",
                15,
                "integer from 1 to",
            ),
            ("rand_suffix(/a)", 14, "expected ','"),
            (
                "hash_suffix(/a,400)",
                15,
                "hash_suffix(/path,/hashedPath,N)",
            ),
            ("/a,/b,/c,/d", 9, "at most 3 levels"),
            ("/a,", 3, "expected a key level"),
            ("/a,/b,", 6, "expected a key level"),
            ("foo(/a)", 0, "unknown function 'foo'"),
            ("Concat(/a,/b)", 0, "unknown function 'Concat'"),
            ("tenantId", 0, "a path starts with '/': /tenantId"),
            ("/a b", 3, "expected ','"),
            ("/my-prop", 3, "unexpected '-' in path"),
            ("concat(/a,/b", 12, "expected ')' to close concat("),
            ("concat(/a,/b))", 13, "expected ','"),
            ("(/a)", 0, "expected a key level"),
            ("/a)", 2, "found ')'"),
            ("concat(/a,/b-c)", 12, "unexpected '-' in path"),
            ("concat(/a,//b)", 11, "empty property name"),
            ("concat(/a,/\"open)", 11, "unterminated quoted"),
            ("rand_suffix(/a/,4)", 15, "unexpected ','"),
            ("/a,/a", 3, "level 2 repeats level 1"),
            ("concat(/a,/b) x", 14, "expected ','"),
        ] {
            let e = KeySpec::parse(spec).unwrap_err();
            assert_eq!(e.offset, offset, "{spec:?}: {e}");
            assert!(e.message.contains(says), "{spec:?}: {e}");
        }
    }

    #[test]
    fn errors_render_with_a_caret() {
        let spec = "concat(/a,)";
        let e = KeySpec::parse(spec).unwrap_err();
        assert_eq!(
            e.render(spec),
            "expected a path starting with '/' (usage: concat(/path,/path,...))\n  concat(/a,)\n            ^"
        );
        let spec = "/\"é\",\t/a b";
        let e = KeySpec::parse(spec).unwrap_err();
        let rendered = e.render(spec);
        assert!(
            rendered.ends_with("\n  /\"é\", /a b\n           ^"),
            "{rendered}"
        );
        let e = KeySpec::parse("concat(").unwrap_err();
        assert!(e.render("concat(").ends_with("  concat(\n         ^"));
    }

    mod properties {
        use proptest::prelude::*;

        use super::*;

        fn path() -> impl Strategy<Value = KeyPath> {
            let segment = prop_oneof!["[a-zA-Z0-9_]{1,8}", "[ -~]{1,5}", "\\PC{1,3}"];
            proptest::collection::vec(segment, 1..3).prop_map(KeyPath::from_segments)
        }

        fn level() -> impl Strategy<Value = KeyLevel> {
            let n = 1..=MAX_SUFFIXES;
            prop_oneof![
                path().prop_map(KeyLevel::Path),
                proptest::collection::vec(path(), 2..4).prop_map(KeyLevel::Concat),
                (path(), n.clone()).prop_map(|(path, n)| KeyLevel::RandSuffix { path, n }),
                (path(), path(), n).prop_map(|(path, by, n)| KeyLevel::HashSuffix { path, by, n }),
            ]
        }

        fn spec() -> impl Strategy<Value = KeySpec> {
            proptest::collection::vec(level(), 1..=3)
                .prop_filter_map("levels must differ", |levels| KeySpec::new(levels).ok())
        }

        /// The spec with `ws` around every token.
        fn loose(spec: &KeySpec, ws: &str) -> String {
            let level = |l: &KeyLevel| {
                let args: Vec<String> = match l {
                    KeyLevel::Path(p) => return format!("{ws}{p}{ws}"),
                    KeyLevel::Concat(ps) => ps.iter().map(ToString::to_string).collect(),
                    KeyLevel::RandSuffix { path, n } => vec![path.to_string(), n.to_string()],
                    KeyLevel::HashSuffix { path, by, n } => {
                        vec![path.to_string(), by.to_string(), n.to_string()]
                    }
                };
                let text = l.to_string();
                let name = &text[..text.find('(').unwrap()];
                let args = args.join(&format!("{ws},{ws}"));
                format!("{ws}{name}{ws}({ws}{args}{ws}){ws}")
            };
            let levels: Vec<String> = spec.levels().iter().map(level).collect();
            levels.join(",")
        }

        /// Any text: no panic, errors inside the text, specs that parse round-trip.
        fn check_any(text: &str) -> Result<(), TestCaseError> {
            match KeySpec::parse(text) {
                Ok(spec) => {
                    let printed = spec.to_string();
                    let again = KeySpec::parse(&printed).map_err(|e| {
                        TestCaseError::fail(format!("{printed:?}: {}", e.render(&printed)))
                    })?;
                    prop_assert_eq!(&again, &spec);
                    prop_assert_eq!(again.to_string(), printed);
                }
                Err(e) => {
                    prop_assert!(text.is_char_boundary(e.offset), "{:?}: {}", text, e);
                    let _ = e.render(text);
                }
            }
            Ok(())
        }

        proptest! {
            #[test]
            fn canonical_form_round_trips(spec in spec()) {
                let printed = spec.to_string();
                let parsed = KeySpec::parse(&printed).map_err(|e| {
                    TestCaseError::fail(format!("{printed:?}: {}", e.render(&printed)))
                })?;
                prop_assert_eq!(&parsed, &spec);
                prop_assert_eq!(parsed.to_string(), printed);
            }

            #[test]
            fn whitespace_around_tokens_is_ignored(
                spec in spec(),
                ws in prop_oneof![Just(""), Just(" "), Just("\t"), Just(" \n  ")],
            ) {
                let text = loose(&spec, ws);
                let parsed = KeySpec::parse(&text).map_err(|e| {
                    TestCaseError::fail(format!("{text:?}: {}", e.render(&text)))
                })?;
                prop_assert_eq!(parsed, spec);
            }

            #[test]
            fn arbitrary_text_never_panics(text in "\\PC{0,40}") {
                check_any(&text)?;
            }

            #[test]
            fn near_grammar_text_never_panics(text in "[/ab,()0-9 \"'\\\\_]{0,30}|(concat|rand_suffix|hash_suffix)\\([/ab,()0-9 \"'\\\\_]{0,20}") {
                check_any(&text)?;
            }
        }
    }
}
