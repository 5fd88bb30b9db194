//! The `iot` set (vehicle telemetry): its documents, its log, and its README prose.

use super::*;

pub(super) const IOT_VEHICLES: usize = 2_000;
/// Long-haul vehicles (the first ones) report five times as often as the rest.
pub(super) const IOT_LONG_HAUL: usize = 400;
pub(super) const IOT_DAYS: i64 = 30;
pub(super) const IOT_LOG_DAYS: i64 = 3;

pub(super) const VIN_CHARS: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
pub(super) const MAKES: [(&str, &str, &[&str]); 12] = [
    ("1FT", "Ford", &["F-150", "Transit", "E-Transit"]),
    ("1GC", "Chevrolet", &["Silverado 2500HD", "Express 3500"]),
    ("3C6", "Ram", &["ProMaster 2500", "1500"]),
    ("W1V", "Mercedes-Benz", &["Sprinter 2500", "eSprinter"]),
    ("VF1", "Renault", &["Master", "Kangoo E-Tech"]),
    ("YS2", "Scania", &["R 450", "P 280"]),
    ("JTF", "Toyota", &["HiAce", "Hilux"]),
    ("5YJ", "Tesla", &["Model Y", "Model 3"]),
    ("4V4", "Volvo", &["VNL 760", "FH Electric"]),
    ("1HT", "International", &["LT625", "MV607"]),
    ("WV1", "Volkswagen", &["Crafter", "ID. Buzz Cargo"]),
    ("NM0", "Ford", &["Transit Connect"]),
];
/// Depot cities, latitude and longitude in 1e-5 degrees.
pub(super) const DEPOTS: [(i64, i64); 12] = [
    (4_760_621, -12_233_207),
    (3_973_915, -10_498_470),
    (4_187_811, -8_762_980),
    (3_277_666, -9_679_699),
    (3_374_900, -8_438_798),
    (5_192_442, 447_773),
    (5_355_108, 999_368),
    (4_576_404, 483_566),
    (4_546_427, 918_951),
    (4_041_678, -370_379),
    (5_932_932, 1_806_858),
    (4_365_107, -7_934_702),
];
pub(super) const DTC_CODES: [&str; 9] = [
    "P0420", "P0171", "P0300", "P0128", "U0100", "P0442", "B1318", "C0035", "P2463",
];
pub(super) const FIRMWARE: [&str; 5] = ["3.12.0", "3.13.4", "3.14.1", "3.14.2", "4.0.0-rc2"];

pub(super) struct Vehicle {
    pub(super) vin: String,
    pub(super) fleet: u64,
    pub(super) make: &'static str,
    pub(super) model: &'static str,
    pub(super) year: i64,
    pub(super) firmware: &'static str,
    /// Odometer at the start of the sample, 0.1 km.
    pub(super) odometer: i64,
}

/// A 17-character VIN with a valid check digit (position 9).
pub(super) fn vin(rng: &mut Rng, wmi: &str, year: i64) -> String {
    let mut v: Vec<u8> = wmi.bytes().collect();
    for _ in 0..5 {
        v.push(*rng.pick(VIN_CHARS));
    }
    v.push(b'0');
    v.push(b"NPRST"[(year - 2022) as usize]);
    v.push(*rng.pick(VIN_CHARS));
    for _ in 0..6 {
        v.push(b'0' + rng.below(10) as u8);
    }
    let value = |c: u8| -> u32 {
        match c {
            b'0'..=b'9' => (c - b'0') as u32,
            _ => {
                let i = b"ABCDEFGHJKLMNPRSTUVWXYZ"
                    .iter()
                    .position(|&x| x == c)
                    .unwrap() as u32;
                [
                    1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9,
                ][i as usize]
            }
        }
    };
    const WEIGHTS: [u32; 17] = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum: u32 = v.iter().zip(WEIGHTS).map(|(&c, w)| value(c) * w).sum();
    v[8] = match sum % 11 {
        10 => b'X',
        d => b'0' + d as u8,
    };
    String::from_utf8(v).unwrap()
}

