//! Framing of concatenated JSON documents and of JSON arrays of documents: where each
//! document begins and ends, found by tracking strings, escapes and bracket depth without
//! parsing (the workers parse and validate). It runs on the reader thread and resumes
//! across chunks.
//!
//! A top-level `[` opens an array whose elements are the documents; any other value at the
//! top level is a document (the worker reports one that is not an object). With
//! `--skip-invalid`, outside arrays, a broken document is cut at the next line that starts
//! with `{` in column 1, where the next document most likely begins, and a line end inside a
//! string ends the string (a JSON string cannot hold one), so that a missing quote or brace
//! costs one document rather than the rest of the input.

use super::chunk::{End, Flaw, Item, Span, is_ws};
use super::diagnose::describe_at;
use super::error::Problem;

/// Byte classes for the framer.
const QUOTE: u8 = 1;
const BACKSLASH: u8 = 2;
const NEWLINE: u8 = 4;
const BRACKET: u8 = 8;
/// The bytes that matter inside a string, and outside.
const IN_STR: u8 = QUOTE | BACKSLASH | NEWLINE;
const OUT_STR: u8 = QUOTE | NEWLINE | BRACKET;

static CLASS: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut t = [0; 256];
    t[b'"' as usize] = QUOTE;
    t[b'\\' as usize] = BACKSLASH;
    t[b'\n' as usize] = NEWLINE;
    t[b'{' as usize] = BRACKET;
    t[b'}' as usize] = BRACKET;
    t[b'[' as usize] = BRACKET;
    t[b']' as usize] = BRACKET;
    t
}

/// The index of the first byte from `i` in a class of `mask` (or the end). Eight bytes
/// at a time, with the zero-byte trick for each byte value sought (the lowest flagged byte
/// is always a true match).
fn skip(data: &[u8], mut i: usize, mask: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let is = |v: u64, b: u8| zero(v ^ (ONES * u64::from(b)));
    while let Some(block) = data.get(i..i + 8) {
        let v = u64::from_le_bytes(block.try_into().expect("8 bytes"));
        let m = if mask == IN_STR {
            is(v, b'"') | is(v, b'\\') | is(v, b'\n')
        } else {
            // `[` and `]` are `{` and `}` without the 0x20 bit.
            let folded = v | (ONES * 0x20);
            is(v, b'"') | is(v, b'\n') | is(folded, b'{') | is(folded, b'}')
        };
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < data.len() && CLASS[data[i] as usize] & mask == 0 {
        i += 1;
    }
    i
}

/// Where the framer is between documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// At the top level.
    Top,
    /// Just after an array's `[`.
    ArrayFirst,
    /// After a `,` in an array.
    ArrayNext,
    /// After an element of an array.
    ArrayAfter,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Container,
    Str,
    Token,
}

/// The document being framed.
#[derive(Clone, Debug)]
struct Doc {
    start: u64,
    line: u64,
    col: u64,
    shape: Shape,
    depth: u64,
    in_str: bool,
    esc: bool,
    backslash: bool,
    /// Too large: scanned to find its end, but its bytes are not kept.
    discard: bool,
}

/// Frames documents; see the module documentation.
pub(crate) struct Framer {
    ctx: Ctx,
    doc: Option<Doc>,
    /// Current line number and the global offset of its first byte.
    line: u64,
    line_start: u64,
    /// Line and column of the open array's `[`.
    array: (u64, u64),
    resync: bool,
    max_doc: usize,
    /// Stop after the first document (format detection).
    probe: bool,
    halted: bool,
}

impl Framer {
    /// A framer at the start of a source; `resync` with `--skip-invalid`.
    pub fn new(resync: bool, max_doc: usize) -> Self {
        Framer {
            ctx: Ctx::Top,
            doc: None,
            line: 1,
            line_start: 0,
            array: (1, 1),
            resync,
            max_doc,
            probe: false,
            halted: false,
        }
    }

    /// A framer that stops after the first document, to inspect it.
    pub fn probe() -> Self {
        Framer {
            probe: true,
            ..Framer::new(false, usize::MAX)
        }
    }

