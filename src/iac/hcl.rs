//! Terraform configuration read directly (HCL, `.tf`): every `azurerm_cosmosdb_sql_container`
//! resource, its attributes evaluated with the variables' defaults, the values of a
//! `.tfvars` file and `locals`. References to other resources are known only once applied:
//! a key that needs one is an error naming the attribute and saying what to pass.

use hcl::eval::{Context, Evaluate};
use serde_json::{Map, Value};

use super::{
    DatabaseThroughput, Declared, DeclaredThroughput, IacError, TERRAFORM_DATABASE_TYPE,
    TERRAFORM_TYPE, share_database_throughput, terraform_definition, terraform_indexing,
    terraform_throughput,
};

/// The attributes that make the key.
const KEY_FIELDS: [&str; 4] = [
    "partition_key_paths",
    "partition_key_path",
    "partition_key_kind",
    "partition_key_version",
];

/// The most passes over `locals` that refer to each other (a pass per level of reference,
/// as long as a pass resolves one more): chains of up to 64 locals resolve in any order,
/// and each pass re-evaluates the unresolved and copies the resolved, so a forged file of
/// 1,000 locals in reverse order stops after 64 passes instead of 1,000 (14 s for 20 KB).
const LOCAL_PASSES: usize = 64;
/// ... and the most evaluations in all, for files of very many locals.
const LOCAL_EVALUATIONS: usize = 2_000_000;
/// How many passes resolve resources' attributes that refer to other resources.
const RESOURCE_PASSES: usize = 8;

/// Every container `text` (the `.tf` file `file`) declares, with the variable values `given`.
pub fn read(file: &str, text: &str, given: &Map<String, Value>) -> Result<Vec<Declared>, IacError> {
    read_module(&[(file.to_owned(), text.to_owned())], given)
}

/// Every container a Terraform module declares: its `.tf` files (`(name, text)`) read as
/// one configuration, as Terraform reads a directory, with the variable values `given`.
pub fn read_module(
    files: &[(String, String)],
    given: &Map<String, Value>,
) -> Result<Vec<Declared>, IacError> {
    forget_known();
    let mut structures = Vec::new();
    let (overrides, plain): (Vec<_>, Vec<_>) = files
        .iter()
        .partition(|(f, _)| super::overrides::is_override(f));
    for (file, text) in plain {
        structures.extend(parse(file, text)?);
    }
    // Override files last, each merged into the blocks it names, as Terraform reads them.
    for (file, text) in overrides {
        super::overrides::merge(&mut structures, file, parse(file, text)?)
            .map_err(IacError::Parameters)?;
    }
    let body = hcl::Body::from_iter(structures);
    let ctx = context(&body, given);
    let mut out = Vec::new();
    let mut databases = Vec::new();
    for block in body.blocks().filter(|b| b.identifier() == "resource") {
        match block.labels() {
            [ty, label, ..] if ty.as_str() == TERRAFORM_TYPE => {
                out.extend(instances(block.body(), label.as_str(), &ctx));
            }
            [ty, label, ..] if ty.as_str() == TERRAFORM_DATABASE_TYPE => {
                databases.extend(database(block.body(), label.as_str(), &ctx));
            }
            _ => {}
        }
    }
    share_database_throughput(&mut out, &databases);
    Ok(out)
}

/// The most instances a `count` or `for_each` expands to.
const MAX_INSTANCES: usize = 10_000;

/// Evaluates `expr` in `ctx`, once [`super::weigh::foresee`] says what it would build is
/// under [`EVALUATION_WEIGHT`] (a `for` inside a `for` over a few hundred values builds
/// billions) and holds no constant past 2^63 (the evaluator's subtraction wraps those). The
/// evaluator panics on an integer remainder by zero (`x % 0`, found by fuzzing) and, with
/// the overflow checks `Cargo.toml` turns on for it, on integers past 64 bits: that is an
/// error here, not a crash or a wrapped number.
fn evaluate(expr: &hcl::Expression, ctx: &Context) -> Result<hcl::Value, String> {
    let foreseen = KNOWN.with(|k| {
        let (locals, vars) = &*k.borrow();
        super::weigh::foresee(expr, &mut super::weigh::Scope::new(locals, vars))
    })?;
    if foreseen > EVALUATION_WEIGHT {
        return Err(format!("{HEAVY} 4,194,304 values and string bytes"));
    }
    quietly(|| expr.evaluate(ctx))
        .ok_or_else(|| NO_RESULT.to_owned())?
        .map_err(|e| e.to_string())
}

/// The most one evaluation may build, foreseen: four million values and string bytes.
const EVALUATION_WEIGHT: f64 = 4_194_304.0;

/// How a weight past a bound is told.
const HEAVY: &str = "it would build more than";

thread_local! {
    /// The locals resolved so far and the variables of the module being read, which
    /// [`evaluate`] foresees references into.
    static KNOWN: std::cell::RefCell<(hcl::Map<String, hcl::Value>, hcl::Map<String, hcl::Value>)> =
        std::cell::RefCell::new((hcl::Map::new(), hcl::Map::new()));
}

