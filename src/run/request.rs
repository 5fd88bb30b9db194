//! The flags shared by `analyze` and `check`, every one validated and turned into the
//! pipeline's request and the report's options, before any input is read.

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};

use crate::advisor::ReportOptions;
use crate::advisor::pipeline::{Candidate, LogInput, Outcome, Request};
use crate::advisor::score::DEFAULT_MARGIN;
use crate::advisor::timeline::Basis;
use crate::engine::Tier;
use crate::engine::{KeyPath, Throughput};
use crate::indexing::IndexingPolicy;
use crate::input::side::read_capped;
use crate::input::{ReadOptions, Source};
use crate::key::layout::MAX_COLLECTIONS;
use crate::key::{KeySpec, Layout};
use crate::measure::profile::Profile;
use crate::pricing::charge::Consistency;
use crate::pricing::throughput::{
    AUTOSCALE_STEP, MANUAL_STEP, SERVERLESS_MAX_BYTES, SERVERLESS_RU,
};
use crate::pricing::{AutoscaleMode, Given, Model, Prices, Reserved};
use crate::project::Target;
use crate::project::kinds::{LogKind, SampleKind};
use crate::report::Format;
use crate::units::parse_size;

use crate::flags::{
    AutoscaleModeArg, CommonArgs, ConsistencyArg, FormatArg, GsiArg, LogKindArg, QueriesFormat,
    ReadArgs, ReservedArg, SampleArg,
};
use crate::log::{LogContainer, LogFormat, LogOptions};

/// The smallest `--log-share`: one request in a million.
const MIN_LOG_SHARE: f64 = 1e-6;

/// Reading threads unless `--threads` says otherwise.
pub const DEFAULT_THREADS: usize = 2;

/// Parses every `--key`, pointing at the character where a spec goes wrong.
pub fn parse_specs(keys: &[String]) -> Result<Vec<KeySpec>> {
    let mut specs: Vec<KeySpec> = Vec::new();
    for k in keys {
        let spec = parse_spec(k, "--key")?;
        if !specs.contains(&spec) {
            specs.push(spec);
        }
    }
    Ok(specs)
}

/// Parses one key spec given with `flag`.
pub fn parse_spec(text: &str, flag: &str) -> Result<KeySpec> {
    KeySpec::parse(text).map_err(|e| anyhow!("invalid {flag}: {}", e.render(text)))
}

/// The output format.
pub fn format(f: FormatArg, wide: bool) -> Format {
    match f {
        FormatArg::Table if wide => Format::WideTable,
        FormatArg::Table => Format::Table,
        FormatArg::Json => Format::Json,
        FormatArg::Markdown => Format::Markdown,
        FormatArg::Html => Format::Html,
    }
}

/// The shared flags of `analyze` and `check`, validated before any input is read.
pub struct Settings {
    /// The target projected onto.
    pub(super) target: Target,
    /// Which of the target's figures are defaults.
    defaults: Vec<String>,
    /// Prices, regions and the log's share.
    prices: Prices,
    /// The output format.
    pub(super) format: Format,
    /// The headroom past which a larger break size earns nothing (`--margin`).
    margin: f64,
    /// Where figures not given with flags come from (`throughput`, `indexing`: the
    /// infrastructure file that declares them).
    sources: BTreeMap<String, String>,
    /// The indexing policy that prices writes: `--indexing-policy`, else the declared one,
    /// else every path.
    indexing: IndexingPolicy,
    /// The declared container's `defaultTtl`, when a file declares the container.
    declared_ttl: Option<DeclaredTtl>,
    /// The container an Azure Monitor log of several is read for, when the flags name none.
    declared_container: Option<String>,
}

/// What the report's options take from the flags after the request is built: how long
/// items live in the header's words, and the timeline's flags. Read after the request's
/// flags, so that of several bad flags the same one is reported first.
pub struct Finish {
    retention: Option<String>,
    timeline: TimelineFlags,
}

