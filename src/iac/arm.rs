//! ARM template expressions evaluated as a deployment would, for the functions a
//! container's declaration uses: string literals, numbers, `parameters()`, `variables()`,
//! `concat()`, `format()`, `copyIndex()`, `length()`, `toLower()`, `toUpper()`,
//! `string()`, `int()`, array index `[0]` and property access `.x`. Anything else is
//! unresolved, with the expression named.

use serde_json::{Map, Value};

/// The deepest chain of variables and parameter defaults followed (a cycle stops here).
const MAX_DEPTH: usize = 32;
/// Variables and parameter defaults one template may evaluate: far past what copy loops
/// of the service's 800 copies read.
const MAX_READS: usize = 100_000;
/// Characters of an expression a message shows.
pub(crate) const EXPR_CHARS: usize = 200;
/// The deepest nesting of calls and indexes within one expression (each level is a frame
/// of the parser's stack).
const MAX_NEST: usize = 64;

/// Why an expression has no value here.
#[derive(Clone, Debug, PartialEq)]
pub struct Unresolved {
    /// The expression, brackets included.
    pub expr: String,
    /// Why.
    pub why: String,
}

impl Unresolved {
    /// The message for `field`: the expression, why, and what to do: pass the parameter,
    /// or `instead` (`give the key with --key`).
    pub fn message(&self, field: &str, instead: &str) -> String {
        format!(
            "{field} is the ARM expression {}, which cannot be resolved ({}): pass the parameter with --parameters FILE (the ARM parameters format), or {instead}",
            crate::units::clipped(&self.expr, EXPR_CHARS),
            self.why
        )
    }
}

/// What a template's expressions see: its parameters (declared and given), its
/// variables, and the copy loop's index.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The template's `parameters` declarations (`defaultValue`).
    pub declared: Map<String, Value>,
    /// Parameter values given (a parameters file, or a nested deployment's parameters).
    pub given: Map<String, Value>,
    /// The template's `variables`.
    pub variables: Map<String, Value>,
    /// The index of the copy loop being expanded.
    pub copy_index: Option<usize>,
    /// Unresolvable calls give `?` instead of an error (names, to tell databases apart).
    pub lenient: bool,
    /// Variables and parameter defaults evaluated so far, by this scope and every copy of
    /// it (a copy loop's): each is evaluated where it is read, so variables that read
    /// each other twice a level would take 2^depth.
    pub reads: std::rc::Rc<std::cell::Cell<usize>>,
}

impl Scope {
    /// The scope of `template` with the parameter values `given`.
    pub fn of(template: &Value, given: Map<String, Value>) -> Scope {
        let object = |field: &str| {
            (template.get(field))
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        Scope {
            declared: object("parameters"),
            given,
            variables: object("variables"),
            copy_index: None,
            lenient: false,
            reads: Default::default(),
        }
    }

    /// Counts one more variable or parameter default evaluated, at most [`MAX_READS`].
    fn read_one(&self) -> Result<(), Error> {
        self.reads.set(self.reads.get() + 1);
        match self.reads.get() > MAX_READS {
            true => Err(Error::Here(format!(
                "the template's variables and parameters are read more than {MAX_READS} times (variables that read each other twice a level grow as 2^depth)"
            ))),
            false => Ok(()),
        }
    }

    /// `v` with every expression string in it evaluated.
    pub fn resolve(&self, v: &Value) -> Result<Value, Unresolved> {
        self.resolve_at(v, 0)
    }

    fn resolve_at(&self, v: &Value, depth: usize) -> Result<Value, Unresolved> {
        match v {
            Value::String(s) => self.string(s, depth),
            Value::Array(items) => (items.iter())
                .map(|i| self.resolve_at(i, depth))
                .collect::<Result<_, _>>()
                .map(Value::Array),
            Value::Object(obj) => {
                let mut out = Map::new();
                for (k, v) in obj {
                    out.insert(k.clone(), self.resolve_at(v, depth)?);
                }
                Ok(Value::Object(out))
            }
            other => Ok(other.clone()),
        }
    }

    /// A string: an expression `[...]` evaluated, `[[...` the literal `[...`, else itself.
    fn string(&self, s: &str, depth: usize) -> Result<Value, Unresolved> {
        if let Some(rest) = s.strip_prefix("[[") {
            return Ok(Value::String(format!("[{rest}")));
        }
        let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
            return Ok(Value::String(s.to_owned()));
        };
        let fail = |why: String| Unresolved {
            expr: s.to_owned(),
            why,
        };
        if depth > MAX_DEPTH {
            return Err(fail(
                "variables or parameters refer to each other in a cycle".into(),
            ));
        }
        let mut p = Parser {
            text: inner,
            pos: 0,
            scope: self,
            depth,
            nest: 0,
        };
        let v = p.expr().map_err(|e| match e {
            Error::Here(why) => fail(why),
            Error::Inner(u) => u,
        })?;
        p.ws();
        if p.pos < inner.len() {
            return Err(fail(format!(
                "unexpected {:?} at character {}",
                &inner[p.pos..],
                p.pos + 2
            )));
        }
        Ok(v)
    }

