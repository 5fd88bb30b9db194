//! Small side files read whole (infrastructure code, parameters, lookup maps, indexing
//! policies, keys), each bounded so that a forged one ends in an error, not in memory.

use anyhow::{Result, anyhow, bail};

/// The most an infrastructure file or a lookup map may hold: 64 MiB (they are kilobytes).
pub const MAX_SIDE_FILE_BYTES: u64 = 64 << 20;

/// Reads a small side file (infrastructure, lookup map) whole, refusing more than 64 MiB;
/// `what` says what it should be.
pub fn read_capped(file: &str, what: &str) -> Result<String> {
    let bytes = read_capped_bytes(file, file, MAX_SIDE_FILE_BYTES, what)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let (line, column) = line_column(&bytes[..at]);
        anyhow!(
            "{file}:{line}:{column}: invalid UTF-8 (byte 0x{:02X}); expected {what} in UTF-8",
            bytes[at]
        )
    })
}

/// The 1-based line and column just after `text`, valid UTF-8 up to where it was cut.
/// Columns count bytes, as the document reader's and JSON's errors do, and a leading
/// byte-order mark is not counted (editors do not show it).
fn line_column(text: &[u8]) -> (usize, usize) {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let line_start = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = 1 + text.iter().filter(|&&b| b == b'\n').count();
    (line, 1 + text.len() - line_start)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_named_by_line_and_column() {
        let dir = std::env::temp_dir().join(format!("pkadvisor-side-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("main.tf");
        std::fs::write(&file, b"a = 1\nname = \"\xc3\xa9t\xff\"\n").unwrap();
        let name = file.to_str().unwrap();
        let e = read_capped(name, "a Terraform file")
            .unwrap_err()
            .to_string();
        // Line 2; `name = "ét` is 11 bytes (é is two), so the bad byte is the 12th.
        assert_eq!(
            e,
            format!("{name}:2:12: invalid UTF-8 (byte 0xFF); expected a Terraform file in UTF-8")
        );
    }

    #[test]
    fn columns_count_bytes_without_the_byte_order_mark() {
        assert_eq!(line_column(b"\xEF\xBB\xBFab"), (1, 3));
        assert_eq!(line_column(b"\xEF\xBB\xBFa\nbc"), (2, 3));
        assert_eq!(line_column("é".as_bytes()), (1, 3));
        assert_eq!(line_column(b""), (1, 1));
    }
}
