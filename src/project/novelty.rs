//! What the log's creates say the sample is: on each probed path (see
//! [`crate::stats::novelty`]), the share of created bytes whose value the sample does not
//! hold, beside the share a uniform sample leaves unseen (Good–Turing's).
//!
//! Creates are tested as [`super::newcomers`] tests them ([`super::newcomers::tells`]):
//! one of an item the sample holds tells nothing and is left out; an id the sample's ids
//! do not keep is tested only when no create whose id they keep is held (the sample
//! precedes the log).

use rustc_hash::FxHashSet;

use crate::engine::epk::V2Digest;
use crate::log::Log;
use crate::log::op::{OpKind, WriteOp};
use crate::stats::novelty::{KEPT, Novelty};

/// What one probed path says.
#[derive(Clone, Debug, PartialEq)]
pub struct Unseen {
    /// The path's index among the probed paths.
    pub path: usize,
    /// The share of the tested creates' bytes whose value the sample does not hold.
    pub new: f64,
    /// The share of the sample's documents whose value it saw once.
    pub uniform: f64,
    /// Distinct new values the log creates, among the values kept.
    pub new_values: usize,
    /// Distinct values the sample holds, among the values kept.
    pub values: usize,
}

impl Unseen {
    /// Whether the log creates at least as many new values as the sample holds, and at
    /// least [`MIN_NEW_VALUES`]: a pilot's tenants among production's, not the one month a
    /// snapshot's log writes after it, nor the state new items start in (a ledger's
    /// `pending` beside the sample's `posted`).
    pub fn outnumbers(&self) -> bool {
        self.new_values >= self.values.max(MIN_NEW_VALUES)
    }
}

/// Documents a path must be carried by in the sample: Good–Turing's unseen share read
/// from fewer says little (three documents of one locale leave "0% unseen" of a dozen).
pub const MIN_DOCS: u64 = 100;

/// New values the log must create on a path for it to say the sample holds only some:
/// tenants, devices or stores come many at a time; a state or a stage a new item starts in
/// comes alone.
pub const MIN_NEW_VALUES: usize = 3;

/// Creates tested on a path before its share is used.
const MIN_TESTED: u64 = super::newcomers::MIN_TESTED;

/// Bytes of the tested creates: held, new; creates tested; new values kept.
#[derive(Default)]
struct Tally {
    held: f64,
    new: f64,
    tested: u64,
    values: FxHashSet<u64>,
}

/// Each probed path's [`Unseen`], of `fields` (the probed paths' indices among the log's
/// fields), where at least [`super::newcomers::MIN_TESTED`] creates were tested and the
/// sample carries the path in at least [`MIN_DOCS`] documents.
pub fn unseen(log: &Log, n: &Novelty, fields: &[usize]) -> Vec<Unseen> {
    let mut creates: Vec<(&WriteOp, f64)> = Vec::new();
    for op in &log.ops {
        collect(&op.kind, op.count as f64, &mut creates);
    }
    let held = |h: u64| n.ids.keeps(h).then(|| n.ids.get(h) > 0);
    let precedes = super::newcomers::precedes(log, &held);
    let mut tallies: Vec<Tally> = fields.iter().map(|_| Tally::default()).collect();
    for (w, count) in creates {
        if !super::newcomers::tells(w, &held, precedes) {
            continue;
        }
        let bytes = w.bytes as f64 * count;
        for ((t, &f), (kept, _)) in tallies.iter_mut().zip(fields).zip(&n.paths) {
            let Some(crate::field::Field::Scalar(v)) = w.fields.get(f).map(|f| f.as_field()) else {
                continue;
            };
            let h = V2Digest::of(v).h1;
            if !kept.keeps(h) {
                continue;
            }
            t.tested += 1;
            if kept.get(h) > 0 {
                t.held += bytes;
            } else {
                t.new += bytes;
                if t.values.len() < 4 * KEPT {
                    t.values.insert(h);
                }
            }
        }
    }
    (tallies.into_iter().zip(&n.paths).enumerate())
        .filter(|(_, (t, (_, docs)))| {
            t.tested >= MIN_TESTED && t.held + t.new > 0.0 && *docs >= MIN_DOCS
        })
        .map(|(path, (t, (kept, docs)))| Unseen {
            path,
            new: t.new / (t.held + t.new),
            uniform: kept.singleton_share(*docs),
            new_values: t.values.len(),
            values: kept.len(),
        })
        .collect()
}