/// Empties [`KNOWN`] before another module or `.tfvars` file is read.
fn forget_known() {
    KNOWN.with(|k| *k.borrow_mut() = (hcl::Map::new(), hcl::Map::new()));
}

/// Why an evaluation that panicked has no value.
const NO_RESULT: &str =
    "an arithmetic operation with no result (a remainder by zero or a whole number past 64 bits)";

/// Whether an evaluation's error is the local's own (arithmetic, weight), not a reference
/// that has not resolved yet.
fn own_failure(e: &str) -> bool {
    e.starts_with(NO_RESULT) || e.starts_with(HEAVY) || e.contains("a whole number past 2^63")
}

/// Runs `f`, `None` if it panics; the panic prints nothing.
fn quietly<T>(f: impl FnOnce() -> T) -> Option<T> {
    quiet_panics();
    QUIET.with(|q| q.set(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    r.ok()
}

thread_local!(static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });

/// Installs, once, a panic hook that stays silent while [`quietly`] runs on this thread
/// and otherwise reports as the default hook does.
fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                default(info);
            }
        }));
    });
}

/// How long the HCL parser may take on `text`: 1 s and a quarter of a second more per
/// MiB. Real Terraform parses and evaluates at about 7 MiB/s in release (8 MiB of 7,257
/// container blocks: 1.2 s in all), so a real file meets this even on a slow machine,
/// while tangled text is cut short.
fn parse_budget(text: &str) -> std::time::Duration {
    // An unoptimised build (the tests') parses some ten times slower: four times the
    // budget there, which the exponential cases outgrow within a few bytes anyway.
    let scale = if cfg!(debug_assertions) { 4 } else { 1 };
    std::time::Duration::from_millis(scale * (1000 + 250 * (text.len() >> 20) as u64))
}

/// What became of a parse run under [`parse_budget`].
enum Parse {
    /// The parser's answer.
    Done(Result<hcl::Body, hcl::Error>),
    /// Past the budget.
    OutOfTime,
    /// The parser panicked.
    Crashed,
}

/// Parses `text` as HCL within [`parse_budget`]. The parser backtracks exponentially on
/// some tangled text (found by fuzzing: 517 bytes of braces never closed took 2.4 s, and
/// each 27 bytes more doubled it), so it runs on a thread of its own that is left behind
/// when the budget runs out (the command then ends with an error).
fn parse_within(text: &str) -> Parse {
    use std::sync::mpsc::RecvTimeoutError;
    let owned = text.to_owned();
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("hcl-parse".to_owned())
        .spawn(move || {
            if let Some(parsed) = quietly(|| hcl::parse(&owned)) {
                let _ = tx.send(parsed);
            }
        });
    if spawned.is_err() {
        return quietly(|| hcl::parse(text)).map_or(Parse::Crashed, Parse::Done);
    }
    match rx.recv_timeout(parse_budget(text)) {
        Ok(parsed) => Parse::Done(parsed),
        Err(RecvTimeoutError::Timeout) => Parse::OutOfTime,
        Err(RecvTimeoutError::Disconnected) => Parse::Crashed,
    }
}

