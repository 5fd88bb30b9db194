//! The recursive-descent parser: tokens to a [`Query`]. This file holds the clauses; the
//! expressions are in `expr.rs`.
//!
//! The grammar follows the one the Cosmos DB SDKs ship, with leniencies real query logs
//! need: `--` and `/* */` comments, `<>`, shifts, `\'` in strings, hexadecimal numbers,
//! keywords as property names after `.` and as aliases after `AS`, `BETWEEN` inside `AND`
//! chains, and `AS name` after an `ORDER BY` item (ignored).

use super::ast::*;
use super::error::{MAX_DEPTH, ParseError, ParseErrorKind};
use super::lexer::{Token, TokenKind, tokenize};

/// Parses one query. Every error names the line and column and what was expected.
pub fn parse(text: &str) -> Result<Query, ParseError> {
    let mut parser = Parser {
        text,
        tokens: tokenize(text),
        pos: 0,
        depth: 0,
        stack_base: stack_address(),
        in_subquery: false,
    };
    parser.query()
}

pub(crate) type PResult<T> = Result<T, ParseError>;

/// Words that cannot name an alias or a collection unless written after `AS` or `.`.
const RESERVED: [&str; 29] = [
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "OR",
    "NOT",
    "IN",
    "BETWEEN",
    "LIKE",
    "ESCAPE",
    "AS",
    "JOIN",
    "GROUP",
    "BY",
    "ORDER",
    "ASC",
    "DESC",
    "OFFSET",
    "LIMIT",
    "TOP",
    "DISTINCT",
    "VALUE",
    "EXISTS",
    "ARRAY",
    "TRUE",
    "FALSE",
    "NULL",
    "UNDEFINED",
    "UDF",
];

/// The clause a query has reached, in the order clauses must come.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Select,
    From,
    Where,
    GroupBy,
    OrderBy,
    Offset,
}

pub(crate) struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    pub(crate) depth: usize,
    stack_base: usize,
    in_subquery: bool,
}

/// Stack the parser may use before it gives up as if nested too deeply. Optimised builds
/// reach [`MAX_DEPTH`] well within it; unoptimised ones use about ten times more stack per
/// level and would otherwise overflow a 2 MiB thread (a test thread) first.
const STACK_BUDGET: usize = 1024 * 1024;

