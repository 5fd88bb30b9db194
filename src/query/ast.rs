//! The syntax tree of a Cosmos DB NoSQL query, as written: nothing is resolved or
//! simplified here (`c.a` and `c["a"]` stay distinct nodes), so the tree prints back to an
//! equivalent query.

use crate::engine::value::parse_number_text;

/// One `SELECT` query, at the top level or as a subquery.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// `SELECT DISTINCT`.
    pub distinct: bool,
    /// `TOP n` or `TOP @p`.
    pub top: Option<Count>,
    /// What the query returns.
    pub selection: Selection,
    /// The `FROM` clause; a query may have none (`SELECT VALUE ABS(-1)`).
    pub from: Option<From>,
    /// The `WHERE` condition.
    pub filter: Option<Expr>,
    /// The `GROUP BY` expressions (empty when there is no `GROUP BY`).
    pub group_by: Vec<Expr>,
    /// The `ORDER BY` clause.
    pub order_by: Option<OrderBy>,
    /// `OFFSET n LIMIT m`.
    pub offset_limit: Option<OffsetLimit>,
}

/// A count in `TOP`, `OFFSET` or `LIMIT`: a number literal or a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Count {
    /// The literal's text, e.g. `10`.
    Number(String),
    /// A parameter name with its `@`, e.g. `@top`.
    Parameter(String),
}

/// The projection of a `SELECT`.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// `SELECT *`.
    Star,
    /// `SELECT VALUE expr`.
    Value(Expr),
    /// `SELECT expr [AS alias], ...`.
    List(Vec<SelectItem>),
}

/// One item of a select list.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectItem {
    /// The projected expression.
    pub expr: Expr,
    /// Its `AS` alias.
    pub alias: Option<String>,
}

/// A `FROM` clause: its first source and the sources it joins.
#[derive(Clone, Debug, PartialEq)]
pub struct From {
    /// The source after `FROM`.
    pub source: Source,
    /// The sources after each `JOIN`, in order.
    pub joins: Vec<Source>,
}

/// A source in `FROM` or `JOIN`.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// `collection [AS] [alias]`, e.g. `products p`, `root.employment e`, `(SELECT ...) s`.
    Aliased {
        /// The documents (or sub-documents) iterated.
        collection: Collection,
        /// The alias, when one is written.
        alias: Option<String>,
    },
    /// `alias IN collection`: iterates over the elements of an array.
    Iterator {
        /// The name each element is bound to.
        alias: String,
        /// The array iterated.
        collection: Collection,
    },
}

/// What a source reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Collection {
    /// A name (the container, or an alias in scope) followed by a property path.
    Path {
        /// The first name, e.g. `root`, `c`, `products`.
        root: String,
        /// The path below it: `.a`, `["a"]`, `[0]`.
        path: Vec<PathSegment>,
    },
    /// `(SELECT ...)`.
    Subquery(Box<Query>),
}

/// One step of a path in a `FROM` collection.
#[derive(Clone, Debug, PartialEq)]
pub enum PathSegment {
    /// `.name` or `["name"]`.
    Property(String),
    /// `[n]`, the number literal's text.
    Index(String),
}

/// An `ORDER BY` clause.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderBy {
    /// `ORDER BY RANK score_function(...)`.
    pub rank: bool,
    /// The sort keys, in order.
    pub items: Vec<OrderItem>,
}

/// One sort key.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderItem {
    /// The expression sorted on.
    pub expr: Expr,
    /// `true` for `DESC`; `false` for `ASC` or no order written.
    pub descending: bool,
}

/// `OFFSET n LIMIT m`.
#[derive(Clone, Debug, PartialEq)]
pub struct OffsetLimit {
    /// Rows skipped.
    pub offset: Count,
    /// Rows returned at most.
    pub limit: Count,
}

