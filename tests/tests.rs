//! Integration tests: one binary, one module per subcommand.

// `pkadvisor epk` and the 64 golden EPK vectors.
mod epk;

// The document readers: formats, compression, errors and their positions, threads.
mod input;
