//! `report merge SHARD... [--out DIR]`: the reports of a run's shards (`conform --shard K/N`, each
//! a `report.json` or the directory holding one, in shard order) joined into the report the
//! whole run would have written, in every form. `report render REPORT [--out DIR]`: a saved
//! `report.json` (any format this harness reads) rendered again in every form.
//!
//! Exit status: 0 when the report passes, 1 when it fails, 2 on an error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result, anyhow};
use harness_core::driver::{Driver, RegistryRenderers};
use harness_core::report::merge::merge;
use harness_core::report::{Report, lock_dir, write_files};

use crate::interrupt::Interrupt;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Join the shards' reports, in shard order, into the whole run's.
    Merge {
        /// The shards' report.json files (or the directories holding them), shard 1 first.
        #[arg(required = true, value_name = "SHARD")]
        shards: Vec<PathBuf>,
        /// Where to write the merged report.
        #[arg(long, value_name = "DIR", default_value = "conform-report")]
        out: PathBuf,
    },
    /// Render a saved report.json again (report.md, report.html, junit.xml, and report.json in
    /// the current format).
    Render {
        /// The report.json (or the directory holding it).
        #[arg(value_name = "REPORT")]
        report: PathBuf,
        /// Where to write it.
        #[arg(long, value_name = "DIR", default_value = "conform-report")]
        out: PathBuf,
    },
}

/// Reads the report at `path` (a file, or a directory holding `report.json`).
fn read(path: &Path) -> Result<Report> {
    let file = if path.is_dir() { path.join("report.json") } else { path.to_path_buf() };
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
    Report::from_json(&text).map_err(|e| anyhow!("{}: {e}", file.display()))
}

/// Runs `report` with the renderers of `registry`'s instruction sets.
pub fn main(args: Args, registry: &[&dyn Driver]) -> Result<ExitCode> {
    let (report, out) = match args.command {
        Command::Merge { shards, out } => {
            let reports = shards.iter().map(|p| read(p)).collect::<Result<Vec<_>>>()?;
            (merge(&reports).map_err(|e| anyhow!(e))?, out)
        }
        Command::Render { report, out } => (read(&report)?, out),
    };
    // A signal while waiting for another run's lock ends the wait; a second one exits, leaving the
    // directory's previous set whole.
    let interrupt = Interrupt::install().context("cannot install the SIGINT/SIGTERM/SIGHUP handlers")?;
    lock_dir(&out, &|waiting| errln!("{waiting}"), interrupt.cancel())
        .and_then(|_lock| RegistryRenderers::new(registry).with(|r| write_files(&report, r, &out)))
        .map_err(|e| anyhow!(e))?;
    outln!("overall: {}", report.overall_verdict());
    outln!("report: {}", out.join("report.html").display());
    Ok(if report.passes() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
