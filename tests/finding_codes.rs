//! The finding codes are a contract kept in three places that must agree: the code
//! (`FindingCode::ALL`, with each code's severities), the report schema (the enum of
//! `findings[].code`) and the README's findings table (code and severity). A code added to
//! or removed from any one of them fails here until the other two follow.

use std::collections::BTreeMap;

use pkadvisor::report::model::{FindingCode, Severity};
use serde_json::Value;

/// Each code with its severities, as `"violation"`, `"warning"` or `"info"`.
type Codes = BTreeMap<String, Vec<String>>;

fn severity_name(s: Severity) -> String {
    serde_json::to_value(s)
        .expect("a severity serialises")
        .as_str()
        .expect("as a string")
        .to_owned()
}

/// `FindingCode::ALL`, each code with the severities it is raised with.
fn in_the_code() -> Codes {
    let codes: Codes = FindingCode::ALL
        .iter()
        .map(|c| {
            let severities = c.severities().iter().map(|&s| severity_name(s)).collect();
            (c.as_str().to_owned(), severities)
        })
        .collect();
    assert_eq!(
        codes.len(),
        FindingCode::ALL.len(),
        "a code listed twice in ALL"
    );
    codes
}

fn schema() -> Value {
    serde_json::from_str(include_str!("../schema/report.schema.json")).expect("schema is JSON")
}

/// The strings of the enum at `pointer` in the report schema.
fn schema_enum(pointer: &str) -> Vec<String> {
    let schema = schema();
    let values = schema
        .pointer(pointer)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("the schema has an enum at {pointer}"));
    values
        .iter()
        .map(|v| v.as_str().expect("a string").to_owned())
        .collect()
}

const FINDING: &str = "/$defs/candidate/properties/findings/items/properties";

/// The README's findings table: the rows of the first table after the `## Findings`
/// heading, each code (in backquotes) with its severities (`violation / warning`).
fn in_the_readme() -> Codes {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(path).expect("README.md");
    let section = readme
        .split_once("\n## Findings\n")
        .expect("the README has a `## Findings` section")
        .1;
    let rows: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(
        rows.first()
            .is_some_and(|h| h.starts_with("| code | severity |")),
        "the findings table starts with `| code | severity |`: {rows:?}"
    );
    let mut codes = Codes::new();
    for row in &rows[2..] {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let code = cells[1].trim_matches('`').to_owned();
        let severities = cells[2].split(" / ").map(str::to_owned).collect();
        assert!(
            codes.insert(code, severities).is_none(),
            "a code listed twice in the README: {row}"
        );
    }
    codes
}

/// What `a` has and `b` lacks, by name.
fn missing(a: &Codes, b: &[String]) -> Vec<String> {
    a.keys().filter(|c| !b.contains(c)).cloned().collect()
}

#[test]
fn the_schema_lists_exactly_the_codes_of_the_code() {
    let code = in_the_code();
    let schema = schema_enum(&format!("{FINDING}/code/enum"));
    let mut unique = schema.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        schema.len(),
        "a code listed twice in the schema"
    );
    assert_eq!(
        missing(&code, &schema),
        Vec::<String>::new(),
        "codes in FindingCode::ALL that schema/report.schema.json lacks"
    );
    let names: Vec<String> = code.keys().cloned().collect();
    let extra: Vec<&String> = schema.iter().filter(|c| !names.contains(c)).collect();
    assert_eq!(
        extra,
        Vec::<&String>::new(),
        "codes in schema/report.schema.json that FindingCode::ALL lacks"
    );
}

#[test]
fn the_readme_lists_exactly_the_codes_of_the_code_with_their_severities() {
    let code = in_the_code();
    let readme = in_the_readme();
    let names = |c: &Codes| c.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        missing(&code, &names(&readme)),
        Vec::<String>::new(),
        "codes in FindingCode::ALL that the README's findings table lacks"
    );
    assert_eq!(
        missing(&readme, &names(&code)),
        Vec::<String>::new(),
        "codes in the README's findings table that FindingCode::ALL lacks"
    );
    assert_eq!(
        readme, code,
        "severities: the README's table against FindingCode::severities"
    );
}

#[test]
fn the_schema_lists_exactly_the_severities_codes_are_raised_with() {
    let mut raised: Vec<String> = FindingCode::ALL
        .iter()
        .flat_map(|c| c.severities().iter().map(|&s| severity_name(s)))
        .collect();
    raised.sort();
    raised.dedup();
    let mut schema = schema_enum(&format!("{FINDING}/severity/enum"));
    schema.sort();
    assert_eq!(schema, raised);
}

#[test]
fn each_code_is_serialised_parsed_and_printed_by_one_name() {
    for c in FindingCode::ALL {
        assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        assert_eq!(c.to_string(), c.as_str());
        assert_eq!(FindingCode::parse(c.as_str()), Some(c));
    }
}
