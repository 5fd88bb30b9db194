//! The whole analysis, from sources to evaluated candidates: read the query log, stream
//! the documents into per-candidate statistics, then project and replay each candidate.

use std::sync::Arc;

use std::io::Read;

use super::evaluate::{Context, Evaluation, Measured, evaluate};
use crate::engine::KeyPath;
use crate::input::{self, Progress, ReadOptions, Source};
use crate::log::read::{Observed, operations_within};
use crate::log::{Log, read_any};
use crate::measure::auto::Inputs;
pub use crate::measure::candidate::Candidate;
use crate::measure::discover::Discovery;
use crate::measure::profile::Profile;
use crate::measure::sink::{MeasureSink, Plan, Ttl};
use crate::project::kinds::{Evidence, Kinds, LogKind, SampleKind, UNIT_NEW};
use crate::project::target::Target;
use crate::report::model::{InputSummary, MonitorReport, ObservedPartitionReport};
use crate::stats::CandidateStats;
use crate::stats::novelty::Novelty;

/// Where the query log comes from. It may be read twice (once to generate candidates),
/// so standard input is then spooled, as it arrives (compressed or not), to a temporary
/// file first: memory stays bounded whatever it holds.
#[derive(Clone, Debug)]
pub enum LogInput {
    /// A file (`.gz` and `.zst` are decompressed).
    File(std::path::PathBuf),
    /// Standard input.
    Stdin,
    /// Text already read.
    Bytes {
        /// Its name in messages.
        name: String,
        /// The (decompressed) text.
        bytes: Arc<[u8]>,
    },
    /// Standard input spooled to a temporary file (removed when the last clone is dropped).
    Spooled(Arc<Spool>),
}

/// A temporary file holding what standard input gave; removed on drop.
#[derive(Debug)]
pub struct Spool {
    path: std::path::PathBuf,
}

impl Spool {
    /// Copies standard input to a new file in the temporary directory.
    fn of_stdin() -> anyhow::Result<Spool> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "pkadvisor-queries-{}-{n}.spool",
            std::process::id()
        ));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| {
                anyhow::anyhow!("cannot spool standard input to {}: {e}", path.display())
            })?;
        let spool = Spool { path };
        std::io::copy(&mut std::io::stdin().lock(), &mut file).map_err(|e| {
            anyhow::anyhow!(
                "cannot spool standard input to {}: {e}",
                spool.path.display()
            )
        })?;
        Ok(spool)
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl LogInput {
    fn source(&self) -> Source {
        match self {
            LogInput::File(p) => Source::file(p),
            LogInput::Stdin => Source::stdin(),
            LogInput::Bytes { name, bytes } => {
                Source::reader(name.clone(), std::io::Cursor::new(Arc::clone(bytes)))
            }
            // Named as standard input in messages; a file that cannot be opened again
            // reads as empty, and the error of the first open stands.
            LogInput::Spooled(s) => match std::fs::File::open(&s.path) {
                Ok(f) => Source::reader(Source::stdin().name(), f),
                Err(_) => Source::reader(Source::stdin().name(), std::io::empty()),
            },
        }
    }

    /// Whether it is standard input.
    pub fn is_stdin(&self) -> bool {
        matches!(self, LogInput::Stdin)
    }

    fn into_replayable(self) -> anyhow::Result<LogInput> {
        if !self.is_stdin() {
            return Ok(self);
        }
        Ok(LogInput::Spooled(Arc::new(Spool::of_stdin()?)))
    }
}

