//! The command tree, as clap parses it. The flags of the commands that read documents are
//! the library's ([`pkadvisor::flags`]); what clap cannot check, the library's `run`
//! validates before any input is read.

use clap::{Parser, Subcommand, ValueEnum};

pub use pkadvisor::flags::*;

/// Marks an `epk` value that the parser would take for an option (see [`parse`]).
const NEGATIVE: char = '\u{1f}';

/// Parses the command line. The parser takes negative numbers with a signed exponent
/// (`-1e+308`, `-2.5E-7`) for options; as `epk` values they are passed through it masked
/// and unmasked after.
pub fn parse() -> Cli {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let is_epk = args.get(1).is_some_and(|a| a == "epk");
    if is_epk {
        for a in args.iter_mut().skip(2) {
            if a == "--" {
                break;
            }
            if let Some(text) = a.to_str().filter(|t| is_negative_number(t)) {
                *a = format!("{NEGATIVE}{text}").into();
            }
        }
    }
    let mut cli = Cli::try_parse_from(args).unwrap_or_else(|e| exit_on(&e));
    if let Command::Epk(e) = &mut cli.command {
        for v in &mut e.values {
            if let Some(text) = v.strip_prefix(NEGATIVE) {
                *v = text.to_owned();
            }
        }
    }
    cli
}

/// Ends the process on what clap did not parse: help and version go to standard output,
/// and a write that fails there (`--help > /dev/full`) is an error (exit 2) as any
/// output's is; usage errors are clap's (standard error, exit 2).
fn exit_on(e: &clap::Error) -> ! {
    use clap::error::ErrorKind;
    use std::io::{IsTerminal, Write};
    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    let mut out = std::io::stdout().lock();
    let text = match out.is_terminal() {
        true => e.render().ansi().to_string(),
        false => e.render().to_string(),
    };
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => std::process::exit(0),
        // A closed pipe (`--help | head`) is not an error.
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(err) => {
            eprintln!("pkadvisor: error: writing the help: {err}");
            std::process::exit(2)
        }
    }
}

/// A JSON number with a minus sign: `-1`, `-0.5`, `-1e+308`.
fn is_negative_number(text: &str) -> bool {
    text.strip_prefix('-')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        && serde_json::from_str::<serde_json::Number>(text).is_ok()
}

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
    /// Measure candidate partition keys over sample documents.
    #[command(after_help = ANALYZE_EXAMPLES)]
    Analyze(AnalyzeArgs),
    /// Gate the partition key declared in infrastructure code (or --key) on sample data:
    /// exit 0 when it passes, 1 when it fails, 2 on usage or input errors.
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Plan a change of key before the copy starts: what would stop the copy, its RU, money
    /// and duration, and the container it leaves; exit 1 when the copy would fail.
    #[command(after_help = MIGRATE_EXAMPLES)]
    Migrate(MigrateArgs),
    /// Print the effective partition key (EPK) of a key value, as Cosmos DB computes it.
    #[command(after_help = EPK_EXAMPLES)]
    Epk(EpkArgs),
    /// Measure candidate keys over this share of the documents and write the statistics to
    /// a profile file, which `analyze --profile` merges with others.
    #[command(after_help = PROFILE_EXAMPLES)]
    Profile(ProfileArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell or elvish).
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a folder.
    #[command(after_help = MAN_EXAMPLES)]
    Man(ManArgs),
}

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  pkadvisor completions bash
  pkadvisor completions zsh

Install: pkadvisor completions bash > ~/.local/share/bash-completion/completions/pkadvisor
(zsh: a file named _pkadvisor on $fpath; fish: ~/.config/fish/completions/pkadvisor.fish).";

/// `pkadvisor completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

const MAN_EXAMPLES: &str = "\
Examples:
  pkadvisor man
  pkadvisor man --dir target/man

Read it with: pkadvisor man | man -l -";

/// `pkadvisor man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write pkadvisor.1 and one page per subcommand (pkadvisor-analyze.1, ...) here instead
    /// of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

const PROFILE_EXAMPLES: &str = "\
Examples:
  pkadvisor profile fixtures/multitenant/docs.ndjson --key /tenantId --key /tenantId,/userId -o /tmp/mt.profile
  pkadvisor profile fixtures/profiles/docs.ndjson --key /country --key /id -o /tmp/profiles.profile.zst
  pkadvisor analyze --profile /tmp/mt.profile --queries fixtures/multitenant/queries.ndjson

Every profile to be merged must measure the same --key list with the same --time-path and
--seed. Without --key, candidates are generated from this share's first documents, so give
--key when the shares differ. A FILE ending in .gz or .zst is compressed.";

