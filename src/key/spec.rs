//! The parsed form of a `--key` spec: its levels, its kind, the Cosmos DB definition it
//! creates and the document paths it reads. Printing a spec gives its canonical text.

use std::fmt;

use crate::engine::definition::MAX_LEVELS;
use crate::engine::{KeyPath, PartitionKeyDefinition, PartitionKind};

/// The largest `N` of `rand_suffix` and `hash_suffix`.
pub const MAX_SUFFIXES: u32 = 1_000_000;

/// The stored property that holds the first synthetic level's value; later synthetic levels
/// add a number (`partitionKey2`, `partitionKey3`).
pub const SYNTHETIC_PROPERTY: &str = "partitionKey";

/// One level of a key: a document path, or a synthetic value computed from paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyLevel {
    /// The value at one path: `/tenantId`.
    Path(KeyPath),
    /// The values of two or more paths joined with `-`: `concat(/deviceId,/date)`.
    Concat(Vec<KeyPath>),
    /// The value, `.`, and a number `1..=n` chosen at write time: `rand_suffix(/date,400)`.
    RandSuffix {
        /// The path whose value is suffixed.
        path: KeyPath,
        /// How many suffix values there are.
        n: u32,
    },
    /// The value, `.`, and `hash(by) mod n + 1`: `hash_suffix(/date,/vin,400)`.
    HashSuffix {
        /// The path whose value is suffixed.
        path: KeyPath,
        /// The path whose value is hashed into the suffix.
        by: KeyPath,
        /// How many suffix values there are.
        n: u32,
    },
}

impl KeyLevel {
    /// The document paths this level reads, in the order it names them.
    pub fn inputs(&self) -> Vec<&KeyPath> {
        match self {
            KeyLevel::Path(p) | KeyLevel::RandSuffix { path: p, .. } => vec![p],
            KeyLevel::Concat(paths) => paths.iter().collect(),
            KeyLevel::HashSuffix { path, by, .. } => vec![path, by],
        }
    }

    /// Whether the level is computed by the application rather than read from one path.
    pub fn is_synthetic(&self) -> bool {
        !matches!(self, KeyLevel::Path(_))
    }

    /// Checks the rules the grammar cannot express in its shape: `concat` has at least two
    /// paths and `N` lies in `1..=MAX_SUFFIXES`.
    pub fn validate(&self) -> Result<(), RuleError> {
        match self {
            KeyLevel::Concat(paths) if paths.len() < 2 => Err(RuleError::ConcatArity),
            KeyLevel::RandSuffix { n, .. } | KeyLevel::HashSuffix { n, .. }
                if !(1..=MAX_SUFFIXES).contains(n) =>
            {
                Err(RuleError::SuffixCount)
            }
            _ => Ok(()),
        }
    }
}

/// A rule of the key grammar that a spec breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A key has 1 to 3 levels.
    #[error("a key has 1 to 3 levels (a hierarchical key at most 3), not {0}")]
    LevelCount(usize),
    /// `concat` joins at least two paths.
    #[error("concat joins at least 2 paths: concat(/a,/b)")]
    ConcatArity,
    /// `N` out of range.
    #[error("expected the number of suffix values, an integer from 1 to 1000000")]
    SuffixCount,
    /// Two levels are the same.
    #[error("level {level} repeats level {first} (the levels of a key must differ)")]
    Duplicate {
        /// The repeating level, from 1.
        level: usize,
        /// The level it repeats, from 1.
        first: usize,
    },
}

/// What sort of key a spec is, as the report names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyKind {
    /// One path.
    Single,
    /// One synthetic level.
    Synthetic,
    /// Two or three levels (any of which may be synthetic).
    Hierarchical,
}

impl KeyKind {
    /// `single`, `synthetic` or `hierarchical`.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Single => "single",
            KeyKind::Synthetic => "synthetic",
            KeyKind::Hierarchical => "hierarchical",
        }
    }
}

impl fmt::Display for KeyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A candidate partition key: 1 to 3 levels. Displays as its canonical spec.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeySpec {
    levels: Vec<KeyLevel>,
    /// Every path the levels read, deduplicated, in first-use order.
    inputs: Vec<KeyPath>,
    /// For each level, the index in `inputs` of each path it reads, in its order.
    slots: Vec<Vec<usize>>,
}