/// The instances a resolved `count` asks for: a whole number from 0 to [`MAX_INSTANCES`].
fn whole_count(v: &hcl::Value) -> Result<u64, String> {
    let n = match v {
        hcl::Value::Number(n) => n.as_f64(),
        hcl::Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match n {
        Some(n) if n.fract() == 0.0 && (0.0..=MAX_INSTANCES as f64).contains(&n) => Ok(n as u64),
        Some(n) if n.fract() == 0.0 && n > 0.0 => Err(format!(
            "{n} instances; expected at most {MAX_INSTANCES} (gate the key with --key SPEC instead of --container)"
        )),
        _ => Err(format!(
            "{}; expected a whole number of instances from 0 to {MAX_INSTANCES}",
            json_of(v)
        )),
    }
}

/// A container block's instances: one, or one per element of its `for_each` (with
/// `each.key` and `each.value`) or `count` (with `count.index`); a meta-argument that does
/// not resolve gives one container whose key is an error saying what to pass.
fn instances(body: &hcl::Body, label: &str, ctx: &Context<'static>) -> Vec<Declared> {
    let meta = |key: &str| body.attributes().find(|a| a.key() == key);
    let (attr, each) = match (meta("for_each"), meta("count")) {
        (Some(a), _) => (a, true),
        (None, Some(a)) => (a, false),
        (None, None) => return vec![container(body, label, ctx)],
    };
    let elements: Option<Vec<(hcl::Value, hcl::Value)>> = match evaluate(attr.expr(), ctx) {
        Ok(hcl::Value::Object(m)) if each => {
            // In key order, as Terraform iterates a map.
            let mut entries: Vec<(String, hcl::Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Some(
                (entries.into_iter())
                    .map(|(k, v)| (hcl::Value::String(k), v))
                    .collect(),
            )
        }
        Ok(hcl::Value::Array(a)) if each => Some(a.into_iter().map(|v| (v.clone(), v)).collect()),
        // Terraform converts a string of digits to the number `count` needs.
        Ok(v @ (hcl::Value::Number(_) | hcl::Value::String(_))) if !each => match whole_count(&v) {
            Ok(n) => Some(
                (0..n)
                    .map(|i| (hcl::Value::from(i), hcl::Value::Null))
                    .collect(),
            ),
            Err(why) => {
                let mut d = container(body, label, ctx);
                let shown = one_line(&attr.expr().to_string());
                d.definition = Err(format!("count = {shown}: {why}"));
                return vec![d];
            }
        },
        _ => None,
    };
    let Some(elements) = elements else {
        let mut d = container(body, label, ctx);
        d.definition = Err(unresolvable(
            &format!("{} = {}", attr.key(), one_line(&attr.expr().to_string())),
            "gate the key with --key SPEC instead of --container",
        ));
        return vec![d];
    };
    // One scope for every instance, `each` (or `count`) declared again in it for each:
    // a scope per instance would copy every variable (a for_each's own map among them)
    // once per instance, quadratic in the map's size.
    let mut scoped = ctx.clone();
    let (meta, names) = match each {
        true => ("each", ["key", "value"]),
        false => ("count", ["index", "value"]),
    };
    let mut out = Vec::new();
    for (key, value) in elements.into_iter().take(MAX_INSTANCES) {
        let at = format!("[{}]", json_of(&key));
        let mut m = hcl::Map::new();
        m.insert(names[0].to_owned(), key);
        if each {
            m.insert(names[1].to_owned(), value);
        }
        scoped.declare_var(meta, hcl::Value::Object(m));
        let mut d = container(body, label, &scoped);
        d.at.push_str(&at);
        if d.name.starts_with(TERRAFORM_TYPE) {
            d.name = d.at.clone();
            d.qualified = d.at.clone();
        }
        out.push(d);
    }
    out
}

/// One `azurerm_cosmosdb_sql_database` block's name and throughput, when it declares one.
fn database(body: &hcl::Body, label: &str, ctx: &Context) -> Option<DatabaseThroughput> {
    let mut unresolved = Vec::new();
    let values = Value::Object(body_json(body, ctx, "", &mut unresolved));
    let name = values.get("name").and_then(Value::as_str).unwrap_or(label);
    Some((name.to_owned(), throughput(&values, &unresolved)?))
}

/// The throughput a block's `values` declare, or why it does not resolve (`unresolved`:
/// its attributes that did not, as `body_json` lists them).
fn throughput(
    values: &Value,
    unresolved: &[(String, String)],
) -> Option<Result<DeclaredThroughput, String>> {
    let field = |f: &str| f == "throughput" || f.starts_with("autoscale_settings.");
    match unresolved.iter().find(|(f, _)| field(f)) {
        Some((_, what)) => Some(Err(unresolvable(
            what,
            "give --throughput or --autoscale-max",
        ))),
        None => terraform_throughput(values),
    }
}

fn parse(file: &str, text: &str) -> Result<hcl::Body, IacError> {
    if file.to_ascii_lowercase().ends_with(".tf.json") {
        return super::tf_json::body(file, text).map_err(IacError::Parameters);
    }
    let text = text.trim_start_matches('\u{feff}');
    let gave_up = |error: String| IacError::NotHcl {
        file: file.to_owned(),
        line: 1,
        column: 1,
        error,
    };
    let parsed = match parse_within(text) {
        Parse::Done(parsed) => parsed,
        Parse::OutOfTime => {
            return Err(gave_up(format!(
                "the parser gave up after {:.2} s; text this tangled (braces never closed, say) declares no container",
                parse_budget(text).as_secs_f64()
            )));
        }
        Parse::Crashed => {
            return Err(gave_up(
                "the HCL parser failed on this text (an internal error); check that it is Terraform".to_owned(),
            ));
        }
    };
    parsed.map_err(|e| {
        let (line, column) = match &e {
            hcl::Error::Parse(p) => (p.location().line(), p.location().column()),
            _ => (1, 1),
        };
        let error = match &e {
            hcl::Error::Parse(p) => p.message().to_owned(),
            other => other.to_string(),
        };
        IacError::NotHcl {
            file: file.to_owned(),
            line,
            column,
            error,
        }
    })
}

/// The values of a `.tfvars` file (HCL attributes) or a `.tfvars.json` file (an object).
pub fn tfvars(file: &str, text: &str) -> Result<Map<String, Value>, String> {
    if file.ends_with(".json") {
        let doc: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|e| format!("{file}:{}:{}: not JSON ({e})", e.line(), e.column()))?;
        return match doc {
            Value::Object(m) => Ok(m),
            _ => Err(format!(
                "{file}: expected an object of variable values, {{\"name\": value}}"
            )),
        };
    }
    let body = parse(file, text).map_err(|e| e.to_string())?;
    forget_known();
    let ctx = Context::new();
    let mut out = Map::new();
    for attr in body.attributes() {
        let v = evaluate(attr.expr(), &ctx).map_err(|e| {
            format!(
                "{file}: {} = {}: a .tfvars value must be a constant ({e})",
                attr.key(),
                attr.expr()
            )
        })?;
        out.insert(attr.key().to_owned(), json_of(&v));
    }
    Ok(out)
}

fn json_of(v: &hcl::Value) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn hcl_of(v: &Value) -> hcl::Value {
    hcl::to_value(v).unwrap_or(hcl::Value::Null)
}

/// `var` (each declared variable's given value or default, and every given one) and
/// `local` (the locals that resolve).
fn context(body: &hcl::Body, given: &Map<String, Value>) -> Context<'static> {
    let mut vars = hcl::Map::new();
    let empty = Context::new();
    for block in body.blocks().filter(|b| b.identifier() == "variable") {
        let Some(name) = block.labels().first().map(|l| l.as_str().to_owned()) else {
            continue;
        };
        let default = (block.body().attributes())
            .find(|a| a.key() == "default")
            .and_then(|a| evaluate(a.expr(), &empty).ok());
        if let Some(v) = default {
            vars.insert(name, v);
        }
    }
    for (name, v) in given {
        vars.insert(name.clone(), hcl_of(v));
    }
    let mut ctx = Context::new();
    declare_functions(&mut ctx);
    ctx.declare_var("var", hcl::Value::Object(vars.clone()));
    let attrs: Vec<&hcl::Attribute> = (body.blocks())
        .filter(|b| b.identifier() == "locals")
        .flat_map(|b| b.body().attributes())
        .collect();
    resolve_locals(&attrs, &vars, &mut ctx);
    declare_resources(body, &mut ctx);
    ctx
}

