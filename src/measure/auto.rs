//! Candidate generation when no `--key` is given, as an expert would try them: from the
//! query log, the sets of properties queries and point reads fix by equality (single keys,
//! hierarchical chains in the order queries nest their filters, `/id` as a last level under
//! a chain or a filtered property whose values could pass 20 GB, `concat` of the most
//! co-filtered pair, `hash_suffix` of a clock-like low-cardinality key by a co-filtered
//! high-cardinality one, and for a value that is hot in the log's writes or could pass
//! 20 GB a `hash_suffix` of it and a hierarchical key that spreads it); from the documents,
//! `/id` and high-cardinality evenly spread
//! properties — but only those some logged read filters by when the log has reads, only
//! id-like ones without reads (see [`Property`]), and never values over 101 bytes. Each
//! candidate says why it is here.

use std::collections::{BTreeMap, BTreeSet};

use super::candidate::Candidate;
use super::discover::{Discovery, Property};
use crate::engine::{KeyPath, Limits};
use crate::key::{KeyLevel, KeySpec};
use crate::log::{Log, OpKind};
use crate::stats::V1_VALUE_LIMIT;

/// Default number of candidates generated.
pub const DEFAULT_AUTO: usize = 20;
/// A hierarchy level below the first needs at least this many values in the first
/// documents.
const MIN_LEVEL_VALUES: usize = 10;

/// What the generator knows.
pub struct Inputs<'a> {
    /// The first documents.
    pub discovery: &'a Discovery,
    /// The query log.
    pub log: Option<&'a Log>,
    /// Target storage, to judge whether a value could pass 20 GB.
    pub target_bytes: u64,
    /// Physical partitions at the target.
    pub partitions: usize,
    /// For each read-filtered path, its most written value's share of the log's writes
    /// (see [`write_tops`]).
    pub write_tops: BTreeMap<KeyPath, f64>,
}

/// The most paths whose written values are counted for hot values.
const MAX_HOT_PATHS: usize = 8;

/// The paths the log's reads filter by equality, most filtered first (at most eight).
pub fn filtered_paths(log: &Log) -> Vec<KeyPath> {
    let f = filters(log);
    let mut paths: Vec<(&KeyPath, f64)> = f.path.iter().map(|(p, w)| (p, *w)).collect();
    paths.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    (paths.into_iter().take(MAX_HOT_PATHS))
        .map(|(p, _)| p.clone())
        .collect()
}

/// For each of `paths` (the fields `log` extracted, in order), the share of the log's
/// writes (weighted by `count`) that its most written value takes.
pub fn write_tops(log: &Log, paths: &[KeyPath]) -> BTreeMap<KeyPath, f64> {
    let mut counts: Vec<BTreeMap<String, u64>> = vec![BTreeMap::new(); paths.len()];
    let mut total = 0u64;
    for op in &log.ops {
        let (OpKind::Create(w) | OpKind::Upsert(w) | OpKind::Replace(w)) = &op.kind else {
            continue;
        };
        total = total.saturating_add(op.count);
        for (i, field) in w.fields.iter().enumerate().take(paths.len()) {
            if let crate::log::op::OwnedField::Scalar(v) = field {
                let e = counts[i].entry(format!("{v:?}")).or_default();
                *e = e.saturating_add(op.count);
            }
        }
    }
    (paths.iter().zip(counts))
        .map(|(p, c)| {
            let top = c.values().copied().max().unwrap_or(0);
            (p.clone(), top as f64 / total.max(1) as f64)
        })
        .collect()
}

/// Read filters of the log: weight per path and per set of co-filtered paths.
#[derive(Default)]
struct Filters {
    total: f64,
    path: BTreeMap<KeyPath, f64>,
    sets: BTreeMap<BTreeSet<KeyPath>, f64>,
}

fn filters(log: &Log) -> Filters {
    let mut f = Filters::default();
    for op in &log.ops {
        let w = op.count as f64;
        let sets: Vec<BTreeSet<KeyPath>> = match &op.kind {
            OpKind::Query(x) => {
                x.constraints
                    .alternatives()
                    .map_or(vec![BTreeSet::new()], |alts| {
                        alts.iter()
                            .map(|c| c.iter().map(|(p, _)| p.clone()).collect())
                            .collect()
                    })
            }
            OpKind::Read(p) => vec![p.known.iter().map(|(k, _)| k.clone()).collect()],
            _ => continue,
        };
        f.total += w;
        let share = w / sets.len().max(1) as f64;
        for set in sets {
            for p in &set {
                *f.path.entry(p.clone()).or_default() += share;
            }
            *f.sets.entry(set).or_default() += share;
        }
    }
    f
}

