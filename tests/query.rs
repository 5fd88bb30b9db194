use pkadvisor::engine::PkValue;
use pkadvisor::query::{
    Conjunct, Constraints, MAX_CONJUNCTS, Parameters, ParseErrorKind, QueryWarning, analyze, parse,
};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

/// The 152 real query texts in `../shared/nosql-queries.ndjson` (from the Cosmos DB query
/// samples) all parse. Skipped, with a note, where the shared folder is absent.
#[test]
fn shared_query_corpus_parses() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/nosql-queries.ndjson");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} is absent; corpus test skipped", path.display());
        return;
    };
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
        let sql = record["sql"].as_str().expect("corpus line has sql");
        count += 1;
        match parse(sql) {
            Ok(query) => {
                let printed = query.to_string();
                if parse(&printed).as_ref() != Ok(&query) {
                    failures.push(format!("printed form parses differently: {printed}\n"));
                }
            }
            Err(e) => failures.push(format!("{e}\n{sql}\n")),
        }
    }
    assert_eq!(count, 152);
    assert!(
        failures.is_empty(),
        "{} of {count} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One case of `tests/data/queries.txt`.
struct Case {
    name: String,
    params: Parameters,
    sql: String,
    expected: String,
    shape: Option<String>,
    warnings: Vec<String>,
}

fn written_cases() -> Vec<Case> {
    let text = include_str!("data/queries.txt");
    let blocks = text.split("\n### ").skip(1);
    blocks.map(parse_case).collect()
}

fn parse_case(block: &str) -> Case {
    let mut lines = block.lines();
    let name = lines.next().unwrap().to_owned();
    let mut case = Case {
        name,
        params: Parameters::new(),
        sql: String::new(),
        expected: String::new(),
        shape: None,
        warnings: Vec::new(),
    };
    for line in lines {
        if let Some(json) = line.strip_prefix("params: ") {
            case.params = Parameters::from_json(&serde_json::from_str(json).unwrap()).unwrap();
        } else if let Some(e) = line.strip_prefix("=> ") {
            case.expected = e.to_owned();
        } else if let Some(s) = line.strip_prefix("shape: ") {
            case.shape = Some(s.to_owned());
        } else if let Some(w) = line.strip_prefix("warn: ") {
            case.warnings.push(w.to_owned());
        } else if case.expected.is_empty() {
            case.sql.push_str(line);
            case.sql.push('\n');
        }
    }
    assert!(
        !case.expected.is_empty(),
        "case {:?} has no '=> ' line",
        case.name
    );
    case
}

fn check_case(case: &Case) -> Result<(), String> {
    let x = analyze(&case.sql, &case.params).map_err(|e| format!("does not parse: {e}"))?;
    let got = x.constraints.to_string();
    if got != case.expected {
        return Err(format!("constraints {got}, expected {}", case.expected));
    }
    if let Some(shape) = &case.shape
        && x.shape.to_string() != *shape
    {
        return Err(format!("shape {}, expected {shape}", x.shape));
    }
    let warnings: Vec<String> = x.warnings.iter().map(ToString::to_string).collect();
    if warnings != case.warnings {
        return Err(format!(
            "warnings {warnings:?}, expected {:?}",
            case.warnings
        ));
    }
    Ok(())
}

/// The written corpus: every case gives its expected constraints, shape and warnings.
#[test]
fn written_corpus_constraints() {
    let cases = written_cases();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check_case(c)
                .err()
                .map(|e| format!("{}: {e}\n  {}", c.name, c.sql.trim()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Malformed queries: the exact message, line and column.
#[test]
fn malformed_queries_say_what_and_where() {
    let not_chain = format!("SELECT VALUE {}1", "NOT ".repeat(300));
    let cases: &[(&str, &str)] = &[
        (
            "SELECT * FROM c WHER c.a = 1",
            "expected JOIN, WHERE, GROUP BY, ORDER BY, OFFSET or end of query, found 'WHER' at 1:17",
        ),
        (
            "SELECT * FORM c",
            "expected FROM, WHERE, GROUP BY, ORDER BY, OFFSET or end of query, found 'FORM' at 1:10",
        ),
        (
            "SELECT FROM c",
            "expected '*', VALUE or an expression, found 'FROM' at 1:8",
        ),
        (
            "SELECT * FROM c WHERE c.a = ",
            "expected an expression, found end of query at 1:29",
        ),
        (
            "SELECT *\nFROM c\nWHERE c.a = 'abc",
            "unterminated string (missing closing ') at 3:13",
        ),
        (
            "SELECT * FROM c WHERE c.a IN ('a', 'b'",
            "expected ',' or ')', found end of query at 1:39",
        ),
        (
            "SELECT * FROM c WHERE c.a = 1 ORDER c.b",
            "expected BY, found 'c' at 1:37",
        ),
        (
            "SELECT * FROM c\nWHERE c.a = 1\n  AND c.b = \"x\\q\"",
            "invalid escape sequence \\q (valid: \\\" \\' \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) at 3:15",
        ),
        (
            "SELECT * FROM c /* open",
            "unterminated comment (missing */) at 1:17",
        ),
        (
            "SELECT * FROM c WHERE c.a = @",
            "expected a parameter name after '@' at 1:29",
        ),
        (
            "SELECT * FROM c WHERE c.a == 1",
            "expected an expression, found '=' at 1:28",
        ),
        (
            "SELECT * FROM c WHERE c.a ! 1",
            "unexpected character '!' at 1:27",
        ),
        (
            "SELECT TOP x * FROM c",
            "expected a number or parameter after TOP, found 'x' at 1:12",
        ),
        (
            "SELECT * FROM c OFFSET 1",
            "expected LIMIT, found end of query at 1:25",
        ),
        (
            "SELECT * FROM c WHERE EXISTS(c.a)",
            "expected SELECT, found 'c' at 1:30",
        ),
        (
            "SELECT * FROM c WHERE c.a BETWEEN 1 OR 2",
            "expected AND, found 'OR' at 1:37",
        ),
        (
            "SELECT * FROM c WHERE c. = 1",
            "expected a property name after '.', found '=' at 1:26",
        ),
        (
            "UPDATE c SET x = 1",
            "expected SELECT, found 'UPDATE' at 1:1",
        ),
        ("", "expected SELECT, found end of query at 1:1"),
        (
            "SELECT * FROM c WHERE EXISTS(SELECT * FROM t IN c.tags WHER t = 1)",
            "expected JOIN, WHERE, GROUP BY, ORDER BY, OFFSET or ')', found 'WHER' at 1:56",
        ),
        (
            "SELECT * FROM c WHERE c.name = 'é✓' AND c.b = $",
            "unexpected character '$' at 1:47",
        ),
        ("SELECT VALUE {a 1}", "expected ':', found '1' at 1:17"),
        (
            "SELECT * FROM c WHERE f(1,)",
            "expected an expression, found ')' at 1:27",
        ),
        (
            "SELECT 1 AS",
            "expected an alias after AS, found end of query at 1:12",
        ),
        (
            "SELECT * FROM c WHERE c.a LIKE 'x' ESCAPE 1",
            "expected a string after ESCAPE, found '1' at 1:43",
        ),
        (
            "SELECT * FROM c\r\nWHERE c.a = 1 1",
            "expected GROUP BY, ORDER BY, OFFSET or end of query, found '1' at 2:15",
        ),
        (
            &not_chain,
            "query nested too deeply (more than 256 levels) at 1:1034",
        ),
    ];
    for (sql, expected) in cases {
        match parse(sql) {
            Ok(q) => panic!("{sql:?} parsed as {q}"),
            Err(e) => assert_eq!(e.to_string(), *expected, "{sql:?}"),
        }
    }
}

/// Deep nesting is an error, never a stack overflow; moderate nesting parses.
#[test]
fn nesting_is_capped() {
    let parens = |n| {
        format!(
            "SELECT * FROM c WHERE {}c.a = 1{}",
            "(".repeat(n),
            ")".repeat(n)
        )
    };
    assert_eq!(
        analyze(&parens(40), &Parameters::new())
            .unwrap()
            .constraints
            .to_string(),
        "{/a=1.0}"
    );
    let deep = [
        parens(20_000),
        format!("SELECT VALUE {}1{}", "[".repeat(20_000), "]".repeat(20_000)),
        format!(
            "SELECT VALUE {}1{}",
            "(SELECT VALUE ".repeat(10_000),
            ")".repeat(10_000)
        ),
        format!("SELECT VALUE 1{}", " + 1".repeat(20_000)),
        format!("SELECT VALUE c{}", ".a".repeat(20_000)),
        format!("SELECT VALUE {}1", "- ".repeat(20_000)),
        format!("SELECT VALUE {}1", "1 ? 1 : ".repeat(20_000)),
    ];
    for sql in &deep {
        let e = parse(sql).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::TooDeep, "{}", &sql[..40]);
    }
}

/// `OR` and `AND` chains are flat: long ones are fine, and past the cap the alternatives
/// are given up (and said so).
#[test]
fn long_disjunctions_are_flat_and_capped() {
    let ors = |n: usize| {
        let terms: Vec<String> = (0..n).map(|i| format!("c.pk = 'v{i}'")).collect();
        format!("SELECT * FROM c WHERE {}", terms.join(" OR "))
    };
    let x = analyze(&ors(MAX_CONJUNCTS), &Parameters::new()).unwrap();
    assert_eq!(
        x.constraints.alternatives().map(<[_]>::len),
        Some(MAX_CONJUNCTS)
    );
    assert!(!x.capped);
    let x = analyze(&ors(MAX_CONJUNCTS + 1), &Parameters::new()).unwrap();
    assert_eq!(x.constraints, Constraints::Unconstrained);
    assert!(x.capped);
    assert_eq!(x.warnings, [QueryWarning::TooManyAlternatives]);

    // An AND whose product passes the cap keeps its smaller side.
    let list = |p: &str, n: usize| {
        (0..n)
            .map(|i| format!("'{p}{i}'"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let sql = format!(
        "SELECT * FROM c WHERE c.a IN ({}) AND c.b IN ({})",
        list("a", 100),
        list("b", 50)
    );
    let x = analyze(&sql, &Parameters::new()).unwrap();
    assert!(x.capped);
    let alternatives = x.constraints.alternatives().unwrap();
    assert_eq!(alternatives.len(), 50);
    assert!(
        alternatives
            .iter()
            .all(|c| c.len() == 1 && c.iter().next().unwrap().0.to_string() == "/b")
    );
}

/// A condition the property tests generate, render and evaluate.
#[derive(Clone, Debug)]
enum Cond {
    /// `c.path = value` (in one of several spellings).
    Eq(usize, usize, u8),
    /// `c.path IN (values)`.
    In(usize, Vec<usize>),
    /// A predicate the extraction cannot use (range, function, NOT ...); the test lets it
    /// take any truth value.
    Opaque(usize, u8),
    And(Vec<Cond>),
    Or(Vec<Cond>),
}

const PATHS: [&str; 3] = ["pk", "a", "b"];
const VALUES: [&str; 6] = ["'x'", "'y'", "1", "-0", "true", "null"];

fn value_of(i: usize) -> PkValue {
    PkValue::parse_literal(&VALUES[i].replace('\'', "\"")).unwrap()
}

fn cond_strategy() -> impl Strategy<Value = Cond> {
    let leaf = prop_oneof![
        (0..3usize, 0..6usize, 0..4u8).prop_map(|(p, v, s)| Cond::Eq(p, v, s)),
        (0..3usize, vec(0..6usize, 1..4)).prop_map(|(p, vs)| Cond::In(p, vs)),
        (0..3usize, 0..4u8).prop_map(|(p, k)| Cond::Opaque(p, k)),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            vec(inner.clone(), 2..4).prop_map(Cond::And),
            vec(inner, 2..4).prop_map(Cond::Or)
        ]
    })
}

impl Cond {
    fn sql(&self, opaque: &mut usize) -> String {
        let join = |items: &[Cond], op: &str, opaque: &mut usize| {
            let parts: Vec<String> = items.iter().map(|c| c.sql(opaque)).collect();
            format!("({})", parts.join(op))
        };
        match self {
            Cond::Eq(p, v, 0) => format!("c.{} = {}", PATHS[*p], VALUES[*v]),
            Cond::Eq(p, v, 1) => format!("{} = c.{}", VALUES[*v], PATHS[*p]),
            Cond::Eq(p, v, 2) => format!("c[\"{}\"] = {}", PATHS[*p], VALUES[*v]),
            Cond::Eq(p, v, _) => format!("c.{} = @v{v}", PATHS[*p]),
            Cond::In(p, vs) => {
                let list: Vec<&str> = vs.iter().map(|v| VALUES[*v]).collect();
                format!("c.{} IN ({})", PATHS[*p], list.join(", "))
            }
            Cond::Opaque(p, k) => {
                *opaque += 1;
                let p = PATHS[*p];
                [
                    "c.{p} > 0",
                    "STARTSWITH(c.{p}, 'x')",
                    "NOT (c.{p} = 'x')",
                    "c.{p} != 1",
                ][*k as usize]
                    .replace("{p}", p)
            }
            Cond::And(items) => join(items, " AND ", opaque),
            Cond::Or(items) => join(items, " OR ", opaque),
        }
    }

    /// Truth on `doc`, opaque predicates taking their values from `bits` in order.
    fn eval(&self, doc: &[Option<usize>; 3], bits: &[bool], next: &mut usize) -> bool {
        let holds = |p: &usize, v: &usize| doc[*p].is_some_and(|d| value_of(d) == value_of(*v));
        match self {
            Cond::Eq(p, v, _) => holds(p, v),
            Cond::In(p, vs) => vs.iter().any(|v| holds(p, v)),
            Cond::Opaque(..) => {
                *next += 1;
                bits[(*next - 1) % bits.len()]
            }
            Cond::And(items) => items.iter().all(|c| c.eval(doc, bits, next)),
            Cond::Or(items) => items.iter().any(|c| c.eval(doc, bits, next)),
        }
    }
}

fn value_params() -> Parameters {
    let mut params = Parameters::new();
    for (i, v) in VALUES.iter().enumerate() {
        params.insert(
            &format!("@v{i}"),
            serde_json::from_str(&v.replace('\'', "\"")).unwrap(),
        );
    }
    params
}

fn matches(conjunct: &Conjunct, doc: &[Option<usize>; 3]) -> bool {
    conjunct.iter().all(|(path, value)| {
        let i = PATHS
            .iter()
            .position(|p| path.to_string() == format!("/{p}"))
            .unwrap();
        doc[i].is_some_and(|d| value_of(d) == *value)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Arbitrary text never makes the parser or the extraction panic.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,120}") {
        let _ = analyze(&text, &Parameters::new());
    }

    /// Query-like token soup never panics either; what parses prints back to the same tree.
    #[test]
    fn token_soup_never_panics(words in vec(select(SOUP.to_vec()), 0..30)) {
        let sql = words.join(" ");
        if let Ok(query) = parse(&sql) {
            let printed = query.to_string();
            let reparsed = parse(&printed);
            prop_assert_eq!(reparsed.as_ref(), Ok(&query), "{}", printed);
        }
    }

    /// Soundness: every document the condition can match satisfies one of the extracted
    /// conjuncts, whatever the opaque predicates evaluate to; printing is deterministic.
    #[test]
    fn constraints_are_sound(cond in cond_strategy(), doc in [option::of(0..6usize), option::of(0..6usize), option::of(0..6usize)], bits in vec(any::<bool>(), 1..8)) {
        let sql = format!("SELECT * FROM c WHERE {}", cond.sql(&mut 0));
        let params = value_params();
        let x = analyze(&sql, &params).unwrap();
        prop_assert_eq!(x.constraints.to_string(), analyze(&sql, &params).unwrap().constraints.to_string());
        if cond.eval(&doc, &bits, &mut 0)
            && let Some(alternatives) = x.constraints.alternatives()
        {
            let inside = alternatives.iter().any(|c| matches(c, &doc));
            prop_assert!(inside, "{} matches {:?} outside {}", sql, doc, x.constraints);
        }
    }
}

const SOUP: [&str; 40] = [
    "SELECT",
    "*",
    "VALUE",
    "TOP",
    "1",
    "DISTINCT",
    "FROM",
    "c",
    "WHERE",
    "c.a",
    "c.pk",
    "=",
    "'x'",
    "\"y\"",
    "AND",
    "OR",
    "NOT",
    "IN",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ".",
    ":",
    "?",
    "??",
    "JOIN",
    "t",
    "ORDER BY",
    "GROUP BY",
    "OFFSET 1 LIMIT 2",
    "EXISTS",
    "ARRAY",
    "@p",
    "BETWEEN",
    "-",
    "udf.f",
];

/// Found by fuzzing: twenty `IN` lists ANDed over long, distinct paths made the cross
/// products (3^k alternatives, re-grown after each cap) take seconds. The work per query is
/// now bounded; the result is the smaller operand, flagged.
#[test]
fn fuzz_many_anded_in_lists_stay_bounded() {
    let term = |i: usize| format!("c.{}{i}.a IN (0, 2, 3)", "v".repeat(100));
    let terms: Vec<String> = (0..40).map(term).collect();
    let sql = format!("SELECT * FROM c WHERE {}", terms.join(" AND "));
    let x = analyze(&sql, &Parameters::new()).unwrap();
    assert!(x.capped);
    assert_eq!(x.warnings, [QueryWarning::TooManyAlternatives]);
    let alternatives = x.constraints.alternatives().unwrap();
    assert!(!alternatives.is_empty() && alternatives.len() <= MAX_CONJUNCTS);
}