/// The address of a local: how far the stack has grown, compared between two calls.
fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// `a`, `a or b`, `a, b or c`.
fn alternatives(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl Parser<'_> {
    pub(crate) fn peek_at(&self, n: usize) -> &Token {
        &self.tokens[(self.pos + n).min(self.tokens.len() - 1)]
    }

    pub(crate) fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    /// Consumes the current token and returns its value. Never moves past the last token.
    pub(crate) fn advance(&mut self) -> String {
        let value = std::mem::take(&mut self.tokens[self.pos].value);
        self.pos = (self.pos + 1).min(self.tokens.len() - 1);
        value
    }

    pub(crate) fn kw_at(&self, n: usize, kw: &str) -> bool {
        let t = self.peek_at(n);
        t.kind == TokenKind::Word && t.value.eq_ignore_ascii_case(kw)
    }

    pub(crate) fn at_kw(&self, kw: &str) -> bool {
        self.kw_at(0, kw)
    }

    pub(crate) fn eat_kw(&mut self, kw: &str) -> bool {
        let found = self.at_kw(kw);
        if found {
            self.advance();
        }
        found
    }

    pub(crate) fn expect_kw(&mut self, kw: &str) -> PResult<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            self.fail(kw)
        }
    }

    pub(crate) fn punct_at(&self, n: usize, p: &str) -> bool {
        let t = self.peek_at(n);
        t.kind == TokenKind::Punct && t.value == p
    }

    pub(crate) fn eat_punct(&mut self, p: &str) -> bool {
        let found = self.punct_at(0, p);
        if found {
            self.advance();
        }
        found
    }

    /// Consumes `p`, or fails saying `expected` (e.g. `',' or ')'`).
    pub(crate) fn expect_punct(&mut self, p: &str, expected: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.fail(expected)
        }
    }

    /// Whether the current token is a word that can name an alias or a collection.
    pub(crate) fn at_name(&self) -> bool {
        let t = self.peek();
        t.kind == TokenKind::Word && !is_reserved(&t.value)
    }

    /// Any word (keywords included), as after `.` or `AS`.
    pub(crate) fn word(&mut self, expected: &str) -> PResult<String> {
        if self.peek().kind == TokenKind::Word {
            Ok(self.advance())
        } else {
            self.fail(expected)
        }
    }

    /// A word that is not reserved.
    fn name(&mut self, expected: &str) -> PResult<String> {
        if self.at_name() {
            Ok(self.advance())
        } else {
            self.fail(expected)
        }
    }

    /// An error at the current token: its lexical error if it is one, otherwise
    /// "expected `expected`, found ...".
    pub(crate) fn fail<T>(&self, expected: &str) -> PResult<T> {
        self.fail_at(self.pos, expected)
    }

    fn fail_at<T>(&self, index: usize, expected: &str) -> PResult<T> {
        let token = &self.tokens[index];
        if let TokenKind::Error(e) = &token.kind {
            return Err((**e).clone());
        }
        let found = match token.kind {
            TokenKind::Eof => "end of query".to_owned(),
            _ => {
                let text = &self.text[token.start..token.end];
                let shown: String = text.chars().take(40).collect();
                let more = if shown.len() < text.len() { "..." } else { "" };
                format!("'{shown}{more}'")
            }
        };
        let kind = ParseErrorKind::Expected {
            expected: expected.to_owned(),
            found,
        };
        Err(ParseError::at(self.text, token.start, kind))
    }

    /// One level deeper; fails past [`MAX_DEPTH`] or [`STACK_BUDGET`]. Pair with
    /// [`Parser::leave`].
    pub(crate) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth <= MAX_DEPTH && stack_address().abs_diff(self.stack_base) <= STACK_BUDGET {
            return Ok(());
        }
        match &self.peek().kind {
            TokenKind::Error(e) => Err((**e).clone()),
            _ => Err(ParseError::at(
                self.text,
                self.peek().start,
                ParseErrorKind::TooDeep,
            )),
        }
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A whole query up to the end of the text, or up to `)` in a subquery.
    fn query(&mut self) -> PResult<Query> {
        self.enter()?;
        self.expect_kw("SELECT")?;
        let distinct = self.eat_kw("DISTINCT");
        let top = if self.eat_kw("TOP") {
            Some(self.count("a number or parameter after TOP")?)
        } else {
            None
        };
        let selection = self.selection()?;
        let mut query = Query {
            distinct,
            top,
            selection,
            from: None,
            filter: None,
            group_by: Vec::new(),
            order_by: None,
            offset_limit: None,
        };
        let stage = self.clauses(&mut query)?;
        if !self.at_query_end() {
            return self.fail(&self.expected_after(stage));
        }
        self.leave();
        Ok(query)
    }

    /// `(` was consumed: the subquery and its `)`.
    pub(crate) fn subquery(&mut self) -> PResult<Query> {
        let outer = std::mem::replace(&mut self.in_subquery, true);
        let query = self.query()?;
        self.in_subquery = outer;
        self.expect_punct(")", "')'")?;
        Ok(query)
    }

    fn at_query_end(&self) -> bool {
        if self.in_subquery {
            self.punct_at(0, ")")
        } else {
            self.peek().kind == TokenKind::Eof
        }
    }

    /// What may come after the clause `stage`.
    fn expected_after(&self, stage: Stage) -> String {
        let mut names = Vec::new();
        if stage == Stage::From {
            names.push("JOIN");
        }
        let later = [
            (Stage::From, "FROM"),
            (Stage::Where, "WHERE"),
            (Stage::GroupBy, "GROUP BY"),
            (Stage::OrderBy, "ORDER BY"),
            (Stage::Offset, "OFFSET"),
        ];
        names.extend(later.iter().filter(|(s, _)| *s > stage).map(|(_, n)| *n));
        names.push(if self.in_subquery {
            "')'"
        } else {
            "end of query"
        });
        alternatives(&names)
    }

    fn clauses(&mut self, query: &mut Query) -> PResult<Stage> {
        let mut stage = Stage::Select;
        if self.eat_kw("FROM") {
            query.from = Some(self.sources()?);
            stage = Stage::From;
        }
        if self.eat_kw("WHERE") {
            query.filter = Some(self.expr()?);
            stage = Stage::Where;
        }
        if self.eat_kw("GROUP") {
            self.expect_kw("BY")?;
            query.group_by = self.expr_list()?;
            stage = Stage::GroupBy;
        }
        if self.eat_kw("ORDER") {
            self.expect_kw("BY")?;
            query.order_by = Some(self.order_by()?);
            stage = Stage::OrderBy;
        }
        if self.eat_kw("OFFSET") {
            query.offset_limit = Some(self.offset_limit()?);
            stage = Stage::Offset;
        }
        Ok(stage)
    }

    fn count(&mut self, expected: &str) -> PResult<Count> {
        match self.peek().kind {
            TokenKind::Number => Ok(Count::Number(self.advance())),
            TokenKind::Parameter => Ok(Count::Parameter(self.advance())),
            _ => self.fail(expected),
        }
    }

    fn selection(&mut self) -> PResult<Selection> {
        if self.eat_punct("*") {
            return Ok(Selection::Star);
        }
        if self.eat_kw("VALUE") {
            return Ok(Selection::Value(self.expr()?));
        }
        let mut items = Vec::new();
        loop {
            if !self.at_expression_start() {
                return self.fail("'*', VALUE or an expression");
            }
            let expr = self.expr()?;
            let alias = if self.eat_kw("AS") {
                Some(self.word("an alias after AS")?)
            } else {
                None
            };
            items.push(SelectItem { expr, alias });
            if !self.eat_punct(",") {
                return Ok(Selection::List(items));
            }
        }
    }

    fn sources(&mut self) -> PResult<From> {
        let source = self.source()?;
        let mut joins = Vec::new();
        while self.eat_kw("JOIN") {
            joins.push(self.source()?);
        }
        Ok(From { source, joins })
    }

    fn source(&mut self) -> PResult<Source> {
        if self.at_name() && self.kw_at(1, "IN") {
            let alias = self.advance();
            self.advance();
            let collection = self.collection()?;
            return Ok(Source::Iterator { alias, collection });
        }
        let collection = self.collection()?;
        let alias = self.source_alias()?;
        Ok(Source::Aliased { collection, alias })
    }

    /// `AS name`, or a bare name. A bare name followed by something that cannot follow a
    /// source is reported itself: it is most likely a misspelt keyword (`FROM c WHER ...`).
    fn source_alias(&mut self) -> PResult<Option<String>> {
        if self.eat_kw("AS") {
            return self.word("an alias after AS").map(Some);
        }
        if !self.at_name() {
            return Ok(None);
        }
        let at = self.pos;
        let alias = self.advance();
        let follows = ["JOIN", "WHERE", "GROUP", "ORDER", "OFFSET"]
            .iter()
            .any(|k| self.at_kw(k));
        if !follows && !self.at_query_end() {
            return self.fail_at(at, &self.expected_after(Stage::From));
        }
        Ok(Some(alias))
    }

    fn collection(&mut self) -> PResult<Collection> {
        if self.eat_punct("(") {
            return Ok(Collection::Subquery(Box::new(self.subquery()?)));
        }
        let root = self.name("a collection name, an alias or '('")?;
        let mut path = Vec::new();
        loop {
            if self.eat_punct(".") {
                path.push(PathSegment::Property(
                    self.word("a property name after '.'")?,
                ));
            } else if self.eat_punct("[") {
                path.push(self.path_index()?);
                self.expect_punct("]", "']'")?;
            } else {
                return Ok(Collection::Path { root, path });
            }
        }
    }

    fn path_index(&mut self) -> PResult<PathSegment> {
        match self.peek().kind {
            TokenKind::Number => Ok(PathSegment::Index(self.advance())),
            TokenKind::String => Ok(PathSegment::Property(self.advance())),
            _ => self.fail("a number or a string in '[ ]'"),
        }
    }

    fn order_by(&mut self) -> PResult<OrderBy> {
        let rank =
            self.at_kw("RANK") && self.peek_at(1).kind == TokenKind::Word && self.punct_at(2, "(");
        if rank {
            self.advance();
        }
        let mut items = Vec::new();
        loop {
            let expr = self.expr()?;
            if self.eat_kw("AS") {
                self.word("an alias after AS")?;
            }
            let descending = self.eat_kw("DESC");
            if !descending {
                self.eat_kw("ASC");
            }
            items.push(OrderItem { expr, descending });
            if !self.eat_punct(",") {
                return Ok(OrderBy { rank, items });
            }
        }
    }

    fn offset_limit(&mut self) -> PResult<OffsetLimit> {
        let offset = self.count("a number or parameter after OFFSET")?;
        self.expect_kw("LIMIT")?;
        let limit = self.count("a number or parameter after LIMIT")?;
        Ok(OffsetLimit { offset, limit })
    }
}

