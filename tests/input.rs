//! The document readers: formats, compression, fields, positions of errors, recovery with
//! `skip_invalid`, and equal results on one thread and two.

use std::io::{Cursor, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use pkadvisor::engine::{KeyPath, PkValue};
use pkadvisor::field::Field;
use pkadvisor::input::{
    self, Document, InputError, NoProgress, Progress, ReadOptions, ReadSummary, Sink, Source,
};

/// One document as a test sees it.
#[derive(Clone, Debug, PartialEq)]
struct Rec {
    ordinal: u64,
    source: usize,
    line: u64,
    bytes: u64,
    fields: Vec<Val>,
}

/// An owned field.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Missing,
    Scalar(PkValue),
    Object,
    Array,
}

#[derive(Debug, Default)]
struct Collect(Vec<Rec>);

impl Sink for Collect {
    fn document(&mut self, d: &Document<'_>) {
        let fields = d
            .fields
            .iter()
            .map(|f| match f {
                Field::Missing => Val::Missing,
                Field::Scalar(v) => Val::Scalar(v.to_owned_value()),
                Field::Object => Val::Object,
                Field::Array => Val::Array,
            })
            .collect();
        self.0.push(Rec {
            ordinal: d.ordinal,
            source: d.source,
            line: d.line,
            bytes: d.bytes,
            fields,
        });
    }

    fn merge(&mut self, other: Self) {
        self.0.extend(other.0);
    }
}

fn paths(ps: &[&str]) -> Vec<KeyPath> {
    ps.iter().map(|p| KeyPath::parse(p).unwrap()).collect()
}

fn opts(threads: usize) -> ReadOptions {
    ReadOptions {
        threads,
        ..ReadOptions::default()
    }
}

fn read_sources(
    sources: &[Source],
    ps: &[&str],
    o: &ReadOptions,
) -> Result<(Vec<Rec>, ReadSummary), InputError> {
    let (sink, summary) = input::read(sources, &paths(ps), o, &Collect::default, &NoProgress)?;
    let mut recs = sink.0;
    recs.sort_by_key(|r| r.ordinal);
    Ok((recs, summary))
}

/// Reads `text` as a reader source named `name`.
fn read_text(
    name: &str,
    text: &[u8],
    ps: &[&str],
    o: &ReadOptions,
) -> Result<(Vec<Rec>, ReadSummary), InputError> {
    let src = Source::reader(name, Cursor::new(text.to_vec()));
    read_sources(&[src], ps, o)
}

/// The error message for `text`, on one thread and on two (which must agree).
fn error_of(name: &str, text: &[u8], o: &ReadOptions) -> String {
    let one = read_text(
        name,
        text,
        &["/a"],
        &ReadOptions {
            threads: 1,
            ..o.clone()
        },
    );
    let two = read_text(
        name,
        text,
        &["/a"],
        &ReadOptions {
            threads: 2,
            ..o.clone()
        },
    );
    let (one, two) = (one.unwrap_err().to_string(), two.unwrap_err().to_string());
    assert_eq!(one, two);
    one
}

fn num(n: f64) -> Val {
    Val::Scalar(PkValue::Number(n))
}

fn s(v: &str) -> Val {
    Val::Scalar(PkValue::String(v.into()))
}

