//! Fuzzes the ARM reader (`check --container template.json`): any UTF-8 text is read as a
//! template (or a resource, or Terraform JSON), with and without ARM parameters of the same
//! text. Expressions nested deep, copy loops and forged parameters end in containers or an
//! error naming the file, never a panic or a stack overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/iac.rs"]
mod iac;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        iac::check("template.json", "parameters.json", text);
    }
});
