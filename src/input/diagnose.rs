//! Precise diagnoses of invalid documents. simd-json only says that a document failed (its
//! byte index is coarse, and relative to the string for escape errors), so on that rare path
//! a small strict checker reads the document's original text again and says where and what:
//! `expected ',' or '}' after an object member, found a string`.
//!
//! The checker follows RFC 8259 as simd-json does, including its rejection of unpaired
//! surrogate escapes and of numbers beyond the range of a double.

use super::chunk::End;
use super::error::Problem;

/// A problem at a byte offset of the document.
pub(crate) type Diagnosis = (usize, Problem);

/// The first problem in `doc`, or `None` if the checker finds it valid.
pub(crate) fn diagnose(doc: &[u8], max_depth: usize, end: End) -> Option<Diagnosis> {
    let mut c = Checker {
        b: doc,
        i: 0,
        stack: Vec::new(),
        max_depth,
        end,
    };
    let syntax = c.document().err();
    let utf8 = std::str::from_utf8(doc).err().map(|e| e.valid_up_to());
    match (syntax, utf8) {
        (Some(s), Some(u)) if u >= s.0 => Some(s),
        (_, Some(u)) => Some((u, utf8_problem(doc[u]))),
        (s, None) => s,
    }
}

fn utf8_problem(byte: u8) -> Problem {
    Problem::Syntax(format!("invalid UTF-8 (byte 0x{byte:02X})"))
}

/// Whether brackets and strings in `doc` nest properly: if so, a framer that tracked them
/// found the document's true end even though the document is invalid.
pub(crate) fn balanced(doc: &[u8]) -> bool {
    let (mut stack, mut in_str, mut esc) = (Vec::new(), false, false);
    for &c in doc {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => stack.push(c),
            b'}' if stack.pop() != Some(b'{') => return false,
            b']' if stack.pop() != Some(b'[') => return false,
            _ => {}
        }
    }
    !in_str && stack.is_empty()
}

/// What the byte at `i` is, for "found ..." in messages: `a string`, `'}'`, `'é'`.
pub(crate) fn describe_at(b: &[u8], i: usize, eof: &str) -> String {
    let Some(&c) = b.get(i) else {
        return eof.to_owned();
    };
    match c {
        b'"' => "a string".into(),
        b'-' | b'0'..=b'9' => "a number".into(),
        b'\n' => "a line end".into(),
        0x80.. => match std::str::from_utf8(&b[i..b.len().min(i + 4)])
            .ok()
            .or_else(|| std::str::from_utf8(&b[i..b.len().min(i + 2)]).ok())
            .and_then(|s| s.chars().next())
        {
            Some(ch) => format!("'{ch}'"),
            None => format!("byte 0x{c:02X}"),
        },
        c if c < 0x20 => format!("control character U+{c:04X}"),
        c => format!("'{}'", c as char),
    }
}

/// What the root value is, for "expected a JSON object (a document), found ...".
pub(crate) fn describe_root(b: &[u8], i: usize, end: End) -> String {
    match b.get(i) {
        Some(b'[') => "an array".into(),
        Some(b't' | b'f') => "a boolean".into(),
        Some(b'n') => "null".into(),
        _ => describe_at(b, i, eof_text(end)),
    }
}

fn eof_text(end: End) -> &'static str {
    match end {
        End::Line => "the end of the line",
        End::Input => "the end of the input",
        End::Cut => "a line that starts a new document",
    }
}

struct Checker<'a> {
    b: &'a [u8],
    i: usize,
    /// Open containers: `{` or `[`.
    stack: Vec<u8>,
    max_depth: usize,
    end: End,
}

type Step = Result<(), Diagnosis>;

