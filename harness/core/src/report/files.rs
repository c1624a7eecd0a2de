//! Writing a report: `report.json` and its renderings, each file whole or not at all.

use super::model::{Renderers, Report};
use super::{html, junit, markdown};

/// The files a report is written as, in the order they are written: `report.json` (the source
/// of truth), `report.md`, `report.html`, `junit.xml`.
pub const FILES: [&str; 4] = ["report.json", "report.md", "report.html", "junit.xml"];

/// Writes `report` into `dir` as [`FILES`], with `renderers` for the extensions. Each file is
/// written whole to a temporary file in `dir` first, then renamed over the old one, so a reader
/// never sees a file cut short; an error names the file.
pub fn write_files(report: &Report, renderers: &Renderers<'_>, dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| format!("report.json: {e}"))?;
    let contents = [
        json,
        markdown::render_with(report, renderers),
        html::render_with(report, renderers),
        junit::render_with(report, renderers),
    ];
    for (name, text) in FILES.iter().zip(contents) {
        let path = dir.join(name);
        let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let written = std::fs::write(&temporary, text).and_then(|()| std::fs::rename(&temporary, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(format!("cannot write {}: {e}", path.display()));
        }
    }
    Ok(())
}
