//! Screens at 80, 100 and 140 columns (`COLUMNS` sets the width when the output is not a
//! terminal): every line fits, prose wraps between words (never inside one), the ranking
//! keeps what the key costs (RU/s, $/month), the partition map keeps readable values and
//! marks those past 20 GB, and `--explain-value` says where one value lands.

use crate::util::pkadvisor;

const DOCS: &str = "fixtures/multitenant/docs.ndjson";
const LOG: &str = "fixtures/multitenant/queries.ndjson";
const WIDTHS: [usize; 3] = [80, 100, 140];
/// A fixture whose recommended key has warnings.
const IOT_DOCS: &str = "fixtures/iot/docs.ndjson";
const IOT_LOG: &str = "fixtures/iot/queries.ndjson";

/// What `pkadvisor ARGS` prints at `width` columns, whatever its exit code.
fn screen(args: &[&str], width: usize) -> String {
    let out = pkadvisor()
        .env("COLUMNS", width.to_string())
        .args(args)
        .output()
        .expect("runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn is_table(l: &str) -> bool {
    l.starts_with(['┌', '│', '╞', '├', '└', '╭', '╰'])
}

/// The lines of the tables drawn in `text` (box-drawing borders).
fn table_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| is_table(l)).collect()
}

/// Every line fits `width`, and there is a table when `table`.
fn assert_fits(text: &str, width: usize, what: &str, table: bool) {
    assert!(
        !table || !table_lines(text).is_empty(),
        "{what}: no table at {width}:\n{text}"
    );
    for l in text.lines() {
        assert!(
            l.chars().count() <= width,
            "{what} at {width}: {} columns: {l}",
            l.chars().count()
        );
    }
}

/// The prose of `text` (its lines that are not tables), as one line of words.
fn prose(text: &str) -> String {
    let lines = text.lines().filter(|l| !is_table(l));
    let words: Vec<&str> = lines.flat_map(str::split_whitespace).collect();
    words.join(" ")
}

/// `text`'s prose without the sentences that say what this width hid.
fn prose_but_hidden(text: &str) -> String {
    let p = prose(text);
    (p.split(". "))
        .filter(|s| !s.contains("at this width"))
        .collect::<Vec<_>>()
        .join(". ")
}

#[test]
fn the_ranking_fits_and_keeps_the_bill_at_every_width() {
    let mut words = Vec::new();
    for width in WIDTHS {
        let text = screen(&["analyze", DOCS, "--queries", LOG, "-q"], width);
        assert_fits(&text, width, "analyze", true);
        let header = table_lines(&text)[1];
        for column in ["key", "RU/s", "$/month"] {
            assert!(header.contains(column), "{width}: {header}");
        }
        // What a narrower screen hides is said, and never the bill.
        let p = prose(&text);
        if let Some(h) = p.split("Hidden at this width").nth(1) {
            let h = h.split('.').next().unwrap_or_default();
            assert!(!h.contains("RU/s") && !h.contains("$/month"), "{h}");
        }
        words.push(prose_but_hidden(&text));
    }
    // Wrapping only moves line breaks: the same words at every width, none cut.
    assert_eq!(words[0], words[1]);
    assert_eq!(words[1], words[2]);
    assert!(words[0].contains("Recommendation:"), "{}", words[0]);
}

