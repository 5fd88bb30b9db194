//! The first hour: every subcommand's help ends with examples that run as written on the
//! fixtures; completions and manual pages are generated and name every subcommand.

use crate::util::pkadvisor;

const SUBCOMMANDS: [&str; 6] = ["analyze", "check", "epk", "profile", "completions", "man"];

/// Splits an example line as a POSIX shell would for the quoting the examples use (single
/// quotes, spaces), stopping at a `#` comment.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            '#' if !quoted && word.is_empty() => break,
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

fn help(sub: &str) -> String {
    let out = pkadvisor().args([sub, "--help"]).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The example command lines of a help text.
fn examples(text: &str) -> Vec<Vec<String>> {
    text.split_once("Examples:")
        .map_or("", |(_, rest)| rest)
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("pkadvisor "))
        .map(words)
        .collect()
}

#[test]
fn the_splitter_follows_the_examples_quoting() {
    assert_eq!(
        words(r#"pkadvisor epk '"a b"' --kind multihash   # a comment"#),
        ["pkadvisor", "epk", "\"a b\"", "--kind", "multihash"]
    );
}

#[test]
fn every_help_example_runs_as_written() {
    for sub in SUBCOMMANDS {
        let text = help(sub);
        let list = examples(&text);
        assert!(list.len() >= 2, "{sub}: no examples in\n{text}");
        for args in list {
            let out = pkadvisor().args(&args[1..]).output().unwrap();
            // `check` may fail its gate (1); nothing may be a usage or input error.
            let code = out.status.code();
            assert!(
                code == Some(0) || (sub == "check" && code == Some(1)),
                "{args:?} exited {code:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let writes_file = args.iter().any(|a| a == "-o" || a == "--dir");
            assert!(
                writes_file || !out.stdout.is_empty(),
                "{args:?} printed nothing"
            );
        }
    }
}

#[test]
fn completions_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = pkadvisor().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
        assert!(script.contains("target-storage"), "{shell}");
    }
}

#[test]
fn manual_pages_are_written_for_every_subcommand() {
    let out = pkadvisor().arg("man").output().unwrap();
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.starts_with(".ie") && page.contains(".TH pkadvisor 1"),
        "{page}"
    );
    for sub in SUBCOMMANDS {
        assert!(page.contains(sub), "the main page lacks {sub}");
    }
    let dir = crate::util::scratch("man_pages");
    let out = pkadvisor()
        .args(["man", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    for sub in SUBCOMMANDS {
        let page = std::fs::read_to_string(dir.join(format!("pkadvisor-{sub}.1"))).unwrap();
        assert!(page.contains(&format!(".TH pkadvisor-{sub} 1")), "{sub}");
    }
}

/// The rows of the box tables in `text` (lines drawn with the table's borders).
fn table_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with(['┌', '│', '╞', '└', '├']))
        .collect()
}

#[test]
fn screens_fit_100_columns_without_cutting_a_header_word() {
    let fixture = [
        "fixtures/multitenant/docs.ndjson",
        "--queries",
        "fixtures/multitenant/queries.ndjson",
        "--target-storage",
        "500GB",
    ];
    let ranking = [&["analyze"][..], &fixture[..]].concat();
    let explain = [
        &ranking[..],
        &["--explain", "/tenantId,/userId,/sessionId"][..],
    ]
    .concat();
    for (args, headers) in [
        (ranking, &["#", "key", "score", "RU/s", "findings"][..]),
        (
            explain,
            &["#", "EPK from", "bytes", "logical", "RU", "largest values"][..],
        ),
    ] {
        let out = pkadvisor().args(&args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let lines = table_lines(&text);
        assert!(!lines.is_empty(), "{text}");
        for l in &lines {
            assert!(
                l.chars().count() <= 100,
                "{} columns: {l}",
                l.chars().count()
            );
        }
        let header = lines[1];
        for h in headers {
            assert!(header.contains(&format!(" {h} ")), "{h:?} cut in {header}");
        }
    }
}

#[test]
fn explain_ranges_tell_neighbours_apart_in_epk_order() {
    let map = [
        "analyze",
        "fixtures/multitenant/docs.ndjson",
        "--target-storage",
        "500GB",
        "--explain",
        "/tenantId,/userId,/sessionId",
    ];
    let out = pkadvisor().args(map).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = table_lines(&text);
    let column = (lines[1].split(['│', '┆']))
        .position(|h| h.trim() == "EPK from")
        .expect("EPK from");
    let starts: Vec<&str> = (lines[3..].iter())
        .filter_map(|l| l.split(['│', '┆']).nth(column).map(str::trim))
        .filter(|r| !r.is_empty())
        .collect();
    assert!(starts.len() > 3, "{text}");
    let mut distinct = starts.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), starts.len(), "{starts:?}");
    // Each is its partition's min, cut: its pieces appear in the whole min, in order, the
    // first at the start. The partitions are in EPK order, the first from "".
    let json = pkadvisor()
        .args(map)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let map: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let mins: Vec<&str> = (map["map"]["partitions"].as_array().unwrap().iter())
        .map(|p| p["min"].as_str().unwrap())
        .collect();
    assert_eq!(mins.len(), starts.len());
    assert!(mins.windows(2).all(|w| w[0] < w[1]), "{mins:?}");
    assert_eq!(starts[0], "\"\"");
    for (cut, min) in starts.iter().zip(&mins).skip(1) {
        let mut rest = *min;
        for (i, piece) in cut.split('…').filter(|p| !p.is_empty()).enumerate() {
            let at = rest.find(piece).unwrap_or_else(|| panic!("{cut} vs {min}"));
            assert!(i > 0 || at == 0, "{cut} vs {min}");
            rest = &rest[at + piece.len()..];
        }
    }
}

#[test]
fn a_declared_key_generated_again_is_listed_once() {
    let out = pkadvisor()
        .args([
            "check",
            "--container",
            "tests/data/infra/arm-nested.json",
            "fixtures/multitenant/docs.ndjson",
            "--queries",
            "fixtures/multitenant/queries.ndjson",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows: Vec<&serde_json::Value> = r["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["key"]["spec"] == "/tenantId")
        .collect();
    assert_eq!(rows.len(), 1);
    let origin = rows[0]["origin"].as_str().unwrap();
    assert!(
        origin.starts_with("declared") && origin.contains("; also "),
        "{origin}"
    );
}
