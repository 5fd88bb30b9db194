//! The rows of an Azure Monitor export as its shapes lay them out: JSON arrays (one, or
//! several concatenated: `cat a.json b.json`), JSON lines, or CSV with a header (read by the
//! `csv` crate); and recognising an export by its first bytes. What a row means is the
//! [`super::monitor`] reader's.
//!
//! Memory stays bounded: no row may pass [`MAX_LINE_BYTES`] (a JSON element, a line, a CSV
//! record), whatever the shape.

use std::cell::Cell;
use std::io::{BufRead, Read};
use std::rc::Rc;

use serde_json::{Map, Value};

use super::read::{LogError, MAX_LINE_BYTES};

/// Where the rows go: each row object with its position (a line, or an element of an
/// array), and each problem.
pub(super) trait Rows {
    /// The log's name in messages.
    fn name(&self) -> &str;
    /// One row.
    fn row(&mut self, obj: Map<String, Value>, at: u64) -> anyhow::Result<()>;
    /// A row that cannot be read: an error, or with `--skip-invalid` a count.
    fn bad(&mut self, at: u64, message: String) -> anyhow::Result<()>;
}

/// Reads every row of an export (its shape told by its first byte).
pub(super) fn read_rows(mut reader: impl BufRead, rows: &mut dyn Rows) -> anyhow::Result<()> {
    let since = Rc::new(Cell::new(0));
    let capped = Capped {
        inner: &mut reader,
        since: since.clone(),
    };
    let mut r = std::io::BufReader::with_capacity(1 << 16, capped);
    match first_byte(&mut r).map_err(|e| read_error(rows.name(), 1, &e))? {
        Some(b'[') => json_arrays(&mut r, &since, rows),
        Some(b'{') => json_lines(&mut r, &since, rows),
        Some(_) => csv(&mut r, &since, rows),
        None => Ok(()),
    }
}

fn read_error(name: &str, at: u64, e: &std::io::Error) -> anyhow::Error {
    LogError {
        file: name.to_owned(),
        line: at,
        column: 1,
        message: format!("read error: {e}"),
    }
    .into()
}

/// The first byte that is not white space (or a byte-order mark), without consuming it.
fn first_byte(r: &mut impl BufRead) -> std::io::Result<Option<u8>> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let skip = buf.iter().take_while(|b| is_blank(**b)).count();
        if skip < buf.len() {
            let b = buf[skip];
            r.consume(skip);
            return Ok(Some(b));
        }
        let n = buf.len();
        r.consume(n);
    }
}

/// White space, or a byte of the UTF-8 byte-order mark.
fn is_blank(b: u8) -> bool {
    b.is_ascii_whitespace() || [0xEF, 0xBB, 0xBF].contains(&b)
}

/// Column names that only an Azure Monitor export has (matched as [`column()`] names them).
const MARKS: [&str; 13] = [
    "timegenerated",
    "records",
    "category",
    "querytext",
    "requestcharge",
    "activityid",
    "operationname",
    "correlatedactivityid",
    // A CDBPartitionKeyStatistics or CDBPartitionKeyRUConsumption row without a time.
    "partitionkey",
    "partitionkeyrangeid",
    "sizekb",
    "databasename",
    "collectionname",
];

/// Whether a log's first bytes look like an Azure Monitor export rather than the NDJSON
/// log. Decided on the first line's structure, never on words inside a value: a JSON array
/// (the NDJSON log is lines), a JSON object whose keys name an export's columns (and no
/// `op`), or a CSV header naming them; a `SELECT` line is the NDJSON log's.
pub fn looks_like_monitor(head: &[u8]) -> bool {
    let start = head.iter().take_while(|b| is_blank(**b)).count();
    let rest = &head[start..];
    let line = &rest[..memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len())];
    match line.first() {
        None => false,
        Some(b'[') => true,
        Some(b'{') => {
            let keys = object_keys(line);
            !keys.iter().any(|k| k == "op") && keys.iter().any(|k| MARKS.contains(&k.as_str()))
        }
        Some(_) if line.len() >= 6 && line[..6].eq_ignore_ascii_case(b"select") => false,
        Some(_) => line
            .split(|b| *b == b',')
            .map(|f| column(&String::from_utf8_lossy(f).replace('"', "")))
            .any(|c| MARKS.contains(&c.as_str())),
    }
}

