//! The worker: parses each document of a chunk in place with simd-json (reusing its buffers
//! and tape), extracts the requested paths and hands the document to the sink. Invalid
//! documents become errors, or with `--skip-invalid` are counted.

use memchr::memchr;
use simd_json::{Buffers, Node, Tape};

use super::chunk::{Chunk, End, Flaw, Item, Mode, Span, is_ws};
use super::diagnose::{balanced, describe_root, diagnose};
use super::error::{InputError, Position, Problem};
use super::extract::{PathTrie, Visits};
use super::{Document, ReadOptions, Sink};
use crate::field::Field;

/// A fatal problem and its global offset (errors are reported earliest first).
#[derive(Debug)]
pub(crate) struct Failure {
    pub offset: u64,
    pub error: InputError,
}

/// Counts kept by one worker, merged at the end.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub documents: u64,
    /// The valid documents' JSON text, in bytes.
    pub bytes: u64,
    pub invalid: u64,
    /// Global offset and message of the earliest skipped document.
    pub first_invalid: Option<(u64, String)>,
}

impl Tally {
    pub fn merge(&mut self, other: Tally) {
        self.documents += other.documents;
        self.bytes += other.bytes;
        self.invalid += other.invalid;
        self.first_invalid = match (self.first_invalid.take(), other.first_invalid) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
    }
}

/// One worker's reusable state.
pub(crate) struct Worker<'a> {
    trie: &'a PathTrie,
    names: &'a [String],
    opts: &'a ReadOptions,
    buffers: Buffers,
    tape: Tape<'static>,
    fields: Vec<Field<'static>>,
    visits: Visits,
    /// The original text of a document that in-place unescaping may rewrite.
    pristine: Vec<u8>,
    /// The skimming walk's stack of open containers.
    stack: Vec<bool>,
    /// Whether documents are skimmed (see [`ReadOptions::skim`]): not under an indexing
    /// policy whose terms need each value's path.
    skim: bool,
    pub tally: Tally,
}

/// What became of one parse.
enum Parsed {
    Ok,
    /// simd-json's reason, for the rare document the checker would accept.
    Failed(simd_json::Error),
    NotAnObject,
}

impl<'a> Worker<'a> {
    pub fn new(trie: &'a PathTrie, names: &'a [String], opts: &'a ReadOptions) -> Self {
        Worker {
            trie,
            names,
            opts,
            buffers: Buffers::with_max_depth(4096, opts.max_depth),
            tape: Tape(Vec::new()),
            fields: Vec::new(),
            visits: Visits::default(),
            pristine: Vec::new(),
            stack: Vec::new(),
            skim: opts.skim && (opts.indexing.is_off() || opts.indexing.is_everything()),
            tally: Tally::default(),
        }
    }

    /// Parses every document of `chunk` into `sink`; returns the number of documents given
    /// to the sink, or the first fatal problem.
    pub fn process<S: Sink>(&mut self, chunk: &mut Chunk, sink: &mut S) -> Result<u64, Failure> {
        let before = self.tally.documents;
        if chunk.mode == Mode::Lines {
            self.lines(chunk, sink)?;
        }
        let items = std::mem::take(&mut chunk.items);
        let result = items.iter().try_for_each(|item| match item {
            Item::Doc(span) => self.document(chunk, span, sink),
            Item::Flaw(flaw) => self.flaw(chunk.source, flaw),
        });
        chunk.items = items;
        result?;
        Ok(self.tally.documents - before)
    }

    fn lines<S: Sink>(&mut self, chunk: &mut Chunk, sink: &mut S) -> Result<(), Failure> {
        let (mut pos, mut line) = (0, chunk.line);
        while pos < chunk.len {
            let end = memchr(b'\n', &chunk.data[pos..chunk.len]).map_or(chunk.len, |k| pos + k);
            let text = &chunk.data[pos..end];
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.len() > self.opts.max_document_bytes {
                self.too_long_line(chunk, pos, text.len(), line)?;
            } else if let Some(span) = line_span(text, pos, line) {
                self.document(chunk, &span, sink)?;
            }
            pos = end + 1;
            line += 1;
        }
        Ok(())
    }

