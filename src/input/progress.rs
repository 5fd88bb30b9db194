//! A progress bar on standard error while reading: bytes read, documents, rate, and when
//! the total is known (the sources are all files: the sum of their sizes on disk, compressed
//! size for compressed files, matching the raw bytes counted) a bar with percentage and ETA.
//! Whether it draws is the command's decision (`--quiet`, standard error a terminal); it is
//! updated once per chunk.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{HumanCount, ProgressDrawTarget, ProgressStyle};

use super::Progress;
use super::source::Source;

/// Reading progress on standard error.
pub struct ProgressBar {
    bar: indicatif::ProgressBar,
    documents: AtomicU64,
}

impl ProgressBar {
    /// A bar for `total` raw bytes (a spinner when unknown), drawn on standard error when it
    /// is a terminal.
    pub fn new(total: Option<u64>) -> Self {
        Self::with_target(total, ProgressDrawTarget::stderr())
    }

    /// A bar sized for `sources`: known when all are files.
    pub fn for_sources(sources: &[Source]) -> Self {
        let total = if sources.is_empty() {
            None
        } else {
            sources.iter().map(Source::size).sum()
        };
        Self::new(total)
    }

    /// A bar that never draws (`--quiet`).
    pub fn hidden() -> Self {
        Self::with_target(None, ProgressDrawTarget::hidden())
    }

    fn with_target(total: Option<u64>, target: ProgressDrawTarget) -> Self {
        let bar = indicatif::ProgressBar::with_draw_target(total, target);
        bar.set_style(style(total.is_some()));
        if !bar.is_hidden() {
            bar.enable_steady_tick(Duration::from_millis(150));
        }
        ProgressBar {
            bar,
            documents: AtomicU64::new(0),
        }
    }

    /// Raw bytes counted so far.
    pub fn bytes(&self) -> u64 {
        self.bar.position()
    }

    /// Documents counted so far.
    pub fn documents(&self) -> u64 {
        self.documents.load(Ordering::Relaxed)
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for ProgressBar {
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

impl Progress for ProgressBar {
    fn advance(&self, bytes: u64, documents: u64) {
        let total = self.documents.fetch_add(documents, Ordering::Relaxed) + documents;
        self.bar.inc(bytes);
        if !self.bar.is_hidden() {
            self.bar
                .set_message(format!("{} documents", HumanCount(total)));
        }
    }
}

fn style(known_total: bool) -> ProgressStyle {
    let template = if known_total {
        "{spinner} reading [{wide_bar}] {bytes}/{total_bytes} · {bytes_per_sec} · ETA {eta} · {msg}"
    } else {
        "{spinner} reading {bytes} · {bytes_per_sec} · {elapsed} · {msg}"
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bytes_and_documents_while_hidden() {
        let p = ProgressBar::hidden();
        p.advance(4096, 10);
        p.advance(100, 1);
        assert_eq!((p.bytes(), p.documents()), (4196, 11));
        p.finish();
    }

    #[test]
    fn total_is_known_only_for_files() {
        let dir = std::env::temp_dir().join(format!("pkadvisor-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.ndjson");
        std::fs::write(&f, b"{}\n").unwrap();
        let files = [Source::file(&f), Source::file(&f)];
        assert_eq!(files.iter().map(Source::size).sum::<Option<u64>>(), Some(6));
        let mixed = [Source::file(&f), Source::stdin()];
        assert_eq!(mixed.iter().map(Source::size).sum::<Option<u64>>(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
