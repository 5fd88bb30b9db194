//! What the sample and the log are: the two facts every size and rate at the target is
//! read through (see GUIDE.md, "How sizes are projected").
//!
//! **The sample** is either a *snapshot* (a uniform share of the container's documents: a
//! value seen in `r` of them stands for about `r* / q` of the container's, `q` the share,
//! and values seen once stand for many values never seen) or *complete values* (every
//! document of the values it holds: a pilot, one tenant's export; the real container has
//! more such values, not larger ones). **The log** holds either a share of the requests
//! (`--log-share`: each line stands for `1 / share` lines of the same values) or every
//! request of a share of the values (each value's rate is exact; the target has
//! `1 / share` as many values).
//!
//! Flags say which; without them the kinds are inferred by stated tests, in turn:
//! 1. **The sample's own traffic.** With `--time-path`, a log below all the traffic
//!    (`--log-share` under 1) whose creates, as logged, write between 1/3 and 3 times the
//!    sample's bytes over the sample's span of arrivals was written by the very traffic
//!    that wrote the sample: complete values, and a log of every request of that share of
//!    the values (a pilot logged whole, standing for a rollout).
//! 2. **Values never seen.** A snapshot leaves unseen about the share Good–Turing
//!    predicts (its documents whose value it saw once), and the log's creates go to values
//!    it never saw about that often; a sample of some values only (a pilot of tenants,
//!    devices, sellers) meets a log whose creates go to values it never saw far more often.
//!    On the candidate where the log's share exceeds Good–Turing's most, [`UNSEEN_GAP`] or
//!    more: complete values and a log of a share of the requests; less: a snapshot.
//!
//! 3. **Requests kept together.** A log of a share `s` of the requests keeps an item's
//!    create and its other requests each on its own: of the ids it reads or writes again,
//!    about `s` at most come with their create. A snapshot's log in which far more do (see
//!    [`kept_whole`]) keeps every request of a share of the values (a log sampled by
//!    session or by device).
//!
//! With no logged creates to compare, a snapshot, said so.

/// What the sample documents are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum SampleKind {
    /// A uniform share of the container's documents.
    #[default]
    Snapshot,
    /// Every document of the values it holds.
    Complete,
}

/// What the query log is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogKind {
    /// A share of the requests (`--log-share`).
    #[default]
    Requests,
    /// Every request of a share of the values.
    Values,
}

impl SampleKind {
    /// The name the flag and the report use.
    pub fn name(self) -> &'static str {
        match self {
            SampleKind::Snapshot => "snapshot",
            SampleKind::Complete => "complete",
        }
    }
}

impl LogKind {
    /// The name the flag and the report use.
    pub fn name(self) -> &'static str {
        match self {
            LogKind::Requests => "requests",
            LogKind::Values => "values",
        }
    }
}

/// The two kinds, and why each is what it is (for the header).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kinds {
    /// The sample's kind.
    pub sample: SampleKind,
    /// Why: a flag, or the inference's figures.
    pub sample_why: String,
    /// The log's kind.
    pub log: LogKind,
    /// Why.
    pub log_why: String,
    /// Of complete values logged whole, the key whose values the share is of (see
    /// [`Unit`]), when one is found.
    pub unit: Option<Unit>,
}

/// Of complete values and a log of every request of a share of them, the values the share
/// is of (a pilot's meters, an export's tenants): the single-path key with the most
/// distinct values among those the log writes only values of the sample's (at most
/// [`UNIT_NEW`] of its created bytes elsewhere). A key with at most half as many values
/// gathers several units in each: a utility holds many meters, a day every meter's
/// readings of the day. Such a value is to the sample what a snapshot's value is to a
/// snapshot: a uniform share of its documents (the units were picked at random), which at
/// the target gathers `1 / share` as many units, at `1 / share` its logged rate. A key with
/// more values is as fine as the unit: each value complete, its rate exact, and the target
/// has `1 / share` as many values like it.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// The key's path.
    pub path: String,
    /// Its distinct values in the sample.
    pub values: u64,
}

/// The most of its created bytes the log may write to values the sample does not hold for
/// a key to be the unit of a share of values.
pub const UNIT_NEW: f64 = 0.05;

/// Of a snapshot's log of values, the most of the sample's documents that may share their
/// key's value with another for the key to be as fine as the items the log samples.
pub const SHARED_MAX: f64 = 0.05;

