//! The flags of the commands that read documents (`analyze`, `check`, `profile`), as the
//! command line gives them. The binary parses them (its `Cli` flattens these); the library
//! validates them and builds every request and report option from them ([`crate::run`]),
//! before any input is read.
//!
//! The fields' comments are the command line's help, written for a terminal (`[default:
//! ...]`, `spillover[:SIZE]`), not links.
#![allow(rustdoc::broken_intra_doc_links)]

use clap::ValueEnum;

/// `pkadvisor profile`.
#[derive(Debug, clap::Args)]
pub struct ProfileArgs {
    /// Documents and how to read them.
    #[command(flatten)]
    pub read: ReadArgs,
    /// The profile file to write (`-`: standard output), whole or not at all; a FILE that
    /// is one of the run's inputs is refused.
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

/// The infrastructure file that declares a container (`check`, `migrate`).
#[derive(Debug, clap::Args)]
pub struct ContainerArgs {
    /// The infrastructure file declaring the container: ARM or Terraform JSON, or a .tf
    /// file or a directory, read with the directory's other .tf and auto-loaded .tfvars
    /// files as Terraform reads a module.
    #[arg(long, value_name = "FILE")]
    pub container: Option<String>,
    /// Which container of the file, when it declares several.
    #[arg(long, value_name = "NAME", requires = "container")]
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
}

/// `pkadvisor check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Inputs, target and output (--key or --layout gives the design to check instead of
    /// --container).
    #[command(flatten)]
    pub common: CommonArgs,
    /// The infrastructure file declaring the container.
    #[command(flatten)]
    pub file: ContainerArgs,
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

/// The flags of `pkadvisor migrate`.
#[derive(Debug, clap::Args)]
pub struct MigrateArgs {
    /// Inputs, the container's size and throughput, and output.
    #[command(flatten)]
    pub common: CommonArgs,
    /// The container's key today (or --container, which also gives its throughput, indexing
    /// policy and defaultTtl).
    #[arg(
        long,
        value_name = "SPEC",
        required_unless_present = "container",
        conflicts_with = "container"
    )]
    pub from: Option<String>,
    /// The infrastructure file declaring the container today.
    #[command(flatten)]
    pub file: ContainerArgs,
    /// The key of the new container.
    #[arg(long, value_name = "SPEC")]
    pub to: String,
    /// RU/s given to the new container during the copy [default: its own, the container's
    /// throughput]; a raise splits its partitions, and they stay split.
    #[arg(long, value_name = "RU")]
    pub copy_throughput: Option<f64>,
    /// Plan an online copy (writes continue; the all-versions change feed): the source's
    /// writes pay a surcharge while it runs.
    #[arg(long)]
    pub online: bool,
    /// The online surcharge on the source's writes, as a share (1: charged double, as the
    /// docs say; a training unit says 0.5-1 on replaces and deletes only).
    #[arg(long, value_name = "SHARE", requires = "online")]
    pub online_surcharge: Option<f64>,
    /// The container has had a partition merge (the portal's change of key is then not
    /// offered).
    #[arg(long)]
    pub merged: bool,
}

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

/// What the sample documents are (see `--sample`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SampleArg {
    /// A uniform share of the container's documents.
    Snapshot,
    /// Every document of the values it holds (a pilot, one tenant's export).
    Complete,
}

/// What the query log is (see `--log-kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogKindArg {
    /// A share of the requests (`--log-share`).
    Requests,
    /// Every request of a share of the values.
    Values,
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
    /// 100 RU/s-hour per region, manual or autoscale); needs --regions 2 or more, and not
    /// --consistency strong (the service does not offer it with multi-region writes).
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
    /// What the sample is: `snapshot` (a uniform share of the container's documents: a
    /// value seen in r of them stands for about r/share, values seen once for many never
    /// seen) or `complete` (every document of the values it holds: a pilot, one tenant's
    /// export; the container has more such values, not larger ones) [default: inferred
    /// from the --time-path arrivals against the log's creates, and stated in the header].
    #[arg(long, value_enum, value_name = "KIND")]
    pub sample: Option<SampleArg>,
    /// What the log is: `requests` (a share of the requests, --log-share: each line stands
    /// for 1/share lines of the same values) or `values` (every request of a share of the
    /// values: each value's rate is exact, the target has 1/share as many values)
    /// [default: inferred with --sample's test; of a snapshot, `values` when the log keeps
    /// items' creates with their other requests far more often than a share of the requests
    /// would; stated in the header].
    #[arg(long, value_enum, value_name = "KIND")]
    pub log_kind: Option<LogKindArg>,
    /// Of complete values logged whole (--log-kind values): the key whose values the share
    /// is of, e.g. /tenantId for a few tenants' export. Keys with at most half its distinct
    /// values gather several units in each and grow 1/share times; it must be one of the
    /// keys measured [default: the single-path key with the most values whose logged
    /// creates all go to the sample's values, stated in the header].
    #[arg(long, value_name = "PATH")]
    pub unit: Option<String>,
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
    /// Write the report to FILE instead of standard output (`-`: standard output). It
    /// appears whole or not at all (written beside it, then renamed over it); a FILE that
    /// is one of the run's inputs is refused.
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
    #[arg(long, value_name = "N", default_value_t = crate::advisor::DEFAULT_TOP_VALUES)]
    pub top: usize,
}

impl CommonArgs {
    /// The files the run reads (documents, the log, an indexing policy, a layout's lookup
    /// map), `-` aside.
    pub fn inputs(&self) -> Vec<&str> {
        let lookups = (self.layouts.iter())
            .filter_map(|l| l.strip_prefix("lookup:")?.split_once('=').map(|(_, f)| f));
        let mut inputs = self.read.inputs();
        inputs.extend(self.queries.as_deref().into_iter().chain(lookups));
        inputs.retain(|p| *p != "-");
        inputs
    }
}

impl ReadArgs {
    /// The files the documents are read with (the documents, an indexing policy).
    pub fn inputs(&self) -> Vec<&str> {
        (self.docs.iter().map(String::as_str))
            .chain(self.indexing_policy.as_deref())
            .collect()
    }
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
