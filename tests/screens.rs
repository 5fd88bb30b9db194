//! Screens at 80, 100 and 140 columns (`COLUMNS` sets the width when the output is not a
//! terminal): every table fits, and the ranking keeps what the key costs (RU/s, $/month).

use crate::util::pkadvisor;

const DOCS: &str = "fixtures/multitenant/docs.ndjson";
const LOG: &str = "fixtures/multitenant/queries.ndjson";
const WIDTHS: [usize; 3] = [80, 100, 140];

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

/// The lines of the tables drawn in `text` (box-drawing borders).
fn table_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with(['┌', '│', '╞', '├', '└', '╭', '╰']))
        .collect()
}

fn assert_fits(text: &str, width: usize, what: &str) {
    let lines = table_lines(text);
    assert!(!lines.is_empty(), "{what}: no table at {width}:\n{text}");
    for l in lines {
        assert!(
            l.chars().count() <= width,
            "{what} at {width}: {} columns: {l}",
            l.chars().count()
        );
    }
}

#[test]
fn the_ranking_fits_and_keeps_the_bill_at_every_width() {
    for width in WIDTHS {
        let text = screen(&["analyze", DOCS, "--queries", LOG, "-q"], width);
        assert_fits(&text, width, "analyze");
        let header = table_lines(&text)[1];
        for column in ["key", "RU/s", "$/month"] {
            assert!(header.contains(column), "{width}: {header}");
        }
        // What a narrower screen hides is said, and never the bill.
        let hidden = text.lines().find(|l| l.starts_with("Hidden at this width"));
        if let Some(h) = hidden {
            assert!(!h.contains("RU/s") && !h.contains("$/month"), "{h}");
        }
    }
}

#[test]
fn the_partition_map_and_the_verdict_at_every_width() {
    // The partition map is fitted from 100 columns up (the width the issue sets for it).
    for width in WIDTHS {
        let map = screen(
            &[
                "analyze",
                DOCS,
                "--explain",
                "/tenantId,/userId",
                "--target-storage",
                "500GB",
                "-q",
            ],
            width,
        );
        if width >= 100 {
            assert_fits(&map, width, "--explain");
        }
        let verdict = screen(
            &[
                "check",
                "--container",
                "tests/data/infra/arm-nested.json",
                DOCS,
                "--queries",
                LOG,
                "-q",
            ],
            width,
        );
        assert!(
            verdict.starts_with("FAIL  /tenantId (container events)"),
            "{verdict}"
        );
        assert!(verdict.contains("Best alternative:"), "{verdict}");
    }
}
