//! Cost of the per-candidate statistics alone: `CandidateStats::add` (with the EPK computed
//! per document, as the reader does) for twenty candidates of mixed cardinality, fed
//! document by document as the reader does, and batched candidate by candidate.
//!
//! `cargo run --release --example stats_bench -- [DOCUMENTS [CARDINALITY]]` (a cardinality
//! gives every candidate that many distinct values; 0: every document its own).

use std::time::Instant;

use pkadvisor::engine::PkValueRef;
use pkadvisor::engine::epk::hash_v2;
use pkadvisor::mix::splitmix64;
use pkadvisor::stats::CandidateStats;

/// Distinct values of each candidate (0: every document its own value).
const CARDINALITY: [u64; 20] = [
    0, 2_000, 50_000, 0, 20_000, 30, 0, 3, 4, 50_000, 3, 40, 12, 9_000, 0, 10_000, 8, 5, 5, 3,
];

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let cardinality: [u64; 20] = match std::env::args().nth(2).and_then(|a| a.parse().ok()) {
        Some(k) => [k; 20],
        None => CARDINALITY,
    };
    // All values in one string, as a document's values sit in one read buffer.
    let mut text = String::new();
    let mut spans = Vec::with_capacity(n * CARDINALITY.len());
    for d in 0..n as u64 {
        for (c, &card) in cardinality.iter().enumerate() {
            let v = match card {
                0 => splitmix64(d, c as u64),
                k => splitmix64(d, c as u64) % k,
            };
            let start = text.len();
            text.push_str(&format!("v{c}-{v:012}"));
            spans.push((start, text.len()));
        }
    }
    let value = |d: usize, c: usize| {
        let (a, b) = spans[d * CARDINALITY.len() + c];
        &text[a..b]
    };
    let budget = 512 * 1024 * 1024 / 4 * 3 / CARDINALITY.len() / 4;
    let fresh = || -> Vec<CandidateStats> {
        (0..CARDINALITY.len())
            .map(|_| CandidateStats::new(budget, false))
            .collect()
    };
    let add = |s: &mut CandidateStats, d: usize, c: usize| {
        let parts = [PkValueRef::Str(value(d, c))];
        s.add(&parts, &hash_v2(&parts), false, 500, Some(d as i64 * 500));
    };
    let values = (n * CARDINALITY.len()) as f64;

    let start = Instant::now();
    let mut check = 0u64;
    for d in 0..n {
        for c in 0..CARDINALITY.len() {
            check ^= hash_v2(&[PkValueRef::Str(value(d, c))]).as_bytes()[5] as u64;
        }
    }
    let epk = start.elapsed().as_secs_f64() * 1e9 / values;

    let mut stats = fresh();
    let start = Instant::now();
    for d in 0..n {
        for (c, s) in stats.iter_mut().enumerate() {
            add(s, d, c);
        }
    }
    let by_document = start.elapsed().as_secs_f64() * 1e9 / values;
    check ^= stats[0].distinct_values().0;

    let mut stats = fresh();
    let start = Instant::now();
    for batch in (0..n).step_by(512) {
        for (c, s) in stats.iter_mut().enumerate() {
            for d in batch..(batch + 512).min(n) {
                add(s, d, c);
            }
        }
    }
    let batched = start.elapsed().as_secs_f64() * 1e9 / values;
    check ^= stats[0].distinct_values().0;
    println!(
        "{n} documents x {} candidates: EPK alone {epk:.1} ns; EPK + add {by_document:.1} ns by document, {batched:.1} ns batched ({})",
        CARDINALITY.len(),
        check & 1
    );
}
