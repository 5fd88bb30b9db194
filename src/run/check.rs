//! `pkadvisor check`: the design to gate (a key the infrastructure file declares, a
//! `--key` or a `--layout`), what the file declares beside it, the run, and the verdict.

use anyhow::{Result, bail};

use crate::advisor::build_report;
use crate::engine::PartitionKeyDefinition;
use crate::flags::{CheckArgs, CommonArgs};
use crate::gate::{self, GateOptions};
use crate::iac::{self, Declared};
use crate::input::side::read_capped;
use crate::key::KeySpec;
use crate::measure::candidate::Candidate;
use crate::project::Target;
use crate::report::Format;
use crate::report::model::{Report, Role};

use super::Runner;
use super::request::{self, Declaration, DeclaredTtl, Plan, Settings};

const DECLARED: &str = "declared";
/// How a declared global secondary index's origin starts.
const INDEX: &str = "global secondary index of";

/// `check`'s report, its verdict included, and the format to write it in.
pub struct Checked {
    /// The report, with its `check` block.
    pub report: Report,
    /// The output format.
    pub format: Format,
}

impl Checked {
    /// Whether the design passed the gate.
    pub fn passed(&self) -> bool {
        self.report.check.as_ref().is_some_and(|c| c.passed)
    }
}

/// Evaluates the declared design against the sample, read through `runner`, and gates it.
pub fn check(args: &CheckArgs, runner: &mut dyn Runner) -> Result<Checked> {
    let gate_options = gate_options(args)?;
    let c = &args.common;
    let parameters = parameters(args)?;
    let given = parameters.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
    let (file, found) = container_file(args, given)?;
    let (design, declaration) = match file {
        Some(f) => (Some((f.candidate, f.name)), f.declaration),
        None => (None, Declaration::default()),
    };
    let settings = Settings::with_declared(c, declaration)?;
    let (declared, container) = declared_design(args, &settings.target, design)?;
    let indexes = match (&args.file.container, &container) {
        (Some(file), Some(name)) => declared_indexes(file, name, found)?,
        _ => Vec::new(),
    };
    let pairs = (!indexes.is_empty()).then(|| {
        let specs = indexes.iter().map(|i| i.spec.to_string()).collect();
        (declared.spec.to_string(), specs)
    });
    let plan = Plan {
        declared: declared.layout.is_none().then(|| declared.spec.clone()),
        candidates: candidates(args, declared, indexes)?,
        auto: args.auto as usize,
        auto_extend: true,
        profiles: None,
    };
    let (request, finish) = request::request(c, plan, &settings)?;
    let outcome = runner.run(request)?;
    let opts = settings.report_options(c, pairs, &outcome, &finish);
    if args.horizon.is_some() && opts.timeline.is_none() {
        bail!(
            "--horizon needs the container's ingest: give a log with creates (and its --log-share), --time-path, or --growth SIZE/PERIOD"
        );
    }
    let mut report = build_report(outcome.evaluations, outcome.input, &opts);
    report.check = Some(gate::gate(&report, container, &gate_options));
    Ok(Checked {
        report,
        format: settings.format,
    })
}

/// The candidates: the declared design, the indexes declared beside it and, with
/// `--container`, every `--key` given as an alternative.
fn candidates(
    args: &CheckArgs,
    declared: Candidate,
    indexes: Vec<Candidate>,
) -> Result<Vec<Candidate>> {
    let mut candidates = vec![declared];
    candidates.extend(indexes);
    if args.file.container.is_some() {
        let given = request::parse_specs(&args.common.read.keys)?;
        let fresh: Vec<_> = (given.into_iter())
            .filter(|k| {
                !candidates
                    .iter()
                    .any(|d| d.spec == *k && d.layout.is_none())
            })
            .collect();
        candidates.extend(request::given(fresh));
    }
    Ok(candidates)
}

/// The gate's flags, validated.
fn gate_options(args: &CheckArgs) -> Result<GateOptions> {
    let mut gate = GateOptions::new(args.min_score, &args.deny, args.max_cost_ratio)?;
    if let Some(h) = &args.horizon {
        let seconds = crate::units::parse_duration(h)
            .map_err(|e| anyhow::anyhow!("invalid --horizon: {e}"))?;
        gate.horizon = Some((seconds, h.clone()));
    }
    Ok(gate)
}

