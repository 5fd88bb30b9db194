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
//! Sets: `multitenant` (SaaS events, hierarchical key), `iot` (vehicle telemetry, write
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
// multitenant: SaaS product events
// ------------------------------------------------------------------------------------------

const MT_DOCS: u64 = 3_600;
const MT_TENANTS: usize = 300;
/// Documents of the two huge tenants: 25% and 20% of the set.
const MT_HUGE: [u64; 2] = [900, 720];
const MT_CREATES: usize = 200;
const MT_BATCHES: usize = 20;

const FICTIONAL: [&str; 22] = [
    "northwind-traders",
    "adventure-works",
    "tailspin-toys",
    "wingtip-toys",
    "woodgrove-bank",
    "litware",
    "proseware",
    "fourth-coffee",
    "alpine-ski-house",
    "blue-yonder-airlines",
    "coho-winery",
    "lucerne-publishing",
    "margies-travel",
    "trey-research",
    "wide-world-importers",
    "relecloud",
    "humongous-insurance",
    "graphic-design-institute",
    "city-power-and-light",
    "consolidated-messenger",
    "southridge-video",
    "datum-corporation",
];
const ADJECTIVES: [&str; 20] = [
    "amber", "arctic", "bright", "cedar", "coastal", "copper", "crimson", "emerald", "golden",
    "granite", "harbor", "ivory", "lunar", "maple", "nimble", "northern", "quiet", "silver",
    "summit", "velvet",
];
const NOUNS: [&str; 20] = [
    "analytics",
    "bakery",
    "clinic",
    "dynamics",
    "energy",
    "foods",
    "freight",
    "games",
    "health",
    "labs",
    "legal",
    "logistics",
    "media",
    "motors",
    "outfitters",
    "partners",
    "robotics",
    "studios",
    "systems",
    "ventures",
];

const EVENT_TYPES: [(&str, u64); 6] = [
    ("page_view", 44),
    ("click", 22),
    ("search", 11),
    ("purchase", 9),
    ("error", 8),
    ("logout", 6),
];
const PAGES: [(&str, &str); 10] = [
    ("/dashboard", "Dashboard"),
    ("/projects", "All projects"),
    ("/projects/{n}/board", "Sprint board"),
    ("/projects/{n}/backlog", "Backlog"),
    ("/reports/monthly", "Monthly report"),
    ("/reports/funnels", "Funnels"),
    ("/settings/billing", "Billing"),
    ("/settings/members", "Members"),
    ("/inbox", "Inbox"),
    ("/docs/getting-started", "Getting started"),
];
const ELEMENTS: [&str; 8] = [
    "button#export-csv",
    "button#new-project",
    "a.nav-reports",
    "button#invite-member",
    "div.card-task",
    "button#save-filter",
    "a.breadcrumb",
    "button#share-link",
];
const SEARCHES: [&str; 10] = [
    "quarterly revenue",
    "overdue invoices",
    "onboarding checklist",
    "sprint 42",
    "customer churn",
    "release notes",
    "api key",
    "team calendar",
    "expense policy",
    "roadmap 2027",
];
const ERRORS: [(&str, &str, &str, i64); 5] = [
    (
        "E_TIMEOUT",
        "Upstream request timed out after 30000 ms",
        "/api/v2/reports",
        504,
    ),
    (
        "E_RATE_LIMIT",
        "Too many requests, retry after 2 s",
        "/api/v2/search",
        429,
    ),
    (
        "E_VALIDATION",
        "Field 'dueDate' must be a date",
        "/api/v2/tasks",
        400,
    ),
    (
        "E_FORBIDDEN",
        "Missing permission projects.write",
        "/api/v2/projects",
        403,
    ),
    (
        "E_INTERNAL",
        "Unexpected null reference in BoardService",
        "/api/v2/boards",
        500,
    ),
];
const CLIENTS: [(&str, &str, &str); 7] = [
    ("web", "Windows 11", "Edge 131"),
    ("web", "macOS 15.1", "Safari 18.1"),
    ("web", "Windows 10", "Chrome 131"),
    ("web", "Ubuntu 24.04", "Firefox 133"),
    ("ios", "iOS 18.1", "app"),
    ("android", "Android 15", "app"),
    ("desktop", "Windows 11", "electron"),
];
const GEO: [(&str, &str, &str); 10] = [
    ("US", "Seattle", "en-US"),
    ("US", "Austin", "en-US"),
    ("DE", "Berlin", "de-DE"),
    ("GB", "London", "en-GB"),
    ("FR", "Lyon", "fr-FR"),
    ("NL", "Amsterdam", "nl-NL"),
    ("BR", "São Paulo", "pt-BR"),
    ("JP", "Tokyo", "ja-JP"),
    ("IN", "Bengaluru", "en-IN"),
    ("CH", "Zürich", "de-CH"),
];
const EVENT_TAGS: [&str; 8] = [
    "beta",
    "trial",
    "plan:pro",
    "plan:enterprise",
    "region:eu",
    "region:us",
    "sso",
    "internal",
];

struct MtUser {
    id: String,
    docs: u64,
    sessions: Vec<(String, u64)>,
    client: usize,
    geo: usize,
}

struct MtTenant {
    name: String,
    docs: u64,
    users: Vec<MtUser>,
}

fn tenant_names(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut names = vec!["contoso".to_string(), "fabrikam".to_string()];
    names.extend(FICTIONAL.iter().map(|s| s.to_string()));
    let mut combos: Vec<String> = ADJECTIVES
        .iter()
        .flat_map(|a| NOUNS.iter().map(move |b| format!("{a}-{b}")))
        .collect();
    rng.shuffle(&mut combos);
    names.extend(combos.into_iter().take(n - names.len()));
    names
}

fn mt_payload(rng: &mut Rng, ty: &str) -> J {
    match ty {
        "login" => obj! {
            "method": *rng.pick(&["sso", "password", "magic-link"]),
            "provider": *rng.pick(&["entra-id", "google", "okta", "local"]),
            "mfa": rng.chance(700),
        },
        "page_view" => {
            let (url, title) = *rng.pick(&PAGES);
            obj! {
                "url": url.replace("{n}", &rng.range(100, 999).to_string()),
                "title": title,
                "referrer": if rng.chance(300) { J::Null } else { J::from(rng.pick(&PAGES).0.replace("{n}", "1")) },
                "durationMs": rng.range(200, 90_000),
                "viewport": obj! {"w": *rng.pick(&[1280i64, 1440, 1920, 390, 412]), "h": *rng.pick(&[720i64, 900, 1080, 844, 915])},
            }
        }
        "click" => obj! {
            "element": *rng.pick(&ELEMENTS),
            "page": rng.pick(&PAGES).0.replace("{n}", &rng.range(100, 999).to_string()),
            "x": rng.range(0, 1900),
            "y": rng.range(0, 1000),
        },
        "search" => obj! {
            "query": *rng.pick(&SEARCHES),
            "results": rng.range(0, 240),
            "filters": if rng.chance(400) { strs(&["status:open", "owner:me"]) } else { J::Arr(vec![]) },
            "latencyMs": rng.range(12, 900),
        },
        "purchase" => {
            let (sku, price) = *rng.pick(&[
                ("PLAN-PRO-1M", 1_900i64),
                ("PLAN-PRO-12M", 19_000),
                ("SEATS-10", 9_900),
                ("ADDON-STORAGE-1TB", 4_900),
                ("PLAN-ENT-12M", 129_000),
            ]);
            let qty = rng.range(1, 3);
            obj! {
                "orderId": format!("ORD-2026-{:06}", rng.below(1_000_000)),
                "currency": *rng.pick(&["EUR", "USD", "GBP"]),
                "amount": dec(price * qty, 2),
                "items": vec![obj! {"sku": sku, "qty": qty, "unitPrice": dec(price, 2)}],
                "coupon": if rng.chance(150) { J::from("WELCOME20") } else { J::Null },
            }
        }
        "error" => {
            let (code, message, endpoint, status) = *rng.pick(&ERRORS);
            obj! {
                "code": code,
                "message": message,
                "endpoint": endpoint,
                "status": status,
                "retryable": status >= 500 || status == 429,
                "traceId": rng.hex(32),
            }
        }
        _ => obj! {
            "reason": *rng.pick(&["user", "idle-timeout", "token-expired"]),
            "sessionSeconds": rng.range(30, 7_200),
        },
    }
}

fn mt_event(rng: &mut Rng, tenant: &str, user: &MtUser, session: &str, ty: &str, ts_ms: i64) -> J {
    let (app, os, browser) = CLIENTS[user.client];
    let (country, city, locale) = GEO[user.geo];
    let tags: Vec<J> = (0..rng.range(0, 3))
        .map(|_| J::from(*rng.pick(&EVENT_TAGS)))
        .collect();
    let mut payload = mt_payload(rng, ty);
    if ty == "login" {
        payload.set("geo", obj! {"country": country, "city": city});
    }
    obj! {
        "id": rng.uuid(),
        "tenantId": tenant,
        "userId": &user.id,
        "sessionId": session,
        "type": ty,
        "ts": rfc3339_ms(ts_ms),
        "client": obj! {"app": app, "version": format!("5.{}.{}", rng.range(8, 12), rng.range(0, 9)), "os": os, "browser": browser, "locale": locale},
        "payload": payload,
        "tags": tags,
        "schemaVersion": 3,
    }
}

