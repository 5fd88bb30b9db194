//! Fuzzes the `--key` parser: any UTF-8 text either fails with an error that points inside
//! the text, or parses to a spec whose canonical form parses back to the same spec and
//! prints the same. Specs that parse also build their definition and evaluate a document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pkadvisor::engine::PkValueRef;
use pkadvisor::field::Field;
use pkadvisor::key::{KeySpec, KeyValue, Scratch};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match KeySpec::parse(text) {
        Ok(spec) => check_spec(&spec),
        Err(e) => {
            assert!(text.is_char_boundary(e.offset), "{text:?}: {e}");
            let _ = e.render(text);
        }
    }
});

fn check_spec(spec: &KeySpec) {
    let printed = spec.to_string();
    let again = KeySpec::parse(&printed)
        .unwrap_or_else(|e| panic!("{printed:?} does not parse back: {}", e.render(&printed)));
    assert_eq!(&again, spec, "{printed:?}");
    assert_eq!(again.to_string(), printed);
    let _ = spec.definition().to_json();
    let mut scratch = Scratch::default();
    let fields: Vec<Field> = (0..spec.inputs().len())
        .map(|i| Field::Scalar(PkValueRef::Number(i as f64 * 1.5)))
        .collect();
    let value = spec.evaluate(&fields, 1, 2, &mut scratch);
    assert!(matches!(value, KeyValue::Components(c) if c.as_slice().len() == spec.levels().len()));
}
