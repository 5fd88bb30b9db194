//! Deterministic generator of the sample data sets under `fixtures/`.
//!
//! ```sh
//! cargo run --release --example gen_fixtures               # (re)write every file under fixtures/
//! cargo run --release --example gen_fixtures -- --check    # exit 1 if a committed file differs
//! cargo run --release --example gen_fixtures -- --summary  # print the figures tests assert
//! ```
//!
//! Every file under `fixtures/` is written by this program, `fixtures/README.md` and
//! `fixtures/summary.json` included: edit the generator, never the output. The output is
//! byte-identical on every run and every machine: one splitmix64 stream per set, integer
//! arithmetic for every random choice (no `powf`/`ln`, whose last bit may differ between
//! platforms), ordered maps only, no clock.
//!
//! Each set is a module of `gen_fixtures_sets/`; this file holds what they share (random
//! numbers, JSON written in a fixed order, dates, the log lines and routing rules, the figures
//! and the output). Sets: `multitenant` (SaaS events, hierarchical key), `iot` (vehicle telemetry, write
//! hotspot of a date key), `profiles` (point reads by id), `nutrition` (skewed low-cardinality
//! food groups), `layouts` (DocumentDB-era client-side layouts against native keys) and `bad` (small invalid inputs with known error positions).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

// ------------------------------------------------------------------------------------------
// Random numbers
// ------------------------------------------------------------------------------------------

#[allow(dead_code)]
#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// Picks indices in proportion to integer weights.
struct Picker {
    cumulative: Vec<u64>,
}

impl Picker {
    fn new(weights: impl IntoIterator<Item = u64>) -> Self {
        let mut total = 0;
        let cumulative = weights
            .into_iter()
            .map(|w| {
                total += w;
                total
            })
            .collect();
        Picker { cumulative }
    }
    fn pick(&self, rng: &mut Rng) -> usize {
        let t = rng.below(*self.cumulative.last().expect("weights"));
        self.cumulative.partition_point(|&c| c <= t)
    }
}

/// Harmonic (Zipf s=1) integer weights: 1/(i+offset) for i in 0..n.
fn zipf(n: usize, offset: u64) -> Vec<u64> {
    (0..n as u64)
        .map(|i| 1_000_000_000_000 / (i + offset))
        .collect()
}

/// Splits `total` into parts proportional to `weights`, each at least `min` (largest
/// remainder, ties to the lower index): the sum is exactly `total`.
fn apportion(total: u64, weights: &[u64], min: u64) -> Vec<u64> {
    let n = weights.len() as u64;
    assert!(
        total >= min * n,
        "cannot give {min} to each of {n} parts of {total}"
    );
    let rest = (total - min * n) as u128;
    let sum: u128 = weights.iter().map(|&w| w as u128).sum();
    let mut out: Vec<u64> = weights
        .iter()
        .map(|&w| min + (rest * w as u128 / sum) as u64)
        .collect();
    let mut remainders: Vec<(u128, usize)> = weights
        .iter()
        .enumerate()
        .map(|(i, &w)| (rest * w as u128 % sum, i))
        .collect();
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let left = total - out.iter().sum::<u64>();
    for &(_, i) in remainders.iter().take(left as usize) {
        out[i] += 1;
    }
    out
}

/// Operations per log line of one read shape: `total` spread by skewed weights over its
/// first `lines` lines, then `plain` lines of one operation each.
fn shape_counts(rng: &mut Rng, total: u64, lines: usize, plain: usize) -> Vec<u64> {
    let mut counts = apportion(total - plain as u64, &line_weights(rng, lines), 1);
    counts.extend(std::iter::repeat_n(1, plain));
    counts
}

/// Random positive weights for `n` log lines of one query shape (a few heavy hitters).
fn line_weights(rng: &mut Rng, n: usize) -> Vec<u64> {
    (0..n)
        .map(|_| match rng.below(10) {
            0 => 40 + rng.below(60),
            1..=3 => 10 + rng.below(30),
            _ => 1 + rng.below(10),
        })
        .collect()
}

// ------------------------------------------------------------------------------------------
// JSON values written in a fixed field order
// ------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum J {
    Null,
    Bool(bool),
    /// A number, already formatted.
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl From<&str> for J {
    fn from(s: &str) -> J {
        J::Str(s.to_string())
    }
}
impl From<String> for J {
    fn from(s: String) -> J {
        J::Str(s)
    }
}
impl From<&String> for J {
    fn from(s: &String) -> J {
        J::Str(s.clone())
    }
}
impl From<bool> for J {
    fn from(b: bool) -> J {
        J::Bool(b)
    }
}
impl From<i64> for J {
    fn from(n: i64) -> J {
        J::Num(n.to_string())
    }
}
impl From<u64> for J {
    fn from(n: u64) -> J {
        J::Num(n.to_string())
    }
}
impl From<i32> for J {
    fn from(n: i32) -> J {
        J::Num(n.to_string())
    }
}
impl From<usize> for J {
    fn from(n: usize) -> J {
        J::Num(n.to_string())
    }
}
impl From<Vec<J>> for J {
    fn from(v: Vec<J>) -> J {
        J::Arr(v)
    }
}
impl From<Option<J>> for J {
    fn from(v: Option<J>) -> J {
        v.unwrap_or(J::Null)
    }
}

/// `obj! { "a": 1, "b": "x" }`: an object with fields in the order written.
macro_rules! obj {
    ($($k:literal : $v:expr),* $(,)?) => {
        J::Obj(vec![$(($k.to_string(), J::from($v))),*])
    };
}

