//! Command-line flags, as clap parses them. Validation that clap cannot express happens in
//! each subcommand's conversion to its options, before any input is read.

use clap::{Parser, Subcommand, ValueEnum};

/// Partition-key advisor for Azure Cosmos DB.
#[derive(Debug, Parser)]
#[command(name = "pkadvisor", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the effective partition key (EPK) of a key value, as Cosmos DB computes it.
    #[command(after_help = EPK_EXAMPLES)]
    Epk(EpkArgs),
}

const EPK_EXAMPLES: &str = "\
Examples:
  pkadvisor epk '\"redmond\"'                           Hash V2 EPK of a string
  pkadvisor epk 42 --version 1                         legacy Hash V1 EPK of a number
  pkadvisor epk '\"tenant1\"' '\"user1\"' --kind multihash  hierarchical key, both levels
  pkadvisor epk '\"tenant1\"' --kind multihash --paths 3   EPK range of a prefix: MIN MAX";

/// Partition-key kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// One path (Hash V1 or V2).
    Hash,
    /// Hierarchical key of 1–3 paths (always V2).
    Multihash,
}

/// `pkadvisor epk`.
#[derive(Debug, clap::Args)]
pub struct EpkArgs {
    /// Key values, one per path: JSON literals ('"redmond"', 42, true, null) or the word
    /// `undefined` (a missing path).
    #[arg(required = true, allow_negative_numbers = true, value_name = "VALUE")]
    pub values: Vec<String>,
    /// Partition-key kind.
    #[arg(long, value_enum, default_value_t = KindArg::Hash)]
    pub kind: KindArg,
    /// Hash version (MultiHash is always 2).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub version: Option<u8>,
    /// Paths in the container's key (1 for hash; 1–3 for multihash, default the number of
    /// values). Fewer values than paths is a prefix: its EPK range is printed.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    pub paths: Option<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }
}
