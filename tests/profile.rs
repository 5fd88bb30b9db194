//! `pkadvisor profile` and `analyze --profile`: shares of the input measured apart and
//! merged give the report of the whole; profiles that do not belong together, or that were
//! changed, are refused.

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{json, pkadvisor, scratch};

const DOCS: &str = "fixtures/multitenant/docs.ndjson";
const QUERIES: &str = "fixtures/multitenant/queries.ndjson";
// rand_suffix draws by input position, which restarts in every share: not compared here.
const KEYS: [&str; 6] = [
    "--key",
    "/tenantId",
    "--key",
    "/tenantId,/userId",
    "--key",
    "hash_suffix(/tenantId,/userId,4)",
];

/// The fixture cut in two files at `at` lines; returns their paths.
fn halves(dir: &std::path::Path, at: usize) -> (String, String) {
    let text = std::fs::read_to_string(DOCS).expect("fixture");
    let lines: Vec<&str> = text.lines().collect();
    let write = |name: &str, part: &[&str]| {
        let p = dir.join(name);
        std::fs::write(&p, part.join("\n") + "\n").expect("write half");
        p.to_string_lossy().into_owned()
    };
    (
        write("a.ndjson", &lines[..at]),
        write("b.ndjson", &lines[at..]),
    )
}

fn profile(docs: &str, out: &str, extra: &[&str]) {
    pkadvisor()
        .args(["profile", docs, "-o", out, "-q", "--seed", "7"])
        .args(extra)
        .assert()
        .success();
}

#[test]
fn merged_halves_report_what_the_whole_does() {
    let dir = scratch("profile-halves");
    let (a, b) = halves(&dir, 1_700);
    let pa = dir.join("a.profile").to_string_lossy().into_owned();
    let pb = dir.join("b.profile.zst").to_string_lossy().into_owned();
    let timed = [&KEYS[..], &["--time-path", "/ts"]].concat();
    profile(&a, &pa, &timed);
    profile(&b, &pb, &timed);
    let merged = json(&[
        "analyze",
        "--profile",
        &pa,
        "--profile",
        &pb,
        "--queries",
        QUERIES,
        "--format",
        "json",
    ]);
    let whole = json(
        &[
            &[
                "analyze",
                DOCS,
                "--queries",
                QUERIES,
                "--format",
                "json",
                "--seed",
                "7",
            ][..],
            &timed,
        ]
        .concat(),
    );
    assert_eq!(merged, whole);
    assert_eq!(merged["input"]["documents"], 3_600);
    // A profile and the other half read as documents: the same again.
    let mixed = json(&[
        "analyze",
        &b,
        "--profile",
        &pa,
        "--queries",
        QUERIES,
        "--format",
        "json",
    ]);
    assert_eq!(mixed, whole);
    // One flag takes several profiles, as a shell glob gives them.
    let globbed = json(&[
        "analyze",
        "--queries",
        QUERIES,
        "--format",
        "json",
        "--profile",
        &pa,
        &pb,
    ]);
    assert_eq!(globbed, whole);
    // A profile among the documents is refused, not counted as a document lacking every key.
    pkadvisor()
        .args(["analyze", &pb, "--profile", &pa])
        .assert()
        .code(2)
        .stderr(contains(
            "b.profile.zst: a profile, not documents: give it with --profile",
        ));
    // Only regular files are looked at: documents from a pipe are read whole, once.
    let text = std::fs::read_to_string(&a).expect("half");
    let piped = pkadvisor()
        .args([
            "analyze",
            "/dev/stdin",
            "--key",
            "/tenantId",
            "--format",
            "json",
            "-q",
        ])
        .write_stdin(text)
        .output()
        .expect("runs");
    assert!(piped.status.success(), "{piped:?}");
    let report: serde_json::Value = serde_json::from_slice(&piped.stdout).expect("json");
    assert_eq!(report["input"]["documents"], 1_700);
    assert_eq!(report["input"]["invalid"], 0);
}

#[test]
fn generated_candidates_travel_with_the_profile() {
    let dir = scratch("profile-auto");
    let out = dir.join("all.profile.gz").to_string_lossy().into_owned();
    profile(DOCS, &out, &["--auto", "5"]);
    let report = json(&["analyze", "--profile", &out, "--format", "json"]);
    let direct = json(&[
        "analyze", DOCS, "--auto", "5", "--seed", "7", "--format", "json",
    ]);
    assert_eq!(report, direct);
    assert!(
        !report["candidates"]
            .as_array()
            .expect("candidates")
            .is_empty()
    );
}

