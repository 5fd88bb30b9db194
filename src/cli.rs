//! Command-line flags, as clap parses them. Validation that clap cannot express happens in
//! each subcommand's conversion to its options, before any input is read.

use clap::{Parser, Subcommand, ValueEnum};

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

/// `pkadvisor profile`.
#[derive(Debug, clap::Args)]
pub struct ProfileArgs {
    /// Documents and how to read them.
    #[command(flatten)]
    pub read: ReadArgs,
    /// The profile file to write (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: String,
    /// Without --key: how many candidates to generate.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=200))]
    pub auto: u16,
    /// Write key values as hashes (keyed with PKADVISOR_REDACT_KEY or --redact-key-file when
    /// given); EPKs, sizes and counts stay exact.
    #[arg(long)]
    pub redact: bool,
    /// A file whose bytes key the hashes of --redact (the same key on every machine gives
    /// the same hashes); keep it apart from the profiles.
    #[arg(long, value_name = "FILE", requires = "redact")]
    pub redact_key_file: Option<String>,
    /// How long items live (the container's default time to live), e.g. 30d; recorded in
    /// the profile, with the documents' own `ttl`, for `analyze --profile` (profiles whose
    /// items live another time are not merged) [default: the documents' `ttl`, else
    /// forever].
    #[arg(long, value_name = "DURATION")]
    pub retention: Option<String>,
}

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

/// `pkadvisor check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Inputs, target and output (--key or --layout gives the design to check instead of
    /// --container).
    #[command(flatten)]
    pub common: CommonArgs,
    /// The infrastructure file declaring the container: ARM or Terraform JSON, or a .tf
    /// file or a directory, read with the directory's other .tf and auto-loaded .tfvars
    /// files as Terraform reads a module.
    #[arg(long, value_name = "FILE")]
    pub container: Option<String>,
    /// Which container of the file to check, when it declares several.
    #[arg(long, value_name = "NAME")]
    pub container_name: Option<String>,
    /// Parameter values for --container, as deployed: an ARM parameters file
    /// ({"parameters": {"name": {"value": ...}}}), or Terraform variables (a .tfvars or
    /// .tfvars.json file) [default: the template's defaultValue, the variables' default].
    #[arg(
        long,
        value_name = "FILE",
        visible_alias = "var-file",
        requires = "container"
    )]
    pub parameters: Option<String>,
    /// The lowest passing score (0–100).
    #[arg(long, value_name = "SCORE", default_value_t = 50.0)]
    pub min_score: f64,
    /// Fail on this finding code too, warnings included (repeatable), e.g. FAN_OUT_QUERIES.
    #[arg(long, value_name = "CODE")]
    pub deny: Vec<String>,
    /// Fail when the key needs this many times the RU/s of the cheapest alternative found
    /// (more than 1).
    #[arg(long, value_name = "R", default_value_t = 2.0)]
    pub max_cost_ratio: f64,
    /// Alternatives generated to compare the key with.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=200))]
    pub auto: u16,
    /// Fail when the key breaks (its largest logical partition passes 20 GB) within this
    /// long of the timeline's first day, e.g. 3y, 18mo (needs an ingest: a log with
    /// creates, --time-path or --growth).
    #[arg(long, value_name = "DURATION")]
    pub horizon: Option<String>,
}

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

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// A table for the terminal.
    Table,
    /// One versioned JSON document.
    Json,
    /// A Markdown table and the recommendation (CI summaries, pull requests).
    Markdown,
    /// One self-contained HTML page with charts per candidate (design reviews; give -o).
    Html,
}

/// When to colour the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// How the query log is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QueriesFormat {
    /// Recognised by its first bytes.
    Auto,
    /// NDJSON operations or plain SELECT lines.
    Ndjson,
    /// An Azure Monitor diagnostic-log export.
    AzureMonitor,
}

/// How autoscale scales.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AutoscaleModeArg {
    /// Classic: the whole container to its hottest partition.
    Container,
    /// Dynamic: each physical partition and region on its own.
    Partition,
}

/// The consistency of reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConsistencyArg {
    /// Strong: reads cost twice.
    Strong,
    /// Bounded staleness: reads cost twice.
    BoundedStaleness,
    /// Session.
    Session,
    /// Consistent prefix.
    ConsistentPrefix,
    /// Eventual.
    Eventual,
}

/// A reserved-capacity term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReservedArg {
    /// One year: 20% off throughput.
    #[value(name = "1y")]
    OneYear,
    /// Three years: 30% off throughput.
    #[value(name = "3y")]
    ThreeYears,
}

/// Whether to weigh a global secondary index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GsiArg {
    /// Whenever the log has reads.
    Auto,
    /// Never.
    Off,
}