/// A fresh directory under the system temp dir.
fn temp_dir(tag: &str) -> std::path::PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("pkadvisor-input-{}-{tag}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

const THREE: &str = "{\"a\":\"x\",\"n\":1}\n{\"a\":\"y\",\"n\":2}\n{\"a\":\"z\",\"n\":3}\n";

#[test]
fn ndjson_fields_lines_bytes_and_ordinals() {
    let (recs, sum) = read_text("e.ndjson", THREE.as_bytes(), &["/a", "/n"], &opts(1)).unwrap();
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[1].fields, [s("y"), num(2.0)]);
    assert_eq!(recs.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(
        recs.iter().map(|r| r.ordinal).collect::<Vec<_>>(),
        [0, 16, 32]
    );
    assert!(recs.iter().all(|r| r.bytes == 15));
    assert_eq!(
        sum,
        ReadSummary {
            documents: 3,
            // The documents' JSON text, newlines not counted.
            bytes: 3 * 15,
            invalid: 0,
            first_invalid: None
        }
    );
}

#[test]
fn bom_crlf_and_blank_lines() {
    let text = b"\xEF\xBB\xBF{\"a\":1}\r\n\r\n   \n\t{\"a\":2} \r\n\n{\"a\":3}";
    let (recs, _) = read_text("e.ndjson", text, &["/a"], &opts(1)).unwrap();
    let got: Vec<_> = recs
        .iter()
        .map(|r| (r.line, r.bytes, r.fields[0].clone()))
        .collect();
    assert_eq!(got, [(1, 7, num(1.0)), (4, 7, num(2.0)), (6, 7, num(3.0))]);
    // A BOM before a pretty-printed document, too.
    let (recs, _) = read_text("p.json", b"\xEF\xBB\xBF{\n \"a\": 1\n}", &["/a"], &opts(1)).unwrap();
    assert_eq!(recs[0].fields, [num(1.0)]);
}

#[test]
fn json_array_of_documents() {
    let text = "[\n  {\"a\": \"x\"},\n  {\n    \"a\": \"y\"\n  }\n]\n";
    let (recs, _) = read_text("a.json", text.as_bytes(), &["/a"], &opts(1)).unwrap();
    let got: Vec<_> = recs.iter().map(|r| (r.line, r.fields[0].clone())).collect();
    assert_eq!(got, [(2, s("x")), (3, s("y"))]);
    assert_eq!(recs[1].bytes, "{\n    \"a\": \"y\"\n  }".len() as u64);
    let (recs, _) = read_text("a.json", b"[{\"a\":1},{\"a\":2}]", &["/a"], &opts(1)).unwrap();
    assert_eq!(recs.len(), 2);
    assert!(recs[0].ordinal < recs[1].ordinal);
}

#[test]
fn concatenated_pretty_printed_documents() {
    let text = "{\n  \"a\": {\"b\": 1}\n}\n{\n  \"a\": {\"b\": 2}\n} {\"a\": {\"b\": 3}}";
    let (recs, _) = read_text("c.json", text.as_bytes(), &["/a/b", "/a"], &opts(1)).unwrap();
    let got: Vec<_> = recs.iter().map(|r| (r.line, r.fields.clone())).collect();
    assert_eq!(
        got,
        [
            (1, vec![num(1.0), Val::Object]),
            (4, vec![num(2.0), Val::Object]),
            (6, vec![num(3.0), Val::Object])
        ]
    );
}

#[test]
fn gzip_and_zstd_by_ending_and_by_magic() {
    let dir = temp_dir("codec");
    let gz = dir.join("e.ndjson.gz");
    // Two gzip members, as pigz or bgzip write them.
    let mut two = gzip(&THREE.as_bytes()[..16]);
    two.extend(gzip(&THREE.as_bytes()[16..]));
    std::fs::write(&gz, &two).unwrap();
    let zst = dir.join("e.ndjson.zst");
    std::fs::write(&zst, zstd::encode_all(THREE.as_bytes(), 3).unwrap()).unwrap();
    let sources = [
        Source::file(&gz),
        Source::file(&zst),
        Source::reader("<stdin>", Cursor::new(gzip(THREE.as_bytes()))),
    ];
    let (recs, sum) = read_sources(&sources, &["/n"], &opts(2)).unwrap();
    assert_eq!(sum.documents, 9);
    // The documents' JSON text: 15 bytes each, newlines not counted.
    assert_eq!(sum.bytes, 9 * 15);
    let got: Vec<_> = recs.iter().map(|r| (r.source, r.line)).collect();
    assert_eq!(got[..4], [(0, 1), (0, 2), (0, 3), (1, 1)]);
    let zs = Source::reader(
        "z",
        Cursor::new(zstd::encode_all(THREE.as_bytes(), 1).unwrap()),
    );
    assert_eq!(read_sources(&[zs], &["/n"], &opts(1)).unwrap().0.len(), 3);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn ordinals_increase_across_sources() {
    let a = Source::reader("a", Cursor::new(THREE.as_bytes().to_vec()));
    let b = Source::reader("b", Cursor::new(b"[{\"n\":4}]".to_vec()));
    let (recs, _) = read_sources(&[a, b], &["/n"], &opts(1)).unwrap();
    let ords: Vec<_> = recs.iter().map(|r| (r.source, r.ordinal)).collect();
    assert_eq!(ords, [(0, 0), (0, 16), (0, 32), (1, 49)]);
}

#[test]
fn numbers_convert_like_the_sdks() {
    let text = br#"{"a":18446744073709551617,"b":-0,"c":-0.0,"d":-18446744073709551617,"e":9007199254740993,"f":1e-400,"g":-9223372036854775808}"#;
    let (recs, _) = read_text(
        "n.ndjson",
        text,
        &["/a", "/b", "/c", "/d", "/e", "/f", "/g"],
        &opts(1),
    )
    .unwrap();
    let n: Vec<f64> = recs[0]
        .fields
        .iter()
        .map(|f| match f {
            Val::Scalar(PkValue::Number(n)) => *n,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(n[0], 18446744073709551617f64);
    assert_eq!(n[1].to_bits(), 0f64.to_bits());
    assert_eq!(n[2].to_bits(), (-0f64).to_bits());
    assert_eq!(n[3], -18446744073709551617f64);
    assert_eq!(n[4], 9007199254740992.0);
    assert_eq!(n[5].to_bits(), 0f64.to_bits());
    assert_eq!(n[6], -9223372036854775808f64);
}

#[test]
fn strings_unescape_with_surrogate_pairs() {
    let text = br#"{"a":"caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n\t","my-prop":"\u20ac"}"#;
    let (recs, _) = read_text("u.ndjson", text, &["/a", "/\"my-prop\""], &opts(1)).unwrap();
    assert_eq!(recs[0].fields, [s("café 😀 \"q\" \\ / \n\t"), s("€")]);
}

#[test]
fn paths_nested_quoted_containers_and_through_scalars() {
    let text = br#"{"t":{"u":{"v":"deep"}},"o":{},"arr":[1],"x":"scalar","odd key":{"in":true}}"#;
    let ps = [
        "/t/u/v",
        "/o",
        "/arr",
        "/x/y",
        "/\"odd key\"/in",
        "/nope/deeper",
        "/t/u",
    ];
    let (recs, _) = read_text("p.ndjson", text, &ps, &opts(1)).unwrap();
    assert_eq!(
        recs[0].fields,
        [
            s("deep"),
            Val::Object,
            Val::Array,
            Val::Missing,
            Val::Scalar(PkValue::Bool(true)),
            Val::Missing,
            Val::Object
        ]
    );
}

/// Each bad input gives this exact message (position included), on one thread or two.
#[test]
fn errors_name_file_line_column_and_expectation() {
    let o = ReadOptions::default();
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "events.ndjson",
            b"{\"a\":1}\n{\"a\":2}\n{\"a\":1,\"b\":",
            "events.ndjson:3:12: expected a value, found the end of the line (NDJSON: one whole document a line)",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n\n{\"a\":1 \"b\":2}\n",
            "events.ndjson:3:8: expected ',' or '}' after an object member, found a string",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n{\"a\":\"\\x\"}\n",
            "events.ndjson:2:7: invalid escape in a string: '\\' followed by 'x' (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n{\"a\":\"\xff\"}\n",
            "events.ndjson:2:7: invalid UTF-8 (byte 0xFF)",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n42\n",
            "events.ndjson:2:1: expected a JSON object (a document), found a number",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n  [{\"a\":1}]\n",
            "events.ndjson:2:3: expected a JSON object (a document), found an array",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n{\"a\":1}{\"a\":2}\n",
            "events.ndjson:2:8: expected the end of the document, found '{'",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n{\"a\":\"\\ud800\"}\n",
            "events.ndjson:2:7: invalid \\uD800 escape: a high surrogate must be followed by a low surrogate escape (\\uDC00 to \\uDFFF)",
        ),
        (
            "events.ndjson",
            b"{\"a\":1}\n{\"a\":1e400}\n",
            "events.ndjson:2:6: number out of range (beyond \u{b1}1.7976931348623157e308)",
        ),
        (
            "data.json",
            b"{\"a\":1}\n[{\"a\":1}]\n",
            "data.json:2:1: expected a JSON object (a document), found an array",
        ),
        (
            "data.json",
            b"[\n {\"a\":1},\n {\"a\":2}\n {\"a\":3}\n]",
            "data.json:4:2: expected ',' or ']' after a document in the array, found '{'",
        ),
        (
            "data.json",
            b"[\n {\"a\":1},\n {\"a\": [1,\n 2}\n]",
            "data.json:4:3: expected ',' or ']' after an array element, found '}'",
        ),
        (
            "data.json",
            b"{\n  \"a\": 1,\n  \"b\": tru\n}\n",
            "data.json:3:8: invalid literal: expected true",
        ),
        (
            "data.json",
            b"{\n  \"a\": 1,\n  \"b\": {\n",
            "data.json:3:9: expected a property name (a string) or '}', found the end of the input",
        ),
        (
            "data.json",
            b"[{\"a\":1},",
            "data.json:1:10: expected a document, found the end of the input (the array that starts at line 1, column 1 is not closed)",
        ),
        (
            "data.json",
            b"{\"a\":1}\n[1, 2]",
            "data.json:2:1: expected a JSON object (a document), found an array",
        ),
    ];
    for (name, text, want) in cases {
        assert_eq!(
            &error_of(name, text, &o),
            want,
            "{}",
            String::from_utf8_lossy(text)
        );
    }
}

#[test]
fn caps_on_depth_and_size() {
    let deep = format!(
        "{{\"a\":1}}\n{{\"a\":{}1{}}}\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    assert_eq!(
        error_of("d.ndjson", deep.as_bytes(), &ReadOptions::default()),
        "d.ndjson:2:133: document nests deeper than 128 levels (--max-depth)"
    );
    let small = ReadOptions {
        max_document_bytes: 64,
        ..ReadOptions::default()
    };
    let long = format!("{{\"a\":1}}\n{{\"a\":\"{}\"}}\n", "x".repeat(100));
    assert_eq!(
        error_of("l.ndjson", long.as_bytes(), &small),
        "l.ndjson:2:1: document exceeds the 64 bytes limit (--max-document-size)"
    );
    let pretty = format!("{{\n\"a\":1}}\n{{\n\"a\":\"{}\"}}\n", "x".repeat(100));
    assert_eq!(
        error_of("l.json", pretty.as_bytes(), &small),
        "l.json:3:1: document exceeds the 64 bytes limit (--max-document-size)"
    );
}

/// A line past the cap is dropped without being held, up to its end, across many chunks.
#[test]
fn over_long_line_is_skipped_in_a_stream() {
    let mut text = Vec::new();
    text.extend_from_slice(b"{\"a\":1}\n{\"a\":\"");
    text.extend(std::iter::repeat_n(b'x', 20 << 20));
    text.extend_from_slice(b"\"}\n{\"a\":3}\n");
    let skip = ReadOptions {
        skip_invalid: true,
        ..ReadOptions::default()
    };
    for threads in [1, 2] {
        let o = ReadOptions {
            threads,
            ..skip.clone()
        };
        let (recs, sum) = read_text("big.ndjson", &text, &["/a"], &o).unwrap();
        assert_eq!(recs.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(sum.invalid, 1);
        assert_eq!(
            sum.first_invalid.as_deref(),
            Some("big.ndjson:2:1: document exceeds the 16 MiB limit (--max-document-size)")
        );
    }
    // Under the cap, a line longer than a chunk is read whole.
    let mut ok = b"{\"a\":\"".to_vec();
    ok.extend(std::iter::repeat_n(b'y', 10 << 20));
    ok.extend_from_slice(b"\"}\n{\"a\":2}\n");
    let (recs, _) = read_text("ok.ndjson", &ok, &["/a"], &opts(2)).unwrap();
    assert_eq!(recs[0].bytes, (10 << 20) + 8);
    assert_eq!(recs[1].fields, [num(2.0)]);
}

#[test]
fn empty_input_and_sources_that_cannot_be_read() {
    let o = ReadOptions::default();
    for text in [&b""[..], b"\n\n  \r\n", b"\xEF\xBB\xBF", b"[]", b"[\n]\n"] {
        let e = read_text("empty.json", text, &["/a"], &o).unwrap_err();
        assert_eq!(e.to_string(), "no documents in empty.json");
    }
    let e = read_sources(&[Source::file("/nonexistent/x.ndjson")], &["/a"], &o).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("cannot open /nonexistent/x.ndjson: "),
        "{e}"
    );
    // A missing file fails before anything is read.
    struct Never;
    impl Progress for Never {
        fn advance(&self, _: u64, _: u64) {
            panic!("read before failing");
        }
    }
    let both = [
        Source::reader("first", Cursor::new(THREE.as_bytes().to_vec())),
        Source::file("/nonexistent/y.ndjson"),
    ];
    let e = input::read(&both, &paths(&["/a"]), &o, &Collect::default, &Never).unwrap_err();
    assert!(matches!(e, InputError::Open { .. }), "{e}");
    let two = [Source::stdin(), Source::stdin()];
    assert!(matches!(
        read_sources(&two, &["/a"], &o),
        Err(InputError::StdinTwice)
    ));
}

#[test]
fn corrupt_and_truncated_compression() {
    let mut bad = gzip(THREE.as_bytes());
    let n = bad.len();
    bad[n / 2] ^= 0xff;
    bad[n / 2 + 1] ^= 0xff;
    let e = error_of("e.ndjson.gz", &bad, &ReadOptions::default());
    assert!(e.starts_with("e.ndjson.gz: corrupt gzip data: "), "{e}");
    let full = gzip(THREE.repeat(1000).as_bytes());
    let e = error_of("t.gz", &full[..full.len() / 2], &ReadOptions::default());
    assert!(e.starts_with("t.gz: truncated gzip data"), "{e}");
    let z = zstd::encode_all(THREE.repeat(1000).as_bytes(), 3).unwrap();
    let e = error_of("t.zst", &z[..z.len() / 2], &ReadOptions::default());
    assert!(e.starts_with("t.zst: ") && e.contains("zstd"), "{e}");
    let header = [0x1f, 0x8b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 1, 2, 3];
    let e = error_of("h.gz", &header, &ReadOptions::default());
    assert!(e.starts_with("h.gz: corrupt gzip data: "), "{e}");
}

#[test]
fn skip_invalid_counts_and_keeps_going() {
    let skip = ReadOptions {
        skip_invalid: true,
        ..ReadOptions::default()
    };
    let text = b"{\"a\":1}\n{\"a\":\n42\n{\"a\":4}\n[1]\n{\"a\":\"\\q\"}\n{\"a\":7}\n";
    for threads in [1, 2] {
        let o = ReadOptions {
            threads,
            ..skip.clone()
        };
        let (recs, sum) = read_text("s.ndjson", text, &["/a"], &o).unwrap();
        assert_eq!(recs.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 4, 7]);
        assert_eq!(sum.invalid, 4);
        // Only the three documents read count in the bytes, not the four skipped.
        assert_eq!(sum.bytes, 3 * 7);
        assert_eq!(
            sum.first_invalid.as_deref(),
            Some(
                "s.ndjson:2:6: expected a value, found the end of the line (NDJSON: one whole document a line)"
            )
        );
    }
    let e = read_text("bad.ndjson", b"1\n2\n", &["/a"], &skip).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no valid documents in bad.ndjson: 2 invalid, the first: bad.ndjson:1:1: expected a JSON object (a document), found a number"
    );
}

#[test]
fn skip_invalid_in_concatenated_documents_resynchronises_at_column_one() {
    let skip = ReadOptions {
        skip_invalid: true,
        ..ReadOptions::default()
    };
    let text = "{\n  \"a\": 1\n}\n{\n  \"a\": [2,\n{\n  \"a\": 3\n}\n{\"a\": \"x\\q\"}\n{\"a\":5}";
    let (recs, sum) = read_text("c.json", text.as_bytes(), &["/a"], &skip).unwrap();
    let got: Vec<_> = recs.iter().map(|r| (r.line, r.fields[0].clone())).collect();
    assert_eq!(got, [(1, num(1.0)), (6, num(3.0)), (10, num(5.0))]);
    assert_eq!(sum.invalid, 2);
    assert_eq!(
        sum.first_invalid.as_deref(),
        Some("c.json:5:11: expected a value, found a line that starts a new document")
    );
}

#[test]
fn skip_invalid_in_arrays_stops_when_framing_is_lost() {
    let skip = ReadOptions {
        skip_invalid: true,
        ..ReadOptions::default()
    };
    // Brackets balance: the bad element is skipped.
    let text = b"[{\"a\":1}, {\"a\" 2}, 42, {\"a\":3}]";
    let (recs, sum) = read_text("a.json", text, &["/a"], &skip).unwrap();
    assert_eq!(recs.len(), 2);
    assert_eq!(sum.invalid, 2);
    // They do not: stop, saying why.
    let text = b"[\n{\"a\":1},\n{\"a\":[2},\n{\"a\":3}\n]";
    let e = read_text("a.json", text, &["/a"], &skip).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a.json:3:8: expected ',' or ']' after an array element, found '}'; cannot resynchronise inside a JSON array after this, so --skip-invalid stops here"
    );
    let text = b"[{\"a\":1} {\"a\":2}]";
    let e = read_text("a.json", text, &["/a"], &skip).unwrap_err();
    assert!(matches!(e, InputError::Unrecoverable { .. }), "{e}");
}

/// Deterministic nested documents, a few MiB of them, in chunks enough for both workers.
fn corpus(docs: usize, array: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if array {
        out.extend_from_slice(b"[\n");
    }
    for i in 0..docs {
        if array && i > 0 {
            out.extend_from_slice(b",\n");
        }
        let doc = format!(
            "{{\"id\":\"{i}\",\"tenant\":\"t{}\",\"user\":{{\"id\":{},\"name\":\"n\\u00e9{}\"}},\"v\":{:.2},\"tags\":[\"a\",\"b\"],\"pad\":\"{}\"}}",
            i % 97,
            i % 1013,
            i % 7,
            i as f64 * 0.25,
            "p".repeat(i % 300)
        );
        out.extend_from_slice(doc.as_bytes());
        if !array {
            out.push(b'\n');
        }
    }
    if array {
        out.extend_from_slice(b"\n]\n");
    }
    out
}

#[test]
fn one_thread_and_two_give_identical_documents() {
    let ps = [
        "/id",
        "/tenant",
        "/user/id",
        "/user/name",
        "/v",
        "/tags",
        "/missing",
    ];
    for array in [false, true] {
        let text = corpus(40_000, array);
        assert!(text.len() > 2 * (4 << 20));
        let (one, s1) = read_text("big", &text, &ps, &opts(1)).unwrap();
        let (two, s2) = read_text("big", &text, &ps, &opts(2)).unwrap();
        let (three, _) = read_text("big", &text, &ps, &opts(3)).unwrap();
        assert_eq!(one.len(), 40_000);
        assert_eq!(s1, s2);
        assert!(one == two && two == three);
        assert!(one.windows(2).all(|w| w[0].ordinal < w[1].ordinal));
        assert_eq!(one[123].fields[0], s("123"));
        assert_eq!(one[123].fields[3], s("n\u{e9}4"));
    }
}

/// With errors in several chunks, the earliest is reported whichever thread finds it first.
#[test]
fn the_earliest_error_wins_across_threads() {
    let mut text = corpus(30_000, false);
    let late = text.len() - 100;
    text[late] = 1;
    let lines_before = |at: usize| text[..at].iter().filter(|&&c| c == b'\n').count() + 1;
    let early = text.len() / 2;
    let early = early + text[early..].iter().position(|&c| c == b'\n').unwrap() + 3;
    let early_line = lines_before(early);
    text[early] = 1;
    for threads in [1, 2, 3] {
        let e = read_text("x.ndjson", &text, &["/id"], &opts(threads)).unwrap_err();
        let at = e.position().unwrap();
        assert_eq!((at.line, at.column), (early_line as u64, 3), "{e}");
    }
}

#[test]
fn progress_counts_raw_bytes_and_documents() {
    struct Count(Mutex<(u64, u64)>);
    impl Progress for Count {
        fn advance(&self, bytes: u64, documents: u64) {
            let mut g = self.0.lock().unwrap();
            g.0 += bytes;
            g.1 += documents;
        }
    }
    let text = corpus(20_000, false);
    let packed = gzip(&text);
    for threads in [1, 2] {
        let p = Count(Mutex::new((0, 0)));
        let src = Source::reader("g", Cursor::new(packed.clone()));
        let o = opts(threads);
        input::read(&[src], &paths(&["/id"]), &o, &Collect::default, &p).unwrap();
        assert_eq!(*p.0.lock().unwrap(), (packed.len() as u64, 20_000));
    }
}

/// The outcome of reading `text`, as a comparable string.
fn outcome(text: &[u8], o: &ReadOptions) -> String {
    match read_text("t.json", text, &["/a", "/b/c"], o) {
        Ok((recs, sum)) => format!("{recs:?} {sum:?}"),
        Err(e) => format!("error: {e}"),
    }
}

/// Chunk size and thread count change nothing: not the documents, not their positions,
/// not the error, not what is skipped.
#[test]
fn chunk_size_and_threads_change_nothing() {
    let texts: &[&[u8]] = &[
        THREE.as_bytes(),
        b"\xEF\xBB\xBF{\"a\":1}\r\n\r\n{\"a\":\"\\u00e9\",\"b\":{\"c\":[1]}}\r\n  \n{\"a\":3}",
        b"[\n {\"a\":1},\n {\"a\":2, \"b\": {\"c\": \"}\\\"\"}}\n]\n[{\"a\":4}]",
        b"{\n \"a\": 1\n}\n{\"a\": [2,\n{\n \"a\": 3\n}\n{\"a\":\"\\q\"} 42 {\"a\":5}",
        b"{\"a\":1}\n{\"a\":\n42\n{\"a\":4}\n[1]\n{\"a\":\"\\q\"}\n{\"a\":7}\n",
        b"{\"a\":1}\n{\"a\":\"0123456789012345678901234567890123456789\"}\n   {\"a\":3}   \n",
        b"{\n\"a\":1}\n{\"a\":\"0123456789012345678901234567890123456789\"}\n{\"a\":3}",
        b"[{\"a\":1}, {\"a\" 2}, 42, {\"a\":3}]",
        b"[{\"a\":1}, {\"a\":[2}, {\"a\":3}]",
        b"[{\"a\":1} {\"a\":2}]",
        b"[{\"a\":1},",
        b"{\"a\":1}{\"a\":2}",
        // Found by fuzzing: a character split by the chunk end, where the array needs a ','.
        b"[{\"a\":1}\n\xEF\xBB\xBF]",
        b"",
        b"  \n\n",
    ];
    for (k, text) in texts.iter().enumerate() {
        for skip_invalid in [false, true] {
            let base = ReadOptions {
                skip_invalid,
                max_document_bytes: 32,
                threads: 1,
                ..ReadOptions::default()
            };
            let want = outcome(text, &base);
            let configs = [(1, 1), (2, 1), (3, 1), (7, 1), (64, 1), (3, 2), (64, 2)];
            for (chunk_bytes, threads) in configs {
                let o = ReadOptions {
                    chunk_bytes,
                    threads,
                    ..base.clone()
                };
                assert_eq!(outcome(text, &o), want, "text {k}, {o:?}");
            }
        }
    }
}

#[test]
fn positions_past_a_16_mib_line_are_exact() {
    let dir = crate::util::scratch("long_line_positions");
    let pad = "a".repeat(17 << 20);
    // An error 17 MiB into a line (the cap raised), and an error on the line after a
    // 17 MiB line the cap drops.
    let within = format!("{{\"id\":\"{pad}\", oops}}\n");
    let after = format!("{{\"id\":\"{pad}\"}}\n{{\"id\": oops}}\n");
    let within = crate::util::write(&dir, "within.ndjson", &within);
    let after = crate::util::write(&dir, "after.ndjson", &after);
    let column = 8 + (17 << 20) + 3;
    crate::util::pkadvisor()
        .args([
            "analyze",
            &within,
            "--key",
            "/id",
            "-q",
            "--max-document-size",
            "32MB",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(format!(
            "within.ndjson:1:{column}:"
        )));
    crate::util::pkadvisor()
        .args(["analyze", &after, "--key", "/id", "-q", "--skip-invalid"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "after.ndjson:1:1: document exceeds the 16 MiB limit",
        ));
    let out = crate::util::pkadvisor()
        .args(["analyze", &after, "--key", "/id", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("after.ndjson:1:1:"));
}
