//! What only the binary decides: how tables are shown on this terminal, the progress bar,
//! and the warnings printed on standard error. Everything else about a request is the
//! library's ([`pkadvisor::run`]).

use anyhow::Result;

use pkadvisor::advisor::pipeline::{self, Outcome, Request};
use pkadvisor::input::{ProgressBar, Source};
use pkadvisor::report::Style;
use pkadvisor::run::Runner;
use pkadvisor::run::request::untimed;

use crate::cli::{ColorArg, CommonArgs};

/// How tables are shown: colour by `--color` (auto: a terminal without `NO_COLOR`), and the
/// width of the terminal (`COLUMNS` first) or 100 columns when not writing to one.
pub fn style(args: &CommonArgs) -> Style {
    use std::io::IsTerminal;
    let to_stdout = args.output.as_deref().is_none_or(|o| o == "-");
    let terminal = to_stdout && std::io::stdout().is_terminal();
    let colour = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => terminal && std::env::var_os("NO_COLOR").is_none(),
    };
    let probe = || {
        terminal
            .then(|| comfy_table::Table::new().width())
            .flatten()
    };
    let width = (std::env::var("COLUMNS").ok().and_then(|v| v.parse().ok()))
        .or_else(|| probe().map(usize::from))
        .unwrap_or(Style::PLAIN.width);
    Style { colour, width }
}

/// The progress bar: drawn on standard error when it is a terminal, unless `quiet`.
pub fn progress(quiet: bool, sources: &[Source]) -> ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::for_sources(sources)
    }
}

/// The runs of a terminal: a progress bar unless `--quiet`, warnings on standard error.
pub struct Terminal {
    quiet: bool,
}

impl Terminal {
    /// For the flags of `args`.
    pub fn new(args: &CommonArgs) -> Terminal {
        Terminal {
            quiet: args.read.quiet,
        }
    }
}

impl Runner for Terminal {
    /// Runs the analysis with a progress bar (see [`progress`]) and prints the pipeline's
    /// warnings, then the `--time-path` one.
    fn run(&mut self, request: Request) -> Result<Outcome> {
        let progress = progress(self.quiet, &request.sources);
        let time_path = request.time_path.clone();
        let skip_invalid = request.read.skip_invalid;
        let outcome = pipeline::run(request, &progress);
        progress.finish();
        let outcome = outcome?;
        for w in &outcome.warnings {
            self.warn(w);
        }
        if let Some(p) = time_path
            && let Some(w) = untimed(&p, &outcome, skip_invalid)?
        {
            self.warn(&w);
        }
        Ok(outcome)
    }

    fn warn(&mut self, message: &str) {
        super::to_stderr("warning", message);
    }
}
