//! The share of the data to come that goes to key values the sample does not hold,
//! measured on the log's creates.
//!
//! The projection needs `p`, the share of new data that new values take (see
//! [`super::project`]). The sample alone can only infer it (the values first seen in its
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
    /// Of those new first levels, the largest (at most [`HEAVY_FIRSTS`], each with at
    /// least [`HEAVY_FIRST_SHARE`] of their bytes), with their share of those bytes, by
    /// EPK prefix: a production tenant the pilot never saw takes its share inside its own
    /// range, which then splits as the service splits it, not spread over the whole space.
    pub heavy_firsts: Vec<(Vec<u8>, f64)>,
}

/// New first levels placed at their own prefix, at most.
pub const HEAVY_FIRSTS: usize = 64;
/// The least share of the new first levels' created bytes one must have to be placed at
/// its own prefix.
pub const HEAVY_FIRST_SHARE: f64 = 1.0 / 256.0;

impl Newcomers {
    /// What the measure says of entities, given which of the key's levels are clock
    /// readings (bit `i` for level `i`: see [`clock_levels`](super::clock::clock_levels)): a log that follows the
    /// sample in time writes new days whatever the mix of devices, and the share of those
    /// is the sample's own arrivals' to tell (see [`super::project`]). So a key whose first
    /// level is a clock keeps nothing; a key with a clock in a later level keeps only the
    /// share of new first levels (the devices of `/deviceId,/day`).
    pub fn of_entities(self, clocks: u8) -> Option<Newcomers> {
        match clocks {
            0 => Some(self),
            c if c & 1 != 0 => None,
            _ => self.new_first_levels.map(|_| Newcomers {
                share: None,
                ..self
            }),
        }
    }
}

/// Bytes of creates tested: whose value the sample holds, and not; of a hierarchical
/// key, bytes of creates whose first level it holds, and not.
#[derive(Default)]
struct Tally {
    held: f64,
    new: f64,
    tested: u64,
    first: (f64, f64),
    /// Bytes of each new first level.
    new_firsts: FxHashMap<Vec<u8>, f64>,
}

/// The largest new first levels and their shares of `all` (see
/// [`Newcomers::heavy_firsts`]), largest first (ties by prefix).
fn heavy_firsts(bytes: FxHashMap<Vec<u8>, f64>, all: f64) -> Vec<(Vec<u8>, f64)> {
    let mut heavy: Vec<(Vec<u8>, f64)> = (bytes.into_iter())
        .filter(|(_, b)| all > 0.0 && *b >= HEAVY_FIRST_SHARE * all)
        .map(|(p, b)| (p, b / all))
        .collect();
    heavy.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    heavy.truncate(HEAVY_FIRSTS);
    heavy
}

/// The first levels the statistics hold (the first 16 bytes of a hierarchical key's EPKs);
/// empty for any other key.
type FirstLevels<'a> = FxHashSet<&'a [u8]>;

fn first_level(epk: &[u8]) -> &[u8] {
    &epk[..epk.len().min(16)]
}

/// The share measured on `log`'s creates under the key of `key` (not a layout) against
/// `stats`, when at least [`MIN_TESTED`] of them could be tested.
pub fn measure(log: &Log, key: &Subject<'_>, stats: &CandidateStats) -> Option<Newcomers> {
    let mut tally = Tally::default();
    let mut scratch = Scratch::default();
    let hierarchical =
        key.definition.kind() == PartitionKind::MultiHash && key.definition.paths().len() > 1;
    let firsts: FirstLevels<'_> = match hierarchical {
        true => stats
            .values
            .epks()
            .map(|e| first_level(e.as_bytes()))
            .collect(),
        false => FxHashSet::default(),
    };
    let mut t = Tester {
        key,
        stats,
        firsts: &firsts,
        scratch: &mut scratch,
        precedes: sample_precedes(log, stats),
    };
    for op in &log.ops {
        t.kind(&op.kind, op, &mut tally);
    }
    let all = tally.held + tally.new;
    let firsts = tally.first.0 + tally.first.1;
    (tally.tested >= MIN_TESTED && all > 0.0).then(|| Newcomers {
        share: Some(tally.new / all),
        new_first_levels: (hierarchical && firsts > 0.0).then(|| tally.first.1 / firsts),
        heavy_firsts: heavy_firsts(tally.new_firsts, tally.first.1),
    })
}

/// What testing a create needs.
struct Tester<'a, 's> {
    key: &'a Subject<'a>,
    stats: &'a CandidateStats,
    firsts: &'a FirstLevels<'a>,
    scratch: &'s mut Scratch,
    /// No create whose id the sample's ids keep is held: creates of other ids are new items.
    precedes: bool,
}

/// Whether the sample was taken before the log: of the creates whose id hash the sample's
/// ids keep, none is held. True when the ids are all kept (then each create is told apart).
fn sample_precedes(log: &Log, stats: &CandidateStats) -> bool {
    fn any_held(kind: &OpKind, stats: &CandidateStats) -> bool {
        match kind {
            OpKind::Create(w) => {
                (w.id.as_deref()).is_some_and(|id| stats.owners.get(id_hash(id)).is_some())
            }
            OpKind::Batch(ops) => ops.iter().any(|k| any_held(k, stats)),
            _ => false,
        }
    }
    !log.ops.iter().any(|op| any_held(&op.kind, stats))
}

impl Tester<'_, '_> {
    fn kind(&mut self, kind: &OpKind, op: &Operation, tally: &mut Tally) {
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

    fn write(&mut self, w: &WriteOp, op: &Operation, tally: &mut Tally) {
        let Some(epk) = self.epk(w, op.line) else {
            return;
        };
        let bytes = w.bytes as f64 * op.count as f64;
        if !self.firsts.is_empty() {
            let first = first_level(epk.as_bytes());
            match self.firsts.contains(first) {
                true => tally.first.0 += bytes,
                false => {
                    tally.first.1 += bytes;
                    *tally.new_firsts.entry(first.to_vec()).or_default() += bytes;
                }
            }
        }
        let v1 = self.key.definition.is_v1();
        if let Some((held, weight)) = self.stats.values.holds(value_hash(&epk, v1)) {
            match held {
                true => tally.held += bytes * weight,
                false => tally.new += bytes * weight,
            }
            tally.tested += 1;
        }
    }

    /// The EPK of the value `w` writes, when the write tells something (see the module).
    fn epk(&mut self, w: &WriteOp, line: u64) -> Option<Epk> {
        if let Some(id) = w.id.as_ref().filter(|_| self.stats.owners.is_recorded()) {
            // An id the owners do not keep is in no table: whether the sample holds it
            // is told by `precedes` alone.
            let h = id_hash(id);
            let owners = &self.stats.owners;
            if owners.get(h).is_some() || (!owners.keeps(h) && !self.precedes) {
                return None;
            }
        }
        self.key.key_epk(w, line, self.scratch)
    }
}
