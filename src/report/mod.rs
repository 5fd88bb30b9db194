//! Reports: one model, computed once, and one renderer per output format. Renderers hold
//! every presentation concern (widths, colours, rounding); the model holds numbers only.

pub mod columns;
pub mod explain;
pub mod json;
pub mod markdown;
pub mod model;
pub mod table;
pub mod text;
pub mod verdict;

#[cfg(test)]
mod snapshot_tests;

use std::io::{self, Write};

pub use model::Report;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A table for a terminal, its columns fitted to the width.
    Table,
    /// A table with every column, whatever the width.
    WideTable,
    /// One versioned JSON document.
    Json,
    /// Markdown for CI summaries and pull requests.
    Markdown,
}

/// How a table is shown: decided by the command from its flags, `NO_COLOR` and the
/// terminal, never inside the renderers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Colour findings by severity.
    pub colour: bool,
    /// The width to fit columns to (`Format::WideTable` keeps every column whatever it is).
    pub width: usize,
}

impl Style {
    /// No colour, [`table::DEFAULT_WIDTH`] columns: what a pipe or a file gets.
    pub const PLAIN: Style = Style {
        colour: false,
        width: table::DEFAULT_WIDTH,
    };
}

/// Writes `report` in `format`, tables in `style`.
pub fn render(
    report: &Report,
    format: Format,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Table => table::render(report, out, Some(style.width), style.colour),
        Format::WideTable => table::render(report, out, None, style.colour),
        Format::Json => json::render(report, out),
        Format::Markdown => markdown::render(report, out),
    }
}
