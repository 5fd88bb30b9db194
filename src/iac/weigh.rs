//! What evaluating a Terraform expression would build, foreseen from its tree before the
//! evaluator runs: locals that copy each other double at each level, and a `for` over a
//! list of 300 inside three more builds 8.1 billion values, so a local is evaluated only
//! when its foreseen weight (values and string bytes) stays under a bound. A reference
//! weighs what it reads: `var.containers["a"].pk` the one string, not the whole map.
//!
//! It also refuses the arithmetic the evaluator would get wrong without a panic: its
//! integer subtraction casts operands of 2^63 and more to `i64` and wraps, so arithmetic
//! whose whole numbers could reach 2^63 in magnitude (literals, locals and variables that
//! hold numbers, loop variables over known numbers) is an error.

use hcl::expr::{BinaryOperator, Expression, ObjectKey, TraversalOperator};
use hcl::template::{Directive, Element};

/// The values a reference may read: the resolved locals and the variables.
pub(super) struct Scope<'a> {
    pub(super) locals: &'a hcl::Map<String, hcl::Value>,
    pub(super) vars: &'a hcl::Map<String, hcl::Value>,
    /// The loop variables of the `for` expressions around, each with the most one of its
    /// elements weighs and, when its collection is known, the largest magnitude of its
    /// whole numbers.
    bound: Vec<(String, f64, Option<i128>)>,
}

impl<'a> Scope<'a> {
    pub(super) fn new(
        locals: &'a hcl::Map<String, hcl::Value>,
        vars: &'a hcl::Map<String, hcl::Value>,
    ) -> Self {
        Scope {
            locals,
            vars,
            bound: Vec::new(),
        }
    }
}

/// The largest whole number the evaluator's arithmetic keeps exact: 2^63.
const LARGEST: i128 = 1 << 63;

/// What evaluating `expr` would build, in values and string bytes (an upper bound), or why
/// it must not be evaluated.
pub(super) fn foresee(expr: &Expression, scope: &mut Scope<'_>) -> Result<f64, String> {
    Ok(match expr {
        Expression::Null | Expression::Bool(_) => 1.0,
        Expression::Number(_) => {
            constant(expr, scope)?;
            1.0
        }
        Expression::String(s) => 1.0 + s.len() as f64,
        Expression::Array(items) => 1.0 + sum(items.iter(), scope)?,
        Expression::Object(map) => {
            let mut w = 1.0;
            for (k, v) in map {
                w += match k {
                    ObjectKey::Identifier(id) => id.as_str().len() as f64,
                    ObjectKey::Expression(e) => foresee(e, scope)?,
                    other => other.to_string().len() as f64,
                };
                w += foresee(v, scope)?;
            }
            w
        }
        Expression::TemplateExpr(t) => match hcl::Template::from_expr(t) {
            Ok(template) => 1.0 + elements(template.elements(), scope)?,
            Err(_) => 1.0 + t.to_string().len() as f64,
        },
        Expression::Variable(v) => root(v.as_str(), scope),
        Expression::Traversal(t) => traversal(&t.expr, &t.operators, scope)?,
        Expression::FuncCall(f) => 1.0 + sum(f.args.iter(), scope)?,
        Expression::Parenthesis(e) => foresee(e, scope)?,
        Expression::Conditional(c) => {
            foresee(&c.cond_expr, scope)?
                + foresee(&c.true_expr, scope)?.max(foresee(&c.false_expr, scope)?)
        }
        Expression::Operation(op) => match op.as_ref() {
            hcl::expr::Operation::Unary(u) => {
                constant(expr, scope)?;
                1.0 + foresee(&u.expr, scope)?
            }
            hcl::expr::Operation::Binary(b) => {
                constant(expr, scope)?;
                1.0 + foresee(&b.lhs_expr, scope)? + foresee(&b.rhs_expr, scope)?
            }
        },
        Expression::ForExpr(f) => {
            let vars = (&f.value_var, f.key_var.as_ref());
            1.0 + looped(&f.collection_expr, vars, scope, |scope| {
                let key = f.key_expr.as_ref().map_or(Ok(0.0), |k| foresee(k, scope))?;
                Ok(key + foresee(&f.value_expr, scope)?)
            })?
        }
        // A kind of expression this version does not know: its text's length.
        other => 1.0 + other.to_string().len() as f64,
    })
}