/// Everything an analysis needs.
pub struct Request {
    /// Sample documents.
    pub sources: Vec<Source>,
    /// The query log.
    pub log: Option<LogInput>,
    /// Candidates to evaluate.
    pub candidates: Vec<Candidate>,
    /// Where documents carry their write time.
    pub time_path: Option<KeyPath>,
    /// How to read documents (and `skip_invalid` for the log too).
    pub read: ReadOptions,
    /// Per-value memory budget for all candidates.
    pub memory: usize,
    /// Seed for random suffixes.
    pub seed: u64,
    /// The target to project onto.
    pub target: Target,
    /// With no candidates: generate at most this many.
    pub auto: Option<usize>,
    /// Generate candidates even when some are given (`check` looks for alternatives).
    pub auto_extend: bool,
    /// Statistics measured earlier (`analyze --profile`): its candidates and settings are
    /// the analysis's, and documents read now are added to it.
    pub profile: Option<Profile>,
    /// How the log is written, and the current key of an Azure Monitor log.
    pub log_options: crate::log::LogOptions,
    /// The consistency of the account's reads (strong and bounded staleness cost twice).
    pub consistency: crate::pricing::charge::Consistency,
    /// The share of the real traffic the log holds (`--log-share`, 1 for all of it).
    pub log_share: f64,
    /// `--sample` and `--log-kind`, when given (else inferred: see
    /// [`crate::project::kinds`]).
    pub kinds: (Option<SampleKind>, Option<LogKind>),
    /// `--unit`: the key whose values a log of values is a share of, when given (else
    /// inferred: see [`crate::project::kinds::Unit`]).
    pub unit: Option<String>,
    /// The container's default time to live in seconds (`--retention`), if any.
    pub retention: Option<f64>,
    /// The target's storage is a default (no `--target-storage`): with a retention and an
    /// ingest rate, the container settles at ingest × retention instead.
    pub default_storage: bool,
    /// The container's declared state turns time to live off (a template without
    /// `defaultTtl`): Cosmos DB then ignores the items' own `ttl`, and so does the run.
    pub ttl_off: bool,
    /// For `migrate`: the candidates (source key, new key) whose copy is traced document by
    /// document (see [`crate::stats::copy`]); the trace keeps an eighth of `memory` (each
    /// reading thread's, before they merge).
    pub trace: Option<(usize, usize)>,
}

/// Evaluated candidates and what was read.
pub struct Outcome {
    /// Candidates in request order.
    pub evaluations: Vec<Evaluation>,
    /// What was read.
    pub input: InputSummary,
    /// Remarks on the log (missing parameters ...).
    pub warnings: Vec<String>,
    /// Documents whose `--time-path` held no timestamp.
    pub untimed: u64,
    /// The storage projected onto when it was settled at ingest × retention (see
    /// [`Request::default_storage`]), and how, for the header.
    pub settled: Option<(u64, String)>,
    /// The container's ingest, when known: the log's creates ÷ `--log-share`, else the
    /// sample's `--time-path` arrivals.
    pub ingest: Option<Ingest>,
    /// How long items live, seconds, when they expire.
    pub retention: Option<f64>,
    /// The log's last timestamp (seconds since the epoch), when it has one.
    pub log_end: Option<i64>,
    /// The sample's latest `--time-path` value (seconds since the epoch), when read.
    pub arrivals_end: Option<i64>,
    /// What the sample and the log are, and why.
    pub kinds: Kinds,
    /// The copy traced when the request asked for one.
    pub trace: Option<crate::stats::copy::CopyTrace>,
}

/// With a default storage, a retention and an ingest rate: projects onto ingest ×
/// retention, and says so.
fn settle(
    req: &mut Request,
    ingest: Option<Ingest>,
    retention: Option<f64>,
) -> Option<(u64, String)> {
    let r = retention.filter(|_| req.default_storage)?;
    let ingest = ingest?;
    // A retention of ten billion years is a container the engine cannot lay out: it
    // stops at the largest it models.
    let max = Target::MAX_STORAGE as f64;
    let settled = (ingest.rate * r).round();
    let bytes = settled.clamp(1.0, max) as u64;
    req.target.storage_bytes = bytes;
    let how = format!(
        "ingest {}/day{} × {} retention{}",
        crate::units::human_bytes((ingest.rate * 86_400.0).min(max).round() as u64),
        match ingest.from {
            IngestFrom::Log => " (the log's creates ÷ --log-share)",
            IngestFrom::Arrivals => "",
        },
        crate::units::human_duration(r),
        match settled > max {
            true => ", capped at 1 PB, the largest container the engine models",
            false => "",
        }
    );
    Some((bytes, how))
}

/// Where an ingest rate was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IngestFrom {
    /// The log's creates over `--log-share`.
    Log,
    /// The sample's documents over the span they arrived in (`--time-path`).
    Arrivals,
}

/// The bytes a second the container receives, and where that was read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ingest {
    /// Bytes a second.
    pub rate: f64,
    /// Where it was read.
    pub from: IngestFrom,
}

/// The ingest: the log's creates over `--log-share` when it has creates, else the
/// sample's arrivals over their `--time-path` span.
fn ingest(
    log: Option<&Log>,
    share: f64,
    stats: &[CandidateStats],
    bytes: u64,
    timed: bool,
) -> Option<Ingest> {
    let share = share.clamp(f64::MIN_POSITIVE, 1.0);
    let logged = log.and_then(Log::create_rate).map(|r| Ingest {
        rate: r / share,
        from: IngestFrom::Log,
    });
    logged.or_else(|| {
        ingest_rate(stats, bytes, timed).map(|rate| Ingest {
            rate,
            from: IngestFrom::Arrivals,
        })
    })
}

