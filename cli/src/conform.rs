//! `conform`: the main job. For every instruction set and chip asked for (by default every one
//! the registry lists: the SFPU's Blackhole and Wormhole, AMX `vecfp`'s M1, M2 = M3 and M4), runs
//! every golden vector on the reference model (proving the corpus is in sync), on the fast model
//! and on any `--dut`, the seeded random differential campaign against the reference, and what the
//! instruction set adds (the SFPU's IEEE 754 characterisation and kernel accuracy); then writes
//! one compliance report with a section per chip (`report.json`, `report.md`, `report.html`,
//! `junit.xml`) and prints its summary.
//!
//! A `--dut` runs its cases one at a time in a fixed order (the vectors in corpus order, then the
//! campaign job by job); one that refuses the hello is reported with every case unsupported; one
//! given up on (docs/dut-protocol.md) fails its remaining cases at once. The summary prints the
//! first failures with their replay commands and regression vectors. `--shard K/N` runs the K-th
//! of N shares of the work, whose reports `report merge` joins into the report of the whole run.
//!
//! Exit status: 0 when everything compared is equal, 1 on any divergence or a `--dut` that compared
//! nothing (unless `--accept-unchecked`), 2 on a usage or input error; 130, 143 or 129 when
//! interrupted by SIGINT, SIGTERM or SIGHUP (the report of what completed is written, marked
//! incomplete; a second signal of any kind kills the DUTs' process groups and stops at once).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow, bail};
use harness_core::campaign::{DEFAULT_CASES_PER_CELL, Limit, MAX_CASES};
use harness_core::driver::{Driver, RegistryRenderers, conform};
use harness_core::isa::{Selection, Strictness};
use harness_core::observe::{Observer, Phase};
use harness_core::report::terminal;
use harness_core::report::{Tool, lock_dir, write_files};
use harness_core::session::{Options, Shard};

use crate::context::{Context, parse_seed};
use crate::interrupt::Interrupt;
use crate::progress::Progress;

/// The seed of the random campaign when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 0x5F9C_0DE5_EED0_0001;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The instruction set to check: `sfpu` or `amx` (default: every one, a section per
    /// instruction set and chip).
    #[arg(long, value_name = "ISA")]
    isa: Option<String>,
    /// The chip to check (default: every chip of the instruction sets checked): `blackhole`,
    /// `wormhole` (SFPU); `m1`, `m2`, `m3` = `m2`, `m4` (AMX). A replay runs on it.
    #[arg(long, visible_alias = "arch", value_name = "CHIP")]
    chip: Option<String>,
    /// The golden vectors to check instead of the built-in corpus: a chip's directory
    /// (`vectors/blackhole`, `vectors/amx`) or the directory holding them (`vectors`). Without
    /// --chip, the chips whose vectors it holds are checked.
    #[arg(long, value_name = "DIR")]
    vectors: Option<PathBuf>,
    /// An external implementation speaking the JSON-lines protocol of docs/dut-protocol.md: a
    /// program and its arguments, split at spaces with shell-like quoting ('...', "...", \); no
    /// shell runs it (write `sh -c '...'` for one). Repeat to compare several side by side.
    /// Without --isa or --chip it is checked on the first instruction set (the SFPU).
    #[arg(long = "dut", value_name = "COMMAND")]
    duts: Vec<String>,
    /// Per-case timeout for a --dut, in seconds (at least 1). A DUT that times out on 3 cases in
    /// a row is given up on: every later case fails at once.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// Accept a --dut that compares nothing on a chip checked (it refused the hello, declined
    /// every case, or declared nothing selected). Without it such a DUT fails the run (exit
    /// status 1): a broken wrapper script must not pass.
    #[arg(long)]
    accept_unchecked: bool,
    /// Do not check the built-in fast model.
    #[arg(long)]
    no_fastpath: bool,
    /// Random cases per cell of the matrix (an instruction's mode value, an AMX class), and 16
    /// times as many random streams; the same cases on every run (0: no campaign). Default: 64.
    #[arg(long, conflicts_with = "budget")]
    cases: Option<u64>,
    /// Instead of a number of cases, a time budget per campaign job (an instruction, an axis of
    /// classes, the streams), in milliseconds, for overnight runs: as many cases as fit, so not
    /// the same on every run (0: no campaign).
    #[arg(long, value_name = "MS")]
    budget: Option<u64>,
    /// The random campaign's seed (decimal or 0x hex).
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = parse_seed)]
    seed: u64,
    /// Only these campaign jobs and matrix rows, and their vectors, comma-separated: SFPU
    /// instructions (`--only SFPMAD,SFPLOAD`), AMX axes of classes (`--only source,shuffle`), or
    /// `streams`.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Skip the locations the vectors mark non-contractual (check the architecture, not the
    /// current silicon); AMX `vecfp` has none.
    #[arg(long)]
    architecture: bool,
    /// Replay one case: a vector id, or `random/<JOB>/<n>` (with the --seed of the run that
    /// reported it). Prints every model's verdict and a regression vector. Failures print the
    /// whole command.
    #[arg(long, value_name = "ID")]
    replay: Option<String>,
    /// Run the K-th of N shares of the work (1 <= K <= N): of every model's vectors and random
    /// cases a contiguous share, so that `report merge` of the N shards' report.json is the
    /// report of the whole run. The first shard also runs what is not cut (the IEEE 754
    /// characterisation, the kernel accuracy).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Where to write the report.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Keep at most N failures per model and matrix cell in the report (and at most N records of
    /// random cases that did not pass, in cases.jsonl), for long runs of an implementation that
    /// fails nearly everything; the report states the cap and the total. Default: every one.
    #[arg(long, value_name = "N")]
    keep_failures: Option<usize>,
    /// Print the summary as JSON (the whole report.json) instead of text.
    #[arg(long)]
    json: bool,
    /// No progress bars, no summary: only errors, and the report files.
    #[arg(long, short)]
    quiet: bool,
}

