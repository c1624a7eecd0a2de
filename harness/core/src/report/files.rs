//! Writing a report: `report.json` and its renderings as one set ([`write_files`]), and the
//! output directory's lock ([`lock_dir`]), which keeps two runs from writing into one directory
//! at once. A process about to exit mid-write (a second signal) calls [`abandon_writes`] first, so
//! that it leaves the previous set or the new one, and no temporary file.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::model::{Renderers, Report};
use super::{html, junit, markdown};
use crate::observe::Cancel;

/// The temporary files of the set being written, and whether the process abandoned writing.
/// Held while one file is written and while the set is renamed into place, so that
/// [`abandon_writes`] waits for that step, never cuts it.
static PENDING: Mutex<Pending> = Mutex::new(Pending { temporaries: Vec::new(), abandoned: false });

struct Pending {
    temporaries: Vec<PathBuf>,
    abandoned: bool,
}

fn lock(pending: &Mutex<Pending>) -> MutexGuard<'_, Pending> {
    pending.lock().unwrap_or_else(PoisonError::into_inner)
}

/// For a process about to exit without unwinding (a second signal): waits for the file being
/// written, or the set being renamed into place, then deletes the temporary files of a set not
/// yet renamed (the previous set stays whole) and makes any later write fail at once. Returns how
/// many files it deleted.
pub fn abandon_writes() -> usize {
    abandon(&PENDING)
}

fn abandon(pending: &Mutex<Pending>) -> usize {
    let mut pending = lock(pending);
    pending.abandoned = true;
    let n = pending.temporaries.len();
    for temporary in pending.temporaries.drain(..) {
        let _ = std::fs::remove_file(temporary);
    }
    n
}

const ABANDONED: &str =
    "the process is exiting: the report was not written; the previous report is untouched";

/// The files a report is written as: `report.json` (the source of truth), `report.md`,
/// `report.html`, `junit.xml`, and `cases.jsonl` (every case record, one JSON object per line:
/// [`cases_jsonl`]).
pub const FILES: [&str; 5] = ["report.json", "report.md", "report.html", "junit.xml", "cases.jsonl"];

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
        cases_jsonl(report),
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
    write_set(&PENDING, dir, FILES.iter().copied().zip(contents.iter().map(String::as_str)))
}

/// Writes `files` (name, contents) into `dir` as a set, registering the temporaries in `pending`.
fn write_set<'a>(
    pending: &Mutex<Pending>,
    dir: &Path,
    files: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<(), String> {
    let mut written: Vec<(PathBuf, PathBuf)> = Vec::new();
    // Deletes this set's temporaries (another thread may be writing another set).
    let discard = |pending: &mut Pending, mine: &[(PathBuf, PathBuf)]| {
        for (temporary, _) in mine {
            let _ = std::fs::remove_file(temporary);
        }
        pending.temporaries.retain(|p| !mine.iter().any(|(t, _)| t == p));
    };
    for (name, text) in files {
        let path = dir.join(name);
        let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let mut pending = lock(pending);
        if pending.abandoned {
            return Err(ABANDONED.to_string());
        }
        pending.temporaries.push(temporary.clone());
        written.push((temporary.clone(), path.clone()));
        if let Err(e) = write_synced(&temporary, text) {
            discard(&mut pending, &written);
            return Err(format!("cannot write {}: {e}; the previous report is untouched", path.display()));
        }
    }
    // The renderings first, report.json last: a reader who finds a new report.json finds the
    // renderings of the same run beside it.
    written.rotate_left(1);
    let mut pending = lock(pending);
    if pending.abandoned {
        return Err(ABANDONED.to_string());
    }
    for (k, (temporary, path)) in written.iter().enumerate() {
        if let Err(e) = std::fs::rename(temporary, path) {
            discard(&mut pending, &written[k..]);
            return Err(format!("cannot write {}: {e}", path.display()));
        }
        pending.temporaries.retain(|p| p != temporary);
    }
    Ok(())
}