    /// In NDJSON the cap applies to the whole line, as the reader applies it to lines too
    /// long to hold.
    fn too_long_line(
        &mut self,
        chunk: &Chunk,
        pos: usize,
        len: usize,
        line: u64,
    ) -> Result<(), Failure> {
        let span = Span {
            start: pos,
            len,
            line,
            col: 1,
            backslash: false,
            in_array: false,
            end: End::Line,
        };
        let limit = self.opts.max_document_bytes;
        self.invalid(chunk, &span, 0, Problem::TooLarge { limit }, false)
    }

    fn document<S: Sink>(
        &mut self,
        chunk: &mut Chunk,
        span: &Span,
        sink: &mut S,
    ) -> Result<(), Failure> {
        if span.len > self.opts.max_document_bytes {
            let problem = Problem::TooLarge {
                limit: self.opts.max_document_bytes,
            };
            return self.invalid(chunk, span, 0, problem, false);
        }
        if self.skim && self.skimmed(chunk, span, sink) {
            return Ok(());
        }
        let text = span.start..span.start + span.len;
        if span.backslash {
            self.pristine.clear();
            self.pristine.extend_from_slice(&chunk.data[text.clone()]);
        }
        match self.parse(chunk, span, sink) {
            Parsed::Ok => Ok(()),
            Parsed::NotAnObject => {
                let doc = &chunk.data[text];
                let root = doc.iter().position(|&c| !is_ws(c)).unwrap_or(0);
                let problem = Problem::NotAnObject(describe_root(doc, root, span.end));
                self.invalid(chunk, span, root, problem, span.backslash)
            }
            Parsed::Failed(e) => {
                let doc = if span.backslash {
                    &self.pristine[..]
                } else {
                    &chunk.data[text]
                };
                let (at, problem) = diagnose(doc, self.opts.max_depth, span.end)
                    .unwrap_or_else(|| (0, Problem::Syntax(format!("invalid JSON ({e})"))));
                self.invalid(chunk, span, at, problem, span.backslash)
            }
        }
    }

    /// Walks the document for the requested paths without the parser's tape and gives it
    /// to the sink; `false` if the walk leaves it to the full parse.
    fn skimmed<S: Sink>(&mut self, chunk: &Chunk, span: &Span, sink: &mut S) -> bool {
        let doc = &chunk.data[span.start..span.start + span.len];
        let mut fields = recycle(std::mem::take(&mut self.fields));
        let max_depth = self.opts.max_depth;
        let walked = (self.trie).skim(
            doc,
            &mut fields,
            &mut self.visits,
            max_depth,
            &mut self.stack,
        );
        if let Ok(skimmed) = walked {
            let policy = &self.opts.indexing;
            let terms = match policy.is_off() {
                true => 0,
                false => skimmed.scalars.saturating_add(policy.extra_terms()),
            };
            self.deliver(sink, &fields, (chunk.offset, chunk.source), span, terms);
        }
        self.fields = recycle(fields);
        walked.is_ok()
    }

    /// Gives the document at `span` of a chunk (its offset and source) to the sink, with
    /// the fields read from it, and counts it.
    fn deliver<S: Sink>(
        &mut self,
        sink: &mut S,
        fields: &[Field],
        (offset, source): (u64, usize),
        span: &Span,
        terms: u32,
    ) {
        sink.document(&Document {
            fields,
            bytes: span.len as u64,
            ordinal: offset + span.start as u64,
            source,
            line: span.line,
            beyond_2_53: self.visits.beyond,
            terms,
        });
        self.tally.documents += 1;
        self.tally.bytes += span.len as u64;
    }

