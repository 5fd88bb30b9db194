//! The lexer: query text to tokens. Keywords are not told apart from names here (they are
//! case-insensitive words the parser recognises in context); a lexical error becomes a last
//! [`TokenKind::Error`] token, so the parser reports errors in text order.

use super::error::{ParseError, ParseErrorKind};

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TokenKind {
    /// A word: a name or a keyword.
    Word,
    /// `@name`; the value keeps the `@`.
    Parameter,
    /// A string literal; the value is unescaped.
    String,
    /// A number literal, unsigned; the value is its text.
    Number,
    /// An operator or punctuation mark.
    Punct,
    /// The end of the text.
    Eof,
    /// Text that starts no valid token; the parser reports it when it gets there.
    Error(Box<ParseError>),
}

/// One token: its kind, its value and its byte span in the text.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub value: String,
    pub start: usize,
    pub end: usize,
}

/// Operators, longest first so that the first match is the longest.
const PUNCTS: [&str; 31] = [
    ">>>", "??", "!=", "<>", "<=", ">=", "<<", ">>", "||", "(", ")", "[", "]", "{", "}", ",", ".",
    ":", "?", "*", "/", "%", "+", "-", "~", "=", "<", ">", "|", "&", "^",
];

/// Tokenises `text`. The last token is `Eof`, or `Error` at the first lexical error.
pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let mut lexer = Lexer { text, pos: 0 };
    let mut tokens = Vec::new();
    loop {
        let token = lexer.next_token().unwrap_or_else(|e| Token {
            start: e.offset,
            end: e.offset,
            value: String::new(),
            kind: TokenKind::Error(Box::new(e)),
        });
        let last = matches!(token.kind, TokenKind::Eof | TokenKind::Error(_));
        tokens.push(token);
        if last {
            return tokens;
        }
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn error(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        ParseError::at(self.text, offset, kind)
    }

    fn token(&mut self, kind: TokenKind, start: usize, value: String) -> Token {
        Token {
            kind,
            value,
            start,
            end: self.pos,
        }
    }

    fn next_token(&mut self) -> Result<Token, ParseError> {
        self.skip_trivia()?;
        let start = self.pos;
        let Some(c) = self.rest().chars().next() else {
            return Ok(self.token(TokenKind::Eof, start, String::new()));
        };
        if is_word_start(c) {
            let len = self
                .rest()
                .find(|c| !is_word_char(c))
                .unwrap_or(self.rest().len());
            self.pos += len;
            let value = self.text[start..self.pos].to_owned();
            return Ok(self.token(TokenKind::Word, start, value));
        }
        if c.is_ascii_digit()
            || (c == '.' && self.rest()[1..].starts_with(|d: char| d.is_ascii_digit()))
        {
            return Ok(self.number(start));
        }
        match c {
            '"' | '\'' => self.string(c),
            '@' => self.parameter(),
            _ => self.punct(c),
        }
    }

    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
            self.pos += rest.len() - trimmed.len();
            if trimmed.starts_with("--") {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if let Some(comment) = trimmed.strip_prefix("/*") {
                match comment.find("*/") {
                    Some(end) => self.pos += end + 4,
                    None => return Err(self.error(self.pos, ParseErrorKind::UnterminatedComment)),
                }
            } else {
                return Ok(());
            }
        }
    }

    fn digits(&mut self, radix: u32) -> usize {
        let rest = self.rest();
        let len = rest
            .find(|c: char| !c.is_digit(radix))
            .unwrap_or(rest.len());
        self.pos += len;
        len
    }

    /// `12`, `1.5`, `.5`, `1.`, `1e-3`, `0x1F`. An `e` not followed by digits is left for
    /// the next token.
    fn number(&mut self, start: usize) -> Token {
        let rest = self.rest();
        let hex = (rest.starts_with("0x") || rest.starts_with("0X"))
            && rest[2..].starts_with(|c: char| c.is_ascii_hexdigit());
        if hex {
            self.pos += 2;
            self.digits(16);
        } else {
            self.digits(10);
            if self.rest().starts_with('.') {
                self.pos += 1;
                self.digits(10);
            }
            self.exponent();
        }
        let value = self.text[start..self.pos].to_owned();
        self.token(TokenKind::Number, start, value)
    }

    fn exponent(&mut self) {
        let rest = self.rest();
        if !rest.starts_with(['e', 'E']) {
            return;
        }
        let sign = usize::from(rest[1..].starts_with(['+', '-']));
        if rest[1 + sign..].starts_with(|c: char| c.is_ascii_digit()) {
            self.pos += 1 + sign;
            self.digits(10);
        }
    }

    fn parameter(&mut self) -> Result<Token, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let len = self
            .rest()
            .find(|c| !is_word_char(c))
            .unwrap_or(self.rest().len());
        if len == 0 {
            return Err(self.error(start, ParseErrorKind::EmptyParameter));
        }
        self.pos += len;
        let value = self.text[start..self.pos].to_owned();
        Ok(self.token(TokenKind::Parameter, start, value))
    }

    fn punct(&mut self, c: char) -> Result<Token, ParseError> {
        let start = self.pos;
        match PUNCTS.iter().find(|p| self.rest().starts_with(**p)) {
            Some(p) => {
                self.pos += p.len();
                Ok(self.token(TokenKind::Punct, start, (*p).to_owned()))
            }
            None => Err(self.error(start, ParseErrorKind::UnexpectedChar(c))),
        }
    }

    /// A string in `quote`s with JSON escapes plus `\'`.
    fn string(&mut self, quote: char) -> Result<Token, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = self.rest();
            let Some(i) = rest.find([quote, '\\']) else {
                return Err(self.error(start, ParseErrorKind::UnterminatedString(quote)));
            };
            out.push_str(&rest[..i]);
            self.pos += i;
            if self.rest().starts_with(quote) {
                self.pos += 1;
                return Ok(self.token(TokenKind::String, start, out));
            }
            self.escape(&mut out)?;
        }
    }

    /// One escape at `self.pos` (a backslash), appended to `out`.
    fn escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        let at = self.pos;
        let mut chars = self.rest()[1..].chars();
        let c = match chars.next() {
            Some('"') => '"',
            Some('\'') => '\'',
            Some('\\') => '\\',
            Some('/') => '/',
            Some('b') => '\u{8}',
            Some('f') => '\u{c}',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('u') => return self.unicode_escape(out),
            other => {
                let shown = other.map_or_else(|| "\\".to_owned(), |c| format!("\\{c}"));
                return Err(self.error(at, ParseErrorKind::InvalidEscape(shown)));
            }
        };
        // Every escaped character above is one byte long.
        self.pos = at + 2;
        out.push(c);
        Ok(())
    }

    /// `\uXXXX`, pairing surrogates; a lone surrogate becomes U+FFFD.
    fn unicode_escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        let at = self.pos;
        let Some(high) = hex4(&self.rest()[2..]) else {
            let shown: String = self.rest().chars().take(6).collect();
            return Err(self.error(at, ParseErrorKind::InvalidEscape(shown)));
        };
        self.pos += 6;
        let low = self.rest().strip_prefix("\\u").and_then(hex4);
        if let Some(low) =
            low.filter(|l| (0xD800..0xDC00).contains(&high) && (0xDC00..0xE000).contains(l))
        {
            self.pos += 6;
            let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
            return Ok(());
        }
        out.push(char::from_u32(high).unwrap_or('\u{fffd}'));
        Ok(())
    }
}

