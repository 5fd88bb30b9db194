//! The skimming walk against the full parse: on every fixture file, the bad-input set and
//! malformed variants of their documents, reading with the walk (the default) and with
//! every document parsed in full agree on what is accepted, every value at the requested
//! paths (numbers to the bit), each document's indexed terms and integers beyond ±2^53, and
//! every error with its line and column.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use pkadvisor::engine::KeyPath;
use pkadvisor::input::{self, Document, NoProgress, ReadOptions, Sink, Source};

/// Everything a sink sees of each document, as text.
#[derive(Default)]
struct Collect(Vec<String>);

impl Sink for Collect {
    fn document(&mut self, d: &Document<'_>) {
        self.0.push(format!(
            "{} {} {} {} {:x} {:?}",
            d.ordinal, d.line, d.bytes, d.terms, d.beyond_2_53, d.fields
        ));
    }

    fn merge(&mut self, other: Self) {
        self.0.extend(other.0);
    }
}

fn options(skim: bool, skip_invalid: bool) -> ReadOptions {
    ReadOptions {
        skim,
        skip_invalid,
        threads: 1,
        ..ReadOptions::default()
    }
}

fn outcome(sources: &[Source], paths: &[KeyPath], opts: &ReadOptions) -> String {
    match input::read(sources, paths, opts, &Collect::default, &NoProgress) {
        Ok((sink, summary)) => format!("{:?}\n{summary:?}", sink.0),
        Err(e) => format!("error: {e}"),
    }
}

/// Reads `text` both ways (with and without `skip_invalid`) and checks they agree;
/// returns the full parse's outcome without `skip_invalid`.
fn agree(name: &str, text: &[u8], paths: &[KeyPath]) -> String {
    agree_with(name, text, paths, &[false, true])
}

/// [`agree`] with and without `skip_invalid` as listed.
fn agree_with(name: &str, text: &[u8], paths: &[KeyPath], skips: &[bool]) -> String {
    let mut first = String::new();
    for &skip_invalid in skips {
        let read = |skim| {
            let src = Source::reader(name, Cursor::new(text.to_vec()));
            outcome(&[src], paths, &options(skim, skip_invalid))
        };
        let full = read(false);
        assert_eq!(
            read(true),
            full,
            "{name}: {}",
            String::from_utf8_lossy(text)
        );
        if !skip_invalid {
            first = full;
        }
    }
    first
}

/// Every file under `fixtures/`.
fn fixture_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x != "md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut out,
    );
    out
}

/// The paths of the first documents of `text` (up to three levels), and a few no
/// document holds.
fn paths_of(text: &[u8]) -> Vec<KeyPath> {
    fn walk(v: &serde_json::Value, prefix: &str, depth: usize, out: &mut Vec<String>) {
        let serde_json::Value::Object(m) = v else {
            return;
        };
        for (k, v) in m {
            let p = format!("{prefix}/{}", serde_json::to_string(k).unwrap());
            if !out.contains(&p) {
                out.push(p.clone());
            }
            if depth > 1 {
                walk(v, &p, depth - 1, out);
            }
        }
    }
    let mut found = Vec::new();
    let docs = serde_json::Deserializer::from_slice(text).into_iter::<serde_json::Value>();
    for doc in docs.take(200).flatten() {
        match doc {
            serde_json::Value::Array(items) => {
                items.iter().for_each(|d| walk(d, "", 3, &mut found))
            }
            d => walk(&d, "", 3, &mut found),
        }
    }
    found.truncate(60);
    found.extend(["/missing", "/_etag", "/id/nothing"].map(String::from));
    found
        .iter()
        .filter_map(|p| KeyPath::parse(p).ok())
        .collect()
}

/// The text of a fixture file, decompressed (as far as it goes: one is cut short).
fn read_file(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap();
    if path.extension().is_none_or(|x| x != "gz") {
        return raw;
    }
    let mut text = Vec::new();
    let mut gz = flate2::read::GzDecoder::new(&raw[..]);
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = std::io::Read::read(&mut gz, &mut buf) {
        text.extend_from_slice(&buf[..n]);
    }
    text
}

#[test]
fn every_fixture_reads_the_same_skimmed_and_parsed_in_full() {
    let files = fixture_files();
    assert!(files.len() >= 20, "{files:?}");
    for file in files {
        let text = read_file(&file);
        let paths = paths_of(&text);
        for skip_invalid in [false, true] {
            let read = |skim| {
                let opts = options(skim, skip_invalid);
                outcome(&[Source::file(&file)], &paths, &opts)
            };
            assert_eq!(read(true), read(false), "{}", file.display());
        }
    }
}

/// Bytes that break or bend JSON where they land.
const SPECIALS: [&[u8]; 16] = [
    b"\"", b"\\", b"{", b"}", b"[", b"]", b",", b":", b"0", b"-", b"e", b".", b"\x01", b"\xff",
    b" ", b"\\u00",
];

/// Malformed variants of one document: cut short, and with a special byte put in place of
/// one byte or inserted before it, at positions spread over the text.
fn variants(doc: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let step = (doc.len() / 8).max(1);
    for at in (0..doc.len()).step_by(step) {
        out.push(doc[..at].to_vec());
        for s in SPECIALS {
            let mut replaced = doc[..at].to_vec();
            replaced.extend_from_slice(s);
            replaced.extend_from_slice(&doc[at + 1..]);
            out.push(replaced);
            let mut inserted = doc[..at].to_vec();
            inserted.extend_from_slice(s);
            inserted.extend_from_slice(&doc[at..]);
            out.push(inserted);
        }
    }
    out
}

