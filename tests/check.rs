use predicates::prelude::*;

use crate::util::{pkadvisor, scratch, write};

const DOCS: &str = "fixtures/multitenant/docs.ndjson";
const LOG: &str = "fixtures/multitenant/queries.ndjson";

#[test]
fn a_key_past_the_logical_limit_fails_with_its_reason_and_an_alternative() {
    pkadvisor()
        .args([
            "check",
            "--container",
            "tests/data/infra/arm-nested.json",
            DOCS,
            "--queries",
            LOG,
        ])
        .assert()
        .code(1)
        .stdout(
            predicate::str::starts_with("FAIL  /tenantId (container events)")
                .and(predicate::str::contains(
                    "LOGICAL_PARTITION_LIMIT (violation)",
                ))
                .and(predicate::str::contains(
                    "Best alternative: /tenantId,/userId",
                )),
        );
}

#[test]
fn a_hierarchical_key_from_a_terraform_plan_passes() {
    let out = pkadvisor()
        .args([
            "check",
            "--container",
            "tests/data/infra/terraform-plan.json",
            DOCS,
            "--queries",
            LOG,
        ])
        .args(["--target-storage", "500GB", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["check"]["passed"], true);
    assert_eq!(r["check"]["key"], "/tenantId,/userId");
    assert_eq!(r["check"]["container"], "events");
    assert_eq!(r["check"]["reasons"].as_array().unwrap().len(), 0);
    let declared = r["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["origin"].as_str().unwrap().starts_with("declared"))
        .unwrap();
    assert_eq!(declared["key"]["definition"]["kind"], "MultiHash");
}

#[test]
fn deny_and_min_score_fail_an_otherwise_passing_key() {
    let base = [
        "check",
        "--key",
        "/tenantId,/userId",
        DOCS,
        "--queries",
        LOG,
        "--target-storage",
        "500GB",
    ];
    pkadvisor()
        .args(base)
        .args(["--min-score", "99"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("below --min-score 99"));
    // /userId fans tenant-wide queries out: a warning, which passes unless denied.
    let user = [
        "check",
        "--key",
        "/userId",
        DOCS,
        "--queries",
        LOG,
        "--target-storage",
        "500GB",
    ];
    pkadvisor()
        .args(user)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("! FAN_OUT_QUERIES (warning)"));
    pkadvisor()
        .args(user)
        .args(["--deny", "FAN_OUT_QUERIES", "--format", "markdown"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("## pkadvisor check: ❌ FAIL").and(
            predicate::str::contains("FAN_OUT_QUERIES (denied with --deny)"),
        ));
}

#[test]
fn several_containers_need_a_name() {
    pkadvisor()
        .args([
            "check",
            "--container",
            "tests/data/infra/arm-two-containers.json",
            DOCS,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "pick one with --container-name: events-db/events, events-db/legacy",
        ));
    pkadvisor()
        .args([
            "check",
            "--container",
            "tests/data/infra/arm-two-containers.json",
            "--container-name",
            "legacy",
            DOCS,
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("/type (container legacy)"));
}

#[test]
fn bad_declarations_exit_2_and_say_which_and_where() {
    let dir = scratch("check_bad");
    let not_json = write(
        &dir,
        "main.bicep",
        "resource c 'Microsoft.DocumentDB/...' = {\n}\n",
    );
    let none = write(&dir, "empty.json", "{\"resources\": []}");
    let hash_two = write(
        &dir,
        "hash2.json",
        r#"{"paths": ["/a", "/b"], "kind": "Hash", "version": 2}"#,
    );
    let bad_path = write(
        &dir,
        "path.json",
        r#"{"paths": ["/a/"], "kind": "Hash", "version": 2}"#,
    );
    let cases = [
        (
            not_json.as_str(),
            "main.bicep: a Bicep file; compile it to ARM JSON first",
        ),
        (none.as_str(), "no Cosmos DB container found"),
        (hash_two.as_str(), "exactly one path"),
        (bad_path.as_str(), "invalid path"),
        (
            "tests/data/infra/bad-four-levels.json",
            "1 to 3 paths, not 4",
        ),
    ];
    for (file, message) in cases {
        pkadvisor()
            .args(["check", "--container", file, DOCS])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    pkadvisor()
        .args(["check", DOCS])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--container FILE"));
    pkadvisor()
        .args(["check", "--key", "/a", DOCS, "--deny", "NOT_A_CODE"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown finding code"));
}

#[test]
fn candidates_carry_their_role() {
    let out = crate::util::pkadvisor()
        .args([
            "check",
            "--key",
            "/tenantId",
            "fixtures/multitenant/docs.ndjson",
            "--format",
            "json",
            "-q",
            "--auto",
            "4",
        ])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let roles: Vec<(&str, &str)> = (r["candidates"].as_array().unwrap().iter())
        .map(|c| {
            (
                c["key"]["spec"].as_str().unwrap(),
                c["role"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        roles.iter().filter(|(_, role)| *role == "declared").count(),
        1
    );
    assert!(roles.contains(&("/tenantId", "declared")), "{roles:?}");
    assert!(
        roles
            .iter()
            .filter(|(s, _)| *s != "/tenantId")
            .all(|(_, role)| *role == "generated"),
        "{roles:?}"
    );
    let given = crate::util::json(&[
        "analyze",
        "fixtures/multitenant/docs.ndjson",
        "--key",
        "/userId",
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(given["candidates"][0]["role"], "given");
}

#[test]
fn a_version_1_key_of_eight_character_strings_is_measured_like_any_other() {
    // An ARM template without `version` declares Hash V1. An eight-character string's V1
    // EPK is 16 bytes (a 32-bit hash, then the string's own bytes), like a V2 digest: its
    // values must still hash apart, or the distinct count collapses and one cell of values
    // looks like a huge logical partition.
    let dir = scratch("check-v1-strings");
    let docs: String = (0..120_000)
        .map(|i| format!("{{\"id\":\"{i}\",\"code\":\"{i:08}\"}}\n"))
        .collect();
    let docs = write(&dir, "docs.ndjson", &docs);
    let arm = r#"{"resources":[{"type":"Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers",
        "name":"a/db/items","properties":{"resource":{"id":"items",
        "partitionKey":{"paths":["/code"],"kind":"Hash"}}}}]}"#;
    let arm = write(&dir, "arm.json", arm);
    let out = pkadvisor()
        .args(["check", "--container", &arm, &docs, "--memory", "2MB"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let declared = r["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"]["definition"]["version"] == 1)
        .expect("the declared V1 key is evaluated");
    let estimate = declared["cardinality"]["estimate"].as_f64().unwrap();
    assert_eq!(declared["cardinality"]["exact"], false, "sampled at 2MB");
    assert!((estimate / 120_000.0 - 1.0).abs() < 0.03, "{estimate}");
    // Every value is one document of about 30 bytes.
    let largest = declared["storage"]["largest_logical_bytes"]
        .as_u64()
        .unwrap();
    assert!(largest < 100, "{largest}");
}

/// A Terraform module spread over files as teams write it: the container in main.tf, its
/// variables in variables.tf, values in terraform.tfvars and an .auto.tfvars, and a
/// `--var-file` given last.
#[test]
fn a_terraform_module_is_read_as_terraform_reads_its_directory() {
    let dir = scratch("tf-module");
    let main = write(
        &dir,
        "main.tf",
        r#"resource "azurerm_cosmosdb_sql_database" "db" {
  name       = var.database
  throughput = var.ru
}
resource "azurerm_cosmosdb_sql_container" "events" {
  name                = "events"
  database_name       = azurerm_cosmosdb_sql_database.db.name
  partition_key_paths = var.key
  partition_key_kind  = "MultiHash"
  partition_key_version = 2
}
"#,
    );
    write(
        &dir,
        "variables.tf",
        "variable \"key\" {\n  default = [\"/tenantId\"]\n}\nvariable \"database\" {}\nvariable \"ru\" {\n  default = 400\n}\n",
    );
    write(&dir, "terraform.tfvars", "database = \"app\"\nru = 1000\n");
    write(
        &dir,
        "b.auto.tfvars",
        "key = [\"/tenantId\", \"/userId\"]\n",
    );
    // Loaded after terraform.tfvars though it sorts before it, as Terraform loads them.
    write(&dir, "a.auto.tfvars", "ru = 2000\n");
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["check", "--container"];
        args.extend(extra);
        args.extend([DOCS, "--queries", LOG, "--format", "json", "-q"]);
        let out = pkadvisor().args(&args).output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // main.tf alone reads its directory: the key from the .auto.tfvars (it beats the
    // variable's default), the database from terraform.tfvars, its throughput from the
    // .auto.tfvars loaded after it.
    let r = json(&[&main]);
    assert_eq!(r["check"]["key"], "/tenantId,/userId");
    assert_eq!(r["target"]["throughput_ru"], 2000.0);
    let source = r["target"]["sources"]["throughput"].as_str().unwrap();
    assert!(
        source.contains("database app's throughput = 2000"),
        "{source}"
    );
    // The directory reads the same; a --var-file given wins over the files Terraform loads.
    let d = dir.display().to_string();
    assert_eq!(json(&[&d])["check"]["key"], "/tenantId,/userId");
    let ci = write(&dir, "ci.tfvars.json", r#"{"key": ["/userId"], "ru": 800}"#);
    let r = json(&[&d, "--var-file", &ci]);
    assert_eq!(r["check"]["key"], "/userId");
    assert_eq!(r["target"]["throughput_ru"], 800.0);
    // A broken sibling is named by its file, line and column.
    write(&dir, "zz.tf", "resource \"x\" {\n  a = \n");
    pkadvisor()
        .args(["check", "--container", &main, DOCS])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("zz.tf:2:"));
}

#[test]
fn an_override_file_changes_the_container_it_names_instead_of_adding_one() {
    let dir = scratch("tf-override");
    write(
        &dir,
        "main.tf",
        r#"resource "azurerm_cosmosdb_sql_container" "events" {
  name                = "events"
  database_name       = "app"
  partition_key_paths = ["/tenantId"]
  throughput          = 400
}
"#,
    );
    write(
        &dir,
        "override.tf",
        "resource \"azurerm_cosmosdb_sql_container\" \"events\" {\n  partition_key_paths = [\"/userId\"]\n}\n",
    );
    let d = dir.display().to_string();
    let r =
        crate::util::verdict_json(&["check", "--container", &d, DOCS, "--format", "json", "-q"]);
    assert_eq!(
        r["check"]["key"], "/userId",
        "the override's key, one container"
    );
    assert_eq!(
        r["target"]["throughput_ru"], 400.0,
        "the rest as main.tf declares it"
    );
    // An override of a block no other file declares is Terraform's error too.
    write(
        &dir,
        "extra_override.tf",
        "resource \"azurerm_cosmosdb_sql_container\" \"other\" {\n  name = \"x\"\n}\n",
    );
    pkadvisor()
        .args(["check", "--container", &d, DOCS])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "extra_override.tf: resource azurerm_cosmosdb_sql_container.other overrides no block",
        ));
}

#[test]
fn a_module_of_terraform_json_is_read_as_its_hcl() {
    let dir = scratch("tf-json-module");
    let main = write(
        &dir,
        "main.tf.json",
        r#"{"resource": {"azurerm_cosmosdb_sql_container": {"events": {
            "name": "events", "database_name": "app",
            "partition_key_paths": ["${var.key}"], "partition_key_version": 2,
            "autoscale_settings": {"max_throughput": 4000}}}}}"#,
    );
    write(
        &dir,
        "variables.tf",
        "variable \"key\" {\n  default = \"/tenantId\"\n}\n",
    );
    for container in [main.clone(), dir.display().to_string()] {
        let args = [
            "check",
            "--container",
            &container,
            DOCS,
            "--format",
            "json",
            "-q",
        ];
        let r = crate::util::verdict_json(&args);
        assert_eq!(r["check"]["key"], "/tenantId", "{container}");
        assert_eq!(r["target"]["throughput_mode"], "autoscale", "{container}");
        assert_eq!(r["target"]["throughput_ru"], 4000.0, "{container}");
    }
}
