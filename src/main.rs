//! The `pkadvisor` binary: parses the command line, runs one subcommand, prints errors once.

mod cli;
mod cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Interrupted (SIGINT, SIGTERM, SIGHUP), a command leaves no half-written file behind:
    // reports and profiles are written under names of their own until complete.
    if let Err(e) = ctrlc::set_handler(|| {
        pkadvisor::atomic::remove_partials();
        std::process::exit(130);
    }) {
        cmd::to_stderr("warning", &format!("no interrupt handler ({e})"));
    }
    let cli = cli::parse();
    let result = match cli.command {
        cli::Command::Analyze(args) => cmd::analyze::run(args),
        cli::Command::Check(args) => cmd::check::run(args),
        cli::Command::Migrate(args) => cmd::migrate::run(args),
        cli::Command::Epk(args) => cmd::epk::run(args),
        cli::Command::Profile(args) => cmd::profile::run(args),
        cli::Command::Completions(args) => cmd::completions::run(args),
        cli::Command::Man(args) => cmd::man::run(args),
    };
    match result {
        Ok(code) => code.into(),
        Err(err) => {
            if is_broken_pipe(&err) {
                return cmd::Exit::Ok.into();
            }
            cmd::to_stderr("error", &format!("{err:#}"));
            cmd::Exit::Error.into()
        }
    }
}

/// A closed stdout (`pkadvisor ... | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
