//! `pkadvisor check`: the CI gate for one declared partition key.

use anyhow::{Result, bail};

use pkadvisor::advisor::build_report;
use pkadvisor::engine::PartitionKeyDefinition;
use pkadvisor::gate::{self, GateOptions};
use pkadvisor::iac::{self, Declared};
use pkadvisor::indexing::IndexingPolicy;
use pkadvisor::input::side::read_capped;
use pkadvisor::key::KeySpec;
use pkadvisor::log::LogContainer;
use pkadvisor::measure::candidate::Candidate;
use pkadvisor::project::Target;
use pkadvisor::report::model::Role;
use pkadvisor::report::{self, View};

use super::request::Plan;
use super::{Exit, request};
use crate::cli::{CheckArgs, CommonArgs};

const DECLARED: &str = "declared";
/// How a declared global secondary index's origin starts.
const INDEX: &str = "global secondary index of";

/// Evaluates the declared key against the sample and gates it.
pub fn run(args: CheckArgs) -> Result<Exit> {
    let gate_options = gate_options(&args)?;
    let c = &args.common;
    let parameters = parameters(&args)?;
    let given = parameters.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
    let (file, found) = container_file(&args, given)?;
    let declared_ru = file.as_ref().and_then(|f| f.throughput.as_ref());
    let qualified = file.as_ref().map(|f| f.qualified.clone());
    let mut settings = request::Settings::with_declared(c, declared_ru)?;
    let target = settings.target;
    let (declared, container, policy, ttl) =
        declared_design(&args, &target, file.map(|f| f.design))?;
    let indexes = match (&args.container, &container) {
        (Some(file), Some(name)) => declared_indexes(file, name, found)?,
        _ => Vec::new(),
    };
    let pairs = (!indexes.is_empty()).then(|| {
        let specs = indexes.iter().map(|i| i.spec.to_string()).collect();
        (declared.spec.to_string(), specs)
    });
    let declared_key = declared.layout.is_none().then(|| declared.spec.clone());
    let mut candidates = vec![declared];
    candidates.extend(indexes);
    if args.container.is_some() {
        let given = request::parse_specs(&c.read.keys)?;
        let fresh: Vec<_> = (given.into_iter())
            .filter(|k| {
                !candidates
                    .iter()
                    .any(|d| d.spec == *k && d.layout.is_none())
            })
            .collect();
        candidates.extend(request::given(fresh));
    }
    let plan = Plan {
        candidates,
        auto: args.auto as usize,
        auto_extend: true,
        declared: declared_key,
        profiles: None,
    };
    let mut request = request::request(c, plan, &settings.prices, target)?;
    // A log of several containers is read for the one the file declares, unless named.
    if let (None, Some(q)) = (&request.log_options.container, &qualified) {
        request.log_options.container =
            LogContainer::parse(q, "the container --container declares").ok();
    }
    // The container's own indexing policy prices its writes, unless one is given.
    let mut sources = settings.sources.clone();
    if let (Some(p), None) = (policy, &c.read.indexing_policy) {
        sources.insert("indexing".to_owned(), p.source.clone());
        request.read.indexing = p;
    }
    settings.prices.indexing = request.read.indexing.describe();
    // The container's own time to live bounds its values, unless --retention is given.
    let mut retention = None;
    match (ttl, &args.container, &container, &c.retention) {
        (Some(ttl), Some(file), Some(name), None) => {
            retention = Some(declared_retention(ttl, file, name));
            request.retention = (ttl > 0).then_some(ttl as f64);
        }
        // A container declared without defaultTtl has time to live off.
        (None, Some(_), _, None) => request.ttl_off = true,
        _ => {}
    }
    let timeline = request::TimelineFlags::new(c)?;
    let outcome = request::run(request, c.read.quiet)?;
    let mut opts = settings.report_options(c, pairs);
    opts.retention = retention.or(opts.retention);
    request::settle(&mut opts, outcome.settled.clone());
    dated(&args, &timeline, &mut opts, &outcome)?;
    let mut report = build_report(outcome.evaluations, outcome.input, &opts);
    report.target.sources = sources;
    let verdict = gate::gate(&report, container, &gate_options);
    let passed = verdict.passed;
    report.check = Some(verdict);
    let style = request::style(c);
    super::write_report(c.output.as_deref(), |out| {
        report::render(View::Verdict(&report), settings.format, style, out)
    })?;
    Ok(if passed { Exit::Ok } else { Exit::CheckFailed })
}