fn hex4(s: &str) -> Option<u32> {
    let digits = s.get(..4)?;
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<String> {
        tokenize(text).into_iter().map(|t| t.value).collect()
    }

    fn one_string(text: &str) -> String {
        let tokens = tokenize(text);
        assert_eq!(tokens[0].kind, TokenKind::String, "{text}");
        tokens[0].value.clone()
    }

    #[test]
    fn numbers_in_every_form() {
        assert_eq!(
            values("1 1.5 .5 1. 1e3 1E-3 2e+2 0x1F"),
            ["1", "1.5", ".5", "1.", "1e3", "1E-3", "2e+2", "0x1F", ""]
        );
        // An exponent without digits is not part of the number.
        assert_eq!(values("1e"), ["1", "e", ""]);
        assert_eq!(values("c.a-1"), ["c", ".", "a", "-", "1", ""]);
    }

    #[test]
    fn strings_unescape() {
        assert_eq!(one_string(r#"'it\'s'"#), "it's");
        assert_eq!(one_string(r#""a\"b\\c\/d""#), "a\"b\\c/d");
        assert_eq!(one_string(r#"'\b\f\n\r\t'"#), "\u{8}\u{c}\n\r\t");
        assert_eq!(one_string(r#"'\u00e9\ud83d\ude00'"#), "é😀");
        assert_eq!(one_string(r#"'\ud83d!'"#), "\u{fffd}!");
        assert_eq!(one_string("\"it's\""), "it's");
    }

    #[test]
    fn comments_whitespace_and_operators() {
        assert_eq!(values("\u{feff}a -- note\n/* x */ b --"), ["a", "b", ""]);
        assert_eq!(
            values(">>>>>=<>!=??"),
            [">>>", ">>", "=", "<>", "!=", "??", ""]
        );
    }

    #[test]
    fn lexical_errors_end_the_tokens() {
        let last = |text| match tokenize(text).pop().unwrap().kind {
            TokenKind::Error(e) => e.to_string(),
            other => format!("{other:?}"),
        };
        assert_eq!(
            last("a 'b"),
            "unterminated string (missing closing ') at 1:3"
        );
        assert!(last(r"'\x'").starts_with("invalid escape sequence \\x"));
        assert!(last(r"'\u12'").starts_with("invalid escape sequence \\u12'"));
        assert_eq!(last("a\n  #"), "unexpected character '#' at 2:3");
        assert_eq!(last("@ x"), "expected a parameter name after '@' at 1:1");
    }
}
