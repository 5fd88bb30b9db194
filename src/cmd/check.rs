//! `pkadvisor check`: the CI gate for one declared partition key.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};

use pkadvisor::advisor::candidate::Candidate;
use pkadvisor::advisor::project::Target;
use pkadvisor::advisor::{ReportOptions, build_report};
use pkadvisor::engine::PartitionKeyDefinition;
use pkadvisor::iac::{self, Declared};
use pkadvisor::key::{KeyLevel, KeySpec};
use pkadvisor::report::model::{
    CandidateReport, CheckResult, FindingCode, ObservedCheck, Report, Role, Severity,
};
use pkadvisor::report::text::{cost_summary, thousands};
use pkadvisor::report::{self, View};
use pkadvisor::units::human_bytes;

use super::{Exit, request};
use crate::cli::CheckArgs;

const DECLARED: &str = "declared";
/// How a declared global secondary index's origin starts.
const INDEX: &str = "global secondary index of";

/// Evaluates the declared key against the sample and gates it.
pub fn run(args: CheckArgs) -> Result<Exit> {
    let deny = deny_codes(&args.deny)?;
    if !(0.0..=100.0).contains(&args.min_score) {
        bail!(
            "--min-score must be between 0 and 100, not {}",
            args.min_score
        );
    }
    if !args.max_cost_ratio.is_finite() || args.max_cost_ratio <= 1.0 {
        bail!(
            "--max-cost-ratio must be more than 1, not {}",
            args.max_cost_ratio
        );
    }
    let c = &args.common;
    let (target, defaults) = request::target(c)?;
    let (declared, container) = declared_design(&args, &target)?;
    let indexes = match (&args.container, &container) {
        (Some(file), Some(name)) => declared_indexes(file, name)?,
        _ => Vec::new(),
    };
    let pairs = (!indexes.is_empty()).then(|| {
        let specs = indexes.iter().map(|i| i.spec.to_string()).collect();
        (declared.spec.to_string(), specs)
    });
    let prices = request::prices(c, &target)?;
    let declared_is_key = declared.layout.is_none();
    let mut candidates = vec![declared];
    candidates.extend(indexes);
    let declared_spec = (declared_is_key).then(|| candidates[0].spec.clone());
    let mut request = request::request(c, candidates, target)?;
    request.log_options = request::log_options(c, declared_spec.as_ref())?;
    request.auto = Some(args.auto as usize);
    request.auto_extend = true;
    let outcome = request::run(request, c.read.quiet)?;
    let opts = ReportOptions {
        target,
        defaults,
        top_values: c.top,
        redact: c.redact,
        prices,
        gsi: c.gsi == crate::cli::GsiArg::Auto,
        declared_indexes: pairs,
    };
    let mut report = build_report(outcome.evaluations, outcome.input, &opts);
    let verdict = gate(&report, container, &args, &deny);
    let passed = verdict.passed;
    report.check = Some(verdict);
    let mut out = std::io::stdout().lock();
    let format = request::format(c.format, c.wide);
    report::render(View::Verdict(&report), format, request::style(c), &mut out)
        .context("writing the verdict")?;
    out.flush()?;
    Ok(if passed { Exit::Ok } else { Exit::CheckFailed })
}

/// The design to check: a key (see [`declared_key`]) or a client-side layout given with
/// `--layout`.
fn declared_design(args: &CheckArgs, target: &Target) -> Result<(Candidate, Option<String>)> {
    let mut layouts = request::layouts(&args.common, &args.common.layouts, target)?;
    match layouts.len() {
        0 => declared_key(args),
        1 if args.container.is_none() && args.common.read.keys.is_empty() => {
            let mut l = layouts.remove(0);
            l.origin = format!("{DECLARED} with --layout");
            Ok((l.with_role(Role::Declared), None))
        }
        1 => bail!("give one design to gate: --container FILE, --key SPEC or --layout SPEC"),
        _ => bail!("check gates one design: give --layout once"),
    }
}

/// The key to check, from `--container` or `--key`, and the container's name.
fn declared_key(args: &CheckArgs) -> Result<(Candidate, Option<String>)> {
    match (&args.container, args.common.read.keys.as_slice()) {
        (Some(_), [_, ..]) => bail!("give either --container FILE or --key SPEC, not both"),
        (None, []) => bail!(
            "check needs the design to gate: --container FILE (ARM, Bicep JSON, Terraform JSON), --key SPEC or --layout SPEC"
        ),
        (None, [_, _, ..]) => bail!("check gates one key: give --key once"),
        (None, [key]) => {
            let spec = request::parse_spec(key, "--key")?;
            let c = Candidate::new(spec, format!("{DECLARED} with --key"));
            Ok((c.with_role(Role::Declared), None))
        }
        (Some(file), []) => from_file(file, args.container_name.as_deref()),
    }
}

