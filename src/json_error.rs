//! serde_json's syntax errors as the tool reports them: a 1-based line and column, and the
//! message without the position serde_json appends to it (which says column 0 at a line's
//! start, before its first character, and would repeat what the prefix already says).

/// The error's 1-based line and column.
pub fn position(e: &serde_json::Error) -> (usize, usize) {
    (e.line().max(1), e.column().max(1))
}

/// The error's message without serde_json's " at line L column C".
pub fn message(e: &serde_json::Error) -> String {
    strip_position(&e.to_string()).to_owned()
}

/// The JSON of `file`'s `text` (a byte-order mark skipped), or an error naming the file,
/// line and column, what went wrong and what was `expected` there.
pub fn parse_file<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
    expected: &str,
) -> Result<T, String> {
    serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        let (line, column) = position(&e);
        format!(
            "{file}:{line}:{column}: not JSON ({}); expected {expected}",
            message(&e)
        )
    })
}

/// `message` without a trailing " at line L column C".
pub fn strip_position(message: &str) -> &str {
    message.rsplit_once(" at line ").map_or(message, |(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_start_is_column_one_and_the_message_has_no_position() {
        let e = serde_json::from_str::<serde_json::Value>("{\"a\": 1,\n").unwrap_err();
        assert_eq!(position(&e), (2, 1));
        assert_eq!(message(&e), "EOF while parsing a value");
        let e = serde_json::from_str::<serde_json::Value>("[1, x]").unwrap_err();
        assert_eq!(position(&e), (1, 5));
        assert_eq!(message(&e), "expected value");
    }
}
