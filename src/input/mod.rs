//! Document readers: stream sample documents from files or standard input, parse them with
//! simd-json and give a sink, for each document, what it holds at each requested path.
//!
//! It knows nothing of scoring or keys beyond paths. The contract:
//! - **Sources** are files, `-` (standard input, at most once), or readers; none means
//!   standard input. Each may be NDJSON, a JSON array of documents, or concatenated
//!   documents (pretty-printed or not), recognised per source from its first document;
//!   `.gz`/`.zst` files by their ending, other input by magic bytes. A UTF-8 byte-order mark
//!   and CRLF line ends are accepted, blank lines skipped.
//! - **Memory is bounded**: text streams through reused 4 MiB chunks; a document may not pass
//!   `max_document_bytes`, and a longer line or document is dropped up to its end without
//!   being held. Nesting deeper than `max_depth` is refused.
//! - **Every error names the place**: `source:line:column: what was expected, found what`
//!   (columns count bytes). With `skip_invalid`, invalid documents are counted and skipped.
//!
//! # Parallelism
//! With `threads` above 1, the calling thread reads, decompresses and cuts chunks (NDJSON at
//! line ends; other formats framed by a scanner that tracks strings, escapes and depth), and
//! `threads` workers parse them, each into its own sink, merged at the end. Documents reach
//! the sinks out of order; [`Document::ordinal`] gives the input order. When several
//! documents are invalid, the error reported is the earliest in the input, whatever the
//! thread that found it.
//!
//! # Recovery with `skip_invalid`
//! - NDJSON: an invalid line is skipped; an over-long line is dropped up to its line end.
//! - Concatenated documents: a document that does not parse is skipped. When its brackets
//!   do not balance (a truncated document), the framer ends it at the next line that starts
//!   with `{` in column 1, where the next document most likely begins.
//! - Arrays: an element that does not parse is skipped if its brackets balance (the framing
//!   is intact); otherwise, or after a missing `,` between elements, reading stops with an
//!   error that says the array cannot be resynchronised.

mod chunk;
mod diagnose;
pub mod error;
mod extract;
mod frame;
pub mod progress;
mod reader;
pub mod side;
pub mod source;
mod terms;
mod threads;
pub mod transcode;
mod worker;

pub use error::{InputError, Position, Problem};
pub use progress::ProgressBar;
pub use source::Source;

use crate::engine::KeyPath;
use crate::field::Field;

/// The default cap on one document's size: 16 MiB (Cosmos DB items are at most 2 MB).
pub const DEFAULT_MAX_DOCUMENT_BYTES: usize = 16 << 20;

/// The default cap on nesting: 128 levels of objects and arrays, the document included.
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// The default size of the text chunks handed to the parsing threads: 4 MiB.
pub const DEFAULT_CHUNK_BYTES: usize = chunk::CHUNK;

/// How to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Skip invalid documents, count them, and keep going.
    pub skip_invalid: bool,
    /// The largest document accepted, in bytes of JSON text.
    pub max_document_bytes: usize,
    /// The deepest nesting accepted (at least 1: the document itself).
    pub max_depth: usize,
    /// Parsing threads; 1 runs everything on the calling thread, more add a reader thread.
    pub threads: usize,
    /// The size of the text chunks handed to the parsing threads (default 4 MiB). Tests
    /// make it tiny to exercise documents and lines that straddle chunks.
    pub chunk_bytes: usize,
    /// The container's indexing policy: which values count as indexed terms
    /// ([`Document::terms`]).
    pub indexing: crate::indexing::IndexingPolicy,
    /// Walk each document's text for the requested paths, checking every byte but
    /// building no parse tree for members no path needs (on by default). Documents the
    /// walk does not accept outright (invalid ones, and a few rare valid forms) are parsed
    /// in full, so what is read, accepted and reported is the same either way; off parses
    /// every document in full (the reference the walk is tested against).
    pub skim: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            skip_invalid: false,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
            chunk_bytes: DEFAULT_CHUNK_BYTES,
            indexing: crate::indexing::IndexingPolicy::default(),
            skim: true,
        }
    }
}

/// One parsed document, as a sink sees it.
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    /// What the document holds at each requested path, in the order the paths were given.
    pub fields: &'a [Field<'a>],
    /// The length of its JSON text in bytes (the storage proxy).
    pub bytes: u64,
    /// Its position in the whole input: the offset of its first byte in the decompressed
    /// text of all sources, one after the other. Unique, and increasing in input order.
    pub ordinal: u64,
    /// Index of its source.
    pub source: usize,
    /// The 1-based line where it starts.
    pub line: u64,
    /// Bit `i` set: field `i` (of the first 64) is an integer literal beyond ±2^53, which
    /// its double (possibly exactly ±2^53) cannot show.
    pub beyond_2_53: u64,
    /// The values the indexing policy of [`ReadOptions::indexing`] indexes: what a write
    /// of it adds to the index (see [`crate::indexing`]).
    pub terms: u32,
}

/// Receives documents. With several threads, each has its own sink; they are merged at
/// the end in thread order, so a sink that cares about order uses [`Document::ordinal`].
pub trait Sink: Send {
    /// One valid document. Its fields borrow the read buffer, valid for this call only.
    fn document(&mut self, doc: &Document<'_>);
    /// Absorbs another thread's sink.
    fn merge(&mut self, other: Self)
    where
        Self: Sized;
    /// Called once on the sink that holds everything, after the last document and merge.
    fn finish(&mut self) {}
}

/// Hears how far reading got; called once per chunk (a few MiB), never per document.
pub trait Progress: Sync {
    /// `bytes` more raw input read (compressed bytes for compressed sources) holding
    /// `documents` more documents.
    fn advance(&self, bytes: u64, documents: u64);
}

/// Progress that goes nowhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _bytes: u64, _documents: u64) {}
}

/// What reading found, besides the sink's contents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadSummary {
    /// Valid documents given to the sinks.
    pub documents: u64,
    /// The valid documents' JSON text in bytes (skipped documents, separators and blank
    /// lines not counted).
    pub bytes: u64,
    /// Invalid documents skipped (with `skip_invalid`).
    pub invalid: u64,
    /// The message of the first one skipped, with its position.
    pub first_invalid: Option<String>,
}

/// Reads every source, giving each valid document's fields at `paths` to a sink made by
/// `make_sink` (one per thread, merged). No sources means standard input.
///
/// Fails on the first invalid document in input order (unless `skip_invalid`), on input
/// that cannot be read, and when there are no documents at all.
pub fn read<S: Sink>(
    sources: &[Source],
    paths: &[KeyPath],
    opts: &ReadOptions,
    make_sink: &(dyn Fn() -> S + Sync),
    progress: &dyn Progress,
) -> Result<(S, ReadSummary), InputError> {
    let stdin;
    let sources = if sources.is_empty() {
        stdin = [Source::stdin()];
        &stdin[..]
    } else {
        sources
    };
    source::check_one_stdin(sources)?;
    sources.iter().try_for_each(Source::check)?;
    let run = threads::Run {
        sources,
        trie: &extract::PathTrie::new(paths),
        names: &sources
            .iter()
            .map(|s| s.name().to_owned())
            .collect::<Vec<_>>(),
        opts,
        progress,
    };
    let outcome = if opts.threads <= 1 {
        run.serial(make_sink)
    } else {
        run.parallel(make_sink, opts.threads)
    };
    outcome.finish(run.names)
}
