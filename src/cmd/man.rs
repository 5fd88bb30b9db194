//! `pkadvisor man`: manual pages generated from the flag definitions.

use std::io::Write;

use anyhow::{Context, Result};
use clap::CommandFactory;

use super::Exit;
use crate::cli::{Cli, ManArgs};

/// Prints the main page, or writes every page into `args.dir`.
pub fn run(args: ManArgs) -> Result<Exit> {
    let cmd = Cli::command();
    let Some(dir) = args.dir else {
        let mut out = std::io::stdout().lock();
        clap_mangen::Man::new(cmd).render(&mut out)?;
        out.flush()?;
        return Ok(Exit::Ok);
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_page(&dir, "pkadvisor", cmd.clone())?;
    for sub in cmd.get_subcommands() {
        let name = format!("pkadvisor-{}", sub.get_name());
        write_page(
            &dir,
            &name,
            sub.clone()
                .display_name(name.clone())
                .bin_name(name.clone()),
        )?;
    }
    Ok(Exit::Ok)
}

fn write_page(dir: &std::path::Path, name: &str, cmd: clap::Command) -> Result<()> {
    let path = dir.join(format!("{name}.1"));
    let mut bytes = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut bytes)?;
    std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