/// The session's front end: progress on standard error, the signals.
struct Front<'a> {
    progress: Progress,
    interrupt: &'a Interrupt,
    quiet: bool,
}

impl Phase for crate::progress::Phase {
    fn inc(&self, n: u64) {
        crate::progress::Phase::inc(self, n);
    }

    fn message(&self, text: String) {
        self.set_message(text);
    }

    fn finish(&self, text: String) {
        crate::progress::Phase::finish(self, text);
    }
}

impl Observer for Front<'_> {
    fn phase(&self, steps: u64, label: &str) -> Box<dyn Phase + '_> {
        Box::new(self.progress.phase(steps, label))
    }

    fn stopped(&self) -> bool {
        self.interrupt.signal().is_some()
    }

    fn note(&self, text: &str) {
        if !self.quiet {
            errln!("{text}");
        }
    }
}

/// The driver named `isa`.
fn driver<'a>(registry: &[&'a dyn Driver], isa: &str) -> Result<&'a dyn Driver> {
    registry.iter().copied().find(|d| d.isa().eq_ignore_ascii_case(isa)).ok_or_else(|| {
        let all: Vec<&str> = registry.iter().map(|d| d.isa()).collect();
        anyhow!("--isa: `{isa}` is not an instruction set of this harness ({})", all.join(", "))
    })
}

