//! The report model: plain data that every renderer reads. Serialised as-is for
//! `--format json`, so its field names are a contract (GUIDE.md's JSON report section and `schema/report.schema.json`);
//! add fields, never rename them without bumping [`SCHEMA_VERSION`].

use std::collections::BTreeMap;

use serde::Serialize;

/// Version of the JSON report's shape.
pub const SCHEMA_VERSION: &str = "1.2";

/// One run's findings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Version of this shape.
    pub schema_version: String,
    /// The program that wrote it.
    pub tool: Tool,
    /// What was read.
    pub input: InputSummary,
    /// What the candidates were projected onto.
    pub target: TargetReport,
    /// Candidates, best first.
    pub candidates: Vec<CandidateReport>,
    /// The best candidate and why.
    pub recommendation: Option<Recommendation>,
    /// `check` only: the gate's verdict on the declared key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckResult>,
    /// `check` only: the global secondary indexes declared beside the container, each
    /// priced with it as a pair.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub declared_indexes: Vec<SecondaryIndex>,
}

impl Report {
    /// `check`: the declared design's candidate, the one the verdict names.
    pub fn declared(&self) -> &CandidateReport {
        (self.candidates.iter())
            .find(|c| c.role == Role::Declared)
            .expect("the declared design is a candidate")
    }

    /// `check`: the monthly bill of the cheapest pair of the container and a declared
    /// index, when `alt`'s bill is known too: the cost gate then compares bills, not RU/s.
    pub fn pair_against(&self, alt: &CandidateReport) -> Option<f64> {
        alt.cost.monthly.throughput?;
        (self.declared_indexes.iter())
            .filter_map(|i| i.monthly_after)
            .min_by(f64::total_cmp)
    }
}

/// The verdict of `pkadvisor check`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckResult {
    /// Whether the declared key passed.
    pub passed: bool,
    /// The declared key's spec.
    pub key: String,
    /// The container it was declared for, when read from a file.
    pub container: Option<String>,
    /// The minimum score required.
    pub min_score: f64,
    /// Why it failed (empty when it passed).
    pub reasons: Vec<Reason>,
    /// The best candidate without violations, when it is not the declared key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_alternative: Option<String>,
    /// The key fails when it needs this many times the RU/s of the cheapest alternative.
    pub max_cost_ratio: f64,
    /// The cheapest alternative without violations (highest efficiency), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cheapest_alternative: Option<String>,
    /// The RU/s the declared key needs over what the cheapest alternative needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_ratio: Option<f64>,
    /// The declared key against what an Azure Monitor log observed of it, when the log
    /// holds `CDBPartitionKeyStatistics` for it (the current key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<ObservedCheck>,
}

/// What a failed gate holds against the design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasonKind {
    /// A finding of severity `violation`.
    Violation,
    /// A finding named with `--deny`.
    Denied,
    /// A score below `--min-score`.
    Score,
    /// Needing `--max-cost-ratio` times the cheapest alternative.
    Cost,
    /// A logical partition an Azure Monitor log already shows near the limit.
    Observed,
    /// A timeline that breaks within `--horizon`.
    Horizon,
}

/// One reason a design failed the gate: its kind, the finding it stems from (violations
/// and denied findings), and its text. It is written to JSON as its text alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    /// What kind of reason.
    pub kind: ReasonKind,
    /// The finding it stems from, for [`ReasonKind::Violation`] and [`ReasonKind::Denied`].
    pub code: Option<FindingCode>,
    /// The sentence shown.
    pub text: String,
}

impl Reason {
    /// A reason of `kind`, from `code`'s finding when it has one.
    pub fn new(kind: ReasonKind, code: Option<FindingCode>, text: String) -> Reason {
        Reason { kind, code, text }
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// The largest logical partition observed against the one projected.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObservedCheck {
    /// The largest logical partition `CDBPartitionKeyStatistics` reported, in bytes.
    pub largest_bytes: u64,
    /// Its key value, as the log gives it.
    pub value: String,
    /// The largest logical partition the projection puts at the target.
    pub projected_bytes: u64,
}

/// Name and version of the program.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tool {
    /// `pkadvisor`.
    pub name: String,
    /// Its version.
    pub version: String,
}

