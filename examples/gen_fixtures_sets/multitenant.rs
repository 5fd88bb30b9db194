//! The `multitenant` set (SaaS product events): its documents, its log, and its README prose.

use super::*;

pub(super) const MT_DOCS: u64 = 3_600;
pub(super) const MT_TENANTS: usize = 300;
/// Documents of the two huge tenants: 25% and 20% of the set.
pub(super) const MT_HUGE: [u64; 2] = [900, 720];
/// The most queries one log line holds: a user's queries of the hour are spread over it.
const MT_PER_LINE: u64 = 24;

/// `total` cut into `parts` counts that differ by at most one, the larger first.
fn even_parts(total: u64, parts: u64) -> Vec<u64> {
    let (base, extra) = (total / parts, total % parts);
    (0..parts).map(|k| base + u64::from(k < extra)).collect()
}
pub(super) const MT_CREATES: usize = 200;
pub(super) const MT_BATCHES: usize = 20;

pub(super) const FICTIONAL: [&str; 22] = [
    "northwind-traders",
    "adventure-works",
    "tailspin-toys",
    "wingtip-toys",
    "woodgrove-bank",
    "litware",
    "proseware",
    "fourth-coffee",
    "alpine-ski-house",
    "blue-yonder-airlines",
    "coho-winery",
    "lucerne-publishing",
    "margies-travel",
    "trey-research",
    "wide-world-importers",
    "relecloud",
    "humongous-insurance",
    "graphic-design-institute",
    "city-power-and-light",
    "consolidated-messenger",
    "southridge-video",
    "datum-corporation",
];
pub(super) const ADJECTIVES: [&str; 20] = [
    "amber", "arctic", "bright", "cedar", "coastal", "copper", "crimson", "emerald", "golden",
    "granite", "harbor", "ivory", "lunar", "maple", "nimble", "northern", "quiet", "silver",
    "summit", "velvet",
];
pub(super) const NOUNS: [&str; 20] = [
    "analytics",
    "bakery",
    "clinic",
    "dynamics",
    "energy",
    "foods",
    "freight",
    "games",
    "health",
    "labs",
    "legal",
    "logistics",
    "media",
    "motors",
    "outfitters",
    "partners",
    "robotics",
    "studios",
    "systems",
    "ventures",
];

pub(super) const EVENT_TYPES: [(&str, u64); 6] = [
    ("page_view", 44),
    ("click", 22),
    ("search", 11),
    ("purchase", 9),
    ("error", 8),
    ("logout", 6),
];
pub(super) const PAGES: [(&str, &str); 10] = [
    ("/dashboard", "Dashboard"),
    ("/projects", "All projects"),
    ("/projects/{n}/board", "Sprint board"),
    ("/projects/{n}/backlog", "Backlog"),
    ("/reports/monthly", "Monthly report"),
    ("/reports/funnels", "Funnels"),
    ("/settings/billing", "Billing"),
    ("/settings/members", "Members"),
    ("/inbox", "Inbox"),
    ("/docs/getting-started", "Getting started"),
];
pub(super) const ELEMENTS: [&str; 8] = [
    "button#export-csv",
    "button#new-project",
    "a.nav-reports",
    "button#invite-member",
    "div.card-task",
    "button#save-filter",
    "a.breadcrumb",
    "button#share-link",
];
pub(super) const SEARCHES: [&str; 10] = [
    "quarterly revenue",
    "overdue invoices",
    "onboarding checklist",
    "sprint 42",
    "customer churn",
    "release notes",
    "api key",
    "team calendar",
    "expense policy",
    "roadmap 2027",
];
pub(super) const ERRORS: [(&str, &str, &str, i64); 5] = [
    (
        "E_TIMEOUT",
        "Upstream request timed out after 30000 ms",
        "/api/v2/reports",
        504,
    ),
    (
        "E_RATE_LIMIT",
        "Too many requests, retry after 2 s",
        "/api/v2/search",
        429,
    ),
    (
        "E_VALIDATION",
        "Field 'dueDate' must be a date",
        "/api/v2/tasks",
        400,
    ),
    (
        "E_FORBIDDEN",
        "Missing permission projects.write",
        "/api/v2/projects",
        403,
    ),
    (
        "E_INTERNAL",
        "Unexpected null reference in BoardService",
        "/api/v2/boards",
        500,
    ),
];
pub(super) const CLIENTS: [(&str, &str, &str); 7] = [
    ("web", "Windows 11", "Edge 131"),
    ("web", "macOS 15.1", "Safari 18.1"),
    ("web", "Windows 10", "Chrome 131"),
    ("web", "Ubuntu 24.04", "Firefox 133"),
    ("ios", "iOS 18.1", "app"),
    ("android", "Android 15", "app"),
    ("desktop", "Windows 11", "electron"),
];
pub(super) const GEO: [(&str, &str, &str); 10] = [
    ("US", "Seattle", "en-US"),
    ("US", "Austin", "en-US"),
    ("DE", "Berlin", "de-DE"),
    ("GB", "London", "en-GB"),
    ("FR", "Lyon", "fr-FR"),
    ("NL", "Amsterdam", "nl-NL"),
    ("BR", "São Paulo", "pt-BR"),
    ("JP", "Tokyo", "ja-JP"),
    ("IN", "Bengaluru", "en-IN"),
    ("CH", "Zürich", "de-CH"),
];
pub(super) const EVENT_TAGS: [&str; 8] = [
    "beta",
    "trial",
    "plan:pro",
    "plan:enterprise",
    "region:eu",
    "region:us",
    "sso",
    "internal",
];

