//! The `profiles` set (user profiles read by id): its documents, its log, and its README prose.

use super::*;

pub(super) const PROFILES: usize = 1_600;
pub(super) const PROFILE_NEW: usize = 40;

pub(super) const FIRST_NAMES: [(&str, &str); 30] = [
    ("Olivia", "olivia"),
    ("Liam", "liam"),
    ("José", "jose"),
    ("Zoë", "zoe"),
    ("Aarav", "aarav"),
    ("Priya", "priya"),
    ("Lukas", "lukas"),
    ("Mia", "mia"),
    ("Hiroshi", "hiroshi"),
    ("Yuki", "yuki"),
    ("Chloé", "chloe"),
    ("Mateo", "mateo"),
    ("Amara", "amara"),
    ("Noah", "noah"),
    ("Sofía", "sofia"),
    ("Emma", "emma"),
    ("Oliver", "oliver"),
    ("Fatima", "fatima"),
    ("Wei", "wei"),
    ("Ana", "ana"),
    ("Lars", "lars"),
    ("Ingrid", "ingrid"),
    ("Kwame", "kwame"),
    ("Aisha", "aisha"),
    ("Mohammed", "mohammed"),
    ("Isabella", "isabella"),
    ("Ethan", "ethan"),
    ("Søren", "soren"),
    ("Camille", "camille"),
    ("Raj", "raj"),
];
pub(super) const LAST_NAMES: [(&str, &str); 20] = [
    ("Smith", "smith"),
    ("García", "garcia"),
    ("Müller", "muller"),
    ("Kumar", "kumar"),
    ("Tanaka", "tanaka"),
    ("Silva", "silva"),
    ("Dubois", "dubois"),
    ("Nguyen", "nguyen"),
    ("Okafor", "okafor"),
    ("Johansson", "johansson"),
    ("Rossi", "rossi"),
    ("Kowalski", "kowalski"),
    ("O'Brien", "obrien"),
    ("Chen", "chen"),
    ("Hernández", "hernandez"),
    ("Patel", "patel"),
    ("Jensen", "jensen"),
    ("Novak", "novak"),
    ("Costa", "costa"),
    ("Schmidt", "schmidt"),
];
/// Country, weight, locale, time zone.
pub(super) const COUNTRIES: [(&str, u64, &str, &str); 30] = [
    ("US", 300, "en-US", "America/New_York"),
    ("IN", 110, "en-IN", "Asia/Kolkata"),
    ("GB", 70, "en-GB", "Europe/London"),
    ("DE", 65, "de-DE", "Europe/Berlin"),
    ("BR", 60, "pt-BR", "America/Sao_Paulo"),
    ("FR", 45, "fr-FR", "Europe/Paris"),
    ("CA", 40, "en-CA", "America/Toronto"),
    ("JP", 35, "ja-JP", "Asia/Tokyo"),
    ("AU", 30, "en-AU", "Australia/Sydney"),
    ("MX", 30, "es-MX", "America/Mexico_City"),
    ("ES", 25, "es-ES", "Europe/Madrid"),
    ("IT", 22, "it-IT", "Europe/Rome"),
    ("NL", 20, "nl-NL", "Europe/Amsterdam"),
    ("PL", 18, "pl-PL", "Europe/Warsaw"),
    ("SE", 15, "sv-SE", "Europe/Stockholm"),
    ("KR", 15, "ko-KR", "Asia/Seoul"),
    ("NG", 14, "en-NG", "Africa/Lagos"),
    ("ZA", 12, "en-ZA", "Africa/Johannesburg"),
    ("AR", 12, "es-AR", "America/Argentina/Buenos_Aires"),
    ("TR", 11, "tr-TR", "Europe/Istanbul"),
    ("ID", 10, "id-ID", "Asia/Jakarta"),
    ("PH", 10, "en-PH", "Asia/Manila"),
    ("CH", 9, "de-CH", "Europe/Zurich"),
    ("IE", 8, "en-IE", "Europe/Dublin"),
    ("DK", 7, "da-DK", "Europe/Copenhagen"),
    ("NO", 6, "nb-NO", "Europe/Oslo"),
    ("SG", 6, "en-SG", "Asia/Singapore"),
    ("NZ", 5, "en-NZ", "Pacific/Auckland"),
    ("PT", 5, "pt-PT", "Europe/Lisbon"),
    ("AT", 5, "de-AT", "Europe/Vienna"),
];
pub(super) const PLANS: [(&str, u64); 4] = [
    ("free", 700),
    ("pro", 220),
    ("team", 60),
    ("enterprise", 20),
];
pub(super) const DEVICES: [(&str, &str); 10] = [
    ("ios", "iPhone 15"),
    ("ios", "iPhone 13"),
    ("ios", "iPad Air"),
    ("android", "Pixel 8"),
    ("android", "Galaxy S24"),
    ("android", "Galaxy A54"),
    ("web", "Chrome on Windows"),
    ("web", "Safari on macOS"),
    ("windows", "Surface Laptop 5"),
    ("macos", "MacBook Air M3"),
];
pub(super) const DOMAINS: [&str; 4] = [
    "example.com",
    "example.org",
    "example.net",
    "mail.example.com",
];

