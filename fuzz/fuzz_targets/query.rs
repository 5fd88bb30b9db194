//! Arbitrary text through the query parser and the constraint extraction: no panic, no
//! stack overflow; errors point inside the text; what parses prints back to the same tree
//! and the same constraints.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pkadvisor::query::{Parameters, ParseErrorKind, extract, parse};

fn parameters() -> Parameters {
    let mut params = Parameters::new();
    params.insert("@p", serde_json::json!("x"));
    params.insert("@n", serde_json::json!(3));
    params.insert("@list", serde_json::json!(["a", 1, null]));
    params
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let query = match parse(text) {
        Ok(query) => query,
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1, "{e}");
            assert!(text.is_char_boundary(e.offset), "{e}");
            return;
        }
    };
    let params = parameters();
    let extraction = extract(&query, &params);
    assert_eq!(
        extraction.constraints.to_string(),
        extract(&query, &params).constraints.to_string()
    );
    let printed = query.to_string();
    match parse(&printed) {
        Ok(reparsed) => {
            assert_eq!(reparsed, query, "{printed}");
            assert_eq!(extract(&reparsed, &params), extraction);
        }
        // Printing adds parentheses, so a query near the nesting limit may pass it.
        Err(e) => assert_eq!(e.kind, ParseErrorKind::TooDeep, "{printed}: {e}"),
    }
});
