//! Arbitrary bytes as one source, read with paths picked by the first byte, once with the
//! skimming walk (the default) and once parsing every document in full. The two must agree
//! on everything: which documents are accepted, every value at the requested paths (numbers
//! to the bit), the indexed terms and the integers beyond ±2^53 of each document, and the
//! error and its place, with and without `skip_invalid`.

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use pkadvisor::engine::KeyPath;
use pkadvisor::input::{self, Document, NoProgress, ReadOptions, Sink, Source};

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

/// Path sets: top-level, nested, repeated and prefix paths, names that need quoting.
const PATHS: [&[&str]; 4] = [
    &["/a", "/b/c", "/\"x y\""],
    &["/id", "/a", "/a/b", "/a/b/c", "/_etag"],
    &["/b", "/c/d", "/c", "/e/f/g", "/n"],
    &["/a", "/a", "/b", "/s"],
];

fn outcome(text: &[u8], paths: &[KeyPath], opts: &ReadOptions) -> String {
    let src = Source::reader("fuzz", Cursor::new(text.to_vec()));
    match input::read(&[src], paths, opts, &Collect::default, &NoProgress) {
        Ok((sink, summary)) => format!("{:?} {summary:?}", sink.0),
        Err(e) => format!("error: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, text)) = data.split_first() else {
        return;
    };
    let paths: Vec<KeyPath> = PATHS[usize::from(knobs & 3)]
        .iter()
        .map(|p| KeyPath::parse(p).unwrap())
        .collect();
    let skip_invalid = knobs & 4 != 0;
    let full = ReadOptions {
        skip_invalid,
        max_depth: 3 + usize::from(knobs >> 4),
        threads: 1,
        skim: false,
        ..ReadOptions::default()
    };
    let skim = ReadOptions {
        skim: true,
        ..full.clone()
    };
    assert_eq!(outcome(text, &paths, &skim), outcome(text, &paths, &full));
});