    /// Starts counting from `line` and global offset `offset` (for a source whose first
    /// bytes were taken by a byte-order mark).
    pub fn at(mut self, line: u64, offset: u64) -> Self {
        self.line = line;
        self.line_start = offset;
        self
    }

    /// The current line number.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Whether a fatal problem stopped framing.
    pub fn halted(&self) -> bool {
        self.halted
    }

    /// Scans `data[from..]`, whose first byte has global offset `base`, appending documents
    /// and problems to `items`. Returns the cut: `data[cut..]` is the start of an unfinished
    /// document, to be carried to the front of the next chunk (whose scan resumes after it).
    pub fn scan(
        &mut self,
        data: &[u8],
        base: u64,
        from: usize,
        eof: bool,
        items: &mut Vec<Item>,
    ) -> usize {
        let mut i = from;
        while i < data.len() && !self.halted && (!self.probe || items.is_empty()) {
            i = match self.doc.as_ref().map(|d| d.shape) {
                None => self.between(data, base, i, items),
                Some(Shape::Token) => self.token(data, base, i, items),
                Some(_) => self.nested(data, base, i, items),
            };
        }
        if self.halted || self.probe {
            return data.len();
        }
        if eof {
            self.finish(data, base, items);
        } else {
            self.check_size(data.len(), base, items);
        }
        match &self.doc {
            Some(d) if !d.discard => (d.start - base) as usize,
            _ => data.len(),
        }
    }

    fn between(&mut self, data: &[u8], base: u64, i: usize, items: &mut Vec<Item>) -> usize {
        let c = data[i];
        if c == b'\n' {
            self.newline(base + i as u64);
            return i + 1;
        }
        if is_ws(c) {
            return i + 1;
        }
        match (self.ctx, c) {
            (Ctx::Top, b'[') => {
                self.array = self.pos(base, i);
                self.ctx = Ctx::ArrayFirst;
            }
            (Ctx::ArrayFirst | Ctx::ArrayAfter, b']') => self.ctx = Ctx::Top,
            (Ctx::ArrayAfter, b',') => self.ctx = Ctx::ArrayNext,
            (Ctx::ArrayAfter, _) => {
                // Only the byte itself: the window may end inside a multi-byte character.
                let found = match c {
                    0x80.. => format!("byte 0x{c:02X}"),
                    _ => describe_at(data, i, "the end of the input"),
                };
                let msg =
                    format!("expected ',' or ']' after a document in the array, found {found}");
                self.flaw(base, i, Problem::Syntax(msg), true, items);
            }
            (Ctx::ArrayNext, b']') => {
                let msg =
                    "expected a document after ',', found ']' (trailing commas are not allowed)";
                self.flaw(base, i, Problem::Syntax(msg.into()), false, items);
                self.ctx = Ctx::Top;
            }
            _ => {
                self.start(base, i, c);
                return i;
            }
        }
        i + 1
    }

    fn start(&mut self, base: u64, i: usize, c: u8) {
        let (line, col) = self.pos(base, i);
        let shape = match c {
            b'{' | b'[' => Shape::Container,
            b'"' => Shape::Str,
            _ => Shape::Token,
        };
        self.doc = Some(Doc {
            start: base + i as u64,
            line,
            col,
            shape,
            depth: 0,
            in_str: false,
            esc: false,
            backslash: false,
            discard: false,
        });
    }

    /// A top-level scalar (or stray byte): runs to whitespace or punctuation.
    fn token(&mut self, data: &[u8], base: u64, mut i: usize, items: &mut Vec<Item>) -> usize {
        let start = self.doc.as_ref().map_or(0, |d| d.start);
        while i < data.len() {
            let c = data[i];
            let delim = is_ws(c) || matches!(c, b'{' | b'}' | b'[' | b']' | b',' | b':' | b'"');
            if delim && base + i as u64 > start {
                self.complete(base, i, items);
                return i;
            }
            i += 1;
        }
        i
    }

