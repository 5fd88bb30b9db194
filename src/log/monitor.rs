//! Azure Monitor diagnostic logs of Cosmos DB as the query log: the workload a team already
//! records. Three shapes carry the same four tables (Microsoft's Azure Monitor table
//! reference for each), read row by row by [`super::rows`]:
//!
//! * Log Analytics resource-specific rows, exported as a JSON array of objects (or several,
//!   concatenated), JSON lines or CSV with a header (PascalCase columns: `TimeGenerated`,
//!   `ActivityId`, ...);
//! * the legacy `AzureDiagnostics` table: a `Category` column and suffixed columns
//!   (`requestCharge_s`, `activityId_g`, `sizeKb_d`), casing by category;
//! * storage-account and Event Hubs lines `{"time", "category", "operationName",
//!   "properties": {...}}` (or `{"records": [...]}`), numbers often as strings.
//!
//! Column names are matched without case and without those suffixes, so a row of any shape
//! reads the same. Each row is one of:
//!
//! * `CDBQueryRuntimeStatistics` (`QueryText`): a query, routed by its text; pages of one
//!   query (`CorrelatedActivityId`) are one operation, charged the sum of its pages'
//!   `RequestCharge` joined from `CDBDataPlaneRequests` on `ActivityId`. An id that cannot
//!   tell queries apart (empty, all zeros, or shared by pages of different texts) groups
//!   nothing: each page is a query, counted `uncorrelated`.
//! * `CDBDataPlaneRequests`: charges and status (429: throttled, counted as evidence about
//!   the current key). A point operation (Read, Create, Replace, Upsert, Delete, Patch) is
//!   an operation that knows only the current key's value, joined from
//!   `CDBPartitionKeyRUConsumption` on `ActivityId`; a query with no statistics row has no
//!   text and is counted `unroutable`.
//! * `CDBPartitionKeyRUConsumption` (`PartitionKey` a JSON array, one element a level of
//!   the current key): the current key's value of a point operation; a row no request
//!   claims is an operation of its own (its `RequestCharge`, its `OperationName`).
//! * `CDBPartitionKeyStatistics` (`PartitionKey`, `SizeKb`): the current key's largest
//!   logical partitions, reported as observed beside the projection.
//!
//! A value the reader cannot take (a `RequestCharge` that is no number of request units, a
//! `SizeKb` out of range, a `PartitionKey` that is no array of scalars) is an error naming
//! the row and the column (with `--skip-invalid`, the row is skipped and counted), never
//! silently replaced. A row that repeats an earlier one exactly (an export given twice) is
//! counted `duplicates` and read once.
//!
//! Obfuscated query text keeps its shape: a parameter without a value, or a literal the
//! export wrote as a placeholder (`?`, `***`, `<redacted>`, `{...}`, `__...__`), is a
//! property fixed to a value the log does not show ([`HIDDEN`]); such a query reaches one
//! partition under a key it determines, placed as the sample's documents lie.
//!
//! Memory stays bounded: operations as in the NDJSON log (sampled past the allowance), and
//! the rows waiting for their join (their ids, texts and key values, counted in bytes)
//! within the same allowance (past it, reading stops with an error that says so). A join
//! whose partner never arrives is counted.

use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;

use rustc_hash::FxHashMap;
use serde_json::{Map, Value};

use super::op::{HIDDEN, OpKind, Operation, OwnedField, PointOp, WriteOp};
use super::read::{
    Log, LogError, MAX_REQUEST_RU, OPERATION_FOOTPRINT, Observed, ObservedPartition, QueryParser,
};
use super::rows::{Rows, column, read_rows};
use crate::engine::{KeyPath, PkValue};
use crate::key::{KeyLevel, KeySpec};
use crate::time::{epoch_seconds, portal_seconds};

pub use super::rows::looks_like_monitor;

/// Observed partitions listed at most.
const LARGEST_KEPT: usize = 20;

/// Distinct partitions of `CDBPartitionKeyStatistics` remembered at once: past it, the
/// smaller half is forgotten (a value forgotten and seen again comes back with its new
/// size, so the largest stay exact).
const LARGEST_TRACKED: usize = 4096;

/// The largest `SizeKb` accepted: 10 TB, far past the 20 GB a logical partition may hold.
const MAX_SIZE_KB: f64 = 1e10;

/// The four tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    DataPlane,
    QueryStats,
    KeyRu,
    KeyStats,
}