impl Default for Tool {
    fn default() -> Self {
        Tool {
            name: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

/// What was read.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct InputSummary {
    /// Documents read (skipped ones excluded).
    pub documents: u64,
    /// The documents' JSON text in bytes (skipped ones excluded).
    pub bytes: u64,
    /// Documents and log lines skipped as invalid (`--skip-invalid`).
    pub invalid: u64,
    /// Logged operations read, weighted by `count`.
    pub operations: u64,
    /// Whether key values came as hashes (profiles written with `profile --redact`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub redacted: bool,
    /// What an Azure Monitor log showed beyond its operations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monitor: Option<MonitorReport>,
}

/// What an Azure Monitor log showed beyond its operations.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MonitorReport {
    /// Rows read, of every table.
    pub rows: u64,
    /// `CDBDataPlaneRequests` rows.
    pub requests: u64,
    /// Requests throttled (status 429): evidence about the current key.
    pub throttled: u64,
    /// Operations that cannot be routed: data-plane queries without a statistics row (no
    /// text), rows of no recognised table.
    pub unroutable: u64,
    /// Query statistics pages whose request row never arrived (charged by the model).
    pub unjoined: u64,
    /// Queries with values the log hides (obfuscated), routed by their shape.
    pub hidden: u64,
    /// Point operations with the current key's value.
    pub keyed: u64,
    /// Rows that repeat an earlier row exactly (an export given twice), read once.
    pub duplicates: u64,
    /// Query pages whose `CorrelatedActivityId` cannot tell queries apart (empty, all
    /// zeros, or shared by different texts): each page counted a query of its own.
    pub uncorrelated: u64,
    /// The current key the `PartitionKey` values belong to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_key: Option<String>,
    /// `CDBPartitionKeyStatistics`: the largest logical partitions seen, largest first.
    pub largest_partitions: Vec<ObservedPartitionReport>,
    /// The container (`database/collection`) whose rows were read, when rows name one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    /// Rows of other containers, left unread, by `database/collection`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub containers_left: Vec<ContainerRows>,
}

/// Rows of one container (`database/collection`) of an Azure Monitor log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContainerRows {
    /// `database/collection`.
    pub container: String,
    /// Its rows.
    pub rows: u64,
}

/// One logical partition an Azure Monitor log reported.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObservedPartitionReport {
    /// Its key value as the log gives it (a JSON array).
    pub value: String,
    /// Its size in bytes (the largest `SizeKb` seen × 1,000).
    pub bytes: u64,
}

/// The target the candidates were projected onto.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetReport {
    /// Container size.
    pub storage_bytes: u64,
    /// Provisioned RU/s (autoscale: the maximum).
    pub throughput_ru: f64,
    /// How throughput is billed: `manual`, `autoscale` or `serverless` (the same as
    /// [`PricesReport::billing`], kept here for the readers of the target alone).
    pub throughput_mode: BillingMode,
    /// Physical partitions at this target with evenly spread data.
    pub physical_partitions: usize,
    /// Which of the figures are defaults chosen by pkadvisor (`storage`, `throughput`).
    pub defaults: Vec<String>,
    /// Where figures read from an infrastructure file come from (`throughput`,
    /// `indexing`): the file, the container and the field.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub sources: BTreeMap<String, String>,
    /// The default target storage over the sample's bytes, when more than 10,000: the
    /// projection extrapolates the sample's proportions that far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_ratio: Option<f64>,
    /// The prices the cost uses.
    pub prices: PricesReport,
    /// The share of the real traffic the query log holds (`--log-share`).
    pub log_share: f64,
    /// What the sample is (`snapshot` or `complete`), and why.
    pub sample: KindReport,
    /// What the log is (`requests` or `values`), and why; absent without a log.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_kind: Option<KindReport>,
    /// Of complete values logged whole, the key the log's share is of and its distinct
    /// values: keys with at most half as many values gather several units in each and are
    /// sized and rated as a snapshot's (see [`crate::project::kinds::Unit`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitReport>,
    /// How long items live and where that was read (`--retention`, a template's
    /// `defaultTtl`); absent when neither says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retention: Option<String>,
    /// How the default storage was chosen when it is ingest × retention (`ingest 1.2
    /// GB/day × 30 days retention`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_default: Option<String>,
    /// What every candidate's timeline starts from, when an ingest is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<TimelineBasisReport>,
}

/// What the sample or the log is, and why (a flag, or the inference's figures).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KindReport {
    /// `snapshot` or `complete` (the sample); `requests` or `values` (the log).
    pub kind: String,
    /// Why: `--sample`, `--log-kind`, or `inferred: ...`.
    pub why: String,
}

/// One value's projected size, step by step (`--explain-value`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ValueArithmetic {
    /// Its sample bytes where it lies.
    pub sample_bytes: u64,
    /// Its documents in the sample.
    pub documents: u64,
    /// What the sample and the log are to this key.
    pub sample: String,
    /// The log's kind to this key.
    pub log_kind: String,
    /// Whether its writes stopped before the sample's end.
    pub closed: bool,
    /// Of a snapshot, the share of its growth its count earns (Good–Turing).
    pub credible: f64,
    /// The growth the open values share.
    pub open_growth: f64,
    /// Of complete values read from a log of requests, `[logged, net]`: the lines of its
    /// creates the sample's values (a hierarchical key's first levels) wrote, and those
    /// lines net of chance, which their share of the new data is read from.
    pub held_lines: Option<[f64; 2]>,
    /// Its real write rate, bytes a second, when arrivals have times.
    pub rate_bytes_per_second: Option<f64>,
    /// Seconds until the container reaches the target at its write rate, when known.
    pub open_seconds: Option<f64>,
    /// The most it grows (a retention's bound, a period's cap); null when unbounded.
    pub bound: Option<f64>,
    /// Its growth factor, all told.
    pub growth: f64,
    /// Its projected bytes at the target.
    pub bytes: u64,
    /// The 95% interval of those bytes from its count alone.
    pub interval_bytes: [u64; 2],
}

/// The key whose values a log of a share of the values samples.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct UnitReport {
    /// Its path.
    pub path: String,
    /// Its distinct values in the sample.
    pub values: u64,
}

