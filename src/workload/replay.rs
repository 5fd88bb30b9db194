//! Replays a workload against one candidate's container, in time windows: the logged
//! operations, and the sample documents as creates when the log holds no writes. Each
//! operation is routed, charged by the cost model to the partitions it reaches, and counted
//! as single-partition, targeted or fan-out. Write spread is judged apart, over short runs
//! of consecutive writes ([`super::spread`]).

use rustc_hash::FxHashMap;

use super::cost;
use super::log::Log;
use super::op::{OpKind, Operation, PointOp, WriteOp};
use super::route::{self, Reach, RouteClass};
use super::spread::{Runs, block_spread, random_reach};
use crate::engine::epk::boundary_at;
use crate::engine::epk::slice_of_epk;
use crate::engine::{Container, Epk, PartitionKeyDefinition};
use crate::field::Field;
use crate::key::{KeySpec, KeyValue, Scratch};
use crate::stats::Blocks;
use crate::stats::arrival::{Arrival, SLICES};
use crate::stats::value_hash;

/// At most this many windows.
pub const MAX_WINDOWS: usize = 32;
/// Operations per physical partition a window should hold at least: fewer, and counting
/// noise alone would make partitions look hot.
pub const OPS_PER_PARTITION: u64 = 200;

/// What replaying the workload found for one candidate (operations weighted by `count`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkloadStats {
    /// Read operations (queries and point reads).
    pub reads: u64,
    /// Reads reaching one key value.
    pub single: u64,
    /// Reads reaching prefixes or sets of values.
    pub targeted: u64,
    /// Reads reaching every partition.
    pub fan_out: u64,
    /// Physical partitions reached, summed over reads.
    pub partitions_reached: u64,
    /// Write operations (logged, or sample documents as creates).
    pub writes: u64,
    /// Whether the writes are the sample documents (the log had none).
    pub writes_from_sample: bool,
    /// Writes that change an item's key value under the same id.
    pub key_updated: u64,
    /// Batches whose operations span several logical partitions.
    pub cross_partition_batches: u64,
    /// Batches seen.
    pub batches: u64,
    /// Over runs of a few hundred consecutive writes, the physical partitions they reach
    /// relative to what the same writes placed at random would reach (1.0: as spread as
    /// chance; near 0: one partition at a time).
    pub write_spread: f64,
    /// Total RU charged.
    pub ru: f64,
    /// RU charged to reads.
    pub read_ru: f64,
    /// RU that reads visiting every partition spend on partitions beyond the first.
    pub fan_out_ru: f64,
    /// Over the whole replay: partitions × the hottest partition's RU. Provisioned RU/s
    /// divide evenly, so this is what the key needs provisioned for the workload's mix
    /// (logged operations only when there is a log; else the sample's documents as
    /// creates).
    pub need_ru: f64,
    /// The same for an ideal key: its single-partition charges, spread perfectly.
    pub ideal_need_ru: f64,
    /// The ideal RU of the busiest window (by ideal RU, the same for every key): the
    /// workload's peak, for RU/s.
    pub peak_ideal_ru: f64,
    /// The RU counted in `need_ru`, all partitions together.
    pub counted_ru: f64,
    /// Seconds per replay window, when every logged operation has a timestamp (rates are
    /// known).
    pub window_seconds: Option<f64>,
    /// Per logged operation (in log order): the RU its reads were charged (times `count`)
    /// and whether any of them visited every partition. Writes: zero.
    pub per_op: Vec<OpCharge>,
    /// The worst window's usable fraction relative to what the same operations placed at
    /// random would allow (1.0: no hotter than chance).
    pub usable_relative: f64,
}

impl WorkloadStats {
    /// Fraction of reads in a class.
    pub fn fraction(&self, n: u64) -> f64 {
        if self.reads == 0 {
            0.0
        } else {
            n as f64 / self.reads as f64
        }
    }

