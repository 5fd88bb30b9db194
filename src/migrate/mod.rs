//! `pkadvisor migrate`: a plan for copying a container into a new one of another key, made
//! before the copy starts (`cosmos-facts.md` §20, container copy jobs).
//!
//! - [`preflight`]: what stops the copy halfway (a value of the new key past 20 GB, and at
//!   what share of the copy; (id, new key) pairs two source items share), what it leaves to
//!   do by hand (the default TTL, documents without the key) and the portal's limits.
//! - [`copy`]: the copy's RU (change-feed reads on the source, creates on the target), its
//!   duration as a range, its money, and the new container's partitions after it.
//!
//! Both read the sample's documents as the copy sees them ([`crate::stats::copy`]) and the
//! two keys' projections onto the container's size: the source key's partitions give the
//! order the copy reads in, the new key's the values and partitions it writes to.

pub mod copy;
pub mod preflight;

use crate::engine::Container;
use crate::pricing::bill::Prices;
use crate::project::kinds::SampleKind;
use crate::report::migration::{MIGRATION_SCHEMA_VERSION, MigrationReport};
use crate::report::model::{InputSummary, Tool};
use std::collections::BTreeMap;

use crate::stats::copy::{CopyTrace, Record};

/// The container today, under its key.
pub struct Source<'a> {
    /// Its key.
    pub spec: String,
    /// Its layout at the target's size.
    pub container: &'a Container,
    /// Its RU/s (an autoscale maximum).
    pub ru: f64,
    /// RU/s its workload uses in its busiest hour, when a log gives rates.
    pub load_ru: Option<f64>,
    /// The share of the workload's RU its writes take.
    pub write_share: f64,
    /// Its largest value and projected bytes, when past 20 GB beyond chance.
    pub largest: Option<(String, u64)>,
}

/// The new container, under the new key.
pub struct Target<'a> {
    /// Its key.
    pub spec: String,
    /// Its layout at the target's size, created at the workload's throughput.
    pub container: &'a Container,
    /// The workload's RU/s on it afterwards (the source's).
    pub ru: f64,
    /// Its key's levels.
    pub levels: usize,
    /// Whether its values pass 20 GB beyond chance (`LOGICAL_PARTITION_LIMIT`, which
    /// pools the counts of the values past it).
    pub breaks: bool,
    /// What the replayed workload charged it, RU, and of that the reads that visit every
    /// partition (their count).
    pub replay: Replayed,
}

/// What the log's replay charged the new key.
#[derive(Clone, Copy, Debug, Default)]
pub struct Replayed {
    /// RU over the replay.
    pub ru: f64,
    /// Reads that visited every partition.
    pub fan_out_reads: f64,
    /// RU/s the key needs for the workload, when known.
    pub need_ru: Option<f64>,
}

/// Everything the plan is made from.
pub struct Inputs<'a> {
    /// The sample's documents as the copy sees them.
    pub trace: &'a CopyTrace,
    /// The container today.
    pub source: Source<'a>,
    /// The new container.
    pub target: Target<'a>,
    /// What was read.
    pub input: InputSummary,
    /// What the sample is (a snapshot's counts carry chance).
    pub sample: SampleKind,
    /// The container's size, bytes.
    pub storage_bytes: u64,
    /// `--copy-throughput`: RU/s for the new container during the copy (else its own).
    pub copy_ru: Option<f64>,
    /// `--online`: the surcharge on the source's writes during the copy.
    pub online: Option<f64>,
    /// Prices and regions.
    pub prices: &'a Prices,
    /// The container's declared `defaultTtl`, when a file declares it on.
    pub default_ttl: Option<i64>,
    /// Whether a file declares the container (its time to live is then known).
    pub ttl_declared: bool,
    /// `--merged`: the container has had a partition merge.
    pub merged: bool,
    /// `--redact`: key values and ids are printed as hashes.
    pub redact: bool,
}

impl Inputs<'_> {
    /// Target items (or bytes) one kept record stands for: the sample's scale to the
    /// container over the share of ids the trace kept.
    pub fn weight(&self) -> f64 {
        let scale = self.storage_bytes as f64 / self.input.bytes.max(1) as f64;
        scale / self.trace.kept_share()
    }

    /// The sample's share of the container (at most 1).
    pub fn share(&self) -> f64 {
        (self.input.bytes as f64 / self.storage_bytes.max(1) as f64).min(1.0)
    }
}

/// The trace's records in the order the copy reads them, each with the source partition
/// it is read from (see [`crate::stats::copy::CopyTrace::in_copy_order`]).
pub type CopyOrder<'a> = Vec<(usize, &'a Record)>;

/// The records of `inp`'s trace in the order the copy reads them: the source's partitions
/// one after another in EPK order, each in write order.
fn copy_order<'a>(inp: &Inputs<'a>) -> CopyOrder<'a> {
    let source = inp.source.container;
    (inp.trace).in_copy_order(|s| source.route(&crate::engine::Epk::from_bytes(s.as_bytes())))
}

/// The values of `c` whose bytes `keep` keeps: value hash → bytes.
fn value_sizes(c: &Container, keep: impl Fn(u64) -> bool) -> BTreeMap<u64, u64> {
    let mut c = c.clone();
    let v1 = c.definition().is_v1();
    let mut out = BTreeMap::new();
    for i in 0..c.partitions().len() {
        for l in c.logical_partitions(i).iter().filter(|l| keep(l.bytes)) {
            out.insert(crate::stats::value_hash(&l.epk, v1), l.bytes);
        }
    }
    out
}

/// The plan.
pub fn plan(inp: &Inputs<'_>) -> MigrationReport {
    let order = copy_order(inp);
    let pre = preflight::preflight(inp, &order);
    let (copy, after, copy_notes) = copy::copy(inp, &order);
    let mut failures = preflight::failures(&pre, inp);
    if copy.source_ru_free <= 0.0 {
        failures.push(format!(
            "the source has no RU/s left for the copy's reads: its workload takes {} of its {} RU/s; raise it or stop the writes",
            crate::report::text::thousands(inp.source.load_ru.unwrap_or(0.0).round()),
            crate::report::text::thousands(inp.source.ru.round()),
        ));
    }
    let mut notes = preflight::notes(&pre, inp);
    notes.extend(copy_notes);
    MigrationReport {
        schema_version: MIGRATION_SCHEMA_VERSION.to_owned(),
        tool: Tool::default(),
        input: inp.input.clone(),
        from: inp.source.spec.clone(),
        to: inp.target.spec.clone(),
        storage_bytes: inp.storage_bytes,
        items: (inp.input.documents as f64 * inp.storage_bytes as f64
            / inp.input.bytes.max(1) as f64)
            .round() as u64,
        passed: failures.is_empty(),
        failures,
        notes,
        preflight: pre,
        copy,
        after,
    }
}
