//! Syntax errors: what was expected, what was found, and where (1-based line and column,
//! counted in characters, within the query text).

/// Deepest nesting of expressions and subqueries the parser accepts. Deeper input is
/// rejected rather than risking the stack (parsing, printing and dropping all recurse).
pub const MAX_DEPTH: usize = 256;

/// A query that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at {line}:{column}")]
pub struct ParseError {
    /// 1-based line of the offending text.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset into the query text.
    pub offset: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// The kinds of syntax error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A token that cannot continue the query here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What could have come, e.g. `FROM, WHERE or end of query`.
        expected: String,
        /// The text found, quoted, or `end of query`.
        found: String,
    },
    /// A character that starts no token.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// A string literal without its closing quote.
    #[error("unterminated string (missing closing {0})")]
    UnterminatedString(char),
    /// A `/*` comment without its `*/`.
    #[error("unterminated comment (missing */)")]
    UnterminatedComment,
    /// A backslash escape that strings do not have.
    #[error("invalid escape sequence {0} (valid: \\\" \\' \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")]
    InvalidEscape(String),
    /// A parameter sign without a name.
    #[error("expected a parameter name after '@'")]
    EmptyParameter,
    /// Nesting past [`MAX_DEPTH`].
    #[error("query nested too deeply (more than {MAX_DEPTH} levels)")]
    TooDeep,
}

impl ParseError {
    /// An error at byte `offset` of `text`, with its line and column computed.
    pub fn at(text: &str, offset: usize, kind: ParseErrorKind) -> ParseError {
        let offset = offset.min(text.len());
        let before = text.get(..offset).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        ParseError {
            line,
            column,
            offset,
            kind,
        }
    }
}
