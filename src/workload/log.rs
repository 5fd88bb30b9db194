//! Reads a query log: NDJSON, one operation a line (`op`, `sql`, `parameters`, `id`,
//! `known`, `doc`, `ts`, `count`, `ru`, `ops`), or plain lines that start with `SELECT`.
//! Errors name the file, line and column; queries that do not parse also give the line and
//! column inside the query text.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::op::{OpKind, Operation, OwnedField, PointOp, WriteOp};
use crate::engine::{KeyPath, PkValue};
use crate::input::Source;
use crate::query::{self, Parameters, ParseError, Query};
use crate::time::epoch_seconds;

/// The largest `count` accepted: beyond 2^53 counts stop being exact as doubles.
pub const MAX_COUNT: u64 = 1 << 53;
/// The most operations a whole log may add up to (2^60): beyond it weighted counters would
/// saturate and fractions stop adding up to one.
pub const MAX_TOTAL: u64 = 1 << 60;

/// Lines longer than this are rejected (memory stays bounded on hostile input).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// A problem in the log, with its position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct LogError {
    /// The log's name.
    pub file: String,
    /// 1-based line.
    pub line: u64,
    /// 1-based column (of the line).
    pub column: u64,
    /// What was expected.
    pub message: String,
}

/// Bytes an operation is assumed to take in memory, to turn `--memory` into a count.
pub const OPERATION_FOOTPRINT: usize = 1024;

/// Operations kept whatever the memory given.
pub const MIN_KEPT_OPERATIONS: usize = 10_000;

/// How many [`OPERATION_FOOTPRINT`]s an operation takes.
fn units(op: &Operation) -> usize {
    1 + op.kind.extra_bytes() / OPERATION_FOOTPRINT
}

/// Operations a log may keep in `memory` bytes: a quarter of it (the documents' statistics
/// have the rest), at [`OPERATION_FOOTPRINT`] each.
pub fn operations_within(memory: usize) -> usize {
    (memory / 4 / OPERATION_FOOTPRINT).max(MIN_KEPT_OPERATIONS)
}

/// The operations of a log, and what reading it found.
///
/// Memory stays bounded: past the operations allowed, the log is sampled by threshold.
/// With threshold `τ = 2^level`, an operation whose `count` reaches τ is kept as it is; a
/// lighter one is kept with probability `count / τ` (decided by a hash of its line) and
/// then stands for τ, so weighted fractions stay unbiased. The level rises one step at a
/// time whenever the kept operations outgrow the allowance: each step keeps at least about
/// half of what it re-examines, whatever the counts.
#[derive(Clone, Debug, Default)]
pub struct Log {
    /// Operations kept, in log order (counts already scaled when sampled).
    pub ops: Vec<Operation>,
    /// Every operation read, weighted by `count` (exact, sampled or not).
    pub total: u64,
    /// Operations read (lines that held one).
    pub read: u64,
    /// Whether any operation read writes.
    pub writes: bool,
    /// The sampling level (0: every operation kept).
    pub level: u32,
    /// The kept operations' size in footprints (see [`units`]).
    units: usize,
    /// Invalid lines skipped (`--skip-invalid`).
    pub invalid: u64,
    /// The first skipped line's error.
    pub first_invalid: Option<String>,
    /// Remarks on queries that parsed (missing parameters ...), at most a few.
    pub warnings: Vec<String>,
    /// What an Azure Monitor export showed beyond its operations.
    pub monitor: Option<Observed>,
}

impl Log {
    /// Operations, weighted by `count`.
    pub fn weighted(&self) -> u64 {
        self.total
    }

    /// Whether the log holds any write.
    pub fn has_writes(&self) -> bool {
        self.writes
    }

    /// Counts `op` and keeps it if the sample takes it, within `max_ops` kept (an operation
    /// holding more than [`OPERATION_FOOTPRINT`] counts as that many times as many).
    pub(crate) fn keep(&mut self, op: Operation, max_ops: usize) {
        self.total = self.total.saturating_add(op.count);
        self.read += 1;
        self.writes |= op.kind.is_write();
        if !takes_at(&op, self.level) {
            return;
        }
        self.units += units(&op);
        self.ops.push(op);
        while self.units > max_ops.max(1) && self.level < 63 {
            self.level += 1;
            let level = self.level;
            self.ops.retain(|o| takes_at(o, level));
            self.units = self.ops.iter().map(units).sum();
        }
    }

    /// Gives sampled operations their weight, and says the log was sampled.
    pub(crate) fn finish(&mut self) {
        if self.level == 0 {
            return;
        }
        let threshold = 1u64 << self.level;
        for op in &mut self.ops {
            op.count = op.count.max(threshold).min(MAX_COUNT);
        }
        self.warnings.push(format!(
            "the query log's {} operations were sampled down to {} to stay within --memory (each operation counted fewer than {threshold} times now stands for {threshold}); its fractions are estimates",
            self.read,
            self.ops.len()
        ));
    }
}