/// Every container the file declares.
fn read_declared(file: &str) -> Result<Vec<Declared>> {
    let text = request::read_capped(
        file,
        "an infrastructure file (ARM, Bicep JSON, Terraform JSON)",
    )?;
    let doc: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| anyhow!("{file}:{}:{}: not JSON ({e}); Bicep files must be compiled to ARM JSON first (az bicep build)", e.line(), e.column()))?;
    Ok(iac::containers(&doc))
}

/// The global secondary indexes `file` declares with `source` as their source container,
/// as candidates.
fn declared_indexes(file: &str, source: &str) -> Result<Vec<Candidate>> {
    let mut out = Vec::new();
    for d in read_declared(file)?
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

fn from_file(file: &str, name: Option<&str>) -> Result<(Candidate, Option<String>)> {
    let found = read_declared(file)?;
    // Global secondary indexes are checked with their source, unless named.
    let found: Vec<Declared> = found
        .into_iter()
        .filter(|d| d.source.is_none() || name == Some(d.name.as_str()))
        .collect();
    let chosen = pick(file, found, name)?;
    let origin = format!("{DECLARED} in {file} (container {})", chosen.name);
    let name = chosen.name.clone();
    Ok((candidate_of(file, "container", chosen, origin)?, Some(name)))
}

/// The candidate a declared container (`what`: a container, an index) stands for; an
/// invalid key is an error naming it and where it is in `file`.
fn candidate_of(file: &str, what: &str, d: Declared, origin: String) -> Result<Candidate> {
    let definition = d.definition.map_err(|e| {
        anyhow!(
            "{file}: {what} {:?} (at {}) declares an invalid partition key: {e}",
            d.name,
            d.at
        )
    })?;
    let spec = spec_of(&definition)?;
    Ok(own_definition(spec, origin, definition))
}

fn pick(file: &str, found: Vec<Declared>, name: Option<&str>) -> Result<Declared> {
    if found.is_empty() {
        bail!(
            "{file}: no Cosmos DB container found (looked for ARM resources of type {}, a partitionKey object, and Terraform {} resources)",
            iac::ARM_TYPE,
            iac::TERRAFORM_TYPE
        );
    }
    let names: Vec<String> = found.iter().map(|d| d.qualified.clone()).collect();
    match name {
        Some(n) => {
            let mut matching: Vec<Declared> = found
                .into_iter()
                .filter(|d| d.name == n || d.qualified == n)
                .collect();
            match matching.len() {
                0 => bail!(
                    "{file}: no container named {n:?}; it declares: {}",
                    names.join(", ")
                ),
                1 => Ok(matching.remove(0)),
                _ => bail!(
                    "{file}: several containers are named {n:?}: {}; pick one with --container-name database/container",
                    matching
                        .iter()
                        .map(|d| d.qualified.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
        None if found.len() == 1 => Ok(found.into_iter().next().expect("one")),
        None => bail!(
            "{file} declares {} containers; pick one with --container-name: {}",
            found.len(),
            names.join(", ")
        ),
    }
}

/// The spec of a declared definition: one path, or a hierarchical key.
fn spec_of(def: &PartitionKeyDefinition) -> Result<KeySpec> {
    let levels: Vec<KeyLevel> = def.paths().iter().cloned().map(KeyLevel::Path).collect();
    // A one-level MultiHash key hashes like Hash V2: its spec is the single path, and the
    // candidate keeps the declared definition.
    KeySpec::new(levels).map_err(|e| anyhow!("declared key: {e}"))
}

/// The codes given with `--deny`, each one the design names.
fn deny_codes(names: &[String]) -> Result<Vec<FindingCode>> {
    (names.iter())
        .map(|n| {
            FindingCode::parse(n).ok_or_else(|| {
                let all: Vec<&str> = FindingCode::ALL.iter().map(|c| c.as_str()).collect();
                anyhow!(
                    "unknown finding code {n:?} for --deny (one of {})",
                    all.join(", ")
                )
            })
        })
        .collect()
}

/// Applies the gate to the declared candidate.
fn gate(
    report: &Report,
    container: Option<String>,
    args: &CheckArgs,
    deny: &[FindingCode],
) -> CheckResult {
    let min_score = args.min_score;
    let c = report.declared();
    let mut reasons = Vec::new();
    // A declared index that leaves fan-out below the threshold serves those reads.
    let served = |code: &FindingCode| {
        *code == FindingCode::FanOutQueries
            && report.declared_indexes.iter().any(|i| {
                i.fan_out_share
                    .is_some_and(|f| f < pkadvisor::advisor::findings::FAN_OUT_RU_SHARE)
            })
    };
    for f in &c.findings {
        if f.severity == Severity::Violation {
            reasons.push(format!("{} (violation): {}", f.code, f.message));
        } else if deny.contains(&f.code) && !served(&f.code) {
            reasons.push(format!("{} (denied with --deny): {}", f.code, f.message));
        }
    }
    if c.score < min_score {
        reasons.push(format!(
            "score {:.1} is below --min-score {min_score}",
            c.score
        ));
    }
    let best_alternative = report
        .candidates
        .iter()
        .find(|o| is_alternative(o))
        .filter(|o| o.score > c.score)
        .map(|o| o.key.spec.clone());
    let cheapest = cheapest_alternative(report);
    let cost_ratio = cheapest.map(|o| cost_ratio(report, c, o));
    if let (Some(o), Some(r)) = (cheapest, cost_ratio)
        && r >= args.max_cost_ratio
    {
        let (what, mine) = match report.pair_against(o) {
            Some(p) => (
                "with its declared indexes, the monthly bill",
                format!("{} USD a month with its indexes", thousands(p)),
            ),
            None => ("the RU/s", cost_summary(c)),
        };
        reasons.push(format!(
            "needs {r:.1}× {what} of {} (--max-cost-ratio {}): {mine} against {}",
            o.key.spec,
            args.max_cost_ratio,
            cost_summary(o)
        ));
    }
    let observed = observed(report, c);
    if let Some(o) = &observed
        && o.largest_bytes as f64 >= OBSERVED_NEAR_LIMIT * LOGICAL_LIMIT as f64
    {
        reasons.push(format!(
            "the Azure Monitor log shows logical partition {} at {} already, {:.0}% of the {} limit (CDBPartitionKeyStatistics)",
            o.value,
            human_bytes(o.largest_bytes),
            100.0 * o.largest_bytes as f64 / LOGICAL_LIMIT as f64,
            human_bytes(LOGICAL_LIMIT)
        ));
    }
    CheckResult {
        observed,
        passed: reasons.is_empty(),
        key: c.key.spec.clone(),
        container,
        min_score,
        reasons,
        best_alternative,
        max_cost_ratio: args.max_cost_ratio,
        cheapest_alternative: cheapest.map(|o| o.key.spec.clone()),
        cost_ratio: cost_ratio.map(pkadvisor::advisor::cents),
    }
}

/// A declared key fails when the log shows a logical partition at this share of 20 GB.
const OBSERVED_NEAR_LIMIT: f64 = 0.9;
const LOGICAL_LIMIT: u64 = 20_000_000_000;

/// The largest partition an Azure Monitor log observed of the declared key (its current
/// key), beside the projection's.
fn observed(report: &Report, c: &CandidateReport) -> Option<ObservedCheck> {
    let m = report.input.monitor.as_ref()?;
    if m.current_key.as_deref() != Some(c.key.spec.as_str()) {
        return None;
    }
    let p = m.largest_partitions.first()?;
    Some(ObservedCheck {
        largest_bytes: p.bytes,
        value: p.value.clone(),
        projected_bytes: c.storage.largest_logical_bytes,
    })
}

/// What the declared key (with its declared indexes, priced as pairs: the cheapest pair's
/// monthly bill against the alternative's) needs over what `alt` needs: by efficiency, or
/// by the RU/s to provision when both are known and that says more (a layout's
/// collections each need 400 RU/s, whatever their load).
fn cost_ratio(report: &Report, c: &CandidateReport, alt: &CandidateReport) -> f64 {
    match report.pair_against(alt) {
        Some(p) => p / alt.cost.monthly.total.max(f64::MIN_POSITIVE),
        _ => pkadvisor::advisor::cost::ratio(c, alt),
    }
}

/// A candidate the declared key is compared with: neither it nor a declared index, and
/// free of violations.
fn is_alternative(o: &CandidateReport) -> bool {
    !matches!(o.role, Role::Declared | Role::Index)
        && o.findings.iter().all(|f| f.severity != Severity::Violation)
}

/// The alternative without violations that needs the fewest RU/s (ties: the better rank).
fn cheapest_alternative(report: &Report) -> Option<&CandidateReport> {
    report
        .candidates
        .iter()
        .filter(|o| is_alternative(o))
        .max_by(|a, b| {
            a.cost
                .efficiency
                .total_cmp(&b.cost.efficiency)
                .then(b.rank.cmp(&a.rank))
        })
}
