//! Writing a report: `report.json` and its renderings as one set ([`write_files`]), and the
//! output directory's lock ([`lock_dir`]), which keeps two runs from writing into one directory
//! at once.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::model::{Renderers, Report};
use super::{html, junit, markdown};

/// The files a report is written as: `report.json` (the source of truth), `report.md`,
/// `report.html`, `junit.xml`.
pub const FILES: [&str; 4] = ["report.json", "report.md", "report.html", "junit.xml"];

/// The lock file of an output directory ([`lock_dir`]).
pub const LOCK_FILE: &str = ".conform.lock";

/// Writes `report` into `dir` as [`FILES`], with `renderers` for the extensions, as a set: every
/// file is rendered, the free space checked against their size, and each written whole (and
/// synced) to a temporary file in `dir`; only when all four are written are they renamed over the
/// old ones, `report.json` last. Running out of space, or any other failure while writing, leaves
/// the previous set untouched and no temporary file behind; the error names the file.
pub fn write_files(report: &Report, renderers: &Renderers<'_>, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| format!("report.json: {e}"))?;
    let contents = [
        json,
        markdown::render_with(report, renderers),
        html::render_with(report, renderers),
        junit::render_with(report, renderers),
    ];
    let need: u64 = contents.iter().map(|c| c.len() as u64).sum();
    if let Some(free) = available_space(dir)
        && free < need
    {
        return Err(format!(
            "not enough space in {} for the report: it needs {need} bytes, {free} are free; nothing was \
             written",
            dir.display()
        ));
    }
    let mut written: Vec<(PathBuf, PathBuf)> = Vec::new();
    let discard = |written: &[(PathBuf, PathBuf)]| {
        for (temporary, _) in written {
            let _ = std::fs::remove_file(temporary);
        }
    };
    for (name, text) in FILES.iter().zip(&contents) {
        let path = dir.join(name);
        let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        if let Err(e) = write_synced(&temporary, text) {
            let _ = std::fs::remove_file(&temporary);
            discard(&written);
            return Err(format!("cannot write {}: {e}; the previous report is untouched", path.display()));
        }
        written.push((temporary, path));
    }
    // The renderings first, report.json last: a reader who finds a new report.json finds the
    // renderings of the same run beside it.
    written.rotate_left(1);
    for k in 0..written.len() {
        let (temporary, path) = &written[k];
        if let Err(e) = std::fs::rename(temporary, path) {
            discard(&written[k..]);
            return Err(format!("cannot write {}: {e}", path.display()));
        }
    }
    Ok(())
}

fn write_synced(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// The bytes free for this user in the file system holding `dir`, where the system says.
#[cfg(unix)]
fn available_space(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

#[cfg(not(unix))]
fn available_space(_dir: &Path) -> Option<u64> {
    None
}

/// The output directory's lock, held while the value lives (the operating system releases it if
/// the process dies).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

/// Takes the lock of the output directory `dir` ([`LOCK_FILE`], created with the directory if
/// needed, holding the process id of its holder), waiting while another process holds it (after
/// telling `waiting` who), so that two runs never mix their files in one directory: hold it while
/// writing the set.
pub fn lock_dir(dir: &Path, waiting: &dyn Fn(&str)) -> Result<DirLock, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(LOCK_FILE);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot create the lock {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let holder = std::fs::read_to_string(&path).unwrap_or_default();
            let holder = holder.trim();
            waiting(&format!(
                "{} is being written by another run{}; waiting for it",
                dir.display(),
                if holder.is_empty() { String::new() } else { format!(" (process {holder})") }
            ));
            file.lock().map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("cannot lock {}: {e}", path.display()));
        }
    }
    let _ =
        file.set_len(0).and_then(|()| writeln!(file, "{}", std::process::id())).and_then(|()| file.flush());
    Ok(DirLock { _file: file })
}