/// The keys of a JSON object's first level as [`column()`] names them, read from its first
/// bytes (the object may be cut short).
fn object_keys(text: &[u8]) -> Vec<String> {
    let (mut keys, mut depth, mut i) = (Vec::new(), 0usize, 0);
    while i < text.len() {
        match text[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = i + 1;
                i = start;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                let end = i.min(text.len());
                let after = text.get(end + 1..).unwrap_or_default();
                let colon = after.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':');
                if depth == 1 && colon {
                    keys.push(column(&String::from_utf8_lossy(&text[start..end])));
                }
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// Column names a type suffix may follow in `AzureDiagnostics`.
const KNOWN: [&str; 16] = [
    "timegenerated",
    "time",
    "activityid",
    "correlatedactivityid",
    "operationname",
    "operationtype",
    "requestcharge",
    "statuscode",
    "querytext",
    "partitionkey",
    "sizekb",
    "partitionkeyrangeid",
    "requestlength",
    "responselength",
    "category",
    "type",
];

/// A column's name as rows of every shape agree on it: without case, without the type
/// suffix of `AzureDiagnostics` (`requestCharge_s`), without the unit the portal's CSV
/// adds (`TimeGenerated [UTC]`).
pub(super) fn column(name: &str) -> String {
    let name = name.split(" [").next().unwrap_or(name).trim();
    let lower = name.to_ascii_lowercase();
    for suffix in ["_s", "_g", "_d", "_b", "_t"] {
        if let Some(stem) = lower.strip_suffix(suffix)
            && KNOWN.contains(&stem)
        {
            return stem.to_owned();
        }
    }
    lower
}

/// A reader that fails once more than [`MAX_LINE_BYTES`] pass without the count being
/// reset (at each row): one row cannot take all memory, whatever the shape.
struct Capped<R> {
    inner: R,
    since: Rc<Cell<usize>>,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.since.set(self.since.get() + n);
        if self.since.get() > MAX_LINE_BYTES + (1 << 16) {
            return Err(std::io::Error::other(format!(
                "a row longer than {} MiB",
                MAX_LINE_BYTES >> 20
            )));
        }
        Ok(n)
    }
}

/// JSON arrays of rows, one after the other, each read element by element.
fn json_arrays(
    r: &mut impl BufRead,
    since: &Rc<Cell<usize>>,
    rows: &mut dyn Rows,
) -> anyhow::Result<()> {
    let mut at = 0u64;
    loop {
        match first_byte(r).map_err(|e| read_error(rows.name(), at + 1, &e))? {
            None => return Ok(()),
            Some(b'[') => json_array(r, since, rows, &mut at)?,
            Some(_) => {
                let message = format!(
                    "after element {at}: expected another JSON array of rows or the end of the file"
                );
                return Err(LogError {
                    file: rows.name().to_owned(),
                    line: at,
                    column: 1,
                    message,
                }
                .into());
            }
        }
    }
}

/// One JSON array of rows; `at` counts elements across the arrays of the file.
fn json_array(
    r: &mut impl BufRead,
    since: &Rc<Cell<usize>>,
    rows: &mut dyn Rows,
    at: &mut u64,
) -> anyhow::Result<()> {
    use serde::de::{Deserializer as _, SeqAccess, Visitor};
    struct Elements<'s> {
        rows: &'s mut dyn Rows,
        since: &'s Cell<usize>,
        at: &'s mut u64,
    }
    impl<'de> Visitor<'de> for Elements<'_> {
        type Value = Option<anyhow::Error>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an array of row objects")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while let Some(v) = seq.next_element::<Value>()? {
                *self.at += 1;
                self.since.set(0);
                let at = *self.at;
                let result = match v {
                    Value::Object(o) => self.rows.row(o, at),
                    _ => (self.rows).bad(at, format!("element {at}: expected a row object")),
                };
                if let Err(e) = result {
                    // The array is read to its end, so that the error is this one.
                    while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                        self.since.set(0);
                    }
                    return Ok(Some(e));
                }
            }
            Ok(None)
        }
    }
    let name = rows.name().to_owned();
    let mut de = serde_json::Deserializer::from_reader(r);
    let visitor = Elements { rows, since, at };
    match de.deserialize_seq(visitor) {
        Ok(None) => Ok(()),
        Ok(Some(e)) => Err(e),
        Err(e) => {
            let (line, column) = crate::json_error::position(&e);
            Err(LogError {
                file: name,
                line: line as u64,
                column: column as u64,
                message: format!(
                    "not a JSON array of rows ({})",
                    crate::json_error::message(&e)
                ),
            }
            .into())
        }
    }
}

