//! The Cosmos DB NoSQL query language: a parser to a syntax tree, and the extraction of the
//! property values a query's `WHERE` clause fixes by equality.
//!
//! It knows nothing of candidate keys or scoring: it answers "which root-document paths
//! does this query fix, to which values", as a disjunction of conjunctions, plus the shape
//! facts (`TOP`, aggregates, `ORDER BY` ...) a cost model needs.

pub mod ast;
mod constraints;
mod display;
mod error;
mod expr;
mod extract;
mod lexer;
mod params;
mod parser;
mod shape;

pub use ast::*;
pub use constraints::{Conjunct, Constraints, MAX_CONJUNCTS, MAX_PRODUCT_WORK, TooMany};
pub use error::{MAX_DEPTH, ParseError, ParseErrorKind};
pub use extract::{Extraction, QueryWarning, extract};
pub use params::{ParameterError, Parameters};
pub use parser::parse;
pub use shape::{Aggregate, QueryShape};

/// Parses `sql` and extracts its constraints and shape.
pub fn analyze(sql: &str, params: &Parameters) -> Result<Extraction, ParseError> {
    Ok(extract(&parse(sql)?, params))
}