/// Whether the sample with threshold `2^level` takes `op`: with probability
/// `count / 2^level`, decided by a uniform draw from its line's hash (always when heavy).
fn takes_at(op: &Operation, level: u32) -> bool {
    let draw = (crate::mix::splitmix64(op.line, 0x006c_6f67) >> 11) as f64 / (1u64 << 53) as f64;
    draw * ((1u64 << level) as f64) < op.count as f64
}

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
pub(crate) fn ndjson(
    name: &str,
    mut reader: impl BufRead,
    paths: &[KeyPath],
    skip_invalid: bool,
    max_ops: usize,
) -> Result<Log, anyhow::Error> {
    let name = name.to_owned();
    let mut parser = Parser::new(paths);
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
                0,
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
                    column,
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

/// Parsed query texts remembered.
const QUERY_CACHE: usize = 4096;

type LineResult = Result<Option<Operation>, (u64, String)>;

fn err(column: u64, message: impl Into<String>) -> (u64, String) {
    (column, message.into())
}

pub(crate) struct Parser<'a> {
    paths: &'a [KeyPath],
    cache: HashMap<String, Result<Arc<Query>, ParseError>>,
}

impl<'a> Parser<'a> {
    /// A parser extracting written documents' fields at `paths`.
    pub(crate) fn new(paths: &'a [KeyPath]) -> Parser<'a> {
        Parser {
            paths,
            cache: HashMap::new(),
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
            let kind = self.query(trimmed, &Value::Null, warnings, true)?;
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
            err(
                e.column() as u64,
                format!("{e} (expected one JSON operation per line, or a SELECT query)"),
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
                self.query(sql, params, warnings, false)?
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

    /// A query operation from its text and parameters (`plain`: the text is a whole log
    /// line, so its positions are the line's).
    pub(crate) fn query(
        &mut self,
        sql: &str,
        params: &Value,
        warnings: &mut Vec<String>,
        plain: bool,
    ) -> Result<OpKind, (u64, String)> {
        let params = Parameters::from_json(params)
            .map_err(|e| err(1, format!("invalid \"parameters\": {e}")))?;
        // Distinct query texts are many in a hostile log: the cache stays small.
        if self.cache.len() >= QUERY_CACHE && !self.cache.contains_key(sql) {
            self.cache.clear();
        }
        let parsed = self
            .cache
            .entry(sql.to_owned())
            .or_insert_with(|| query::parse(sql).map(Arc::new))
            .clone()
            .map_err(|e| {
                // A plain SELECT line is the query itself: its position is the line's.
                let column = if plain && e.line == 1 {
                    e.column as u64
                } else {
                    1
                };
                err(column, format!("query does not parse: {e} of the query"))
            })?;
        let extraction = query::extract(&parsed, &params);
        for w in &extraction.warnings {
            if warnings.len() < 5 {
                warnings.push(w.to_string());
            }
        }
        Ok(OpKind::Query(Box::new(extraction)))
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

/// The most RU one logged request may claim: far above any real request (a point read of
/// 2 MB is about 45 RU; a query pays a few thousand at most), far below what would overflow
/// sums.
pub const MAX_REQUEST_RU: f64 = 1_000_000.0;

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

/// What an Azure Monitor log showed beyond its operations (the report's `input.monitor`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Observed {
    /// Rows read, of every table.
    pub rows: u64,
    /// `CDBDataPlaneRequests` rows.
    pub requests: u64,
    /// Requests throttled (status 429): evidence about the current key.
    pub throttled: u64,
    /// Operations that cannot be routed: data-plane queries without a statistics row (no
    /// text), rows of no recognised table.
    pub unroutable: u64,
    /// Query statistics pages whose request row never arrived (charged by the model).
    pub unjoined: u64,
    /// Queries with values the log hides (obfuscated), routed by their shape.
    pub hidden: u64,
    /// Point operations with the current key's value.
    pub keyed: u64,
    /// The current key the `PartitionKey` values belong to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_key: Option<String>,
    /// `CDBPartitionKeyStatistics`: the largest logical partitions seen (value, bytes),
    /// largest first.
    pub largest_partitions: Vec<ObservedPartition>,
}

/// One logical partition `CDBPartitionKeyStatistics` reported.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObservedPartition {
    /// Its key value as the log gives it (a JSON array).
    pub value: String,
    /// Its size in bytes (the largest `SizeKb` seen × 1,000).
    pub bytes: u64,
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
