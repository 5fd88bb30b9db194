//! Deterministic generator of realistic sample documents (NDJSON), for benchmarks.
//!
//! ```sh
//! cargo run --release --example gen_sample -- orders 1000 > /tmp/orders.ndjson   # ~1 GB
//! cargo run --release --example gen_sample -- unique 300 > /tmp/unique.ndjson  # ~300 MB
//! cargo run --release --example gen_sample -- ids 50000000 | pkadvisor analyze --key /id
//! ```
//!
//! `orders MB`: ~500-byte nested order events of a multi-tenant shop (skewed tenants,
//! users, sessions, devices, dates, nested customer and product objects, arrays).
//! `unique MB`: ~460-byte payment events of twenty top-level fields, most of them near
//! unique (ids, sessions, orders, carts, prices, timestamps, addresses) and a few of low
//! cardinality (tenant, region, status): the shape where per-value work dominates.
//! `ids N`: N tiny documents with distinct ids (memory bound checks).
//! `log N`: a query log of N operations over the `orders` data: queries by tenant and
//! user, by tenant, by session, `IN` lists, point reads with known values, and creates.

use std::io::{self, BufWriter, Write};

#[allow(dead_code)]
#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

const CITIES: [(&str, &str); 8] = [
    ("Seattle", "US"),
    ("Redmond", "US"),
    ("Dublin", "IE"),
    ("Amsterdam", "NL"),
    ("Tokyo", "JP"),
    ("São Paulo", "BR"),
    ("Zürich", "CH"),
    ("Sydney", "AU"),
];
const CATEGORIES: [&str; 6] = ["books", "games", "garden", "kitchen", "toys", "tools"];
const STATUSES: [&str; 4] = ["created", "paid", "shipped", "delivered"];
const CHANNELS: [&str; 3] = ["web", "mobile", "store"];

fn order(rng: &mut Rng, i: u64, out: &mut impl Write) -> io::Result<()> {
    let tenant = rng.skewed(2_000);
    let user = rng.below(50_000);
    let (city, country) = CITIES[rng.below(8) as usize];
    let day = 1 + i / 40_000 % 28;
    let price = rng.below(100_000) as f64 / 100.0;
    writeln!(
        out,
        concat!(
            r#"{{"id":"{:016x}-{:08x}","tenantId":"tenant-{:04}","userId":"user-{:06}","#,
            r#""sessionId":"s-{:x}","deviceId":"dev-{:05}","date":"2026-11-{:02}","#,
            r#""ts":"2026-11-{:02}T{:02}:{:02}:{:02}Z","type":"order","region":"{}","#,
            r#""customer":{{"name":"Customer {}","tier":"{}","address":{{"city":"{}","country":"{}","zip":"{:05}"}}}},"#,
            r#""orderId":{},"product":{{"sku":"SKU-{:06}","category":"{}","price":{}}},"#,
            r#""quantity":{},"status":"{}","channel":"{}","tags":["{}","promo-{}"],"#,
            r#""notes":"{}"}}"#
        ),
        rng.next(),
        i,
        tenant,
        user,
        rng.below(5_000_000),
        rng.below(20_000),
        day,
        day,
        rng.below(24),
        rng.below(60),
        rng.below(60),
        ["westus", "eastus", "northeurope", "japaneast"][rng.below(4) as usize],
        user,
        ["free", "pro", "enterprise"][rng.skewed(3) as usize],
        city,
        country,
        rng.below(100_000),
        1_000_000_000 + i,
        rng.skewed(200_000),
        CATEGORIES[rng.below(6) as usize],
        price,
        1 + rng.below(5),
        STATUSES[rng.below(4) as usize],
        CHANNELS[rng.below(3) as usize],
        CATEGORIES[rng.below(6) as usize],
        rng.below(50),
        "x".repeat(rng.below(60) as usize),
    )
}