/// One row, its columns named without case or type suffix, `properties` flattened in.
struct Row {
    cols: BTreeMap<String, Value>,
    /// Where it is: a line, or an element of an array.
    at: u64,
}

impl Row {
    fn of(obj: Map<String, Value>, at: u64) -> Row {
        let mut cols = BTreeMap::new();
        // An export fills the columns a row does not have with "" or null: absent.
        let empty = |v: &Value| v.is_null() || v.as_str().is_some_and(str::is_empty);
        for (k, v) in obj {
            match (k.eq_ignore_ascii_case("properties"), v) {
                (true, Value::Object(props)) => {
                    for (pk, pv) in props.into_iter().filter(|(_, v)| !empty(v)) {
                        cols.entry(column(&pk)).or_insert(pv);
                    }
                }
                (_, v) if empty(&v) => {}
                (_, v) => {
                    cols.insert(column(&k), v);
                }
            }
        }
        Row { cols, at }
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.cols
            .get(name)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    }

    /// A number, whether the shape wrote it as one or as text: `None` when absent, an error
    /// (what the cell held) when it is no finite number.
    fn number(&self, name: &str) -> Result<Option<f64>, String> {
        let Some(v) = self.cols.get(name) else {
            return Ok(None);
        };
        let n = match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        };
        match n.filter(|x: &f64| x.is_finite()) {
            Some(x) => Ok(Some(x)),
            None => Err(cell(v)),
        }
    }

    /// A number within `range`, or an error naming `column` and what it should be.
    fn bounded(
        &self,
        name: &str,
        column: &str,
        range: std::ops::RangeInclusive<f64>,
        what: &str,
    ) -> Result<Option<f64>, String> {
        let bad = |held: String| format!("{column} {held}: expected {what}");
        match self.number(name) {
            Ok(Some(x)) if range.contains(&x) => Ok(Some(x)),
            Ok(Some(_)) => Err(bad(cell(&self.cols[name]))),
            Ok(None) => Ok(None),
            Err(held) => Err(bad(held)),
        }
    }

    /// `RequestCharge`, when the row has one.
    fn charge(&self) -> Result<Option<f64>, String> {
        self.bounded(
            "requestcharge",
            "RequestCharge",
            0.0..=MAX_REQUEST_RU,
            "a number of request units between 0 and 1,000,000",
        )
    }

    fn time(&self) -> Option<i64> {
        let v = self
            .cols
            .get("timegenerated")
            .or_else(|| self.cols.get("time"))?;
        match v {
            Value::Number(n) => epoch_seconds(crate::engine::PkValueRef::Number(n.as_f64()?)),
            Value::String(t) => {
                epoch_seconds(crate::engine::PkValueRef::Str(t)).or_else(|| portal_seconds(t))
            }
            _ => None,
        }
    }

    fn operation(&self) -> Option<&str> {
        self.text("operationtype")
            .or_else(|| self.text("operationname"))
    }

    fn table(&self) -> Option<Table> {
        // `Type` names the resource-specific table; in AzureDiagnostics it is that, and
        // `Category` names the table.
        let named = |n: &str| {
            let n = n.to_ascii_lowercase();
            let n = n.strip_prefix("cdb").unwrap_or(&n).to_owned();
            match n.as_str() {
                "dataplanerequests" => Some(Table::DataPlane),
                "queryruntimestatistics" => Some(Table::QueryStats),
                "partitionkeyruconsumption" => Some(Table::KeyRu),
                "partitionkeystatistics" => Some(Table::KeyStats),
                _ => None,
            }
        };
        let by_name =
            (self.text("type").and_then(named)).or_else(|| self.text("category").and_then(named));
        by_name.or_else(|| {
            let has = |c: &str| self.cols.contains_key(c);
            if has("querytext") {
                Some(Table::QueryStats)
            } else if has("sizekb") {
                Some(Table::KeyStats)
            } else if has("partitionkey") {
                Some(Table::KeyRu)
            } else if has("requestcharge") {
                Some(Table::DataPlane)
            } else {
                None
            }
        })
    }

    /// The row's columns and values hashed: equal rows (an export given twice) agree.
    fn fingerprint(&self) -> u128 {
        let text = serde_json::to_vec(&self.cols).unwrap_or_default();
        let (h1, h2) = crate::engine::murmur::murmur3_x64_128(&text);
        (u128::from(h1) << 64) | u128::from(h2)
    }

    /// `PartitionKey`: a JSON array (or its text) of the key's values, one a level.
    fn partition_key(&self) -> Result<Option<Vec<PkValue>>, String> {
        let Some(v) = self.cols.get("partitionkey") else {
            return Ok(None);
        };
        let parsed;
        let items = match v {
            Value::Array(a) => Some(a),
            Value::String(s) => {
                parsed = serde_json::from_str::<Value>(s).ok();
                parsed.as_ref().and_then(Value::as_array)
            }
            _ => None,
        };
        let values = items.and_then(|a| a.iter().map(PkValue::from_json).collect());
        match values {
            Some(v) => Ok(Some(v)),
            None => Err(format!(
                "PartitionKey {}: expected a JSON array of the key's values (strings, numbers, booleans or null)",
                cell(v)
            )),
        }
    }
}