/// Declares as `local` the `locals` that resolve, in passes (one per level of reference).
/// A local whose value would weigh more than [`LOCAL_WEIGHT`] stays unresolved: locals
/// that copy each other (`a = [b, b]`, `b = [c, c]`, ...) double at each level, and 6.7 KB
/// of them reached 1.6 GB. Its weight is foreseen from its expression before it is
/// evaluated (see [`evaluate`]), and measured after.
fn resolve_locals(
    attrs: &[&hcl::Attribute],
    vars: &hcl::Map<String, hcl::Value>,
    ctx: &mut Context<'static>,
) {
    let mut locals = hcl::Map::new();
    let mut broken = std::collections::BTreeMap::new();
    let names: Vec<Vec<String>> = (attrs.iter())
        .map(|a| local_names(&a.expr().to_string()))
        .collect();
    KNOWN.with(|k| *k.borrow_mut() = (hcl::Map::new(), vars.clone()));
    let passes =
        (LOCAL_EVALUATIONS / attrs.len().max(1)).clamp(1, (attrs.len() + 1).min(LOCAL_PASSES));
    for _ in 0..passes {
        let before = locals.len() + broken.len();
        for (attr, names) in attrs.iter().zip(&names) {
            if locals.contains_key(attr.key()) || broken.contains_key(attr.key()) {
                continue;
            }
            if let Some((n, why)) = names
                .iter()
                .find_map(|n| broken.get(n).map(|w: &String| (n, w)))
            {
                let why = match why.starts_with("through local.") {
                    true => why.clone(),
                    false => format!("through local.{n}: {why}"),
                };
                broken.insert(attr.key().to_owned(), why);
                continue;
            }
            match evaluate(attr.expr(), ctx) {
                Ok(v) if super::weigh::weight(&v) > LOCAL_WEIGHT => {
                    broken.insert(
                        attr.key().to_owned(),
                        "its value would hold more than 1,048,576 values and string bytes"
                            .to_owned(),
                    );
                }
                Ok(v) => {
                    locals.insert(attr.key().to_owned(), v);
                }
                Err(e) if own_failure(&e) => {
                    broken.insert(attr.key().to_owned(), e);
                }
                Err(_) => {}
            }
        }
        ctx.declare_var("local", hcl::Value::Object(locals.clone()));
        KNOWN.with(|k| k.borrow_mut().0 = locals.clone());
        if locals.len() + broken.len() == before {
            break;
        }
    }
    BROKEN.with(|b| *b.borrow_mut() = broken);
}

thread_local! {
    /// The locals of the module being read that did not resolve for a reason of their
    /// own (an arithmetic failure, too great a weight), with the reason: an attribute
    /// that names one says why, not only that the local is missing.
    static BROKEN: std::cell::RefCell<std::collections::BTreeMap<String, String>> =
        const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
}

/// The evaluator's error `e` for an expression `text`, with the reason of each broken
/// local it names.
fn why_unresolved(text: &str, e: String) -> String {
    BROKEN.with(|b| {
        let broken = b.borrow();
        let mut why = e;
        for name in local_names(text) {
            if let Some(reason) = broken.get(&name) {
                why.push_str(&format!("; local.{name}: {reason}"));
            }
        }
        why
    })
}

/// The most a local's value may weigh: a million values and string bytes (a real local
/// holds a few names or a map of a few hundred containers).
const LOCAL_WEIGHT: f64 = 1_048_576.0;