/// Every case record of `report` ([`ChipReport::cases`](super::ChipReport::cases)), one JSON
/// object per line, section by section: `{"isa", "chip", "model", "id", "verdict"}` and, unless
/// the case passed, `"reason"`.
pub fn cases_jsonl(report: &Report) -> String {
    let mut out = String::new();
    for chip in &report.chips {
        let isa = if chip.isa.is_empty() { "sfpu" } else { &chip.isa };
        for c in &chip.cases {
            let mut line = serde_json::json!({
                "isa": isa, "chip": chip.arch, "model": c.model, "id": c.id, "verdict": c.verdict,
            });
            if let Some(reason) = &c.reason {
                line["reason"] = serde_json::Value::String(reason.clone());
            }
            out.push_str(&line.to_string());
            out.push('\n');
        }
    }
    out
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
/// writing the set. The wait ends, with an error, within [`Cancel::POLL`] of `cancel` being
/// raised.
pub fn lock_dir(dir: &Path, waiting: &dyn Fn(&str), cancel: &Cancel) -> Result<DirLock, String> {
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
            loop {
                if cancel.is_cancelled() {
                    return Err(format!(
                        "interrupted while waiting for the other run writing {}",
                        dir.display()
                    ));
                }
                match file.try_lock() {
                    Ok(()) => break,
                    Err(std::fs::TryLockError::WouldBlock) => std::thread::sleep(Cancel::POLL),
                    Err(std::fs::TryLockError::Error(e)) => {
                        return Err(format!("cannot lock {}: {e}", path.display()));
                    }
                }
            }
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("cannot lock {}: {e}", path.display()));
        }
    }
    let _ =
        file.set_len(0).and_then(|()| writeln!(file, "{}", std::process::id())).and_then(|()| file.flush());
    Ok(DirLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("harness-core-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn set(tag: &str, size: usize) -> Vec<(&'static str, String)> {
        FILES.iter().map(|&f| (f, format!("{tag} {f}\n").repeat(size))).collect()
    }

    fn write(pending: &Mutex<Pending>, dir: &Path, files: &[(&'static str, String)]) -> Result<(), String> {
        write_set(pending, dir, files.iter().map(|(n, t)| (*n, t.as_str())))
    }

    /// What `dir` holds: the tag of each report file (the first word), and any other file.
    fn holds(dir: &Path) -> (Vec<String>, Vec<String>) {
        let tags = FILES
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(dir.join(f)).unwrap_or_default();
                text.split_whitespace().next().unwrap_or("").to_string()
            })
            .collect();
        let others = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !FILES.contains(&n.as_str()))
            .collect();
        (tags, others)
    }

    /// Abandoning while another thread writes a set, at any moment: the directory then holds the
    /// previous set or the new one, whole, and no temporary file; a later write fails at once.
    #[test]
    fn an_abandoned_write_leaves_one_whole_set() {
        let dir = scratch("abandon");
        let (old, new) = (set("old", 1), set("new", 200_000));
        let mut outcomes = std::collections::BTreeSet::new();
        for delay_us in [0u64, 200, 1_000, 3_000, 10_000, 30_000, 100_000] {
            let pending = Mutex::new(Pending { temporaries: Vec::new(), abandoned: false });
            write(&pending, &dir, &old).unwrap();
            std::thread::scope(|s| {
                let writer = s.spawn(|| write(&pending, &dir, &new));
                std::thread::sleep(std::time::Duration::from_micros(delay_us));
                abandon(&pending);
                let result = writer.join().unwrap();
                let (tags, others) = holds(&dir);
                assert!(others.is_empty(), "left behind: {others:?}");
                let whole = |t: &str| tags.iter().all(|x| x == t);
                match result {
                    Ok(()) => assert!(whole("new"), "{tags:?}"),
                    Err(e) => assert!(whole("old") && e.contains("previous report"), "{tags:?}: {e}"),
                }
                outcomes.insert(tags[0].clone());
            });
            assert!(write(&pending, &dir, &new).unwrap_err().contains("exiting"));
            assert_eq!(holds(&dir).1, Vec::<String>::new());
        }
        assert!(outcomes.contains("old"), "abandoning before the renames keeps the old set");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