fn multitenant() -> Set {
    let mut rng = Rng(0x6d75_6c74_6974_656e);
    let names = tenant_names(&mut rng, MT_TENANTS);
    let mut counts = MT_HUGE.to_vec();
    counts.extend(apportion(
        MT_DOCS - MT_HUGE.iter().sum::<u64>(),
        &zipf(MT_TENANTS - 2, 4),
        1,
    ));
    let tenants: Vec<MtTenant> = names
        .into_iter()
        .zip(counts)
        .map(|(name, docs)| {
            let n_users = (docs * 2 / 13).max(1) as usize;
            let users = apportion(docs, &zipf(n_users, 3), 1)
                .into_iter()
                .map(|m| {
                    let id = rng.uuid();
                    let mut sessions = Vec::new();
                    let mut left = m;
                    while left > 0 {
                        let k = (2 + rng.below(9)).min(left);
                        sessions.push((rng.hex(16), k));
                        left -= k;
                    }
                    MtUser {
                        id,
                        docs: m,
                        sessions,
                        client: rng.below(CLIENTS.len() as u64) as usize,
                        geo: rng.below(GEO.len() as u64) as usize,
                    }
                })
                .collect();
            MtTenant { name, docs, users }
        })
        .collect();

    // Documents: two weeks of sessions, written in time order.
    let start = epoch(2026, 11, 1);
    let type_picker = Picker::new(EVENT_TYPES.iter().map(|t| t.1));
    let mut docs: Vec<(i64, J)> = Vec::new();
    for t in &tenants {
        for u in &t.users {
            for (session, events) in &u.sessions {
                let mut ms = (start + rng.range(0, 13) * 86_400 + rng.range(6, 21) * 3600) * 1000
                    + rng.range(0, 3_599_999);
                for e in 0..*events {
                    let ty = if e == 0 {
                        "login"
                    } else if e + 1 == *events && e >= 2 && rng.chance(500) {
                        "logout"
                    } else {
                        EVENT_TYPES[type_picker.pick(&mut rng)].0
                    };
                    docs.push((ms, mt_event(&mut rng, &t.name, u, session, ty, ms)));
                    ms += rng.range(2_000, 240_000);
                }
            }
        }
    }
    docs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.str("id").cmp(b.1.str("id"))));

    // The log: one hour of traffic, 100,000 weighted queries plus creates and batches.
    let log_start = epoch(2026, 11, 15) + 9 * 3600;
    let tenant_picker = Picker::new(tenants.iter().map(|t| t.docs));
    let user_pickers: Vec<Picker> = tenants
        .iter()
        .map(|t| Picker::new(t.users.iter().map(|u| u.docs)))
        .collect();
    let mut log = Vec::new();
    let pick_user = |rng: &mut Rng| {
        let ti = tenant_picker.pick(rng);
        let ui = user_pickers[ti].pick(rng);
        (ti, ui)
    };

    struct Template {
        sql: &'static str,
        /// Extra fixed paths (besides the shape's), e.g. `c.type = @type`.
        extra: &'static [(&'static str, usize)],
    }
    let shape_specs: [(&str, u64, usize, usize, &[Template]); 5] = [
        (
            "tenant+user",
            60_000,
            330,
            8,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u ORDER BY c.ts DESC",
                    extra: &[],
                },
                Template {
                    sql: "SELECT TOP 10 c.id, c.ts, c.type FROM c WHERE c.tenantId = @t AND c.userId = @u ORDER BY c.ts DESC",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c[\"tenantId\"] = @t AND c[\"userId\"] = @u AND c.type = @type",
                    extra: &[("/type", 1)],
                },
                Template {
                    sql: "SELECT t FROM c JOIN t IN c.tags WHERE c.tenantId = @t AND c.userId = @u",
                    extra: &[],
                },
                Template {
                    sql: "SELECT c.id, c.payload.url, c.payload.durationMs FROM c WHERE c.userId = @u AND c.tenantId = @t AND c.type IN ('page_view', 'click') AND c.ts >= @since",
                    extra: &[("/type", 2)],
                },
            ],
        ),
        (
            "tenant",
            25_000,
            150,
            4,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.tenantId = @t AND c.ts >= @since ORDER BY c.ts DESC",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t",
                    extra: &[],
                },
                Template {
                    sql: "SELECT c.type, COUNT(1) AS events FROM c WHERE c.tenantId = @t GROUP BY c.type",
                    extra: &[],
                },
                Template {
                    sql: "SELECT TOP 100 c.userId, c.ts, c.payload.code FROM c WHERE c[\"tenantId\"] = @t AND c.type = 'error' ORDER BY c.ts DESC",
                    extra: &[("/type", 1)],
                },
            ],
        ),
        (
            "tenant+user+session",
            10_000,
            90,
            3,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u AND c.sessionId = @s ORDER BY c.ts",
                    extra: &[],
                },
                Template {
                    sql: "SELECT c.type, c.ts, c.payload FROM c WHERE c.sessionId = @s AND c.userId = @u AND c.tenantId = @t",
                    extra: &[],
                },
            ],
        ),
        (
            "session",
            2_000,
            24,
            2,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.sessionId = @s",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c.sessionId = @s AND c.type = 'error'",
                    extra: &[("/type", 1)],
                },
            ],
        ),
        (
            "cross-tenant report",
            3_000,
            16,
            2,
            &[
                Template {
                    sql: "SELECT c.tenantId, COUNT(1) AS events FROM c WHERE c.ts >= @since GROUP BY c.tenantId",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c.type = 'purchase' AND c.ts >= @since",
                    extra: &[("/type", 1)],
                },
                Template {
                    sql: "SELECT c.payload.code, COUNT(1) AS n FROM c WHERE c.type = 'error' GROUP BY c.payload.code",
                    extra: &[("/type", 1)],
                },
                Template {
                    sql: "SELECT TOP 20 c.tenantId, c.payload.amount FROM c WHERE c.type = @type ORDER BY c.payload.amount DESC",
                    extra: &[("/type", 1)],
                },
            ],
        ),
    ];
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = apportion(total - plain as u64, &line_weights(&mut rng, lines), 1);
        let counts = counts.into_iter().chain(std::iter::repeat_n(1, plain));
        for (i, count) in counts.enumerate() {
            let is_plain = i >= lines;
            let tpl = &templates[i % templates.len()];
            let (ti, ui) = pick_user(&mut rng);
            let t = &tenants[ti];
            let u = &t.users[ui];
            let s = &u.sessions[rng.below(u.sessions.len() as u64) as usize].0;
            let ts_ms = log_start * 1000 + rng.range(0, 3_599_999);
            let since = rfc3339(epoch(2026, 11, 15) - rng.range(1, 14) * 86_400);
            let ty = EVENT_TYPES[type_picker.pick(&mut rng)].0;
            let mut params: Vec<(&str, J)> = Vec::new();
            let mut fixed: Vec<(&'static str, usize)> = tpl.extra.to_vec();
            for (name, value, path) in [
                ("@t", J::from(&t.name), "/tenantId"),
                ("@u", J::from(&u.id), "/userId"),
                ("@s", J::from(s), "/sessionId"),
                ("@since", J::from(since), ""),
                ("@type", J::from(ty), ""),
            ] {
                if uses(tpl.sql, name) {
                    params.push((name, value));
                    if !path.is_empty() {
                        fixed.push((path, 1));
                    }
                }
            }
            let text = query_text(tpl.sql, &params, count, Some(rfc3339_ms(ts_ms)), is_plain);
            // A few plain-text lines use other spellings of SELECT and string literals.
            let text = match (is_plain, i % 3) {
                (true, 1) => text.replacen("SELECT", "select", 1),
                (true, 2) => text.replace('\'', "\""),
                _ => text,
            };
            log.push(LogLine {
                text,
                count,
                ts_ms,
                kind: Kind::Query,
                shape,
                fixed,
                writes: vec![],
            });
        }
    }

    // Creates of new events, tenants (and users) in proportion to their size.
    for _ in 0..MT_CREATES {
        let (ti, ui) = pick_user(&mut rng);
        let t = &tenants[ti];
        let u = &t.users[ui];
        let ts_ms = log_start * 1000 + rng.range(0, 3_599_999);
        let session = rng.hex(16);
        let ty = EVENT_TYPES[type_picker.pick(&mut rng)].0;
        let doc = mt_event(&mut rng, &t.name, u, &session, ty, ts_ms);
        let text = obj! {"op": "create", "ts": rfc3339_ms(ts_ms), "doc": doc.clone()}.to_json();
        log.push(LogLine {
            text,
            count: 1,
            ts_ms,
            kind: Kind::Create,
            shape: "",
            fixed: vec![],
            writes: vec![doc],
        });
    }
    // Transactional batches: the events of one offline session, uploaded together.
    for _ in 0..MT_BATCHES {
        let (ti, ui) = pick_user(&mut rng);
        let t = &tenants[ti];
        let u = &t.users[ui];
        let ts_ms = log_start * 1000 + rng.range(0, 3_599_999);
        let session = rng.hex(16);
        let n = rng.range(3, 5);
        let mut docs_written = Vec::new();
        let mut ms = ts_ms - 600_000;
        for e in 0..n {
            let ty = if e == 0 {
                "login"
            } else {
                EVENT_TYPES[type_picker.pick(&mut rng)].0
            };
            docs_written.push(mt_event(&mut rng, &t.name, u, &session, ty, ms));
            ms += rng.range(5_000, 60_000);
        }
        let ops: Vec<J> = docs_written
            .iter()
            .map(|d| obj! {"op": "create", "doc": d.clone()})
            .collect();
        let text = obj! {"op": "batch", "ts": rfc3339_ms(ts_ms), "ops": ops}.to_json();
        log.push(LogLine {
            text,
            count: 1,
            ts_ms,
            kind: Kind::Batch,
            shape: "",
            fixed: vec![],
            writes: docs_written,
        });
    }

    Set {
        name: "multitenant",
        docs: docs.into_iter().map(|(_, d)| d).collect(),
        log: total_sorted(log),
        shapes: vec![
            (
                "tenant+user",
                "`c.tenantId = @t AND c.userId = @u` (incl. bracket notation, JOIN over `c.tags`, `c.type IN (...)`)",
            ),
            ("tenant", "`c.tenantId = @t` (time range, COUNT, GROUP BY)"),
            (
                "tenant+user+session",
                "`c.tenantId = @t AND c.userId = @u AND c.sessionId = @s`",
            ),
            ("session", "`c.sessionId = @s` alone"),
            (
                "cross-tenant report",
                "no tenant: `GROUP BY c.tenantId`, `c.type = 'purchase'`",
            ),
        ],
        candidates: vec![
            Cand::Hier(&["/tenantId", "/userId", "/sessionId"]),
            Cand::Hier(&["/tenantId", "/userId"]),
            Cand::Path("/tenantId"),
            Cand::Path("/userId"),
            Cand::Path("/sessionId"),
            Cand::Path("/id"),
            Cand::Path("/type"),
            Cand::Concat(&["/tenantId", "/userId"]),
        ],
        top_paths: vec!["/tenantId", "/type"],
    }
}

// ------------------------------------------------------------------------------------------
// iot: vehicle telemetry
// ------------------------------------------------------------------------------------------

const IOT_VEHICLES: usize = 2_000;
/// Long-haul vehicles (the first ones) report five times as often as the rest.
const IOT_LONG_HAUL: usize = 400;
const IOT_DAYS: i64 = 30;
const IOT_LOG_DAYS: i64 = 3;

const VIN_CHARS: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
const MAKES: [(&str, &str, &[&str]); 12] = [
    ("1FT", "Ford", &["F-150", "Transit", "E-Transit"]),
    ("1GC", "Chevrolet", &["Silverado 2500HD", "Express 3500"]),
    ("3C6", "Ram", &["ProMaster 2500", "1500"]),
    ("W1V", "Mercedes-Benz", &["Sprinter 2500", "eSprinter"]),
    ("VF1", "Renault", &["Master", "Kangoo E-Tech"]),
    ("YS2", "Scania", &["R 450", "P 280"]),
    ("JTF", "Toyota", &["HiAce", "Hilux"]),
    ("5YJ", "Tesla", &["Model Y", "Model 3"]),
    ("4V4", "Volvo", &["VNL 760", "FH Electric"]),
    ("1HT", "International", &["LT625", "MV607"]),
    ("WV1", "Volkswagen", &["Crafter", "ID. Buzz Cargo"]),
    ("NM0", "Ford", &["Transit Connect"]),
];
/// Depot cities, latitude and longitude in 1e-5 degrees.
const DEPOTS: [(i64, i64); 12] = [
    (4_760_621, -12_233_207),
    (3_973_915, -10_498_470),
    (4_187_811, -8_762_980),
    (3_277_666, -9_679_699),
    (3_374_900, -8_438_798),
    (5_192_442, 447_773),
    (5_355_108, 999_368),
    (4_576_404, 483_566),
    (4_546_427, 918_951),
    (4_041_678, -370_379),
    (5_932_932, 1_806_858),
    (4_365_107, -7_934_702),
];
const DTC_CODES: [&str; 9] = [
    "P0420", "P0171", "P0300", "P0128", "U0100", "P0442", "B1318", "C0035", "P2463",
];
const FIRMWARE: [&str; 5] = ["3.12.0", "3.13.4", "3.14.1", "3.14.2", "4.0.0-rc2"];

struct Vehicle {
    vin: String,
    fleet: u64,
    make: &'static str,
    model: &'static str,
    year: i64,
    firmware: &'static str,
    /// Odometer at the start of the sample, 0.1 km.
    odometer: i64,
}

/// A 17-character VIN with a valid check digit (position 9).
fn vin(rng: &mut Rng, wmi: &str, year: i64) -> String {
    let mut v: Vec<u8> = wmi.bytes().collect();
    for _ in 0..5 {
        v.push(*rng.pick(VIN_CHARS));
    }
    v.push(b'0');
    v.push(b"NPRST"[(year - 2022) as usize]);
    v.push(*rng.pick(VIN_CHARS));
    for _ in 0..6 {
        v.push(b'0' + rng.below(10) as u8);
    }
    let value = |c: u8| -> u32 {
        match c {
            b'0'..=b'9' => (c - b'0') as u32,
            _ => {
                let i = b"ABCDEFGHJKLMNPRSTUVWXYZ"
                    .iter()
                    .position(|&x| x == c)
                    .unwrap() as u32;
                [
                    1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9,
                ][i as usize]
            }
        }
    };
    const WEIGHTS: [u32; 17] = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum: u32 = v.iter().zip(WEIGHTS).map(|(&c, w)| value(c) * w).sum();
    v[8] = match sum % 11 {
        10 => b'X',
        d => b'0' + d as u8,
    };
    String::from_utf8(v).unwrap()
}

fn telemetry(rng: &mut Rng, v: &Vehicle, secs: i64, day_index: i64) -> J {
    let (lat, lon) = DEPOTS[(v.fleet % DEPOTS.len() as u64) as usize];
    let moving = rng.chance(800);
    let (speed, rpm) = if moving {
        (rng.range(50, 1_300), rng.range(1_100, 3_200))
    } else {
        (0, rng.range(650, 850))
    };
    let dtc: Vec<J> = if rng.chance(880) {
        vec![]
    } else {
        (0..rng.range(1, 2))
            .map(|_| J::from(*rng.pick(&DTC_CODES)))
            .collect()
    };
    obj! {
        "id": format!("{}-{}", v.vin, secs),
        "vin": &v.vin,
        "date": date_of(secs),
        "ts": rfc3339(secs),
        "fleetId": format!("fleet-{:03}", v.fleet),
        "vehicle": obj! {"make": v.make, "model": v.model, "year": v.year},
        "position": obj! {
            "lat": dec(lat + rng.range(-40_000, 40_000), 5),
            "lon": dec(lon + rng.range(-60_000, 60_000), 5),
            "heading": rng.range(0, 359),
            "accuracyM": rng.range(2, 15),
        },
        "readings": obj! {
            "speed": dec(speed, 1),
            "rpm": rpm,
            "fuel": dec(rng.range(5, 100), 2),
            "temp": dec(rng.range(700, 1_040), 1),
            "odometerKm": dec(v.odometer + day_index * rng.range(500, 4_000), 1),
            "batteryV": dec(rng.range(120, 146), 1),
        },
        "dtc": dtc,
        "firmware": v.firmware,
    }
}