/// What an infrastructure file declares beside the key, used where no flag says otherwise.
#[derive(Default)]
pub struct Declaration {
    /// Its throughput, when no throughput flag is given.
    pub throughput: Option<Declared>,
    /// Its indexing policy.
    pub indexing: Option<IndexingPolicy>,
    /// Its `defaultTtl`, when a file declares the container.
    pub ttl: Option<DeclaredTtl>,
    /// The container's `database/name`.
    pub qualified: Option<String>,
}

/// A declared container's `defaultTtl`, and where it is declared.
pub struct DeclaredTtl {
    /// Its seconds (-1: items live until their own `ttl` says; none: time to live is off).
    pub seconds: Option<i64>,
    /// The file.
    pub file: String,
    /// The container's name.
    pub container: String,
}

/// A container's throughput declared in an infrastructure file, and where.
pub struct Declared {
    /// The throughput.
    pub throughput: Throughput,
    /// The file, the container and the field.
    pub source: String,
}

impl Settings {
    /// Validates the shared flags.
    pub fn new(args: &CommonArgs) -> Result<Settings> {
        Settings::with_declared(args, Declaration::default())
    }

    /// Validates the shared flags; `declared` is what an infrastructure file declares,
    /// used where no flag gives it.
    pub fn with_declared(args: &CommonArgs, declared: Declaration) -> Result<Settings> {
        // From here on, an error or warning that names a value it read hides it too.
        crate::redact::redact_messages(args.redact);
        let (target, defaults, mut sources) = target(args, declared.throughput.as_ref())?;
        let (mut prices, indexing) = prices(args, &target, declared.indexing, &mut sources)?;
        prices.given = given_throughput(args, &target, &defaults, &sources);
        let margin = args.margin.unwrap_or(DEFAULT_MARGIN);
        if !margin.is_finite() || margin <= 1.0 || margin > 1e6 {
            bail!("--margin must be more than 1 (times the target), not {margin}");
        }
        Ok(Settings {
            target,
            defaults,
            prices,
            format: format(args.format, args.wide),
            margin,
            sources,
            indexing,
            declared_ttl: declared.ttl,
            declared_container: declared.qualified,
        })
    }

    /// How the report of the run that gave `outcome` is put together: projected onto the
    /// storage the run settled at (ingest × retention), when it did, with its timeline;
    /// `declared_indexes` is `check`'s declared key and the indexes declared beside it.
    pub fn report_options(
        &self,
        args: &CommonArgs,
        declared_indexes: Option<(String, Vec<String>)>,
        outcome: &Outcome,
        finish: &Finish,
    ) -> ReportOptions {
        let (target, storage_default) = match outcome.settled.clone() {
            Some((bytes, how)) => (
                Target {
                    storage_bytes: bytes,
                    ..self.target
                },
                Some(how),
            ),
            None => (self.target, None),
        };
        ReportOptions {
            target,
            defaults: self.defaults.clone(),
            top_values: args.top,
            redact: args.redact,
            prices: self.prices.clone(),
            margin: self.margin,
            gsi: args.gsi == GsiArg::Auto,
            declared_indexes,
            partitions: self.format.charts(),
            retention: finish.retention.clone(),
            storage_default,
            timeline: finish.timeline.basis(outcome, target.storage_bytes),
            sources: self.sources.clone(),
            kinds: outcome.kinds.clone(),
            logged: args.queries.is_some(),
        }
    }
}

/// How long items live: `--retention` (seconds, and the header's words), else the declared
/// `defaultTtl`; and whether time to live is off (a declared container without
/// `defaultTtl`, which the items' own `ttl` cannot turn on).
fn retention(
    args: &CommonArgs,
    declared: Option<&DeclaredTtl>,
) -> Result<(Option<f64>, Option<String>, bool)> {
    if let Some(r) = args.retention.as_deref() {
        let s = crate::units::parse_duration(r).map_err(|e| anyhow!("invalid --retention: {e}"))?;
        let label = format!("{} (--retention)", crate::units::human_duration(s));
        return Ok((Some(s), Some(label), false));
    }
    let Some(d) = declared else {
        return Ok((None, None, false));
    };
    let Some(ttl) = d.seconds else {
        return Ok((None, None, true));
    };
    let how = match ttl {
        t if t > 0 => crate::units::human_duration(t as f64),
        _ => "forever unless their own ttl says otherwise".to_owned(),
    };
    let (file, name) = (&d.file, &d.container);
    let label = format!("{how} (defaultTtl {ttl} of container {name} in {file})");
    Ok(((ttl > 0).then_some(ttl as f64), Some(label), false))
}

