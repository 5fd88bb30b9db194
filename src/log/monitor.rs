//! Azure Monitor diagnostic logs of Cosmos DB as the query log: the workload a team already
//! records. Three shapes carry the same four tables (Microsoft's Azure Monitor table reference for each):
//!
//! * Log Analytics resource-specific rows, exported as a JSON array of objects, JSON lines
//!   or CSV with a header (PascalCase columns: `TimeGenerated`, `ActivityId`, ...);
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
//!   `RequestCharge` joined from `CDBDataPlaneRequests` on `ActivityId`.
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
//! Obfuscated query text keeps its shape: a parameter without a value, or a literal the
//! export wrote as a placeholder (`?`, `***`, `<redacted>`, `{...}`, `__...__`), is a
//! property fixed to a value the log does not show ([`HIDDEN`]); such a query reaches one
//! partition under a key it determines, placed as the sample's documents lie.
//!
//! Memory stays bounded: operations as in the NDJSON log (sampled past the allowance), and
//! the rows waiting for their join partner within the same allowance (past it, reading
//! stops with an error that says so). A join whose partner never arrives is counted.

use std::collections::BTreeMap;
#[cfg(test)]
use std::io::BufReader;
use std::io::{BufRead, Read};

use rustc_hash::FxHashMap;
use serde_json::{Map, Value};

use super::op::{HIDDEN, OpKind, Operation, OwnedField, PointOp, WriteOp};
use super::read::{
    Log, LogError, MAX_LINE_BYTES, MAX_REQUEST_RU, OPERATION_FOOTPRINT, Observed,
    ObservedPartition, QueryParser,
};
use crate::engine::{KeyPath, PkValue};
use crate::key::{KeyLevel, KeySpec};
use crate::time::epoch_seconds;

/// Observed partitions listed at most.
const LARGEST_KEPT: usize = 20;

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

/// A column's name as rows of every shape agree on it (the portal's CSV adds a unit:
/// `TimeGenerated [UTC]`).
fn column(name: &str) -> String {
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

    /// A number, whether the shape wrote it as one or as text.
    fn number(&self, name: &str) -> Option<f64> {
        match self.cols.get(name)? {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        }
        .filter(|x: &f64| x.is_finite())
    }

    fn time(&self) -> Option<i64> {
        let v = self
            .cols
            .get("timegenerated")
            .or_else(|| self.cols.get("time"))?;
        match v {
            Value::Number(n) => epoch_seconds(crate::engine::PkValueRef::Number(n.as_f64()?)),
            Value::String(t) => {
                epoch_seconds(crate::engine::PkValueRef::Str(t)).or_else(|| portal_time(t))
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
}

/// A request's row, kept for its join.
#[derive(Clone, Debug)]
struct Request {
    charge: Option<f64>,
    op: String,
    time: Option<i64>,
    length: Option<f64>,
    at: u64,
}

/// A `CDBPartitionKeyRUConsumption` row, kept for its join.
struct KeyRow {
    /// The current key's value (`PartitionKey`).
    key: Value,
    charge: Option<f64>,
    op: Option<String>,
    time: Option<i64>,
    at: u64,
}

/// The pages of one query.
struct Query {
    text: String,
    time: Option<i64>,
    activities: Vec<String>,
    /// The physical partitions its pages went to (`PartitionKeyRangeId`).
    ranges: Vec<String>,
    at: u64,
}

/// Reading options.
pub struct MonitorOptions<'a> {
    /// Paths of written documents' fields to extract (the plan's).
    pub paths: &'a [KeyPath],
    /// The key the log's `PartitionKey` values belong to.
    pub current_key: Option<&'a KeySpec>,
    /// Skip rows that cannot be read.
    pub skip_invalid: bool,
    /// Operations kept at most (see [`Log`]).
    pub max_ops: usize,
}

/// Reads an Azure Monitor export (named `name` in messages) into a log.
pub fn read_monitor(
    name: &str,
    mut reader: impl BufRead,
    opts: &MonitorOptions<'_>,
) -> anyhow::Result<Log> {
    let mut state = State::new(opts, name);
    match first_byte(&mut reader)? {
        Some(b'[') => json_array(&mut reader, &mut state)?,
        Some(b'{') => json_lines(&mut reader, &mut state)?,
        Some(_) => csv(&mut reader, &mut state)?,
        None => {}
    }
    state.finish()
}

/// The first byte that is not white space (or a byte-order mark), without consuming it.
fn first_byte(r: &mut impl BufRead) -> std::io::Result<Option<u8>> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let skip = buf
            .iter()
            .take_while(|b| b.is_ascii_whitespace() || [0xEF, 0xBB, 0xBF].contains(b))
            .count();
        if skip < buf.len() {
            let b = buf[skip];
            r.consume(skip);
            return Ok(Some(b));
        }
        let n = buf.len();
        r.consume(n);
    }
}