#[test]
fn malformed_variants_of_fixture_documents_fail_alike() {
    let (mut rejected, mut accepted) = (0, 0);
    for file in fixture_files() {
        let text = read_file(&file);
        let paths = paths_of(&text);
        let lines: Vec<&[u8]> = text
            .split(|&c| c == b'\n')
            .filter(|l| l.len() > 2)
            .collect();
        let name = file.display().to_string();
        // The first line, and one from the middle and the end.
        let picked = [0, lines.len() / 2, lines.len().saturating_sub(1)];
        for &i in picked.iter().filter(|&&i| i < lines.len()) {
            let all = variants(lines[i]);
            // Each variant alone, for its error and place; then all of them as the lines
            // of one input read with `skip_invalid`.
            for v in &all {
                match agree_with(&name, v, &paths, &[false]).starts_with("error: ") {
                    true => rejected += 1,
                    false => accepted += 1,
                }
            }
            agree_with(&name, &all.join(&b'\n'), &paths, &[true]);
        }
    }
    // Both sides of the comparison are exercised.
    assert!(rejected > 500 && accepted > 100, "{rejected} {accepted}");
}

#[test]
fn numbers_read_to_the_bit_as_the_parser_reads_them() {
    let numbers = [
        "0",
        "-0",
        "-0.0",
        "0.0",
        "1",
        "-1",
        "0.1",
        "1.5e-7",
        "2.5E+2",
        "1e22",
        "1e23",
        "-1e-22",
        "9007199254740991",
        "9007199254740992",
        "9007199254740993",
        "-9007199254740993",
        "12345678901234567",
        "123456789012345678",
        "1234567890123456789",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "123456789012345.67",
        "1.7976931348623157e308",
        "1e308",
        "1e309",
        "1e400",
        "4.9e-324",
        "1e-400",
        "0e99999",
        "00",
        "01",
        "-01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "1e-",
        "+1",
        "1.0e1",
        "9.999999999999999e22",
        "0.30000000000000004",
        "1E2",
        "1e02",
        "1e002",
        "3.141592653589793",
        "2.718281828459045235360",
        "5e-324",
        "1e12312345678901234567845",
        "-0.5E-99999999999999999999999",
        "1e00000000000000000002",
        "-5e-325",
    ];
    let paths: Vec<KeyPath> = ["/a", "/b/c", "/n"]
        .iter()
        .map(|p| KeyPath::parse(p).unwrap())
        .collect();
    let mut accepted = 0;
    for x in numbers {
        for template in [
            "{\"a\":X}",
            "{\"b\":{\"c\":X},\"a\":1}",
            "{\"n\":[X],\"s\":X}",
            "{\"z\":X, \"a\" : X }",
        ] {
            let doc = template.replace('X', x);
            if !agree("numbers", doc.as_bytes(), &paths).starts_with("error: ") {
                accepted += 1;
            }
        }
    }
    assert!(accepted >= 100, "{accepted}");
}

#[test]
fn strings_escapes_names_and_nesting_read_alike() {
    let docs: [&[u8]; 28] = [
        br#"{"a":"\u0000"}"#,
        br#"{"a":"\ud800"}"#,
        br#"{"a":"\ud83d\ude00","b":{"c":"\udc00\ud800"}}"#,
        br#"{"a":"x\"y","z":"\/\b\f\n\r\t"}"#,
        b"{\"a\":\"tab\there\"}",
        b"{\"z\":\"ctl\x1f\",\"a\":1}",
        "{\"a\":\"caf\u{e9} \u{1f600}\"}".as_bytes(),
        b"{\"a\":\"\xc3\x28\"}",
        b"{\"z\":\"\xed\xa0\x80\",\"a\":2}",
        br#"{"\u0061":1,"a":2}"#,
        br#"{"a":1,"a":{"c":2},"b":{"c":3},"b":4}"#,
        br#"{"b":{"c":{"d":[1,{"e":null}]}},"_etag":"x","_etag":{"y":1}}"#,
        br#"{"_etag":["x"],"a":true,"n":[false,null,"s",[],{}]}"#,
        br#"{"a":[[[[[[[[1]]]]]]]]}"#,
        br#"{"b":{"c":{"d":{"e":{"f":{"g":{"h":1}}}}}}}"#,
        br#"{"a":truex}"#,
        br#"{"a":nul}"#,
        br#"{"a":1,}"#,
        br#"{"a":1 "b":2}"#,
        br#"{"a" 1}"#,
        br#"{a:1}"#,
        br#"{"a":1}}"#,
        br#"{"a":1} x"#,
        br#"{"a":"\x"}"#,
        br#"{"a":"\u12"}"#,
        br#"{"a":[1,]}"#,
        b" \r\n{ \"a\" :\t\"v\" , \"b\" : { } } \r\n",
        br#"[{"a":1},{"b":{"c":"d"}},3]"#,
    ];
    let paths: Vec<KeyPath> = ["/a", "/b/c", "/n", "/_etag", "/b/c/d/e", "/\"\u{e9}\""]
        .iter()
        .map(|p| KeyPath::parse(p).unwrap())
        .collect();
    for doc in docs {
        agree("strings", doc, &paths);
        // Every depth limit around the document's nesting.
        for max_depth in 1..10 {
            for skip_invalid in [false, true] {
                let read = |skim| {
                    let src = Source::reader("depth", Cursor::new(doc.to_vec()));
                    let opts = ReadOptions {
                        max_depth,
                        ..options(skim, skip_invalid)
                    };
                    outcome(&[src], &paths, &opts)
                };
                assert_eq!(read(true), read(false), "{}", String::from_utf8_lossy(doc));
            }
        }
    }
}
