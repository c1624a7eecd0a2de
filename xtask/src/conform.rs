//! `cargo xtask conform`: the project's main job. Runs every golden vector on the reference model
//! (proving the corpus is in sync), on the fast model and on any `--dut`, runs a seeded random
//! differential campaign against the reference, characterises how Blackhole departs from IEEE 754,
//! and writes the compliance report (`report.json`, `report.md`, `report.html`, `junit.xml`).
//!
//! Exit status: 0 when everything compared is equal, 1 on any divergence, 2 on a usage or input
//! error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use sfpu_conformance::campaign::{self, CampaignConfig, CampaignResult, nth_case, nth_stream};
use sfpu_conformance::dut::ExternalModel;
use sfpu_conformance::generate::{DEFAULT_SEED, to_vector};
use sfpu_conformance::report::build::{
    add_campaign, add_vector_results, empty_matrix, fma_operands, operand_coverage, spec_notes, totals,
};
use sfpu_conformance::report::{
    CampaignInfo, CorpusInfo, ModelInfo, REPORT_FORMAT, Report, SpecInfo, Tool, html, junit, markdown,
};
use sfpu_conformance::vectors::{
    Corpus, FORMAT, Filter, Status, Strictness, Vector, VectorFile, load_corpus, run_corpus, run_vector,
};
use sfpu_conformance::{FastModel, Model, Reference, ieee};
use sfpu_reference::isa::{Arch, Opcode};

#[derive(clap::Args)]
pub struct Args {
    /// The architecture to check.
    #[arg(long, default_value = "blackhole")]
    arch: Arch,
    /// The golden-vector directory (default: vectors/<arch> of this repository).
    #[arg(long, value_name = "DIR")]
    vectors: Option<PathBuf>,
    /// An external implementation speaking the JSON-lines protocol of docs/dut-protocol.md,
    /// as one shell command line. Repeat to compare several side by side.
    #[arg(long = "dut", value_name = "COMMAND")]
    duts: Vec<String>,
    /// Per-case timeout for a --dut, in seconds.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
    /// Do not check the built-in fast model.
    #[arg(long)]
    no_fastpath: bool,
    /// Random-campaign time budget per instruction, in milliseconds (0: no campaign).
    #[arg(long, default_value_t = 600)]
    budget: u64,
    /// Run exactly this many random cases per instruction (ignoring the time budget), for a run
    /// that is identical everywhere.
    #[arg(long)]
    cases: Option<u64>,
    /// The random campaign's seed (decimal or 0x hex).
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = crate::vectors::parse_seed)]
    seed: u64,
    /// Only these instructions (and their vectors), comma-separated: `--only SFPMAD,SFPLOAD`.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Skip the locations the vectors mark non-contractual (check the architecture, not the
    /// current silicon).
    #[arg(long)]
    architecture: bool,
    /// Replay one case: a vector id, or `random/<INSTRUCTION>/<n>` or `random/streams/<n>` (with
    /// the --seed of the run that reported it). Prints the details and a regression snippet.
    #[arg(long, value_name = "ID")]
    replay: Option<String>,
    /// Where to write the report (default: target/conform).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the summary as JSON (the whole report.json) instead of text.
    #[arg(long)]
    json: bool,
    /// No progress bars, no summary: only errors, and the report files.
    #[arg(long, short)]
    quiet: bool,
}

fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    root.canonicalize().unwrap_or(root)
}

/// Quotes `word` for a POSIX shell (and for `--dut`'s own splitting), if it needs it.
fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:@%+".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The options a replay command needs to reproduce a failure of `model` in this run.
fn replay_options(args: &Args, model: &ModelInfo) -> String {
    let mut out = String::new();
    if let Some(dir) = &args.vectors {
        out += &format!(" --vectors {}", shell_quote(&dir.display().to_string()));
    }
    if args.architecture {
        out += " --architecture";
    }
    if let Some(cmd) = &model.command {
        out += &format!(" --dut {}", shell_quote(cmd));
    }
    out
}