/// Whether a log's first bytes look like an Azure Monitor export rather than the NDJSON
/// log: a row of its columns, an Event Hubs `records` wrapper, or a CSV header naming them.
pub fn looks_like_monitor(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&head[..head.len().min(64 << 10)]).to_ascii_lowercase();
    let first = text.trim_start_matches(['\u{feff}', ' ', '\n', '\r', '\t']);
    // A log of operations is lines: an array is an export (`az ... query` gives `[]` when
    // nothing matched).
    if first.starts_with('[') {
        return true;
    }
    if first.starts_with('{') && first.contains("\"op\"") {
        return false;
    }
    let marks = [
        "timegenerated",
        "\"records\"",
        "\"category\"",
        "querytext",
        "requestcharge",
        "activityid",
    ];
    marks
        .iter()
        .any(|m| first[..first.len().min(4096)].contains(m))
}

struct State<'a> {
    opts: &'a MonitorOptions<'a>,
    name: &'a str,
    log: Log,
    seen: Observed,
    requests: FxHashMap<String, Request>,
    queries: BTreeMap<String, Query>,
    keys: FxHashMap<String, KeyRow>,
    largest: FxHashMap<String, u64>,
    /// Bytes held by rows waiting for their join.
    held: usize,
    parser: QueryParser,
}

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
            keys: FxHashMap::default(),
            largest: FxHashMap::default(),
            held: 0,
            parser: QueryParser::default(),
        }
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

    /// A problem with a row: an error, or with `--skip-invalid` a count.
    fn bad(&mut self, at: u64, message: String) -> anyhow::Result<()> {
        if !self.opts.skip_invalid {
            return Err(self.fail(at, message));
        }
        self.log.invalid += 1;
        let e = self.fail(at, message).to_string();
        self.log.first_invalid.get_or_insert(e);
        Ok(())
    }

    fn hold(&mut self, bytes: usize, at: u64) -> anyhow::Result<()> {
        self.held += bytes + 96;
        if self.held > self.opts.max_ops.saturating_mul(OPERATION_FOOTPRINT) {
            return Err(self.fail(
                at,
                "the rows waiting to be joined (requests, query pages, key values) outgrow the log's share of --memory: give more --memory, or export a shorter time range",
            ));
        }
        Ok(())
    }

    fn row(&mut self, obj: Map<String, Value>, at: u64) -> anyhow::Result<()> {
        if let Some(Value::Array(records)) = obj.get("records").filter(|_| obj.len() == 1) {
            for r in records.clone() {
                match r {
                    Value::Object(o) => self.row(o, at)?,
                    _ => self.bad(at, "a record is not a JSON object".into())?,
                }
            }
            return Ok(());
        }
        let row = Row::of(obj, at);
        self.seen.rows += 1;
        match row.table() {
            Some(Table::DataPlane) => self.request(&row),
            Some(Table::QueryStats) => self.query_page(&row),
            Some(Table::KeyRu) => self.key_ru(&row),
            Some(Table::KeyStats) => {
                self.key_stats(&row);
                Ok(())
            }
            None => {
                self.seen.unroutable += 1;
                Ok(())
            }
        }
    }

    fn charge(&self, row: &Row) -> Option<f64> {
        row.number("requestcharge")
            .filter(|c| (0.0..=MAX_REQUEST_RU).contains(c))
    }

    fn request(&mut self, row: &Row) -> anyhow::Result<()> {
        self.seen.requests += 1;
        if row.number("statuscode") == Some(429.0) {
            self.seen.throttled += 1;
        }
        let Some(id) = row.text("activityid").map(str::to_owned) else {
            return self.bad(row.at, "a request row without ActivityId".into());
        };
        let op = row.operation().unwrap_or("").to_owned();
        self.hold(id.len() + op.len(), row.at)?;
        let req = Request {
            charge: self.charge(row),
            op,
            time: row.time(),
            length: row.number("requestlength"),
            at: row.at,
        };
        // Pages and retries of one activity add up.
        match self.requests.get_mut(&id) {
            Some(r) => {
                r.charge = Some(r.charge.unwrap_or(0.0) + req.charge.unwrap_or(0.0));
            }
            None => {
                self.requests.insert(id, req);
            }
        }
        Ok(())
    }

    fn query_page(&mut self, row: &Row) -> anyhow::Result<()> {
        let Some(text) = row.text("querytext").map(str::to_owned) else {
            return self.bad(row.at, "a query statistics row without QueryText".into());
        };
        let activity = row.text("activityid").unwrap_or("").to_owned();
        let group = row
            .text("correlatedactivityid")
            .map(str::to_owned)
            .unwrap_or_else(|| format!("{activity}#{}", row.at));
        self.hold(text.len() + activity.len() + group.len(), row.at)?;
        let range = row.text("partitionkeyrangeid").map(str::to_owned);
        let q = self.queries.entry(group).or_insert_with(|| Query {
            text,
            time: row.time(),
            activities: Vec::new(),
            ranges: Vec::new(),
            at: row.at,
        });
        if !activity.is_empty() {
            q.activities.push(activity);
        }
        if let Some(r) = range.filter(|r| !q.ranges.contains(r)) {
            q.ranges.push(r);
        }
        Ok(())
    }

    fn key_ru(&mut self, row: &Row) -> anyhow::Result<()> {
        let Some(pk) = row.cols.get("partitionkey").cloned() else {
            return Ok(());
        };
        let id = row
            .text("activityid")
            .map(str::to_owned)
            .unwrap_or_else(|| format!("#row{}", row.at));
        self.hold(id.len() + 64, row.at)?;
        let k = KeyRow {
            key: pk,
            charge: self.charge(row),
            op: row.operation().map(str::to_owned),
            time: row.time(),
            at: row.at,
        };
        self.keys.insert(id, k);
        Ok(())
    }

    fn key_stats(&mut self, row: &Row) {
        let (Some(pk), Some(kb)) = (row.cols.get("partitionkey"), row.number("sizekb")) else {
            return;
        };
        let value = match pk {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let bytes = (kb.max(0.0) * 1000.0).min(1e18) as u64;
        if self.largest.len() < 100_000 || self.largest.contains_key(&value) {
            let e = self.largest.entry(value).or_default();
            *e = (*e).max(bytes);
        }
    }

    /// The current key's paths and values from a `PartitionKey` cell (a JSON array, or its
    /// text).
    fn known(&mut self, pk: &Value) -> Option<Vec<(KeyPath, PkValue)>> {
        let Some(spec) = self.opts.current_key else {
            self.warn_once(
                "the log holds the current key's values (PartitionKey) but no --current-key says which key they belong to: point operations are routed without them",
            );
            return None;
        };
        let parsed;
        let values = match pk {
            Value::Array(a) => a,
            Value::String(s) => {
                parsed = serde_json::from_str::<Value>(s).ok()?;
                parsed.as_array()?
            }
            _ => return None,
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
        let mut out = Vec::new();
        for (level, v) in spec.levels().iter().zip(values) {
            if let (KeyLevel::Path(p), Some(v)) = (level, PkValue::from_json(v)) {
                out.push((p.clone(), v));
            }
        }
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
        self.join_queries()?;
        self.point_operations();
        let mut largest: Vec<ObservedPartition> = (self.largest.drain())
            .map(|(value, bytes)| ObservedPartition { value, bytes })
            .collect();
        largest.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.value.cmp(&b.value)));
        largest.truncate(LARGEST_KEPT);
        self.seen.largest_partitions = largest;
        self.log.finish();
        self.log.monitor = Some(self.seen);
        Ok(self.log)
    }

    fn join_queries(&mut self) -> anyhow::Result<()> {
        let queries = std::mem::take(&mut self.queries);
        for (_, q) in queries {
            let mut charge = None;
            for a in &q.activities {
                match self.requests.remove(a) {
                    Some(r) => charge = Some(charge.unwrap_or(0.0) + r.charge.unwrap_or(0.0)),
                    None => self.seen.unjoined += 1,
                }
            }
            let (sql, params) = query_parts(&q.text);
            let (params, hidden) = hide_parameters(params);
            let kind = match self
                .parser
                .query(&sql, &params, &mut self.log.warnings, false)
            {
                Ok(k) => k,
                Err((_, message)) => {
                    self.bad(q.at, message)?;
                    continue;
                }
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
            let visits = (!q.ranges.is_empty()).then_some(q.ranges.len() as u32);
            self.push_visiting(kind, q.time, charge, visits, q.at);
        }
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

/// The portal's CSV time, `11/14/2026, 12:01:15.376 AM` (UTC): seconds since the epoch.
fn portal_time(t: &str) -> Option<i64> {
    let (date, clock) = t.split_once(',')?;
    let mut d = date.trim().split('/').map(|x| x.parse::<i64>().ok());
    let (month, day, year) = (d.next()??, d.next()??, d.next()??);
    let clock = clock.trim();
    let (hms, half) = clock.rsplit_once(' ').unwrap_or((clock, ""));
    let mut parts = hms.split(':');
    let mut hour: i64 = parts.next()?.parse().ok()?;
    let minute: i64 = parts.next()?.parse().ok()?;
    let second: f64 = parts.next().unwrap_or("0").parse().ok()?;
    match half.to_ascii_uppercase().as_str() {
        "PM" if hour < 12 => hour += 12,
        "AM" if hour == 12 => hour = 0,
        _ => {}
    }
    let valid = (1..=12).contains(&month) && (1..=31).contains(&day) && hour < 24 && minute < 60;
    let iso = format!(
        "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{:02}Z",
        second as i64
    );
    valid
        .then(|| epoch_seconds(crate::engine::PkValueRef::Str(&iso)))
        .flatten()
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

/// A reader that fails once more than [`MAX_LINE_BYTES`] pass without the count being
/// reset: one row of a JSON array cannot take all memory.
struct Capped<R> {
    inner: R,
    since: std::rc::Rc<std::cell::Cell<usize>>,
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

/// A JSON array of rows, read element by element.
fn json_array(r: &mut impl BufRead, state: &mut State<'_>) -> anyhow::Result<()> {
    use serde::de::{Deserializer as _, SeqAccess, Visitor};
    struct Rows<'s, 'a>(&'s mut State<'a>, std::rc::Rc<std::cell::Cell<usize>>);
    impl<'de> Visitor<'de> for Rows<'_, '_> {
        type Value = Option<anyhow::Error>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an array of row objects")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut at = 0u64;
            while let Some(v) = seq.next_element::<Value>()? {
                at += 1;
                self.1.set(0);
                let result = match v {
                    Value::Object(o) => self.0.row(o, at),
                    _ => self
                        .0
                        .bad(at, format!("element {at}: expected a row object")),
                };
                if let Err(e) = result {
                    // The array is read to its end, so that the error is this one.
                    while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                    return Ok(Some(e));
                }
            }
            Ok(None)
        }
    }
    let since = std::rc::Rc::new(std::cell::Cell::new(0));
    let capped = Capped {
        inner: r,
        since: since.clone(),
    };
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::new(capped));
    let name = state.name.to_owned();
    match de.deserialize_seq(Rows(state, since)) {
        Ok(None) => Ok(()),
        Ok(Some(e)) => Err(e),
        Err(e) => Err(LogError {
            file: name,
            line: e.line() as u64,
            column: e.column() as u64,
            message: format!("not a JSON array of rows ({e})"),
        }
        .into()),
    }
}

/// JSON lines: a row, or `{"records": [...]}`, a line.
fn json_lines(r: &mut impl BufRead, state: &mut State<'_>) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    let mut line = 0u64;
    loop {
        buf.clear();
        line += 1;
        let n = r
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| state.fail(line, format!("read error: {e}")))?;
        if n == 0 {
            return Ok(());
        }
        if buf.len() > MAX_LINE_BYTES {
            // Past the cap: the rest of the line is read through, not kept.
            while !buf.ends_with(b"\n") {
                buf.clear();
                let more = r.take(1 << 20).read_until(b'\n', &mut buf)?;
                if more == 0 {
                    break;
                }
            }
            state.bad(
                line,
                format!("line longer than {} MiB", MAX_LINE_BYTES >> 20),
            )?;
            continue;
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(o)) => state.row(o, line)?,
            Ok(_) => state.bad(line, "expected a row object".into())?,
            Err(e) => state.bad(line, format!("not JSON: {e}"))?,
        }
    }
}