#[test]
fn profiles_that_do_not_belong_together_or_were_changed_are_refused() {
    let dir = scratch("profile-refused");
    let (a, b) = halves(&dir, 1_000);
    let pa = dir.join("a.profile").to_string_lossy().into_owned();
    let pb = dir.join("b.profile").to_string_lossy().into_owned();
    profile(&a, &pa, &KEYS);
    profile(&b, &pb, &["--key", "/tenantId"]);
    pkadvisor()
        .args(["analyze", "--profile", &pa, "--profile", &pb])
        .assert()
        .code(2)
        .stderr(contains("b.profile measured other candidates"));
    // Another seed changes rand_suffix values: refused too.
    let pc = dir.join("c.profile").to_string_lossy().into_owned();
    pkadvisor()
        .args(["profile", &b, "-o", &pc, "-q", "--seed", "8"])
        .args(KEYS)
        .assert()
        .success();
    pkadvisor()
        .args(["analyze", "--profile", &pa, "--profile", &pc])
        .assert()
        .code(2)
        .stderr(contains("another --time-path or --seed"));
    // A changed count fails the checksum.
    let text = std::fs::read_to_string(&pa).expect("profile");
    let changed = text.replacen("\"documents\":", "\"documents\":1", 2);
    let pd = crate::util::write(&dir, "d.profile", &changed);
    pkadvisor()
        .args(["analyze", "--profile", &pd])
        .assert()
        .code(2)
        .stderr(contains(
            "d.profile: its contents do not match their checksum",
        ));
    // So does a changed key: statistics never pass for another key's.
    let swapped = text.replacen("\"spec\":\"/tenantId\"", "\"spec\":\"/userId\"", 1);
    assert_ne!(swapped, text);
    let pe = crate::util::write(&dir, "e.profile", &swapped);
    pkadvisor()
        .args(["analyze", "--profile", &pe])
        .assert()
        .code(2)
        .stderr(contains(
            "e.profile: its contents do not match their checksum",
        ));
    // Standard input feeds one reader only.
    pkadvisor()
        .args(["analyze", "--profile", "-", "--queries", "-"])
        .write_stdin(text.clone())
        .assert()
        .code(2)
        .stderr(contains(
            "can feed only one of --profile, DOCS and --queries",
        ));
    // Documents are not a profile: the position says where.
    pkadvisor()
        .args(["analyze", "--profile", &a])
        .assert()
        .code(2)
        .stderr(contains("a.ndjson: line 1 column"))
        .stderr(contains("not a pkadvisor profile"))
        .stderr(contains("DOCS go before --profile"));
    // The profile fixes the candidates and settings.
    pkadvisor()
        .args(["analyze", "--profile", &pa, "--key", "/id"])
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
    pkadvisor()
        .args(["analyze", "--profile", &pa, "--explain", "/id"])
        .assert()
        .code(2)
        .stderr(contains("the profiles did not measure this key"));
}

#[test]
fn hostile_profile_paths_and_sizes_end_cleanly() {
    let dir = scratch("profile_hostile");
    let docs = crate::util::write(
        &dir,
        "d.ndjson",
        "{\"id\":\"a\",\"k\":1}\n{\"id\":\"b\",\"k\":2}\n",
    );
    // A device is written through, never replaced by a regular file.
    profile(&docs, "/dev/null", &["--key", "/k"]);
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(!meta.is_file(), "/dev/null became a regular file");
    // A regular target is written whole, and no temporary file is left beside it.
    let out = dir.join("p.profile").to_string_lossy().into_owned();
    profile(&docs, &out, &["--key", "/k"]);
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Endless input where a profile should be: refused at once, not buffered.
    pkadvisor()
        .args(["analyze", "--profile", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("/dev/zero").and(contains("not a pkadvisor profile")));
    // A compressed object that never ends stops at the cap.
    let bomb = dir.join("bomb.profile.zst");
    {
        let file = std::fs::File::create(&bomb).unwrap();
        let mut z = zstd::Encoder::new(file, 19).unwrap();
        use std::io::Write as _;
        z.write_all(b"{\"format\":\"").unwrap();
        let chunk = vec![b'a'; 1 << 20];
        for _ in 0..1100 {
            z.write_all(&chunk).unwrap();
        }
        z.finish().unwrap();
    }
    pkadvisor()
        .args(["analyze", "--profile"])
        .arg(&bomb)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(2)
        .stderr(contains("MiB once decompressed"));
    // The same for an infrastructure file.
    pkadvisor()
        .args(["check", "--container", "/dev/zero", &docs])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("more than 64 MiB"));
}