    /// Physical partitions reached per read.
    pub fn avg_partitions(&self) -> f64 {
        if self.reads == 0 {
            0.0
        } else {
            self.partitions_reached as f64 / self.reads as f64
        }
    }
}

/// What one logged operation's reads cost under a key.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OpCharge {
    /// RU charged to its reads, times its `count` (single precision: eight bytes an
    /// operation and candidate).
    pub ru: f32,
    /// Its reads, times its `count` (a weight: single precision is plenty for shares).
    pub reads: f32,
    /// Whether a read of it visited every physical partition (of more than one).
    pub everywhere: bool,
}

/// A candidate, as the replay needs it.
pub struct Subject<'a> {
    /// The key.
    pub spec: &'a KeySpec,
    /// Its definition.
    pub definition: &'a PartitionKeyDefinition,
    /// For each of the spec's inputs, its index among the log's extracted paths.
    pub inputs: &'a [usize],
    /// Seed for random suffixes.
    pub seed: u64,
    /// The client-side layout the candidate is, when it is one: operations are routed by its
    /// resolver.
    pub layout: Option<&'a crate::key::Layout>,
}

/// The sample documents, as the replay needs them.
pub struct Sample<'a> {
    /// Their arrival windows.
    pub arrival: &'a Arrival,
    /// Their blocks of consecutive documents.
    pub blocks: &'a Blocks,
    /// Their mean size in bytes.
    pub avg_doc: f64,
    /// How many key values receive writes at one moment, when known: at production rates
    /// the writes of a moment reach those values' partitions.
    pub concurrency: Option<f64>,
    /// Whether arrivals are `--time-path` timestamps: blocks of consecutive input then say
    /// nothing of what arrives together (an export may be grouped by key), so only the
    /// values open at one moment judge the spread.
    pub timed: bool,
}

/// Replays `log` (if any) and, when it has no writes, the sample documents as creates.
pub fn replay(
    container: &mut Container,
    subject: &Subject<'_>,
    log: Option<&Log>,
    sample: &Sample<'_>,
) -> WorkloadStats {
    let (arrival, avg_doc) = (sample.arrival, sample.avg_doc);
    let parts = container.partitions().len();
    let mut r = Replayer {
        container,
        subject,
        avg_doc,
        stats: WorkloadStats {
            usable_relative: 1.0,
            ..WorkloadStats::default()
        },
        all_lumps: (0.0, 0.0),
        charged: false,
        random_suffix: subject
            .spec
            .levels()
            .iter()
            .any(|l| matches!(l, crate::key::KeyLevel::RandSuffix { .. })),
        owners: FxHashMap::default(),
        runs: Runs::new(parts),
        need: Need::default(),
        id: crate::engine::KeyPath::from_segments(["id"]),
        current: 0,
        scratch: Scratch::default(),
        slices: Vec::new(),
        shares: None,
    };
    r.stats.per_op = vec![OpCharge::default(); log.map_or(0, |l| l.ops.len())];
    let sample_writes = !log.is_some_and(Log::has_writes);
    let events = log
        .map_or(0, Log::weighted)
        .saturating_add(if sample_writes {
            arrival_docs(arrival)
        } else {
            0
        });
    // Windows depend on the throughput alone, so every candidate of a run replays the same
    // windows and their needs compare.
    let limits = *r.container.limits();
    let parts = r.container.throughput().initial_partitions(&limits) as u64;
    let windows =
        (events / (OPS_PER_PARTITION * parts).max(1)).clamp(1, MAX_WINDOWS as u64) as usize;
    let (ops_by_window, window_seconds) = match log {
        Some(l) => window_ops(l, windows),
        None => (vec![Vec::new(); windows], None),
    };
    r.stats.window_seconds = window_seconds;
    r.need.counts_logged = log.is_some_and(|l| !l.ops.is_empty());
    let sample_windows = if sample_writes {
        r.stats.writes_from_sample = true;
        sample_by_window(arrival, windows)
    } else {
        vec![Vec::new(); windows]
    };
    r.slices = slice_owners(r.container, subject.definition.is_v1());
    for (ops, creates) in ops_by_window.iter().zip(&sample_windows) {
        r.need.logged = false;
        for w in creates {
            r.sample_creates(w);
        }
        r.need.logged = true;
        for &i in ops {
            r.current = i;
            if let Some(l) = log {
                r.operation(&l.ops[i]);
            }
        }
        r.need.close_window();
        if let Some(w) = r.container.load().windows().last().filter(|_| r.charged) {
            let expected = random_spread(r.all_lumps, w.partitions);
            r.stats.usable_relative = r
                .stats
                .usable_relative
                .min((w.usable_fraction() / expected).min(1.0));
        }
        r.charged = false;
        r.all_lumps = (0.0, 0.0);
        r.container.next_window();
    }
    r.stats.peak_ideal_ru = r.need.peak;
    r.stats.counted_ru = r.need.totals.iter().sum();
    let partitions = r.container.partitions().len() as f64;
    r.stats.need_ru = r.need.totals.iter().copied().fold(0.0, f64::max) * partitions;
    r.stats.ideal_need_ru = r.need.ideal_total;
    let v1 = subject.definition.is_v1();
    let runs = std::mem::replace(&mut r.runs, Runs::new(0));
    r.stats.write_spread = if sample_writes {
        let c = &*r.container;
        let fallback = |s: usize| c.route(&boundary_at((s as f64 + 0.5) / SLICES as f64, v1));
        let parts = c.partitions().len();
        let spillover = subject.layout.is_some_and(|l| l.is_spillover());
        let blocks = if spillover {
            // Every write goes to the newest collection.
            1.0 / random_reach(super::spread::RUN_WRITES, parts).max(1.0)
        } else if sample.timed {
            1.0
        } else {
            block_spread(sample.blocks, &r.slices, parts, fallback)
        };
        // At production rates, the writes of a moment reach the partitions of the values
        // open at that moment, where writes placed at random would reach them all.
        let moment = sample
            .concurrency
            .map_or(1.0, |n| random_reach(n, parts) / parts as f64);
        blocks.min(moment)
    } else {
        runs.spread()
    };
    r.stats
}