fn sum<'e>(
    items: impl Iterator<Item = &'e Expression>,
    scope: &mut Scope<'_>,
) -> Result<f64, String> {
    let mut w = 0.0;
    for e in items {
        w += foresee(e, scope)?;
    }
    Ok(w)
}

/// A template's elements: literals by their bytes, interpolations by what they build, a
/// `%{for}` by its collection's length times its body.
fn elements(items: &[Element], scope: &mut Scope<'_>) -> Result<f64, String> {
    let mut w = 0.0;
    for e in items {
        w += match e {
            Element::Literal(s) => s.len() as f64,
            Element::Interpolation(i) => foresee(&i.expr, scope)?,
            Element::Directive(d) => match d.as_ref() {
                Directive::If(i) => {
                    let no = i.false_template.as_ref();
                    foresee(&i.cond_expr, scope)?
                        + (elements(i.true_template.elements(), scope)?)
                            .max(no.map_or(Ok(0.0), |t| elements(t.elements(), scope))?)
                }
                Directive::For(f) => {
                    let vars = (&f.value_var, f.key_var.as_ref());
                    looped(&f.collection_expr, vars, scope, |scope| {
                        elements(f.template.elements(), scope)
                    })?
                }
            },
        };
    }
    Ok(w)
}

/// What a `for` (an expression's or a template's) over `collection` builds: its length
/// times what `body` builds with the loop's variables (`value`, and `key`) bound, each
/// to what one of its elements weighs and, when known, the largest whole number it holds.
fn looped(
    collection_expr: &Expression,
    (value, key): (&hcl::Identifier, Option<&hcl::Identifier>),
    scope: &mut Scope<'_>,
    body: impl FnOnce(&mut Scope<'_>) -> Result<f64, String>,
) -> Result<f64, String> {
    let (count, element) = collection(collection_expr, scope)?;
    let numbers = largest_element(collection_expr, scope);
    let depth = scope.bound.len();
    scope
        .bound
        .push((value.as_str().to_owned(), element, numbers));
    if let Some(k) = key {
        scope
            .bound
            .push((k.as_str().to_owned(), element, Some(count as i128)));
    }
    let built = body(scope);
    scope.bound.truncate(depth);
    Ok(count * built?)
}

/// A `for`'s collection: how many elements it has at most and the most one weighs.
fn collection(expr: &Expression, scope: &mut Scope<'_>) -> Result<(f64, f64), String> {
    if let Expression::Traversal(t) = expr
        && let Some(v) = resolve(&t.expr, &t.operators, scope)
    {
        return Ok(match v {
            hcl::Value::Array(items) => (
                items.len() as f64,
                items.iter().map(weight).fold(0.0, f64::max),
            ),
            hcl::Value::Object(map) => (
                map.len() as f64,
                map.iter()
                    .map(|(k, v)| k.len() as f64 + weight(v))
                    .fold(0.0, f64::max),
            ),
            other => (1.0, weight(other)),
        });
    }
    let w = foresee(expr, scope)?;
    Ok((w, w))
}

/// A variable's weight: `local` and `var` whole, a loop variable its element's bound.
fn root(name: &str, scope: &Scope<'_>) -> f64 {
    match name {
        "local" => scope
            .locals
            .iter()
            .map(|(k, v)| k.len() as f64 + weight(v))
            .sum(),
        "var" => scope
            .vars
            .iter()
            .map(|(k, v)| k.len() as f64 + weight(v))
            .sum(),
        _ => (scope.bound.iter().rev())
            .find(|(n, ..)| n == name)
            .map_or(1.0, |(_, w, _)| *w),
    }
}

/// A reference's weight: the value it reads when its steps are names and constant
/// indexes into a local or a variable, else its root's whole weight.
fn traversal(
    expr: &Expression,
    operators: &[TraversalOperator],
    scope: &mut Scope<'_>,
) -> Result<f64, String> {
    if let Some(v) = resolve(expr, operators, scope) {
        return Ok(weight(v));
    }
    let mut w = foresee(expr, scope)?;
    for op in operators {
        if let TraversalOperator::Index(i) = op {
            w += foresee(i, scope)?;
        }
    }
    Ok(w)
}

/// The value a reference reads, when every step is known now.
fn resolve<'s>(
    expr: &Expression,
    operators: &[TraversalOperator],
    scope: &Scope<'s>,
) -> Option<&'s hcl::Value> {
    let Expression::Variable(root) = expr else {
        return None;
    };
    let (map, rest) = match (root.as_str(), operators.split_first()) {
        ("local", Some((TraversalOperator::GetAttr(n), rest))) => {
            (scope.locals.get(n.as_str())?, rest)
        }
        ("var", Some((TraversalOperator::GetAttr(n), rest))) => (scope.vars.get(n.as_str())?, rest),
        _ => return None,
    };
    let mut at = map;
    for op in rest {
        at = match (op, at) {
            (TraversalOperator::GetAttr(n), hcl::Value::Object(m)) => m.get(n.as_str())?,
            (TraversalOperator::Index(Expression::String(k)), hcl::Value::Object(m)) => m.get(k)?,
            (TraversalOperator::Index(Expression::Number(i)), hcl::Value::Array(a)) => {
                a.get(usize::try_from(i.as_u64()?).ok()?)?
            }
            (TraversalOperator::LegacyIndex(i), hcl::Value::Array(a)) => {
                a.get(usize::try_from(*i).ok()?)?
            }
            _ => return None,
        };
    }
    Some(at)
}

