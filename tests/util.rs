//! Shared test helpers: a scratch directory per test and the binary under test.

use std::path::PathBuf;

use assert_cmd::Command;

/// The `pkadvisor` binary.
pub fn pkadvisor() -> Command {
    let mut cmd = Command::cargo_bin("pkadvisor").expect("binary built");
    cmd.env_remove("NO_COLOR");
    cmd
}

/// A fresh directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Writes `text` to `name` in `dir` and returns the path as a string.
pub fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write fixture");
    p.to_string_lossy().into_owned()
}

/// Runs the binary and parses its stdout as JSON, asserting success.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = pkadvisor().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// The JSON report `pkadvisor ARGS` prints, whatever its verdict: a failed `check` or
/// `migrate` exits 1 with a whole report.
pub fn verdict_json(args: &[&str]) -> serde_json::Value {
    let out = pkadvisor().args(args).output().expect("runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// The candidate with `spec` in a report.
pub fn candidate<'a>(report: &'a serde_json::Value, spec: &str) -> &'a serde_json::Value {
    report["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .find(|c| c["key"]["spec"] == spec)
        .unwrap_or_else(|| panic!("no candidate {spec}"))
}

/// The finding codes of a candidate.
pub fn codes(c: &serde_json::Value) -> Vec<String> {
    c["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["code"].as_str().expect("code").to_owned())
        .collect()
}

/// `analyze DOCS --queries LOG --target-storage TARGET --format json` with `--key` for each
/// of `keys`, parsed.
pub fn analyze_logged(docs: &str, log: &str, target: &str, keys: &[&str]) -> serde_json::Value {
    let args = [
        "analyze",
        docs,
        "--queries",
        log,
        "--target-storage",
        target,
        "--format",
        "json",
    ];
    json_with_keys(&args, keys)
}

/// [`json`] of `args` with `--key` for each of `keys`.
pub fn json_with_keys(args: &[&str], keys: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    for k in keys {
        all.extend(["--key", k]);
    }
    json(&all)
}

/// Says `SKIPPED: TEST: REASON` on stderr when a tool a test needs is missing; under `CI`
/// (set, and not `false` or `0`) that is a failure instead: `installs` says what puts the
/// tool there.
pub fn skip_unless_ci(test: &str, reason: &str, installs: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    assert!(!ci, "{test}: {reason}; CI must run it ({installs})");
    // Straight to the process's stderr: the test harness captures `eprintln!` of a test
    // that passes, and a skip must show.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {reason}");
}

/// `text` as one line of words: prose wrapped at the terminal's width, read whole.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `analyze DOCS --key /deviceId --time-path /ts EXTRA --format json`, parsed: the telemetry
/// tests' report.
pub fn by_device(docs: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["analyze", docs, "--key", "/deviceId", "--time-path", "/ts"];
    args.extend(extra);
    args.extend(["--format", "json"]);
    json(&args)
}