/// The models to check, reference first.
fn models(args: &Args) -> Result<Vec<(Box<dyn Model>, ModelInfo)>> {
    let mut out: Vec<(Box<dyn Model>, ModelInfo)> = vec![(
        Box::new(Reference),
        ModelInfo { name: "reference".into(), kind: "reference".into(), ..ModelInfo::default() },
    )];
    if !args.no_fastpath {
        out.push((
            Box::new(FastModel),
            ModelInfo { name: "fastpath".into(), kind: "fastpath".into(), ..ModelInfo::default() },
        ));
    }
    for (i, cmd) in args.duts.iter().enumerate() {
        let dut = ExternalModel::spawn(cmd, args.arch, Duration::from_secs(args.timeout))
            .map_err(|e| anyhow!("--dut `{cmd}` did not start: {e}"))?;
        let name = if args.duts.len() == 1 { "dut".to_string() } else { format!("dut{}", i + 1) };
        let description = dut.describe();
        out.push((
            Box::new(dut),
            ModelInfo {
                name,
                kind: "dut".into(),
                command: Some(cmd.clone()),
                description: Some(description),
            },
        ));
    }
    Ok(out)
}

/// The opcodes selected by --only (all if empty).
fn selected_opcodes(only: &[String]) -> Result<Vec<Opcode>> {
    if only.is_empty() {
        return Ok(Opcode::ALL.to_vec());
    }
    only.iter()
        .map(|name| {
            Opcode::from_name(&name.to_ascii_uppercase())
                .ok_or_else(|| anyhow!("--only: `{name}` is not a Blackhole SFPU instruction"))
        })
        .collect()
}