/// What the timelines start from: the ingest, where it was read, the storage and the date.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimelineBasisReport {
    /// Bytes the container receives a day.
    pub ingest_bytes_per_day: u64,
    /// Where the ingest was read: `log` (its creates ÷ `--log-share`), `time-path` (the
    /// sample's arrivals) or `growth` (`--growth`).
    pub ingest_from: String,
    /// The container's bytes on the first day (`--start-storage`, else the target's).
    pub start_bytes: u64,
    /// The first day, `YYYY-MM-DD` (UTC).
    pub from: String,
    /// Where the first day was read: `log` (its last timestamp), `time-path` (the
    /// sample's latest), `as-of` (`--as-of`) or `today`.
    pub dated_from: String,
    /// The size the container settles at (ingest × retention), when items expire.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settles_bytes: Option<u64>,
}

/// When a candidate breaks, under steady ingest (see GUIDE "Timeline").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimelineReport {
    /// The first day, `YYYY-MM-DD`.
    pub from: String,
    /// The day its largest logical partition passes 20 GB; `None` when it never does
    /// (within a century).
    pub breaks_on: Option<String>,
    /// The day one value needs more than 10,000 RU/s; `None` when none ever does.
    pub throughput_limit_on: Option<String>,
    /// Its physical partitions from the first day, and each doubling within 36 months.
    pub partitions: Vec<PartitionsOn>,
    /// The monthly bill (USD) after 3, 12 and 36 months.
    pub monthly_at: BTreeMap<String, f64>,
}

/// Physical partitions from a day on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartitionsOn {
    /// The day, `YYYY-MM-DD`.
    pub on: String,
    /// Physical partitions from that day.
    pub count: usize,
}

/// How throughput is billed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BillingMode {
    /// Provisioned RU/s, every hour the same.
    Manual,
    /// Provisioned up to a maximum, each hour at the highest RU/s reached.
    Autoscale,
    /// RU consumed.
    Serverless,
}

impl std::fmt::Display for BillingMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BillingMode::Manual => "manual",
            BillingMode::Autoscale => "autoscale",
            BillingMode::Serverless => "serverless",
        })
    }
}

/// Prices of the monthly cost, and what the bill assumes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PricesReport {
    /// USD per 100 RU/s for an hour (serverless: none is paid).
    pub ru_hour_per_100: f64,
    /// USD per GB stored for a month.
    pub gb_month: f64,
    /// Regions (throughput and storage are paid in each).
    pub regions: u32,
    /// Where the prices come from.
    pub source: String,
    /// The billing model.
    pub billing: BillingMode,
    /// Autoscale: `container` (the whole container scales to its hottest partition) or
    /// `partition` (each partition and region on its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autoscale_mode: Option<String>,
    /// Serverless: USD per million RU consumed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ru_million: Option<f64>,
    /// Whether every region takes writes (the multi-region-write price).
    pub multi_region_writes: bool,
    /// The consistency of reads (`strong` and `bounded-staleness` reads cost twice).
    pub consistency: String,
    /// Reserved capacity (`1y`, `3y`), when bought.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved: Option<String>,
    /// The share reserved capacity takes off the throughput bill.
    pub reserved_discount: f64,
    /// The indexing policy writes are charged under.
    pub indexing: String,
    /// Indexed terms per document under it (the sample's mean): a write adds 0.2 RU each.
    pub terms_per_document: f64,
    /// How the log's hours make a month of 730.
    pub month: String,
    /// Clock hours the log spans, when its operations have times.
    pub log_hours: Option<f64>,
}

impl Default for PricesReport {
    /// Manual throughput at list prices, one region, session reads, the default indexing
    /// policy, rates unknown.
    fn default() -> Self {
        PricesReport {
            ru_hour_per_100: 0.008,
            gb_month: 0.25,
            regions: 1,
            source: String::new(),
            billing: BillingMode::Manual,
            autoscale_mode: None,
            ru_million: None,
            multi_region_writes: false,
            consistency: "session".to_owned(),
            reserved: None,
            reserved_discount: 0.0,
            indexing: crate::indexing::DEFAULT_SOURCE.to_owned(),
            terms_per_document: 0.0,
            month: "no hourly bill: the log gives no rates".to_owned(),
            log_hours: None,
        }
    }
}

/// What a candidate costs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostReport {
    /// Mean RU charged per logged operation.
    pub ru_per_operation: f64,
    /// In (0, 1]: the RU/s an ideal key needs for the same operations over the RU/s this
    /// key needs (its hottest partition in its busiest window).
    pub efficiency: f64,
    /// RU/s to provision so no partition throttles in the busiest window; `null` when the
    /// log gives no rates.
    pub required_ru: Option<f64>,
    /// Why `required_ru` is `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_ru_unknown: Option<String>,
    /// What the key needs provisioned before the billing model's steps (not written): keys
    /// compare on it.
    #[serde(skip)]
    pub need_ru: Option<f64>,
    /// RU/s the load itself needs in its busiest hour, before the service's minimums and
    /// the billing model's steps; `null` when the log gives no rates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_ru: Option<f64>,
    /// The least RU/s the service allows the target (1 RU/s per GB, 400, the autoscale
    /// floor, a layout's collections), whatever the load.
    pub minimum_ru: f64,
    /// The monthly bill at the stated prices.
    pub monthly: Monthly,
    /// The bill as needed: the least the key needs at the target (`required_ru` and
    /// `monthly` again, under one name beside `provisioned`).
    pub needed: Bill,
    /// The bill as provisioned: what Azure charges for the throughput a flag or the
    /// template gives (at least the storage minimum); absent when none is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisioned: Option<Bill>,
}

