//! Property tests of the engine's invariants: after any sequence of inserts, charges and
//! splits the ranges tile the space, every logical partition lives in exactly one physical
//! partition, bytes and RU are conserved, a full key routes to one partition, and a
//! hierarchical prefix reaches exactly the partitions holding its logical partitions.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::container::{Container, Limits, Throughput};
use super::definition::{PartitionKeyDefinition, PartitionKind, point_range};
use super::epk::{Epk, EpkRange};
use super::value::PkValueRef;

#[derive(Clone, Debug)]
enum Op {
    Insert { tenant: u8, user: u8, bytes: u16 },
    Charge { tenant: u8, user: u8, ru: u16 },
    ChargePartition { pick: u16, ru: u16 },
    SplitMedian { pick: u16 },
    SplitMidpoint { pick: u16 },
    NextWindow,
    Load { tenant: u8, user: u8, bytes: u16 },
    Settle,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u8..12, 0u8..20, 1u16..400).prop_map(|(tenant, user, bytes)| Op::Insert { tenant, user, bytes }),
        2 => (0u8..12, 0u8..20, 1u16..50).prop_map(|(tenant, user, ru)| Op::Charge { tenant, user, ru }),
        1 => (any::<u16>(), 1u16..50).prop_map(|(pick, ru)| Op::ChargePartition { pick, ru }),
        1 => any::<u16>().prop_map(|pick| Op::SplitMedian { pick }),
        1 => any::<u16>().prop_map(|pick| Op::SplitMidpoint { pick }),
        1 => Just(Op::NextWindow),
        3 => (0u8..12, 0u8..20, 1u16..2_000).prop_map(|(tenant, user, bytes)| Op::Load { tenant, user, bytes }),
        1 => Just(Op::Settle),
    ]
}

#[derive(Clone, Copy, Debug)]
enum Flavour {
    HashV1,
    HashV2,
    MultiHash,
}

fn definition(f: Flavour) -> PartitionKeyDefinition {
    let (paths, kind, version): (&[&str], _, _) = match f {
        Flavour::HashV1 => (&["/k"], PartitionKind::Hash, 1),
        Flavour::HashV2 => (&["/k"], PartitionKind::Hash, 2),
        Flavour::MultiHash => (&["/t", "/u"], PartitionKind::MultiHash, 2),
    };
    PartitionKeyDefinition::parse(paths, kind, version).unwrap()
}

fn key_epk(def: &PartitionKeyDefinition, tenant: u8, user: u8) -> Epk {
    let (t, u) = (format!("tenant-{tenant}"), format!("user-{user}"));
    if def.kind() == PartitionKind::MultiHash {
        def.epk(&[PkValueRef::Str(&t), PkValueRef::Str(&u)])
            .unwrap()
    } else {
        def.epk(&[PkValueRef::Str(&format!("{t}/{u}"))]).unwrap()
    }
}

/// What the operations put in, to check the container against.
#[derive(Default)]
struct Ledger {
    keys: BTreeMap<Epk, (u8, u8)>,
    bytes: u64,
    ru: f64,
}

/// The EPK of a key an operation touches, recorded in the ledger.
fn touch(ledger: &mut Ledger, def: &PartitionKeyDefinition, tenant: u8, user: u8) -> Epk {
    let e = key_epk(def, tenant, user);
    ledger.keys.insert(e.clone(), (tenant, user));
    e
}

fn apply(c: &mut Container, ledger: &mut Ledger, op: &Op) {
    let def = c.definition().clone();
    let n = c.partitions().len();
    match *op {
        Op::Insert {
            tenant,
            user,
            bytes,
        } => {
            let e = touch(ledger, &def, tenant, user);
            ledger.bytes += bytes as u64;
            c.insert(e, bytes as u64, 1, 0.0);
        }
        Op::Charge { tenant, user, ru } => {
            let e = touch(ledger, &def, tenant, user);
            ledger.ru += ru as f64;
            c.charge_key(e, ru as f64);
        }
        Op::ChargePartition { pick, ru } => {
            ledger.ru += ru as f64;
            c.charge_partition(pick as usize % n, ru as f64);
        }
        Op::SplitMedian { pick } => {
            let _ = c.split_at_median(pick as usize % n);
        }
        Op::SplitMidpoint { pick } => {
            let _ = c.split_at_midpoint(pick as usize % n);
        }
        Op::NextWindow => c.next_window(),
        Op::Load {
            tenant,
            user,
            bytes,
        } => {
            let e = touch(ledger, &def, tenant, user);
            ledger.bytes += bytes as u64;
            c.insert_unsplit(e, bytes as u64, 1);
        }
        Op::Settle => {
            c.settle();
            check_settled(c);
        }
    }
}