fn unique(rng: &mut Rng, i: u64, out: &mut impl Write) -> io::Result<()> {
    let day = 1 + i / 25_000 % 28;
    writeln!(
        out,
        concat!(
            r#"{{"id":"{:016x}-{:08x}","sessionId":"s-{:012x}","orderId":{},"#,
            r#""cartId":"cart-{:010}","paymentId":"pay_{:012x}","invoiceNo":"INV-2026-{:08}","#,
            r#""userId":"user-{:07}","email":"u{}@example.com","#,
            r#""ip":"10.{}.{}.{}","price":{},"qty":{},"amount":{},"#,
            r#""ts":"2026-11-{:02}T{:02}:{:02}:{:02}.{:03}Z","deviceId":"dev-{:08}","#,
            r#""trackingNo":"1Z{:012X}","sku":"SKU-{:06}","zip":"{:05}","#,
            r#""tenantId":"tenant-{:03}","region":"{}","status":"{}"}}"#
        ),
        rng.next(),
        i,
        rng.next() >> 16,
        3_000_000_000 + i,
        rng.below(10_000_000_000),
        rng.next() >> 16,
        i * 3 + rng.below(3),
        rng.below(5_000_000),
        rng.below(20_000_000),
        rng.below(256),
        rng.below(256),
        rng.below(256),
        rng.below(10_000_000) as f64 / 100.0,
        1 + rng.below(9),
        rng.below(100_000_000) as f64 / 100.0,
        day,
        rng.below(24),
        rng.below(60),
        rng.below(60),
        rng.below(1000),
        rng.below(100_000_000),
        rng.next() >> 16,
        rng.below(1_000_000),
        rng.below(100_000),
        rng.skewed(300),
        ["westus", "eastus", "northeurope", "japaneast"][rng.below(4) as usize],
        STATUSES[rng.below(4) as usize],
    )
}

fn log_line(rng: &mut Rng, i: u64, out: &mut impl Write) -> io::Result<()> {
    let t = rng.skewed(2_000);
    let u = rng.below(50_000);
    match rng.below(20) {
        0..=9 => writeln!(
            out,
            r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u","parameters":[{{"name":"@t","value":"tenant-{t:04}"}},{{"name":"@u","value":"user-{u:06}"}}]}}"#
        ),
        10..=13 => writeln!(
            out,
            r#"{{"op":"query","sql":"SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t","parameters":[{{"name":"@t","value":"tenant-{t:04}"}}]}}"#
        ),
        14 => writeln!(
            out,
            r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.sessionId = 's-{:x}'"}}"#,
            rng.below(5_000_000)
        ),
        15 => writeln!(
            out,
            r#"{{"op":"query","sql":"SELECT * FROM c WHERE c.tenantId IN ('tenant-{t:04}', 'tenant-{:04}') AND c.status = 'paid'"}}"#,
            rng.skewed(2_000)
        ),
        16..=17 => writeln!(
            out,
            r#"{{"op":"read","id":"{:016x}-{i:08x}","known":{{"/tenantId":"tenant-{t:04}","/userId":"user-{u:06}"}}}}"#,
            rng.next()
        ),
        _ => writeln!(
            out,
            r#"{{"op":"create","doc":{{"id":"new-{i}","tenantId":"tenant-{t:04}","userId":"user-{u:06}","sessionId":"s-{:x}","deviceId":"dev-{:05}","date":"2026-11-30","type":"order"}}}}"#,
            rng.below(5_000_000),
            rng.below(20_000)
        ),
    }
}

fn main() -> io::Result<()> {
    match generate() {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

fn generate() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("orders");
    let n: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut rng = Rng(2026);
    match mode {
        "log" => {
            for i in 0..n {
                log_line(&mut rng, i, &mut out)?;
            }
        }
        "ids" => {
            for i in 0..n {
                writeln!(
                    out,
                    r#"{{"id":"{:016x}{:08x}","v":{}}}"#,
                    rng.next(),
                    i,
                    i % 7
                )?;
            }
        }
        "unique" => sized(n, &mut out, |i, buf| unique(&mut rng, i, buf))?,
        _ => sized(n, &mut out, |i, buf| order(&mut rng, i, buf))?,
    }
    out.flush()
}

/// Documents written by `doc` until `mb` megabytes are out.
fn sized(
    mb: u64,
    out: &mut impl Write,
    mut doc: impl FnMut(u64, &mut Vec<u8>) -> io::Result<()>,
) -> io::Result<()> {
    let target = mb * 1_000_000;
    let mut written = 0u64;
    let mut i = 0;
    let mut buf = Vec::with_capacity(1024);
    while written < target {
        buf.clear();
        doc(i, &mut buf)?;
        out.write_all(&buf)?;
        written += buf.len() as u64;
        i += 1;
    }
    Ok(())
}