impl KeySpec {
    /// Builds a spec from its levels, checking the grammar's rules.
    pub fn new(levels: Vec<KeyLevel>) -> Result<KeySpec, RuleError> {
        if levels.is_empty() || levels.len() > MAX_LEVELS {
            return Err(RuleError::LevelCount(levels.len()));
        }
        for (i, level) in levels.iter().enumerate() {
            level.validate()?;
            if let Some(first) = levels[..i].iter().position(|l| l == level) {
                return Err(RuleError::Duplicate {
                    level: i + 1,
                    first: first + 1,
                });
            }
        }
        let mut inputs: Vec<KeyPath> = Vec::new();
        let slots = levels
            .iter()
            .map(|level| {
                level
                    .inputs()
                    .into_iter()
                    .map(|p| slot(&mut inputs, p))
                    .collect()
            })
            .collect();
        Ok(KeySpec {
            levels,
            inputs,
            slots,
        })
    }

    /// The levels, top first.
    pub fn levels(&self) -> &[KeyLevel] {
        &self.levels
    }

    /// Single, synthetic or hierarchical.
    pub fn kind(&self) -> KeyKind {
        match self.levels.as_slice() {
            [KeyLevel::Path(_)] => KeyKind::Single,
            [_] => KeyKind::Synthetic,
            _ => KeyKind::Hierarchical,
        }
    }

    /// Every document path the key reads, deduplicated, in first-use order.
    pub fn input_paths(&self) -> Vec<KeyPath> {
        self.inputs.clone()
    }

    /// [`KeySpec::input_paths`] without copying.
    pub fn inputs(&self) -> &[KeyPath] {
        &self.inputs
    }

    /// For level `level`, the index into [`KeySpec::inputs`] of each path it reads.
    pub(crate) fn slots(&self, level: usize) -> &[usize] {
        &self.slots[level]
    }

    /// The Cosmos DB definition of a container keyed this way: Hash V2 for one level,
    /// MultiHash V2 for two or three. See [`KeySpec::stored_paths`] for synthetic levels.
    pub fn definition(&self) -> PartitionKeyDefinition {
        let paths = self.stored_paths();
        let kind = match paths.len() {
            1 => PartitionKind::Hash,
            _ => PartitionKind::MultiHash,
        };
        PartitionKeyDefinition::new(paths, kind, 2).expect("1 to 3 distinct levels")
    }

    /// The path the container stores each level under. A path level is its own path. A
    /// synthetic level is a property the application writes: the first of `/partitionKey`,
    /// `/partitionKey2`, `/partitionKey3`, … that the key does not read (as an input's
    /// top-level property) and that no earlier level stores under.
    pub fn stored_paths(&self) -> Vec<KeyPath> {
        let read: Vec<&str> = self
            .inputs
            .iter()
            .map(|p| p.segments()[0].as_str())
            .collect();
        let mut names = Vec::new();
        let mut paths = Vec::with_capacity(self.levels.len());
        for level in &self.levels {
            match level {
                KeyLevel::Path(p) => paths.push(p.clone()),
                _ => {
                    let name = synthetic_name(&read, &names);
                    paths.push(KeyPath::from_segments([name.as_str()]));
                    names.push(name);
                }
            }
        }
        paths
    }
}

/// The first synthetic property name not read by the key nor already given out.
fn synthetic_name(read: &[&str], given: &[String]) -> String {
    (1..)
        .map(|i| match i {
            1 => SYNTHETIC_PROPERTY.to_owned(),
            i => format!("{SYNTHETIC_PROPERTY}{i}"),
        })
        .find(|name| !read.contains(&name.as_str()) && !given.contains(name))
        .expect("an unused name exists")
}

/// The index of `path` in `inputs`, appending it when new.
fn slot(inputs: &mut Vec<KeyPath>, path: &KeyPath) -> usize {
    match inputs.iter().position(|p| p == path) {
        Some(i) => i,
        None => {
            inputs.push(path.clone());
            inputs.len() - 1
        }
    }
}