/// A cell's content in a message: JSON text, cut past 40 characters (hashed under
/// `--redact`, see [`crate::redact::in_message`]).
fn cell(v: &Value) -> String {
    crate::redact::in_message(&crate::units::clipped(&v.to_string(), 40))
}

/// The heap bytes of key values.
fn value_bytes(values: &[PkValue]) -> usize {
    values
        .iter()
        .map(|v| {
            32 + if let PkValue::String(s) = v {
                s.len()
            } else {
                0
            }
        })
        .sum()
}

/// The longest a query's pages may span: pages of one `CorrelatedActivityId` and text
/// further apart are queries of their own (the id is a constant the application set).
pub const PAGE_SPAN_SECONDS: i64 = 300;

/// Whether a `CorrelatedActivityId` can tell queries apart: not empty, not all zeros.
fn correlates(id: &str) -> bool {
    id.chars().any(|c| c.is_ascii_alphanumeric() && c != '0')
}

/// A request's row, kept for its join.
#[derive(Clone, Debug)]
struct Request {
    charge: Option<f64>,
    op: String,
    time: Option<i64>,
    length: Option<f64>,
    at: u64,
    /// The rows read for this activity, to tell a page or a retry from the same row again.
    rows: Vec<u128>,
}

/// A `CDBPartitionKeyRUConsumption` row, kept for its join.
struct KeyRow {
    /// The current key's value (`PartitionKey`), one value a level.
    key: Vec<PkValue>,
    charge: Option<f64>,
    op: Option<String>,
    time: Option<i64>,
    at: u64,
}

/// The pages of one query (or of one `CorrelatedActivityId` and text).
struct Query {
    text: String,
    time: Option<i64>,
    /// The earliest and latest of its pages' times.
    span: Option<(i64, i64)>,
    activities: BTreeSet<String>,
    /// The physical partitions its pages went to (`PartitionKeyRangeId`).
    ranges: BTreeSet<String>,
    /// The id that grouped the pages, when there is one.
    correlated: Option<String>,
    at: u64,
}

/// Reading options.
pub struct MonitorOptions<'a> {
    /// Paths of written documents' fields to extract (the plan's).
    pub paths: &'a [KeyPath],
    /// The key the log's `PartitionKey` values belong to.
    pub current_key: Option<&'a KeySpec>,
    /// The container whose rows are read, when the log holds several.
    pub container: Option<&'a super::LogContainer>,
    /// Skip rows that cannot be read.
    pub skip_invalid: bool,
    /// Operations kept at most (see [`Log`]).
    pub max_ops: usize,
}

/// Reads an Azure Monitor export (named `name` in messages) into a log.
pub fn read_monitor(
    name: &str,
    reader: impl BufRead,
    opts: &MonitorOptions<'_>,
) -> anyhow::Result<Log> {
    let mut state = State::new(opts, name);
    read_rows(reader, &mut state)?;
    state.finish()
}

struct State<'a> {
    opts: &'a MonitorOptions<'a>,
    name: &'a str,
    log: Log,
    seen: Observed,
    requests: FxHashMap<String, Request>,
    queries: BTreeMap<(String, u64), Query>,
    /// Each `CorrelatedActivityId`'s first query text (hashed), and whether another text
    /// came under it.
    correlated: FxHashMap<String, (u64, bool)>,
    keys: FxHashMap<String, KeyRow>,
    largest: FxHashMap<String, u64>,
    /// Bytes held by rows waiting for their join.
    held: usize,
    /// Rows of each container (`database/collection`), read or left.
    containers: BTreeMap<String, u64>,
    parser: QueryParser,
}