fn progress(multi: &MultiProgress, quiet: bool, len: u64, what: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = multi.add(ProgressBar::new(len));
    bar.set_style(
        ProgressStyle::with_template("{prefix:>24} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar
}

pub fn main(args: Args) -> Result<ExitCode> {
    if args.arch != Arch::Blackhole {
        bail!("only blackhole is modelled so far");
    }
    let started = Instant::now();
    let dir =
        args.vectors.clone().unwrap_or_else(|| workspace_root().join("vectors").join(args.arch.to_string()));
    let corpus = load_corpus(&dir, args.arch).map_err(|errors| {
        anyhow!(
            "the vectors in {} do not load:\n{}",
            dir.display(),
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
        )
    })?;
    let opcodes = selected_opcodes(&args.only)?;
    let strictness = if args.architecture { Strictness::Architecture } else { Strictness::Silicon };
    let models = models(&args)?;

    if let Some(id) = &args.replay {
        return replay(&args, &corpus, &models, id, strictness);
    }

    let filter = if args.only.is_empty() {
        Filter::default()
    } else {
        Filter::parse(&opcodes.iter().map(|o| o.name()).collect::<Vec<_>>().join(","))
    };
    let multi = MultiProgress::with_draw_target(if args.quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    });
    let mut timings: BTreeMap<String, u64> = BTreeMap::new();
    let mut rows = empty_matrix(args.arch);
    let mut failures = Vec::new();
    let selected_vectors = corpus.vectors().filter(|(_, v)| filter.selects(v)).count() as u64;

    // 1. Every golden vector on every model.
    for (model, info) in &models {
        let t = Instant::now();
        let bar = progress(&multi, args.quiet, selected_vectors, &format!("vectors: {}", info.name));
        let results = run_corpus_with_progress(model.as_ref(), &corpus, &filter, strictness, &bar);
        bar.finish_with_message("done");
        let mut found = add_vector_results(&mut rows, &info.name, &corpus, &results, 3);
        for f in &mut found {
            f.replay += &replay_options(&args, info);
        }
        failures.extend(found);
        timings.insert(format!("vectors/{}", info.name), t.elapsed().as_millis() as u64);
    }

    // 2. The random differential campaign of every other model against the reference.
    let mut campaign_info =
        CampaignInfo { seed: format!("0x{:x}", args.seed), budget_ms: args.budget, cases: 0, streams: 0 };
    if args.budget > 0 || args.cases.is_some() {
        for (model, info) in models.iter().skip(1) {
            let t = Instant::now();
            let config = CampaignConfig {
                seed: args.seed,
                budget: Duration::from_millis(if args.cases.is_some() { u64::MAX / 4 } else { args.budget }),
                max_cases: args.cases,
                opcodes: opcodes.clone(),
                streams: args.only.is_empty(),
                keep_failures: 3,
                strictness,
            };
            let jobs = config.opcodes.len() as u64 + config.streams as u64;
            let bar = progress(&multi, args.quiet, jobs, &format!("random: {}", info.name));
            let done = std::sync::atomic::AtomicU64::new(0);
            let result: CampaignResult = campaign::run(model.as_ref(), &config, &|name, n| {
                if n == 1 {
                    bar.set_message(name.to_string());
                }
                if n % 64 == 0 {
                    bar.tick();
                }
                let _ = &done;
            });
            bar.set_position(jobs);
            bar.finish_with_message(format!("{} cases, {} streams", result.cases, result.streams));
            campaign_info.cases += result.cases;
            campaign_info.streams += result.streams;
            add_campaign(&mut rows, &info.name, &result);
            failures.extend(result.failures.into_iter().map(|mut f| {
                f.replay += &replay_options(&args, info);
                f
            }));
            timings.insert(format!("random/{}", info.name), t.elapsed().as_millis() as u64);
        }
    }

    // 3. How Blackhole departs from IEEE 754.
    let t = Instant::now();
    let ieee = ieee::characterise(&fma_operands(&corpus), args.seed, 100_000);
    timings.insert("ieee".to_string(), t.elapsed().as_millis() as u64);

    let totals = totals(&rows);
    timings.insert("total".to_string(), started.elapsed().as_millis() as u64);
    let report = Report {
        format: REPORT_FORMAT.to_string(),
        tool: Tool { name: "sfpu-conformance".into(), version: env!("CARGO_PKG_VERSION").into() },
        arch: args.arch.to_string(),
        spec: SpecInfo {
            notes: "blackhole-sfpu.md (project specification notes)".into(),
            upstream:
                "tenstorrent/tt-isa-documentation BlackholeA0 pages at the commits cited in reference/src; \
                       Miscellaneous/FMA/fma.c @ 06c5af5b8b68c9e59e698ab76b59181b7dd47222"
                    .into(),
        },
        corpus: CorpusInfo {
            path: dir.display().to_string(),
            format: FORMAT.to_string(),
            files: corpus.files.len(),
            vectors: corpus.vectors().count(),
            generator: corpus_generator(&dir),
        },
        campaign: campaign_info,
        strictness: if args.architecture { "architecture" } else { "silicon" }.into(),
        models: models.iter().map(|(_, i)| i.clone()).collect(),
        matrix: rows,
        totals,
        failures,
        ieee,
        spec_notes: spec_notes(&corpus),
        operand_coverage: operand_coverage(&corpus),
        timings_ms: timings,
    };
    let out_dir = args.out.clone().unwrap_or_else(|| workspace_root().join("target").join("conform"));
    write_report(&report, &out_dir)?;

    let divergent = report.totals.values().any(|c| c.failed + c.errors + c.random_failures > 0);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else if !args.quiet {
        print_summary(&report, &out_dir);
    }
    Ok(if divergent { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The generator line recorded in the corpus's headers.
fn corpus_generator(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("SFPMAD.yaml"))
        .ok()
        .and_then(|t| {
            t.lines().find(|l| l.starts_with("# format:")).map(|l| l.trim_start_matches("# ").to_string())
        })
        .unwrap_or_default()
}

/// `run_corpus` with a progress bar: the corpus in chunks, each chunk in parallel.
fn run_corpus_with_progress(
    model: &dyn Model,
    corpus: &Corpus,
    filter: &Filter,
    strictness: Strictness,
    bar: &ProgressBar,
) -> Vec<sfpu_conformance::vectors::VectorResult> {
    let mut out = Vec::new();
    for (path, file) in &corpus.files {
        let one = Corpus { files: vec![(path.clone(), file.clone())] };
        let results = run_corpus(model, &one, filter, strictness);
        bar.inc(results.len() as u64);
        out.extend(results);
    }
    out
}

fn write_report(report: &Report, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::write(dir.join("report.json"), serde_json::to_string_pretty(report)?)?;
    std::fs::write(dir.join("report.md"), markdown::render(report))?;
    std::fs::write(dir.join("report.html"), html::render(report))?;
    std::fs::write(dir.join("junit.xml"), junit::render(report))?;
    Ok(())
}

fn print_summary(report: &Report, out_dir: &Path) {
    println!();
    println!(
        "SFPU conformance, {} ({} vectors, campaign seed {})",
        report.arch, report.corpus.vectors, report.campaign.seed
    );
    println!(
        "{:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9} {:>9}",
        "model", "vectors", "passed", "failed", "errors", "unsupp.", "tainted", "random", "rnd fail"
    );
    for m in &report.models {
        let c = report.totals.get(&m.name).copied().unwrap_or_default();
        println!(
            "{:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9} {:>9}",
            m.name,
            c.vectors_run,
            c.passed,
            c.failed,
            c.errors,
            c.unsupported,
            c.tainted,
            c.random_cases,
            c.random_failures
        );
    }
    for f in report.failures.iter().take(10) {
        println!("\nFAIL [{}] {} ({} {}): replay with `{}`", f.model, f.id, f.instruction, f.mode, f.replay);
        for line in f.details.lines().take(12) {
            println!("  {line}");
        }
    }
    if report.failures.len() > 10 {
        println!("\n... {} more failures in the report", report.failures.len() - 10);
    }
    let total = report.timings_ms.get("total").copied().unwrap_or(0);
    println!("\nreport: {} ({:.1}s)", out_dir.join("report.html").display(), total as f64 / 1000.0);
}

/// `--replay ID`: run one case on every model and print what differs, with a regression snippet.
fn replay(
    args: &Args,
    corpus: &Corpus,
    models: &[(Box<dyn Model>, ModelInfo)],
    id: &str,
    strictness: Strictness,
) -> Result<ExitCode> {
    let (file, vector): (VectorFile, Vector) = if let Some(rest) = id.strip_prefix("random/") {
        let (name, n) =
            rest.rsplit_once('/').ok_or_else(|| anyhow!("--replay: expected random/<INSTRUCTION>/<n>"))?;
        let n: u64 = n.parse().with_context(|| format!("--replay: `{n}` is not a case number"))?;
        let case = if name == "streams" {
            nth_stream(args.seed, n)
        } else {
            let op =
                Opcode::from_name(name).ok_or_else(|| anyhow!("--replay: `{name}` is not an instruction"))?;
            nth_case(args.seed, op, n)
        };
        let mut v = to_vector("random", &case);
        v.id = id.to_string();
        (VectorFile { format: FORMAT.into(), arch: args.arch, file: "random".into(), vectors: vec![] }, v)
    } else {
        let (f, v) = corpus
            .vectors()
            .find(|(_, v)| v.id == id)
            .ok_or_else(|| anyhow!("--replay: no vector `{id}`"))?;
        (VectorFile { vectors: vec![], ..f.clone() }, v.clone())
    };
    println!("{} ({} instruction(s))", vector.id, vector.program.len());
    for w in &vector.program {
        println!("  0x{:08x}  {}", w.word.0, w.text);
    }
    let mut divergent = false;
    for (model, info) in models {
        match run_vector(model.as_ref(), &file, &vector, strictness).status {
            Status::Pass => println!("{}: pass", info.name),
            Status::Unsupported(why) => println!("{}: unsupported ({why})", info.name),
            Status::Error(e) => {
                divergent = true;
                println!("{}: error: {e}", info.name);
            }
            Status::Fail(f) => {
                divergent = true;
                println!("{}: FAIL\n{}", info.name, f.report);
            }
        }
    }
    println!("\n# regression vector (paste under `vectors:` in vectors/{}/regressions.yaml):", args.arch);
    print!("{}", campaign::regression_snippet(&vector, "replay"));
    Ok(if divergent { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
