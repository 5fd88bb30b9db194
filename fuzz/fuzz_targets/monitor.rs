//! Arbitrary bytes as an Azure Monitor export, in every shape the reader takes: a JSON array
//! (or several), JSON lines, CSV with a header, `AzureDiagnostics` rows, storage-account
//! lines (`PT1H.json`) and Event Hubs `{"records": [...]}`. The first byte picks the knobs:
//! a shape to wrap the rest in (as it is; each line a record of an Event Hubs batch; each
//! line a storage-account row's `properties`; CSV under a resource-specific header), the
//! current key, `--skip-invalid`, a small operation allowance (so that sampling runs) and
//! a container to read of several (`--log-container db/coll`).
//!
//! Besides not crashing: recognising the format never panics; reading is deterministic; an
//! error names the file and a line; what is read stays within what the rows allow.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pkadvisor::engine::KeyPath;
use pkadvisor::key::KeySpec;
use pkadvisor::log::LogContainer;
use pkadvisor::log::monitor::{MonitorOptions, looks_like_monitor, read_monitor};

/// The rest of the input as the shape `knobs` picks.
fn shaped(knobs: u8, text: &[u8]) -> Vec<u8> {
    let lines = || text.split(|b| *b == b'\n');
    let mut out = Vec::new();
    match knobs & 0b11 {
        0 => out.extend_from_slice(text),
        1 => {
            for line in lines() {
                out.extend_from_slice(b"{\"records\": [");
                out.extend_from_slice(line);
                out.extend_from_slice(b"]}\n");
            }
        }
        2 => {
            for line in lines() {
                out.extend_from_slice(
                    b"{\"time\":\"2026-11-15T09:00:00Z\",\"category\":\"DataPlaneRequests\",\"operationName\":\"Read\",\"properties\":",
                );
                out.extend_from_slice(line);
                out.extend_from_slice(b"}\n");
            }
        }
        _ => {
            out.extend_from_slice(b"TimeGenerated [UTC],Type,ActivityId,CorrelatedActivityId,OperationName,RequestCharge,StatusCode,QueryText,PartitionKey,SizeKb,PartitionKeyRangeId\n");
            out.extend_from_slice(text);
        }
    }
    out
}

fn outcome(log: &[u8], opts: &MonitorOptions<'_>) -> String {
    match read_monitor("fuzz", log, opts) {
        Ok(log) => {
            let seen = log
                .monitor
                .as_ref()
                .expect("an export's log says what it saw");
            assert!(log.ops.len() as u64 <= log.read);
            assert!(seen.requests <= seen.rows && seen.throttled <= seen.requests);
            assert!(seen.largest_partitions.len() <= 20);
            assert!(
                log.ops
                    .iter()
                    .all(|o| o.ru.is_none_or(|r| (0.0..=1e6).contains(&r)))
            );
            format!("{:?} {:?} {:?}", log.ops, seen, log.warnings)
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz:"), "{message}");
            format!("error: {message}")
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, text)) = data.split_first() else {
        return;
    };
    let log = shaped(knobs, text);
    let _ = looks_like_monitor(&log[..log.len().min(8 << 10)]);
    let _ = looks_like_monitor(&log);
    let key = match knobs >> 2 & 0b11 {
        0 => None,
        1 => Some("/tenantId"),
        2 => Some("/tenantId,/userId"),
        _ => Some("/a,/b,/c"),
    };
    let key = key.map(|k| KeySpec::parse(k).expect("a valid spec"));
    let paths: Vec<KeyPath> = ["/tenantId", "/userId"]
        .iter()
        .map(|p| KeyPath::parse(p).expect("a valid path"))
        .collect();
    // A log of several containers is read for one of them (`--log-container db/coll`).
    let container = (knobs & 0x40 != 0)
        .then(|| LogContainer::parse("db/coll", "fuzz").expect("a valid container"));
    let opts = MonitorOptions {
        paths: &paths,
        current_key: key.as_ref(),
        container: container.as_ref(),
        skip_invalid: knobs & 0x10 != 0,
        max_ops: if knobs & 0x20 != 0 { 4 } else { 10_000 },
    };
    let first = outcome(&log, &opts);
    assert_eq!(outcome(&log, &opts), first, "reading is deterministic");
});