/// JSON lines: a row, or `{"records": [...]}`, a line (ended by `\n`, `\r\n` or `\r`).
fn json_lines(
    r: &mut impl BufRead,
    since: &Rc<Cell<usize>>,
    rows: &mut dyn Rows,
) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    let mut line = 0u64;
    loop {
        buf.clear();
        line += 1;
        since.set(0);
        let n = read_line(r, &mut buf).map_err(|e| read_error(rows.name(), line, &e))?;
        if n == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(o)) => rows.row(o, line)?,
            Ok(_) => rows.bad(line, "expected a row object".into())?,
            Err(e) => rows.bad(line, format!("not JSON: {e}"))?,
        }
    }
}

/// One line into `buf`, ended by `\n`, `\r\n` or a lone `\r` (the end not kept): the bytes
/// consumed.
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(consumed);
        }
        match memchr::memchr2(b'\n', b'\r', chunk) {
            Some(i) => {
                buf.extend_from_slice(&chunk[..i]);
                let cr = chunk[i] == b'\r';
                r.consume(i + 1);
                consumed += i + 1;
                if cr && r.fill_buf()?.first() == Some(&b'\n') {
                    r.consume(1);
                    consumed += 1;
                }
                return Ok(consumed);
            }
            None => {
                let n = chunk.len();
                buf.extend_from_slice(chunk);
                r.consume(n);
                consumed += n;
            }
        }
    }
}

/// CSV with a header row (RFC 4180 by the `csv` crate: quoted fields may hold commas,
/// quotes and line ends; records end with `\n`, `\r\n` or `\r`). A record of another
/// number of fields than the header names is invalid.
fn csv(r: &mut impl BufRead, since: &Rc<Cell<usize>>, rows: &mut dyn Rows) -> anyhow::Result<()> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(r);
    let mut record = csv::ByteRecord::new();
    let mut header: Option<Vec<String>> = None;
    let text = |f: &[u8]| String::from_utf8_lossy(f).into_owned();
    // The csv crate counts the lines that end records; those inside quoted fields are
    // added here, so that positions are the file's lines.
    let mut inside = 0u64;
    loop {
        since.set(0);
        let more = reader.read_byte_record(&mut record).map_err(|e| {
            let at = e.position().map_or(0, csv::Position::line);
            read_error(rows.name(), at, &std::io::Error::other(e))
        })?;
        if !more {
            return Ok(());
        }
        let at = record.position().map_or(0, csv::Position::line) + inside;
        inside += record.iter().map(line_ends).sum::<u64>();
        let Some(columns) = &header else {
            header = Some(record.iter().map(|h| text(h).trim().to_owned()).collect());
            continue;
        };
        if record.len() != columns.len() {
            let message = format!(
                "{} fields where the header names {} columns",
                record.len(),
                columns.len()
            );
            rows.bad(at, message)?;
            continue;
        }
        let obj: Map<String, Value> = (columns.iter().zip(record.iter()))
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.clone(), Value::String(text(v))))
            .collect();
        rows.row(obj, at)?;
    }
}