#[test]
fn forged_profiles_with_a_valid_checksum_are_refused_by_their_shape() {
    use pkadvisor::measure::profile::with_matching_checksum;
    let dir = scratch("profile_forged");
    let out = dir.join("p.profile").to_string_lossy().into_owned();
    profile(DOCS, &out, &["--key", "/tenantId", "--time-path", "/ts"]);
    let text = std::fs::read(&out).unwrap();
    let file: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let forge = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut f = file.clone();
        edit(&mut f);
        let bytes = with_matching_checksum(&serde_json::to_vec(&f).unwrap()).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_string_lossy().into_owned()
    };
    type Forgery<'a> = (&'a str, &'a dyn Fn(&mut serde_json::Value), &'a str);
    let cases: [Forgery<'_>; 8] = [
        // Items that live minus five seconds.
        (
            "retention",
            &|f| f["retention"] = serde_json::json!(-5.0),
            "items live -5 seconds",
        ),
        // 400,000 empty windows would each expand to a row of slices.
        (
            "windows",
            &|f| {
                let w: Vec<serde_json::Value> = (0..400_000)
                    .map(|i| serde_json::json!([i, {"slices": []}]))
                    .collect();
                f["stats"][0]["arrival"]["windows"] = w.into();
            },
            "more than 64 arrival windows",
        ),
        (
            "missing",
            &|f| f["stats"][0]["missing"] = serde_json::json!(1u64 << 40),
            "missing documents of",
        ),
        (
            "total",
            &|f| f["documents"] = serde_json::json!(u64::MAX),
            "more than any input holds",
        ),
        (
            "twice",
            &|f| {
                let c = f["candidates"][0].clone();
                f["candidates"] = vec![c.clone(), c].into();
                let s = f["stats"][0].clone();
                f["stats"] = vec![s.clone(), s].into();
            },
            "listed twice",
        ),
        (
            "count",
            &|f| f["documents"] = serde_json::json!(7),
            "count 3600 documents, the profile 7",
        ),
        // An exact count claimed as a sample: most values are ones level 3 drops ...
        (
            "kept",
            &|f| f["stats"][0]["values"]["level"] = serde_json::json!(3),
            "values that sampling level 3 would not keep",
        ),
        // ... and without them, the histogram (kept only once sampling starts) is empty:
        // the projection would scale 1.6 MB by 10^12.
        (
            "level",
            &|f| {
                f["stats"][0]["values"]["level"] = serde_json::json!(1);
                let kept = f["stats"][0]["values"]["sample"].as_object_mut().unwrap();
                kept.retain(|hash, _| hash.parse::<u64>().unwrap() % 2 == 0);
            },
            "sampled values that hold more than their histogram",
        ),
    ];
    for (name, edit, says) in cases {
        let p = forge(name, edit);
        pkadvisor()
            .args(["analyze", "--profile", &p, "-q"])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(contains(says));
    }
}