/// The span the tracked values' documents arrived over, when any arrival is known.
fn arrivals(stats: &[CandidateStats]) -> Option<crate::stats::values::Span> {
    use crate::stats::values::Span;
    let mut span = Span::at(None);
    for s in stats {
        let heavy = s.values.heavy_entries().map(|v| v.span);
        for v in heavy.chain(s.values.sample().map(|v| v.span)) {
            span = span.union(v);
        }
    }
    // Unknown spans hold no arrival (first i64::MAX, last i64::MIN).
    span.is_known().then_some(span)
}

/// The sample's ingest in bytes per second: its `bytes` over the span its documents
/// arrived in (`--time-path`), if known.
fn ingest_rate(stats: &[CandidateStats], bytes: u64, timed: bool) -> Option<f64> {
    if !timed {
        return None;
    }
    let span = arrivals(stats)?;
    let seconds = span.last.saturating_sub(span.first) as f64;
    (seconds > 0.0).then(|| bytes as f64 / seconds)
}

/// The write rate at the target, bytes per second: the log's creates over `--log-share`;
/// else, with a retention, the target's storage over it (a container at its steady
/// size writes what expires); else unknown (periods keep their sample's size).
fn target_rate(
    log: Option<&Log>,
    share: f64,
    target: &Target,
    retention: Option<f64>,
) -> Option<f64> {
    let logged = log.and_then(Log::create_rate);
    let share = share.clamp(f64::MIN_POSITIVE, 1.0);
    (logged.map(|r| r / share))
        .or_else(|| retention.map(|r| target.storage_bytes as f64 / r.max(1.0)))
}

/// Bytes of the first source read ahead to discover candidate paths (auto mode).
const DISCOVERY_BYTES: u64 = 8 << 20;
/// Documents parsed for discovery.
const DISCOVERY_DOCS: usize = 10_000;
/// Documents and bytes read ahead only to find the sample's entities (see
/// [`Discovery::entities`]) when candidates are not generated.
const PROBE_DISCOVERY: (usize, u64) = (1_000, 1 << 20);

/// Reads the log (if any) and the documents, and evaluates every candidate; with none
/// given, generates them first from the log and the first documents.
pub fn run(mut req: Request, progress: &dyn Progress) -> anyhow::Result<Outcome> {
    // Candidates generated from the log read it twice.
    let generates = req.profile.is_none() && (req.candidates.is_empty() || req.auto_extend);
    if generates {
        req.log = req.log.take().map(LogInput::into_replayable).transpose()?;
    }
    if let Some(p) = &req.profile {
        req.candidates = p.candidates.clone();
        req.time_path = p.time_path.clone();
        req.seed = p.seed;
        req.memory = p.memory;
        return evaluate_all(req, &[], progress);
    }
    let mut discovery = None;
    let notes = choose_candidates(&mut req, &mut discovery)?;
    // What the sample is is read from its entities (see crate::stats::novelty).
    let probe = match req.log.is_some() {
        true => discovered(&mut req.sources, &mut discovery, PROBE_DISCOVERY)?.entities(),
        false => Vec::new(),
    };
    let clock = (discovery.as_ref()).and_then(Discovery::time_property);
    let timed = req.time_path.is_some();
    // The first documents' text is not needed while the rest are read.
    drop(discovery);
    let mut outcome = evaluate_all(req, &probe, progress)?;
    outcome.warnings.splice(0..0, notes);
    if outcome.kinds.sample == SampleKind::Complete && !timed {
        outcome.warnings.push(untimed_pilot(clock.as_ref()));
    }
    Ok(outcome)
}

/// What to say of a sample of complete values read without `--time-path`: its values'
/// own write rate is unknown, so each takes its share of the log's creates (a few lines
/// for a pilot among production's values, and the log's hour for a day), and `clock`, a
/// property the documents carry their times in, would give it.
fn untimed_pilot(clock: Option<&KeyPath>) -> String {
    let give = match clock {
        Some(p) => format!("give --time-path {p} (the documents carry their times there)"),
        None => {
            "give --time-path with the property that holds each document's write time".to_owned()
        }
    };
    format!(
        "the sample holds every document of its values, but without --time-path their own write rate is unknown: each grows by its share of the log's creates, which a short log or a few lines of theirs can miss by several times; {give}"
    )
}

