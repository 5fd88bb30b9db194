//! Text in UTF-16 or UTF-32, told by its byte-order mark, handed on as UTF-8 while it
//! streams (memory bounded by one chunk). Text without such a mark passes untouched.

use std::io::{self, Read};

/// Bytes read from the source at a time.
const CHUNK: usize = 1 << 16;

/// The encodings a byte-order mark tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16, little-endian (`FF FE`).
    Utf16Le,
    /// UTF-16, big-endian (`FE FF`).
    Utf16Be,
    /// UTF-32, little-endian (`FF FE 00 00`).
    Utf32Le,
    /// UTF-32, big-endian (`00 00 FE FF`).
    Utf32Be,
}

impl Encoding {
    /// The encoding whose byte-order mark `head` starts with.
    pub fn of(head: &[u8]) -> Option<Encoding> {
        match head {
            [0xFF, 0xFE, 0, 0, ..] => Some(Encoding::Utf32Le),
            [0, 0, 0xFE, 0xFF, ..] => Some(Encoding::Utf32Be),
            [0xFF, 0xFE, ..] => Some(Encoding::Utf16Le),
            [0xFE, 0xFF, ..] => Some(Encoding::Utf16Be),
            _ => None,
        }
    }

    fn unit(self) -> usize {
        match self {
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
            Encoding::Utf32Le | Encoding::Utf32Be => 4,
        }
    }

    /// Its name, as `iconv` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Utf32Le => "UTF-32LE",
            Encoding::Utf32Be => "UTF-32BE",
        }
    }
}

/// `reader` as UTF-8: transcoded when it starts with a UTF-16 or UTF-32 byte-order mark
/// (the mark becomes UTF-8's, which readers drop), else as it is. Nothing is read until
/// the first read, so that a source's own errors (a corrupt gzip stream) surface there.
pub fn utf8(reader: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
    Box::new(Sniff {
        inner: Some(reader),
        head: Vec::with_capacity(4),
        ready: None,
    })
}

/// Reads the first four bytes on the first read, then hands on the text they tell.
struct Sniff {
    inner: Option<Box<dyn Read + Send>>,
    head: Vec<u8>,
    ready: Option<Box<dyn Read + Send>>,
}

impl Read for Sniff {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(ready) = &mut self.ready {
            return ready.read(buf);
        }
        let Some(inner) = self.inner.as_mut() else {
            return Ok(0);
        };
        while self.head.len() < 4 {
            let mut b = [0u8; 4];
            let n = inner.read(&mut b[..4 - self.head.len()])?;
            if n == 0 {
                break;
            }
            self.head.extend_from_slice(&b[..n]);
        }
        let (Some(inner), head) = (self.inner.take(), std::mem::take(&mut self.head)) else {
            return Ok(0);
        };
        let encoding = Encoding::of(&head);
        let plain = io::Cursor::new(head).chain(inner);
        let ready: Box<dyn Read + Send> = match encoding {
            None => Box::new(plain),
            Some(encoding) => Box::new(Transcoder {
                inner: plain,
                encoding,
                pending: Vec::new(),
                out: Vec::new(),
                at: 0,
                read: 0,
                eof: false,
            }),
        };
        self.ready.insert(ready).read(buf)
    }
}

struct Transcoder<R> {
    inner: R,
    encoding: Encoding,
    /// Source bytes not yet decoded (a unit or a surrogate pair cut by the chunk).
    pending: Vec<u8>,
    /// UTF-8 decoded and not yet handed on, from `at`.
    out: Vec<u8>,
    at: usize,
    /// Source bytes decoded so far (for messages).
    read: u64,
    eof: bool,
}