/// The locals an expression's text names (`local.NAME`), each once, in order.
fn local_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (at, _) in text.match_indices("local.") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.') {
            continue;
        }
        let rest = &text[at + "local.".len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        if !out.iter().any(|n| n == &rest[..end]) {
            out.push(rest[..end].to_owned());
        }
    }
    out
}

/// Terraform's type conversions a `for_each` is written with: `toset` (sorted, without
/// repeats, as Terraform iterates a set), `tolist` and `tomap` (the value as it is).
fn declare_functions(ctx: &mut Context<'static>) {
    use hcl::eval::{FuncArgs, FuncDef, ParamType};
    fn set(args: FuncArgs) -> Result<hcl::Value, String> {
        match args.first() {
            Some(hcl::Value::Array(a)) => {
                let mut items = a.clone();
                items.sort_by_key(|v| v.to_string());
                items.dedup();
                Ok(hcl::Value::Array(items))
            }
            Some(other) => Err(format!("toset of {other}, not a list")),
            None => Err("toset needs a list".to_owned()),
        }
    }
    fn same(args: FuncArgs) -> Result<hcl::Value, String> {
        args.first()
            .cloned()
            .ok_or_else(|| "one argument".to_owned())
    }
    ctx.declare_func("toset", FuncDef::builder().param(ParamType::Any).build(set));
    for name in ["tolist", "tomap"] {
        ctx.declare_func(name, FuncDef::builder().param(ParamType::Any).build(same));
    }
}

/// Each resource's attributes that resolve, as `TYPE.LABEL.attribute` (a database's
/// name, read by its container's `database_name`); passes until nothing more resolves.
fn declare_resources(body: &hcl::Body, ctx: &mut Context<'static>) {
    let mut known = 0;
    for _ in 0..RESOURCE_PASSES {
        let mut types: hcl::Map<String, hcl::Value> = hcl::Map::new();
        let mut count = 0;
        for block in body.blocks().filter(|b| b.identifier() == "resource") {
            let [ty, label, ..] = block.labels() else {
                continue;
            };
            let mut ignored = Vec::new();
            let values = body_json(block.body(), ctx, "", &mut ignored);
            count += values.len();
            let entry = (types.entry(ty.as_str().to_owned()))
                .or_insert_with(|| hcl::Value::Object(hcl::Map::new()));
            if let hcl::Value::Object(labels) = entry {
                labels.insert(label.as_str().to_owned(), hcl_of(&Value::Object(values)));
            }
        }
        for (ty, v) in types {
            ctx.declare_var(ty, v);
        }
        if count == known {
            return;
        }
        known = count;
    }
}

/// A block's attributes evaluated and its nested blocks as lists (the shape of
/// `terraform show -json`); what does not resolve goes to `unresolved` as
/// (`path.attribute`, `attribute = expression (why)`).
fn body_json(
    body: &hcl::Body,
    ctx: &Context,
    path: &str,
    unresolved: &mut Vec<(String, String)>,
) -> Map<String, Value> {
    let mut out = Map::new();
    // Terraform's meta-arguments say how many instances there are and when, not what one
    // is: evaluated per instance, a for_each's whole map would be copied once for each.
    let meta = |key: &str| path.is_empty() && META.contains(&key);
    for attr in body.attributes().filter(|a| !meta(a.key())) {
        match evaluate(attr.expr(), ctx) {
            Ok(v) => {
                out.insert(attr.key().to_owned(), json_of(&v));
            }
            Err(e) => {
                let e = why_unresolved(&attr.expr().to_string(), e);
                unresolved.push((
                    format!("{path}{}", attr.key()),
                    one_line(&format!("{path}{} = {} ({e})", attr.key(), attr.expr())),
                ));
            }
        }
    }
    for block in body.blocks() {
        let inner = format!("{path}{}.", block.identifier());
        let value = Value::Object(body_json(block.body(), ctx, &inner, unresolved));
        let entry =
            (out.entry(block.identifier().to_owned())).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(items) = entry {
            items.push(value);
        }
    }
    out
}

/// Terraform's meta-arguments of a resource block.
const META: [&str; 4] = ["for_each", "count", "depends_on", "provider"];

/// `text` on one line: HCL prints lists and objects over several.
fn one_line(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").replace("[ ", "[").replace(" ]", "]")
}

/// What to do about an attribute that does not resolve.
fn unresolvable(what: &str, instead: &str) -> String {
    format!(
        "{what} cannot be resolved before apply: pass the variable with --var-file FILE (a .tfvars file) or give it a default, or {instead}"
    )
}

