//! Fuzzes the Terraform reader (`check --container main.tf`): any UTF-8 text is read as a
//! module's `.tf` file, with and without a `.tfvars` of the same text. Reading must end in
//! containers or an error naming the file, never a panic or a stack overflow; every
//! container's key that resolves turns into a spec the parser takes back.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common/iac.rs"]
mod iac;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        iac::check("main.tf", "terraform.tfvars", text);
    }
});
