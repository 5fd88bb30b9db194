//! Expressions, loosest binding first: `?:`, `??`, `OR`, `AND`, `[NOT] IN / LIKE /
//! BETWEEN`, the binary operators by [`BinaryOp::precedence`], the prefix operators
//! (`NOT` among them, as in the SDKs' grammar), then `.name` / `[index]` and primaries.

use super::ast::*;
use super::lexer::TokenKind;
use super::parser::{PResult, Parser, is_reserved};

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Parser<'_> {
    /// A full scalar expression.
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let cond = self.coalesce()?;
        let e = if self.punct_at(0, "?") {
            self.conditional(cond)?
        } else {
            cond
        };
        self.leave();
        Ok(e)
    }

    /// `? then : otherwise` after `cond`. The rarer forms (`?:`, `??`, `OR`, `AND` and the
    /// predicates) continue in functions of their own so that the frames every nesting
    /// level goes through stay small.
    fn conditional(&mut self, cond: Expr) -> PResult<Expr> {
        self.advance();
        let then = self.expr()?;
        self.expect_punct(":", "':'")?;
        let otherwise = self.expr()?;
        Ok(Expr::Conditional(b(cond), b(then), b(otherwise)))
    }

    /// `expr, expr, ...` (at least one).
    pub(crate) fn expr_list(&mut self) -> PResult<Vec<Expr>> {
        let mut list = vec![self.expr()?];
        while self.eat_punct(",") {
            list.push(self.expr()?);
        }
        Ok(list)
    }

    fn coalesce(&mut self) -> PResult<Expr> {
        let lhs = self.or()?;
        if self.punct_at(0, "??") {
            self.coalesce_tail(lhs)
        } else {
            Ok(lhs)
        }
    }

    fn coalesce_tail(&mut self, mut lhs: Expr) -> PResult<Expr> {
        let base = self.depth;
        while self.eat_punct("??") {
            self.enter()?;
            let rhs = self.or()?;
            lhs = Expr::Coalesce(b(lhs), b(rhs));
        }
        self.depth = base;
        Ok(lhs)
    }

    fn or(&mut self) -> PResult<Expr> {
        let first = self.and()?;
        if self.at_kw("OR") {
            self.or_tail(first)
        } else {
            Ok(first)
        }
    }

    fn or_tail(&mut self, first: Expr) -> PResult<Expr> {
        let mut items = vec![first];
        while self.eat_kw("OR") {
            items.push(self.and()?);
        }
        Ok(Expr::Or(items))
    }

    fn and(&mut self) -> PResult<Expr> {
        let first = self.predicate()?;
        if self.at_kw("AND") {
            self.and_tail(first)
        } else {
            Ok(first)
        }
    }

    fn and_tail(&mut self, first: Expr) -> PResult<Expr> {
        let mut items = vec![first];
        while self.eat_kw("AND") {
            items.push(self.predicate()?);
        }
        Ok(Expr::And(items))
    }

    fn predicate(&mut self) -> PResult<Expr> {
        let lhs = self.binary(1)?;
        let negated =
            self.at_kw("NOT") && ["IN", "LIKE", "BETWEEN"].iter().any(|k| self.kw_at(1, k));
        if negated {
            self.advance();
        }
        if ["IN", "LIKE", "BETWEEN"].iter().any(|k| self.at_kw(k)) {
            return self.predicate_tail(lhs, negated);
        }
        Ok(lhs)
    }

    /// `IN (...)`, `LIKE ...` or `BETWEEN ... AND ...` after `lhs` (a function of its own to
    /// keep [`Parser::predicate`]'s stack frame small: every nesting level goes through it).
    fn predicate_tail(&mut self, lhs: Expr, negated: bool) -> PResult<Expr> {
        let expr = b(lhs);
        if self.eat_kw("IN") {
            self.expect_punct("(", "'(' after IN")?;
            let list = self.expr_list()?;
            self.expect_punct(")", "',' or ')'")?;
            return Ok(Expr::In {
                expr,
                list,
                negated,
            });
        }
        if self.eat_kw("LIKE") {
            let pattern = b(self.binary(1)?);
            let escape = if self.eat_kw("ESCAPE") {
                Some(self.escape_string()?)
            } else {
                None
            };
            return Ok(Expr::Like {
                expr,
                pattern,
                escape,
                negated,
            });
        }
        self.expect_kw("BETWEEN")?;
        let low = b(self.binary(1)?);
        self.expect_kw("AND")?;
        let high = b(self.binary(1)?);
        Ok(Expr::Between {
            expr,
            low,
            high,
            negated,
        })
    }

    fn escape_string(&mut self) -> PResult<String> {
        if self.peek().kind == TokenKind::String {
            Ok(self.advance())
        } else {
            self.fail("a string after ESCAPE")
        }
    }

    /// Binary operators binding at least as tightly as `min` (precedence climbing; chains
    /// build left-nested trees, each link counted in the depth).
    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        let base = self.depth;
        while let Some(op) = self.peek_binary_op().filter(|op| op.precedence() >= min) {
            self.advance();
            self.enter()?;
            let rhs = self.binary(op.precedence() + 1)?;
            lhs = Expr::Binary(op, b(lhs), b(rhs));
        }
        self.depth = base;
        Ok(lhs)
    }

    fn peek_binary_op(&self) -> Option<BinaryOp> {
        let t = self.peek();
        if t.kind == TokenKind::Punct {
            BinaryOp::from_symbol(&t.value)
        } else {
            None
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let op = match (&t.kind, t.value.as_str()) {
            (TokenKind::Punct, "-") => UnaryOp::Minus,
            (TokenKind::Punct, "+") => UnaryOp::Plus,
            (TokenKind::Punct, "~") => UnaryOp::BitNot,
            (TokenKind::Word, w) if w.eq_ignore_ascii_case("NOT") => UnaryOp::Not,
            _ => return self.postfix(),
        };
        self.advance();
        self.enter()?;
        let operand = self.unary()?;
        self.leave();
        Ok(Expr::Unary(op, b(operand)))
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        let base = self.depth;
        while self.punct_at(0, ".") || self.punct_at(0, "[") {
            self.enter()?;
            e = self.postfix_step(e)?;
        }
        self.depth = base;
        Ok(e)
    }

    /// One `.name` or `[index]` applied to `base`.
    fn postfix_step(&mut self, base: Expr) -> PResult<Expr> {
        if self.eat_punct(".") {
            return Ok(Expr::Member(
                b(base),
                self.word("a property name after '.'")?,
            ));
        }
        self.advance();
        let index = self.expr()?;
        self.expect_punct("]", "']'")?;
        Ok(Expr::Index(b(base), b(index)))
    }

    /// Whether the current token can start an expression.
    pub(crate) fn at_expression_start(&self) -> bool {
        let t = self.peek();
        match &t.kind {
            TokenKind::Number | TokenKind::String | TokenKind::Parameter => true,
            TokenKind::Punct => ["(", "[", "{", "-", "+", "~"].contains(&t.value.as_str()),
            TokenKind::Word => {
                let special = [
                    "NOT",
                    "TRUE",
                    "FALSE",
                    "NULL",
                    "UNDEFINED",
                    "EXISTS",
                    "ARRAY",
                    "UDF",
                ];
                !is_reserved(&t.value) || special.iter().any(|k| t.value.eq_ignore_ascii_case(k))
            }
            TokenKind::Eof | TokenKind::Error(_) => false,
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        match (&t.kind, t.value.as_str()) {
            (TokenKind::Number, _) => Ok(Expr::Literal(Literal::Number(self.advance()))),
            (TokenKind::String, _) => Ok(Expr::Literal(Literal::String(self.advance()))),
            (TokenKind::Parameter, _) => Ok(Expr::Parameter(self.advance())),
            (TokenKind::Word, _) => self.word_primary(),
            (TokenKind::Punct, "(") => self.parenthesised(),
            (TokenKind::Punct, "[") => self.array(),
            (TokenKind::Punct, "{") => self.object(),
            _ => self.fail("an expression"),
        }
    }

    fn word_primary(&mut self) -> PResult<Expr> {
        let word = self.peek().value.to_ascii_uppercase();
        let literal = match word.as_str() {
            "TRUE" => Some(Literal::Bool(true)),
            "FALSE" => Some(Literal::Bool(false)),
            "NULL" => Some(Literal::Null),
            "UNDEFINED" => Some(Literal::Undefined),
            _ => None,
        };
        if let Some(literal) = literal {
            self.advance();
            return Ok(Expr::Literal(literal));
        }
        if let Some(kind) = self.subquery_kind(&word) {
            self.advance();
            self.advance();
            return Ok(Expr::Subquery(kind, Box::new(self.subquery()?)));
        }
        if word == "UDF" && self.punct_at(1, ".") {
            self.advance();
            self.advance();
            let name = self.word("a function name after 'udf.'")?;
            return self.call(true, name);
        }
        let callable = !is_reserved(&word);
        if callable && self.punct_at(1, "(") {
            let name = self.advance();
            return self.call(false, name);
        }
        if callable {
            Ok(Expr::Identifier(self.advance()))
        } else {
            self.fail("an expression")
        }
    }

    /// `EXISTS(`, `ARRAY(`, and `ALL(` / `FIRST(` / `LAST(` followed by `SELECT` (otherwise
    /// those three are ordinary names).
    fn subquery_kind(&self, word: &str) -> Option<SubqueryKind> {
        if !self.punct_at(1, "(") {
            return None;
        }
        let select = self.kw_at(2, "SELECT");
        match word {
            "EXISTS" => Some(SubqueryKind::Exists),
            "ARRAY" => Some(SubqueryKind::Array),
            "ALL" if select => Some(SubqueryKind::All),
            "FIRST" if select => Some(SubqueryKind::First),
            "LAST" if select => Some(SubqueryKind::Last),
            _ => None,
        }
    }

    /// The name was consumed; `(args)` follows.
    fn call(&mut self, udf: bool, name: String) -> PResult<Expr> {
        self.expect_punct("(", "'('")?;
        let args = if self.eat_punct(")") {
            Vec::new()
        } else {
            let args = self.expr_list()?;
            self.expect_punct(")", "',' or ')'")?;
            args
        };
        Ok(Expr::Call { udf, name, args })
    }

    fn parenthesised(&mut self) -> PResult<Expr> {
        self.advance();
        if self.at_kw("SELECT") {
            return self.scalar_subquery();
        }
        let e = self.expr()?;
        self.expect_punct(")", "')'")?;
        Ok(e)
    }

    fn scalar_subquery(&mut self) -> PResult<Expr> {
        Ok(Expr::Subquery(
            SubqueryKind::Scalar,
            Box::new(self.subquery()?),
        ))
    }

    fn array(&mut self) -> PResult<Expr> {
        self.advance();
        if self.eat_punct("]") {
            return Ok(Expr::Array(Vec::new()));
        }
        let items = self.expr_list()?;
        self.expect_punct("]", "',' or ']'")?;
        Ok(Expr::Array(items))
    }

    fn object(&mut self) -> PResult<Expr> {
        self.advance();
        let mut fields = Vec::new();
        if self.eat_punct("}") {
            return Ok(Expr::Object(fields));
        }
        loop {
            let name = match self.peek().kind {
                TokenKind::String | TokenKind::Word => self.advance(),
                _ => return self.fail("a property name"),
            };
            self.expect_punct(":", "':'")?;
            fields.push((name, self.expr()?));
            if !self.eat_punct(",") {
                self.expect_punct("}", "',' or '}'")?;
                return Ok(Expr::Object(fields));
            }
        }
    }
}
