//! Fuzzes `--explain-value`: any UTF-8 text is a value of 1 to 3 levels or an error that
//! quotes it; text that opens as JSON is never taken as a plain string unless it is a JSON
//! string.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pkadvisor::run::analyze::asked_value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match asked_value(text) {
        Ok(v) => {
            assert!((1..=3).contains(&v.levels.len()), "{text:?}");
            let t = text.trim();
            if t.starts_with(['[', '{', '"']) {
                serde_json::from_str::<serde_json::Value>(t)
                    .expect("JSON-looking text that is JSON");
            }
        }
        Err(e) => assert!(e.to_string().contains("--explain-value"), "{e}"),
    }
});