/// A decimal number with exactly `places` digits after the point: `dec(12345, 2)` is 123.45.
fn dec(v: i64, places: u32) -> J {
    J::Num(fixed(v, places))
}

fn fixed(v: i64, places: u32) -> String {
    let p = 10u64.pow(places);
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    format!("{sign}{}.{:0w$}", a / p, a % p, w = places as usize)
}

fn strs(xs: &[&str]) -> J {
    J::Arr(xs.iter().map(|&s| J::from(s)).collect())
}

impl J {
    fn to_json(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }
    fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) => out.push_str(n),
            J::Str(s) => escape(s, out),
            J::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            J::Obj(fields) => {
                out.push('{');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    escape(k, out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
    fn get(&self, key: &str) -> Option<&J> {
        match self {
            J::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    /// The value at a key path such as `/a/b`.
    fn at(&self, path: &str) -> Option<&J> {
        path.split('/').skip(1).try_fold(self, |j, k| j.get(k))
    }
    fn str(&self, key: &str) -> &str {
        match self.get(key) {
            Some(J::Str(s)) => s,
            other => panic!("{key} is not a string: {other:?}"),
        }
    }
    fn set(&mut self, key: &str, value: J) {
        if let J::Obj(fields) = self {
            match fields.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = value,
                None => fields.push((key.to_string(), value)),
            }
        }
    }
}

fn escape(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

// ------------------------------------------------------------------------------------------
// Dates (proleptic Gregorian, UTC, integer arithmetic)
// ------------------------------------------------------------------------------------------

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + if m <= 2 { 1 } else { 0 }, m, d)
}

/// Epoch seconds of a UTC date at midnight.
fn epoch(y: i64, m: i64, d: i64) -> i64 {
    days_from_civil(y, m, d) * 86_400
}

/// `YYYY-MM-DD` of epoch seconds.
fn date_of(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// RFC 3339, whole seconds.
fn rfc3339(secs: i64) -> String {
    let t = secs.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        date_of(secs),
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// RFC 3339 with milliseconds.
fn rfc3339_ms(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let t = secs.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}.{:03}Z",
        date_of(secs),
        t / 3600,
        t / 60 % 60,
        t % 60,
        ms.rem_euclid(1000)
    )
}

/// 0 = Monday … 6 = Sunday.
fn weekday(secs: i64) -> i64 {
    (secs.div_euclid(86_400) + 3).rem_euclid(7)
}

// ------------------------------------------------------------------------------------------
// Query log lines, candidates, routing
// ------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Query,
    Read,
    Create,
    Upsert,
    Patch,
    Batch,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Query => "query",
            Kind::Read => "read",
            Kind::Create => "create",
            Kind::Upsert => "upsert",
            Kind::Patch => "patch",
            Kind::Batch => "batch",
        }
    }
    fn is_read(self) -> bool {
        matches!(self, Kind::Query | Kind::Read)
    }
}