impl Rows for State<'_> {
    fn name(&self) -> &str {
        self.name
    }

    fn row(&mut self, mut obj: Map<String, Value>, at: u64) -> anyhow::Result<()> {
        if let Some(Value::Array(records)) = obj.get_mut("records") {
            // An Event Hubs batch: its records are the rows; anything beside them is said,
            // not read as a row of its own.
            let records = std::mem::take(records);
            let others: Vec<&String> = obj.keys().filter(|k| *k != "records").collect();
            if !others.is_empty() {
                let names: Vec<String> = others.iter().map(|k| format!("{k:?}")).collect();
                let message = format!(
                    "{}: a batch of records holds other fields too ({}), left unread",
                    self.name,
                    names.join(", ")
                );
                if !self.log.warnings.contains(&message) {
                    self.log.warnings.push(message);
                }
            }
            for r in records {
                match r {
                    Value::Object(o) => self.row(o, at)?,
                    _ => self.bad(at, "a record is not a JSON object".into())?,
                }
            }
            return Ok(());
        }
        let row = Row::of(obj, at);
        if !self.of_the_container(&row) {
            return Ok(());
        }
        self.seen.rows += 1;
        let result = match row.table() {
            Some(Table::DataPlane) => self.request(&row),
            Some(Table::QueryStats) => self.query_page(&row),
            Some(Table::KeyRu) => self.key_ru(&row),
            Some(Table::KeyStats) => self.key_stats(&row),
            None if row.cols.contains_key("op") => Err(Problem::Row(
                "an operation of the NDJSON log (\"op\"), not an Azure Monitor row: write the NDJSON log one operation a line, or give --queries-format ndjson"
                    .to_owned(),
            )),
            None => {
                self.seen.unroutable += 1;
                Ok(())
            }
        };
        match result {
            Ok(()) => Ok(()),
            Err(Problem::Row(message)) => self.bad(at, message),
            Err(Problem::Log(message)) => Err(self.fail(at, message)),
        }
    }

    fn bad(&mut self, at: u64, message: String) -> anyhow::Result<()> {
        if !self.opts.skip_invalid {
            return Err(self.fail(at, message));
        }
        self.log.invalid += 1;
        let e = self.fail(at, message).to_string();
        self.log.first_invalid.get_or_insert(e);
        Ok(())
    }
}

/// What stops a row: a value the reader cannot take (skipped with `--skip-invalid`), or
/// the log outgrowing its memory (never skipped).
enum Problem {
    Row(String),
    Log(String),
}

impl From<String> for Problem {
    fn from(message: String) -> Problem {
        Problem::Row(message)
    }
}

type RowResult = Result<(), Problem>;

/// Why reading stops when the rows waiting for their join outgrow the allowance.
const MEMORY: &str = "the rows waiting to be joined (requests, query pages, key values) outgrow the log's share of --memory: give more --memory, or export a shorter time range";