/// Telemetry of one day, in time order: weekdays busier than weekends.
fn iot_day(
    rng: &mut Rng,
    fleet: &[Vehicle],
    day: i64,
    day_index: i64,
    used: &mut BTreeSet<String>,
) -> Vec<(i64, J)> {
    let n = if weekday(day) >= 5 {
        rng.range(70, 85)
    } else {
        rng.range(120, 140)
    };
    let mut out = Vec::new();
    for _ in 0..n {
        let vi = if rng.chance(500) {
            rng.below(IOT_LONG_HAUL as u64)
        } else {
            rng.below(fleet.len() as u64)
        } as usize;
        let mut secs = day + rng.range(5 * 3600, 21 * 3600 - 1);
        while !used.insert(format!("{}-{}", fleet[vi].vin, secs)) {
            secs += 1;
        }
        out.push((secs, telemetry(rng, &fleet[vi], secs, day_index)));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.str("id").cmp(b.1.str("id"))));
    out
}

fn iot() -> Set {
    let mut rng = Rng(0x696f_745f_7465_6c65);
    let fleet: Vec<Vehicle> = (0..IOT_VEHICLES)
        .map(|_| {
            let (wmi, make, models) = *rng.pick(&MAKES);
            let year = rng.range(2022, 2026);
            let vin = vin(&mut rng, wmi, year);
            let fleet = 1 + rng.below(40);
            let model = *rng.pick(models);
            let firmware = *rng.pick(&FIRMWARE);
            Vehicle {
                vin,
                fleet,
                make,
                model,
                year,
                firmware,
                odometer: rng.range(5_000, 2_500_000),
            }
        })
        .collect();
    let first = epoch(2026, 10, 3);
    let mut used = BTreeSet::new();
    let mut docs = Vec::new();
    for d in 0..IOT_DAYS {
        docs.extend(iot_day(&mut rng, &fleet, first + d * 86_400, d, &mut used));
    }

    // The log: the three days after the sample, creates in arrival order, with their charge.
    let log_first = first + IOT_DAYS * 86_400;
    let mut log = Vec::new();
    for d in 0..IOT_LOG_DAYS {
        for (secs, doc) in iot_day(
            &mut rng,
            &fleet,
            log_first + d * 86_400,
            IOT_DAYS + d,
            &mut used,
        ) {
            let bytes = doc.to_json().len() as i64;
            let text = obj! {"op": "create", "ts": rfc3339(secs), "ru": dec(520 + bytes * 100 / 900, 2), "doc": doc.clone()}
                .to_json();
            log.push(LogLine {
                text,
                count: 1,
                ts_ms: secs * 1000,
                kind: Kind::Create,
                shape: "",
                fixed: vec![],
                writes: vec![doc],
            });
        }
    }
    let shape_specs: [(&str, u64, usize, usize, &[&str]); 3] = [
        (
            "vin+date",
            35_000,
            240,
            6,
            &[
                "SELECT * FROM c WHERE c.vin = @vin AND c.date = @date ORDER BY c.ts",
                "SELECT TOP 1 c.position, c.ts FROM c WHERE c.vin = @vin AND c.date = @date ORDER BY c.ts DESC",
                "SELECT VALUE MAX(c.readings.speed) FROM c WHERE c.date = @date AND c.vin = @vin",
                "SELECT c.ts, c.readings.fuel, c.readings.temp FROM c WHERE c[\"vin\"] = @vin AND c[\"date\"] = @date",
            ],
        ),
        (
            "vin+date range",
            10_000,
            80,
            2,
            &[
                "SELECT c.date, c.readings.odometerKm FROM c WHERE c.vin = @vin AND c.date >= @from AND c.date <= @to ORDER BY c.ts",
                "SELECT d AS code, c.ts FROM c JOIN d IN c.dtc WHERE c.vin = @vin AND c.date >= @from",
            ],
        ),
        (
            "date",
            5_000,
            30,
            2,
            &[
                "SELECT c.vin, c.readings.speed, c.position FROM c WHERE c.date = @date AND c.readings.speed > 120",
                "SELECT VALUE COUNT(1) FROM c WHERE c.date = @date AND ARRAY_LENGTH(c.dtc) > 0",
                "SELECT c.fleetId, AVG(c.readings.fuel) AS avgFuel FROM c WHERE c.date = @date GROUP BY c.fleetId",
            ],
        ),
    ];
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = apportion(total - plain as u64, &line_weights(&mut rng, lines), 1);
        let counts = counts.into_iter().chain(std::iter::repeat_n(1, plain));
        for (i, count) in counts.enumerate() {
            let sql = templates[i % templates.len()];
            // Half of the lookups are about the last week.
            let di = if rng.chance(500) {
                docs.len() - 1 - rng.below(docs.len() as u64 / 4) as usize
            } else {
                rng.below(docs.len() as u64) as usize
            };
            let doc = &docs[di].1;
            let date = doc.str("date").to_string();
            let day = days_from_civil(
                date[0..4].parse().unwrap(),
                date[5..7].parse().unwrap(),
                date[8..10].parse().unwrap(),
            ) * 86_400;
            let mut params: Vec<(&str, J)> = Vec::new();
            let mut fixed = Vec::new();
            for (name, value, path) in [
                ("@vin", J::from(doc.str("vin")), "/vin"),
                ("@date", J::from(&date), "/date"),
                ("@from", J::from(date_of(day - 7 * 86_400)), ""),
                ("@to", J::from(&date), ""),
            ] {
                if uses(sql, name) {
                    params.push((name, value));
                    if !path.is_empty() {
                        fixed.push((path, 1));
                    }
                }
            }
            let ts_ms = (log_first + rng.range(0, IOT_LOG_DAYS - 1) * 86_400) * 1000
                + rng.range(6 * 3_600_000, 20 * 3_600_000);
            log.push(LogLine {
                text: query_text(sql, &params, count, Some(rfc3339(ts_ms / 1000)), i >= lines),
                count,
                ts_ms,
                kind: Kind::Query,
                shape,
                fixed,
                writes: vec![],
            });
        }
    }

    Set {
        name: "iot",
        docs: docs.into_iter().map(|(_, d)| d).collect(),
        log: total_sorted(log),
        shapes: vec![
            (
                "vin+date",
                "`c.vin = @vin AND c.date = @date` (incl. bracket notation)",
            ),
            (
                "vin+date range",
                "`c.vin = @vin AND c.date >= @from` (incl. JOIN over `c.dtc`)",
            ),
            ("date", "`c.date = @date` daily reports"),
        ],
        candidates: vec![
            Cand::Path("/vin"),
            Cand::Concat(&["/vin", "/date"]),
            Cand::HashSuffix("/date", "/vin", 400),
            Cand::RandSuffix("/date", 400),
            Cand::Path("/date"),
            Cand::Path("/id"),
            Cand::Path("/fleetId"),
            Cand::Path("/vehicle/make"),
        ],
        top_paths: vec!["/date", "/vin"],
    }
}

// ------------------------------------------------------------------------------------------
// profiles: user profiles read by id
// ------------------------------------------------------------------------------------------

const PROFILES: usize = 1_600;
const PROFILE_NEW: usize = 40;

const FIRST_NAMES: [(&str, &str); 30] = [
    ("Olivia", "olivia"),
    ("Liam", "liam"),
    ("José", "jose"),
    ("Zoë", "zoe"),
    ("Aarav", "aarav"),
    ("Priya", "priya"),
    ("Lukas", "lukas"),
    ("Mia", "mia"),
    ("Hiroshi", "hiroshi"),
    ("Yuki", "yuki"),
    ("Chloé", "chloe"),
    ("Mateo", "mateo"),
    ("Amara", "amara"),
    ("Noah", "noah"),
    ("Sofía", "sofia"),
    ("Emma", "emma"),
    ("Oliver", "oliver"),
    ("Fatima", "fatima"),
    ("Wei", "wei"),
    ("Ana", "ana"),
    ("Lars", "lars"),
    ("Ingrid", "ingrid"),
    ("Kwame", "kwame"),
    ("Aisha", "aisha"),
    ("Mohammed", "mohammed"),
    ("Isabella", "isabella"),
    ("Ethan", "ethan"),
    ("Søren", "soren"),
    ("Camille", "camille"),
    ("Raj", "raj"),
];
const LAST_NAMES: [(&str, &str); 20] = [
    ("Smith", "smith"),
    ("García", "garcia"),
    ("Müller", "muller"),
    ("Kumar", "kumar"),
    ("Tanaka", "tanaka"),
    ("Silva", "silva"),
    ("Dubois", "dubois"),
    ("Nguyen", "nguyen"),
    ("Okafor", "okafor"),
    ("Johansson", "johansson"),
    ("Rossi", "rossi"),
    ("Kowalski", "kowalski"),
    ("O'Brien", "obrien"),
    ("Chen", "chen"),
    ("Hernández", "hernandez"),
    ("Patel", "patel"),
    ("Jensen", "jensen"),
    ("Novak", "novak"),
    ("Costa", "costa"),
    ("Schmidt", "schmidt"),
];
/// Country, weight, locale, time zone.
const COUNTRIES: [(&str, u64, &str, &str); 30] = [
    ("US", 300, "en-US", "America/New_York"),
    ("IN", 110, "en-IN", "Asia/Kolkata"),
    ("GB", 70, "en-GB", "Europe/London"),
    ("DE", 65, "de-DE", "Europe/Berlin"),
    ("BR", 60, "pt-BR", "America/Sao_Paulo"),
    ("FR", 45, "fr-FR", "Europe/Paris"),
    ("CA", 40, "en-CA", "America/Toronto"),
    ("JP", 35, "ja-JP", "Asia/Tokyo"),
    ("AU", 30, "en-AU", "Australia/Sydney"),
    ("MX", 30, "es-MX", "America/Mexico_City"),
    ("ES", 25, "es-ES", "Europe/Madrid"),
    ("IT", 22, "it-IT", "Europe/Rome"),
    ("NL", 20, "nl-NL", "Europe/Amsterdam"),
    ("PL", 18, "pl-PL", "Europe/Warsaw"),
    ("SE", 15, "sv-SE", "Europe/Stockholm"),
    ("KR", 15, "ko-KR", "Asia/Seoul"),
    ("NG", 14, "en-NG", "Africa/Lagos"),
    ("ZA", 12, "en-ZA", "Africa/Johannesburg"),
    ("AR", 12, "es-AR", "America/Argentina/Buenos_Aires"),
    ("TR", 11, "tr-TR", "Europe/Istanbul"),
    ("ID", 10, "id-ID", "Asia/Jakarta"),
    ("PH", 10, "en-PH", "Asia/Manila"),
    ("CH", 9, "de-CH", "Europe/Zurich"),
    ("IE", 8, "en-IE", "Europe/Dublin"),
    ("DK", 7, "da-DK", "Europe/Copenhagen"),
    ("NO", 6, "nb-NO", "Europe/Oslo"),
    ("SG", 6, "en-SG", "Asia/Singapore"),
    ("NZ", 5, "en-NZ", "Pacific/Auckland"),
    ("PT", 5, "pt-PT", "Europe/Lisbon"),
    ("AT", 5, "de-AT", "Europe/Vienna"),
];
const PLANS: [(&str, u64); 4] = [
    ("free", 700),
    ("pro", 220),
    ("team", 60),
    ("enterprise", 20),
];
const DEVICES: [(&str, &str); 10] = [
    ("ios", "iPhone 15"),
    ("ios", "iPhone 13"),
    ("ios", "iPad Air"),
    ("android", "Pixel 8"),
    ("android", "Galaxy S24"),
    ("android", "Galaxy A54"),
    ("web", "Chrome on Windows"),
    ("web", "Safari on macOS"),
    ("windows", "Surface Laptop 5"),
    ("macos", "MacBook Air M3"),
];
const DOMAINS: [&str; 4] = [
    "example.com",
    "example.org",
    "example.net",
    "mail.example.com",
];

