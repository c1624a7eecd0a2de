//! `cargo xtask vectors [--arch ARCH] [--check] [--json DIR] [--programs DIR] [--seed N]`:
//! regenerate the golden vectors of both chips (`vectors/blackhole`, `vectors/wormhole`; `--arch`
//! narrows to one), check that the checked-in copy is current, write the corpus as JSON (only the
//! JSON: the YAML corpus is never rewritten by `--json`), or write the vectors' self-checking
//! program forms (Blackhole). Prints how long generation took.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use harness_sfpu::generate::{DEFAULT_SEED, generate, render_all};
use harness_sfpu::vectors::emit::write_json;
use harness_sfpu::vectors::load_file;
use sfpu_reference::isa::Arch;

#[derive(clap::Args)]
pub struct Args {
    /// Only this chip (`blackhole` or `wormhole`); default both. With --json and --programs the
    /// default is Blackhole (one chip per output directory).
    #[arg(long)]
    arch: Option<Arch>,
    /// Do not write anything: exit 1 with a diff if any checked-in file differs from what the
    /// generator produces.
    #[arg(long)]
    check: bool,
    /// Write the corpus as JSON instead, one file per YAML file, into this directory: the
    /// generated files (from --seed) and the checked-in regressions. The YAML corpus is not
    /// touched.
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    json: Option<PathBuf>,
    /// Write the checked-in corpus's vectors as self-checking programs into this directory
    /// (vectors/README.md, "Program forms"): `<FILE>/<case>.sfpu` (tt-llk text), `<FILE>.json`
    /// (words, configuration, signature) and `index.json` (every vector, with the reason when it
    /// has no program form).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["check", "json"])]
    programs: Option<PathBuf>,
    /// With --programs: only the vectors of these files (`SFPMAD,sequences`).
    #[arg(long, value_delimiter = ',', requires = "programs")]
    only: Vec<String>,
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

/// `vectors/<arch>` under the workspace root.
pub fn corpus_dir(arch: Arch) -> PathBuf {
    crate::paths::workspace_root().join("vectors").join(arch.to_string())
}

/// How a stale vector file differs from what the generator writes, by vector id.
#[derive(Debug, Default, PartialEq, Eq)]
struct Staleness {
    /// The lines before the first vector differ (the header, the file's fields).
    header: bool,
    /// Ids whose vector text differs, in the generated file's order.
    changed: Vec<String>,
    /// Ids only the generator writes.
    added: Vec<String>,
    /// Ids only the checked-in file has.
    removed: Vec<String>,
}

impl Staleness {
    fn vectors(&self) -> usize {
        self.changed.len() + self.added.len() + self.removed.len()
    }
}

/// Splits a vector file's text into its header and one block per vector (`- id: ...` to the next).
fn blocks(text: &str) -> (String, Vec<(String, String)>) {
    let mut header = String::new();
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("- id: ") {
            out.push((id.trim().to_string(), String::new()));
        }
        match out.last_mut() {
            Some((_, block)) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {
                header.push_str(line);
                header.push('\n');
            }
        }
    }
    (header, out)
}

fn staleness(on_disk: &str, generated: &str) -> Staleness {
    let (old_header, old) = blocks(on_disk);
    let (new_header, new) = blocks(generated);
    let old_by_id: std::collections::HashMap<&str, &str> =
        old.iter().map(|(id, b)| (id.as_str(), b.as_str())).collect();
    let new_ids: std::collections::HashSet<&str> = new.iter().map(|(id, _)| id.as_str()).collect();
    let mut s = Staleness { header: old_header != new_header, ..Staleness::default() };
    for (id, block) in &new {
        match old_by_id.get(id.as_str()) {
            None => s.added.push(id.clone()),
            Some(old_block) if old_block != block => s.changed.push(id.clone()),
            Some(_) => {}
        }
    }
    s.removed =
        old.iter().filter(|(id, _)| !new_ids.contains(id.as_str())).map(|(id, _)| id.clone()).collect();
    s
}