/// One line of a query log, with what the generator knows about it.
struct LogLine {
    text: String,
    count: u64,
    /// Arrival time, milliseconds since the epoch (for ordering and write windows).
    ts_ms: i64,
    kind: Kind,
    /// Read shape label (reads only).
    shape: &'static str,
    /// Key paths the operation fixes by equality (1) or `IN` (n values).
    fixed: Vec<(&'static str, usize)>,
    /// Documents written (creates, upserts, patched items, batch operations).
    writes: Vec<J>,
}

impl LogLine {
    /// A query of read shape `shape` that fixes `fixed`.
    fn query(
        text: String,
        count: u64,
        ts_ms: i64,
        shape: &'static str,
        fixed: Vec<(&'static str, usize)>,
    ) -> LogLine {
        LogLine {
            text,
            count,
            ts_ms,
            kind: Kind::Query,
            shape,
            fixed,
            writes: vec![],
        }
    }
}

/// A query with parameters: the JSON line, or (`plain`) the SQL with literals inlined.
fn query_text(
    sql: &str,
    params: &[(&str, J)],
    count: u64,
    ts: Option<String>,
    plain: bool,
) -> String {
    if plain {
        return inline_params(sql, params);
    }
    let mut fields = vec![("op".to_string(), J::from("query"))];
    if let Some(ts) = ts {
        fields.push(("ts".to_string(), J::Str(ts)));
    }
    fields.push(("sql".to_string(), J::from(sql)));
    if !params.is_empty() {
        let ps = params
            .iter()
            .map(|(n, v)| obj! {"name": *n, "value": v.clone()})
            .collect();
        fields.push(("parameters".to_string(), J::Arr(ps)));
    }
    if count != 1 {
        fields.push(("count".to_string(), J::from(count)));
    }
    J::Obj(fields).to_json()
}

/// Whether `sql` mentions the parameter `name` (`@s` is not a mention of `@since`).
fn uses(sql: &str, name: &str) -> bool {
    sql.match_indices(name).any(|(i, _)| {
        !sql[i + name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Replaces each `@name` by its value as a Cosmos DB SQL literal.
fn inline_params(sql: &str, params: &[(&str, J)]) -> String {
    let mut out = String::new();
    let mut rest = sql;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        let name = &rest[at..at + 1 + len];
        let value = params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no value for {name} in {sql}"));
        match value {
            J::Str(s) => {
                out.push('\'');
                out.push_str(&s.replace('\\', "\\\\").replace('\'', "\\'"));
                out.push('\'');
            }
            other => out.push_str(&other.to_json()),
        }
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}

#[derive(Clone, Copy)]
enum Cand {
    Path(&'static str),
    Hier(&'static [&'static str]),
    Concat(&'static [&'static str]),
    HashSuffix(&'static str, &'static str, u32),
    RandSuffix(&'static str, u32),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    Single,
    Targeted,
    FanOut,
}

impl Cand {
    fn spec(self) -> String {
        match self {
            Cand::Path(p) => p.to_string(),
            Cand::Hier(ps) => ps.join(","),
            Cand::Concat(ps) => format!("concat({})", ps.join(",")),
            Cand::HashSuffix(p, q, n) => format!("hash_suffix({p},{q},{n})"),
            Cand::RandSuffix(p, n) => format!("rand_suffix({p},{n})"),
        }
    }

    /// The key value of a document as a label (JSON text); `None` when the value depends
    /// on a hash or random number the advisor chooses.
    fn value(self, doc: &J) -> Option<String> {
        let part = |p: &str| doc.at(p).map_or("undefined".to_string(), J::to_json);
        match self {
            Cand::Path(p) => Some(part(p)),
            Cand::Hier(ps) => Some(format!(
                "[{}]",
                ps.iter().map(|p| part(p)).collect::<Vec<_>>().join(",")
            )),
            Cand::Concat(ps) => {
                let joined = ps
                    .iter()
                    .map(|p| match doc.at(p) {
                        Some(J::Str(s)) => s.clone(),
                        Some(other) => other.to_json(),
                        None => String::new(),
                    })
                    .collect::<Vec<_>>()
                    .join("-");
                Some(J::Str(joined).to_json())
            }
            Cand::HashSuffix(..) | Cand::RandSuffix(..) => None,
        }
    }

    /// Routing of a read that fixes `fixed` (paths with the number of values each).
    fn route(self, fixed: &[(&str, usize)]) -> Route {
        let values = |p: &str| fixed.iter().find(|(q, _)| *q == p).map(|&(_, n)| n);
        let all = |ps: &[&str]| -> Option<usize> {
            ps.iter()
                .try_fold(1usize, |acc, p| values(p).map(|n| acc * n))
        };
        let of = |n: Option<usize>| match n {
            Some(1) => Route::Single,
            Some(_) => Route::Targeted,
            None => Route::FanOut,
        };
        match self {
            Cand::Path(p) => of(values(p)),
            Cand::Concat(ps) => of(all(ps)),
            // The base known but not the hashed property: every suffix value, as below.
            Cand::HashSuffix(p, q, _) if values(p).is_some() && values(q).is_none() => {
                Route::FanOut
            }
            Cand::HashSuffix(p, q, _) => of(all(&[p, q])),
            // Every suffix value must be visited: as many values as there are suffixes.
            Cand::RandSuffix(..) => Route::FanOut,
            Cand::Hier(ps) => match all(ps) {
                Some(n) => of(Some(n)),
                None if values(ps[0]).is_some() => Route::Targeted,
                None => Route::FanOut,
            },
        }
    }
}

/// One data set: its documents, its log, and what it is for.
struct Set {
    name: &'static str,
    docs: Vec<J>,
    log: Vec<LogLine>,
    /// Read shapes in table order: label, description.
    shapes: Vec<(&'static str, &'static str)>,
    candidates: Vec<Cand>,
    /// Paths whose five largest values the figures list.
    top_paths: Vec<&'static str>,
}

/// The log in arrival order.
fn total_sorted(mut log: Vec<LogLine>) -> Vec<LogLine> {
    // Stable: lines with the same time keep their generation order.
    log.sort_by_key(|l| l.ts_ms);
    log
}

// ------------------------------------------------------------------------------------------
// The data sets, a module each (the layouts set too: see `generate`)
// ------------------------------------------------------------------------------------------

#[path = "gen_fixtures_sets/bad.rs"]
mod bad;
#[path = "gen_fixtures_sets/iot.rs"]
mod iot;
#[path = "gen_fixtures_sets/multitenant.rs"]
mod multitenant;
#[path = "gen_fixtures_sets/nutrition.rs"]
mod nutrition;
#[path = "gen_fixtures_sets/profiles.rs"]
mod profiles;
use bad::*;
use iot::*;
use multitenant::*;
use nutrition::*;
use profiles::*;

// ------------------------------------------------------------------------------------------
// Figures: what tests assert
// ------------------------------------------------------------------------------------------

/// 20 GB, the logical partition limit (decimal, as the engine counts).
const LOGICAL_LIMIT: u128 = 20_000_000_000;

struct CandStats {
    spec: String,
    /// Distinct values, largest value (JSON text), its documents and bytes; `None` when the
    /// value depends on a hash or random number the advisor picks.
    storage: Option<(usize, String, u64, u64)>,
    /// Weighted read operations: single-partition, targeted, fan-out.
    route: [u64; 3],
    /// Distinct values written, and the largest share of one value's writes in one window.
    writes: Option<(usize, f64)>,
    /// Logged batches whose operations hold more than one key value.
    spanning_batches: Option<usize>,
}

/// A path, its distinct values, and its five largest values: (JSON text, documents, bytes).
type TopValues = (&'static str, usize, Vec<(String, u64, u64)>);

struct Stats {
    name: &'static str,
    documents: usize,
    doc_bytes: u64,
    min_doc: u64,
    max_doc: u64,
    docs_file: u64,
    log_lines: usize,
    log_file: u64,
    /// Per operation kind: lines, weighted operations, operations inside batches.
    kinds: BTreeMap<Kind, (usize, u64, u64)>,
    reads: u64,
    writes: u64,
    shapes: Vec<(&'static str, &'static str, usize, u64)>,
    cands: Vec<CandStats>,
    /// Path, distinct values, five largest values: (JSON text, documents, bytes).
    top: Vec<TopValues>,
    window_secs: i64,
}

impl Stats {
    fn cand(&self, spec: &str) -> &CandStats {
        self.cands
            .iter()
            .find(|c| c.spec == spec)
            .unwrap_or_else(|| panic!("no candidate {spec}"))
    }
    fn share(&self, spec: &str) -> f64 {
        let (_, _, _, bytes) = self.cand(spec).storage.as_ref().expect("storage");
        *bytes as f64 / self.doc_bytes as f64
    }
    fn max_container(&self, spec: &str) -> u128 {
        let (_, _, _, bytes) = self.cand(spec).storage.as_ref().expect("storage");
        LOGICAL_LIMIT * self.doc_bytes as u128 / *bytes as u128
    }
    fn distinct(&self, spec: &str) -> usize {
        self.cand(spec).storage.as_ref().expect("storage").0
    }
    fn fraction(&self, spec: &str, route: usize) -> f64 {
        self.cand(spec).route[route] as f64 / self.reads as f64
    }
    fn top_value(&self, path: &str, i: usize) -> (&str, u64, u64) {
        let (_, _, values) = self.top.iter().find(|t| t.0 == path).expect("top path");
        let (v, d, b) = &values[i];
        (v, *d, *b)
    }
}

fn compute_stats(set: &Set, docs_file: u64, log_file: u64, window_secs: i64) -> Stats {
    let sizes: Vec<u64> = set.docs.iter().map(|d| d.to_json().len() as u64).collect();
    let doc_bytes: u64 = sizes.iter().sum();
    let mut kinds: BTreeMap<Kind, (usize, u64, u64)> = BTreeMap::new();
    for l in &set.log {
        let e = kinds.entry(l.kind).or_default();
        e.0 += 1;
        e.1 += l.count;
        if l.kind == Kind::Batch {
            e.2 += l.writes.len() as u64 * l.count;
        }
    }
    let reads = set
        .log
        .iter()
        .filter(|l| l.kind.is_read())
        .map(|l| l.count)
        .sum();
    let writes = set
        .log
        .iter()
        .filter(|l| !l.kind.is_read())
        .map(|l| l.count)
        .sum();
    let shapes = set
        .shapes
        .iter()
        .map(|&(label, what)| {
            let lines: Vec<&LogLine> = set.log.iter().filter(|l| l.shape == label).collect();
            (
                label,
                what,
                lines.len(),
                lines.iter().map(|l| l.count).sum(),
            )
        })
        .collect();
    let has_writes = set.log.iter().any(|l| !l.kind.is_read());
    let cands = set
        .candidates
        .iter()
        .map(|&c| {
            let storage = c.value(&set.docs[0]).map(|_| {
                let mut per: BTreeMap<String, (u64, u64)> = BTreeMap::new();
                for (d, &b) in set.docs.iter().zip(&sizes) {
                    let e = per.entry(c.value(d).unwrap()).or_default();
                    e.0 += 1;
                    e.1 += b;
                }
                let (label, &(docs, bytes)) = per
                    .iter()
                    .max_by(|a, b| a.1.1.cmp(&b.1.1).then(b.0.cmp(a.0)))
                    .unwrap();
                (per.len(), label.clone(), docs, bytes)
            });
            let mut route = [0u64; 3];
            for l in set.log.iter().filter(|l| l.kind.is_read()) {
                let i = match c.route(&l.fixed) {
                    Route::Single => 0,
                    Route::Targeted => 1,
                    Route::FanOut => 2,
                };
                route[i] += l.count;
            }
            let writes = (has_writes && c.value(&set.docs[0]).is_some()).then(|| {
                let mut all = BTreeSet::new();
                let mut windows: BTreeMap<i64, BTreeMap<String, u64>> = BTreeMap::new();
                for l in set.log.iter().filter(|l| !l.kind.is_read()) {
                    for d in &l.writes {
                        let v = c.value(d).unwrap();
                        all.insert(v.clone());
                        *windows
                            .entry(l.ts_ms.div_euclid(window_secs * 1000))
                            .or_default()
                            .entry(v)
                            .or_default() += l.count;
                    }
                }
                let worst = windows
                    .values()
                    .map(|w| *w.values().max().unwrap() as f64 / w.values().sum::<u64>() as f64)
                    .fold(0.0, f64::max);
                (all.len(), worst)
            });
            let spanning_batches = c.value(&set.docs[0]).map(|_| {
                set.log
                    .iter()
                    .filter(|l| l.kind == Kind::Batch)
                    .filter(|l| {
                        let values: BTreeSet<String> =
                            l.writes.iter().map(|d| c.value(d).unwrap()).collect();
                        values.len() > 1
                    })
                    .count()
            });
            CandStats {
                spec: c.spec(),
                storage,
                route,
                writes,
                spanning_batches,
            }
        })
        .collect();
    let top = set
        .top_paths
        .iter()
        .map(|&p| {
            let mut per: BTreeMap<String, (u64, u64)> = BTreeMap::new();
            for (d, &b) in set.docs.iter().zip(&sizes) {
                let e = per.entry(Cand::Path(p).value(d).unwrap()).or_default();
                e.0 += 1;
                e.1 += b;
            }
            let mut values: Vec<(String, u64, u64)> =
                per.iter().map(|(k, v)| (k.clone(), v.0, v.1)).collect();
            values.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
            values.truncate(5);
            (p, per.len(), values)
        })
        .collect();
    Stats {
        name: set.name,
        documents: set.docs.len(),
        doc_bytes,
        min_doc: *sizes.iter().min().unwrap(),
        max_doc: *sizes.iter().max().unwrap(),
        docs_file,
        log_lines: set.log.len(),
        log_file,
        kinds,
        reads,
        writes,
        shapes,
        cands,
        top,
        window_secs,
    }
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// `12,345`: the report's own formatting (counts here stay far below 2^53).
fn thousands(n: u128) -> String {
    pkadvisor::report::text::thousands(n as f64)
}

/// Decimal bytes for people: 83.4 GB, 1.25 TB.
fn human(bytes: u128) -> String {
    let b = bytes as f64;
    if b >= 1e12 {
        format!("{:.2} TB", b / 1e12)
    } else if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.2} MB", b / 1e6)
    } else {
        format!("{} bytes", thousands(bytes))
    }
}

/// A value label (JSON text) for a table cell.
fn cell(label: &str) -> String {
    let short: String = if label.chars().count() > 60 {
        label.chars().take(57).collect::<String>() + "…"
    } else {
        label.to_string()
    };
    format!("`{}`", short.replace('|', "\\|"))
}

fn stats_json(st: &Stats) -> serde_json::Value {
    use serde_json::json;
    let ops: serde_json::Map<String, serde_json::Value> = st
        .kinds
        .iter()
        .map(|(k, &(lines, weighted, inner))| {
            let mut v = json!({"lines": lines, "weighted": weighted});
            if *k == Kind::Batch {
                v["operations"] = json!(inner);
            }
            (k.name().to_string(), v)
        })
        .collect();
    let shapes: Vec<serde_json::Value> = st
        .shapes
        .iter()
        .map(|&(shape, _, lines, weighted)| {
            json!({"shape": shape, "lines": lines, "weighted": weighted, "share": round6(weighted as f64 / st.reads as f64)})
        })
        .collect();
    let cands: Vec<serde_json::Value> = st
        .cands
        .iter()
        .map(|c| {
            let mut v = json!({
                "spec": c.spec,
                "reads": {
                    "single": round6(c.route[0] as f64 / st.reads as f64),
                    "targeted": round6(c.route[1] as f64 / st.reads as f64),
                    "fan_out": round6(c.route[2] as f64 / st.reads as f64),
                },
            });
            if let Some((distinct, label, docs, bytes)) = &c.storage {
                v["distinct"] = json!(distinct);
                v["largest_value"] = serde_json::from_str(label).unwrap();
                v["largest_documents"] = json!(docs);
                v["largest_bytes"] = json!(bytes);
                v["largest_share_bytes"] = json!(round6(*bytes as f64 / st.doc_bytes as f64));
                v["largest_share_documents"] =
                    json!(round6(*docs as f64 / st.documents as f64));
                v["max_container_bytes"] =
                    json!(LOGICAL_LIMIT * st.doc_bytes as u128 / *bytes as u128);
            }
            if let Some((distinct, worst)) = c.writes {
                v["writes"] = json!({"distinct_values": distinct, "worst_window_top_share": round6(worst), "window_seconds": st.window_secs});
            }
            if let (Some(n), true) = (c.spanning_batches, st.kinds.contains_key(&Kind::Batch)) {
                v["batches_spanning_key_values"] = json!(n);
            }
            v
        })
        .collect();
    let top: serde_json::Map<String, serde_json::Value> = st
        .top
        .iter()
        .map(|(path, distinct, values)| {
            let vs: Vec<serde_json::Value> = values
                .iter()
                .map(|(label, docs, bytes)| {
                    json!({"value": serde_json::from_str::<serde_json::Value>(label).unwrap(), "documents": docs, "bytes": bytes, "share_bytes": round6(*bytes as f64 / st.doc_bytes as f64)})
                })
                .collect();
            (path.to_string(), json!({"distinct": distinct, "largest": vs}))
        })
        .collect();
    json!({
        "documents": st.documents,
        "document_bytes": st.doc_bytes,
        "document_bytes_min": st.min_doc,
        "document_bytes_max": st.max_doc,
        "docs_file_bytes": st.docs_file,
        "log": {
            "lines": st.log_lines,
            "file_bytes": st.log_file,
            "reads_weighted": st.reads,
            "writes_weighted": st.writes,
            "ops": ops,
        },
        "read_shapes": shapes,
        "candidates": cands,
        "top_values": top,
    })
}

/// The figures of one set as Markdown (the README's "Figures" and `--summary`).
fn stats_markdown(st: &Stats) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "**Size.** {} documents, {} bytes of JSON (`docs.ndjson` is {} bytes with newlines); a document is {}–{} bytes, {} on average.",
        thousands(st.documents as u128),
        thousands(st.doc_bytes as u128),
        thousands(st.docs_file as u128),
        st.min_doc,
        st.max_doc,
        st.doc_bytes / st.documents as u64
    );
    let ops: Vec<String> = st
        .kinds
        .iter()
        .map(|(k, &(lines, weighted, inner))| {
            let mut s = format!("{} {} lines", k.name(), thousands(lines as u128));
            if weighted != lines as u64 {
                let _ = write!(s, " = {} operations", thousands(weighted as u128));
            }
            if *k == Kind::Batch {
                let _ = write!(s, " holding {inner} writes");
            }
            s
        })
        .collect();
    let _ = writeln!(
        md,
        "`queries.ndjson`: {} lines, {} bytes: {}. Weighted by `count`: {} reads (queries and point reads), {} writes.\n",
        thousands(st.log_lines as u128),
        thousands(st.log_file as u128),
        ops.join(", "),
        thousands(st.reads as u128),
        thousands(st.writes as u128)
    );
    md.push_str(
        "| read shape | what | lines | weighted | share of reads |\n|---|---|--:|--:|--:|\n",
    );
    for &(shape, what, lines, weighted) in &st.shapes {
        let _ = writeln!(
            md,
            "| {shape} | {what} | {lines} | {} | {} |",
            thousands(weighted as u128),
            pct(weighted as f64 / st.reads as f64)
        );
    }
    let has_writes = st.cands.iter().any(|c| c.writes.is_some());
    md.push_str("\n| candidate | distinct | largest value | its docs | its share of bytes | container size at which it reaches 20 GB | single | targeted | fan-out |");
    md.push_str(if has_writes {
        " writes: distinct values | writes: top value's share, worst window |\n|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|\n"
    } else {
        "\n|---|--:|---|--:|--:|--:|--:|--:|--:|\n"
    });
    for c in &st.cands {
        let storage = match &c.storage {
            Some((distinct, label, docs, bytes)) => format!(
                "{} | {} | {} | {} | {}",
                thousands(*distinct as u128),
                cell(label),
                thousands(*docs as u128),
                pct(*bytes as f64 / st.doc_bytes as f64),
                human(LOGICAL_LIMIT * st.doc_bytes as u128 / *bytes as u128)
            ),
            None => "– | (chosen by the advisor's hash or random draw) | – | – | –".to_string(),
        };
        let r = |i: usize| pct(c.route[i] as f64 / st.reads as f64);
        let _ = write!(
            md,
            "| `{}` | {storage} | {} | {} | {} |",
            c.spec,
            r(0),
            r(1),
            r(2)
        );
        if has_writes {
            match c.writes {
                Some((distinct, worst)) => {
                    let _ = write!(md, " {} | {} |", thousands(distinct as u128), pct(worst));
                }
                None => md.push_str(" – | – |"),
            }
        }
        md.push('\n');
    }
    if has_writes {
        let _ = writeln!(
            md,
            "\nWrite windows are {} long (by the log's `ts`); a batch counts each of its operations.",
            match st.window_secs {
                86_400 => "one day".to_string(),
                3_600 => "one hour".to_string(),
                s => format!("{s} s"),
            }
        );
    }
    for (path, distinct, values) in &st.top {
        let _ = writeln!(
            md,
            "\nLargest values of `{path}` ({} distinct):\n\n| value | documents | bytes | share of bytes |\n|---|--:|--:|--:|",
            thousands(*distinct as u128)
        );
        for (label, docs, bytes) in values {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                cell(label),
                thousands(*docs as u128),
                thousands(*bytes as u128),
                pct(*bytes as f64 / st.doc_bytes as f64)
            );
        }
    }
    md
}

// ------------------------------------------------------------------------------------------
// Output
// ------------------------------------------------------------------------------------------

struct Output {
    files: BTreeMap<String, Vec<u8>>,
    summary: String,
}

#[path = "gen_fixtures_sets/layouts.rs"]
mod layouts;

fn generate() -> Output {
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut summary_json = serde_json::Map::new();
    let mut stats = Vec::new();
    for (set, window) in [
        (multitenant(), 3_600),
        (iot(), 86_400),
        (profiles(), 86_400),
        (nutrition(), 86_400),
    ] {
        let docs = lines_of(&set.docs);
        let log: String = set.log.iter().map(|l| l.text.clone() + "\n").collect();
        let st = compute_stats(&set, docs.len() as u64, log.len() as u64, window);
        files.insert(format!("{}/docs.ndjson", set.name), docs.into_bytes());
        files.insert(format!("{}/queries.ndjson", set.name), log.into_bytes());
        stats.push(st);
    }
    let layouts = layouts::generate();
    for (path, bytes) in layouts.files {
        files.insert(path, bytes);
    }
    let bad = bad();
    for c in &bad {
        files.insert(format!("bad/{}", c.file), c.content.clone());
    }
    let mut summary = String::new();
    let mut readme = String::from(README_INTRO);
    readme.push_str("\n## Files\n\n| file | bytes |\n|---|--:|\n");
    for (path, bytes) in &files {
        let _ = writeln!(readme, "| `{path}` | {} |", thousands(bytes.len() as u128));
    }
    let data_bytes: usize = files.values().map(Vec::len).sum();
    let _ = writeln!(
        readme,
        "| all of the above | {} |",
        thousands(data_bytes as u128)
    );
    for st in &stats {
        let (prose, verdict) = verdict(st);
        let figures = stats_markdown(st);
        let _ = write!(summary, "## {}\n\n{figures}\n", st.name);
        let _ = write!(
            readme,
            "\n## `{}/`\n\n{prose}\n### Figures\n\n{figures}",
            st.name
        );
        let mut v = stats_json(st);
        v["verdicts"] = verdict;
        summary_json.insert(st.name.to_string(), v);
    }
    readme.push_str(&layouts.readme);
    summary_json.insert("layouts".to_string(), layouts.summary);
    readme.push_str(BAD_INTRO);
    readme.push_str("| file | what it shows | what the advisor must report |\n|---|---|---|\n");
    let mut bad_json = serde_json::Map::new();
    for c in &bad {
        let _ = writeln!(
            readme,
            "| `bad/{}` | {} | {} |",
            c.file, c.shows, c.expected
        );
        bad_json.insert(c.file.clone(), c.json.clone());
    }
    summary_json.insert("bad".to_string(), serde_json::Value::Object(bad_json));
    let mut json = serde_json::to_string_pretty(&summary_json).unwrap();
    json.push('\n');
    files.insert("summary.json".to_string(), json.into_bytes());
    files.insert("README.md".to_string(), readme.into_bytes());
    Output { files, summary }
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every file under `dir`, as paths relative to it with `/` separators.
fn list_files(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if e.path().is_dir() {
            list_files(&e.path(), &rel, out);
        } else {
            out.insert(rel);
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("");
    if !matches!(mode, "" | "--check" | "--summary") {
        eprintln!("usage: gen_fixtures [--check | --summary]");
        return ExitCode::from(2);
    }
    let out = generate();
    let dir = fixtures_dir();
    let mut on_disk = BTreeSet::new();
    list_files(&dir, "", &mut on_disk);
    match mode {
        "--summary" => {
            print!("{}", out.summary);
            ExitCode::SUCCESS
        }
        "--check" => {
            let mut stale = 0;
            for (path, bytes) in &out.files {
                match std::fs::read(dir.join(path)) {
                    Ok(old) if old == *bytes => {}
                    Ok(_) => {
                        eprintln!("differs: fixtures/{path}");
                        stale += 1;
                    }
                    Err(_) => {
                        eprintln!("missing: fixtures/{path}");
                        stale += 1;
                    }
                }
            }
            for path in on_disk.iter().filter(|p| !out.files.contains_key(*p)) {
                eprintln!("not generated: fixtures/{path}");
                stale += 1;
            }
            if stale > 0 {
                eprintln!(
                    "{stale} fixture file(s) out of date: run `cargo run --release --example gen_fixtures`"
                );
                ExitCode::FAILURE
            } else {
                println!("fixtures are current ({} files)", out.files.len());
                ExitCode::SUCCESS
            }
        }
        _ => {
            for path in on_disk.iter().filter(|p| !out.files.contains_key(*p)) {
                if let Err(e) = std::fs::remove_file(dir.join(path)) {
                    eprintln!("cannot remove fixtures/{path}: {e}");
                    return ExitCode::FAILURE;
                }
                eprintln!("removed fixtures/{path}");
            }
            let mut total = 0;
            for (path, bytes) in &out.files {
                let target = dir.join(path);
                let result = std::fs::create_dir_all(target.parent().unwrap())
                    .and_then(|()| std::fs::write(&target, bytes));
                if let Err(e) = result {
                    eprintln!("cannot write fixtures/{path}: {e}");
                    return ExitCode::FAILURE;
                }
                total += bytes.len();
            }
            println!(
                "wrote {} files, {} bytes, under {}",
                out.files.len(),
                thousands(total as u128),
                dir.display()
            );
            ExitCode::SUCCESS
        }
    }
}

// ------------------------------------------------------------------------------------------
// README prose and intended verdicts
// ------------------------------------------------------------------------------------------

const README_INTRO: &str = r#"# Sample data sets

Realistic sample inputs for `pkadvisor`: documents (`docs.ndjson`) and a query log
(`queries.ndjson`, the format of GUIDE.md's "Query log format") per set, each built so that an
expert knows the right partition key, plus small invalid inputs for error tests (`bad/`).

**Every file here, this README and `summary.json` included, is written by
`examples/gen_fixtures.rs`. Do not edit them: change the generator and run it again.**

```sh
cargo run --release --example gen_fixtures               # rewrite fixtures/
cargo run --release --example gen_fixtures -- --check    # exit 1 if a file here is not what the generator writes
cargo run --release --example gen_fixtures -- --summary  # print the figures below
```

The output is byte-identical on every run and machine: a seeded splitmix64 stream per set,
integer arithmetic for every random choice, ordered maps, no clock.

## How to read the figures

- **Document bytes**: the UTF-8 bytes of a document's line without its newline (compact JSON,
  fields in the order written). A value's **share of bytes** is the bytes of the documents
  holding it over all document bytes.
- **Container size at which it reaches 20 GB** (`max_container_bytes` in `summary.json`):
  20 GB × all bytes / bytes of the largest value, decimal units (1 GB = 10^9 bytes): the
  container size past which the largest logical partition breaks the 20 GB limit, if the
  sample's proportions hold.
- **Reads** are queries and point reads weighted by `count`; **writes** are creates, upserts
  and patches weighted by `count`, a batch counting each of its operations. Plain-text
  `SELECT` lines count once.
- **Routing** follows GUIDE.md's query log section: a read is single-partition when its equalities (or a point
  read's `known` values plus `id`) fix the candidate's full value, targeted when they fix a
  hierarchical prefix or an `IN (...)` list of full values, fan-out otherwise. Synthetic keys
  need every input fixed; `rand_suffix` reads must visit every suffix and are counted as fan-out.
- **Writes: top value's share, worst window**: split the log's writes into windows of its `ts`;
  in each, the share of the most-written key value; the largest such share. Near 100% means a
  clock-like key: every write of the moment goes to one logical partition.
- **Verdicts** hold at the stated `--target-storage`. The "must raise" codes are the findings
  an advisor has to report at that target; others may appear too, so tests should assert
  inclusion. Computed ones use these rules: `LOGICAL_PARTITION_LIMIT` when the target exceeds
  the candidate's 20 GB container size; `LOW_CARDINALITY` when its distinct values in the sample
  are fewer than max(100, 10 × ⌈target / 50 GB⌉); `FAN_OUT_QUERIES` when at least 30% of reads
  fan out and the target needs more than one physical partition (the advisor's own rule, that
  fan-out reads spend at least 25% of the reads' RU on partitions beyond the first, holds
  wherever this one does: a test checks every stated verdict); `CROSS_PARTITION_TRANSACTION`
  when a logged batch holds operations on more than one key value. `HOT_PARTITION` and
  `WRITE_HOTSPOT` are stated by hand where the set is built to show them.
- `summary.json` holds the same figures, machine-readable: per set `documents`,
  `document_bytes`, `log` (lines, weighted reads and writes, per operation kind),
  `read_shapes`, `candidates` (distinct values, largest value with its documents, bytes, share
  and `max_container_bytes`, read routing fractions, write concentration, batches spanning
  key values), `top_values`, and `verdicts`; and under `bad` one entry per file.
"#;

const BAD_INTRO: &str = r#"
## `bad/`

Small invalid inputs, one problem each, for error tests. Positions: lines and columns count
from 1, columns in bytes (every line with an error is ASCII, so bytes and characters agree),
and the byte offset counts from 0 from the start of the file; the position is that of the
first byte the parser cannot accept, or one past the last byte when the input ends early.
The generator checks each syntax-error position against `serde_json`. The findings cases
name the key to pass with `--key`; the `*.queries.ndjson` logs go with `--queries` and
`bad/base-docs.ndjson` as documents.

"#;

const VIOLATIONS: [&str; 3] = [
    "LOGICAL_PARTITION_LIMIT",
    "INVALID_KEY_VALUE",
    "CROSS_PARTITION_TRANSACTION",
];
const CODE_ORDER: [&str; 7] = [
    "LOGICAL_PARTITION_LIMIT",
    "INVALID_KEY_VALUE",
    "CROSS_PARTITION_TRANSACTION",
    "LOW_CARDINALITY",
    "HOT_PARTITION",
    "WRITE_HOTSPOT",
    "FAN_OUT_QUERIES",
];

/// The intended verdict at one target size.
struct Verdict {
    target: &'static str,
    target_bytes: u128,
    best: Vec<&'static str>,
    /// Findings stated by hand (spec, code).
    hand: Vec<(&'static str, &'static str)>,
}

/// The findings each candidate must raise at the verdict's target.
fn findings(st: &Stats, v: &Verdict) -> Vec<(String, Vec<&'static str>)> {
    let partitions = v.target_bytes.div_ceil(50_000_000_000).max(1);
    st.cands
        .iter()
        .map(|c| {
            let mut codes: BTreeSet<&'static str> = v
                .hand
                .iter()
                .filter(|(spec, _)| *spec == c.spec)
                .map(|&(_, code)| code)
                .collect();
            if let Some((distinct, _, _, bytes)) = &c.storage {
                if LOGICAL_LIMIT * st.doc_bytes as u128 / (*bytes as u128) < v.target_bytes {
                    codes.insert("LOGICAL_PARTITION_LIMIT");
                }
                if (*distinct as u128) < (10 * partitions).max(100) {
                    codes.insert("LOW_CARDINALITY");
                }
            }
            if partitions > 1 && c.route[2] as f64 >= 0.3 * st.reads as f64 {
                codes.insert("FAN_OUT_QUERIES");
            }
            if c.spanning_batches.is_some_and(|n| n > 0) {
                codes.insert("CROSS_PARTITION_TRANSACTION");
            }
            let ordered = CODE_ORDER
                .iter()
                .copied()
                .filter(|c| codes.contains(c))
                .collect();
            (c.spec.clone(), ordered)
        })
        .collect()
}

fn verdict_markdown(st: &Stats, verdicts: &[Verdict]) -> (String, serde_json::Value) {
    let mut md = String::new();
    let mut json = Vec::new();
    for v in verdicts {
        let f = findings(st, v);
        let best: Vec<String> = v.best.iter().map(|b| format!("`{b}`")).collect();
        let _ = writeln!(
            md,
            "\n**At `--target-storage {}`** best: {}.\n\n| candidate | must raise |\n|---|---|",
            v.target,
            best.join(" or ")
        );
        for (spec, codes) in &f {
            let list = if codes.is_empty() {
                "nothing (no violation, no warning required)".to_string()
            } else {
                codes
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let _ = writeln!(md, "| `{spec}` | {list} |");
        }
        let without: Vec<&String> = f
            .iter()
            .filter(|(_, codes)| !codes.iter().any(|c| VIOLATIONS.contains(c)))
            .map(|(s, _)| s)
            .collect();
        let findings_json: serde_json::Map<String, serde_json::Value> = f
            .iter()
            .map(|(s, codes)| (s.clone(), serde_json::json!(codes)))
            .collect();
        json.push(serde_json::json!({
            "target_storage": v.target,
            "target_storage_bytes": v.target_bytes,
            "best": v.best,
            "must_raise": findings_json,
            "without_violation": without,
        }));
    }
    (md, serde_json::Value::Array(json))
}

fn verdict(st: &Stats) -> (String, serde_json::Value) {
    let (prose, verdicts) = match st.name {
        "multitenant" => multitenant_prose(st),
        "iot" => iot_prose(st),
        "profiles" => profiles_prose(st),
        _ => nutrition_prose(st),
    };
    let (md, json) = verdict_markdown(st, &verdicts);
    (format!("{prose}\n{md}"), json)
}

fn gb(bytes: u128) -> String {
    human(bytes)
}