    fn parameter(&self, name: &str, depth: usize) -> Result<Value, Error> {
        let find = |m: &Map<String, Value>| {
            m.get(name).cloned().or_else(|| {
                (m.iter())
                    .find(|(k, _)| k.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.clone())
            })
        };
        if let Some(v) = find(&self.given) {
            return Ok(v);
        }
        match find(&self.declared) {
            Some(decl) => match decl.get("defaultValue") {
                Some(d) => {
                    self.read_one()?;
                    self.resolve_at(d, depth + 1).map_err(Error::Inner)
                }
                None => Err(Error::Here(format!(
                    "parameter '{name}' has no defaultValue and no value was given"
                ))),
            },
            None => Err(Error::Here(format!(
                "the template declares no parameter '{name}'"
            ))),
        }
    }

    fn variable(&self, name: &str, depth: usize) -> Result<Value, Error> {
        match self.variables.get(name) {
            Some(v) => {
                self.read_one()?;
                self.resolve_at(v, depth + 1).map_err(Error::Inner)
            }
            None => Err(Error::Here(format!(
                "the template declares no variable '{name}'"
            ))),
        }
    }
}

/// An error in this expression, or one inside a parameter or variable it reads.
enum Error {
    Here(String),
    Inner(Unresolved),
}

struct Parser<'s> {
    text: &'s str,
    pos: usize,
    scope: &'s Scope,
    depth: usize,
    /// How deep in calls and indexes the parser is.
    nest: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        let ate = self.peek() == Some(c);
        if ate {
            self.pos += c.len_utf8();
        }
        ate
    }

    fn expect(&mut self, c: char) -> Result<(), Error> {
        if self.eat(c) {
            return Ok(());
        }
        Err(Error::Here(format!(
            "expected '{c}' at character {}",
            self.pos + 2
        )))
    }

    /// A primary value followed by indexes and property accesses, at most [`MAX_NEST`]
    /// levels deep.
    fn expr(&mut self) -> Result<Value, Error> {
        if self.nest >= MAX_NEST {
            return Err(Error::Here(format!(
                "the expression nests calls or indexes more than {MAX_NEST} deep at character {}",
                self.pos + 2
            )));
        }
        self.nest += 1;
        let v = self.chain();
        self.nest -= 1;
        v
    }

    fn chain(&mut self) -> Result<Value, Error> {
        let mut v = self.primary()?;
        loop {
            if self.eat('[') {
                let index = self.expr()?;
                self.expect(']')?;
                v = element(&v, &index)?;
            } else if self.eat('.') {
                let name = self.ident();
                v = property(&v, &name)?;
            } else {
                return Ok(v);
            }
        }
    }

    fn ident(&mut self) -> String {
        self.ws();
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        self.pos += len;
        rest[..len].to_owned()
    }

    fn primary(&mut self) -> Result<Value, Error> {
        self.ws();
        match self.peek() {
            Some('\'') => self.literal().map(Value::String),
            Some(c) if c.is_ascii_digit() || c == '-' => self.number(),
            Some(c) if c.is_alphabetic() => {
                let name = self.ident();
                self.expect('(')?;
                let mut args = Vec::new();
                if !self.eat(')') {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(')') {
                            break;
                        }
                        self.expect(',')?;
                    }
                }
                self.call(&name, &args)
            }
            _ => Err(Error::Here(format!(
                "expected a string, a number or a function at character {}",
                self.pos + 2
            ))),
        }
    }

    /// `'text'`, a quote doubled inside.
    fn literal(&mut self) -> Result<String, Error> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let Some(end) = rest.find('\'') else {
                return Err(Error::Here("a string literal is not closed".into()));
            };
            out.push_str(&rest[..end]);
            self.pos += end + 1;
            if self.peek() == Some('\'') {
                out.push('\'');
                self.pos += 1;
            } else {
                return Ok(out);
            }
        }
    }

    fn number(&mut self) -> Result<Value, Error> {
        let rest = &self.text[self.pos..];
        let len = (rest.char_indices())
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
            .map_or(rest.len(), |(i, _)| i);
        self.pos += len;
        let n: i64 = rest[..len]
            .parse()
            .map_err(|_| Error::Here(format!("{:?} is not a number", &rest[..len])))?;
        Ok(Value::from(n))
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Value, Error> {
        let out = self.function(&name.to_ascii_lowercase(), name, args);
        match out {
            Err(_) if self.scope.lenient => Ok(Value::String("?".into())),
            other => other,
        }
    }

    fn function(&self, lower: &str, name: &str, args: &[Value]) -> Result<Value, Error> {
        let scope = self.scope;
        match (lower, args) {
            ("parameters", [Value::String(p)]) => scope.parameter(p, self.depth),
            ("variables", [Value::String(v)]) => scope.variable(v, self.depth),
            ("concat", _) => concat(args),
            ("format", [Value::String(f), rest @ ..]) => format(f, rest),
            ("copyindex", _) => copy_index(scope.copy_index, args),
            ("length", [Value::Array(a)]) => Ok(Value::from(a.len())),
            ("length", [Value::Object(o)]) => Ok(Value::from(o.len())),
            ("length", [Value::String(s)]) => Ok(Value::from(s.chars().count())),
            ("tolower", [Value::String(s)]) => Ok(Value::String(s.to_lowercase())),
            ("toupper", [Value::String(s)]) => Ok(Value::String(s.to_uppercase())),
            ("string", [v]) => Ok(Value::String(text_of(v))),
            ("int", [v]) => int(v),
            ("true", []) => Ok(Value::Bool(true)),
            ("false", []) => Ok(Value::Bool(false)),
            (
                "parameters" | "variables" | "format" | "length" | "tolower" | "toupper" | "string"
                | "int",
                _,
            ) => Err(Error::Here(format!(
                "{name}() is given arguments of the wrong kind: {}",
                Value::Array(args.to_vec())
            ))),
            _ => Err(Error::Here(format!("{name}() is known only when deployed"))),
        }
    }
}