    /// An object, array or string document, scanned with its state in locals.
    fn nested(&mut self, data: &[u8], base: u64, i: usize, items: &mut Vec<Item>) -> usize {
        let Some(doc) = self.doc.as_mut() else {
            return i;
        };
        let mut st = Scan {
            depth: doc.depth,
            in_str: doc.in_str,
            esc: doc.esc,
            backslash: doc.backslash,
            line: self.line,
            line_start: self.line_start,
        };
        let cut_at_brace = self.resync && self.ctx == Ctx::Top;
        let (i, stop) = st.run(
            data,
            base,
            i,
            doc.shape == Shape::Str,
            cut_at_brace,
            self.resync,
        );
        (doc.depth, doc.in_str, doc.esc) = (st.depth, st.in_str, st.esc);
        doc.backslash = st.backslash;
        (self.line, self.line_start) = (st.line, st.line_start);
        match stop {
            Stop::More => {}
            Stop::Complete => self.complete(base, i, items),
            Stop::Cut => self.cut(data, base, i, items),
        }
        i
    }

    /// Ends the open document at `i` (trailing whitespace trimmed), as broken.
    fn cut(&mut self, data: &[u8], base: u64, i: usize, items: &mut Vec<Item>) {
        let Some(doc) = self.doc.take() else { return };
        if doc.discard {
            return;
        }
        let start = (doc.start - base) as usize;
        let mut end = i;
        while end > start && is_ws(data[end - 1]) {
            end -= 1;
        }
        items.push(Item::Doc(span(&doc, start, end - start, false, End::Cut)));
    }

    fn complete(&mut self, base: u64, end: usize, items: &mut Vec<Item>) {
        let Some(doc) = self.doc.take() else { return };
        let in_array = self.ctx != Ctx::Top;
        if in_array {
            self.ctx = Ctx::ArrayAfter;
        }
        if doc.discard {
            return;
        }
        let len = base + end as u64 - doc.start;
        if len > self.max_doc as u64 {
            self.too_large(&doc, items);
            return;
        }
        let start = (doc.start - base) as usize;
        items.push(Item::Doc(span(
            &doc,
            start,
            len as usize,
            in_array,
            End::Input,
        )));
    }

    /// At the end of a chunk: an unfinished document past the cap is dropped (and scanned on
    /// to its end), so that memory stays bounded.
    fn check_size(&mut self, len: usize, base: u64, items: &mut Vec<Item>) {
        let max = self.max_doc as u64;
        let Some(doc) = self.doc.as_mut() else { return };
        if doc.discard || base + len as u64 - doc.start <= max {
            return;
        }
        doc.discard = true;
        let doc = doc.clone();
        self.too_large(&doc, items);
    }

    fn too_large(&mut self, doc: &Doc, items: &mut Vec<Item>) {
        items.push(Item::Flaw(Flaw {
            offset: doc.start,
            line: doc.line,
            col: doc.col,
            problem: Problem::TooLarge {
                limit: self.max_doc,
            },
            fatal: false,
        }));
    }

    /// At the end of the input: an unfinished document goes to the worker (which says what
    /// it lacks); an unclosed array is a problem of its own.
    fn finish(&mut self, data: &[u8], base: u64, items: &mut Vec<Item>) {
        let mut truncated = false;
        if let Some(doc) = self.doc.take() {
            if doc.shape == Shape::Token {
                self.doc = Some(doc);
                self.complete(base, data.len(), items);
            } else if !doc.discard {
                let start = (doc.start - base) as usize;
                let mut end = data.len();
                while end > start && is_ws(data[end - 1]) {
                    end -= 1;
                }
                items.push(Item::Doc(span(&doc, start, end - start, false, End::Input)));
                truncated = true;
            }
        }
        if self.ctx != Ctx::Top && !truncated {
            let (l, c) = self.array;
            let expected = match self.ctx {
                Ctx::ArrayAfter => "',' or ']'",
                _ => "a document",
            };
            let msg = format!(
                "expected {expected}, found the end of the input (the array that starts at line {l}, column {c} is not closed)"
            );
            self.flaw(base, data.len(), Problem::Syntax(msg), false, items);
        }
        self.ctx = Ctx::Top;
    }