impl<R: Read> Transcoder<R> {
    /// Decodes the next chunk into `out`.
    fn fill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.at = 0;
        let mut buf = vec![0; CHUNK];
        while self.out.is_empty() && !self.eof {
            let n = self.inner.read(&mut buf)?;
            if n == 0 {
                self.eof = true;
            }
            self.pending.extend_from_slice(&buf[..n]);
            let used = self.decode()?;
            self.pending.drain(..used);
            self.read += used as u64;
        }
        if self.eof && !self.pending.is_empty() {
            return Err(self.invalid("the text ends inside a character"));
        }
        Ok(())
    }

    fn invalid(&self, what: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} text (byte-order mark): {what} near byte {}",
                self.encoding.name(),
                self.read
            ),
        )
    }

    /// Decodes whole characters of `pending` into `out`; returns the bytes used.
    fn decode(&mut self) -> io::Result<usize> {
        let size = self.encoding.unit();
        let whole = self.pending.len() / size * size;
        let units = self.pending[..whole]
            .chunks_exact(size)
            .map(|u| match self.encoding {
                Encoding::Utf16Le => u32::from(u16::from_le_bytes([u[0], u[1]])),
                Encoding::Utf16Be => u32::from(u16::from_be_bytes([u[0], u[1]])),
                Encoding::Utf32Le => u32::from_le_bytes([u[0], u[1], u[2], u[3]]),
                Encoding::Utf32Be => u32::from_be_bytes([u[0], u[1], u[2], u[3]]),
            });
        let units: Vec<u32> = units.collect();
        let mut used = 0;
        let mut tmp = [0u8; 4];
        let mut i = 0;
        while i < units.len() {
            let u = units[i];
            let (c, n) = if size == 4 {
                (char::from_u32(u), 1)
            } else if (0xD800..0xDC00).contains(&u) {
                let Some(&low) = units.get(i + 1) else {
                    break; // the pair's second half is in the next chunk
                };
                let c = char::decode_utf16([u as u16, low as u16])
                    .next()
                    .and_then(Result::ok);
                (c, 2)
            } else {
                (char::from_u32(u), 1)
            };
            let c = c.ok_or_else(|| self.invalid("an invalid character"))?;
            self.out
                .extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
            used += n * size;
            i += n;
        }
        Ok(used)
    }
}

impl<R: Read> Read for Transcoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.out.len() {
            self.fill()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(bytes: Vec<u8>) -> io::Result<String> {
        let mut out = String::new();
        utf8(Box::new(io::Cursor::new(bytes))).read_to_string(&mut out)?;
        Ok(out)
    }

    #[test]
    fn every_byte_order_mark_reads_as_utf8() {
        let text = "{\"id\": \"é𝄞\"}\r\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let l32: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        let b32: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        let cases = [
            ([&[0xFF, 0xFE][..], &le].concat()),
            ([&[0xFE, 0xFF][..], &be].concat()),
            ([&[0xFF, 0xFE, 0, 0][..], &l32].concat()),
            ([&[0, 0, 0xFE, 0xFF][..], &b32].concat()),
        ];
        for bytes in cases {
            assert_eq!(through(bytes).unwrap(), format!("\u{feff}{text}"));
        }
        // Without a mark, bytes pass untouched, short ones too.
        assert_eq!(through(b"ab".to_vec()).unwrap(), "ab");
        assert_eq!(through(text.as_bytes().to_vec()).unwrap(), text);
    }

    #[test]
    fn a_pair_cut_by_the_chunk_and_bad_text() {
        // A surrogate pair straddling the chunk boundary decodes whole.
        let mut text = "a".repeat(CHUNK / 2 - 2);
        text.push('𝄞');
        let bytes: Vec<u8> = [
            &[0xFF, 0xFE][..],
            &text
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
        ]
        .concat();
        assert_eq!(through(bytes).unwrap(), format!("\u{feff}{text}"));
        let lone = vec![0xFF, 0xFE, 0x00, 0xDC];
        let e = through(lone).unwrap_err().to_string();
        assert!(
            e.contains("UTF-16LE text (byte-order mark): an invalid character"),
            "{e}"
        );
        let odd = vec![0xFF, 0xFE, 0x41];
        assert!(
            through(odd)
                .unwrap_err()
                .to_string()
                .contains("ends inside a character")
        );
    }
}
