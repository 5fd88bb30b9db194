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

/// Sizes in the report's units (MB, decimal); the time left from the last seconds' rate.
fn style(known_total: bool) -> ProgressStyle {
    let template = if known_total {
        "{spinner} reading [{wide_bar}] {decimal_bytes}/{decimal_total_bytes} · {decimal_bytes_per_sec} · ETA {recent_eta} · {msg}"
    } else {
        "{spinner} reading {decimal_bytes} · {decimal_bytes_per_sec} · {elapsed} · {msg}"
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .with_key("recent_eta", RecentEta::default())
        .progress_chars("=> ")
}

/// The time left at the rate of the last [`RECENT`]: not the mean since the start, which a
/// slow first second (opening, discovery) inflates for the whole run.
#[derive(Clone, Default)]
struct RecentEta {
    samples: std::collections::VecDeque<(std::time::Instant, u64)>,
}

/// How far back the rate is read.
const RECENT: Duration = Duration::from_secs(3);

impl RecentEta {
    /// Seconds left, once half a second of progress is known.
    fn seconds_left(&self, remaining: u64) -> Option<f64> {
        let (&(t0, p0), &(t1, p1)) = (self.samples.front()?, self.samples.back()?);
        let span = t1.duration_since(t0).as_secs_f64();
        let rate = (p1.saturating_sub(p0)) as f64 / span;
        (span >= 0.5 && rate > 0.0).then(|| remaining as f64 / rate)
    }
}

impl indicatif::style::ProgressTracker for RecentEta {
    fn clone_box(&self) -> Box<dyn indicatif::style::ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &indicatif::ProgressState, now: std::time::Instant) {
        self.samples.push_back((now, state.pos()));
        while (self.samples.front()).is_some_and(|(t, _)| now.duration_since(*t) > RECENT) {
            self.samples.pop_front();
        }
    }

    fn reset(&mut self, _: &indicatif::ProgressState, _: std::time::Instant) {
        self.samples.clear();
    }

    fn write(&self, state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
        let remaining = state.len().unwrap_or(0).saturating_sub(state.pos());
        let _ = match self.seconds_left(remaining) {
            Some(s) if s < 60.0 => write!(w, "{:.0}s", s.ceil()),
            Some(s) => write!(w, "{}m {:02.0}s", (s / 60.0).floor(), (s % 60.0).floor()),
            None => write!(w, "…"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_is_read_from_the_last_seconds() {
        let start = std::time::Instant::now();
        let mut e = RecentEta::default();
        assert_eq!(e.seconds_left(1_000), None, "nothing known yet");
        // A slow first second, then 100 bytes a second for two seconds.
        for (ms, pos) in [(0, 0), (1_000, 10), (2_000, 110), (3_000, 210)] {
            e.samples
                .push_back((start + Duration::from_millis(ms), pos));
        }
        let s = e.seconds_left(1_000).unwrap();
        assert!((s - 1_000.0 / 70.0).abs() < 1e-9, "the window's mean: {s}");
        e.samples.pop_front();
        assert!((e.seconds_left(1_000).unwrap() - 10.0).abs() < 1e-9);
    }

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
