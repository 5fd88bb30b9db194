//! The partition map: a plain snapshot of a candidate's container (its physical partitions
//! with EPK ranges, bytes, RU and largest logical partitions), `--explain`'s view of it, and
//! the partitions' load the HTML report charts.

use std::collections::BTreeMap;

use super::evaluate::Evaluation;
use super::key_block::key_of;
use crate::engine::{PkValue, PkValueRef};
use crate::redact::{hider, redact};
use crate::report::model::{
    ExplainReport, LogicalView, PartitionLoad, PartitionMap, PhysicalView, SCHEMA_VERSION,
    SampleFigures, ValueArithmetic, ValueLanding,
};

/// Values listed per physical partition by `--explain`.
const EXPLAIN_VALUES: usize = 3;

/// A value (or a hierarchical key's prefix) `--explain-value` asks about.
#[derive(Clone, Debug, PartialEq)]
pub struct AskedValue {
    /// Its levels, the first ones of the key's.
    pub levels: Vec<PkValue>,
    /// Its JSON text, as the report shows it.
    pub label: String,
}

/// The partition map of one evaluated candidate, each partition listing its largest
/// values and, as one entry with an empty EPK, the projected tail of small values; and
/// where each `asked` value lands. An asked value with more levels than the key is an
/// error.
///
/// With `timeline` (what the months start from and the target they project as), a key's
/// map also carries the growth of its three largest values month by month.
pub fn explain(
    e: &mut Evaluation,
    storage_bytes: u64,
    redact_values: bool,
    asked: &[AskedValue],
    timeline: Option<(&super::timeline::Basis, &crate::project::Target)>,
) -> Result<ExplainReport, String> {
    let values = (asked.iter())
        .map(|a| landing(e, a, (storage_bytes, redact_values)))
        .collect::<Result<Vec<_>, _>>()?;
    let growth = timeline.filter(|_| e.layout.is_none()).map(|(b, target)| {
        let hide = |label: &str| match redact_values {
            true => redact(label),
            false => label.to_owned(),
        };
        super::timeline::value_growth(e, b, target, 3, &hide)
    });
    let mut report = map_of(e, storage_bytes, redact_values);
    report.values = values;
    report.growth = growth;
    Ok(report)
}

/// Where `asked` lands in `e`'s projected container: its EPK (range), the partitions it
/// reaches, the projected logical partitions in it, and its sample figures when the value
/// is tracked one by one.
fn landing(
    e: &mut Evaluation,
    asked: &AskedValue,
    (storage_bytes, redact_values): (u64, bool),
) -> Result<ValueLanding, String> {
    let refs: Vec<PkValueRef<'_>> = asked.levels.iter().map(PkValue::as_ref).collect();
    let range = (e.definition.range(&refs))
        .map_err(|err| format!("--explain-value {}: {err}", asked.label))?;
    let full = refs.len() == e.definition.paths().len();
    let c = &mut e.projection.container;
    let reach = c.route_range(&range);
    let (mut logical, mut bytes, mut items, mut largest) = (0u64, 0u64, 0u64, 0u64);
    for idx in reach.clone() {
        for l in c.logical_partitions(idx) {
            let inside = match full {
                true => l.epk == range.min,
                false => l.epk >= range.min && l.epk < range.max,
            };
            if inside {
                logical += 1;
                bytes += l.bytes;
                items += l.items;
                largest = largest.max(l.bytes);
            }
        }
    }
    let sample = (e.stats.values.heavy_entries())
        .find(|v| full && v.epk == range.min)
        .map(|v| SampleFigures {
            documents: v.docs,
            bytes: v.bytes,
        });
    let arithmetic = (full && e.layout.is_none())
        .then(|| arithmetic(e, &asked.label, storage_bytes))
        .flatten();
    Ok(ValueLanding {
        arithmetic,
        value: match redact_values {
            true => redact(&asked.label),
            false => asked.label.clone(),
        },
        prefix: !full,
        epk: range.min.to_hex(),
        epk_max: (!full).then(|| range.max.to_hex()),
        partitions: reach.map(|i| i as u64 + 1).collect(),
        logical_partitions: logical,
        bytes,
        items,
        largest_bytes: largest,
        sample,
    })
}

/// How the value labelled `label` reaches its size at `storage_bytes` (see
/// [`crate::project::projection::explain`]), when the projection places it one by one.
fn arithmetic(e: &Evaluation, label: &str, storage_bytes: u64) -> Option<ValueArithmetic> {
    let target = crate::project::Target {
        storage_bytes,
        throughput: e.projection.container.throughput(),
    };
    let x = crate::project::projection::explain(&e.definition, &e.stats, &target, &e.time, label)?;
    let whole = |b: f64| b.max(0.0).round() as u64;
    let r4 = |x: f64| (x * 1e4).round() / 1e4;
    Some(ValueArithmetic {
        sample_bytes: whole(x.sample_bytes),
        documents: x.documents,
        sample: x.sample.name().to_owned(),
        log_kind: x.log.name().to_owned(),
        closed: x.closed,
        credible: r4(x.credible),
        open_growth: r4(x.open_growth),
        held_lines: x.held_lines.map(|(n, net)| [n as f64, r4(net)]),
        rate_bytes_per_second: x.rate.map(r4),
        open_seconds: x.open_seconds.map(f64::round),
        bound: x.bound.is_finite().then(|| r4(x.bound)),
        growth: r4(x.growth),
        bytes: whole(x.bytes),
        interval_bytes: [whole(x.interval.0), whole(x.interval.1)],
    })
}

