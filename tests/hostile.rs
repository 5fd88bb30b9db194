//! Hostile input, round two (issue 28): every case a second hostile run found, each with
//! its input generated here (sizes included).

use std::time::Instant;

use serde_json::{Value, json};

use crate::util::{pkadvisor, scratch, write};

const DOCS: &str = "fixtures/multitenant/docs.ndjson";

/// `analyze DOCS --queries LOG --key /tenantId -q` with `extra`.
fn analyze(log: &str, extra: &[&str]) -> std::process::Output {
    (pkadvisor().args([
        "analyze",
        DOCS,
        "--queries",
        log,
        "--key",
        "/tenantId",
        "-q",
    ]))
    .args(extra)
    .output()
    .expect("runs")
}

fn report(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that `out` was refused (exit 2) with `says` in its standard error.
fn refused(out: &std::process::Output, says: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    assert!(stderr(out).contains(says), "{says}: {}", stderr(out));
}

/// Lines from `line(i)` up to near `size` bytes, then `last.0`, padding, the multi-byte
/// character `ch` straddling byte `size` (0-based), and `last.1`.
fn straddling(size: usize, ch: char, line: impl Fn(usize) -> String, last: (&str, &str)) -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() + line(i).len() + last.0.len() + 1 < size - 1 {
        text.push_str(&line(i));
        i += 1;
    }
    text.push_str(last.0);
    while text.len() < size - 1 {
        text.push('a');
    }
    text.push(ch);
    text.push_str(last.1);
    assert!(!text.is_char_boundary(size), "byte {size} inside {ch}");
    text
}

#[test]
fn r28_a_log_cut_inside_a_character_at_the_sniffing_boundary_reads() {
    let dir = scratch("r28_sniff");
    for size in [4096, 8192] {
        for ch in ['é', '漢', '😀'] {
            let select = straddling(
                size,
                ch,
                |i| format!("SELECT * FROM c WHERE c.tenantId = 't{i}'\n"),
                ("SELECT * FROM c WHERE c.tenantId = '", "'\n"),
            );
            let lines = select.lines().count();
            let log = write(&dir, "select.txt", &select);
            let r = report(&analyze(&log, &["--format", "json"]));
            assert_eq!(r["input"]["operations"], lines, "{size} {ch}");
            let ndjson = straddling(
                size,
                ch,
                |i| {
                    format!(
                        "{{\"op\":\"query\",\"sql\":\"SELECT * FROM c WHERE c.tenantId = 't{i}'\"}}\n"
                    )
                },
                (
                    "{\"op\":\"query\",\"sql\":\"SELECT * FROM c WHERE c.tenantId = '",
                    "'\"}\n",
                ),
            );
            let log = write(&dir, "ops.ndjson", &ndjson);
            let r = report(&analyze(&log, &["--format", "json"]));
            assert_eq!(r["input"]["operations"], ndjson.lines().count());
            let header = "TimeGenerated [UTC],Type,ActivityId,OperationName,RequestCharge\n";
            let csv = straddling(
                size,
                ch,
                |i| {
                    if i == 0 {
                        header.to_owned()
                    } else {
                        format!("\"11/15/2026, 9:00:00.000 AM\",CDBDataPlaneRequests,a{i},Read,1\n")
                    }
                },
                (
                    "\"11/15/2026, 9:00:00.000 AM\",CDBDataPlaneRequests,",
                    ",Read,1\n",
                ),
            );
            let log = write(&dir, "portal.csv", &csv);
            let r = report(&analyze(&log, &["--format", "json"]));
            assert_eq!(r["input"]["monitor"]["requests"], csv.lines().count() - 1);
        }
    }
}

