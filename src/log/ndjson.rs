//! Reads the NDJSON query log: one operation a line (`op`, `sql`, `parameters`, `id`,
//! `known`, `doc`, `ts`, `count`, `ru`, `ops`), or plain lines that start with `SELECT`.
//! Errors name the file, line and column; queries that do not parse also give the line and
//! column inside the query text.

use std::io::{BufRead, BufReader};

use serde_json::Value;

use super::op::{OpKind, Operation, OwnedField, PointOp, WriteOp};
use super::read::{
    Log, LogError, MAX_COUNT, MAX_LINE_BYTES, MAX_REQUEST_RU, MAX_TOTAL, OPERATION_FOOTPRINT,
    QueryParser, err,
};
use crate::engine::{KeyPath, PkValue};
use crate::input::Source;
use crate::time::epoch_seconds;

/// Reads `source`, extracting written documents' fields at `paths`; at most `max_ops`
/// operations are kept (see [`Log`]).
pub fn read_log(
    source: &Source,
    paths: &[KeyPath],
    skip_invalid: bool,
    max_ops: usize,
) -> Result<Log, anyhow::Error> {
    let name = source.name().to_owned();
    let opened = source.open()?;
    let reader = BufReader::with_capacity(1 << 16, opened.reader);
    ndjson(&name, reader, paths, skip_invalid, max_ops)
}

/// Reads an NDJSON log (named `name` in messages) from `reader`.
pub(super) fn ndjson(
    name: &str,
    mut reader: impl BufRead,
    paths: &[KeyPath],
    skip_invalid: bool,
    max_ops: usize,
) -> Result<Log, anyhow::Error> {
    let name = name.to_owned();
    let mut parser = Parser::new(paths, max_ops.saturating_mul(OPERATION_FOOTPRINT) / 8);
    let mut log = Log::default();
    let mut buf = Vec::new();
    let mut line = 0u64;
    loop {
        buf.clear();
        line += 1;
        let (n, too_long) = read_line(&mut reader, &mut buf)
            .map_err(|e| anyhow::anyhow!("{name}:{line}: read error: {e}"))?;
        if n == 0 {
            break;
        }
        let result = if too_long {
            Err(err(
                1,
                format!("line longer than {} MiB", MAX_LINE_BYTES >> 20),
            ))
        } else {
            parser.parse_line(&buf, line, &mut log.warnings)
        };
        let result = result.and_then(|op| match op {
            Some(o) if log.total.saturating_add(o.count) > MAX_TOTAL => Err(err(
                1,
                "the log's counts add up to more than 2^60 operations".to_owned(),
            )),
            other => Ok(other),
        });
        match result {
            Ok(Some(op)) => log.keep(op, max_ops),
            Ok(None) => {}
            Err((column, message)) => {
                let e = LogError {
                    file: name.clone(),
                    line,
                    // Columns are 1-based (serde_json gives 0 at a line's start).
                    column: column.max(1),
                    message,
                };
                if !skip_invalid {
                    return Err(e.into());
                }
                log.invalid += 1;
                log.first_invalid.get_or_insert_with(|| e.to_string());
            }
        }
    }
    log.finish();
    Ok(log)
}

/// Reads one line into `buf` (without its end), stopping at the cap; returns the bytes
/// consumed and whether the line was cut.
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut too_long = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok((consumed, too_long));
        }
        let (take, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        let body = &chunk[..if done { take - 1 } else { take }];
        too_long |= body.len() > room;
        buf.extend_from_slice(&body[..body.len().min(room)]);
        r.consume(take);
        consumed += take;
        if done {
            return Ok((consumed, too_long));
        }
    }
}

type LineResult = Result<Option<Operation>, (u64, String)>;

/// The NDJSON line parser: operations, and written documents' fields at `paths`.
struct Parser<'a> {
    paths: &'a [KeyPath],
    queries: QueryParser,
}