/// The mean / max write load a key placing writes at random would show, for writes in
/// lumps of `(Σc, Σc²)` over `parts` partitions: with `n = (Σc)² / Σc²` independent
/// placements and `λ = n / P` per partition, the busiest partition expects about
/// `λ + sqrt(2 λ ln P)` (the maximum of `P` Poisson counts), so `λ / (λ + sqrt(2 λ ln P))`.
/// Write spread is reported relative to it, so that a small sample or a log with a few
/// heavy lines does not pass for a hotspot.
fn random_spread((sum, sum_sq): (f64, f64), parts: usize) -> f64 {
    if parts <= 1 || sum <= 0.0 || sum_sq <= 0.0 {
        return 1.0;
    }
    let p = parts as f64;
    let lambda = sum * sum / sum_sq / p;
    lambda / (lambda + (2.0 * lambda * p.ln()).sqrt())
}

/// The log's operations cut into `windows` windows: by time when (nearly) every operation
/// has one (then with the seconds each window spans), else by position (weighted by count).
fn window_ops(log: &Log, windows: usize) -> (Vec<Vec<usize>>, Option<f64>) {
    let mut out = vec![Vec::new(); windows];
    let mut seconds = None;
    match arrival_times(log) {
        Some(ts) => {
            let (lo, hi) = (
                ts.iter().min().copied().unwrap_or(0),
                ts.iter().max().copied().unwrap_or(0),
            );
            let span = (hi - lo).max(1) as f64;
            // One second of log says nothing of rates.
            seconds = (hi > lo).then_some(span / windows as f64);
            for (i, t) in ts.into_iter().enumerate() {
                let w = (((t - lo) as f64 / span) * windows as f64) as usize;
                out[w.min(windows - 1)].push(i);
            }
        }
        None => {
            // The operations kept (a sampled log's counts are scaled).
            let kept = log.ops.iter().fold(0u64, |a, o| a.saturating_add(o.count));
            let total = kept.max(1) as f64;
            let mut seen = 0u64;
            for (i, op) in log.ops.iter().enumerate() {
                let w = ((seen as f64 / total) * windows as f64) as usize;
                out[w.min(windows - 1)].push(i);
                seen = seen.saturating_add(op.count);
            }
        }
    }
    (out, seconds)
}

