//! The `bad` set (small invalid inputs with known error positions): its documents, its log, and its README prose.

use super::*;

/// One file of the `bad` set and what a reader of it must report.
pub(super) struct BadCase {
    pub(super) file: String,
    pub(super) content: Vec<u8>,
    pub(super) shows: String,
    pub(super) expected: String,
    /// Machine-readable expectation for `summary.json`.
    pub(super) json: serde_json::Value,
}

pub(super) fn ev(id: &str, tenant: J, user: &str, ty: &str, minute: i64) -> J {
    obj! {
        "id": id,
        "tenantId": tenant,
        "userId": user,
        "type": ty,
        "ts": rfc3339(epoch(2026, 11, 1) + 10 * 3600 + minute * 60),
        "payload": obj! {"page": "/dashboard", "durationMs": 1200 + minute * 7},
    }
}

pub(super) fn base_events(n: usize) -> Vec<J> {
    (1..=n)
        .map(|i| {
            let tenant = if i % 3 == 0 { "fabrikam" } else { "contoso" };
            ev(
                &format!("evt-{i:04}"),
                J::from(tenant),
                &format!("u-{:03}", 1 + i % 4),
                ["page_view", "click", "search"][i % 3],
                i as i64,
            )
        })
        .collect()
}

pub(super) fn lines_of(docs: &[J]) -> String {
    docs.iter().map(|d| d.to_json() + "\n").collect()
}

/// 1-based line and column (in bytes) of a byte offset.
pub(super) fn line_col(text: &[u8], offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - start + 1)
}

/// Checks that serde_json fails on line `line` of `text` at column `col`.
pub(super) fn assert_serde_position(file: &str, text: &str, line: usize, col: usize) {
    let line_text = text.lines().nth(line - 1).expect("line");
    let err = serde_json::from_str::<serde_json::Value>(line_text).expect_err("a syntax error");
    assert_eq!(
        (err.line(), err.column()),
        (1, col),
        "{file}: serde_json reports {err}"
    );
}

pub(super) fn error_case(
    file: &str,
    content: String,
    offset: usize,
    shows: &str,
    what: &str,
) -> BadCase {
    let (line, col) = line_col(content.as_bytes(), offset);
    BadCase {
        file: file.to_string(),
        shows: shows.to_string(),
        expected: format!(
            "exit 2, error at line {line}, column {col} (byte offset {offset}): {what}"
        ),
        json: serde_json::json!({"exit": 2, "line": line, "column": col, "offset": offset, "error": what}),
        content: content.into_bytes(),
    }
}

/// A gzip member holding `data` in one stored (uncompressed) deflate block.
pub(super) fn gzip_stored(data: &[u8]) -> Vec<u8> {
    assert!(data.len() < 65_536);
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    out.push(1); // final block, stored
    let len = data.len() as u16;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&(!len).to_le_bytes());
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