fn profile(
    rng: &mut Rng,
    country: usize,
    plan_picker: &Picker,
    emails: &mut BTreeSet<String>,
    created: i64,
    now: i64,
) -> J {
    let id = rng.uuid();
    let (first, first_slug) = *rng.pick(&FIRST_NAMES);
    let (last, last_slug) = *rng.pick(&LAST_NAMES);
    let domain = *rng.pick(&DOMAINS);
    let mut email = format!("{first_slug}.{last_slug}@{domain}");
    while !emails.insert(email.clone()) {
        email = format!("{first_slug}.{last_slug}{}@{domain}", rng.range(1, 9_999));
    }
    let (code, _, locale, tz) = COUNTRIES[country];
    let last_login = now - rng.range(0, 60 * 86_400);
    let devices: Vec<J> = (0..[0, 1, 1, 1, 1, 1, 2, 2, 2, 3][rng.below(10) as usize])
        .map(|_| {
            let (platform, model) = *rng.pick(&DEVICES);
            obj! {
                "deviceId": rng.hex(16),
                "platform": platform,
                "model": model,
                "appVersion": format!("7.{}.{}", rng.range(0, 4), rng.range(0, 12)),
                "lastSeen": rfc3339(last_login - rng.range(0, 20 * 86_400)),
            }
        })
        .collect();
    obj! {
        "id": &id,
        "userId": &id,
        "email": email,
        "displayName": format!("{first} {last}"),
        "country": code,
        "plan": PLANS[plan_picker.pick(rng)].0,
        "createdAt": rfc3339(created),
        "lastLoginAt": rfc3339(last_login),
        "preferences": obj! {
            "language": locale,
            "timezone": tz,
            "theme": *rng.pick(&["light", "dark", "system"]),
            "notifications": obj! {"email": rng.chance(700), "push": rng.chance(500), "sms": rng.chance(100)},
            "weeklyDigest": rng.chance(400),
        },
        "devices": devices,
        "marketingOptIn": rng.chance(300),
        "loginCount": rng.range(1, 2_000),
    }
}

fn profiles() -> Set {
    let mut rng = Rng(0x7072_6f66_696c_6573);
    let plan_picker = Picker::new(PLANS.iter().map(|p| p.1));
    let per_country = apportion(
        PROFILES as u64,
        &COUNTRIES.iter().map(|c| c.1).collect::<Vec<_>>(),
        1,
    );
    let mut countries: Vec<usize> = per_country
        .iter()
        .enumerate()
        .flat_map(|(i, &n)| std::iter::repeat_n(i, n as usize))
        .collect();
    rng.shuffle(&mut countries);
    let now = epoch(2026, 11, 20);
    let mut emails = BTreeSet::new();
    let mut docs: Vec<(i64, J)> = countries
        .iter()
        .map(|&c| {
            let created = epoch(2019, 1, 1) + rng.range(0, 2_860) * 86_400 + rng.range(0, 86_399);
            let doc = profile(
                &mut rng,
                c,
                &plan_picker,
                &mut emails,
                created,
                now - 86_400,
            );
            (created, doc)
        })
        .collect();
    docs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.str("id").cmp(b.1.str("id"))));
    let docs: Vec<J> = docs.into_iter().map(|(_, d)| d).collect();

    // The log: one day. Active users (a Zipf order over a shuffled list) are read the most.
    let mut order: Vec<usize> = (0..docs.len()).collect();
    rng.shuffle(&mut order);
    let active = Picker::new(zipf(order.len(), 20));
    let mut log = Vec::new();
    let day_ms = |rng: &mut Rng| now * 1000 + rng.range(0, 86_399_999);
    let known = |d: &J| {
        let id = d.str("id");
        obj! {"/id": id, "/userId": id}
    };
    for count in apportion(90_000, &line_weights(&mut rng, 520), 1) {
        let d = &docs[order[active.pick(&mut rng)]];
        let ts_ms = day_ms(&mut rng);
        log.push(LogLine {
            text: obj! {"op": "read", "ts": rfc3339_ms(ts_ms), "id": d.str("id"), "known": known(d), "count": count}
                .to_json(),
            count,
            ts_ms,
            kind: Kind::Read,
            shape: "point read by id",
            fixed: vec![("/id", 1), ("/userId", 1)],
            writes: vec![],
        });
    }
    let country_picker = Picker::new(per_country.iter().copied());
    type Params = Vec<(&'static str, J)>;
    let shape_specs: [(&str, u64, usize, usize, &[&str]); 3] = [
        (
            "email",
            5_000,
            40,
            4,
            &[
                "SELECT * FROM c WHERE c.email = @email",
                "SELECT c.id, c.plan, c.preferences FROM c WHERE c.email = @email",
            ],
        ),
        (
            "country",
            4_000,
            30,
            2,
            &[
                "SELECT VALUE COUNT(1) FROM c WHERE c.country = @country AND c.plan = @plan",
                "SELECT TOP 50 c.id, c.email, c.createdAt FROM c WHERE c.country = @country ORDER BY c.createdAt DESC",
            ],
        ),
        (
            "country IN",
            1_000,
            8,
            1,
            &[
                "SELECT * FROM c WHERE c.country IN ('DE', 'AT', 'CH') AND c.plan = 'enterprise'",
                "SELECT c.id, c.email FROM c WHERE c.country IN ('US', 'CA') AND c.plan = 'team'",
                "SELECT VALUE COUNT(1) FROM c WHERE c.country IN ('ES', 'MX', 'AR') AND c.plan = 'pro'",
            ],
        ),
    ];
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = apportion(total - plain as u64, &line_weights(&mut rng, lines), 1);
        let counts = counts.into_iter().chain(std::iter::repeat_n(1, plain));
        for (i, count) in counts.enumerate() {
            let sql = templates[i % templates.len()];
            let d = &docs[rng.below(docs.len() as u64) as usize];
            let country = COUNTRIES[country_picker.pick(&mut rng)].0;
            let plan = PLANS[plan_picker.pick(&mut rng)].0;
            let mut params: Params = Vec::new();
            let mut fixed = Vec::new();
            for (name, value, path) in [
                ("@email", J::from(d.str("email")), "/email"),
                ("@country", J::from(country), "/country"),
                ("@plan", J::from(plan), "/plan"),
            ] {
                if uses(sql, name) {
                    params.push((name, value));
                    fixed.push((path, 1));
                }
            }
            if let Some(list) = sql.split("IN (").nth(1) {
                let n = list.split(')').next().unwrap().split(',').count();
                fixed.push(("/country", n));
                fixed.push(("/plan", 1));
            }
            let ts_ms = day_ms(&mut rng);
            log.push(LogLine {
                text: query_text(sql, &params, count, Some(rfc3339_ms(ts_ms)), i >= lines),
                count,
                ts_ms,
                kind: Kind::Query,
                shape,
                fixed,
                writes: vec![],
            });
        }
    }
    // Writes: last-login patches, preference upserts (same key value), sign-ups.
    for count in apportion(12_000, &line_weights(&mut rng, 150), 1) {
        let d = &docs[order[active.pick(&mut rng)]];
        let ts_ms = day_ms(&mut rng);
        log.push(LogLine {
            text: obj! {"op": "patch", "ts": rfc3339_ms(ts_ms), "id": d.str("id"), "known": known(d), "count": count}
                .to_json(),
            count,
            ts_ms,
            kind: Kind::Patch,
            shape: "",
            fixed: vec![],
            writes: vec![d.clone()],
        });
    }
    for _ in 0..60 {
        let mut d = docs[order[active.pick(&mut rng)]].clone();
        let ts_ms = day_ms(&mut rng);
        d.set("lastLoginAt", J::from(rfc3339(ts_ms / 1000)));
        if let Some(J::Obj(prefs)) = d.get("preferences").cloned() {
            let mut prefs = J::Obj(prefs);
            prefs.set("theme", J::from(*rng.pick(&["light", "dark", "system"])));
            d.set("preferences", prefs);
        }
        log.push(LogLine {
            text: obj! {"op": "upsert", "ts": rfc3339_ms(ts_ms), "doc": d.clone()}.to_json(),
            count: 1,
            ts_ms,
            kind: Kind::Upsert,
            shape: "",
            fixed: vec![],
            writes: vec![d],
        });
    }
    for _ in 0..PROFILE_NEW {
        let ts_ms = day_ms(&mut rng);
        let c = country_picker.pick(&mut rng);
        let d = profile(
            &mut rng,
            c,
            &plan_picker,
            &mut emails,
            ts_ms / 1000,
            ts_ms / 1000,
        );
        log.push(LogLine {
            text: obj! {"op": "create", "ts": rfc3339_ms(ts_ms), "doc": d.clone()}.to_json(),
            count: 1,
            ts_ms,
            kind: Kind::Create,
            shape: "",
            fixed: vec![],
            writes: vec![d],
        });
    }

    Set {
        name: "profiles",
        docs,
        log: total_sorted(log),
        shapes: vec![
            (
                "point read by id",
                "`read` with `known` `{\"/id\", \"/userId\"}`",
            ),
            ("email", "`c.email = @email` (sign-in lookup)"),
            (
                "country",
                "`c.country = @country` (marketing counts, newest sign-ups)",
            ),
            (
                "country IN",
                "`c.country IN ('DE', 'AT', 'CH') AND c.plan = ...`",
            ),
        ],
        candidates: vec![
            Cand::Path("/id"),
            Cand::Path("/userId"),
            Cand::Path("/email"),
            Cand::Path("/country"),
            Cand::Path("/plan"),
            Cand::Hier(&["/country", "/userId"]),
        ],
        top_paths: vec!["/country", "/plan"],
    }
}

// ------------------------------------------------------------------------------------------
// nutrition: a food catalogue
// ------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum Style {
    Meat,
    Fish,
    Plant,
    Grain,
    Product,
    Drink,
    Nut,
    Spice,
}

impl Style {
    fn mods(self) -> &'static [&'static str] {
        match self {
            Style::Meat => &[
                "separable lean only, trimmed to 0\" fat",
                "separable lean and fat, trimmed to 1/8\" fat",
                "separable lean only, trimmed to 1/8\" fat, choice",
                "separable lean and fat, trimmed to 0\" fat, select",
            ],
            Style::Fish => &["wild", "farmed", "canned in water", "canned in oil"],
            Style::Plant => &[
                "raw",
                "frozen",
                "canned, regular pack",
                "canned, no salt added",
            ],
            Style::Grain => &["regular", "enriched", "unenriched", "whole grain"],
            Style::Product => &[
                "prepared from recipe",
                "commercially prepared",
                "reduced fat",
                "dry mix",
            ],
            Style::Drink => &[
                "ready-to-drink",
                "prepared from powder",
                "canned",
                "bottled",
            ],
            Style::Nut => &["dry roasted", "oil roasted", "raw", "blanched"],
            Style::Spice => &["ground", "whole"],
        }
    }
    fn preps(self) -> &'static [&'static str] {
        match self {
            Style::Meat => &[
                "raw",
                "cooked, braised",
                "cooked, broiled",
                "cooked, roasted",
                "cooked, grilled",
            ],
            Style::Fish => &["raw", "cooked, dry heat", "cooked, moist heat", "smoked"],
            Style::Plant => &[
                "unprepared",
                "boiled, drained, without salt",
                "boiled, drained, with salt",
                "microwaved",
            ],
            Style::Grain => &["dry", "cooked", "cooked, without salt", "instant, prepared"],
            Style::Product => &[
                "plain",
                "enriched",
                "with added vitamins",
                "unenriched",
                "toasted",
            ],
            Style::Drink => &["sweetened", "unsweetened", "with added calcium", "diet"],
            Style::Nut => &["without salt added", "with salt added"],
            Style::Spice => &["dried", "fresh"],
        }
    }
}