pub(super) fn profile(
    rng: &mut Rng,
    country: usize,
    plan_picker: &Picker,
    emails: &mut BTreeSet<String>,
    created: i64,
    now: i64,
) -> J {
    let id = rng.uuid();
    let (first, first_slug) = *rng.pick(&FIRST_NAMES);
    let (last, last_slug) = *rng.pick(&LAST_NAMES);
    let domain = *rng.pick(&DOMAINS);
    let mut email = format!("{first_slug}.{last_slug}@{domain}");
    while !emails.insert(email.clone()) {
        email = format!("{first_slug}.{last_slug}{}@{domain}", rng.range(1, 9_999));
    }
    let (code, _, locale, tz) = COUNTRIES[country];
    let last_login = now - rng.range(0, 60 * 86_400);
    let devices: Vec<J> = (0..[0, 1, 1, 1, 1, 1, 2, 2, 2, 3][rng.below(10) as usize])
        .map(|_| {
            let (platform, model) = *rng.pick(&DEVICES);
            obj! {
                "deviceId": rng.hex(16),
                "platform": platform,
                "model": model,
                "appVersion": format!("7.{}.{}", rng.range(0, 4), rng.range(0, 12)),
                "lastSeen": rfc3339(last_login - rng.range(0, 20 * 86_400)),
            }
        })
        .collect();
    obj! {
        "id": &id,
        "userId": &id,
        "email": email,
        "displayName": format!("{first} {last}"),
        "country": code,
        "plan": PLANS[plan_picker.pick(rng)].0,
        "createdAt": rfc3339(created),
        "lastLoginAt": rfc3339(last_login),
        "preferences": obj! {
            "language": locale,
            "timezone": tz,
            "theme": *rng.pick(&["light", "dark", "system"]),
            "notifications": obj! {"email": rng.chance(700), "push": rng.chance(500), "sms": rng.chance(100)},
            "weeklyDigest": rng.chance(400),
        },
        "devices": devices,
        "marketingOptIn": rng.chance(300),
        "loginCount": rng.range(1, 2_000),
    }
}

