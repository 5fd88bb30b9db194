//! Benchmark of the partition engine at service scale.
//!
//! Builds a hierarchical (`/tenantId,/userId`) container of 10 million logical partitions
//! holding 5 TB at 50,000 RU/s manual throughput, lets it split to its final layout, then
//! routes 1 million point lookups and 1 million prefix (tenant) lookups. A naive baseline
//! is measured in the same run: the same keys inserted into a `BTreeMap`.
//!
//! ```sh
//! cargo run --release --example engine_bench            # 10,000,000 logical partitions
//! cargo run --release --example engine_bench -- 1000000 # a smaller run
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use pkadvisor::engine::{
    Container, Epk, PartitionKeyDefinition, PartitionKind, PkValueRef, Throughput,
};

const USERS_PER_TENANT: u64 = 100;
const TARGET_BYTES: f64 = 5e12;

#[allow(dead_code)]
#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// The EPK of logical partition `i`, formatted into reused buffers.
fn key_epk(def: &PartitionKeyDefinition, i: u64, bufs: &mut (String, String)) -> Epk {
    use std::fmt::Write;
    bufs.0.clear();
    bufs.1.clear();
    let _ = write!(bufs.0, "tenant-{:06}", i / USERS_PER_TENANT);
    let _ = write!(bufs.1, "user-{:03}", i % USERS_PER_TENANT);
    def.epk_unchecked(&[PkValueRef::Str(&bufs.0), PkValueRef::Str(&bufs.1)])
}

fn main() {
    let logical: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let tenants = logical.div_ceil(USERS_PER_TENANT);
    let mean = TARGET_BYTES / logical as f64;
    let def = PartitionKeyDefinition::parse(&["/tenantId", "/userId"], PartitionKind::MultiHash, 2)
        .expect("valid definition");
    println!("engine_bench: {logical} logical partitions, {tenants} tenants, 5 TB, 50,000 RU/s");

    let mut bufs = (String::new(), String::new());
    // The cost of writing the keys' text, which any caller pays before hashing.
    let t = Instant::now();
    let mut text_len = 0usize;
    for i in 0..logical {
        use std::fmt::Write;
        bufs.0.clear();
        bufs.1.clear();
        let _ = write!(bufs.0, "tenant-{:06}", i / USERS_PER_TENANT);
        let _ = write!(bufs.1, "user-{:03}", i % USERS_PER_TENANT);
        text_len += bufs.0.len() + bufs.1.len();
    }
    let format_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut sink = 0u8;
    for i in 0..logical {
        sink ^= key_epk(&def, i, &mut bufs).as_bytes()[0];
    }
    let hash_s = t.elapsed().as_secs_f64();
    let size = |rng: &mut Rng| 1 + rng.next() % (2.0 * mean) as u64;

    // Incremental: every insert may split its partition, as a container growing over time.
    let t = Instant::now();
    let mut rng = Rng(42);
    let mut c = Container::new(def.clone(), Throughput::Manual(50_000.0));
    let initial = c.partitions().len();
    for i in 0..logical {
        c.insert(key_epk(&def, i, &mut bufs), size(&mut rng), 1, 0.0);
    }
    c.compact();
    let incremental_s = t.elapsed().as_secs_f64() - hash_s;
    let incremental_parts = c.partitions().len();
    drop(c);

    // Bulk: load everything, then split to the final layout (how the advisor projects).
    let t = Instant::now();
    let mut rng = Rng(42);
    let mut c = Container::new(def.clone(), Throughput::Manual(50_000.0));
    for i in 0..logical {
        c.insert_unsplit(key_epk(&def, i, &mut bufs), size(&mut rng), 1);
    }
    c.settle();
    c.compact();
    let build_s = t.elapsed().as_secs_f64() - hash_s;
    let total: u64 = c.bytes();
    let largest = c.partitions().iter().map(|p| p.bytes()).max().unwrap_or(0);
    println!(
        "layout: {initial} partitions at creation -> {} after storage splits; {:.2} TB stored, largest physical partition {:.1} GB",
        c.partitions().len(),
        total as f64 / 1e12,
        largest as f64 / 1e9
    );

    // Lookups are prepared in batches so that their keys do not inflate the peak memory.
    let lookups = 1_000_000u64;
    let batch = 100_000u64;
    let mut rng = Rng(7);
    let (mut point_s, mut prefix_s) = (0.0, 0.0);
    let (mut checksum, mut reached) = (0usize, 0usize);
    for _ in 0..lookups / batch {
        let points: Vec<Epk> = (0..batch)
            .map(|_| key_epk(&def, rng.next() % logical, &mut bufs))
            .collect();
        let prefixes: Vec<_> = (0..batch)
            .map(|_| {
                let t = format!("tenant-{:06}", rng.next() % tenants);
                def.range(&[PkValueRef::Str(&t)]).expect("prefix")
            })
            .collect();
        let t = Instant::now();
        for p in &points {
            checksum += c.route(p);
        }
        point_s += t.elapsed().as_secs_f64();
        let t = Instant::now();
        for r in &prefixes {
            reached += c.route_range(r).len();
        }
        prefix_s += t.elapsed().as_secs_f64();
    }
    let engine_peak = peak_rss_mb();
    drop(c);

    let t = Instant::now();
    let mut rng = Rng(42);
    let mut naive: BTreeMap<Epk, u64> = BTreeMap::new();
    for i in 0..logical {
        *naive.entry(key_epk(&def, i, &mut bufs)).or_default() += size(&mut rng);
    }
    let baseline_s = t.elapsed().as_secs_f64() - hash_s;

    println!("write key text only:        {format_s:8.3} s ({text_len} bytes)");
    println!(
        "text + EPK of {logical} keys: {hash_s:8.3} s (EPK alone {:.3} s, xor {sink})",
        hash_s - format_s
    );
    println!("incremental insert + split: {incremental_s:8.3} s ({incremental_parts} partitions)");
    println!("bulk load + settle:         {build_s:8.3} s");
    println!(
        "route {lookups} point lookups: {point_s:8.3} s ({:.0} ns each, checksum {checksum})",
        point_s * 1e9 / lookups as f64
    );
    println!(
        "route {lookups} prefixes:      {prefix_s:8.3} s ({:.0} ns each, {:.2} partitions per prefix)",
        prefix_s * 1e9 / lookups as f64,
        reached as f64 / lookups as f64
    );
    println!(
        "engine total (EPKs + incremental build + routes): {:.3} s; with bulk build {:.3} s; peak RSS {engine_peak:.0} MB",
        hash_s - format_s + incremental_s + point_s + prefix_s,
        hash_s - format_s + build_s + point_s + prefix_s
    );
    println!(
        "baseline BTreeMap insert of the same keys (hashing excluded): {baseline_s:.3} s; bulk build / baseline = {:.2}",
        build_s / baseline_s
    );
    assert_eq!(naive.len() as u64, logical);
}