/// The target, which of its figures are defaults, and where declared ones come from.
fn target(
    args: &CommonArgs,
    declared: Option<&Declared>,
) -> Result<(Target, Vec<String>, BTreeMap<String, String>)> {
    let mut defaults = Vec::new();
    let mut sources = BTreeMap::new();
    let storage_bytes = match &args.target_storage {
        Some(s) => parse_size(s).map_err(|e| anyhow!("invalid --target-storage: {e}"))?,
        None => {
            defaults.push("storage".to_owned());
            Target::DEFAULT_STORAGE
        }
    };
    if storage_bytes == 0 {
        bail!("--target-storage must be more than 0 bytes");
    }
    // 20,000 partitions of 50 GB: past it the engine's splits take minutes.
    if storage_bytes > Target::MAX_STORAGE {
        bail!("--target-storage must be at most 1PB (the largest container the engine models)");
    }
    let throughput = match (args.throughput, args.autoscale_max, args.serverless) {
        (Some(ru), _, _) => Throughput::Manual(check_ru(ru, "--throughput", 400.0, MANUAL_STEP)?),
        (None, Some(ru), _) => {
            Throughput::Autoscale(check_ru(ru, "--autoscale-max", 1000.0, AUTOSCALE_STEP)?)
        }
        // A serverless container is laid out by its storage alone: one partition to start.
        (None, None, true) => Throughput::Manual(SERVERLESS_RU),
        (None, None, false) => match declared {
            Some(d) => {
                let what = format!("the throughput declared in {}", d.source);
                sources.insert("throughput".to_owned(), d.source.clone());
                match d.throughput {
                    Throughput::Manual(ru) => {
                        Throughput::Manual(check_ru(ru, &what, 400.0, MANUAL_STEP)?)
                    }
                    Throughput::Autoscale(ru) => {
                        Throughput::Autoscale(check_ru(ru, &what, 1000.0, AUTOSCALE_STEP)?)
                    }
                }
            }
            None => {
                defaults.push("throughput".to_owned());
                Target::DEFAULT_THROUGHPUT
            }
        },
    };
    if args.autoscale_mode.is_some() && !matches!(throughput, Throughput::Autoscale(_)) {
        let what = match sources.get("throughput") {
            Some(source) => format!("the throughput declared in {source} is manual"),
            None => "no autoscale throughput is given".to_owned(),
        };
        bail!("--autoscale-mode needs autoscale throughput, but {what}: give --autoscale-max RU");
    }
    if args.serverless && storage_bytes > SERVERLESS_MAX_BYTES {
        bail!(
            "--serverless: a serverless container holds at most 1TB, not {}",
            crate::units::human_bytes(storage_bytes)
        );
    }
    Ok((
        Target {
            storage_bytes,
            throughput,
        },
        defaults,
        sources,
    ))
}

/// The billing model the flags give: serverless, autoscale in its mode, or manual.
fn model(args: &CommonArgs, target: &Target) -> Model {
    match (args.serverless, target.throughput) {
        (true, _) => Model::Serverless,
        (false, Throughput::Autoscale(_)) => Model::Autoscale(match args.autoscale_mode {
            Some(AutoscaleModeArg::Partition) => AutoscaleMode::Partition,
            _ => AutoscaleMode::Container,
        }),
        (false, Throughput::Manual(_)) => Model::Manual,
    }
}