/// Line ends in a field: `\n`, `\r\n` or a lone `\r`.
fn line_ends(field: &[u8]) -> u64 {
    let lone_cr = field
        .iter()
        .enumerate()
        .filter(|&(i, b)| *b == b'\r' && field.get(i + 1) != Some(&b'\n'))
        .count();
    (memchr::memchr_iter(b'\n', field).count() + lone_cr) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Collect(Vec<(u64, Map<String, Value>)>, Vec<(u64, String)>);

    impl Rows for Collect {
        fn name(&self) -> &str {
            "t"
        }
        fn row(&mut self, obj: Map<String, Value>, at: u64) -> anyhow::Result<()> {
            self.0.push((at, obj));
            Ok(())
        }
        fn bad(&mut self, at: u64, message: String) -> anyhow::Result<()> {
            self.1.push((at, message));
            Ok(())
        }
    }

    fn rows_of(text: &str) -> Collect {
        let mut c = Collect::default();
        read_rows(text.as_bytes(), &mut c).expect("read");
        c
    }

    #[test]
    fn columns_match_without_case_or_type_suffix() {
        assert_eq!(column("requestCharge_s"), "requestcharge");
        assert_eq!(column("activityId_g"), "activityid");
        assert_eq!(column("RequestCharge"), "requestcharge");
        assert_eq!(column("databasename_s"), "databasename_s");
        assert_eq!(column("sizeKb_d"), "sizekb");
        assert_eq!(column("TimeGenerated [UTC]"), "timegenerated");
    }

    #[test]
    fn csv_records_hold_quotes_commas_and_line_ends() {
        let c = rows_of("a,b,c\n\"x,1\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nlast,,\n");
        assert_eq!(c.0.len(), 2);
        assert_eq!(c.0[0].1["a"], "x,1");
        assert_eq!(c.0[0].1["b"], "say \"hi\"");
        assert_eq!(c.0[0].1["c"], "two\nlines");
        assert_eq!((c.0[1].0, c.0[1].1.len()), (4, 1));
    }

    #[test]
    fn carriage_returns_alone_end_lines_and_records() {
        let c = rows_of("a,b\rx,1\ry,2\r");
        assert_eq!(c.0.len(), 2);
        assert_eq!(c.0[1].1["a"], "y");
        let c = rows_of("{\"a\":1}\r{\"a\":2}\r\n{\"a\":3}");
        assert_eq!(c.0.iter().map(|r| r.0).collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn csv_records_of_more_or_fewer_fields_than_the_header_are_invalid() {
        let c = rows_of("a,b\nx,1\ny,2,extra\nz\n");
        assert_eq!(c.0.len(), 1);
        assert_eq!(
            c.1,
            [
                (3, "3 fields where the header names 2 columns".to_owned()),
                (4, "1 fields where the header names 2 columns".to_owned())
            ]
        );
    }

    #[test]
    fn concatenated_arrays_are_all_read_and_anything_else_after_one_is_an_error() {
        let c = rows_of("[{\"a\":1},{\"a\":2}]\n[{\"a\":3}]\n");
        assert_eq!(c.0.iter().map(|r| r.0).collect::<Vec<_>>(), [1, 2, 3]);
        let mut c = Collect::default();
        let e = read_rows(&b"[{\"a\":1}] x"[..], &mut c).unwrap_err();
        assert!(
            e.to_string()
                .contains("after element 1: expected another JSON array"),
            "{e}"
        );
    }

    #[test]
    fn a_csv_record_past_the_cap_is_an_error_not_a_buffer() {
        let mut text = String::from("a,b\n\"");
        text.push_str(&"x".repeat(MAX_LINE_BYTES + (2 << 16)));
        text.push_str("\",1\n");
        let mut c = Collect::default();
        let e = read_rows(text.as_bytes(), &mut c).unwrap_err();
        assert!(e.to_string().contains("a row longer than 16 MiB"), "{e}");
    }

    #[test]
    fn monitor_exports_are_told_from_the_ndjson_log() {
        assert!(looks_like_monitor(b"[{\"TimeGenerated\": \"2026-01-01\"}]"));
        assert!(looks_like_monitor(b"{\"records\": []}"));
        assert!(looks_like_monitor(
            b"\xEF\xBB\xBFTimeGenerated [UTC],ActivityId,QueryText\n"
        ));
        assert!(looks_like_monitor(
            b"{\"time\":\"x\",\"category\":\"DataPlaneRequests\"}"
        ));
        // Partition statistics without a time, as JSON lines or CSV.
        assert!(looks_like_monitor(
            b"{\"Type\":\"CDBPartitionKeyStatistics\",\"PartitionKey\":\"[\\\"k\\\"]\",\"SizeKb\":5}\n"
        ));
        assert!(looks_like_monitor(b"Type,PartitionKey,SizeKb\n"));
        assert!(!looks_like_monitor(
            b"{\"op\":\"query\",\"sql\":\"SELECT * FROM c\"}\n"
        ));
        assert!(!looks_like_monitor(b"SELECT * FROM c WHERE c.a = 1\n"));
        // Words of an export inside values say nothing.
        assert!(!looks_like_monitor(
            b"SELECT c.activityId, c.requestCharge FROM c\n"
        ));
        assert!(!looks_like_monitor(
            b"{\"op\":\"read\",\"id\":\"activityId\",\"known\":{\"/requestCharge\":1}}\n"
        ));
    }

    #[test]
    fn recognising_a_log_cut_inside_a_character_does_not_panic() {
        for lead in [
            "SELECT * FROM c WHERE c.a = '",
            "{\"op\":\"query\",\"sql\":\"",
            "a,",
        ] {
            for cut in [4095, 4096, 4097, 8191, 8192] {
                let mut text = lead.to_owned();
                while text.len() < cut - 1 {
                    text.push('a');
                }
                text.push_str("éü漢😀");
                let head = &text.as_bytes()[..cut.min(text.len())];
                assert!(!looks_like_monitor(head), "{lead} {cut}");
            }
        }
    }
}
