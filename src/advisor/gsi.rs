//! A global secondary index for the reads the recommended key fans out (Microsoft's
//! global secondary index documentation for Cosmos DB NoSQL): a second, read-only container keyed by another top-level property, filled from the
//! source by a managed change feed.
//!
//! For the recommended key, the reads that visit every partition are gathered; each other
//! candidate keyed by one top-level property (a GSI's definition cannot compute a key) that
//! is free of violations is tried as the index's key: the reads it routes to fewer
//! partitions move there. Their RU under the index replaces their RU on the source; the
//! index pays the same write for each source write (a create, a replace, a delete, each by
//! its charge at the source's item size and indexed terms) and the source pays the change
//! feed's reads (a point read's charge per write). It needs continuous backup on the
//! account. Each
//! container's RU/s follow its need (partitions × its hottest partition's RU over the log):
//! the moved reads, which loaded every partition alike, leave the source's hottest
//! partition by their share; the index is as skewed as its key over the whole log. The
//! source is billed under the run's model at its share of the key's demand hour by hour;
//! the index as autoscale (the only mode a GSI takes, at 1.5× the manual price unless
//! prices are given), each hour at its need and never below a tenth of its maximum (at
//! least 1,000 RU/s and 10 per GB; every rule in [`crate::pricing`]); it stores a full
//! copy. A GSI is proposed when the moved reads carry at least a tenth of the reads'
//! RU and the pair costs less a month than the single container (without rates: fewer RU),
//! and no hierarchical candidate serves both patterns for less.

use super::evaluate::Evaluation;
use super::need;
use super::round::{cents, round4};
use crate::key::{KeyKind, KeyLevel};
use crate::pricing::{self, Autoscale, Prices, ThroughputBilling, charge};
use crate::project::target::Target;
use crate::report::model::{CandidateReport, SecondaryIndex, Severity};
use crate::report::text::thousands;

/// What a global secondary index asks of the account beyond its bill.
pub const BACKUP: &str = "It needs continuous backup on the account (the 7-day tier is free; the 30-day tier costs 0.20 USD per GB per region a month, not in this bill).";

/// Moved reads must carry at least this share of the reads' RU.
pub const MIN_MOVED_SHARE: f64 = 0.1;

/// What the moved reads cost and save, in RU over the log.
struct Moved {
    /// Index among the evaluations of the index's key.
    key: usize,
    reads: f64,
    ru_before: f64,
    ru_after: f64,
}

/// The proposal for the recommended candidate `best` (index into `evals` and `reports`,
/// which are in the same order), or `None` when it fans out no read.
pub fn propose(
    evals: &[Evaluation],
    reports: &[CandidateReport],
    best: usize,
    target: &Target,
    prices: &Prices,
) -> Option<SecondaryIndex> {
    let b = &evals[best];
    let fanned: f64 = (b.workload.per_op.iter().filter(|c| c.everywhere))
        .map(|c| c.ru as f64)
        .sum();
    if b.workload.reads == 0 || fanned <= 0.0 {
        return None;
    }
    let moved = (0..evals.len())
        .filter(|&g| g != best && eligible(&evals[g], &reports[g]))
        .map(|g| moved(b, &evals[g], g, false))
        .filter(|m| m.ru_after < m.ru_before)
        .max_by(|x, y| {
            (x.ru_before - x.ru_after)
                .total_cmp(&(y.ru_before - y.ru_after))
                .then_with(|| reports[y.key].key.spec.cmp(&reports[x.key].key.spec))
        })?;
    Some(price(evals, reports, (best, &moved), target, prices))
}

/// The container `source` with the global secondary index `index` declared beside it
/// (indices into `evals` and `reports`): each read goes to whichever serves it for fewer
/// RU, and the pair is priced as a proposal would be.
pub fn pair(
    evals: &[Evaluation],
    reports: &[CandidateReport],
    (source, index): (usize, usize),
    target: &Target,
    prices: &Prices,
) -> SecondaryIndex {
    let m = moved(&evals[source], &evals[index], index, true);
    let mut p = price(evals, reports, (source, &m), target, prices);
    let fan = remaining_fan_out(&evals[source], &evals[index]);
    p.reason = format!(
        "declared beside {}: it serves {:.0}% of the reads for fewer RU; {}; reads that still visit every partition spend {:.0}% of the reads' RU. {BACKUP}",
        reports[source].key.spec,
        p.queries_moved * 100.0,
        match p.monthly_after {
            Some(a) => format!(
                "the pair costs {} USD a month against {} for the container alone",
                thousands(a),
                thousands(p.monthly_before)
            ),
            None => "the log gives no rates to price the pair".to_owned(),
        },
        fan * 100.0
    );
    p.fan_out_share = Some(round4(fan));
    p
}

