//! What every log reader shares: the [`Log`] it fills (sampled to stay within memory), the
//! limits on what one line or request may claim, errors with their position, and the parser
//! of query texts (a query is the same wherever the log wrote it).

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::op::{OpKind, Operation};
use crate::query::{self, Parameters, ParseError, Query};

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

    /// The bytes its creates write per second over the span its timestamps cover (a
    /// batch's creates count; a sampled log's operations stand for their `count`); `None`
    /// without creates or without two distinct timestamps.
    pub fn create_rate(&self) -> Option<f64> {
        fn created(kind: &OpKind) -> f64 {
            match kind {
                OpKind::Create(w) => w.bytes as f64,
                OpKind::Batch(ops) => ops.iter().map(created).sum(),
                _ => 0.0,
            }
        }
        let (mut bytes, mut first, mut last) = (0.0, i64::MAX, i64::MIN);
        for op in &self.ops {
            bytes += created(&op.kind) * op.count as f64;
            if let Some(t) = op.ts {
                (first, last) = (first.min(t), last.max(t));
            }
        }
        let seconds = last.saturating_sub(first) as f64;
        (bytes > 0.0 && last > first).then(|| bytes / seconds)
    }

    /// The share of the real traffic's requests it kept, of a log that is `log_share` of
    /// them: halved for each level it was thinned to fit `--memory`.
    pub fn kept_share(&self, log_share: f64) -> f64 {
        log_share.clamp(0.0, 1.0) * 0.5f64.powi(self.level.min(60) as i32)
    }

    /// Of the item ids the kept operations read or write other than by creating them, how
    /// many there are and how many of them the log creates too. A log of a share `s` of
    /// the requests keeps a create and the item's other requests each on its own, so at
    /// most about `s` of the ids it reads or writes again come with their create; a log
    /// of every request of a share of the values keeps them together.
    pub fn creates_kept_together(&self) -> (u64, u64) {
        fn mark<'a>(kind: &'a OpKind, seen: &mut HashMap<&'a str, u8>) {
            if let OpKind::Batch(ops) = kind {
                ops.iter().for_each(|o| mark(o, seen));
            } else if let Some(id) = kind.item_id() {
                let bit = if matches!(kind, OpKind::Create(_)) {
                    1
                } else {
                    2
                };
                *seen.entry(id).or_default() |= bit;
            }
        }
        let mut seen = HashMap::new();
        self.ops.iter().for_each(|o| mark(&o.kind, &mut seen));
        let touched = seen.values().filter(|&&b| b & 2 != 0).count() as u64;
        let together = seen.values().filter(|&&b| b == 3).count() as u64;
        (touched, together)
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

/// The most RU one logged request may claim: far above any real request (a point read of
/// 2 MB is about 45 RU; a query pays a few thousand at most), far below what would overflow
/// sums.
pub const MAX_REQUEST_RU: f64 = 1_000_000.0;

/// Parsed query texts remembered at most.
const QUERY_CACHE: usize = 4096;

/// Bytes a parsed query is taken to hold per byte of its text (its syntax tree: a node and
/// a value per literal of an `IN` list), to count the cache against the memory given.
pub const PARSED_BYTES_PER_TEXT_BYTE: usize = 24;

/// A problem at a column of a line: the column, and what was expected.
pub(super) fn err(column: u64, message: impl Into<String>) -> (u64, String) {
    (column, message.into())
}

/// Query texts parsed, each once (within a small cache, whose parsed trees count against
/// the log's memory: past `budget` bytes it starts over).
#[derive(Default)]
pub(super) struct QueryParser {
    cache: HashMap<String, Result<Arc<Query>, ParseError>>,
    /// Bytes the cached texts and trees are taken to hold.
    held: usize,
    /// The most they may hold.
    budget: usize,
}

impl QueryParser {
    /// A parser whose cache holds at most `budget` bytes.
    pub(super) fn new(budget: usize) -> QueryParser {
        QueryParser {
            budget,
            ..QueryParser::default()
        }
    }

    /// A query operation from its text and parameters (`plain`: the text is a whole log
    /// line, so its positions are the line's).
    pub(super) fn query(
        &mut self,
        sql: &str,
        params: &Value,
        warnings: &mut Vec<String>,
        plain: bool,
    ) -> Result<OpKind, (u64, String)> {
        let params = Parameters::from_json(params)
            .map_err(|e| err(1, format!("invalid \"parameters\": {e}")))?;
        let parsed = match self.cache.get(sql) {
            Some(p) => p.clone(),
            None => {
                let parsed = query::parse(sql).map(Arc::new);
                // Distinct query texts are many in a hostile log, and some are long (an
                // `IN` list of thousands): the cache is bounded by count and by bytes.
                let bytes = sql.len() * (1 + PARSED_BYTES_PER_TEXT_BYTE) + 256;
                if self.cache.len() >= QUERY_CACHE || self.held + bytes > self.budget {
                    self.cache.clear();
                    self.held = 0;
                }
                if bytes <= self.budget {
                    self.held += bytes;
                    self.cache.insert(sql.to_owned(), parsed.clone());
                }
                parsed
            }
        };
        let parsed = parsed.map_err(|e| {
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
}

/// What an Azure Monitor log showed beyond its operations (the report's `input.monitor`).
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// Rows that repeat an earlier row exactly (an export given twice), read once.
    pub duplicates: u64,
    /// Query pages whose `CorrelatedActivityId` cannot tell queries apart (empty, all
    /// zeros, or shared by different texts): each page counted a query of its own.
    pub uncorrelated: u64,
    /// The current key the `PartitionKey` values belong to.
    pub current_key: Option<String>,
    /// `CDBPartitionKeyStatistics`: the largest logical partitions seen (value, bytes),
    /// largest first.
    pub largest_partitions: Vec<ObservedPartition>,
    /// The container (`database/collection`) whose rows were read, when rows name one.
    pub container: Option<String>,
    /// Rows of other containers, left unread, by `database/collection`.
    pub left: std::collections::BTreeMap<String, u64>,
}

/// One logical partition `CDBPartitionKeyStatistics` reported.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedPartition {
    /// Its key value as the log gives it (a JSON array).
    pub value: String,
    /// Its size in bytes (the largest `SizeKb` seen × 1,000).
    pub bytes: u64,
}
