//! What a replay is given besides the log: the candidate, and the sample documents.

use crate::engine::{Epk, PartitionKeyDefinition};
use crate::field::Field;
use crate::key::{KeySpec, KeyValue, Scratch};
use crate::log::op::{OwnedField, WriteOp};
use crate::stats::Blocks;
use crate::stats::arrival::Arrival;

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
    /// The share of the real traffic the log holds (`--log-share`): below 1, the lines a
    /// value's load is made of are a sample, and chance is taken out of it.
    pub log_share: f64,
    /// Of a log of every request of a share of the values, whose values are as fine as
    /// the unit it samples: that share. Each value's load is exact, and the target holds
    /// `1 / share` values like it hashed at random: a value's load lands `share` on its
    /// own partition and the rest spread over all of them.
    pub exact_values: Option<f64>,
    /// Whether the run's log keeps or drops each item whole (every request of a share of
    /// the values), whatever this key makes of it: its windows' volumes are summed item by
    /// item before they are squared, the same for every candidate of the run.
    pub items_whole: bool,
}

impl Subject<'_> {
    /// Whether a write's key value cannot be computed because the log gave only some of
    /// the document's fields and not those the key reads.
    pub fn lacks_inputs(&self, w: &WriteOp) -> bool {
        w.partial && (self.inputs.iter()).any(|&i| matches!(w.fields[i], OwnedField::Missing))
    }

    /// The EPK the key gives the document `w` writes at log line `line` (random suffixes
    /// are drawn by line), by the key itself, not a layout's resolver; `None` when the log
    /// gave too little of it, or its value is not a valid key.
    pub fn key_epk(&self, w: &WriteOp, line: u64, scratch: &mut Scratch) -> Option<Epk> {
        self.key_labelled(w, line, scratch, |_| false)
            .map(|(epk, _)| epk)
    }

    /// [`Subject::key_epk`], with the value's label (see [`crate::stats::label`]) when
    /// `wanted` says so of its EPK.
    pub fn key_labelled(
        &self,
        w: &WriteOp,
        line: u64,
        scratch: &mut Scratch,
        wanted: impl FnOnce(&Epk) -> bool,
    ) -> Option<(Epk, Option<String>)> {
        if self.lacks_inputs(w) {
            return None;
        }
        let fields: Vec<Field<'_>> = self
            .inputs
            .iter()
            .map(|&i| w.fields[i].as_field())
            .collect();
        match self.spec.evaluate(&fields, line, self.seed, scratch) {
            KeyValue::Components(c) => {
                let epk = self.definition.epk_unchecked(c.as_slice());
                let label = wanted(&epk).then(|| crate::stats::label(c.as_slice()));
                Some((epk, label))
            }
            KeyValue::Invalid => None,
        }
    }
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
    /// What requests are charged under: the documents' indexed terms, the consistency.
    pub charges: crate::pricing::charge::Charges,
    /// Which value each document's item id is held under: an upsert or replace in the log
    /// under another value moves the item.
    pub owners: &'a crate::stats::owners::Owners,
    /// The sample's share of the container's writes at the target (its bytes over the
    /// target's, at most 1): replayed as creates when no logged operation counts, they are
    /// a sample of those writes, and where they land is partly chance.
    pub share: f64,
}