pub(super) fn telemetry(rng: &mut Rng, v: &Vehicle, secs: i64, day_index: i64) -> J {
    let (lat, lon) = DEPOTS[(v.fleet % DEPOTS.len() as u64) as usize];
    let moving = rng.chance(800);
    let (speed, rpm) = if moving {
        (rng.range(50, 1_300), rng.range(1_100, 3_200))
    } else {
        (0, rng.range(650, 850))
    };
    let dtc: Vec<J> = if rng.chance(880) {
        vec![]
    } else {
        (0..rng.range(1, 2))
            .map(|_| J::from(*rng.pick(&DTC_CODES)))
            .collect()
    };
    obj! {
        "id": format!("{}-{}", v.vin, secs),
        "vin": &v.vin,
        "date": date_of(secs),
        "ts": rfc3339(secs),
        "fleetId": format!("fleet-{:03}", v.fleet),
        "vehicle": obj! {"make": v.make, "model": v.model, "year": v.year},
        "position": obj! {
            "lat": dec(lat + rng.range(-40_000, 40_000), 5),
            "lon": dec(lon + rng.range(-60_000, 60_000), 5),
            "heading": rng.range(0, 359),
            "accuracyM": rng.range(2, 15),
        },
        "readings": obj! {
            "speed": dec(speed, 1),
            "rpm": rpm,
            "fuel": dec(rng.range(5, 100), 2),
            "temp": dec(rng.range(700, 1_040), 1),
            "odometerKm": dec(v.odometer + day_index * rng.range(500, 4_000), 1),
            "batteryV": dec(rng.range(120, 146), 1),
        },
        "dtc": dtc,
        "firmware": v.firmware,
    }
}

/// Telemetry of one day, in time order: weekdays busier than weekends.
pub(super) fn iot_day(
    rng: &mut Rng,
    fleet: &[Vehicle],
    day: i64,
    day_index: i64,
    used: &mut BTreeSet<String>,
) -> Vec<(i64, J)> {
    let n = if weekday(day) >= 5 {
        rng.range(70, 85)
    } else {
        rng.range(120, 140)
    };
    let mut out = Vec::new();
    for _ in 0..n {
        let vi = if rng.chance(500) {
            rng.below(IOT_LONG_HAUL as u64)
        } else {
            rng.below(fleet.len() as u64)
        } as usize;
        let mut secs = day + rng.range(5 * 3600, 21 * 3600 - 1);
        while !used.insert(format!("{}-{}", fleet[vi].vin, secs)) {
            secs += 1;
        }
        out.push((secs, telemetry(rng, &fleet[vi], secs, day_index)));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.str("id").cmp(b.1.str("id"))));
    out
}

