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
    let target = resolve_links(Path::new(path));
    let existing = std::fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .with_context(|| format!("writing {path}"))?;
        let mut out = std::io::BufWriter::new(file);
        return fill(&mut out)
            .and_then(|()| out.flush())
            .with_context(|| format!("writing {path}"));
    }
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
    std::fs::rename(&partial.0, &target).with_context(|| format!("writing {path}"))
}

/// Whether `output` names the same file as one of `inputs` (after links; a file that does
/// not exist yet names none).
pub fn is_input(output: &str, inputs: &[&str]) -> bool {
    let Ok(out) = std::fs::canonicalize(output) else {
        return false;
    };
    (inputs.iter())
        .filter(|i| **i != "-")
        .any(|i| std::fs::canonicalize(i).is_ok_and(|p| p == out))
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
        assert!(is_input(p, &["x", p]));
        assert!(!is_input(dir.join("new").to_str().unwrap(), &[p]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
