//! Input sources — files, standard input, or any reader — and their decompression.
//!
//! Files ending in `.gz` are read through a multi-member gzip decoder (concatenated members
//! from pigz or bgzip work), files ending in `.zst` through zstd. Standard input, readers,
//! and files with any other ending are recognised by their magic bytes (`1f 8b`,
//! `28 b5 2f fd`). A counter under the decoder measures the bytes taken from the source
//! itself (compressed bytes, for compressed input), which is what progress reports.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::InputError;

/// The name standard input goes by in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// One input: a file, standard input, or any reader.
pub struct Source {
    name: String,
    kind: Kind,
}

enum Kind {
    Stdin,
    File(PathBuf),
    Reader(Mutex<Option<Box<dyn Read + Send>>>),
}

/// How a source's bytes are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codec {
    Plain,
    Gzip,
    Zstd,
}

/// An opened source: its decompressed bytes, and a count of the raw bytes read so far.
pub(crate) struct Opened {
    pub reader: Box<dyn Read + Send>,
    pub raw: Arc<AtomicU64>,
    pub codec: Codec,
}

impl Source {
    /// Standard input.
    pub fn stdin() -> Source {
        Source {
            name: STDIN_NAME.to_owned(),
            kind: Kind::Stdin,
        }
    }

    /// A file; its name in messages is the path as given.
    pub fn file(path: impl Into<PathBuf>) -> Source {
        let path = path.into();
        Source {
            name: path.display().to_string(),
            kind: Kind::File(path),
        }
    }

    /// Any reader, treated like standard input (compression recognised by magic bytes).
    /// It can be read once.
    pub fn reader(name: impl Into<String>, reader: impl Read + Send + 'static) -> Source {
        Source {
            name: name.into(),
            kind: Kind::Reader(Mutex::new(Some(Box::new(reader)))),
        }
    }

    /// The sources named on a command line: `-` is standard input, no names at all means
    /// standard input, and standard input may be named only once.
    pub fn from_args<S: AsRef<OsStr>>(args: &[S]) -> Result<Vec<Source>, InputError> {
        if args.is_empty() {
            return Ok(vec![Source::stdin()]);
        }
        let sources: Vec<Source> = args
            .iter()
            .map(|a| match a.as_ref() {
                a if a == "-" => Source::stdin(),
                a => Source::file(a),
            })
            .collect();
        check_one_stdin(&sources)?;
        Ok(sources)
    }

    /// The name used in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether this is a regular file (not standard input, a pipe, a FIFO or a device),
    /// which can be read more than once.
    pub fn is_regular_file(&self) -> bool {
        match &self.kind {
            Kind::File(p) => std::fs::metadata(p).is_ok_and(|m| m.is_file()),
            _ => false,
        }
    }

    /// Whether this is standard input.
    pub fn is_stdin(&self) -> bool {
        matches!(self.kind, Kind::Stdin)
    }

    /// A file's size on disk (compressed size for compressed files); `None` for standard
    /// input, readers, and files that cannot be inspected.
    pub fn size(&self) -> Option<u64> {
        match &self.kind {
            Kind::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            _ => None,
        }
    }

    /// Fails early, before any reading, if a file cannot be opened.
    pub(crate) fn check(&self) -> Result<(), InputError> {
        match &self.kind {
            Kind::File(path) => File::open(path)
                .map(drop)
                .map_err(|reason| InputError::Open {
                    name: self.name.clone(),
                    reason,
                }),
            _ => Ok(()),
        }
    }

    /// Opens the source and its decompressor.
    pub(crate) fn open(&self) -> Result<Opened, InputError> {
        let raw = Arc::new(AtomicU64::new(0));
        let (inner, by_name): (Box<dyn Read + Send>, Option<Codec>) = match &self.kind {
            Kind::Stdin => (Box::new(io::stdin()), None),
            Kind::File(path) => {
                let file = File::open(path).map_err(|reason| InputError::Open {
                    name: self.name.clone(),
                    reason,
                })?;
                (Box::new(file), codec_by_name(path))
            }
            Kind::Reader(slot) => {
                let taken = slot.lock().map(|mut s| s.take()).ok().flatten();
                let reader = taken.ok_or_else(|| InputError::Consumed {
                    name: self.name.clone(),
                })?;
                (reader, None)
            }
        };
        let counted = Counting {
            inner,
            count: Arc::clone(&raw),
        };
        let (reader, codec) = match by_name {
            Some(codec) => (Box::new(counted) as Box<dyn Read + Send>, codec),
            None => sniff(counted).map_err(|e| self.read_error(&e))?,
        };
        let reader = decoder(reader, codec).map_err(|e| self.read_error(&e))?;
        // UTF-16 and UTF-32 text (a byte-order mark tells) is read as UTF-8.
        let reader = super::transcode::utf8(reader);
        Ok(Opened { reader, raw, codec })
    }

