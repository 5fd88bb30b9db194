//! Query logs, read into operations: what the workload is, before any candidate key.
//!
//! * [`op`]: the operations, each reduced to what routing needs (a query's key constraints,
//!   a point operation's id and known values, a written document's fields);
//! * [`read`]: what every reader shares: the [`Log`] it fills (sampled past the memory
//!   allowance), the limits on a line and a request, positioned errors, the query parser;
//! * [`ndjson`]: the NDJSON log (or plain `SELECT` lines);
//! * [`monitor`]: an Azure Monitor export of Cosmos DB's diagnostic logs, whose rows
//!   [`rows`] reads from each shape (JSON arrays, JSON lines, CSV).
//!
//! Which reader a log needs is chosen here, by `--queries-format` or by the log's first
//! bytes ([`read_any`]). Replaying a log per candidate is the replay's, a room above this
//! one.

pub mod monitor;
pub mod ndjson;
pub mod op;
pub mod read;
pub mod rows;

use std::io::BufReader;

use crate::engine::KeyPath;
use crate::input::Source;

pub use ndjson::read_log;
pub use op::{OpKind, Operation};
pub use read::{Log, LogError};

/// Bytes of a log read to recognise its format.
const SNIFF_BYTES: u64 = 8 << 10;

/// How a query log is written (`--queries-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Recognised by its first bytes.
    #[default]
    Auto,
    /// The NDJSON log (or plain `SELECT` lines).
    Ndjson,
    /// An Azure Monitor export (see [`monitor`]).
    AzureMonitor,
}

/// How to read a log besides its paths and limits.
#[derive(Clone, Debug, Default)]
pub struct LogOptions {
    /// Its format.
    pub format: LogFormat,
    /// The key an Azure Monitor log's `PartitionKey` values belong to.
    pub current_key: Option<crate::key::KeySpec>,
    /// The one container of an Azure Monitor log of several whose rows are read.
    pub container: Option<LogContainer>,
}

/// One container of an Azure Monitor log: `DATABASE/COLLECTION`, or a collection name
/// alone, and who named it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogContainer {
    /// The database, when named.
    pub database: Option<String>,
    /// The collection (container).
    pub collection: String,
    /// Who named it (`--log-container`, the container `check --container` declares).
    pub named_by: String,
}

impl LogContainer {
    /// `DB/COLL` or `COLL`, named by `named_by`.
    pub fn parse(text: &str, named_by: &str) -> Result<LogContainer, String> {
        let (database, collection) = match text.split_once('/') {
            Some((db, coll)) => (Some(db.to_owned()), coll.to_owned()),
            None => (None, text.to_owned()),
        };
        if collection.is_empty() || collection.contains('/') || database.as_deref() == Some("") {
            return Err(format!(
                "{named_by} {text:?}: expected DATABASE/COLLECTION (or a collection name alone)"
            ));
        }
        Ok(LogContainer {
            database,
            collection,
            named_by: named_by.to_owned(),
        })
    }

    /// Whether rows of `database`/`collection` are this container's.
    pub fn matches(&self, database: &str, collection: &str) -> bool {
        self.collection == collection && self.database.as_deref().is_none_or(|d| d == database)
    }
}

impl std::fmt::Display for LogContainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.database {
            Some(db) => write!(f, "{db}/{}", self.collection),
            None => f.write_str(&self.collection),
        }
    }
}

/// Reads a log of any format (see [`read_log`]).
pub fn read_any(
    source: &Source,
    paths: &[KeyPath],
    skip_invalid: bool,
    max_ops: usize,
    opts: &LogOptions,
) -> Result<Log, anyhow::Error> {
    use std::io::Read as _;
    let name = source.name().to_owned();
    let mut opened = source.open()?;
    // The first bytes tell the format; a reader may hand them over a few at a time.
    let mut head = Vec::new();
    (&mut opened.reader)
        .take(SNIFF_BYTES)
        .read_to_end(&mut head)
        .map_err(|e| anyhow::anyhow!("{name}: read error: {e}"))?;
    let from_monitor = match opts.format {
        LogFormat::Ndjson => false,
        LogFormat::AzureMonitor => true,
        LogFormat::Auto => monitor::looks_like_monitor(&head),
    };
    let reader = BufReader::with_capacity(1 << 16, std::io::Cursor::new(head).chain(opened.reader));
    if from_monitor {
        let m = monitor::MonitorOptions {
            paths,
            current_key: opts.current_key.as_ref(),
            container: opts.container.as_ref(),
            skip_invalid,
            max_ops,
        };
        return monitor::read_monitor(&name, reader, &m);
    }
    let mut log = ndjson::ndjson(&name, reader, paths, skip_invalid, max_ops)?;
    if let Some(c) = opts.container.as_ref().filter(|c| c.named_by == FLAG) {
        log.warnings.push(format!(
            "{FLAG} {c}: {name} is an operations log, which names no containers: every line is read"
        ));
    }
    Ok(log)
}

/// The flag that names a log's container.
pub const FLAG: &str = "--log-container";
