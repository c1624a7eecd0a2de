//! `cargo xtask conform`: the project's main job. Runs every golden vector on the reference model
//! (proving the corpus is in sync), on the fast model and on any `--dut`, runs a seeded random
//! differential campaign against the reference, characterises how the chip departs from IEEE 754;
//! it does so for both chips (Blackhole, then Wormhole; `--arch` narrows it to one), measures the
//! SFPI kernels' accuracy on the chips checked, and writes one compliance report with a section
//! per chip (`report.json`, `report.md`, `report.html`, `junit.xml`).
//!
//! A `--dut` runs its cases one at a time in a fixed order (the vectors in corpus order, then the
//! campaign instruction by instruction); one that refuses the hello is reported with every case
//! unsupported; one given up on (docs/dut-protocol.md) fails its remaining cases at once. The
//! terminal summary prints the first failures with their replay commands and YAML regression
//! vectors.
//!
//! Exit status: 0 when everything compared is equal, 1 on any divergence, 2 on a usage or input
//! error.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use harness_core::report::{
    CampaignInfo, ChipReport, CorpusInfo, ModelCoverage, ModelInfo, REPORT_FORMAT, ReasonEntry, Report,
    SpecInfo, Tool, html, junit, markdown,
};
use harness_sfpu::accuracy::{DEFAULT_SEED as KERNEL_ACCURACY_SEED, KernelAccuracy};
use harness_sfpu::campaign::{
    self, CampaignConfig, CampaignResult, DEFAULT_CASES_PER_MODE, Limit, MAX_CASES, Progress, nth_case_for,
    nth_stream_for,
};
use harness_sfpu::dut::{ExternalModel, RefusedDut};
use harness_sfpu::generate::{DEFAULT_SEED, to_vector};
use harness_sfpu::report::{
    self, Tally, add_campaign, add_vector_results, empty_matrix_for, operand_coverage, spec_notes, totals,
    vector_operands,
};
use harness_sfpu::vectors::{
    Corpus, FORMAT, Filter, Status, Strictness, Vector, VectorFile, VectorResult, load_corpus, run_vector,
};
use harness_sfpu::{FastModel, Model, ModelError, REPORT_EXTENSIONS, Reference, ieee};
use sfpu_reference::isa::{Arch, Opcode};

use crate::interrupt::Interrupt;
use crate::progress::{Phase, Progress as Display};

/// An instruction set `cargo xtask conform` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IsaArg {
    /// The Tenstorrent Tensix Vector Unit (Blackhole, Wormhole).
    Sfpu,
    /// Apple AMX `vecfp` (chip profiles M1, M2 = M3, M4).
    Amx,
}

