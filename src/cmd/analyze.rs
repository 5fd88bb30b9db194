//! `pkadvisor analyze`: rank candidate keys over sample documents and a query log.

use std::io::Write;

use anyhow::{Context, Result, anyhow};

use pkadvisor::advisor::{self, ReportOptions, build_report, profile};
use pkadvisor::report::{self, explain};

use super::{Exit, common};
use crate::cli::AnalyzeArgs;

/// Reads the inputs and prints the ranking (or one candidate's partition map).
pub fn run(args: AnalyzeArgs) -> Result<Exit> {
    let c = &args.common;
    let mut specs = common::parse_specs(&c.read.keys)?;
    let explain_spec = args
        .explain
        .as_deref()
        .map(|s| common::parse_spec(s, "--explain"))
        .transpose()?;
    if let Some(e) = &explain_spec
        && !specs.contains(e)
    {
        specs.push(e.clone());
    }
    let (target, defaults) = common::target(c)?;
    let prices = common::prices(c, &target)?;
    let format = common::format(c.format, c.wide);
    let profiles = !args.profiles.is_empty();
    let mut request = if profiles {
        let mut r = common::request_with_profiles(c, &args.profiles, target)?;
        r.profile = Some(profile::load(&args.profiles)?);
        r
    } else {
        common::request(c, common::given(specs), target)?
    };
    request.auto = Some(args.auto as usize);
    let mut outcome = common::run(request, c.read.quiet)?;
    let mut out = std::io::stdout().lock();
    if let Some(spec) = explain_spec {
        let e = outcome
            .evaluations
            .iter_mut()
            .find(|e| e.spec == spec)
            .ok_or_else(|| anyhow!("--explain {spec}: the profiles did not measure this key"))?;
        let map = advisor::explain(e, target.storage_bytes, c.redact);
        explain::render(&map, format, &mut out).context("writing the map")?;
    } else {
        let opts = ReportOptions {
            target,
            defaults,
            top_values: c.top,
            redact: c.redact,
            prices,
            gsi: c.gsi == crate::cli::GsiArg::Auto,
            declared_indexes: None,
        };
        let report = build_report(outcome.evaluations, outcome.input, &opts);
        report::render(&report, format, &mut out).context("writing the report")?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
