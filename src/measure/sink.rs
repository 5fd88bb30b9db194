//! From documents to per-candidate statistics: evaluates every candidate key on every
//! document and feeds the accumulators of [`crate::stats`]. One [`MeasureSink`] per reading
//! thread; sinks merge.

use std::sync::Arc;

use super::candidate::Candidate;
use crate::engine::Epk;
use crate::engine::PkValueRef;
use crate::engine::epk::V2Digest;
use crate::engine::{KeyPath, PartitionKeyDefinition};
use crate::field::Field;
use crate::input::{Document, Sink};
use crate::key::{KeyLevel, KeySpec, KeyValue, Layout, Scratch};
use crate::stats::copy::{CopyTrace, EpkPrefix, Record};
use crate::stats::novelty::Novelty;
use crate::stats::owners::{Owners, id_hash};
use crate::stats::{CandidateStats, value_hash};
use crate::time::epoch_seconds;

/// The candidates and how their inputs map onto the document paths read.
#[derive(Debug)]
pub struct Plan {
    candidates: Vec<Planned>,
    paths: Vec<KeyPath>,
    time_field: Option<usize>,
    /// The index of `/id` among the paths: the item id whose owner is recorded.
    id_field: usize,
    /// The index of `/ttl`: how long the item lives.
    ttl_field: usize,
    budget: usize,
    /// Bytes of each candidate's map of item owners (see [`crate::stats::owners`]).
    owners_budget: usize,
    /// Whether the owners are recorded at all: only a log's writes look them up.
    owners: bool,
    seed: u64,
    /// The indices among the paths of the paths probed for what the sample is (see
    /// [`crate::stats::novelty`]).
    probe: Vec<usize>,
    /// For each probed path, a candidate whose digest of the document's value it takes
    /// (a plain version-2 key of that path), if any.
    probe_digests: Vec<Option<usize>>,
    /// How many paths there were before the probed ones were added.
    probe_from: usize,
    /// For `migrate`: the candidates (source key, new key) whose copy is traced, and the
    /// trace's bytes (see [`crate::stats::copy`]).
    trace: Option<(usize, usize, usize)>,
}

#[derive(Debug)]
struct Planned {
    spec: KeySpec,
    definition: PartitionKeyDefinition,
    /// For each of the spec's inputs, its index among the paths read.
    fields: Vec<usize>,
    /// For a key of one plain path, that path's index: its value is the field's.
    plain: Option<usize>,
    /// A client-side layout: documents are placed by its resolver.
    layout: Option<Arc<Layout>>,
}

/// The index of `p` among `paths`, added at the end when it is not there.
fn index_of(p: &KeyPath, paths: &mut Vec<KeyPath>) -> usize {
    match paths.iter().position(|q| q == p) {
        Some(i) => i,
        None => {
            paths.push(p.clone());
            paths.len() - 1
        }
    }
}

impl Plan {
    /// Plans the reading of `specs`, with arrival windows by `time_path` when given;
    /// `budget` bytes of per-value memory are shared by all candidates.
    pub fn new(
        candidates: &[Candidate],
        time_path: Option<&KeyPath>,
        budget: usize,
        seed: u64,
    ) -> Plan {
        let mut paths: Vec<KeyPath> = Vec::new();
        let planned = candidates
            .iter()
            .map(|c| {
                let fields: Vec<usize> = c
                    .spec
                    .inputs()
                    .iter()
                    .map(|p| index_of(p, &mut paths))
                    .collect();
                let plain = match (c.spec.levels(), &fields[..]) {
                    ([KeyLevel::Path(_)], &[i]) => Some(i),
                    _ => None,
                };
                Planned {
                    fields,
                    plain: plain.filter(|_| c.layout.is_none()),
                    layout: c.layout.clone(),
                    definition: c.definition(),
                    spec: c.spec.clone(),
                }
            })
            .collect::<Vec<_>>();
        let time_field = time_path.map(|p| index_of(p, &mut paths));
        let id_field = index_of(&KeyPath::from_segments(["id"]), &mut paths);
        let ttl_field = index_of(&KeyPath::from_segments(["ttl"]), &mut paths);
        // Per-value maps get three quarters of the run's memory, the maps of item owners
        // an eighth; the rest is for the reader's buffers, the sketches, and the transient
        // copies of merging.
        let n = candidates.len().max(1);
        Plan {
            candidates: planned,
            paths,
            time_field,
            id_field,
            ttl_field,
            budget: budget / 4 * 3 / n,
            owners_budget: budget / 8 / n,
            owners: true,
            seed,
            probe: Vec::new(),
            probe_digests: Vec::new(),
            probe_from: 0,
            trace: None,
        }
    }