/// The share of the reads' RU (on the pair) spent by reads that visit every partition of
/// the container serving them.
fn remaining_fan_out(source: &Evaluation, index: &Evaluation) -> f64 {
    let (mut fan, mut all) = (0.0, 0.0);
    for (s, i) in source.workload.per_op.iter().zip(&index.workload.per_op) {
        let (ru, everywhere) = if i.reads > 0.0 && i.ru < s.ru {
            (i.ru as f64, i.everywhere)
        } else {
            (s.ru as f64, s.everywhere)
        };
        all += ru;
        if everywhere {
            fan += ru;
        }
    }
    fan / all.max(f64::MIN_POSITIVE)
}

/// A candidate a GSI could be keyed by: one top-level property, no violation.
fn eligible(e: &Evaluation, r: &CandidateReport) -> bool {
    let top_level = matches!(e.spec.levels(), [KeyLevel::Path(p)] if p.segments().len() == 1);
    top_level
        && e.layout.is_none()
        && e.spec.kind() == KeyKind::Single
        && r.findings.iter().all(|f| f.severity != Severity::Violation)
}

/// The reads `b` fans out that `g` routes to fewer partitions (`any`: every read `g`
/// serves for fewer RU, as when both containers exist and each read goes where it is
/// cheapest).
fn moved(b: &Evaluation, g: &Evaluation, key: usize, any: bool) -> Moved {
    let mut m = Moved {
        key,
        reads: 0.0,
        ru_before: 0.0,
        ru_after: 0.0,
    };
    for (mine, theirs) in b.workload.per_op.iter().zip(&g.workload.per_op) {
        let better = if any {
            theirs.ru < mine.ru
        } else {
            mine.everywhere && !theirs.everywhere
        };
        if better && theirs.reads > 0.0 {
            m.reads += f64::from(mine.reads);
            m.ru_before += mine.ru as f64;
            m.ru_after += theirs.ru as f64;
        }
    }
    m
}

fn price(
    evals: &[Evaluation],
    reports: &[CandidateReport],
    (best, m): (usize, &Moved),
    target: &Target,
    prices: &Prices,
) -> SecondaryIndex {
    let (b, g) = (&evals[best], &evals[m.key]);
    let w = &b.workload;
    let avg_doc = b.stats.bytes as f64 / b.stats.documents.max(1) as f64;
    let writes = if w.writes_from_sample { 0 } else { w.writes } as f64;
    // Each source write costs the index the same write by its kind (a create, a replace,
    // a delete), at the source's item size and indexed terms.
    let write_ru_added = if writes > 0.0 { w.write_ru_model } else { 0.0 };
    let change_feed_ru = writes * charge::read(avg_doc);
    let share = m.ru_before / w.read_ru.max(f64::MIN_POSITIVE);
    let source_ru = w.ru - m.ru_before + change_feed_ru;
    let index_ru = m.ru_after + write_ru_added;
    // What each container needs provisioned (partitions × its hottest partition's RU over
    // the log). Reads that visited every partition loaded each alike, so moving them lowers
    // the hottest partition by their share; the change feed reads the source evenly. The
    // index's load is as skewed as its key's over the whole log.
    let source_need = (w.need_ru - m.ru_before).max(0.0) + change_feed_ru;
    let g_skew = g.workload.need_ru / g.workload.ru.max(f64::MIN_POSITIVE);
    let index_need = index_ru * g_skew.max(1.0);
    let ru_saved = m.ru_before - m.ru_after;
    let before = reports[best].cost.monthly.total;
    let monthly = match (
        need::demand(b, target, prices),
        reports[best].cost.required_ru,
    ) {
        (Ok(d), Some(_)) => {
            let ru = (source_need, source_ru, index_need, index_ru);
            Some(pair_monthly(&d, (b, g), ru, write_ru_added, target, prices))
        }
        _ => None,
    };
    let pays = match monthly {
        Some(after) => after < before,
        None => source_ru + index_ru < 0.9 * w.ru,
    };
    let alternative = cheaper_hierarchical(evals, reports, (best, m), monthly);
    let proposed = share >= MIN_MOVED_SHARE && pays && alternative.is_none() && writes > 0.0;
    let reason = reason(
        (&reports[best], &reports[m.key]),
        (share, w.writes_from_sample, pays),
        (before, monthly),
        alternative,
    );
    SecondaryIndex {
        key: super::key_block::key_info(&g.spec, &g.definition),
        proposed,
        queries_moved: round4(m.reads / w.reads.max(1) as f64),
        ru_saved: ru_saved.round(),
        write_ru_added: write_ru_added.round(),
        change_feed_ru: change_feed_ru.round(),
        storage_added_bytes: target.storage_bytes,
        monthly_before: cents(before),
        monthly_after: monthly.map(cents),
        reason,
        fan_out_share: None,
    }
}