/// What the rest of the bill's flags ask for, checked against each other: multi-region
/// writes need two regions and rule out strong consistency; serverless has one region, no reservation and no RU/s price.
fn check_bill(args: &CommonArgs) -> Result<()> {
    let regions = args.regions.unwrap_or(1);
    if args.multi_region_writes && regions < 2 {
        bail!("--multi-region-writes needs --regions 2 or more (the container is in {regions})");
    }
    if args.multi_region_writes && args.consistency == Some(ConsistencyArg::Strong) {
        bail!(
            "--consistency strong cannot be combined with --multi-region-writes: Cosmos DB does not offer strong consistency on an account whose every region takes writes"
        );
    }
    if args.serverless {
        let conflict = [
            (
                regions > 1,
                "--regions (a serverless account has one region)",
            ),
            (
                args.multi_region_writes,
                "--multi-region-writes (one region)",
            ),
            (
                args.reserved.is_some(),
                "--reserved (reserved capacity is for provisioned throughput)",
            ),
            (
                args.price_ru_hour.is_some(),
                "--price-ru-hour (serverless bills RU consumed, 0.25 USD per million)",
            ),
        ];
        if let Some((_, flag)) = conflict.iter().find(|c| c.0) {
            bail!("--serverless cannot be combined with {flag}");
        }
    }
    Ok(())
}

/// The prices and log share of the cost: list prices for the billing model, overridden by
/// the flags given.
/// The indexing policy is the declared one (its source noted in `sources`) unless
/// `--indexing-policy` is given.
fn prices(
    args: &CommonArgs,
    target: &Target,
    declared: Option<IndexingPolicy>,
    sources: &mut BTreeMap<String, String>,
) -> Result<(Prices, IndexingPolicy)> {
    check_bill(args)?;
    let mut p = Prices::of_model(model(args, target));
    p.multi_region_writes = args.multi_region_writes;
    p.ru_hour_per_100 = p.billing().list_ru_hour(p.multi_region_writes);
    p.consistency = match args.consistency {
        Some(ConsistencyArg::Strong) => Consistency::Strong,
        Some(ConsistencyArg::BoundedStaleness) => Consistency::BoundedStaleness,
        Some(ConsistencyArg::ConsistentPrefix) => Consistency::ConsistentPrefix,
        Some(ConsistencyArg::Eventual) => Consistency::Eventual,
        Some(ConsistencyArg::Session) | None => Consistency::Session,
    };
    p.reserved = args.reserved.map(|r| match r {
        ReservedArg::OneYear => Reserved::OneYear,
        ReservedArg::ThreeYears => Reserved::ThreeYears,
    });
    let price = |v: f64, flag: &str| -> Result<f64> {
        if !v.is_finite() || !(0.0..=1e6).contains(&v) {
            bail!("{flag} must be a price between 0 and 1,000,000 USD, not {v}");
        }
        Ok(v)
    };
    if let Some(v) = args.price_ru_hour {
        p.ru_hour_per_100 = price(v, "--price-ru-hour")?;
        p.ru_hour_given = true;
        p.source = "given with --price-ru-hour".into();
    }
    if let Some(v) = args.price_gb_month {
        p.gb_month = price(v, "--price-gb-month")?;
        p.source = if args.price_ru_hour.is_some() {
            "given with --price-ru-hour and --price-gb-month".into()
        } else {
            "given with --price-gb-month; RU/s at the list price".into()
        };
    }
    if let Some(share) = args.log_share {
        // Rates are divided by the share: below one request in a million they pass every
        // count (5e-324 gave 18,446,744,073,709,551,615 RU/s).
        if !share.is_finite() || !(MIN_LOG_SHARE..=1.0).contains(&share) {
            bail!(
                "--log-share must be between 0.000001 (one request in a million) and 1, not {share}"
            );
        }
        p.log_share = share;
    }
    p.regions = args.regions.unwrap_or(1);
    let indexing = match (&args.read.indexing_policy, declared) {
        (None, Some(policy)) => {
            sources.insert("indexing".to_owned(), policy.source.clone());
            policy
        }
        _ => indexing_policy(&args.read)?,
    };
    p.indexing = indexing.describe();
    Ok((p, indexing))
}

/// The throughput the container is given, and by what: a flag or a template; none when
/// the default stands in or the account is serverless.
fn given_throughput(
    args: &CommonArgs,
    target: &Target,
    defaults: &[String],
    sources: &BTreeMap<String, String>,
) -> Option<Given> {
    if args.serverless || defaults.iter().any(|d| d == "throughput") {
        return None;
    }
    let source = match (
        args.throughput,
        args.autoscale_max,
        sources.get("throughput"),
    ) {
        (Some(_), _, _) => "--throughput".to_owned(),
        (None, Some(_), _) => "--autoscale-max".to_owned(),
        (None, None, Some(file)) => file.clone(),
        (None, None, None) => return None,
    };
    Some(Given {
        ru: target.throughput.max_ru(),
        source,
    })
}

