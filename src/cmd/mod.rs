//! One module per subcommand, each with `run(args) -> anyhow::Result<Exit>`.

pub mod analyze;
pub mod check;
pub mod completions;
pub mod epk;
pub mod man;
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

/// Where a report goes: the file of `-o FILE`, else (or with `-`) standard output.
pub fn output(path: Option<&str>) -> anyhow::Result<Box<dyn Write>> {
    match path {
        None | Some("-") => Ok(Box::new(std::io::stdout().lock())),
        Some(p) => {
            let file = std::fs::File::create(p).with_context(|| format!("cannot write {p}"))?;
            Ok(Box::new(std::io::BufWriter::new(file)))
        }
    }
}

/// Writes a report with `write` to where [`output`] says, flushed; errors name the file.
pub fn write_report(
    path: Option<&str>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = output(path)?;
    let name = path.filter(|p| *p != "-").unwrap_or("standard output");
    write(&mut out)
        .and_then(|()| out.flush())
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
