//! Key constraints in disjunctive normal form: a query matches only documents that satisfy
//! one of its [`Conjunct`]s, each fixing some root paths to one value each.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use crate::engine::{KeyPath, PkValue};

/// Most alternatives kept; past it a disjunction is given up as unconstrained.
pub const MAX_CONJUNCTS: usize = 4096;

/// Conjunct pairs a cross product may try before it is given up (keeps `AND` of two large
/// `IN` lists linear in practice).
const MAX_PRODUCT_WORK: usize = MAX_CONJUNCTS * 16;

/// Paths fixed together: a document matches when every path holds its value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conjunct {
    fixed: BTreeMap<KeyPath, PkValue>,
}

/// Which documents a query can match, as far as equality on root paths tells.
#[derive(Clone, Debug, PartialEq)]
pub enum Constraints {
    /// No path is fixed: any document may match.
    Unconstrained,
    /// Only documents satisfying one of these may match. An empty list matches nothing
    /// (contradictory filters such as `c.a = 1 AND c.a = 2`).
    AnyOf(Vec<Conjunct>),
}

/// The alternatives would pass [`MAX_CONJUNCTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMany;

impl Conjunct {
    /// One path fixed to one value.
    pub fn single(path: KeyPath, value: PkValue) -> Conjunct {
        Conjunct {
            fixed: BTreeMap::from([(path, value)]),
        }
    }

    /// The value `path` is fixed to.
    pub fn get(&self, path: &KeyPath) -> Option<&PkValue> {
        self.fixed.get(path)
    }

    /// The fixed paths and values, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&KeyPath, &PkValue)> {
        self.fixed.iter()
    }

    /// How many paths are fixed.
    pub fn len(&self) -> usize {
        self.fixed.len()
    }

    /// Whether no path is fixed.
    pub fn is_empty(&self) -> bool {
        self.fixed.is_empty()
    }

    /// Both at once; `None` when they fix one path to different values.
    pub fn merge(&self, other: &Conjunct) -> Option<Conjunct> {
        let mut fixed = self.fixed.clone();
        for (path, value) in &other.fixed {
            match fixed.get(path) {
                Some(v) if v != value => return None,
                Some(_) => {}
                None => {
                    fixed.insert(path.clone(), value.clone());
                }
            }
        }
        Some(Conjunct { fixed })
    }
}

/// Drops repeated conjuncts, keeping the first of each.
fn dedup(conjuncts: Vec<Conjunct>) -> Vec<Conjunct> {
    let mut seen = HashSet::new();
    conjuncts
        .into_iter()
        .filter(|c| seen.insert(c.to_string()))
        .collect()
}

impl Constraints {
    /// Matches nothing.
    pub fn nothing() -> Constraints {
        Constraints::AnyOf(Vec::new())
    }

    /// `path = value`.
    pub fn fixed(path: KeyPath, value: PkValue) -> Constraints {
        Constraints::AnyOf(vec![Conjunct::single(path, value)])
    }

    /// The alternatives, or `None` when unconstrained.
    pub fn alternatives(&self) -> Option<&[Conjunct]> {
        match self {
            Constraints::Unconstrained => None,
            Constraints::AnyOf(v) => Some(v),
        }
    }

    /// Either of several (`OR`, `IN`): unconstrained when any is.
    pub fn any(parts: impl IntoIterator<Item = Constraints>) -> Result<Constraints, TooMany> {
        let mut all = Vec::new();
        for part in parts {
            match part {
                Constraints::Unconstrained => return Ok(Constraints::Unconstrained),
                Constraints::AnyOf(v) => all.extend(v),
            }
            if all.len() > MAX_CONJUNCTS * 2 {
                return Err(TooMany);
            }
        }
        let all = dedup(all);
        if all.len() > MAX_CONJUNCTS {
            Err(TooMany)
        } else {
            Ok(Constraints::AnyOf(all))
        }
    }

    /// Both (`AND`): the cross product of the alternatives, without the contradictory ones.
    pub fn and(&self, other: &Constraints) -> Result<Constraints, TooMany> {
        let (a, b) = match (self, other) {
            (Constraints::Unconstrained, x) | (x, Constraints::Unconstrained) => {
                return Ok(x.clone());
            }
            (Constraints::AnyOf(a), Constraints::AnyOf(b)) => (a, b),
        };
        if a.len().saturating_mul(b.len()) > MAX_PRODUCT_WORK {
            return Err(TooMany);
        }
        let mut out = Vec::new();
        for x in a {
            out.extend(b.iter().filter_map(|y| x.merge(y)));
            if out.len() > MAX_CONJUNCTS * 2 {
                return Err(TooMany);
            }
        }
        let out = dedup(out);
        if out.len() > MAX_CONJUNCTS {
            Err(TooMany)
        } else {
            Ok(Constraints::AnyOf(out))
        }
    }
}

impl fmt::Display for Conjunct {
    /// `{/a="x",/b=1.0}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (path, value)) in self.fixed.iter().enumerate() {
            let sep = if i > 0 { "," } else { "" };
            write!(f, "{sep}{path}={value}")?;
        }
        f.write_str("}")
    }
}

impl fmt::Display for Constraints {
    /// `*` when unconstrained, `none` when nothing matches, otherwise the conjuncts joined
    /// by ` | `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Constraints::Unconstrained => f.write_str("*"),
            Constraints::AnyOf(v) if v.is_empty() => f.write_str("none"),
            Constraints::AnyOf(v) => {
                for (i, c) in v.iter().enumerate() {
                    write!(f, "{}{c}", if i > 0 { " | " } else { "" })?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(path: &str, value: &str) -> Constraints {
        Constraints::fixed(
            KeyPath::parse(path).unwrap(),
            PkValue::parse_literal(value).unwrap(),
        )
    }

    #[test]
    fn and_crosses_and_drops_contradictions() {
        let a = Constraints::any([fixed("/a", "1"), fixed("/a", "2")]).unwrap();
        let b = Constraints::any([fixed("/a", "2"), fixed("/b", "\"x\"")]).unwrap();
        let both = a.and(&b).unwrap();
        assert_eq!(
            both.to_string(),
            "{/a=1.0,/b=\"x\"} | {/a=2.0} | {/a=2.0,/b=\"x\"}"
        );
        assert_eq!(Constraints::Unconstrained.and(&a).unwrap(), a);
        assert_eq!(
            fixed("/a", "1").and(&fixed("/a", "2")).unwrap().to_string(),
            "none"
        );
    }

    #[test]
    fn any_dedups_and_unconstrained_absorbs() {
        let twice = Constraints::any([fixed("/a", "1"), fixed("/a", "1.0")]).unwrap();
        assert_eq!(twice.to_string(), "{/a=1.0}");
        let open = Constraints::any([fixed("/a", "1"), Constraints::Unconstrained]).unwrap();
        assert_eq!(open.to_string(), "*");
        assert_eq!(Constraints::any([]).unwrap().to_string(), "none");
    }

    #[test]
    fn caps_are_errors() {
        let many = |p: &str| Constraints::any((0..100).map(|i| fixed(p, &i.to_string()))).unwrap();
        assert_eq!(many("/a").and(&many("/b")), Err(TooMany));
        let parts = (0..=MAX_CONJUNCTS).map(|i| fixed("/a", &i.to_string()));
        assert_eq!(Constraints::any(parts), Err(TooMany));
    }
}