impl<'a> Parser<'a> {
    /// A parser extracting written documents' fields at `paths`, its parsed queries within
    /// `cache_bytes`.
    fn new(paths: &'a [KeyPath], cache_bytes: usize) -> Parser<'a> {
        Parser {
            paths,
            queries: QueryParser::new(cache_bytes),
        }
    }

    fn parse_line(&mut self, raw: &[u8], line: u64, warnings: &mut Vec<String>) -> LineResult {
        let text = std::str::from_utf8(raw)
            .map_err(|e| err(e.valid_up_to() as u64 + 1, "invalid UTF-8"))?;
        let text = text.trim_start_matches('\u{feff}').trim_end_matches('\r');
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(None);
        }
        if trimmed.len() >= 6 && trimmed[..6].eq_ignore_ascii_case("select") {
            let kind = self.queries.query(trimmed, &Value::Null, warnings, true)?;
            return Ok(Some(Operation {
                kind,
                count: 1,
                ts: None,
                ru: None,
                visits: None,
                line,
            }));
        }
        let v: Value = serde_json::from_str(trimmed).map_err(|e| {
            // The column in the line as given, before its leading blanks were trimmed.
            let lead = text.len() - text.trim_start().len();
            let (_, column) = crate::json_error::position(&e);
            err(
                (lead + column) as u64,
                format!(
                    "{} (expected one JSON operation per line, or a SELECT query)",
                    crate::json_error::message(&e)
                ),
            )
        })?;
        let kind = self.kind(&v, warnings, true)?;
        Ok(Some(Operation {
            kind,
            count: count(&v)?,
            ts: ts(&v)?,
            ru: ru(&v)?,
            visits: None,
            line,
        }))
    }

    fn kind(
        &mut self,
        v: &Value,
        warnings: &mut Vec<String>,
        top: bool,
    ) -> Result<OpKind, (u64, String)> {
        let obj = v
            .as_object()
            .ok_or_else(|| err(1, "expected a JSON object with \"op\""))?;
        let op = obj.get("op").and_then(Value::as_str).ok_or_else(|| {
            err(
                1,
                "missing \"op\" (query, read, create, upsert, replace, patch, delete or batch)",
            )
        })?;
        Ok(match op {
            "query" => {
                let sql = obj
                    .get("sql")
                    .and_then(Value::as_str)
                    .ok_or_else(|| err(1, "a query needs \"sql\""))?;
                let params = obj.get("parameters").unwrap_or(&Value::Null);
                self.queries.query(sql, params, warnings, false)?
            }
            "read" => OpKind::Read(point(obj)?),
            "patch" => OpKind::Patch(point(obj)?),
            "delete" => OpKind::Delete(point(obj)?),
            "create" => OpKind::Create(self.write(obj)?),
            "upsert" => OpKind::Upsert(self.write(obj)?),
            "replace" => OpKind::Replace(self.write(obj)?),
            "batch" if top => {
                let ops = obj
                    .get("ops")
                    .and_then(Value::as_array)
                    .filter(|ops| !ops.is_empty())
                    .ok_or_else(|| err(1, "a batch needs \"ops\": [at least one operation]"))?;
                let inner = ops
                    .iter()
                    .map(|o| self.kind(o, warnings, false))
                    .collect::<Result<Vec<_>, _>>()?;
                OpKind::Batch(inner)
            }
            "batch" => return Err(err(1, "a batch cannot contain a batch")),
            other => {
                return Err(err(
                    1,
                    format!(
                        "unknown op {other:?} (expected query, read, create, upsert, replace, patch, delete or batch)"
                    ),
                ));
            }
        })
    }

    fn write(&self, obj: &serde_json::Map<String, Value>) -> Result<WriteOp, (u64, String)> {
        let doc = obj
            .get("doc")
            .filter(|d| d.is_object())
            .ok_or_else(|| err(1, "a write needs \"doc\": {the document}"))?;
        Ok(WriteOp {
            id: doc.get("id").and_then(Value::as_str).map(str::to_owned),
            fields: self.paths.iter().map(|p| OwnedField::of(doc, p)).collect(),
            bytes: serde_json::to_string(doc).map_or(0, |s| s.len() as u64),
            partial: false,
        })
    }
}

fn point(obj: &serde_json::Map<String, Value>) -> Result<PointOp, (u64, String)> {
    let id = obj
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| err(1, "a point operation needs \"id\" (a string)"))?;
    let mut known = Vec::new();
    if let Some(k) = obj.get("known") {
        let map = k
            .as_object()
            .ok_or_else(|| err(1, "\"known\" must be an object of path: value"))?;
        for (path, value) in map {
            let p = KeyPath::parse(path)
                .map_err(|e| err(1, format!("\"known\" path {path:?}: {e}")))?;
            let v = PkValue::from_json(value)
                .ok_or_else(|| err(1, format!("\"known\" value of {path} must be a scalar")))?;
            known.push((p, v));
        }
    }
    Ok(PointOp {
        id: id.to_owned(),
        known,
    })
}

fn count(v: &Value) -> Result<u64, (u64, String)> {
    match v.get("count") {
        None => Ok(1),
        Some(c) => c
            .as_u64()
            .filter(|&n| n > 0 && n <= MAX_COUNT)
            .ok_or_else(|| err(1, "\"count\" must be a positive integer of at most 2^53")),
    }
}