impl Filters {
    /// Weight of reads whose filters include all of `paths`.
    fn with_all(&self, paths: &[&KeyPath]) -> f64 {
        self.sets
            .iter()
            .filter(|(s, _)| paths.iter().all(|p| s.contains(*p)))
            .map(|(_, w)| w)
            .sum()
    }

    /// The paths most often filtered together with `chain` (each in at least 10% of the
    /// chain's reads), most frequent first.
    fn next(&self, chain: &[&KeyPath]) -> Vec<KeyPath> {
        let base = if chain.is_empty() {
            self.total
        } else {
            self.with_all(chain)
        };
        let mut options: Vec<(&KeyPath, f64)> = self
            .path
            .keys()
            .filter(|p| !chain.contains(p))
            .map(|p| {
                let mut with = chain.to_vec();
                with.push(p);
                (p, self.with_all(&with))
            })
            .filter(|(_, w)| *w > 0.0 && *w >= 0.1 * base)
            .collect();
        options.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        options.into_iter().map(|(p, _)| p.clone()).collect()
    }

    fn pct(&self, paths: &[&KeyPath]) -> f64 {
        100.0 * self.with_all(paths) / self.total.max(1e-9)
    }
}

struct Out {
    list: Vec<Candidate>,
    /// Other bucket counts of a generated `hash_suffix` (see [`hot_values`]): measured
    /// beside it, outside the limit, and only the best ranked of them is reported (see
    /// [`crate::advisor::rank::keep_cheapest_buckets`]).
    variants: Vec<Candidate>,
}

impl Out {
    fn push(&mut self, levels: Vec<KeyLevel>, origin: String) {
        if let Ok(spec) = KeySpec::new(levels)
            && !self.list.iter().any(|c| c.spec == spec)
        {
            (self.list).push(
                Candidate::new(spec, origin).with_role(crate::report::model::Role::Generated),
            );
        }
    }

    fn push_variant(&mut self, levels: Vec<KeyLevel>, origin: String) {
        if let Ok(spec) = KeySpec::new(levels)
            && !self
                .list
                .iter()
                .chain(&self.variants)
                .any(|c| c.spec == spec)
        {
            (self.variants).push(
                Candidate::new(spec, origin).with_role(crate::report::model::Role::Generated),
            );
        }
    }
}

fn path_level(p: &KeyPath) -> KeyLevel {
    KeyLevel::Path(p.clone())
}

/// Generates at most `limit` candidates, and beside them the other bucket counts of the
/// hot values' suffixes among them (see `hot_values`).
pub fn generate(inp: &Inputs<'_>, limit: usize) -> Vec<Candidate> {
    let mut out = Out {
        list: Vec::new(),
        variants: Vec::new(),
    };
    if let Some(log) = inp.log {
        from_log(inp, &filters(log), &mut out);
    }
    from_documents(inp, &mut out);
    // Cosmos DB requires an id in every item: where documents lack one, a key on it would
    // be measured on values the loader has yet to write.
    if missing_ids(inp.discovery).is_some() {
        out.list.retain(|c| !mentions_id(&c.spec));
    }
    out.list.truncate(limit);
    // A variant goes with the suffix it is a variant of (the same paths and origin).
    let kept = |v: &Candidate| {
        (out.list.iter()).any(|c| c.origin == v.origin && same_suffix(&c.spec, &v.spec))
    };
    let variants: Vec<Candidate> = out.variants.iter().filter(|v| kept(v)).cloned().collect();
    out.list.extend(variants);
    out.list
}

/// Whether `a` and `b` are one `hash_suffix` of the same paths (of any bucket count).
pub fn same_suffix(a: &KeySpec, b: &KeySpec) -> bool {
    match (a.levels(), b.levels()) {
        (
            [KeyLevel::HashSuffix { path, by, .. }],
            [KeyLevel::HashSuffix { path: p, by: q, .. }],
        ) => path == p && by == q,
        _ => false,
    }
}

