//! `pkadvisor completions SHELL`: a completion script generated from the flag definitions.

use anyhow::Result;
use clap::CommandFactory;

use super::Exit;
use crate::cli::{Cli, CompletionsArgs};

/// Prints the script for `args.shell` on standard output.
pub fn run(args: CompletionsArgs) -> Result<Exit> {
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, "pkadvisor", &mut out);
    Ok(Exit::Ok)
}
