//! The `layouts` set: the orders of a retailer that ran on DocumentDB-era collections, to
//! compare client-side layouts (`--layout`) with native partition keys. Every figure the
//! README states of it is computed here from the generated data.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::rng::Rng;
use super::{J, Picker, dec, epoch, rfc3339, zipf};

/// Orders per month, January to June 2026 (a growing shop).
const MONTHS: [(&str, u64); 6] = [
    ("2026-01", 500),
    ("2026-02", 560),
    ("2026-03", 620),
    ("2026-04", 680),
    ("2026-05", 780),
    ("2026-06", 860),
];
/// Regions and their share of customers, per mille.
const REGIONS: [(&str, u64); 5] = [
    ("us", 520),
    ("eu", 240),
    ("apac", 140),
    ("latam", 60),
    ("mea", 40),
];
const CUSTOMERS: usize = 1_200;
const LOG_LINES: usize = 3_000;
/// The lookup map the set ships: three regions with a collection each, the rest shared.
const REGIONS_MAP: &str = "{\"us\": \"orders-us\", \"eu\": \"orders-eu\", \"apac\": \"orders-apac\", \"*\": \"orders-intl\"}\n";
/// The target the README's comparison projects onto.
const TARGET_GB: f64 = 60.0;

/// The files of the set, its README section and its `summary.json` entry.
pub struct Output {
    pub files: Vec<(String, Vec<u8>)>,
    pub readme: String,
    pub summary: serde_json::Value,
}

struct Customer {
    id: String,
    region: &'static str,
}

fn customers() -> Vec<Customer> {
    let mut cumulative = 0;
    let bounds: Vec<(u64, &str)> = REGIONS
        .iter()
        .map(|&(r, w)| {
            cumulative += w;
            (cumulative, r)
        })
        .collect();
    (0..CUSTOMERS)
        .map(|i| {
            // Spread over the Zipf ranks, so that busy customers are in every region.
            let at = (i as u64 * 617 + 311) % 1000;
            let region = bounds.iter().find(|(b, _)| at < *b).map_or("mea", |b| b.1);
            Customer {
                id: format!("cust-{:04}", i + 1),
                region,
            }
        })
        .collect()
}

fn order(rng: &mut Rng, n: usize, c: &Customer, month: &str, secs: i64) -> J {
    let items: Vec<J> = (0..1 + rng.below(4))
        .map(|_| {
            let price = rng.range(199, 19_999);
            obj! { "sku": format!("SKU-{:05}", rng.below(40_000)), "qty": 1 + rng.below(3) as i64, "price": dec(price, 2) }
        })
        .collect();
    let total = 500 + rng.range(0, 40_000);
    obj! {
        "id": format!("ord-{n:06}"),
        "customerId": &c.id,
        "region": c.region,
        "month": month,
        "createdAt": rfc3339(secs),
        "status": *rng.pick(&["placed", "paid", "shipped", "delivered"]),
        "total": dec(total, 2),
        "currency": "USD",
        "items": items,
        "shipTo": obj! { "city": format!("City {}", rng.below(500)), "postalCode": format!("{:05}", rng.below(100_000)) },
    }
}

/// The orders in time order, and each month's and region's bytes.
fn orders(rng: &mut Rng, people: &[Customer], pick: &Picker) -> Vec<J> {
    let mut docs = Vec::new();
    for (m, &(month, count)) in MONTHS.iter().enumerate() {
        let start = epoch(2026, m as i64 + 1, 1);
        let end = epoch(2026, m as i64 + 2, 1);
        for k in 0..count {
            let secs = start + (end - start) * k as i64 / count as i64;
            let c = &people[pick.pick(rng)];
            docs.push(order(rng, docs.len() + 1, c, month, secs));
        }
    }
    docs
}

fn log(rng: &mut Rng, people: &[Customer], pick: &Picker, docs: &[J]) -> Vec<String> {
    let start = epoch(2026, 6, 29) * 1000;
    let mut next_order = docs.len();
    (0..LOG_LINES)
        .map(|i| {
            let ts = super::rfc3339_ms(start + i as i64 * 1_200);
            let c = &people[pick.pick(rng)];
            let roll = rng.below(100);
            let line = if roll < 50 {
                obj! {
                    "op": "query", "ts": ts,
                    "sql": "SELECT * FROM c WHERE c.customerId = @customerId ORDER BY c.createdAt DESC",
                    "parameters": vec![obj! { "name": "@customerId", "value": &c.id }],
                }
            } else if roll < 70 {
                let d = &docs[rng.below(docs.len() as u64) as usize];
                obj! {
                    "op": "read", "ts": ts, "id": d.str("id"),
                    "known": obj! { "/id": d.str("id"), "/customerId": d.str("customerId"), "/region": d.str("region") },
                }
            } else if roll < 80 {
                let region = REGIONS[rng.below(REGIONS.len() as u64) as usize].0;
                obj! {
                    "op": "query", "ts": ts,
                    "sql": "SELECT VALUE SUM(c.total) FROM c WHERE c.region = @region AND c.month = @month",
                    "parameters": vec![obj! { "name": "@region", "value": region }, obj! { "name": "@month", "value": "2026-06" }],
                }
            } else {
                next_order += 1;
                let secs = (start + i as i64 * 1_200) / 1000;
                let doc = order(rng, next_order, c, "2026-06", secs);
                obj! { "op": "create", "ts": ts, "doc": doc }
            };
            line.to_json()
        })
        .collect()
}