/// RU/s (an autoscale maximum; serverless: the busiest hour's RU/s) and their monthly bill.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bill {
    /// RU/s, `null` when the log gives no rates.
    pub ru: Option<f64>,
    /// Where the figure comes from: `the key's load` for the need, the flag or the
    /// template for what is provisioned.
    pub source: String,
    /// The monthly bill at the stated prices.
    pub monthly: Monthly,
}

/// What `cost.needed` is read from.
pub const NEEDED_SOURCE: &str =
    "the key's load at the target, at least the service's minimums and the container's history";

/// A monthly bill.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Monthly {
    /// Throughput (`null` when `required_ru` is).
    pub throughput: Option<f64>,
    /// Storage at the target.
    pub storage: f64,
    /// Their sum (storage alone when throughput is unknown).
    pub total: f64,
    /// `USD`.
    pub currency: String,
}

/// One candidate key, measured and projected.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CandidateReport {
    /// 1 for the best.
    pub rank: usize,
    /// 0–100, higher is better.
    pub score: f64,
    /// What ranks candidates (not written): the score before rounding, less what cost
    /// loses past the score's range (see `advisor::score::rank_score`).
    #[serde(skip)]
    pub exact_score: f64,
    /// Whether a priced hazard (key changes, a missing key) weighs on it (not written).
    #[serde(skip)]
    pub hazard: bool,
    /// The named parts of the score, each 0–1.
    pub components: BTreeMap<String, f64>,
    /// The key.
    pub key: KeyInfo,
    /// Distinct key values.
    pub cardinality: Cardinality,
    /// Storage at the target.
    pub storage: StorageReport,
    /// Throughput at the target.
    pub throughput: ThroughputReport,
    /// What the key costs.
    pub cost: CostReport,
    /// How the workload's reads are routed.
    pub queries: QueryReport,
    /// Value-level counts over the sample.
    pub values: ValueCounts,
    /// The largest key values by bytes.
    pub largest_values: Vec<LargestValue>,
    /// Problems and remarks.
    pub findings: Vec<Finding>,
    /// Why the candidate was considered (auto mode), or `given with --key`.
    pub origin: String,
    /// Why it is in the report: given, declared (the design `check` gates), a declared
    /// index, or generated.
    pub role: Role,
    /// Its physical partitions' bytes and load, for the charts of `--format html` (filled
    /// only for it; never written to JSON).
    #[serde(skip)]
    pub partitions: Option<PartitionLoad>,
    /// When it breaks, at the ingest the run knows; absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<TimelineReport>,
    /// What throughput redistribution, burst capacity and merge do for it; absent when
    /// rates are unknown, serverless, or for a layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redistribution: Option<RedistributionReport>,
}

impl CandidateReport {
    /// Whether any of its findings is a violation: a key not to be used.
    pub fn has_violation(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity == Severity::Violation)
    }
}

/// What the service itself does for a key's hot spot, without a new key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RedistributionReport {
    /// Whether only redistribution serves the key within the throughput provisioned: split
    /// evenly it needs more, redistributed no more, and its hot spot holds still. Such a
    /// key ranks below the keys that need no redistribution, at its redistributed bill.
    pub only_served: bool,
    /// RU/s (an autoscale maximum) the key needs with each physical partition given its
    /// own busiest window's load, as the billing model provisions; `null` when its
    /// hottest partition needs more than the 20,000 RU/s one partition may be given, or a
    /// value more than the 10,000 a partition serves.
    pub needed_ru: Option<f64>,
    /// RU/s it needs split evenly (its busiest window's hottest partition × partitions),
    /// before the model's steps.
    pub even_ru: f64,
    /// RU/s its hottest partition needs in its own busiest window.
    pub hottest_partition_ru: f64,
    /// Whether the hot spot stays on the same partitions (a per-partition setting recovers
    /// at least half of what the skew costs), so that redistribution can follow it.
    pub stable: bool,
    /// Whether burst capacity absorbs the hottest partition's peak with the container set
    /// at the key's load spread evenly.
    pub burst_absorbs: bool,
    /// Whether the container could merge partitions at the RU/s the key needs (under
    /// 3,000 RU/s and 20 GB per partition on average, one write region).
    pub merge_possible: bool,
}