    /// Traces a copy from candidate `from`'s key to candidate `to`'s (see
    /// [`crate::stats::copy`]) within `budget` bytes.
    pub fn with_trace(mut self, from: usize, to: usize, budget: usize) -> Plan {
        self.trace = Some((from, to, budget));
        self
    }

    /// Reads `paths` too, into the record of the sample's values that tells a pilot from a
    /// snapshot (see [`crate::stats::novelty`]).
    pub fn with_probe(mut self, paths: &[KeyPath]) -> Plan {
        self.probe_from = self.paths.len();
        for p in paths {
            let i = index_of(p, &mut self.paths);
            self.probe.push(i);
            let digested = |c: &Planned| c.plain == Some(i) && !c.definition.is_v1();
            (self.probe_digests).push(self.candidates.iter().position(digested));
        }
        self
    }

    /// Probes nothing (a log without writes tests nothing against the sample), and reads
    /// no path only the probe needed.
    pub fn without_probe(mut self) -> Plan {
        if !self.probe.is_empty() {
            self.paths.truncate(self.probe_from);
        }
        self.probe.clear();
        self.probe_digests.clear();
        self
    }

    /// The indices among [`paths`](Self::paths) of the probed paths (see
    /// [`with_probe`](Self::with_probe)), in order.
    pub fn probe(&self) -> &[usize] {
        &self.probe
    }

    /// Records the owners of the sample's items only when `needed` (a log with writes, which
    /// may move an item the sample holds or create one it already holds): a run without one
    /// does without twenty tables of a random access per document each.
    pub fn with_owners(mut self, needed: bool) -> Plan {
        self.owners = needed;
        self
    }

    /// Every document path to extract.
    pub fn paths(&self) -> &[KeyPath] {
        &self.paths
    }

    /// For candidate `i`, the index among [`paths`](Self::paths) of each of its inputs.
    pub fn inputs(&self, i: usize) -> &[usize] {
        &self.candidates[i].fields
    }

    /// The candidates' specs, in order.
    pub fn specs(&self) -> impl Iterator<Item = &KeySpec> {
        self.candidates.iter().map(|c| &c.spec)
    }
}

/// Accumulates statistics for every candidate of a plan.
#[derive(Debug)]
pub struct MeasureSink {
    plan: Arc<Plan>,
    /// Statistics per candidate, in plan order.
    pub stats: Vec<CandidateStats>,
    /// Documents whose `--time-path` held no timestamp (left out of arrival windows).
    pub untimed: u64,
    /// Indexed terms of every document read, under the reading's indexing policy.
    pub terms: u64,
    /// The documents' own `ttl`.
    pub ttl: Ttl,
    /// The sample's values on the probed paths, and its ids.
    pub novelty: Novelty,
    scratch: Scratch,
    /// Per candidate, the digest of the document's value for a plain version-2 key.
    digests: Vec<Option<V2Digest>>,
    /// Threads that merge two sinks' statistics (candidate by candidate).
    threads: usize,
    /// The copy traced for `migrate`, when the plan asks for one.
    pub trace: Option<CopyTrace>,
}

