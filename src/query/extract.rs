//! Key-constraint extraction: which root paths a query's `WHERE` clause fixes by equality.
//!
//! Rules, applied to the condition's tree:
//! * `p = v` and `v = p` fix path `p` to `v` when `p` is a property path from the `FROM`
//!   alias (`c.a.b`, `c["a"]["b"]`: `/a/b`; below the source's own path for
//!   `FROM root.x e`) and `v` is a literal, a negated number or a scalar parameter.
//!   An array index, a `JOIN` or `IN` alias, a subquery source or a parameter index never
//!   gives a root path.
//! * `p IN (v1, v2, ...)` and `ARRAY_CONTAINS([v1, ...] or @array, p)` fix `p` to one of
//!   the values; `OR` gives alternatives; `AND` combines them (dropping alternatives that
//!   fix one path to two values).
//! * Anything else (ranges, `!=`, `NOT`, functions, subqueries, comparisons between paths,
//!   missing parameters) is non-restrictive: `x AND other` keeps `x`, `x OR other` is
//!   unconstrained.
//! * `p = undefined` never matches (comparisons with undefined are undefined), and is
//!   reported.
//! * Past [`MAX_CONJUNCTS`] alternatives, an `OR` is given up as unconstrained and an `AND`
//!   keeps its operand with fewer alternatives (as it does once the query's cross products
//!   have tried more than a bounded number of pairs); [`Extraction::capped`] says so.

use crate::engine::{KeyPath, PkValue};

use super::ast::*;
use super::constraints::{Constraints, MAX_CONJUNCTS, MAX_PRODUCT_WORK};
use super::params::Parameters;
use super::shape::QueryShape;

/// What a query fixes and how it is shaped.
#[derive(Clone, Debug, PartialEq)]
pub struct Extraction {
    /// The root paths the `WHERE` clause fixes, as alternatives.
    pub constraints: Constraints,
    /// Shape facts for a cost model.
    pub shape: QueryShape,
    /// Things the caller should know: missing parameters, comparisons that never match.
    pub warnings: Vec<QueryWarning>,
    /// Whether alternatives were dropped at [`MAX_CONJUNCTS`] or at the bound on
    /// cross-product work (the constraints are then looser than the query's, never tighter).
    pub capped: bool,
}

/// A remark about a query that parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryWarning {
    /// A parameter the query uses is not given; comparisons with it are ignored.
    #[error("parameter {0} is not given; comparisons with it are ignored")]
    MissingParameter(String),
    /// `path = undefined`, which never matches.
    #[error(
        "{0} = undefined never matches (comparisons with undefined are undefined; use NOT IS_DEFINED)"
    )]
    ComparesWithUndefined(String),
    /// A `TOP`, `OFFSET` or `LIMIT` count that is not a whole number.
    #[error("the {0} count is not a whole number; ignored")]
    NotACount(&'static str),
    /// More than [`MAX_CONJUNCTS`] alternatives.
    #[error("more than {MAX_CONJUNCTS} key alternatives; some were dropped")]
    TooManyAlternatives,
}

/// Extracts the constraints and shape of a parsed query.
pub fn extract(query: &Query, params: &Parameters) -> Extraction {
    let mut x = Extractor {
        params,
        warnings: Vec::new(),
        capped: false,
        work: 0,
    };
    x.missing_parameters(query);
    let constraints = x.query(query);
    let (shape, bad_counts) = QueryShape::of(query, params);
    for clause in bad_counts {
        x.warn(QueryWarning::NotACount(clause));
    }
    Extraction {
        constraints,
        shape,
        warnings: x.warnings,
        capped: x.capped,
    }
}

/// Conjunct pairs all the cross products of one query may try: bounds the time a query
/// built to blow up (`a IN (...) AND b IN (...) AND ...`) can take.
const MAX_QUERY_WORK: usize = MAX_PRODUCT_WORK * 2;

struct Extractor<'a> {
    params: &'a Parameters,
    warnings: Vec<QueryWarning>,
    capped: bool,
    work: usize,
}

/// The name that stands for the root document, and the path the source itself adds
/// (`FROM root.employment e`: `e` is `/employment`).
struct Scope {
    alias: Option<String>,
    prefix: Vec<String>,
}