/// A candidate's physical partitions at the target, in EPK order, and the load the replayed
/// workload put on them: what the HTML report draws (bars per partition, a heat map of
/// partitions × windows). Not part of the JSON report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PartitionLoad {
    /// Each partition's id (its pkrange id; a layout's collection number).
    pub ids: Vec<u64>,
    /// Bytes stored in each.
    pub bytes: Vec<u64>,
    /// RU the replayed workload charged each, over the whole log.
    pub ru: Vec<f64>,
    /// RU/s each needs at the workload's peak: its RU times the rate that turns the key's
    /// need into its RU/s (so the busiest times the partitions is the RU/s the report
    /// states, before the service's minimums, unless a sampled log's need is taken net of
    /// chance); `None` when the log gives no rates.
    pub ru_per_second: Option<Vec<f64>>,
    /// Per replay window with load (in time order), per partition: the Azure portal's
    /// normalised RU consumption (0–1, capped), the partition's RU/s in the window over the
    /// RU/s it gets when the key's `required_ru` is provisioned (see `heat_of_required`).
    pub heat: Vec<Vec<f64>>,
    /// Whether `heat` is against the key's RU/s; without rates it is against the busiest
    /// partition in the busiest window instead.
    pub heat_of_required: bool,
    /// Seconds each window spans, when the log's operations have times.
    pub window_seconds: Option<f64>,
    /// When the first window starts (seconds since the epoch), when the log has times.
    pub window_start: Option<i64>,
    /// Each row of `heat`'s place among all windows (those without load are not drawn).
    pub heat_windows: Vec<usize>,
    /// Bytes past which a physical partition splits (50 GB; a layout's collection size).
    pub partition_bytes_limit: u64,
    /// Bytes one logical partition may hold (20 GB).
    pub logical_bytes_limit: u64,
    /// RU/s one physical partition serves at most (10,000).
    pub partition_ru_limit: f64,
    /// Whether the partitions are a client-side layout's collections.
    pub collections: bool,
    /// RU the reads were charged, net of the fan-out overhead.
    pub read_ru: f64,
    /// RU the writes were charged.
    pub write_ru: f64,
    /// RU that reads visiting every partition spent on partitions beyond the first.
    pub fan_out_ru: f64,
}

/// A candidate's identity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyInfo {
    /// Canonical spec, as `--key` accepts it.
    pub spec: String,
    /// `single`, `synthetic` or `hierarchical`.
    pub kind: String,
    /// The Cosmos DB `partitionKey` object.
    pub definition: serde_json::Value,
}

/// Distinct values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cardinality {
    /// Count or estimate.
    pub estimate: u64,
    /// Whether it is an exact count.
    pub exact: bool,
}

/// Storage at the target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StorageReport {
    /// The largest logical partition, projected.
    pub largest_logical_bytes: u64,
    /// How big the container can grow before one logical partition reaches 20 GB
    /// (`null`: values do not grow with the container).
    pub max_container_bytes: Option<u64>,
    /// Busiest over mean physical partition bytes.
    pub physical_skew: f64,
    /// Physical partitions after this candidate's own splits.
    pub physical_partitions: usize,
    /// What new key values take of the data to come, when the container grows past the
    /// sample.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_values: Option<NewValuesReport>,
}

/// What new key values take of the data to come.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NewValuesReport {
    /// The share of new data that goes to values the sample does not hold.
    pub share: f64,
    /// Where it was read: `log` (the log's creates), `arrivals` (the sample's `--time-path`
    /// second half) or `singletons` (the sample's values seen once).
    pub from: NewValuesFrom,
    /// Distinct values at the target: the sample's and the new ones.
    pub at_target: u64,
}

/// Where the share of new data that new values take was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NewValuesFrom {
    /// The log's creates.
    Log,
    /// The sample's `--time-path` arrivals: values first seen in its second half.
    Arrivals,
    /// Good–Turing: the share of documents whose value occurs once in the sample.
    Singletons,
}

/// Throughput at the target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThroughputReport {
    /// Busiest over mean physical partition RU.
    pub physical_skew: f64,
    /// Share of provisioned RU/s usable before the hottest partition saturates, worst
    /// window.
    pub usable_fraction: f64,
    /// Over runs of a few hundred consecutive writes, the physical partitions they reach
    /// relative to what the same writes placed at random would reach (1.0: as spread as
    /// chance; near 0: one partition at a time).
    pub write_spread: f64,
    /// Per replay window, in time order: the busiest physical partition's share of the
    /// window's RU (1 / partitions when perfectly even).
    pub busiest_share_by_window: Vec<f64>,
}

/// Routing of the workload's reads (queries and point reads), weighted by `count`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryReport {
    /// Fraction reaching one key value.
    pub single: f64,
    /// Fraction reaching a prefix or a set of values.
    pub targeted: f64,
    /// Fraction reaching every partition.
    pub fan_out: f64,
    /// Physical partitions reached per read.
    pub avg_partitions: f64,
    /// Read operations.
    pub reads: u64,
    /// Write operations (reported apart: writes always know their full key).
    pub writes: u64,
    /// Whether the writes are the sample documents replayed as creates.
    pub writes_from_sample: bool,
}

/// Document-level counts for one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueCounts {
    /// Documents seen.
    pub documents: u64,
    /// Documents without (a level of) the key.
    pub missing: u64,
    /// Documents whose key value is an object or array.
    pub invalid: u64,
    /// Documents with a number beyond ±2^53 in the key.
    pub unsafe_numbers: u64,
    /// Documents with a key value over 101 bytes.
    pub over_101_bytes: u64,
    /// Documents with a key value over 2,048 bytes.
    pub over_2048_bytes: u64,
}

/// One of the largest values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LargestValue {
    /// The value (JSON text; a hash with `--redact`).
    pub value: String,
    /// Documents with it in the sample.
    pub documents: u64,
    /// Their bytes in the sample.
    pub bytes: u64,
    /// Their share of the sample's bytes (0–1).
    pub share: f64,
    /// Whether the figures are exact; otherwise `documents`, `bytes` and `share` are
    /// upper bounds and `min_bytes` the lower bound, unless `partial`.
    pub exact: bool,
    /// Some merged share of the input (a reading thread's, or a profile's) did not track
    /// the value: `documents`, `bytes` and `share` miss its documents there, so they are
    /// no upper bounds and may fall short of the truth.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// The fewest bytes the value may hold in the sample (equal to `bytes` when exact).
    pub min_bytes: u64,
}