/// A scalar expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal.
    Literal(Literal),
    /// A parameter, with its `@`.
    Parameter(String),
    /// A bare name: an alias in scope.
    Identifier(String),
    /// `base.name`.
    Member(Box<Expr>, String),
    /// `base[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// `[a, b, ...]`.
    Array(Vec<Expr>),
    /// `{name: value, "name": value, ...}`.
    Object(Vec<(String, Expr)>),
    /// A prefix operator applied to an operand.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a AND b AND ...`, two or more operands.
    And(Vec<Expr>),
    /// `a OR b OR ...`, two or more operands.
    Or(Vec<Expr>),
    /// `expr [NOT] IN (list)`.
    In {
        /// The value looked up.
        expr: Box<Expr>,
        /// The candidates.
        list: Vec<Expr>,
        /// `NOT IN`.
        negated: bool,
    },
    /// `expr [NOT] BETWEEN low AND high`.
    Between {
        /// The value tested.
        expr: Box<Expr>,
        /// The lower bound, inclusive.
        low: Box<Expr>,
        /// The upper bound, inclusive.
        high: Box<Expr>,
        /// `NOT BETWEEN`.
        negated: bool,
    },
    /// `expr [NOT] LIKE pattern [ESCAPE 'c']`.
    Like {
        /// The string tested.
        expr: Box<Expr>,
        /// The pattern.
        pattern: Box<Expr>,
        /// The escape character's string, when given.
        escape: Option<String>,
        /// `NOT LIKE`.
        negated: bool,
    },
    /// `cond ? then : otherwise`.
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a ?? b`.
    Coalesce(Box<Expr>, Box<Expr>),
    /// A built-in function call (`name(args)`) or a user function (`udf.name(args)`).
    Call {
        /// `udf.` prefix.
        udf: bool,
        /// The function name as written.
        name: String,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// A subquery used as an expression.
    Subquery(SubqueryKind, Box<Query>),
}

/// How a subquery is used in an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubqueryKind {
    /// `(SELECT ...)`, a scalar subquery.
    Scalar,
    /// `EXISTS(SELECT ...)`.
    Exists,
    /// `ARRAY(SELECT ...)`.
    Array,
    /// `ALL(SELECT ...)`.
    All,
    /// `FIRST(SELECT ...)`.
    First,
    /// `LAST(SELECT ...)`.
    Last,
}

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// A string, unescaped.
    String(String),
    /// A number, as written (unsigned: a minus sign is a [`UnaryOp::Minus`]).
    Number(String),
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `undefined`.
    Undefined,
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-`.
    Minus,
    /// `+`.
    Plus,
    /// `~`.
    BitNot,
    /// `NOT`.
    Not,
}

/// Binary operators, from the loosest binding to the tightest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `||`.
    Concat,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `&`.
    BitAnd,
    /// `=`.
    Eq,
    /// `!=` or `<>`.
    NotEq,
    /// `<`.
    Lt,
    /// `<=`.
    LtEq,
    /// `>`.
    Gt,
    /// `>=`.
    GtEq,
    /// `<<`.
    ShiftLeft,
    /// `>>`.
    ShiftRight,
    /// `>>>`.
    ShiftRightZeroFill,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Mod,
}

impl BinaryOp {
    /// The operator's text.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Concat => "||",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Eq => "=",
            NotEq => "!=",
            Lt => "<",
            LtEq => "<=",
            Gt => ">",
            GtEq => ">=",
            ShiftLeft => "<<",
            ShiftRight => ">>",
            ShiftRightZeroFill => ">>>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
        }
    }

    /// Binding strength: higher binds tighter. Follows the SDKs' grammar (`||` loosest,
    /// then `|`, `^`, `&`, equality, relational, shifts, additive, multiplicative).
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Concat => 1,
            BitOr => 2,
            BitXor => 3,
            BitAnd => 4,
            Eq | NotEq => 5,
            Lt | LtEq | Gt | GtEq => 6,
            ShiftLeft | ShiftRight | ShiftRightZeroFill => 7,
            Add | Sub => 8,
            Mul | Div | Mod => 9,
        }
    }

    /// The operator spelled by a punctuation token, if any.
    pub fn from_symbol(s: &str) -> Option<BinaryOp> {
        use BinaryOp::*;
        Some(match s {
            "||" => Concat,
            "|" => BitOr,
            "^" => BitXor,
            "&" => BitAnd,
            "=" => Eq,
            "!=" | "<>" => NotEq,
            "<" => Lt,
            "<=" => LtEq,
            ">" => Gt,
            ">=" => GtEq,
            "<<" => ShiftLeft,
            ">>" => ShiftRight,
            ">>>" => ShiftRightZeroFill,
            "+" => Add,
            "-" => Sub,
            "*" => Mul,
            "/" => Div,
            "%" => Mod,
            _ => return None,
        })
    }
}