#[test]
fn r28_a_write_that_fails_on_standard_output_is_an_error() {
    let Ok(full) = std::fs::File::create("/dev/full") else {
        return;
    };
    for args in [
        &["completions", "bash"][..],
        &["--help"],
        &["analyze", "--help"],
        &["--version"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pkadvisor"))
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("No space left on device"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn r28_a_select_log_naming_export_columns_is_the_ndjson_log() {
    let dir = scratch("r28_select_columns");
    let text = "SELECT c.activityId, c.requestCharge FROM c WHERE c.tenantId = 'a'\n".repeat(7);
    let log = write(&dir, "q.txt", &text);
    let r = report(&analyze(&log, &["--format", "json"]));
    assert_eq!(r["input"]["operations"], 7);
    assert!(r["input"]["monitor"].is_null());
}

#[test]
fn r28_an_array_of_ndjson_operations_is_refused_by_element() {
    let dir = scratch("r28_array_of_ops");
    let ops = json!([
        {"op": "query", "sql": "SELECT * FROM c WHERE c.tenantId = 'a'"},
        {"op": "read", "id": "1"}
    ]);
    let log = write(&dir, "ops.json", &ops.to_string());
    let out = analyze(&log, &[]);
    refused(
        &out,
        "ops.json:1:1: an operation of the NDJSON log (\"op\")",
    );
}

/// Query statistics rows: page `i` of text `text(i)` under `correlated(i)`, with its
/// request row (charged `i + 1`).
fn pages(n: usize, text: impl Fn(usize) -> usize, correlated: impl Fn(usize) -> String) -> String {
    pages_at(n, text, correlated, |_| 0)
}

/// [`pages`], page `i` `second(i)` seconds after 09:00.
fn pages_at(
    n: usize,
    text: impl Fn(usize) -> usize,
    correlated: impl Fn(usize) -> String,
    second: impl Fn(usize) -> u64,
) -> String {
    let mut rows = Vec::new();
    for i in 0..n {
        let activity = format!("act-{i}");
        let s = second(i);
        let time = format!(
            "2026-11-15T{:02}:{:02}:{:02}Z",
            9 + s / 3600,
            s / 60 % 60,
            s % 60
        );
        rows.push(json!({
            "Type": "CDBQueryRuntimeStatistics",
            "TimeGenerated": time,
            "ActivityId": activity,
            "CorrelatedActivityId": correlated(i),
            "QueryText": format!("SELECT * FROM c WHERE c.tenantId = 't{}'", text(i)),
        }));
        rows.push(json!({
            "Type": "CDBDataPlaneRequests",
            "TimeGenerated": time,
            "ActivityId": activity,
            "OperationName": "Query",
            "RequestCharge": (i + 1) as f64,
            "StatusCode": 200,
        }));
    }
    serde_json::to_string(&rows).unwrap()
}

#[test]
fn r28_a_correlated_id_that_tells_no_query_apart_groups_nothing() {
    let dir = scratch("r28_correlated");
    let cases = [
        (
            "empty-guid",
            "00000000-0000-0000-0000-000000000000".to_owned(),
        ),
        (
            "constant",
            "11111111-2222-3333-4444-555555555555".to_owned(),
        ),
    ];
    for (name, id) in cases {
        let log = write(
            &dir,
            &format!("{name}.json"),
            &pages(151, |i| i % 34, |_| id.clone()),
        );
        let r = report(&analyze(&log, &["--format", "json"]));
        assert_eq!(r["input"]["operations"], 151, "{name}");
        assert_eq!(r["input"]["monitor"]["uncorrelated"], 151, "{name}");
    }
    // One constant id and one text, a page a minute for 2.5 hours: queries run again, not
    // pages of one.
    let log = write(
        &dir,
        "one-text.json",
        &pages_at(151, |_| 7, |_| "constant-id".to_owned(), |i| i as u64 * 60),
    );
    let r = report(&analyze(&log, &["--format", "json"]));
    assert_eq!(r["input"]["operations"], 151);
    assert_eq!(r["input"]["monitor"]["uncorrelated"], 151);
    // Real ids: pages of one query (two pages each, a second apart) are one operation.
    let log = write(
        &dir,
        "real.json",
        &pages_at(
            150,
            |i| (i / 2) % 34,
            |i| format!("q-{}", i / 2),
            |i| i as u64,
        ),
    );
    let r = report(&analyze(&log, &["--format", "json"]));
    assert_eq!(r["input"]["operations"], 75);
    assert_eq!(r["input"]["monitor"]["uncorrelated"], 0);
}

#[test]
fn r28_values_the_reader_cannot_take_name_their_row_and_column() {
    let dir = scratch("r28_cells");
    let request = |charge: Value| {
        json!([{"Type": "CDBDataPlaneRequests", "ActivityId": "a", "OperationName": "Read", "RequestCharge": 1},
               {"Type": "CDBDataPlaneRequests", "ActivityId": "b", "OperationName": "Read", "RequestCharge": charge}])
    };
    let stats = |size: Value, key: Value| {
        json!([{"Type": "CDBPartitionKeyStatistics", "PartitionKey": "[\"a\"]", "SizeKb": 1},
               {"Type": "CDBPartitionKeyStatistics", "PartitionKey": key, "SizeKb": size}])
    };
    let cases = [
        (request(json!("many")), "RequestCharge \"many\""),
        (request(json!(-1)), "RequestCharge -1"),
        (request(json!("1,5")), "RequestCharge \"1,5\""),
        (request(json!(2e6)), "RequestCharge 2000000.0"),
        (stats(json!(-1), json!("[\"b\"]")), "SizeKb -1"),
        (stats(json!(1e30), json!("[\"b\"]")), "SizeKb 1e+30"),
        (stats(json!(5), json!("b")), "PartitionKey \"b\""),
        (stats(json!(5), json!("[{\"x\":1}]")), "PartitionKey"),
    ];
    for (i, (rows, field)) in cases.into_iter().enumerate() {
        let log = write(&dir, &format!("c{i}.json"), &rows.to_string());
        let out = analyze(&log, &[]);
        assert_eq!(out.status.code(), Some(2), "{field}");
        let want = format!("c{i}.json:2:1: {field}");
        assert!(stderr(&out).contains(&want), "{want}: {}", stderr(&out));
        let r = report(&analyze(&log, &["--format", "json", "--skip-invalid"]));
        assert_eq!(r["input"]["invalid"], 1, "{field}");
    }
}

#[test]
fn r28_point_operations_with_a_partition_key_that_does_not_parse_are_refused() {
    let dir = scratch("r28_point_key");
    let rows = json!([
        {"Type": "CDBDataPlaneRequests", "ActivityId": "a", "OperationName": "Read", "RequestCharge": 1},
        {"Type": "CDBPartitionKeyRUConsumption", "ActivityId": "a", "PartitionKey": "[\"t1\"", "RequestCharge": 1},
    ]);
    let log = write(&dir, "keys.json", &rows.to_string());
    let out = analyze(&log, &["--current-key", "/tenantId"]);
    refused(&out, "keys.json:2:1: PartitionKey \"[\\\"t1\\\"\"");
}

#[test]
fn r28_csv_line_ends_extra_fields_concatenated_arrays_and_doubled_exports() {
    let dir = scratch("r28_shapes");
    let header = "TimeGenerated,Type,ActivityId,OperationName,RequestCharge";
    let rows: Vec<String> = (0..5)
        .map(|i| {
            format!(
                "2026-11-15T09:00:0{i}Z,CDBDataPlaneRequests,a{i},Read,{}",
                i + 1
            )
        })
        .collect();
    let cr = write(&dir, "cr.csv", &format!("{header}\r{}\r", rows.join("\r")));
    let r = report(&analyze(&cr, &["--format", "json"]));
    assert_eq!(r["input"]["monitor"]["requests"], 5);
    let extra = write(
        &dir,
        "extra.csv",
        &format!("{header}\n{}\n{},9\n", rows[0], rows[1]),
    );
    let out = analyze(&extra, &[]);
    refused(
        &out,
        "extra.csv:3:1: 6 fields where the header names 5 columns",
    );
    // `cat a.json b.json`: both arrays.
    let one = |range: std::ops::Range<usize>| {
        let v: Vec<Value> = range
            .map(|i| json!({"Type": "CDBDataPlaneRequests", "ActivityId": format!("a{i}"), "OperationName": "Read", "RequestCharge": 2}))
            .collect();
        serde_json::to_string(&v).unwrap()
    };
    let both = write(
        &dir,
        "both.json",
        &format!("{}\n{}\n", one(0..3), one(3..7)),
    );
    let r = report(&analyze(&both, &["--format", "json"]));
    assert_eq!(r["input"]["monitor"]["requests"], 7);
    assert_eq!(r["input"]["operations"], 7);
    // The same export twice: the same charges, the repeats counted.
    let once = report(&analyze(
        "tests/data/monitor/resource-specific.json",
        &["--format", "json"],
    ));
    let text = std::fs::read_to_string("tests/data/monitor/resource-specific.json").unwrap();
    let twice = write(&dir, "twice.json", &format!("{text}\n{text}"));
    let r = report(&analyze(&twice, &["--format", "json"]));
    let ru = |r: &Value| {
        r["candidates"][0]["cost"]["ru_per_operation"]
            .as_f64()
            .unwrap()
    };
    assert!(
        (ru(&r) - ru(&once)).abs() < 1e-9,
        "{} {}",
        ru(&r),
        ru(&once)
    );
    assert_eq!(r["input"]["operations"], once["input"]["operations"]);
    let rows_once = once["input"]["monitor"]["rows"].as_u64().unwrap();
    assert_eq!(r["input"]["monitor"]["rows"], 2 * rows_once);
    assert!(r["input"]["monitor"]["duplicates"].as_u64().unwrap() > 0);
}

#[test]
fn r28_pages_of_one_query_are_joined_in_linear_time() {
    let dir = scratch("r28_pages");
    let mut text = String::new();
    for i in 0..80_000 {
        text.push_str(&format!(
            "{{\"Type\":\"CDBQueryRuntimeStatistics\",\"ActivityId\":\"p{i}\",\"CorrelatedActivityId\":\"q1\",\"PartitionKeyRangeId\":\"{i}\",\"QueryText\":\"SELECT * FROM c\"}}\n"
        ));
    }
    let log = write(&dir, "pages.json", &text);
    let started = Instant::now();
    let r = report(&analyze(&log, &["--format", "json"]));
    let took = started.elapsed().as_secs_f64();
    assert_eq!(r["input"]["operations"], 1);
    // Quadratic, 80,000 pages took 11 s in a release build; linear, well under a second.
    assert!(took < 20.0, "{took} s");
}

/// `analyze` of `log` at `--memory 16MB`, and its peak resident memory in MB, polled from
/// /proc while it runs (`None` where there is no /proc).
fn measured(log: &str) -> (std::process::Output, Option<f64>) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pkadvisor"))
        .args([
            "analyze",
            DOCS,
            "--queries",
            log,
            "--key",
            "/tenantId",
            "-q",
        ])
        .args(["--memory", "16MB", "--format", "json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    let mut peak_kb: Option<f64> = None;
    let status = loop {
        // The high-water mark only grows: the last reading before the exit holds it.
        let hwm = std::fs::read_to_string(&status_file).ok().and_then(|s| {
            let line = s.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.to_owned();
            line.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<f64>()
                .ok()
        });
        peak_kb = hwm.or(peak_kb);
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let mut stderr = Vec::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_end(&mut stderr)
        .unwrap();
    let stdout = reader.join().unwrap().unwrap();
    let out = std::process::Output {
        status,
        stdout,
        stderr,
    };
    (out, peak_kb.map(|kb| kb / 1000.0))
}

#[test]
fn r28_long_in_lists_and_known_maps_count_against_the_memory_given() {
    let dir = scratch("r28_memory");
    // 150 distinct queries of an IN list of 5,000 values (about 50 KB each): their parsed
    // trees took 600 KB each.
    let mut text = String::new();
    for q in 0..150 {
        let values: Vec<String> = (0..5_000).map(|v| format!("'{q}-{v}'")).collect();
        text.push_str(&format!(
            "SELECT * FROM c WHERE c.tenantId IN ({})\n",
            values.join(",")
        ));
    }
    let log = write(&dir, "in.txt", &text);
    let (out, peak) = measured(&log);
    assert!(out.status.success(), "{}", stderr(&out));
    if let Some(mb) = peak {
        assert!(mb < 60.0, "IN lists: {mb} MB");
    }
    // 1,000 point reads, each knowing 100 KB of values.
    let mut text = String::new();
    for i in 0..1_000 {
        let known = format!(
            "{{\"/tenantId\":\"t{i}\",\"/pad\":\"{}\"}}",
            "x".repeat(100_000)
        );
        text.push_str(&format!(
            "{{\"op\":\"read\",\"id\":\"{i}\",\"known\":{known}}}\n"
        ));
    }
    let log = write(&dir, "known.ndjson", &text);
    let (out, peak) = measured(&log);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["input"]["operations"], 1_000);
    if let Some(mb) = peak {
        // 1,000 × 100 KB kept whole took 108 MB; counted, they are sampled.
        assert!(mb < 60.0, "known maps: {mb} MB");
    }
}

#[test]
fn r28_azure_monitor_key_rows_count_their_partition_key() {
    let dir = scratch("r28_key_rows");
    let pad = "k".repeat(100_000);
    let rows: Vec<Value> = (0..300)
        .map(|i| json!({"Type": "CDBPartitionKeyRUConsumption", "ActivityId": format!("a{i}"), "PartitionKey": format!("[\"{pad}{i}\"]"), "RequestCharge": 1, "OperationName": "Read"}))
        .collect();
    let log = write(&dir, "keys.json", &serde_json::to_string(&rows).unwrap());
    let (out, _) = measured(&log);
    refused(&out, "outgrow the log's share of --memory");
}

#[test]
fn r28_a_file_of_one_bad_line_says_its_syntax_error() {
    let dir = scratch("r28_bad_line");
    let docs = write(&dir, "bad.ndjson", "{\"a\": 1,\n");
    let out = pkadvisor().args(["analyze", &docs, "-q"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.ndjson:1:"), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("no scalar properties"),
        "{}",
        stderr(&out)
    );
    // Positions are 1-based: a line too long, a JSON array cut at a line's start.
    let long = write(
        &dir,
        "long.txt",
        &format!("SELECT * FROM c WHERE c.a = '{}'\n", "x".repeat(17 << 20)),
    );
    let cut = write(&dir, "cut.json", "[{\"Type\":\"CDBDataPlaneRequests\"},\n");
    for (log, want) in [
        (long, "long.txt:1:1: line longer than 16 MiB"),
        (cut, "cut.json:2:1: not a JSON array"),
    ] {
        let out = analyze(&log, &[]);
        assert!(stderr(&out).contains(want), "{want}: {}", stderr(&out));
        assert!(!stderr(&out).contains("column 0"), "{}", stderr(&out));
    }
}

/// Every reader of a JSON file that ends at a line's start names line 2, column 1, once:
/// no "column 0", no second position in the message.
#[test]
fn r28_json_cut_at_a_line_start_is_line_2_column_1_in_every_reader() {
    let dir = scratch("r28_column_one");
    let cut = write(&dir, "cut.json", "{\n");
    let docs = "fixtures/multitenant/docs.ndjson";
    let lookup = format!("lookup:/tenantId={cut}");
    let runs: [&[&str]; 5] = [
        &["check", "--container", &cut, docs],
        &[
            "analyze",
            docs,
            "--key",
            "/tenantId",
            "--indexing-policy",
            &cut,
        ],
        &["analyze", "--profile", &cut],
        &["analyze", docs, "--layout", &lookup],
        &["epk", " "],
    ];
    for args in runs {
        let out = pkadvisor().args(args).arg("-q").output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            !err.contains("column 0") && !err.contains(":0:"),
            "{args:?}: {err}"
        );
        assert!(!err.contains(" at line "), "{args:?}: {err}");
        if args[0] != "epk" {
            assert!(
                err.contains("cut.json:2:1:") || err.contains("line 2 column 1"),
                "{args:?}: {err}"
            );
        }
    }
    let out = pkadvisor().args(["epk", " "]).output().unwrap();
    assert!(
        stderr(&out).contains("strings need quotes: '\" \"'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn r28_the_epk_hint_quotes_once() {
    for (value, want) in [
        ("hello", "strings need quotes: '\"hello\"'"),
        ("it's", "strings need quotes: '\"it'\\''s\"'"),
        ("\"open", "a string is one JSON string"),
    ] {
        let out = pkadvisor().args(["epk", value]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(want), "{want}: {}", stderr(&out));
        assert!(!stderr(&out).contains("'\"\""), "{}", stderr(&out));
    }
}

/// `profile` of a fixture's documents into `out` (`--redact` with a key when `redact`).
fn profile_of(docs: &str, out: &str, extra: &[&str], redact: bool) {
    let mut cmd = pkadvisor();
    cmd.args(["profile", docs, "-o", out, "-q"]).args(extra);
    if redact {
        cmd.arg("--redact").env("PKADVISOR_REDACT_KEY", "r28");
    }
    cmd.assert().success();
}

/// A report with what redaction changes taken out: value labels, finding messages (which
/// quote values), the redacted flag.
fn without_labels(mut r: Value) -> Value {
    for c in r["candidates"].as_array_mut().unwrap() {
        for v in c["largest_values"].as_array_mut().unwrap() {
            v["value"] = Value::Null;
        }
        for f in c["findings"].as_array_mut().unwrap() {
            f["message"] = Value::Null;
        }
    }
    if let Some(g) = r["recommendation"].get_mut("secondary_index") {
        *g = Value::Null;
    }
    r["input"]["redacted"] = Value::Null;
    r
}

#[test]
fn r28_a_redacted_profile_gives_the_figures_and_findings_of_a_plain_one_on_every_fixture() {
    let dir = scratch("r28_redacted_fixtures");
    let sets: [(&str, &[&str]); 4] = [
        (
            "iot",
            &[
                "--time-path",
                "/ts",
                "--key",
                "/ts",
                "--key",
                "/vin",
                "--key",
                "/date",
            ],
        ),
        ("multitenant", &[]),
        ("nutrition", &[]),
        ("profiles", &[]),
    ];
    for (set, extra) in sets {
        let docs = format!("fixtures/{set}/docs.ndjson");
        let queries = format!("fixtures/{set}/queries.ndjson");
        let (plain, hidden) = (
            dir.join(format!("{set}.profile")),
            dir.join(format!("{set}.r.profile")),
        );
        let (plain, hidden) = (plain.to_string_lossy(), hidden.to_string_lossy());
        profile_of(&docs, &plain, extra, false);
        profile_of(&docs, &hidden, extra, true);
        let run = |p: &str| {
            crate::util::json(&[
                "analyze",
                "--profile",
                p,
                "--queries",
                &queries,
                "-q",
                "--format",
                "json",
            ])
        };
        let (a, b) = (run(&plain), run(&hidden));
        assert_eq!(b["input"]["redacted"], true);
        assert_eq!(without_labels(a), without_labels(b), "{set}");
    }
}

#[cfg(unix)]
#[test]
fn r28_profile_output_follows_links_and_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("r28_profile_files");
    let real = dir.join("real.profile");
    let link = dir.join("link.profile");
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink("real.profile", &link).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    profile_of(
        DOCS,
        &link.to_string_lossy(),
        &["--key", "/tenantId"],
        false,
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.starts_with("{\"format\":\"pkadvisor-profile\""),
        "{}",
        &text[..text.len().min(40)]
    );
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

#[cfg(unix)]
#[test]
fn r28_an_interrupted_profile_leaves_no_partial_file() {
    let dir = scratch("r28_profile_signal");
    // Enough distinct values that writing the profile takes a while.
    let mut docs = String::new();
    for i in 0..200_000 {
        docs.push_str(&format!(
            "{{\"id\":\"doc-{i}\",\"a\":\"a-{i}\",\"b\":{i}}}\n"
        ));
    }
    let docs = write(&dir, "docs.ndjson", &docs);
    let out = dir.join("out.profile");
    for signal in ["-TERM", "-INT"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pkadvisor"))
            .args([
                "profile", &docs, "-q", "--key", "/id", "--key", "/a", "--key", "/b", "-o",
            ])
            .arg(&out)
            .spawn()
            .unwrap();
        let partial = || {
            std::fs::read_dir(&dir).unwrap().any(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".partial")
            })
        };
        let mut seen = false;
        while child.try_wait().unwrap().is_none() {
            if partial() {
                seen = true;
                let pid = child.id().to_string();
                std::process::Command::new("kill")
                    .args([signal, &pid])
                    .status()
                    .unwrap();
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let status = child.wait().unwrap();
        assert!(
            seen,
            "{signal}: the profile was written before its partial file was seen"
        );
        assert!(!partial(), "{signal}: a partial file is left");
        assert!(!out.exists(), "{signal}: {status:?}");
    }
}

/// The output formats `analyze --help` lists (a format added later is covered too).
fn formats() -> Vec<String> {
    let out = pkadvisor().args(["analyze", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let section = help
        .split("--format <FORMAT>")
        .nth(1)
        .expect("--format in the help");
    let list = section.split("[default").next().unwrap();
    let formats: Vec<String> = list
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("- ")?
                .split(':')
                .next()
                .map(str::to_owned)
        })
        .collect();
    assert!(formats.len() >= 3, "{formats:?}");
    formats
}

#[test]
fn r28_redact_hides_every_value_of_every_source_in_every_format_of_every_command() {
    let dir = scratch("r28_redact_everywhere");
    let tenant = |i: usize| format!("SECRETTENANT{i:03}");
    let mut docs = String::new();
    for i in 0..400 {
        docs.push_str(&format!(
            "{{\"id\":\"SECRETID{i}\",\"tenantId\":\"{}\",\"userId\":\"SECRETUSER{}\",\"ts\":\"2026-11-15T09:{:02}:00Z\"}}\n",
            tenant(i % 40),
            i % 7,
            i % 60
        ));
    }
    let docs = write(&dir, "docs.ndjson", &docs);
    // An Azure Monitor log whose partitions are a 1 MB value and known tenants.
    let huge = format!("SECRETHUGE{}", "x".repeat(1 << 20));
    let mut rows = vec![
        json!({"Type": "CDBPartitionKeyStatistics", "PartitionKey": format!("[\"{huge}\"]"), "SizeKb": 19_900_000}),
        json!({"Type": "CDBPartitionKeyStatistics", "PartitionKey": format!("[\"{}\"]", tenant(1)), "SizeKb": 19_500_000}),
    ];
    for i in 0..30 {
        let a = format!("a{i}");
        rows.push(json!({"Type": "CDBDataPlaneRequests", "ActivityId": a, "OperationName": "Read", "RequestCharge": 1, "TimeGenerated": "2026-11-15T09:00:00Z"}));
        rows.push(json!({"Type": "CDBPartitionKeyRUConsumption", "ActivityId": a, "PartitionKey": format!("[\"{}\"]", tenant(i)), "RequestCharge": 1}));
        rows.push(json!({"Type": "CDBQueryRuntimeStatistics", "ActivityId": format!("q{i}"), "QueryText": format!("SELECT * FROM c WHERE c.tenantId = '{}'", tenant(i))}));
    }
    let log = write(&dir, "monitor.json", &serde_json::to_string(&rows).unwrap());
    // A lookup layout whose collection names are long and secret.
    let collection = format!("SECRETCOLLECTION{}", "c".repeat(200_000));
    let map = write(
        &dir,
        "map.json",
        &json!({ tenant(1): collection, "*": "SECRETOTHER" }).to_string(),
    );
    let lookup = format!("lookup:/tenantId={map}");
    let range = "range:/tenantId=SECRETTENANT000..SECRETTENANT019,SECRETTENANT020..SECRETTENANT039";
    let profile = dir.join("hidden.profile").to_string_lossy().into_owned();
    profile_of(
        &docs,
        &profile,
        &["--key", "/tenantId", "--key", "/userId"],
        true,
    );
    let common = [
        "--queries",
        log.as_str(),
        "--current-key",
        "/tenantId",
        "-q",
        "--wide",
        "--top",
        "50",
    ];
    let layouts = ["--layout", lookup.as_str(), "--layout", range];
    let runs: Vec<(&str, Vec<&str>)> = vec![
        (
            "analyze",
            [
                &[
                    "analyze",
                    &docs,
                    "--key",
                    "/tenantId",
                    "--key",
                    "/userId",
                    "--redact",
                ][..],
                &layouts,
            ]
            .concat(),
        ),
        (
            "explain",
            vec!["analyze", &docs, "--explain", "/tenantId", "--redact"],
        ),
        (
            "explain layout",
            vec!["analyze", &docs, "--explain", &lookup, "--redact"],
        ),
        (
            "check",
            vec![
                "check",
                &docs,
                "--key",
                "/tenantId",
                "--redact",
                "--min-score",
                "0",
            ],
        ),
        (
            "check layout",
            vec![
                "check",
                &docs,
                "--layout",
                &lookup,
                "--redact",
                "--min-score",
                "0",
            ],
        ),
        ("analyze --profile", vec!["analyze", "--profile", &profile]),
        (
            "explain --profile",
            vec!["analyze", "--explain", "/tenantId", "--profile", &profile],
        ),
    ];
    for format in formats() {
        for (name, args) in &runs {
            // --profile takes every file after it: the common flags go first.
            let out = pkadvisor()
                .args(&args[..1])
                .args(common)
                .args(["--format", &format])
                .args(&args[1..])
                .output()
                .unwrap();
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{name} {format}: {}",
                stderr(&out)
            );
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.len() > 200, "{name} {format}: {text}");
            if let Some(at) = text.find("SECRET") {
                let around = &text[at.saturating_sub(80)..(at + 80).min(text.len())];
                panic!("{name} --format {format} shows a raw value: …{around}…");
            }
        }
        // Without --redact, a 1 MB value and a 200 KB name are shown cut, as values are.
        for plain in [&["--key", "/tenantId"][..], &["--explain", &lookup]] {
            let out = pkadvisor()
                .args(["analyze", &docs])
                .args(common)
                .args(["--format", &format])
                .args(plain)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            let shown = if plain[0] == "--key" {
                "SECRETHUGE"
            } else {
                "SECRETCOLLECTION"
            };
            assert!(text.contains(shown), "{format} {plain:?}: {text}");
            assert!(
                text.len() < 100_000,
                "{format} {plain:?}: {} bytes",
                text.len()
            );
        }
    }
}

#[test]
fn r28_a_log_share_past_counting_is_refused() {
    let queries = "fixtures/multitenant/queries.ndjson";
    let args = [
        "analyze",
        DOCS,
        "--queries",
        queries,
        "--key",
        "/tenantId",
        "-q",
    ];
    let out = pkadvisor()
        .args(args)
        .args(["--log-share", "5e-324"])
        .output()
        .unwrap();
    refused(&out, "--log-share must be between 0.000001");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("18,446,744,073,709,551,615"));
    // One request in a million: rates a million times the log's, and finite.
    let r = report(
        &pkadvisor()
            .args(args)
            .args(["--format", "json", "--log-share", "0.000001"])
            .output()
            .unwrap(),
    );
    let ru = r["candidates"][0]["cost"]["required_ru"].as_f64();
    assert!(ru.is_none_or(|ru| ru.is_finite() && ru < 1e15), "{ru:?}");
}

/// An ARM template whose container declares `paths` as its partition key and `name` as its
/// id.
fn arm_container(name: &str, paths: &str) -> String {
    json!({
        "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
        "contentVersion": "1.0.0.0",
        "resources": [{
            "type": "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers",
            "apiVersion": "2023-04-15",
            "name": "a/b/c",
            "properties": {
                "resource": {"id": name, "partitionKey": {"paths": [paths], "kind": "Hash"}},
                "options": {"throughput": 400}
            }
        }]
    })
    .to_string()
}

#[test]
fn r51_an_arm_expression_nested_20000_deep_is_refused_not_a_stack_overflow() {
    let dir = scratch("hostile_arm_nested");
    let deep = |inner: &str, n: usize| format!("[{}{inner}{}]", "concat(".repeat(n), ")".repeat(n));
    let docs = write(&dir, "docs.ndjson", "{\"id\":\"1\",\"k\":\"a\"}\n");
    // In the key: exit 2, the limit named, the expression shown in 200 characters.
    let arm = write(&dir, "key.json", &arm_container("c", &deep("'/k'", 20_000)));
    let out = pkadvisor()
        .args(["check", "--container", &arm, &docs])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("more than 64 deep"), "{err}");
    assert!(err.contains("key.json") && err.len() < 1_000, "{err}");
    // In the name, which needs no value: the key is read and checked.
    let arm = write(
        &dir,
        "name.json",
        &arm_container(&deep("'c'", 20_000), "/k"),
    );
    let out = pkadvisor()
        .args(["check", "--container", &arm, &docs])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Variables that read each other twice a level (2^32 reads): refused at 100,000.
    let mut t: Value = serde_json::from_str(&arm_container("c", "[variables('w0')]")).unwrap();
    let mut vars = serde_json::Map::new();
    for i in 0..32 {
        let read = format!("[concat(variables('w{0}'), variables('w{0}'))]", i + 1);
        vars.insert(format!("w{i}"), Value::from(read));
    }
    vars.insert("w32".into(), Value::from("/k"));
    t["variables"] = Value::Object(vars);
    let arm = write(&dir, "doubling.json", &t.to_string());
    let out = pkadvisor()
        .args(["check", "--container", &arm, &docs])
        .output()
        .expect("runs");
    refused(&out, "read more than 100000 times");
    // 60 deep is an expression like any other.
    let arm = write(&dir, "sixty.json", &arm_container("c", &deep("'/k'", 60)));
    let out = pkadvisor()
        .args(["check", "--container", &arm, &docs])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn r51_an_output_that_names_an_input_is_refused_and_a_failed_write_is_an_error() {
    let dir = scratch("hostile_output_input");
    let docs = write(&dir, "docs.ndjson", "{\"id\":\"1\",\"k\":\"a\"}\n");
    let before = std::fs::read(&docs).unwrap();
    for args in [
        vec!["analyze", docs.as_str(), "-o", docs.as_str()],
        vec!["check", docs.as_str(), "--key", "/k", "-o", docs.as_str()],
        vec!["profile", docs.as_str(), "-o", docs.as_str()],
    ] {
        let out = pkadvisor().args(&args).arg("-q").output().expect("runs");
        refused(&out, "names an input of this run");
        assert_eq!(std::fs::read(&docs).unwrap(), before, "{args:?}");
    }
    // A report that cannot be written (a full device) is exit 2, naming it.
    if std::path::Path::new("/dev/full").exists() {
        let out = (pkadvisor().args(["analyze", &docs, "-q", "-o", "/dev/full"]))
            .output()
            .expect("runs");
        refused(&out, "/dev/full");
    }
}

#[test]
fn r51_a_retention_of_ten_billion_years_settles_at_a_petabyte() {
    let dir = scratch("hostile_retention");
    let docs: String = (0..50)
        .map(|i| format!("{{\"id\":\"{i}\",\"k\":\"v{}\"}}\n", i % 7))
        .collect();
    let docs = write(&dir, "docs.ndjson", &docs);
    let log: String = (0..50)
        .map(|i| {
            format!(
                "{{\"op\":\"create\",\"doc\":{{\"id\":\"n{i}\",\"k\":\"v{}\"}},\"ts\":{}}}\n",
                i % 7,
                1_794_700_800 + i
            )
        })
        .collect();
    let log = write(&dir, "log.ndjson", &log);
    let out = (pkadvisor().args(["analyze", &docs, "--queries", &log, "--key", "/k", "-q"]))
        .args(["--retention", "10000000000y", "--format", "json"])
        .output()
        .expect("runs");
    let r = report(&out);
    assert_eq!(
        r["target"]["storage_bytes"], 1_000_000_000_000_000u64,
        "{r}"
    );
    // A growth past a petabyte a day is refused, not printed as 18,446 PB.
    let out = (pkadvisor().args(["analyze", &docs, "-q", "--growth", "1PB/1s"]))
        .output()
        .expect("runs");
    refused(&out, "more than 1PB a day");
}

#[test]
fn r51_a_report_never_lands_on_a_module_it_reads_and_dev_stdout_is_written_through() {
    let dir = scratch("hostile_output_module");
    let docs = write(&dir, "docs.ndjson", "{\"id\":\"1\",\"k\":\"a\"}\n");
    let module = dir.join("infra");
    std::fs::create_dir_all(&module).unwrap();
    let main = write(
        &module,
        "main.tf",
        "resource \"azurerm_cosmosdb_sql_container\" \"c\" {\n  name = \"c\"\n  partition_key_paths = [\"/k\"]\n  throughput = 400\n}\n",
    );
    let before = std::fs::read(&main).unwrap();
    let folder = module.to_str().unwrap();
    for (container, output) in [(folder, main.as_str()), (main.as_str(), main.as_str())] {
        let out = (pkadvisor().args(["check", &docs, "--container", container, "-q"]))
            .args(["-o", output])
            .output()
            .expect("runs");
        refused(&out, "names an input of this run");
        assert_eq!(std::fs::read(&main).unwrap(), before);
    }
    // A Terraform file the module does not have yet would be read next time: refused too.
    let next = module.join("report.tf");
    let out = (pkadvisor().args(["check", &docs, "--container", folder, "-q"]))
        .args(["-o", next.to_str().unwrap()])
        .output()
        .expect("runs");
    refused(&out, "names an input of this run");
    assert!(!next.exists());
    // /dev/stdout on a pipe is written through, not replaced.
    let out = (pkadvisor().args(["analyze", &docs, "-q", "-o", "/dev/stdout"]))
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 documents"));
}

#[test]
fn r51_explain_value_text_that_opens_as_json_must_be_json() {
    let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
    for (value, says) in [
        (r#"["a","b""#, "not valid JSON at column 8"),
        (r#"["a",]"#, "not valid JSON at column 6"),
        (r#""\ud800""#, "not valid JSON"),
        (r#"{"tenant":"a"}"#, "a level of a key is a string"),
        (deep.as_str(), "not valid JSON"),
    ] {
        let out = pkadvisor()
            .args(["analyze", DOCS, "--explain", "/tenantId,/userId"])
            .args(["--explain-value", value])
            .output()
            .unwrap();
        refused(&out, says);
        assert!(stderr(&out).contains("--explain-value"), "{}", stderr(&out));
    }
    // Bare text is still a string, and a JSON string the same value.
    for value in ["contoso", r#""contoso""#] {
        let out = pkadvisor()
            .args([
                "analyze",
                DOCS,
                "--explain",
                "/tenantId",
                "--format",
                "json",
            ])
            .args(["--explain-value", value])
            .output()
            .unwrap();
        let map = report(&out);
        assert!(map.to_string().contains("contoso"), "{value}");
    }
}

#[test]
fn r51_an_indexing_policy_with_a_field_it_does_not_have_is_refused() {
    let dir = scratch("r51-indexing");
    let misspelt = write(
        &dir,
        "policy.json",
        r#"{"indexingMode":"consistent","includedPath":[{"path":"/*"}]}"#,
    );
    for (file, field) in [
        (misspelt.as_str(), "/includedPath is not a field"),
        (
            "tests/data/infra/arm-nested.json",
            "/$schema is not a field",
        ),
    ] {
        let out = pkadvisor()
            .args(["analyze", DOCS, "--indexing-policy", file])
            .output()
            .unwrap();
        refused(&out, field);
        assert!(
            stderr(&out).contains("check --container"),
            "{}",
            stderr(&out)
        );
    }
    // Every field the service takes is read.
    let full = write(
        &dir,
        "full.json",
        r#"{"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],"excludedPaths":[],"compositeIndexes":[],"spatialIndexes":[],"vectorIndexes":[],"fullTextIndexes":[]}"#,
    );
    let out = pkadvisor()
        .args(["analyze", DOCS, "--indexing-policy", &full, "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn r51_a_log_container_named_for_a_log_of_no_containers_is_said_to_be_ignored() {
    let out = pkadvisor()
        .args([
            "analyze",
            DOCS,
            "--queries",
            "fixtures/multitenant/queries.ndjson",
        ])
        .args(["--log-container", "db/events", "--key", "/tenantId", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("--log-container db/events: fixtures/multitenant/queries.ndjson is an operations log, which names no containers"),
        "{e}"
    );
    assert_eq!(
        e.matches("--log-container db/events").count(),
        1,
        "once: {e}"
    );
}

#[test]
fn r51_for_each_and_copy_loops_expand_in_linear_time_and_copy_stops_at_arms_limit() {
    let dir = scratch("r51-loops");
    let docs = write(&dir, "docs.ndjson", "{\"id\":\"a\",\"k\":\"x\"}\n");
    // Terraform: a for_each over a map of 4,000 containers (quadratic, 7 s in a release build).
    let entries: Vec<String> = (0..4_000)
        .map(|i| format!("    c{i} = \"/k{i}\""))
        .collect();
    let tf = write(
        &dir,
        "main.tf",
        &format!(
            "variable \"containers\" {{\n  default = {{\n{}\n  }}\n}}\nresource \"azurerm_cosmosdb_sql_container\" \"c\" {{\n  for_each = var.containers\n  name = each.key\n  database_name = \"db\"\n  partition_key_paths = [each.value]\n}}\n",
            entries.join("\n")
        ),
    );
    let arm = |n: usize| {
        let names: Vec<String> = (0..n).map(|i| format!("\"c{i}\"")).collect();
        format!(
            r#"{{"parameters":{{"names":{{"type":"array","defaultValue":[{}]}}}},"resources":[{{"type":"Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers","name":"[concat('acct/db/', parameters('names')[copyIndex()])]","copy":{{"name":"loop","count":"[length(parameters('names'))]"}},"properties":{{"resource":{{"id":"[parameters('names')[copyIndex()]]","partitionKey":{{"paths":["/k"],"kind":"Hash"}}}}}}}}]}}"#,
            names.join(",")
        )
    };
    let arm_800 = write(&dir, "arm800.json", &arm(800));
    for (file, name, says) in [(&tf, "c3999", "/k3999"), (&arm_800, "db/c799", "/k")] {
        let started = Instant::now();
        let out = pkadvisor()
            .args([
                "check",
                "--container",
                file,
                "--container-name",
                name,
                &docs,
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        let took = started.elapsed().as_secs_f64();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["check"]["key"], says);
        assert!(took < 20.0, "{file}: {took} s");
    }
    // Past ARM's 800 copies, an error that says so instead of a loop cut short.
    let arm_801 = write(&dir, "arm801.json", &arm(801));
    let out = pkadvisor()
        .args(["check", "--container", &arm_801, &docs])
        .output()
        .unwrap();
    refused(
        &out,
        "copy.count is 801: Azure Resource Manager deploys at most 800 copies",
    );
}

#[test]
fn r51_errors_that_name_a_value_hide_it_under_redact() {
    let dir = scratch("r51-redact-errors");
    let log = write(
        &dir,
        "monitor.json",
        "{\"Type\":\"CDBPartitionKeyStatistics\",\"PartitionKey\":\"secret-tenant-42\",\"SizeKb\":5,\"TimeGenerated\":\"2026-11-15T09:00:00Z\",\"DatabaseName\":\"db\",\"CollectionName\":\"c\"}\n",
    );
    let map = write(
        &dir,
        "lookup.json",
        r#"{"secret-region":"a","secret-region":"b"}"#,
    );
    let layout = format!("lookup:/region={map}");
    let runs: [(Vec<&str>, &str, &str); 2] = [
        (
            vec!["analyze", DOCS, "--queries", &log, "--key", "/tenantId"],
            "secret-tenant-42",
            "PartitionKey \"#",
        ),
        (
            vec![
                "analyze",
                "fixtures/layouts/docs.ndjson",
                "--layout",
                &layout,
            ],
            "secret-region",
            "is mapped twice",
        ),
    ];
    for (args, secret, says) in runs {
        let plain = pkadvisor().args(&args).output().unwrap();
        assert!(stderr(&plain).contains(secret), "{}", stderr(&plain));
        let hidden = pkadvisor().args(&args).arg("--redact").output().unwrap();
        refused(&hidden, says);
        assert!(!stderr(&hidden).contains(secret), "{}", stderr(&hidden));
    }
}

#[test]
fn r51_a_batch_with_other_fields_reads_its_records_and_a_bound_past_a_double_is_refused() {
    let dir = scratch("r51-batch");
    let first = std::fs::read_to_string("tests/data/monitor/eventhubs.json")
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let mut batch: Value = serde_json::from_str(&first).unwrap();
    let records = batch["records"].as_array().unwrap().len();
    batch["x"] = json!(1);
    let log = write(&dir, "batch.json", &format!("{batch}\n"));
    let out = analyze(&log, &["--format", "json"]);
    let r = report(&out);
    assert_eq!(
        r["input"]["monitor"]["rows"].as_u64(),
        Some(records as u64),
        "{}",
        r["input"]
    );
    assert!(
        stderr(&out).contains("a batch of records holds other fields too (\"x\"), left unread")
    );
    let out = pkadvisor()
        .args([
            "analyze",
            "fixtures/layouts/docs.ndjson",
            "--layout",
            "range:/n=1e400..",
        ])
        .output()
        .unwrap();
    refused(
        &out,
        "the bound 1e400 is past the largest number a value can hold",
    );
}

#[test]
fn r51_hcl_the_parser_would_backtrack_on_for_ever_ends_in_an_error() {
    // Found by the terraform fuzz target: 517 bytes of braces never closed on which the
    // HCL parser backtracks exponentially (2.4 s in release, each 27 bytes more doubling
    // it). The parse has a budget of 1 s (and a quarter more per MiB) in release; past
    // it, exit 2 naming the file.
    let text = std::fs::read_to_string("tests/data/infra/tangled-hcl.txt").unwrap();
    let err = refused_terraform("hostile_tangled_hcl", &text);
    // 1 s in release; the tests' unoptimised build gives the parser four times that.
    assert!(err.contains("the parser gave up after 4.00 s"), "{err}");
}

/// `check --container main.tf` of `text` (in the scratch folder `name`) on one document:
/// it must end with exit 2 within a minute, naming the file; its standard error.
fn refused_terraform(name: &str, text: &str) -> String {
    let dir = scratch(name);
    let tf = write(&dir, "main.tf", text);
    let docs = write(&dir, "docs.ndjson", "{\"id\":\"1\",\"k\":\"a\"}\n");
    let out = pkadvisor()
        .args(["check", "--container", &tf, &docs])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("main.tf"), "{err}");
    err
}

#[test]
fn r51_locals_that_copy_each_other_end_in_an_error_within_memory() {
    // Forty locals, each four copies of the next: unbounded, 4^40 strings; 6.7 KB of such
    // locals once reached 1.6 GB. A local's value is held to a million values and string
    // bytes, and the key that needs the chain is an error naming its cause.
    let mut tf = String::from("locals {\n");
    for i in 0..40 {
        let next = format!("local.l{}", i + 1);
        tf.push_str(&format!("  l{i} = [{next}, {next}, {next}, {next}]\n"));
    }
    tf.push_str(&format!("  l40 = \"{}\"\n}}\n", "x".repeat(100)));
    tf.push_str("resource \"azurerm_cosmosdb_sql_container\" \"c\" {\n  name = \"c\"\n  partition_key_paths = [\"/t${local.l0[0][0]}\"]\n}\n");
    let err = refused_terraform("hostile_copying_locals", &tf);
    assert!(err.contains("local.l0: through local.l"), "{err}");
}

#[test]
fn r51_a_computed_current_key_is_refused_not_cut_to_its_paths() {
    // `--current-key concat(/tenantId,/userId)` used to keep the levels that are paths
    // (none here) and route the log's PartitionKey values without a word.
    for spec in [
        "concat(/tenantId,/userId)",
        "/tenantId,hash_suffix(/userId,/id,8)",
    ] {
        let out = pkadvisor()
            .args(["analyze", "fixtures/multitenant/docs.ndjson", "-q"])
            .args(["--current-key", spec])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{spec}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("--current-key {spec}")) && err.contains("computed key"),
            "{err}"
        );
    }
    // Nor is a computed key that check gates taken for the log's current key.
    let out = pkadvisor()
        .args(["check", "fixtures/multitenant/docs.ndjson", "-q"])
        .args(["--key", "concat(/tenantId,/userId)"])
        .args(["--queries", "tests/data/monitor/resource-specific.json"])
        .output()
        .expect("runs");
    let err = stderr(&out);
    assert!(
        err.contains("no --current-key says which key they belong to")
            && !err.contains("do not fit"),
        "{err}"
    );
}