pub(super) fn iot() -> Set {
    let mut rng = Rng(0x696f_745f_7465_6c65);
    let fleet: Vec<Vehicle> = (0..IOT_VEHICLES)
        .map(|_| {
            let (wmi, make, models) = *rng.pick(&MAKES);
            let year = rng.range(2022, 2026);
            let vin = vin(&mut rng, wmi, year);
            let fleet = 1 + rng.below(40);
            let model = *rng.pick(models);
            let firmware = *rng.pick(&FIRMWARE);
            Vehicle {
                vin,
                fleet,
                make,
                model,
                year,
                firmware,
                odometer: rng.range(5_000, 2_500_000),
            }
        })
        .collect();
    let first = epoch(2026, 10, 3);
    let mut used = BTreeSet::new();
    let mut docs = Vec::new();
    for d in 0..IOT_DAYS {
        docs.extend(iot_day(&mut rng, &fleet, first + d * 86_400, d, &mut used));
    }

    // The log: the three days after the sample, creates in arrival order, with their charge.
    let log_first = first + IOT_DAYS * 86_400;
    let mut log = Vec::new();
    for d in 0..IOT_LOG_DAYS {
        for (secs, doc) in iot_day(
            &mut rng,
            &fleet,
            log_first + d * 86_400,
            IOT_DAYS + d,
            &mut used,
        ) {
            let bytes = doc.to_json().len() as i64;
            let text = obj! {"op": "create", "ts": rfc3339(secs), "ru": dec(520 + bytes * 100 / 900, 2), "doc": doc.clone()}
                .to_json();
            log.push(LogLine {
                text,
                count: 1,
                ts_ms: secs * 1000,
                kind: Kind::Create,
                shape: "",
                fixed: vec![],
                writes: vec![doc],
            });
        }
    }
    let shape_specs: [(&str, u64, usize, usize, &[&str]); 3] = [
        (
            "vin+date",
            35_000,
            240,
            6,
            &[
                "SELECT * FROM c WHERE c.vin = @vin AND c.date = @date ORDER BY c.ts",
                "SELECT TOP 1 c.position, c.ts FROM c WHERE c.vin = @vin AND c.date = @date ORDER BY c.ts DESC",
                "SELECT VALUE MAX(c.readings.speed) FROM c WHERE c.date = @date AND c.vin = @vin",
                "SELECT c.ts, c.readings.fuel, c.readings.temp FROM c WHERE c[\"vin\"] = @vin AND c[\"date\"] = @date",
            ],
        ),
        (
            "vin+date range",
            10_000,
            80,
            2,
            &[
                "SELECT c.date, c.readings.odometerKm FROM c WHERE c.vin = @vin AND c.date >= @from AND c.date <= @to ORDER BY c.ts",
                "SELECT d AS code, c.ts FROM c JOIN d IN c.dtc WHERE c.vin = @vin AND c.date >= @from",
            ],
        ),
        (
            "date",
            5_000,
            30,
            2,
            &[
                "SELECT c.vin, c.readings.speed, c.position FROM c WHERE c.date = @date AND c.readings.speed > 120",
                "SELECT VALUE COUNT(1) FROM c WHERE c.date = @date AND ARRAY_LENGTH(c.dtc) > 0",
                "SELECT c.fleetId, AVG(c.readings.fuel) AS avgFuel FROM c WHERE c.date = @date GROUP BY c.fleetId",
            ],
        ),
    ];
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = shape_counts(&mut rng, total, lines, plain);
        for (i, count) in counts.into_iter().enumerate() {
            let sql = templates[i % templates.len()];
            // Half of the lookups are about the last week.
            let di = if rng.chance(500) {
                docs.len() - 1 - rng.below(docs.len() as u64 / 4) as usize
            } else {
                rng.below(docs.len() as u64) as usize
            };
            let doc = &docs[di].1;
            let date = doc.str("date").to_string();
            let day = days_from_civil(
                date[0..4].parse().unwrap(),
                date[5..7].parse().unwrap(),
                date[8..10].parse().unwrap(),
            ) * 86_400;
            let mut params: Vec<(&str, J)> = Vec::new();
            let mut fixed = Vec::new();
            for (name, value, path) in [
                ("@vin", J::from(doc.str("vin")), "/vin"),
                ("@date", J::from(&date), "/date"),
                ("@from", J::from(date_of(day - 7 * 86_400)), ""),
                ("@to", J::from(&date), ""),
            ] {
                if uses(sql, name) {
                    params.push((name, value));
                    if !path.is_empty() {
                        fixed.push((path, 1));
                    }
                }
            }
            let ts_ms = (log_first + rng.range(0, IOT_LOG_DAYS - 1) * 86_400) * 1000
                + rng.range(6 * 3_600_000, 20 * 3_600_000);
            log.push(LogLine::query(
                query_text(sql, &params, count, Some(rfc3339(ts_ms / 1000)), i >= lines),
                count,
                ts_ms,
                shape,
                fixed,
            ));
        }
    }

    Set {
        name: "iot",
        docs: docs.into_iter().map(|(_, d)| d).collect(),
        log: total_sorted(log),
        shapes: vec![
            (
                "vin+date",
                "`c.vin = @vin AND c.date = @date` (incl. bracket notation)",
            ),
            (
                "vin+date range",
                "`c.vin = @vin AND c.date >= @from` (incl. JOIN over `c.dtc`)",
            ),
            ("date", "`c.date = @date` daily reports"),
        ],
        candidates: vec![
            Cand::Path("/vin"),
            Cand::Concat(&["/vin", "/date"]),
            Cand::HashSuffix("/date", "/vin", 400),
            Cand::RandSuffix("/date", 400),
            Cand::Path("/date"),
            Cand::Path("/id"),
            Cand::Path("/fleetId"),
            Cand::Path("/vehicle/make"),
        ],
        top_paths: vec!["/date", "/vin"],
    }
}