/// Food group, group code, items, style, base descriptions. The top group is 20% of items.
const GROUPS: [(&str, u32, usize, Style, &[&str]); 25] = [
    (
        "Beef Products",
        13,
        160,
        Style::Meat,
        &[
            "Beef, chuck, blade roast",
            "Beef, rib, eye, small end (ribs 10-12)",
            "Beef, round, top round, steak",
            "Beef, brisket, flat half",
            "Beef, loin, tenderloin steak",
            "Beef, short loin, t-bone steak",
            "Beef, flank, steak",
            "Beef, plate, inside skirt steak",
            "Beef, shoulder, top blade steak",
            "Beef, bottom sirloin, tri-tip roast",
        ],
    ),
    (
        "Vegetables and Vegetable Products",
        11,
        88,
        Style::Plant,
        &[
            "Broccoli",
            "Carrots",
            "Spinach",
            "Peas, green",
            "Corn, sweet, yellow",
            "Beans, snap, green",
            "Cauliflower",
            "Brussels sprouts",
            "Kale",
            "Asparagus",
        ],
    ),
    (
        "Baked Products",
        18,
        72,
        Style::Product,
        &[
            "Bread, whole-wheat",
            "Bread, rye",
            "Bagels, plain",
            "Muffins, blueberry",
            "Croissants, butter",
            "Crackers, saltines",
            "Cookies, oatmeal",
            "Pie, apple",
            "Tortillas, flour",
            "Rolls, dinner",
        ],
    ),
    (
        "Poultry Products",
        5,
        56,
        Style::Meat,
        &[
            "Chicken, broilers or fryers, breast",
            "Chicken, broilers or fryers, thigh",
            "Chicken, broilers or fryers, wing",
            "Turkey, whole, light meat",
            "Turkey, whole, dark meat",
            "Duck, domesticated",
            "Chicken, ground",
        ],
    ),
    (
        "Sweets",
        19,
        48,
        Style::Product,
        &[
            "Candies, milk chocolate",
            "Candies, hard",
            "Syrups, maple",
            "Honey",
            "Ice creams, vanilla",
            "Puddings, chocolate",
            "Jams and preserves",
            "Frostings, vanilla",
        ],
    ),
    (
        "Fruits and Fruit Juices",
        9,
        42,
        Style::Plant,
        &[
            "Apples",
            "Bananas",
            "Oranges, navel",
            "Strawberries",
            "Blueberries",
            "Peaches, yellow",
            "Pineapple",
            "Grapes, red or green",
            "Mangos",
            "Pears",
        ],
    ),
    (
        "Pork Products",
        10,
        37,
        Style::Meat,
        &[
            "Pork, fresh, loin, center rib (chops)",
            "Pork, fresh, shoulder, arm picnic",
            "Pork, fresh, ham (leg), whole",
            "Pork, fresh, spareribs",
            "Pork, cured, bacon",
        ],
    ),
    (
        "Beverages",
        14,
        33,
        Style::Drink,
        &[
            "Beverages, coffee, brewed",
            "Beverages, tea, black",
            "Beverages, orange juice drink",
            "Beverages, cola",
            "Beverages, almond milk",
            "Beverages, energy drink",
            "Beverages, lemonade",
        ],
    ),
    (
        "Legumes and Legume Products",
        16,
        30,
        Style::Plant,
        &[
            "Beans, black, mature seeds",
            "Chickpeas (garbanzo beans), mature seeds",
            "Lentils, mature seeds",
            "Beans, kidney, red, mature seeds",
            "Soybeans, mature seeds",
            "Tofu, firm",
            "Peanut butter, smooth style",
        ],
    ),
    (
        "Dairy and Egg Products",
        1,
        28,
        Style::Product,
        &[
            "Butter, salted",
            "Cheese, cheddar",
            "Cheese, mozzarella, whole milk",
            "Milk, whole, 3.25% milkfat",
            "Yogurt, Greek, plain",
            "Egg, whole",
            "Cream, heavy whipping",
        ],
    ),
    (
        "Finfish and Shellfish Products",
        15,
        26,
        Style::Fish,
        &[
            "Fish, salmon, Atlantic",
            "Fish, tuna, light",
            "Fish, cod, Pacific",
            "Crustaceans, shrimp",
            "Mollusks, mussel, blue",
            "Fish, trout, rainbow",
        ],
    ),
    (
        "Soups, Sauces, and Gravies",
        6,
        24,
        Style::Product,
        &[
            "Soup, chicken noodle",
            "Soup, tomato",
            "Soup, minestrone",
            "Sauce, pasta, marinara",
            "Gravy, brown",
            "Soup, cream of mushroom",
        ],
    ),
    (
        "Cereal Grains and Pasta",
        20,
        22,
        Style::Grain,
        &[
            "Rice, white, long-grain",
            "Rice, brown, medium-grain",
            "Pasta, spaghetti",
            "Quinoa",
            "Oats",
            "Couscous",
            "Barley, pearled",
        ],
    ),
    (
        "Breakfast Cereals",
        8,
        20,
        Style::Grain,
        &[
            "Cereals ready-to-eat, corn flakes",
            "Cereals ready-to-eat, granola",
            "Cereals ready-to-eat, bran flakes",
            "Cereals, oats, instant, fortified",
            "Cereals, farina",
        ],
    ),
    (
        "Fast Foods",
        21,
        18,
        Style::Product,
        &[
            "Fast foods, hamburger, single patty",
            "Fast foods, cheeseburger, double patty",
            "Fast foods, french fries",
            "Fast foods, chicken nuggets",
            "Fast foods, pizza, cheese",
            "Fast foods, burrito, bean and cheese",
        ],
    ),
    (
        "Lamb, Veal, and Game Products",
        17,
        16,
        Style::Meat,
        &[
            "Lamb, leg, whole (shank and sirloin)",
            "Lamb, loin",
            "Veal, shoulder, whole",
            "Game meat, bison, ground",
            "Game meat, venison",
        ],
    ),
    (
        "Sausages and Luncheon Meats",
        7,
        14,
        Style::Product,
        &[
            "Frankfurter, beef",
            "Bologna, pork",
            "Salami, dry or hard",
            "Sausage, Italian, pork",
            "Ham, sliced, regular",
        ],
    ),
    (
        "Nut and Seed Products",
        12,
        13,
        Style::Nut,
        &[
            "Nuts, almonds",
            "Nuts, walnuts, English",
            "Nuts, cashew nuts",
            "Seeds, sunflower seed kernels",
            "Seeds, chia seeds",
        ],
    ),
    (
        "Baby Foods",
        3,
        11,
        Style::Product,
        &[
            "Babyfood, cereal, rice",
            "Babyfood, fruit, applesauce",
            "Babyfood, vegetables, carrots",
            "Babyfood, meat, chicken",
        ],
    ),
    (
        "Fats and Oils",
        4,
        10,
        Style::Product,
        &[
            "Oil, olive, salad or cooking",
            "Oil, canola",
            "Margarine, regular",
            "Shortening, vegetable",
            "Mayonnaise, regular",
        ],
    ),
    (
        "Snacks",
        25,
        8,
        Style::Product,
        &[
            "Snacks, potato chips, plain",
            "Snacks, popcorn, air-popped",
            "Snacks, pretzels, hard",
            "Snacks, tortilla chips",
        ],
    ),
    (
        "Meals, Entrees, and Side Dishes",
        22,
        7,
        Style::Product,
        &[
            "Lasagna, cheese, frozen",
            "Macaroni and cheese, box mix",
            "Burrito, beef and bean, frozen",
            "Pot pie, chicken, frozen",
        ],
    ),
    (
        "Restaurant Foods",
        36,
        6,
        Style::Product,
        &[
            "Restaurant, Chinese, fried rice",
            "Restaurant, Italian, spaghetti with meat sauce",
            "Restaurant, Mexican, cheese enchilada",
            "Restaurant, family style, pancakes",
        ],
    ),
    (
        "Spices and Herbs",
        2,
        6,
        Style::Spice,
        &[
            "Spices, pepper, black",
            "Spices, cinnamon, ground",
            "Spices, basil",
            "Spices, paprika",
            "Spices, turmeric",
        ],
    ),
    (
        "American Indian/Alaska Native Foods",
        35,
        5,
        Style::Product,
        &[
            "Bread, blue corn, Navajo",
            "Stew, mutton, Navajo",
            "Salmon, smoked, Alaska Native",
            "Berries, salmonberries (Alaska Native)",
        ],
    ),
];

/// Nutrient number, description, unit, range of values in hundredths.
const NUTRIENTS: [(&str, &str, &str, i64, i64); 26] = [
    ("203", "Protein", "g", 0, 3_500),
    ("204", "Total lipid (fat)", "g", 0, 4_000),
    ("205", "Carbohydrate, by difference", "g", 0, 8_000),
    ("208", "Energy", "kcal", 1_500, 60_000),
    ("255", "Water", "g", 100, 9_500),
    ("207", "Ash", "g", 0, 500),
    ("269", "Sugars, total", "g", 0, 6_000),
    ("291", "Fiber, total dietary", "g", 0, 1_500),
    ("301", "Calcium, Ca", "mg", 0, 50_000),
    ("303", "Iron, Fe", "mg", 0, 1_500),
    ("304", "Magnesium, Mg", "mg", 0, 20_000),
    ("305", "Phosphorus, P", "mg", 0, 60_000),
    ("306", "Potassium, K", "mg", 0, 90_000),
    ("307", "Sodium, Na", "mg", 0, 150_000),
    ("309", "Zinc, Zn", "mg", 0, 1_200),
    ("320", "Vitamin A, RAE", "µg", 0, 80_000),
    ("401", "Vitamin C, total ascorbic acid", "mg", 0, 12_000),
    ("404", "Thiamin", "mg", 0, 150),
    ("405", "Riboflavin", "mg", 0, 120),
    ("406", "Niacin", "mg", 0, 1_500),
    ("415", "Vitamin B-6", "mg", 0, 150),
    ("418", "Vitamin B-12", "µg", 0, 900),
    ("601", "Cholesterol", "mg", 0, 40_000),
    ("606", "Fatty acids, total saturated", "g", 0, 2_000),
    ("645", "Fatty acids, total monounsaturated", "g", 0, 2_000),
    ("646", "Fatty acids, total polyunsaturated", "g", 0, 1_800),
];
const SERVINGS: [(i64, &str); 8] = [
    (10, "oz"),
    (30, "oz"),
    (10, "cup"),
    (5, "cup, chopped"),
    (10, "serving"),
    (10, "tbsp"),
    (1_000, "g"),
    (10, "piece"),
];

fn food(rng: &mut Rng, id: String, group: &str, description: String) -> J {
    let tags: Vec<J> = {
        let mut seen = BTreeSet::new();
        description
            .split(", ")
            .map(|s| s.to_lowercase())
            .filter(|s| seen.insert(s.clone()))
            .take(6)
            .map(|s| obj! {"name": s})
            .collect()
    };
    let n = rng.range(8, 14) as usize;
    let mut chosen: Vec<usize> = (5..NUTRIENTS.len()).collect();
    rng.shuffle(&mut chosen);
    chosen.truncate(n - 5);
    chosen.sort();
    let nutrients: Vec<J> = (0..5)
        .chain(chosen)
        .map(|i| {
            let (nid, desc, units, lo, hi) = NUTRIENTS[i];
            obj! {"id": nid, "description": desc, "nutritionValue": dec(rng.range(lo, hi), 2), "units": units}
        })
        .collect();
    let servings: Vec<J> = (0..rng.range(1, 3))
        .map(|_| {
            let (amount, unit) = *rng.pick(&SERVINGS);
            let grams = match unit {
                "oz" => amount * 2_835 / 10,
                "g" => amount * 100,
                _ => rng.range(500, 25_000),
            };
            obj! {"amount": dec(amount, 1), "description": unit, "weightInGrams": dec(grams, 2)}
        })
        .collect();
    obj! {
        "id": id,
        "description": description,
        "tags": tags,
        "version": if rng.chance(150) { 2 } else { 1 },
        "isFromSurvey": rng.chance(100),
        "foodGroup": group,
        "manufacturerName": "",
        "commonName": "",
        "nutrients": nutrients,
        "servings": servings,
    }
}