impl<'a> State<'a> {
    fn new(opts: &'a MonitorOptions<'a>, name: &'a str) -> State<'a> {
        State {
            opts,
            name,
            log: Log::default(),
            seen: Observed {
                current_key: opts.current_key.map(ToString::to_string),
                ..Observed::default()
            },
            requests: FxHashMap::default(),
            queries: BTreeMap::new(),
            correlated: FxHashMap::default(),
            keys: FxHashMap::default(),
            largest: FxHashMap::default(),
            held: 0,
            containers: BTreeMap::new(),
            parser: QueryParser::new(opts.max_ops.saturating_mul(OPERATION_FOOTPRINT) / 8),
        }
    }

    /// Counts the row's container (rows that name none, account-level requests, are
    /// read); whether it is the one to read.
    fn of_the_container(&mut self, row: &Row) -> bool {
        let (Some(db), Some(coll)) = (row.text("databasename"), row.text("collectionname")) else {
            return true;
        };
        *self.containers.entry(format!("{db}/{coll}")).or_default() += 1;
        self.opts.container.is_none_or(|c| c.matches(db, coll))
    }

    /// The container read: the one named, or the only one; rows of several without a
    /// name, or none of the one named, are an error listing them.
    fn settle_container(&mut self) -> anyhow::Result<()> {
        let list = |m: &BTreeMap<String, u64>| {
            let each = m
                .iter()
                .map(|(name, n)| format!("{name} ({n} {})", if *n == 1 { "row" } else { "rows" }));
            each.collect::<Vec<_>>().join(", ")
        };
        let (used, left): (BTreeMap<String, u64>, BTreeMap<String, u64>) =
            (self.containers.iter().map(|(k, v)| (k.clone(), *v))).partition(|(name, _)| {
                let (db, coll) = name.split_once('/').unwrap_or(("", name));
                self.opts.container.is_none_or(|c| c.matches(db, coll))
            });
        let pick = "pick one with --log-container DATABASE/COLLECTION";
        match (self.opts.container, used.len()) {
            (None, n) if n > 1 => anyhow::bail!(
                "{}: the log holds rows of {n} containers: {}; {pick}",
                self.name,
                list(&used)
            ),
            (Some(c), 0) if !left.is_empty() => anyhow::bail!(
                "{}: the log holds no rows of {c} (named by {}); it holds {}; {pick}",
                self.name,
                c.named_by,
                list(&left)
            ),
            (Some(c), n) if n > 1 => anyhow::bail!(
                "{}: {c} (named by {}) matches {n} containers: {}; {pick}",
                self.name,
                c.named_by,
                list(&used)
            ),
            (Some(c), 0) if c.named_by == super::FLAG => {
                let name = self.name;
                self.log.warnings.push(format!(
                    "{} {c}: no row of {name} names a container (rows of account-level requests, or a table without them): every row is read",
                    super::FLAG
                ));
            }
            _ => {}
        }
        self.seen.container = used.into_keys().next();
        self.seen.left = left;
        Ok(())
    }

    fn fail(&self, at: u64, message: impl Into<String>) -> anyhow::Error {
        LogError {
            file: self.name.to_owned(),
            line: at,
            column: 1,
            message: message.into(),
        }
        .into()
    }

    /// Counts `bytes` more held for a join; past the allowance, the whole log fails (not
    /// the row: `--skip-invalid` does not skip it).
    fn hold(&mut self, bytes: usize) -> RowResult {
        self.held += bytes + 96;
        if self.held > self.opts.max_ops.saturating_mul(OPERATION_FOOTPRINT) {
            return Err(Problem::Log(MEMORY.to_owned()));
        }
        Ok(())
    }

    fn request(&mut self, row: &Row) -> RowResult {
        let charge = row.charge()?;
        let Some(id) = row.text("activityid").map(str::to_owned) else {
            return Err(Problem::Row("a request row without ActivityId".into()));
        };
        let fingerprint = row.fingerprint();
        if let Some(r) = self.requests.get_mut(&id) {
            if r.rows.contains(&fingerprint) {
                self.seen.duplicates += 1;
                return Ok(());
            }
            // Pages and retries of one activity add up.
            r.rows.push(fingerprint);
            r.charge = Some(r.charge.unwrap_or(0.0) + charge.unwrap_or(0.0));
            self.count_request(row);
            return self.hold(16);
        }
        let op = row.operation().unwrap_or("").to_owned();
        self.hold(id.len() + op.len() + 16)?;
        self.count_request(row);
        let req = Request {
            charge,
            op,
            time: row.time(),
            length: row.number("requestlength").ok().flatten(),
            at: row.at,
            rows: vec![fingerprint],
        };
        self.requests.insert(id, req);
        Ok(())
    }

    fn count_request(&mut self, row: &Row) {
        self.seen.requests += 1;
        if row.number("statuscode") == Ok(Some(429.0)) {
            self.seen.throttled += 1;
        }
    }

    fn query_page(&mut self, row: &Row) -> RowResult {
        let Some(text) = row.text("querytext") else {
            return Err(Problem::Row(
                "a query statistics row without QueryText".into(),
            ));
        };
        let activity = row.text("activityid").unwrap_or("").to_owned();
        let text_hash = crate::engine::murmur::murmur3_x64_128(text.as_bytes()).0;
        // Pages of one query share its id and its text; an id under which texts differ
        // is no query's (a constant the application set): its pages are queries each.
        let given = row.text("correlatedactivityid");
        let correlated = given.filter(|c| correlates(c));
        self.seen.uncorrelated += u64::from(given.is_some() && correlated.is_none());
        if let Some(c) = correlated {
            let known = self.correlated.get_mut(c);
            match known {
                Some((first, shared)) => *shared |= *first != text_hash,
                None => {
                    self.hold(c.len())?;
                    self.correlated.insert(c.to_owned(), (text_hash, false));
                }
            }
        }
        let group = match correlated {
            Some(c) => c.to_owned(),
            None => format!("{activity}#{}", row.at),
        };
        let range = row.text("partitionkeyrangeid").map(str::to_owned);
        let key = (group, text_hash);
        let fresh = !self.queries.contains_key(&key);
        let grown = activity.len() + range.as_ref().map_or(0, String::len);
        self.hold(grown + if fresh { text.len() + key.0.len() } else { 0 })?;
        let time = row.time();
        let q = self.queries.entry(key).or_insert_with(|| Query {
            text: text.to_owned(),
            time,
            span: time.map(|t| (t, t)),
            activities: BTreeSet::new(),
            ranges: BTreeSet::new(),
            correlated: correlated.map(str::to_owned),
            at: row.at,
        });
        if !activity.is_empty() && !q.activities.insert(activity) {
            self.seen.duplicates += 1;
        }
        if let Some(r) = range {
            q.ranges.insert(r);
        }
        // A query's pages follow each other within moments; pages of one id and text hours
        // apart are queries the application ran again under a constant id.
        if let (Some(t), Some((first, last))) = (time, &mut q.span) {
            (*first, *last) = ((*first).min(t), (*last).max(t));
            if *last - *first > PAGE_SPAN_SECONDS
                && let Some(c) = correlated
                && let Some((_, shared)) = self.correlated.get_mut(c)
            {
                *shared = true;
            }
        }
        Ok(())
    }

    fn key_ru(&mut self, row: &Row) -> RowResult {
        let charge = row.charge()?;
        let Some(key) = row.partition_key()? else {
            return Ok(());
        };
        // Without ActivityId (an older log), the row's own fingerprint names it: the same
        // row again is one operation, not two.
        let id = match row.text("activityid") {
            Some(a) => a.to_owned(),
            None => format!("#row{:032x}", row.fingerprint()),
        };
        if self.keys.contains_key(&id) {
            self.seen.duplicates += u64::from(row.text("activityid").is_none());
            return Ok(());
        }
        self.hold(id.len() + value_bytes(&key) + 64)?;
        let k = KeyRow {
            key,
            charge,
            op: row.operation().map(str::to_owned),
            time: row.time(),
            at: row.at,
        };
        self.keys.insert(id, k);
        Ok(())
    }

    fn key_stats(&mut self, row: &Row) -> RowResult {
        let kb = row.bounded(
            "sizekb",
            "SizeKb",
            0.0..=MAX_SIZE_KB,
            "kilobytes between 0 and 10,000,000,000",
        )?;
        let (Some(pk), Some(kb)) = (row.partition_key()?, kb) else {
            return Ok(());
        };
        // Shown as values are: cut past 256 bytes (a 1 MB value was printed whole).
        let array: Vec<Value> = pk.iter().filter_map(PkValue::to_json).collect();
        let value = crate::stats::cut_label(&Value::Array(array).to_string());
        let bytes = (kb * 1000.0) as u64;
        let e = self.largest.entry(value).or_default();
        *e = (*e).max(bytes);
        if self.largest.len() > LARGEST_TRACKED {
            // Forget the smaller half: the largest stay exact (see LARGEST_TRACKED).
            let mut sizes: Vec<u64> = self.largest.values().copied().collect();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            let floor = sizes[LARGEST_TRACKED / 2];
            self.largest.retain(|_, b| *b > floor);
        }
        Ok(())
    }

    /// The current key's paths and values of a `PartitionKey` cell's values.
    fn known(&mut self, values: &[PkValue]) -> Option<Vec<(KeyPath, PkValue)>> {
        let Some(spec) = self.opts.current_key else {
            self.warn_once(
                "the log holds the current key's values (PartitionKey) but no --current-key says which key they belong to: point operations are routed without them",
            );
            return None;
        };
        if values.len() != spec.levels().len() {
            let message = format!(
                "PartitionKey values of {} elements do not fit --current-key {spec} ({} levels): point operations are routed without them",
                values.len(),
                spec.levels().len()
            );
            self.warn_once(&message);
            return None;
        }
        let out = (spec.levels().iter().zip(values))
            .filter_map(|(level, v)| match level {
                KeyLevel::Path(p) => Some((p.clone(), v.clone())),
                _ => None,
            })
            .collect();
        Some(out)
    }

    fn warn_once(&mut self, message: &str) {
        if !self.log.warnings.iter().any(|w| w == message) {
            self.log.warnings.push(message.to_owned());
        }
    }

    fn push(&mut self, kind: OpKind, ts: Option<i64>, ru: Option<f64>, at: u64) {
        self.push_visiting(kind, ts, ru, None, at);
    }

    fn push_visiting(
        &mut self,
        kind: OpKind,
        ts: Option<i64>,
        ru: Option<f64>,
        visits: Option<u32>,
        at: u64,
    ) {
        let op = Operation {
            kind,
            count: 1,
            ts,
            ru,
            visits,
            line: at,
        };
        self.log.keep(op, self.opts.max_ops);
    }

    fn finish(mut self) -> anyhow::Result<Log> {
        self.settle_container()?;
        self.join_queries()?;
        self.point_operations();
        let mut largest: Vec<ObservedPartition> = (self.largest.drain())
            .map(|(value, bytes)| ObservedPartition { value, bytes })
            .collect();
        largest.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.value.cmp(&b.value)));
        largest.truncate(LARGEST_KEPT);
        self.seen.largest_partitions = largest;
        if self.seen.duplicates > 0 {
            self.log.warnings.push(format!(
                "{} rows repeat an earlier row exactly (an export given twice?): each is read once",
                self.seen.duplicates
            ));
        }
        self.log.finish();
        self.log.monitor = Some(self.seen);
        Ok(self.log)
    }

    fn join_queries(&mut self) -> anyhow::Result<()> {
        let queries = std::mem::take(&mut self.queries);
        for (_, q) in queries {
            let shared = (q.correlated.as_ref())
                .and_then(|c| self.correlated.get(c))
                .is_some_and(|(_, shared)| *shared);
            if shared {
                // Each page a query of its own, charged its own request.
                self.seen.uncorrelated += q.activities.len().max(1) as u64;
                for a in &q.activities {
                    let charge = self.join_charges(std::slice::from_ref(a));
                    self.push_query(&q, charge, None)?;
                }
                if q.activities.is_empty() {
                    self.push_query(&q, None, None)?;
                }
                continue;
            }
            let activities: Vec<String> = q.activities.iter().cloned().collect();
            let charge = self.join_charges(&activities);
            let visits =
                (!q.ranges.is_empty()).then_some(q.ranges.len().min(u32::MAX as usize) as u32);
            self.push_query(&q, charge, visits)?;
        }
        Ok(())
    }

    /// The summed charges of the requests of `activities` (each taken from the requests).
    fn join_charges(&mut self, activities: &[String]) -> Option<f64> {
        let mut charge = None;
        for a in activities {
            match self.requests.remove(a) {
                Some(r) => charge = Some(charge.unwrap_or(0.0) + r.charge.unwrap_or(0.0)),
                None => self.seen.unjoined += 1,
            }
        }
        charge
    }

    /// The operation of a query's text, charged `charge`.
    fn push_query(
        &mut self,
        q: &Query,
        charge: Option<f64>,
        visits: Option<u32>,
    ) -> anyhow::Result<()> {
        let (sql, params) = query_parts(&q.text);
        let (params, hidden) = hide_parameters(params);
        let kind = match self
            .parser
            .query(&sql, &params, &mut self.log.warnings, false)
        {
            Ok(k) => k,
            Err((_, message)) => return self.bad(q.at, message),
        };
        let kind = match kind {
            OpKind::Query(mut x) => {
                let literal = hide_literals(&mut x.constraints);
                if hidden || literal {
                    self.seen.hidden += 1;
                }
                OpKind::Query(x)
            }
            other => other,
        };
        let charge = charge.filter(|c| *c <= MAX_REQUEST_RU);
        self.push_visiting(kind, q.time, charge, visits, q.at);
        Ok(())
    }

    /// Requests no query claimed: point operations with the current key's value (from
    /// the key-consumption rows), or queries without text (unroutable).
    fn point_operations(&mut self) {
        let mut requests: Vec<(String, Request)> = self.requests.drain().collect();
        requests.sort_by_key(|(_, r)| r.at);
        let mut keys = std::mem::take(&mut self.keys);
        for (id, r) in requests {
            let key = keys.remove(&id);
            let known = key.as_ref().and_then(|k| self.known(&k.key));
            if let Some(kind) = self.point_kind(&r.op, known, r.length) {
                self.push(kind, r.time, r.charge, r.at);
            } else {
                self.seen.unroutable += 1;
            }
        }
        // Key rows no request claimed stand for their own operations, unless the log has
        // the requests too (an older log's key rows carry no ActivityId to join on): then
        // they would count the same operations twice.
        if self.seen.requests > 0 {
            if !keys.is_empty() {
                self.log.warnings.push(format!(
                    "{} CDBPartitionKeyRUConsumption rows match no request by ActivityId; the requests are routed without the current key's value",
                    keys.len()
                ));
            }
            return;
        }
        let mut rest: Vec<KeyRow> = keys.into_values().collect();
        rest.sort_by_key(|k| k.at);
        for k in rest {
            let known = self.known(&k.key);
            match self.point_kind(k.op.as_deref().unwrap_or("Read"), known, None) {
                Some(kind) => self.push(kind, k.time, k.charge, k.at),
                None => self.seen.unroutable += 1,
            }
        }
    }

    fn point_kind(
        &mut self,
        op: &str,
        known: Option<Vec<(KeyPath, PkValue)>>,
        length: Option<f64>,
    ) -> Option<OpKind> {
        let keyed = known.is_some();
        let known = known.unwrap_or_default();
        let point = || PointOp {
            id: String::new(),
            known: known.clone(),
        };
        let write = || WriteOp {
            id: None,
            fields: (self.opts.paths.iter())
                .map(|p| match known.iter().find(|(k, _)| k == p) {
                    Some((_, v)) => OwnedField::Scalar(v.clone()),
                    None => OwnedField::Missing,
                })
                .collect(),
            bytes: length.unwrap_or(0.0).max(0.0) as u64,
            partial: true,
        };
        let kind = match op.to_ascii_lowercase().as_str() {
            "read" => OpKind::Read(point()),
            "delete" => OpKind::Delete(point()),
            "patch" => OpKind::Patch(point()),
            "create" => OpKind::Create(write()),
            "upsert" => OpKind::Upsert(write()),
            "replace" => OpKind::Replace(write()),
            _ => return None,
        };
        self.seen.keyed += keyed as u64;
        Some(kind)
    }
}

