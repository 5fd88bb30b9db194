//! `pkadvisor check`: the CI gate for one declared partition key.

use anyhow::Result;

use pkadvisor::report::{self, View};
use pkadvisor::run::check;

use super::{Exit, request};
use crate::cli::CheckArgs;

/// Evaluates the declared design against the sample, gates it and writes the verdict.
pub fn run(args: CheckArgs) -> Result<Exit> {
    let mut inputs = args.common.inputs();
    inputs.extend(args.file.container.as_deref());
    inputs.extend(args.file.parameters.as_deref());
    let modules: Vec<&str> = args.file.container.as_deref().into_iter().collect();
    super::refuse_overwriting(args.common.output.as_deref(), &inputs, &modules)?;
    let checked = check::check(&args, &mut request::Terminal::new(&args.common))?;
    let style = request::style(&args.common);
    super::write_report(args.common.output.as_deref(), |out| {
        report::render(View::Verdict(&checked.report), checked.format, style, out)
    })?;
    Ok(match checked.passed() {
        true => Exit::Ok,
        false => Exit::CheckFailed,
    })
}
