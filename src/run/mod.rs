//! A run of `analyze` or `check` from its flags: every flag validated once and turned into
//! the pipeline's request and the report's options ([`request`]); `check`'s design, what
//! its infrastructure file declares beside it, and its verdict ([`check`]). The caller
//! runs the request (with its progress bar) and writes the report.

pub mod analyze;
pub mod check;
pub mod migrate;
pub mod request;

use anyhow::Result;

use crate::advisor::pipeline::{Outcome, Request};

/// What the caller of a run does: run the pipeline (with its progress bar, printing the
/// pipeline's warnings), and show a warning.
pub trait Runner {
    /// Runs the request.
    fn run(&mut self, request: Request) -> Result<Outcome>;
    /// Shows a warning about the run.
    fn warn(&mut self, message: &str);
}