pub(super) struct MtUser {
    pub(super) id: String,
    pub(super) docs: u64,
    pub(super) sessions: Vec<(String, u64)>,
    pub(super) client: usize,
    pub(super) geo: usize,
}

pub(super) struct MtTenant {
    pub(super) name: String,
    pub(super) docs: u64,
    pub(super) users: Vec<MtUser>,
}

pub(super) fn tenant_names(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut names = vec!["contoso".to_string(), "fabrikam".to_string()];
    names.extend(FICTIONAL.iter().map(|s| s.to_string()));
    let mut combos: Vec<String> = ADJECTIVES
        .iter()
        .flat_map(|a| NOUNS.iter().map(move |b| format!("{a}-{b}")))
        .collect();
    rng.shuffle(&mut combos);
    names.extend(combos.into_iter().take(n - names.len()));
    names
}

pub(super) fn mt_payload(rng: &mut Rng, ty: &str) -> J {
    match ty {
        "login" => obj! {
            "method": *rng.pick(&["sso", "password", "magic-link"]),
            "provider": *rng.pick(&["entra-id", "google", "okta", "local"]),
            "mfa": rng.chance(700),
        },
        "page_view" => {
            let (url, title) = *rng.pick(&PAGES);
            obj! {
                "url": url.replace("{n}", &rng.range(100, 999).to_string()),
                "title": title,
                "referrer": if rng.chance(300) { J::Null } else { J::from(rng.pick(&PAGES).0.replace("{n}", "1")) },
                "durationMs": rng.range(200, 90_000),
                "viewport": obj! {"w": *rng.pick(&[1280i64, 1440, 1920, 390, 412]), "h": *rng.pick(&[720i64, 900, 1080, 844, 915])},
            }
        }
        "click" => obj! {
            "element": *rng.pick(&ELEMENTS),
            "page": rng.pick(&PAGES).0.replace("{n}", &rng.range(100, 999).to_string()),
            "x": rng.range(0, 1900),
            "y": rng.range(0, 1000),
        },
        "search" => obj! {
            "query": *rng.pick(&SEARCHES),
            "results": rng.range(0, 240),
            "filters": if rng.chance(400) { strs(&["status:open", "owner:me"]) } else { J::Arr(vec![]) },
            "latencyMs": rng.range(12, 900),
        },
        "purchase" => {
            let (sku, price) = *rng.pick(&[
                ("PLAN-PRO-1M", 1_900i64),
                ("PLAN-PRO-12M", 19_000),
                ("SEATS-10", 9_900),
                ("ADDON-STORAGE-1TB", 4_900),
                ("PLAN-ENT-12M", 129_000),
            ]);
            let qty = rng.range(1, 3);
            obj! {
                "orderId": format!("ORD-2026-{:06}", rng.below(1_000_000)),
                "currency": *rng.pick(&["EUR", "USD", "GBP"]),
                "amount": dec(price * qty, 2),
                "items": vec![obj! {"sku": sku, "qty": qty, "unitPrice": dec(price, 2)}],
                "coupon": if rng.chance(150) { J::from("WELCOME20") } else { J::Null },
            }
        }
        "error" => {
            let (code, message, endpoint, status) = *rng.pick(&ERRORS);
            obj! {
                "code": code,
                "message": message,
                "endpoint": endpoint,
                "status": status,
                "retryable": status >= 500 || status == 429,
                "traceId": rng.hex(32),
            }
        }
        _ => obj! {
            "reason": *rng.pick(&["user", "idle-timeout", "token-expired"]),
            "sessionSeconds": rng.range(30, 7_200),
        },
    }
}