/// What to say when documents read for discovery lack `id`, which Cosmos DB requires in
/// every item.
pub fn missing_ids(d: &super::discover::Discovery) -> Option<String> {
    let present = d.paths.get(&id_path()).map_or(0, |s| s.present);
    let missing = (d.len() as u64).saturating_sub(present);
    (missing > 0).then(|| {
        format!(
            "{missing} of the first {} documents have no id: Cosmos DB requires one in every item (the loader must add it); /id is not offered as a candidate",
            d.len()
        )
    })
}

/// What to say of each path the log's reads filter by that none of the documents read for
/// discovery holds (a misspelt or placeholder path: its reads find nothing under any key).
pub fn unheld_filters(d: &Discovery, log: &Log) -> Vec<String> {
    if d.is_empty() {
        return Vec::new();
    }
    let f = filters(log);
    (f.path.keys())
        .filter(|p| !d.paths.contains_key(*p))
        .map(|p| {
            format!(
                "the log filters by {p}, which none of the first {} documents holds: check the path (such reads find nothing, and no key can serve them)",
                d.len()
            )
        })
        .collect()
}

/// Whether `spec` has `/id` as a path of any level.
fn mentions_id(spec: &KeySpec) -> bool {
    let text = spec.to_string();
    text.split([',', '(', ')']).any(|t| t == "/id")
}

fn from_log(inp: &Inputs<'_>, f: &Filters, out: &mut Out) {
    if f.total <= 0.0 {
        return;
    }
    // Below the first level, a property of a handful of values divides nothing: a
    // hierarchy is built of the co-filtered properties that do.
    let divides = |p: &KeyPath| {
        inp.discovery
            .paths
            .get(p)
            .is_none_or(|s| s.distinct >= MIN_LEVEL_VALUES)
    };
    let mut chain: Vec<KeyPath> = Vec::new();
    while chain.len() < 2 {
        let refs: Vec<&KeyPath> = chain.iter().collect();
        let next = f
            .next(&refs)
            .into_iter()
            .find(|p| chain.is_empty() || divides(p));
        match next {
            Some(p) => chain.push(p),
            None => break,
        }
    }
    let refs: Vec<&KeyPath> = chain.iter().collect();
    let thirds: Vec<KeyPath> = if chain.len() == 2 {
        f.next(&refs).into_iter().filter(|p| divides(p)).collect()
    } else {
        Vec::new()
    };
    // The two most co-filtered third levels: frequency alone may pick a low-cardinality
    // property where the nesting one (a session under its user) is the better level.
    for third in thirds.iter().take(2) {
        let full = [chain.clone(), vec![third.clone()]].concat();
        out.push(
            full.iter().map(path_level).collect(),
            chain_origin(f, &full),
        );
    }
    if chain.len() == 2 {
        out.push(
            chain.iter().map(path_level).collect(),
            chain_origin(f, &chain),
        );
        if could_pass_limit(inp, &chain) && !is_id(&chain[1]) {
            let mut levels: Vec<KeyLevel> = chain.iter().map(path_level).collect();
            levels.push(path_level(&id_path()));
            let why = format!(
                "/id as a last level: a value of {} could pass 20 GB at the target",
                names(&chain)
            );
            out.push(levels, why);
        }
    }
    singles(f, out);
    with_id(inp, f, out);
    if chain.len() == 2 {
        let why = format!(
            "synthetic key of the most co-filtered pair: {}",
            chain_origin(f, &chain)
        );
        out.push(vec![KeyLevel::Concat(chain.clone())], why);
    }
    hash_suffix(inp, f, out);
    hot_values(inp, f, out);
}

/// A value is hot when its share of the writes is at least this many times a physical
/// partition's even share.
const HOT_VALUE_SHARES: f64 = 2.0;