impl MeasureSink {
    /// An empty sink for `plan`, dividing `threads` ways the per-value memory budget.
    pub fn new(plan: Arc<Plan>, threads: usize) -> Self {
        // The same share whatever the thread count (up to four): hash sampling then keeps
        // the same values however the input is divided, and merged results do not depend
        // on --threads.
        let budget = plan.budget / threads.max(BUDGET_SHARES);
        let by_time = plan.time_field.is_some();
        let owners = plan.owners_budget / threads.max(BUDGET_SHARES);
        let stats = (plan.candidates.iter())
            .map(|c| {
                let mut s = CandidateStats::new(budget, by_time);
                if c.spec.levels().len() > 1 {
                    s.values.keep_to_budget();
                }
                if plan.owners {
                    s.owners = Owners::new(owners);
                }
                s
            })
            .collect();
        let novelty = Novelty::new(plan.probe.len());
        // The whole budget for each thread's trace: merged, the trace then keeps the same
        // ids however the input was divided.
        let trace = (plan.trace).map(|(_, _, b)| CopyTrace::new(b));
        MeasureSink {
            plan,
            stats,
            untimed: 0,
            terms: 0,
            ttl: Ttl::default(),
            novelty,
            scratch: Default::default(),
            digests: Vec::new(),
            threads,
            trace,
        }
    }

    /// Where the document arrived: its timestamp with `--time-path`, else its input
    /// position. `None` when the timestamp is missing (it is then left out of arrivals).
    fn position(&mut self, doc: &Document<'_>) -> Option<i64> {
        let Some(i) = self.plan.time_field else {
            return Some(doc.ordinal as i64);
        };
        let t = match doc.fields[i] {
            Field::Scalar(v) => epoch_seconds(v),
            _ => None,
        };
        self.untimed += t.is_none() as u64;
        t
    }
}