/// Each operation's time, when at least 95% of the weighted operations have one: an
/// operation without (a plain-text `SELECT` line) takes the time of the operation before it
/// (or after it, at the start).
fn arrival_times(log: &Log) -> Option<Vec<i64>> {
    let total = log.ops.iter().fold(0u64, |a, o| a.saturating_add(o.count));
    let timed =
        (log.ops.iter().filter(|o| o.ts.is_some())).fold(0u64, |a, o| a.saturating_add(o.count));
    if total == 0 || (timed as f64) < 0.95 * total as f64 {
        return None;
    }
    let first = log.ops.iter().find_map(|o| o.ts)?;
    let mut last = first;
    Some(
        log.ops
            .iter()
            .map(|o| {
                last = o.ts.unwrap_or(last);
                last
            })
            .collect(),
    )
}

/// What the key needs provisioned (its RU per partition over the whole replay) and what an
/// ideal key would (its single-partition charges, in all and in the busiest window).
#[derive(Debug, Default)]
struct Need {
    /// Whether logged operations are counted (else the sample's creates).
    counts_logged: bool,
    /// Whether the operation being replayed is logged.
    logged: bool,
    /// RU per partition over the whole replay.
    totals: Vec<f64>,
    /// Ideal RU over the whole replay.
    ideal_total: f64,
    /// Ideal RU in the open window.
    window_ideal: f64,
    /// The most ideal RU of one window.
    peak: f64,
}

impl Need {
    fn counts(&self) -> bool {
        self.logged == self.counts_logged
    }

    fn charge(&mut self, idx: usize, ru: f64, parts: usize) {
        if self.counts() {
            if self.totals.len() < parts {
                self.totals.resize(parts, 0.0);
            }
            self.totals[idx] += ru;
        }
    }

    fn ideal(&mut self, ru: f64) {
        if self.counts() {
            self.ideal_total += ru;
            self.window_ideal += ru;
        }
    }

    fn close_window(&mut self) {
        self.peak = self.peak.max(self.window_ideal);
        self.window_ideal = 0.0;
    }
}

/// One window's sample arrivals: (slice, documents, bytes).
type Arrivals = Vec<(usize, u64, u64)>;

fn arrival_docs(arrival: &Arrival) -> u64 {
    arrival
        .windows()
        .iter()
        .map(|(_, w)| w.slices.iter().fold(0u64, |a, s| a.saturating_add(s.docs)))
        .fold(0u64, u64::saturating_add)
}

/// For each slice of the hash space, the partitions holding its projected data and their
/// shares of it: writes to a slice land where its data lives (a large tenant of a
/// hierarchical key spans several partitions).
fn slice_owners(c: &mut Container, v1: bool) -> Vec<Vec<(usize, f64)>> {
    let mut bytes: Vec<Vec<(usize, f64)>> = vec![Vec::new(); SLICES];
    for idx in 0..c.partitions().len() {
        for lp in c.logical_partitions(idx) {
            let s = slice_of_epk(&lp.epk, v1);
            match bytes[s].last_mut() {
                Some((p, b)) if *p == idx => *b += lp.bytes as f64,
                _ => bytes[s].push((idx, lp.bytes as f64)),
            }
        }
    }
    for owners in &mut bytes {
        let total: f64 = owners.iter().map(|o| o.1).sum();
        owners.retain(|o| o.1 > 0.0);
        owners.iter_mut().for_each(|o| o.1 /= total);
    }
    bytes
}

