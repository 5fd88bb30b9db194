//! Which reader a query log needs: the NDJSON log ([`super::log`]) or an Azure Monitor
//! export ([`super::monitor`]), by `--queries-format` or by the log's first bytes.

use std::io::BufReader;

use super::log::{Log, ndjson};
use crate::engine::KeyPath;
use crate::input::Source;

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
    /// An Azure Monitor export (see [`super::monitor`]).
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

/// Reads a log of any format (see [`super::log::read_log`]).
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
    let monitor = match opts.format {
        LogFormat::Ndjson => false,
        LogFormat::AzureMonitor => true,
        LogFormat::Auto => super::monitor::looks_like_monitor(&head),
    };
    let reader = BufReader::with_capacity(1 << 16, std::io::Cursor::new(head).chain(opened.reader));
    if monitor {
        let m = super::monitor::MonitorOptions {
            paths,
            current_key: opts.current_key.as_ref(),
            skip_invalid,
            max_ops,
        };
        return super::monitor::read_monitor(&name, reader, &m);
    }
    ndjson(&name, reader, paths, skip_invalid, max_ops)
}