fn nutrition() -> Set {
    let mut rng = Rng(0x6e75_7472_6974_696f);
    let mut docs = Vec::new();
    for &(group, code, n, style, bases) in &GROUPS {
        let mut combos: Vec<String> = bases
            .iter()
            .flat_map(|b| {
                style
                    .mods()
                    .iter()
                    .flat_map(move |m| style.preps().iter().map(move |p| format!("{b}, {m}, {p}")))
            })
            .collect();
        assert!(
            combos.len() >= n,
            "{group}: {} descriptions for {n} items",
            combos.len()
        );
        rng.shuffle(&mut combos);
        combos.truncate(n);
        combos.sort();
        for (i, description) in combos.into_iter().enumerate() {
            let id = format!("{code:02}{:03}", i + 1);
            docs.push(food(&mut rng, id, group, description));
        }
    }
    docs.sort_by(|a, b| a.str("id").cmp(b.str("id")));

    // The log: reads only, no times (a catalogue loaded once, then browsed).
    let group_picker = Picker::new(GROUPS.iter().map(|g| g.2 as u64));
    let mut log = Vec::new();
    let random_tag = |rng: &mut Rng, d: &J| -> String {
        match d.get("tags") {
            Some(J::Arr(tags)) => tags[rng.below(tags.len() as u64) as usize]
                .str("name")
                .to_string(),
            _ => unreachable!(),
        }
    };
    let shape_specs: [(&str, u64, usize, usize, &[&str]); 4] = [
        (
            "foodGroup",
            9_000,
            70,
            4,
            &[
                "SELECT * FROM c WHERE c.foodGroup = @foodGroup",
                "SELECT c.id, c.description FROM c WHERE c.foodGroup = @foodGroup ORDER BY c.description",
                "SELECT VALUE COUNT(1) FROM c WHERE c.foodGroup = @foodGroup",
                "SELECT c.description, n.nutritionValue FROM c JOIN n IN c.nutrients WHERE c.foodGroup = @foodGroup AND n.id = '203' AND n.nutritionValue > 20",
            ],
        ),
        (
            "id query",
            1_000,
            20,
            2,
            &["SELECT * FROM c WHERE c.id = @id"],
        ),
        (
            "tag",
            3_000,
            36,
            2,
            &[
                "SELECT c.id, c.description FROM c WHERE ARRAY_CONTAINS(c.tags, {\"name\": @tag})",
                "SELECT c.id, c.description FROM c JOIN t IN c.tags WHERE t.name = @tag",
            ],
        ),
        (
            "foodGroup+tag",
            1_000,
            14,
            0,
            &[
                "SELECT c.id, c.description, c.servings FROM c WHERE c.foodGroup = @foodGroup AND ARRAY_CONTAINS(c.tags, {\"name\": @tag}, true)",
            ],
        ),
    ];
    let mut seq = 0;
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = apportion(total - plain as u64, &line_weights(&mut rng, lines), 1);
        let counts = counts.into_iter().chain(std::iter::repeat_n(1, plain));
        for (i, count) in counts.enumerate() {
            let sql = templates[i % templates.len()];
            let group = GROUPS[group_picker.pick(&mut rng)].0;
            let in_group: Vec<&J> = docs
                .iter()
                .filter(|d| d.str("foodGroup") == group)
                .collect();
            let d = in_group[rng.below(in_group.len() as u64) as usize];
            let tag = random_tag(&mut rng, d);
            let mut params: Vec<(&str, J)> = Vec::new();
            let mut fixed = Vec::new();
            for (name, value, path) in [
                ("@foodGroup", J::from(group), "/foodGroup"),
                ("@id", J::from(d.str("id")), "/id"),
                ("@tag", J::from(tag), ""),
            ] {
                if uses(sql, name) {
                    params.push((name, value));
                    if !path.is_empty() {
                        fixed.push((path, 1));
                    }
                }
            }
            seq += 1;
            log.push(LogLine {
                text: query_text(sql, &params, count, None, i >= lines),
                count,
                ts_ms: seq,
                kind: Kind::Query,
                shape,
                fixed,
                writes: vec![],
            });
        }
    }
    for count in apportion(6_000, &line_weights(&mut rng, 110), 1) {
        let d = &docs[rng.below(docs.len() as u64) as usize];
        seq += 1;
        log.push(LogLine {
            text: obj! {"op": "read", "id": d.str("id"), "known": obj! {"/id": d.str("id")}, "count": count}
                .to_json(),
            count,
            ts_ms: seq,
            kind: Kind::Read,
            shape: "point read by id",
            fixed: vec![("/id", 1)],
            writes: vec![],
        });
    }
    // No times: interleave the lines in a seeded random order.
    let mut keys: Vec<u64> = log.iter().map(|_| rng.next()).collect();
    let mut paired: Vec<(u64, LogLine)> = keys.drain(..).zip(log).collect();
    paired.sort_by_key(|p| p.0);

    Set {
        name: "nutrition",
        docs,
        log: paired.into_iter().map(|p| p.1).collect(),
        shapes: vec![
            (
                "foodGroup",
                "`c.foodGroup = @foodGroup` (list, COUNT, JOIN over `c.nutrients`)",
            ),
            ("point read by id", "`read` with `known` `{\"/id\"}` only"),
            ("id query", "`SELECT * FROM c WHERE c.id = @id`"),
            (
                "tag",
                "`ARRAY_CONTAINS(c.tags, {\"name\": @tag})`, `JOIN t IN c.tags`",
            ),
            (
                "foodGroup+tag",
                "`c.foodGroup = @foodGroup AND ARRAY_CONTAINS(...)`",
            ),
        ],
        candidates: vec![
            Cand::Path("/id"),
            Cand::Path("/foodGroup"),
            Cand::Path("/description"),
            Cand::Path("/version"),
        ],
        top_paths: vec!["/foodGroup"],
    }
}

// ------------------------------------------------------------------------------------------
// bad: small invalid inputs with known error positions
// ------------------------------------------------------------------------------------------

/// One file of the `bad` set and what a reader of it must report.
struct BadCase {
    file: String,
    content: Vec<u8>,
    shows: String,
    expected: String,
    /// Machine-readable expectation for `summary.json`.
    json: serde_json::Value,
}

fn ev(id: &str, tenant: J, user: &str, ty: &str, minute: i64) -> J {
    obj! {
        "id": id,
        "tenantId": tenant,
        "userId": user,
        "type": ty,
        "ts": rfc3339(epoch(2026, 11, 1) + 10 * 3600 + minute * 60),
        "payload": obj! {"page": "/dashboard", "durationMs": 1200 + minute * 7},
    }
}

fn base_events(n: usize) -> Vec<J> {
    (1..=n)
        .map(|i| {
            let tenant = if i % 3 == 0 { "fabrikam" } else { "contoso" };
            ev(
                &format!("evt-{i:04}"),
                J::from(tenant),
                &format!("u-{:03}", 1 + i % 4),
                ["page_view", "click", "search"][i % 3],
                i as i64,
            )
        })
        .collect()
}

fn lines_of(docs: &[J]) -> String {
    docs.iter().map(|d| d.to_json() + "\n").collect()
}

/// 1-based line and column (in bytes) of a byte offset.
fn line_col(text: &[u8], offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - start + 1)
}

/// Checks that serde_json fails on line `line` of `text` at column `col`.
fn assert_serde_position(file: &str, text: &str, line: usize, col: usize) {
    let line_text = text.lines().nth(line - 1).expect("line");
    let err = serde_json::from_str::<serde_json::Value>(line_text).expect_err("a syntax error");
    assert_eq!(
        (err.line(), err.column()),
        (1, col),
        "{file}: serde_json reports {err}"
    );
}

fn error_case(file: &str, content: String, offset: usize, shows: &str, what: &str) -> BadCase {
    let (line, col) = line_col(content.as_bytes(), offset);
    BadCase {
        file: file.to_string(),
        shows: shows.to_string(),
        expected: format!(
            "exit 2, error at line {line}, column {col} (byte offset {offset}): {what}"
        ),
        json: serde_json::json!({"exit": 2, "line": line, "column": col, "offset": offset, "error": what}),
        content: content.into_bytes(),
    }
}

/// A gzip member holding `data` in one stored (uncompressed) deflate block.
fn gzip_stored(data: &[u8]) -> Vec<u8> {
    assert!(data.len() < 65_536);
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    out.push(1); // final block, stored
    let len = data.len() as u16;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&(!len).to_le_bytes());
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

