//! The reader: opens each source in turn, recognises its format from its first document,
//! and cuts its decompressed text into [`Chunk`]s of whole documents. NDJSON is cut at the
//! last line end of each 4 MiB (the workers split the lines); concatenated documents and
//! arrays are framed document by document by the [`Framer`].
//!
//! A source is NDJSON when its first document is an object (or any non-array value) that
//! ends on its first line with nothing but whitespace after it; a first `[` means an array;
//! anything else is read as concatenated documents.

use std::io::{ErrorKind, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use memchr::{memchr, memchr_iter, memrchr};

use super::ReadOptions;
use super::chunk::{Chunk, ChunkBufs, Flaw, Item, Mode, PAD, is_ws};
use super::error::{InputError, Problem};
use super::frame::Framer;
use super::source::{Codec, Source, describe_read_error};
use super::worker::Failure;

/// How much of a source is read before its format is decided.
const DETECT: usize = 4 << 20;

/// The first size of a buffer, which grows as text arrives.
const START: usize = 64 << 10;

/// Produces the chunks of all sources, in input order.
pub(crate) struct ChunkReader<'a> {
    sources: &'a [Source],
    opts: &'a ReadOptions,
    next: usize,
    current: Option<SourceReader>,
    /// Global offset of the next byte to be chunked.
    offset: u64,
    /// Decompressed bytes read so far.
    bytes: u64,
    halted: bool,
}

/// What one fill produced.
struct Fill {
    /// Text handed to the workers: `data[..len]`.
    len: usize,
    /// Line of `data[0]`.
    line: u64,
    /// Global offset of `data[0]`.
    offset: u64,
}

struct SourceReader {
    index: usize,
    name: String,
    input: Box<dyn Read + Send>,
    codec: Codec,
    raw: Arc<AtomicU64>,
    raw_seen: u64,
    mode: Option<Mode>,
    /// The unfinished line or document at the end of the last chunk.
    carry: Vec<u8>,
    eof: bool,
    /// Lines mode: the line of `carry[0]`.
    line: u64,
    framer: Framer,
    /// Lines mode: dropping an over-long line up to its end.
    skipping: bool,
    /// Framed mode: bytes at the front of the carry the framer has already scanned.
    scanned: usize,
    /// The chunk size.
    chunk: usize,
    skip_invalid: bool,
    max_doc: usize,
}

impl<'a> ChunkReader<'a> {
    pub fn new(sources: &'a [Source], opts: &'a ReadOptions) -> Self {
        ChunkReader {
            sources,
            opts,
            next: 0,
            current: None,
            offset: 0,
            bytes: 0,
            halted: false,
        }
    }

    /// Decompressed bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The next chunk, built in `bufs`; `None` at the end of the input (or after a problem
    /// that stops reading).
    pub fn next_chunk(&mut self, bufs: ChunkBufs) -> Result<Option<Chunk>, Failure> {
        let ChunkBufs {
            mut data,
            mut items,
        } = bufs;
        loop {
            if self.halted {
                return Ok(None);
            }
            if !self.open_next()? {
                return Ok(None);
            }
            let Some(src) = self.current.as_mut() else {
                return Ok(None);
            };
            if src.eof && src.carry.is_empty() && !src.skipping && src.mode.is_some() {
                self.current = None;
                continue;
            }
            items.clear();
            let fill = src.fill(&mut data, &mut items, &mut self.offset, &mut self.bytes)?;
            self.halted = src.framer.halted();
            return Ok(Some(Chunk {
                source: src.index,
                mode: src.mode.unwrap_or(Mode::Lines),
                data,
                len: fill.len,
                line: fill.line,
                offset: fill.offset,
                raw: src.raw_delta(),
                items,
            }));
        }
    }

    /// Opens the next source when none is being read; `false` when all have been read.
    fn open_next(&mut self) -> Result<bool, Failure> {
        if self.current.is_none() {
            let Some(source) = self.sources.get(self.next) else {
                return Ok(false);
            };
            let opened = source.open().map_err(|error| Failure {
                offset: self.offset,
                error,
            })?;
            self.current = Some(SourceReader {
                index: self.next,
                name: source.name().to_owned(),
                input: opened.reader,
                codec: opened.codec,
                raw: opened.raw,
                raw_seen: 0,
                mode: None,
                carry: Vec::new(),
                eof: false,
                line: 1,
                framer: Framer::new(false, usize::MAX),
                skipping: false,
                scanned: 0,
                chunk: self.opts.chunk_bytes.max(1),
                skip_invalid: self.opts.skip_invalid,
                max_doc: self.opts.max_document_bytes,
            });
            self.next += 1;
        }
        Ok(true)
    }
}