/// Severity of a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The key cannot work.
    Violation,
    /// The key works with a cost.
    Warning,
    /// Worth knowing.
    Info,
}

/// A problem or remark.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// Its code.
    pub code: FindingCode,
    /// How serious.
    pub severity: Severity,
    /// What and why, with the threshold.
    pub message: String,
}

/// A finding's code: serialised, printed and taken by `--deny` as its name in capitals
/// (`LOGICAL_PARTITION_LIMIT`); the README's findings table lists them, with their
/// [severities](FindingCode::severities).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FindingCode {
    /// `LOGICAL_PARTITION_LIMIT`.
    LogicalPartitionLimit,
    /// `LOGICAL_PARTITION_THROUGHPUT`.
    LogicalPartitionThroughput,
    /// `INVALID_KEY_VALUE`.
    InvalidKeyValue,
    /// `KEY_TOO_LONG`.
    KeyTooLong,
    /// `MISSING_KEY`.
    MissingKey,
    /// `LOW_CARDINALITY`.
    LowCardinality,
    /// `HOT_PARTITION`.
    HotPartition,
    /// `WRITE_HOTSPOT`.
    WriteHotspot,
    /// `FAN_OUT_QUERIES`.
    FanOutQueries,
    /// `UNSAFE_NUMBER`.
    UnsafeNumber,
    /// `KEY_UPDATED`.
    KeyUpdated,
    /// `CROSS_PARTITION_TRANSACTION`.
    CrossPartitionTransaction,
    /// `EXCESS_RU`.
    ExcessRu,
    /// `THROUGHPUT_SHORTFALL`.
    ThroughputShortfall,
    /// `MONOTONIC_KEY`.
    MonotonicKey,
    /// `COLLECTION_LIMIT`.
    CollectionLimit,
    /// `UNMAPPED_VALUE`.
    UnmappedValue,
}

impl FindingCode {
    /// Every code, in the order the design lists them.
    pub const ALL: [FindingCode; 17] = [
        FindingCode::LogicalPartitionLimit,
        FindingCode::LogicalPartitionThroughput,
        FindingCode::InvalidKeyValue,
        FindingCode::KeyTooLong,
        FindingCode::MissingKey,
        FindingCode::LowCardinality,
        FindingCode::HotPartition,
        FindingCode::WriteHotspot,
        FindingCode::FanOutQueries,
        FindingCode::UnsafeNumber,
        FindingCode::KeyUpdated,
        FindingCode::CrossPartitionTransaction,
        FindingCode::ExcessRu,
        FindingCode::ThroughputShortfall,
        FindingCode::MonotonicKey,
        FindingCode::CollectionLimit,
        FindingCode::UnmappedValue,
    ];

    /// Its name: `LOGICAL_PARTITION_LIMIT`.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingCode::LogicalPartitionLimit => "LOGICAL_PARTITION_LIMIT",
            FindingCode::LogicalPartitionThroughput => "LOGICAL_PARTITION_THROUGHPUT",
            FindingCode::InvalidKeyValue => "INVALID_KEY_VALUE",
            FindingCode::KeyTooLong => "KEY_TOO_LONG",
            FindingCode::MissingKey => "MISSING_KEY",
            FindingCode::LowCardinality => "LOW_CARDINALITY",
            FindingCode::HotPartition => "HOT_PARTITION",
            FindingCode::WriteHotspot => "WRITE_HOTSPOT",
            FindingCode::FanOutQueries => "FAN_OUT_QUERIES",
            FindingCode::UnsafeNumber => "UNSAFE_NUMBER",
            FindingCode::KeyUpdated => "KEY_UPDATED",
            FindingCode::CrossPartitionTransaction => "CROSS_PARTITION_TRANSACTION",
            FindingCode::ExcessRu => "EXCESS_RU",
            FindingCode::ThroughputShortfall => "THROUGHPUT_SHORTFALL",
            FindingCode::MonotonicKey => "MONOTONIC_KEY",
            FindingCode::CollectionLimit => "COLLECTION_LIMIT",
            FindingCode::UnmappedValue => "UNMAPPED_VALUE",
        }
    }

    /// The severities it is raised with: one for most codes; `KEY_TOO_LONG` is a violation
    /// past 2,048 bytes and a warning past 101. The README's findings table states the same
    /// (a test holds the two, and the schema's codes, together).
    pub fn severities(self) -> &'static [Severity] {
        use Severity::{Info, Violation, Warning};
        match self {
            FindingCode::LogicalPartitionLimit
            | FindingCode::LogicalPartitionThroughput
            | FindingCode::InvalidKeyValue
            | FindingCode::CrossPartitionTransaction
            | FindingCode::CollectionLimit
            | FindingCode::UnmappedValue => &[Violation],
            FindingCode::KeyTooLong | FindingCode::MissingKey | FindingCode::KeyUpdated => {
                &[Violation, Warning]
            }
            FindingCode::LowCardinality
            | FindingCode::HotPartition
            | FindingCode::WriteHotspot
            | FindingCode::FanOutQueries
            | FindingCode::UnsafeNumber
            | FindingCode::ThroughputShortfall => &[Warning],
            FindingCode::ExcessRu => &[Warning, Info],
            FindingCode::MonotonicKey => &[Info],
        }
    }

    /// The code of a name (`--deny`), if it is one.
    pub fn parse(name: &str) -> Option<FindingCode> {
        FindingCode::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

impl std::fmt::Display for FindingCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a candidate is in a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Given with `--key` or `--layout`.
    #[default]
    Given,
    /// The design `check` gates.
    Declared,
    /// A global secondary index declared beside it.
    Index,
    /// Generated from the documents and the log.
    Generated,
}