/// The sample's arrival windows mapped onto `windows` windows by rank.
fn sample_by_window(arrival: &Arrival, windows: usize) -> Vec<Vec<Arrivals>> {
    let mut out = vec![Vec::new(); windows];
    let n = arrival.windows().len().max(1);
    for (i, (_, w)) in arrival.windows().iter().enumerate() {
        let slices: Arrivals = (w.slices.iter().enumerate())
            .filter(|(_, s)| s.docs > 0)
            .map(|(i, s)| (i, s.docs, s.bytes))
            .collect();
        out[(i * windows / n).min(windows - 1)].push(slices);
    }
    out
}

struct Replayer<'a, 'c> {
    container: &'c mut Container,
    subject: &'a Subject<'a>,
    avg_doc: f64,
    stats: WorkloadStats,
    /// Item id → the key value (hash) it was last written under.
    owners: FxHashMap<String, u64>,
    /// The logged writes in runs, for their spread.
    runs: Runs,
    /// What the key and an ideal key need provisioned.
    need: Need,
    /// The path `/id`, for queries that name items by id.
    id: crate::engine::KeyPath,
    /// The index of the logged operation being replayed.
    current: usize,
    /// This window's single-partition operations (reads and writes) as lumps.
    all_lumps: (f64, f64),
    /// Whether anything was charged in this window.
    charged: bool,
    /// Whether the key has a `rand_suffix` level.
    random_suffix: bool,
    scratch: Scratch,
    slices: Vec<Vec<(usize, f64)>>,
    /// Each partition's share of the container's bytes, once asked for.
    shares: Option<Vec<f64>>,
}

impl Replayer<'_, '_> {
    fn charge(&mut self, idx: usize, ru: f64) {
        self.charged = true;
        self.container.charge_partition(idx, ru);
        self.stats.ru += ru;
        let parts = self.container.partitions().len();
        self.need.charge(idx, ru, parts);
    }

    fn sample_creates(&mut self, slices: &Arrivals) {
        let v1 = self.subject.definition.is_v1();
        for &(slice, docs, bytes) in slices {
            let ru = cost::create(bytes as f64 / docs as f64) * docs as f64;
            self.need.ideal(ru);
            self.stats.writes = self.stats.writes.saturating_add(docs);
            self.all_lumps.0 += docs as f64;
            self.all_lumps.1 += docs as f64;
            if self.spillover() {
                let idx = self.container.partitions().len() - 1;
                self.charge(idx, ru);
                continue;
            }
            if self.slices[slice].is_empty() {
                let epk = boundary_at((slice as f64 + 0.5) / SLICES as f64, v1);
                let idx = self.container.route(&epk);
                self.charge(idx, ru);
                continue;
            }
            for k in 0..self.slices[slice].len() {
                let (idx, share) = self.slices[slice][k];
                self.charge(idx, ru * share);
            }
        }
    }

    fn operation(&mut self, op: &Operation) {
        let n = op.count;
        match &op.kind {
            OpKind::Batch(ops) => self.batch(ops, op),
            kind if kind.is_read() => self.read(kind, op.ru.map(|r| (r, op.visits)), n),
            kind => {
                self.write(kind, op.ru, op.line, n);
            }
        }
    }

