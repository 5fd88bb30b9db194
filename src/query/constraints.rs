//! Key constraints in disjunctive normal form: a query matches only documents that satisfy
//! one of its [`Conjunct`]s, each fixing some root paths to one value each.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::engine::{KeyPath, PkValue};

/// Most alternatives kept; past it a disjunction is given up as unconstrained.
pub const MAX_CONJUNCTS: usize = 4096;

/// Conjunct pairs one cross product may try before it is given up.
pub const MAX_PRODUCT_WORK: usize = MAX_CONJUNCTS * 4;

/// Paths fixed together: a document matches when every path holds its value.
///
/// Kept sorted by path; paths and values are shared, so that the cross products of `AND`
/// copy pointers, not names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conjunct {
    fixed: Vec<(Arc<KeyPath>, Arc<PkValue>)>,
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
            fixed: vec![(Arc::new(path), Arc::new(value))],
        }
    }

    /// Replaces each value `f` gives a replacement for.
    pub fn map_values(&mut self, f: &mut impl FnMut(&PkValue) -> Option<PkValue>) {
        for (_, v) in &mut self.fixed {
            if let Some(new) = f(v) {
                *v = Arc::new(new);
            }
        }
    }

    /// The value `path` is fixed to.
    pub fn get(&self, path: &KeyPath) -> Option<&PkValue> {
        // Conjuncts are short and path equality is a fingerprint check: a scan beats a
        // binary search of string comparisons.
        self.fixed
            .iter()
            .find(|(p, _)| **p == *path)
            .map(|(_, v)| &**v)
    }

    /// The fixed paths and values, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&KeyPath, &PkValue)> {
        self.fixed.iter().map(|(p, v)| (&**p, &**v))
    }

    /// About the heap bytes it holds: each fixed path and value, and the value's text.
    pub fn approx_bytes(&self) -> usize {
        let text = |v: &PkValue| match v {
            PkValue::String(s) => s.len(),
            _ => 0,
        };
        24 + self.fixed.iter().map(|(_, v)| 80 + text(v)).sum::<usize>()
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
        let (mut a, mut b) = (self.fixed.iter().peekable(), other.fixed.iter().peekable());
        let mut fixed = Vec::with_capacity(self.len() + other.len());
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            match x.0.cmp(&y.0) {
                Ordering::Less => fixed.push(a.next()?.clone()),
                Ordering::Greater => fixed.push(b.next()?.clone()),
                Ordering::Equal if x.1 == y.1 => {
                    fixed.push(a.next()?.clone());
                    b.next();
                }
                Ordering::Equal => return None,
            }
        }
        fixed.extend(a.chain(b).cloned());
        Some(Conjunct { fixed })
    }
}

/// A conjunct compared and hashed by identity: numbers by their bits, so that `0.0` and
/// `-0.0` (different keys) stay apart.
struct Identity<'a>(&'a Conjunct);

impl Hash for Identity<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for (path, value) in &self.0.fixed {
            path.hash(h);
            std::mem::discriminant(&**value).hash(h);
            match &**value {
                PkValue::Number(n) => n.to_bits().hash(h),
                PkValue::String(s) => s.hash(h),
                PkValue::Bool(b) => b.hash(h),
                PkValue::Null | PkValue::Undefined => {}
            }
        }
    }
}

impl PartialEq for Identity<'_> {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &PkValue, b: &PkValue| match (a, b) {
            (PkValue::Number(x), PkValue::Number(y)) => x.to_bits() == y.to_bits(),
            (a, b) => a == b,
        };
        let (a, b) = (&self.0.fixed, &other.0.fixed);
        a.len() == b.len() && a.iter().zip(b).all(|((p, v), (q, w))| p == q && same(v, w))
    }
}

impl Eq for Identity<'_> {}

/// Drops repeated conjuncts, keeping the first of each.
fn dedup(conjuncts: Vec<Conjunct>) -> Vec<Conjunct> {
    let mut seen = HashSet::new();
    let keep: Vec<bool> = conjuncts.iter().map(|c| seen.insert(Identity(c))).collect();
    drop(seen);
    let kept = conjuncts.into_iter().zip(keep).filter(|(_, keep)| *keep);
    kept.map(|(c, _)| c).collect()
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

    /// Replaces each value of every alternative that `f` gives a replacement for.
    pub fn map_values(&mut self, mut f: impl FnMut(&PkValue) -> Option<PkValue>) {
        if let Constraints::AnyOf(alts) = self {
            alts.iter_mut().for_each(|c| c.map_values(&mut f));
        }
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
        for (i, (path, value)) in self.iter().enumerate() {
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