/// Every chip of every instruction set, as `isa chip` (for messages).
fn all_chips(registry: &[&dyn Driver]) -> String {
    registry
        .iter()
        .flat_map(|d| d.chips().into_iter().map(move |c| format!("{} {c}", d.isa())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The instruction sets and chips a run checks: `--isa`, `--chip`, narrowed to the chips whose
/// vectors `--vectors` holds and to those `--only` names something of.
fn plan<'a>(args: &Args, registry: &[&'a dyn Driver]) -> Result<Vec<(&'a dyn Driver, String)>> {
    let drivers: Vec<&dyn Driver> = match (&args.isa, &args.chip) {
        (Some(isa), _) => vec![driver(registry, isa)?],
        (None, Some(chip)) => {
            let found: Vec<&dyn Driver> =
                registry.iter().copied().filter(|d| d.chip_named(chip).is_some()).collect();
            if found.is_empty() {
                bail!("--chip: `{chip}` is no chip of this harness ({})", all_chips(registry));
            }
            found
        }
        // A DUT speaks one instruction set's protocol: the first one's unless --isa says.
        (None, None) if !args.duts.is_empty() => registry.iter().copied().take(1).collect(),
        (None, None) => registry.to_vec(),
    };
    let mut plan: Vec<(&dyn Driver, String)> = Vec::new();
    for d in drivers {
        match &args.chip {
            Some(chip) => {
                let c = d.chip_named(chip).ok_or_else(|| {
                    let owner: Vec<&str> =
                        registry.iter().filter(|o| o.chip_named(chip).is_some()).map(|o| o.isa()).collect();
                    let whose = if owner.is_empty() {
                        String::new()
                    } else {
                        format!(": it is {}'s", owner.join(", "))
                    };
                    anyhow!("--chip: `{chip}` is not a chip of {} ({}){whose}", d.isa(), d.chips().join(", "))
                })?;
                plan.push((d, c));
            }
            None => plan.extend(d.chips().into_iter().map(|c| (d, c))),
        }
    }
    // The arguments first: --only names something of a chip asked for.
    if !args.only.is_empty() {
        let names = |d: &dyn Driver, c: &str| d.names(c);
        for name in &args.only {
            if !plan.iter().any(|(d, c)| names(*d, c).iter().any(|n| n.eq_ignore_ascii_case(name))) {
                let checked: Vec<String> = plan.iter().map(|(d, c)| format!("{} {c}", d.isa())).collect();
                bail!(
                    "--only: `{name}` is no instruction, campaign job or matrix row of {} (the chips checked)",
                    checked.join(", ")
                );
            }
        }
        plan.retain(|(d, c)| {
            let known = names(*d, c);
            args.only.iter().any(|name| known.iter().any(|n| n.eq_ignore_ascii_case(name)))
        });
    }
    // Then, without --chip, the chips whose vectors --vectors holds. When it holds none, the first
    // chip is kept and its corpus's errors are reported when it is loaded, after the DUTs' hellos
    // (an error of a DUT comes first); unless the directory holds another instruction set's
    // vectors, which --isa would select.
    if let (Some(dir), None) = (&args.vectors, &args.chip) {
        let first = plan.first().cloned();
        plan.retain(|(d, c)| d.check_vectors(c, dir).is_ok());
        if plan.is_empty() {
            let elsewhere: Vec<String> = registry
                .iter()
                .flat_map(|d| d.chips().into_iter().map(move |c| (*d, c)))
                .filter(|(d, c)| d.check_vectors(c, dir).is_ok())
                .map(|(d, c)| format!("{} {c}", d.isa()))
                .collect();
            if !elsewhere.is_empty() {
                bail!(
                    "--vectors: {} holds vectors of {}, not of a chip checked: name the instruction set \
                     with --isa (or the chip with --chip)",
                    dir.display(),
                    elsewhere.join(", ")
                );
            }
            plan.extend(first);
        }
    }
    Ok(plan)
}

/// The session's options from the arguments.
fn options(args: &Args, context: &Context) -> Result<Options> {
    if args.cases.is_some_and(|n| n > MAX_CASES) {
        bail!("--cases: at most {MAX_CASES} cases per cell");
    }
    let limit = match (args.budget, args.cases) {
        (Some(ms), _) => Limit::Budget(Duration::from_millis(ms)),
        (None, n) => Limit::PerCell(n.unwrap_or(DEFAULT_CASES_PER_CELL)),
    };
    Ok(Options {
        seed: args.seed,
        limit,
        selection: Selection { only: args.only.clone() },
        vectors: args.vectors.clone(),
        strictness: if args.architecture { Strictness::Architecture } else { Strictness::Silicon },
        duts: args.duts.clone(),
        timeout: Duration::from_secs(args.timeout),
        no_fastpath: args.no_fastpath,
        keep_failures: args.keep_failures,
        shard: args.shard,
        command: context.command.clone(),
        accept_unchecked: args.accept_unchecked,
        cancel: Default::default(),
    })
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

/// `--replay ID`: the instruction set and chip it runs on (those named, or those whose corpus
/// holds the vector; a random case's are the first of each), then every model's verdict.
fn replay(
    args: &Args,
    registry: &[&dyn Driver],
    options: &Options,
    id: &str,
    interrupt: &Interrupt,
) -> Result<ExitCode> {
    let drivers: Vec<&dyn Driver> = match &args.isa {
        Some(isa) => vec![driver(registry, isa)?],
        None => registry.to_vec(),
    };
    let mut candidates: Vec<(&dyn Driver, String)> = Vec::new();
    for d in &drivers {
        match &args.chip {
            Some(c) => candidates.extend(d.chip_named(c).map(|c| (*d, c))),
            None => candidates.extend(d.chips().into_iter().map(|c| (*d, c))),
        }
    }
    if candidates.is_empty() {
        bail!("--chip: `{}` is no chip of {}", args.chip.as_deref().unwrap_or(""), all_chips(&drivers));
    }
    let target = if id.starts_with("random/") || candidates.len() == 1 {
        candidates.swap_remove(0)
    } else {
        let dir = options.vectors.as_deref();
        candidates.into_iter().find(|(d, c)| d.has_vector(c, dir, id)).ok_or_else(|| {
            let hint = if args.isa.is_none() || args.chip.is_none() {
                " (--isa and --chip name the corpus to look in)"
            } else {
                ""
            };
            anyhow!("--replay: no golden vector `{id}` in the corpus of {}{hint}", all_chips(&drivers))
        })?
    };
    let (driver, chip) = target;
    let mut out = String::new();
    let divergent = match driver.replay(&chip, options, id, &mut out) {
        Ok(divergent) => divergent,
        Err(e) if interrupt.signal().is_some() => {
            out!("{out}");
            errln!("{e}");
            return Ok(ExitCode::from(interrupt.exit_status()));
        }
        Err(e) => bail!(e),
    };
    out!("{out}");
    Ok(if divergent { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Runs `conform` with `args` over `registry`.
pub fn main(args: Args, registry: &[&dyn Driver], context: &Context) -> Result<ExitCode> {
    let interrupt = Interrupt::install().context("cannot install the SIGINT/SIGTERM/SIGHUP handlers")?;
    let options = Options { cancel: interrupt.cancel().clone(), ..options(&args, context)? };
    if let Some(id) = &args.replay {
        return replay(&args, registry, &options, id, &interrupt);
    }
    let plan = plan(&args, registry)?;
    let out_dir = args.out.clone().unwrap_or_else(|| context.out.clone());
    check_writable(&out_dir)?;
    let front = Front { progress: Progress::new(args.quiet), interrupt: &interrupt, quiet: args.quiet };
    let tool = Tool { name: "sfpu-conformance".into(), version: env!("CARGO_PKG_VERSION").into() };
    let done = match conform(&plan, &options, &front, tool) {
        Ok(done) => done,
        Err(e) if interrupt.signal().is_some() => {
            // Stopped before there was anything to report (a DUT's hello): the previous report
            // stays as it was.
            errln!("{e}; no report was written");
            return Ok(ExitCode::from(interrupt.exit_status()));
        }
        Err(e) => bail!(e),
    };
    let mut report = done.report;
    if let (Some(why), Some(signal)) = (&report.incomplete, interrupt.signal()) {
        report.incomplete = Some(why.replacen("interrupted", &format!("interrupted by {signal}"), 1));
    }
    let renderers = RegistryRenderers::new(registry);
    // Another run writing into the same directory finishes first: never a mix of two runs' files.
    let written = lock_dir(&out_dir, &|waiting| errln!("{waiting}"), interrupt.cancel())
        .and_then(|_lock| renderers.with(|r| write_files(&report, r, &out_dir)));
    let divergent = !report.passes();
    // The summary prints whether or not the files could be written.
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else if !args.quiet {
        out!("{}", renderers.with(|r| terminal::render(&report, &done.notes, r, &out_dir)));
    }
    if let Err(e) = written {
        if interrupt.signal().is_some() {
            errln!("the report was not written: {e}");
            return Ok(ExitCode::from(interrupt.exit_status()));
        }
        bail!("the report was not written: {e}");
    }
    if let Some(why) = &report.incomplete {
        errln!("incomplete: {why}; the report of what completed is in {}", out_dir.display());
        return Ok(ExitCode::from(interrupt.exit_status()));
    }
    Ok(if divergent { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
