//! A Terraform module read as Terraform reads its directory: every `.tf` file, then the
//! variable files Terraform loads itself, then the one given (`--var-file`), bounded in
//! files and bytes.

use anyhow::{Result, bail};

use super::Declared;
use crate::input::side::read_capped;

/// The most files of a Terraform module read, and their most bytes together.
const MODULE_FILES: usize = 1_000;
const MODULE_BYTES: u64 = 64 << 20;

/// The variable files Terraform loads itself from a directory of `names` (sorted), in the
/// order it loads them, each overriding the ones before: `terraform.tfvars`, then
/// `terraform.tfvars.json`, then every `*.auto.tfvars` and `*.auto.tfvars.json` in lexical
/// order of their names.
fn loaded_vars(names: &[String]) -> Vec<&String> {
    let named = |want: &'static str| names.iter().filter(move |n| n.as_str() == want);
    let auto =
        (names.iter()).filter(|n| n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json"));
    (named("terraform.tfvars"))
        .chain(named("terraform.tfvars.json"))
        .chain(auto)
        .collect()
}

/// The containers of the Terraform module `path` (a `.tf` file: its directory; or a
/// directory): every `.tf` file there, read as one configuration as Terraform reads it,
/// with the variable files Terraform loads itself, then `given` (`--var-file`).
pub fn read_directory(path: &str, given: Option<(&str, &str)>) -> Result<Vec<Declared>> {
    let p = std::path::Path::new(path);
    let dir = match p.is_dir() {
        true => p.to_path_buf(),
        false => {
            // The file itself must exist: its siblings alone are not what was asked.
            std::fs::metadata(p).map_err(|e| anyhow::anyhow!("cannot read {path}: {e}"))?;
            p.parent()
                .map(std::path::Path::to_path_buf)
                .unwrap_or_default()
        }
    };
    let dir = if dir.as_os_str().is_empty() {
        ".".into()
    } else {
        dir
    };
    let listing = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("cannot read the directory {}: {e}", dir.display()))?;
    let mut names: Vec<String> = listing
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    let is = |n: &str, tail: &str| n.to_ascii_lowercase().ends_with(tail);
    let tf: Vec<&String> = (names.iter())
        .filter(|n| is(n, ".tf") || is(n, ".tf.json"))
        .collect();
    let auto = loaded_vars(&names);
    if tf.is_empty() {
        bail!(
            "{path}: no .tf file in {}: --container takes a Terraform file or module directory, or ARM/Terraform JSON",
            dir.display()
        );
    }
    if tf.len() + auto.len() > MODULE_FILES {
        bail!(
            "{path}: {} files in the module, more than {MODULE_FILES}",
            tf.len() + auto.len()
        );
    }
    let mut total = 0u64;
    let mut read = |name: &String| -> Result<(String, String)> {
        let shown = dir.join(name).display().to_string();
        let text = read_capped(&shown, "a Terraform file")?;
        total += text.len() as u64;
        if total > MODULE_BYTES {
            bail!(
                "{path}: the module's files hold more than {} MiB: not Terraform configuration",
                MODULE_BYTES >> 20
            );
        }
        Ok((shown, text))
    };
    let files = tf.into_iter().map(&mut read).collect::<Result<Vec<_>>>()?;
    let mut vars = auto
        .into_iter()
        .map(&mut read)
        .collect::<Result<Vec<_>>>()?;
    vars.extend(given.map(|(n, t)| (n.to_owned(), t.to_owned())));
    Ok(super::read_module(&files, &vars)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_files_load_in_terraforms_order() {
        let mut names: Vec<String> = [
            "b.auto.tfvars.json",
            "a.auto.tfvars",
            "terraform.tfvars.json",
            "terraform.tfvars",
            "main.tf",
            "prod.tfvars",
            "c.auto.tfvars",
        ]
        .map(String::from)
        .to_vec();
        names.sort();
        let order: Vec<&str> = loaded_vars(&names)
            .into_iter()
            .map(String::as_str)
            .collect();
        assert_eq!(
            order,
            [
                "terraform.tfvars",
                "terraform.tfvars.json",
                "a.auto.tfvars",
                "b.auto.tfvars.json",
                "c.auto.tfvars"
            ],
            "a named --var-file comes after them all; prod.tfvars only when named"
        );
    }
}
