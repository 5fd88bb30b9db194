//! Fuzzes the Terraform reader (`check --container main.tf`): any UTF-8 text is read as a
//! module's `.tf` file, with and without a `.tfvars` of the same text. Reading must end in
//! containers or an error naming the file, never a panic or a stack overflow; every
//! container's key that resolves turns into a spec the parser takes back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pkadvisor::iac::{read_file, spec_of};
use pkadvisor::key::KeySpec;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for parameters in [None, Some(("terraform.tfvars", text))] {
        match read_file("main.tf", text, parameters) {
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
                e.to_string().contains("main.tf") || e.to_string().contains("tfvars"),
                "{e}"
            ),
        }
    }
});