    /// Parses in place and, if the root is an object, gives the document to the sink.
    fn parse<S: Sink>(&mut self, chunk: &mut Chunk, span: &Span, sink: &mut S) -> Parsed {
        let mut tape = std::mem::replace(&mut self.tape, Tape(Vec::new())).reset();
        let input = &mut chunk.data[span.start..];
        let parsed = simd_json::fill_tape_padded(input, span.len, &mut self.buffers, &mut tape);
        let outcome = match (parsed, tape.0.first()) {
            (Err(e), _) => Parsed::Failed(e),
            (Ok(()), Some(Node::Object { .. })) => {
                let mut fields = recycle(std::mem::take(&mut self.fields));
                self.trie.extract(&tape.0, &mut fields, &mut self.visits);
                let terms = super::terms::count(&tape.0, &self.opts.indexing);
                self.deliver(sink, &fields, (chunk.offset, chunk.source), span, terms);
                self.fields = recycle(fields);
                Parsed::Ok
            }
            (Ok(()), _) => Parsed::NotAnObject,
        };
        self.tape = tape.reset();
        outcome
    }

    /// An invalid document: an error, or with `--skip-invalid` a count. Its original text
    /// is in `pristine` if `copied`, else still in the chunk.
    fn invalid(
        &mut self,
        chunk: &Chunk,
        span: &Span,
        at: usize,
        problem: Problem,
        copied: bool,
    ) -> Result<(), Failure> {
        let doc = if copied {
            &self.pristine[..]
        } else {
            &chunk.data[span.start..span.start + span.len]
        };
        let at_pos = position(&self.names[chunk.source], span, doc, at);
        let offset = chunk.offset + span.start as u64;
        if !self.opts.skip_invalid {
            let error = InputError::Invalid {
                at: at_pos,
                problem,
            };
            return Err(Failure { offset, error });
        }
        if span.in_array && !balanced(doc) {
            let error = InputError::Unrecoverable {
                at: at_pos,
                problem,
            };
            return Err(Failure { offset, error });
        }
        self.skip(offset, format!("{at_pos}: {problem}"));
        Ok(())
    }

    /// A problem the reader found.
    fn flaw(&mut self, source: usize, flaw: &Flaw) -> Result<(), Failure> {
        let at = Position {
            source: self.names[source].clone(),
            line: flaw.line,
            column: flaw.col,
        };
        let problem = flaw.problem.clone();
        let error = match (self.opts.skip_invalid, flaw.fatal) {
            (false, _) => InputError::Invalid { at, problem },
            (true, true) => InputError::Unrecoverable { at, problem },
            (true, false) => {
                self.skip(flaw.offset, format!("{at}: {problem}"));
                return Ok(());
            }
        };
        Err(Failure {
            offset: flaw.offset,
            error,
        })
    }

    fn skip(&mut self, offset: u64, message: String) {
        self.tally.invalid += 1;
        if self
            .tally
            .first_invalid
            .as_ref()
            .is_none_or(|f| offset < f.0)
        {
            self.tally.first_invalid = Some((offset, message));
        }
    }
}

/// The document on one NDJSON line (`text` starts at `pos` in the chunk), if it is not blank.
fn line_span(text: &[u8], pos: usize, line: u64) -> Option<Span> {
    let first = text.iter().position(|&c| !is_ws(c))?;
    let last = text.iter().rposition(|&c| !is_ws(c))?;
    let doc = &text[first..=last];
    Some(Span {
        start: pos + first,
        len: doc.len(),
        line,
        col: first as u64 + 1,
        backslash: memchr(b'\\', doc).is_some(),
        in_array: false,
        end: End::Line,
    })
}

/// The line and column of byte `at` of a document.
fn position(source: &str, span: &Span, doc: &[u8], at: usize) -> Position {
    let before = &doc[..at.min(doc.len())];
    let (line, column) = match memchr::memrchr(b'\n', before) {
        None => (span.line, span.col + at as u64),
        Some(nl) => {
            let lines = memchr::memchr_iter(b'\n', before).count() as u64;
            (span.line + lines, (at - nl) as u64)
        }
    };
    Position {
        source: source.to_owned(),
        line,
        column,
    }
}

/// An empty vector of fields with another lifetime, keeping the allocation (the in-place
/// collect reuses it, since the element type only differs in lifetime).
fn recycle<'x>(mut v: Vec<Field<'_>>) -> Vec<Field<'x>> {
    v.clear();
    v.into_iter().map(|_| Field::Missing).collect()
}
