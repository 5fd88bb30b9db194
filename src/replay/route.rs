//! Routing per candidate key: from what an operation fixes (a query's constraints, a point
//! operation's known values, a write's document) to the EPKs it addresses, and through the
//! engine to the physical partitions it reaches.
//!
//! A candidate's levels are computed top-down while every input of a level is fixed. All
//! levels fixed: one point EPK (a `rand_suffix` level instead gives one point per suffix
//! value: reads must visit them all). A leading part of a hierarchical key fixed: the
//! prefix's EPK range. Nothing fixed: every partition.

use crate::engine::{
    Container, Epk, EpkRange, KeyPath, PartitionKeyDefinition, PkValue, PkValueRef,
};
use crate::field::Field;
use crate::key::{KeyLevel, KeySpec, KeyValue, Layout, LevelKnowledge, Scratch, write_text};
use crate::query::Constraints;

/// Past this many key values (suffix combinations, `IN` lists) an operation is taken to
/// reach every partition.
pub const MAX_ENUMERATED: u64 = 4096;

/// What an operation addresses.
#[derive(Clone, Debug, PartialEq)]
pub enum Reach {
    /// One full key value.
    Point(Epk),
    /// A hierarchical prefix.
    Range(EpkRange),
    /// One key value the log does not show (an obfuscated literal, a write of which only
    /// the current key is known): one partition, placed as the sample's documents lie.
    Somewhere,
    /// A hierarchical prefix the log does not show: placed as [`Reach::Somewhere`], but a
    /// prefix (targeted), not a key value.
    SomewherePrefix,
    /// Everything.
    All,
}

/// How an operation is routed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RouteClass {
    /// One full key value: one partition.
    Single,
    /// Prefixes or a set of values: the partitions overlapping them.
    Targeted,
    /// Every partition.
    FanOut,
}

/// The EPKs a candidate gives an operation that fixes the values `lookup` returns.
pub fn reaches<'v>(
    spec: &KeySpec,
    def: &PartitionKeyDefinition,
    lookup: &dyn Fn(&KeyPath) -> Option<PkValueRef<'v>>,
) -> Vec<Reach> {
    let knowledge = spec.is_known(|p| lookup(p).is_some());
    let levels = knowledge.levels();
    let k = levels
        .iter()
        .take_while(|l| **l != LevelKnowledge::Unknown)
        .count();
    let combos = levels[..k].iter().try_fold(1u64, |acc, l| match l {
        LevelKnowledge::AnyOf(n) => acc.checked_mul(*n as u64),
        _ => Some(acc),
    });
    let Some(combos) = combos.filter(|&c| k > 0 && c <= MAX_ENUMERATED) else {
        return vec![Reach::All];
    };
    let mut scratch = Scratch::default();
    let field = |p: &KeyPath| lookup(p).map_or(Field::Missing, Field::Scalar);
    let base: Vec<PkValue> = match spec.evaluate_with(field, 0, 0, &mut scratch) {
        KeyValue::Components(c) => c.to_owned_values(),
        KeyValue::Invalid => return vec![Reach::All],
    };
    let mut out = Vec::with_capacity(combos as usize);
    for combo in 0..combos {
        let values = with_suffixes(spec, &base[..k], combo, lookup);
        let refs: Vec<PkValueRef<'_>> = values.iter().map(PkValue::as_ref).collect();
        out.push(if k == levels.len() {
            Reach::Point(def.epk_unchecked(&refs))
        } else {
            def.range(&refs).map_or(Reach::All, Reach::Range)
        });
    }
    out
}

/// The reaches of values some of which the log hides: as many partitions, placed as the
/// sample's documents lie.
fn hide(reaches: Vec<Reach>) -> Vec<Reach> {
    (reaches.into_iter())
        .map(|r| match r {
            Reach::Range(_) => Reach::SomewherePrefix,
            Reach::All => Reach::All,
            _ => Reach::Somewhere,
        })
        .collect()
}

/// [`reaches`] of values some of which may be hidden (an obfuscated literal, an id the log
/// does not give): a key fixed to a value not shown reaches as many partitions, placed as
/// the sample's documents lie. Point operations and each alternative of a query.
pub fn point_reaches<'v>(
    spec: &KeySpec,
    def: &PartitionKeyDefinition,
    lookup: &dyn Fn(&KeyPath) -> Option<PkValueRef<'v>>,
) -> Vec<Reach> {
    let more = reaches(spec, def, lookup);
    let hidden = (spec.inputs().iter())
        .any(|p| matches!(lookup(p), Some(PkValueRef::Str(s)) if s == crate::log::op::HIDDEN));
    match hidden && !more.contains(&Reach::All) {
        true => hide(more),
        false => more,
    }
}