/// Dates the report's timelines; `--horizon` needs them.
fn dated(
    args: &CheckArgs,
    timeline: &request::TimelineFlags,
    opts: &mut pkadvisor::advisor::ReportOptions,
    outcome: &pkadvisor::advisor::pipeline::Outcome,
) -> Result<()> {
    timeline.apply(opts, outcome);
    if args.horizon.is_some() && opts.timeline.is_none() {
        bail!(
            "--horizon needs the container's ingest: give a log with creates (and its --log-share), --time-path, or --growth SIZE/PERIOD"
        );
    }
    Ok(())
}

/// The gate's flags, validated.
fn gate_options(args: &CheckArgs) -> Result<GateOptions> {
    let mut gate = GateOptions::new(args.min_score, &args.deny, args.max_cost_ratio)?;
    if let Some(h) = &args.horizon {
        let seconds = pkadvisor::units::parse_duration(h)
            .map_err(|e| anyhow::anyhow!("invalid --horizon: {e}"))?;
        gate.horizon = Some((seconds, h.clone()));
    }
    Ok(gate)
}

/// The design a file declares: its key's candidate, the container's name, its indexing
/// policy and its default time to live in seconds.
type Design = (
    Candidate,
    Option<String>,
    Option<IndexingPolicy>,
    Option<i64>,
);

/// How long a declared container's items live (`ttl`: its `defaultTtl`), for the header.
fn declared_retention(ttl: i64, file: &str, name: &str) -> String {
    let how = match ttl {
        t if t > 0 => pkadvisor::units::human_duration(t as f64),
        _ => "forever unless their own ttl says otherwise".to_owned(),
    };
    format!("{how} (defaultTtl {ttl} of container {name} in {file})")
}

/// What `--container` declares: the design, and the throughput when it declares one.
struct FileDesign {
    design: Design,
    /// The container's `database/name`, or its name.
    qualified: String,
    throughput: Option<request::Declared>,
}

/// The design to check: a key (see [`declared_key`]), the one `file` declares, or a
/// client-side layout given with `--layout`.
fn declared_design(args: &CheckArgs, target: &Target, file: Option<Design>) -> Result<Design> {
    let mut layouts = request::layouts(&args.common, &args.common.layouts, target)?;
    match layouts.len() {
        0 => match file {
            Some(design) => Ok(design),
            None => declared_key(args),
        },
        1 if args.container.is_none() && args.common.read.keys.is_empty() => {
            let mut l = layouts.remove(0);
            l.origin = format!("{DECLARED} with --layout");
            Ok((l.with_role(Role::Declared), None, None, None))
        }
        1 => bail!("give one design to gate: --container FILE, --key SPEC or --layout SPEC"),
        _ => bail!("check gates one design: give --layout once"),
    }
}

/// The key to check given with `--key` (with `--container`, each `--key` is an
/// alternative to compare the declared key with).
fn declared_key(args: &CheckArgs) -> Result<Design> {
    match args.common.read.keys.as_slice() {
        [] => bail!(
            "check needs the design to gate: --container FILE (ARM, Bicep JSON, Terraform JSON), --key SPEC or --layout SPEC"
        ),
        [_, _, ..] => bail!("check gates one key: give --key once"),
        [key] => {
            let spec = request::parse_spec(key, "--key")?;
            let c = Candidate::new(spec, format!("{DECLARED} with --key"));
            Ok((c.with_role(Role::Declared), None, None, None))
        }
    }
}

/// The `--parameters` file: its name and contents.
fn parameters(args: &CheckArgs) -> Result<Option<(String, String)>> {
    let Some(file) = &args.parameters else {
        return Ok(None);
    };
    let text = read_capped(file, "a parameters file (ARM parameters, .tfvars)")?;
    Ok(Some((file.clone(), text)))
}

