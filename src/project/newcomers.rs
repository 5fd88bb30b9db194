//! The share of the data to come that goes to key values the sample does not hold,
//! measured on the log's creates.
//!
//! The projection needs `p`, the share of new data that new values take (see
//! [`super::projection`]). The sample alone can only infer it (the values first seen in its
//! second half, or Good–Turing's values seen once), and a pilot's sample cannot know the
//! rollout's mix at all: its 150 devices look like the whole fleet. A log of the container's
//! writes shows it: of the bytes its creates write (the operations the ingest rate counts
//! too), the share whose key value the sample does not hold.
//!
//! Two kinds of creates tell nothing and are left out, which keeps the share unbiased:
//! - one of an item the sample itself holds (its id is among the sample's): the sample was
//!   taken after it was written, so its value is known whether or not it was new then.
//!   Where the sample's ids were sampled by hash, a create whose id hash is not kept cannot
//!   be told apart: it is tested only when none of the creates whose id is kept is held
//!   (the sample precedes the log). Where the sample's ids were not recorded (a profile
//!   keeps none) or a create has no id (an Azure Monitor request), the create is taken to
//!   be of a new item, which leans towards the values the sample holds, as the sample's own
//!   estimate does;
//! - one whose value the statistics cannot look up (once a key's values are sampled by
//!   hash, a value outside the sampled share); the heavy hitters are known one by one.
//!
//! For a hierarchical key it also measures the share of created bytes whose first level
//! the sample does not hold (a device, a tenant it never saw): their values hash anywhere,
//! not inside the prefixes the sample knows. A first level is held when any value the
//! statistics count one by one has it: once values are sampled by hash, a first level of
//! few values may have none counted and is then taken as new (its new values then hash
//! anywhere, as an unsampled key's would), so the share is then an upper bound.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::engine::{Epk, PartitionKind};
use crate::key::Scratch;
use crate::log::Log;
use crate::log::op::{OpKind, Operation, WriteOp};
use crate::replay::subject::Subject;
use crate::stats::owners::id_hash;
use crate::stats::{CandidateStats, value_hash};

use super::grouping::Grouping;

/// Creates that must be tested before their share is used.
pub const MIN_TESTED: u64 = 10;

/// The share of created bytes whose key value the sample does not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Newcomers {
    /// The share, 0 to 1 (`None` when the key's values are not entities: see
    /// [`Newcomers::of_entities`]).
    pub share: Option<f64>,
    /// Of a hierarchical key, the share whose first level the sample does not hold.
    pub new_first_levels: Option<f64>,
    /// Of those new first levels, those the log wrote enough of to place (at most
    /// [`HEAVY_FIRSTS`], largest first), with their share of those bytes net of chance, by
    /// EPK prefix: a production tenant the pilot never saw takes its share inside its own
    /// range, where its writes land, and which then splits as the service splits it, not
    /// spread over the whole space. A first level of a line or two is chance's and goes
    /// anywhere, as the values of a fleet of millions do.
    pub heavy_firsts: Vec<(Vec<u8>, f64)>,
    /// The largest new values the log writes, each a value of its own in the projection
    /// (at most [`HEAVY_VALUES`]): a production tenant the pilot never saw is sized,
    /// placed and named as one, not spread as anonymous bytes. Of a single-level key,
    /// shares of the new values' created bytes; of a hierarchical key, only values whose
    /// first level is new, as shares of the new first levels' bytes (and
    /// the projection takes their shares out of their prefixes' in
    /// [`Newcomers::heavy_firsts`]). Measured while the
    /// values are counted exactly, and not for keys of clock readings.
    pub values: Vec<NewValue>,
    /// Distinct new values the log creates (of a hierarchical key, with a new first
    /// level), while the values are counted exactly; at most a million.
    pub new_values: usize,
    /// The creates of the values the sample holds, as one group (of a single-level key).
    pub held: HeldGroup,
    /// The creates of the first levels the sample holds, as one group (of a hierarchical
    /// key).
    pub held_firsts: HeldGroup,
}

/// The log's creates of what the sample holds (its values, or a hierarchical key's first
/// levels) as one group, and what one of those it does not hold writes on average: what a
/// complete sample's share of the new data is read with, net of chance (see
/// [`HeldGroup::net_lines`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeldGroup {
    /// Lines of creates of them.
    pub lines: u64,
    /// How many of them the sample holds.
    pub values: f64,
    /// Lines of creates per value of those the sample does not hold, the ones the log
    /// wrote none of counted in by Chao1's estimate and those sized on their own (heavy:
    /// see [`Newcomers::values`]) left out; `None` when the log wrote none of them.
    pub typical: Option<f64>,
}