/// Counts the document as holding an unsafe number when an input's integer literal lies
/// beyond ±2^53 though its double does not show it (`9007199254740993` reads as 2^53),
/// unless its components were counted already.
fn unsafe_literal(
    stats: &mut CandidateStats,
    doc: &Document<'_>,
    inputs: &[usize],
    parts: &[PkValueRef<'_>],
) {
    if doc.beyond_2_53 == 0 {
        return;
    }
    let beyond = inputs
        .iter()
        .any(|&i| i < 64 && doc.beyond_2_53 & (1 << i) != 0);
    let counted = parts.iter().any(|p| match p {
        PkValueRef::Number(n) => crate::engine::value::is_unsafe_number(*n),
        _ => false,
    });
    if beyond && !counted {
        stats.unsafe_numbers += 1;
    }
}

/// Counts a document under a client-side layout: at the EPK its resolver gives it (a
/// spillover's documents all at one: they are placed by arrival at the projection), or as
/// one the resolver cannot place.
fn place(
    layout: &Layout,
    definition: &PartitionKeyDefinition,
    doc: &Document<'_>,
    field: usize,
    stats: &mut CandidateStats,
    position: Option<i64>,
) {
    if layout.is_spillover() {
        let epk = crate::engine::Epk::min();
        stats.add(&[PkValueRef::Null], &epk, false, doc.bytes, position);
        return;
    }
    let value = doc.fields[field].component();
    // Collections are counted at the projection; any count places a value in the same
    // part of its collection's range, so the slice statistics hold.
    let n = layout.collections(0);
    match value.and_then(|v| Some((v, layout.place(v, definition, n)?))) {
        Some((v, epk)) => {
            let slice = stats.add(&[v], &epk, false, doc.bytes, position);
            stats.blocks.add(doc.ordinal, slice);
        }
        None => {
            stats.add_invalid(doc.bytes);
            match value {
                // Without the path: counted as missing too, so the report says why.
                Some(PkValueRef::Undefined) => stats.missing += 1,
                Some(v) => stats.note_unplaced(v),
                None => {}
            }
        }
    }
}

/// Digests the document's value for every plain version-2 key first (none for the other
/// candidates), asking for each value's slot in its candidate's table of kept values, and
/// for the slot of the item id (hash `id`) in its owners: the slots, which twenty
/// candidates' tables spread far beyond the cache, arrive while the rest hash.
fn digest_plain(
    plan: &Plan,
    stats: &[CandidateStats],
    doc: &Document<'_>,
    id: Option<u64>,
    digests: &mut Vec<Option<V2Digest>>,
) {
    digests.clear();
    let each = plan.candidates.iter().zip(stats);
    digests.extend(each.map(|(c, stats)| {
        if let Some(id) = id {
            stats.owners.prefetch(id);
        }
        let i = c.plain.filter(|_| !c.definition.is_v1())?;
        let d = V2Digest::of(doc.fields[i].component()?);
        stats.values.prefetch_kept(d.h1);
        Some(d)
    }));
}

/// Records the document's values on the probed paths and its id (see
/// [`crate::stats::novelty`]), taking a candidate's digest of a value where it has one
/// and the id's hash where the owners took it.
fn probe(
    plan: &Plan,
    doc: &Document<'_>,
    (digests, id): (&[Option<V2Digest>], Option<u64>),
    novelty: &mut Novelty,
) {
    if plan.probe.is_empty() {
        return;
    }
    let each = plan.probe.iter().zip(&plan.probe_digests).enumerate();
    for (i, (&f, &digested)) in each {
        if let Field::Scalar(v) = doc.fields[f] {
            let d = digested.and_then(|c| digests[c]);
            novelty.add(i, d.unwrap_or_else(|| V2Digest::of(v)).h1);
        }
    }
    let id = id.or_else(|| match doc.fields[plan.id_field] {
        Field::Scalar(PkValueRef::Str(s)) => Some(id_hash(s)),
        _ => None,
    });
    if let Some(h) = id {
        novelty.add_id(h);
    }
}

/// Records the document as the copy of `plan`'s trace sees it: the source key's EPK, the
/// new key's value, its id. A document whose source value is invalid (an object) is not
/// in the source container and is left out.
fn trace(
    plan: &Plan,
    doc: &Document<'_>,
    position: Option<i64>,
    scratch: &mut Scratch,
    out: Option<&mut CopyTrace>,
) {
    let (Some((from, to, _)), Some(out)) = (plan.trace, out) else {
        return;
    };
    let epk_of = |c: &Planned, scratch: &mut Scratch| {
        let fields: Vec<Field<'_>> = c.fields.iter().map(|&i| doc.fields[i]).collect();
        match c.spec.evaluate(&fields, doc.ordinal, plan.seed, scratch) {
            KeyValue::Components(parts) => {
                let parts = parts.as_slice();
                let missing = parts.iter().any(|p| matches!(p, PkValueRef::Undefined));
                let epk = c.definition.epk_unchecked(parts);
                Some((epk, crate::stats::label(parts), missing))
            }
            KeyValue::Invalid => None,
        }
    };
    let (f, t) = (&plan.candidates[from], &plan.candidates[to]);
    let Some((source, _, _)) = epk_of(f, scratch) else {
        return;
    };
    let Some((target, label, missing)) = epk_of(t, scratch) else {
        return;
    };
    let id_text = match doc.fields[plan.id_field] {
        Field::Scalar(PkValueRef::Str(s)) => Some(s),
        _ => None,
    };
    out.add(Record {
        source: EpkPrefix::of(source.as_bytes()),
        position: position.unwrap_or(i64::MAX),
        from: value_hash(&source, f.definition.is_v1()),
        to: value_hash(&target, t.definition.is_v1()),
        to_epk: EpkPrefix::of(target.as_bytes()),
        // Without an id, sampled by its position: every document still counts.
        id: id_text.map_or_else(
            || crate::engine::murmur::murmur3_x64_128(&doc.ordinal.to_le_bytes()).0,
            id_hash,
        ),
        bytes: doc.bytes.min(u64::from(u32::MAX)) as u32,
        terms: doc.terms,
        label,
        id_text: id_text.map_or_else(String::new, crate::stats::cut_label),
        missing,
    });
}

/// The documents' own time to live (`ttl`, seconds; -1: never).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ttl {
    /// The longest positive `ttl`.
    pub longest: f64,
    /// Documents with a positive `ttl`.
    pub expiring: u64,
    /// Documents without one (or not a number): they live as the container says.
    pub unset: u64,
    /// Documents with `ttl` -1: they never expire.
    pub forever: u64,
}