    fn flaw(&mut self, base: u64, i: usize, problem: Problem, fatal: bool, items: &mut Vec<Item>) {
        let (line, col) = self.pos(base, i);
        items.push(Item::Flaw(Flaw {
            offset: base + i as u64,
            line,
            col,
            problem,
            fatal,
        }));
        self.halted |= fatal;
    }

    fn pos(&self, base: u64, i: usize) -> (u64, u64) {
        (self.line, base + i as u64 - self.line_start + 1)
    }

    fn newline(&mut self, offset: u64) {
        self.line += 1;
        self.line_start = offset + 1;
    }
}

/// Why a scan stopped.
enum Stop {
    /// The text ran out.
    More,
    /// The document ends before the returned index.
    Complete,
    /// With `--skip-invalid`: a `{` in column 1 at the returned index, while the document
    /// is still open, is taken to start the next one.
    Cut,
}

/// The state of an object, array or string document being scanned, with the line count.
struct Scan {
    depth: u64,
    in_str: bool,
    esc: bool,
    backslash: bool,
    line: u64,
    line_start: u64,
}

impl Scan {
    /// Scans from `i` until the document ends or is cut, or the text runs out.
    fn run(
        &mut self,
        data: &[u8],
        base: u64,
        mut i: usize,
        string_doc: bool,
        cut_at_brace: bool,
        resync: bool,
    ) -> (usize, Stop) {
        loop {
            if self.esc {
                let Some(&c) = data.get(i) else {
                    return (i, Stop::More);
                };
                self.esc = false;
                if c == b'\n' {
                    self.newline(base, i);
                }
                i += 1;
                continue;
            }
            i = skip(data, i, if self.in_str { IN_STR } else { OUT_STR });
            let Some(&c) = data.get(i) else {
                return (i, Stop::More);
            };
            match (self.in_str, c) {
                (true, b'"') => {
                    self.in_str = false;
                    if string_doc {
                        return (i + 1, Stop::Complete);
                    }
                }
                (true, b'\\') => (self.backslash, self.esc) = (true, true),
                (true, _) => {
                    self.in_str = !resync;
                    self.newline(base, i);
                }
                (false, b'"') => self.in_str = true,
                (false, b'{')
                    if cut_at_brace && self.depth > 0 && base + i as u64 == self.line_start =>
                {
                    return (i, Stop::Cut);
                }
                (false, b'{' | b'[') => self.depth += 1,
                (false, b'}' | b']') => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return (i + 1, Stop::Complete);
                    }
                }
                (false, _) => self.newline(base, i),
            }
            i += 1;
        }
    }

    fn newline(&mut self, base: u64, i: usize) {
        self.line += 1;
        self.line_start = base + i as u64 + 1;
    }
}

