//! Redaction: stable stand-ins for key values that must not leave the machine
//! (`--redact`), plain or keyed.

use crate::engine::murmur::murmur3_x64_128;

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

/// What shows a value in a name: itself, or with `redact` its stable hash.
pub fn hider(redact: bool) -> impl Fn(&str) -> String {
    move |v: &str| match redact {
        true => self::redact(v).trim_matches('"').to_owned(),
        false => v.to_owned(),
    }
}