pub(super) fn bad() -> Vec<BadCase> {
    let mut cases = Vec::new();
    let base = base_events(8);

    // Syntax error: a missing value on line 4.
    {
        let mut text = lines_of(&base[..3]);
        let prefix = r#"{"id":"evt-0004","tenantId":"contoso","userId": "#;
        let offset = text.len() + prefix.len();
        text.push_str(prefix);
        text.push_str(r#","type":"click","ts":"2026-11-01T10:04:00Z"}"#);
        text.push('\n');
        text.push_str(&lines_of(&base[4..6]));
        let (line, col) = line_col(text.as_bytes(), offset);
        assert_serde_position("syntax-error.ndjson", &text, line, col);
        cases.push(error_case(
            "syntax-error.ndjson",
            text,
            offset,
            "a document that is not valid JSON (a missing value)",
            "expected a value, found ','",
        ));
    }
    // Non-object documents: an array on line 3, a number on line 5.
    {
        let mut text = lines_of(&base[..2]);
        let offset = text.len();
        text.push_str("[\"evt-0003\",\"contoso\"]\n");
        text.push_str(&lines_of(&base[3..4]));
        text.push_str("42\n");
        text.push_str(&lines_of(&base[5..6]));
        let mut case = error_case(
            "not-an-object.ndjson",
            text,
            offset,
            "documents that are JSON but not objects (line 3 an array, line 5 a number)",
            "expected a JSON object (a document), found an array",
        );
        case.expected += "; with `--skip-invalid`: 4 documents, 2 invalid";
        case.json["skip_invalid"] = serde_json::json!({"documents": 4, "invalid": 2});
        cases.push(case);
    }
    // Truncated: the last document is cut inside a string, no final newline. The error
    // points at the string left open: its opening quote.
    {
        let mut text = lines_of(&base[..4]);
        let last = base[4].to_json();
        let quote = last.find("contoso").unwrap() - 1;
        let offset = text.len() + quote;
        text.push_str(&last[..quote + 5]);
        let mut case = error_case(
            "truncated.ndjson",
            text,
            offset,
            "a file cut in the middle of its fifth document (inside a string)",
            "unterminated string: the end of the line comes before the closing '\"'",
        );
        case.expected += "; with `--skip-invalid`: 4 documents, 1 invalid";
        case.json["skip_invalid"] = serde_json::json!({"documents": 4, "invalid": 1});
        cases.push(case);
    }
    // Truncated gzip: a valid member cut in the middle of its (stored) data.
    {
        let docs = base_events(40);
        let text = lines_of(&docs);
        let full = gzip_stored(text.as_bytes());
        let cut = full.len() * 3 / 5;
        let data_bytes = cut - 15; // 10 header bytes, 5 block header bytes
        let complete = text.as_bytes()[..data_bytes]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let shows = format!(
            "a gzip file cut at {} of its {} bytes: the stream ends inside document {} (no trailer)",
            thousands(cut as u128),
            thousands(full.len() as u128),
            complete + 1
        );
        cases.push(BadCase {
            file: "truncated.ndjson.gz".to_string(),
            content: full[..cut].to_vec(),
            shows,
            expected: format!(
                "exit 2, the error names the file and says the compressed stream ended early; \
                 {complete} complete documents precede the cut (the full stream holds 40)"
            ),
            json: serde_json::json!({"exit": 2, "error": "truncated gzip data: the compressed stream ends early", "complete_documents": complete, "compressed_bytes": cut}),
        });
    }
    // A key value that is an object (line 2) or an array (line 4).
    {
        let mut docs = base[..6].to_vec();
        docs[1].set("tenantId", obj! {"name": "contoso", "region": "westeurope"});
        docs[3].set("tenantId", strs(&["contoso", "fabrikam"]));
        cases.push(BadCase {
            file: "key-object-or-array.ndjson".to_string(),
            content: lines_of(&docs).into_bytes(),
            shows: "`/tenantId` holding an object (line 2) and an array (line 4)".to_string(),
            expected: "with `--key /tenantId`: `INVALID_KEY_VALUE` (violation), 2 of 6 documents (lines 2 and 4); `--key /userId` has no finding".to_string(),
            json: serde_json::json!({"key": "/tenantId", "finding": "INVALID_KEY_VALUE", "documents": 6, "affected": 2, "lines": [2, 4]}),
        });
    }
    // Numbers beyond 2^53.
    {
        let values = [
            "42",
            "9007199254740991",
            "9007199254740992",
            "9007199254740993",
            "-9007199254740993",
            "12345678901234567890",
            "1.5",
        ];
        let text: String = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                format!(
                    "{{\"id\":\"acct-{:02}\",\"accountId\":{v},\"tenantId\":\"contoso\",\"balance\":{}}}\n",
                    i + 1,
                    100 * i
                )
            })
            .collect();
        cases.push(BadCase {
            file: "number-beyond-2-53.ndjson".to_string(),
            content: text.into_bytes(),
            shows: "`/accountId` numbers: 2^53 - 1 and 2^53 (exact as doubles), 2^53 + 1, -(2^53 + 1) and 12345678901234567890 (beyond even u64)".to_string(),
            expected: "with `--key /accountId`: `UNSAFE_NUMBER` (warning) for 3 of 7 documents (lines 4, 5, 6: magnitude above 2^53); lines 3 and 4 have the same EPK (9007199254740993 rounds to 9007199254740992); the file parses without error".to_string(),
            json: serde_json::json!({"key": "/accountId", "finding": "UNSAFE_NUMBER", "documents": 7, "affected": 3, "lines": [4, 5, 6]}),
        });
    }
    // Key values over 2,048 bytes (violation) and over 101 bytes (warning).
    for (file, limit, severity, lines) in [
        (
            "key-over-2048-bytes.ndjson",
            2_048usize,
            "violation",
            [3, 4],
        ),
        ("key-over-101-bytes.ndjson", 101, "warning", [3, 4]),
    ] {
        let values = [
            "contoso".to_string(),
            "a".repeat(limit),
            "b".repeat(limit + 1),
            "é".repeat(limit / 2 + 1),
        ];
        let docs: Vec<J> = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                ev(
                    &format!("evt-{:04}", i + 1),
                    J::from(v),
                    "u-001",
                    "click",
                    i as i64,
                )
            })
            .collect();
        let longest = values.iter().map(String::len).max().unwrap();
        let chars = values[3].chars().count();
        cases.push(BadCase {
            file: file.to_string(),
            content: lines_of(&docs).into_bytes(),
            shows: format!(
                "`/tenantId` values of 7, {} (at the limit), {} and {} bytes (the last is {} characters of `é`: count bytes, not characters)",
                thousands(limit as u128),
                thousands(limit as u128 + 1),
                thousands(values[3].len() as u128),
                thousands(chars as u128)
            ),
            expected: format!(
                "with `--key /tenantId`: `KEY_TOO_LONG` ({severity}) for 2 of 4 documents (lines 3 and 4), longest value {} bytes{}",
                thousands(longest as u128),
                if limit == 2_048 { "; line 2 (2,048 bytes) is allowed with large partition keys" } else { "; no violation" }
            ),
            json: serde_json::json!({"key": "/tenantId", "finding": "KEY_TOO_LONG", "severity": severity, "documents": 4, "affected": 2, "lines": lines, "longest_bytes": longest}),
        });
    }
    // A duplicated id (in two tenants: legal for /tenantId, not for /id).
    {
        let mut docs = base[..6].to_vec();
        docs[4].set("id", J::from("evt-0002"));
        docs[4].set("tenantId", J::from("fabrikam"));
        cases.push(BadCase {
            file: "duplicate-id.ndjson".to_string(),
            content: lines_of(&docs).into_bytes(),
            shows: "id `evt-0002` on line 2 (tenant contoso) and line 5 (tenant fabrikam)".to_string(),
            expected: "with `--key /id`: `INVALID_KEY_VALUE` (violation), 1 duplicated id (lines 2 and 5); with `--key /tenantId`: no finding (ids are unique per logical partition)".to_string(),
            json: serde_json::json!({"key": "/id", "finding": "INVALID_KEY_VALUE", "documents": 6, "duplicate_ids": ["evt-0002"], "lines": [2, 5], "clean_keys": ["/tenantId"]}),
        });
    }
    // Valid documents for the log-only cases below.
    cases.push(BadCase {
        file: "base-docs.ndjson".to_string(),
        content: lines_of(&base).into_bytes(),
        shows: "8 valid documents (tenants contoso and fabrikam) to run the `*.queries.ndjson` logs against".to_string(),
        expected: "valid: 8 documents, no finding".to_string(),
        json: serde_json::json!({"documents": 8, "valid": true}),
    });
    // A transactional batch spanning two tenants.
    {
        let a = ev("evt-0101", J::from("contoso"), "u-001", "click", 101);
        let b = ev("evt-0102", J::from("contoso"), "u-001", "search", 102);
        let c = ev("evt-0103", J::from("contoso"), "u-002", "click", 103);
        let d = ev("evt-0104", J::from("fabrikam"), "u-002", "click", 104);
        let lines = [
            obj! {"op": "batch", "ts": "2026-11-01T12:00:00Z", "ops": vec![obj! {"op": "create", "doc": a}, obj! {"op": "upsert", "doc": b}]},
            obj! {"op": "query", "ts": "2026-11-01T12:00:01Z", "sql": "SELECT * FROM c WHERE c.tenantId = @t", "parameters": vec![obj! {"name": "@t", "value": "contoso"}]},
            obj! {"op": "batch", "ts": "2026-11-01T12:00:02Z", "ops": vec![
                obj! {"op": "create", "doc": c},
                obj! {"op": "create", "doc": d},
                obj! {"op": "delete", "id": "evt-0001", "known": obj! {"/tenantId": "contoso", "/userId": "u-002"}},
            ]},
        ];
        cases.push(BadCase {
            file: "cross-partition-batch.queries.ndjson".to_string(),
            content: lines_of(&lines).into_bytes(),
            shows: "a batch within one tenant and user (line 1) and a batch whose operations span tenants contoso and fabrikam (line 3)".to_string(),
            expected: "with `base-docs.ndjson` and `--key /tenantId`: `CROSS_PARTITION_TRANSACTION` (violation) for 1 batch (line 3); `--key /tenantId,/userId`: line 3 only (it spans two tenants); `--key /id`: lines 1 and 3".to_string(),
            json: serde_json::json!({"docs": "base-docs.ndjson", "finding": "CROSS_PARTITION_TRANSACTION", "lines": {"/tenantId": [3], "/tenantId,/userId": [3], "/id": [1, 3]}}),
        });
    }
    // An upsert that moves an item to another key value.
    {
        let order = |tenant: &str, status: &str| {
            obj! {"id": "order-77", "tenantId": tenant, "userId": "u-003", "type": "order", "status": status, "total": dec(4_990, 2)}
        };
        let lines = [
            obj! {"op": "create", "ts": "2026-11-01T12:00:00Z", "doc": order("contoso", "created")},
            obj! {"op": "read", "ts": "2026-11-01T12:00:05Z", "id": "order-77", "known": obj! {"/tenantId": "contoso"}},
            obj! {"op": "upsert", "ts": "2026-11-01T12:01:00Z", "doc": order("contoso", "paid")},
            obj! {"op": "upsert", "ts": "2026-11-01T12:02:00Z", "doc": order("fabrikam", "paid")},
        ];
        cases.push(BadCase {
            file: "key-updated.queries.ndjson".to_string(),
            content: lines_of(&lines).into_bytes(),
            shows: "item `order-77` created in tenant contoso, upserted in place (line 3), then upserted with tenant fabrikam (line 4)".to_string(),
            expected: "with `base-docs.ndjson` and `--key /tenantId`: `KEY_UPDATED` (warning) once (line 4; line 3 keeps its key); `--key /id` or `--key /userId`: no finding".to_string(),
            json: serde_json::json!({"docs": "base-docs.ndjson", "finding": "KEY_UPDATED", "lines": {"/tenantId": [4], "/id": [], "/userId": []}}),
        });
    }
    // A query log line that is not valid JSON (a trailing comma).
    {
        let good = query_text(
            "SELECT * FROM c WHERE c.tenantId = @t",
            &[("@t", J::from("contoso"))],
            3,
            Some("2026-11-01T12:00:00Z".to_string()),
            false,
        );
        let mut text = format!("{good}\nSELECT * FROM c WHERE c.tenantId = 'fabrikam'\n");
        let prefix = r#"{"op":"query","sql":"SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t","parameters":[{"name":"@t","value":"contoso"}],"count":2,"#;
        let offset = text.len() + prefix.len();
        text.push_str(prefix);
        text.push_str("}\n");
        let (line, col) = line_col(text.as_bytes(), offset);
        assert_serde_position("queries-syntax-error.ndjson", &text, line, col);
        cases.push(error_case(
            "queries-syntax-error.ndjson",
            text,
            offset,
            "a query log whose third line has a trailing comma (used with `--queries`)",
            "trailing comma",
        ));
    }
    // Deep nesting: must be refused (or skipped) without a stack overflow.
    {
        let depth = 10_000;
        let text = format!(
            "{{\"id\":\"deep\",\"tenantId\":\"contoso\",\"a\":{}{}}}\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        cases.push(BadCase {
            file: "deep-nesting.ndjson".to_string(),
            content: text.into_bytes(),
            shows: format!("one document nesting {} arrays", thousands(depth as u128)),
            expected: "no crash, no stack overflow: exit 2 with an error on line 1 saying the nesting limit was hit; with `--skip-invalid`: 0 documents, 1 invalid".to_string(),
            json: serde_json::json!({"exit": 2, "line": 1, "depth": depth, "skip_invalid": {"documents": 0, "invalid": 1}}),
        });
    }
    // Accepted quirks: a byte-order mark and CRLF line ends.
    {
        let mut text = "\u{feff}".to_string();
        for d in &base[..3] {
            text.push_str(&d.to_json());
            text.push_str("\r\n");
        }
        cases.push(BadCase {
            file: "accepted-bom-crlf.ndjson".to_string(),
            content: text.into_bytes(),
            shows: "a UTF-8 byte-order mark and CRLF line ends (valid input: the control case)"
                .to_string(),
            expected:
                "valid: 3 documents, 0 invalid, the first id is `evt-0001` (not `\\u{feff}evt…`)"
                    .to_string(),
            json: serde_json::json!({"documents": 3, "invalid": 0, "valid": true}),
        });
    }
    cases
}
