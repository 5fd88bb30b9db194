//! Arbitrary bytes as one source, read with a few paths, with and without
//! `skip_invalid`. Besides not crashing, reading must not depend on how the text is cut:
//! a tiny chunk size (documents and lines straddle chunks) and two threads give exactly
//! the documents, positions, counts and error of one thread with one big chunk.

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use pkadvisor::engine::KeyPath;
use pkadvisor::input::{self, Document, NoProgress, ReadOptions, Sink, Source};

#[derive(Default)]
struct Collect(Vec<(u64, u64, u64, String)>);

impl Sink for Collect {
    fn document(&mut self, d: &Document<'_>) {
        assert!(d.line >= 1);
        self.0
            .push((d.ordinal, d.line, d.bytes, format!("{:?}", d.fields)));
    }

    fn merge(&mut self, other: Self) {
        self.0.extend(other.0);
    }
}

fn outcome(text: &[u8], opts: &ReadOptions) -> String {
    let paths: Vec<KeyPath> = ["/a", "/b/c", "/\"x y\""]
        .iter()
        .map(|p| KeyPath::parse(p).unwrap())
        .collect();
    let src = Source::reader("fuzz", Cursor::new(text.to_vec()));
    match input::read(&[src], &paths, opts, &Collect::default, &NoProgress) {
        Ok((mut sink, summary)) => {
            assert!(summary.documents > 0);
            assert_eq!(summary.documents, sink.0.len() as u64);
            sink.0.sort();
            assert!(
                sink.0.windows(2).all(|w| w[0].0 < w[1].0),
                "ordinals unique"
            );
            format!("{:?} {summary:?}", sink.0)
        }
        Err(e) => {
            let message = e.to_string();
            // The checker must explain every document simd-json rejects.
            assert!(!message.contains("invalid JSON ("), "{message}");
            if let Some(at) = e.position() {
                assert!(at.line >= 1 && at.column >= 1, "{message}");
            }
            format!("error: {message}")
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, text)) = data.split_first() else {
        return;
    };
    for skip_invalid in [false, true] {
        let reference = ReadOptions {
            skip_invalid,
            max_document_bytes: 64 + usize::from(knobs & 0x70),
            max_depth: 4 + usize::from(knobs & 0x0f),
            threads: 1,
            ..ReadOptions::default()
        };
        let want = outcome(text, &reference);
        let chunked = ReadOptions {
            chunk_bytes: 1 + usize::from(knobs % 29),
            threads: if knobs & 0x80 != 0 { 2 } else { 1 },
            ..reference.clone()
        };
        assert_eq!(outcome(text, &chunked), want, "{chunked:?}");
    }
});