pub(super) fn mt_event(
    rng: &mut Rng,
    tenant: &str,
    user: &MtUser,
    session: &str,
    ty: &str,
    ts_ms: i64,
) -> J {
    let (app, os, browser) = CLIENTS[user.client];
    let (country, city, locale) = GEO[user.geo];
    let tags: Vec<J> = (0..rng.range(0, 3))
        .map(|_| J::from(*rng.pick(&EVENT_TAGS)))
        .collect();
    let mut payload = mt_payload(rng, ty);
    if ty == "login" {
        payload.set("geo", obj! {"country": country, "city": city});
    }
    obj! {
        "id": rng.uuid(),
        "tenantId": tenant,
        "userId": &user.id,
        "sessionId": session,
        "type": ty,
        "ts": rfc3339_ms(ts_ms),
        "client": obj! {"app": app, "version": format!("5.{}.{}", rng.range(8, 12), rng.range(0, 9)), "os": os, "browser": browser, "locale": locale},
        "payload": payload,
        "tags": tags,
        "schemaVersion": 3,
    }
}

pub(super) fn multitenant() -> Set {
    let mut rng = Rng(0x6d75_6c74_6974_656e);
    let names = tenant_names(&mut rng, MT_TENANTS);
    let mut counts = MT_HUGE.to_vec();
    counts.extend(apportion(
        MT_DOCS - MT_HUGE.iter().sum::<u64>(),
        &zipf(MT_TENANTS - 2, 4),
        1,
    ));
    let tenants: Vec<MtTenant> = names
        .into_iter()
        .zip(counts)
        .map(|(name, docs)| {
            let n_users = (docs * 2 / 13).max(1) as usize;
            let users = apportion(docs, &zipf(n_users, 3), 1)
                .into_iter()
                .map(|m| {
                    let id = rng.uuid();
                    let mut sessions = Vec::new();
                    let mut left = m;
                    while left > 0 {
                        let k = (2 + rng.below(9)).min(left);
                        sessions.push((rng.hex(16), k));
                        left -= k;
                    }
                    MtUser {
                        id,
                        docs: m,
                        sessions,
                        client: rng.below(CLIENTS.len() as u64) as usize,
                        geo: rng.below(GEO.len() as u64) as usize,
                    }
                })
                .collect();
            MtTenant { name, docs, users }
        })
        .collect();

    // Documents: two weeks of sessions, written in time order.
    let start = epoch(2026, 11, 1);
    let type_picker = Picker::new(EVENT_TYPES.iter().map(|t| t.1));
    let mut docs: Vec<(i64, J)> = Vec::new();
    for t in &tenants {
        for u in &t.users {
            for (session, events) in &u.sessions {
                let mut ms = (start + rng.range(0, 13) * 86_400 + rng.range(6, 21) * 3600) * 1000
                    + rng.range(0, 3_599_999);
                for e in 0..*events {
                    let ty = if e == 0 {
                        "login"
                    } else if e + 1 == *events && e >= 2 && rng.chance(500) {
                        "logout"
                    } else {
                        EVENT_TYPES[type_picker.pick(&mut rng)].0
                    };
                    docs.push((ms, mt_event(&mut rng, &t.name, u, session, ty, ms)));
                    ms += rng.range(2_000, 240_000);
                }
            }
        }
    }
    docs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.str("id").cmp(b.1.str("id"))));

    // The log: one hour of traffic, 100,000 weighted queries plus creates and batches.
    let log_start = epoch(2026, 11, 15) + 9 * 3600;
    let tenant_picker = Picker::new(tenants.iter().map(|t| t.docs));
    let user_pickers: Vec<Picker> = tenants
        .iter()
        .map(|t| Picker::new(t.users.iter().map(|u| u.docs)))
        .collect();
    let mut log = Vec::new();
    let pick_user = |rng: &mut Rng| {
        let ti = tenant_picker.pick(rng);
        let ui = user_pickers[ti].pick(rng);
        (ti, ui)
    };

    struct Template {
        sql: &'static str,
        /// Extra fixed paths (besides the shape's), e.g. `c.type = @type`.
        extra: &'static [(&'static str, usize)],
    }
    let shape_specs: [(&str, u64, usize, usize, &[Template]); 5] = [
        (
            "tenant+user",
            60_000,
            330,
            8,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u ORDER BY c.ts DESC",
                    extra: &[],
                },
                Template {
                    sql: "SELECT TOP 10 c.id, c.ts, c.type FROM c WHERE c.tenantId = @t AND c.userId = @u ORDER BY c.ts DESC",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c[\"tenantId\"] = @t AND c[\"userId\"] = @u AND c.type = @type",
                    extra: &[("/type", 1)],
                },
                Template {
                    sql: "SELECT t FROM c JOIN t IN c.tags WHERE c.tenantId = @t AND c.userId = @u",
                    extra: &[],
                },
                Template {
                    sql: "SELECT c.id, c.payload.url, c.payload.durationMs FROM c WHERE c.userId = @u AND c.tenantId = @t AND c.type IN ('page_view', 'click') AND c.ts >= @since",
                    extra: &[("/type", 2)],
                },
            ],
        ),
        (
            "tenant",
            25_000,
            150,
            4,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.tenantId = @t AND c.ts >= @since ORDER BY c.ts DESC",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t",
                    extra: &[],
                },
                Template {
                    sql: "SELECT c.type, COUNT(1) AS events FROM c WHERE c.tenantId = @t GROUP BY c.type",
                    extra: &[],
                },
                Template {
                    sql: "SELECT TOP 100 c.userId, c.ts, c.payload.code FROM c WHERE c[\"tenantId\"] = @t AND c.type = 'error' ORDER BY c.ts DESC",
                    extra: &[("/type", 1)],
                },
            ],
        ),
        (
            "tenant+user+session",
            10_000,
            90,
            3,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u AND c.sessionId = @s ORDER BY c.ts",
                    extra: &[],
                },
                Template {
                    sql: "SELECT c.type, c.ts, c.payload FROM c WHERE c.sessionId = @s AND c.userId = @u AND c.tenantId = @t",
                    extra: &[],
                },
            ],
        ),
        (
            "session",
            2_000,
            24,
            2,
            &[
                Template {
                    sql: "SELECT * FROM c WHERE c.sessionId = @s",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c.sessionId = @s AND c.type = 'error'",
                    extra: &[("/type", 1)],
                },
            ],
        ),
        (
            "cross-tenant report",
            3_000,
            16,
            2,
            &[
                Template {
                    sql: "SELECT c.tenantId, COUNT(1) AS events FROM c WHERE c.ts >= @since GROUP BY c.tenantId",
                    extra: &[],
                },
                Template {
                    sql: "SELECT VALUE COUNT(1) FROM c WHERE c.type = 'purchase' AND c.ts >= @since",
                    extra: &[("/type", 1)],
                },
                Template {
                    sql: "SELECT c.payload.code, COUNT(1) AS n FROM c WHERE c.type = 'error' GROUP BY c.payload.code",
                    extra: &[("/type", 1)],
                },
                Template {
                    sql: "SELECT TOP 20 c.tenantId, c.payload.amount FROM c WHERE c.type = @type ORDER BY c.payload.amount DESC",
                    extra: &[("/type", 1)],
                },
            ],
        ),
    ];
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = shape_counts(&mut rng, total, lines, plain);
        for (i, count) in counts.into_iter().enumerate() {
            let is_plain = i >= lines;
            let tpl = &templates[i % templates.len()];
            let (ti, ui) = pick_user(&mut rng);
            let t = &tenants[ti];
            let u = &t.users[ui];
            let s = &u.sessions[rng.below(u.sessions.len() as u64) as usize].0;
            let offset = rng.range(0, 3_599_999);
            let since = rfc3339(epoch(2026, 11, 15) - rng.range(1, 14) * 86_400);
            let ty = EVENT_TYPES[type_picker.pick(&mut rng)].0;
            let mut params: Vec<(&str, J)> = Vec::new();
            let mut fixed: Vec<(&'static str, usize)> = tpl.extra.to_vec();
            for (name, value, path) in [
                ("@t", J::from(&t.name), "/tenantId"),
                ("@u", J::from(&u.id), "/userId"),
                ("@s", J::from(s), "/sessionId"),
                ("@since", J::from(since), ""),
                ("@type", J::from(ty), ""),
            ] {
                if uses(tpl.sql, name) {
                    params.push((name, value));
                    if !path.is_empty() {
                        fixed.push((path, 1));
                    }
                }
            }
            // The hour's queries of one user arrive over the hour: a line holds at most
            // MT_PER_LINE of them (a line's `count` is that many requests at its `ts`).
            let pieces = count.div_ceil(MT_PER_LINE).max(1);
            for (k, n) in even_parts(count, pieces).into_iter().enumerate() {
                let at = (offset + k as i64 * 3_600_000 / pieces as i64) % 3_600_000;
                let ts_ms = log_start * 1000 + at;
                let text = query_text(tpl.sql, &params, n, Some(rfc3339_ms(ts_ms)), is_plain);
                // A few plain-text lines use other spellings of SELECT and string literals.
                let text = match (is_plain, i % 3) {
                    (true, 1) => text.replacen("SELECT", "select", 1),
                    (true, 2) => text.replace('\'', "\""),
                    _ => text,
                };
                log.push(LogLine::query(text, n, ts_ms, shape, fixed.clone()));
            }
        }
    }

    // Creates of new events, tenants (and users) in proportion to their size.
    for _ in 0..MT_CREATES {
        let (ti, ui) = pick_user(&mut rng);
        let t = &tenants[ti];
        let u = &t.users[ui];
        let ts_ms = log_start * 1000 + rng.range(0, 3_599_999);
        let session = rng.hex(16);
        let ty = EVENT_TYPES[type_picker.pick(&mut rng)].0;
        let doc = mt_event(&mut rng, &t.name, u, &session, ty, ts_ms);
        let text = obj! {"op": "create", "ts": rfc3339_ms(ts_ms), "doc": doc.clone()}.to_json();
        log.push(LogLine {
            text,
            count: 1,
            ts_ms,
            kind: Kind::Create,
            shape: "",
            fixed: vec![],
            writes: vec![doc],
        });
    }
    // Transactional batches: the events of one offline session, uploaded together.
    for _ in 0..MT_BATCHES {
        let (ti, ui) = pick_user(&mut rng);
        let t = &tenants[ti];
        let u = &t.users[ui];
        let ts_ms = log_start * 1000 + rng.range(0, 3_599_999);
        let session = rng.hex(16);
        let n = rng.range(3, 5);
        let mut docs_written = Vec::new();
        let mut ms = ts_ms - 600_000;
        for e in 0..n {
            let ty = if e == 0 {
                "login"
            } else {
                EVENT_TYPES[type_picker.pick(&mut rng)].0
            };
            docs_written.push(mt_event(&mut rng, &t.name, u, &session, ty, ms));
            ms += rng.range(5_000, 60_000);
        }
        let ops: Vec<J> = docs_written
            .iter()
            .map(|d| obj! {"op": "create", "doc": d.clone()})
            .collect();
        let text = obj! {"op": "batch", "ts": rfc3339_ms(ts_ms), "ops": ops}.to_json();
        log.push(LogLine {
            text,
            count: 1,
            ts_ms,
            kind: Kind::Batch,
            shape: "",
            fixed: vec![],
            writes: docs_written,
        });
    }

    Set {
        name: "multitenant",
        docs: docs.into_iter().map(|(_, d)| d).collect(),
        log: total_sorted(log),
        shapes: vec![
            (
                "tenant+user",
                "`c.tenantId = @t AND c.userId = @u` (incl. bracket notation, JOIN over `c.tags`, `c.type IN (...)`)",
            ),
            ("tenant", "`c.tenantId = @t` (time range, COUNT, GROUP BY)"),
            (
                "tenant+user+session",
                "`c.tenantId = @t AND c.userId = @u AND c.sessionId = @s`",
            ),
            ("session", "`c.sessionId = @s` alone"),
            (
                "cross-tenant report",
                "no tenant: `GROUP BY c.tenantId`, `c.type = 'purchase'`",
            ),
        ],
        candidates: vec![
            Cand::Hier(&["/tenantId", "/userId", "/sessionId"]),
            Cand::Hier(&["/tenantId", "/userId"]),
            Cand::Path("/tenantId"),
            Cand::Path("/userId"),
            Cand::Path("/sessionId"),
            Cand::Path("/id"),
            Cand::Path("/type"),
            Cand::Concat(&["/tenantId", "/userId"]),
        ],
        top_paths: vec!["/tenantId", "/type"],
    }
}