impl HeldGroup {
    /// Their lines net of chance. As many of the log's typical values write
    /// `e = values × typical`; chance adds at most `1.96 √((1 − s) e)` to that (`s` the
    /// log's share: only the sampling is chance's, and a complete log's lines are as
    /// logged). Lines `n` past `e` keep what chance cannot explain, `n − 1.96 √((1 − s) e)`,
    /// and never fall below `e`; lines at or below `e` are their own, as every share read
    /// from a few lines is shrunk down only (see [`NewValue::share`]). A pilot of 12 stores
    /// with 6 lunch-hour lines at 1%, where 12 of the log's stores write 3.2, writes 3.2;
    /// a pilot of 12 hubs with 40 writes 36.5.
    pub fn net_lines(&self, log_share: f64) -> f64 {
        let n = self.lines as f64;
        let Some(typical) = self.typical else {
            return n;
        };
        let e = self.values * typical;
        let chance = 1.96 * ((1.0 - log_share).max(0.0) * e).sqrt();
        match n > e {
            true => (n - chance).max(e),
            false => n,
        }
    }

    /// The share of new data values the sample does not hold take, `new`, once the held
    /// group's lines are net of chance: what it no longer takes goes to the others.
    pub fn net_new_share(&self, new: f64, log_share: f64) -> f64 {
        match self.lines {
            0 => new,
            n => 1.0 - (1.0 - new) * self.net_lines(log_share) / n as f64,
        }
    }
}

/// [`typical`] of the values not sized on their own (`others`), while they are at least
/// half of those seen (`all`): a stadium among stores is left out, but where most values
/// are large enough to be sized on their own, they are the population.
fn typical_of(others: Vec<u64>, all: Vec<u64>) -> Option<f64> {
    match 2 * others.len() >= all.len() {
        true => typical(others.into_iter()),
        false => typical(all.into_iter()),
    }
}

/// Lines per value of a population the log wrote `lines` of each seen value: the seen
/// values and, by Chao1's bias-corrected estimate `f1 (f1 − 1) / (2 (f2 + 1))` from those
/// seen once (`f1`) and twice (`f2`), those it wrote none of; `None` when none was seen.
fn typical(lines: impl Iterator<Item = u64>) -> Option<f64> {
    let (mut seen, mut f1, mut f2, mut all) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for l in lines {
        seen += 1.0;
        all += l as f64;
        f1 += f64::from(u8::from(l == 1));
        f2 += f64::from(u8::from(l == 2));
    }
    let unseen = f1 * (f1 - 1.0).max(0.0) / (2.0 * (f2 + 1.0));
    (seen > 0.0).then(|| all / (seen + unseen))
}

/// A new value the log writes enough of to be sized on its own.
#[derive(Clone, Debug, PartialEq)]
pub struct NewValue {
    /// Its EPK.
    pub epk: Epk,
    /// Its label.
    pub label: String,
    /// Its share (see [`Newcomers::values`]), net of chance: the lines that created it
    /// are shrunk towards the mean of its neighbours' (the values under its first level
    /// of a hierarchical key, or of its entity of a single-level key: see
    /// [`super::grouping`]; else the new values of half to twice its lines) by how much of their spread chance explains (see `Lines::estimate`), and its
    /// bytes with them. A tenant's 200 contacts that write alike then look alike, and the
    /// largest of them is not the luckiest's count.
    pub share: f64,
}

/// New values sized on their own, at most.
pub const HEAVY_VALUES: usize = 4096;

/// New first levels placed at their own prefix, at most.
pub const HEAVY_FIRSTS: usize = 4096;

impl Newcomers {
    /// What the measure says of entities, given which of the key's levels are clock
    /// readings (bit `i` for level `i`: see [`clock_levels`](crate::stats::clock::clock_levels)): a log that follows the
    /// sample in time writes new days whatever the mix of devices, and the share of those
    /// is the sample's own arrivals' to tell (see [`super::projection`]). So a key whose first
    /// level is a clock keeps nothing; a key with a clock in a later level keeps only the
    /// share of new first levels (the devices of `/deviceId,/day`).
    pub fn of_entities(self, clocks: u8) -> Option<Newcomers> {
        match clocks {
            0 => Some(self),
            c if c & 1 != 0 => None,
            _ => self.new_first_levels.map(|_| Newcomers {
                share: None,
                // A device's day of the log stands for none of the days to come.
                values: Vec::new(),
                ..self
            }),
        }
    }
}

/// Bytes of creates tested: whose value the sample holds, and not; of a hierarchical
/// key, bytes of creates whose first level it holds, and not.
#[derive(Default)]
struct Tally<'a> {
    held: f64,
    new: f64,
    tested: u64,
    first: (f64, f64),
    /// Lines of creates of held values, and of held first levels.
    held_lines: (u64, u64),
    /// Bytes and lines of each new first level.
    new_firsts: Followed<Vec<u8>, (f64, u64)>,
    /// Each new value (of a hierarchical key, with a new first level), while the values
    /// are counted exactly.
    values: Followed<u64, Seen<'a>>,
}

/// Values followed one by one, at most: past it, the values of at most `t` lines are let
/// go, `t` doubling from 1 until half the table is free (lossy counting). A log of millions
/// of values seen once holds no table of them all, and a heavy value keeps its place
/// whatever the log's order: it has more lines than the values let go.
const FOLLOWED: usize = 1 << 20;