impl SourceReader {
    /// The next chunk's text: the carry plus fresh input, cut after its last whole line or
    /// document. The chunk considers a window of `chunk` bytes (more when a line or
    /// document is longer); the first read of a source takes [`DETECT`] bytes, so that the
    /// format is recognised the same way whatever the chunk size.
    fn fill(
        &mut self,
        data: &mut Vec<u8>,
        items: &mut Vec<Item>,
        offset: &mut u64,
        bytes: &mut u64,
    ) -> Result<Fill, Failure> {
        if self.skipping {
            return self.skip_line(data, offset, bytes);
        }
        let have = self.carry.len();
        // A document longer than the chunk doubles the window at each fill: the carry is
        // copied O(log n) times, not once per quarter chunk (quadratic in its length).
        let want = self.chunk.max(have + (self.chunk / 4).max(have).max(1));
        let target = if self.mode.is_none() {
            want.max(DETECT)
        } else {
            want
        };
        grow(data, (have + START).min(target) + PAD);
        data[..have].copy_from_slice(&self.carry);
        self.carry.clear();
        let mut filled = self.read_into(data, have, target, *offset, bytes)?;
        if self.mode.is_none() {
            filled = self.begin(data, filled, offset);
        }
        let window = filled.min(want);
        let eof = self.eof && window == filled;
        let (base, line) = (*offset, self.line);
        let (len, used) = match self.mode {
            Some(Mode::Framed) => {
                let text = &data[..window];
                let cut = self.framer.scan(text, base, self.scanned, eof, items);
                self.scanned = window - cut;
                (cut, cut)
            }
            _ => self.cut_lines(&data[..window], base, eof, items),
        };
        self.carry.extend_from_slice(&data[used..filled]);
        *offset += used as u64;
        Ok(Fill {
            len,
            line,
            offset: base,
        })
    }

    /// Reads until `data[..target]` is full or the input ends, growing `data` (keeping
    /// [`PAD`] spare bytes) as text arrives, so that a small input never costs a large buffer.
    fn read_into(
        &mut self,
        data: &mut Vec<u8>,
        mut filled: usize,
        target: usize,
        offset: u64,
        bytes: &mut u64,
    ) -> Result<usize, Failure> {
        while filled < target && !self.eof {
            let room = data.len() - PAD;
            if filled >= room {
                grow(data, (room * 2).max(START).min(target) + PAD);
            }
            let end = (data.len() - PAD).min(target);
            match self.input.read(&mut data[filled..end]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    filled += n;
                    *bytes += n as u64;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    let error = InputError::Read {
                        name: self.name.clone(),
                        line: self.line_at(&data[..filled]),
                        message: describe_read_error(self.codec, &e),
                    };
                    let offset = offset + filled as u64;
                    return Err(Failure { offset, error });
                }
            }
        }
        Ok(filled)
    }

    /// The line being read when the chunk text so far is `data`.
    fn line_at(&self, data: &[u8]) -> u64 {
        let count = |d: &[u8]| memchr_iter(b'\n', d).count() as u64;
        match self.mode {
            Some(Mode::Framed) => self.framer.line() + count(&data[self.scanned.min(data.len())..]),
            _ => self.line + count(data),
        }
    }

    /// The source's first text: drops a byte-order mark and recognises the format.
    fn begin(&mut self, data: &mut [u8], mut filled: usize, offset: &mut u64) -> usize {
        if data[..filled].starts_with(&[0xEF, 0xBB, 0xBF]) {
            data.copy_within(3..filled, 0);
            filled -= 3;
            *offset += 3;
        }
        let seen = filled.min(DETECT);
        let mode = detect(&data[..seen], self.eof && seen == filled);
        self.mode = Some(mode);
        self.framer = Framer::new(self.skip_invalid, self.max_doc).at(1, *offset);
        filled
    }

    /// Lines mode: the chunk ends after the last line end; the unfinished line is carried,
    /// unless it is already longer than the cap, in which case it is dropped up to its end.
    /// Returns the text length for the workers and the bytes used up.
    fn cut_lines(
        &mut self,
        data: &[u8],
        base: u64,
        eof: bool,
        items: &mut Vec<Item>,
    ) -> (usize, usize) {
        let window = data.len();
        if eof {
            self.line += memchr_iter(b'\n', data).count() as u64;
            return (window, window);
        }
        let cut = memrchr(b'\n', data).map_or(0, |p| p + 1);
        self.line += memchr_iter(b'\n', &data[..cut]).count() as u64;
        // A line of max_doc bytes may still be followed by "\r\n".
        if window - cut <= self.max_doc.saturating_add(1) {
            return (cut, cut);
        }
        items.push(Item::Flaw(Flaw {
            offset: base + cut as u64,
            line: self.line,
            col: 1,
            problem: Problem::TooLarge {
                limit: self.max_doc,
            },
            fatal: false,
        }));
        self.skipping = true;
        (cut, window)
    }

    /// Drops text up to the end of an over-long line, from the carry first, then from
    /// fresh reads of one chunk at a time; what follows the line end is carried.
    fn skip_line(
        &mut self,
        data: &mut Vec<u8>,
        offset: &mut u64,
        bytes: &mut u64,
    ) -> Result<Fill, Failure> {
        let base = *offset;
        grow(data, self.chunk.min(START).max(self.carry.len()) + PAD);
        let n = if self.carry.is_empty() {
            self.read_into(data, 0, self.chunk, base, bytes)?
        } else {
            let n = self.carry.len();
            data[..n].copy_from_slice(&self.carry);
            self.carry.clear();
            n
        };
        let used = match memchr(b'\n', &data[..n]) {
            Some(p) => {
                self.skipping = false;
                self.line += 1;
                p + 1
            }
            None => n,
        };
        self.carry.extend_from_slice(&data[used..n]);
        self.skipping &= !(self.eof && self.carry.is_empty());
        *offset += used as u64;
        Ok(Fill {
            len: 0,
            line: self.line,
            offset: base,
        })
    }

    /// Raw source bytes read since the last call.
    fn raw_delta(&mut self) -> u64 {
        let now = self.raw.load(Ordering::Relaxed);
        let delta = now - self.raw_seen;
        self.raw_seen = now;
        delta
    }
}

