//! `pkadvisor analyze`: rank candidate keys over sample documents and a query log.

use anyhow::Result;

use pkadvisor::report::{self, View};
use pkadvisor::run::analyze::{self, Analysis};

use super::{Exit, request, write_report};
use crate::cli::AnalyzeArgs;

/// Reads the inputs and writes the ranking (or one candidate's partition map).
pub fn run(args: AnalyzeArgs) -> Result<Exit> {
    let c = &args.common;
    let mut inputs = c.inputs();
    inputs.extend(args.profiles.iter().map(String::as_str));
    super::refuse_overwriting(c.output.as_deref(), &inputs, &[])?;
    let (analysis, format) = analyze::analyze(&args, &mut request::Terminal::new(c))?;
    let style = request::style(c);
    write_report(c.output.as_deref(), |out| match &analysis {
        Analysis::Ranking(r) => report::render(View::Ranking(r), format, style, out),
        Analysis::Map(m) => report::render(View::Map(m), format, style, out),
    })?;
    Ok(Exit::Ok)
}
