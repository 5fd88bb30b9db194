//! What no ranking may depend on: the names of the properties and the order of the
//! documents. Every property of a fixture is renamed consistently (each letter mirrored
//! through the alphabet, so names sort the other way round) in the documents and in the
//! log's query texts, and the documents are shuffled; the ranking, mapped back, is the same
//! except between keys the tool itself calls tied.

use std::collections::{BTreeMap, BTreeSet};

use crate::util::{json, scratch, write};

/// Each ASCII letter mirrored (a↔z, B↔Y): a bijection that reverses alphabetical order.
fn mirror(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'a'..='z' => (b'z' - (c as u8 - b'a')) as char,
            'A'..='Z' => (b'Z' - (c as u8 - b'A')) as char,
            other => other,
        })
        .collect()
}

/// System properties keep their names: the service gives them meaning.
fn renamed(name: &str) -> String {
    match name {
        "id" | "ttl" | "_ts" | "_etag" => name.to_owned(),
        _ => mirror(name),
    }
}

fn rename_keys(v: &serde_json::Value, names: &mut BTreeSet<String>) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => serde_json::Value::Object(
            m.iter()
                .map(|(k, x)| {
                    names.insert(k.clone());
                    (renamed(k), rename_keys(x, names))
                })
                .collect(),
        ),
        serde_json::Value::Array(a) => {
            serde_json::Value::Array(a.iter().map(|x| rename_keys(x, names)).collect())
        }
        other => other.clone(),
    }
}