pub(super) fn multitenant_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (_, contoso_docs, contoso_bytes) = st.top_value("/tenantId", 0);
    let (_, fabrikam_docs, fabrikam_bytes) = st.top_value("/tenantId", 1);
    let share = |b: u64| pct(b as f64 / st.doc_bytes as f64);
    let huge_docs = pct((contoso_docs + fabrikam_docs) as f64 / st.documents as f64);
    let huge_bytes = share(contoso_bytes + fabrikam_bytes);
    let tenant_limit = gb(st.max_container("/tenantId"));
    let at_500 = gb(500_000_000_000 * contoso_bytes as u128 / st.doc_bytes as u128);
    let users = st.distinct("/userId");
    let sessions = st.distinct("/sessionId");
    let tu = "/tenantId,/userId";
    let tus = "/tenantId,/userId,/sessionId";
    let (tu_share, tu_limit) = (pct(st.share(tu)), gb(st.max_container(tu)));
    let (tus_share, tus_limit) = (pct(st.share(tus)), gb(st.max_container(tus)));
    let user_fan = pct(st.fraction("/userId", 2));
    let session_fan = pct(st.fraction("/sessionId", 2));
    let type_limit = gb(st.max_container("/type"));
    let type_share = pct(st.share("/type"));
    let type_fan = pct(st.fraction("/type", 2));
    let batches = st.kinds.get(&Kind::Batch).map_or(0, |k| k.0);
    let id_batches = st.cand("/id").spanning_batches.unwrap_or(0);
    let type_batches = st.cand("/type").spanning_batches.unwrap_or(0);
    let (tenant_single, tu_single, tus_single, tus_targeted) = (
        pct(st.fraction("/tenantId", 0)),
        pct(st.fraction(tu, 0)),
        pct(st.fraction(tus, 0)),
        pct(st.fraction(tus, 1)),
    );
    let concat_fan = pct(st.fraction("concat(/tenantId,/userId)", 2));
    let tenant_writes = pct(st.cand("/tenantId").writes.unwrap().1);
    let prose = format!(
        r#"SaaS product analytics: one document per event (`login`, `page_view`, `click`, `search`,
`purchase`, `error`, `logout`) of a user's session within a tenant, with a nested `client`,
a type-specific nested `payload` (arrays of items, filters, a nested `geo`) and a `tags`
array; two weeks (2026-11-01 to 2026-11-14), written in time order. {tenants} tenants follow a
Zipf tail except the two customers that dwarf the rest: `contoso` has {contoso_docs} documents
({contoso_share} of bytes) and `fabrikam` {fabrikam_docs} ({fabrikam_share}), together
{huge_docs} of the documents and {huge_bytes} of the bytes. {users} users (UUIDs, unique
across tenants) and {sessions} sessions nest inside tenants.

