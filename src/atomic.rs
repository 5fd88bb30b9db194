//! Output files that appear whole or not at all: a report (`-o FILE`) or a profile is
//! written under a name of its own beside its final one (two writers never share it), then
//! renamed over it, keeping the permissions of a file it replaces. A failed write (a full
//! disk, an interrupted process) leaves the previous file as it was. A symbolic link is
//! followed and its target replaced; a path that is not a regular file (a device, a FIFO)
//! is written through, never replaced.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// The files being written, removed by [`remove_partials`].
static PARTIALS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A file being written, listed in [`PARTIALS`] while it is.
struct Partial(PathBuf);

impl Partial {
    fn new(path: PathBuf) -> Partial {
        if let Ok(mut list) = PARTIALS.lock() {
            list.push(path.clone());
        }
        Partial(path)
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if let Ok(mut list) = PARTIALS.lock() {
            list.retain(|p| *p != self.0);
        }
    }
}

/// Removes every file [`write()`] is writing: for an interrupted process (SIGINT, SIGTERM),
/// which leaves neither the output nor a half of it.
pub fn remove_partials() {
    if let Ok(list) = PARTIALS.lock() {
        for p in list.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Where a path's symbolic links lead (at most 40 of them, as the kernel follows): the file
/// to replace, so that a link stays a link.
fn resolve_links(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&p) else {
            break;
        };
        p = match p.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    p
}

/// Writes to `path` with `fill` (`-`: standard output), whole or not at all (see the
/// module); errors name the path.
pub fn write(
    path: &str,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    if path == "-" {
        let mut out = std::io::stdout().lock();
        return fill(&mut out)
            .and_then(|()| out.flush())
            .context("writing to standard output");
    }
    // The kernel follows the links first: `/dev/stdout` on a pipe is no file to replace.
    let existing = std::fs::metadata(path).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("writing {path}"))?;
        let mut out = std::io::BufWriter::new(file);
        return fill(&mut out)
            .and_then(|()| out.flush())
            .with_context(|| format!("writing {path}"));
    }
    let target = resolve_links(Path::new(path));
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut partial = target.clone().into_os_string();
    partial.push(format!(".{}.{stamp}.partial", std::process::id()));
    let partial = Partial::new(partial.into());
    let written = || -> std::io::Result<()> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial.0)?;
        if let Some(m) = &existing {
            file.set_permissions(m.permissions())?;
        }
        let mut out = std::io::BufWriter::new(file);
        fill(&mut out)?;
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    };
    if let Err(e) = written() {
        let _ = std::fs::remove_file(&partial.0);
        return Err(e).with_context(|| format!("writing {path}"));
    }
    std::fs::rename(&partial.0, &target)
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&partial.0);
        })
        .with_context(|| format!("writing {path}"))
}

/// Whether `output` names the same file as one of `inputs` (after links), or a Terraform
/// file, present or not yet, of a module folder in `modules` (a folder, or a file whose
/// folder is read whole: its `.tf` and `.tfvars` files).
pub fn is_input(output: &str, inputs: &[&str], modules: &[&str]) -> bool {
    // A file not written yet is placed by its folder.
    let path = Path::new(output);
    let out = std::fs::canonicalize(path).ok().or_else(|| {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(dir).ok()?.join(path.file_name()?))
    });
    let Some(out) = out else {
        return false;
    };
    let same = (inputs.iter())
        .filter(|i| **i != "-")
        .any(|i| std::fs::canonicalize(i).is_ok_and(|p| p == out));
    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let terraform = [".tf", ".tf.json", ".tfvars", ".tfvars.json"]
        .iter()
        .any(|ext| name.ends_with(ext));
    let folder = |m: &&str| {
        let m = std::fs::canonicalize(m).ok()?;
        Some(match m.is_dir() {
            true => m,
            false => m.parent()?.to_path_buf(),
        })
    };
    same || (terraform
        && modules
            .iter()
            .filter_map(folder)
            .any(|d| out.parent() == Some(&d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_previous_file_and_no_partial() {
        let dir = std::env::temp_dir().join(format!("pkadvisor-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("report.json");
        let p = path.to_str().unwrap();
        write(p, |w| w.write_all(b"first")).unwrap();
        let failed = write(p, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(is_input(p, &["x", p], &[]));
        assert!(!is_input(dir.join("new").to_str().unwrap(), &[p], &[]));
        // A module's folder: its .tf files are inputs, a report beside them is not.
        let tf = dir.join("main.tf");
        std::fs::write(&tf, "").unwrap();
        let folder = dir.to_str().unwrap();
        assert!(is_input(tf.to_str().unwrap(), &[], &[folder]));
        assert!(!is_input(p, &[], &[folder]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