#[derive(clap::Args)]
pub struct Args {
    /// The instruction set to check (default: every one, SFPU then AMX, one report with a section
    /// per instruction set and chip).
    #[arg(long, value_enum)]
    isa: Option<IsaArg>,
    /// The chip to check: an SFPU chip (`blackhole`, `wormhole`: as --arch) or an AMX chip profile
    /// (`m1`, `m2`, `m3` = `m2`, `m4`).
    #[arg(long, conflicts_with = "arch")]
    chip: Option<String>,
    /// The SFPU architecture to check (default: both, Blackhole then Wormhole). A replay runs on
    /// this chip (default: blackhole). Implies --isa sfpu.
    #[arg(long)]
    arch: Option<Arch>,
    /// The golden-vector directory (default: vectors/<arch> of this repository). Without --arch,
    /// the chips whose vectors it holds are checked.
    #[arg(long, value_name = "DIR")]
    vectors: Option<PathBuf>,
    /// An external implementation speaking the JSON-lines protocol of docs/dut-protocol.md: a
    /// program and its arguments, split at spaces with shell-like quoting ('...', "...", \); no
    /// shell runs it (write `sh -c '...'` for one). Repeat to compare several side by side.
    #[arg(long = "dut", value_name = "COMMAND")]
    duts: Vec<String>,
    /// Per-case timeout for a --dut, in seconds (at least 1). A DUT that times out on 3 cases in
    /// a row is given up on: every later case fails at once.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// Do not check the built-in fast model.
    #[arg(long)]
    no_fastpath: bool,
    /// Random cases per (instruction, mode value), and 16 times as many random streams; the same
    /// cases on every run (0: no campaign). Default: 64.
    #[arg(long, conflicts_with = "budget")]
    cases: Option<u64>,
    /// Instead of a number of cases, a time budget per instruction (and for the streams), in
    /// milliseconds, for overnight runs: as many cases as fit, so not the same on every run
    /// (0: no campaign).
    #[arg(long, value_name = "MS")]
    budget: Option<u64>,
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

/// The repository's root (this crate's parent directory), canonical where possible.
pub(crate) fn workspace_root() -> PathBuf {
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
fn replay_options(args: &Args, arch: Arch, model: &ModelInfo) -> String {
    let mut out = format!(" --arch {arch}");
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

/// One implementation being checked.
enum Checked {
    /// The reference or the fast model.
    Builtin(Box<dyn Model>),
    /// A `--dut` that accepted the hello.
    Dut(Box<ExternalModel>),
    /// A `--dut` that refused the hello: every case is unsupported (docs/dut-protocol.md).
    Refused(RefusedDut),
}

impl Checked {
    fn model(&self) -> &dyn Model {
        match self {
            Checked::Builtin(m) => m.as_ref(),
            Checked::Dut(m) => m.as_ref(),
            Checked::Refused(m) => m,
        }
    }

    /// An external process: one case at a time, in a fixed order.
    fn is_external(&self) -> bool {
        !matches!(self, Checked::Builtin(_))
    }

    /// Why the DUT was given up on, if it was.
    fn given_up(&self) -> Option<String> {
        match self {
            Checked::Dut(m) => m.given_up(),
            _ => None,
        }
    }
}

/// The models to check, reference first. A `--dut` that cannot start is an error (exit 2); one
/// that refuses the hello is checked as a [`RefusedDut`].
fn models(args: &Args, arch: Arch) -> Result<Vec<(Checked, ModelInfo)>> {
    let mut out = vec![(
        Checked::Builtin(Box::new(Reference)),
        ModelInfo { name: "reference".into(), kind: "reference".into(), ..ModelInfo::default() },
    )];
    if !args.no_fastpath {
        out.push((
            Checked::Builtin(Box::new(FastModel)),
            ModelInfo { name: "fastpath".into(), kind: "fastpath".into(), ..ModelInfo::default() },
        ));
    }
    for (i, cmd) in args.duts.iter().enumerate() {
        let name = if args.duts.len() == 1 { "dut".to_string() } else { format!("dut{}", i + 1) };
        let (checked, description) = match ExternalModel::spawn(cmd, arch, Duration::from_secs(args.timeout))
        {
            Ok(dut) => {
                let description = dut.describe();
                (Checked::Dut(Box::new(dut)), description)
            }
            Err(ModelError::Unsupported(reason)) => {
                let description = format!("{reason}: every case is unsupported");
                (Checked::Refused(RefusedDut::new(reason)), description)
            }
            Err(ModelError::Failed(e)) => bail!("--dut `{cmd}` did not start ({arch}): {e}"),
        };
        let declaration = declaration_of(&checked);
        out.push((
            checked,
            ModelInfo {
                name,
                kind: "dut".into(),
                command: Some(cmd.clone()),
                description: Some(description),
                declaration,
            },
        ));
    }
    Ok(out)
}

/// What a DUT's hello declared, in words (`None`: it declared nothing, and is given everything).
fn declaration_of(checked: &Checked) -> Option<String> {
    match checked {
        Checked::Dut(m) => m.declared().map(|d| d.describe()),
        _ => None,
    }
}

/// The opcodes selected by --only (all if empty).
fn selected_opcodes(arch: Arch, only: &[String]) -> Result<Vec<Opcode>> {
    if only.is_empty() {
        return Ok(arch.opcodes().to_vec());
    }
    only.iter()
        .map(|name| {
            Opcode::from_name(&name.to_ascii_uppercase())
                .filter(|&op| arch.has(op))
                .ok_or_else(|| anyhow!("--only: `{name}` is not a {arch} SFPU instruction"))
        })
        .collect()
}

/// What `--replay` names: a golden vector, or a case of the random campaign.
enum ReplayTarget {
    /// A vector id of the corpus.
    Vector(String),
    /// `random/<INSTRUCTION>/<n>` (`op` is `None` for `random/streams/<n>`).
    Random { op: Option<Opcode>, n: u64 },
}

/// Parses a `--replay` id, refusing a malformed or out-of-range random case before anything slow
/// starts.
fn parse_replay(id: &str) -> Result<ReplayTarget> {
    let Some(rest) = id.strip_prefix("random/") else {
        return Ok(ReplayTarget::Vector(id.to_string()));
    };
    let (name, n) = rest.rsplit_once('/').ok_or_else(|| {
        anyhow!("--replay: expected random/<INSTRUCTION>/<n> or random/streams/<n>, got `{id}`")
    })?;
    let n: u64 = n.parse().map_err(|_| {
        anyhow!("--replay: `{n}` is not a case number (the campaign numbers cases 0 to {})", MAX_CASES - 1)
    })?;
    if n >= MAX_CASES {
        bail!("--replay: case {n} is out of range: the campaign numbers cases 0 to {}", MAX_CASES - 1);
    }
    let op = if name == "streams" {
        None
    } else {
        Some(Opcode::from_name(name).ok_or_else(|| anyhow!("--replay: `{name}` is not an instruction"))?)
    };
    Ok(ReplayTarget::Random { op, n })
}

/// Creates `dir` if needed and checks a file can be written in it, so that a run does not find
/// out at its end that its report has nowhere to go.
fn check_writable(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("--out: cannot create {}", dir.display()))?;
    let probe = dir.join(".conform-write-check");
    std::fs::write(&probe, b"").with_context(|| format!("--out: cannot write in {}", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// The chips this run checks: `--arch`, or both. With `--vectors DIR` and no `--arch`, the chips
/// whose corpus DIR holds (each file names its chip).
fn chips_of(args: &Args) -> Vec<Arch> {
    match args.arch {
        Some(arch) => vec![arch],
        None => {
            let all = vec![Arch::Blackhole, Arch::Wormhole];
            match &args.vectors {
                Some(dir) => {
                    let found: Vec<Arch> = all.into_iter().filter(|&a| load_corpus(dir, a).is_ok()).collect();
                    // None loads: report Blackhole's load errors (the previous default).
                    if found.is_empty() { vec![Arch::Blackhole] } else { found }
                }
                None => all,
            }
        }
    }
}

/// What checking one chip produced, for the report and the terminal summary.
struct ChipRun {
    report: ChipReport,
    /// The DUTs given up on, with why.
    given_up: Vec<(String, String)>,
    /// The vectors in the chip's corpus (the run may have selected fewer).
    in_corpus: usize,
}

/// Which instruction sets and chips a run checks: `--isa`, `--chip`, `--arch`. Without `--isa`
/// and `--chip`, every instruction set, unless an option only the SFPU has (`--arch`, `--only`,
/// `--dut`, `--budget`, `--vectors`, `--architecture`) narrows the run to it.
fn plan(args: &mut Args) -> Result<(bool, Vec<amx_reference::Chip>)> {
    let sfpu_only_option = [
        (args.arch.is_some(), "--arch"),
        (!args.only.is_empty(), "--only"),
        (args.budget.is_some(), "--budget"),
        (args.vectors.is_some(), "--vectors"),
        (args.architecture, "--architecture"),
    ]
    .into_iter()
    .find_map(|(set, name)| set.then_some(name));
    let mut amx_chip = None;
    if let Some(name) = args.chip.clone() {
        if let Ok(arch) = name.parse::<Arch>() {
            if args.isa == Some(IsaArg::Amx) {
                bail!("--chip {name} is an SFPU chip, not one of --isa amx's (m1, m2, m3, m4)");
            }
            args.arch = Some(arch);
            return Ok((true, Vec::new()));
        }
        let chip = crate::conform_amx::chip_named(&name)
            .map_err(|_| anyhow!("--chip: `{name}` is neither an SFPU chip (blackhole, wormhole) nor an AMX chip profile (m1, m2, m3, m4)"))?;
        if args.isa == Some(IsaArg::Sfpu) {
            bail!("--chip {name} is an AMX chip profile, not one of --isa sfpu's (blackhole, wormhole)");
        }
        amx_chip = Some(chip);
    }
    let amx = amx_chip.is_some() || args.isa == Some(IsaArg::Amx);
    // A --dut is one instruction set's: the SFPU's unless --isa amx or an AMX --chip says AMX.
    let sfpu_only_option = sfpu_only_option.or((!amx && !args.duts.is_empty()).then_some("--dut"));
    if amx {
        if let Some(option) = sfpu_only_option {
            bail!("{option} is an option of the SFPU's checks only, not of AMX's");
        }
        return Ok((false, amx_chip.map_or_else(|| amx_reference::Chip::ALL.to_vec(), |c| vec![c])));
    }
    let all_amx = args.isa.is_none() && sfpu_only_option.is_none();
    Ok((true, if all_amx { amx_reference::Chip::ALL.to_vec() } else { Vec::new() }))
}

pub fn main(mut args: Args) -> Result<ExitCode> {
    let started = Instant::now();
    let interrupt = Interrupt::install().context("cannot install the SIGINT/SIGTERM/SIGHUP handlers")?;
    let root = workspace_root();
    if let Some(id) = args.replay.clone()
        && (args.isa == Some(IsaArg::Amx) || crate::conform_amx::is_amx_id(&id))
    {
        let duts =
            crate::conform_amx::Duts { commands: &args.duts, timeout: Duration::from_secs(args.timeout) };
        return crate::conform_amx::replay(&root, &id, args.seed, args.no_fastpath, &duts);
    }
    let (sfpu, amx_chips) = plan(&mut args)?;
    let chips = if sfpu { chips_of(&args) } else { Vec::new() };

    // Everything that can be refused without the corpus is checked first: the arguments, the
    // output directory, and the DUTs' hellos (a DUT that cannot start is an error in seconds).
    // --only: each chip checks the named instructions it has; a name no chip has is an error.
    let mut per_chip_opcodes: Vec<(Arch, Vec<Opcode>)> = Vec::new();
    let mut only_errors = Vec::new();
    for &arch in &chips {
        match selected_opcodes(arch, &args.only) {
            Ok(ops) => per_chip_opcodes.push((arch, ops)),
            Err(e) => only_errors.push(e),
        }
    }
    if per_chip_opcodes.is_empty() && sfpu {
        return Err(only_errors.remove(0));
    }
    if !args.only.is_empty() && chips.len() > 1 {
        // Keep on each chip only the names it has; a name neither has is an error.
        for name in &args.only {
            let upper = name.to_ascii_uppercase();
            let known = Opcode::from_name(&upper).is_some_and(|op| chips.iter().any(|a| a.has(op)));
            if !known {
                bail!("--only: `{name}` is not an SFPU instruction of {}", join_archs(&chips));
            }
        }
        per_chip_opcodes = chips
            .iter()
            .map(|&arch| {
                let ops: Vec<Opcode> = args
                    .only
                    .iter()
                    .filter_map(|n| Opcode::from_name(&n.to_ascii_uppercase()))
                    .filter(|&op| arch.has(op))
                    .collect();
                (arch, ops)
            })
            .filter(|(_, ops)| !ops.is_empty())
            .collect();
    }
    if args.cases.is_some_and(|n| n > MAX_CASES) {
        bail!("--cases: at most {MAX_CASES} cases per instruction and mode value");
    }
    let limit = match (args.budget, args.cases) {
        (Some(ms), _) => Limit::Budget(Duration::from_millis(ms)),
        (None, n) => Limit::PerMode(n.unwrap_or(DEFAULT_CASES_PER_MODE)),
    };
    let replay_target = args.replay.as_deref().map(parse_replay).transpose()?;
    let out_dir = args.out.clone().unwrap_or_else(|| root.join("target").join("conform"));
    if replay_target.is_some() {
        // A replay runs on one chip: --arch's, or Blackhole's (replay commands name the chip).
        let arch = args.arch.unwrap_or(Arch::Blackhole);
        let models = models(&args, arch)?;
        return match replay_target {
            Some(ReplayTarget::Random { op, n }) => {
                replay_random(&args, arch, &models, op, n, strictness_of(&args))
            }
            Some(ReplayTarget::Vector(id)) => {
                let dir = args.vectors.clone().unwrap_or_else(|| root.join("vectors").join(arch.to_string()));
                let corpus = load(&dir, arch)?;
                replay_vector(arch, &corpus, &models, &id, strictness_of(&args))
            }
            None => unreachable!("replay_target is Some"),
        };
    }
    check_writable(&out_dir)?;
    // Every chip's DUTs are started (and their hellos checked) before anything slow runs.
    let mut chip_models = Vec::new();
    for (arch, opcodes) in per_chip_opcodes {
        let models = models(&args, arch)?;
        chip_models.push((arch, opcodes, models));
    }

    let progress = Display::new(args.quiet);
    let mut runs: Vec<ChipRun> = Vec::new();
    let mut skipped_phases: Vec<String> = Vec::new();
    for (arch, opcodes, models) in &chip_models {
        if interrupt.signal().is_some() {
            skipped_phases.push(format!("everything on {arch}"));
            continue;
        }
        let run = check_chip(
            &args,
            &root,
            *arch,
            opcodes,
            models,
            limit,
            &progress,
            &interrupt,
            &mut skipped_phases,
        )?;
        runs.push(run);
    }

    // AMX `vecfp`: a section per chip profile.
    if !amx_chips.is_empty() {
        if interrupt.signal().is_some() {
            skipped_phases.push("AMX".to_string());
        } else {
            let cases = match limit {
                Limit::PerMode(n) => n,
                Limit::Budget(_) => DEFAULT_CASES_PER_MODE,
            };
            let phase = progress.phase(amx_chips.len() as u64, "amx");
            for &chip in &amx_chips {
                if interrupt.signal().is_some() {
                    skipped_phases.push(format!("AMX {chip}"));
                    continue;
                }
                phase.set_message(format!("{chip}: vectors, classes and streams"));
                let duts = crate::conform_amx::Duts {
                    commands: if sfpu { &[] } else { &args.duts },
                    timeout: Duration::from_secs(args.timeout),
                };
                let stop = || interrupt.signal().is_some();
                for report in crate::conform_amx::sections(
                    &root,
                    &[chip],
                    args.seed,
                    cases,
                    args.no_fastpath,
                    &duts,
                    &stop,
                )? {
                    let in_corpus = report.corpus.vectors;
                    runs.push(ChipRun { report, given_up: Vec::new(), in_corpus });
                }
                if stop() {
                    skipped_phases.push(format!("the rest of the AMX {chip} random campaign"));
                }
                phase.inc(1);
            }
            phase.finish("done".to_string());
        }
    }

    // The SFPI kernel corpus's accuracy on the chips checked, and their difference (not when
    // narrowed to some instructions).
    let mut timings: BTreeMap<String, u64> = BTreeMap::new();
    let checked: Vec<Arch> = chip_models.iter().map(|(a, _, _)| *a).collect();
    let kernel_accuracy = if !args.only.is_empty() || checked.is_empty() {
        None
    } else if interrupt.signal().is_some() {
        skipped_phases.push("the kernel accuracy".to_string());
        None
    } else {
        let t = Instant::now();
        let k = KernelAccuracy::measure(&checked, KERNEL_ACCURACY_SEED);
        timings.insert("kernel-accuracy".to_string(), t.elapsed().as_millis() as u64);
        Some(k)
    };
    timings.insert("total".to_string(), started.elapsed().as_millis() as u64);
    let incomplete = interrupt.signal().map(|signal| {
        format!(
            "interrupted by {signal} after {:.1} s; not done: {}",
            started.elapsed().as_secs_f64(),
            if skipped_phases.is_empty() { "nothing".to_string() } else { skipped_phases.join("; ") }
        )
    });
    let mut report = Report {
        format: REPORT_FORMAT.to_string(),
        tool: Tool { name: "sfpu-conformance".into(), version: env!("CARGO_PKG_VERSION").into() },
        chips: runs.iter().map(|r| r.report.clone()).collect(),
        extensions: BTreeMap::new(),
        timings_ms: timings,
        incomplete,
    };
    if let Some(k) = kernel_accuracy {
        k.store(&mut report);
    }
    write_report(&report, &out_dir)?;

    let divergent = !report.failing().is_empty();
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else if !args.quiet {
        print_summary(&report, &runs, &out_dir);
    }
    if let Some(why) = &report.incomplete {
        errln!("incomplete: {why}; the report of what completed is in {}", out_dir.display());
        return Ok(ExitCode::from(interrupt.exit_status()));
    }
    Ok(if divergent { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `blackhole and wormhole`.
fn join_archs(archs: &[Arch]) -> String {
    archs.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" and ")
}

fn strictness_of(args: &Args) -> Strictness {
    if args.architecture { Strictness::Architecture } else { Strictness::Silicon }
}

/// Loads the corpus in `dir` for `arch`, every load error in the message.
fn load(dir: &Path, arch: Arch) -> Result<Corpus> {
    load_corpus(dir, arch).map_err(|errors| {
        anyhow!(
            "the vectors in {} do not load:\n{}",
            dir.display(),
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
        )
    })
}

/// Checks one chip: its golden vectors on every model, the random campaign, and the IEEE 754
/// characterisation of its arithmetic. Its phases' timings are its section's.
#[allow(clippy::too_many_arguments)]
fn check_chip(
    args: &Args,
    root: &Path,
    arch: Arch,
    opcodes: &[Opcode],
    models: &[(Checked, ModelInfo)],
    limit: Limit,
    progress: &Display,
    interrupt: &Interrupt,
    skipped_phases: &mut Vec<String>,
) -> Result<ChipRun> {
    let dir = args.vectors.clone().unwrap_or_else(|| root.join("vectors").join(arch.to_string()));
    let strictness = strictness_of(args);
    let campaign = !matches!(limit, Limit::PerMode(0)) && limit != Limit::Budget(Duration::ZERO);
    let corpus = load(&dir, arch)?;
    let only: Vec<&str> = opcodes.iter().map(|o| o.name()).collect();
    let filter = if args.only.is_empty() { Filter::default() } else { Filter::parse(&only.join(",")) };
    let selected: Vec<(&VectorFile, &Vector)> = corpus.vectors().filter(|(_, v)| filter.selects(v)).collect();
    // Checking nothing must not look like a pass: an empty corpus is an input error (a wrong
    // directory, most likely), and so is a selection with no vectors and no random campaign.
    if corpus.vectors().next().is_none() || (selected.is_empty() && !campaign) {
        bail!(
            "no golden vectors to check: {} holds {} vector file(s) and {} vector(s){}",
            dir.display(),
            corpus.files.len(),
            corpus.vectors().count(),
            if args.only.is_empty() {
                String::new()
            } else {
                format!(", none of them for --only {}", only.join(","))
            }
        );
    }
    if selected.is_empty() && !args.quiet {
        errln!(
            "note: {} has no vectors for --only {}; only the random campaign checks it",
            dir.display(),
            only.join(",")
        );
    }
    let mut timings: BTreeMap<String, u64> = BTreeMap::new();
    let mut rows = empty_matrix_for(arch);
    let mut failures = Vec::new();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();

    // 1. Every golden vector on every model.
    for (checked, info) in models {
        if interrupt.signal().is_some() {
            skipped_phases.push(format!("the {arch} vectors on {}", info.name));
            continue;
        }
        let t = Instant::now();
        let phase = progress.phase(selected.len() as u64, &format!("{arch} vectors: {}", info.name));
        let results = run_vectors(checked, &selected, strictness, &phase, interrupt);
        phase.finish(if results.len() == selected.len() { "done".into() } else { "interrupted".into() });
        if results.len() < selected.len() {
            skipped_phases.push(format!(
                "{} of {} {arch} vectors on {}",
                selected.len() - results.len(),
                selected.len(),
                info.name
            ));
        }
        let tally = tallies.entry(info.name.clone()).or_default();
        for r in &results {
            tally.record(&r.id, &r.status, true);
        }
        let mut found = add_vector_results(&mut rows, &info.name, &corpus, &results, 3);
        for f in &mut found {
            f.replay += &replay_options(args, arch, info);
        }
        failures.extend(found);
        timings.insert(format!("vectors/{}", info.name), t.elapsed().as_millis() as u64);
    }

    // 2. The random differential campaign of every other model against the reference (not of a
    //    DUT that refused the hello: it would only decline every case).
    let mut campaign_info = CampaignInfo {
        seed: format!("0x{:x}", args.seed),
        budget_ms: match limit {
            Limit::Budget(b) => b.as_millis() as u64,
            Limit::PerMode(_) => 0,
        },
        cases_per_mode: match limit {
            Limit::PerMode(n) => n,
            Limit::Budget(_) => 0,
        },
        cases: 0,
        streams: 0,
        streams_per_model: match limit {
            Limit::PerMode(n) => n * campaign::STREAMS_PER_CASE,
            Limit::Budget(_) => 0,
        },
    };
    if campaign {
        for (checked, info) in models.iter().skip(1) {
            if matches!(checked, Checked::Refused(_)) {
                continue;
            }
            if interrupt.signal().is_some() {
                skipped_phases.push(format!("the {arch} random campaign on {}", info.name));
                continue;
            }
            let t = Instant::now();
            let config = CampaignConfig {
                arch,
                seed: args.seed,
                limit,
                opcodes: opcodes.to_vec(),
                streams: args.only.is_empty(),
                keep_failures: 3,
                strictness,
                parallel: !checked.is_external(),
            };
            let jobs = config.opcodes.len() as u64 + config.streams as u64;
            let phase = progress.phase(jobs, &format!("{arch} random: {}", info.name));
            let result: CampaignResult = campaign::run(checked.model(), &info.name, &config, &|p| match p {
                Progress::Case { job, n } => {
                    if n == 1 {
                        phase.set_message(job.to_string());
                    }
                    // Stop on an interruption; and stop spending a time budget on a DUT given up
                    // on (counted campaigns record every case, as an error, so the counts stay
                    // exact).
                    let given_up = checked.given_up().is_some() && matches!(limit, Limit::Budget(_));
                    if interrupt.signal().is_some() || given_up {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                }
                Progress::JobDone { .. } => {
                    phase.inc(1);
                    ControlFlow::Continue(())
                }
            });
            let per_s = (result.cases + result.streams) as f64 / t.elapsed().as_secs_f64().max(1e-9);
            phase.finish(format!("{} cases, {} streams ({per_s:.0} cases/s)", result.cases, result.streams));
            if interrupt.signal().is_some() {
                skipped_phases.push(format!("the rest of the {arch} random campaign on {}", info.name));
            }
            campaign_info.cases += result.cases;
            campaign_info.streams += result.streams;
            add_campaign(&mut rows, &info.name, &result);
            tallies.entry(info.name.clone()).or_default().merge(&result.tally);
            failures.extend(result.failures.into_iter().map(|mut f| {
                f.replay += &replay_options(args, arch, info);
                f
            }));
            timings.insert(format!("random/{}", info.name), t.elapsed().as_millis() as u64);
        }
    }

    // 3. How the chip departs from IEEE 754, for the operations of the selected instructions.
    let ieee_ops: Vec<ieee::Operation> = ieee::Operation::ALL
        .into_iter()
        .filter(|op| op.opcodes().iter().any(|o| opcodes.contains(o)))
        .collect();
    let ieee = if interrupt.signal().is_some() {
        skipped_phases.push(format!("the {arch} IEEE 754 characterisation"));
        Vec::new()
    } else {
        let t = Instant::now();
        let rows = ieee::characterise_only(arch, &vector_operands(&corpus), args.seed, 100_000, &ieee_ops);
        timings.insert("ieee".to_string(), t.elapsed().as_millis() as u64);
        rows
    };

    let totals = totals(&rows);
    let coverage: Vec<ModelCoverage> = models
        .iter()
        .map(|(_, info)| {
            let tally = tallies.get(&info.name).cloned().unwrap_or_default();
            report::coverage(&rows, &info.name, selected.len() as u64, &tally)
        })
        .collect();
    let reasons: Vec<ReasonEntry> = models
        .iter()
        .flat_map(|(_, info)| tallies.get(&info.name).map(|t| t.entries(&info.name)).unwrap_or_default())
        .collect();
    let report = ChipReport {
        isa: "sfpu".to_string(),
        arch: arch.to_string(),
        spec: spec_info(root, arch),
        corpus: CorpusInfo {
            path: dir.display().to_string(),
            format: FORMAT.to_string(),
            files: corpus.files.len(),
            vectors: selected.len(),
            generator: corpus_generator(&corpus),
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
        coverage,
        reasons,
        timings_ms: timings,
    };
    let given_up: Vec<(String, String)> =
        models.iter().filter_map(|(c, i)| c.given_up().map(|why| (i.name.clone(), why))).collect();
    Ok(ChipRun { report, given_up, in_corpus: corpus.vectors().count() })
}

/// Runs `vectors` on one model, advancing `phase` per vector: in parallel on a built-in model, one
/// after the other in corpus order on an external one (it runs one case at a time anyway, and a
/// fixed order makes its case ids, and a fault's neighbours, the same on every run). After an
/// interruption no further vector starts; the results are those that completed.
fn run_vectors(
    checked: &Checked,
    vectors: &[(&VectorFile, &Vector)],
    strictness: Strictness,
    phase: &Phase,
    interrupt: &Interrupt,
) -> Vec<VectorResult> {
    let model = checked.model();
    let one = |(f, v): &(&VectorFile, &Vector)| {
        if interrupt.signal().is_some() {
            return None;
        }
        let r = run_vector(model, f, v, strictness);
        phase.inc(1);
        Some(r)
    };
    if checked.is_external() {
        return vectors.iter().map_while(one).collect();
    }
    // Contiguous chunks, one per core, results kept in corpus order.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = vectors.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = vectors
            .chunks(chunk)
            .map(|c| scope.spawn(move || c.iter().map_while(one).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

/// The generator lines of the corpus's file headers (`# format: ...; generator: ...; seed:
/// ...`), distinct, in file order; hand-written files (without one) add nothing.
fn corpus_generator(corpus: &Corpus) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (path, _) in &corpus.files {
        let Ok(file) = std::fs::File::open(path) else { continue };
        let header = BufReader::new(file)
            .lines()
            .map_while(Result::ok)
            .take_while(|l| l.starts_with('#'))
            .find(|l| l.contains("generator:"));
        if let Some(line) = header {
            let line = line.trim_start_matches('#').trim().to_string();
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
    }
    if lines.is_empty() {
        "unknown (no generator header in the corpus)".to_string()
    } else {
        lines.join(" | ")
    }
}

/// The specification `arch`'s expected values come from: the project's notes
/// (`../shared/spec/blackhole-sfpu.md` for Blackhole, `wormhole-vs-blackhole.md` for Wormhole,
/// identified by its SHA-256 when present) and the upstream commits the reference model's sources
/// cite (`@ <40 hex digits>`).
fn spec_info(root: &Path, arch: Arch) -> SpecInfo {
    let (file, pages) = match arch {
        Arch::Blackhole => ("blackhole-sfpu.md", "BlackholeA0"),
        Arch::Wormhole => ("wormhole-vs-blackhole.md", "WormholeB0"),
    };
    let notes_path = root.join("../shared/spec").join(file);
    let notes_sha256 = std::fs::read(&notes_path).map(|bytes| sha256_hex(&bytes)).unwrap_or_default();
    let notes = if notes_sha256.is_empty() {
        format!("{file} (project specification notes; not found next to the repository)")
    } else {
        format!("{file} (project specification notes), sha256 {}", &notes_sha256[..16])
    };
    let mut commits = BTreeSet::new();
    cited_commits(&root.join("reference/sfpu/src"), &mut commits);
    let upstream_commits: Vec<String> = commits.into_iter().collect();
    let upstream = if upstream_commits.is_empty() {
        format!(
            "tenstorrent/tt-isa-documentation ({pages} pages; no cited commit found in reference/sfpu/src)"
        )
    } else {
        format!(
            "tenstorrent/tt-isa-documentation, {pages} pages and Miscellaneous/FMA at the {} commits cited in \
             reference/sfpu/src: {}",
            upstream_commits.len(),
            upstream_commits.iter().map(|c| &c[..12]).collect::<Vec<_>>().join(", ")
        )
    };
    SpecInfo { notes, upstream, notes_sha256, upstream_commits }
}

/// Adds to `out` every commit cited as `` @ `<40 hex digits>` `` in the Rust sources under `dir`.
fn cited_commits(dir: &Path, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            cited_commits(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            for (i, _) in text.match_indices("@ `") {
                let hash = &text[i + 3..];
                let hex: String = hash.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
                if hex.len() == 40 && hash[40..].starts_with('`') {
                    out.insert(hex.to_ascii_lowercase());
                }
            }
        }
    }
}

/// SHA-256 (FIPS 180-4) of `data`, in lower-case hex: what `sha256sum` prints.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];
    let mut h: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

fn write_report(report: &Report, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::write(dir.join("report.json"), serde_json::to_string_pretty(report)?)?;
    std::fs::write(dir.join("report.md"), markdown::render_with(report, REPORT_EXTENSIONS))?;
    std::fs::write(dir.join("report.html"), html::render_with(report, REPORT_EXTENSIONS))?;
    std::fs::write(dir.join("junit.xml"), junit::render(report))?;
    Ok(())
}

/// How many failures the terminal summary prints in full (replay, details, YAML snippet).
const PRINTED_FAILURES: usize = 10;

/// One line per operation of the IEEE 754 characterisation: how many of the examined cases depart
/// from IEEE 754, by category (the report has an example of each).
fn print_ieee_headline(report: &ChipReport) {
    let mut ops: Vec<&str> = report.ieee.iter().map(|c| c.operation.as_str()).collect();
    ops.dedup();
    if ops.is_empty() {
        return;
    }
    outln!(
        "\nwhere {} departs from IEEE 754 (cases of those examined; examples in the report):",
        report.arch
    );
    for op in ops {
        let cats: Vec<_> = report.ieee.iter().filter(|c| c.operation == op).collect();
        let examined = cats.first().map_or(0, |c| c.examined);
        let departs: Vec<String> = cats
            .iter()
            .filter(|c| c.category != "agrees" && c.count > 0)
            .map(|c| format!("{} {}", c.category, c.count))
            .collect();
        let what = if departs.is_empty() { "agrees".to_string() } else { departs.join(", ") };
        outln!("  {op:<14} {examined:>8} examined: {what}");
    }
}

/// The terminal summary: a block per chip, then the kernel accuracy and the overall verdict.
fn print_summary(report: &Report, runs: &[ChipRun], out_dir: &Path) {
    for run in runs {
        print_chip(&run.report, &run.given_up, run.in_corpus);
    }
    if let Some(k) = KernelAccuracy::of(report) {
        outln!("\n{}", k.summary_line());
    }
    let failures: usize = report.chips.iter().map(|c| c.failures.len()).sum();
    let printed: usize = report.chips.iter().map(|c| c.failures.len().min(PRINTED_FAILURES)).sum();
    if failures > printed {
        outln!(
            "\n... {} more failures, each with its replay command and YAML regression vector, in {} \
             (section Failures of each chip) and {} (`chips[].failures`)",
            failures - printed,
            out_dir.join("report.md").display(),
            out_dir.join("report.json").display()
        );
    }
    outln!("\noverall: {}", report.overall_verdict());
    let total = report.timings_ms.get("total").copied().unwrap_or(0);
    outln!("report: {} ({:.1}s)", out_dir.join("report.html").display(), total as f64 / 1000.0);
}

fn print_chip(report: &ChipReport, given_up: &[(String, String)], in_corpus: usize) {
    outln!();
    let of = if in_corpus == report.corpus.vectors { String::new() } else { format!(" of {in_corpus}") };
    outln!(
        "== {} conformance, {} ({}{of} vectors, campaign seed {})",
        report.isa.to_ascii_uppercase(),
        report.arch,
        report.corpus.vectors,
        report.campaign.seed
    );
    outln!(
        "{:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "model",
        "vectors",
        "passed",
        "failed",
        "errors",
        "unsupp.",
        "n/a",
        "tainted",
        "random",
        "rnd fail",
        "rnd err",
        "rnd decl.",
        "rnd n/a"
    );
    for m in &report.models {
        let c = report.totals.get(&m.name).copied().unwrap_or_default();
        outln!(
            "{:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}",
            m.name,
            c.vectors_run,
            c.passed,
            c.failed,
            c.errors,
            c.unsupported,
            c.not_applicable,
            c.tainted,
            c.random_cases,
            c.random_failures,
            c.random_errors,
            c.random_unsupported,
            c.random_not_applicable
        );
    }
    outln!("\n{}: {}", report.arch, report.verdict_text());
    for c in report.coverage.iter().filter(|c| c.not_applicable > 0) {
        let by: Vec<String> = c
            .not_applicable_by_feature
            .iter()
            .map(|(f, n)| format!("{f} {n}"))
            .chain(c.not_applicable_by_refusal.iter().map(|(r, n)| format!("refuses {r} {n}")))
            .collect();
        outln!("{}: not applicable by what it does not declare: {}", c.model, by.join(", "));
    }
    const REASONS: usize = 5;
    for m in &report.models {
        let reasons: Vec<_> = report.reasons.iter().filter(|e| e.model == m.name).collect();
        for e in reasons.iter().take(REASONS) {
            outln!("{} {} x{}: {} (e.g. {})", m.name, e.kind, e.count, e.reason, e.examples.join(", "));
        }
        if reasons.len() > REASONS {
            outln!("{}: ... {} more reasons in the report", m.name, reasons.len() - REASONS);
        }
    }
    for m in report.models.iter().filter(|m| m.kind == "dut") {
        outln!("{}: {}", m.name, m.description.as_deref().unwrap_or(""));
        if let Some(d) = &m.declaration {
            outln!("{}: declares: {d}", m.name);
        }
    }
    print_ieee_headline(report);
    for (name, why) in given_up {
        outln!("{name}: {why}");
    }
    let target = if report.isa == "amx" {
        format!("vectors/amx/{}.yaml", report.arch)
    } else {
        format!("vectors/{}/regressions.yaml", report.arch)
    };
    for f in report.failures.iter().take(PRINTED_FAILURES) {
        outln!("\nFAIL [{} {}] {} ({} {}, {})", report.arch, f.model, f.id, f.instruction, f.mode, f.kind);
        outln!("  replay: {}", f.replay);
        for line in f.details.lines().take(12) {
            outln!("  {line}");
        }
        if f.details.lines().count() > 12 {
            outln!("  ... (the whole account is in the report)");
        }
        if f.snippet.is_empty() {
            outln!("  (no regression vector: see the report)");
        } else {
            outln!("  regression vector (paste under `vectors:` in {target}):");
            for line in f.snippet.lines() {
                outln!("    {line}");
            }
        }
    }
    // The random campaign's rate: cases and streams per second of its phases (every model's).
    let random_ms: u64 =
        report.timings_ms.iter().filter(|(k, _)| k.starts_with("random/")).map(|(_, &ms)| ms).sum();
    let drawn = report.campaign.cases + report.campaign.streams;
    if drawn > 0 && random_ms > 0 {
        outln!(
            "\n{} random campaign: {} cases and {} streams in {:.1}s ({:.0} cases/s, streams counted as cases)",
            report.arch,
            report.campaign.cases,
            report.campaign.streams,
            random_ms as f64 / 1000.0,
            drawn as f64 * 1000.0 / random_ms as f64
        );
    }
}

/// `--replay random/...`: draw the campaign case (in constant time) and run it on every model.
fn replay_random(
    args: &Args,
    arch: Arch,
    models: &[(Checked, ModelInfo)],
    op: Option<Opcode>,
    n: u64,
    strictness: Strictness,
) -> Result<ExitCode> {
    let (case, name) = match op {
        Some(op) => (nth_case_for(arch, args.seed, op, n), op.name()),
        None => (nth_stream_for(arch, args.seed, n), "streams"),
    };
    let mut v = to_vector("random", &case);
    v.id = campaign::case_id(name, n);
    let file = VectorFile { format: FORMAT.into(), arch, file: "random".into(), vectors: vec![] };
    replay_one(arch, models, &file, &v, strictness)
}

/// `--replay ID` of a golden vector.
fn replay_vector(
    arch: Arch,
    corpus: &Corpus,
    models: &[(Checked, ModelInfo)],
    id: &str,
    strictness: Strictness,
) -> Result<ExitCode> {
    let (f, v) =
        corpus.vectors().find(|(_, v)| v.id == id).ok_or_else(|| anyhow!("--replay: no vector `{id}`"))?;
    let file = VectorFile { vectors: vec![], ..f.clone() };
    replay_one(arch, models, &file, v, strictness)
}

/// Runs one case on every model and prints what differs, with a regression snippet.
fn replay_one(
    arch: Arch,
    models: &[(Checked, ModelInfo)],
    file: &VectorFile,
    vector: &Vector,
    strictness: Strictness,
) -> Result<ExitCode> {
    outln!("{} on {arch} ({} instruction(s))", vector.id, vector.program.len());
    for w in &vector.program {
        outln!("  0x{:08x}  {}", w.word.0, w.text);
    }
    let mut divergent = false;
    for (model, info) in models {
        match run_vector(model.model(), file, vector, strictness).status {
            Status::Pass => outln!("{}: pass", info.name),
            Status::Unsupported(why) => outln!("{}: unsupported ({why})", info.name),
            Status::NotApplicable(why) => outln!("{}: not applicable ({why})", info.name),
            Status::Error(e) => {
                divergent = true;
                outln!("{}: error: {e}", info.name);
            }
            Status::Fail(f) => {
                divergent = true;
                outln!("{}: FAIL\n{}", info.name, f.report);
            }
        }
    }
    outln!("\n# regression vector (paste under `vectors:` in vectors/{arch}/regressions.yaml):");
    out!("{}", campaign::regression_snippet(vector, "replay"));
    Ok(if divergent { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_the_fips_examples() {
        assert_eq!(sha256_hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(
            sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            sha256_hex(&[b'a'; 1000]),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        );
    }

    #[test]
    fn the_spec_version_names_the_cited_commits() {
        let spec = spec_info(&workspace_root(), Arch::Blackhole);
        // The FMA models' revision is cited in reference/sfpu/src/fp.rs.
        assert!(
            spec.upstream_commits.iter().any(|c| c == "06c5af5b8b68c9e59e698ab76b59181b7dd47222"),
            "{:?}",
            spec.upstream_commits
        );
        assert!(spec.upstream_commits.iter().all(|c| c.len() == 40));
        assert!(spec.upstream.contains("06c5af5b8b68"), "{}", spec.upstream);
        assert!(spec.notes_sha256.is_empty() || spec.notes_sha256.len() == 64);
    }
}