/// Whether `word` is reserved (case-insensitive).
pub(crate) fn is_reserved(word: &str) -> bool {
    RESERVED.iter().any(|r| r.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(sql: &str) -> String {
        parse(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .to_string()
    }

    #[test]
    fn precedence_follows_the_grammar() {
        let cases = [
            (
                "SELECT VALUE 1 + 2 * 3 - 4 / 2 % 1",
                "SELECT VALUE ((1 + (2 * 3)) - ((4 / 2) % 1))",
            ),
            (
                "SELECT VALUE a || b = c AND d OR e ?? f ? g : h",
                "SELECT VALUE (((((a || (b = c)) AND d) OR e) ?? f) ? g : h)",
            ),
            (
                "SELECT VALUE -1 << 2 >>> 1 & 3 | 4 ^ 5 >> 1",
                "SELECT VALUE (((((- 1) << 2) >>> 1) & 3) | (4 ^ (5 >> 1)))",
            ),
            ("SELECT VALUE NOT c.a = 1", "SELECT VALUE ((NOT c.a) = 1)"),
            (
                "SELECT VALUE a ? b : c ? d : e",
                "SELECT VALUE (a ? b : (c ? d : e))",
            ),
            (
                "SELECT VALUE a < b = c <> d",
                "SELECT VALUE (((a < b) = c) != d)",
            ),
            (
                "SELECT * FROM c WHERE c.a BETWEEN 1 AND 2 AND c.b NOT LIKE 'x%' ESCAPE '!' OR c.c NOT IN (1)",
                "SELECT * FROM c WHERE (((c.a BETWEEN 1 AND 2) AND (c.b NOT LIKE \"x%\" ESCAPE \"!\")) OR (c.c NOT IN (1)))",
            ),
        ];
        for (sql, expected) in cases {
            assert_eq!(printed(sql), expected, "{sql}");
        }
    }

    #[test]
    fn clauses_sources_and_primaries() {
        let cases = [
            (
                "select distinct top @n value c from root.a[\"b c\"][0] as c join t in c.tags join (select value 1) s",
                "SELECT DISTINCT TOP @n VALUE c FROM root.a[\"b c\"][0] AS c JOIN t IN c.tags JOIN (SELECT VALUE 1) AS s",
            ),
            (
                "SELECT c.x AS value, COUNT(1) AS n FROM c GROUP BY c.x ORDER BY c.x DESC, c.y ASC OFFSET 0 LIMIT 5",
                "SELECT c.x AS value, COUNT(1) AS n FROM c GROUP BY c.x ORDER BY c.x DESC, c.y OFFSET 0 LIMIT 5",
            ),
            (
                "SELECT udf.f(c), LEFT('ab', 1), EXISTS(SELECT 1), ARRAY(SELECT VALUE 1), FIRST(SELECT VALUE 1), c.all, ALL(1) FROM c",
                "SELECT udf.f(c), LEFT(\"ab\", 1), EXISTS(SELECT 1), ARRAY(SELECT VALUE 1), FIRST(SELECT VALUE 1), c.all, ALL(1) FROM c",
            ),
            (
                "SELECT VALUE {'a b': c['x'][0].z, k: [1, .5, 1., 0xFF], e: {}}",
                "SELECT VALUE {\"a b\": c[\"x\"][0].z, \"k\": [1, .5, 1., 0xFF], \"e\": {}}",
            ),
            ("SELECT VALUE (1).x", "SELECT VALUE (1).x"),
            (
                "SELECT TOP 3 * FROM c ORDER BY RANK RRF(a(c), b(c))",
                "SELECT TOP 3 * FROM c ORDER BY RANK RRF(a(c), b(c))",
            ),
            (
                "SELECT * FROM c WHERE c.value = true AND c.NULL = False",
                "SELECT * FROM c WHERE ((c.value = true) AND (c.NULL = false))",
            ),
        ];
        for (sql, expected) in cases {
            assert_eq!(printed(sql), expected, "{sql}");
            assert_eq!(
                printed(expected),
                expected,
                "{expected} prints back to itself"
            );
        }
    }
}
