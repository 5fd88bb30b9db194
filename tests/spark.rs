//! The Spark driver, `contrib/spark/pkadvisor_spark.py`: the profiles its executors write,
//! one per partition, merge into the report of one run over the whole input.
//!
//! Needs Python with pyspark (`PKADVISOR_PYTHON`, else `python3`) and Java. Without them
//! the tests say `SKIPPED` on stderr, or fail when `CI` is set (`.ci/run` installs
//! pyspark in a venv; Java 17 is on the machine).
//! Spark starts slowly: each test is one Spark session, and the two run side by side.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

use crate::util::{json, scratch, skip_unless_ci};

const DRIVER: &str = "contrib/spark/pkadvisor_spark.py";
const DOCS: &str = "fixtures/multitenant/docs.ndjson";
const QUERIES: &str = "fixtures/multitenant/queries.ndjson";
/// A single property, a hierarchical key, a synthetic one and a unique one. Not
/// `rand_suffix`: it draws by input position, which each partition restarts.
const KEYS: [&str; 4] = [
    "/tenantId",
    "/tenantId,/userId",
    "hash_suffix(/tenantId,/userId,4)",
    "/id",
];
/// The fixture's write time (RFC 3339): with it, arrivals are placed by time, not by
/// position in a partition.
const TIME_PATH: &str = "/ts";
/// Spark's own startup and a job of a few thousand documents fit well within this.
const SPARK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// The Python to run the driver with, or `None` (after saying `SKIPPED`) when it lacks
/// pyspark or there is no Java; under `CI` that is a failure instead.
fn spark_python() -> Option<String> {
    let python = std::env::var("PKADVISOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let missing = if !succeeds(&python, &["-c", "import pyspark"]) {
        Some(format!(
            "{python} cannot import pyspark (set PKADVISOR_PYTHON to a venv's python with pyspark)"
        ))
    } else if !succeeds("java", &["-version"]) {
        Some("`java -version` fails: Spark needs Java 17 or later".to_owned())
    } else {
        None
    };
    let Some(reason) = missing else {
        return Some(python);
    };
    skip_unless_ci("spark test", &reason, ".ci/run installs pyspark");
    None
}

fn succeeds(program: &str, args: &[&str]) -> bool {
    std::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `python ARGS` with Spark on this machine's loopback, its scratch files in `dir`.
fn spark(python: &str, dir: &Path) -> Command {
    let mut cmd = Command::new(python);
    cmd.env("SPARK_LOCAL_IP", "127.0.0.1")
        .env("PYSPARK_PYTHON", python)
        .env("PYSPARK_DRIVER_PYTHON", python)
        .env("SPARK_LOCAL_DIRS", dir.join("spark-local"))
        // No __pycache__ left in contrib/spark by importing the driver.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        // pyspark's own Spark, not one installed elsewhere.
        .env_remove("SPARK_HOME")
        .env_remove("PYSPARK_SUBMIT_ARGS")
        .timeout(SPARK_TIMEOUT);
    cmd
}

/// The binary under test, which the driver ships to its executors.
fn binary() -> String {
    let path = assert_cmd::cargo::cargo_bin("pkadvisor");
    path.to_string_lossy().into_owned()
}

fn key_flags() -> Vec<&'static str> {
    KEYS.iter().flat_map(|k| ["--key", k]).collect()
}

/// The profiles in `dir`, in name order.
fn profiles(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".profile.zst"))
        .collect();
    found.sort();
    found
}

/// `analyze --profile P ... --format json`, with `extra` (`--queries`).
fn analyze_profiles(profiles: &[String], extra: &[&str]) -> Value {
    let mut args = vec!["analyze"];
    for p in profiles {
        args.extend(["--profile", p.as_str()]);
    }
    args.extend(["--format", "json"]);
    args.extend(extra);
    json(&args)
}

/// One run over `docs`: `analyze DOCS --key ... --time-path /ts --format json`, with `extra`.
fn analyze_whole(docs: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "analyze",
        docs,
        "--time-path",
        TIME_PATH,
        "--format",
        "json",
    ];
    args.extend(key_flags());
    args.extend(extra);
    json(&args)
}

