//! The key block of a report (canonical spec, kind and Cosmos DB definition), for a key,
//! a layout or a secondary index.

use super::evaluate::Evaluation;
use crate::engine::PartitionKeyDefinition;
use crate::key::KeySpec;
use crate::redact::hider;
use crate::report::model::KeyInfo;

/// The key block of an evaluated candidate: a key's, or a layout's (`kind` `layout`, its
/// canonical spec, and its collections in place of a definition); `redact` hides the
/// values a layout's spec and collection names hold.
pub fn key_of(e: &Evaluation, redact: bool) -> KeyInfo {
    let hide = hider(redact);
    match &e.layout {
        Some(l) => KeyInfo {
            spec: l.spec_with(&hide),
            kind: "layout".to_owned(),
            definition: l.to_json(e.projection.container.partitions().len(), &hide),
        },
        None => key_info(&e.spec, &e.definition),
    }
}

/// The key block of a report: canonical spec, kind and Cosmos DB definition.
pub fn key_info(spec: &KeySpec, definition: &PartitionKeyDefinition) -> KeyInfo {
    KeyInfo {
        spec: spec.to_string(),
        kind: spec.kind().as_str().to_owned(),
        definition: definition.to_json(),
    }
}