/// Measures the documents for `pkadvisor profile`, generating candidates first when none
/// are given.
pub fn measure(mut req: Request, progress: &dyn Progress) -> anyhow::Result<Profile> {
    choose_candidates(&mut req, &mut None)?;
    // A profile keeps no item ids.
    let plan = Arc::new(plan(&req).with_owners(false));
    let (mut stats, counted, read) = read_documents(&req, &plan, progress)?;
    for (s, c) in stats.iter_mut().zip(&req.candidates) {
        s.measured = Some(c.spec.to_string());
    }
    Ok(Profile {
        candidates: req.candidates,
        time_path: req.time_path,
        seed: req.seed,
        memory: req.memory,
        documents: read.documents,
        bytes: read.bytes,
        invalid: read.invalid,
        untimed: counted.untimed,
        stats,
        redacted: false,
        shares: Vec::new(),
        terms: counted.terms,
        indexing: req.read.indexing.rules(),
        redact_key: None,
        checksum: None,
        retention: counted.ttl.retention(req.retention),
    })
}

/// With none given (or `auto_extend`), adds generated candidates; returns what
/// discovery found to remark on (documents without `id`, log filters on paths no document
/// holds).
fn choose_candidates(
    req: &mut Request,
    discovery: &mut Option<Discovery>,
) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    if req.candidates.is_empty() || req.auto_extend {
        let limit = req.auto.unwrap_or(crate::measure::auto::DEFAULT_AUTO);
        let within = (DISCOVERY_DOCS, DISCOVERY_BYTES);
        let discovery = discovered(&mut req.sources, discovery, within)?;
        let (generated, note) = generate(req, discovery, limit)?;
        notes.extend(note);
        for c in generated {
            // A key given and generated too is listed once, with both origins.
            match (req.candidates.iter_mut())
                .find(|k| k.spec == c.spec && k.definition.is_none() && k.layout.is_none())
            {
                Some(k) => k.origin = format!("{}; also {}", k.origin, c.origin),
                None => req.candidates.push(c),
            }
        }
        if req.candidates.is_empty() {
            // A document that does not parse is why none was found: its error comes first.
            input::read(
                &req.sources,
                &[],
                &req.read,
                &|| Discard,
                &input::NoProgress,
            )?;
            anyhow::bail!(
                "no candidate keys found: the first documents have no scalar properties and the log filters none; give --key SPEC"
            );
        }
    }
    Ok(notes)
}

/// A sink that keeps nothing: reading only for its errors.
struct Discard;

impl input::Sink for Discard {
    fn document(&mut self, _: &input::Document<'_>) {}
    fn merge(&mut self, _: Self) {}
}

/// What the first documents show, read ahead once (see [`discover_sources`]) up to
/// `(documents, bytes)` unless read already: none given is standard input.
fn discovered<'d>(
    sources: &mut Vec<Source>,
    discovery: &'d mut Option<Discovery>,
    within: (usize, u64),
) -> anyhow::Result<&'d Discovery> {
    if let Some(d) = discovery {
        return Ok(d);
    }
    if sources.is_empty() {
        sources.push(Source::stdin());
    }
    Ok(discovery.insert(discover_sources(sources, within)?))
}

/// Generates candidates from what the first documents show and from the log.
fn generate(
    req: &mut Request,
    discovery: &Discovery,
    limit: usize,
) -> anyhow::Result<(Vec<Candidate>, Vec<String>)> {
    let log = match &req.log {
        Some(l) => Some(read_any(
            &l.source(),
            &[],
            true,
            operations_within(req.memory),
            &req.log_options,
        )?),
        None => None,
    };
    let t = &req.target;
    let write_tops = match (&req.log, &log) {
        (Some(l), Some(read)) if read.writes => {
            let paths = crate::measure::auto::filtered_paths(read);
            let again = read_any(
                &l.source(),
                &paths,
                true,
                operations_within(req.memory),
                &req.log_options,
            )?;
            crate::measure::auto::write_tops(&again, &paths)
        }
        _ => Default::default(),
    };
    let inputs = Inputs {
        discovery,
        log: log.as_ref(),
        target_bytes: t.storage_bytes,
        partitions: t
            .throughput
            .even_partitions(t.storage_bytes, &crate::engine::Limits::default()),
        write_tops,
    };
    let mut notes: Vec<String> = crate::measure::auto::missing_ids(discovery)
        .into_iter()
        .collect();
    if let Some(l) = &log {
        notes.extend(crate::measure::auto::unheld_filters(discovery, l));
    }
    Ok((crate::measure::auto::generate(&inputs, limit), notes))
}