/// `QueryText`: a JSON object `{"query": ..., "parameters": [...]}`, or the text itself.
fn query_parts(text: &str) -> (String, Value) {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(o)) => {
            let sql = o
                .get("query")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            (sql, o.get("parameters").cloned().unwrap_or(Value::Null))
        }
        _ => (text.to_owned(), Value::Null),
    }
}

/// Whether a string is a placeholder an export writes for a hidden literal.
pub fn is_placeholder(s: &str) -> bool {
    let wrapped =
        |open: char, close: char| s.len() > 2 && s.starts_with(open) && s.ends_with(close);
    s == "?"
        || (!s.is_empty() && s.chars().all(|c| c == '*'))
        || wrapped('<', '>')
        || wrapped('{', '}')
        || (s.len() > 4 && s.starts_with("__") && s.ends_with("__"))
}

/// Parameters without a value (or with a placeholder) made [`HIDDEN`]; whether any was.
fn hide_parameters(params: Value) -> (Value, bool) {
    let Value::Array(items) = params else {
        return (params, false);
    };
    let mut hidden = false;
    let items = items
        .into_iter()
        .map(|mut p| {
            let hide = match p.get("value") {
                None | Some(Value::Null) => true,
                Some(Value::String(s)) => is_placeholder(s),
                _ => false,
            };
            if hide && let Some(o) = p.as_object_mut() {
                o.insert("value".into(), Value::String(HIDDEN.to_owned()));
                hidden = true;
            }
            p
        })
        .collect();
    (Value::Array(items), hidden)
}

/// Placeholder literals in a query's constraints made [`HIDDEN`]; whether any was.
fn hide_literals(c: &mut crate::query::Constraints) -> bool {
    let mut hidden = false;
    c.map_values(|v| match v {
        PkValue::String(s) if is_placeholder(s) => {
            hidden = true;
            Some(PkValue::String(HIDDEN.to_owned()))
        }
        _ => None,
    });
    hidden
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_recognised() {
        for p in ["?", "***", "<redacted>", "{obfuscated}", "__hidden__"] {
            assert!(is_placeholder(p), "{p}");
        }
        for v in ["acme", "*a", "<", "{}", "__a"] {
            assert!(!is_placeholder(v), "{v}");
        }
    }
}