impl Ttl {
    /// Counts one document's `ttl` field.
    pub fn add(&mut self, f: &Field<'_>) {
        match f {
            Field::Scalar(PkValueRef::Number(n)) if *n > 0.0 => {
                self.longest = self.longest.max(*n);
                self.expiring += 1;
            }
            Field::Scalar(PkValueRef::Number(n)) if *n == -1.0 => self.forever += 1,
            _ => self.unset += 1,
        }
    }

    /// Adds what `other` counted.
    pub fn merge(&mut self, other: Ttl) {
        self.longest = self.longest.max(other.longest);
        self.expiring += other.expiring;
        self.unset += other.unset;
        self.forever += other.forever;
    }

    /// How long the longest-lived item lives (seconds), given the container's default
    /// (`--retention`): `None` when some item lives forever (a `ttl` of -1, or none
    /// without a default).
    pub fn retention(&self, default: Option<f64>) -> Option<f64> {
        if self.forever > 0 {
            return None;
        }
        match (self.unset > 0, default) {
            (true, None) => None,
            (true, Some(d)) => Some(d.max(self.longest)),
            (false, _) => (self.expiring > 0).then_some(self.longest),
        }
    }
}

/// Records that the document's item (id hash `id`, when it has a string id) is held under
/// the value of hash `value`.
#[inline(always)]
fn owned(stats: &mut CandidateStats, id: Option<u64>, value: u64) {
    if let Some(id) = id {
        stats.owners.add(id, value);
    }
}