impl Scope {
    fn of(query: &Query) -> Scope {
        let none = Scope {
            alias: None,
            prefix: Vec::new(),
        };
        let Some(from) = &query.from else { return none };
        let Source::Aliased {
            collection: Collection::Path { root, path },
            alias,
        } = &from.source
        else {
            return none;
        };
        let prefix: Option<Vec<String>> = path.iter().map(property).collect();
        let Some(prefix) = prefix else { return none };
        let alias = alias
            .clone()
            .or_else(|| prefix.last().cloned())
            .unwrap_or(root.clone());
        if from.joins.iter().any(|j| source_alias(j) == Some(&alias)) {
            return none;
        }
        Scope {
            alias: Some(alias),
            prefix,
        }
    }

    /// The root path `e` denotes, if it is one.
    fn path_of(&self, e: &Expr) -> Option<KeyPath> {
        let mut segments = Vec::new();
        self.collect(e, &mut segments)?;
        (!segments.is_empty()).then(|| KeyPath::from_segments(segments))
    }

    fn collect(&self, e: &Expr, out: &mut Vec<String>) -> Option<()> {
        match e {
            Expr::Identifier(name) if Some(name) == self.alias.as_ref() => {
                out.extend(self.prefix.iter().cloned());
            }
            Expr::Member(base, name) => {
                self.collect(base, out)?;
                out.push(name.clone());
            }
            Expr::Index(base, index) => match &**index {
                Expr::Literal(Literal::String(name)) => {
                    self.collect(base, out)?;
                    out.push(name.clone());
                }
                _ => return None,
            },
            _ => return None,
        }
        Some(())
    }
}

fn property(segment: &PathSegment) -> Option<String> {
    match segment {
        PathSegment::Property(name) => Some(name.clone()),
        PathSegment::Index(_) => None,
    }
}

fn source_alias(source: &Source) -> Option<&String> {
    match source {
        Source::Aliased { alias, .. } => alias.as_ref(),
        Source::Iterator { alias, .. } => Some(alias),
    }
}