/// `ru` given with `flag`: at least `min`, at most a billion, in steps of `step`.
pub(super) fn check_ru(ru: f64, flag: &str, min: f64, step: f64) -> Result<f64> {
    if !ru.is_finite() || ru < min || ru > 1e9 {
        bail!("{flag} must be between {min} and 1,000,000,000 RU/s, not {ru}");
    }
    if (ru / step).fract() != 0.0 {
        let below = (ru / step).floor() * step;
        bail!(
            "{flag} is set in steps of {step} RU/s, as Cosmos DB sets it: {ru} is not one (give {below} or {})",
            below + step
        );
    }
    Ok(ru)
}

/// What a command measures, beside the shared flags.
pub struct Plan {
    /// The candidates chosen (given, declared, layouts).
    pub candidates: Vec<Candidate>,
    /// How many candidates auto mode may generate.
    pub auto: usize,
    /// Generate candidates even though some were given (check's alternatives, layouts
    /// compared with keys).
    pub auto_extend: bool,
    /// `check`: the declared key, an Azure Monitor log's current key unless
    /// `--current-key` says otherwise.
    pub declared: Option<KeySpec>,
    /// `analyze --profile`: the profile files given, and what they hold.
    pub profiles: Option<(Vec<String>, Profile)>,
}

/// The library's request, built complete from the shared flags and the command's plan,
/// and what the report's options will take after the run.
pub fn request(args: &CommonArgs, plan: Plan, settings: &Settings) -> Result<(Request, Finish)> {
    let profiles = plan.profiles.as_ref().map(|(files, _)| files.as_slice());
    if let Some(files) = profiles {
        let readers = files.iter().chain(&args.read.docs).chain(&args.queries);
        if readers.filter(|a| *a == "-").count() > 1 {
            bail!("standard input (`-`) can feed only one of --profile, DOCS and --queries");
        }
    }
    let reading = reading(&args.read, profiles.is_some(), Some(&settings.indexing))?;
    let log = args.queries.as_deref().map(log_input);
    if profiles.is_none()
        && log.as_ref().is_some_and(LogInput::is_stdin)
        && (reading.sources.is_empty() || reading.sources.iter().any(Source::is_stdin))
    {
        bail!("--queries - reads standard input, so the documents must be given as files");
    }
    let log_options = log_options(
        args,
        plan.declared.as_ref(),
        settings.declared_container.as_deref(),
    )?;
    let (retention, retention_words, ttl_off) = retention(args, settings.declared_ttl.as_ref())?;
    let request = Request {
        sources: reading.sources,
        log,
        candidates: plan.candidates,
        time_path: reading.time_path,
        read: reading.read,
        memory: reading.memory,
        seed: args.read.seed,
        target: settings.target,
        auto: Some(plan.auto),
        auto_extend: plan.auto_extend,
        profile: plan.profiles.map(|(_, p)| p),
        log_options,
        consistency: settings.prices.consistency,
        log_share: args.log_share.unwrap_or(1.0),
        kinds: (
            args.sample.map(|s| match s {
                SampleArg::Snapshot => SampleKind::Snapshot,
                SampleArg::Complete => SampleKind::Complete,
            }),
            args.log_kind.map(|l| match l {
                LogKindArg::Requests => LogKind::Requests,
                LogKindArg::Values => LogKind::Values,
            }),
        ),
        unit: args.unit.clone(),
        retention,
        default_storage: args.target_storage.is_none(),
        ttl_off,
        trace: None,
    };
    let finish = Finish {
        retention: retention_words,
        timeline: TimelineFlags::new(args)?,
    };
    Ok((request, finish))
}