impl Checker<'_> {
    fn document(&mut self) -> Step {
        self.ws();
        if self.peek() != Some(b'{') {
            let found = describe_root(self.b, self.i, self.end);
            return Err((self.i, Problem::NotAnObject(found)));
        }
        self.value()?;
        self.ws();
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.expected("expected the end of the document")),
        }
    }

    /// One value, with everything nested in it; iterative, so depth costs no stack.
    fn value(&mut self) -> Step {
        loop {
            self.ws();
            match self.peek() {
                Some(b'{') => {
                    self.open()?;
                    if self.peek() == Some(b'}') {
                        self.close();
                    } else {
                        self.member_name(false)?;
                        continue;
                    }
                }
                Some(b'[') => {
                    self.open()?;
                    if self.peek() == Some(b']') {
                        self.close();
                    } else {
                        continue;
                    }
                }
                Some(b'"') => self.string()?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't' | b'f' | b'n') => self.literal()?,
                _ => return Err(self.expected("expected a value")),
            }
            if self.after_value()? {
                return Ok(());
            }
        }
    }

    /// After a value: closes finished containers; `Ok(true)` when the root is done,
    /// `Ok(false)` when another value is due.
    fn after_value(&mut self) -> Result<bool, Diagnosis> {
        while let Some(&open) = self.stack.last() {
            self.ws();
            match (open, self.peek()) {
                (b'{', Some(b'}')) | (b'[', Some(b']')) => self.close(),
                (b'{', Some(b',')) => {
                    self.i += 1;
                    self.member_name(true)?;
                    return Ok(false);
                }
                (b'[', Some(b',')) => {
                    self.i += 1;
                    self.ws();
                    if self.peek() == Some(b']') {
                        return Err(self.expected("expected a value after ','"));
                    }
                    return Ok(false);
                }
                (b'{', _) => {
                    return Err(self.expected("expected ',' or '}' after an object member"));
                }
                _ => return Err(self.expected("expected ',' or ']' after an array element")),
            }
        }
        Ok(true)
    }

    fn open(&mut self) -> Step {
        if self.stack.len() >= self.max_depth {
            let limit = self.max_depth;
            return Err((self.i, Problem::TooDeep { limit }));
        }
        self.stack.push(self.b[self.i]);
        self.i += 1;
        self.ws();
        Ok(())
    }

    fn close(&mut self) {
        self.stack.pop();
        self.i += 1;
    }

    /// A property name and its colon.
    fn member_name(&mut self, after_comma: bool) -> Step {
        self.ws();
        if self.peek() != Some(b'"') {
            return Err(self.expected(if after_comma {
                "expected a property name (a string) after ','"
            } else {
                "expected a property name (a string) or '}'"
            }));
        }
        self.string()?;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.expected("expected ':' after the property name"));
        }
        self.i += 1;
        Ok(())
    }

    fn string(&mut self) -> Step {
        let start = self.i;
        self.i += 1;
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => self.escape()?,
                Some(b'\n') | None => {
                    let msg = format!(
                        "unterminated string: {} comes before the closing '\"'",
                        describe_at(self.b, self.i, eof_text(self.end))
                    );
                    return Err((start, Problem::Syntax(msg)));
                }
                Some(c) if c < 0x20 => {
                    let msg =
                        format!("control character U+{c:04X} in a string (write it as \\u{c:04X})");
                    return Err((self.i, Problem::Syntax(msg)));
                }
                Some(_) => self.i += 1,
            }
        }
    }

    fn escape(&mut self) -> Step {
        let at = self.i;
        match self.b.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.i += 2;
                Ok(())
            }
            Some(b'u') => self.unicode_escape(at),
            _ => {
                let what = describe_at(self.b, at + 1, eof_text(self.end));
                let msg = format!(
                    "invalid escape in a string: '\\' followed by {what} (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
                );
                Err((at, Problem::Syntax(msg)))
            }
        }
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.b.get(at + 2..at + 6)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(text, 16).ok()
    }

    fn unicode_escape(&mut self, at: usize) -> Step {
        let fail = |m: String| Err((at, Problem::Syntax(m)));
        let Some(u) = self.hex4(at) else {
            return fail("invalid \\u escape: expected four hex digits".into());
        };
        self.i = at + 6;
        if (0xDC00..0xE000).contains(&u) {
            return fail(format!(
                "invalid \\u{u:04X} escape: a low surrogate without a high surrogate before it"
            ));
        }
        if !(0xD800..0xDC00).contains(&u) {
            return Ok(());
        }
        let next_is_u = self.b.get(self.i..self.i + 2) == Some(&b"\\u"[..]);
        match self.hex4(self.i) {
            Some(low) if next_is_u && (0xDC00..0xE000).contains(&low) => {
                self.i += 6;
                Ok(())
            }
            _ => fail(format!(
                "invalid \\u{u:04X} escape: a high surrogate must be followed by a low surrogate escape (\\uDC00 to \\uDFFF)"
            )),
        }
    }

    fn number(&mut self) -> Step {
        let start = self.i;
        let fail = |at: usize, m: &str| Err((at, Problem::Syntax(format!("invalid number: {m}"))));
        let mut i = start + usize::from(self.b[start] == b'-');
        match self.b.get(i) {
            Some(b'0') if self.b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                return fail(i, "leading zeros are not allowed");
            }
            Some(b'0'..=b'9') => i = self.digits(i),
            _ => return fail(i, "expected a digit after '-'"),
        }
        if self.b.get(i) == Some(&b'.') {
            let j = self.digits(i + 1);
            if j == i + 1 {
                return fail(j, "expected a digit after '.'");
            }
            i = j;
        }
        if matches!(self.b.get(i), Some(b'e' | b'E')) {
            let signed = usize::from(matches!(self.b.get(i + 1), Some(b'+' | b'-')));
            let j = self.digits(i + 1 + signed);
            if j == i + 1 + signed {
                return fail(j, "expected a digit in the exponent");
            }
            i = j;
        }
        self.i = i;
        if !self.at_delimiter() {
            return Err(self.expected("invalid number"));
        }
        let text = std::str::from_utf8(&self.b[start..i]).unwrap_or("0");
        if text.parse::<f64>().map_or(true, f64::is_infinite) {
            let m = "number out of range (beyond ±1.7976931348623157e308)";
            return Err((start, Problem::Syntax(m.into())));
        }
        Ok(())
    }

    fn digits(&self, mut i: usize) -> usize {
        while self.b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    }

    fn literal(&mut self) -> Step {
        let word: &[u8] = match self.b[self.i] {
            b't' => b"true",
            b'f' => b"false",
            _ => b"null",
        };
        let start = self.i;
        if self.b[start..].starts_with(word) {
            self.i += word.len();
            if self.at_delimiter() {
                return Ok(());
            }
        }
        let m = format!(
            "invalid literal: expected {}",
            String::from_utf8_lossy(word)
        );
        Err((start, Problem::Syntax(m)))
    }

    fn at_delimiter(&self) -> bool {
        self.peek()
            .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b',' | b'}' | b']'))
    }

    fn expected(&self, what: &str) -> Diagnosis {
        let found = describe_at(self.b, self.i, eof_text(self.end));
        let hint = match (what.contains("after ','"), self.peek(), self.end) {
            (true, Some(b'}' | b']'), _) => " (trailing commas are not allowed)",
            (_, None, End::Line) => " (NDJSON: one whole document a line)",
            _ => "",
        };
        (
            self.i,
            Problem::Syntax(format!("{what}, found {found}{hint}")),
        )
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(doc: &str) -> (usize, String) {
        let (at, p) = diagnose(doc.as_bytes(), 128, End::Line).expect("invalid");
        (at, p.to_string())
    }

    #[test]
    fn valid_documents_have_no_diagnosis() {
        for d in [
            "{}",
            " {\"a\": [1, -2.5e+3, true, false, null, {\"b\": \"\\u00e9\\ud83d\\ude00\"}]} ",
            "{\"n\": 18446744073709551617, \"z\": -0.0, \"e\": 1E-400}",
        ] {
            assert_eq!(diagnose(d.as_bytes(), 128, End::Line), None, "{d}");
        }
    }

    #[test]
    fn each_error_says_what_was_expected_and_where() {
        let cases = [
            (
                "{\"a\":1 \"b\":2}",
                7,
                "expected ',' or '}' after an object member, found a string",
            ),
            (
                "{\"a\" 1}",
                5,
                "expected ':' after the property name, found a number",
            ),
            (
                "{\"a\":1,}",
                7,
                "expected a property name (a string) after ',', found '}' (trailing commas are not allowed)",
            ),
            (
                "{\"a\":[1,]}",
                8,
                "expected a value after ',', found ']' (trailing commas are not allowed)",
            ),
            (
                "{\"a\":[1 2]}",
                8,
                "expected ',' or ']' after an array element, found a number",
            ),
            ("{\"a\":", 5, "expected a value, found the end of the line"),
            (
                "{\"a\":\"x\\q\"}",
                7,
                "invalid escape in a string: '\\' followed by 'q'",
            ),
            (
                "{\"a\":\"\\ud83d\"}",
                6,
                "invalid \\uD83D escape: a high surrogate must be followed",
            ),
            (
                "{\"a\":\"\\ude00\"}",
                6,
                "invalid \\uDE00 escape: a low surrogate",
            ),
            (
                "{\"a\":\"x",
                5,
                "unterminated string: the end of the line comes before",
            ),
            (
                "{\"a\":01}",
                5,
                "invalid number: leading zeros are not allowed",
            ),
            (
                "{\"a\":1.}",
                7,
                "invalid number: expected a digit after '.'",
            ),
            ("{\"a\":1e999}", 5, "number out of range"),
            ("{\"a\":tru}", 5, "invalid literal: expected true"),
            (
                "{\"a\":1}}",
                7,
                "expected the end of the document, found '}'",
            ),
            (
                "[1]",
                0,
                "expected a JSON object (a document), found an array",
            ),
            (
                "42",
                0,
                "expected a JSON object (a document), found a number",
            ),
            (
                "{\"a\":\"\u{1}\"}",
                6,
                "control character U+0001 in a string",
            ),
            (
                "{\"a\":\"\u{e9}\" x}",
                10,
                "expected ',' or '}' after an object member, found 'x'",
            ),
        ];
        for (doc, at, msg) in cases {
            let (got_at, got) = diag(doc);
            assert_eq!(got_at, at, "{doc}: {got}");
            assert!(got.starts_with(msg), "{doc}: {got}");
        }
    }

    #[test]
    fn invalid_utf8_is_found_at_its_byte() {
        let (at, p) = diagnose(b"{\"a\":\"\xff\"}", 128, End::Line).unwrap();
        assert_eq!(
            (at, p.to_string().as_str()),
            (6, "invalid UTF-8 (byte 0xFF)")
        );
    }

    #[test]
    fn depth_is_capped_without_recursion() {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        let (at, p) = diagnose(deep.as_bytes(), 128, End::Line).unwrap();
        assert_eq!((at, p), (5 + 127, Problem::TooDeep { limit: 128 }));
    }

    #[test]
    fn balance_tells_whether_framing_survived() {
        assert!(balanced(br#"{"a":[1,"]"]}"#));
        assert!(balanced(br#"{"a" 1, "b": "\"}"}"#));
        assert!(!balanced(br#"{"a":[1}"#));
        assert!(!balanced(br#"{"a":"x}"#));
    }
}
