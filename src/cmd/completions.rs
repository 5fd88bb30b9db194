//! `pkadvisor completions SHELL`: a completion script generated from the flag definitions.

use std::io::Write;

use anyhow::{Context, Result};
use clap::CommandFactory;

use super::Exit;
use crate::cli::{Cli, CompletionsArgs};

/// Prints the script for `args.shell` on standard output (a write that fails is an error:
/// the script is made in memory first, since clap_complete panics on a failed write).
pub fn run(args: CompletionsArgs) -> Result<Exit> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "pkadvisor", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)
        .and_then(|()| out.flush())
        .context("writing the completion script")?;
    Ok(Exit::Ok)
}
