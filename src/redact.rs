//! Redaction: stable stand-ins for key values that must not leave the machine
//! (`--redact`), plain or keyed. Every label a report shows, of every source (documents'
//! values, an Azure Monitor log's partitions, layout bounds and collection names), takes
//! [`redact`] or [`hider`] on its way into the report.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::murmur::murmur3_x64_128;

/// Whether the run redacts (`--redact`): set once from the flags, read by every message
/// that names a value it read (see [`in_message`]).
static MESSAGES: AtomicBool = AtomicBool::new(false);

/// Redacts the values errors and warnings name from now on (`--redact`).
pub fn redact_messages(on: bool) {
    MESSAGES.store(on, Ordering::Relaxed);
}

/// A value an error or a warning names (a log's `PartitionKey` cell, a lookup map's
/// value): itself, or under `--redact` its stable hash, as reports show it. Every message
/// that quotes a value it read takes this.
pub fn in_message(value: &str) -> String {
    match MESSAGES.load(Ordering::Relaxed) {
        true => redact(value),
        false => value.to_owned(),
    }
}

/// A stable stand-in for a key value that must not leave the machine.
pub fn redact(label: &str) -> String {
    let (h1, _) = murmur3_x64_128(label.as_bytes());
    format!("\"#{:012x}\"", h1 >> 16)
}

/// [`redact`] keyed with `key`: without the key, a guessed value (a tenant's name) cannot be
/// confirmed by hashing it. MurmurHash3 of the key, a zero byte and the value: it stops
/// guessing, not an attacker holding many known pairs (it is not a cryptographic MAC).
pub fn redact_keyed(label: &str, key: &[u8]) -> String {
    if key.is_empty() {
        return redact(label);
    }
    let mut bytes = Vec::with_capacity(key.len() + 1 + label.len());
    bytes.extend_from_slice(key);
    bytes.push(0);
    bytes.extend_from_slice(label.as_bytes());
    let (h1, _) = murmur3_x64_128(&bytes);
    format!("\"#{:012x}\"", h1 >> 16)
}

/// What shows a value in a name (a collection's, a range's bounds): with `redact` its
/// stable hash, else itself, cut past [`crate::stats::MAX_LABEL_BYTES`] as values are.
pub fn hider(redact: bool) -> impl Fn(&str) -> String {
    move |v: &str| match redact {
        true => self::redact(v).trim_matches('"').to_owned(),
        false => crate::stats::cut_label(v),
    }
}