#[test]
fn a_redacted_profile_carries_no_key_value_and_keeps_every_figure() {
    let dir = scratch("profile_redact");
    let plain = dir.join("plain.profile").to_string_lossy().into_owned();
    let hidden = dir.join("hidden.profile").to_string_lossy().into_owned();
    let keys = [
        "--key",
        "/tenantId",
        "--key",
        "/tenantId,/userId",
        "--key",
        "/userId",
    ];
    profile(DOCS, &plain, &keys);
    pkadvisor()
        .args([
            "profile", DOCS, "-o", &hidden, "-q", "--seed", "7", "--redact",
        ])
        .args(keys)
        .env("PKADVISOR_REDACT_KEY", "k3y")
        .assert()
        .success();
    // Values known to be in the fixture: a tenant and a user id.
    let text = std::fs::read_to_string(DOCS).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let user = first["userId"].as_str().unwrap().to_owned();
    let known = ["contoso", user.as_str()];
    let file = std::fs::read_to_string(&hidden).unwrap();
    for v in known {
        assert!(!file.contains(v), "the profile holds {v}");
    }
    let run = |p: &str, extra: &[&str]| -> String {
        let out = pkadvisor()
            .args([
                "analyze",
                "--profile",
                p,
                "--queries",
                QUERIES,
                "-q",
                "--wide",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for format in ["table", "json", "markdown"] {
        let out = run(&hidden, &["--format", format, "--top", "50"]);
        for v in known {
            assert!(!out.contains(v), "{format} shows {v}");
        }
    }
    let map = run(
        &hidden,
        &["--explain", "/tenantId,/userId", "--format", "json"],
    );
    assert!(!map.contains("contoso") && !map.contains(&user));
    // Everything but the labels is the same as from the plain profile.
    let strip = |text: String| -> serde_json::Value {
        let mut r: serde_json::Value = serde_json::from_str(&text).unwrap();
        for c in r["candidates"].as_array_mut().unwrap() {
            for v in c["largest_values"].as_array_mut().unwrap() {
                v["value"] = serde_json::Value::Null;
            }
            c["findings"] = serde_json::Value::Null;
        }
        r["recommendation"] = serde_json::Value::Null;
        r["input"]["redacted"] = serde_json::Value::Null;
        r
    };
    let (a, b) = (
        run(&plain, &["--format", "json"]),
        run(&hidden, &["--format", "json"]),
    );
    let hidden_report: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!(hidden_report["input"]["redacted"], true);
    assert_eq!(strip(a), strip(b));
    assert!(run(&hidden, &[]).contains("key values redacted in the profiles"));
    // Documents read beside a redacted profile would bring raw values back in.
    pkadvisor()
        .args(["analyze", DOCS, "-q", "--profile", &hidden])
        .assert()
        .code(2)
        .stderr(contains("hold key values as hashes"));
}

#[test]
fn shares_measured_without_a_time_path_are_merged_with_a_warning() {
    let dir = scratch("profile-untimed");
    let (a, b) = halves(&dir, 1_000);
    let (pa, pb) = (format!("{a}.profile"), format!("{b}.profile"));
    profile(&a, &pa, &KEYS);
    profile(&b, &pb, &KEYS);
    let warning = "2 shares measured without --time-path";
    pkadvisor()
        .args(["analyze", "-q", "--profile", &pa, &pb])
        .assert()
        .success()
        .stderr(contains(warning));
    // One share, or shares with a time path, say nothing of it.
    pkadvisor()
        .args(["analyze", "-q", "--profile", &pa])
        .assert()
        .success()
        .stderr(contains(warning).not());
    let timed = [&KEYS[..], &["--time-path", "/ts"]].concat();
    profile(&a, &pa, &timed);
    profile(&b, &pb, &timed);
    pkadvisor()
        .args(["analyze", "-q", "--profile", &pa, &pb])
        .assert()
        .success()
        .stderr(contains("without --time-path").not());
}

/// Past --memory, the kept values are a hash sample: read back from a profile, they give
/// the report the documents give, to the last digit.
#[test]
fn a_sampled_profile_reads_back_to_the_report_of_its_documents() {
    let dir = scratch("profile-sampled");
    let mut text = String::new();
    for i in 0..50_000u64 {
        let (user, tenant) = (i * 7_919 % 20_000, i % 37);
        let line = format!(r#"{{"id":"d{i:06}","userId":"u{user:05}","tenantId":"t{tenant}"}}"#);
        text.push_str(&line);
        text.push('\n');
    }
    let docs = dir.join("docs.ndjson").to_string_lossy().into_owned();
    std::fs::write(&docs, text).expect("write docs");
    let p = dir.join("all.profile.zst").to_string_lossy().into_owned();
    let keys = ["--key", "/id", "--key", "/userId", "--key", "/tenantId"];
    let squeeze = [&keys[..], &["--memory", "2MB"]].concat();
    profile(&docs, &p, &squeeze);
    let read_back = json(&["analyze", "--profile", &p, "--format", "json"]);
    let direct = [
        &["analyze", &docs, "--format", "json", "--seed", "7"][..],
        &squeeze,
    ];
    let direct = json(&direct.concat());
    let user = (direct["candidates"].as_array().expect("candidates").iter())
        .find(|c| c["key"]["spec"] == "/userId")
        .expect("/userId");
    assert_eq!(
        user["cardinality"]["exact"], false,
        "values must be sampled"
    );
    assert_eq!(read_back, direct);
}

/// The same documents measured twice, under settings that give other files (a memory that
/// samples their values, one thread), are one share: refused as a second profile and as
/// documents given beside their profile.
#[test]
fn the_same_documents_profiled_again_are_one_share() {
    let dir = scratch("profile_same_documents");
    let path = |n: &str| dir.join(n).to_string_lossy().into_owned();
    let (exact, sampled) = (path("exact.profile"), path("sampled.profile"));
    let keys = ["--key", "/tenantId", "--key", "/id"];
    profile(DOCS, &exact, &keys);
    let tight = [&keys[..], &["--memory", "1MB", "--threads", "1"]].concat();
    profile(DOCS, &sampled, &tight);
    let level: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&sampled).unwrap()).unwrap();
    assert!(
        level["stats"][1]["values"]["level"].as_u64().unwrap() > 0,
        "/id is sampled"
    );
    pkadvisor()
        .args(["analyze", "--profile", &exact, &sampled, "-q"])
        .assert()
        .code(2)
        .stderr(contains("measured the same documents as"));
    pkadvisor()
        .args(["analyze", DOCS, "--profile", &exact, "-q"])
        .assert()
        .code(2)
        .stderr(contains("the documents given are the ones"));
}
