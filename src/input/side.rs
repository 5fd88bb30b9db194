//! Small side files read whole (infrastructure code, parameters, lookup maps, indexing
//! policies, keys), each bounded so that a forged one ends in an error, not in memory.

use anyhow::{Result, anyhow, bail};

/// The most an infrastructure file or a lookup map may hold: 64 MiB (they are kilobytes).
pub const MAX_SIDE_FILE_BYTES: u64 = 64 << 20;

/// Reads a small side file (infrastructure, lookup map) whole, refusing more than 64 MiB;
/// `what` says what it should be.
pub fn read_capped(file: &str, what: &str) -> Result<String> {
    let bytes = read_capped_bytes(file, file, MAX_SIDE_FILE_BYTES, what)?;
    String::from_utf8(bytes).map_err(|e| anyhow!("{file}: not UTF-8 text ({e})"))
}

/// The bytes of `file` (`name` in messages), refusing more than `cap` (whole MiB) as not
/// `what`.
pub fn read_capped_bytes(name: &str, file: &str, cap: u64, what: &str) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(cap + 1).read_to_end(&mut bytes))
        .map_err(|e| anyhow!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > cap {
        bail!("{name}: more than {} MiB: not {what}", cap >> 20);
    }
    Ok(bytes)
}