impl Kinds {
    /// Whether a key gathers several of the units a log of values samples in each of its
    /// values, so that its values are sized and rated as a snapshot's are, and its logged
    /// load is a share of the requests. Of complete values, a key of `values` distinct
    /// values gathers units when it has at most half the unit's (see [`Unit`]). Of a
    /// snapshot, the log samples items (a session, a bet, with every request of theirs):
    /// a single-level key is as fine as them when at most [`SHARED_MAX`] of the sample's
    /// documents share its value with another (`shared`; a session id, a bet id), and a
    /// hierarchical one (`shared` none) gathers the items of its prefix: a market's bets
    /// land where the market lies, not at random.
    pub fn coarse(&self, values: u64, shared: Option<f64>) -> bool {
        match (self.sample, self.log) {
            (SampleKind::Complete, LogKind::Values) => {
                (self.unit.as_ref()).is_some_and(|u| values.saturating_mul(2) <= u.values)
            }
            (SampleKind::Snapshot, LogKind::Values) => shared.is_none_or(|s| s > SHARED_MAX),
            _ => false,
        }
    }
}

/// What the inference reads.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    /// The sample's bytes.
    pub sample_bytes: f64,
    /// Seconds between the sample's first and last `--time-path` arrival, when read.
    pub span: Option<f64>,
    /// The log's creates, bytes per second as logged (not scaled), when it has creates
    /// with timestamps.
    pub logged_rate: Option<f64>,
    /// `--log-share`.
    pub log_share: f64,
    /// The share of the log's created bytes whose value the sample does not hold, and the
    /// share a uniform sample leaves unseen (Good–Turing: its documents whose value it saw
    /// once), on the same path, named third (the sample's entity, or a key's path).
    pub unseen: Option<(f64, f64, String)>,
    /// The item ids the log reads or writes other than by creating them, how many of
    /// those it creates too, and the share of the requests it kept (`--log-share`, halved
    /// per level of thinning): see [`kept_whole`].
    pub together: Option<(u64, u64, f64)>,
}

/// The fewest ids created and touched again in one log that [`kept_whole`] reads.
pub const TOGETHER_MIN: u64 = 10;

/// Whether a log keeps each value's requests together (every request of a share of the
/// values) rather than each request on its own: of the `touched` ids it reads or writes
/// other than by creating them, `together` come with their create, where a log of a
/// share `kept` of the requests keeps the create with at most `kept` of them (about
/// `kept × touched`, were every one of them created while it was logged). It does when at
/// least [`TOGETHER_MIN`] do, and more than twice that bound and three of its standard
/// deviations beyond it.
pub fn kept_whole((touched, together, kept): (u64, u64, f64)) -> bool {
    let bound = kept.clamp(0.0, 1.0) * touched as f64;
    let bar = (2.0 * bound).max(bound + 3.0 * bound.sqrt());
    kept < 1.0 && together >= TOGETHER_MIN && together as f64 > bar
}

/// How many more of the log's created bytes may go to values the sample never saw than a
/// uniform share leaves unseen before the sample is taken to hold only some of the values.
pub const UNSEEN_GAP: f64 = 0.25;

/// How far from 1 a ratio of volumes may be and still say "the same traffic"; a snapshot's
/// values are written at least this many times faster than it holds them.
const SAME: f64 = 3.0;

fn same(ratio: f64) -> bool {
    ratio.is_finite() && (1.0 / SAME..=SAME).contains(&ratio)
}

