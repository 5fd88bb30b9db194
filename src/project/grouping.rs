//! What groups a single-level key's new values in the log: the sample's entity each value
//! belongs to (a channel's workspace, a contact's tenant).
//!
//! The log's new values are sized net of chance against their neighbours (see
//! [`super::newcomers`]). A hierarchical key's values have theirs: the values under the
//! same first level. A single-level key's values have none in the key, but the log's
//! creates carry the sample's entities (the probed paths). An entity groups the new
//! values when
//! - at least 90% of them carry it;
//! - each has a single value of it, but for at most 10% (a user moved to another tenant:
//!   such a value is grouped by the first it was seen with);
//! - it has at least 2 values, and at most half as many as the key has new values;
//!
//! and of those, the one that explains most of the spread of the values' lines (the
//! between-group sum of squares; ties to the first probed) groups them. An expert compares
//! a workspace's channels with each other because a busy workspace's channels are busy:
//! `/channelId` is then grouped by `/workspaceId` (as `/workspaceId,/channelId` is), and not
//! by a per-user country or a near-constant region, which explain nothing of the rates.
//! A profile keeps no entities: its single-level keys are not grouped.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use crate::engine::PkValue;
use crate::log::op::{OwnedField, WriteOp};

/// New values whose entities are followed, at most: enough to tell a grouping, and a
/// bounded table whatever the log's size.
const FOLLOWED: usize = 1 << 16;

/// Marks a value seen with two values of an entity.
const CONFLICT: u64 = u64::MAX;

/// Marks a value none of whose creates carried the entity.
const ABSENT: u64 = u64::MAX - 1;

/// The hash of a logged document's scalar field, `None` when it is absent or not a
/// scalar.
pub fn field_hash(field: Option<&OwnedField>) -> Option<u64> {
    let OwnedField::Scalar(v) = field? else {
        return None;
    };
    let mut h = FxHasher::default();
    match v {
        PkValue::Undefined => return None,
        PkValue::Null => 0u8.hash(&mut h),
        PkValue::Bool(b) => (1u8, b).hash(&mut h),
        PkValue::Number(n) => (2u8, n.to_bits()).hash(&mut h),
        PkValue::String(s) => (3u8, s).hash(&mut h),
    }
    Some(h.finish().min(ABSENT - 1))
}

/// The entities the new values' creates carried, path by path.
pub struct Grouping {
    /// The probed paths (indices among the log's extracted paths), in probe order.
    paths: Vec<usize>,
    /// Per new value, per path, its entity (or [`CONFLICT`], [`ABSENT`]).
    of: FxHashMap<u64, Vec<u64>>,
}

impl Grouping {
    /// Following the entities at `paths`, other than the key's own `inputs`; `None` when
    /// none is left.
    pub fn new(paths: &[usize], inputs: &[usize]) -> Option<Grouping> {
        let paths: Vec<usize> = (paths.iter().copied())
            .filter(|p| !inputs.contains(p))
            .collect();
        (!paths.is_empty()).then(|| Grouping {
            paths,
            of: FxHashMap::default(),
        })
    }

    /// One create `w` of the new value `value`.
    pub fn add(&mut self, value: u64, w: &WriteOp) {
        if self.of.len() >= FOLLOWED && !self.of.contains_key(&value) {
            return;
        }
        let n = self.paths.len();
        let entities = self.of.entry(value).or_insert_with(|| vec![ABSENT; n]);
        for (slot, &p) in entities.iter_mut().zip(&self.paths) {
            match (field_hash(w.fields.get(p)), *slot) {
                (None, _) | (_, CONFLICT) => {}
                (Some(e), ABSENT) => *slot = e,
                (Some(e), s) if s != e => *slot = CONFLICT,
                _ => {}
            }
        }
    }

