//! Public artefacts nobody here wrote (../shared/real, sources in its README): each is read,
//! or refused with a message a user can act on. Every test skips, saying so, when the
//! folder is absent.

use std::path::Path;

use crate::util::pkadvisor;

/// The folder of public artefacts, beside the repository.
const REAL: &str = "../shared/real";

/// The path of `rel` under [`REAL`], or `None` (with a printed note) when absent.
fn real(test: &str, rel: &str) -> Option<String> {
    let p = Path::new(REAL).join(rel);
    if p.exists() {
        return Some(p.to_string_lossy().into_owned());
    }
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {test}: {} is absent (public artefacts, see tests/real.rs)",
        p.display()
    );
    None
}

/// The JSON of `path`.
fn json_of(path: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON")
}

/// Runs `args`, returning the exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = pkadvisor().args(args).output().expect("runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The parameter `name`'s `defaultValue` in an ARM template.
fn default_of(template: &serde_json::Value, name: &str) -> serde_json::Value {
    template["parameters"][name]["defaultValue"].clone()
}

#[test]
fn the_quickstart_template_fails_for_a_key_no_product_holds() {
    let t = "the_quickstart_template_fails_for_a_key_no_product_holds";
    let (Some(arm), Some(docs)) = (
        real(t, "infra/quickstart-cosmosdb-sql.azuredeploy.json"),
        real(t, "docs/cosmicworks-v4-product.json"),
    ) else {
        return;
    };
    let template = json_of(&arm);
    let resource = &template["resources"][2]["properties"]["resource"];
    let path = resource["partitionKey"]["paths"][0].as_str().unwrap();
    let field = path.trim_start_matches('/');
    // The rule: a key no document holds fails at any size. Check the premise first.
    let products = json_of(&docs);
    let products = products.as_array().unwrap();
    assert!(products.iter().all(|p| p.get(field).is_none()));
    let name = default_of(&template, "containerName");
    let ru = default_of(&template, "throughput").as_f64().unwrap();
    for size in ["10GB", "20GB", "1TB"] {
        let (code, out, err) = run(&[
            "check",
            "--container",
            &arm,
            &docs,
            "--target-storage",
            size,
            "--format",
            "json",
        ]);
        assert_eq!(code, 1, "{size}: {err}");
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(r["check"]["passed"], false);
        assert_eq!(r["check"]["key"], path);
        // The container's name and throughput come from the parameters' defaults.
        assert_eq!(r["check"]["container"], name);
        assert!((r["target"]["throughput_ru"].as_f64().unwrap() - ru).abs() < 1e-9);
        assert_eq!(r["target"]["throughput_mode"], "manual");
        assert!(
            !r["target"]["defaults"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d == "throughput")
        );
        let source = r["target"]["sources"]["throughput"].as_str().unwrap();
        assert!(
            source.contains("options.throughput = [parameters('throughput')]"),
            "{source}"
        );
        assert!(r["target"]["sources"]["indexing"].is_string());
        let reasons = r["check"]["reasons"].to_string();
        assert!(reasons.contains("MISSING_KEY"), "{size}: {reasons}");
        let documents = r["input"]["documents"].as_u64().unwrap();
        assert_eq!(documents, products.len() as u64);
    }
    // The text names the resolved container and where the throughput comes from.
    let (code, out, _) = run(&["check", "--container", &arm, &docs]);
    assert_eq!(code, 1);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "FAIL  {path} (container {})",
            name.as_str().unwrap()
        )),
        "{first}"
    );
    assert!(out.contains("throughput declared in"), "{out}");
    // A flag overrides the declared figure.
    let (code, out, _) = run(&[
        "check",
        "--container",
        &arm,
        &docs,
        "--throughput",
        "1000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["target"]["throughput_ru"], 1000.0);
    assert!(
        r["target"]
            .get("sources")
            .unwrap()
            .get("throughput")
            .is_none()
    );
}

#[test]
fn copy_loops_resolve_from_the_parameters_file_and_refuse_without_it() {
    let t = "copy_loops_resolve_from_the_parameters_file_and_refuse_without_it";
    let (Some(arm), Some(params), Some(docs)) = (
        real(t, "infra/quickstart-multiple-containers.azuredeploy.json"),
        real(
            t,
            "infra/quickstart-multiple-containers.azuredeploy.parameters.json",
        ),
        real(t, "docs/cosmicworks-v4-product.json"),
    ) else {
        return;
    };
    // Without the parameters: the loop's array has no default; the error says what to pass.
    let (code, _, err) = run(&["check", "--container", &arm, &docs]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("[length(parameters('containers'))]"), "{err}");
    assert!(err.contains("--parameters FILE"), "{err}");
    // With them: one container per item; several make the user pick, naming each.
    let p = json_of(&params);
    let db = p["parameters"]["databaseName"]["value"].as_str().unwrap();
    let items = p["parameters"]["containers"]["value"].as_array().unwrap();
    let (code, _, err) = run(&["check", "--container", &arm, "--parameters", &params, &docs]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("declares {} containers", items.len())),
        "{err}"
    );
    for item in items {
        let name = item["name"].as_str().unwrap();
        assert!(err.contains(&format!("{db}/{name}")), "{err}");
        let (code, out, err) = run(&[
            "check",
            "--container",
            &arm,
            "--var-file",
            &params,
            "--container-name",
            name,
            &docs,
            "--format",
            "json",
        ]);
        // No product holds either key: both fail.
        assert_eq!(code, 1, "{err}");
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(r["check"]["key"], item["partitionKey"]);
        assert_eq!(r["check"]["container"], name);
    }
}