/// The request of `profile`: documents only, no log, no target of its own.
pub fn profile_request(
    args: &ReadArgs,
    candidates: Vec<Candidate>,
    auto: usize,
    retention: Option<&str>,
) -> Result<Request> {
    let reading = reading(args, false, None)?;
    Ok(Request {
        sources: reading.sources,
        log: None,
        candidates,
        time_path: reading.time_path,
        read: reading.read,
        memory: reading.memory,
        seed: args.seed,
        target: Target {
            storage_bytes: Target::DEFAULT_STORAGE,
            throughput: Target::DEFAULT_THROUGHPUT,
        },
        auto: Some(auto),
        auto_extend: false,
        profile: None,
        log_options: LogOptions::default(),
        consistency: Consistency::default(),
        log_share: 1.0,
        kinds: (None, None),
        unit: None,
        retention: retention
            .map(crate::units::parse_duration)
            .transpose()
            .map_err(|e| anyhow!("invalid --retention: {e}"))?,
        default_storage: false,
        ttl_off: false,
        trace: None,
    })
}

/// `--current-key` as given when every level is a document path: a log's `PartitionKey`
/// cells hold the values of the container's key properties, and a computed level (a
/// concatenation or a suffix) names no property they could be the values of.
fn plain_paths(spec: KeySpec) -> Result<KeySpec> {
    use crate::key::KeyLevel;
    match spec.levels().iter().all(|l| matches!(l, KeyLevel::Path(_))) {
        true => Ok(spec),
        false => anyhow::bail!(
            "--current-key {spec}: a computed key's values name no document property, so the log's PartitionKey values could not be routed; give the property the container is keyed by (e.g. /pk, where the application writes the computed value)"
        ),
    }
}

/// How the log is read: `--queries-format`, the current key of an Azure Monitor log
/// (`--current-key`, else `declared`: the key `check` gates), and the container whose rows
/// are read (`--log-container`, else `container`: the one `check`'s file declares).
pub fn log_options(
    args: &CommonArgs,
    declared: Option<&KeySpec>,
    container: Option<&str>,
) -> Result<LogOptions> {
    let current_key = match &args.current_key {
        Some(k) => Some(plain_paths(parse_spec(k, "--current-key")?)?),
        // A computed key gated by `check --key` is not what a log's PartitionKey holds.
        None => declared
            .filter(|k| plain_paths((*k).clone()).is_ok())
            .cloned(),
    };
    let format = match args.queries_format {
        QueriesFormat::Auto => LogFormat::Auto,
        QueriesFormat::Ndjson => LogFormat::Ndjson,
        QueriesFormat::AzureMonitor => LogFormat::AzureMonitor,
    };
    let container = match &args.log_container {
        Some(c) => Some(LogContainer::parse(c, crate::log::FLAG).map_err(anyhow::Error::msg)?),
        None => container
            .and_then(|q| LogContainer::parse(q, "the container --container declares").ok()),
    };
    Ok(LogOptions {
        format,
        current_key,
        container,
    })
}

/// How documents are read, from the reading flags.
struct Reading {
    sources: Vec<Source>,
    time_path: Option<KeyPath>,
    read: ReadOptions,
    memory: usize,
}

/// The documents and how to read them; `profiles` says statistics come from profiles too,
/// so that no DOCS reads nothing rather than standard input; `indexing` is the policy
/// already read (else `--indexing-policy` is read here).
fn reading(args: &ReadArgs, profiles: bool, indexing: Option<&IndexingPolicy>) -> Result<Reading> {
    let mut sources = Source::from_args(&args.docs)?;
    if let Some(p) = sources
        .iter()
        .find(|s| crate::measure::profile::is_profile(s))
    {
        bail!(
            "{}: a profile, not documents: give it with --profile (several may follow one flag: --profile DIR/*.profile.zst)",
            p.name()
        );
    }
    let reads_stdin = (args.docs.is_empty() && !profiles) || args.docs.iter().any(|d| d == "-");
    if reads_stdin && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        bail!(
            "no documents: give files, or pipe them in (`zcat export.json.gz | pkadvisor analyze`)"
        );
    }
    let time_path = args
        .time_path
        .as_deref()
        .map(|p| KeyPath::parse(p).map_err(|e| anyhow!("invalid --time-path {p:?}: {e}")))
        .transpose()?;
    let memory = parse_size(&args.memory).map_err(|e| anyhow!("invalid --memory: {e}"))?;
    let max_doc = parse_size(&args.max_document_size)
        .map_err(|e| anyhow!("invalid --max-document-size: {e}"))?;
    let read = ReadOptions {
        indexing: match indexing {
            Some(p) => p.clone(),
            None => indexing_policy(args)?,
        },
        skip_invalid: args.skip_invalid,
        max_document_bytes: max_doc.max(1) as usize,
        max_depth: args.max_depth as usize,
        // A fixed default, not the core count: past --memory the heavy-hitter estimates
        // depend on how the input is divided, and the same flags must give the same
        // report anywhere.
        threads: args.threads.map_or(DEFAULT_THREADS, usize::from),
        ..ReadOptions::default()
    };
    if profiles && args.docs.is_empty() {
        sources.clear();
    }
    Ok(Reading {
        sources,
        time_path,
        read,
        memory: memory as usize,
    })
}