/// The creates of `kind`, each with the operations its line stands for.
fn collect<'a>(kind: &'a OpKind, count: f64, out: &mut Vec<(&'a WriteOp, f64)>) {
    match kind {
        OpKind::Create(w) => out.push((w, count)),
        OpKind::Batch(ops) => ops.iter().for_each(|k| collect(k, count, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::PkValue;
    use crate::log::op::{Operation, OwnedField};
    use crate::stats::owners::id_hash;

    fn create(id: &str, tenant: &str, bytes: u64, line: u64) -> Operation {
        Operation {
            kind: OpKind::Create(WriteOp {
                id: Some(id.to_owned()),
                fields: vec![OwnedField::Scalar(PkValue::String(tenant.to_owned()))],
                bytes,
                partial: false,
            }),
            count: 1,
            ts: None,
            ru: None,
            visits: None,
            line,
        }
    }

    fn hash(s: &str) -> u64 {
        V2Digest::of(crate::engine::PkValueRef::Str(s)).h1
    }

    /// A sample of tenants t0..t9 (ten documents each, ids s0..s99).
    fn sample() -> Novelty {
        let mut n = Novelty::new(1);
        for i in 0..100 {
            n.add(0, hash(&format!("t{}", i % 10)));
            n.add_id(id_hash(&format!("s{i}")));
        }
        n
    }

    #[test]
    fn creates_on_unseen_tenants_are_counted_by_bytes() {
        // 30 creates of 100 bytes on a known tenant, 10 of 300 bytes on 10 new ones.
        let mut log = Log::default();
        for i in 0..40u64 {
            let (tenant, bytes) = match i < 30 {
                true => (format!("t{}", i % 10), 100),
                false => (format!("n{i}"), 300),
            };
            log.ops.push(create(&format!("c{i}"), &tenant, bytes, i));
        }
        let u = unseen(&log, &sample(), &[0]);
        assert_eq!(u.len(), 1);
        assert!((u[0].new - 0.5).abs() < 1e-12, "{u:?}");
        // Two new tenants are as many as a state a new item starts in: too few.
        let two = Unseen {
            new_values: 2,
            values: 1,
            ..u[0].clone()
        };
        assert!(!two.outnumbers());
        assert_eq!((u[0].new_values, u[0].values, u[0].uniform), (10, 10, 0.0));
        assert!(u[0].outnumbers());
    }

    #[test]
    fn a_sample_of_few_documents_says_nothing() {
        let mut few = Novelty::new(1);
        for i in 0..3 {
            few.add(0, hash("t0"));
            few.add_id(id_hash(&format!("s{i}")));
        }
        let mut log = Log::default();
        for i in 0..40u64 {
            log.ops
                .push(create(&format!("c{i}"), &format!("n{i}"), 100, i));
        }
        assert!(unseen(&log, &few, &[0]).is_empty());
        assert_eq!(unseen(&log, &sample(), &[0]).len(), 1);
    }

    #[test]
    fn creates_of_items_the_sample_holds_tell_nothing() {
        // The log overlaps the sample: its creates of s0..s19 are held and left out; the
        // others, on new tenants, are tested (their ids are kept, and not held).
        let mut log = Log::default();
        for i in 0..20u64 {
            log.ops
                .push(create(&format!("s{i}"), &format!("t{}", i % 10), 100, i));
        }
        for i in 0..5u64 {
            log.ops.push(create(&format!("c{i}"), "n", 100, 20 + i));
        }
        assert!(unseen(&log, &sample(), &[0]).is_empty(), "5 tested of 25");
        for i in 5..20u64 {
            log.ops.push(create(&format!("c{i}"), "n", 100, 20 + i));
        }
        let u = unseen(&log, &sample(), &[0]);
        assert_eq!((u[0].new, u[0].new_values), (1.0, 1));
        assert!(!u[0].outnumbers());
    }
}