/// The `--parameters` file given, borrowed.
type Given<'a> = Option<(&'a str, &'a str)>;

/// Every container the file declares, with the parameter values `given`.
fn read_declared(file: &str, given: Given) -> Result<Vec<Declared>> {
    if iac::Syntax::of(file) == iac::Syntax::Hcl || std::path::Path::new(file).is_dir() {
        return iac::module::read_directory(file, given);
    }
    let text = read_capped(
        file,
        "an infrastructure file (ARM, Bicep JSON, Terraform JSON or HCL)",
    )?;
    Ok(iac::read_file(file, &text, given)?)
}

/// The global secondary indexes among the containers `file` declares (`found`) with
/// `source` as their source container, as candidates.
fn declared_indexes(file: &str, source: &str, found: Vec<Declared>) -> Result<Vec<Candidate>> {
    let mut out = Vec::new();
    for d in found
        .into_iter()
        .filter(|d| d.source.as_deref() == Some(source))
    {
        let origin = format!("{INDEX} {source} declared in {file} (container {})", d.name);
        out.push(candidate_of(file, "global secondary index", d, origin)?.with_role(Role::Index));
    }
    Ok(out)
}

/// A candidate with a declared definition, kept only when it differs from the spec's own
/// (a declared Hash V1 key), so that the same key generated again is not listed twice.
fn own_definition(spec: KeySpec, origin: String, definition: PartitionKeyDefinition) -> Candidate {
    let definition = (definition != spec.definition()).then_some(definition);
    Candidate {
        spec,
        origin,
        definition,
        layout: None,
        role: Role::Declared,
    }
}

/// The design `--container` declares, and every container of its file (or module), read
/// once: the design's indexes are among them.
fn container_file(args: &CheckArgs, given: Given) -> Result<(Option<FileDesign>, Vec<Declared>)> {
    let Some(file) = &args.container else {
        return Ok((None, Vec::new()));
    };
    let found = read_declared(file, given)?;
    Ok((Some(from_file(file, args, found.clone())?), found))
}

/// The design `file` declares among its containers `found`, picked by `--container-name`.
fn from_file(file: &str, args: &CheckArgs, found: Vec<Declared>) -> Result<FileDesign> {
    let name = args.container_name.as_deref();
    // Global secondary indexes are checked with their source, unless named.
    let found: Vec<Declared> = found
        .into_iter()
        .filter(|d| d.source.is_none() || name == Some(d.name.as_str()))
        .collect();
    let chosen = iac::pick(file, found, name)?;
    let origin = format!("{DECLARED} in {file} (container {})", chosen.name);
    let name = chosen.name.clone();
    let qualified = chosen.qualified.clone();
    let policy = chosen.indexing_policy(file)?;
    let throughput = declared_throughput(file, &chosen, &args.common)?;
    let ttl = chosen.default_ttl;
    let candidate = candidate_of(file, "container", chosen, origin)?;
    Ok(FileDesign {
        design: (candidate, Some(name), policy, ttl),
        qualified,
        throughput,
    })
}

/// The throughput `d` declares in `file`, when no flag gives one; one that cannot be read
/// is an error only then.
fn declared_throughput(
    file: &str,
    d: &Declared,
    c: &CommonArgs,
) -> Result<Option<request::Declared>> {
    if c.throughput.is_some() || c.autoscale_max.is_some() || c.serverless {
        return Ok(None);
    }
    match &d.throughput {
        None => Ok(None),
        Some(Ok(t)) => Ok(Some(request::Declared {
            throughput: t.throughput,
            source: format!("{file} (container {}, {})", d.name, t.field),
        })),
        Some(Err(e)) => bail!("{file}: container {:?}: {e}", d.name),
    }
}

/// The candidate a declared container (`what`: a container, an index) stands for.
fn candidate_of(file: &str, what: &str, d: Declared, origin: String) -> Result<Candidate> {
    let (spec, definition) = d.key(file, what)?;
    Ok(own_definition(spec, origin, definition))
}
