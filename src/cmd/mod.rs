//! One module per subcommand, each with `run(args) -> anyhow::Result<Exit>`.

pub mod analyze;
pub mod check;
pub mod completions;
pub mod epk;
pub mod man;
pub mod profile;
pub mod request;

use std::process::ExitCode;

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
