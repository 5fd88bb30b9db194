//! `pkadvisor profile`: measure candidate keys over one share of the documents and write
//! the statistics to a profile file for `analyze --profile`.

use anyhow::Result;

use pkadvisor::advisor::pipeline;
use pkadvisor::input::side::read_capped_bytes;
use pkadvisor::measure::profile;
use pkadvisor::run::request as plan;

use super::{Exit, request};
use crate::cli::ProfileArgs;

/// The most a key file may hold: 1 MiB (a key is a few dozen bytes).
const MAX_KEY_BYTES: u64 = 1 << 20;

/// The key of `--redact`'s hashes: the file's bytes, else `PKADVISOR_REDACT_KEY`, else none
/// (said on standard error: unkeyed hashes of guessable values can be confirmed).
fn redact_key(file: Option<&str>) -> Result<Vec<u8>> {
    let key = match (file, std::env::var_os("PKADVISOR_REDACT_KEY")) {
        (Some(f), _) => {
            let name = format!("--redact-key-file {f}");
            read_capped_bytes(&name, f, MAX_KEY_BYTES, "a key")?
        }
        (None, Some(v)) => v.into_encoded_bytes(),
        (None, None) => Vec::new(),
    };
    if key.is_empty() {
        super::to_stderr(
            "warning",
            "--redact without a key (PKADVISOR_REDACT_KEY or --redact-key-file): anyone can confirm a guessed value by hashing it",
        );
    }
    Ok(key)
}

/// Reads the documents and writes the profile.
pub fn run(args: ProfileArgs) -> Result<Exit> {
    let mut inputs = args.read.inputs();
    inputs.extend(args.redact_key_file.as_deref());
    super::refuse_overwriting(Some(&args.output), &inputs, &[])?;
    let specs = plan::parse_specs(&args.read.keys)?;
    let request = plan::profile_request(
        &args.read,
        plan::given(specs),
        args.auto as usize,
        args.retention.as_deref(),
    )?;
    let progress = request::progress(args.read.quiet, &request.sources);
    let measured = pipeline::measure(request, &progress);
    progress.finish();
    let mut measured = measured?;
    if args.redact {
        measured.redact(&redact_key(args.redact_key_file.as_deref())?);
    }
    profile::save(&measured, &args.output)?;
    if !args.read.quiet && args.output != "-" {
        eprintln!(
            "pkadvisor: profile of {} documents and {} candidates written to {}",
            measured.documents,
            measured.candidates.len(),
            args.output
        );
    }
    Ok(Exit::Ok)
}