/// The advice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recommendation {
    /// The recommended key.
    pub spec: String,
    /// Why, in one paragraph.
    pub reason: String,
    /// Why, in one line: what decided against the runner-up (its "Decided:" or "Tied:"
    /// sentence, led by the violations one when no candidate is free of them), else the
    /// paragraph's first sentence. The page's headline; not part of the JSON.
    #[serde(skip)]
    pub summary: String,
    /// A global secondary index for the reads the key fans out, proposed or weighed and
    /// declined (`null` when no read fans out, or with `--gsi off`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary_index: Option<SecondaryIndex>,
}

/// A global secondary index weighed for the recommended key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SecondaryIndex {
    /// The index container's key.
    pub key: KeyInfo,
    /// Whether it pays: the pair costs less than the single container.
    pub proposed: bool,
    /// The share of reads (weighted) that would move to it.
    pub queries_moved: f64,
    /// RU over the log the moved reads would save.
    pub ru_saved: f64,
    /// RU over the log of the index's writes (about one per source write).
    pub write_ru_added: f64,
    /// RU over the log of the change feed's reads on the source.
    pub change_feed_ru: f64,
    /// Storage of the index's copy at the target.
    pub storage_added_bytes: u64,
    /// USD a month for the single container.
    pub monthly_before: f64,
    /// USD a month for the container and its index (`null` without rates).
    pub monthly_after: Option<f64>,
    /// Why it is proposed or not.
    pub reason: String,
    /// `check`, for a declared index: the share of the reads' RU still spent by reads that
    /// visit every partition of the container serving them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fan_out_share: Option<f64>,
}

/// One candidate's physical partition map at the target (`analyze --explain`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplainReport {
    /// Version of this shape.
    pub schema_version: String,
    /// The key.
    pub key: KeyInfo,
    /// Container size projected onto.
    pub storage_bytes: u64,
    /// The partition map.
    pub map: PartitionMap,
    /// Labels of the logical partitions the map lists, by EPK (hex). Logical partitions
    /// without a label stand for many small values placed together (the projected tail).
    pub labels: BTreeMap<String, String>,
    /// A client-side layout: its collections' names, one per partition of the map.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub collections: Vec<String>,
    /// Where each value `--explain-value` asked about lands.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueLanding>,
    /// With a timeline, how the largest values grow month by month (the text formats
    /// show it after the map; JSON and HTML hold the map alone).
    #[serde(skip)]
    pub growth: Option<ValueGrowth>,
}

/// Where one value, or a hierarchical key's prefix, lands in the projected container.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueLanding {
    /// The value as asked (JSON text; a hash with `--redact`).
    pub value: String,
    /// Whether it is a prefix (fewer levels than the key): it spans an EPK range.
    pub prefix: bool,
    /// Its EPK (hex); a prefix's range starts here.
    pub epk: String,
    /// A prefix's range's exclusive end (hex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epk_max: Option<String>,
    /// The physical partitions it reaches: their places in the map (1-based).
    pub partitions: Vec<u64>,
    /// Projected logical partitions it holds (a value: 1, or 0 when the projection does
    /// not place it one by one).
    pub logical_partitions: u64,
    /// Their projected bytes.
    pub bytes: u64,
    /// Their projected items.
    pub items: u64,
    /// The largest of them, in bytes.
    pub largest_bytes: u64,
    /// What the sample holds of a value tracked one by one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample: Option<SampleFigures>,
    /// How its size at the target is projected, step by step, when the projection places
    /// it one by one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arithmetic: Option<ValueArithmetic>,
}

/// A value's documents and bytes in the sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleFigures {
    /// Documents.
    pub documents: u64,
    /// Their bytes (an upper bound for a heavy hitter counted since admission).
    pub bytes: u64,
}

/// A candidate for unit tests: warnings with the codes given, figures fixed.
#[cfg(test)]
pub(crate) mod testing {
    use std::collections::BTreeMap;

    use super::*;

