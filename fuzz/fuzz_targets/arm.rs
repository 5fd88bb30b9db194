//! Fuzzes the ARM reader (`check --container template.json`): any UTF-8 text is read as a
//! template (or a resource, or Terraform JSON), with and without ARM parameters of the same
//! text. Expressions nested deep, copy loops and forged parameters end in containers or an
//! error naming the file, never a panic or a stack overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pkadvisor::iac::{read_file, spec_of};
use pkadvisor::key::KeySpec;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for parameters in [None, Some(("parameters.json", text))] {
        match read_file("template.json", text, parameters) {
            Ok(found) => {
                for d in &found {
                    if let Ok(def) = &d.definition
                        && let Ok(spec) = spec_of(def)
                    {
                        let again = KeySpec::parse(&spec.to_string()).expect("a spec read back");
                        assert_eq!(again.to_string(), spec.to_string());
                    }
                }
            }
            Err(e) => assert!(
                e.to_string().contains("template.json")
                    || e.to_string().contains("parameters.json"),
                "{e}"
            ),
        }
    }
});
