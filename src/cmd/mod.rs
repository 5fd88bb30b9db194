//! One module per subcommand, each with `run(args) -> anyhow::Result<Exit>`.

pub mod analyze;
pub mod check;
pub mod completions;
pub mod epk;
pub mod man;
pub mod migrate;
pub mod profile;
pub mod request;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

/// The process exit codes, decided in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Success (`check`: the key passed).
    Ok = 0,
    /// `check` failed its gate.
    CheckFailed = 1,
    /// Usage error or unreadable input.
    Error = 2,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// Prints `pkadvisor: KIND: MESSAGE` on standard error; on a terminal, wrapped at its
/// width between words (`COLUMNS` first), later lines indented, as tables are.
pub fn to_stderr(kind: &str, message: &str) {
    use std::io::IsTerminal;
    let first = format!("pkadvisor: {kind}: ");
    if !std::io::stderr().is_terminal() {
        eprintln!("{first}{message}");
        return;
    }
    let width = (std::env::var("COLUMNS").ok().and_then(|v| v.parse().ok()))
        .or_else(|| comfy_table::Table::new().width().map(usize::from))
        .unwrap_or(pkadvisor::report::Style::PLAIN.width);
    eprintln!(
        "{}",
        pkadvisor::report::text::wrap(message, width.max(40), &first, "  ")
    );
}

/// Refuses an `-o FILE` that names one of the run's `inputs`, or a Terraform file of one
/// of the module folders `modules` it reads: the report would replace what it was read
/// from.
pub fn refuse_overwriting(
    output: Option<&str>,
    inputs: &[&str],
    modules: &[&str],
) -> anyhow::Result<()> {
    match output {
        Some(o) if pkadvisor::atomic::is_input(o, inputs, modules) => anyhow::bail!(
            "-o {o} names an input of this run: the report would replace it; write it elsewhere"
        ),
        _ => Ok(()),
    }
}

/// Writes a report with `write` to the file of `-o FILE` (whole or not at all, see
/// [`pkadvisor::atomic`]), else (or with `-`) to standard output; errors name the file.
pub fn write_report(
    path: Option<&str>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let name = path.filter(|p| *p != "-").unwrap_or("standard output");
    pkadvisor::atomic::write(path.unwrap_or("-"), write)
        .with_context(|| format!("writing the report to {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_the_documented_ones() {
        assert_eq!(Exit::Ok as u8, 0);
        assert_eq!(Exit::CheckFailed as u8, 1);
        assert_eq!(Exit::Error as u8, 2);
    }
}