/// One `azurerm_cosmosdb_sql_container` block, labelled `label`.
fn container(body: &hcl::Body, label: &str, ctx: &Context) -> Declared {
    let mut unresolved = Vec::new();
    let values = Value::Object(body_json(body, ctx, "", &mut unresolved));
    let address = format!("{TERRAFORM_TYPE}.{label}");
    let find = |pred: &dyn Fn(&str) -> bool| {
        (unresolved.iter())
            .find(|(field, _)| pred(field))
            .map(|(_, what)| what.clone())
    };
    let name = (values.get("name").and_then(Value::as_str))
        .unwrap_or(&address)
        .to_owned();
    let definition = match find(&|f| KEY_FIELDS.contains(&f)) {
        Some(what) => Err(unresolvable(
            &what,
            "gate the key with --key SPEC instead of --container",
        )),
        None => terraform_definition(&values),
    };
    let indexing = match find(&|f| f.starts_with("indexing_policy.")) {
        Some(what) => Some(Err(unresolvable(&what, "give --indexing-policy"))),
        None => terraform_indexing(&values),
    };
    let throughput = throughput(&values, &unresolved);
    let qualified = match values.get("database_name").and_then(Value::as_str) {
        Some(db) => format!("{db}/{name}"),
        None => name.clone(),
    };
    Declared {
        name,
        at: address,
        definition,
        source: None,
        qualified,
        indexing,
        throughput,
        default_ttl: values.get("default_ttl").and_then(Value::as_i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TF: &str = r#"
variable "pk" {
  default = "/tenantId"
}
variable "prefix" {}
locals {
  db   = "${var.prefix}-db"
  kind = "Hash"
}
resource "azurerm_cosmosdb_sql_database" "d" {
  name = local.db
}
resource "azurerm_cosmosdb_sql_container" "orders" {
  name                  = "${var.prefix}-orders"
  database_name         = local.db
  partition_key_paths   = [var.pk]
  partition_key_kind    = local.kind
  partition_key_version = 2
  autoscale_settings {
    max_throughput = 4000
  }
  indexing_policy {
    indexing_mode = "consistent"
    included_path {
      path = "/tenantId/?"
    }
    excluded_path {
      path = "/*"
    }
  }
}
resource "azurerm_cosmosdb_sql_container" "legacy" {
  name               = "legacy"
  database_name      = azurerm_cosmosdb_sql_database.d.name
  partition_key_path = "/customerId"
  throughput         = 400
}
"#;

    #[test]
    fn containers_resolve_from_defaults_tfvars_and_locals() {
        let given = serde_json::json!({"prefix": "shop"});
        let found = read("main.tf", TF, given.as_object().unwrap()).unwrap();
        assert_eq!(found.len(), 2);
        let orders = &found[0];
        assert_eq!(orders.name, "shop-orders");
        assert_eq!(orders.qualified, "shop-db/shop-orders");
        let def = orders.definition.as_ref().unwrap();
        assert_eq!(def.paths()[0].to_string(), "/tenantId");
        assert_eq!(def.version(), 2);
        let t = orders.throughput.clone().unwrap().unwrap();
        assert_eq!(t.throughput, crate::engine::Throughput::Autoscale(4000.0));
        let p = orders.indexing_policy("main.tf").unwrap().unwrap();
        assert!(p.indexes(&["tenantId"]) && !p.indexes(&["other"]));
        // A reference to another resource of the file resolves to its attribute.
        let legacy = &found[1];
        assert_eq!(legacy.qualified, "shop-db/legacy");
        let def = legacy.definition.as_ref().unwrap();
        assert_eq!(def.paths()[0].to_string(), "/customerId");
        assert_eq!(def.version(), 1);
        let t = legacy.throughput.clone().unwrap().unwrap();
        assert_eq!(t.throughput, crate::engine::Throughput::Manual(400.0));
    }

    #[test]
    fn a_chain_of_locals_resolves_whatever_its_length_and_order() {
        // j refers to i, ... to a: written last to first, a pass resolves one each.
        let mut tf = String::from("locals {\n");
        for (name, next) in ('b'..='j').rev().zip(('a'..='i').rev()) {
            tf.push_str(&format!("  {name} = local.{next}\n"));
        }
        tf.push_str("  a = \"/tenantId\"\n}\n");
        tf.push_str(
            "resource \"azurerm_cosmosdb_sql_container\" \"c\" {\n  name = \"c\"\n  partition_key_paths = [local.j]\n}\n",
        );
        let found = read("main.tf", &tf, &Map::new()).unwrap();
        let def = found[0].definition.as_ref().unwrap();
        assert_eq!(def.paths()[0].to_string(), "/tenantId");
    }

    #[test]
    fn count_takes_a_string_of_digits_and_names_what_it_refuses() {
        let tf = |count: &str| {
            format!(
                "resource \"azurerm_cosmosdb_sql_container\" \"c\" {{\n  count = {count}\n  name = \"c${{count.index}}\"\n  partition_key_paths = [\"/t\"]\n}}\n"
            )
        };
        // Terraform converts "3" to 3.
        let found = read("main.tf", &tf("\"3\""), &Map::new()).unwrap();
        let names: Vec<&str> = found.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["c0", "c1", "c2"]);
        for (count, says) in [
            ("20000", "20000 instances; expected at most 10000"),
            (
                "2.5",
                "2.5; expected a whole number of instances from 0 to 10000",
            ),
            ("\"three\"", "\"three\"; expected a whole number"),
        ] {
            let found = read("main.tf", &tf(count), &Map::new()).unwrap();
            let e = found[0].definition.as_ref().unwrap_err();
            assert!(e.contains(&format!("count = {count}: {says}")), "{e}");
        }
    }

    #[test]
    fn a_remainder_by_zero_is_an_error_not_a_crash() {
        // The evaluator panics on `x % 0` (found by the terraform fuzz target).
        let tf = "locals { k = 7 % 0 }\nresource \"azurerm_cosmosdb_sql_container\" \"c\" {\n  name = \"c\"\n  partition_key_paths = [\"/t${5 % 0}\"]\n}\n";
        let found = read("main.tf", tf, &Map::new()).unwrap();
        let e = found[0].definition.as_ref().unwrap_err();
        assert!(e.contains("a remainder by zero"), "{e}");
        let e = tfvars("x.tfvars", "a = 1 % 0\n").unwrap_err();
        assert!(e.contains("a remainder by zero"), "{e}");
    }

    /// A module of `locals` and one container whose key is `key`.
    fn with_locals(locals: &str, key: &str) -> String {
        format!(
            "locals {{\n{locals}\n}}\nresource \"azurerm_cosmosdb_sql_container\" \"c\" {{\n  name = \"c\"\n  partition_key_paths = [\"{key}\"]\n}}\n"
        )
    }

    #[test]
    fn whole_numbers_past_64_bits_are_errors_naming_the_local() {
        // The largest u64 plus one; i64::MIN % -1 (which panics in the evaluator); and
        // 0 - (2^64 - 1), which its subtraction would wrap to 1: each an error naming the
        // local, found before evaluation or caught as the evaluator's panic.
        for (locals, name, says) in [
            (
                "  n = 18446744073709551615 + 1",
                "n",
                "a whole number past 2^63",
            ),
            (
                "  n = 0 - 18446744073709551615",
                "n",
                "a whole number past 2^63",
            ),
            (
                "  m = -9223372036854775807 - 1\n  n = local.m % -1",
                "n",
                "through local.m: ",
            ),
            (
                "  n = 3037000499 * 3037000499 * 2 - 0",
                "n",
                "a whole number past 2^63",
            ),
        ] {
            let tf = with_locals(locals, &format!("/t${{local.{name}}}"));
            let found = read("main.tf", &tf, &Map::new()).unwrap();
            let e = found[0].definition.as_ref().unwrap_err();
            assert!(
                e.contains(&format!("local.{name}: ")) && e.contains(says),
                "{e}"
            );
        }
        // An overflow the bound cannot see (a loop over a function's result) is the
        // evaluator's panic, caught.
        let tf = with_locals(
            "  n = [for x in tolist([9223372036854775807]) : x * 4][0]",
            "/t${local.n}",
        );
        let found = read("main.tf", &tf, &Map::new()).unwrap();
        let e = found[0].definition.as_ref().unwrap_err();
        assert!(
            e.contains("local.n: an arithmetic operation with no result"),
            "{e}"
        );
    }

    #[test]
    fn locals_that_copy_each_other_stop_at_their_weight() {
        // Each level holds four copies of the next: 4^40 strings unbounded; held to a
        // million values and string bytes, the key's error names the chain's cause.
        let mut locals: Vec<String> = (0..40)
            .map(|i| {
                format!(
                    "  l{i} = [local.l{0}, local.l{0}, local.l{0}, local.l{0}]",
                    i + 1
                )
            })
            .collect();
        locals.push(format!("  l40 = \"{}\"", "x".repeat(100)));
        let tf = with_locals(&locals.join("\n"), "/t${local.l0[0][0]}");
        let found = read("main.tf", &tf, &Map::new()).unwrap();
        let e = found[0].definition.as_ref().unwrap_err();
        assert!(e.contains("local.l0: through local.l"), "{e}");
        assert!(
            e.contains("more than 1,048,576 values") || e.contains("more than 4,194,304 values"),
            "{e}"
        );
        // 4^6 copies of 100 bytes (0.4 million) are under the weight and resolve.
        let tf = with_locals(&locals[34..].join("\n"), "/t${local.l34[0][0][0][0][0][0]}");
        let found = read("main.tf", &tf, &Map::new()).unwrap();
        let key = found[0].definition.as_ref().unwrap();
        assert_eq!(key.paths()[0].to_string(), format!("/t{}", "x".repeat(100)));
    }

    #[test]
    fn local_names_are_read_once_each() {
        assert_eq!(
            local_names("[local.a, \"${local.a}\", xlocal.d, local.e_1.f, var.b]"),
            vec!["a".to_owned(), "e_1".to_owned()]
        );
    }

    #[test]
    fn a_for_inside_a_for_is_refused_before_it_is_built() {
        // 300 numbers, four loops deep: 8.1 billion values; refused in no time.
        let list: Vec<String> = (0..300).map(|i| i.to_string()).collect();
        let locals = format!(
            "  c = [{}]\n  a = [for i in local.c : [for j in local.c : [for k in local.c : [for l in local.c : k]]]]",
            list.join(", ")
        );
        let tf = with_locals(&locals, "/t${local.a[0][0][0][0]}");
        let found = read("main.tf", &tf, &Map::new()).unwrap();
        let e = found[0].definition.as_ref().unwrap_err();
        assert!(
            e.contains("local.a: it would build more than 4,194,304 values"),
            "{e}"
        );
        // A local that reads one field of a map is as light as the field.
        let map: Vec<String> = (0..400)
            .map(|i| format!("k{i} = {{ pk = \"/tenantId\" }}"))
            .collect();
        let locals = format!(
            "  m = {{ {} }}\n  pk = [local.m.k7.pk, local.m.k7.pk, local.m.k7.pk, local.m.k7.pk, local.m.k7.pk, local.m.k7.pk, local.m.k7.pk][0]",
            map.join(", ")
        );
        let found = read("main.tf", &with_locals(&locals, "${local.pk}"), &Map::new()).unwrap();
        let key = found[0].definition.as_ref().unwrap();
        assert_eq!(key.paths()[0].to_string(), "/tenantId");
    }

    #[test]
    fn a_database_block_shares_its_throughput() {
        let tf = r#"
resource "azurerm_cosmosdb_sql_database" "d" {
  name = "shop"
  autoscale_settings {
    max_throughput = 2000
  }
}
resource "azurerm_cosmosdb_sql_container" "c" {
  name                = "orders"
  database_name       = azurerm_cosmosdb_sql_database.d.name
  partition_key_paths = ["/tenantId"]
}
"#;
        let found = read("main.tf", tf, &Map::new()).unwrap();
        let t = found[0].throughput.clone().unwrap().unwrap();
        assert_eq!(t.throughput, crate::engine::Throughput::Autoscale(2000.0));
        assert!(
            t.field.starts_with("database shop's autoscale_settings"),
            "{}",
            t.field
        );
    }

    #[test]
    fn for_each_and_count_expand_to_one_container_each() {
        let tf = r#"
variable "containers" {
  default = {
    orders = { pk = "/customerId" }
    events = { pk = "/tenantId" }
  }
}
resource "azurerm_cosmosdb_sql_container" "c" {
  for_each            = var.containers
  name                = each.key
  database_name       = "shop"
  partition_key_paths = [each.value.pk]
}
resource "azurerm_cosmosdb_sql_container" "logs" {
  for_each            = toset(["b", "a", "b"])
  name                = "logs-${each.value}"
  partition_key_paths = ["/day"]
}
resource "azurerm_cosmosdb_sql_container" "n" {
  count               = 2
  name                = "n${count.index}"
  partition_key_paths = ["/k"]
}
resource "azurerm_cosmosdb_sql_container" "x" {
  for_each            = var.unknown
  name                = "x"
  partition_key_paths = ["/k"]
}
"#;
        let found = read("main.tf", tf, &Map::new()).unwrap();
        let got: Vec<(String, String)> = (found.iter().take(6))
            .map(|d| {
                let key = d.definition.as_ref().unwrap().paths()[0].to_string();
                (d.qualified.clone(), key)
            })
            .collect();
        let want = [
            ("shop/events", "/tenantId"),
            ("shop/orders", "/customerId"),
            ("logs-a", "/day"),
            ("logs-b", "/day"),
            ("n0", "/k"),
            ("n1", "/k"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_owned(), b.to_owned())));
        assert!(found[0].at.ends_with("[\"events\"]"), "{}", found[0].at);
        assert!(found[4].at.ends_with("[0]"), "{}", found[4].at);
        // A for_each that does not resolve: one container, its key an error saying so.
        let e = found[6].definition.as_ref().unwrap_err();
        assert!(e.starts_with("for_each = var.unknown"), "{e}");
    }

    #[test]
    fn what_does_not_resolve_says_what_to_pass() {
        let tf = TF.replace("default = \"/tenantId\"", "");
        let found = read("main.tf", &tf, &Map::new()).unwrap();
        // No prefix: the name falls back to the address, the database is unknown.
        assert_eq!(found[0].name, "azurerm_cosmosdb_sql_container.orders");
        assert_eq!(found[1].qualified, "legacy");
        let e = found[0].definition.as_ref().unwrap_err();
        assert!(e.starts_with("partition_key_paths = [var.pk]"), "{e}");
        assert!(e.contains("--var-file FILE"), "{e}");
        let bad = read("main.tf", "resource \"x\" {\n  a = \n", &Map::new()).unwrap_err();
        let bad = bad.to_string();
        assert!(bad.starts_with("main.tf:2:7: not Terraform HCL"), "{bad}");
    }

    #[test]
    fn tfvars_files_are_read_in_both_syntaxes() {
        let hcl = tfvars("a.tfvars", "prefix = \"shop\"\nru = 400\n").unwrap();
        assert_eq!(hcl["prefix"], "shop");
        assert_eq!(hcl["ru"], 400);
        let json = tfvars("a.tfvars.json", r#"{"prefix": "shop"}"#).unwrap();
        assert_eq!(json["prefix"], "shop");
        let e = tfvars("a.tfvars", "x = var.y\n").unwrap_err();
        assert!(e.contains("must be a constant"), "{e}");
    }
}