/// A value as `concat` and `format` write it.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn int(v: &Value) -> Result<Value, Error> {
    match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(v.clone()),
        Value::String(s) => (s.trim().parse::<i64>())
            .map(Value::from)
            .map_err(|_| Error::Here(format!("int('{s}'): not an integer"))),
        other => Err(Error::Here(format!("int({other}): not an integer"))),
    }
}

/// Arrays joined when every argument is one, else the arguments as text.
fn concat(args: &[Value]) -> Result<Value, Error> {
    if !args.is_empty() && args.iter().all(Value::is_array) {
        let joined = args.iter().filter_map(Value::as_array).flatten().cloned();
        return Ok(Value::Array(joined.collect()));
    }
    if args.iter().any(|a| a.is_array() || a.is_object()) {
        return Err(Error::Here(
            "concat() of arrays and strings together".into(),
        ));
    }
    Ok(Value::String(args.iter().map(text_of).collect()))
}

/// `format('{0}/{1}', a, b)`: `{n}` (with or without a format after `:`), `{{` and `}}`.
fn format(f: &str, args: &[Value]) -> Result<Value, Error> {
    let mut out = String::new();
    let mut rest = f;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let end = (tail.starts_with('{'))
            .then(|| tail.find('}'))
            .flatten()
            .ok_or_else(|| Error::Here(format!("format string {f:?} is not closed")))?;
        let spec = &tail[1..end];
        let index = spec.split([':', ',']).next().unwrap_or("").trim();
        let arg = (index.parse::<usize>().ok())
            .and_then(|n| args.get(n))
            .ok_or_else(|| Error::Here(format!("format string {f:?}: no argument {{{spec}}}")))?;
        out.push_str(&text_of(arg));
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(Value::String(out))
}

/// `copyIndex()`, `copyIndex(offset)`, `copyIndex('loop')`, `copyIndex('loop', offset)`.
fn copy_index(index: Option<usize>, args: &[Value]) -> Result<Value, Error> {
    let Some(i) = index else {
        return Err(Error::Here(
            "copyIndex() outside a copy loop whose count is known".into(),
        ));
    };
    let offset = match args {
        [] | [Value::String(_)] => 0,
        [Value::Number(n)] | [Value::String(_), Value::Number(n)] => n.as_i64().unwrap_or(0),
        _ => {
            return Err(Error::Here(
                "copyIndex() with arguments of the wrong kind".into(),
            ));
        }
    };
    Ok(Value::from(i as i64 + offset))
}