/// For each filtered property with a hot written value (see [`HOT_VALUE_SHARES`]) or a
/// value that could pass 20 GB, what an expert would propose: a `hash_suffix` of it by its
/// most co-filtered high-cardinality property (else `/id`), with enough buckets that the
/// hot value's share of each is below a partition's, and the hierarchical key that spreads
/// it the same way. Ranking keeps them where they are cheaper.
fn hot_values(inp: &Inputs<'_>, f: &Filters, out: &mut Out) {
    let parts = inp.partitions.max(1) as f64;
    for (p, share) in &inp.write_tops {
        let hot = share * parts >= HOT_VALUE_SHARES && *share > 0.0;
        if is_id(p) || !(hot || could_pass_limit(inp, std::slice::from_ref(p))) {
            continue;
        }
        let by = spreader(inp, f, p);
        // Enough buckets that the hot value's writes fall below a partition's share, and
        // that its bytes at the target fall to a quarter of the 20 GB limit per bucket.
        let docs = inp.discovery.len().max(1) as f64;
        let top = (inp.discovery.paths.get(p)).map_or(0.0, |s| s.top_count as f64 / docs);
        let quarter_limit = Limits::default().logical_bytes as f64 / 4.0;
        let by_bytes = top * inp.target_bytes as f64 / quarter_limit;
        let n = ((share * parts * 4.0).max(by_bytes).ceil() as u32)
            .next_power_of_two()
            .clamp(8, 1024);
        // Fewer buckets cost a read of the value fewer partitions; how few its writes
        // allow is the replay's to say: a half and a quarter of n are measured too, none
        // under what its bytes need.
        let least = (by_bytes.ceil() as u32).next_power_of_two().max(8);
        let why = match hot {
            true => format!(
                "{p}'s busiest value takes {:.1}% of the logged writes, {:.1}× a partition's even share: spread it by {by}",
                share * 100.0,
                share * parts
            ),
            false => format!("a value of {p} could pass 20 GB at the target: spread it by {by}"),
        };
        let suffix = |n: u32| {
            vec![KeyLevel::HashSuffix {
                path: p.clone(),
                by: by.clone(),
                n,
            }]
        };
        out.push(suffix(n), why.clone());
        for fewer in [n / 2, n / 4].into_iter().filter(|&m| m >= least) {
            out.push_variant(suffix(fewer), why.clone());
        }
        out.push(vec![path_level(p), path_level(&by)], why);
    }
}

/// The property that spreads `p`'s values: the most co-filtered one with many values, else
/// `/id`.
fn spreader(inp: &Inputs<'_>, f: &Filters, p: &KeyPath) -> KeyPath {
    let many = |q: &KeyPath| {
        (inp.discovery.paths.get(q))
            .is_some_and(|s| s.distinct >= 100.max(inp.discovery.len() / 10))
    };
    (f.next(&[p]).into_iter())
        .find(|q| !is_id(q) && many(q))
        .unwrap_or_else(id_path)
}

/// Every path filtered by equality in at least 5% of reads, most filtered first.
fn singles(f: &Filters, out: &mut Out) {
    let mut singles: Vec<(&KeyPath, f64)> = f.path.iter().map(|(p, w)| (p, *w)).collect();
    singles.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    for (p, w) in singles.into_iter().filter(|(_, w)| *w >= 0.05 * f.total) {
        let why = format!(
            "filtered by equality in {:.0}% of reads",
            100.0 * w / f.total
        );
        out.push(vec![path_level(p)], why);
    }
}

/// `/p,/id` for every property filtered in at least 5% of reads whose values could pass
/// 20 GB at the target: prefix queries on `/p` stay targeted, and no value is too large.
fn with_id(inp: &Inputs<'_>, f: &Filters, out: &mut Out) {
    let mut filtered: Vec<(&KeyPath, f64)> = f.path.iter().map(|(p, w)| (p, *w)).collect();
    filtered.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    for (p, w) in filtered.into_iter().filter(|(_, w)| *w >= 0.05 * f.total) {
        if is_id(p) || !could_pass_limit(inp, std::slice::from_ref(p)) {
            continue;
        }
        let why = format!(
            "/id under {p}: filtered by equality in {:.0}% of reads, and one of its values could pass 20 GB at the target",
            100.0 * w / f.total
        );
        out.push(vec![path_level(p), path_level(&id_path())], why);
    }
}

/// "hierarchical chain from the query log: /a in 95% of reads, /a+/b in 70% ...".
fn chain_origin(f: &Filters, chain: &[KeyPath]) -> String {
    let parts: Vec<String> = (1..=chain.len())
        .map(|k| {
            let refs: Vec<&KeyPath> = chain[..k].iter().collect();
            let names: Vec<String> = refs.iter().map(|p| p.to_string()).collect();
            format!("{} in {:.0}% of reads", names.join("+"), f.pct(&refs))
        })
        .collect();
    format!(
        "hierarchical chain from the query log: {}",
        parts.join(", ")
    )
}

