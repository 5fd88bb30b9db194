//! Query parameters: the `[{"name": "@x", "value": ...}]` list sent with a query.

use std::collections::BTreeMap;

use serde_json::Value;

/// Parameter values by name, `@` included.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parameters {
    values: BTreeMap<String, Value>,
}

/// A parameter list that is not `[{"name": "@x", "value": ...}, ...]`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParameterError {
    /// Neither a list of `{name, value}` objects, nor an object, nor `null`.
    #[error("parameters must be a list of {{\"name\": \"@x\", \"value\": ...}} objects")]
    NotAList,
    /// One entry of the list is malformed.
    #[error("parameter {index}: {reason}")]
    BadEntry {
        /// 0-based position in the list.
        index: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// `@` in front of a name that lacks it.
fn with_at(name: &str) -> String {
    if name.starts_with('@') {
        name.to_owned()
    } else {
        format!("@{name}")
    }
}

impl Parameters {
    /// No parameters.
    pub fn new() -> Parameters {
        Parameters::default()
    }

    /// Sets a parameter; a name without `@` gets one.
    pub fn insert(&mut self, name: &str, value: Value) {
        self.values.insert(with_at(name), value);
    }

    /// The value of parameter `name` (with its `@`).
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }

    /// Reads the list form `[{"name": "@x", "value": 1}]`; also accepts `{"@x": 1}` and
    /// `null` (no parameters).
    pub fn from_json(json: &Value) -> Result<Parameters, ParameterError> {
        let mut params = Parameters::new();
        match json {
            Value::Null => {}
            Value::Object(map) => map.iter().for_each(|(k, v)| params.insert(k, v.clone())),
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    let bad = |reason| ParameterError::BadEntry { index, reason };
                    let name = item.get("name").ok_or(bad("no \"name\""))?;
                    let name = name.as_str().ok_or(bad("\"name\" is not a string"))?;
                    let value = item.get("value").ok_or(bad("no \"value\""))?;
                    params.insert(name, value.clone());
                }
            }
            _ => return Err(ParameterError::NotAList),
        }
        Ok(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn list_object_and_null_forms() {
        let p = Parameters::from_json(
            &json!([{"name": "@a", "value": 1}, {"name": "b", "value": null}]),
        )
        .unwrap();
        assert_eq!(p.get("@a"), Some(&json!(1)));
        assert_eq!(p.get("@b"), Some(&json!(null)));
        let p = Parameters::from_json(&json!({"@x": "y"})).unwrap();
        assert_eq!(p.get("@x"), Some(&json!("y")));
        assert_eq!(
            Parameters::from_json(&json!(null)).unwrap(),
            Parameters::new()
        );
    }

    #[test]
    fn malformed_lists_say_which_entry() {
        assert_eq!(
            Parameters::from_json(&json!("x")),
            Err(ParameterError::NotAList)
        );
        let e = Parameters::from_json(&json!([{"name": "@a", "value": 1}, {"name": "@b"}]))
            .unwrap_err();
        assert_eq!(e.to_string(), "parameter 1: no \"value\"");
        let e = Parameters::from_json(&json!([{"value": 1}])).unwrap_err();
        assert_eq!(e.to_string(), "parameter 0: no \"name\"");
    }
}
