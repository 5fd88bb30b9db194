//! Input errors. Every one names the source (its path, or `<stdin>`), the 1-based line and
//! column, and says what was expected: `events.ndjson:3:17: expected ',' or '}' after an
//! object member, found a string`.

use std::fmt;

/// Where in the input something was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The source's name: the path as given, or `<stdin>`.
    pub source: String,
    /// 1-based line (of the decompressed text).
    pub line: u64,
    /// 1-based column, counted in bytes from the start of the line.
    pub column: u64,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.source, self.line, self.column)
    }
}

/// What is wrong with one document.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The text is not valid JSON; the message says what was expected and what was found.
    #[error("{0}")]
    Syntax(String),
    /// Valid JSON, but not an object: names what was found instead.
    #[error("expected a JSON object (a document), found {0}")]
    NotAnObject(String),
    /// Longer than `--max-document-size`.
    #[error("document exceeds the {} limit (--max-document-size)", human_size(*.limit))]
    TooLarge {
        /// The cap, in bytes.
        limit: usize,
    },
    /// Nested deeper than `--max-depth`.
    #[error("document nests deeper than {limit} levels (--max-depth)")]
    TooDeep {
        /// The cap, in levels of objects and arrays (the document itself is level 1).
        limit: usize,
    },
}

/// Why the input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A document (or the text between documents) is invalid.
    #[error("{at}: {problem}")]
    Invalid {
        /// Where the problem is.
        at: Position,
        /// What it is.
        problem: Problem,
    },
    /// With `--skip-invalid`: a problem inside a JSON array after which the following
    /// documents cannot be told apart reliably, so reading stops.
    #[error(
        "{at}: {problem}; cannot resynchronise inside a JSON array after this, so --skip-invalid stops here"
    )]
    Unrecoverable {
        /// Where the problem is.
        at: Position,
        /// What it is.
        problem: Problem,
    },
    /// A file could not be opened.
    #[error("cannot open {name}: {reason}")]
    Open {
        /// The source's name.
        name: String,
        /// The operating system's reason (in the message, not chained, so that it is
        /// printed once).
        reason: std::io::Error,
    },
    /// Reading or decompressing failed part-way.
    #[error("{name}: {message} (while reading line {line})")]
    Read {
        /// The source's name.
        name: String,
        /// The line being read when it failed (of the decompressed text).
        line: u64,
        /// What failed: `corrupt gzip data: ...`, `read error: ...`.
        message: String,
    },
    /// The input holds no documents at all.
    #[error("no documents in {names}")]
    Empty {
        /// The sources read, comma separated.
        names: String,
    },
    /// With `--skip-invalid`: every document was invalid.
    #[error("no valid documents in {names}: {invalid} invalid, the first: {first}")]
    NoValid {
        /// The sources read, comma separated.
        names: String,
        /// How many were skipped.
        invalid: u64,
        /// The first one's message.
        first: String,
    },
    /// `-` was named more than once.
    #[error("standard input ('-') is named more than once; it can be read only once")]
    StdinTwice,
    /// A reader source was read twice.
    #[error("{name} was already read (a reader source can be read only once)")]
    Consumed {
        /// The source's name.
        name: String,
    },
}

impl InputError {
    /// The position of a document-level error, if it has one.
    pub fn position(&self) -> Option<&Position> {
        match self {
            InputError::Invalid { at, .. } | InputError::Unrecoverable { at, .. } => Some(at),
            _ => None,
        }
    }
}

/// `16 MiB`, `512 KiB`, `1000 bytes`: a byte count as the user most likely typed it.
pub fn human_size(bytes: usize) -> String {
    const KIB: usize = 1 << 10;
    const MIB: usize = 1 << 20;
    const GIB: usize = 1 << 30;
    match bytes {
        0 => "0 bytes".to_owned(),
        b if b % GIB == 0 => format!("{} GiB", b / GIB),
        b if b % MIB == 0 => format!("{} MiB", b / MIB),
        b if b % KIB == 0 => format!("{} KiB", b / KIB),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_the_way_they_were_typed() {
        assert_eq!(human_size(16 << 20), "16 MiB");
        assert_eq!(human_size(2 << 30), "2 GiB");
        assert_eq!(human_size(512 << 10), "512 KiB");
        assert_eq!(human_size(1000), "1000 bytes");
    }

    #[test]
    fn messages_lead_with_the_position() {
        let e = InputError::Invalid {
            at: Position {
                source: "events.ndjson".into(),
                line: 3,
                column: 17,
            },
            problem: Problem::TooLarge { limit: 16 << 20 },
        };
        assert_eq!(
            e.to_string(),
            "events.ndjson:3:17: document exceeds the 16 MiB limit (--max-document-size)"
        );
    }
}