fn bad() -> Vec<BadCase> {
    let mut cases = Vec::new();
    let base = base_events(8);

    // Syntax error: a missing value on line 4.
    {
        let mut text = lines_of(&base[..3]);
        let prefix = r#"{"id":"evt-0004","tenantId":"contoso","userId": "#;
        let offset = text.len() + prefix.len();
        text.push_str(prefix);
        text.push_str(r#","type":"click","ts":"2026-11-01T10:04:00Z"}"#);
        text.push('\n');
        text.push_str(&lines_of(&base[4..6]));
        let (line, col) = line_col(text.as_bytes(), offset);
        assert_serde_position("syntax-error.ndjson", &text, line, col);
        cases.push(error_case(
            "syntax-error.ndjson",
            text,
            offset,
            "a document that is not valid JSON (a missing value)",
            "expected a value, found ','",
        ));
    }
    // Non-object documents: an array on line 3, a number on line 5.
    {
        let mut text = lines_of(&base[..2]);
        let offset = text.len();
        text.push_str("[\"evt-0003\",\"contoso\"]\n");
        text.push_str(&lines_of(&base[3..4]));
        text.push_str("42\n");
        text.push_str(&lines_of(&base[5..6]));
        let mut case = error_case(
            "not-an-object.ndjson",
            text,
            offset,
            "documents that are JSON but not objects (line 3 an array, line 5 a number)",
            "expected a JSON object (a document), found an array",
        );
        case.expected += "; with `--skip-invalid`: 4 documents, 2 invalid";
        case.json["skip_invalid"] = serde_json::json!({"documents": 4, "invalid": 2});
        cases.push(case);
    }
    // Truncated: the last document is cut inside a string, no final newline. The error
    // points at the string left open: its opening quote.
    {
        let mut text = lines_of(&base[..4]);
        let last = base[4].to_json();
        let quote = last.find("contoso").unwrap() - 1;
        let offset = text.len() + quote;
        text.push_str(&last[..quote + 5]);
        let mut case = error_case(
            "truncated.ndjson",
            text,
            offset,
            "a file cut in the middle of its fifth document (inside a string)",
            "unterminated string: the end of the line comes before the closing '\"'",
        );
        case.expected += "; with `--skip-invalid`: 4 documents, 1 invalid";
        case.json["skip_invalid"] = serde_json::json!({"documents": 4, "invalid": 1});
        cases.push(case);
    }
    // Truncated gzip: a valid member cut in the middle of its (stored) data.
    {
        let docs = base_events(40);
        let text = lines_of(&docs);
        let full = gzip_stored(text.as_bytes());
        let cut = full.len() * 3 / 5;
        let data_bytes = cut - 15; // 10 header bytes, 5 block header bytes
        let complete = text.as_bytes()[..data_bytes]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let shows = format!(
            "a gzip file cut at {} of its {} bytes: the stream ends inside document {} (no trailer)",
            thousands(cut as u128),
            thousands(full.len() as u128),
            complete + 1
        );
        cases.push(BadCase {
            file: "truncated.ndjson.gz".to_string(),
            content: full[..cut].to_vec(),
            shows,
            expected: format!(
                "exit 2, the error names the file and says the compressed stream ended early; \
                 {complete} complete documents precede the cut (the full stream holds 40)"
            ),
            json: serde_json::json!({"exit": 2, "error": "truncated gzip data: the compressed stream ends early", "complete_documents": complete, "compressed_bytes": cut}),
        });
    }
    // A key value that is an object (line 2) or an array (line 4).
    {
        let mut docs = base[..6].to_vec();
        docs[1].set("tenantId", obj! {"name": "contoso", "region": "westeurope"});
        docs[3].set("tenantId", strs(&["contoso", "fabrikam"]));
        cases.push(BadCase {
            file: "key-object-or-array.ndjson".to_string(),
            content: lines_of(&docs).into_bytes(),
            shows: "`/tenantId` holding an object (line 2) and an array (line 4)".to_string(),
            expected: "with `--key /tenantId`: `INVALID_KEY_VALUE` (violation), 2 of 6 documents (lines 2 and 4); `--key /userId` has no finding".to_string(),
            json: serde_json::json!({"key": "/tenantId", "finding": "INVALID_KEY_VALUE", "documents": 6, "affected": 2, "lines": [2, 4]}),
        });
    }
    // Numbers beyond 2^53.
    {
        let values = [
            "42",
            "9007199254740991",
            "9007199254740992",
            "9007199254740993",
            "-9007199254740993",
            "12345678901234567890",
            "1.5",
        ];
        let text: String = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                format!(
                    "{{\"id\":\"acct-{:02}\",\"accountId\":{v},\"tenantId\":\"contoso\",\"balance\":{}}}\n",
                    i + 1,
                    100 * i
                )
            })
            .collect();
        cases.push(BadCase {
            file: "number-beyond-2-53.ndjson".to_string(),
            content: text.into_bytes(),
            shows: "`/accountId` numbers: 2^53 - 1 and 2^53 (exact as doubles), 2^53 + 1, -(2^53 + 1) and 12345678901234567890 (beyond even u64)".to_string(),
            expected: "with `--key /accountId`: `UNSAFE_NUMBER` (warning) for 3 of 7 documents (lines 4, 5, 6: magnitude above 2^53); lines 3 and 4 have the same EPK (9007199254740993 rounds to 9007199254740992); the file parses without error".to_string(),
            json: serde_json::json!({"key": "/accountId", "finding": "UNSAFE_NUMBER", "documents": 7, "affected": 3, "lines": [4, 5, 6]}),
        });
    }
    // Key values over 2,048 bytes (violation) and over 101 bytes (warning).
    for (file, limit, severity, lines) in [
        (
            "key-over-2048-bytes.ndjson",
            2_048usize,
            "violation",
            [3, 4],
        ),
        ("key-over-101-bytes.ndjson", 101, "warning", [3, 4]),
    ] {
        let values = [
            "contoso".to_string(),
            "a".repeat(limit),
            "b".repeat(limit + 1),
            "é".repeat(limit / 2 + 1),
        ];
        let docs: Vec<J> = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                ev(
                    &format!("evt-{:04}", i + 1),
                    J::from(v),
                    "u-001",
                    "click",
                    i as i64,
                )
            })
            .collect();
        let longest = values.iter().map(String::len).max().unwrap();
        let chars = values[3].chars().count();
        cases.push(BadCase {
            file: file.to_string(),
            content: lines_of(&docs).into_bytes(),
            shows: format!(
                "`/tenantId` values of 7, {} (at the limit), {} and {} bytes (the last is {} characters of `é`: count bytes, not characters)",
                thousands(limit as u128),
                thousands(limit as u128 + 1),
                thousands(values[3].len() as u128),
                thousands(chars as u128)
            ),
            expected: format!(
                "with `--key /tenantId`: `KEY_TOO_LONG` ({severity}) for 2 of 4 documents (lines 3 and 4), longest value {} bytes{}",
                thousands(longest as u128),
                if limit == 2_048 { "; line 2 (2,048 bytes) is allowed with large partition keys" } else { "; no violation" }
            ),
            json: serde_json::json!({"key": "/tenantId", "finding": "KEY_TOO_LONG", "severity": severity, "documents": 4, "affected": 2, "lines": lines, "longest_bytes": longest}),
        });
    }
    // A duplicated id (in two tenants: legal for /tenantId, not for /id).
    {
        let mut docs = base[..6].to_vec();
        docs[4].set("id", J::from("evt-0002"));
        docs[4].set("tenantId", J::from("fabrikam"));
        cases.push(BadCase {
            file: "duplicate-id.ndjson".to_string(),
            content: lines_of(&docs).into_bytes(),
            shows: "id `evt-0002` on line 2 (tenant contoso) and line 5 (tenant fabrikam)".to_string(),
            expected: "with `--key /id`: `INVALID_KEY_VALUE` (violation), 1 duplicated id (lines 2 and 5); with `--key /tenantId`: no finding (ids are unique per logical partition)".to_string(),
            json: serde_json::json!({"key": "/id", "finding": "INVALID_KEY_VALUE", "documents": 6, "duplicate_ids": ["evt-0002"], "lines": [2, 5], "clean_keys": ["/tenantId"]}),
        });
    }
    // Valid documents for the log-only cases below.
    cases.push(BadCase {
        file: "base-docs.ndjson".to_string(),
        content: lines_of(&base).into_bytes(),
        shows: "8 valid documents (tenants contoso and fabrikam) to run the `*.queries.ndjson` logs against".to_string(),
        expected: "valid: 8 documents, no finding".to_string(),
        json: serde_json::json!({"documents": 8, "valid": true}),
    });
    // A transactional batch spanning two tenants.
    {
        let a = ev("evt-0101", J::from("contoso"), "u-001", "click", 101);
        let b = ev("evt-0102", J::from("contoso"), "u-001", "search", 102);
        let c = ev("evt-0103", J::from("contoso"), "u-002", "click", 103);
        let d = ev("evt-0104", J::from("fabrikam"), "u-002", "click", 104);
        let lines = [
            obj! {"op": "batch", "ts": "2026-11-01T12:00:00Z", "ops": vec![obj! {"op": "create", "doc": a}, obj! {"op": "upsert", "doc": b}]},
            obj! {"op": "query", "ts": "2026-11-01T12:00:01Z", "sql": "SELECT * FROM c WHERE c.tenantId = @t", "parameters": vec![obj! {"name": "@t", "value": "contoso"}]},
            obj! {"op": "batch", "ts": "2026-11-01T12:00:02Z", "ops": vec![
                obj! {"op": "create", "doc": c},
                obj! {"op": "create", "doc": d},
                obj! {"op": "delete", "id": "evt-0001", "known": obj! {"/tenantId": "contoso", "/userId": "u-002"}},
            ]},
        ];
        cases.push(BadCase {
            file: "cross-partition-batch.queries.ndjson".to_string(),
            content: lines_of(&lines).into_bytes(),
            shows: "a batch within one tenant and user (line 1) and a batch whose operations span tenants contoso and fabrikam (line 3)".to_string(),
            expected: "with `base-docs.ndjson` and `--key /tenantId`: `CROSS_PARTITION_TRANSACTION` (violation) for 1 batch (line 3); `--key /tenantId,/userId`: line 3 only (it spans two tenants); `--key /id`: lines 1 and 3".to_string(),
            json: serde_json::json!({"docs": "base-docs.ndjson", "finding": "CROSS_PARTITION_TRANSACTION", "lines": {"/tenantId": [3], "/tenantId,/userId": [3], "/id": [1, 3]}}),
        });
    }
    // An upsert that moves an item to another key value.
    {
        let order = |tenant: &str, status: &str| {
            obj! {"id": "order-77", "tenantId": tenant, "userId": "u-003", "type": "order", "status": status, "total": dec(4_990, 2)}
        };
        let lines = [
            obj! {"op": "create", "ts": "2026-11-01T12:00:00Z", "doc": order("contoso", "created")},
            obj! {"op": "read", "ts": "2026-11-01T12:00:05Z", "id": "order-77", "known": obj! {"/tenantId": "contoso"}},
            obj! {"op": "upsert", "ts": "2026-11-01T12:01:00Z", "doc": order("contoso", "paid")},
            obj! {"op": "upsert", "ts": "2026-11-01T12:02:00Z", "doc": order("fabrikam", "paid")},
        ];
        cases.push(BadCase {
            file: "key-updated.queries.ndjson".to_string(),
            content: lines_of(&lines).into_bytes(),
            shows: "item `order-77` created in tenant contoso, upserted in place (line 3), then upserted with tenant fabrikam (line 4)".to_string(),
            expected: "with `base-docs.ndjson` and `--key /tenantId`: `KEY_UPDATED` (warning) once (line 4; line 3 keeps its key); `--key /id` or `--key /userId`: no finding".to_string(),
            json: serde_json::json!({"docs": "base-docs.ndjson", "finding": "KEY_UPDATED", "lines": {"/tenantId": [4], "/id": [], "/userId": []}}),
        });
    }
    // A query log line that is not valid JSON (a trailing comma).
    {
        let good = query_text(
            "SELECT * FROM c WHERE c.tenantId = @t",
            &[("@t", J::from("contoso"))],
            3,
            Some("2026-11-01T12:00:00Z".to_string()),
            false,
        );
        let mut text = format!("{good}\nSELECT * FROM c WHERE c.tenantId = 'fabrikam'\n");
        let prefix = r#"{"op":"query","sql":"SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t","parameters":[{"name":"@t","value":"contoso"}],"count":2,"#;
        let offset = text.len() + prefix.len();
        text.push_str(prefix);
        text.push_str("}\n");
        let (line, col) = line_col(text.as_bytes(), offset);
        assert_serde_position("queries-syntax-error.ndjson", &text, line, col);
        cases.push(error_case(
            "queries-syntax-error.ndjson",
            text,
            offset,
            "a query log whose third line has a trailing comma (used with `--queries`)",
            "trailing comma",
        ));
    }
    // Deep nesting: must be refused (or skipped) without a stack overflow.
    {
        let depth = 10_000;
        let text = format!(
            "{{\"id\":\"deep\",\"tenantId\":\"contoso\",\"a\":{}{}}}\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        cases.push(BadCase {
            file: "deep-nesting.ndjson".to_string(),
            content: text.into_bytes(),
            shows: format!("one document nesting {} arrays", thousands(depth as u128)),
            expected: "no crash, no stack overflow: exit 2 with an error on line 1 saying the nesting limit was hit; with `--skip-invalid`: 0 documents, 1 invalid".to_string(),
            json: serde_json::json!({"exit": 2, "line": 1, "depth": depth, "skip_invalid": {"documents": 0, "invalid": 1}}),
        });
    }
    // Accepted quirks: a byte-order mark and CRLF line ends.
    {
        let mut text = "\u{feff}".to_string();
        for d in &base[..3] {
            text.push_str(&d.to_json());
            text.push_str("\r\n");
        }
        cases.push(BadCase {
            file: "accepted-bom-crlf.ndjson".to_string(),
            content: text.into_bytes(),
            shows: "a UTF-8 byte-order mark and CRLF line ends (valid input: the control case)"
                .to_string(),
            expected:
                "valid: 3 documents, 0 invalid, the first id is `evt-0001` (not `\\u{feff}evt…`)"
                    .to_string(),
            json: serde_json::json!({"documents": 3, "invalid": 0, "valid": true}),
        });
    }
    cases
}

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
    pkadvisor::report::columns::thousands(n as f64)
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
(`queries.ndjson`, the format of the README's "Query log format") per set, each built so that an
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
- **Routing** follows the README's query log section: a read is single-partition when its equalities (or a point
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

fn multitenant_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (_, contoso_docs, contoso_bytes) = st.top_value("/tenantId", 0);
    let (_, fabrikam_docs, fabrikam_bytes) = st.top_value("/tenantId", 1);
    let share = |b: u64| pct(b as f64 / st.doc_bytes as f64);
    let huge_docs = pct((contoso_docs + fabrikam_docs) as f64 / st.documents as f64);
    let huge_bytes = share(contoso_bytes + fabrikam_bytes);
    let tenant_limit = gb(st.max_container("/tenantId"));
    let at_500 = gb(500_000_000_000 * contoso_bytes as u128 / st.doc_bytes as u128);
    let users = st.distinct("/userId");
    let sessions = st.distinct("/sessionId");
    let tu = "/tenantId,/userId";
    let tus = "/tenantId,/userId,/sessionId";
    let (tu_share, tu_limit) = (pct(st.share(tu)), gb(st.max_container(tu)));
    let (tus_share, tus_limit) = (pct(st.share(tus)), gb(st.max_container(tus)));
    let user_fan = pct(st.fraction("/userId", 2));
    let session_fan = pct(st.fraction("/sessionId", 2));
    let type_limit = gb(st.max_container("/type"));
    let type_share = pct(st.share("/type"));
    let type_fan = pct(st.fraction("/type", 2));
    let batches = st.kinds.get(&Kind::Batch).map_or(0, |k| k.0);
    let id_batches = st.cand("/id").spanning_batches.unwrap_or(0);
    let type_batches = st.cand("/type").spanning_batches.unwrap_or(0);
    let (tenant_single, tu_single, tus_single, tus_targeted) = (
        pct(st.fraction("/tenantId", 0)),
        pct(st.fraction(tu, 0)),
        pct(st.fraction(tus, 0)),
        pct(st.fraction(tus, 1)),
    );
    let concat_fan = pct(st.fraction("concat(/tenantId,/userId)", 2));
    let tenant_writes = pct(st.cand("/tenantId").writes.unwrap().1);
    let prose = format!(
        r#"SaaS product analytics: one document per event (`login`, `page_view`, `click`, `search`,
`purchase`, `error`, `logout`) of a user's session within a tenant, with a nested `client`,
a type-specific nested `payload` (arrays of items, filters, a nested `geo`) and a `tags`
array; two weeks (2026-11-01 to 2026-11-14), written in time order. {tenants} tenants follow a
Zipf tail except the two customers that dwarf the rest: `contoso` has {contoso_docs} documents
({contoso_share} of bytes) and `fabrikam` {fabrikam_docs} ({fabrikam_share}), together
{huge_docs} of the documents and {huge_bytes} of the bytes. {users} users (UUIDs, unique
across tenants) and {sessions} sessions nest inside tenants.

The log is one hour of traffic (2026-11-15 09:00–10:00 UTC, every JSON line has `ts`): 100,000
weighted queries in the mix of the table below (60 / 25 / 10 / 5), with parameters, bracket
notation, `IN (...)`, `JOIN` over `c.tags`, `TOP`/`ORDER BY`/`GROUP BY`, and a few plain-text
`SELECT` lines with literals (one lower-case, one with double-quoted strings); 200 creates of
new events whose tenants and users are drawn in proportion to their size; and {batches}
transactional batches, each uploading the 3–5 events of one offline session (one tenant, one
user, one session).

**What the advisor should say.** The best key is hierarchical: `{tus}`, with `{tu}` as good
at the reference target; both must rank above every single-path and synthetic candidate.

- `/tenantId` is the natural guess and is wrong: `contoso` alone is {contoso_share} of the
  data, so its logical partition passes 20 GB once the container holds {tenant_limit} (at 500 GB
  it would hold {at_500}): `LOGICAL_PARTITION_LIMIT`. Queries and writes follow tenant size
  (in the log's hour {tenant_writes} of writes went to `contoso`), so the partitions of the two
  huge tenants take far more than their share of RU: `HOT_PARTITION`. Its routing is otherwise
  excellent ({tenant_single} single-partition), which is what makes it tempting.
- `/userId` spreads evenly (largest user {tu_share} of bytes) but the 25% tenant-wide queries
  and the 5% session and cross-tenant queries fan out: {user_fan} `FAN_OUT_QUERIES`.
- `/id` spreads perfectly, fans out every query, and makes all {id_batches} batches cross-partition
  transactions (their events have distinct ids): `CROSS_PARTITION_TRANSACTION`.
- `/sessionId`: {session_fan} of reads fan out.
- `/type` has 7 values, `{type_top}` is {type_share} of bytes (20 GB at {type_limit}), {type_fan} of
  reads fan out, and {type_batches} of {batches} batches mix event types.
- `concat(/tenantId,/userId)` has the same logical partitions as `{tu}` but a flat hash, so
  the tenant-wide queries cannot be targeted and fan out ({concat_fan}): what the hierarchical
  key buys over a synthetic one.
- The hierarchical keys route tenant-wide queries to the few partitions holding that tenant
  (targeted) and never fan out tenant traffic. `{tu}` makes tenant+user queries
  single-partition ({tu_single} single); `{tus}` makes them targeted prefixes, usually one
  partition ({tus_single} single, {tus_targeted} targeted). The largest (tenant, user) is
  {tu_share} of bytes, so `{tu}` reaches 20 GB at {tu_limit}; the largest session is
  {tus_share}, so `{tus}` only at {tus_limit}. At 500 GB both are clean; at 2 TB only the
  three-level key is.
"#,
        tenants = st.distinct("/tenantId"),
        type_top = st.top_value("/type", 0).0.trim_matches('"'),
        contoso_share = share(contoso_bytes),
        fabrikam_share = share(fabrikam_bytes),
    );
    let hand = vec![("/tenantId", "HOT_PARTITION")];
    (
        prose,
        vec![
            Verdict {
                target: "500GB",
                target_bytes: 500_000_000_000,
                best: vec![tus, tu],
                hand: hand.clone(),
            },
            Verdict {
                target: "2TB",
                target_bytes: 2_000_000_000_000,
                best: vec![tus],
                hand,
            },
        ],
    )
}