/// Bytes (as written, one line each) per value of `key`.
fn bytes_by(docs: &[J], key: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for d in docs {
        *out.entry(d.str(key).to_owned()).or_default() += d.to_json().len() as u64;
    }
    out
}

fn share_gb(part: u64, total: u64) -> f64 {
    TARGET_GB * part as f64 / total as f64
}

pub fn generate() -> Output {
    let mut rng = Rng(0x1a70_75e7);
    let people = customers();
    let pick = Picker::new(zipf(CUSTOMERS, 20));
    let docs = orders(&mut rng, &people, &pick);
    let lines = log(&mut rng, &people, &pick, &docs);
    let by_month = bytes_by(&docs, "month");
    let by_region = bytes_by(&docs, "region");
    let total: u64 = by_month.values().sum();
    let mapped = |r: &str| match r {
        "us" | "eu" | "apac" => format!("orders-{r}"),
        _ => "orders-intl".to_owned(),
    };
    let mut by_collection: BTreeMap<String, u64> = BTreeMap::new();
    for (r, b) in &by_region {
        *by_collection.entry(mapped(r)).or_default() += b;
    }
    let docs_text: String = docs.iter().map(|d| d.to_json() + "\n").collect();
    let log_text: String = lines.iter().map(|l| l.clone() + "\n").collect();
    let mut readme = String::new();
    let _ = write!(
        readme,
        "{}",
        LAYOUTS_PROSE
            .replace("{docs}", &docs.len().to_string())
            .replace("{lines}", &LOG_LINES.to_string())
    );
    readme.push_str(
        "\n| collection of the layout | share of the bytes | at 60 GB |\n|---|--:|--:|\n",
    );
    let rows = (by_month.iter().map(|(m, b)| ("range:/month", m, b)))
        .chain(by_collection.iter().map(|(c, b)| ("lookup:/region", c, b)));
    for (layout, name, b) in rows {
        let _ = writeln!(
            readme,
            "| `{layout}` {name} | {:.1}% | {:.1} GB |",
            100.0 * *b as f64 / total as f64,
            share_gb(*b, total)
        );
    }
    let summary = serde_json::json!({
        "documents": docs.len(),
        "bytes": docs_text.len(),
        "log_lines": LOG_LINES,
        "bytes_by_month": by_month,
        "bytes_by_region": by_region,
        "bytes_by_lookup_collection": by_collection,
        "customers": CUSTOMERS,
    });
    Output {
        files: vec![
            ("layouts/docs.ndjson".into(), docs_text.into_bytes()),
            ("layouts/queries.ndjson".into(), log_text.into_bytes()),
            (
                "layouts/regions.json".into(),
                REGIONS_MAP.as_bytes().to_vec(),
            ),
        ],
        readme,
        summary,
    }
}

const LAYOUTS_PROSE: &str = r#"
## `layouts/`

The orders of a retailer that grew up on DocumentDB collections: {docs} orders from January
to June 2026 (each month busier than the last), 1,200 customers in five regions (us 52%,
eu 24%, apac 14%, latam 6%, mea 4% of customers, a Zipf tail of busy customers), and
{lines} logged operations from the end of June: 50% a customer's order history
(`c.customerId = @customerId`), 20% point reads of an order whose customer and region the
page knows, 10% a region's monthly revenue (`c.region = @region AND c.month = @month`), 20%
new June orders. `regions.json` is a lookup map: `us`, `eu` and `apac` get a collection
each, every other region shares `orders-intl`.

It compares the layouts the shop could have run with native keys. At a 60 GB target, worked
out by hand from the table below (collections of 10 GB):

- `spillover:10GB` fills 7 collections (60 / 9 GB each); every read visits all 7 and every
  write goes to the newest: `FAN_OUT_QUERIES` and `WRITE_HOTSPOT`.
- `range:/month=2026-01,2026-02,2026-03,2026-04,2026-05,2026-06` puts every current write in
  June's collection (`WRITE_HOTSPOT`), and from April on each month passes 10 GB
  (`COLLECTION_LIMIT`).
- `lookup:/region=fixtures/layouts/regions.json` puts more than half the bytes in
  `orders-us`, far past 10 GB (`COLLECTION_LIMIT`).
- `hash:/customerId=8` holds 7.5 GB a collection on average (a little more where the hash
  puts the busiest customers) and routes a customer's reads to one collection, but it breaks
  before 80 GB and pays for 8 collections; the native key `/customerId` routes the same
  reads without a resolver and splits by itself: `/customerId` ranks first.
"#;