/// Options of every command that reads documents.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// Sample documents: NDJSON, a JSON array, or concatenated JSON; `.gz`/`.zst` are
    /// decompressed. `-` or nothing reads standard input (but `analyze --profile` with
    /// nothing reads only the profiles; give DOCS before --profile, which takes every file
    /// after it).
    #[arg(value_name = "DOCS")]
    pub docs: Vec<String>,
    /// A candidate key (repeatable). Specs: /path, /a/b, /"my-prop", /a,/b[,/c]
    /// (hierarchical), concat(/a,/b), rand_suffix(/a,N), hash_suffix(/a,/b,N).
    #[arg(long = "key", value_name = "SPEC")]
    pub keys: Vec<String>,
    /// A document path holding the write time (RFC 3339 or epoch seconds/milliseconds);
    /// without it, documents arrive in input order.
    #[arg(long, value_name = "PATH")]
    pub time_path: Option<String>,
    /// Skip documents and log lines that do not parse, count them, and keep going.
    #[arg(long)]
    pub skip_invalid: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Memory for per-value statistics, shared by all candidates (e.g. 512MB, 2GiB). Past
    /// it, values are sampled by hash and the largest are kept by a sketch.
    #[arg(long, value_name = "SIZE", default_value = "512MB")]
    pub memory: String,
    /// The largest document accepted (e.g. 16MiB).
    #[arg(long, value_name = "SIZE", default_value = "16MiB")]
    pub max_document_size: String,
    /// The deepest nesting of objects and arrays accepted in a document.
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub max_depth: u16,
    /// Reading threads [default: 2]. Results are identical for the same thread count; past
    /// --memory, heavy-hitter estimates may differ between thread counts.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: Option<u16>,
    /// Seed for random suffixes (rand_suffix), so runs are reproducible.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The container's indexing policy (a JSON `indexingPolicy` object, or a container
    /// resource holding one): writes are charged 0.2 RU per term it indexes [default: every
    /// path; check: the policy --container declares].
    #[arg(long, value_name = "FILE")]
    pub indexing_policy: Option<String>,
}

