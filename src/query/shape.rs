//! The shape of a query, for a cost model: how many results it can return, whether it
//! aggregates, sorts, groups, de-duplicates or joins.

use std::fmt;

use super::ast::{Count, Expr, Query, Selection, number_value};
use super::params::Parameters;

/// Shape facts of the outer query (subqueries are not described).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryShape {
    /// `SELECT DISTINCT`.
    pub distinct: bool,
    /// `SELECT VALUE`.
    pub value: bool,
    /// `TOP n`, when `n` (or its parameter) is a whole number.
    pub top: Option<u64>,
    /// `OFFSET n`, when a whole number.
    pub offset: Option<u64>,
    /// `LIMIT m`, when a whole number.
    pub limit: Option<u64>,
    /// The first aggregate function in the projection, outside subqueries.
    pub aggregate: Option<Aggregate>,
    /// Has `ORDER BY`.
    pub order_by: bool,
    /// Has `GROUP BY`.
    pub group_by: bool,
    /// How many `JOIN`s.
    pub joins: usize,
}

/// The aggregate functions of the query language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// `COUNT`.
    Count,
    /// `SUM`.
    Sum,
    /// `AVG`.
    Avg,
    /// `MIN`.
    Min,
    /// `MAX`.
    Max,
    /// `MAKELIST`.
    MakeList,
    /// `MAKESET`.
    MakeSet,
}

const AGGREGATES: [(&str, Aggregate); 7] = [
    ("COUNT", Aggregate::Count),
    ("SUM", Aggregate::Sum),
    ("AVG", Aggregate::Avg),
    ("MIN", Aggregate::Min),
    ("MAX", Aggregate::Max),
    ("MAKELIST", Aggregate::MakeList),
    ("MAKESET", Aggregate::MakeSet),
];

impl Aggregate {
    /// The aggregate a built-in function name denotes (case-insensitive).
    pub fn from_name(name: &str) -> Option<Aggregate> {
        AGGREGATES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, a)| *a)
    }

    /// The function's name, upper case.
    pub fn name(self) -> &'static str {
        AGGREGATES
            .iter()
            .find(|(_, a)| *a == self)
            .map_or("", |(n, _)| n)
    }
}

impl QueryShape {
    /// The shape of `query`. A count that is not a whole number is `None` and is returned
    /// in the second value as the clause's name.
    pub fn of(query: &Query, params: &Parameters) -> (QueryShape, Vec<&'static str>) {
        let mut bad = Vec::new();
        let mut count = |c: Option<&Count>, clause| match c.map(|c| resolve_count(c, params)) {
            Some(Err(NotWhole)) => {
                bad.push(clause);
                None
            }
            Some(Ok(n)) => n,
            None => None,
        };
        let ol = query.offset_limit.as_ref();
        let shape = QueryShape {
            distinct: query.distinct,
            value: matches!(query.selection, Selection::Value(_)),
            top: count(query.top.as_ref(), "TOP"),
            offset: count(ol.map(|o| &o.offset), "OFFSET"),
            limit: count(ol.map(|o| &o.limit), "LIMIT"),
            aggregate: projection_aggregate(&query.selection),
            order_by: query.order_by.is_some(),
            group_by: !query.group_by.is_empty(),
            joins: query.from.as_ref().map_or(0, |f| f.joins.len()),
        };
        (shape, bad)
    }

    /// The most results the query can return: the smaller of `TOP` and `LIMIT`.
    pub fn max_results(&self) -> Option<u64> {
        match (self.top, self.limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A count that is not a whole, non-negative number.
struct NotWhole;

/// The count's value; `None` for a missing parameter (reported elsewhere).
fn resolve_count(count: &Count, params: &Parameters) -> Result<Option<u64>, NotWhole> {
    let n = match count {
        Count::Number(text) => number_value(text, false),
        Count::Parameter(name) => match params.get(name) {
            None => return Ok(None),
            Some(v) => v.as_f64().unwrap_or(f64::NAN),
        },
    };
    let whole = n >= 0.0 && n.fract() == 0.0 && n < 1.8e19;
    if whole {
        Ok(Some(n as u64))
    } else {
        Err(NotWhole)
    }
}

fn projection_aggregate(selection: &Selection) -> Option<Aggregate> {
    match selection {
        Selection::Star => None,
        Selection::Value(e) => find_aggregate(e),
        Selection::List(items) => items.iter().find_map(|i| find_aggregate(&i.expr)),
    }
}

/// The first aggregate call in `e`, pre-order, outside subqueries.
fn find_aggregate(e: &Expr) -> Option<Aggregate> {
    if let Expr::Call {
        udf: false, name, ..
    } = e
        && let Some(a) = Aggregate::from_name(name)
    {
        return Some(a);
    }
    let mut found = None;
    e.for_each_child(|child| {
        if found.is_none() {
            found = find_aggregate(child);
        }
    });
    found
}

impl fmt::Display for QueryShape {
    /// Space-separated facts, e.g. `value top=10 aggregate=COUNT order_by`; `plain` when
    /// there are none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        let flags = [("distinct", self.distinct), ("value", self.value)];
        parts.extend(
            flags
                .iter()
                .filter(|(_, on)| *on)
                .map(|(n, _)| n.to_string()),
        );
        for (name, n) in [
            ("top", self.top),
            ("offset", self.offset),
            ("limit", self.limit),
        ] {
            parts.extend(n.map(|n| format!("{name}={n}")));
        }
        parts.extend(self.aggregate.map(|a| format!("aggregate={}", a.name())));
        let flags = [("order_by", self.order_by), ("group_by", self.group_by)];
        parts.extend(
            flags
                .iter()
                .filter(|(_, on)| *on)
                .map(|(n, _)| n.to_string()),
        );
        if self.joins > 0 {
            parts.push(format!("joins={}", self.joins));
        }
        if parts.is_empty() {
            f.write_str("plain")
        } else {
            f.write_str(&parts.join(" "))
        }
    }
}