fn element(v: &Value, index: &Value) -> Result<Value, Error> {
    match (v, index) {
        (Value::Array(a), Value::Number(n)) => (n.as_u64())
            .and_then(|i| a.get(usize::try_from(i).ok()?))
            .cloned()
            .ok_or_else(|| Error::Here(format!("index {n} is past the array's {} items", a.len()))),
        (Value::Object(_), Value::String(name)) => property(v, name),
        _ => Err(Error::Here(format!("cannot index {v} with {index}"))),
    }
}

/// Property `name` of an object (ARM matches names case-insensitively).
fn property(v: &Value, name: &str) -> Result<Value, Error> {
    let found = v.as_object().and_then(|o| {
        o.get(name).or_else(|| {
            o.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v)
        })
    });
    found
        .cloned()
        .ok_or_else(|| Error::Here(format!("{v} has no property '{name}'")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scope() -> Scope {
        let template = json!({
            "parameters": {
                "name": {"type": "string", "defaultValue": "orders"},
                "throughput": {"type": "int", "defaultValue": 400},
                "suffix": {"type": "string", "defaultValue": "[concat('-', parameters('name'))]"},
                "containers": {"type": "array"},
                "account": {"type": "string", "defaultValue": "[uniqueString(resourceGroup().id)]"}
            },
            "variables": {"key": "[concat('/', 'tenant', 'Id')]", "loop": "[variables('loop')]"}
        });
        let given = json!({"containers": [{"name": "a", "pk": "/x"}, {"name": "b", "pk": "/y"}]});
        Scope::of(&template, given.as_object().unwrap().clone())
    }

    #[test]
    fn expressions_resolve_as_a_deployment_would() {
        let mut s = scope();
        s.copy_index = Some(1);
        let cases = [
            ("plain", json!("plain")),
            ("[[literal]", json!("[literal]")),
            ("[parameters('name')]", json!("orders")),
            ("[parameters('throughput')]", json!(400)),
            ("[parameters('suffix')]", json!("-orders")),
            ("[variables('key')]", json!("/tenantId")),
            (
                "[format('{0}/{1}', 'db', parameters('name'))]",
                json!("db/orders"),
            ),
            ("[format('{{{0}}}', 7)]", json!("{7}")),
            ("[parameters('containers')[copyIndex()].pk]", json!("/y")),
            ("[parameters('containers')[0]['name']]", json!("a")),
            ("[length(parameters('containers'))]", json!(2)),
            ("[concat('it''s', '-', string(1))]", json!("it's-1")),
            ("[toLower('ABC')]", json!("abc")),
            ("[copyIndex(10)]", json!(11)),
        ];
        for (text, want) in cases {
            assert_eq!(s.resolve(&json!(text)), Ok(want), "{text}");
        }
    }

    #[test]
    fn what_cannot_be_resolved_names_the_expression_and_why() {
        let s = scope();
        let cases = [
            (
                "[parameters('account')]",
                "[uniqueString(resourceGroup().id)]",
                "resourceGroup() is known only when deployed",
            ),
            (
                "[parameters('nope')]",
                "[parameters('nope')]",
                "declares no parameter 'nope'",
            ),
            ("[variables('loop')]", "[variables('loop')]", "cycle"),
            (
                "[parameters('containers')[copyIndex()].pk]",
                "[parameters('containers')[copyIndex()].pk]",
                "outside a copy loop",
            ),
            (
                "[parameters('containers')[5]]",
                "[parameters('containers')[5]]",
                "past the array's 2 items",
            ),
            ("[concat('a']", "[concat('a']", "expected ','"),
        ];
        for (text, expr, why) in cases {
            let e = s.resolve(&json!(text)).unwrap_err();
            assert_eq!(e.expr, expr, "{text}");
            assert!(e.why.contains(why), "{text}: {}", e.why);
            assert!(e.message("f", "give --key").contains("--parameters FILE"));
        }
        let mut missing = Scope::of(&json!({"parameters": {"c": {"type": "array"}}}), Map::new());
        let e = missing.resolve(&json!("[parameters('c')]")).unwrap_err();
        assert!(e.why.contains("no defaultValue"), "{}", e.why);
        missing.lenient = true;
        assert_eq!(
            missing.resolve(&json!("[format('{0}/db', parameters('c'))]")),
            Ok(json!("?/db"))
        );
    }
}