pub(super) fn profiles() -> Set {
    let mut rng = Rng(0x7072_6f66_696c_6573);
    let plan_picker = Picker::new(PLANS.iter().map(|p| p.1));
    let per_country = apportion(
        PROFILES as u64,
        &COUNTRIES.iter().map(|c| c.1).collect::<Vec<_>>(),
        1,
    );
    let mut countries: Vec<usize> = per_country
        .iter()
        .enumerate()
        .flat_map(|(i, &n)| std::iter::repeat_n(i, n as usize))
        .collect();
    rng.shuffle(&mut countries);
    let now = epoch(2026, 11, 20);
    let mut emails = BTreeSet::new();
    let mut docs: Vec<(i64, J)> = countries
        .iter()
        .map(|&c| {
            let created = epoch(2019, 1, 1) + rng.range(0, 2_860) * 86_400 + rng.range(0, 86_399);
            let doc = profile(
                &mut rng,
                c,
                &plan_picker,
                &mut emails,
                created,
                now - 86_400,
            );
            (created, doc)
        })
        .collect();
    docs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.str("id").cmp(b.1.str("id"))));
    let docs: Vec<J> = docs.into_iter().map(|(_, d)| d).collect();

    // The log: one day. Active users (a Zipf order over a shuffled list) are read the most.
    let mut order: Vec<usize> = (0..docs.len()).collect();
    rng.shuffle(&mut order);
    let active = Picker::new(zipf(order.len(), 20));
    let mut log = Vec::new();
    let day_ms = |rng: &mut Rng| now * 1000 + rng.range(0, 86_399_999);
    let known = |d: &J| {
        let id = d.str("id");
        obj! {"/id": id, "/userId": id}
    };
    for count in apportion(90_000, &line_weights(&mut rng, 520), 1) {
        let d = &docs[order[active.pick(&mut rng)]];
        let ts_ms = day_ms(&mut rng);
        log.push(LogLine {
            text: obj! {"op": "read", "ts": rfc3339_ms(ts_ms), "id": d.str("id"), "known": known(d), "count": count}
                .to_json(),
            count,
            ts_ms,
            kind: Kind::Read,
            shape: "point read by id",
            fixed: vec![("/id", 1), ("/userId", 1)],
            writes: vec![],
        });
    }
    let country_picker = Picker::new(per_country.iter().copied());
    type Params = Vec<(&'static str, J)>;
    let shape_specs: [(&str, u64, usize, usize, &[&str]); 3] = [
        (
            "email",
            5_000,
            40,
            4,
            &[
                "SELECT * FROM c WHERE c.email = @email",
                "SELECT c.id, c.plan, c.preferences FROM c WHERE c.email = @email",
            ],
        ),
        (
            "country",
            4_000,
            30,
            2,
            &[
                "SELECT VALUE COUNT(1) FROM c WHERE c.country = @country AND c.plan = @plan",
                "SELECT TOP 50 c.id, c.email, c.createdAt FROM c WHERE c.country = @country ORDER BY c.createdAt DESC",
            ],
        ),
        (
            "country IN",
            1_000,
            8,
            1,
            &[
                "SELECT * FROM c WHERE c.country IN ('DE', 'AT', 'CH') AND c.plan = 'enterprise'",
                "SELECT c.id, c.email FROM c WHERE c.country IN ('US', 'CA') AND c.plan = 'team'",
                "SELECT VALUE COUNT(1) FROM c WHERE c.country IN ('ES', 'MX', 'AR') AND c.plan = 'pro'",
            ],
        ),
    ];
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = shape_counts(&mut rng, total, lines, plain);
        for (i, count) in counts.into_iter().enumerate() {
            let sql = templates[i % templates.len()];
            let d = &docs[rng.below(docs.len() as u64) as usize];
            let country = COUNTRIES[country_picker.pick(&mut rng)].0;
            let plan = PLANS[plan_picker.pick(&mut rng)].0;
            let mut params: Params = Vec::new();
            let mut fixed = Vec::new();
            for (name, value, path) in [
                ("@email", J::from(d.str("email")), "/email"),
                ("@country", J::from(country), "/country"),
                ("@plan", J::from(plan), "/plan"),
            ] {
                if uses(sql, name) {
                    params.push((name, value));
                    fixed.push((path, 1));
                }
            }
            if let Some(list) = sql.split("IN (").nth(1) {
                let n = list.split(')').next().unwrap().split(',').count();
                fixed.push(("/country", n));
                fixed.push(("/plan", 1));
            }
            let ts_ms = day_ms(&mut rng);
            log.push(LogLine::query(
                query_text(sql, &params, count, Some(rfc3339_ms(ts_ms)), i >= lines),
                count,
                ts_ms,
                shape,
                fixed,
            ));
        }
    }
    // Writes: last-login patches, preference upserts (same key value), sign-ups.
    for count in apportion(12_000, &line_weights(&mut rng, 150), 1) {
        let d = &docs[order[active.pick(&mut rng)]];
        let ts_ms = day_ms(&mut rng);
        log.push(LogLine {
            text: obj! {"op": "patch", "ts": rfc3339_ms(ts_ms), "id": d.str("id"), "known": known(d), "count": count}
                .to_json(),
            count,
            ts_ms,
            kind: Kind::Patch,
            shape: "",
            fixed: vec![],
            writes: vec![d.clone()],
        });
    }
    for _ in 0..60 {
        let mut d = docs[order[active.pick(&mut rng)]].clone();
        let ts_ms = day_ms(&mut rng);
        d.set("lastLoginAt", J::from(rfc3339(ts_ms / 1000)));
        if let Some(J::Obj(prefs)) = d.get("preferences").cloned() {
            let mut prefs = J::Obj(prefs);
            prefs.set("theme", J::from(*rng.pick(&["light", "dark", "system"])));
            d.set("preferences", prefs);
        }
        log.push(LogLine {
            text: obj! {"op": "upsert", "ts": rfc3339_ms(ts_ms), "doc": d.clone()}.to_json(),
            count: 1,
            ts_ms,
            kind: Kind::Upsert,
            shape: "",
            fixed: vec![],
            writes: vec![d],
        });
    }
    for _ in 0..PROFILE_NEW {
        let ts_ms = day_ms(&mut rng);
        let c = country_picker.pick(&mut rng);
        let d = profile(
            &mut rng,
            c,
            &plan_picker,
            &mut emails,
            ts_ms / 1000,
            ts_ms / 1000,
        );
        log.push(LogLine {
            text: obj! {"op": "create", "ts": rfc3339_ms(ts_ms), "doc": d.clone()}.to_json(),
            count: 1,
            ts_ms,
            kind: Kind::Create,
            shape: "",
            fixed: vec![],
            writes: vec![d],
        });
    }

    Set {
        name: "profiles",
        docs,
        log: total_sorted(log),
        shapes: vec![
            (
                "point read by id",
                "`read` with `known` `{\"/id\", \"/userId\"}`",
            ),
            ("email", "`c.email = @email` (sign-in lookup)"),
            (
                "country",
                "`c.country = @country` (marketing counts, newest sign-ups)",
            ),
            (
                "country IN",
                "`c.country IN ('DE', 'AT', 'CH') AND c.plan = ...`",
            ),
        ],
        candidates: vec![
            Cand::Path("/id"),
            Cand::Path("/userId"),
            Cand::Path("/email"),
            Cand::Path("/country"),
            Cand::Path("/plan"),
            Cand::Hier(&["/country", "/userId"]),
        ],
        top_paths: vec!["/country", "/plan"],
    }
}