/// A table of values followed one by one (see [`FOLLOWED`]).
struct Followed<K, V> {
    map: FxHashMap<K, V>,
    cap: usize,
}

impl<K, V> Default for Followed<K, V> {
    fn default() -> Self {
        Followed {
            map: FxHashMap::default(),
            cap: FOLLOWED,
        }
    }
}

impl<K: Eq + std::hash::Hash, V> Followed<K, V> {
    /// The entry of `key`, made by `make` when it is new; `lines` says how many lines an
    /// entry has seen.
    fn entry(&mut self, key: K, lines: fn(&V) -> u64, make: impl FnOnce() -> V) -> &mut V {
        if self.map.len() >= self.cap && !self.map.contains_key(&key) {
            let mut t = 1;
            while self.map.len() > self.cap / 2 {
                self.map.retain(|_, v| lines(v) > t);
                t = t.saturating_mul(2);
            }
        }
        self.map.entry(key).or_insert_with(make)
    }
}

/// What the log created of one new value (by its hash), and its first create, whose
/// key gives its EPK and label again.
struct Seen<'a> {
    bytes: f64,
    lines: u64,
    /// Its group: the first 8 bytes of its first level (a hierarchical key's), or the hash
    /// of the entity that groups a single-level key's values (see [`super::grouping`]).
    group: Option<u64>,
    first: (&'a WriteOp, u64),
}

/// The least lines, shrunk, a new value needs to be sized on its own.
const MIN_LINES: f64 = 5.0;

/// The lines of a group of values, sorted, with running sums of them and of their
/// squares: what each value's lines are shrunk towards (see [`Lines::estimate`]).
struct Lines {
    sorted: Vec<u64>,
    sums: Vec<(f64, f64)>,
}

impl Lines {
    fn of(lines: impl Iterator<Item = u64>) -> Lines {
        let mut sorted: Vec<u64> = lines.collect();
        sorted.sort_unstable();
        let mut sums = Vec::with_capacity(sorted.len() + 1);
        let mut acc = (0.0, 0.0);
        sums.push(acc);
        for &c in &sorted {
            let c = c as f64;
            acc = (acc.0 + c, acc.1 + c * c);
            sums.push(acc);
        }
        Lines { sorted, sums }
    }

    /// `lines` shrunk towards the mean `m` of its neighbours' by the share of their spread
    /// that is theirs and not chance's: `m + t / (t + m) · (lines - m)`, an empirical Bayes
    /// estimate with each value's lines a Poisson count and `t` their variance less
    /// chance's `m`. The neighbours are the whole group, or, `local`, the values of half
    /// to twice as many lines: where nothing groups the values (the first levels, a
    /// single-level key's values of no entity), a tenant's contacts that write alike are compared with each other,
    /// not with the other tenants' whose rates differ. With it, how precisely it is known
    /// (see [`Estimate`]).
    fn estimate(&self, lines: u64, local: bool) -> Estimate {
        let own = Estimate {
            lines: lines as f64,
            precision: lines as f64,
            repeated: false,
        };
        let (lo, hi) = match local {
            true => (
                self.sorted.partition_point(|&c| 2 * c < lines),
                self.sorted.partition_point(|&c| c <= 2 * lines),
            ),
            false => (0, self.sorted.len()),
        };
        let n = (hi - lo) as f64;
        if n < 1.0 {
            return own;
        }
        let (sum, squares) = (
            self.sums[hi].0 - self.sums[lo].0,
            self.sums[hi].1 - self.sums[lo].1,
        );
        let mean = sum / n;
        let spread = (squares / n - mean * mean - mean).max(0.0);
        if mean <= 0.0 {
            return own;
        }
        // The weight on the mean, and the estimate's variance: its own lines' part, and
        // the mean's, which `n` neighbours know to `mean / n`.
        let b = mean / (spread + mean);
        let lines = mean + (1.0 - b) * (lines as f64 - mean);
        // The mean of `n` values of variance `t + m` is known to `(t + m) / n = m / (B n)`,
        // and weighs `B²`.
        let variance = (1.0 - b) * lines + b * mean / n;
        Estimate {
            lines,
            precision: match variance > 0.0 {
                true => lines * lines / variance,
                false => f64::INFINITY,
            },
            repeated: !local && mean >= REPEATED,
        }
    }
}

/// A value's lines shrunk (see [`Lines::estimate`]), and how precisely they are known.
struct Estimate {
    lines: f64,
    /// As many lines of its own as would measure it as precisely, `lines² / variance`,
    /// the variance `(1 − B) lines + B m / n`: its own lines where nothing is shrunk; the
    /// neighbours' lines where all is (the 2,942 tickets of a production org, ~4 lines
    /// each, know each ticket's rate to their 11,970 lines).
    precision: f64,
    /// Whether its neighbours are written again and again: a group (the values under one
    /// first level, or of one entity) of at least [`REPEATED`] lines each on average. A line of a value
    /// created once (an item's id) is no rate, however alike such values are; and
    /// neighbours chosen by their own lines (half to twice a value's) are no group: of
    /// 1.2 million devices each seen 0.03 times, those seen 2 to 6 times average 2 by
    /// their choosing.
    repeated: bool,
}