    /// A read; `observed`: its charge as logged, and the partitions the log saw it visit.
    fn read(&mut self, kind: &OpKind, observed: Option<(f64, Option<u32>)>, n: u64) {
        let (reaches, results, result_bytes) = match kind {
            OpKind::Query(x) => {
                let (spec, def) = (self.subject.spec, self.subject.definition);
                let r = match self.subject.layout {
                    Some(l) => {
                        let n = self.container.partitions().len();
                        route::layout_query_reaches(l, def, n, &x.constraints)
                    }
                    None => route::query_reaches(spec, def, &x.constraints),
                };
                let results = match (x.shape.max_results(), x.shape.aggregate) {
                    (_, Some(_)) => 0.0,
                    (Some(m), None) => m as f64,
                    (None, None) => {
                        by_id(&x.constraints, &self.id).unwrap_or(cost::DEFAULT_QUERY_RESULTS)
                    }
                };
                (r, results, self.avg_doc)
            }
            OpKind::Read(p) => (self.point_reaches(p), 1.0, self.avg_doc),
            _ => return,
        };
        let class = route::classify(&reaches);
        let parts = route::partitions(self.container, &reaches);
        // Partitions the log does not name: each visit placed as the sample's bytes lie.
        let somewhere = (reaches.iter())
            .filter(|r| matches!(r, Reach::Somewhere | Reach::SomewherePrefix))
            .count();
        let all = self.container.partitions().len();
        let n_visits = (parts.len() + somewhere).min(all.max(1));
        let s = &mut self.stats;
        s.reads = s.reads.saturating_add(n);
        s.partitions_reached = s
            .partitions_reached
            .saturating_add((n_visits as u64).saturating_mul(n));
        match class {
            RouteClass::Single => s.single = s.single.saturating_add(n),
            RouteClass::Targeted => s.targeted = s.targeted.saturating_add(n),
            RouteClass::FanOut => s.fan_out = s.fan_out.saturating_add(n),
        }
        let (overhead, payload) = match (kind, class) {
            (OpKind::Read(_), RouteClass::Single) => (0.0, cost::read(result_bytes)),
            (OpKind::Read(_), _) => cost::query(n_visits, 1.0, result_bytes),
            _ => cost::query(n_visits, results, result_bytes),
        };
        // An observed charge was paid on the partitions the log saw (one when it does not
        // say): what it paid beyond their index checks is the payload, and this key pays
        // its own checks on top, so that fan-out costs under a key that fans out.
        let (overhead, payload) = match observed {
            Some((ru, visits)) => {
                let checked = cost::QUERY_RU_PER_PARTITION * visits.unwrap_or(1).max(1) as f64;
                let is_query = matches!(kind, OpKind::Query(_));
                let paid = if is_query { checked.min(ru) } else { 0.0 };
                (overhead, ru - paid)
            }
            None => (overhead, payload),
        };
        let each = (overhead + payload) / n_visits.max(1) as f64 * n as f64;
        let visits = n_visits.max(1) as f64;
        let single = match kind {
            OpKind::Read(_) => cost::read(result_bytes),
            _ => overhead / visits + payload,
        } * n as f64;
        // Never more than it was charged (an observed charge may be below the model's).
        self.need.ideal(single.min(each * visits));
        self.stats.read_ru += each * visits;
        // Fan-out by its cost: a read that visits every partition, whether the key gives it
        // no value or too many (every suffix of a random suffix).
        let everywhere = all > 1 && n_visits == all && somewhere == 0;
        if everywhere {
            self.stats.fan_out_ru += overhead * (visits - 1.0) / visits * n as f64;
        }
        if let Some(c) = self.stats.per_op.get_mut(self.current) {
            c.ru += (each * visits) as f32;
            c.reads += n as f32;
            c.everywhere |= everywhere;
        }
        if n_visits == 1 {
            self.all_lumps.0 += n as f64;
            self.all_lumps.1 += (n as f64) * (n as f64);
        }
        for idx in parts {
            self.charge(idx, each);
        }
        for _ in 0..somewhere.min(all) {
            self.charge_spread(each);
        }
    }

    /// Charges `ru` over the partitions in proportion to their bytes: an operation on a
    /// key value the log does not show lands where a document drawn from the sample would.
    fn charge_spread(&mut self, ru: f64) {
        // The replay stores nothing: the partitions' shares of the bytes are taken once.
        let shares = self.shares.get_or_insert_with(|| {
            let total = self.container.bytes().max(1) as f64;
            (self.container.partitions().iter())
                .map(|p| p.bytes() as f64 / total)
                .collect()
        });
        let shares = std::mem::take(shares);
        for (idx, &share) in shares.iter().enumerate() {
            if share > 0.0 {
                self.charge(idx, ru * share);
            }
        }
        self.shares = Some(shares);
    }

