//! Integration tests: one binary, one module per subcommand.

// `pkadvisor epk` and the 64 golden EPK vectors.
mod epk;

// The query parser and key-constraint extraction, on real and written query corpora.
mod query;