/// Reads ahead into the sources in turn (an empty or broken first file does not end it)
/// until `max_docs` documents or `budget` bytes in all, and discovers their
/// paths. A source that cannot be opened again (standard input, a stream) keeps what was
/// read, chained before the rest.
fn discover_sources(
    sources: &mut [Source],
    (max_docs, mut budget): (usize, u64),
) -> anyhow::Result<Discovery> {
    let mut discovery = Discovery::default();
    for slot in sources.iter_mut() {
        if budget == 0 || discovery.len() >= max_docs {
            break;
        }
        let source = std::mem::replace(slot, Source::reader("", std::io::empty()));
        let mut opened = source.open()?;
        let mut prefix = Vec::new();
        (&mut opened.reader).take(budget).read_to_end(&mut prefix)?;
        budget -= prefix.len() as u64;
        crate::measure::discover::discover_into(&mut discovery, &prefix, max_docs);
        *slot = if source.is_stdin() || source.size().is_none() {
            let rest = std::io::Cursor::new(prefix).chain(opened.reader);
            Source::reader(source.name(), rest)
        } else {
            source
        };
    }
    Ok(discovery)
}

/// With `PKADVISOR_TIMINGS` set, phase durations go to standard error (benchmarks).
fn timing(phase: &str, started: std::time::Instant) {
    if std::env::var_os("PKADVISOR_TIMINGS").is_some() {
        eprintln!("timing: {phase}: {:.3} s", started.elapsed().as_secs_f64());
    }
}

/// What a profile read, as reading reports it.
fn profile_summary(p: &Profile) -> input::ReadSummary {
    input::ReadSummary {
        documents: p.documents,
        bytes: p.bytes,
        invalid: p.invalid,
        first_invalid: None,
    }
}

fn plan(req: &Request) -> Plan {
    let Some((from, to)) = req.trace else {
        return Plan::new(
            &req.candidates,
            req.time_path.as_ref(),
            req.memory,
            req.seed,
        );
    };
    let traced = req.memory / TRACE_SHARE;
    let rest = req.memory - traced * 2;
    Plan::new(&req.candidates, req.time_path.as_ref(), rest, req.seed).with_trace(from, to, traced)
}

/// A traced copy keeps this share of the run's memory (one over it); each of the reading
/// threads' traces may hold as much before they merge.
const TRACE_SHARE: usize = 8;

/// What reading counted over all the documents, beside the candidates' statistics.
#[derive(Clone, Debug, Default)]
struct Counted {
    /// Documents without a timestamp at `--time-path`.
    untimed: u64,
    /// The documents' own `ttl`.
    ttl: Ttl,
    /// Indexed terms, under the reading's indexing policy.
    terms: u64,
    /// The sample's values on the probed paths (none from a profile).
    novelty: Novelty,
    /// The copy traced, when the plan traces one.
    trace: Option<crate::stats::copy::CopyTrace>,
}

/// Reads the documents into statistics: `(stats, counts, what was read)`.
fn read_documents(
    req: &Request,
    plan: &Arc<Plan>,
    progress: &dyn Progress,
) -> anyhow::Result<(Vec<CandidateStats>, Counted, input::ReadSummary)> {
    let make = || MeasureSink::new(Arc::clone(plan), req.read.threads);
    let started = std::time::Instant::now();
    let (sink, summary) = input::read(&req.sources, plan.paths(), &req.read, &make, progress)?;
    timing("read and measure", started);
    let counted = Counted {
        untimed: sink.untimed,
        ttl: sink.ttl,
        terms: sink.terms,
        novelty: sink.novelty,
        trace: sink.trace,
    };
    Ok((sink.stats, counted, summary))
}

/// The profile's statistics, with those of the documents read now added; its terms must
/// have been counted under the policy the documents are read under.
fn with_profile(
    req: &Request,
    plan: &Arc<Plan>,
    mut p: Profile,
    progress: &dyn Progress,
) -> anyhow::Result<(Vec<CandidateStats>, Counted, input::ReadSummary)> {
    let rules = req.read.indexing.rules();
    if p.indexing != rules {
        anyhow::bail!(
            "the profiles counted indexed terms under another indexing policy ({}) than this run's ({rules}): give analyze the --indexing-policy the profiles were measured with",
            p.indexing
        );
    }
    let mut summary = profile_summary(&p);
    let mut counted = Counted {
        untimed: p.untimed,
        // A profile keeps how long its items live; without it, --retention says.
        ttl: match p.retention {
            Some(r) => Ttl {
                longest: r,
                expiring: 1,
                ..Ttl::default()
            },
            None => Ttl {
                unset: 1,
                ..Ttl::default()
            },
        },
        terms: p.terms,
        novelty: Novelty::default(),
        trace: None,
    };
    if !req.sources.is_empty() {
        let (stats, now, read) = read_documents(req, plan, progress)?;
        if let Some(file) = p.share(crate::measure::profile::share_fingerprint(
            &p.candidates,
            &stats,
        )) {
            anyhow::bail!(
                "the documents given are the ones {file} measured: one share given twice (give the documents or their profile)"
            );
        }
        for (mine, theirs) in p.stats.iter_mut().zip(stats) {
            mine.merge(theirs);
        }
        summary.documents += read.documents;
        summary.bytes += read.bytes;
        summary.invalid += read.invalid;
        counted.untimed += now.untimed;
        counted.ttl.merge(now.ttl);
        counted.terms += now.terms;
    }
    Ok((p.stats, counted, summary))
}