/// `base` with each `rand_suffix` level (and each `hash_suffix` level whose source is not
/// known) set to the suffix value `combo` selects.
fn with_suffixes<'v>(
    spec: &KeySpec,
    base: &[PkValue],
    mut combo: u64,
    lookup: &dyn Fn(&KeyPath) -> Option<PkValueRef<'v>>,
) -> Vec<PkValue> {
    let mut values = base.to_vec();
    for (level, value) in spec.levels().iter().zip(values.iter_mut()) {
        let (path, n) = match level {
            KeyLevel::RandSuffix { path, n } => (path, n),
            // A hash suffix whose source is known was computed already.
            KeyLevel::HashSuffix { path, by, n } if lookup(by).is_none() => (path, n),
            _ => continue,
        };
        {
            let suffix = combo % *n as u64 + 1;
            combo /= *n as u64;
            let mut text = String::new();
            if let Some(v) = lookup(path) {
                write_text(v, &mut text);
            }
            *value = PkValue::String(format!("{text}.{suffix}"));
        }
    }
    values
}

/// The EPKs of a query's constraints under a candidate.
pub fn query_reaches(spec: &KeySpec, def: &PartitionKeyDefinition, c: &Constraints) -> Vec<Reach> {
    let Some(alternatives) = c.alternatives() else {
        return vec![Reach::All];
    };
    let mut out = Vec::new();
    for conj in alternatives {
        let lookup = |p: &KeyPath| conj.get(p).map(PkValue::as_ref);
        let more = point_reaches(spec, def, &lookup);
        if more.contains(&Reach::All) || (out.len() + more.len()) as u64 > MAX_ENUMERATED {
            return vec![Reach::All];
        }
        out.extend(more);
    }
    out
}

/// What an operation that fixes the values `lookup` returns reaches under a client-side
/// layout of `n` collections: the collection of the resolver's value; every collection
/// when the value is not fixed, when the resolver cannot place it (the application does
/// not know where to look), or for a spillover, whose resolver knows no key.
pub fn layout_reaches<'v>(
    layout: &Layout,
    def: &PartitionKeyDefinition,
    n: usize,
    lookup: &dyn Fn(&KeyPath) -> Option<PkValueRef<'v>>,
) -> Vec<Reach> {
    let Some(value) = layout.path().and_then(lookup) else {
        return vec![Reach::All];
    };
    vec![layout.place(value, def, n).map_or(Reach::All, Reach::Point)]
}

/// The reaches of a query's constraints under a client-side layout of `n` collections.
pub fn layout_query_reaches(
    layout: &Layout,
    def: &PartitionKeyDefinition,
    n: usize,
    c: &Constraints,
) -> Vec<Reach> {
    let Some(alternatives) = c.alternatives() else {
        return vec![Reach::All];
    };
    let mut out = Vec::new();
    for conj in alternatives {
        let lookup = |p: &KeyPath| conj.get(p).map(PkValue::as_ref);
        let more = layout_reaches(layout, def, n, &lookup);
        if more.contains(&Reach::All) {
            return more;
        }
        out.extend(more);
    }
    out
}

/// The class of a set of reaches.
pub fn classify(reaches: &[Reach]) -> RouteClass {
    if reaches.contains(&Reach::All) {
        return RouteClass::FanOut;
    }
    let mut points = reaches.iter().filter_map(|r| match r {
        Reach::Point(e) => Some(e),
        _ => None,
    });
    let first = points.next();
    let one_value = first.is_some()
        && points.all(|e| Some(e) == first)
        && reaches.iter().all(|r| matches!(r, Reach::Point(_)));
    if one_value || reaches == [Reach::Somewhere] {
        RouteClass::Single
    } else {
        RouteClass::Targeted
    }
}