    fn point_reaches(&self, p: &PointOp) -> Vec<Reach> {
        let lookup = |path: &crate::engine::KeyPath| p.lookup(path);
        let def = self.subject.definition;
        match self.subject.layout {
            Some(l) => route::layout_reaches(l, def, self.container.partitions().len(), &lookup),
            None => route::point_reaches(self.subject.spec, def, &lookup),
        }
    }

    /// Charges a write; returns the key value (hash) it addressed, when one.
    fn write(&mut self, kind: &OpKind, observed: Option<f64>, line: u64, n: u64) -> Option<u64> {
        self.stats.writes = self.stats.writes.saturating_add(n);
        self.all_lumps.0 += n as f64;
        self.all_lumps.1 += (n as f64) * (n as f64);
        let (epk, ru) = match kind {
            // A spillover stores new items in its newest collection and finds others by
            // visiting every one.
            OpKind::Create(w) if self.spillover() => {
                (Some(self.newest_collection()), cost::create(w.bytes as f64))
            }
            // An upsert lands in the newest collection (a new item does; an old one is
            // found by visiting every collection); a replace finds the item wherever it is.
            OpKind::Upsert(w) if self.spillover() => (
                Some(self.newest_collection()),
                cost::replace(w.bytes as f64),
            ),
            OpKind::Replace(w) if self.spillover() => (None, cost::replace(w.bytes as f64)),
            OpKind::Create(w) => (self.write_epk(w, line), cost::create(w.bytes as f64)),
            OpKind::Upsert(w) | OpKind::Replace(w) => {
                (self.write_epk(w, line), cost::replace(w.bytes as f64))
            }
            OpKind::Patch(p) | OpKind::Delete(p) => {
                let ru = if matches!(kind, OpKind::Patch(_)) {
                    cost::replace(self.avg_doc)
                } else {
                    cost::create(self.avg_doc)
                };
                (single_point(&self.point_reaches(p)), ru)
            }
            _ => (None, 0.0),
        };
        let ru = observed.unwrap_or(ru) * n as f64;
        self.need.ideal(ru);
        if epk.is_none() && self.unknown_value(kind) {
            // Its key value is not in the log: placed as the sample's documents lie, and
            // no evidence of how writes of a moment spread.
            self.charge_spread(ru);
            return None;
        }
        match &epk {
            Some(e) => {
                let idx = self.container.route(e);
                self.charge(idx, ru);
                self.runs.add([idx], n as f64);
            }
            None => {
                let p = self.container.partitions().len();
                for idx in 0..p {
                    self.charge(idx, ru / p as f64);
                }
                // A layout's resolver that cannot place a new item's value fails the
                // write: it reaches no collection, which is no spread.
                let unplaced = self.subject.layout.is_some_and(|l| !l.is_spillover())
                    && matches!(
                        kind,
                        OpKind::Create(_) | OpKind::Upsert(_) | OpKind::Replace(_)
                    );
                let reached = if unplaced { 0..0 } else { 0..p };
                self.runs.add(reached, n as f64);
            }
        }
        let key = epk.as_ref().map(|e| self.value_key(e));
        if let (OpKind::Create(w) | OpKind::Upsert(w) | OpKind::Replace(w), Some(k)) = (kind, key) {
            self.track_owner(w, k, n, matches!(kind, OpKind::Create(_)));
        }
        key
    }

    /// The identity of the value whose EPK is `epk`, as the statistics hash it.
    fn value_key(&self, epk: &Epk) -> u64 {
        value_hash(epk, self.subject.definition.is_v1())
    }

