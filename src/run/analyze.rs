//! `pkadvisor analyze`: the candidates to measure (given, generated, from profiles), the
//! run, and the ranking or one candidate's partition map (`--explain`).

use anyhow::{Result, anyhow, bail};

use super::Runner;
use super::request::{self, Plan};
use crate::advisor::{self, build_report};
use crate::flags::AnalyzeArgs;
use crate::measure::profile;
use crate::report::{ExplainReport, Format, Report};

/// What `analyze` shows.
pub enum Analysis {
    /// The candidates ranked.
    Ranking(Box<Report>),
    /// One candidate's partition map.
    Map(Box<ExplainReport>),
}

/// What `--explain` shows: a key's partition map or a layout's collections.
enum Explain {
    Key(crate::key::KeySpec),
    /// A layout's canonical spec.
    Layout(String),
}

/// Reads the inputs through `runner` and gives the ranking (or one candidate's partition
/// map), with the format to write it in.
pub fn analyze(args: &AnalyzeArgs, runner: &mut dyn Runner) -> Result<(Analysis, Format)> {
    let c = &args.common;
    let mut specs = request::parse_specs(&c.read.keys)?;
    let settings = request::Settings::new(c)?;
    let target = settings.target;
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
    let format = settings.format;
    let plan = if args.profiles.is_empty() {
        let layouts = request::layouts(c, &layout_specs, &target)?;
        // Layouts alone are compared with the keys auto mode finds.
        let auto_extend = specs.is_empty() && !layouts.is_empty() && explain_spec.is_none();
        let mut candidates = request::given(specs);
        candidates.extend(layouts);
        Plan {
            candidates,
            auto: args.auto as usize,
            auto_extend,
            declared: None,
            profiles: None,
        }
    } else {
        profile_plan(args, runner)?
    };
    let (request, finish) = request::request(c, plan, &settings)?;
    let mut outcome = runner.run(request)?;
    let opts = settings.report_options(c, None, &outcome, &finish);
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
        if matches!(wanted, Explain::Layout(_)) && !args.explain_value.is_empty() {
            bail!("--explain-value: a layout's collections hold no key values; --explain a key");
        }
        let asked = (args.explain_value.iter())
            .map(|v| asked_value(v))
            .collect::<Result<Vec<_>>>()?;
        let timeline = (opts.timeline.as_ref())
            .filter(|_| format.growth())
            .map(|b| (b, &opts.target));
        let map = advisor::explain(e, target.storage_bytes, c.redact, &asked, timeline)
            .map_err(|m| anyhow!(m))?;
        Ok((Analysis::Map(Box::new(map)), format))
    } else {
        let report = build_report(outcome.evaluations, outcome.input, &opts);
        Ok((Analysis::Ranking(Box::new(report)), format))
    }
}

/// An `--explain-value`: a JSON literal, a JSON array of a hierarchical key's levels, or
/// bare text read as a string. Text that opens as JSON (`[`, `{`, `"`) must be JSON.
pub fn asked_value(text: &str) -> Result<advisor::AskedValue> {
    use crate::engine::PkValue;
    let scalar = |v: &serde_json::Value, raw: &str| match v {
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => Err(anyhow!(
            "--explain-value {text}: a level of a key is a string, number, boolean or null, not {raw}"
        )),
        serde_json::Value::Number(_) => PkValue::parse_literal(raw).map_err(|m| anyhow!(m)),
        other => Ok(PkValue::from_json(other).expect("scalar")),
    };
    let t = text.trim();
    let (levels, label) = match serde_json::from_str::<serde_json::Value>(t) {
        Ok(serde_json::Value::Array(items)) => {
            if items.is_empty() || items.len() > 3 {
                bail!(
                    "--explain-value {text}: a key has 1 to 3 levels, not {}",
                    items.len()
                );
            }
            let levels = (items.iter())
                .map(|v| scalar(v, &v.to_string()))
                .collect::<Result<Vec<_>>>()?;
            (levels, serde_json::Value::Array(items).to_string())
        }
        Ok(v) if t == "undefined" => (vec![scalar(&v, t)?], t.to_owned()),
        Ok(v) => (vec![scalar(&v, t)?], v.to_string()),
        Err(_) if t == "undefined" => (vec![PkValue::Undefined], t.to_owned()),
        // Text that opens as JSON is JSON: a typo there is an error, not a string.
        Err(e) if t.starts_with(['[', '{', '"']) => bail!(
            "--explain-value {text}: not valid JSON at column {} ({e}); give a JSON literal, a JSON array of levels, or bare text",
            e.column()
        ),
        Err(_) => (
            vec![PkValue::String(text.to_owned())],
            serde_json::Value::from(text).to_string(),
        ),
    };
    Ok(advisor::AskedValue { levels, label })
}

/// The plan of `analyze --profile`: candidates and reading settings come from the
/// profiles; DOCS, if any, add to them.
fn profile_plan(args: &AnalyzeArgs, runner: &mut dyn Runner) -> Result<Plan> {
    let c = &args.common;
    let loaded = profile::load(&args.profiles)?;
    let shares = args.profiles.len() + c.read.docs.len();
    if shares > 1 && loaded.time_path.is_none() {
        runner.warn(&format!(
            "{shares} shares measured without --time-path: arrivals are by input position, which restarts in every share, so write spread and hotspots follow each share's order (give `profile` a --time-path)"
        ));
    }
    Ok(Plan {
        candidates: Vec::new(),
        auto: args.auto as usize,
        auto_extend: false,
        declared: None,
        profiles: Some((args.profiles.clone(), loaded)),
    })
}