/// The property references of a query text renamed: `.name` and `["name"]`.
fn rename_sql(sql: &str, names: &BTreeSet<String>) -> String {
    let b = sql.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let ident = |j: usize| j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_');
        if b[i] == b'.' && ident(i + 1) {
            let end = (i + 1..b.len()).find(|&j| !ident(j)).unwrap_or(b.len());
            let word = &sql[i + 1..end];
            out.push('.');
            out.push_str(&if names.contains(word) {
                renamed(word)
            } else {
                word.to_owned()
            });
            i = end;
        } else if sql[i..].starts_with("[\"") {
            let end = i + 2 + sql[i + 2..].find('"').unwrap();
            let word = &sql[i + 2..end];
            out.push_str("[\"");
            out.push_str(&if names.contains(word) {
                renamed(word)
            } else {
                word.to_owned()
            });
            i = end;
        } else {
            let ch = sql[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// A spec renamed or mapped back (its paths' segments mirrored).
fn rename_spec(spec: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let known = ["concat", "hash_suffix", "rand_suffix"];
        out.push_str(&match known.contains(&word.as_str()) {
            true => word.clone(),
            false => renamed(word),
        });
        word.clear();
    };
    for c in spec.chars() {
        if c.is_ascii_alphabetic() || c == '_' || (c.is_ascii_digit() && !word.is_empty()) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The fixture renamed and shuffled: its documents and its log, written to `dir`.
fn disguised(dir: &std::path::Path, docs: &str, log: &str) -> (String, String) {
    let mut names = BTreeSet::new();
    let mut lines: Vec<String> = std::fs::read_to_string(docs)
        .unwrap()
        .lines()
        .map(|l| rename_keys(&serde_json::from_str(l).unwrap(), &mut names).to_string())
        .collect();
    // A fixed shuffle: a multiplicative step through the lines.
    let n = lines.len();
    let step = (1..n)
        .rev()
        .find(|s| gcd(*s, n) == 1 && *s * 3 < n * 2)
        .unwrap_or(1);
    let order: Vec<usize> = (0..n).map(|i| i * step % n).collect();
    lines = order.iter().map(|&i| lines[i].clone()).collect();
    let log_lines: Vec<String> = std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| {
            // Plain SELECT lines are query texts.
            let Ok(mut v) = serde_json::from_str::<serde_json::Value>(l) else {
                return rename_sql(l, &names);
            };
            if let Some(sql) = v.get("sql").and_then(|s| s.as_str()).map(str::to_owned) {
                v["sql"] = rename_sql(&sql, &names).into();
            }
            rename_docs(&mut v, &names);
            v.to_string()
        })
        .collect();
    (
        write(dir, "docs.ndjson", &(lines.join("\n") + "\n")),
        write(dir, "queries.ndjson", &(log_lines.join("\n") + "\n")),
    )
}

/// The documents a log line writes (`doc`, in a batch's `ops` too) renamed.
fn rename_docs(v: &mut serde_json::Value, names: &BTreeSet<String>) {
    if let Some(doc) = v.get("doc").cloned() {
        v["doc"] = rename_keys(&doc, &mut names.clone());
    }
    if let Some(ops) = v.get_mut("ops").and_then(|o| o.as_array_mut()) {
        ops.iter_mut().for_each(|op| rename_docs(op, names));
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The ranking: spec → (rank, required RU/s, score).
fn ranking(
    r: &serde_json::Value,
    map: impl Fn(&str) -> String,
) -> BTreeMap<String, (u64, f64, f64)> {
    (r["candidates"].as_array().unwrap().iter())
        .map(|c| {
            let spec = map(c["key"]["spec"].as_str().unwrap());
            let ru = c["cost"]["required_ru"].as_f64().unwrap_or(0.0);
            (
                spec,
                (
                    c["rank"].as_u64().unwrap(),
                    ru,
                    c["score"].as_f64().unwrap(),
                ),
            )
        })
        .collect()
}

/// Asserts the fixture `set`, read with `--time-path /ts`, ranks the same renamed and
/// shuffled.
fn invariant(set: &str) {
    let dir = scratch(&format!("invariance-{set}"));
    let (docs, log) = (
        format!("fixtures/{set}/docs.ndjson"),
        format!("fixtures/{set}/queries.ndjson"),
    );
    let (docs_b, log_b) = disguised(&dir, &docs, &log);
    let plain = json(&[
        "analyze",
        &docs,
        "--queries",
        &log,
        "--time-path",
        "/ts",
        "--format",
        "json",
    ]);
    let time = format!("/{}", renamed("ts"));
    let other = json(&[
        "analyze",
        &docs_b,
        "--queries",
        &log_b,
        "--time-path",
        &time,
        "--format",
        "json",
    ]);
    let a = ranking(&plain, str::to_owned);
    let b = ranking(&other, rename_spec);
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{set}: the same candidates"
    );
    for (spec, (rank, ru, score)) in &a {
        let (rank_b, ru_b, score_b) = b[spec];
        assert!(
            (ru - ru_b).abs() < 1e-9,
            "{set} {spec}: {ru} RU/s against {ru_b}"
        );
        // Written again, a document's numbers may lose a digit (0.90 is 0.9): its size
        // moves by a few bytes, and a score by a rounding step.
        assert!(
            (score - score_b).abs() < 0.15,
            "{set} {spec}: score {score} against {score_b}"
        );
        if *rank != rank_b {
            // Moved: only between keys of the same RU/s and score, which only a
            // tie-breaker can order.
            let tied = (a.iter()).any(|(s, (r, x, y))| {
                s != spec && *r == rank_b && (x - ru).abs() < 1e-9 && (y - score).abs() < 0.15
            });
            assert!(
                tied,
                "{set}: {spec} moved from #{rank} to #{rank_b} without a tie"
            );
        }
    }
    let best = |r: &serde_json::Value| r["recommendation"]["key"].as_str().map(str::to_owned);
    assert_eq!(best(&plain), best(&other).map(|s| rename_spec(&s)), "{set}");
}

#[test]
fn renaming_every_property_and_shuffling_the_documents_changes_no_rank_beyond_a_tie() {
    // The fixtures whose documents carry their write time (/ts): shuffled, they arrive
    // at the same times.
    for set in ["multitenant", "iot"] {
        invariant(set);
    }
}

#[test]
fn a_spec_and_a_query_rename_both_ways() {
    assert_eq!(
        rename_spec("concat(/tenantId,/userId)"),
        "concat(/gvmzmgRw,/fhviRw)"
    );
    assert_eq!(
        rename_spec(&rename_spec("hash_suffix(/a/b,/c,64)")),
        "hash_suffix(/a/b,/c,64)"
    );
    let names: BTreeSet<String> = ["tenantId", "ts"].map(String::from).into();
    assert_eq!(
        rename_sql(
            r#"SELECT * FROM c WHERE c["tenantId"] = @t ORDER BY c.ts"#,
            &names
        ),
        r#"SELECT * FROM c WHERE c["gvmzmgRw"] = @t ORDER BY c.gh"#
    );
}
