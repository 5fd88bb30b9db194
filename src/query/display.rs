//! Prints a syntax tree back as query text, fully parenthesised, so that parsing the
//! printed text gives the same tree (the fuzz target checks this).

use std::fmt::{self, Display, Formatter, Write};

use super::ast::*;

fn list<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// A string literal in double quotes, escaped.
struct Quoted<'a>(&'a str);

impl Display for Quoted<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

/// A property name: `.name` when it is a plain word, `["name"]` otherwise.
struct Property<'a>(&'a str);

impl Display for Property<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let word = s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if word {
            write!(f, ".{s}")
        } else {
            write!(f, "[{}]", Quoted(s))
        }
    }
}

impl Display for Query {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("SELECT ")?;
        if self.distinct {
            f.write_str("DISTINCT ")?;
        }
        if let Some(top) = &self.top {
            write!(f, "TOP {top} ")?;
        }
        write!(f, "{}", self.selection)?;
        if let Some(from) = &self.from {
            write!(f, " FROM {}", from.source)?;
            for join in &from.joins {
                write!(f, " JOIN {join}")?;
            }
        }
        if let Some(filter) = &self.filter {
            write!(f, " WHERE {filter}")?;
        }
        if !self.group_by.is_empty() {
            f.write_str(" GROUP BY ")?;
            list(f, &self.group_by)?;
        }
        if let Some(order) = &self.order_by {
            write!(f, " ORDER BY {}", if order.rank { "RANK " } else { "" })?;
            list(f, &order.items)?;
        }
        if let Some(ol) = &self.offset_limit {
            write!(f, " OFFSET {} LIMIT {}", ol.offset, ol.limit)?;
        }
        Ok(())
    }
}

impl Display for Count {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Count::Number(s) | Count::Parameter(s) => f.write_str(s),
        }
    }
}

impl Display for Selection {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Selection::Star => f.write_str("*"),
            Selection::Value(e) => write!(f, "VALUE {e}"),
            Selection::List(items) => list(f, items),
        }
    }
}

impl Display for SelectItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.expr)?;
        match &self.alias {
            Some(alias) => write!(f, " AS {alias}"),
            None => Ok(()),
        }
    }
}

impl Display for OrderItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            self.expr,
            if self.descending { " DESC" } else { "" }
        )
    }
}

impl Display for Source {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Source::Aliased {
                collection,
                alias: Some(alias),
            } => write!(f, "{collection} AS {alias}"),
            Source::Aliased {
                collection,
                alias: None,
            } => write!(f, "{collection}"),
            Source::Iterator { alias, collection } => write!(f, "{alias} IN {collection}"),
        }
    }
}

impl Display for Collection {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Collection::Subquery(q) => write!(f, "({q})"),
            Collection::Path { root, path } => {
                f.write_str(root)?;
                for segment in path {
                    match segment {
                        PathSegment::Property(name) => write!(f, "{}", Property(name))?,
                        PathSegment::Index(n) => write!(f, "[{n}]")?,
                    }
                }
                Ok(())
            }
        }
    }
}

impl Display for Literal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Literal::String(s) => write!(f, "{}", Quoted(s)),
            Literal::Number(n) => f.write_str(n),
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Null => f.write_str("null"),
            Literal::Undefined => f.write_str("undefined"),
        }
    }
}

impl Display for UnaryOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnaryOp::Minus => "-",
            UnaryOp::Plus => "+",
            UnaryOp::BitNot => "~",
            UnaryOp::Not => "NOT",
        })
    }
}

impl Display for SubqueryKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SubqueryKind::Scalar => "",
            SubqueryKind::Exists => "EXISTS",
            SubqueryKind::Array => "ARRAY",
            SubqueryKind::All => "ALL",
            SubqueryKind::First => "FIRST",
            SubqueryKind::Last => "LAST",
        })
    }
}

fn joined(f: &mut Formatter<'_>, items: &[Expr], op: &str) -> fmt::Result {
    f.write_char('(')?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            write!(f, " {op} ")?;
        }
        write!(f, "{item}")?;
    }
    f.write_char(')')
}

fn not(negated: bool) -> &'static str {
    if negated { "NOT " } else { "" }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Literal(l) => write!(f, "{l}"),
            Expr::Parameter(name) | Expr::Identifier(name) => f.write_str(name),
            Expr::Member(base, name) => write!(f, "{}.{name}", Postfixable(base)),
            Expr::Index(base, index) => write!(f, "{}[{index}]", Postfixable(base)),
            Expr::Array(items) => {
                f.write_char('[')?;
                list(f, items)?;
                f.write_char(']')
            }
            Expr::Object(fields) => object(f, fields),
            Expr::Unary(op, e) => write!(f, "({op} {e})"),
            Expr::Binary(op, l, r) => write!(f, "({l} {} {r})", op.symbol()),
            Expr::And(items) => joined(f, items, "AND"),
            Expr::Or(items) => joined(f, items, "OR"),
            Expr::In { .. } | Expr::Between { .. } | Expr::Like { .. } => predicate(f, self),
            Expr::Conditional(c, a, b) => write!(f, "({c} ? {a} : {b})"),
            Expr::Coalesce(a, b) => write!(f, "({a} ?? {b})"),
            Expr::Call { udf, name, args } => {
                write!(f, "{}{name}(", if *udf { "udf." } else { "" })?;
                list(f, args)?;
                f.write_char(')')
            }
            Expr::Subquery(kind, q) => write!(f, "{kind}({q})"),
        }
    }
}

/// `IN`, `BETWEEN` and `LIKE`, in parentheses.
fn predicate(f: &mut Formatter<'_>, e: &Expr) -> fmt::Result {
    match e {
        Expr::In {
            expr,
            list: items,
            negated,
        } => {
            write!(f, "({expr} {}IN (", not(*negated))?;
            list(f, items)?;
            f.write_str("))")
        }
        Expr::Between {
            expr,
            low,
            high,
            negated,
        } => {
            write!(f, "({expr} {}BETWEEN {low} AND {high})", not(*negated))
        }
        Expr::Like {
            expr,
            pattern,
            escape: Some(escape),
            negated,
        } => {
            write!(
                f,
                "({expr} {}LIKE {pattern} ESCAPE {})",
                not(*negated),
                Quoted(escape)
            )
        }
        Expr::Like {
            expr,
            pattern,
            escape: None,
            negated,
        } => {
            write!(f, "({expr} {}LIKE {pattern})", not(*negated))
        }
        other => write!(f, "{other}"),
    }
}

fn object(f: &mut Formatter<'_>, fields: &[(String, Expr)]) -> fmt::Result {
    f.write_char('{')?;
    for (i, (name, value)) in fields.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}: {value}", Quoted(name))?;
    }
    f.write_char('}')
}

/// An expression in a position followed by `.name` or `[i]`: number literals are put in
/// parentheses (`(1).x`, since `1.x` would read as the number `1.`).
struct Postfixable<'a>(&'a Expr);

impl Display for Postfixable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Expr::Literal(Literal::Number(n)) => write!(f, "({n})"),
            e => write!(f, "{e}"),
        }
    }
}
