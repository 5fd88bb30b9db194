//! The Cosmos DB NoSQL query language: a parser to a syntax tree, and the extraction of the
//! property values a query's `WHERE` clause fixes by equality.
//!
//! It knows nothing of candidate keys or scoring: it answers "which root-document paths
//! does this query fix, to which values", as a disjunction of conjunctions, plus the shape
//! facts (`TOP`, aggregates, `ORDER BY` ...) a cost model needs.
//!
//! ```
//! use pkadvisor::query::{Parameters, analyze};
//!
//! let mut params = Parameters::new();
//! params.insert("@user", serde_json::json!("x"));
//! let sql = "SELECT TOP 10 * FROM c
//!            WHERE (c.tenantId = 'a' AND c.userId = @user) OR c.tenantId IN ('b', 'c')
//!            ORDER BY c._ts DESC";
//! let x = analyze(sql, &params).unwrap();
//! assert_eq!(
//!     x.constraints.to_string(),
//!     r#"{/tenantId="a",/userId="x"} | {/tenantId="b"} | {/tenantId="c"}"#
//! );
//! assert_eq!(x.shape.to_string(), "top=10 order_by");
//! assert_eq!(
//!     analyze("SELECT * FROM c WHER c.a = 1", &params).unwrap_err().to_string(),
//!     "expected JOIN, WHERE, GROUP BY, ORDER BY, OFFSET or end of query, found 'WHER' at 1:17"
//! );
//! ```

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
