//! `cargo xtask vectors [--check] [--json DIR] [--seed N]`: regenerate the golden vectors, check
//! that the checked-in copy is current, or write the corpus as JSON (only the JSON: the YAML
//! corpus is never rewritten by `--json`). Prints how long generation took.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use sfpu_conformance::generate::{DEFAULT_SEED, generate, render_all};
use sfpu_conformance::vectors::emit::write_json;
use sfpu_conformance::vectors::load_file;
use sfpu_reference::isa::Arch;

#[derive(clap::Args)]
pub struct Args {
    /// Do not write anything: exit 1 with a diff if any checked-in file differs from what the
    /// generator produces.
    #[arg(long)]
    check: bool,
    /// Write the corpus as JSON instead, one file per YAML file, into this directory: the
    /// generated files (from --seed) and the checked-in regressions. The YAML corpus is not
    /// touched.
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    json: Option<PathBuf>,
    /// The generator's seed (the checked-in corpus uses the default; only --check and --json
    /// accept another, so the checked-in files never change seed).
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
    if let Some(out) = &args.json {
        return write_json_corpus(arch, args.seed, &dir, out, args.quiet, started);
    }
    if args.seed != DEFAULT_SEED && !args.check {
        anyhow::bail!(
            "the checked-in corpus uses the default seed; --seed is only for --check and --json DIR"
        );
    }
    let files = render_all(arch, args.seed);
    if !args.quiet {
        eprintln!("generated {} files in {:.2} s", files.len(), started.elapsed().as_secs_f64());
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
        eprintln!(
            "wrote {} files, {:.1} MB, to {} ({:.2} s in all)",
            files.len(),
            bytes as f64 / 1e6,
            dir.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `--json DIR`: the generated files of `seed` and the checked-in regressions, as JSON.
fn write_json_corpus(
    arch: Arch,
    seed: u64,
    dir: &Path,
    out: &Path,
    quiet: bool,
    started: std::time::Instant,
) -> Result<ExitCode> {
    let mut files = generate(arch, seed);
    if !quiet {
        eprintln!("generated {} files in {:.2} s", files.len(), started.elapsed().as_secs_f64());
    }
    let regressions = dir.join("regressions.yaml");
    if regressions.exists() {
        let file = load_file(&regressions).map_err(|errs| {
            anyhow::anyhow!(errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
        })?;
        files.push(file);
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for file in &files {
        let name = format!("{}.json", file.file);
        std::fs::write(out.join(&name), write_json(file)).with_context(|| format!("cannot write {name}"))?;
    }
    if !quiet {
        eprintln!(
            "wrote {} JSON files (seed 0x{seed:016x}) to {} in {:.2} s",
            files.len(),
            out.display(),
            started.elapsed().as_secs_f64()
        );
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
