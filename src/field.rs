//! What a document holds at one property path: the common language of the document
//! readers (which extract fields) and the key evaluators (which turn fields into key values).

use crate::engine::PkValueRef;

/// The content of one path in one document.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Field<'a> {
    /// The path is absent (a partition key sees `undefined`).
    Missing,
    /// A JSON scalar: a valid key component.
    Scalar(PkValueRef<'a>),
    /// A JSON object: never a valid key value.
    Object,
    /// A JSON array: never a valid key value.
    Array,
}

impl<'a> Field<'a> {
    /// The key component this field gives: `undefined` when missing, `None` for an object
    /// or array (which cannot be a key).
    pub fn component(self) -> Option<PkValueRef<'a>> {
        match self {
            Field::Missing => Some(PkValueRef::Undefined),
            Field::Scalar(v) => Some(v),
            Field::Object | Field::Array => None,
        }
    }
}
