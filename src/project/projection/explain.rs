//! One value's arithmetic, as the projection does it (`--explain-value`): what it holds in
//! the sample, what the sample and the log are to its key, its real write rate, how long it
//! stays open before the container reaches the target, what bounds it, what it comes to,
//! and the interval its count carries.

use super::*;

/// A value's projected size, step by step.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The value, as reports print it.
    pub label: String,
    /// Its sample bytes where it lies (hash-sampled values scaled), and its documents.
    pub sample_bytes: f64,
    /// Its documents in the sample.
    pub documents: u64,
    /// What the sample and the log are to this key (a key coarser than a log's unit reads
    /// them as a snapshot and a share of its requests).
    pub sample: SampleKind,
    /// The log's kind to this key.
    pub log: LogKind,
    /// Whether its writes stopped before the sample's end.
    pub closed: bool,
    /// Of a snapshot, the share of its growth its count earns (Good–Turing); 1 otherwise.
    pub credible: f64,
    /// The growth the open values share (`g`).
    pub open_growth: f64,
    /// Of complete values read from a log of requests, the lines of its creates the
    /// sample's values (a hierarchical key's first levels) wrote, and those lines net of
    /// chance, which their share of the new data is read from.
    pub held_lines: Option<(u64, f64)>,
    /// Its real write rate, bytes a second, when arrivals have times: its sample bytes
    /// over the sample's span, times the real rate over the sample's (a snapshot's).
    pub rate: Option<f64>,
    /// Seconds from the sample's size to the target at the container's write rate, when
    /// known.
    pub open_seconds: Option<f64>,
    /// The most it grows: a retention's bound or a period's cap (infinite without).
    pub bound: f64,
    /// Its growth factor, all told.
    pub growth: f64,
    /// Its projected bytes.
    pub bytes: f64,
    /// The 95% interval of its projected bytes from its count alone, `(low, high)`: a
    /// snapshot's count of `r` is Poisson, `r ± 1.96 sqrt(r)`; complete values are exact.
    pub interval: (f64, f64),
}

/// Whether `label` (as reports print it) is the value `wanted` names: the label itself,
/// or a string given without its quotes.
fn names(label: &str, wanted: &str) -> bool {
    label == wanted || serde_json::to_string(wanted).is_ok_and(|q| q == label)
}

/// The arithmetic [`project_at`] does for the value `wanted` of a key with `definition`;
/// `None` when the statistics hold no such value one by one.
pub fn explain(
    definition: &PartitionKeyDefinition,
    stats: &CandidateStats,
    target: &Target,
    time: &Time,
    wanted: &str,
) -> Option<Explained> {
    let Grown {
        carriers,
        arrivals,
        g,
        periods,
        sample,
        ..
    } = grow(stats, definition.is_v1(), target, time, |_, _| Vec::new());
    let c = carriers
        .iter()
        .find(|c| c.label.is_some_and(|l| names(l, wanted)))?;
    let bytes = projected(c, &g, periods.as_ref());
    let span = arrivals.span();
    let real = real_over_sample(time, &arrivals, sample);
    let rate = (arrivals.timed && span > 0.0).then(|| c.bytes / span * real);
    let open_seconds = (time.rate)
        .filter(|r| *r > 0.0 && r.is_finite())
        .map(|r| ((target.storage_bytes as f64 - sample) / r).max(0.0));
    let interval = interval(bytes, c.count, time.sample);
    Some(Explained {
        label: c.label.unwrap_or_default().to_owned(),
        sample_bytes: c.bytes,
        documents: c.count,
        sample: time.sample,
        log: time.log,
        closed: c.closed,
        credible: c.credible,
        open_growth: g.open,
        held_lines: held_lines(time, hierarchical_of(definition), g.from),
        rate,
        open_seconds,
        bound: if c.cap.is_finite() { c.cap } else { g.bound },
        growth: if c.bytes > 0.0 { bytes / c.bytes } else { 1.0 },
        bytes,
        interval,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_string_is_named_with_or_without_its_quotes() {
        assert!(super::names("\"northgrid\"", "northgrid"));
        assert!(super::names("\"northgrid\"", "\"northgrid\""));
        assert!(!super::names("\"northgrid\"", "north"));
        assert!(super::names("42", "42"));
    }
}
