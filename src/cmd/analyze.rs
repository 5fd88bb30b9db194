//! `pkadvisor analyze`: rank candidate keys over sample documents and a query log.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};

use pkadvisor::advisor::{self, ReportOptions, build_report, profile};
use pkadvisor::report::{self, View};

use super::{Exit, request};
use crate::cli::AnalyzeArgs;

/// What `--explain` shows: a key's partition map or a layout's collections.
enum Explain {
    Key(pkadvisor::key::KeySpec),
    /// A layout's canonical spec.
    Layout(String),
}

/// Reads the inputs and prints the ranking (or one candidate's partition map).
pub fn run(args: AnalyzeArgs) -> Result<Exit> {
    let c = &args.common;
    let mut specs = request::parse_specs(&c.read.keys)?;
    let (target, defaults) = request::target(c)?;
    let mut layout_specs = c.layouts.clone();
    let explain_spec = match args.explain.as_deref() {
        Some(s) if request::is_layout(s) && !args.profiles.is_empty() => {
            bail!("--explain {s}: layouts are not measured into profiles; give the documents")
        }
        Some(s) if request::is_layout(s) => {
            layout_specs.push(s.to_owned());
            Some(Explain::Layout(request::layout_name(c, s)?))
        }
        Some(s) => Some(Explain::Key(request::parse_spec(s, "--explain")?)),
        None => None,
    };
    if let Some(Explain::Key(e)) = &explain_spec
        && !specs.contains(e)
    {
        specs.push(e.clone());
    }
    let prices = request::prices(c, &target)?;
    let format = request::format(c.format, c.wide);
    let profiles = !args.profiles.is_empty();
    let mut request = if profiles {
        let mut r = request::request_with_profiles(c, &args.profiles, target)?;
        let loaded = profile::load(&args.profiles)?;
        let shares = args.profiles.len() + c.read.docs.len();
        if shares > 1 && loaded.time_path.is_none() {
            eprintln!(
                "pkadvisor: warning: {shares} shares measured without --time-path: arrivals are by input position, which restarts in every share, so write spread and hotspots follow each share's order (give `profile` a --time-path)"
            );
        }
        r.profile = Some(loaded);
        r
    } else {
        let layouts = request::layouts(c, &layout_specs, &target)?;
        let keys_given = !specs.is_empty();
        let mut candidates = request::given(specs);
        // Layouts alone are compared with the keys auto mode finds.
        let extend = !keys_given && !layouts.is_empty() && explain_spec.is_none();
        candidates.extend(layouts);
        let mut r = request::request(c, candidates, target)?;
        r.auto_extend = extend;
        r
    };
    request.auto = Some(args.auto as usize);
    let mut outcome = request::run(request, c.read.quiet)?;
    let mut out = std::io::stdout().lock();
    if let Some(wanted) = explain_spec {
        let e = (outcome.evaluations.iter_mut())
            .find(|e| match (&wanted, &e.layout) {
                (Explain::Key(spec), None) => e.spec == *spec,
                (Explain::Layout(name), Some(l)) => l.to_string() == *name,
                _ => false,
            })
            .ok_or_else(|| {
                let spec = args.explain.as_deref().unwrap_or_default();
                anyhow!("--explain {spec}: the profiles did not measure this key")
            })?;
        let map = advisor::explain(e, target.storage_bytes, c.redact);
        report::render(View::Map(&map), format, request::style(c), &mut out)
            .context("writing the map")?;
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
        report::render(View::Ranking(&report), format, request::style(c), &mut out)
            .context("writing the report")?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