/// The double a number literal's text denotes, negated when `negative`. Decimal literals
/// convert as the SDKs convert JSON numbers ([`parse_number_text`]: an integer `-0` is
/// `+0.0`, a float `-0.0` keeps its sign); `0x..` literals as integers.
pub fn number_value(text: &str, negative: bool) -> f64 {
    let hex = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
    match hex {
        Some(digits) => {
            let n = digits.chars().fold(0.0, |n, d| {
                n * 16.0 + f64::from(d.to_digit(16).unwrap_or(0))
            });
            if negative && n != 0.0 { -n } else { n }
        }
        None if negative => parse_number_text(&format!("-{text}")),
        None => parse_number_text(text),
    }
}

impl Expr {
    /// Calls `f` on each direct sub-expression, in order. Subqueries are not entered (their
    /// expressions belong to another query: see [`Query::for_each_expr`]).
    pub fn for_each_child(&self, mut f: impl FnMut(&Expr)) {
        match self {
            Expr::Literal(_) | Expr::Parameter(_) | Expr::Identifier(_) | Expr::Subquery(..) => {}
            Expr::Member(e, _) | Expr::Unary(_, e) => f(e),
            Expr::Index(a, b) | Expr::Binary(_, a, b) | Expr::Coalesce(a, b) => {
                f(a);
                f(b);
            }
            Expr::Array(items) | Expr::And(items) | Expr::Or(items) => items.iter().for_each(f),
            Expr::Call { args, .. } => args.iter().for_each(f),
            Expr::Object(fields) => fields.iter().for_each(|(_, e)| f(e)),
            Expr::In { expr, list, .. } => {
                f(expr);
                list.iter().for_each(f);
            }
            Expr::Between {
                expr, low, high, ..
            }
            | Expr::Conditional(expr, low, high) => {
                f(expr);
                f(low);
                f(high);
            }
            Expr::Like { expr, pattern, .. } => {
                f(expr);
                f(pattern);
            }
        }
    }
}

impl Query {
    /// Calls `f` on each top-level expression of this query's clauses (projection,
    /// `WHERE`, `GROUP BY`, `ORDER BY`), in clause order; not on their sub-expressions.
    pub fn for_each_expr(&self, mut f: impl FnMut(&Expr)) {
        match &self.selection {
            Selection::Star => {}
            Selection::Value(e) => f(e),
            Selection::List(items) => items.iter().for_each(|i| f(&i.expr)),
        }
        self.filter.iter().for_each(&mut f);
        self.group_by.iter().for_each(&mut f);
        if let Some(order) = &self.order_by {
            order.items.iter().for_each(|i| f(&i.expr));
        }
    }

    /// The subqueries of this query's `FROM` and `JOIN` sources.
    pub fn source_subqueries(&self) -> impl Iterator<Item = &Query> {
        let from = self.from.iter();
        let sources = from.flat_map(|f| std::iter::once(&f.source).chain(&f.joins));
        sources.filter_map(|s| match s {
            Source::Aliased {
                collection: Collection::Subquery(q),
                ..
            }
            | Source::Iterator {
                collection: Collection::Subquery(q),
                ..
            } => Some(&**q),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_literals_convert_like_json_numbers() {
        let bits = |t, neg| number_value(t, neg).to_bits();
        assert_eq!(bits("0", true), 0.0f64.to_bits());
        assert_eq!(bits("0.0", true), (-0.0f64).to_bits());
        assert_eq!(number_value("1.", false), 1.0);
        assert_eq!(number_value(".5", true), -0.5);
        assert_eq!(number_value("1e3", false), 1000.0);
        assert_eq!(number_value("0x1F", false), 31.0);
        assert_eq!(number_value("0XfF", true), -255.0);
        assert_eq!(number_value("9007199254740993", false), 9007199254740992.0);
    }
}
