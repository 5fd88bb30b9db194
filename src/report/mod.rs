//! Reports: one model, computed once, and one renderer per output format. Renderers hold
//! every presentation concern (widths, colours, rounding, sentences built from figures);
//! the model holds what the run found: figures, findings with their messages, labels, and
//! the types it owns (it imports nothing from the stages that fill it).
//!
//! A command hands [`render`] a [`View`] (what to show: the ranking, a partition map or
//! check's verdict), a [`Format`] and a [`Style`] (the terminal decisions it made). Each
//! format is one file, `table.rs`, `markdown.rs`, `json.rs` or `html.rs`, with a `render`
//! that writes every view; what more than one of them writes (numbers, the target line, the verdict's
//! sentences) is in `text.rs`, and the ranking's columns in `columns.rs`.
//!
//! Adding a format touches exactly: one new file in `report/` whose `render` writes every
//! [`View`]; its variant in [`Format`] and its arm in [`render`]'s match; and the
//! `--format` flag, a variant of `FormatArg` (`flags.rs`) and its arm in
//! `run::request::format` (`run/request.rs`) mapping it to the [`Format`]. No command's code
//! changes. (Adding a view, the other way round, is an arm in every format's `render`.)

pub mod columns;
pub mod decision;
pub mod growth;
pub mod html;
pub mod json;
pub mod markdown;
pub mod migration;
pub mod model;
pub mod plan;
pub mod remedy;
pub mod table;
pub mod text;

#[cfg(test)]
mod snapshot_tests;

use std::io::{self, Write};

pub use model::{ExplainReport, Report};

/// What to render.
#[derive(Clone, Copy, Debug)]
pub enum View<'a> {
    /// `analyze`: the candidates ranked, and the recommendation.
    Ranking(&'a Report),
    /// `analyze --explain`: one candidate's partition map.
    Map(&'a ExplainReport),
    /// `check`: the verdict on the declared design (a report with its `check` block).
    Verdict(&'a Report),
    /// `migrate`: the plan for a change of key.
    Migration(&'a migration::MigrationReport),
}

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
    /// One self-contained HTML page with charts, for a design review.
    Html,
}

impl Format {
    /// Whether it draws each candidate's partitions, so the report must carry them
    /// ([`model::CandidateReport::partitions`]).
    pub fn charts(self) -> bool {
        self == Format::Html
    }

    /// Whether it shows a partition map's growth month by month
    /// ([`model::ExplainReport::growth`]): the text formats do.
    pub fn growth(self) -> bool {
        matches!(self, Format::Table | Format::WideTable | Format::Markdown)
    }
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

/// Writes `view` in `format`, tables in `style`.
pub fn render(view: View, format: Format, style: Style, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Table => table::render(view, style.width, false, style.colour, out),
        Format::WideTable => table::render(view, style.width, true, style.colour, out),
        Format::Json => json::render(view, out),
        Format::Markdown => markdown::render(view, out),
        Format::Html => html::render(view, out),
    }
}
