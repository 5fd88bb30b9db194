//! A container's partition-key definition (`paths`, `kind`, `version`), validated the way
//! Cosmos DB validates it, and the EPKs and EPK ranges it gives key values.

use serde::Serialize;

use super::epk::{self, Epk, EpkRange};
use super::path::{KeyPath, PathError};
use super::value::PkValueRef;

/// `Hash` (one path) or `MultiHash` (hierarchical, 1–3 paths).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum PartitionKind {
    /// One path, Hash V1 or V2.
    Hash,
    /// Hierarchical keys: 1–3 paths, always version 2.
    MultiHash,
}

/// The most levels a hierarchical key may have.
pub const MAX_LEVELS: usize = 3;

/// Why a definition is not one Cosmos DB would accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DefinitionError {
    /// A Hash key has exactly one path.
    #[error(
        "a Hash partition key has exactly one path, not {0} (use MultiHash for hierarchical keys)"
    )]
    HashPathCount(usize),
    /// A MultiHash key has 1 to 3 paths.
    #[error("a MultiHash partition key has 1 to 3 paths, not {0}")]
    MultiHashPathCount(usize),
    /// Only versions 1 and 2 exist.
    #[error("partition key version must be 1 or 2, not {0}")]
    Version(u8),
    /// MultiHash exists only as version 2.
    #[error("MultiHash partition keys are always version 2 (there is no version 1)")]
    MultiHashV1,
    /// A path does not parse.
    #[error("invalid path {path:?}: {source}")]
    Path {
        /// The path as written.
        path: String,
        /// What was wrong with it.
        source: PathError,
    },
}

/// Why a key value has no EPK under a definition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyValueError {
    /// More components than the key has paths.
    #[error("{given} values given but the key has {paths} path(s)")]
    TooManyValues {
        /// Values supplied.
        given: usize,
        /// Paths in the definition.
        paths: usize,
    },
    /// A Hash key needs its one value (only MultiHash allows prefixes).
    #[error("a Hash key needs exactly one value (prefixes exist only for MultiHash)")]
    HashPrefix,
}

/// A partition-key definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PartitionKeyDefinition {
    paths: Vec<KeyPath>,
    kind: PartitionKind,
    version: u8,
}

impl PartitionKeyDefinition {
    /// Builds and validates a definition.
    pub fn new(
        paths: Vec<KeyPath>,
        kind: PartitionKind,
        version: u8,
    ) -> Result<Self, DefinitionError> {
        match kind {
            PartitionKind::Hash if paths.len() != 1 => {
                return Err(DefinitionError::HashPathCount(paths.len()));
            }
            PartitionKind::MultiHash if paths.is_empty() || paths.len() > MAX_LEVELS => {
                return Err(DefinitionError::MultiHashPathCount(paths.len()));
            }
            PartitionKind::MultiHash if version == 1 => return Err(DefinitionError::MultiHashV1),
            _ => {}
        }
        if !(1..=2).contains(&version) {
            return Err(DefinitionError::Version(version));
        }
        Ok(PartitionKeyDefinition {
            paths,
            kind,
            version,
        })
    }