/// The physical partitions a set of reaches touches, sorted and distinct.
pub fn partitions(container: &Container, reaches: &[Reach]) -> Vec<usize> {
    if reaches.contains(&Reach::All) {
        return (0..container.partitions().len()).collect();
    }
    let mut out: Vec<usize> = Vec::with_capacity(reaches.len());
    for r in reaches {
        match r {
            Reach::Point(e) => out.push(container.route(e)),
            Reach::Range(range) => out.extend(container.route_range(range)),
            Reach::Somewhere | Reach::SomewherePrefix | Reach::All => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::{Parameters, analyze};

    fn route_of(spec: &str, sql: &str) -> (RouteClass, usize) {
        let spec = KeySpec::parse(spec).unwrap();
        let def = spec.definition();
        let x = analyze(sql, &Parameters::new()).unwrap();
        let r = query_reaches(&spec, &def, &x.constraints);
        (classify(&r), r.len())
    }

    #[test]
    fn single_targeted_and_fan_out() {
        let q = "SELECT * FROM c WHERE c.tenantId = 'a' AND c.userId = 'u'";
        assert_eq!(route_of("/tenantId,/userId", q).0, RouteClass::Single);
        assert_eq!(route_of("/tenantId", q).0, RouteClass::Single);
        assert_eq!(route_of("/userId", q).0, RouteClass::Single);
        assert_eq!(route_of("/sessionId", q).0, RouteClass::FanOut);
        assert_eq!(
            route_of("/tenantId,/userId,/sessionId", q).0,
            RouteClass::Targeted
        );
        let by_tenant = "SELECT * FROM c WHERE c.tenantId = 'a'";
        assert_eq!(
            route_of("/tenantId,/userId", by_tenant).0,
            RouteClass::Targeted
        );
        assert_eq!(
            route_of("/userId,/tenantId", by_tenant).0,
            RouteClass::FanOut
        );
        let two = "SELECT * FROM c WHERE c.tenantId IN ('a', 'b')";
        assert_eq!(route_of("/tenantId", two), (RouteClass::Targeted, 2));
    }

    #[test]
    fn synthetic_keys_route_when_their_inputs_are_fixed() {
        let q = "SELECT * FROM c WHERE c.deviceId = 'd1' AND c.date = '2026-11-30'";
        assert_eq!(route_of("concat(/deviceId,/date)", q).0, RouteClass::Single);
        assert_eq!(
            route_of("hash_suffix(/date,/deviceId,40)", q).0,
            RouteClass::Single
        );
        assert_eq!(
            route_of("rand_suffix(/date,40)", q),
            (RouteClass::Targeted, 40)
        );
        let by_date = "SELECT * FROM c WHERE c.date = '2026-11-30'";
        // Knowing the base but not the hashed property, a reader queries every suffix,
        // exactly as for a random suffix.
        assert_eq!(
            route_of("hash_suffix(/date,/deviceId,40)", by_date),
            (RouteClass::Targeted, 40)
        );
        assert_eq!(
            route_of("hash_suffix(/date,/deviceId,40)", by_date),
            route_of("rand_suffix(/date,40)", by_date)
        );
        assert_eq!(
            route_of("concat(/deviceId,/date)", by_date).0,
            RouteClass::FanOut
        );
    }

    #[test]
    fn layouts_route_by_their_resolver_and_search_everywhere_when_it_cannot() {
        let map = |_: &str| Ok(r#"{"us": "a", "eu": "b"}"#.to_owned());
        let l = Layout::parse(
            "lookup:/region=m.json",
            crate::engine::Tier::default(),
            &map,
        )
        .unwrap();
        let def = KeySpec::parse("/region").unwrap().definition();
        let of = |sql: &str| {
            let x = analyze(sql, &Parameters::new()).unwrap();
            layout_query_reaches(&l, &def, 2, &x.constraints)
        };
        let one = of("SELECT * FROM c WHERE c.region = 'eu'");
        assert!(matches!(one[..], [Reach::Point(_)]), "{one:?}");
        assert_eq!(
            of("SELECT * FROM c WHERE c.region = 'mars'"),
            vec![Reach::All]
        );
        assert_eq!(of("SELECT * FROM c WHERE c.userId = 'u'"), vec![Reach::All]);
        let spill = Layout::parse("spillover", crate::engine::Tier::default(), &map).unwrap();
        let x = analyze("SELECT * FROM c WHERE c.region = 'eu'", &Parameters::new()).unwrap();
        assert_eq!(
            layout_query_reaches(&spill, &def, 3, &x.constraints),
            vec![Reach::All]
        );
    }

    #[test]
    fn point_reads_use_id_and_known_values() {
        let spec = KeySpec::parse("/tenantId").unwrap();
        let def = spec.definition();
        let t = PkValue::String("acme".into());
        let known = |p: &KeyPath| (p.segments() == ["tenantId"]).then(|| t.as_ref());
        assert_eq!(classify(&reaches(&spec, &def, &known)), RouteClass::Single);
        let nothing = |_: &KeyPath| None;
        assert_eq!(
            classify(&reaches(&spec, &def, &nothing)),
            RouteClass::FanOut
        );
    }
}