/// Where two reports differ (up to 20 paths), for a readable failure.
fn differences(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    if out.len() >= 20 {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => differences(v, w, &format!("{path}/{k}"), out),
                    None => out.push(format!("{path}/{k}: only in the merged report")),
                }
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!("{path}/{k}: only in the single run"));
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                // A candidate by its key, not its rank.
                let at = match v["key"]["spec"].as_str() {
                    Some(spec) => format!("{path}[{spec}]"),
                    None => format!("{path}[{i}]"),
                };
                differences(v, w, &at, out);
            }
        }
        _ if a != b => out.push(format!("{path}: merged {a} but single run {b}")),
        _ => {}
    }
}

/// The merged report is the single run's, figure for figure.
///
/// No field is left out of the comparison, because none legitimately differs: the report
/// names no input file, and with `--time-path` nothing in it depends on the order in which
/// Spark hands the documents over. (Without `--time-path`, arrival is each partition's
/// input order: the sample's write replay, write spread and rising-value detection follow
/// it; `rand_suffix` draws by position in any case. Neither is measured here.)
fn assert_same_report(merged: &Value, whole: &Value, what: &str) {
    // At the default --memory this fixture is counted exactly: no figure is a sketch's
    // estimate, so equality, not a tolerance, is the bar. (Past --memory, sampled values
    // and heavy hitters depend on input order, which Spark does not keep.)
    for c in whole["candidates"].as_array().expect("candidates") {
        assert_eq!(
            c["cardinality"]["exact"], true,
            "{what}: {}",
            c["key"]["spec"]
        );
        for v in c["largest_values"].as_array().expect("largest values") {
            assert_eq!(v["exact"], true, "{what}: {}", c["key"]["spec"]);
        }
    }
    let mut diff = Vec::new();
    differences(merged, whole, "", &mut diff);
    assert!(
        diff.is_empty(),
        "{what}: merged profiles differ from one run over the whole input:\n{}",
        diff.join("\n")
    );
    assert_eq!(merged, whole, "{what}");
}

/// Merged with and without the query log, the profiles in `dir` report what one run over
/// `docs` does.
fn assert_merges_to_whole(dir: &Path, docs: &str, what: &str) -> Vec<String> {
    let found = profiles(dir);
    assert!(!found.is_empty(), "{what}: no profile in {}", dir.display());
    let queries = ["--queries", QUERIES];
    assert_same_report(
        &analyze_profiles(&found, &[]),
        &analyze_whole(docs, &[]),
        &format!("{what}, documents only"),
    );
    assert_same_report(
        &analyze_profiles(&found, &queries),
        &analyze_whole(docs, &queries),
        &format!("{what}, with the query log"),
    );
    found
}

