//! `pkadvisor migrate`: the container today (`--from`, or the key `--container` declares
//! with its throughput, indexing policy and defaultTtl), the new key (`--to`), one run that
//! measures both and traces the copy, and the plan.

use anyhow::{Result, bail};

use super::Runner;
use super::check::declared_container;
use super::request::{self, Declaration, Plan, Settings};
use crate::advisor::build_report;
use crate::flags::MigrateArgs;
use crate::key::KeySpec;
use crate::measure::candidate::Candidate;
use crate::migrate::{self, Inputs, Replayed, Source, Target};
use crate::report::Format;
use crate::report::migration::MigrationReport;
use crate::report::model::{CandidateReport, Role};

/// The plan, and the format to write it in.
pub struct Migrated {
    /// The plan.
    pub report: MigrationReport,
    /// The output format.
    pub format: Format,
}

/// Reads the inputs through `runner` and plans the copy.
pub fn migrate(args: &MigrateArgs, runner: &mut dyn Runner) -> Result<Migrated> {
    let c = &args.common;
    let (from, declaration, default_ttl, to) = keys(args)?;
    let online = online(args)?;
    let settings = Settings::with_declared(c, declaration)?;
    let copy_ru = copy_throughput(args, &settings.target)?;
    let to_spec = to.to_string();
    let levels = to.levels().len();
    let plan = Plan {
        declared: Some(from.spec.clone()),
        candidates: vec![from, Candidate::new(to, "the new key (--to)")],
        auto: 0,
        auto_extend: false,
        profiles: None,
    };
    let (mut req, finish) = request::request(c, plan, &settings)?;
    req.trace = Some((0, 1));
    let mut outcome = runner.run(req)?;
    let Some(trace) = outcome.trace.take() else {
        bail!("the copy was not traced: give the documents");
    };
    let m = measured(&outcome);
    let opts = settings.report_options(c, None, &outcome, &finish);
    let storage_bytes = opts.target.storage_bytes;
    refuse_smaller(storage_bytes, outcome.input.bytes)?;
    let ru = opts.target.throughput.max_ru();
    let input = outcome.input.clone();
    let report = build_report(outcome.evaluations, outcome.input, &opts);
    let find = |role: Role| report.candidates.iter().find(|k| k.role == role);
    let (Some(f), Some(t)) = (find(Role::Declared), find(Role::Given)) else {
        bail!("the two keys were not both measured");
    };
    let ru = at_least_minimum(ru, copy_ru, (f, t))?;
    let inputs = Inputs {
        trace: &trace,
        source: Source {
            spec: f.key.spec.clone(),
            container: &m.containers.0,
            ru,
            load_ru: f.cost.load_ru,
            write_share: m.write_share,
            largest: (m.largest.clone())
                .map(|(label, bytes)| (crate::redact::hider(c.redact)(&label), bytes)),
        },
        target: Target {
            spec: to_spec,
            container: &m.containers.1,
            ru,
            levels,
            breaks: (t.findings.iter())
                .any(|f| f.code == crate::report::model::FindingCode::LogicalPartitionLimit),
            replay: Replayed {
                need_ru: need(t),
                ..m.replay
            },
        },
        input,
        sample: m.sample,
        storage_bytes,
        copy_ru,
        online,
        prices: &opts.prices,
        default_ttl,
        ttl_declared: args.file.container.is_some(),
        merged: args.merged,
        redact: c.redact,
    };
    Ok(Migrated {
        report: migrate::plan(&inputs),
        format: settings.format,
    })
}

/// What the run measured that the report does not keep.
struct Measured {
    /// The source key's and the new key's containers at the target's size.
    containers: (crate::engine::Container, crate::engine::Container),
    /// The share of the source's workload RU its writes take.
    write_share: f64,
    /// What the replay charged the new key.
    replay: Replayed,
    /// What the sample is.
    sample: crate::project::kinds::SampleKind,
    /// The source key's largest value and its bytes, when past 20 GB beyond chance.
    largest: Option<(String, u64)>,
}

fn measured(outcome: &crate::advisor::pipeline::Outcome) -> Measured {
    let ev = &outcome.evaluations;
    Measured {
        containers: (
            ev[0].projection.container.clone(),
            ev[1].projection.container.clone(),
        ),
        write_share: share(ev[0].workload.write_ru_model, ev[0].workload.ru),
        replay: Replayed {
            ru: ev[1].workload.ru,
            fan_out_reads: ev[1].workload.fan_out as f64,
            need_ru: None,
        },
        sample: outcome.kinds.sample,
        largest: (ev[0].projection.largest.as_ref())
            .filter(|l| l.low > crate::engine::Limits::default().logical_bytes)
            .map(|l| (l.label.clone(), l.bytes)),
    }
}