fn span(doc: &Doc, start: usize, len: usize, in_array: bool, end: End) -> Span {
    Span {
        start,
        len,
        line: doc.line,
        col: doc.col,
        backslash: doc.backslash,
        in_array,
        end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames `text` fed in pieces of `step` bytes, carrying unfinished documents the way
    /// the reader does; returns each document's text and line, and each problem.
    fn frame(text: &str, step: usize, resync: bool, max: usize) -> Vec<String> {
        let mut f = Framer::new(resync, max);
        let (mut out, mut carry, mut base) = (Vec::new(), Vec::<u8>::new(), 0u64);
        let bytes = text.as_bytes();
        let mut pos = 0;
        loop {
            let from = carry.len();
            let take = step.min(bytes.len() - pos);
            let mut data = std::mem::take(&mut carry);
            data.extend_from_slice(&bytes[pos..pos + take]);
            pos += take;
            let eof = pos == bytes.len();
            let mut items = Vec::new();
            let cut = f.scan(&data, base, from, eof, &mut items);
            for it in items {
                out.push(match it {
                    Item::Doc(s) => format!(
                        "{}@{}:{}",
                        String::from_utf8_lossy(&data[s.start..s.start + s.len]),
                        s.line,
                        s.col
                    ),
                    Item::Flaw(fl) => format!("!{}@{}:{}", fl.problem, fl.line, fl.col),
                });
            }
            carry = data[cut..].to_vec();
            base += cut as u64;
            if eof || f.halted() {
                return out;
            }
        }
    }

    #[test]
    fn skipping_finds_the_first_byte_of_interest() {
        let text = b"abcdefghij\\klmnopqrstuvwxyz[0123456789\"}]\n";
        for from in 0..text.len() {
            for mask in [IN_STR, OUT_STR] {
                let slow = (from..text.len())
                    .find(|&i| CLASS[text[i] as usize] & mask != 0)
                    .unwrap_or(text.len());
                assert_eq!(skip(text, from, mask), slow, "{from} {mask}");
            }
        }
        for b in 0..=255u8 {
            let block = [b'a', b, b'a', b'a', b'a', b'a', b'a', b'a', b'a'];
            let want = if CLASS[b as usize] & OUT_STR != 0 {
                1
            } else {
                9
            };
            assert_eq!(skip(&block, 0, OUT_STR), want, "{b}");
            let want = if CLASS[b as usize] & IN_STR != 0 {
                1
            } else {
                9
            };
            assert_eq!(skip(&block, 0, IN_STR), want, "{b}");
        }
    }

    #[test]
    fn concatenated_and_pretty_printed_documents() {
        let text = "{\"a\": {\"b\": \"}\"}}\n{\n  \"c\": [1, 2]\n}  {\"d\":\"\\\"{\"}\n";
        for step in [1, 2, 3, 7, 1000] {
            assert_eq!(
                frame(text, step, false, 1 << 20),
                [
                    "{\"a\": {\"b\": \"}\"}}@1:1",
                    "{\n  \"c\": [1, 2]\n}@2:1",
                    "{\"d\":\"\\\"{\"}@4:4"
                ],
                "step {step}"
            );
        }
    }

    #[test]
    fn arrays_unpack_into_their_elements() {
        let text = "[\n {\"a\":1},\n {\"b\":[2]}\n]\n[{\"c\":3}]";
        for step in [1, 5, 1000] {
            assert_eq!(
                frame(text, step, false, 1 << 20),
                ["{\"a\":1}@2:2", "{\"b\":[2]}@3:2", "{\"c\":3}@5:2"]
            );
        }
    }

    #[test]
    fn scalars_and_stray_bytes_become_documents_the_worker_rejects() {
        assert_eq!(
            frame("42 \"s\" } {}", 1000, false, 100),
            ["42@1:1", "\"s\"@1:4", "}@1:8", "{}@1:10"]
        );
    }

    #[test]
    fn array_punctuation_problems() {
        let missing = frame("[{\"a\":1} {\"b\":2}]", 4, false, 100);
        assert_eq!(missing.len(), 2);
        assert!(
            missing[1]
                .starts_with("!expected ',' or ']' after a document in the array, found '{'@1:10")
        );
        let open = frame("[{\"a\":1}\n", 1000, false, 100);
        assert!(open[1].starts_with("!expected ',' or ']', found the end of the input (the array that starts at line 1, column 1"), "{open:?}");
        let trailing = frame("[{},]", 1000, false, 100);
        assert!(trailing[1].contains("trailing commas"));
    }

    #[test]
    fn oversized_documents_are_skipped_to_their_end() {
        let text = "{\"a\":\"0123456789\"}\n{\"b\":1}\n";
        for step in [3, 1000] {
            assert_eq!(
                frame(text, step, false, 12),
                [
                    "!document exceeds the 12 bytes limit (--max-document-size)@1:1",
                    "{\"b\":1}@2:1"
                ]
            );
        }
    }

    #[test]
    fn resync_cuts_a_broken_document_at_a_column_one_brace() {
        let text = "{\"a\": 1,\n{\"b\": \"x\n{\"c\": 3}\n";
        assert_eq!(
            frame(text, 4, true, 100),
            ["{\"a\": 1,@1:1", "{\"b\": \"x@2:1", "{\"c\": 3}@3:1"]
        );
        // Without --skip-invalid the frame runs on; the parser reports the first error.
        assert_eq!(frame(text, 4, false, 100).len(), 1);
    }

    #[test]
    fn unfinished_document_at_the_end_goes_to_the_worker() {
        assert_eq!(frame("{\"a\": [1, \n", 2, false, 100), ["{\"a\": [1,@1:1"]);
    }
}
