//! The JSON renderer: one pretty-printed, versioned JSON document, the model serialised as
//! it is. The ranking and check's verdict are the report (the verdict in its `check`
//! block); `--explain`'s partition map is its own model. Field order is the model's
//! declaration order and maps are ordered, so the same input gives byte-identical output.

use std::io::{self, Write};

use super::View;

/// Writes `view`'s model as JSON followed by a newline.
pub fn render(view: View, out: &mut dyn Write) -> io::Result<()> {
    match view {
        View::Ranking(report) | View::Verdict(report) => document(report, out),
        View::Map(map) => document(map, out),
        View::Migration(plan) => document(plan, out),
    }
}

fn document(model: &impl serde::Serialize, out: &mut dyn Write) -> io::Result<()> {
    // Serialised first, so that a closed pipe surfaces as the write's own error.
    let text = serde_json::to_string_pretty(model).map_err(io::Error::other)?;
    out.write_all(text.as_bytes())?;
    writeln!(out)
}
