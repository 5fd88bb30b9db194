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

/// Evaluates `expr` in `ctx`. The evaluator panics on an integer remainder by zero
/// (`x % 0`, found by fuzzing): that is an error here, not a crash, and the panic prints
/// nothing of its own.
fn evaluate(expr: &hcl::Expression, ctx: &Context) -> Result<hcl::Value, String> {
    quiet_panics();
    QUIET.with(|q| q.set(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| expr.evaluate(ctx)));
    QUIET.with(|q| q.set(false));
    match r {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(_) => Err("an operation with no result (a remainder by zero)".to_owned()),
    }
}

thread_local!(static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });

/// Installs, once, a panic hook that stays silent while [`evaluate`] runs on this thread
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

/// How long the HCL parser may take on `text`: 2 s and 1 s more per MiB (a 64 MiB file
/// of real Terraform parses in well under that).
fn parse_budget(text: &str) -> std::time::Duration {
    std::time::Duration::from_secs(2 + (text.len() >> 20) as u64)
}

/// Parses `text` as HCL within [`parse_budget`], or `None` past it. The parser backtracks
/// exponentially on some tangled text (found by fuzzing: 517 bytes of braces never closed
/// took 2.4 s, and each 27 bytes more doubled it), so it runs on a thread of its own that
/// is left behind when the budget runs out (the command then ends with an error).
fn parse_within(text: &str) -> Option<Result<hcl::Body, hcl::Error>> {
    let owned = text.to_owned();
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("hcl-parse".to_owned())
        .spawn(move || {
            let _ = tx.send(hcl::parse(&owned));
        });
    match spawned {
        Ok(_) => rx.recv_timeout(parse_budget(text)).ok(),
        Err(_) => Some(hcl::parse(text)),
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
    let Some(parsed) = parse_within(text) else {
        return Err(IacError::NotHcl {
            file: file.to_owned(),
            line: 1,
            column: 1,
            error: format!(
                "the parser gave up after {} s; text this tangled (braces never closed, say) declares no container",
                parse_budget(text).as_secs()
            ),
        });
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
    let mut locals = hcl::Map::new();
    let attrs: Vec<&hcl::Attribute> = (body.blocks())
        .filter(|b| b.identifier() == "locals")
        .flat_map(|b| b.body().attributes())
        .collect();
    let passes =
        (LOCAL_EVALUATIONS / attrs.len().max(1)).clamp(1, (attrs.len() + 1).min(LOCAL_PASSES));
    for _ in 0..passes {
        let before = locals.len();
        for attr in &attrs {
            if !locals.contains_key(attr.key())
                && let Ok(v) = evaluate(attr.expr(), &ctx)
            {
                locals.insert(attr.key().to_owned(), v);
            }
        }
        ctx.declare_var("local", hcl::Value::Object(locals.clone()));
        if locals.len() == before {
            break;
        }
    }
    declare_resources(body, &mut ctx);
    ctx
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
            Err(e) => unresolved.push((
                format!("{path}{}", attr.key()),
                one_line(&format!("{path}{} = {} ({e})", attr.key(), attr.expr())),
            )),
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