#[test]
fn spark_driver_profiles_two_partitions_that_merge_into_the_whole() {
    let Some(python) = spark_python() else {
        return;
    };
    let dir = scratch("spark-driver");
    let out = dir.join("profiles");
    let out_str = out.to_string_lossy().into_owned();
    let bin = binary();
    let mut args = vec![DRIVER, DOCS, "--time-path", TIME_PATH, "--seed", "7"];
    args.extend(key_flags());
    args.extend([
        "--partitions",
        "2",
        "--master",
        "local[2]",
        "--binary",
        &bin,
        "-o",
        &out_str,
    ]);
    let run = spark(&python, &dir).args(&args).output().expect("runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "the driver failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // It names the command that merges what it wrote.
    assert!(
        stdout.contains(&format!("analyze --profile {out_str}/part-*.profile.zst")),
        "{stdout}"
    );
    let mut found = assert_merges_to_whole(&out, DOCS, "two partitions");
    assert_eq!(found.len(), 2, "{found:?}");
    // That command, run as printed, gives the single run's report.
    let command = stdout.lines().last().expect("the merge command");
    let printed = Command::new("bash")
        .args(["-c", &format!("{command} --format json")])
        .output()
        .expect("bash runs");
    assert!(printed.status.success(), "{command}: {printed:?}");
    let printed: Value = serde_json::from_slice(&printed.stdout).expect("JSON report");
    assert_same_report(&printed, &analyze_whole(DOCS, &[]), "the printed command");
    // Every option reached the executors: a profile made here with the same ones merges
    // with theirs (another --seed or --time-path would be refused).
    let text = std::fs::read_to_string(DOCS).expect("fixture");
    let first: Vec<&str> = text.lines().take(3).collect();
    let few = crate::util::write(&dir, "few.ndjson", &(first.join("\n") + "\n"));
    let own = dir.join("own.profile.zst").to_string_lossy().into_owned();
    crate::util::pkadvisor()
        .args([
            "profile",
            &few,
            "-q",
            "--time-path",
            TIME_PATH,
            "--seed",
            "7",
            "-o",
            &own,
        ])
        .args(key_flags())
        .assert()
        .success();
    found.push(own);
    assert_eq!(analyze_profiles(&found, &[])["input"]["documents"], 3_603);
}

/// Runs in one Spark session: the driver's `main` over three partitions; the notebook
/// function on a DataFrame (serialised by `toJSON`) and on the same rows as Parquet;
/// empty partitions; nothing to profile; a bad document. Prints `RESULT {json}`.
const SESSION: &str = r#"
import contextlib, io, json, sys
contrib, binary, docs, scratch, keys = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
sys.path.insert(0, contrib)
import pkadvisor_spark as ps
from pyspark.sql import SparkSession

spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false").getOrCreate())
flags = [a for k in keys for a in ("--key", k)]

def cli(*argv):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = ps.main(list(argv))
    return [code, err.getvalue()]

result = {}
result["three"] = cli(docs, *flags, "--time-path", "/ts", "--partitions", "3",
                      "--binary", binary, "-o", scratch + "/three")
frame = spark.read.json(docs)
result["dataframe"] = ps.profile_dataframe(frame, keys, scratch + "/dataframe", time_path="/ts",
                                           binary=binary, partitions=2)
frame.write.parquet(scratch + "/docs.parquet")
result["parquet"] = cli(scratch + "/docs.parquet", *flags, "--time-path", "/ts",
                        "--binary", binary, "-o", scratch + "/parquet")
with open(docs, encoding="utf-8") as f:
    lines = f.read().splitlines()
with open(scratch + "/first3.ndjson", "w", encoding="utf-8") as f:
    f.write("\n".join(lines[:3]) + "\n")
sparse = spark.sparkContext.parallelize(lines[:3] + ["", " "], 8)
result["sparse"] = ps.profile_lines(sparse, keys, scratch + "/sparse", time_path="/ts", binary=binary)
try:
    ps.profile_lines(spark.sparkContext.parallelize(["", " "], 2), keys, scratch + "/empty",
                     binary=binary)
    result["empty"] = None
except ps.ProfileError as e:
    result["empty"] = str(e)
with open(scratch + "/bad.ndjson", "w", encoding="utf-8") as f:
    f.write("\n".join(lines[:4] + ['{"id": "x", "tenantId": '] + lines[4:8]) + "\n")
result["bad"] = cli(scratch + "/bad.ndjson", *flags, "--binary", binary, "-o", scratch + "/bad")
result["stale"] = cli(docs, *flags, "--binary", binary, "-o", scratch + "/three")
spark.stop()
print("RESULT " + json.dumps(result))
"#;

#[test]
fn spark_notebook_function_and_driver_in_one_session() {
    let Some(python) = spark_python() else {
        return;
    };
    let dir = scratch("spark-session");
    let keys = serde_json::to_string(&KEYS).expect("keys");
    let contrib = Path::new(DRIVER).parent().expect("folder");
    let scratch_str = dir.to_string_lossy().into_owned();
    let run = spark(&python, &dir)
        .args(["-c", SESSION])
        .arg(contrib)
        .args([binary().as_str(), DOCS, &scratch_str, &keys])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "the session failed:\n{stderr}");
    let result: Value = stdout
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .map(|l| serde_json::from_str(l).expect("result JSON"))
        .unwrap_or_else(|| panic!("no RESULT line:\n{stdout}\n{stderr}"));

    // The driver's command line over three partitions.
    assert_eq!(result["three"][0], 0, "{}", result["three"][1]);
    let three = assert_merges_to_whole(&dir.join("three"), DOCS, "three partitions");
    assert_eq!(three.len(), 3, "{three:?}");

    // toJSON re-serialises documents (fields in schema order), and Parquet rows are only
    // read that way: sizes are Spark's JSON's, so only what does not depend on bytes is
    // the single run's.
    let whole = analyze_whole(DOCS, &[]);
    assert_eq!(result["parquet"][0], 0, "{}", result["parquet"][1]);
    for (what, found) in [
        ("toJSON", profiles(&dir.join("dataframe"))),
        ("Parquet", profiles(&dir.join("parquet"))),
    ] {
        assert!(!found.is_empty(), "{what}: no profile");
        let merged = analyze_profiles(&found, &[]);
        assert_eq!(merged["input"]["documents"], 3_600, "{what}");
        for spec in KEYS {
            let m = crate::util::candidate(&merged, spec);
            let w = crate::util::candidate(&whole, spec);
            assert_eq!(m["cardinality"], w["cardinality"], "{what} {spec}");
            assert_eq!(m["values"], w["values"], "{what} {spec}");
            let top = |c: &Value| -> Vec<(Value, Value)> {
                let values = c["largest_values"].as_array().expect("largest values");
                values
                    .iter()
                    .map(|v| (v["value"].clone(), v["documents"].clone()))
                    .collect()
            };
            // /id's largest are ranked by bytes alone (one document each).
            if spec != "/id" {
                assert_eq!(top(m), top(w), "{what} {spec}");
            }
        }
    }

    // Three documents over eight partitions (and two blank lines): the partitions without
    // a document are skipped, and the others merge into one run over those documents.
    let sparse = result["sparse"].as_array().expect("sparse paths");
    assert_eq!(sparse.len(), 3, "{sparse:?}");
    let first3 = dir.join("first3.ndjson").to_string_lossy().into_owned();
    assert_merges_to_whole(&dir.join("sparse"), &first3, "sparse partitions");

    // Nothing to profile: said, not an empty folder.
    let empty = result["empty"].as_str().expect("an error for empty input");
    assert!(
        empty.contains("every partition of the input was empty"),
        "{empty}"
    );

    // A bad document fails the job with pkadvisor's own message, naming the partition.
    let (code, message) = (
        &result["bad"][0],
        result["bad"][1].as_str().expect("stderr"),
    );
    assert_eq!(code, 2, "{message}");
    assert!(
        message.contains("pkadvisor profile failed on partition 0 (exit code 2")
            && message.contains("pkadvisor: error: <stdin>:5:"),
        "{message}"
    );
    assert!(profiles(&dir.join("bad")).is_empty());

    // Profiles a previous run left behind would be merged with these: refused.
    let (code, message) = (
        &result["stale"][0],
        result["stale"][1].as_str().expect("stderr"),
    );
    assert_eq!(code, 2, "{message}");
    assert!(message.contains("already holds 3 profiles"), "{message}");
}

/// Without pyspark the driver says what to install, with exit 2 (no Spark or Java needed:
/// a `pyspark` that cannot be imported is put first on the path).
#[test]
fn spark_driver_without_pyspark_says_what_is_missing() {
    let dir = scratch("spark-no-pyspark");
    let fake = dir.join("pyspark");
    std::fs::create_dir_all(&fake).expect("scratch");
    std::fs::write(fake.join("__init__.py"), "raise ImportError('absent')\n").expect("write");
    let python = std::env::var("PKADVISOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    Command::new(python)
        .env("PYTHONPATH", &dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args([
            DRIVER,
            DOCS,
            "--key",
            "/tenantId",
            "--binary",
            &binary(),
            "-o",
        ])
        .arg(dir.join("out"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "cannot import pyspark: run it with spark-submit",
        ));
}