/// The first few ids of `ids`, and how many more there are.
fn some(ids: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut text = ids.iter().take(SHOWN).map(String::as_str).collect::<Vec<_>>().join(", ");
    if ids.len() > SHOWN {
        text += &format!(" and {} more", ids.len() - SHOWN);
    }
    text
}

pub fn main(args: Args) -> Result<ExitCode> {
    // `--arch` names an SFPU chip: the AMX corpus is left alone then.
    let amx = if args.arch.is_none() { amx_main(&args)? } else { ExitCode::SUCCESS };
    let sfpu = sfpu_main(args)?;
    Ok(if amx != ExitCode::SUCCESS { amx } else { sfpu })
}

fn sfpu_main(args: Args) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    if let Some(out) = &args.json {
        let arch = args.arch.unwrap_or(Arch::Blackhole);
        return write_json_corpus(arch, args.seed, &corpus_dir(arch), out, args.quiet, started);
    }
    if let Some(out) = &args.programs {
        if args.seed != DEFAULT_SEED {
            anyhow::bail!("--programs writes the checked-in corpus's programs; it takes no --seed");
        }
        if args.arch == Some(Arch::Wormhole) {
            anyhow::bail!(
                "--programs: the program forms are Blackhole's (the setup prologues use its encodings)"
            );
        }
        let arch = Arch::Blackhole;
        return write_programs(arch, &corpus_dir(arch), out, &args.only, args.quiet, started);
    }
    if args.seed != DEFAULT_SEED && !args.check {
        anyhow::bail!(
            "the checked-in corpus uses the default seed; --seed is only for --check and --json DIR"
        );
    }
    let chips: Vec<Arch> = match args.arch {
        Some(arch) => vec![arch],
        None => Arch::ALL.to_vec(),
    };
    let mut code = ExitCode::SUCCESS;
    for arch in chips {
        if one_chip(arch, &args, started)? != ExitCode::SUCCESS {
            code = ExitCode::from(1);
        }
    }
    Ok(code)
}