    fn track_owner(&mut self, w: &WriteOp, key: u64, n: u64, create: bool) {
        // A random suffix is drawn again at every write: a changed value says nothing.
        if self.random_suffix {
            return;
        }
        let Some(id) = &w.id else { return };
        match self.owners.insert(id.clone(), key) {
            Some(previous) if previous != key && !create => {
                self.stats.key_updated = self.stats.key_updated.saturating_add(n)
            }
            _ => {}
        }
    }

    /// Whether a write's key value cannot be computed because the log gave only some of
    /// its document (an Azure Monitor request: the current key's value at most).
    fn unknown_value(&self, kind: &OpKind) -> bool {
        match kind {
            OpKind::Create(w) | OpKind::Upsert(w) | OpKind::Replace(w) => self.lacks_inputs(w),
            // A patch or delete whose id the log does not give, of a key its known values
            // do not determine.
            OpKind::Patch(p) | OpKind::Delete(p) => p.id.is_empty(),
            _ => false,
        }
    }

    fn spillover(&self) -> bool {
        self.subject.layout.is_some_and(|l| l.is_spillover())
    }

    /// An EPK in the newest collection of a spillover (its last partition).
    fn newest_collection(&self) -> Epk {
        crate::key::layout::newest(self.container.partitions().len())
    }

    /// Whether the log gave only part of a write's document, without an input of the key.
    fn lacks_inputs(&self, w: &WriteOp) -> bool {
        w.partial
            && (self.subject.inputs.iter())
                .any(|&i| matches!(w.fields[i], super::op::OwnedField::Missing))
    }

    fn write_epk(&mut self, w: &WriteOp, line: u64) -> Option<Epk> {
        if self.lacks_inputs(w) {
            return None;
        }
        if let Some(l) = self.subject.layout {
            let value = w.fields[self.subject.inputs[0]].as_field().component()?;
            let n = self.container.partitions().len();
            return l.place(value, self.subject.definition, n);
        }
        let fields: Vec<Field<'_>> = self
            .subject
            .inputs
            .iter()
            .map(|&i| w.fields[i].as_field())
            .collect();
        match self
            .subject
            .spec
            .evaluate(&fields, line, self.subject.seed, &mut self.scratch)
        {
            KeyValue::Components(c) => Some(self.subject.definition.epk_unchecked(c.as_slice())),
            KeyValue::Invalid => None,
        }
    }

    fn batch(&mut self, ops: &[OpKind], op: &Operation) {
        self.stats.batches = self.stats.batches.saturating_add(op.count);
        let before_all = self.all_lumps;
        let mut keys = Vec::new();
        // An observed charge for the whole batch is shared by its operations.
        let share = op.ru.map(|ru| ru / ops.len().max(1) as f64);
        for kind in ops {
            let key = if kind.is_read() {
                self.read(kind, share.map(|r| (r, None)), op.count);
                match kind {
                    OpKind::Read(p) => {
                        single_point(&self.point_reaches(p)).map(|e| self.value_key(&e))
                    }
                    _ => None,
                }
            } else {
                self.write(kind, share, op.line, op.count)
            };
            keys.extend(key);
        }
        // A batch's operations land together: one lump, not independent placements.
        let added_all = self.all_lumps.0 - before_all.0;
        self.all_lumps.1 = before_all.1 + added_all * added_all;
        keys.sort_unstable();
        keys.dedup();
        if keys.len() > 1 {
            self.stats.cross_partition_batches =
                self.stats.cross_partition_batches.saturating_add(op.count);
        }
    }
}

/// Documents a query that fixes `id` returns: one per id it names (ids are unique within a
/// logical partition, and a query names them per partition key value at most once).
fn by_id(c: &crate::query::Constraints, id: &crate::engine::KeyPath) -> Option<f64> {
    let alternatives = c.alternatives()?;
    alternatives
        .iter()
        .all(|conj| conj.get(id).is_some())
        .then_some(alternatives.len().max(1) as f64)
}

fn single_point(reaches: &[Reach]) -> Option<Epk> {
    match reaches {
        [Reach::Point(e)] => Some(e.clone()),
        _ => None,
    }
}