fn hash_suffix(inp: &Inputs<'_>, f: &Filters, out: &mut Out) {
    let d = inp.discovery;
    let low = |p: &KeyPath| {
        d.paths.get(p).is_some_and(|s| {
            // A period is a clock reading by its values (dates, months), whatever order
            // the file is in; runs of one value say so of values that are not dates.
            let clock = (s.repeats.max(s.dates)) as f64 >= 0.5 * s.present as f64;
            s.distinct < 100.max(10 * inp.partitions) && (clock || s.top_count * 5 > s.present)
        })
    };
    let high = |p: &KeyPath| {
        d.paths
            .get(p)
            .is_some_and(|s| s.distinct >= 100.max(d.len() / 10))
    };
    for (hot, _) in f.path.iter().filter(|(p, _)| low(p)) {
        let partner = f
            .path
            .keys()
            .filter(|q| *q != hot && high(q) && f.with_all(&[hot, q]) > 0.0)
            .max_by(|a, b| {
                f.with_all(&[hot, a])
                    .total_cmp(&f.with_all(&[hot, b]))
                    .then_with(|| b.cmp(a))
            });
        if let Some(by) = partner {
            let n = (10 * inp.partitions).clamp(10, 1000) as u32;
            out.push(
                vec![KeyLevel::HashSuffix { path: hot.clone(), by: by.clone(), n }],
                format!("{hot} is low-cardinality and write-hot; spread it by {by}, co-filtered in {:.0}% of reads", f.pct(&[hot, by])),
            );
        }
    }
}

fn from_documents(inp: &Inputs<'_>, out: &mut Out) {
    let d = inp.discovery;
    // With logged reads, a property none of them filters by would fan every one out.
    let read_filters = inp.log.map(filters).filter(|f| f.total > 0.0);
    let id = id_path();
    if d.paths.contains_key(&id) {
        out.push(
            vec![path_level(&id)],
            "/id: unique per item, reads by id are single-partition".to_owned(),
        );
    }
    // A property no read filters by is proposed only when it is id-like: free text,
    // measurements, booleans and timestamps are never keys unless the log filters on them.
    let mut paths: Vec<(&KeyPath, usize)> = d
        .paths
        .iter()
        .filter(|(p, s)| {
            **p != id
                && d.presence(p) >= 0.95
                && s.fractional == 0
                && s.distinct >= 100.min(d.len() / 2).max(2)
                && (s.top_count as f64) < 0.1 * s.present as f64
                && s.longest <= V1_VALUE_LIMIT + 2
                && match read_filters.as_ref() {
                    Some(f) => f.path.contains_key(*p),
                    None => s.property(p) == Property::IdLike,
                }
        })
        .map(|(p, s)| (p, s.distinct))
        .collect();
    paths.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    for (p, distinct) in paths.into_iter().take(6) {
        let why = match read_filters {
            Some(_) => "a property the reads filter by",
            None => "an id-like property (no read filters by any property)",
        };
        out.push(
            vec![path_level(p)],
            format!(
                "{why}: {distinct} distinct values in the first {} documents, none above 10%",
                d.len()
            ),
        );
    }
}

/// Whether the largest combination of `chain`'s values in the first documents, scaled to
/// the target, passes the logical-partition limit.
fn could_pass_limit(inp: &Inputs<'_>, chain: &[KeyPath]) -> bool {
    let d = inp.discovery;
    let mut counts: BTreeMap<Vec<String>, u64> = BTreeMap::new();
    for doc in d.docs() {
        let key: Vec<String> = chain.iter().map(|p| value_at(&doc, p)).collect();
        *counts.entry(key).or_default() += 1;
    }
    let top = counts.values().copied().max().unwrap_or(0) as f64;
    top / d.len().max(1) as f64 * inp.target_bytes as f64 > Limits::default().logical_bytes as f64
}

fn value_at(doc: &serde_json::Value, p: &KeyPath) -> String {
    p.segments()
        .iter()
        .try_fold(doc, |v, s| v.get(s))
        .map_or("undefined".to_owned(), |v| v.to_string())
}

fn id_path() -> KeyPath {
    KeyPath::from_segments(["id"])
}

fn is_id(p: &KeyPath) -> bool {
    p.segments() == ["id"]
}

fn names(chain: &[KeyPath]) -> String {
    let n: Vec<String> = chain.iter().map(|p| p.to_string()).collect();
    format!("({})", n.join(", "))
}