    fn read_error(&self, e: &io::Error) -> InputError {
        InputError::Read {
            name: self.name.clone(),
            line: 1,
            message: format!("read error: {e}"),
        }
    }
}

/// At most one standard input among the sources.
pub(crate) fn check_one_stdin(sources: &[Source]) -> Result<(), InputError> {
    if sources.iter().filter(|s| s.is_stdin()).count() > 1 {
        return Err(InputError::StdinTwice);
    }
    Ok(())
}

fn codec_by_name(path: &std::path::Path) -> Option<Codec> {
    match path.extension().and_then(OsStr::to_str) {
        Some(e) if e.eq_ignore_ascii_case("gz") => Some(Codec::Gzip),
        Some(e) if e.eq_ignore_ascii_case("zst") => Some(Codec::Zstd),
        _ => None,
    }
}

/// Reads the first bytes to recognise the compression, then hands them back in front of
/// the rest.
fn sniff(mut r: impl Read + Send + 'static) -> io::Result<(Box<dyn Read + Send>, Codec)> {
    let mut head = Vec::with_capacity(4);
    while head.len() < 4 {
        let mut byte = [0u8; 4];
        let want = 4 - head.len();
        match r.read(&mut byte[..want]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&byte[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let codec = if head.starts_with(&[0x1f, 0x8b]) {
        Codec::Gzip
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Codec::Zstd
    } else {
        Codec::Plain
    };
    Ok((Box::new(Cursor::new(head).chain(r)), codec))
}

fn decoder(r: Box<dyn Read + Send>, codec: Codec) -> io::Result<Box<dyn Read + Send>> {
    Ok(match codec {
        Codec::Plain => r,
        Codec::Gzip => Box::new(flate2::read::MultiGzDecoder::new(r)),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::new(r)?),
    })
}

/// Counts the bytes read from the source itself, under any decoder.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// What a decoding error means to the user.
pub(crate) fn describe_read_error(codec: Codec, e: &io::Error) -> String {
    let truncated = e.kind() == io::ErrorKind::UnexpectedEof;
    match (codec, truncated) {
        (Codec::Plain, _) => format!("read error: {e}"),
        (Codec::Gzip, true) => "truncated gzip data: the compressed stream ends early".into(),
        (Codec::Zstd, true) => "truncated zstd data: the compressed stream ends early".into(),
        (Codec::Gzip, false) => format!("corrupt gzip data: {e}"),
        (Codec::Zstd, false) => format!("corrupt zstd data: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_map_dash_to_stdin_and_refuse_two() {
        let s = Source::from_args::<&str>(&[]).unwrap();
        assert!(s[0].is_stdin() && s[0].name() == STDIN_NAME);
        let s = Source::from_args(&["a.json", "-"]).unwrap();
        assert_eq!(s[0].name(), "a.json");
        assert!(s[1].is_stdin());
        assert!(matches!(
            Source::from_args(&["-", "-"]),
            Err(InputError::StdinTwice)
        ));
    }

    #[test]
    fn magic_bytes_pick_the_codec() {
        let sniffed = |b: &'static [u8]| sniff(b).unwrap().1;
        assert_eq!(sniffed(&[0x1f, 0x8b, 8, 0]), Codec::Gzip);
        assert_eq!(sniffed(&[0x28, 0xb5, 0x2f, 0xfd, 1]), Codec::Zstd);
        assert_eq!(sniffed(b"{}"), Codec::Plain);
        assert_eq!(sniffed(b""), Codec::Plain);
        let (mut r, _) = sniff(&b"{\"a\":1}"[..]).unwrap();
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "{\"a\":1}");
    }

    #[test]
    fn a_reader_source_reads_once() {
        let s = Source::reader("mem", &b"{}"[..]);
        assert!(s.open().is_ok());
        assert!(matches!(s.open(), Err(InputError::Consumed { .. })));
    }
}
