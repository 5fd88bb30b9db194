//! The JSON renderer: a report model (the ranking, or `--explain`'s partition map) as one
//! pretty-printed, versioned JSON document. Field order is the model's declaration order
//! and maps are ordered, so the same input gives byte-identical output.

use std::io::{self, Write};

/// Writes a report model as JSON followed by a newline.
pub fn render(report: &impl serde::Serialize, out: &mut dyn Write) -> io::Result<()> {
    // Serialised first, so that a closed pipe surfaces as the write's own error.
    let text = serde_json::to_string_pretty(report).map_err(io::Error::other)?;
    out.write_all(text.as_bytes())?;
    writeln!(out)
}