/// The partition map of one evaluated candidate, each partition listing its largest
/// values and, as one entry with an empty EPK, the projected tail of small values.
fn map_of(e: &mut Evaluation, storage_bytes: u64, redact_values: bool) -> ExplainReport {
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
    // The log's new values placed on their own are named too.
    for (epk, label) in &e.projection.named_new {
        let label = match redact_values {
            true => redact(label),
            false => label.clone(),
        };
        labels.entry(epk.clone()).or_insert(label);
    }
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
        values: Vec::new(),
        growth: None,
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

/// A candidate's partitions and their load, for the HTML report's charts: bytes, RU and
/// (when the log gives rates) RU/s per physical partition, and the heat map of partitions
/// × replay windows in normalised RU: against the RU/s each partition gets when the key's
/// `required_ru` is provisioned, when known, else against the busiest cell.
pub fn partition_load(
    e: &Evaluation,
    prices: &crate::pricing::Prices,
    required_ru: Option<f64>,
) -> PartitionLoad {
    let c = &e.projection.container;
    let parts = c.partitions();
    let ru: Vec<f64> = parts.iter().map(|p| p.ru()).collect();
    let rate = super::need::rate(e, prices).ok();
    let w = &e.workload;
    let cells = c.load().cells();
    // RU a partition may take in one window: its share of the key's RU/s over the window's
    // seconds, in the log's share of the traffic.
    let provisioned = match (rate, required_ru, w.window_seconds) {
        (Some(_), Some(need), Some(seconds)) => {
            Some(need / parts.len().max(1) as f64 * seconds * prices.log_share)
        }
        _ => None,
    };
    let scale = provisioned.unwrap_or_else(|| cells.iter().flatten().copied().fold(0.0, f64::max));
    let heat = (cells.into_iter())
        .map(|row| {
            (row.into_iter())
                .map(|ru| match scale > 0.0 {
                    true => (ru / scale).clamp(0.0, 1.0),
                    false => 0.0,
                })
                .collect()
        })
        .collect();
    let limits = c.limits();
    PartitionLoad {
        ids: parts.iter().map(|p| p.id()).collect(),
        bytes: parts.iter().map(|p| p.bytes()).collect(),
        ru_per_second: rate.map(|r| ru.iter().map(|x| x * r).collect()),
        ru,
        heat,
        heat_of_required: provisioned.is_some(),
        window_seconds: w.window_seconds,
        window_start: w.log_start,
        heat_windows: c.load().cell_windows(),
        partition_bytes_limit: limits.physical_bytes,
        logical_bytes_limit: limits.logical_bytes,
        partition_ru_limit: limits.physical_ru,
        collections: c.is_fixed(),
        read_ru: (w.read_ru - w.fan_out_ru).max(0.0),
        write_ru: (w.ru - w.read_ru).max(0.0),
        fan_out_ru: w.fan_out_ru,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::evaluate::testing::evaluation;
    use crate::pricing::Prices;

    /// 32 partitions; window 1: 300 RU on the first, 100 on the second; window 2: 600 on
    /// the second, 1,500 on the third. Reads 700 RU (200 of them fan-out overhead), writes
    /// 300.
    fn loaded(window_seconds: Option<f64>) -> Evaluation {
        let mut e = evaluation("/a");
        let c = &mut e.projection.container;
        c.charge_partition(0, 300.0);
        c.charge_partition(1, 100.0);
        c.next_window();
        c.charge_partition(1, 600.0);
        c.charge_partition(2, 1_500.0);
        let w = &mut e.workload;
        w.window_seconds = window_seconds;
        // The busiest window holds half the ideal RU: 0.5 / 10 s = 0.05 RU/s per RU.
        (w.peak_ideal_ru, w.ideal_need_ru) = (50.0, 100.0);
        (w.ru, w.read_ru, w.fan_out_ru) = (1_000.0, 700.0, 200.0);
        e
    }

    #[test]
    fn with_rates_the_heat_map_is_against_the_keys_ru_per_partition() {
        let e = loaded(Some(10.0));
        let prices = Prices::list(e.projection.container.throughput());
        let load = partition_load(&e, &prices, Some(3_200.0));
        assert_eq!((load.ids.len(), load.bytes.len()), (32, 32));
        // 700 RU over the log at 0.05 RU/s per RU.
        let rates = load.ru_per_second.expect("rates");
        assert!((rates[1] - 35.0).abs() < 1e-9, "{}", rates[1]);
        assert!((rates[0] - 15.0).abs() < 1e-9);
        // Each partition gets 3,200 / 32 = 100 RU/s: 1,000 RU in a 10-second window.
        assert!(load.heat_of_required);
        assert_eq!(load.heat.len(), 2);
        assert!((load.heat[0][0] - 0.3).abs() < 1e-12);
        assert!((load.heat[1][1] - 0.6).abs() < 1e-12);
        assert_eq!(load.heat[1][0], 0.0);
        // 1,500 RU is 150% of its share: capped, as the portal caps it.
        assert_eq!(load.heat[1][2], 1.0);
        assert_eq!(
            (load.read_ru, load.write_ru, load.fan_out_ru),
            (500.0, 300.0, 200.0)
        );
        assert_eq!(load.partition_bytes_limit, 50 * crate::engine::GB);
        assert!(!load.collections);
    }

    #[test]
    fn without_rates_the_heat_map_is_against_the_busiest_cell() {
        let e = loaded(None);
        let prices = Prices::list(e.projection.container.throughput());
        let load = partition_load(&e, &prices, None);
        assert!(load.ru_per_second.is_none());
        assert!(!load.heat_of_required);
        assert_eq!(load.heat[1][2], 1.0);
        assert!((load.heat[0][0] - 0.2).abs() < 1e-12);
        assert!((load.heat[1][1] - 0.4).abs() < 1e-12);
        assert_eq!(load.ru[1], 700.0);
    }
}