    /// Of the followed paths, the one that groups the values (see the module), given each
    /// value's lines: its position among the paths.
    pub fn choose(&self, lines: impl Fn(u64) -> Option<u64>) -> Option<usize> {
        let values: Vec<(u64, f64)> = (self.of.keys())
            .filter_map(|&v| Some((v, lines(v)? as f64)))
            .collect();
        let n = values.len() as f64;
        if n < 2.0 {
            return None;
        }
        let mean = values.iter().map(|v| v.1).sum::<f64>() / n;
        let explained = |i: usize| -> Option<f64> {
            let mut groups: FxHashMap<u64, (f64, f64)> = FxHashMap::default();
            let (mut absent, mut conflicts) = (0.0, 0.0);
            for &(v, l) in &values {
                match self.of[&v][i] {
                    ABSENT => absent += 1.0,
                    CONFLICT => conflicts += 1.0,
                    e => {
                        let g = groups.entry(e).or_default();
                        *g = (g.0 + 1.0, g.1 + l);
                    }
                }
            }
            let k = groups.len() as f64;
            let ok = absent <= 0.1 * n && conflicts <= 0.1 * n && k >= 2.0 && 2.0 * k <= n;
            ok.then(|| {
                groups
                    .values()
                    .map(|g| g.0 * (g.1 / g.0 - mean).powi(2))
                    .sum()
            })
        };
        (0..self.paths.len())
            .filter_map(|i| Some((i, explained(i)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
            .map(|(i, _)| i)
    }

    /// The entity of `value` on the path at `i` (see [`Grouping::choose`]), if it has one.
    pub fn group_of(&self, i: usize, value: u64) -> Option<u64> {
        let e = *self.of.get(&value)?.get(i)?;
        (e != ABSENT && e != CONFLICT).then_some(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::op::OwnedField;

    fn create(fields: &[&str]) -> WriteOp {
        WriteOp {
            id: None,
            fields: (fields.iter())
                .map(|f| match f.is_empty() {
                    true => OwnedField::Missing,
                    false => OwnedField::Scalar(PkValue::String((*f).to_owned())),
                })
                .collect(),
            bytes: 100,
            partial: false,
        }
    }

    #[test]
    fn the_entity_that_explains_the_rates_groups_the_values() {
        // Paths 0: the key itself; 1: tenant; 2: country (fixed per user, unrelated to
        // rates); 3: a region all share; 4: a project few creates carry. 40 users of a busy
        // tenant write 4 lines each, 40 of a quiet one 1 line each.
        let mut g = Grouping::new(&[0, 1, 2, 3, 4], &[0]).expect("paths");
        let mut lines = FxHashMap::default();
        for user in 0..80u64 {
            let (tenant, n) = if user < 40 {
                ("t-big", 4)
            } else {
                ("t-small", 1)
            };
            let country = format!("c{}", user % 8);
            for i in 0..n {
                let project = if user == 0 && i == 0 { "p1" } else { "" };
                g.add(user, &create(&["u", tenant, &country, "eu", project]));
            }
            lines.insert(user, n);
        }
        let chosen = g.choose(|v| lines.get(&v).copied());
        assert_eq!(chosen, Some(0), "the tenant (path 1, at position 0)");
        let (a, b) = (g.group_of(0, 1), g.group_of(0, 50));
        assert!(a.is_some() && b.is_some() && a != b);
        // A user moved to another tenant keeps the first it was seen with out of the
        // grouping; 8 of 80 (10%) still leave the tenant the grouping.
        for user in 0..8u64 {
            g.add(user, &create(&["u", "t-other", "c0", "eu", ""]));
        }
        assert_eq!(g.choose(|v| lines.get(&v).copied()), Some(0));
        assert_eq!(g.group_of(0, 3), None);
        // Absent fields vote nothing; a scalar's hash is its value's.
        let s = |x: &str| OwnedField::Scalar(PkValue::String(x.to_owned()));
        assert_eq!(field_hash(Some(&s("w-1"))), field_hash(Some(&s("w-1"))));
        assert_ne!(field_hash(Some(&s("w-1"))), field_hash(Some(&s("w-2"))));
        assert_eq!(field_hash(Some(&OwnedField::Missing)), None);
        // Only the key's own path: nothing to group by.
        assert!(Grouping::new(&[0], &[0]).is_none());
    }
}