/// The indexing policy of `--indexing-policy`, or the default (every path).
pub fn indexing_policy(args: &ReadArgs) -> Result<IndexingPolicy> {
    let Some(file) = &args.indexing_policy else {
        return Ok(IndexingPolicy::default());
    };
    let text = read_capped(file, "an indexing policy (a JSON object)")?;
    IndexingPolicy::read(file, &text).map_err(|e| anyhow!("--indexing-policy {e}"))
}

fn log_input(arg: &str) -> LogInput {
    if arg == "-" {
        LogInput::Stdin
    } else {
        LogInput::File(arg.into())
    }
}

/// Documents without a timestamp at `--time-path` are left out of the arrival windows: when
/// most lack it the path is wrong, and the write replay would silently be empty (an error);
/// when some lack it, the warning to print.
pub fn untimed(path: &KeyPath, outcome: &Outcome, skip_invalid: bool) -> Result<Option<String>> {
    let (missing, docs) = (outcome.untimed, outcome.input.documents);
    if missing == 0 {
        return Ok(None);
    }
    let message = format!(
        "--time-path {path}: {missing} of {docs} documents hold no timestamp there (RFC 3339 text, or epoch seconds or milliseconds)"
    );
    if missing.saturating_mul(2) > docs && !skip_invalid {
        bail!("{message}; check the path, or pass --skip-invalid to go on with the others");
    }
    Ok(Some(format!(
        "{message}; they are left out of the arrival windows"
    )))
}

/// The layouts given with `--layout`, as candidates, with each collection's size and
/// throughput from the flags; `target` bounds a spillover's collection count.
pub fn layouts(args: &CommonArgs, specs: &[String], target: &Target) -> Result<Vec<Candidate>> {
    let tier = tier(args)?;
    let mut out: Vec<Candidate> = Vec::new();
    for text in specs {
        let layout = parse_layout(text, tier)?;
        let n = layout.collections(target.storage_bytes);
        if n > MAX_COLLECTIONS {
            bail!(
                "--layout {layout}: {n} collections at the target of {}, more than {MAX_COLLECTIONS}: give a larger size or a smaller --target-storage",
                crate::units::human_bytes(target.storage_bytes)
            );
        }
        if !out.iter().any(|c| c.name() == layout.to_string()) {
            out.push(Candidate::layout(layout, "given with --layout"));
        }
    }
    Ok(out)
}

/// Whether a spec names a layout rather than a key (keys start with `/` or a function).
pub fn is_layout(spec: &str) -> bool {
    let t = spec.trim_start();
    ["spillover", "range:", "lookup:", "hash:"]
        .iter()
        .any(|k| t.starts_with(k))
}

/// The canonical spec of a layout given as `text`.
pub fn layout_name(args: &CommonArgs, text: &str) -> Result<String> {
    Ok(parse_layout(text, tier(args)?)?.to_string())
}

fn parse_layout(text: &str, tier: Tier) -> Result<Layout> {
    let read_map = |file: &str| -> std::result::Result<String, String> {
        read_capped(file, "a lookup map (a JSON object of value → collection)")
            .map_err(|e| e.to_string())
    };
    Layout::parse(text, tier, &read_map).map_err(|e| anyhow!("invalid --layout: {e}"))
}