/// What the source and its index cost a month: the source under the run's billing model
/// at its share of the key's demand, the index as autoscale (the only mode an index takes,
/// scaling as the run's autoscale does) at its own, and both copies' storage. `ru` holds
/// the source's and the index's need and RU over the log.
fn pair_monthly(
    d: &pricing::Demand,
    (b, g): (&Evaluation, &Evaluation),
    (source_need, source_ru, index_need, index_ru): (f64, f64, f64, f64),
    write_ru_added: f64,
    target: &Target,
    prices: &Prices,
) -> f64 {
    let w = &b.workload;
    let ideal = w.ideal_need_ru.max(f64::MIN_POSITIVE);
    let billing = prices.billing();
    let mut source = d.scaled(source_need / w.need_ru.max(f64::MIN_POSITIVE));
    source.consumed = source_ru / ideal;
    let provisioned = billing.provision(source.peak(), target.storage_bytes);
    let source_usd = billing.monthly(&source, provisioned, &prices.ru_price(billing));
    let mode = match prices.model {
        pricing::Model::Autoscale(mode) => mode,
        _ => pricing::AutoscaleMode::default(),
    };
    let index_billing = Autoscale { mode };
    // The index's partitions carry its load as the index key spreads it.
    let spread = &g.workload.partition_ru;
    let total: f64 = spread.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    let shares = |ru: f64| -> Vec<f64> { spread.iter().map(|p| p / total * ru / ideal).collect() };
    let index = pricing::Demand {
        factor: index_need / ideal,
        // The index spreads its load by its own key: the source's hours say nothing of it.
        needs: Vec::new(),
        partitions: shares(index_ru),
        partition_writes: shares(write_ru_added),
        consumed: index_ru / ideal,
        ..d.clone()
    };
    let max = index_billing.provision(index.peak(), target.storage_bytes);
    let index_usd = index_billing.monthly(&index, max, &prices.ru_price(&index_billing));
    source_usd + index_usd + 2.0 * pricing::monthly_storage(target.storage_bytes, prices)
}

/// A hierarchical candidate without violations that serves both patterns (fans out no read
/// that the source or the index serves) and costs no more a month than the pair (`None`:
/// rates unknown).
fn cheaper_hierarchical<'r>(
    evals: &[Evaluation],
    reports: &'r [CandidateReport],
    (best, m): (usize, &Moved),
    pair: Option<f64>,
) -> Option<&'r CandidateReport> {
    let pair = pair?;
    let b = &evals[best].workload.per_op;
    let g = &evals[m.key].workload.per_op;
    let serves = |h: &Evaluation| {
        let ops = b.iter().zip(g).zip(&h.workload.per_op);
        ops.filter(|(_, h)| h.everywhere)
            .all(|((mine, theirs), _)| mine.everywhere && theirs.everywhere)
    };
    (0..reports.len())
        .filter(|&i| i != best && reports[i].key.kind == "hierarchical")
        .filter(|&i| {
            let r = &reports[i];
            r.findings.iter().all(|f| f.severity != Severity::Violation)
                && r.cost.monthly.throughput.is_some()
                && r.cost.monthly.total <= pair
                && serves(&evals[i])
        })
        .map(|i| &reports[i])
        .min_by(|a, b| a.cost.monthly.total.total_cmp(&b.cost.monthly.total))
}

fn reason(
    (best, index): (&CandidateReport, &CandidateReport),
    (share, sample_writes, pays): (f64, bool, bool),
    (before, after): (f64, Option<f64>),
    alternative: Option<&CandidateReport>,
) -> String {
    let moved = format!(
        "{} fans out reads that filter by {}; an index keyed by {} would serve them ({:.0}% of the reads' RU)",
        best.key.spec,
        index.key.spec,
        index.key.spec,
        share * 100.0
    );
    let bill = match after {
        Some(a) => format!(
            "the pair would cost {} USD a month against {} for the single container",
            thousands(a),
            thousands(before)
        ),
        None => "the log gives no rates, so RU over the log are compared".to_owned(),
    };
    if sample_writes {
        return format!(
            "{moved}, but the log holds no writes, so what the index's writes would cost is unknown: no index proposed."
        );
    }
    if let Some(h) = alternative {
        return format!(
            "{moved}; {bill}, but {}, a hierarchical key, serves both patterns in one container for {} USD a month: it wins.",
            h.key.spec,
            thousands(h.cost.monthly.total)
        );
    }
    if share < MIN_MOVED_SHARE {
        return format!(
            "{moved}: less than {:.0}% of the reads' RU, not worth a second container.",
            MIN_MOVED_SHARE * 100.0
        );
    }
    if !pays {
        return format!(
            "{moved}; {bill}: the index's writes (one per source write) and its copy of the data cost more than the reads save: no index proposed."
        );
    }
    format!(
        "{moved}; {bill}. The index is eventually consistent (filled by the change feed): reads that must see their own writes stay on the source. {BACKUP}"
    )
}