/// Makes `data` at least `len` long, keeping its content.
fn grow(data: &mut Vec<u8>, len: usize) {
    if data.len() < len {
        data.resize(len, 0);
    }
}

/// NDJSON when the first document ends on its line; otherwise framed.
fn detect(data: &[u8], eof: bool) -> Mode {
    let Some(i) = data.iter().position(|&c| !is_ws(c)) else {
        return if eof { Mode::Lines } else { Mode::Framed };
    };
    if data[i] == b'[' {
        return Mode::Framed;
    }
    let mut items = Vec::new();
    Framer::probe().scan(data, 0, i, eof, &mut items);
    let Some(Item::Doc(span)) = items.first() else {
        return Mode::Framed;
    };
    let end = span.start + span.len;
    let line_end = memchr(b'\n', &data[end..]).map(|k| end + k);
    let one_line = memchr(b'\n', &data[span.start..end]).is_none();
    let rest_blank = data[end..line_end.unwrap_or(data.len())]
        .iter()
        .all(|&c| is_ws(c));
    if one_line && rest_blank && (line_end.is_some() || eof) {
        Mode::Lines
    } else {
        Mode::Framed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_detection() {
        assert_eq!(detect(b"{\"a\":1}\n{\"a\":2}\n", false), Mode::Lines);
        assert_eq!(detect(b"\n\n  {\"a\":1}  \r\n", false), Mode::Lines);
        assert_eq!(detect(b"{\"a\":1}", true), Mode::Lines);
        assert_eq!(detect(b"{\"a\":1}", false), Mode::Framed);
        assert_eq!(detect(b"{\n \"a\": 1\n}\n", false), Mode::Framed);
        assert_eq!(detect(b"{\"a\":1} {\"a\":2}\n", false), Mode::Framed);
        assert_eq!(detect(b"  [{\"a\":1}]", true), Mode::Framed);
        assert_eq!(detect(b"42\n", true), Mode::Lines);
        assert_eq!(detect(b"  \n", true), Mode::Lines);
    }

    /// Chunks read for `text` with 64 KiB chunks, and the documents they hold.
    fn chunks_of(text: Vec<u8>) -> (usize, usize) {
        let len = text.len();
        let sources = [Source::reader("big", std::io::Cursor::new(text))];
        let opts = ReadOptions {
            chunk_bytes: 64 << 10,
            max_document_bytes: len + 16,
            ..ReadOptions::default()
        };
        let mut reader = ChunkReader::new(&sources, &opts);
        let (mut chunks, mut bufs) = (0, ChunkBufs::default());
        let mut text_bytes = 0;
        while let Some(chunk) = reader.next_chunk(bufs).expect("reads") {
            chunks += 1;
            text_bytes += chunk.len;
            bufs = chunk.into_bufs();
        }
        (chunks, text_bytes)
    }

    #[test]
    fn a_long_document_is_read_in_logarithmically_many_fills() {
        // 24 MiB in one line, and framed (pretty-printed): 64 KiB chunks growing by a quarter
        // would take about 1,500 fills, copying the carry each time.
        let mut line = b"{\"v\":\"".to_vec();
        line.resize(24 << 20, b'x');
        line.extend_from_slice(b"\"}\n");
        let n = line.len();
        let (chunks, bytes) = chunks_of(line.clone());
        assert_eq!(bytes, n);
        assert!(chunks <= 16, "{chunks} fills");
        let mut framed = b"{\n \"v\": \"".to_vec();
        framed.extend_from_slice(&line[6..]);
        let (chunks, _) = chunks_of(framed);
        assert!(chunks <= 16, "{chunks} fills");
    }
}
