//! The partition map: a plain snapshot of a candidate's container (its physical partitions
//! with EPK ranges, bytes, RU and largest logical partitions), and `--explain`'s view of it.

use std::collections::BTreeMap;

use super::evaluate::Evaluation;
use super::key_block::key_of;
use super::redact::{hider, redact};
use crate::report::model::{
    ExplainReport, LogicalView, PartitionMap, PhysicalView, SCHEMA_VERSION,
};

/// Values listed per physical partition by `--explain`.
const EXPLAIN_VALUES: usize = 3;

/// The partition map of one evaluated candidate, each partition listing its largest
/// values and, as one entry with an empty EPK, the projected tail of small values.
pub fn explain(e: &mut Evaluation, storage_bytes: u64, redact_values: bool) -> ExplainReport {
    // A spillover's documents have no values: its collections hold projected chunks.
    let spillover = e.layout.as_ref().is_some_and(|l| l.is_spillover());
    let mut entries: Vec<_> = (e.stats.values.heavy_entries())
        .filter(|_| !spillover)
        .collect();
    entries.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.label.cmp(b.label)));
    let mut labels: BTreeMap<String, String> = entries
        .into_iter()
        .take(1 << 16)
        .map(|v| {
            let label = if redact_values {
                redact(v.label)
            } else {
                v.label.to_string()
            };
            (v.epk.to_hex(), label)
        })
        .collect();
    let mut map = partition_map(&mut e.projection.container, usize::MAX);
    for p in &mut map.partitions {
        let (named, tail): (Vec<_>, Vec<_>) = p
            .largest
            .drain(..)
            .partition(|l| labels.contains_key(&l.epk));
        p.largest = named.into_iter().take(EXPLAIN_VALUES).collect();
        let tail_bytes: u64 = tail.iter().map(|l| l.bytes).sum();
        if tail_bytes > 0 {
            p.largest.push(crate::report::model::LogicalView {
                epk: String::new(),
                bytes: tail_bytes,
                items: tail.iter().map(|l| l.items).sum(),
                ru: tail.iter().map(|l| l.ru).sum(),
            });
        }
    }
    let shown: std::collections::BTreeSet<String> = map
        .partitions
        .iter()
        .flat_map(|p| p.largest.iter().map(|l| l.epk.clone()))
        .collect();
    labels.retain(|k, _| shown.contains(k));
    let hide = hider(redact_values);
    let collections = match &e.layout {
        Some(l) => (0..map.partitions.len())
            .map(|i| l.collection_name_with(i, &hide))
            .collect(),
        None => Vec::new(),
    };
    ExplainReport {
        schema_version: SCHEMA_VERSION.to_owned(),
        key: key_of(e, redact_values),
        storage_bytes,
        labels,
        map,
        collections,
    }
}

/// A plain snapshot of a container's partition map, with the `top` largest logical
/// partitions of each physical partition.
pub fn partition_map(c: &mut crate::engine::Container, top: usize) -> PartitionMap {
    let partitions = (0..c.partitions().len())
        .map(|idx| {
            let mut largest: Vec<crate::engine::Logical> = c.logical_partitions(idx).to_vec();
            let logical_partitions = largest.len() as u64;
            largest.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.epk.cmp(&b.epk)));
            largest.truncate(top);
            let p = &c.partitions()[idx];
            PhysicalView {
                id: p.id(),
                parent: p.parent(),
                min: p.range().min.to_hex(),
                max: p.range().max.to_hex(),
                bytes: p.bytes(),
                items: p.items(),
                logical_partitions,
                ru: p.ru(),
                largest: (largest.into_iter())
                    .map(|l| LogicalView {
                        epk: l.epk.to_hex(),
                        bytes: l.bytes,
                        items: l.items,
                        ru: l.ru,
                    })
                    .collect(),
            }
        })
        .collect();
    PartitionMap {
        definition: c.definition().to_json(),
        throughput: c.throughput(),
        ru_per_partition: c.ru_per_partition(),
        partitions,
    }
}
