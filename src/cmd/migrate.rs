//! `pkadvisor migrate`: plan a change of key before the copy starts.

use anyhow::Result;

use pkadvisor::report::{self, View};
use pkadvisor::run::migrate;

use super::{Exit, request, write_report};
use crate::cli::MigrateArgs;

/// Reads the inputs, writes the plan, and exits 1 when the copy would fail.
pub fn run(args: MigrateArgs) -> Result<Exit> {
    let c = &args.common;
    let mut inputs = c.inputs();
    inputs.extend(args.file.container.as_deref());
    inputs.extend(args.file.parameters.as_deref());
    let modules: Vec<&str> = args.file.container.as_deref().into_iter().collect();
    super::refuse_overwriting(c.output.as_deref(), &inputs, &modules)?;
    let planned = migrate::migrate(&args, &mut request::Terminal::new(c))?;
    let style = request::style(c);
    write_report(c.output.as_deref(), |out| {
        report::render(View::Migration(&planned.report), planned.format, style, out)
    })?;
    Ok(match planned.report.passed {
        true => Exit::Ok,
        false => Exit::CheckFailed,
    })
}