pub(super) fn iot_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (top_date, date_docs, date_bytes) = st.top_value("/date", 0);
    let date_share = pct(date_bytes as f64 / st.doc_bytes as f64);
    let date_limit = gb(st.max_container("/date"));
    let date_worst = pct(st.cand("/date").writes.unwrap().1);
    let date_written = st.cand("/date").writes.unwrap().0;
    let vin_worst = pct(st.cand("/vin").writes.unwrap().1);
    let vin_written = st.cand("/vin").writes.unwrap().0;
    let creates = st.kinds.get(&Kind::Create).map_or(0, |k| k.0);
    let prose = format!(
        r#"Connected-vehicle telemetry: one reading per document (`vin`, `date`, `ts`, nested `vehicle`,
`position {{lat, lon, …}}`, `readings {{speed, rpm, fuel, temp, …}}`, a `dtc` array of fault
codes) from a fleet of {fleet} vehicles with valid 17-character VINs; {vins} of them appear in
this 30-day sample (2026-10-03 to 2026-11-01), and {long_haul} long-haul vehicles report five
times as often as the rest. Documents are in arrival order: the file order is `ts` order, and
`date` follows the clock. Weekdays carry 120–140 readings, weekends 70–85; the busiest day
({top_date}) has {date_docs} documents, {date_share} of bytes.

The log covers the next three days (2026-11-02 to 2026-11-04): {creates} creates in `ts`
order, each with the charge it was observed to cost (`ru`; a write's charge does not depend on
the key), and 50,000 weighted queries interleaved by time.

**What the advisor should say.** The best key is `/vin`.

- `/vin`: {vin_single} single-partition (the vin+date lookups and the vin history range);
  only the 10% daily reports fan out. Each day's writes spread over hundreds of vehicles
  ({vin_written} distinct values written; in the worst day one vin took {vin_worst}). The
  largest vehicle is {vin_share} of bytes ({vin_limit} before 20 GB).
- `/date` is the write hotspot the set is built to show: every create of a day lands in one
  logical partition ({date_worst} of a window's writes on one value; the three days of the log
  write {date_written} values), so however many partitions the container has, it writes into
  one: `WRITE_HOTSPOT`. {date_distinct} values: `LOW_CARDINALITY`. A day is up to
  {date_share} of bytes, past 20 GB at {date_limit}: `LOGICAL_PARTITION_LIMIT` at 1 TB. Its
  reads look fine ({date_single} single-partition), which is the trap.
- `hash_suffix(/date,/vin,400)` removes the hotspot (a day's writes spread over 400 values)
  and keeps vin+date lookups single-partition (both inputs known), but the vin history (20%)
  and the daily reports (10%) fan out ({hash_fan}); the daily report would have to visit all
  400 suffixes of its date. `concat(/vin,/date)` behaves the same for reads ({concat_fan}
  fan-out) with no hash to choose. Both are acceptable, second to `/vin` for this read mix.
- `rand_suffix(/date,400)` spreads writes but no read knows the suffix: 100% fan-out.
- `/id`: 100% fan-out. `/fleetId` ({fleets} values) and the nested `/vehicle/make`
  ({makes} values, the largest {make_share} of bytes) are low-cardinality and fan out every
  query.
"#,
        fleet = thousands(IOT_VEHICLES as u128),
        vins = thousands(st.distinct("/vin") as u128),
        long_haul = IOT_LONG_HAUL,
        vin_single = pct(st.fraction("/vin", 0)),
        vin_share = pct(st.share("/vin")),
        vin_limit = gb(st.max_container("/vin")),
        date_distinct = st.distinct("/date"),
        date_single = pct(st.fraction("/date", 0)),
        hash_fan = pct(st.fraction("hash_suffix(/date,/vin,400)", 2)),
        concat_fan = pct(st.fraction("concat(/vin,/date)", 2)),
        fleets = st.distinct("/fleetId"),
        makes = st.distinct("/vehicle/make"),
        make_share = pct(st.share("/vehicle/make")),
    );
    (
        prose,
        vec![Verdict {
            target: "1TB",
            target_bytes: 1_000_000_000_000,
            best: vec!["/vin"],
            hand: vec![("/date", "WRITE_HOTSPOT")],
        }],
    )
}