    /// Parses the paths as written (`"/a/b"`) and validates the definition.
    pub fn parse(
        paths: &[&str],
        kind: PartitionKind,
        version: u8,
    ) -> Result<Self, DefinitionError> {
        let parsed = paths
            .iter()
            .map(|p| {
                KeyPath::parse(p).map_err(|source| DefinitionError::Path {
                    path: (*p).to_owned(),
                    source,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(parsed, kind, version)
    }

    /// A single-path Hash V2 definition, the default for new containers.
    pub fn hash_v2(path: KeyPath) -> Self {
        PartitionKeyDefinition {
            paths: vec![path],
            kind: PartitionKind::Hash,
            version: 2,
        }
    }

    /// The paths, top level first.
    pub fn paths(&self) -> &[KeyPath] {
        &self.paths
    }

    /// Hash or MultiHash.
    pub fn kind(&self) -> PartitionKind {
        self.kind
    }

    /// 1 or 2.
    pub fn version(&self) -> u8 {
        self.version
    }

    /// Whether boundaries and midpoints follow the V1 number encoding.
    pub fn is_v1(&self) -> bool {
        self.version == 1
    }

    /// The EPK of a full key value (one value per path).
    pub fn epk(&self, values: &[PkValueRef<'_>]) -> Result<Epk, KeyValueError> {
        self.check_len(values)?;
        if values.len() < self.paths.len() {
            return Err(KeyValueError::HashPrefix);
        }
        Ok(self.epk_unchecked(values))
    }

    /// The EPK of a full key whose length the caller has already checked.
    pub fn epk_unchecked(&self, values: &[PkValueRef<'_>]) -> Epk {
        match (self.kind, self.version) {
            (PartitionKind::MultiHash, _) => epk::multi_hash(values),
            (PartitionKind::Hash, 1) => epk::hash_v1(values),
            (PartitionKind::Hash, _) => epk::hash_v2(values),
        }
    }

    /// The EPK range a key value covers: a point `[epk, epk]` as `[epk, epk+1)` for a full
    /// key, `[min, min+"FF")` for a MultiHash prefix.
    pub fn range(&self, values: &[PkValueRef<'_>]) -> Result<EpkRange, KeyValueError> {
        self.check_len(values)?;
        if values.len() == self.paths.len() {
            let min = self.epk_unchecked(values);
            Ok(point_range(min))
        } else if self.kind == PartitionKind::MultiHash {
            Ok(epk::multi_hash_prefix_range(values))
        } else {
            Err(KeyValueError::HashPrefix)
        }
    }

    fn check_len(&self, values: &[PkValueRef<'_>]) -> Result<(), KeyValueError> {
        if values.len() > self.paths.len() {
            return Err(KeyValueError::TooManyValues {
                given: values.len(),
                paths: self.paths.len(),
            });
        }
        Ok(())
    }

    /// The Cosmos DB `partitionKey` object: `{"paths": [...], "kind": ..., "version": ...}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "paths": self.paths.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "kind": match self.kind { PartitionKind::Hash => "Hash", PartitionKind::MultiHash => "MultiHash" },
            "version": self.version,
        })
    }
}

/// The half-open form of the point range `[epk, epk]`: `[epk, epk + 1)`, adding one to the
/// EPK read as a big-endian byte string, as the SDKs normalise it.
pub fn point_range(epk: Epk) -> EpkRange {
    let mut bytes = epk.as_bytes().to_vec();
    let mut carried = true;
    for b in bytes.iter_mut().rev() {
        let (v, overflow) = b.overflowing_add(1);
        *b = v;
        if !overflow {
            carried = false;
            break;
        }
    }
    if carried {
        bytes.insert(0, 1);
    }
    EpkRange {
        min: epk,
        max: Epk::from_bytes(&bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosmos_validation_rules() {
        use PartitionKind::*;
        assert!(PartitionKeyDefinition::parse(&["/a"], Hash, 2).is_ok());
        assert!(PartitionKeyDefinition::parse(&["/a"], Hash, 1).is_ok());
        assert_eq!(
            PartitionKeyDefinition::parse(&["/a", "/b"], Hash, 2),
            Err(DefinitionError::HashPathCount(2))
        );
        assert_eq!(
            PartitionKeyDefinition::parse(&["/a", "/b", "/c", "/d"], MultiHash, 2),
            Err(DefinitionError::MultiHashPathCount(4))
        );
        assert_eq!(
            PartitionKeyDefinition::parse(&["/a", "/b"], MultiHash, 1),
            Err(DefinitionError::MultiHashV1)
        );
        assert_eq!(
            PartitionKeyDefinition::parse(&["/a"], Hash, 3),
            Err(DefinitionError::Version(3))
        );
        assert!(matches!(
            PartitionKeyDefinition::parse(&["/a/"], Hash, 2),
            Err(DefinitionError::Path { .. })
        ));
    }

    #[test]
    fn point_ranges_hold_exactly_their_key() {
        let r = point_range(Epk::from_hex("0A0BFF").unwrap());
        assert_eq!(r.max.to_hex(), "0A0C00");
        assert!(r.contains(&Epk::from_hex("0A0BFF").unwrap()));
        assert!(!r.contains(&Epk::from_hex("0A0C00").unwrap()));
        assert!(!r.contains(&Epk::from_hex("0A0BFE").unwrap()));
    }

    #[test]
    fn definition_json_matches_cosmos() {
        let d = PartitionKeyDefinition::parse(&["/t", "/\"u-x\""], PartitionKind::MultiHash, 2)
            .unwrap();
        assert_eq!(
            d.to_json().to_string(),
            r#"{"kind":"MultiHash","paths":["/t","/\"u-x\""],"version":2}"#
        );
    }
}