impl Extractor<'_> {
    fn warn(&mut self, w: QueryWarning) {
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    /// Constraints of `query`: its `WHERE`, and those of a subquery it reads `FROM`.
    fn query(&mut self, query: &Query) -> Constraints {
        let scope = Scope::of(query);
        let inner = match &query.from {
            Some(From {
                source:
                    Source::Aliased {
                        collection: Collection::Subquery(q),
                        ..
                    },
                ..
            }) => self.query(q),
            _ => Constraints::Unconstrained,
        };
        let filter = match &query.filter {
            Some(e) => self.condition(e, &scope),
            None => Constraints::Unconstrained,
        };
        self.both(inner, filter)
    }

    fn condition(&mut self, e: &Expr, scope: &Scope) -> Constraints {
        match e {
            Expr::And(items) => items.iter().fold(Constraints::Unconstrained, |acc, item| {
                let next = self.condition(item, scope);
                self.both(acc, next)
            }),
            Expr::Or(items) => {
                let parts: Vec<_> = items.iter().map(|i| self.condition(i, scope)).collect();
                self.either(parts)
            }
            Expr::Binary(BinaryOp::Eq, l, r) => self.equality(l, r, scope),
            Expr::In {
                expr,
                list,
                negated: false,
            } => {
                let parts: Vec<_> = list.iter().map(|v| self.equality(expr, v, scope)).collect();
                self.either(parts)
            }
            Expr::Call {
                udf: false,
                name,
                args,
            } if name.eq_ignore_ascii_case("ARRAY_CONTAINS") => self.array_contains(args, scope),
            _ => Constraints::Unconstrained,
        }
    }

    /// `a AND b`; past the caps (alternatives, or cross-product work for the whole query)
    /// the operand with fewer alternatives.
    fn both(&mut self, a: Constraints, b: Constraints) -> Constraints {
        let len = |c: &Constraints| c.alternatives().map_or(0, <[_]>::len);
        let work = len(&a).saturating_mul(len(&b));
        self.work = self.work.saturating_add(work);
        let product = if self.work <= MAX_QUERY_WORK {
            a.and(&b).ok()
        } else {
            None
        };
        product.unwrap_or_else(|| {
            self.cap();
            let len = |c: &Constraints| c.alternatives().map_or(usize::MAX, <[_]>::len);
            if len(&a) <= len(&b) { a } else { b }
        })
    }

    fn either(&mut self, parts: Vec<Constraints>) -> Constraints {
        Constraints::any(parts).unwrap_or_else(|_| {
            self.cap();
            Constraints::Unconstrained
        })
    }

    fn cap(&mut self) {
        self.capped = true;
        self.warn(QueryWarning::TooManyAlternatives);
    }

    fn equality(&mut self, l: &Expr, r: &Expr, scope: &Scope) -> Constraints {
        let fixed = match scope.path_of(l) {
            Some(path) => self.value(r).map(|v| (path, v)),
            None => scope
                .path_of(r)
                .and_then(|path| Some((path, self.value(l)?))),
        };
        match fixed {
            Some((path, PkValue::Undefined)) => {
                self.warn(QueryWarning::ComparesWithUndefined(path.to_string()));
                Constraints::nothing()
            }
            Some((path, value)) => Constraints::fixed(path, value),
            None => Constraints::Unconstrained,
        }
    }

    /// The key value `e` denotes: a scalar literal, a signed number literal or a scalar
    /// parameter. Non-finite numbers are not key values.
    fn value(&self, e: &Expr) -> Option<PkValue> {
        let v = match e {
            Expr::Literal(Literal::Number(t)) => PkValue::Number(number_value(t, false)),
            Expr::Unary(op @ (UnaryOp::Minus | UnaryOp::Plus), inner) => match &**inner {
                Expr::Literal(Literal::Number(t)) => {
                    PkValue::Number(number_value(t, *op == UnaryOp::Minus))
                }
                _ => return None,
            },
            Expr::Literal(Literal::String(s)) => PkValue::String(s.clone()),
            Expr::Literal(Literal::Bool(b)) => PkValue::Bool(*b),
            Expr::Literal(Literal::Null) => PkValue::Null,
            Expr::Literal(Literal::Undefined) => PkValue::Undefined,
            Expr::Parameter(name) => PkValue::from_json(self.params.get(name)?)?,
            _ => return None,
        };
        match v {
            PkValue::Number(n) if !n.is_finite() => None,
            v => Some(v),
        }
    }

    /// `ARRAY_CONTAINS(list, p)` (full match) with a literal array or an array parameter
    /// of scalars: `p IN list`.
    fn array_contains(&mut self, args: &[Expr], scope: &Scope) -> Constraints {
        let full_match = match args.get(2) {
            None | Some(Expr::Literal(Literal::Bool(false))) => args.len() <= 3,
            Some(_) => false,
        };
        let Some(path) = args
            .get(1)
            .and_then(|p| scope.path_of(p))
            .filter(|_| full_match)
        else {
            return Constraints::Unconstrained;
        };
        let values: Option<Vec<PkValue>> = match &args[0] {
            Expr::Array(items) => items.iter().map(|i| self.value(i)).collect(),
            Expr::Parameter(name) => match self.params.get(name) {
                Some(serde_json::Value::Array(items)) => {
                    items.iter().map(PkValue::from_json).collect()
                }
                _ => None,
            },
            _ => None,
        };
        let Some(values) = values else {
            return Constraints::Unconstrained;
        };
        let defined = values.into_iter().filter(|v| *v != PkValue::Undefined);
        let parts: Vec<_> = defined
            .map(|v| Constraints::fixed(path.clone(), v))
            .collect();
        self.either(parts)
    }

    /// Warns once for each parameter the query uses that is not given, in text order.
    fn missing_parameters(&mut self, query: &Query) {
        let counts = [
            query.top.as_ref(),
            query.offset_limit.as_ref().map(|o| &o.offset),
        ];
        let limit = query.offset_limit.as_ref().map(|o| &o.limit);
        for count in counts.into_iter().chain([limit]).flatten() {
            if let Count::Parameter(name) = count {
                self.check_parameter(name);
            }
        }
        for sub in query.source_subqueries() {
            self.missing_parameters(sub);
        }
        query.for_each_expr(|e| self.missing_in(e));
    }

    fn missing_in(&mut self, e: &Expr) {
        match e {
            Expr::Parameter(name) => self.check_parameter(name),
            Expr::Subquery(_, q) => self.missing_parameters(q),
            _ => e.for_each_child(|child| self.missing_in(child)),
        }
    }

    fn check_parameter(&mut self, name: &str) {
        if self.params.get(name).is_none() {
            self.warn(QueryWarning::MissingParameter(name.to_owned()));
        }
    }
}