fn ts(v: &Value) -> Result<Option<i64>, (u64, String)> {
    let Some(t) = v.get("ts") else {
        return Ok(None);
    };
    let value = PkValue::from_json(t).unwrap_or(PkValue::Null);
    epoch_seconds(value.as_ref())
        .map(Some)
        .ok_or_else(|| err(1, "\"ts\" must be RFC 3339 or epoch seconds/milliseconds"))
}

fn ru(v: &Value) -> Result<Option<f64>, (u64, String)> {
    match v.get("ru") {
        None => Ok(None),
        Some(r) => r
            .as_f64()
            .filter(|x| (0.0..=MAX_REQUEST_RU).contains(x))
            .map(Some)
            .ok_or_else(|| {
                err(
                    1,
                    "\"ru\" must be a number of request units between 0 and 1,000,000",
                )
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: String, max_ops: usize) -> Log {
        let source = Source::reader("q.ndjson", std::io::Cursor::new(text.into_bytes()));
        read_log(&source, &[], false, max_ops).expect("a valid log")
    }

    fn weighted_share(log: &Log, day: &str) -> f64 {
        let kept: u64 = log.ops.iter().map(|o| o.count).sum();
        let day_ops: u64 = log
            .ops
            .iter()
            .filter(|o| matches!(&o.kind, OpKind::Query(q) if format!("{q:?}").contains(day)))
            .map(|o| o.count)
            .sum();
        day_ops as f64 / kept as f64
    }

    #[test]
    fn ids_created_and_touched_again_are_counted_once() {
        // s1 created and read twice, s2 created and patched in a batch, s3 read only, s4
        // created only: three ids touched other than by their create, two of them
        // created too.
        let text = [
            r#"{"op":"create","doc":{"id":"s1","x":1}}"#,
            r#"{"op":"read","id":"s1"}"#,
            r#"{"op":"read","id":"s1"}"#,
            r#"{"op":"create","doc":{"id":"s2","x":1}}"#,
            r#"{"op":"batch","ops":[{"op":"patch","id":"s2"}]}"#,
            r#"{"op":"read","id":"s3"}"#,
            r#"{"op":"create","doc":{"id":"s4","x":1}}"#,
            "SELECT * FROM c WHERE c.x = 1",
        ]
        .join("\n");
        assert_eq!(read(text, 1_000).creates_kept_together(), (3, 2));
    }

    #[test]
    fn within_its_allowance_a_log_is_kept_whole() {
        let text = "SELECT * FROM c WHERE c.a = 1\n".repeat(500);
        let log = read(text, 1_000);
        assert_eq!((log.ops.len(), log.level, log.total), (500, 0, 500));
        assert!(log.warnings.is_empty());
    }

    #[test]
    fn heavy_counts_thin_out_gradually_and_stay_unbiased() {
        // 30,000 operations, every one counted 1,000 times, a third on another day.
        let mut text = String::new();
        for i in 0..30_000 {
            let day = if i % 3 == 0 { "d2" } else { "d1" };
            text.push_str(&format!(
                "{{\"op\":\"query\",\"sql\":\"SELECT * FROM c WHERE c.day = '{day}'\",\"count\":1000}}\n"
            ));
        }
        let log = read(text, 10_000);
        assert_eq!((log.total, log.read), (30_000_000, 30_000));
        // One step past the counts keeps about half of what it examines, never all or none.
        assert!(
            log.ops.len() > 3_000 && log.ops.len() <= 10_000,
            "{}",
            log.ops.len()
        );
        let kept: u64 = log.ops.iter().map(|o| o.count).sum();
        assert!((kept as f64 / 3e7 - 1.0).abs() < 0.05, "{kept}");
        let share = weighted_share(&log, "d2");
        assert!((share - 1.0 / 3.0).abs() < 0.03, "{share}");
        assert!(log.warnings.iter().any(|w| w.contains("sampled down to")));
    }

    #[test]
    fn the_heaviest_counts_survive_an_allowance_smaller_than_the_log() {
        // 2^46 each: the log adds up to about 2^59.3, within the 2^60 a log may hold.
        let line = "{\"op\":\"query\",\"sql\":\"SELECT * FROM c\",\"count\":70368744177664}\n";
        let log = read(line.repeat(10_001), 10_000);
        assert!(
            log.ops.len() > 3_000 && log.ops.len() <= 10_000,
            "{}",
            log.ops.len()
        );
    }
}
