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
            skip_invalid,
            max_ops,
        };
        return monitor::read_monitor(&name, reader, &m);
    }
    ndjson::ndjson(&name, reader, paths, skip_invalid, max_ops)
}