    /// A target of 1 TB at 20,000 RU/s manual, list prices, the storage a default.
    pub fn target() -> TargetReport {
        TargetReport {
            storage_bytes: 1_000_000_000_000,
            throughput_ru: 20_000.0,
            throughput_mode: BillingMode::Manual,
            physical_partitions: 32,
            defaults: vec!["storage".to_owned()],
            sources: BTreeMap::new(),
            sample_ratio: None,
            prices: PricesReport {
                ru_hour_per_100: 0.008,
                gb_month: 0.25,
                regions: 1,
                source: "list".to_owned(),
                terms_per_document: 12.5,
                month: "730 hours: the log's 2 clock hour(s), each at its busiest window, repeated"
                    .to_owned(),
                log_hours: Some(2.0),
                ..PricesReport::default()
            },
            log_share: 1.0,
            sample: KindReport {
                kind: "snapshot".to_owned(),
                why: "inferred: the log writes 31% of its created bytes to values the sample never saw, as a uniform share leaves 30% unseen".to_owned(),
            },
            log_kind: Some(KindReport {
                kind: "requests".to_owned(),
                why: "the log is all the traffic (--log-share 1)".to_owned(),
            }),
            unit: None,
            retention: None,
            storage_default: None,
            timeline: None,
        }
    }

    pub fn candidate(spec: &str, findings: &[&str]) -> CandidateReport {
        CandidateReport {
            rank: 1,
            score: 87.25,
            exact_score: 87.25,
            hazard: false,
            components: BTreeMap::new(),
            key: KeyInfo {
                spec: spec.to_owned(),
                kind: "synthetic".to_owned(),
                definition: serde_json::json!({}),
            },
            cardinality: Cardinality {
                estimate: 1234,
                exact: false,
            },
            storage: StorageReport {
                largest_logical_bytes: 2_500_000_000,
                max_container_bytes: None,
                physical_skew: 1.08,
                physical_partitions: 32,
                new_values: None,
            },
            throughput: ThroughputReport {
                physical_skew: 1.2,
                usable_fraction: 0.5,
                write_spread: 0.9,
                busiest_share_by_window: vec![],
            },
            cost: CostReport {
                ru_per_operation: 4.25,
                efficiency: 0.5,
                required_ru: Some(12_345.0),
                required_ru_unknown: None,
                need_ru: Some(12_345.0),
                load_ru: Some(12_345.0),
                minimum_ru: 400.0,
                monthly: Monthly {
                    throughput: Some(720.95),
                    storage: 250.0,
                    total: 970.95,
                    currency: "USD".to_owned(),
                },
                needed: Bill {
                    ru: Some(12_345.0),
                    source: NEEDED_SOURCE.to_owned(),
                    monthly: Monthly {
                        throughput: Some(720.95),
                        storage: 250.0,
                        total: 970.95,
                        currency: "USD".to_owned(),
                    },
                },
                provisioned: None,
            },
            queries: QueryReport {
                single: 0.7,
                targeted: 0.25,
                fan_out: 0.05,
                avg_partitions: 1.8,
                reads: 10,
                writes: 0,
                writes_from_sample: true,
            },
            values: ValueCounts {
                documents: 10,
                missing: 0,
                invalid: 0,
                unsafe_numbers: 0,
                over_101_bytes: 0,
                over_2048_bytes: 0,
            },
            largest_values: vec![],
            findings: findings
                .iter()
                .map(|c| Finding {
                    code: FindingCode::parse(c).expect("a finding code"),
                    severity: Severity::Warning,
                    message: String::new(),
                })
                .collect(),
            origin: String::new(),
            role: Role::Given,
            partitions: None,
            timeline: None,
            redistribution: None,
        }
    }
}

/// The physical partitions of a container with their ranges, bytes and RU.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartitionMap {
    /// The Cosmos DB `partitionKey` object.
    pub definition: serde_json::Value,
    /// Provisioned throughput.
    pub throughput: crate::engine::Throughput,
    /// RU/s each physical partition gets.
    pub ru_per_partition: f64,
    /// Physical partitions in EPK order.
    pub partitions: Vec<PhysicalView>,
}

/// One physical partition.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhysicalView {
    /// Its id.
    pub id: u64,
    /// The partition it split from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<u64>,
    /// Inclusive start of its EPK range (hex).
    pub min: String,
    /// Exclusive end of its EPK range (hex).
    pub max: String,
    /// Bytes stored.
    pub bytes: u64,
    /// Items stored.
    pub items: u64,
    /// Logical partitions it holds.
    pub logical_partitions: u64,
    /// RU charged to it.
    pub ru: f64,
    /// Its largest logical partitions by bytes.
    pub largest: Vec<LogicalView>,
}

/// One logical partition.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogicalView {
    /// EPK (hex).
    pub epk: String,
    /// Bytes stored.
    pub bytes: u64,
    /// Items stored.
    pub items: u64,
    /// RU charged.
    pub ru: f64,
}

/// How a candidate's largest values grow month by month (`--explain` with a timeline).
#[derive(Clone, Debug, PartialEq)]
pub struct ValueGrowth {
    /// The key.
    pub spec: String,
    /// What the months start from.
    pub basis: TimelineBasisReport,
    /// The values followed (the largest after the last month), labels as reported.
    pub values: Vec<String>,
    /// One row a month, from month 0.
    pub months: Vec<GrowthMonth>,
}

/// One month of a [`ValueGrowth`].
#[derive(Clone, Debug, PartialEq)]
pub struct GrowthMonth {
    /// Months after the first day.
    pub month: i8,
    /// Its day, `YYYY-MM-DD`.
    pub on: String,
    /// The container's bytes.
    pub container_bytes: u64,
    /// Each followed value's bytes, in the order of [`ValueGrowth::values`].
    pub bytes: Vec<u64>,
}
