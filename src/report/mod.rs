//! Reports: one model, computed once, and one renderer per output format. Renderers hold
//! every presentation concern (widths, colours, rounding); the model holds numbers only.

pub mod columns;
pub mod explain;
pub mod json;
pub mod markdown;
pub mod model;
pub mod table;
pub mod verdict;

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

/// Writes `report` in `format`.
pub fn render(report: &Report, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Table => table::render(report, out, false),
        Format::WideTable => table::render(report, out, true),
        Format::Json => json::render(report, out),
        Format::Markdown => markdown::render(report, out),
    }
}
