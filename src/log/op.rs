//! Logged operations, as the workload replay needs them: queries reduced to the key
//! constraints they carry, point operations to their id and known values, writes to the
//! fields of the document they write.

use crate::engine::{KeyPath, PkValue, PkValueRef};
use crate::field::Field;
use crate::query::Extraction;

/// A field of a logged document, owned.
#[derive(Clone, Debug, PartialEq)]
pub enum OwnedField {
    /// The path is absent.
    Missing,
    /// A scalar.
    Scalar(PkValue),
    /// An object.
    Object,
    /// An array.
    Array,
}

impl OwnedField {
    /// Borrows it as a [`Field`].
    pub fn as_field(&self) -> Field<'_> {
        match self {
            OwnedField::Missing => Field::Missing,
            OwnedField::Scalar(v) => Field::Scalar(v.as_ref()),
            OwnedField::Object => Field::Object,
            OwnedField::Array => Field::Array,
        }
    }

    /// The field of `doc` at `path`.
    pub fn of(doc: &serde_json::Value, path: &KeyPath) -> OwnedField {
        let mut v = doc;
        for seg in path.segments() {
            match v.get(seg) {
                Some(next) if v.is_object() => v = next,
                _ => return OwnedField::Missing,
            }
        }
        match v {
            serde_json::Value::Object(_) => OwnedField::Object,
            serde_json::Value::Array(_) => OwnedField::Array,
            scalar => PkValue::from_json(scalar).map_or(OwnedField::Missing, OwnedField::Scalar),
        }
    }
}

/// The value a log gives for a compared property whose literal it hid (an obfuscated
/// query): the query fixes the property, but not to a value the log shows.
pub const HIDDEN: &str = "\u{0}hidden";

/// A point operation: the item id and the values the application knows.
#[derive(Clone, Debug, PartialEq)]
pub struct PointOp {
    /// The item id.
    pub id: String,
    /// Known property values by path.
    pub known: Vec<(KeyPath, PkValue)>,
}

impl PointOp {
    /// The known value at `path`: the id at `/id`, [`HIDDEN`] when the log did not give it
    /// (an empty id: the application knows it, the log does not show it).
    pub fn lookup(&self, path: &KeyPath) -> Option<PkValueRef<'_>> {
        if let Some((_, v)) = self.known.iter().find(|(p, _)| p == path) {
            return Some(v.as_ref());
        }
        let id = if self.id.is_empty() { HIDDEN } else { &self.id };
        (path.segments() == ["id"]).then_some(PkValueRef::Str(id))
    }
}

/// A write: the written document's id, its fields at the planned paths, and its size.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteOp {
    /// The document's `id`, when it has a string one.
    pub id: Option<String>,
    /// Its fields, in the order of the planned paths.
    pub fields: Vec<OwnedField>,
    /// Its JSON size in bytes.
    pub bytes: u64,
    /// Whether the log gave only some of its fields (an Azure Monitor request knows the
    /// current key's value, not the document): a key it cannot compute is not the
    /// undefined value but one the replay places as the sample's documents lie.
    pub partial: bool,
}

/// What an operation does.
#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// A query, reduced to its constraints and shape.
    Query(Box<Extraction>),
    /// A point read.
    Read(PointOp),
    /// A patch.
    Patch(PointOp),
    /// A delete.
    Delete(PointOp),
    /// A create.
    Create(WriteOp),
    /// An upsert.
    Upsert(WriteOp),
    /// A replace.
    Replace(WriteOp),
    /// A transactional batch or stored-procedure call.
    Batch(Vec<OpKind>),
}

impl OpKind {
    /// About the heap bytes beyond a fixed footprint: a query's alternatives (an `IN` list
    /// of thousands of values holds as many), a point operation's id and known values, a
    /// write's id and fields, a batch's operations.
    pub fn extra_bytes(&self) -> usize {
        match self {
            OpKind::Query(x) => x
                .constraints
                .alternatives()
                .map_or(0, |alts| alts.iter().map(|c| c.approx_bytes()).sum()),
            OpKind::Read(p) | OpKind::Patch(p) | OpKind::Delete(p) => {
                p.id.len()
                    + (p.known.iter())
                        .map(|(path, v)| 64 + path_bytes(path) + value_bytes(v))
                        .sum::<usize>()
            }
            OpKind::Create(w) | OpKind::Upsert(w) | OpKind::Replace(w) => {
                w.id.as_ref().map_or(0, String::len)
                    + (w.fields.iter())
                        .map(|f| match f {
                            OwnedField::Scalar(v) => 32 + value_bytes(v),
                            _ => 32,
                        })
                        .sum::<usize>()
            }
            OpKind::Batch(ops) => ops.iter().map(|o| 256 + o.extra_bytes()).sum(),
        }
    }

    /// The id of the item it reads or writes, when it names one (a query names none, a
    /// batch several).
    pub fn item_id(&self) -> Option<&str> {
        match self {
            OpKind::Read(p) | OpKind::Patch(p) | OpKind::Delete(p) => Some(&p.id),
            OpKind::Create(w) | OpKind::Upsert(w) | OpKind::Replace(w) => w.id.as_deref(),
            OpKind::Query(_) | OpKind::Batch(_) => None,
        }
    }

    /// Whether it reads (queries and point reads): the operations routing is judged on.
    pub fn is_read(&self) -> bool {
        matches!(self, OpKind::Query(_) | OpKind::Read(_))
    }

    /// Whether it writes (a batch writes when any of its operations does).
    pub fn is_write(&self) -> bool {
        match self {
            OpKind::Batch(ops) => ops.iter().any(OpKind::is_write),
            other => !other.is_read(),
        }
    }
}

/// The heap bytes of a value: a string's text.
fn value_bytes(v: &PkValue) -> usize {
    match v {
        PkValue::String(s) => s.len(),
        _ => 0,
    }
}

/// The heap bytes of a path: its segments.
fn path_bytes(p: &KeyPath) -> usize {
    p.segments().iter().map(|s| 24 + s.len()).sum()
}

/// One logged operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    /// What it does.
    pub kind: OpKind,
    /// How many times it happened.
    pub count: u64,
    /// Arrival time, seconds since the epoch.
    pub ts: Option<i64>,
    /// Observed request charge (per occurrence).
    pub ru: Option<f64>,
    /// The physical partitions the observed charge was spent on, when the log says (an
    /// Azure Monitor query's distinct `PartitionKeyRangeId`s); one when it does not.
    pub visits: Option<u32>,
    /// Its line in the log.
    pub line: u64,
}