const CHECK_EXAMPLES: &str = "\
Examples:
  pkadvisor check --container tests/data/infra/arm-nested.json fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson
  pkadvisor check --container tests/data/infra/arm-two-containers.json --container-name events fixtures/multitenant/docs.ndjson --min-score 60
  pkadvisor check --key /tenantId,/userId fixtures/multitenant/docs.ndjson --deny FAN_OUT_QUERIES --format markdown
  pkadvisor check --layout hash:/customerId=8 fixtures/layouts/docs.ndjson --queries fixtures/layouts/queries.ndjson --target-storage 60GB
  pkadvisor check --key /vin fixtures/iot/docs.ndjson --time-path /ts --target-storage 100GB --growth 50GB/month --horizon 3y

The design fails on any violation, a score below --min-score, a finding named with --deny, or
needing --max-cost-ratio times the RU/s of the cheapest alternative: the keys generated
(--auto) and, with --container, every --key given. --layout gates a
DocumentDB-era client-side layout instead of a key, to plan a migration away from it.
--container reads ARM templates (and Bicep compiled to ARM), a container resource, a bare
partitionKey object, a Terraform JSON plan or state (terraform show -json), or Terraform
HCL (a .tf file, variables from defaults and --var-file). Template
expressions are resolved from parameter defaults and --parameters; the container's declared
throughput and indexing policy are used unless --throughput, --autoscale-max or
--indexing-policy is given.";

const ANALYZE_EXAMPLES: &str = "\
Examples:
  pkadvisor analyze fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson
  pkadvisor analyze fixtures/iot/docs.ndjson --key /vin --key 'hash_suffix(/date,/vin,400)' --time-path /ts --format json
  pkadvisor analyze fixtures/multitenant/docs.ndjson --explain /tenantId,/userId,/sessionId --target-storage 500GB
  pkadvisor analyze fixtures/multitenant/docs.ndjson --explain /tenantId,/userId --explain-value contoso
  pkadvisor analyze fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson --format html -o /tmp/report.html
  pkadvisor analyze fixtures/bad/syntax-error.ndjson fixtures/iot/docs.ndjson --key /id --skip-invalid
  pkadvisor analyze fixtures/nutrition/docs.ndjson --queries fixtures/nutrition/queries.ndjson --regions 2 --wide
  pkadvisor analyze fixtures/layouts/docs.ndjson --queries fixtures/layouts/queries.ndjson --layout spillover --layout hash:/customerId=8 --target-storage 60GB
  pkadvisor analyze fixtures/multitenant/docs.ndjson --queries tests/data/monitor/storage.json --current-key /tenantId,/userId
  pkadvisor analyze fixtures/layouts/docs.ndjson --explain lookup:/region=fixtures/layouts/regions.json --target-storage 60GB
  pkadvisor analyze fixtures/iot/docs.ndjson --key /vin --key /date --time-path /ts --growth 50GB/month --start-storage 200GB

Key specs: /path, /a/b (nested), /\"my-prop\" (quoted), /a,/b[,/c] (hierarchical),
concat(/a,/b), rand_suffix(/a,N), hash_suffix(/a,/b,N).
Layouts (--layout, DocumentDB-era collections): spillover[:SIZE], range:/p=A..M,N..Z,
lookup:/p=FILE, hash:/p=N.";

const MIGRATE_EXAMPLES: &str = "\
Examples:
  pkadvisor migrate tests/data/migrate/docs.ndjson --from /customerId --to /customerId,/orderId --target-storage 400GB --throughput 20000
  pkadvisor migrate tests/data/migrate/docs.ndjson --from /customerId --to /region --target-storage 400GB --throughput 20000 --copy-throughput 100000
  pkadvisor migrate --container tests/data/infra/arm-nested.json fixtures/multitenant/docs.ndjson --to /tenantId,/userId --queries fixtures/multitenant/queries.ndjson --online

The copy reads the source's partitions in EPK order, each in write order (--time-path),
and stops when a value of the new key passes 20 GB (403 substatus 1014) or an (id, new key)
pair is held by two items (insert conflicts). Exit 0 when the copy would complete, 1 when
it would fail, 2 on usage or input errors.";

const EPK_EXAMPLES: &str = "\
Examples:
  pkadvisor epk '\"redmond\"'                             # Hash V2 EPK of a string
  pkadvisor epk 42 --version 1                           # legacy Hash V1 EPK of a number
  pkadvisor epk '\"tenant1\"' '\"user1\"' --kind multihash  # hierarchical key, both levels
  pkadvisor epk '\"tenant1\"' --kind multihash --paths 3   # EPK range of a prefix: MIN MAX";

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