/// The kinds: the flags when given, else inferred from `e` (see the module).
pub fn kinds(sample: Option<SampleKind>, log: Option<LogKind>, e: &Evidence) -> Kinds {
    let share = e.log_share.clamp(f64::MIN_POSITIVE, 1.0);
    let raw = match (e.span, e.logged_rate) {
        (Some(span), Some(rate)) if span > 0.0 && e.sample_bytes > 0.0 => {
            Some(rate * span / e.sample_bytes)
        }
        _ => None,
    };
    let (inferred, inferred_log, why) = match (raw, &e.unseen) {
        (Some(r), _) if same(r) && share < 1.0 => (
            SampleKind::Complete,
            LogKind::Values,
            format!(
                "the log's creates write {r:.2}× the sample's bytes over its span of arrivals as logged, not ÷ --log-share: it is the sample's own traffic"
            ),
        ),
        (_, Some((new, gt, path))) if new - gt >= UNSEEN_GAP => (
            SampleKind::Complete,
            LogKind::Requests,
            format!(
                "the log writes {:.0}% of its created bytes to values of {path} the sample never saw, where a uniform share would leave {:.0}% unseen",
                new * 100.0,
                gt * 100.0
            ),
        ),
        (_, Some((new, gt, path))) => (
            SampleKind::Snapshot,
            LogKind::Requests,
            format!(
                "the log writes {:.0}% of its created bytes to values of {path} the sample never saw, as a uniform share leaves {:.0}% unseen",
                new * 100.0,
                gt * 100.0
            ),
        ),
        (_, None) => (
            SampleKind::Snapshot,
            LogKind::Requests,
            missing(e).to_owned(),
        ),
    };
    let sample_why = match sample {
        Some(_) => "--sample".to_owned(),
        None => format!("inferred: {why}"),
    };
    let sample = sample.unwrap_or(inferred);
    let whole = (e.together)
        .filter(|&t| sample == SampleKind::Snapshot && kept_whole(t))
        .map(kept_together_why);
    let log_why = match (log, &whole) {
        (Some(_), _) => "--log-kind".to_owned(),
        (None, Some(whole)) => format!("inferred: {whole}"),
        _ if share >= 1.0 => "the log is all the traffic (--log-share 1)".to_owned(),
        _ if sample == SampleKind::Complete && inferred_log == LogKind::Values => {
            format!("inferred: {why}")
        }
        _ => format!("inferred: {}", log_words(sample, raw)),
    };
    let log = log.unwrap_or(match (sample, whole) {
        (SampleKind::Complete, _) => inferred_log,
        (SampleKind::Snapshot, Some(_)) => LogKind::Values,
        (SampleKind::Snapshot, None) => LogKind::Requests,
    });
    Kinds {
        sample,
        sample_why,
        log,
        log_why,
        unit: None,
    }
}

/// Why a log is of values by [`kept_whole`], with its figures.
fn kept_together_why((touched, together, kept): (u64, u64, f64)) -> String {
    format!(
        "of the {touched} items it reads or writes again, it creates {together}, where a share {kept} of the requests would have kept the create of {:.1} of them at most, so it keeps each item's requests together (a key whose values hold one item each is logged whole; a coarser one, a share of its requests)",
        kept * touched as f64
    )
}

/// What the test lacked.
fn missing(e: &Evidence) -> &'static str {
    match e.logged_rate.is_some() {
        false => "no logged creates to compare the sample with",
        true => "nothing in the log's creates says it holds only some of the values",
    }
}