#[test]
fn the_recommended_keys_warnings_are_explained_with_what_to_do() {
    let json = pkadvisor()
        .args([
            "analyze",
            IOT_DOCS,
            "--queries",
            IOT_LOG,
            "-q",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let spec = report["recommendation"]["spec"].as_str().expect("a key");
    let candidates = report["candidates"].as_array().expect("candidates");
    let rec = (candidates.iter())
        .find(|c| c["key"]["spec"] == spec)
        .expect("listed");
    let codes: Vec<&str> = (rec["findings"].as_array().expect("findings").iter())
        .filter(|f| f["severity"] != "info")
        .map(|f| f["code"].as_str().expect("code"))
        .collect();
    assert!(
        !codes.is_empty(),
        "the fixture's recommended key has warnings"
    );
    let text = prose(&screen(
        &["analyze", IOT_DOCS, "--queries", IOT_LOG, "-q"],
        100,
    ));
    let explained = text
        .split("Its warnings, and what to do:")
        .nth(1)
        .expect("explained");
    let mut starts: Vec<usize> = (codes.iter())
        .map(|code| explained.find(&format!("! {code}:")).expect(code))
        .collect();
    starts.sort_unstable();
    for code in &codes {
        let at = explained.find(&format!("! {code}:")).expect(code);
        let end = starts.iter().find(|&&s| s > at).copied();
        let part = &explained[at..end.unwrap_or(explained.len())];
        assert!(part.contains("What to do:"), "{code}: {part}");
        // The best-ranked candidate without violations that avoids it, if any, is named.
        let avoids = candidates.iter().find(|c| {
            c["key"]["spec"] != spec
                && !(c["findings"].as_array().expect("findings").iter())
                    .any(|f| f["severity"] == "violation" || f["code"] == *code)
        });
        match avoids {
            Some(c) => {
                let named = format!("({},", c["key"]["spec"].as_str().expect("spec"));
                assert!(part.contains(&named), "{code}: {named} in {part}");
            }
            None => assert!(part.contains("No candidate without violations"), "{part}"),
        }
    }
}

#[test]
fn the_partition_map_keeps_values_readable_and_marks_those_past_the_limit() {
    let mut legends = Vec::new();
    for width in WIDTHS {
        // With the log: its creates give an ingest, so the growth table follows the map.
        let args = [
            "analyze",
            DOCS,
            "--queries",
            LOG,
            "--explain",
            "/tenantId",
            "-q",
        ];
        let map = screen(&args, width);
        assert!(map.contains("\nvalue 1: \"contoso\"\n"), "{map}");
        assert_fits(&map, width, "--explain", true);
        let rows = table_lines(&map);
        // The values column keeps labels readable: at 100 columns and more, the tenants'
        // names (shorter than 32 characters) whole.
        if width >= 100 {
            let mut values = rows.iter().filter_map(|r| r.split(['│', '┆']).nth_back(1));
            assert!(!values.any(|v| v.contains('…')), "{map}");
        }
        // Every size past 20 GB is marked, and only those.
        let limit = 20.0e9;
        let mut marked = 0;
        for row in &rows[3..rows.len() - 1] {
            let cell = row.split(['│', '┆']).nth_back(1).expect("cell").trim();
            let (mark, rest) = match cell.strip_prefix('!') {
                Some(r) => (true, r),
                None => (false, cell),
            };
            let mut it = rest.split_whitespace();
            let (Some(n), Some(unit)) = (it.next(), it.next()) else {
                continue;
            };
            let scale = match unit {
                "GB" => 1e9,
                "TB" => 1e12,
                "MB" => 1e6,
                "kB" => 1e3,
                _ => continue,
            };
            let bytes = n.parse::<f64>().expect("size") * scale;
            let labelled = !cell.contains("(others)");
            assert_eq!(
                mark,
                labelled && bytes > limit,
                "{width}: {cell} ({bytes} bytes)"
            );
            marked += usize::from(mark);
        }
        assert!(
            marked >= 1,
            "the largest tenant passes 20 GB at 1 TB:\n{map}"
        );
        let p = prose(&map);
        legends.push(p[..p.find("Values cut").expect("cuts said")].to_owned());
    }
    assert_eq!(legends[0], legends[2]);
}

#[test]
fn explain_value_says_where_a_value_and_a_prefix_land() {
    let json = |args: &[&str]| -> serde_json::Value {
        let out = pkadvisor().args(args).output().expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    // The fixture's documents of tenant contoso, counted here.
    let docs = std::fs::read_to_string(DOCS).expect("fixture");
    let contoso: Vec<&str> = (docs.lines())
        .filter(|l| l.contains("\"tenantId\":\"contoso\""))
        .collect();
    let map = json(&[
        "analyze",
        DOCS,
        "--explain",
        "/tenantId",
        "--explain-value",
        "contoso",
        "--format",
        "json",
        "-q",
    ]);
    let v = &map["values"][0];
    assert_eq!(v["value"], "\"contoso\"");
    assert_eq!(v["prefix"], false);
    assert_eq!(v["sample"]["documents"], contoso.len() as u64);
    let bytes: u64 = contoso.iter().map(|l| l.len() as u64 + 1).sum();
    let sampled = v["sample"]["bytes"].as_u64().expect("bytes");
    assert!(
        sampled.abs_diff(bytes) <= contoso.len() as u64,
        "{sampled} vs {bytes}"
    );
    // Its EPK is the one `pkadvisor epk` computes, and it sits on the partition whose range
    // holds that EPK, where the map lists it among the largest values with the same bytes.
    let epk = pkadvisor()
        .args(["epk", "\"contoso\""])
        .output()
        .expect("runs");
    let epk = String::from_utf8(epk.stdout).expect("hex");
    assert_eq!(v["epk"], epk.trim());
    let parts = map["map"]["partitions"].as_array().expect("partitions");
    let at = v["partitions"][0].as_u64().expect("place") as usize - 1;
    let p = &parts[at];
    let e = epk.trim();
    assert!(
        p["min"].as_str().unwrap() <= e && (e < p["max"].as_str().unwrap() || p["max"] == "FF")
    );
    let listed = (p["largest"].as_array().unwrap().iter())
        .find(|l| l["epk"] == e)
        .expect("listed");
    assert_eq!(listed["bytes"], v["bytes"]);

    // A prefix of a hierarchical key spans a range: it reaches every partition one of its
    // listed values is on, and holds at least their bytes.
    let h = json(&[
        "analyze",
        DOCS,
        "--explain",
        "/tenantId,/userId",
        "--explain-value",
        "[\"contoso\"]",
        "--format",
        "json",
        "-q",
    ]);
    let v = &h["values"][0];
    assert_eq!(v["prefix"], true);
    let reach: Vec<u64> = (v["partitions"].as_array().unwrap().iter())
        .map(|i| i.as_u64().unwrap())
        .collect();
    let labels = h["labels"].as_object().expect("labels");
    let mut listed = 0;
    for (i, p) in h["map"]["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        for l in p["largest"].as_array().unwrap() {
            let label = labels.get(l["epk"].as_str().unwrap());
            if label.is_some_and(|s| s.as_str().unwrap().starts_with("[\"contoso\",")) {
                assert!(
                    reach.contains(&(i as u64 + 1)),
                    "partition {} not reached",
                    i + 1
                );
                listed += l["bytes"].as_u64().unwrap();
            }
        }
    }
    assert!(listed > 0 && v["bytes"].as_u64().unwrap() >= listed);
    // Bare text is a string; more levels than the key's is an error that says so.
    let out = pkadvisor()
        .args([
            "analyze",
            DOCS,
            "--explain",
            "/tenantId",
            "--explain-value",
            "[\"a\",\"b\"]",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--explain-value [\"a\",\"b\"]"));
}

/// `check` of the multitenant fixture against a template declaring `/tenantId`.
const CHECK: [&str; 7] = [
    "check",
    "--container",
    "tests/data/infra/arm-nested.json",
    DOCS,
    "--queries",
    LOG,
    "-q",
];

#[test]
fn the_verdict_fits_at_every_width() {
    let mut words = Vec::new();
    for width in WIDTHS {
        let verdict = screen(&CHECK, width);
        assert_fits(&verdict, width, "check", false);
        assert!(
            verdict.starts_with("FAIL  /tenantId (container events)"),
            "{verdict}"
        );
        assert!(verdict.contains("Best alternative:"), "{verdict}");
        words.push(prose(&verdict));
    }
    assert_eq!(words[0], words[1]);
    assert_eq!(words[1], words[2]);
}

/// The lines between `from` and `to` in `text`, the first excluded.
fn block(text: &str, from: &str, to: &str) -> String {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("{from} in {text}"))
        + from.len();
    let rest = &text[start..];
    rest[..rest.find(to).unwrap_or(rest.len())].to_owned()
}

#[test]
fn the_alternative_is_declared_in_lines_that_parse_as_arm_and_terraform() {
    let args = CHECK;
    let out = pkadvisor()
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let best = r["check"]["best_alternative"]
        .as_str()
        .expect("an alternative");
    let candidates = r["candidates"].as_array().unwrap();
    let alt = candidates
        .iter()
        .find(|c| c["key"]["spec"] == best)
        .unwrap();
    let definition = &alt["key"]["definition"];
    let text = screen(&args, 80);
    // ARM: a JSON member, pasted into `properties.resource`.
    let arm = block(&text, "ARM (properties.resource):", "  Bicep:");
    let arm: serde_json::Value = serde_json::from_str(&format!("{{{arm}}}")).expect(&arm);
    assert_eq!(&arm["partitionKey"], definition);
    // Terraform: three attributes of the container block.
    let tf = block(&text, "  Terraform:", "\n\n");
    let tf: serde_json::Value = hcl::from_str(&tf).expect(&tf);
    assert_eq!(tf["partition_key_paths"], definition["paths"]);
    assert_eq!(tf["partition_key_kind"], definition["kind"]);
    assert_eq!(tf["partition_key_version"], definition["version"]);
    // Bicep: the same paths, kind and version, one property a line.
    let bicep = block(&text, "  Bicep:", "  Terraform:");
    let paths: Vec<String> = (definition["paths"].as_array().unwrap().iter())
        .map(|p| format!("'{}'", p.as_str().unwrap()))
        .collect();
    assert!(
        bicep.contains(&format!("paths: [ {} ]", paths.join(", "))),
        "{bicep}"
    );
    assert!(bicep.contains(&format!("kind: '{}'", definition["kind"].as_str().unwrap())));
    assert!(
        bicep.contains(&format!("version: {}", definition["version"])),
        "{bicep}"
    );
}

#[test]
fn every_violating_key_says_why_at_80_columns() {
    // At 80 columns the findings column does not fit; the violations table keeps each
    // violation in a few words instead.
    let text = screen(&["analyze", DOCS, "--queries", LOG], 80);
    every_violation_says_why(&text);
    assert!(text.contains("over 20 GB"), "{text}");
}

/// The violations table of a screen: a `why` column, at least three ranked rows, and a
/// reason on every one of them.
fn every_violation_says_why(text: &str) {
    let after = text
        .split("With violations")
        .nth(1)
        .expect("a violations table");
    let table: Vec<&str> = after.lines().skip(1).take_while(|l| is_table(l)).collect();
    let header = (table.iter())
        .find(|l| l.contains(" key "))
        .expect("a header");
    assert!(header.contains(" why "), "{header}");
    let rows: Vec<Vec<&str>> = (table.iter())
        .filter(|l| l.starts_with('│') && !l.contains(" key "))
        .map(|l| l.trim_matches('│').split('┆').map(str::trim).collect())
        .collect();
    let ranked: Vec<&Vec<&str>> = rows.iter().filter(|r| !r[0].is_empty()).collect();
    assert!(ranked.len() >= 3, "{after}");
    for r in ranked {
        assert!(!r.last().unwrap().is_empty(), "no reason for {r:?}");
    }
}

/// What `pkadvisor ARGS` shows in a real terminal: a tmux pane of `width` columns (its
/// standard output a terminal, not a pipe), captured once the command has ended; `None`,
/// after saying `SKIPPED`, without tmux (under `CI` that fails: `.ci/run` installs it).
fn in_tmux(args: &[&str], width: usize) -> Option<String> {
    let found = std::process::Command::new("tmux").arg("-V").output();
    if !found.is_ok_and(|o| o.status.success()) {
        crate::util::skip_unless_ci(
            "the tmux screen",
            "tmux is not installed",
            ".ci/run installs it",
        );
        return None;
    }
    let bin = assert_cmd::cargo::cargo_bin("pkadvisor");
    let socket = format!("pkadvisor-test-{}-{width}", std::process::id());
    let tmux = |more: &[&str]| {
        std::process::Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null"])
            .args(more)
            .output()
            .expect("tmux runs")
    };
    let quoted: Vec<String> = std::iter::once(bin.display().to_string())
        .chain(args.iter().map(|a| (*a).to_owned()))
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    let command = format!("{}; echo __ENDED__; sleep 600", quoted.join(" "));
    let (w, h) = (width.to_string(), "60".to_owned());
    let started = tmux(&[
        "new-session",
        "-d",
        "-x",
        &w,
        "-y",
        &h,
        "sh",
        "-c",
        &command,
    ]);
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let screen = loop {
        let out = tmux(&["capture-pane", "-p", "-S", "-", "-E", "-"]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if text.contains("__ENDED__") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    tmux(&["kill-server"]);
    assert!(
        screen.contains("__ENDED__"),
        "the command did not end: {screen}"
    );
    Some(screen)
}

#[test]
fn in_an_80_column_tmux_pane_every_violating_row_says_why() {
    let Some(screen) = in_tmux(&["analyze", DOCS, "--queries", LOG, "-q"], 80) else {
        return;
    };
    for line in screen.lines() {
        assert!(line.chars().count() <= 80, "wider than the pane: {line}");
    }
    every_violation_says_why(&screen);
}
