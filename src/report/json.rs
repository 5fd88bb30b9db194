//! The JSON renderer: the report model as one pretty-printed, versioned JSON document.
//! Field order is the model's declaration order and maps are ordered, so the same input
//! gives byte-identical output.

use std::io::{self, Write};

use super::model::Report;

/// Writes the report as JSON followed by a newline.
pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::other)?;
    writeln!(out)
}
