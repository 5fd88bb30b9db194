//! What the infrastructure readers' targets check: `text` read as `file` (with and without
//! the same text as the parameters file `parameters`) ends in containers or in an error
//! naming one of the two files, never a panic; every key that resolves reads back through
//! the key parser to the same spec.

use pkadvisor::iac::{read_file, spec_of};
use pkadvisor::key::KeySpec;

pub fn check(file: &str, parameters: &str, text: &str) {
    for given in [None, Some((parameters, text))] {
        match read_file(file, text, given) {
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
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains(file) || e.contains(parameters), "{e}");
            }
        }
    }
}
