//! What groups a single-level key's values in the log: the sample's entity each value
//! belongs to (a channel's workspace, a contact's tenant).
//!
//! The log's new values are sized net of chance against their neighbours (see
//! [`super::newcomers`]). A hierarchical key's values have theirs: the values under the
//! same first level. A single-level key's values have none in the key, but the documents
//! say which entity each belongs to: of the sample's entities the log's creates carry (the
//! probed paths), the one each of the key's values has a single value of (at most 1% of
//! the values with two), with at least 2 values and at most half as many as the key's,
//! groups them; of several, the finest. `/channelId` is then grouped by `/workspaceId`, as
//! `/workspaceId,/channelId` is, and a workspace's 400 channels that write alike are sized
//! alike under both keys. An `/id` grouped by its tenant changes nothing: a value of one
//! line is never sized from its group.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHashSet, FxHasher};

use crate::engine::PkValue;
use crate::key::Scratch;
use crate::log::Log;
use crate::log::op::{OpKind, OwnedField, WriteOp};
use crate::replay::subject::Subject;
use crate::stats::value_hash;

/// Key values whose entities are followed, at most: enough to tell a grouping, and a
/// bounded table whatever the log's size.
const FOLLOWED: usize = 1 << 16;

/// Marks a key value seen with two values of an entity.
const CONFLICT: u64 = u64::MAX;

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
    Some(h.finish().min(CONFLICT - 1))
}

/// Each key value's entity on one path, and whether any had two.
#[derive(Default)]
struct Votes {
    of: FxHashMap<u64, u64>,
}

impl Votes {
    fn add(&mut self, value: u64, entity: u64) {
        if self.of.len() >= FOLLOWED && !self.of.contains_key(&value) {
            return;
        }
        let slot = self.of.entry(value).or_insert(entity);
        if *slot != entity {
            *slot = CONFLICT;
        }
    }

    /// The distinct entities, when they group the values (see the module).
    fn groups(&self) -> Option<usize> {
        let conflicts = self.of.values().filter(|&&e| e == CONFLICT).count();
        let entities: FxHashSet<u64> = (self.of.values().copied())
            .filter(|&e| e != CONFLICT)
            .collect();
        let n = entities.len();
        (100 * conflicts <= self.of.len() && n >= 2 && 2 * n <= self.of.len()).then_some(n)
    }
}

/// Of the entities at `entities` (indices among the log's extracted paths), the one that
/// groups the values of the single-level key `key` in `log`'s creates (see the module).
pub fn grouping(log: &Log, key: &Subject<'_>, entities: &[usize]) -> Option<usize> {
    let paths: Vec<usize> = (entities.iter().copied())
        .filter(|e| !key.inputs.contains(e))
        .collect();
    if paths.is_empty() {
        return None;
    }
    let mut votes: Vec<Votes> = paths.iter().map(|_| Votes::default()).collect();
    let mut scratch = Scratch::default();
    let v1 = key.definition.is_v1();
    let mut add = |w: &WriteOp, line: u64| {
        let Some(epk) = key.key_epk(w, line, &mut scratch) else {
            return;
        };
        let value = value_hash(&epk, v1);
        for (v, &p) in votes.iter_mut().zip(&paths) {
            if let Some(entity) = field_hash(w.fields.get(p)) {
                v.add(value, entity);
            }
        }
    };
    for op in &log.ops {
        each_create(&op.kind, &mut |w| add(w, op.line));
    }
    (paths.iter().zip(&votes))
        .filter_map(|(&p, v)| Some((v.groups()?, p)))
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))
        .map(|(_, p)| p)
}

fn each_create<'a>(kind: &'a OpKind, f: &mut impl FnMut(&'a WriteOp)) {
    match kind {
        OpKind::Create(w) => f(w),
        OpKind::Batch(ops) => ops.iter().for_each(|k| each_create(k, f)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_group_the_values_they_each_hold_one_of() {
        // 10 channels of 2 workspaces: each channel in one workspace groups them; an
        // author each channel has several of does not, nor does a region all share.
        let mut w = Votes::default();
        let mut author = Votes::default();
        let mut region = Votes::default();
        for channel in 0..10u64 {
            for message in 0..3u64 {
                w.add(channel, channel % 2);
                author.add(channel, message);
                region.add(channel, 7);
            }
        }
        assert_eq!(w.groups(), Some(2));
        assert_eq!(author.groups(), None);
        assert_eq!(region.groups(), None);
        // One channel in two workspaces among 10: more than 1% conflict.
        w.add(3, 0);
        assert_eq!(w.groups(), None);
        // A scalar's hash is its value's, whatever its field; absent fields vote nothing.
        let s = |x: &str| OwnedField::Scalar(PkValue::String(x.to_owned()));
        assert_eq!(field_hash(Some(&s("w-1"))), field_hash(Some(&s("w-1"))));
        assert_ne!(field_hash(Some(&s("w-1"))), field_hash(Some(&s("w-2"))));
        assert_eq!(field_hash(Some(&OwnedField::Missing)), None);
        assert_eq!(field_hash(None), None);
    }
}