fn check_tiling(c: &Container) {
    let parts = c.partitions();
    assert!(parts[0].range().min.is_min());
    assert_eq!(parts[parts.len() - 1].range().max, Epk::max());
    for w in parts.windows(2) {
        assert_eq!(w[0].range().max, w[1].range().min, "gap or overlap");
    }
    for p in parts {
        assert!(p.range().min < p.range().max, "empty range {:?}", p.range());
    }
}

/// After settling, a partition over the limit holds a single logical partition.
fn check_settled(c: &mut Container) {
    let limit = c.limits().physical_bytes;
    for i in 0..c.partitions().len() {
        if c.partitions()[i].bytes() > limit {
            assert_eq!(
                c.logical_partitions(i).len(),
                1,
                "partition {i} left over the limit"
            );
        }
    }
}

fn check_residence_and_conservation(c: &mut Container, ledger: &Ledger) {
    let mut seen = BTreeSet::new();
    let mut bytes = 0;
    for i in 0..c.partitions().len() {
        let range = c.partitions()[i].range().clone();
        for lp in c.logical_partitions(i) {
            assert!(
                range.contains(&lp.epk),
                "logical partition outside its range"
            );
            assert!(seen.insert(lp.epk.clone()), "logical partition twice");
            bytes += lp.bytes;
        }
    }
    let expected: BTreeSet<Epk> = ledger.keys.keys().cloned().collect();
    assert_eq!(seen, expected);
    assert_eq!(bytes, ledger.bytes);
    assert_eq!(c.bytes(), ledger.bytes);
    let ru: f64 = c.partitions().iter().map(|p| p.ru()).sum();
    assert!((ru - ledger.ru).abs() < 1e-6, "RU {ru} vs {}", ledger.ru);
    let windowed: f64 = c.load().windows().iter().map(|w| w.total).sum();
    assert!((windowed - ledger.ru).abs() < 1e-6);
}

fn check_routing(c: &mut Container, ledger: &Ledger) {
    for epk in ledger.keys.keys() {
        let idx = c.route(epk);
        assert!(c.partitions()[idx].range().contains(epk));
        if c.definition().version() == 2 {
            assert_eq!(c.route_range(&point_range(epk.clone())), idx..idx + 1);
        }
    }
    if c.definition().kind() != PartitionKind::MultiHash {
        return;
    }
    let tenants: BTreeSet<u8> = ledger.keys.values().map(|k| k.0).collect();
    for t in tenants {
        let name = format!("tenant-{t}");
        let prefix = c.definition().range(&[PkValueRef::Str(&name)]).unwrap();
        let holding = holders(c, &prefix);
        let reached: Vec<usize> = c.route_range(&prefix).collect();
        assert_eq!(reached, holding, "prefix {name}");
    }
}

fn holders(c: &mut Container, prefix: &EpkRange) -> Vec<usize> {
    (0..c.partitions().len())
        .filter(|&i| {
            c.logical_partitions(i)
                .iter()
                .any(|lp| prefix.contains(&lp.epk))
        })
        .collect()
}

fn run(flavour: Flavour, ru: f64, ops: &[Op]) {
    let limits = Limits {
        physical_bytes: 2_000,
        logical_bytes: 800,
        ..Limits::default()
    };
    let mut c = Container::with_limits(definition(flavour), Throughput::Manual(ru), limits);
    let mut ledger = Ledger::default();
    for op in ops {
        apply(&mut c, &mut ledger, op);
        check_tiling(&c);
    }
    check_residence_and_conservation(&mut c, &ledger);
    check_routing(&mut c, &ledger);
    let usable = c.usable_fraction();
    assert!((0.0..=1.0).contains(&usable));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn hash_v2_invariants(ru in 400.0f64..40_000.0, ops in prop::collection::vec(op(), 1..160)) {
        run(Flavour::HashV2, ru, &ops);
    }

    #[test]
    fn hash_v1_invariants(ru in 400.0f64..40_000.0, ops in prop::collection::vec(op(), 1..160)) {
        run(Flavour::HashV1, ru, &ops);
    }

    #[test]
    fn multihash_invariants(ru in 400.0f64..40_000.0, ops in prop::collection::vec(op(), 1..160)) {
        run(Flavour::MultiHash, ru, &ops);
    }
}