/// The query log, read for the paths the candidates need, within the memory's share.
fn read_log(req: &Request, plan: &Plan) -> anyhow::Result<Option<Log>> {
    let Some(l) = req.log.as_ref() else {
        return Ok(None);
    };
    let max_ops = operations_within(req.memory);
    let log = read_any(
        &l.source(),
        plan.paths(),
        req.read.skip_invalid,
        max_ops,
        &req.log_options,
    )?;
    Ok(Some(log))
}

/// What was read: the documents' `summary` and the log's operations.
fn input_summary(summary: &input::ReadSummary, log: Option<&Log>, redacted: bool) -> InputSummary {
    InputSummary {
        documents: summary.documents,
        bytes: summary.bytes,
        invalid: summary.invalid + log.map_or(0, |l| l.invalid),
        operations: log.map_or(0, Log::weighted),
        redacted,
        monitor: log.and_then(|l| l.monitor.as_ref()).map(monitor_report),
    }
}

/// The reading's plan, `probe` read too while the log writes (see [`Plan::with_probe`]),
/// and the log.
fn plan_and_log(req: &Request, probe: &[KeyPath]) -> anyhow::Result<(Arc<Plan>, Option<Log>)> {
    let plan = plan(req).with_probe(probe);
    let log = read_log(req, &plan)?;
    let writes = log.as_ref().is_some_and(Log::has_writes);
    let plan = plan.with_owners(writes);
    Ok((
        Arc::new(if writes { plan } else { plan.without_probe() }),
        log,
    ))
}

/// Evaluates the candidates, reading `probe` too (the sample's entities) to tell what the
/// sample is when the log writes.
fn evaluate_all(
    mut req: Request,
    probe: &[KeyPath],
    progress: &dyn Progress,
) -> anyhow::Result<Outcome> {
    let (plan, log) = plan_and_log(&req, probe)?;
    let threads = req.read.threads;
    let redacted = req.profile.as_ref().is_some_and(|p| p.redacted);
    if redacted && !req.sources.is_empty() {
        anyhow::bail!(
            "the profiles hold key values as hashes (profile --redact) and the documents given here do not: write them to a redacted profile too, with the same key"
        );
    }
    let (stats, mut counted, summary) = match req.profile.take() {
        Some(p) => with_profile(&req, &plan, p, progress)?,
        None => read_documents(&req, &plan, progress)?,
    };
    let started = std::time::Instant::now();
    let trace = counted.trace.take();
    let (retention, ttl_ignored) = retention_of(&req, &counted);
    let timed = req.time_path.is_some();
    let ingest = ingest(log.as_ref(), req.log_share, &stats, summary.bytes, timed);
    let log_end = log
        .as_ref()
        .and_then(|l| l.ops.iter().filter_map(|o| o.ts).max());
    let span = arrivals(&stats).filter(|_| timed);
    let arrivals_end = span.map(|s| s.last);
    let settled = settle(&mut req, ingest, retention);
    let mut ctx = Context {
        target: &req.target,
        log: log.as_ref(),
        seed: req.seed,
        timed: req.time_path.is_some(),
        charges: crate::pricing::charge::Charges {
            terms: counted.terms as f64 / summary.documents.max(1) as f64,
            consistency: req.consistency,
        },
        log_share: req.log_share,
        retention,
        rate: target_rate(log.as_ref(), req.log_share, &req.target, retention),
        rate_measured: log.as_ref().and_then(Log::create_rate).is_some(),
        kinds: Kinds::default(),
        entities: plan.probe(),
    };
    let warnings: Vec<String> = (owners_warning(&stats, log.as_ref()).into_iter())
        .chain(ttl_ignored)
        .collect();
    // Each candidate's measure, projection and replay is independent.
    let measured = crate::parallel::map(stats, threads, &|i, stats| {
        super::evaluate::measure(&req.candidates[i], stats, plan.inputs(i), &ctx)
    });
    let sample = (summary.bytes, span, &counted.novelty);
    let kinds = kinds_of(&req, &measured, sample, log.as_ref(), &plan)?;
    ctx.kinds = kinds.clone();
    let evaluations = crate::parallel::map(measured, threads, &|i, m| {
        evaluate(&req.candidates[i], m, plan.inputs(i), &ctx)
    });
    timing("project and replay", started);
    Ok(Outcome {
        evaluations,
        input: input_summary(&summary, log.as_ref(), redacted),
        warnings: (log.map(|l| l.warnings).unwrap_or_default().into_iter())
            .chain(warnings)
            .collect(),
        untimed: counted.untimed,
        settled,
        ingest,
        retention,
        log_end,
        arrivals_end,
        kinds,
        trace,
    })
}