/// What `--container` declares: the design's key and container, and what the file declares
/// beside it.
pub(crate) struct FileDesign {
    /// The key it declares, as the declared design.
    pub candidate: Candidate,
    /// The container's name.
    pub name: String,
    /// What it declares beside the key.
    pub declaration: Declaration,
}

/// The design to check: a key (see [`declared_key`]), the one `file` declares, or a
/// client-side layout given with `--layout`.
fn declared_design(
    args: &CheckArgs,
    target: &Target,
    file: Option<(Candidate, String)>,
) -> Result<(Candidate, Option<String>)> {
    let mut layouts = request::layouts(&args.common, &args.common.layouts, target)?;
    match layouts.len() {
        0 => match file {
            Some((candidate, name)) => Ok((candidate, Some(name))),
            None => declared_key(args),
        },
        1 if args.file.container.is_none() && args.common.read.keys.is_empty() => {
            let mut l = layouts.remove(0);
            l.origin = format!("{DECLARED} with --layout");
            Ok((l.with_role(Role::Declared), None))
        }
        1 => bail!("give one design to gate: --container FILE, --key SPEC or --layout SPEC"),
        _ => bail!("check gates one design: give --layout once"),
    }
}

/// The key to check given with `--key` (with `--container`, each `--key` is an
/// alternative to compare the declared key with).
fn declared_key(args: &CheckArgs) -> Result<(Candidate, Option<String>)> {
    match args.common.read.keys.as_slice() {
        [] => bail!(
            "check needs the design to gate: --container FILE (ARM, Bicep JSON, Terraform JSON), --key SPEC or --layout SPEC"
        ),
        [_, _, ..] => bail!("check gates one key: give --key once"),
        [key] => {
            let spec = request::parse_spec(key, "--key")?;
            let c = Candidate::new(spec, format!("{DECLARED} with --key"));
            Ok((c.with_role(Role::Declared), None))
        }
    }
}

/// The `--parameters` file: its name and contents.
fn parameters(args: &CheckArgs) -> Result<Option<(String, String)>> {
    parameters_file(args.file.parameters.as_deref())
}

/// A parameters file's name and contents.
fn parameters_file(file: Option<&str>) -> Result<Option<(String, String)>> {
    let Some(file) = file else {
        return Ok(None);
    };
    let text = read_capped(file, "a parameters file (ARM parameters, .tfvars)")?;
    Ok(Some((file.to_owned(), text)))
}

/// The container `file` declares (the one named `name` when it declares several), read
/// with the `parameters` file: its key as the declared design, and what it declares beside
/// it (`migrate`'s source container).
pub(crate) fn declared_container(
    file: &str,
    name: Option<&str>,
    parameters: Option<&str>,
    common: &CommonArgs,
) -> Result<FileDesign> {
    let parameters = parameters_file(parameters)?;
    let given = parameters.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
    from_file(file, name, common, read_declared(file, given)?)
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
    let Some(file) = &args.file.container else {
        return Ok((None, Vec::new()));
    };
    let found = read_declared(file, given)?;
    let name = args.file.container_name.as_deref();
    Ok((
        Some(from_file(file, name, &args.common, found.clone())?),
        found,
    ))
}

/// The design `file` declares among its containers `found`, picked by `--container-name`.
fn from_file(
    file: &str,
    name: Option<&str>,
    common: &CommonArgs,
    found: Vec<Declared>,
) -> Result<FileDesign> {
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
    let throughput = declared_throughput(file, &chosen, common)?;
    let ttl = chosen.default_ttl;
    let candidate = candidate_of(file, "container", chosen, origin)?;
    Ok(FileDesign {
        candidate,
        name: name.clone(),
        declaration: Declaration {
            throughput,
            indexing: policy,
            ttl: Some(DeclaredTtl {
                seconds: ttl,
                file: file.to_owned(),
                container: name,
            }),
            qualified: Some(qualified),
        },
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