/// Lines a value's neighbours average for them to be written again and again.
const REPEATED: f64 = 2.0;

/// The bytes of a value (or first level) of `lines` lines net of chance, when it is known
/// as well as [`MIN_LINES`] of its own would tell it: its lines shrunk (see
/// [`Lines::estimate`]) reach them, or, written again itself ([`REPEATED`] lines) among
/// neighbours written again and again, the estimate is as precise (see [`Estimate`]): a
/// value of one line may have been created once, whatever its neighbours do. Shrunk down
/// only, so that a value of few lines is placed as its writes are and lines of large
/// `count`s are not multiplied.
fn net_of_chance(bytes: f64, lines: u64, e: &Estimate) -> Option<f64> {
    let again = e.repeated && lines as f64 >= REPEATED && e.precision >= MIN_LINES;
    let known = e.lines >= MIN_LINES || again;
    known.then(|| bytes * (e.lines / lines as f64).min(1.0))
}

/// The new values in `seen` the log wrote enough of, largest first, as shares of `all`
/// net of chance (see [`NewValue::share`]); and the lines a typical one of the others
/// writes (see [`HeldGroup::typical`]).
fn heavy_values(
    seen: FxHashMap<u64, Seen<'_>>,
    all: f64,
    (key, scratch): (&Subject<'_>, &mut Scratch),
) -> (Vec<NewValue>, Option<f64>) {
    let mut groups: FxHashMap<Option<u64>, Vec<u64>> = FxHashMap::default();
    for s in seen.values() {
        groups.entry(s.group).or_default().push(s.lines);
    }
    let groups: FxHashMap<Option<u64>, Lines> = (groups.into_iter())
        .map(|(g, lines)| (g, Lines::of(lines.into_iter())))
        .collect();
    let all_lines: Vec<u64> = seen.values().map(|s| s.lines).collect();
    let mut others = Vec::new();
    let mut heavy: Vec<(u64, Seen<'_>, f64)> = (seen.into_iter())
        .filter_map(|(h, s)| {
            // Values under one first level, or of one entity, are one group; others none.
            let e = groups[&s.group].estimate(s.lines, s.group.is_none());
            let Some(sure) = net_of_chance(s.bytes, s.lines, &e) else {
                others.push(s.lines);
                return None;
            };
            Some((h, s, sure)).filter(|_| all > 0.0)
        })
        .collect();
    heavy.sort_by(|a, b| b.2.total_cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    heavy.truncate(HEAVY_VALUES);
    let mut out = Vec::with_capacity(heavy.len());
    for (_, seen, sure) in heavy {
        let (w, line) = seen.first;
        let Some((epk, Some(label))) = key.key_labelled(w, line, scratch, |_| true) else {
            continue;
        };
        let share = sure / all;
        out.push(NewValue { epk, label, share });
    }
    (out, typical_of(others, all_lines))
}

/// The new first levels the log wrote enough of (see [`Newcomers::heavy_firsts`]), with
/// their shares of `all` net of chance (their lines shrunk as [`NewValue::share`]'s are,
/// all new first levels one group), largest first (ties by prefix); and the lines a
/// typical one of the others writes (see [`HeldGroup::typical`]).
fn heavy_firsts(
    seen: FxHashMap<Vec<u8>, (f64, u64)>,
    all: f64,
) -> (Vec<(Vec<u8>, f64)>, Option<f64>) {
    let group = Lines::of(seen.values().map(|s| s.1));
    let all_lines: Vec<u64> = seen.values().map(|s| s.1).collect();
    let mut others = Vec::new();
    let mut heavy: Vec<(Vec<u8>, f64)> = (seen.into_iter())
        .filter_map(|(p, (bytes, lines))| {
            let Some(sure) = net_of_chance(bytes, lines, &group.estimate(lines, true)) else {
                others.push(lines);
                return None;
            };
            Some((p, sure / all)).filter(|_| all > 0.0)
        })
        .collect();
    heavy.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    heavy.truncate(HEAVY_FIRSTS);
    (heavy, typical_of(others, all_lines))
}

/// The first levels the statistics hold (the first 16 bytes of a hierarchical key's EPKs);
/// empty for any other key.
type FirstLevels<'a> = FxHashSet<&'a [u8]>;

/// The first level of a hierarchical key's EPK (all of a shorter one).
pub fn first_level(epk: &[u8]) -> &[u8] {
    &epk[..epk.len().min(16)]
}

/// The share measured on `log`'s creates under the key of `key` (not a layout) against
/// `stats`, when at least [`MIN_TESTED`] of them could be tested; `entities` are the
/// sample's entities among the log's extracted paths, of which one may group a
/// single-level key's new values (see [`super::grouping`]).
pub fn measure(
    log: &Log,
    key: &Subject<'_>,
    stats: &CandidateStats,
    entities: &[usize],
) -> Option<Newcomers> {
    let mut tally = Tally::default();
    let mut scratch = Scratch::default();
    let hierarchical =
        key.definition.kind() == PartitionKind::MultiHash && key.definition.paths().len() > 1;
    let firsts: FirstLevels<'_> = match hierarchical {
        true => stats.values.epks().map(first_level).collect(),
        false => FxHashSet::default(),
    };
    let known_firsts = firsts.len();
    let grouping = (!hierarchical && stats.values.is_exact())
        .then(|| Grouping::new(entities, key.inputs))
        .flatten();
    let mut t = Tester {
        grouping,
        key,
        stats,
        firsts: &firsts,
        scratch: &mut scratch,
        precedes: precedes(log, &held_by_owners(stats)),
    };
    for op in &log.ops {
        t.kind(&op.kind, op, &mut tally);
    }
    if let Some(g) = t.grouping.take() {
        group_by_entity(&g, &mut tally.values.map);
    }
    let all = tally.held + tally.new;
    let firsts = tally.first.0 + tally.first.1;
    let whole = if hierarchical {
        tally.first.1
    } else {
        tally.new
    };
    let new_values = tally.values.map.len();
    let (mut values, typical_value) = heavy_values(tally.values.map, whole, (key, &mut scratch));
    let (heavy, typical_first) = heavy_firsts(tally.new_firsts.map, tally.first.1);
    fit_to_firsts(&mut values, &heavy);
    // The held lines are of the values the statistics hold (all of them, or a hash share,
    // whose typical is then unknown: see `heavy_values`), and of every first level they
    // hold, so neither count is scaled. A hierarchical key's group is its first levels.
    let held = |lines, values: usize, typical| HeldGroup {
        lines,
        values: values as f64,
        typical,
    };
    let typical_value = typical_value.filter(|_| !hierarchical);
    (tally.tested >= MIN_TESTED && all > 0.0).then(|| Newcomers {
        share: Some(tally.new / all),
        new_first_levels: (hierarchical && firsts > 0.0).then(|| tally.first.1 / firsts),
        heavy_firsts: heavy,
        values,
        new_values,
        held: held(tally.held_lines.0, stats.values.len(), typical_value),
        held_firsts: held(tally.held_lines.1, known_firsts, typical_first),
    })
}

/// Groups a single-level key's new values by the entity that groups them, if one does
/// (see [`super::grouping`]).
fn group_by_entity(g: &Grouping, seen: &mut FxHashMap<u64, Seen<'_>>) {
    let Some(i) = g.choose(|v| seen.get(&v).map(|s| s.lines)) else {
        return;
    };
    for (&v, s) in seen.iter_mut() {
        s.group = g.group_of(i, v);
    }
}

/// Fits the values' shares to their first levels': those under a first level of `heavy`
/// take at most its share (a first level is shrunk among its neighbours, its values among
/// themselves, and a lone value can come out larger than its first level), the others at
/// most what the heavy first levels leave; so that all of them together never hold more
/// than the new data.
fn fit_to_firsts(values: &mut [NewValue], heavy: &[(Vec<u8>, f64)]) {
    let index: FxHashMap<&[u8], usize> = (heavy.iter().enumerate())
        .map(|(i, h)| (&h.0[..], i))
        .collect();
    let group = |v: &NewValue| index.get(first_level(v.epk.as_bytes())).copied();
    // Per heavy first level, and (last) for the rest: the values' shares and their room.
    let mut sums = vec![0.0; heavy.len() + 1];
    for v in values.iter() {
        sums[group(v).unwrap_or(heavy.len())] += v.share;
    }
    let room = |g: usize| match heavy.get(g) {
        Some(h) => h.1,
        None => (1.0 - heavy.iter().map(|h| h.1).sum::<f64>()).max(0.0),
    };
    for v in values.iter_mut() {
        let g = group(v).unwrap_or(heavy.len());
        if sums[g] > room(g) {
            v.share *= room(g) / sums[g];
        }
    }
}

/// What testing a create needs.
struct Tester<'a, 's> {
    /// Of a single-level key, the entities its new values' creates carry (see
    /// [`super::grouping`]).
    grouping: Option<Grouping>,
    key: &'a Subject<'a>,
    stats: &'a CandidateStats,
    firsts: &'a FirstLevels<'a>,
    scratch: &'s mut Scratch,
    /// No create whose id the sample's ids keep is held: creates of other ids are new items.
    precedes: bool,
}

/// Whether the sample holds the item of id hash `h`, as a record of its ids can say:
/// `Some(held)` when the record keeps `h`, `None` when it cannot tell (not kept, or no
/// ids recorded).
pub type Held<'a> = &'a dyn Fn(u64) -> Option<bool>;

/// [`Held`] by the owners `stats` recorded.
fn held_by_owners(stats: &CandidateStats) -> impl Fn(u64) -> Option<bool> + '_ {
    let owners = &stats.owners;
    move |h| match owners.is_recorded() {
        false => None,
        true if owners.get(h).is_some() => Some(true),
        true => owners.keeps(h).then_some(false),
    }
}

/// Whether the sample was taken before the log: of the creates whose id the sample's
/// record of ids keeps, none is held. True when the ids are all kept (then each create is
/// told apart).
pub fn precedes(log: &Log, held: Held<'_>) -> bool {
    fn any_held(kind: &OpKind, held: Held<'_>) -> bool {
        match kind {
            OpKind::Create(w) => {
                (w.id.as_deref()).is_some_and(|id| held(id_hash(id)) == Some(true))
            }
            OpKind::Batch(ops) => ops.iter().any(|k| any_held(k, held)),
            _ => false,
        }
    }
    !log.ops.iter().any(|op| any_held(&op.kind, held))
}

/// Whether the create `w` tells something (see the module): not when it is of an item the
/// sample holds; an id the record cannot tell of is told by `precedes` alone; a create
/// without an id is of a new item.
pub fn tells(w: &WriteOp, held: Held<'_>, precedes: bool) -> bool {
    match w.id.as_deref().map(|id| held(id_hash(id))) {
        None => true,
        Some(Some(held)) => !held,
        Some(None) => precedes,
    }
}

impl Tester<'_, '_> {
    fn kind<'a>(&mut self, kind: &'a OpKind, op: &Operation, tally: &mut Tally<'a>) {
        match kind {
            OpKind::Create(w) => self.write(w, op, tally),
            OpKind::Batch(ops) => {
                for k in ops {
                    self.kind(k, op, tally);
                }
            }
            _ => {}
        }
    }

    fn write<'a>(&mut self, w: &'a WriteOp, op: &Operation, tally: &mut Tally<'a>) {
        if !self.tells(w) {
            return;
        }
        let Some(epk) = self.key.key_epk(w, op.line, self.scratch) else {
            return;
        };
        let bytes = w.bytes as f64 * op.count as f64;
        if !self.firsts.is_empty() {
            let first = first_level(epk.as_bytes());
            match self.firsts.contains(first) {
                true => {
                    tally.first.0 += bytes;
                    tally.held_lines.1 += 1;
                }
                false => {
                    tally.first.1 += bytes;
                    let lines = |e: &(f64, u64)| e.1;
                    let e = tally
                        .new_firsts
                        .entry(first.to_vec(), lines, Default::default);
                    *e = (e.0 + bytes, e.1 + 1);
                }
            }
        }
        let v1 = self.key.definition.is_v1();
        let hash = value_hash(&epk, v1);
        if let Some((held, weight)) = self.stats.values.holds(hash) {
            match held {
                true => {
                    tally.held += bytes * weight;
                    tally.held_lines.0 += 1;
                }
                false => tally.new += bytes * weight,
            }
            tally.tested += 1;
            // Each new value on its own, while values are counted exactly (of a
            // hierarchical key, with a new first level).
            let new_first =
                self.firsts.is_empty() || !self.firsts.contains(first_level(epk.as_bytes()));
            if !held && new_first && self.stats.values.is_exact() {
                // A single-level key's group is set once its entities are known.
                let group = (!self.firsts.is_empty())
                    .then(|| u64::from_le_bytes(epk.as_bytes()[..8].try_into().unwrap_or([0; 8])));
                if let Some(g) = self.grouping.as_mut() {
                    g.add(hash, w);
                }
                let make = || Seen {
                    bytes: 0.0,
                    lines: 0,
                    group,
                    first: (w, op.line),
                };
                let seen = tally.values.entry(hash, |s| s.lines, make);
                seen.bytes += bytes;
                seen.lines += 1;
            }
        }
    }

    /// Whether the create `w` tells something (see [`tells`]).
    fn tells(&self, w: &WriteOp) -> bool {
        tells(w, &held_by_owners(self.stats), self.precedes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Poisson counts of mean `mean`, by inversion of a fixed sequence of uniforms.
    fn poisson(n: u64, mean: f64) -> Vec<u64> {
        (0..n)
            .map(|i| {
                let u = ((i * 7919 + 13) % 10_007) as f64 / 10_007.0;
                let (mut k, mut p) = (0u64, (-mean).exp());
                let mut cdf = p;
                while cdf < u {
                    k += 1;
                    p *= mean / k as f64;
                    cdf += p;
                }
                k
            })
            .collect()
    }

    #[test]
    fn a_held_group_writes_what_typical_values_write_unless_chance_cannot_say_so() {
        // The log's stores the sample does not hold: 297 seen once, 39 twice, 3 three
        // times (384 lines); Chao1 adds 297 × 296 / (2 × 40) = 1,098.9 never seen, so a
        // typical store writes 384 / 1,437.9 = 0.2671 lines.
        let seen = [(1u64, 297usize), (2, 39), (3, 3)];
        let lines = seen.iter().flat_map(|&(l, n)| std::iter::repeat_n(l, n));
        let m = typical(lines).expect("values seen");
        assert!((m - 384.0 / 1_437.9).abs() < 1e-4, "{m}");
        let group = |lines| HeldGroup {
            lines,
            values: 12.0,
            typical: Some(m),
        };
        // (lines, log share, net lines): 12 typical stores write 12 × 0.2671 = 3.205.
        // Chance adds at most 1.96 √(0.99 × 3.205) = 3.491 lines to them.
        for (lines, share, want) in [
            // 6 lines at 1%: 6 − 3.491 = 2.51 is less than typical; typical.
            (6, 0.01, 3.205),
            // 40 lines: 40 − 3.491.
            (40, 0.01, 36.509),
            // 40 lines of a complete log are as logged.
            (40, 1.0, 40.0),
            // Fewer lines than typical: shrunk down only.
            (2, 0.01, 2.0),
            (0, 0.01, 0.0),
        ] {
            let got = group(lines).net_lines(share);
            assert!((got - want).abs() < 1e-3, "{lines} at {share}: {got}");
        }
        // Its share of the new data: 1.48% held by 6 lines, 3.205 of them net, is 0.79%.
        let new = group(6).net_new_share(1.0 - 0.0148, 0.01);
        assert!((1.0 - new - 0.0148 * 3.205 / 6.0).abs() < 1e-4, "{new}");
        // Nothing typical to compare with, or nothing held: the share as measured.
        let lone = HeldGroup {
            typical: None,
            ..group(6)
        };
        assert_eq!(lone.net_new_share(0.9, 0.01), 0.9);
        assert_eq!(group(0).net_new_share(0.9, 0.01), 0.9);
        assert_eq!(typical(std::iter::empty()), None);
        // Every value seen twice: none unseen, 2 lines each.
        assert_eq!(typical([2u64, 2, 2].into_iter()), Some(2.0));
    }

    #[test]
    fn followed_values_stay_bounded_and_keep_the_heavy_ones() {
        // Heavy values (20 lines) first or last among 200 values of one line: a table of
        // 16 keeps them whatever the order, with their counts.
        for heavy_last in [false, true] {
            let mut f: Followed<u64, u64> = Followed {
                cap: 16,
                ..Followed::default()
            };
            let lines = |v: &u64| *v;
            let mut feed = |k: u64, n: u64| (0..n).for_each(|_| *f.entry(k, lines, || 0) += 1);
            if !heavy_last {
                (1000..1004).for_each(|k| feed(k, 20));
            }
            (0..200).for_each(|k| feed(k, 1));
            if heavy_last {
                (1000..1004).for_each(|k| feed(k, 20));
            }
            assert!(f.map.len() <= 16);
            for k in 1000..1004 {
                assert_eq!(f.map.get(&k), Some(&20), "{heavy_last}");
            }
        }
    }

    #[test]
    fn values_never_take_more_than_their_first_levels_or_the_new_data() {
        let epk = |first: u8, second: u8| Epk::from_bytes(&[[first; 16], [second; 16]].concat());
        let value = |first: u8, second: u8, share: f64| NewValue {
            epk: epk(first, second),
            label: String::new(),
            share,
        };
        // A lone value shrunk less than its first level (0.2 against 0.17), and values
        // under first levels not placed on their own that ask for more than is left.
        let heavy = vec![(vec![1; 16], 0.17), (vec![2; 16], 0.5)];
        let mut values = vec![
            value(1, 9, 0.2),
            value(2, 9, 0.1),
            value(3, 9, 0.3),
            value(4, 9, 0.2),
        ];
        fit_to_firsts(&mut values, &heavy);
        let shares: Vec<f64> = values.iter().map(|v| v.share).collect();
        assert!((shares[0] - 0.17).abs() < 1e-12, "{shares:?}");
        assert!((shares[1] - 0.1).abs() < 1e-12, "{shares:?}");
        // 0.33 is left for 0.5 asked: each gets its part of it.
        assert!((shares[2] + shares[3] - 0.33).abs() < 1e-12, "{shares:?}");
        assert!((shares[2] / shares[3] - 1.5).abs() < 1e-9, "{shares:?}");
    }

    #[test]
    fn values_that_write_alike_shrink_to_their_mean() {
        // 200 contacts of one tenant, each a Poisson count of mean 58: their spread is
        // chance's, and the luckiest is sized as the others, whether they are a group or
        // compared with their neighbours.
        let counts = poisson(200, 58.0);
        let max = *counts.iter().max().unwrap();
        assert!(max >= 75, "{max}");
        let lines = Lines::of(counts.iter().copied());
        for local in [false, true] {
            let top = lines.estimate(max, local).lines;
            assert!((top - 58.0).abs() <= 0.1 * 58.0, "{local}: {top}");
        }
    }

    #[test]
    fn values_written_again_and_again_are_known_by_their_neighbours() {
        // A production org's 3,000 tickets, each a Poisson count of mean 4 lines: a
        // ticket's 4 lines say little alone (under 5), but alike, all 12,000 lines know
        // its rate. With no spread past chance each ticket is shrunk to the mean 4, whose
        // variance is 4 / 3,000: as precise as 4² / (4 / 3,000) = 12,000 lines of its own.
        let tickets = Lines::of(poisson(3_000, 4.0).into_iter());
        let e = tickets.estimate(4, false);
        assert!((e.lines - 4.0).abs() < 0.2, "{}", e.lines);
        assert!(e.repeated && e.precision > 5_000.0, "{}", e.precision);
        let sure = net_of_chance(400.0, 4, &e).expect("sized on its own");
        assert!((sure - 400.0 * e.lines.min(4.0) / 4.0).abs() < 1e-9);
        // 3,000 ids created once each: as alike (1² / (1 / 3,000) = 3,000 lines), but one
        // line of each is no rate.
        let ids = Lines::of(std::iter::repeat_n(1, 3_000));
        let e = ids.estimate(1, false);
        assert!(
            !e.repeated && (e.precision - 3_000.0).abs() < 1e-6,
            "{}",
            e.precision
        );
        assert_eq!(net_of_chance(100.0, 1, &e), None);
        // Two values of 3 lines: written again, but two know their mean to 3 / 2 only,
        // 3² / 1.5 = 6 lines; one of 3 lines alone knows it to its own 3.
        let e = Lines::of([3, 3].into_iter()).estimate(3, false);
        assert!((e.precision - 6.0).abs() < 1e-9, "{}", e.precision);
        let e = Lines::of([3].into_iter()).estimate(3, false);
        assert!((e.precision - 3.0).abs() < 1e-9, "{}", e.precision);
        assert_eq!(net_of_chance(100.0, 3, &e), None);
        // 20 users of one line and 20 of three: a group written again (mean 2, no spread
        // past chance, so each is shrunk to 2, known to 2 / 40). A user of three lines is
        // sized on its own at 2 of them; one of a single line may have been created once.
        let users = Lines::of(std::iter::repeat_n(1, 20).chain(std::iter::repeat_n(3, 20)));
        let e = users.estimate(3, false);
        assert!((e.precision - 80.0).abs() < 1e-9, "{}", e.precision);
        let sure = net_of_chance(300.0, 3, &e).expect("sized on its own");
        assert!((sure - 200.0).abs() < 1e-9, "{sure}");
        assert_eq!(net_of_chance(100.0, 1, &users.estimate(1, false)), None);
        // Spread past chance weighs the mean less, and knows it less: lines 2 and 8 (mean
        // 5, variance 9, spread 4, B = 5 / 9): the 2 is shrunk to 5 + 4/9 × (2 − 5) = 3.67,
        // its variance (4/9) 3.67 + (5/9) 5 / 2 = 3.02, as precise as 4.45 lines: under 5.
        let e = Lines::of([2, 8].into_iter()).estimate(2, false);
        assert!((e.lines - 11.0 / 3.0).abs() < 1e-9, "{}", e.lines);
        assert!((e.precision - 4.45).abs() < 0.01, "{}", e.precision);
        assert_eq!(net_of_chance(100.0, 2, &e), None);
    }

    #[test]
    fn the_typical_value_leaves_out_the_few_sized_on_their_own() {
        // 297 stores of 1 line, 39 of 2 and a stadium of 69 sized on its own: the stores'.
        let stores: Vec<u64> = std::iter::repeat_n(1, 297)
            .chain(std::iter::repeat_n(2, 39))
            .collect();
        let all: Vec<u64> = stores.iter().copied().chain([69]).collect();
        assert_eq!(typical_of(stores.clone(), all), typical(stores.into_iter()));
        // Every value sized on its own (200 tenants of 5 lines): they are the population.
        let all = vec![5u64; 200];
        assert_eq!(typical_of(Vec::new(), all), Some(5.0));
    }

    #[test]
    fn values_that_differ_keep_their_counts() {
        // One tenant of 300 lines among 300 of one line: the spread is theirs.
        let counts = std::iter::once(300).chain(std::iter::repeat_n(1, 300));
        let lines = Lines::of(counts);
        assert!((lines.estimate(300, false).lines - 300.0).abs() < 3.0);
        assert_eq!(lines.estimate(300, true).lines, 300.0);
        assert_eq!(Lines::of([6, 6].into_iter()).estimate(6, false).lines, 6.0);
    }

    #[test]
    fn neighbours_keep_alike_values_apart_from_others() {
        // A single-level key's contacts: 200 of a large tenant at 58 lines, 2,000 of
        // smaller tenants at 4. The whole group's spread is mostly the tenants', so it
        // would barely shrink the luckiest contact; its neighbours are its tenant's.
        let counts: Vec<u64> = poisson(200, 58.0)
            .into_iter()
            .chain(poisson(2_000, 4.0))
            .collect();
        let max = *counts.iter().max().unwrap();
        let lines = Lines::of(counts.into_iter());
        assert!(lines.estimate(max, false).lines > 0.9 * max as f64);
        let local = lines.estimate(max, true).lines;
        assert!((local - 58.0).abs() <= 0.1 * 58.0, "{local}");
    }
}
