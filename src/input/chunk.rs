//! Chunks: the unit of work handed from the reader to the workers. A chunk holds whole
//! documents only (a document never straddles two chunks), followed by at least
//! [`PAD`] spare bytes so that simd-json can parse each document in place.

use super::error::Problem;

/// Bytes simd-json may read past the end of a document.
pub(crate) const PAD: usize = simd_json::INPUT_PADDING;

/// Target size of a chunk's text.
pub(crate) const CHUNK: usize = 4 << 20;

/// How a source is cut into documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// NDJSON: one document a line. Workers split the lines themselves.
    Lines,
    /// Concatenated documents or JSON arrays of documents, framed by the reader.
    Framed,
}

/// How the text of a document ends, for the "found the end of ..." part of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// At the end of its line (NDJSON).
    Line,
    /// At its closing bracket, or at the end of the input.
    Input,
    /// Cut short by `--skip-invalid` at a line that starts a new document.
    Cut,
}

/// One document's text within a chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    /// Offset of its first byte in the chunk.
    pub start: usize,
    /// Its length in bytes.
    pub len: usize,
    /// 1-based line of its first byte.
    pub line: u64,
    /// 1-based byte column of its first byte.
    pub col: u64,
    /// Whether it contains a backslash (in-place unescaping may then rewrite it).
    pub backslash: bool,
    /// Whether it is an element of a JSON array that continues after it.
    pub in_array: bool,
    /// How it ends.
    pub end: End,
}

/// A problem found by the reader itself, between or around documents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Flaw {
    /// Global offset, for ordering against other problems.
    pub offset: u64,
    /// 1-based line.
    pub line: u64,
    /// 1-based byte column.
    pub col: u64,
    /// What is wrong.
    pub problem: Problem,
    /// Whether reading cannot go on after it, even with `--skip-invalid`.
    pub fatal: bool,
}

/// An entry of a chunk, in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// A document to parse.
    Doc(Span),
    /// A problem the reader found.
    Flaw(Flaw),
}

/// Reusable allocations of a chunk, recycled from the workers back to the reader.
#[derive(Default)]
pub(crate) struct ChunkBufs {
    /// Text storage; its length is its usable capacity.
    pub data: Vec<u8>,
    /// Item storage.
    pub items: Vec<Item>,
}

/// A run of whole documents from one source.
pub(crate) struct Chunk {
    /// Which source.
    pub source: usize,
    /// How to find the documents: split lines, or the framed spans in `items`.
    pub mode: Mode,
    /// Text in `data[..len]`, then at least [`PAD`] bytes.
    pub data: Vec<u8>,
    /// Length of the text.
    pub len: usize,
    /// 1-based line of `data[0]` (used in [`Mode::Lines`]).
    pub line: u64,
    /// Global offset of `data[0]`: bytes of all earlier sources plus the offset in this one.
    pub offset: u64,
    /// Raw source bytes read for this chunk (compressed bytes for compressed input).
    pub raw: u64,
    /// Framed documents and reader problems in input order. In [`Mode::Lines`], only
    /// problems, all of which come after the chunk's lines.
    pub items: Vec<Item>,
}

impl Chunk {
    /// Gives the allocations back for reuse; shrinks a buffer that grew for a huge document.
    pub fn into_bufs(mut self) -> ChunkBufs {
        if self.data.len() > 2 * (CHUNK + PAD) {
            self.data.truncate(CHUNK + PAD);
            self.data.shrink_to_fit();
        }
        self.items.clear();
        ChunkBufs {
            data: self.data,
            items: self.items,
        }
    }
}

/// JSON whitespace.
pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}