/// One per value, plus strings' and keys' bytes.
pub(super) fn weight(v: &hcl::Value) -> f64 {
    let mut total = 0.0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        total += 1.0;
        match v {
            hcl::Value::String(s) => total += s.len() as f64,
            hcl::Value::Array(items) => stack.extend(items),
            hcl::Value::Object(map) => {
                for (k, v) in map {
                    total += k.len() as f64;
                    stack.push(v);
                }
            }
            _ => {}
        }
    }
    total
}

/// Checks the whole numbers of an arithmetic expression (literals, locals and variables
/// that hold numbers, loop variables over known numbers, under `+`, `-`, `*` and unary
/// `-`): when their magnitudes could reach 2^63 it is an error. Other expressions pass.
fn constant(expr: &Expression, scope: &Scope<'_>) -> Result<(), String> {
    match magnitude(expr, scope) {
        Some(Some(n)) if n < LARGEST => Ok(()),
        Some(_) => Err(format!(
            "{expr}: a whole number past 2^63, which Terraform's arithmetic here would get wrong"
        )),
        None => Ok(()),
    }
}

/// The most an integer expression's value (and every value within it) can be in
/// magnitude: `None` when it is not one this can bound, `Some(None)` past 128 bits. Sums
/// and differences add magnitudes, products multiply them: a bound, never less.
fn magnitude(expr: &Expression, scope: &Scope<'_>) -> Option<Option<i128>> {
    match expr {
        Expression::Number(n) => whole(n),
        Expression::Traversal(t) => match resolve(&t.expr, &t.operators, scope)? {
            hcl::Value::Number(n) => whole(n),
            _ => None,
        },
        Expression::Variable(v) => (scope.bound.iter().rev())
            .find(|(n, ..)| n == v.as_str())
            .and_then(|(.., m)| *m)
            .map(Some),
        Expression::Parenthesis(e) => magnitude(e, scope),
        Expression::Operation(op) => match op.as_ref() {
            hcl::expr::Operation::Unary(u) => magnitude(&u.expr, scope),
            hcl::expr::Operation::Binary(b) => {
                let (l, r) = (
                    magnitude(&b.lhs_expr, scope)?,
                    magnitude(&b.rhs_expr, scope)?,
                );
                let (Some(l), Some(r)) = (l, r) else {
                    return Some(None);
                };
                match b.operator {
                    BinaryOperator::Plus | BinaryOperator::Minus => Some(l.checked_add(r)),
                    BinaryOperator::Mul => Some(l.checked_mul(r)),
                    _ => None,
                }
            }
        },
        _ => None,
    }
}