/// CSV with a header row (RFC 4180: quoted fields may hold commas, quotes and line ends).
fn csv(r: &mut impl BufRead, state: &mut State<'_>) -> anyhow::Result<()> {
    let mut line = 1u64;
    let Some((header, _)) = csv_record(r, &mut line)? else {
        return Ok(());
    };
    let header: Vec<String> = header.iter().map(|h| h.trim().to_owned()).collect();
    loop {
        let at = line;
        let Some((fields, too_long)) = csv_record(r, &mut line)? else {
            return Ok(());
        };
        if too_long {
            state.bad(
                at,
                format!("record longer than {} MiB", MAX_LINE_BYTES >> 20),
            )?;
            continue;
        }
        if fields.len() == 1 && fields[0].is_empty() {
            continue;
        }
        let obj: Map<String, Value> = (header.iter().zip(fields))
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.clone(), Value::String(v)))
            .collect();
        state.row(obj, at)?;
    }
}

/// One CSV record and whether it passed the cap (then cut); `None` at the end. `line`
/// advances past its line ends.
fn csv_record(r: &mut impl BufRead, line: &mut u64) -> anyhow::Result<Option<(Vec<String>, bool)>> {
    let mut fields = Vec::new();
    let mut field = Vec::new();
    let (mut quoted, mut any, mut size, mut too_long) = (false, false, 0usize, false);
    let mut byte = [0u8; 1];
    loop {
        let n = r.read(&mut byte)?;
        if n == 0 {
            if !any {
                return Ok(None);
            }
            fields.push(String::from_utf8_lossy(&field).into_owned());
            return Ok(Some((fields, too_long)));
        }
        any = true;
        size += 1;
        too_long |= size > MAX_LINE_BYTES;
        let b = byte[0];
        match (quoted, b) {
            (true, b'"') => {
                if r.fill_buf()?.first() == Some(&b'"') {
                    r.consume(1);
                    push_capped(&mut field, b'"', too_long);
                } else {
                    quoted = false;
                }
            }
            (true, b) => {
                *line += (b == b'\n') as u64;
                push_capped(&mut field, b, too_long);
            }
            (false, b'"') if field.is_empty() => quoted = true,
            (false, b',') => {
                fields.push(String::from_utf8_lossy(&std::mem::take(&mut field)).into_owned())
            }
            (false, b'\n') => {
                *line += 1;
                if field.last() == Some(&b'\r') {
                    field.pop();
                }
                fields.push(String::from_utf8_lossy(&field).into_owned());
                return Ok(Some((fields, too_long)));
            }
            (false, b) => push_capped(&mut field, b, too_long),
        }
    }
}