fn iot_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (top_date, date_docs, date_bytes) = st.top_value("/date", 0);
    let date_share = pct(date_bytes as f64 / st.doc_bytes as f64);
    let date_limit = gb(st.max_container("/date"));
    let date_worst = pct(st.cand("/date").writes.unwrap().1);
    let date_written = st.cand("/date").writes.unwrap().0;
    let vin_worst = pct(st.cand("/vin").writes.unwrap().1);
    let vin_written = st.cand("/vin").writes.unwrap().0;
    let creates = st.kinds.get(&Kind::Create).map_or(0, |k| k.0);
    let prose = format!(
        r#"Connected-vehicle telemetry: one reading per document (`vin`, `date`, `ts`, nested `vehicle`,
`position {{lat, lon, …}}`, `readings {{speed, rpm, fuel, temp, …}}`, a `dtc` array of fault
codes) from a fleet of {fleet} vehicles with valid 17-character VINs; {vins} of them appear in
this 30-day sample (2026-10-03 to 2026-11-01), and {long_haul} long-haul vehicles report five
times as often as the rest. Documents are in arrival order: the file order is `ts` order, and
`date` follows the clock. Weekdays carry 120–140 readings, weekends 70–85; the busiest day
({top_date}) has {date_docs} documents, {date_share} of bytes.

The log covers the next three days (2026-11-02 to 2026-11-04): {creates} creates in `ts`
order, each with the charge it was observed to cost (`ru`; a write's charge does not depend on
the key), and 50,000 weighted queries interleaved by time.

**What the advisor should say.** The best key is `/vin`.

- `/vin`: {vin_single} single-partition (the vin+date lookups and the vin history range);
  only the 10% daily reports fan out. Each day's writes spread over hundreds of vehicles
  ({vin_written} distinct values written; in the worst day one vin took {vin_worst}). The
  largest vehicle is {vin_share} of bytes ({vin_limit} before 20 GB).
- `/date` is the write hotspot the set is built to show: every create of a day lands in one
  logical partition ({date_worst} of a window's writes on one value; the three days of the log
  write {date_written} values), so however many partitions the container has, it writes into
  one: `WRITE_HOTSPOT`. {date_distinct} values: `LOW_CARDINALITY`. A day is up to
  {date_share} of bytes, past 20 GB at {date_limit}: `LOGICAL_PARTITION_LIMIT` at 1 TB. Its
  reads look fine ({date_single} single-partition), which is the trap.
- `hash_suffix(/date,/vin,400)` removes the hotspot (a day's writes spread over 400 values)
  and keeps vin+date lookups single-partition (both inputs known), but the vin history (20%)
  and the daily reports (10%) fan out ({hash_fan}); the daily report would have to visit all
  400 suffixes of its date. `concat(/vin,/date)` behaves the same for reads ({concat_fan}
  fan-out) with no hash to choose. Both are acceptable, second to `/vin` for this read mix.
- `rand_suffix(/date,400)` spreads writes but no read knows the suffix: 100% fan-out.
- `/id`: 100% fan-out. `/fleetId` ({fleets} values) and the nested `/vehicle/make`
  ({makes} values, the largest {make_share} of bytes) are low-cardinality and fan out every
  query.
"#,
        fleet = thousands(IOT_VEHICLES as u128),
        vins = thousands(st.distinct("/vin") as u128),
        long_haul = IOT_LONG_HAUL,
        vin_single = pct(st.fraction("/vin", 0)),
        vin_share = pct(st.share("/vin")),
        vin_limit = gb(st.max_container("/vin")),
        date_distinct = st.distinct("/date"),
        date_single = pct(st.fraction("/date", 0)),
        hash_fan = pct(st.fraction("hash_suffix(/date,/vin,400)", 2)),
        concat_fan = pct(st.fraction("concat(/vin,/date)", 2)),
        fleets = st.distinct("/fleetId"),
        makes = st.distinct("/vehicle/make"),
        make_share = pct(st.share("/vehicle/make")),
    );
    (
        prose,
        vec![Verdict {
            target: "1TB",
            target_bytes: 1_000_000_000_000,
            best: vec!["/vin"],
            hand: vec![("/date", "WRITE_HOTSPOT")],
        }],
    )
}

fn profiles_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (_, us_docs, us_bytes) = st.top_value("/country", 0);
    let prose = format!(
        r#"User profiles of a consumer app: one document per user, `id` equal to `userId` (a UUID),
with `email` (unique, all at `example.*` domains), `displayName` (some non-ASCII), `country`,
`plan`, nested `preferences` (with nested `notifications`) and a `devices` array; sorted by
`createdAt` (2019–2026). `country` is skewed: the US has {us_docs} of {docs} users
({us_share} of bytes) among {countries} countries; `plan` more so (`free` {free_share}).

The log is one day (2026-11-20, every line has `ts`): 90,000 point reads by id whose `known`
holds `/id` and `/userId`, 10,000 queries by email or country (one shape with
`c.country IN (...)`), and writes: 12,000 weighted last-login patches, 60 preference upserts
(same id, same key value) and 40 sign-ups.

**What the advisor should say.** The best key is `/id`, tied with `/userId` (the same value):
point reads are single-partition ({id_single} of reads), the spread is perfect (one document per
value), and nothing is hot. The 10% of reads by email or country fan out, which is the right
trade.

- `/country`: {countries} values (`LOW_CARDINALITY`), the US is {us_share} of bytes and passes
  20 GB at {country_limit} (`LOGICAL_PARTITION_LIMIT` at 100 GB), and the point reads do not
  know the country, so {country_fan} of reads fan out (`FAN_OUT_QUERIES`).
- `/plan`: 4 values, `free` is {free_share} of bytes (20 GB at {plan_limit}), {plan_fan} fan-out.
- `/email`: unique and even, but point reads know only the id: {email_fan} fan-out.
- `/country,/userId`: a hierarchical key whose first level the point reads do not know:
  {hier_fan} fan-out despite a perfect spread.
"#,
        docs = thousands(st.documents as u128),
        us_share = pct(us_bytes as f64 / st.doc_bytes as f64),
        countries = st.distinct("/country"),
        free_share = pct(st.share("/plan")),
        id_single = pct(st.fraction("/id", 0)),
        country_limit = gb(st.max_container("/country")),
        country_fan = pct(st.fraction("/country", 2)),
        plan_limit = gb(st.max_container("/plan")),
        plan_fan = pct(st.fraction("/plan", 2)),
        email_fan = pct(st.fraction("/email", 2)),
        hier_fan = pct(st.fraction("/country,/userId", 2)),
    );
    (
        prose,
        vec![Verdict {
            target: "100GB",
            target_bytes: 100_000_000_000,
            best: vec!["/id", "/userId"],
            hand: vec![],
        }],
    )
}

fn nutrition_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (top, top_docs, top_bytes) = st.top_value("/foodGroup", 0);
    let prose = format!(
        r#"A food catalogue shaped like the USDA nutrient database sample that Microsoft uses in the
Cosmos DB documentation: {docs} foods in the {groups} USDA food groups (their real names and
group codes; ids are 5-digit NDB-style numbers that start with the group code). Each item has
`description`, a `tags` array of `{{name}}`, `version`, `foodGroup`, a `nutrients` array of
`{{id, description, nutritionValue, units}}` (standard nutrient numbers, generated values) and a
`servings` array. Groups are skewed: {top} has {top_docs} items ({top_doc_share} of items,
{top_share} of bytes), the smallest group 5. The file is sorted by id, so it is grouped by
food group.

The log holds reads only and no times, as for a catalogue loaded once and then browsed: with
no writes in the log, the advisor counts each document as one create in file order. Queries
by `foodGroup` (45%, plus 5% by group and tag), point reads whose `known` holds only `/id`
(30%), `c.id = @id` queries (5%), and tag lookups through `ARRAY_CONTAINS` or `JOIN` (15%).
Two traps for a query parser: in `JOIN n IN c.nutrients WHERE c.foodGroup = @foodGroup AND
n.id = '203'`, `n.id` is the nutrient's id, not the item's, so the query does not fix `/id`;
and `t.name = @tag` over `JOIN t IN c.tags` fixes no key path at all.

**What the advisor should say.** It depends on size, and the report must say so.

- At the catalogue's real size (the full USDA set is about 8,800 items, some 15 MB), the
  container is one physical partition: nothing really fans out and no key breaks a limit.
  `/foodGroup` still raises `LOW_CARDINALITY` ({groups} values) but has no violation and the
  most single-partition reads ({group_single} against {id_single} for `/id`); `/id` is just as
  acceptable. Either may rank first at 1 GB.
- At 500 GB `/foodGroup` breaks: {top} reaches 20 GB once the container holds {group_limit}
  (`LOGICAL_PARTITION_LIMIT`), its storage skew is severe, and the id reads and tag lookups
  still fan out ({group_fan}). `/id` fans out the group queries ({id_fan} of reads fan out:
  `FAN_OUT_QUERIES`) but can never break a limit, so it ranks first.
- Replayed in file order (by id, hence group by group), writes arrive one food group at a
  time: an advisor may also report `WRITE_HOTSPOT` for `/foodGroup` (not required).
- `/version` (2 values) and `/description` (unique but never queried by equality: 100%
  fan-out) are obviously wrong.
"#,
        docs = st.documents,
        groups = st.distinct("/foodGroup"),
        top_doc_share = pct(top_docs as f64 / st.documents as f64),
        top_share = pct(top_bytes as f64 / st.doc_bytes as f64),
        group_single = pct(st.fraction("/foodGroup", 0)),
        id_single = pct(st.fraction("/id", 0)),
        group_limit = gb(st.max_container("/foodGroup")),
        group_fan = pct(st.fraction("/foodGroup", 2)),
        id_fan = pct(st.fraction("/id", 2)),
    );
    (
        prose,
        vec![
            Verdict {
                target: "1GB",
                target_bytes: 1_000_000_000,
                best: vec!["/id", "/foodGroup"],
                hand: vec![],
            },
            Verdict {
                target: "500GB",
                target_bytes: 500_000_000_000,
                best: vec!["/id"],
                hand: vec![],
            },
        ],
    )
}