/// The largest magnitude of the whole numbers a `for`'s collection holds, when it is
/// known now (a literal list, or a local or variable).
fn largest_element(expr: &Expression, scope: &Scope<'_>) -> Option<i128> {
    let numbers: Vec<Option<i128>> = match expr {
        Expression::Array(items) => (items.iter())
            .map(|e| magnitude(e, scope).flatten())
            .collect(),
        Expression::Traversal(t) => match resolve(&t.expr, &t.operators, scope)? {
            hcl::Value::Array(items) => items.iter().map(number).collect(),
            hcl::Value::Object(map) => map.values().map(number).collect(),
            _ => return None,
        },
        _ => return None,
    };
    numbers.into_iter().flatten().max()
}

/// A value's magnitude, when it is a whole number.
fn number(v: &hcl::Value) -> Option<i128> {
    match v {
        hcl::Value::Number(n) => whole(n).flatten(),
        _ => None,
    }
}

/// A whole number's magnitude, `None` for a fraction.
fn whole(n: &hcl::Number) -> Option<Option<i128>> {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => Some(Some(i128::from(u))),
        (_, Some(i)) => Some(Some(i128::from(i).abs())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weigh(text: &str, locals: &hcl::Map<String, hcl::Value>) -> Result<f64, String> {
        let expr: Expression = text.parse().unwrap();
        let vars = hcl::Map::new();
        foresee(&expr, &mut Scope::new(locals, &vars))
    }

    #[test]
    fn a_for_weighs_its_collection_times_its_body() {
        let list: Vec<hcl::Value> = (0..300).map(hcl::Value::from).collect();
        let mut locals = hcl::Map::new();
        locals.insert("c".to_owned(), hcl::Value::Array(list));
        // Four nested loops over 300 numbers: 300^4 = 8.1 billion values.
        let nested =
            "[for i in local.c : [for j in local.c : [for k in local.c : [for l in local.c : k]]]]";
        assert!(weigh(nested, &locals).unwrap() > 8.0e9);
        let one = weigh("[for i in local.c : i]", &locals).unwrap();
        assert!((300.0..=700.0).contains(&one), "{one}");
    }

    #[test]
    fn a_reference_weighs_what_it_reads() {
        let mut containers = hcl::Map::new();
        for i in 0..4_000 {
            let mut c = hcl::Map::new();
            c.insert("pk".to_owned(), hcl::Value::from("/tenantId"));
            c.insert("name".to_owned(), hcl::Value::from(format!("c{i}")));
            containers.insert(format!("k{i}"), hcl::Value::Object(c));
        }
        let mut locals = hcl::Map::new();
        locals.insert("containers".to_owned(), hcl::Value::Object(containers));
        let one = weigh("local.containers[\"k7\"].pk", &locals).unwrap();
        assert!((one - 10.0).abs() < 1e-9, "{one}");
        let whole = weigh("local.containers", &locals).unwrap();
        assert!(whole > 40_000.0, "{whole}");
    }

    #[test]
    fn constants_past_two_to_the_63_are_refused() {
        let none = hcl::Map::new();
        assert!(weigh("0 - 18446744073709551615", &none).is_err());
        assert!(weigh("0 - 3037000499 * 3037000499 * 2", &none).is_err());
        assert!(weigh("-9223372036854775807 - 2", &none).is_err());
        // Magnitudes add under a subtraction: a bound, so 2^63 - 2 less 1 passes and
        // 2^63 - 1 less 1 does not.
        assert!(weigh("9223372036854775806 - 1", &none).is_ok());
        assert!(weigh("9223372036854775807 - 1", &none).is_err());
        assert!(weigh("7 % 2 + 400", &none).is_ok());
        // A local holding a number counts as that number.
        let mut locals = hcl::Map::new();
        locals.insert("x".to_owned(), hcl::Value::from(3_037_000_499u64));
        assert!(weigh("0 - local.x * local.x * 2", &locals).is_err());
        assert!(weigh("local.x - 1", &locals).is_ok());
        // So does a loop variable over known numbers.
        assert!(weigh("[for y in [3037000499] : 0 - y * y * 2]", &none).is_err());
        assert!(
            weigh("[for y in local.l : y * 2]", &{
                let mut l = hcl::Map::new();
                l.insert(
                    "l".to_owned(),
                    hcl::Value::Array(vec![hcl::Value::from(400)]),
                );
                l
            })
            .is_ok()
        );
    }
}