/// Options shared by `analyze` and `check`.
#[derive(Debug, clap::Args)]
pub struct CommonArgs {
    /// Documents and how to read them.
    #[command(flatten)]
    pub read: ReadArgs,
    /// The query log: NDJSON operations or plain SELECT lines, or an Azure Monitor export
    /// (`-`: standard input, when DOCS are files).
    #[arg(long, value_name = "FILE")]
    pub queries: Option<String>,
    /// How the query log is written: recognised by its first bytes (`auto`), `ndjson`, or
    /// `azure-monitor` (Log Analytics rows as JSON or CSV, AzureDiagnostics, storage-account
    /// or Event Hubs lines).
    #[arg(long, value_enum, default_value_t = QueriesFormat::Auto)]
    pub queries_format: QueriesFormat,
    /// The container's key today, whose values an Azure Monitor log's PartitionKey column
    /// holds (check: the key it gates, unless given).
    #[arg(long, value_name = "SPEC")]
    pub current_key: Option<String>,
    /// The container whose rows an Azure Monitor log of several holds are read:
    /// DATABASE/COLLECTION, or a collection alone [check: the container --container declares].
    #[arg(long, value_name = "DB/COLL")]
    pub log_container: Option<String>,
    /// Container size to project onto, e.g. 500GB, 2TB, 1.5TiB [default: with a retention
    /// and an ingest (the log's creates ÷ --log-share, or --time-path arrivals), ingest ×
    /// retention, else 1TB].
    #[arg(long, value_name = "SIZE")]
    pub target_storage: Option<String>,
    /// How long items live: the container's default time to live, e.g. 30d, 720h, 1y
    /// (units s, min, h, d, w, mo, y). With --time-path, a value then holds at most its
    /// write rate × this, whatever the target; the documents' own `ttl` (seconds, -1:
    /// never) takes precedence [default: the documents' `ttl`, else items live forever].
    #[arg(long, value_name = "DURATION")]
    pub retention: Option<String>,
    /// The container's growth, SIZE/PERIOD (e.g. 50GB/month, 2TB/year, 5GB/7d): the
    /// timeline's ingest, over the log's creates and the --time-path arrivals [default: the
    /// log's creates ÷ --log-share, else the sample's --time-path arrivals].
    #[arg(long, value_name = "SIZE/PERIOD")]
    pub growth: Option<String>,
    /// The container's size on the timeline's first day, e.g. 800GB [default: the target's
    /// storage].
    #[arg(long, value_name = "SIZE")]
    pub start_storage: Option<String>,
    /// The timeline's first day, YYYY-MM-DD (UTC) [default: the log's last timestamp, else
    /// the sample's latest --time-path value, else today].
    #[arg(long, value_name = "DATE")]
    pub as_of: Option<String>,
    /// Provisioned manual throughput in RU/s to project onto, in steps of 100 [default:
    /// 20000].
    #[arg(long, value_name = "RU", conflicts_with = "autoscale_max")]
    pub throughput: Option<f64>,
    /// Autoscale maximum RU/s to project onto, in steps of 1,000, instead of --throughput:
    /// each hour is billed at the highest RU/s reached in it, at least a tenth of it.
    #[arg(long, value_name = "RU")]
    pub autoscale_max: Option<f64>,
    /// How autoscale scales: `container` (classic: the whole container, in every region, to
    /// its hottest partition) or `partition` (dynamic: each physical partition and region on
    /// its own, the default of accounts created since 2024-09-25) [default: container].
    /// Needs autoscale throughput: --autoscale-max, or autoscale declared by `check
    /// --container`.
    #[arg(long, value_enum, value_name = "MODE", conflicts_with_all = ["throughput", "serverless"])]
    pub autoscale_mode: Option<AutoscaleModeArg>,
    /// Bill as a serverless account instead: 0.25 USD per million RU consumed, one region,
    /// at most 5,000 RU/s per container (1,000 more per partition past five) and 1 TB.
    #[arg(long, conflicts_with_all = ["throughput", "autoscale_max"])]
    pub serverless: bool,
    /// Every region takes writes: throughput at the multi-region-write price (0.016 USD per
    /// 100 RU/s-hour per region, manual or autoscale); needs --regions 2 or more.
    #[arg(long)]
    pub multi_region_writes: bool,
    /// The consistency of reads: `strong` and `bounded-staleness` reads cost twice the RU
    /// [default: session].
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub consistency: Option<ConsistencyArg>,
    /// Reserved capacity bought for throughput: `1y` (20% off) or `3y` (30% off the
    /// throughput bill, storage excluded).
    #[arg(long, value_enum, value_name = "TERM")]
    pub reserved: Option<ReservedArg>,
    /// The share of the real traffic the query log holds (0.000001–1), so its rates scale
    /// up: 0.1 for a log of one request in ten [default: 1].
    #[arg(long, value_name = "F")]
    pub log_share: Option<f64>,
    /// Regions the container is replicated to: throughput and storage are paid in each
    /// [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub regions: Option<u32>,
    /// Ranking: the headroom, in times the target, past which a key that breaks later earns
    /// nothing more (more than 1) [default: 2]
    #[arg(long, value_name = "M")]
    pub margin: Option<f64>,
    /// Price of 100 RU/s for an hour in USD [default: 0.008 manual, 0.012 autoscale: list
    /// prices, one write region].
    #[arg(long, value_name = "USD")]
    pub price_ru_hour: Option<f64>,
    /// Price of a GB stored for a month in USD [default: 0.25, the list price].
    #[arg(long, value_name = "USD")]
    pub price_gb_month: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,
    /// Write the report to FILE instead of standard output (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
    /// Weigh a global secondary index for the reads the recommended key fans out: `auto`
    /// (whenever the log has reads) or `off`.
    #[arg(long, value_enum, default_value_t = GsiArg::Auto)]
    pub gsi: GsiArg,
    /// Table: every column, whatever the terminal's width (by default columns are kept by
    /// priority to fit it, or 100 columns when not writing to a terminal).
    #[arg(long)]
    pub wide: bool,
    /// Colour findings by severity: `auto` (on a terminal, unless NO_COLOR is set),
    /// `always` or `never`.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// Replace key values in the report by stable hashes.
    #[arg(long)]
    pub redact: bool,
    /// A DocumentDB-era client-side layout to compare with the keys (repeatable):
    /// spillover[:SIZE], range:/path=A..M,N..Z, lookup:/path=FILE (a JSON map of value →
    /// collection, "*" for any other value) or hash:/path=N.
    #[arg(long = "layout", value_name = "SPEC")]
    pub layouts: Vec<String>,
    /// The size of each collection of a --layout (a spillover's own SIZE wins) [default:
    /// 10GB, a single-partition collection].
    #[arg(long, value_name = "SIZE")]
    pub collection_size: Option<String>,
    /// The RU/s of each collection of a --layout [default: 2500, the legacy S3 level].
    #[arg(long, value_name = "RU")]
    pub collection_throughput: Option<f64>,
    /// How many of each candidate's largest values to list.
    #[arg(long, value_name = "N", default_value_t = pkadvisor::advisor::DEFAULT_TOP_VALUES)]
    pub top: usize,
}

/// `pkadvisor analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// Inputs, candidates, target and output.
    #[command(flatten)]
    pub common: CommonArgs,
    /// Show the physical partition map of one candidate at the target (EPK ranges, bytes,
    /// logical partitions, RU, largest values) instead of the ranking.
    #[arg(long, value_name = "SPEC")]
    pub explain: Option<String>,
    /// With --explain: where one key value lands (its EPK, partition, projected bytes and
    /// RU). A JSON literal ('"contoso"', 42), a hierarchical key's levels as a JSON array
    /// ('["contoso","u1"]'; fewer levels: a prefix, which spans a range), or bare text,
    /// read as a string. May repeat.
    #[arg(long, value_name = "VALUE", requires = "explain", action = clap::ArgAction::Append, allow_hyphen_values = true)]
    pub explain_value: Vec<String>,
    /// Without --key: how many candidates to generate from the documents and the log.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=200))]
    pub auto: u16,
    /// Profiles written by `pkadvisor profile` (one flag takes several, `--profile
    /// DIR/*.profile.zst`, and may repeat): their statistics are merged, with those of any
    /// DOCS given before the flag, and their candidates and settings are used.
    #[arg(long = "profile", value_name = "FILE", num_args = 1.., action = clap::ArgAction::Append, conflicts_with_all = ["keys", "time_path", "seed", "memory", "auto", "layouts"])]
    pub profiles: Vec<String>,
}

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
