//! Arrivals and periods: when a value's documents arrive, which values have closed (a past
//! day, a finished session), and the rate at which the period in progress fills.

use super::*;

/// The sample's arrival span and whether each value is closed.
pub(super) struct Arrivals {
    pub(super) start: i64,
    pub(super) end: i64,
    /// Whether closed values are recognised at all (`--time-path`).
    pub(super) timed: bool,
}

impl Arrivals {
    pub(super) fn of(carriers: &[Carrier<'_>], timed: bool) -> Arrivals {
        let known = carriers.iter().map(|c| c.span).filter(Span::is_known);
        let span = known.fold(Span::at(None), Span::union);
        Arrivals {
            start: span.first,
            end: span.last,
            timed: timed && span.is_known() && span.last > span.first,
        }
    }

    /// The sample's span in seconds (or positions): 0 when no arrival is known.
    pub(super) fn span(&self) -> f64 {
        match self.start <= self.end {
            true => self.end.saturating_sub(self.start) as f64,
            false => 0.0,
        }
    }

    /// A value of several documents whose last arrival is more than four of its mean gaps
    /// and 5% of the sample's span before the sample's end.
    pub(super) fn is_closed(&self, c: &Carrier<'_>) -> bool {
        self.is_closed_span(c.span, c.count)
    }

    /// The same for `count` documents arriving over `span` (a value, or a layout's
    /// collection of values).
    /// The most a value grows when items live `retention` seconds: its write rate (its
    /// sample bytes over the sample's span) times the retention, over its sample bytes;
    /// `None` without timestamps (no rate is known).
    pub(super) fn bound(&self, retention: f64) -> Option<f64> {
        let span = self.span();
        (self.timed && span > 0.0 && retention > 0.0).then(|| (retention / span).max(1.0))
    }

    pub(super) fn is_closed_span(&self, span: Span, count: u64) -> bool {
        if !self.timed || !span.is_known() || count < 2 {
            return false;
        }
        let gap = (span.last - span.first) as f64 / (count - 1) as f64;
        let quiet = (self.end - span.last) as f64;
        quiet > 4.0 * gap + 0.05 * self.span()
    }
}

/// A key's periods at the target's write rate (see the module's **Periods**): a key most of
/// whose sample bytes are in closed values.
#[derive(Clone, Copy, Debug)]
pub(super) struct Periods {
    /// The target's write rate, bytes per second.
    pub(super) rate: f64,
    /// Bytes a period receives at the target per byte it received in the sample: the
    /// target's write rate over the sample's, times the share of it that goes to the first
    /// levels the sample holds when the log measured it (see [`crate::project::newcomers`]).
    pub(super) ratio: f64,
    /// A period's length: the median of the closed values' spans, seconds (0 when none
    /// closed).
    pub(super) length: f64,
}

impl Periods {
    /// With a write rate at the target and timestamps; `sample` is the sample's bytes.
    pub(super) fn of(
        carriers: &[Carrier<'_>],
        a: &Arrivals,
        sample: f64,
        g: &Growth,
    ) -> Option<Self> {
        let rate = (g.rate).filter(|r| *r > 0.0 && r.is_finite() && a.timed && g.periodic)?;
        let known = g.known_rate;
        let span = a.span();
        let mut spans: Vec<i64> = (carriers.iter().filter(|c| c.closed))
            .map(|c| c.span.last - c.span.first)
            .collect();
        spans.sort_unstable();
        Some(Periods {
            rate,
            ratio: known * rate * span / sample.max(1.0),
            length: spans.get(spans.len() / 2).map_or(0.0, |&p| p as f64),
        })
    }

    /// The most an open value grows when it is a period in progress: the key has closed
    /// periods, and it began after the sample did (past 5% of its span) and less than one
    /// and a half periods before its end. It receives at the target what its sample
    /// rate, scaled to the target's, brings over a whole period: `ratio · length /
    /// elapsed` (a retention shorter than a period keeps `ratio · retention / elapsed`), at
    /// least 1; a retention's bound on growth does not apply to it. Infinite for any other
    /// value.
    pub(super) fn cap(&self, c: &Carrier<'_>, a: &Arrivals, retention: Option<f64>) -> f64 {
        let span = a.span();
        let in_progress = self.length > 0.0
            && !c.closed
            && c.count >= 2
            && c.span.is_known()
            && (c.span.first - a.start) as f64 > 0.05 * span
            && ((a.end - c.span.first) as f64) < 1.5 * self.length;
        match in_progress {
            true => {
                let elapsed = ((a.end - c.span.first) as f64).max(1.0);
                // Items that expire within a period leave it what they live.
                let kept = self.length.min(retention.unwrap_or(f64::INFINITY));
                (self.ratio * kept / elapsed).max(1.0)
            }
            false => f64::INFINITY,
        }
    }

    /// What a closed value (a past period) of `bytes` holds as a period at the target.
    pub(super) fn closed(&self, bytes: f64) -> f64 {
        bytes * self.ratio.max(1.0)
    }
}

/// Values that close hold at least this share of a key's sample bytes for the key to be
/// one of periods (days, sessions): a retired device or two do not make a device key one.
pub(super) const PERIODIC_SHARE: f64 = 0.5;

/// How much an open value grows by its own rate alone: at the target's write rate the
/// container took `target / rate` to fill, and a value that kept writing as it did over the
/// sample's span `T` holds that time over `T` its sample bytes (at least 1); 1 without
/// timestamps or a rate. It is a floor on the open values' growth, for keys not of periods
/// and without a retention: when the log shows new values taking nearly all new data (a
/// pilot's devices among a fleet's), the sample's values still keep writing. The bytes it
/// adds are taken from the new values', never past all of them (see [`growth()`]).
pub(super) fn own_rate(target: f64, time: &Time, a: &Arrivals) -> f64 {
    let span = a.span();
    match time.rate.filter(|r| *r > 0.0 && r.is_finite()) {
        Some(rate) if a.timed && span > 0.0 => (target / rate / span).max(1.0),
        _ => 1.0,
    }
}

/// Of the bytes that arrived in the sample's second half, the share held by values first
/// seen in that half. A value seen earlier is taken to have received its bytes evenly over
/// its span; a heavy hitter of a sampled key (first seen when admitted) counts as seen
/// earlier.
pub(super) fn temporal_new_share(
    carriers: &[Carrier<'_>],
    a: &Arrivals,
    exact: bool,
) -> Option<f64> {
    if a.start > a.end {
        return None;
    }
    let mid = a.start + a.end.saturating_sub(a.start) / 2;
    let (mut fresh, mut old) = (0.0, 0.0);
    for c in carriers.iter().filter(|c| c.span.is_known()) {
        let (first, last) = (c.span.first, c.span.last);
        let heavy = !exact && c.label.is_some();
        if first > mid && !heavy {
            fresh += c.held;
        } else if last > mid {
            let after = (last - mid.max(first)) as f64 / (last - first).max(1) as f64;
            old += c.held * after.clamp(0.0, 1.0);
        }
    }
    (fresh + old > 0.0).then(|| fresh / (fresh + old))
}