fn log_words(sample: SampleKind, raw: Option<f64>) -> &'static str {
    match (sample, raw) {
        (SampleKind::Snapshot, _) => "a snapshot's log is taken as a share of the requests",
        (SampleKind::Complete, Some(_)) => {
            "the sample's values are not written at the log's own rate"
        }
        (SampleKind::Complete, None) => "nothing tells the log is of a share of the values",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_of_at_most_half_the_units_values_gathers_them() {
        // 400 meters are the unit: 3 utilities and 200 pairs of meters gather several each;
        // 201 values and the meters themselves do not.
        let mut k = Kinds {
            sample: SampleKind::Complete,
            log: LogKind::Values,
            unit: Some(Unit {
                path: "/meterId".into(),
                values: 400,
            }),
            ..Kinds::default()
        };
        let coarse: Vec<bool> = [3, 200, 201, 400].map(|v| k.coarse(v, None)).to_vec();
        assert_eq!(coarse, [true, true, false, false]);
        // A log of requests has no unit to gather.
        k.log = LogKind::Requests;
        assert!(!k.coarse(3, Some(1.0)));
        // A snapshot's log of values samples items: a key whose values 1% of the
        // documents share is as fine as them, one that 6% share (a market's bets) and a
        // hierarchical one gather them.
        k.log = LogKind::Values;
        k.sample = SampleKind::Snapshot;
        let coarse = [Some(0.01), Some(0.06), None].map(|s| k.coarse(3, s));
        assert_eq!(coarse, [false, true, true]);
    }

    fn evidence(span: f64, logged: f64, share: f64) -> Evidence {
        Evidence {
            sample_bytes: 23.6e6,
            span: Some(span),
            logged_rate: Some(logged),
            log_share: share,
            unseen: None,
            together: None,
        }
    }

    #[test]
    fn a_pilot_logged_whole_is_complete_values_and_a_log_of_values() {
        // 400 meters, 48 hours, 23.6 MB: they write 137 B/s, and the log writes 137 B/s
        // as logged: ρ = 137 × 172,800 / 23.6e6 = 1.00; the log stands for 12 million
        // meters (--log-share 400 / 12e6).
        let k = kinds(None, None, &evidence(172_800.0, 137.0, 400.0 / 12e6));
        assert_eq!((k.sample, k.log), (SampleKind::Complete, LogKind::Values));
        assert!(k.sample_why.contains("1.00×"), "{}", k.sample_why);
        assert!(k.log_why.contains("own traffic"), "{}", k.log_why);
    }

    #[test]
    fn a_pilot_of_some_tenants_is_complete_values_and_a_log_of_requests() {
        // 15 orgs of 800, every one seen thousands of times (none once: Good–Turing leaves
        // 0% unseen), a production log at 1/20 writing 98% of its bytes to other orgs.
        let e = Evidence {
            unseen: Some((0.98, 0.0, "/orgId".into())),
            span: None,
            ..evidence(0.0, 5_000.0, 0.05)
        };
        let k = kinds(None, None, &e);
        assert_eq!((k.sample, k.log), (SampleKind::Complete, LogKind::Requests));
        assert!(k.sample_why.contains("98%"), "{}", k.sample_why);
    }

    #[test]
    fn a_thin_share_of_three_years_is_a_snapshot() {
        // 13.2 MB of 3.6 TB: 99.7% of patients seen once; the log's peak writes 99% of
        // its bytes to patients the sample never saw: what its thinness predicts.
        let e = Evidence {
            sample_bytes: 13.2e6,
            span: None,
            logged_rate: Some(476.0),
            log_share: 0.005,
            unseen: Some((0.99, 0.997, "/id".into())),
            together: None,
        };
        let k = kinds(None, None, &e);
        assert_eq!((k.sample, k.log), (SampleKind::Snapshot, LogKind::Requests));
        assert!(
            k.sample_why.contains("as a uniform share"),
            "{}",
            k.sample_why
        );
        // Nothing to compare: a snapshot, said so.
        let k = kinds(
            None,
            None,
            &Evidence {
                unseen: None,
                logged_rate: None,
                ..e
            },
        );
        assert_eq!(k.sample, SampleKind::Snapshot);
        assert!(
            k.sample_why.contains("no logged creates"),
            "{}",
            k.sample_why
        );
    }

    #[test]
    fn a_snapshots_log_that_keeps_creates_with_their_reads_is_of_values() {
        // A 1% log of sessions: of 2,666 sessions read or written again, 1,103 come with
        // their create, where 1% of the requests keeps about 27 (0.01 × 2,666).
        let e = Evidence {
            together: Some((2_666, 1_103, 0.01)),
            span: None,
            ..evidence(0.0, 5_000.0, 0.01)
        };
        let k = kinds(None, None, &e);
        assert_eq!((k.sample, k.log), (SampleKind::Snapshot, LogKind::Values));
        assert!(
            k.log_why.contains("the create of 26.7 of them"),
            "{}",
            k.log_why
        );
        assert!(k.log_why.contains("one item each"), "{}", k.log_why);
        // Requests kept on their own keep at most 26.7 creates with them (were all 2,666
        // created in the log's span): the bar is twice that, 53.3, beyond 26.7 + 3 ×
        // 5.2 = 42.2.
        assert!(!kept_whole((2_666, 53, 0.01)));
        assert!(kept_whole((2_666, 54, 0.01)));
        // Of 400 at 1%, 3 standard deviations set the bar: 4 + 3 × 2 = 10, above twice 4.
        assert!(!kept_whole((400, 10, 0.01)));
        assert!(kept_whole((400, 11, 0.01)));
        // Few ids tell nothing; a complete log keeps everything together.
        assert!(!kept_whole((100, 9, 0.001)));
        assert!(!kept_whole((2_666, 1_103, 1.0)));
    }

    #[test]
    fn flags_win_over_the_inference() {
        let e = evidence(172_800.0, 137.0, 400.0 / 12e6);
        let k = kinds(Some(SampleKind::Snapshot), Some(LogKind::Requests), &e);
        assert_eq!((k.sample, k.log), (SampleKind::Snapshot, LogKind::Requests));
        assert_eq!(
            (k.sample_why.as_str(), k.log_why.as_str()),
            ("--sample", "--log-kind")
        );
    }
}