/// Whether `m`, measured for candidate `c`, can tell a sample of some values from a
/// snapshot: a key of one path (a suffix or a concatenation invents values), counted
/// exactly, whose new values in the log are at least as many as the sample's own (a
/// pilot's tenants among production's; not the one month a snapshot's log writes after it).
fn plain(c: &Candidate, m: &Measured) -> bool {
    let one_path = matches!(c.spec.levels(), [l] if !l.is_synthetic());
    let Some(n) = m.newcomers.as_ref() else {
        return false;
    };
    one_path
        && c.layout.is_none()
        && m.stats.values.is_exact()
        && n.new_values >= m.stats.values.len().max(1)
}

/// What the sample and the log are: the flags, else inferred from the `--time-path`
/// arrivals against the log's creates, and from the log's creates on values the sample
/// never saw against what a uniform share leaves unseen, on the sample's entity where they
/// differ most (`novelty`, on the plan's probed paths: see [`crate::project::novelty`];
/// from a profile, which keeps none, on the candidates: see [`plain`]); of complete
/// values logged whole, the unit `--unit` names, else inferred.
fn kinds_of(
    req: &Request,
    measured: &[Measured],
    (bytes, span, novelty): (u64, Option<crate::stats::values::Span>, &Novelty),
    log: Option<&Log>,
    plan: &Plan,
) -> anyhow::Result<Kinds> {
    let named = (req.unit.as_deref())
        .map(|path| named_unit(path, req, measured))
        .transpose()?;
    // Without a probe, or when no create could be tested on it (an Azure Monitor log's
    // writes know only the current key), the candidates say what they can.
    let unseen = match log.and_then(|l| probed(l, novelty, plan)) {
        Some(probed) => (probed.into_iter()).max_by(|a, b| gap(a).total_cmp(&gap(b))),
        None => candidates_unseen(req, measured),
    };
    let evidence = Evidence {
        sample_bytes: bytes as f64,
        span: span.map(|s| s.last.saturating_sub(s.first) as f64),
        logged_rate: log.and_then(Log::create_rate),
        log_share: req.log_share,
        unseen,
        together: log.map(|l| {
            let (touched, together) = l.creates_kept_together();
            (touched, together, l.kept_share(req.log_share))
        }),
    };
    let mut kinds = crate::project::kinds::kinds(req.kinds.0, req.kinds.1, &evidence);
    if kinds.sample == SampleKind::Complete && kinds.log == LogKind::Values {
        kinds.unit = named.or_else(|| unit(req, measured));
    }
    Ok(kinds)
}

/// The log's share of created bytes on values the sample never saw, Good–Turing's share
/// a uniform sample leaves unseen, and the path they were measured on.
type Unseen = (f64, f64, String);

/// How much more the log's unseen share is than a uniform sample's.
fn gap(u: &Unseen) -> f64 {
    u.0 - u.1
}

/// What the log's creates say on each of the sample's entities that the log writes at
/// least as many new values of as the sample holds (see [`crate::project::novelty`]).
/// None when no entity is probed or none had enough creates tested to say anything.
fn probed(log: &Log, novelty: &Novelty, plan: &Plan) -> Option<Vec<Unseen>> {
    let probe = plan.probe();
    let tested = crate::project::novelty::unseen(log, novelty, probe);
    (!tested.is_empty()).then(|| {
        (tested.into_iter())
            .filter(crate::project::novelty::Unseen::outnumbers)
            .map(|u| (u.new, u.uniform, plan.paths()[probe[u.path]].to_string()))
            .collect()
    })
}

