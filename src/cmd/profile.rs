//! `pkadvisor profile`: measure candidate keys over one share of the documents and write
//! the statistics to a profile file for `analyze --profile`.

use anyhow::Result;

use pkadvisor::advisor::pipeline;
use pkadvisor::advisor::profile;
use pkadvisor::advisor::project::Target;
use pkadvisor::input::ProgressBar;

use super::{Exit, common};
use crate::cli::ProfileArgs;

/// Reads the documents and writes the profile.
pub fn run(args: ProfileArgs) -> Result<Exit> {
    let specs = common::parse_specs(&args.read.keys)?;
    let target = Target {
        storage_bytes: Target::DEFAULT_STORAGE,
        throughput: Target::DEFAULT_THROUGHPUT,
    };
    let mut request = common::read_request(&args.read, common::given(specs), target, false)?;
    request.auto = Some(args.auto as usize);
    let progress = if args.read.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::for_sources(&request.sources)
    };
    let measured = pipeline::measure(request, &progress);
    progress.finish();
    let measured = measured?;
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