/// Regenerates (or with --check checks) `vectors/<arch>`.
fn one_chip(arch: Arch, args: &Args, started: std::time::Instant) -> Result<ExitCode> {
    let dir = corpus_dir(arch);
    let files = render_all(arch, args.seed);
    if !args.quiet {
        errln!("{arch}: generated {} files in {:.2} s", files.len(), started.elapsed().as_secs_f64());
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
                errln!("vectors/{arch}: up to date");
            }
            return Ok(ExitCode::SUCCESS);
        }
        // A summary per file (which vectors differ), and the diff of the first difference only:
        // a different seed changes every vector, and 76 KB of diff helps nobody.
        const SHOWN_FILES: usize = 10;
        let root = crate::paths::workspace_root();
        let mut vectors = 0;
        for (i, (path, old, new)) in stale.iter().enumerate() {
            let shown = path.strip_prefix(&root).unwrap_or(path);
            let s = staleness(old, new);
            vectors += s.vectors();
            let mut what = Vec::new();
            if old.is_empty() {
                what.push("missing".to_string());
            }
            if s.header {
                what.push("header".to_string());
            }
            for (kind, ids) in [("changed", &s.changed), ("new", &s.added), ("gone", &s.removed)] {
                if !ids.is_empty() {
                    what.push(format!("{} {kind} ({})", ids.len(), some(ids)));
                }
            }
            if i < SHOWN_FILES {
                errln!("{} is stale: {}", shown.display(), what.join("; "));
            } else if i == SHOWN_FILES {
                errln!("... and {} more stale file(s)", stale.len() - SHOWN_FILES);
            }
            if i == 0 && !old.is_empty() {
                let diff = similar::TextDiff::from_lines(old.as_str(), new.as_str());
                let first = diff.unified_diff().context_radius(2).iter_hunks().next().map(|h| h.to_string());
                if let Some(hunk) = first {
                    let lines: Vec<&str> = hunk.lines().collect();
                    errln!("  first difference:");
                    for line in lines.iter().take(20) {
                        errln!("  {line}");
                    }
                    if lines.len() > 20 {
                        errln!("  ... ({} more lines in this hunk)", lines.len() - 20);
                    }
                }
            }
        }
        errln!(
            "{} of {} file(s) are stale ({vectors} vector(s) differ); run `cargo xtask vectors` and commit the result",
            stale.len(),
            files.len()
        );
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
        std::fs::write(&regressions, regressions_template(arch))?;
    }
    if !args.quiet {
        errln!(
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
        errln!("generated {} files in {:.2} s", files.len(), started.elapsed().as_secs_f64());
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
        errln!(
            "wrote {} JSON files (seed 0x{seed:016x}) to {} in {:.2} s",
            files.len(),
            out.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `--programs DIR`: the program forms of the checked-in corpus.
fn write_programs(
    arch: Arch,
    dir: &Path,
    out: &Path,
    only: &[String],
    quiet: bool,
    started: std::time::Instant,
) -> Result<ExitCode> {
    use harness_sfpu::programs::{PROGRAMS_FORMAT, json_form, program_forms, text_form};
    let mut corpus = harness_sfpu::vectors::load_corpus(dir, arch)
        .map_err(|errs| anyhow::anyhow!(errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")))?;
    if !only.is_empty() {
        for name in only {
            if !corpus.files.iter().any(|(_, f)| f.file == *name) {
                anyhow::bail!("--only: there is no vector file `{name}` in {}", dir.display());
            }
        }
        corpus.files.retain(|(_, f)| only.contains(&f.file));
    }
    let forms = program_forms(&corpus);
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut by_file: std::collections::BTreeMap<&str, Vec<serde_json::Value>> = Default::default();
    let mut without = Vec::new();
    let mut reasons: std::collections::BTreeMap<&str, u64> = Default::default();
    let mut words = 0usize;
    // What is written, for the summary: every program form is a file of its own.
    let (mut files, mut bytes) = (0usize, 0usize);
    for (file, id, form) in &forms {
        match form {
            Ok(f) => {
                words += f.prologue.len() + f.program.len() + f.epilogue.len();
                let case = id.strip_prefix(&format!("{file}/")).unwrap_or(id);
                let path = out.join(file).join(format!("{case}.sfpu"));
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("cannot create {}", parent.display()))?;
                }
                let text = text_form(f);
                std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
                (files, bytes) = (files + 1, bytes + text.len());
                by_file.entry(file).or_default().push(json_form(f));
            }
            Err(why) => {
                without.push(serde_json::json!({"id": id, "reason": why}));
                *reasons.entry(why.as_str()).or_default() += 1;
            }
        }
    }
    for (file, programs) in &by_file {
        let doc = serde_json::json!({"format": PROGRAMS_FORMAT, "arch": arch.to_string(), "file": file, "programs": programs});
        let text = serde_json::to_string(&doc)? + "\n";
        std::fs::write(out.join(format!("{file}.json")), &text)?;
        (files, bytes) = (files + 1, bytes + text.len());
    }
    let with = forms.len() - without.len();
    let index = serde_json::json!({
        "format": PROGRAMS_FORMAT,
        "arch": arch.to_string(),
        "generated_by": "cargo xtask vectors --programs DIR",
        "vectors": forms.len(),
        "programs": with,
        "without_program": without,
    });
    let text = serde_json::to_string_pretty(&index)? + "\n";
    std::fs::write(out.join("index.json"), &text)?;
    (files, bytes) = (files + 1, bytes + text.len());
    if !quiet {
        errln!(
            "{with} of {} vectors have a program form ({:.1} %), {words} instruction words, written to {} \
             ({files} files, {:.1} MB) in {:.2} s",
            forms.len(),
            with as f64 * 100.0 / forms.len().max(1) as f64,
            out.display(),
            bytes as f64 / 1e6,
            started.elapsed().as_secs_f64()
        );
        for (why, n) in &reasons {
            errln!("  without: {n:5}  {why}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A new, empty regressions file for `arch`.
pub fn regressions_template(arch: Arch) -> String {
    REGRESSIONS_TEMPLATE.replace("arch: blackhole", &format!("arch: {arch}"))
}

/// A new, empty Blackhole regressions file.
pub const REGRESSIONS_TEMPLATE: &str = "\
# Hand-added regression vectors (kept apart from the generated files; never regenerated).
# Each vector's id starts with `regressions/` and says where it came from (`regressions/fuzz-<sha8>/...`,
# `regressions/conform-dut/...`). Paste the YAML snippet a failure report prints under `vectors:`.
format: sfpu-vectors/3
arch: blackhole
file: regressions
vectors: []
";

/// The AMX corpus, `vectors/amx/<chip>.yaml` (`harness_amx`): written, checked, or
/// mirrored as JSON into `DIR/amx/` with `--json DIR`. `--programs` is the SFPU's alone.
fn amx_main(args: &Args) -> Result<ExitCode> {
    use harness_amx::{format, generate};
    if args.programs.is_some() {
        return Ok(ExitCode::SUCCESS);
    }
    let started = std::time::Instant::now();
    let seed = if args.seed == DEFAULT_SEED { generate::DEFAULT_SEED } else { args.seed };
    let files = generate::files(seed);
    let dir = crate::paths::workspace_root().join("vectors").join("amx");
    if let Some(out) = &args.json {
        let out = out.join("amx");
        std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
        for f in &files {
            let name = format!("{}.json", f.file);
            let json = serde_json::to_string_pretty(f)? + "\n";
            std::fs::write(out.join(&name), json).with_context(|| format!("cannot write {name}"))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.check {
        let mut stale = Vec::new();
        for f in &files {
            let path = dir.join(format!("{}.yaml", f.file));
            if std::fs::read_to_string(&path).unwrap_or_default() != format::to_yaml(f) {
                stale.push(format!("vectors/amx/{}.yaml", f.file));
            }
        }
        if stale.is_empty() {
            if !args.quiet {
                errln!("vectors/amx: up to date");
            }
            return Ok(ExitCode::SUCCESS);
        }
        errln!("{} is stale; run `cargo xtask vectors` and commit the result", stale.join(", "));
        return Ok(ExitCode::from(1));
    }
    if seed != generate::DEFAULT_SEED {
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut bytes = 0;
    for f in &files {
        let text = format::to_yaml(f);
        bytes += text.len();
        let name = format!("{}.yaml", f.file);
        std::fs::write(dir.join(&name), text).with_context(|| format!("cannot write {name}"))?;
    }
    if !args.quiet {
        let vectors: usize = files.iter().map(|f| f.vectors.len()).sum();
        errln!(
            "wrote {} AMX files, {vectors} vectors, {:.1} MB, to {} ({:.2} s)",
            files.len(),
            bytes as f64 / 1e6,
            dir.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staleness_names_the_vectors_that_differ() {
        let old =
            "# header\nfile: X\nvectors:\n- id: X/a\n  pre: 1\n- id: X/b\n  pre: 2\n- id: X/c\n  pre: 3\n";
        let new =
            "# header v2\nfile: X\nvectors:\n- id: X/a\n  pre: 1\n- id: X/b\n  pre: 9\n- id: X/d\n  pre: 4\n";
        let s = staleness(old, new);
        assert_eq!(
            s,
            Staleness {
                header: true,
                changed: vec!["X/b".into()],
                added: vec!["X/d".into()],
                removed: vec!["X/c".into()],
            }
        );
        assert_eq!(s.vectors(), 3);
        assert_eq!(staleness(new, new), Staleness::default());
        let ids: Vec<String> = (0..5).map(|i| format!("X/{i}")).collect();
        assert_eq!(some(&ids), "X/0, X/1, X/2 and 2 more");
    }
}