/// Good–Turing's unseen share beside the log's, on the plain candidate (see [`plain`])
/// where the log's exceeds it most.
fn candidates_unseen(req: &Request, measured: &[Measured]) -> Option<Unseen> {
    (req.candidates.iter().zip(measured))
        .filter(|(c, m)| plain(c, m))
        .filter_map(|(c, m)| {
            let new = m.newcomers.as_ref()?.share?;
            let docs = m.stats.documents.saturating_sub(m.stats.invalid);
            let uniform = m.stats.values.singleton_share(docs);
            Some((new, uniform, c.spec.to_string()))
        })
        .max_by(|a, b| gap(a).total_cmp(&gap(b)))
}

/// The `--unit` key among the candidates, with its distinct values.
fn named_unit(
    path: &str,
    req: &Request,
    measured: &[Measured],
) -> anyhow::Result<crate::project::kinds::Unit> {
    let found = (req.candidates.iter().zip(measured))
        .find(|(c, _)| c.layout.is_none() && c.spec.to_string() == path);
    match found {
        Some((_, m)) => Ok(crate::project::kinds::Unit {
            path: path.to_owned(),
            values: m.stats.values.len() as u64,
        }),
        None => anyhow::bail!(
            "--unit {path}: not among the keys measured; add --key {path} (the unit's distinct values are counted on it)"
        ),
    }
}

/// The unit a log of every request of a share of the values is a share of (see
/// [`crate::project::kinds::Unit`]): of the single-path keys counted exactly whose logged
/// creates go to the sample's values, the one with the most distinct values (the first
/// given on a tie).
fn unit(req: &Request, measured: &[Measured]) -> Option<crate::project::kinds::Unit> {
    let known = |m: &Measured| {
        (m.newcomers.as_ref()).is_some_and(|n| n.share.is_some_and(|s| s <= UNIT_NEW))
    };
    (req.candidates.iter().zip(measured))
        .filter(|(c, m)| {
            let one_path = matches!(c.spec.levels(), [l] if !l.is_synthetic());
            one_path && c.layout.is_none() && m.stats.values.is_exact() && known(m)
        })
        .map(|(c, m)| (m.stats.values.len() as u64, c.spec.to_string()))
        .filter(|(values, _)| *values >= 2)
        .fold(None, |best: Option<(u64, String)>, (v, path)| match &best {
            Some((b, _)) if *b >= v => best,
            _ => Some((v, path)),
        })
        .map(|(values, path)| crate::project::kinds::Unit { path, values })
}

/// How long items live (seconds; none: forever): the documents' `ttl` and the container's
/// default, unless the container has time to live off, which ignores the items' own and
/// is warned of when some carry one.
fn retention_of(req: &Request, counted: &Counted) -> (Option<f64>, Option<String>) {
    if !req.ttl_off {
        return (counted.ttl.retention(req.retention), None);
    }
    let warning = (counted.ttl.expiring > 0).then(|| format!(
        "{} documents carry a ttl, but the container declares no defaultTtl: time to live is off and Cosmos DB ignores the items' own ttl, so they are taken to live forever (declare defaultTtl, -1 to let items choose, to turn it on)",
        counted.ttl.expiring
    ));
    (None, warning)
}

/// Key changes are found against the sample's items; past `--memory` only some of them,
/// which a log with writes is told.
fn owners_warning(stats: &[CandidateStats], log: Option<&Log>) -> Option<String> {
    let share = (stats.iter().map(|s| s.owners.sampled_share())).fold(1.0, f64::min);
    (share < 1.0 && log.is_some_and(Log::has_writes)).then(|| format!(
        "the sample's item ids were sampled by hash to 1 in {:.0} to stay within --memory: key changes (KEY_UPDATED) are found against that share of the sample's items, and against every item the log writes twice",
        1.0 / share
    ))
}

/// What an Azure Monitor log showed, as the report gives it.
fn monitor_report(o: &Observed) -> MonitorReport {
    MonitorReport {
        rows: o.rows,
        requests: o.requests,
        throttled: o.throttled,
        unroutable: o.unroutable,
        unjoined: o.unjoined,
        hidden: o.hidden,
        keyed: o.keyed,
        duplicates: o.duplicates,
        uncorrelated: o.uncorrelated,
        current_key: o.current_key.clone(),
        largest_partitions: (o.largest_partitions.iter())
            .map(|p| ObservedPartitionReport {
                value: p.value.clone(),
                bytes: p.bytes,
            })
            .collect(),
        container: o.container.clone(),
        containers_left: (o.left.iter())
            .map(|(container, rows)| crate::report::model::ContainerRows {
                container: container.clone(),
                rows: *rows,
            })
            .collect(),
    }
}