/// Each collection's size and throughput, from the flags.
fn tier(args: &CommonArgs) -> Result<Tier> {
    let mut tier = Tier::default();
    if let Some(size) = &args.collection_size {
        tier.bytes = parse_size(size).map_err(|e| anyhow!("invalid --collection-size: {e}"))?;
        if tier.bytes < 1_000_000 {
            bail!("--collection-size must be at least 1MB");
        }
    }
    if let Some(ru) = args.collection_throughput {
        tier.ru = check_ru(ru, "--collection-throughput", 100.0, 100.0)?;
    }
    Ok(tier)
}

/// Candidates given with `--key`.
pub fn given(specs: Vec<KeySpec>) -> Vec<Candidate> {
    specs
        .into_iter()
        .map(|spec| Candidate::new(spec, "given with --key"))
        .collect()
}

/// The timeline's flags, read before the run so that a bad one stops it early.
struct TimelineFlags {
    /// `--growth`, bytes a day.
    growth: Option<f64>,
    /// `--start-storage`, bytes.
    start: Option<u64>,
    /// `--as-of`.
    as_of: Option<jiff::civil::Date>,
}

impl TimelineFlags {
    /// Reads `--growth`, `--start-storage` and `--as-of`.
    fn new(args: &CommonArgs) -> Result<TimelineFlags> {
        let growth = (args.growth.as_deref())
            .map(crate::units::parse_growth)
            .transpose()
            .map_err(|e| anyhow!("invalid --growth: {e}"))?;
        let start = (args.start_storage.as_deref())
            .map(parse_size)
            .transpose()
            .map_err(|e| anyhow!("invalid --start-storage: {e}"))?;
        if start == Some(0) || start.is_some_and(|s| s > Target::MAX_STORAGE) {
            bail!("--start-storage must be more than 0 bytes and at most 1PB");
        }
        let as_of = (args.as_of.as_deref())
            .map(|d| d.parse::<jiff::civil::Date>())
            .transpose()
            .map_err(|e| anyhow!("invalid --as-of (expected YYYY-MM-DD): {e}"))?;
        Ok(TimelineFlags {
            growth,
            start,
            as_of,
        })
    }

    /// What the timelines start from: `--growth` over the run's ingest (the log's creates,
    /// else the `--time-path` arrivals); from `--start-storage`, else the storage projected
    /// onto (`storage_bytes`); on `--as-of`, else the log's last timestamp, else the
    /// sample's latest `--time-path` value, else today (UTC). None without an ingest.
    fn basis(&self, o: &Outcome, storage_bytes: u64) -> Option<Basis> {
        use crate::advisor::pipeline::IngestFrom;
        use crate::advisor::timeline::{DatedFrom, IngestSource};
        let ingest = match (self.growth, o.ingest) {
            (Some(g), _) => Some((g, IngestSource::Growth)),
            (None, Some(i)) => Some((
                i.rate * 86_400.0,
                match i.from {
                    IngestFrom::Log => IngestSource::Log,
                    IngestFrom::Arrivals => IngestSource::TimePath,
                },
            )),
            (None, None) => None,
        };
        let (ingest_per_day, ingest_from) = ingest?;
        // The UTC day of a time in seconds since the epoch.
        let day = |t: i64| {
            let days = jiff::Span::new().try_days(t.div_euclid(86_400)).ok()?;
            jiff::civil::date(1970, 1, 1).checked_add(days).ok()
        };
        let (from, dated_from) = match (self.as_of, o.log_end.and_then(day)) {
            (Some(d), _) => (d, DatedFrom::AsOf),
            (None, Some(d)) => (d, DatedFrom::Log),
            (None, None) => match o.arrivals_end.and_then(day) {
                Some(d) => (d, DatedFrom::TimePath),
                None => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs() as i64);
                    let today = day(now).unwrap_or(jiff::civil::date(1970, 1, 1));
                    (today, DatedFrom::Today)
                }
            },
        };
        Some(Basis {
            ingest_per_day,
            ingest_from,
            start_bytes: self.start.unwrap_or(storage_bytes),
            from,
            dated_from,
            retention: o.retention,
        })
    }
}
