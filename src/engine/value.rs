//! Partition-key component values: the JSON scalars Cosmos DB accepts, plus `undefined`
//! for a path that is absent from a document.

use std::fmt;

/// One partition-key component, borrowed from wherever the value lives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PkValueRef<'a> {
    /// The path is absent from the document.
    Undefined,
    /// JSON `null`.
    Null,
    /// JSON `true` / `false`.
    Bool(bool),
    /// Any JSON number, as the IEEE-754 double the SDKs convert it to.
    Number(f64),
    /// A JSON string, unescaped.
    Str(&'a str),
}

/// One partition-key component, owned.
#[derive(Clone, Debug, PartialEq)]
pub enum PkValue {
    /// The path is absent from the document.
    Undefined,
    /// JSON `null`.
    Null,
    /// JSON `true` / `false`.
    Bool(bool),
    /// Any JSON number, as the IEEE-754 double the SDKs convert it to.
    Number(f64),
    /// A JSON string, unescaped.
    String(String),
}

impl PkValue {
    /// Borrows this value.
    pub fn as_ref(&self) -> PkValueRef<'_> {
        match self {
            PkValue::Undefined => PkValueRef::Undefined,
            PkValue::Null => PkValueRef::Null,
            PkValue::Bool(b) => PkValueRef::Bool(*b),
            PkValue::Number(n) => PkValueRef::Number(*n),
            PkValue::String(s) => PkValueRef::Str(s),
        }
    }

    /// Converts a JSON value. Objects and arrays are not valid key components: `None`.
    ///
    /// Integers become doubles the way the SDKs convert them (round to nearest, ties to
    /// even); an integer zero is `+0.0`, while a float `-0.0` keeps its sign.
    pub fn from_json(v: &serde_json::Value) -> Option<PkValue> {
        Some(match v {
            serde_json::Value::Null => PkValue::Null,
            serde_json::Value::Bool(b) => PkValue::Bool(*b),
            serde_json::Value::Number(n) => PkValue::Number(number_to_f64(n)),
            serde_json::Value::String(s) => PkValue::String(s.clone()),
            serde_json::Value::Array(_) | serde_json::Value::Object(_) => return None,
        })
    }

    /// The value as JSON (`undefined` has no JSON form and becomes `None`).
    pub fn to_json(&self) -> Option<serde_json::Value> {
        self.as_ref().to_json()
    }

    /// Parses a JSON literal (`"redmond"`, `42`, `-0.0`, `true`, `null`) or the word
    /// `undefined`. Numbers are read from their text, so any precision rounds once, to
    /// nearest; an integer literal `-0` is `+0.0` as the SDKs' integer conversion gives.
    pub fn parse_literal(text: &str) -> Result<PkValue, String> {
        let t = text.trim();
        if t == "undefined" {
            return Ok(PkValue::Undefined);
        }
        let v: serde_json::Value = serde_json::from_str(t).map_err(|e| {
            let hint = if t.starts_with('"') {
                "a string is one JSON string, its inner quotes escaped (\\\")".to_owned()
            } else {
                // The text as a JSON string, quoted for a POSIX shell.
                let json = serde_json::Value::from(text).to_string();
                format!("strings need quotes: '{}'", json.replace('\'', "'\\''"))
            };
            let e = crate::json_error::message(&e);
            format!("{text:?} is not a JSON literal ({e}); {hint}")
        })?;
        match v {
            serde_json::Value::Number(_) => Ok(PkValue::Number(parse_number_text(t))),
            serde_json::Value::Array(_) | serde_json::Value::Object(_) => Err(format!(
                "{text:?} is not a valid partition-key value: keys are strings, numbers, booleans, null or undefined, never objects or arrays"
            )),
            other => Ok(PkValue::from_json(&other).expect("scalar")),
        }
    }
}

/// The double of a JSON number's text: integer literals convert as integers (`-0` is
/// `+0.0`), others keep their sign (`-0.0`).
pub fn parse_number_text(t: &str) -> f64 {
    let n: f64 = t.parse().unwrap_or(f64::NAN);
    let integer = !t.contains(['.', 'e', 'E']);
    if integer && n == 0.0 { 0.0 } else { n }
}

impl PkValueRef<'_> {
    /// Copies this value into an owned [`PkValue`].
    pub fn to_owned_value(self) -> PkValue {
        match self {
            PkValueRef::Undefined => PkValue::Undefined,
            PkValueRef::Null => PkValue::Null,
            PkValueRef::Bool(b) => PkValue::Bool(b),
            PkValueRef::Number(n) => PkValue::Number(n),
            PkValueRef::Str(s) => PkValue::String(s.to_owned()),
        }
    }

    /// The value as JSON (`undefined` has no JSON form and becomes `None`).
    pub fn to_json(self) -> Option<serde_json::Value> {
        Some(match self {
            PkValueRef::Undefined => return None,
            PkValueRef::Null => serde_json::Value::Null,
            PkValueRef::Bool(b) => serde_json::Value::Bool(b),
            PkValueRef::Number(n) => serde_json::Number::from_f64(n)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            PkValueRef::Str(s) => serde_json::Value::String(s.to_owned()),
        })
    }
}

/// Converts a serde_json number to the double the SDKs hash.
pub fn number_to_f64(n: &serde_json::Number) -> f64 {
    if let Some(u) = n.as_u64() {
        u as f64
    } else if let Some(i) = n.as_i64() {
        i as f64
    } else {
        n.as_f64().unwrap_or(f64::NAN)
    }
}

/// Whether a number lies beyond ±2^53, where doubles can no longer tell integers apart.
pub fn is_unsafe_number(n: f64) -> bool {
    n.abs() > 9_007_199_254_740_992.0
}

impl fmt::Display for PkValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PkValueRef::Undefined => f.write_str("undefined"),
            other => match other.to_json() {
                Some(v) => write!(f, "{v}"),
                None => f.write_str("undefined"),
            },
        }
    }
}

impl fmt::Display for PkValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_ref().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_parse_like_the_sdks_convert() {
        assert_eq!(PkValue::parse_literal("undefined"), Ok(PkValue::Undefined));
        assert_eq!(PkValue::parse_literal(" null "), Ok(PkValue::Null));
        assert_eq!(
            PkValue::parse_literal("\"a\\u0041\""),
            Ok(PkValue::String("aA".into()))
        );
        let n = |t| match PkValue::parse_literal(t) {
            Ok(PkValue::Number(n)) => n,
            other => panic!("{other:?}"),
        };
        assert_eq!(n("-0").to_bits(), 0.0f64.to_bits());
        assert_eq!(n("-0.0").to_bits(), (-0.0f64).to_bits());
        assert_eq!(n("9007199254740993"), 9007199254740992.0);
        assert_eq!(n("18446744073709551617"), 1.8446744073709552e19);
        assert!(PkValue::parse_literal("{}").is_err());
        assert!(PkValue::parse_literal("[1]").is_err());
        assert!(PkValue::parse_literal("redmond").is_err());
    }

    #[test]
    fn unsafe_numbers_start_past_two_to_the_53() {
        assert!(!is_unsafe_number(9007199254740992.0));
        assert!(is_unsafe_number(9007199254740994.0));
        assert!(is_unsafe_number(-1e300));
    }
}