pub(super) fn profiles_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (_, us_docs, us_bytes) = st.top_value("/country", 0);
    let prose = format!(
        r#"User profiles of a consumer app: one document per user, `id` equal to `userId` (a UUID),
with `email` (unique, all at `example.*` domains), `displayName` (some non-ASCII), `country`,
`plan`, nested `preferences` (with nested `notifications`) and a `devices` array; sorted by
`createdAt` (2019–2026). `country` is skewed: the US has {us_docs} of {docs} users
({us_share} of bytes) among {countries} countries; `plan` more so (`free` {free_share}).

The log is one day (2026-11-20, every line has `ts`): 90,000 point reads by id whose `known`
holds `/id` and `/userId`, 10,000 queries by email or country (one shape with
`c.country IN (...)`), and writes: 12,000 weighted last-login patches, 60 preference upserts
(same id, same key value) and 40 sign-ups.

**What the advisor should say.** The best key is `/id`, tied with `/userId` (the same value):
point reads are single-partition ({id_single} of reads), the spread is perfect (one document per
value), and nothing is hot. The 10% of reads by email or country fan out, which is the right
trade.

- `/country`: {countries} values (`LOW_CARDINALITY`), the US is {us_share} of bytes and passes
  20 GB at {country_limit} (`LOGICAL_PARTITION_LIMIT` at 100 GB), and the point reads do not
  know the country, so {country_fan} of reads fan out (`FAN_OUT_QUERIES`).
- `/plan`: 4 values, `free` is {free_share} of bytes (20 GB at {plan_limit}), {plan_fan} fan-out.
- `/email`: unique and even, but point reads know only the id: {email_fan} fan-out.
- `/country,/userId`: a hierarchical key whose first level the point reads do not know:
  {hier_fan} fan-out despite a perfect spread.
"#,
        docs = thousands(st.documents as u128),
        us_share = pct(us_bytes as f64 / st.doc_bytes as f64),
        countries = st.distinct("/country"),
        free_share = pct(st.share("/plan")),
        id_single = pct(st.fraction("/id", 0)),
        country_limit = gb(st.max_container("/country")),
        country_fan = pct(st.fraction("/country", 2)),
        plan_limit = gb(st.max_container("/plan")),
        plan_fan = pct(st.fraction("/plan", 2)),
        email_fan = pct(st.fraction("/email", 2)),
        hier_fan = pct(st.fraction("/country,/userId", 2)),
    );
    (
        prose,
        vec![Verdict {
            target: "100GB",
            target_bytes: 100_000_000_000,
            best: vec!["/id", "/userId"],
            hand: vec![],
        }],
    )
}