The log is one hour of traffic (2026-11-15 09:00–10:00 UTC, every JSON line has `ts`): 100,000
weighted queries in the mix of the table below (60 / 25 / 10 / 5), a user's queries of the
hour spread over it in lines of at most 24 (`count` is that many requests at the line's
`ts`: a line of 1,131 would be a burst of 1,131 requests at one instant), with parameters, bracket
notation, `IN (...)`, `JOIN` over `c.tags`, `TOP`/`ORDER BY`/`GROUP BY`, and a few plain-text
`SELECT` lines with literals (one lower-case, one with double-quoted strings); 200 creates of
new events whose tenants and users are drawn in proportion to their size; and {batches}
transactional batches, each uploading the 3–5 events of one offline session (one tenant, one
user, one session).

**What the advisor should say.** The best key is hierarchical: `{tus}`, with `{tu}` as good
at the reference target; both must rank above every single-path and synthetic candidate.

- `/tenantId` is the natural guess and is wrong: `contoso` alone is {contoso_share} of the
  data, so its logical partition passes 20 GB once the container holds {tenant_limit} (at 500 GB
  it would hold {at_500}): `LOGICAL_PARTITION_LIMIT`. Queries and writes follow tenant size
  (in the log's hour {tenant_writes} of writes went to `contoso`), so the partitions of the two
  huge tenants take far more than their share of RU: `HOT_PARTITION`. Its routing is otherwise
  excellent ({tenant_single} single-partition), which is what makes it tempting.
- `/userId` spreads evenly (largest user {tu_share} of bytes) but the 25% tenant-wide queries
  and the 5% session and cross-tenant queries fan out: {user_fan} `FAN_OUT_QUERIES`.
- `/id` spreads perfectly, fans out every query, and makes all {id_batches} batches cross-partition
  transactions (their events have distinct ids): `CROSS_PARTITION_TRANSACTION`.
- `/sessionId`: {session_fan} of reads fan out.
- `/type` has 7 values, `{type_top}` is {type_share} of bytes (20 GB at {type_limit}), {type_fan} of
  reads fan out, and {type_batches} of {batches} batches mix event types.
- `concat(/tenantId,/userId)` has the same logical partitions as `{tu}` but a flat hash, so
  the tenant-wide queries cannot be targeted and fan out ({concat_fan}): what the hierarchical
  key buys over a synthetic one.
- The hierarchical keys route tenant-wide queries to the few partitions holding that tenant
  (targeted) and never fan out tenant traffic. `{tu}` makes tenant+user queries
  single-partition ({tu_single} single); `{tus}` makes them targeted prefixes, usually one
  partition ({tus_single} single, {tus_targeted} targeted). The largest (tenant, user) is
  {tu_share} of bytes, so `{tu}` reaches 20 GB at {tu_limit}; the largest session is
  {tus_share}, so `{tus}` only at {tus_limit}. At 500 GB both are clean; at 2 TB only the
  three-level key is.
"#,
        tenants = st.distinct("/tenantId"),
        type_top = st.top_value("/type", 0).0.trim_matches('"'),
        contoso_share = share(contoso_bytes),
        fabrikam_share = share(fabrikam_bytes),
    );
    let hand = vec![("/tenantId", "HOT_PARTITION")];
    (
        prose,
        vec![
            Verdict {
                target: "500GB",
                target_bytes: 500_000_000_000,
                best: vec![tus, tu],
                hand: hand.clone(),
            },
            Verdict {
                target: "2TB",
                target_bytes: 2_000_000_000_000,
                best: vec![tus],
                hand,
            },
        ],
    )
}
