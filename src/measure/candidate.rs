//! A candidate design: a key (with the definition it is evaluated under) or a client-side
//! layout, why it is considered, and its role in the report.

use std::sync::Arc;

use crate::engine::{KeyPath, PartitionKeyDefinition};
use crate::key::{KeySpec, Layout};
use crate::report::model::Role;

/// A candidate and why it is considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The key.
    pub spec: KeySpec,
    /// Why: `given with --key`, or what auto mode saw.
    pub origin: String,
    /// The container definition, when it is not the spec's own (a declared Hash V1 key).
    pub definition: Option<PartitionKeyDefinition>,
    /// A client-side layout of fixed collections, measured by its resolver's path (`spec`
    /// is that path, or `/id` for a spillover).
    pub layout: Option<Arc<Layout>>,
    /// Why it is considered.
    pub role: Role,
}

impl Candidate {
    /// A candidate with the spec's own definition.
    pub fn new(spec: KeySpec, origin: impl Into<String>) -> Candidate {
        Candidate {
            spec,
            origin: origin.into(),
            definition: None,
            layout: None,
            role: Role::Given,
        }
    }

    /// The same candidate with `role`.
    pub fn with_role(mut self, role: Role) -> Candidate {
        self.role = role;
        self
    }

    /// A client-side layout as a candidate.
    pub fn layout(layout: Layout, origin: impl Into<String>) -> Candidate {
        let path = (layout.path().cloned()).unwrap_or_else(|| KeyPath::from_segments(["id"]));
        let spec =
            KeySpec::new(vec![crate::key::KeyLevel::Path(path)]).expect("one path is a valid key");
        Candidate {
            spec,
            origin: origin.into(),
            definition: None,
            layout: Some(Arc::new(layout)),
            role: Role::Given,
        }
    }

    /// The name the report gives it: the key's spec, or the layout's.
    pub fn name(&self) -> String {
        match &self.layout {
            Some(l) => l.to_string(),
            None => self.spec.to_string(),
        }
    }

    /// The definition it is evaluated under.
    pub fn definition(&self) -> PartitionKeyDefinition {
        self.definition
            .clone()
            .unwrap_or_else(|| self.spec.definition())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Tier;

    #[test]
    fn keys_and_layouts_are_named_and_defined_as_the_report_shows_them() {
        let key = Candidate::new(KeySpec::parse("/tenantId,/userId").unwrap(), "given");
        assert_eq!(key.name(), "/tenantId,/userId");
        assert_eq!(key.definition(), key.spec.definition());
        assert_eq!(key.role, Role::Given);
        let no_map = |_: &str| Err("no maps".to_owned());
        let hash = Layout::parse("hash:/userId=8", Tier::default(), &no_map).unwrap();
        let layout = Candidate::layout(hash, "given with --layout").with_role(Role::Declared);
        // Measured by its resolver's path, named by its spec.
        assert_eq!(layout.spec.to_string(), "/userId");
        assert_eq!(layout.name(), "hash:/userId=8");
        assert_eq!(layout.role, Role::Declared);
        let spill = Layout::parse("spillover", Tier::default(), &no_map).unwrap();
        assert_eq!(Candidate::layout(spill, "").spec.to_string(), "/id");
    }
}