fn push_capped(field: &mut Vec<u8>, b: u8, too_long: bool) {
    if !too_long {
        field.push(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_match_without_case_or_type_suffix() {
        assert_eq!(column("requestCharge_s"), "requestcharge");
        assert_eq!(column("activityId_g"), "activityid");
        assert_eq!(column("RequestCharge"), "requestcharge");
        assert_eq!(column("databasename_s"), "databasename_s");
        assert_eq!(column("sizeKb_d"), "sizekb");
    }

    #[test]
    fn placeholders_are_recognised() {
        for p in ["?", "***", "<redacted>", "{obfuscated}", "__hidden__"] {
            assert!(is_placeholder(p), "{p}");
        }
        for v in ["acme", "*a", "<", "{}", "__a"] {
            assert!(!is_placeholder(v), "{v}");
        }
    }

    #[test]
    fn csv_records_hold_quotes_commas_and_line_ends() {
        let text = "a,b,c\n\"x,1\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nlast,,\n";
        let mut r = BufReader::new(text.as_bytes());
        let mut line = 1;
        let (h, _) = csv_record(&mut r, &mut line).unwrap().unwrap();
        assert_eq!(h, ["a", "b", "c"]);
        let (f, _) = csv_record(&mut r, &mut line).unwrap().unwrap();
        assert_eq!(f, ["x,1", "say \"hi\"", "two\nlines"]);
        assert_eq!(line, 4);
        let (f, _) = csv_record(&mut r, &mut line).unwrap().unwrap();
        assert_eq!(f, ["last", "", ""]);
        assert!(csv_record(&mut r, &mut line).unwrap().is_none());
    }

    #[test]
    fn monitor_exports_are_told_from_the_ndjson_log() {
        assert!(looks_like_monitor(b"[{\"TimeGenerated\": \"2026-01-01\"}]"));
        assert!(looks_like_monitor(b"{\"records\": []}"));
        assert!(looks_like_monitor(b"TimeGenerated,ActivityId,QueryText\n"));
        assert!(!looks_like_monitor(
            b"{\"op\":\"query\",\"sql\":\"SELECT * FROM c\"}\n"
        ));
        assert!(!looks_like_monitor(b"SELECT * FROM c WHERE c.a = 1\n"));
    }
}
