//! `cargo xtask vectors [--check] [--json DIR] [--seed N]`: regenerate the golden vectors, check
//! that the checked-in copy is current, or write the corpus as JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use sfpu_conformance::generate::{DEFAULT_SEED, render_all};
use sfpu_conformance::vectors::load_corpus;
use sfpu_reference::isa::Arch;

#[derive(clap::Args)]
pub struct Args {
    /// Do not write anything: exit 1 with a diff if any checked-in file differs from what the
    /// generator produces.
    #[arg(long)]
    check: bool,
    /// Also write the corpus (generated files and regressions) as JSON, one file per YAML file,
    /// into this directory.
    #[arg(long, value_name = "DIR")]
    json: Option<PathBuf>,
    /// The generator's seed (the checked-in corpus uses the default).
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = parse_seed)]
    seed: u64,
    /// Do not print progress.
    #[arg(long, short)]
    quiet: bool,
}

pub fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim_start_matches("0x").replace('_', "");
    u64::from_str_radix(&t, if s.starts_with("0x") { 16 } else { 10 })
        .map_err(|e| format!("bad seed `{s}`: {e}"))
}

/// `vectors/blackhole` under the workspace root.
pub fn corpus_dir(arch: Arch) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("vectors").join(arch.to_string())
}

pub fn main(args: Args) -> Result<ExitCode> {
    let arch = Arch::Blackhole;
    let dir = corpus_dir(arch);
    let started = std::time::Instant::now();
    let files = render_all(arch, args.seed);
    if !args.quiet {
        eprintln!("generated {} files in {:.1?}", files.len(), started.elapsed());
    }
    if args.check {
        let mut stale = Vec::new();
        for (name, text) in &files {
            let path = dir.join(name);
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            if on_disk != *text {
                stale.push((path, on_disk, text.clone()));
            }
        }
        if stale.is_empty() {
            if !args.quiet {
                eprintln!("vectors/{arch}: up to date");
            }
            return Ok(ExitCode::SUCCESS);
        }
        for (path, old, new) in &stale {
            eprintln!("{} is stale:", path.display());
            let diff = similar::TextDiff::from_lines(old.as_str(), new.as_str());
            let shown: String = diff
                .unified_diff()
                .context_radius(2)
                .to_string()
                .lines()
                .take(40)
                .collect::<Vec<_>>()
                .join("\n");
            eprintln!("{shown}");
        }
        eprintln!("{} file(s) are stale; run `cargo xtask vectors` and commit the result", stale.len());
        return Ok(ExitCode::from(1));
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut bytes = 0;
    for (name, text) in &files {
        bytes += text.len();
        std::fs::write(dir.join(name), text).with_context(|| format!("cannot write {name}"))?;
    }
    let regressions = dir.join("regressions.yaml");
    if !regressions.exists() {
        std::fs::write(&regressions, REGRESSIONS_TEMPLATE)?;
    }
    if !args.quiet {
        eprintln!("wrote {} files, {:.1} MB, to {}", files.len(), bytes as f64 / 1e6, dir.display());
    }
    if let Some(out) = args.json {
        let corpus = load_corpus(&dir, arch).map_err(|errs| {
            anyhow::anyhow!(errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
        })?;
        std::fs::create_dir_all(&out)?;
        for (path, file) in &corpus.files {
            let name = path.with_extension("json");
            let name = name.file_name().unwrap_or_default();
            std::fs::write(out.join(name), serde_json::to_string_pretty(file)?)?;
        }
        if !args.quiet {
            eprintln!("wrote the corpus as JSON to {}", out.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A new, empty regressions file.
pub const REGRESSIONS_TEMPLATE: &str = "\
# Hand-added regression vectors (kept apart from the generated files; never regenerated).
# Each vector's id starts with `regressions/` and says where it came from (`regressions/fuzz-<sha8>/...`,
# `regressions/issue-12/...`). Paste the YAML snippet a failure report prints under `vectors:`.
format: sfpu-vectors/1
arch: blackhole
file: regressions
vectors: []
";