/// The component of a missing path.
const UNDEFINED: [PkValueRef<'static>; 1] = [PkValueRef::Undefined];

/// The per-value budget is divided this many ways (or by the thread count, if larger).
const BUDGET_SHARES: usize = 4;

/// Inputs gathered on the stack for keys with at most this many.
const INLINE_INPUTS: usize = 8;

/// Counts a document of a key of one path hashed with version 2 (Hash or MultiHash): its
/// EPK is its one component's, whose digest `d` gives the value's hash (the last eight
/// bytes of a 16-byte EPK) and slice; the EPK is made only for a value kept. Returns the
/// slice.
#[inline(always)]
fn add_digested(
    stats: &mut CandidateStats,
    d: V2Digest,
    parts: &[PkValueRef<'_>],
    id: Option<u64>,
    bytes: u64,
    position: Option<i64>,
) -> usize {
    let epk = || Epk::from_bytes(&d.bytes());
    owned(stats, id, d.h1);
    stats.add_hashed(parts, d.h1, || d.slice(), &epk, bytes, position)
}

impl Sink for MeasureSink {
    fn document(&mut self, doc: &Document<'_>) {
        let position = self.position(doc);
        self.terms += u64::from(doc.terms);
        // Borrow the fields apart: cloning the shared plan per document would make the
        // reading threads fight over its reference count.
        let MeasureSink {
            plan,
            stats,
            scratch,
            digests,
            ..
        } = self;
        let id = match doc.fields[plan.id_field] {
            Field::Scalar(PkValueRef::Str(s)) if plan.owners => Some(id_hash(s)),
            _ => None,
        };
        digest_plain(plan, stats, doc, id, digests);
        self.ttl.add(&doc.fields[plan.ttl_field]);
        probe(plan, doc, (digests, id), &mut self.novelty);
        let each = plan.candidates.iter().zip(stats.iter_mut());
        for ((c, stats), digest) in each.zip(digests.iter()) {
            if let Some(layout) = &c.layout {
                place(layout, &c.definition, doc, c.fields[0], stats, position);
                continue;
            }
            if let Some(i) = c.plain {
                // The value borrowed where the document holds it, not moved: copies of
                // this enum go byte by byte and stall the loads that read them back.
                let parts: &[PkValueRef<'_>] = match &doc.fields[i] {
                    Field::Scalar(v) => std::slice::from_ref(v),
                    Field::Missing => &UNDEFINED,
                    Field::Object | Field::Array => {
                        stats.add_invalid(doc.bytes);
                        continue;
                    }
                };
                let slice = match *digest {
                    Some(d) => add_digested(stats, d, parts, id, doc.bytes, position),
                    // Hashed with version 1: no digest was taken.
                    None => {
                        let epk = c.definition.epk_unchecked(parts);
                        owned(stats, id, value_hash(&epk, true));
                        stats.add(parts, &epk, true, doc.bytes, position)
                    }
                };
                stats.blocks.add(doc.ordinal, slice);
                unsafe_literal(stats, doc, &c.fields, parts);
                continue;
            }
            let mut inline = [Field::Missing; INLINE_INPUTS];
            let spilled: Vec<Field<'_>>;
            let fields: &[Field<'_>] = if let [one] = c.fields[..] {
                std::slice::from_ref(&doc.fields[one])
            } else if c.fields.len() <= INLINE_INPUTS {
                for (slot, &i) in inline.iter_mut().zip(&c.fields) {
                    *slot = doc.fields[i];
                }
                &inline[..c.fields.len()]
            } else {
                spilled = c.fields.iter().map(|&i| doc.fields[i]).collect();
                &spilled
            };
            match c.spec.evaluate(fields, doc.ordinal, plan.seed, scratch) {
                KeyValue::Components(parts) => {
                    let parts = parts.as_slice();
                    let epk = c.definition.epk_unchecked(parts);
                    let v1 = c.definition.is_v1();
                    owned(stats, id, value_hash(&epk, v1));
                    let slice = stats.add(parts, &epk, v1, doc.bytes, position);
                    stats.blocks.add(doc.ordinal, slice);
                    unsafe_literal(stats, doc, &c.fields, parts);
                }
                KeyValue::Invalid => stats.add_invalid(doc.bytes),
            }
        }
        trace(plan, doc, position, scratch, self.trace.as_mut());
    }

    fn merge(&mut self, other: Self) {
        // Each candidate's merge is independent: the reading threads are free again.
        let pairs: Vec<_> = self.stats.iter_mut().zip(other.stats).collect();
        crate::parallel::map(pairs, self.threads, &|_, (mine, theirs)| mine.merge(theirs));
        self.untimed += other.untimed;
        self.terms += other.terms;
        self.ttl.merge(other.ttl);
        self.novelty.merge(other.novelty);
        if let (Some(mine), Some(theirs)) = (&mut self.trace, other.trace) {
            mine.merge(theirs);
        }
    }

    fn finish(&mut self) {
        for s in &mut self.stats {
            s.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_reads_each_path_once_for_every_candidate_that_needs_it() {
        let specs = [
            "/tenantId",
            "/tenantId,/userId",
            "concat(/userId,/tenantId)",
        ];
        let candidates: Vec<Candidate> = (specs.iter())
            .map(|s| Candidate::new(KeySpec::parse(s).unwrap(), "given"))
            .collect();
        let ts = KeyPath::parse("/ts").unwrap();
        let plan = Plan::new(&candidates, Some(&ts), 64 << 20, 0);
        let paths: Vec<String> = plan.paths().iter().map(ToString::to_string).collect();
        // The item id too (which value the sample holds each item under), and its ttl.
        assert_eq!(paths, ["/tenantId", "/userId", "/ts", "/id", "/ttl"]);
        assert_eq!(plan.inputs(0), [0]);
        assert_eq!(plan.inputs(1), [0, 1]);
        assert_eq!(plan.inputs(2), [1, 0], "in the order the spec names them");
        // Per-value memory: three quarters of the budget, shared by the candidates.
        assert_eq!(plan.budget, (64 << 20) / 4 * 3 / 3);
        // Item owners: an eighth, shared likewise.
        assert_eq!(plan.owners_budget, (64 << 20) / 8 / 3);
    }
}