impl fmt::Display for KeyLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyLevel::Path(p) => write!(f, "{p}"),
            KeyLevel::Concat(paths) => {
                f.write_str("concat(")?;
                for (i, p) in paths.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(f, "{sep}{p}")?;
                }
                f.write_str(")")
            }
            KeyLevel::RandSuffix { path, n } => write!(f, "rand_suffix({path},{n})"),
            KeyLevel::HashSuffix { path, by, n } => write!(f, "hash_suffix({path},{by},{n})"),
        }
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, level) in self.levels.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep}{level}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> KeySpec {
        KeySpec::parse(text).unwrap()
    }

    fn definition(text: &str) -> String {
        spec(text).definition().to_json().to_string()
    }

    fn paths(list: &[KeyPath]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn kinds() {
        for (text, kind) in [
            ("/tenantId", KeyKind::Single),
            ("/a/b", KeyKind::Single),
            ("concat(/a,/b)", KeyKind::Synthetic),
            ("rand_suffix(/a,4)", KeyKind::Synthetic),
            ("hash_suffix(/a,/b,4)", KeyKind::Synthetic),
            ("/a,/b", KeyKind::Hierarchical),
            ("/a,concat(/b,/c),/d", KeyKind::Hierarchical),
        ] {
            assert_eq!(spec(text).kind(), kind, "{text}");
        }
        let names =
            [KeyKind::Single, KeyKind::Synthetic, KeyKind::Hierarchical].map(KeyKind::as_str);
        assert_eq!(names, ["single", "synthetic", "hierarchical"]);
    }

    #[test]
    fn definitions_are_the_cosmos_objects() {
        let hash = |p: &str| format!(r#"{{"kind":"Hash","paths":["{p}"],"version":2}}"#);
        let multi = |p: &str| format!(r#"{{"kind":"MultiHash","paths":[{p}],"version":2}}"#);
        assert_eq!(definition("/tenantId"), hash("/tenantId"));
        assert_eq!(definition("/\"my-prop\"/x"), hash(r#"/\"my-prop\"/x"#));
        assert_eq!(definition("concat(/deviceId,/date)"), hash("/partitionKey"));
        assert_eq!(definition("rand_suffix(/date,400)"), hash("/partitionKey"));
        assert_eq!(
            definition("hash_suffix(/date,/vin,400)"),
            hash("/partitionKey")
        );
        assert_eq!(
            definition("/tenantId,/userId,/sessionId"),
            multi(r#""/tenantId","/userId","/sessionId""#)
        );
        assert_eq!(
            definition("/tenantId,concat(/a,/b),rand_suffix(/d,10)"),
            multi(r#""/tenantId","/partitionKey","/partitionKey2""#)
        );
    }

    #[test]
    fn synthetic_properties_avoid_the_paths_the_key_reads() {
        let stored = |text: &str| paths(&spec(text).stored_paths());
        assert_eq!(stored("concat(/partitionKey,/b)"), ["/partitionKey2"]);
        assert_eq!(stored("concat(/partitionKey/x,/b)"), ["/partitionKey2"]);
        assert_eq!(
            stored("/partitionKey,concat(/a,/b)"),
            ["/partitionKey", "/partitionKey2"]
        );
        assert_eq!(
            stored("concat(/a,/b),/partitionKey2,rand_suffix(/partitionKey,3)"),
            ["/partitionKey3", "/partitionKey2", "/partitionKey4"]
        );
    }

    #[test]
    fn input_paths_are_deduplicated_in_first_use_order() {
        let s = spec("hash_suffix(/d,/vin,9),concat(/vin,/a,/d),/b");
        assert_eq!(paths(&s.input_paths()), ["/d", "/vin", "/a", "/b"]);
        assert_eq!(s.slots(0), [0, 1]);
        assert_eq!(s.slots(1), [1, 2, 0]);
        assert_eq!(s.slots(2), [3]);
        assert_eq!(paths(&spec("concat(/a,/a)").input_paths()), ["/a"]);
    }

    #[test]
    fn new_checks_the_rules() {
        let p = |t: &str| KeyPath::parse(t).unwrap();
        let path = |t: &str| KeyLevel::Path(p(t));
        assert_eq!(KeySpec::new(vec![]), Err(RuleError::LevelCount(0)));
        let four = ["/a", "/b", "/c", "/d"].map(path).to_vec();
        assert_eq!(KeySpec::new(four), Err(RuleError::LevelCount(4)));
        let one = KeyLevel::Concat(vec![p("/a")]);
        assert_eq!(KeySpec::new(vec![one]), Err(RuleError::ConcatArity));
        for n in [0, MAX_SUFFIXES + 1] {
            let level = KeyLevel::RandSuffix { path: p("/a"), n };
            assert_eq!(KeySpec::new(vec![level]), Err(RuleError::SuffixCount));
        }
        let twice = vec![path("/a"), path("/b"), path("/a")];
        assert_eq!(
            KeySpec::new(twice),
            Err(RuleError::Duplicate { level: 3, first: 1 })
        );
    }
}