/// The source (its key as the declared candidate, what its file declares, its defaultTtl)
/// and the new key, checked.
fn keys(args: &MigrateArgs) -> Result<(Candidate, Declaration, Option<i64>, KeySpec)> {
    refuse_flags(args)?;
    let (from, declaration, ttl) = source(args)?;
    let to = request::parse_spec(&args.to, "--to")?;
    if to == from.spec && from.definition.is_none() {
        bail!("--to {to} is the container's key already: there is nothing to copy");
    }
    Ok((from, declaration, ttl, to))
}

/// The container's RU/s, at least what the service allows its size (1 RU/s per GB, the
/// autoscale maximum's 10 per GB, 400) under either key: what it runs at whatever the flag
/// says. A copy throughput below that is refused.
fn at_least_minimum(
    ru: f64,
    copy_ru: Option<f64>,
    (f, t): (&CandidateReport, &CandidateReport),
) -> Result<f64> {
    let minimum = f.cost.minimum_ru.max(t.cost.minimum_ru);
    refuse_below(copy_ru, minimum)?;
    Ok(ru.max(minimum))
}

/// Refuses a copy throughput below what the service allows the container's size.
fn refuse_below(copy_ru: Option<f64>, minimum: f64) -> Result<()> {
    match copy_ru {
        Some(ru) if ru < minimum => bail!(
            "--copy-throughput {ru} is below the {} RU/s the new container needs at this size (1 RU/s per GB stored, an autoscale maximum of 10 per GB, at least 400)",
            crate::report::text::thousands(minimum)
        ),
        _ => Ok(()),
    }
}

/// Refuses a container smaller than the sample read from it.
fn refuse_smaller(storage: u64, sample: u64) -> Result<()> {
    if storage < sample {
        bail!(
            "the container ({}) is smaller than the sample ({}): give --target-storage with the container's size",
            crate::units::human_bytes(storage),
            crate::units::human_bytes(sample)
        );
    }
    Ok(())
}

/// What the new key needs for the workload, when the log gives rates.
fn need(t: &CandidateReport) -> Option<f64> {
    t.cost.need_ru.or(t.cost.required_ru)
}

/// `part` over `whole`, 0 when the whole is nothing.
fn share(part: f64, whole: f64) -> f64 {
    match whole > 0.0 {
        true => (part / whole).clamp(0.0, 1.0),
        false => 0.0,
    }
}

/// The flags `analyze` and `check` take that a plan has no use for.
fn refuse_flags(args: &MigrateArgs) -> Result<()> {
    let c = &args.common;
    if !c.read.keys.is_empty() {
        bail!(
            "migrate takes the keys as --from SPEC (or --container FILE) and --to SPEC, not --key"
        );
    }
    if !c.layouts.is_empty() {
        bail!("migrate plans a copy between keys: --layout is not taken");
    }
    Ok(())
}

/// The source's key as the declared candidate, what its file declares, and its
/// defaultTtl when on.
fn source(args: &MigrateArgs) -> Result<(Candidate, Declaration, Option<i64>)> {
    match (&args.file.container, &args.from) {
        (Some(file), None) => {
            let d = declared_container(
                file,
                args.file.container_name.as_deref(),
                args.file.parameters.as_deref(),
                &args.common,
            )?;
            let ttl = d.declaration.ttl.as_ref().and_then(|t| t.seconds);
            Ok((d.candidate, d.declaration, ttl))
        }
        (None, Some(spec)) => {
            let spec = request::parse_spec(spec, "--from")?;
            let c = Candidate::new(spec, "the container's key (--from)").with_role(Role::Declared);
            Ok((c, Declaration::default(), None))
        }
        _ => bail!("give the container's key once: --from SPEC or --container FILE"),
    }
}

/// `--copy-throughput`, checked in the steps of the container's throughput mode.
fn copy_throughput(args: &MigrateArgs, target: &crate::project::Target) -> Result<Option<f64>> {
    use crate::pricing::throughput::{AUTOSCALE_STEP, MANUAL_STEP};
    let Some(ru) = args.copy_throughput else {
        return Ok(None);
    };
    if args.common.serverless {
        bail!(
            "--copy-throughput cannot be given with --serverless: a serverless container serves what its partitions do (5,000 RU/s up to five, 1,000 more for each further one)"
        );
    }
    let flag = "--copy-throughput";
    let ru = match target.throughput {
        crate::engine::Throughput::Manual(_) => request::check_ru(ru, flag, 400.0, MANUAL_STEP)?,
        crate::engine::Throughput::Autoscale(_) => {
            request::check_ru(ru, flag, 1000.0, AUTOSCALE_STEP)?
        }
    };
    Ok(Some(ru))
}

/// The online surcharge, checked: `None` for an offline copy.
fn online(args: &MigrateArgs) -> Result<Option<f64>> {
    if !args.online {
        return Ok(None);
    }
    match args
        .online_surcharge
        .unwrap_or(migrate::copy::ONLINE_SURCHARGE)
    {
        f if f.is_finite() && (0.0..=10.0).contains(&f) => Ok(Some(f)),
        f => bail!("--online-surcharge must be a share from 0 to 10 (1: charged double), not {f}"),
    }
}
