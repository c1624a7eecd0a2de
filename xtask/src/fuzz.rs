//! `cargo xtask fuzz`: the coverage-guided fuzzing runner around the cargo-fuzz package in
//! `fuzz/` (targets `diff_stream`, `decode`, `vectors_load`, `dut_protocol`, `amx_diff`; oracles
//! in `harness_sfpu::fuzz` and `harness_amx::fuzz`).
//!
//! Every build (and `cargo fuzz run`, which builds first) has the same flags, `FUZZ_BUILD_FLAGS`:
//! release, no sanitizer, debug assertions, and no comparison tracing (fuzz/README.md,
//! "Comparison tracing"); `.clusterfuzzlite/build.sh` passes the same ones.
//!
//! * `cargo xtask fuzz [--target T] [--time 8h] [--jobs N]`: writes the seed corpora (derived from
//!   the golden vectors), builds every target once, runs them one after the other with a
//!   persistent corpus in `fuzz/corpus/<target>`, shows libFuzzer's progress, records crashes and
//!   goes on, and ends with a summary naming each artifact and the command that triages it.
//!   SIGINT (Ctrl-C), SIGTERM or SIGHUP stops it where it is: each `cargo fuzz` runs in its own
//!   process group and gets the signal from the runner (`Forward`), libFuzzer stops (and for
//!   SIGINT / SIGTERM prints its final statistics), and the summary says what was found and which
//!   targets were not reached. `--rate` and `--planted` stop the same way: they report the chips
//!   done (the one cut short not judged) and name the others, and remove their scratch corpora;
//!   `--throughput` keeps the rows it finished and names the one it did not.
//! * `--smoke`: every target for a bounded time, at most two minutes in total including the build.
//!   `--planted` (with `--smoke`) instead checks, for each chip, that `diff_stream` finds the
//!   divergence planted behind the fast model's `planted-divergence` feature from an empty corpus
//!   (the chip pinned with `SFPU_FUZZ_CHIP`) and triages it into a temporary copy of that chip's
//!   regressions file.
//! * `--triage ARTIFACT...`: replays artifacts; a `diff_stream` divergence is minimised and
//!   appended to its chip's `vectors/<chip>/regressions.yaml` (once per failure shape) by
//!   `harness_sfpu::fuzz::append_regression`, a pure function of the file's text tested in
//!   `harness/sfpu/tests/it/fuzz_triage.rs`.
//! * `--throughput`: executions per second of the `diff_stream` oracle for 16- and
//!   64-instruction streams (release build).
//! * `--rate`: libFuzzer's own executions per second for `diff_stream` on streams of at most 16
//!   instructions (`SFPU_FUZZ_MAX_STREAM=16`: mutations soon make 64-instruction streams of the
//!   seeds), each chip pinned in turn for `--time` (default 20 s) from a fresh corpus of
//!   16-instruction `generate::streams` inputs (kept in `/dev/shm` where the host has it;
//!   libFuzzer's seed fixed), against the target of 30,000 (met / MISSED).
//!   `--max-stream N` measures another length (not judged against the target).
//! * `--max-stream N` with a run: `diff_stream` runs at most the first N instructions of each
//!   input.
//! * `--seeds`: only write the seed corpora.
//!
//! Exit status: 0 when nothing was found, 1 when a target crashed (or the planted divergence was
//! not found), 2 on a usage or build error, 128 + the signal for a run stopped by a signal.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use harness_sfpu::fuzz::{
    Appended, MAX_STREAM, StreamInput, all_arches, append_regression, decode_oracle, diff_stream_counted,
    diff_stream_with_origin, dut_protocol_oracle, encode_stream_input, input_arch, input_tag,
    stream_input_on, vectors_load_oracle,
};
use harness_sfpu::generate::operands::Rng;
use harness_sfpu::generate::streams::random_stream_for;
use harness_sfpu::vectors::emit::write_file;
use harness_sfpu::vectors::{FORMAT, Vector, VectorFile, load_corpus, load_file, parse_file};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sfpu_reference::isa::{Arch, decode};
use sfpu_reference::state::StateDoc;

use crate::interrupt::Interrupt;

/// The targets, in the order they run.
pub const TARGETS: [&str; 5] = ["diff_stream", "decode", "vectors_load", "dut_protocol", "amx_diff"];

/// The smoke run's whole budget, build included.
const SMOKE_BUDGET: Duration = Duration::from_secs(120);

/// The whole budget of a run without `--time`.
const LONG_RUN: Duration = Duration::from_secs(8 * 3600);

#[derive(clap::Args)]
pub struct Args {
    /// Only this target (repeat for several): diff_stream, decode, vectors_load, dut_protocol,
    /// amx_diff.
    #[arg(long = "target", value_name = "T")]
    targets: Vec<String>,
    /// Wall-clock budget of the whole run, seed writing and the build of the targets included:
    /// what is left after them is split over the targets (diff_stream counts three times, the
    /// others once: 3/7 of it with all five): `90s`, `20m`, `8h` (the default). With --rate: the
    /// time per chip (default 20s).
    #[arg(long, value_parser = parse_duration)]
    time: Option<Duration>,
    /// Parallel fuzzing processes per target (libFuzzer's fork mode; crashes do not stop it).
    #[arg(long, default_value_t = 1)]
    jobs: u32,
    /// Run every target briefly (at most 2 minutes in total, build included), as CI does.
    #[arg(long)]
    smoke: bool,
    /// With --smoke: check that diff_stream finds the divergence planted behind the fast model's
    /// `planted-divergence` feature, and triage it into a temporary regressions file.
    #[arg(long)]
    planted: bool,
    /// Replay these artifacts; diff_stream divergences become regression vectors.
    #[arg(long, value_name = "ARTIFACT", num_args = 1..)]
    triage: Vec<PathBuf>,
    /// The regressions file --triage appends to.
    #[arg(long, value_name = "FILE")]
    regressions: Option<PathBuf>,
    /// Measure the diff_stream oracle's executions per second (16- and 64-instruction streams).
    #[arg(long)]
    throughput: bool,
    /// Measure libFuzzer's executions per second for diff_stream on streams of at most 16
    /// instructions (--max-stream), each chip for --time (default here 20s), against the target
    /// (30,000/s).
    #[arg(long)]
    rate: bool,
    /// diff_stream runs at most the first N instructions (1 to 64) of each input's stream
    /// (`SFPU_FUZZ_MAX_STREAM`); default: all of them, and 16 with --rate.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_STREAM as i64))]
    max_stream: Option<u32>,
    /// Only write the seed corpora to fuzz/corpus/<target>.
    #[arg(long)]
    seeds: bool,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
    /// Print the summary as JSON on standard output.
    #[arg(long)]
    json: bool,
    /// Internal: the measurement half of --throughput, run in a release build.
    #[arg(long, hide = true)]
    throughput_inner: bool,
}

/// Parses `90s`, `20m`, `8h`, `1h30m`, or a number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let mut total = 0u64;
    let mut number = String::new();
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: u64 =
            number.parse().map_err(|_| format!("`{text}`: expected a duration like 90s, 20m or 8h"))?;
        number.clear();
        total += n * match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86400,
            _ => return Err(format!("`{text}`: unknown unit `{c}` (use s, m, h or d)")),
        };
    }
    if !number.is_empty() {
        total += number.parse::<u64>().map_err(|_| format!("`{text}`: not a duration"))?;
    }
    if total == 0 {
        return Err(format!("`{text}`: the duration must be positive"));
    }
    Ok(Duration::from_secs(total))
}

pub fn main(args: Args) -> Result<ExitCode> {
    // `--time` (and the smoke budget) count from here: seeds and the build are part of the run.
    let started = Instant::now();
    let root = crate::paths::workspace_root();
    for t in &args.targets {
        if !TARGETS.contains(&t.as_str()) {
            bail!("unknown target `{t}` (targets: {})", TARGETS.join(", "));
        }
    }
    if args.planted && !args.smoke {
        bail!("--planted is a check of the smoke run: use `--smoke --planted`");
    }
    if args.max_stream.is_some() && (args.throughput || !args.triage.is_empty() || args.seeds) {
        bail!("--max-stream applies to fuzzing runs and --rate, not to --throughput, --triage or --seeds");
    }
    if args.throughput_inner {
        return throughput_inner(args.quiet);
    }
    if args.throughput {
        return throughput(&root, &args);
    }
    if args.rate {
        return rate(&root, &args);
    }
    if !args.triage.is_empty() {
        // Each artifact goes to its chip's regressions file (diff_stream inputs name the chip in
        // their first byte; the other targets' artifacts are chip-neutral and go with Blackhole).
        let mut by_chip: BTreeMap<String, (Arch, Vec<PathBuf>)> = BTreeMap::new();
        for a in &args.triage {
            let arch = match artifact_target(a).unwrap_or("diff_stream") {
                "diff_stream" => std::fs::read(a).map(|d| input_arch(&d)).unwrap_or(Arch::Blackhole),
                _ => Arch::Blackhole,
            };
            by_chip.entry(arch.to_string()).or_insert_with(|| (arch, Vec::new())).1.push(a.clone());
        }
        if args.regressions.is_some() && by_chip.len() > 1 {
            bail!("--regressions names one file but the artifacts are of both chips: triage them separately");
        }
        let mut report = TriageReport::default();
        for (arch, artifacts) in by_chip.into_values() {
            let file = match &args.regressions {
                Some(f) => f.clone(),
                None => regressions_file(&root, arch)?,
            };
            report.merge(triage(&root, &artifacts, &file, args.quiet)?);
        }
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&report.json())?);
        }
        return Ok(if report.failed { ExitCode::from(1) } else { ExitCode::SUCCESS });
    }
    let seeds = write_seeds(&root)?;
    if !args.quiet {
        let counts: Vec<String> = seeds.iter().map(|(t, n)| format!("{t} {n}")).collect();
        errln!("seed corpora written to fuzz/corpus/<target>: {}", counts.join(", "));
    }
    if args.seeds {
        return Ok(ExitCode::SUCCESS);
    }
    if args.planted {
        return planted(&root, &args);
    }
    run(&root, &args, started)
}

// ---------------------------------------------------------------------------------------------
// cargo fuzz.
// ---------------------------------------------------------------------------------------------

/// The flags after `cargo fuzz <sub>` for both `build` and `run` (`run` builds first, and
/// different flags would rebuild everything). `.clusterfuzzlite/build.sh` passes the same build
/// flags (checked by a test).
const FUZZ_BUILD_FLAGS: [&str; 8] =
    ["--fuzz-dir", "fuzz", "--target-dir", "fuzz/target", "-s", "none", "-a", "--no-trace-compares"];

/// How to invoke cargo-fuzz: `cargo +nightly fuzz`, or stable with `RUSTC_BOOTSTRAP=1`.
struct Fuzz {
    nightly: bool,
    /// In a fuzzing run, `--rate` and `--planted` (not `--triage`): the SIGINT / SIGTERM / SIGHUP
    /// handlers. Each `cargo fuzz` then runs in its own process group and gets the run's first
    /// signal from [`Forward`], so that the run stops where it is and still prints its summary.
    interrupt: Option<Interrupt>,
}

impl Fuzz {
    fn detect() -> Result<Fuzz> {
        let ok = |args: &[&str]| {
            Command::new("cargo")
                .args(args)
                .env_remove("RUSTUP_TOOLCHAIN")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        if !ok(&["fuzz", "--version"]) {
            bail!("cargo-fuzz is not installed: run `cargo install cargo-fuzz --locked`");
        }
        Ok(Fuzz { nightly: ok(&["+nightly", "--version"]), interrupt: None })
    }

    /// [`Fuzz::detect`] for a run that a signal stops where it is: the SIGINT / SIGTERM / SIGHUP
    /// handlers are installed, and each `cargo fuzz` gets the first signal from [`Forward`].
    fn detect_stoppable() -> Result<(Fuzz, Interrupt)> {
        let mut fuzz = Fuzz::detect()?;
        let interrupt = Interrupt::install().context("cannot install the SIGINT/SIGTERM/SIGHUP handlers")?;
        fuzz.interrupt = Some(interrupt.clone());
        Ok((fuzz, interrupt))
    }

    /// `cargo [+nightly] fuzz <sub> <common flags>`, run from the repository root with a clean
    /// environment (the outer cargo's toolchain and target directory must not leak in).
    fn command(&self, root: &Path, sub: &str, features: Option<&str>) -> Command {
        let mut c = Command::new("cargo");
        c.current_dir(root);
        for var in
            ["CARGO", "RUSTUP_TOOLCHAIN", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR", "RUSTC", "RUSTDOC"]
        {
            c.env_remove(var);
        }
        if self.nightly {
            c.arg("+nightly");
        } else {
            c.env("RUSTC_BOOTSTRAP", "1");
        }
        // No sanitizer: the crates forbid `unsafe`, so ASan would only slow the search; debug
        // assertions stay on so arithmetic overflow in the models is a crash. No comparison
        // tracing: every target reached as much coverage or more in the same time without it
        // (fuzz/README.md, "Comparison tracing"), and diff_stream runs 1.4x as many inputs.
        c.args(["fuzz", sub]).args(FUZZ_BUILD_FLAGS);
        if let Some(f) = features {
            c.args(["--features", f]);
        }
        #[cfg(unix)]
        if self.interrupt.is_some() {
            std::os::unix::process::CommandExt::process_group(&mut c, 0);
        }
        c
    }

    /// Passes the run's first signal on to `child` (see [`Forward`]).
    fn forward(&self, child: &std::process::Child) -> Option<Forward> {
        self.interrupt.as_ref().map(|i| Forward::start(child.id(), i.clone()))
    }

    /// The signal that interrupted the run, if one did.
    fn interrupted(&self) -> Option<&'static str> {
        self.interrupt.as_ref().and_then(Interrupt::signal)
    }

    /// Builds the targets, showing cargo's progress (the crate being compiled and how many so
    /// far) on the spinner; on failure the error is cargo's whole output. A build stopped by the
    /// run's signal is not an error: it says so, and the caller, seeing the signal, fuzzes
    /// nothing.
    fn build(&self, root: &Path, targets: &[&str], features: Option<&str>, quiet: bool) -> Result<Duration> {
        let started = Instant::now();
        let bar = spinner(quiet, "building fuzz targets (cargo fuzz build)");
        let mut c = self.command(root, "build", features);
        if targets.len() == 1 {
            c.arg(targets[0]);
        }
        let mut child =
            c.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().context("cannot run cargo fuzz build")?;
        let forward = self.forward(&child);
        let mut log = Vec::new();
        let mut compiled = 0;
        if let Some(stderr) = child.stderr.take() {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let trimmed = line.trim_start();
                if let Some(what) = trimmed.strip_prefix("Compiling ") {
                    compiled += 1;
                    bar.set_message(format!("building fuzz targets: {compiled} crates compiled, now {what}"));
                }
                log.push(line);
            }
        }
        if let Some(f) = forward {
            f.stop();
        }
        let status = child.wait().context("cannot wait for cargo fuzz build")?;
        bar.finish_and_clear();
        if let Some(signal) = self.interrupted() {
            errln!("interrupted by {signal} while building the fuzz targets: nothing fuzzed");
            return Ok(started.elapsed());
        }
        if !status.success() {
            bail!("cargo fuzz build failed:\n{}", log.join("\n"));
        }
        if !quiet {
            errln!(
                "built {} in {:.0}s ({})",
                targets.join(", "),
                started.elapsed().as_secs_f64(),
                if self.nightly { "nightly" } else { "stable with RUSTC_BOOTSTRAP=1" }
            );
        }
        Ok(started.elapsed())
    }
}

/// Passes the run's first SIGINT, SIGTERM or SIGHUP on to a child's process group (the child runs
/// in its own: a terminal's Ctrl-C, or its hangup, reaches only this process, which decides).
/// libFuzzer stops (printing its final statistics for SIGINT and SIGTERM) and exits; cargo stops
/// its compilers. A second signal ends this process at once ([`Interrupt`]), by which time the
/// child has its signal.
struct Forward {
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<bool>,
}

impl Forward {
    /// How often the watching thread looks at the signal flags.
    const POLL: Duration = Duration::from_millis(50);

    fn start(pid: u32, interrupt: Interrupt) -> Forward {
        use std::sync::atomic::Ordering;
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let watching = std::sync::Arc::clone(&done);
        let thread = std::thread::spawn(move || {
            while !watching.load(Ordering::Relaxed) {
                if let Some(signal) = interrupt.number() {
                    signal_group(pid, signal);
                    return true;
                }
                std::thread::sleep(Forward::POLL);
            }
            false
        });
        Forward { done, thread }
    }

    /// Stops watching; whether the child was sent the signal. Called before the child is waited
    /// for: until then its process (a zombie at worst) keeps its id, so the signal cannot reach
    /// another process group.
    fn stop(self) -> bool {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap_or(false)
    }
}

/// Sends `signal` to the process group `pgid` (elsewhere than on Unix the child shares the
/// console's Ctrl-C, and this does nothing).
#[cfg(unix)]
#[allow(unsafe_code, reason = "kill(2), which touches no memory of this process")]
fn signal_group(pgid: u32, signal: i32) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else { return };
    // SAFETY: kill(2) takes two integers and has no memory-safety preconditions; a group that
    // is gone only makes it fail (ESRCH), which changes nothing here.
    unsafe {
        libc::kill(-pgid, signal);
    }
}

#[cfg(not(unix))]
fn signal_group(_pgid: u32, _signal: i32) {}

fn spinner(quiet: bool, message: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// What one target's run reported.
#[derive(Clone, Debug, Default)]
struct TargetRun {
    target: String,
    seconds: f64,
    execs: u64,
    exec_per_s: u64,
    cov: u64,
    corpus: u64,
    crashes: Vec<PathBuf>,
    /// The panic message printed before each crash's artifact was written (by artifact).
    messages: BTreeMap<PathBuf, String>,
    /// The panic message being read (from `panicked at` to the backtrace), or the last one read.
    panic: Vec<String>,
    /// Whether a panic message is being read.
    in_panic: bool,
    /// Set when the run ended abnormally without an artifact.
    error: Option<String>,
    /// The signal that stopped this target's run before its time was up, if one did.
    interrupted: Option<&'static str>,
}

impl TargetRun {
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "target": self.target,
            "seconds": (self.seconds * 10.0).round() / 10.0,
            "execs": self.execs,
            "exec_per_s": self.exec_per_s,
            "cov": self.cov,
            "corpus": self.corpus,
            "crashes": self.crashes.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "triage": self.crashes.iter().map(|p| triage_command(p)).collect::<Vec<_>>(),
            "messages": self.crashes.iter().map(|p| self.messages.get(p)).collect::<Vec<_>>(),
            "error": self.error,
            "interrupted": self.interrupted,
        })
    }
}

fn triage_command(artifact: &Path) -> String {
    format!("cargo xtask fuzz --triage {}", artifact.display())
}

/// The largest artifact whose bytes the summary prints.
const MAX_PRINTED_INPUT: usize = 8192;

/// A shell command that writes `data` to `artifact` (relative to the repository root where it is
/// under `root`), for a log read where the artifact is gone (CI's clean clone): the input as
/// base64, decoded by coreutils' `base64 -d`. `None` when `data` is larger than
/// [`MAX_PRINTED_INPUT`].
fn recreate_command(root: &Path, artifact: &Path, data: &[u8]) -> Option<String> {
    use base64::Engine as _;
    if data.len() > MAX_PRINTED_INPUT {
        return None;
    }
    let path = artifact.strip_prefix(root).unwrap_or(artifact);
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(format!(
        "mkdir -p '{}' && echo '{}' | base64 -d > '{}'",
        dir.display(),
        base64::engine::general_purpose::STANDARD.encode(data),
        path.display()
    ))
}

/// The lines of a panic message worth keeping.
const MAX_PANIC_LINES: usize = 40;

/// The number after `key` in a libFuzzer status line (`cov: 123`, `exec/s: 45`, `corp: 6/7b`).
fn field_after(line: &str, key: &str) -> Option<u64> {
    let rest = &line[line.find(key)? + key.len()..];
    let digits: String =
        rest.trim_start_matches([':', ' ']).chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Updates `run` from one line of libFuzzer's output; returns whether it was a status line.
fn parse_status(line: &str, run: &mut TargetRun, root: &Path) -> bool {
    // A panic message: `thread '...' panicked at FILE:LINE:COL:`, the message, then the backtrace
    // (or libFuzzer's `==PID== ERROR`), before the artifact is written.
    if line.contains(" panicked at ") {
        run.panic = vec![line.to_string()];
        run.in_panic = true;
        return false;
    }
    if let Some(path) = line.split("Test unit written to ").nth(1) {
        let p = PathBuf::from(path.trim());
        let p = if p.is_absolute() { p } else { root.join(&p) };
        run.in_panic = false;
        if !run.panic.is_empty() {
            run.messages.insert(p.clone(), std::mem::take(&mut run.panic).join("\n").trim_end().to_string());
        }
        if !run.crashes.contains(&p) {
            run.crashes.push(p);
        }
        return false;
    }
    if run.in_panic {
        if line.starts_with("stack backtrace:") || line.starts_with("note: ") || line.starts_with("==") {
            run.in_panic = false;
        } else if run.panic.len() < MAX_PANIC_LINES {
            run.panic.push(line.to_string());
        }
        return false;
    }
    // libFuzzer's final statistics (`-print_final_stats=1`), also printed when it is interrupted.
    if let Some(v) = line.strip_prefix("stat::number_of_executed_units:") {
        run.execs = run.execs.max(v.trim().parse().unwrap_or(0));
        return false;
    }
    if let Some(v) = line.strip_prefix("stat::average_exec_per_sec:") {
        run.exec_per_s = v.trim().parse().unwrap_or(run.exec_per_s);
        return false;
    }
    if !line.starts_with('#') {
        return false;
    }
    // `#1234\tNEW    cov: ...` (one process) or `#1234: cov: ... exec/s 5 ...` (fork mode).
    let execs: String = line[1..].chars().take_while(|c| c.is_ascii_digit()).collect();
    let Ok(execs) = execs.parse::<u64>() else { return false };
    run.execs = run.execs.max(execs);
    if let Some(v) = field_after(line, "cov") {
        run.cov = v;
    }
    if let Some(v) = field_after(line, "corp") {
        run.corpus = v;
    }
    if let Some(v) = field_after(line, "exec/s") {
        run.exec_per_s = v;
    }
    true
}

/// Extra libFuzzer flags per target.
fn target_flags(root: &Path, target: &str) -> Vec<String> {
    let mut f = vec!["-timeout=10".to_string(), "-rss_limit_mb=2048".to_string()];
    match target {
        "diff_stream" => f.push("-max_len=8192".to_string()),
        "decode" => f.push("-max_len=4".to_string()),
        // 2 bytes, 64 operands of 8 bytes, the 5120-byte state (harness_amx::fuzz).
        "amx_diff" => f.push("-max_len=5634".to_string()),
        _ => f.push("-max_len=16384".to_string()),
    }
    let dict = root.join(format!("fuzz/dict/{target}.dict"));
    if dict.exists() {
        f.push(format!("-dict={}", dict.display()));
    }
    f
}

/// What a run pins down (`None`: left to the target and libFuzzer).
#[derive(Clone, Copy, Debug, Default)]
struct Pin {
    /// diff_stream's chip (`SFPU_FUZZ_CHIP`: the chip bit of every input is overwritten).
    chip: Option<Arch>,
    /// diff_stream's most instructions per stream (`SFPU_FUZZ_MAX_STREAM`).
    max_stream: Option<u32>,
    /// libFuzzer's random seed (otherwise libFuzzer picks one).
    seed: Option<u32>,
}

/// Runs one target for `time` with `corpus`, streaming its progress into `bar`, with what `pin`
/// pins (fuzz/fuzz_targets/diff_stream.rs reads the variables; the other targets ignore them).
fn run_target(
    fuzz: &Fuzz,
    root: &Path,
    target: &str,
    corpus: &Path,
    time: Duration,
    jobs: u32,
    features: Option<&str>,
    pin: Pin,
    bar: &ProgressBar,
) -> Result<TargetRun> {
    let started = Instant::now();
    let mut run = TargetRun { target: target.to_string(), ..TargetRun::default() };
    let mut c = fuzz.command(root, "run", features);
    if let Some(arch) = pin.chip {
        c.env("SFPU_FUZZ_CHIP", arch.to_string());
    }
    if let Some(n) = pin.max_stream {
        c.env("SFPU_FUZZ_MAX_STREAM", n.to_string());
    }
    c.arg(target).arg(corpus).arg("--");
    c.arg(format!("-max_total_time={}", time.as_secs().max(1)));
    c.args(target_flags(root, target));
    c.arg("-print_final_stats=1");
    if let Some(seed) = pin.seed {
        c.arg(format!("-seed={seed}"));
    }
    if jobs > 1 {
        c.arg(format!("-fork={jobs}")).arg("-ignore_crashes=1");
    }
    c.stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = c.spawn().context("cannot run cargo fuzz run")?;
    let forward = fuzz.forward(&child);
    let mut tail: Vec<String> = Vec::new();
    if let Some(err) = child.stderr.take() {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if parse_status(&line, &mut run, root) {
                bar.set_message(format!(
                    "{target}: {} exec/s, cov {}, corpus {}, crashes {}",
                    run.exec_per_s,
                    run.cov,
                    run.corpus,
                    run.crashes.len()
                ));
            }
            tail.push(line);
            if tail.len() > 60 {
                tail.remove(0);
            }
        }
    }
    // A target that ran its time out before the signal came is not marked interrupted.
    let signalled = forward.is_some_and(Forward::stop);
    let status = child.wait()?;
    run.seconds = started.elapsed().as_secs_f64();
    run.interrupted = fuzz.interrupted().filter(|_| signalled);
    if !status.success() && run.crashes.is_empty() && run.interrupted.is_none() {
        run.error = Some(format!("exited with {status}:\n{}", tail.join("\n")));
    }
    Ok(run)
}

/// How a total budget is split: in proportion to a weight of 3 for diff_stream and 1 for each
/// other target (3/7 and 1/7 each with all five).
fn split(targets: &[&str], total: Duration) -> Vec<Duration> {
    let weight = |t: &str| if t == "diff_stream" { 3.0 } else { 1.0 };
    let sum: f64 = targets.iter().map(|t| weight(t)).sum();
    targets
        .iter()
        .map(|t| Duration::from_secs_f64((total.as_secs_f64() * weight(t) / sum).max(3.0)))
        .collect()
}

/// The least time worth giving one target.
const MIN_TARGET_TIME: Duration = Duration::from_secs(3);

/// The fuzzing time left of `budget` (the wall-clock budget of the whole command) once `spent`
/// has gone to the seeds and the build, less a margin for starting `targets` fuzzers and the
/// summary; `None` when that leaves less than [`MIN_TARGET_TIME`] per target (the smoke run takes
/// whatever is left).
fn fuzzing_time(budget: Duration, spent: Duration, targets: usize, smoke: bool) -> Option<Duration> {
    let margin = Duration::from_secs(if smoke { 8 } else { 2 } + 2 * targets as u64);
    let left = budget.saturating_sub(spent).saturating_sub(margin);
    (smoke || left >= MIN_TARGET_TIME * targets as u32).then_some(left)
}

fn run(root: &Path, args: &Args, started: Instant) -> Result<ExitCode> {
    let (fuzz, interrupt) = Fuzz::detect_stoppable()?;
    let targets: Vec<&str> = if args.targets.is_empty() {
        TARGETS.to_vec()
    } else {
        TARGETS.iter().copied().filter(|t| args.targets.iter().any(|a| a == t)).collect()
    };
    fuzz.build(root, &targets, None, args.quiet)?;
    if let Some(signal) = interrupt.signal() {
        summary(root, &[], started.elapsed(), Some(&(signal, targets.clone())), args)?;
        return Ok(ExitCode::from(interrupt.exit_status()));
    }
    // What is left of the budget (the smoke run's, or --time), less a margin for process start-up
    // and the summary: seeds and the build were paid for out of it.
    let budget = if args.smoke { SMOKE_BUDGET } else { args.time.unwrap_or(LONG_RUN) };
    let Some(total) = fuzzing_time(budget, started.elapsed(), targets.len(), args.smoke) else {
        bail!(
            "--time {}s leaves no time to fuzz: writing the seeds and building took {:.0}s of it; give more \
             (the build is quicker the second time)",
            budget.as_secs(),
            started.elapsed().as_secs_f64()
        );
    };
    if !args.quiet {
        errln!(
            "fuzzing for {:.0}s ({:.0}s of the {}s budget went to the seeds and the build)",
            total.as_secs_f64(),
            started.elapsed().as_secs_f64(),
            budget.as_secs()
        );
    }
    let times = split(&targets, total);
    let mut runs = Vec::new();
    for (target, time) in targets.iter().zip(times) {
        if interrupt.signal().is_some() {
            break;
        }
        let bar = spinner(args.quiet, &format!("{target}: starting ({}s)", time.as_secs()));
        let corpus = root.join("fuzz/corpus").join(target);
        std::fs::create_dir_all(&corpus)?;
        let pin = Pin { max_stream: args.max_stream, ..Pin::default() };
        let run = run_target(&fuzz, root, target, &corpus, time, args.jobs, None, pin, &bar)?;
        bar.finish_and_clear();
        if !args.quiet {
            errln!(
                "{target}: {:.0}s, {} execs ({} exec/s), cov {}, corpus {}, crashes {}{}",
                run.seconds,
                run.execs,
                run.exec_per_s,
                run.cov,
                run.corpus,
                run.crashes.len(),
                match (&run.error, run.interrupted) {
                    (Some(_), _) => " (ended abnormally)".to_string(),
                    (None, Some(signal)) => format!(" (interrupted by {signal})"),
                    (None, None) => String::new(),
                }
            );
        }
        runs.push(run);
    }
    let not_fuzzed: Vec<&str> = targets[runs.len()..].to_vec();
    let stopped = interrupt.signal().map(|signal| (signal, not_fuzzed));
    let code = summary(root, &runs, started.elapsed(), stopped.as_ref(), args)?;
    Ok(if stopped.is_some() { ExitCode::from(interrupt.exit_status()) } else { code })
}

/// Prints what the run found: each target's figures, every artifact with its panic message, its
/// bytes (as a command that writes it again) and its triage command, and, for a run stopped by a
/// signal (`stopped`: the signal and the targets not reached), that it was. Exit status 1 if
/// anything crashed.
fn summary(
    root: &Path,
    runs: &[TargetRun],
    elapsed: Duration,
    stopped: Option<&(&str, Vec<&str>)>,
    args: &Args,
) -> Result<ExitCode> {
    let crashed = runs.iter().any(|r| !r.crashes.is_empty() || r.error.is_some());
    if args.json {
        let v = serde_json::json!({
            "seconds": elapsed.as_secs(),
            "targets": runs.iter().map(TargetRun::json).collect::<Vec<_>>(),
            "ok": !crashed,
            "interrupted": stopped.map(|(signal, _)| signal),
            "not_fuzzed": stopped.map(|(_, t)| t.clone()).unwrap_or_default(),
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else if !args.quiet || crashed || stopped.is_some() {
        errln!("\nfuzz summary ({:.0}s):", elapsed.as_secs_f64());
        for r in runs {
            errln!(
                "  {:<13} {:>6.0}s {:>10} execs {:>7} exec/s  cov {:>6}  corpus {:>5}  crashes {}",
                r.target,
                r.seconds,
                r.execs,
                r.exec_per_s,
                r.cov,
                r.corpus,
                r.crashes.len()
            );
            for a in &r.crashes {
                errln!("      artifact: {}", a.display());
                // What the log must carry for a run whose files are gone (CI): the message and
                // the input.
                if let Some(m) = r.messages.get(a) {
                    errln!("      message:  {}", m.replace('\n', "\n                "));
                }
                match std::fs::read(a) {
                    Ok(data) => match recreate_command(root, a, &data) {
                        Some(c) => errln!("      input:    {} bytes; to write it again: {c}", data.len()),
                        None => errln!("      input:    {} bytes (too large to print here)", data.len()),
                    },
                    Err(e) => errln!("      input:    cannot read the artifact: {e}"),
                }
                errln!("      triage:   {}", triage_command(a));
            }
            if let Some(e) = &r.error {
                errln!("      error: {e}");
            }
        }
        if let Some((signal, not_fuzzed)) = stopped {
            errln!(
                "interrupted by {signal} after {:.0}s{}",
                elapsed.as_secs_f64(),
                if not_fuzzed.is_empty() {
                    String::new()
                } else {
                    format!("; not fuzzed: {}", not_fuzzed.join(", "))
                }
            );
        }
        if !crashed {
            errln!("no crash, no divergence{}", if stopped.is_some() { " so far" } else { "" });
        }
    }
    Ok(if crashed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

// ---------------------------------------------------------------------------------------------
// The planted divergence.
// ---------------------------------------------------------------------------------------------

fn planted(root: &Path, args: &Args) -> Result<ExitCode> {
    let started = Instant::now();
    let (fuzz, interrupt) = Fuzz::detect_stoppable()?;
    fuzz.build(root, &["diff_stream"], Some("planted"), args.quiet)?;
    let mut results = Vec::new();
    for arch in all_arches() {
        if interrupt.signal().is_some() {
            break;
        }
        results.push(planted_on(root, args, &fuzz, arch)?);
    }
    let (verdict, not_checked) = planted_verdict(&results);
    let ok = verdict.unwrap_or(true);
    let stopped = interrupt.signal();
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "planted": verdict,
                "chips": results,
                "total_seconds": started.elapsed().as_secs(),
                "interrupted": stopped,
                "not_checked": not_checked,
            }))?
        );
    }
    if let Some(signal) = stopped {
        errln!(
            "planted check interrupted by {signal} after {:.0}s{}",
            started.elapsed().as_secs_f64(),
            if not_checked.is_empty() {
                String::new()
            } else {
                format!("; not checked: {}", not_checked.join(", "))
            }
        );
        return Ok(ExitCode::from(interrupt.exit_status()));
    }
    if ok && !args.quiet {
        errln!("planted check passed on every chip (total {:.0}s)", started.elapsed().as_secs_f64());
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The planted check's verdict from the chips' results (`planted_on`, in `all_arches` order) and
/// the chips not checked: `false` if a checked chip failed, `true` if every chip passed, `None`
/// when a signal stopped the check with no chip failed yet. A chip a signal cut short
/// (`"interrupted"`) has no verdict of its own, and counts as not checked.
fn planted_verdict(results: &[serde_json::Value]) -> (Option<bool>, Vec<String>) {
    let checked: Vec<&serde_json::Value> = results.iter().filter(|r| r["interrupted"].is_null()).collect();
    let not_checked: Vec<String> = all_arches().iter().skip(checked.len()).map(Arch::to_string).collect();
    let ok = checked.iter().all(|r| r["planted"].as_bool() == Some(true));
    ((not_checked.is_empty() || !ok).then_some(ok), not_checked)
}

/// The planted check on one chip: diff_stream, with the chip pinned, must find the planted
/// divergence from an empty corpus, and the artifact must triage into a copy of the chip's
/// regressions file as an SFPIADD vector that loads and passes on the reference.
fn planted_on(root: &Path, args: &Args, fuzz: &Fuzz, arch: Arch) -> Result<serde_json::Value> {
    // A fresh, empty corpus: the fuzzer must find the divergence on its own, not from a seed.
    let scratch = std::env::temp_dir().join(format!("sfpu-fuzz-planted-{arch}-{}", std::process::id()));
    let corpus = scratch.join("corpus");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&corpus)?;
    let budget = Duration::from_secs(60);
    let bar = spinner(args.quiet, &format!("diff_stream (planted divergence, {arch}): starting"));
    let pin = Pin { chip: Some(arch), max_stream: args.max_stream, seed: None };
    let run = run_target(fuzz, root, "diff_stream", &corpus, budget, 1, Some("planted"), pin, &bar)?;
    bar.finish_and_clear();
    // Stopped before it found the divergence (once found, libFuzzer has stopped on its own).
    if let Some(signal) = run.interrupted.filter(|_| run.crashes.is_empty()) {
        let _ = std::fs::remove_dir_all(&scratch);
        return Ok(serde_json::json!({
            "chip": arch.to_string(),
            "planted": null,
            "execs": run.execs,
            "interrupted": signal,
        }));
    }
    let fail = |why: String| {
        errln!("planted check FAILED on {arch}: {why}");
        serde_json::json!({"chip": arch.to_string(), "planted": false, "execs": run.execs, "error": why})
    };
    let Some(raw) = run.crashes.first().cloned() else {
        return Ok(fail(format!(
            "diff_stream did not find the planted divergence in {:.0}s ({} execs){}",
            run.seconds,
            run.execs,
            run.error.as_deref().map(|e| format!("\n{e}")).unwrap_or_default()
        )));
    };
    let found_after = run.seconds;
    // The artifact as the oracle saw it: the chip bit pinned (the target overwrote it).
    let mut data = std::fs::read(&raw)?;
    let _ = std::fs::remove_file(&raw);
    if let Some(head) = data.first_mut() {
        *head = (*head & !0x40) | if arch == Arch::Wormhole { 0x40 } else { 0 };
    }
    let artifact = scratch.join("diff_stream").join(raw.file_name().unwrap_or_default());
    std::fs::create_dir_all(scratch.join("diff_stream"))?;
    std::fs::write(&artifact, &data)?;
    // Triage into a copy of the chip's regressions file, then check the copy loads and the new
    // vector passes on the reference.
    let copy = scratch.join("regressions.yaml");
    let real = root.join(format!("vectors/{arch}/regressions.yaml"));
    if real.exists() {
        std::fs::copy(&real, &copy)?;
    } else {
        std::fs::write(&copy, empty_regressions(arch))?;
    }
    let report = triage(root, std::slice::from_ref(&artifact), &copy, true)?;
    let file =
        load_file(&copy).map_err(|e| anyhow::anyhow!("the triaged regressions file does not load: {e:?}"))?;
    let added: Vec<&Vector> = file.vectors.iter().filter(|v| v.tags.iter().any(|t| t == "fuzz")).collect();
    let shape_ok = report.added.iter().any(|a| a.shape.starts_with("SFPIADD/"));
    let passes = file.arch == arch
        && added.iter().all(|v| {
            matches!(
                harness_sfpu::vectors::run_vector(
                    &harness_sfpu::Reference,
                    &file,
                    v,
                    harness_sfpu::vectors::Strictness::Silicon
                )
                .status,
                harness_sfpu::vectors::Status::Pass
            )
        });
    if added.is_empty() || !shape_ok || !passes {
        return Ok(fail(format!(
            "artifact {} triaged to {:?} (shape SFPIADD expected; vector passes on the reference: {passes}); files kept in {}",
            artifact.display(),
            report.added.iter().map(|a| &a.shape).collect::<Vec<_>>(),
            scratch.display()
        )));
    }
    if !args.quiet {
        errln!(
            "planted check passed on {arch}: diff_stream found the planted SFPIADD divergence after {found_after:.1}s \
             ({} execs, from an empty corpus) and triaged it into a {arch} regression vector:",
            run.execs,
        );
        for a in &report.added {
            errln!("  {} [{}]", a.id, a.shape);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(serde_json::json!({
        "chip": arch.to_string(),
        "planted": true,
        "found_after_seconds": (found_after * 10.0).round() / 10.0,
        "execs": run.execs,
        "shapes": report.added.iter().map(|a| a.shape.clone()).collect::<Vec<_>>(),
    }))
}

// ---------------------------------------------------------------------------------------------
// Triage.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Added {
    id: String,
    shape: String,
    artifact: PathBuf,
}

#[derive(Default)]
struct TriageReport {
    added: Vec<Added>,
    duplicates: Vec<(PathBuf, String)>,
    not_reproduced: Vec<PathBuf>,
    other: Vec<(PathBuf, String)>,
    failed: bool,
}

impl TriageReport {
    fn merge(&mut self, other: TriageReport) {
        self.added.extend(other.added);
        self.duplicates.extend(other.duplicates);
        self.not_reproduced.extend(other.not_reproduced);
        self.other.extend(other.other);
        self.failed |= other.failed;
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "added": self.added.iter().map(|a| serde_json::json!({
                "id": a.id, "shape": a.shape, "artifact": a.artifact.display().to_string()
            })).collect::<Vec<_>>(),
            "duplicates": self.duplicates.iter().map(|(p, s)| serde_json::json!({
                "artifact": p.display().to_string(), "shape": s
            })).collect::<Vec<_>>(),
            "not_reproduced": self.not_reproduced.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "other": self.other.iter().map(|(p, m)| serde_json::json!({
                "artifact": p.display().to_string(), "message": m
            })).collect::<Vec<_>>(),
        })
    }
}

/// `vectors/<arch>/regressions.yaml`, written with an empty vector list (and the header the
/// loader needs) if the chip has none yet.
fn regressions_file(root: &Path, arch: Arch) -> Result<PathBuf> {
    let path = root.join(format!("vectors/{arch}/regressions.yaml"));
    if !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap_or(root))?;
        std::fs::write(&path, empty_regressions(arch))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(path)
}

/// A regressions file of `arch` with no vector.
fn empty_regressions(arch: Arch) -> String {
    format!(
        "# Hand-added regression vectors (kept apart from the generated files; never regenerated).\n\
         # `cargo xtask fuzz --triage` appends the divergences diff_stream finds on this chip.\n\
         format: {FORMAT}\narch: {arch}\nfile: regressions\nvectors: []\n"
    )
}

/// The target an artifact belongs to: the directory libFuzzer wrote it to (`fuzz/artifacts/T/`).
fn artifact_target(path: &Path) -> Option<&'static str> {
    let dir = path.parent()?.file_name()?.to_str()?;
    TARGETS.iter().copied().find(|t| *t == dir)
}

/// A divergence report as the fuzz binary prints it: the shape and the regression vector.
fn divergence_from_binary(root: &Path, target: &str, artifact: &Path) -> Option<(String, String)> {
    // The artifact's own build (say, with the planted feature) reproduces it when this process's
    // fast model does not.
    let binary = root.join(format!("fuzz/target/{}/release/{target}", host_triple()?));
    let out = Command::new(binary).arg(artifact).output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    parse_report(&text)
}

fn host_triple() -> Option<String> {
    let out = Command::new("rustc").arg("-vV").env_remove("RUSTUP_TOOLCHAIN").output().ok()?;
    String::from_utf8_lossy(&out.stdout).lines().find_map(|l| l.strip_prefix("host: ").map(str::to_string))
}

/// The shape and the YAML vector of a printed [`Divergence`](harness_sfpu::fuzz::Divergence).
fn parse_report(text: &str) -> Option<(String, String)> {
    let shape = text.lines().find_map(|l| l.strip_prefix("shape: "))?.split(" (").next()?.to_string();
    let start = text.find("/regressions.yaml):\n")? + "/regressions.yaml):\n".len();
    let yaml: String = text[start..]
        .lines()
        .take_while(|l| l.starts_with("- ") || l.starts_with("  "))
        .map(|l| format!("{l}\n"))
        .collect();
    Some((shape, yaml))
}

/// A divergence an oracle reported: its shape, its YAML regression vector, and the message to
/// print (empty when it came from the fuzz binary's output).
struct Divergent {
    shape: String,
    yaml: String,
    printed: String,
}

/// Replays a `diff_stream` artifact: in this process first, then with the fuzz binary (the
/// artifact may come from a build with other features).
fn diff_stream_divergence(root: &Path, artifact: &Path, data: &[u8]) -> Option<Divergent> {
    match diff_stream_with_origin(data, &input_tag(data)) {
        Err(d) => Some(Divergent { shape: d.shape.clone(), yaml: d.snippet(), printed: d.to_string() }),
        Ok(()) => divergence_from_binary(root, "diff_stream", artifact).map(|(shape, yaml)| Divergent {
            shape,
            yaml,
            printed: String::new(),
        }),
    }
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic (no message)".into())
}

/// An input for a message: hex, cut after 512 bytes.
fn hex_input(data: &[u8]) -> String {
    let shown: String = data.iter().take(512).map(|b| format!("{b:02x}")).collect();
    if data.len() > 512 { format!("{shown}... ({} bytes)", data.len()) } else { shown }
}

fn triage(root: &Path, artifacts: &[PathBuf], regressions: &Path, quiet: bool) -> Result<TriageReport> {
    triage_with(artifacts, regressions, quiet, &|artifact, data| diff_stream_divergence(root, artifact, data))
}

/// [`triage`] with the `diff_stream` replay given: `oracle` says whether an artifact diverges.
///
/// Every artifact is handled on its own: a panic of the models (or of any oracle) is caught and
/// reported as a crash with its input, an artifact that cannot be read or whose vector would not
/// load is reported, and the run goes on; the regressions file is rewritten after every vector
/// added, so nothing found before a failure is lost. Whether a divergence is added or a duplicate
/// is [`append_regression`]'s decision over the file's current text.
fn triage_with(
    artifacts: &[PathBuf],
    regressions: &Path,
    quiet: bool,
    oracle: &dyn Fn(&Path, &[u8]) -> Option<Divergent>,
) -> Result<TriageReport> {
    let mut report = TriageReport::default();
    let text = std::fs::read_to_string(regressions)
        .with_context(|| format!("cannot read {}", regressions.display()))?;
    parse_file(regressions, &text).map_err(|e| {
        anyhow::anyhow!(
            "{} does not load before triage: {}",
            regressions.display(),
            e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
        )
    })?;
    let mut current = text;
    for artifact in artifacts {
        let data = match std::fs::read(artifact) {
            Ok(d) => d,
            Err(e) => {
                let message = format!("cannot read the artifact: {e}");
                errln!("{}: {message}", artifact.display());
                report.other.push((artifact.clone(), message));
                report.failed = true;
                continue;
            }
        };
        let target = artifact_target(artifact).unwrap_or("diff_stream");
        let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match target {
            "diff_stream" => Ok(oracle(artifact, &data)),
            "decode" => decode_oracle(&data).map(|()| None),
            "vectors_load" => vectors_load_oracle(&data).map(|()| None),
            // An AMX divergence is reported with what differs; AMX regressions are added to the
            // generator's named vectors by hand (harness/amx/src/generate.rs).
            "amx_diff" => harness_amx::fuzz::amx_diff_oracle(&data).map(|()| None),
            _ => dut_protocol_oracle(&data).map(|()| None),
        }));
        let found = match replayed {
            Ok(Ok(Some(found))) => found,
            Ok(Ok(None)) => {
                errln!("{}: does not reproduce (no divergence, no crash)", artifact.display());
                report.not_reproduced.push(artifact.clone());
                continue;
            }
            Ok(Err(message)) => {
                errln!(
                    "{} ({target}): {message}\n  input: {:?}\n  (not a model divergence: add a unit test next to the code at fault)",
                    artifact.display(),
                    String::from_utf8_lossy(&data)
                );
                report.other.push((artifact.clone(), message));
                report.failed = true;
                continue;
            }
            Err(payload) => {
                let message = format!("crash: {target} panicked: {}", panic_message(payload.as_ref()));
                let stream = if target == "diff_stream" {
                    std::panic::catch_unwind(|| {
                        let input = StreamInput::from_bytes(&data);
                        let arch = input.arch;
                        input
                            .program
                            .iter()
                            .enumerate()
                            .map(|(i, instr)| {
                                format!(
                                    "\n    {i:>3}  0x{:08x}  {} ({arch})",
                                    instr.encode(arch).unwrap_or_else(|_| instr.encode_blackhole()),
                                    instr.display(arch)
                                )
                            })
                            .collect::<String>()
                    })
                    .unwrap_or_else(|_| " (the input does not decode either)".to_string())
                } else {
                    String::new()
                };
                errln!(
                    "{}: {message}\n  input ({} bytes): {}{}\n  replay: cargo xtask fuzz --triage {}\n  \
                     (a panic in the models is a bug in its own right: fix it, then triage again)",
                    artifact.display(),
                    data.len(),
                    hex_input(&data),
                    if stream.is_empty() { String::new() } else { format!("\n  stream:{stream}") },
                    artifact.display()
                );
                report.other.push((artifact.clone(), message));
                report.failed = true;
                continue;
            }
        };
        report.failed = true;
        if !quiet && !found.printed.is_empty() {
            errln!("{}", found.printed);
        }
        let shape = found.shape;
        let name = artifact.file_name().and_then(|n| n.to_str()).unwrap_or("artifact");
        match append_regression(&current, regressions, name, &shape, &found.yaml) {
            Ok(Appended::Duplicate { id }) => {
                errln!("{}: duplicate of {id} (shape {shape}); not added", artifact.display());
                report.duplicates.push((artifact.clone(), shape));
            }
            Ok(Appended::Added { id, text: candidate }) => {
                write_atomically(regressions, &candidate)?;
                current = candidate;
                if !quiet {
                    errln!("{}: added {id} (shape {shape}) to {}", artifact.display(), regressions.display());
                }
                report.added.push(Added { id, shape, artifact: artifact.clone() });
            }
            Err(e) => {
                let message = format!("divergence {shape} not added: {e}");
                errln!("{}: {message}", artifact.display());
                report.other.push((artifact.clone(), message));
            }
        }
    }
    if !quiet {
        errln!(
            "triage: {} added, {} duplicate(s), {} not reproduced, {} other crash(es) or problem(s)",
            report.added.len(),
            report.duplicates.len(),
            report.not_reproduced.len(),
            report.other.len()
        );
    }
    Ok(report)
}

/// Writes `text` to `path` through a temporary file in the same directory and a rename, so the
/// file is never seen half-written.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension(format!("yaml.tmp-{}", std::process::id()));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// Seed corpora.
// ---------------------------------------------------------------------------------------------

/// Writes `fuzz/corpus/<target>/seed-*` from the golden vectors (deterministic; the files are
/// rewritten on every run, libFuzzer's own additions are kept). Returns the count per target.
fn write_seeds(root: &Path) -> Result<Vec<(&'static str, usize)>> {
    let corpus = load_corpus(&root.join("vectors/blackhole"), Arch::Blackhole).map_err(|e| {
        anyhow::anyhow!(
            "the golden vectors do not load: {}",
            e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
        )
    })?;
    let mut seeds: BTreeMap<&'static str, BTreeMap<String, Vec<u8>>> = BTreeMap::new();
    let safe = |id: &str| {
        id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect::<String>()
    };
    let mut modes_seen = BTreeSet::new();
    let mut words = BTreeSet::new();
    for (file, v) in corpus.vectors() {
        for w in &v.program {
            words.insert(w.word.0);
        }
        // diff_stream: one vector per (file, mode), and every multi-instruction vector.
        let first_of_mode = modes_seen.insert((file.file.clone(), v.mode.clone()));
        if first_of_mode || v.program.len() > 1 {
            let Ok(pre) = v.pre.to_state() else { continue };
            let program: Vec<_> =
                v.program.iter().filter_map(|w| decode(Arch::Blackhole, w.word.0).ok()).collect();
            if let Some(bytes) = encode_stream_input(&pre, &program) {
                seeds.entry("diff_stream").or_default().insert(format!("seed-{}", safe(&v.id)), bytes);
            }
            // The same case on the other chips (instructions carried over by their text).
            for arch in all_arches().into_iter().filter(|&a| a != Arch::Blackhole) {
                if let Some(bytes) = stream_input_on(arch, &pre, &program) {
                    seeds
                        .entry("diff_stream")
                        .or_default()
                        .insert(format!("seed-{arch}-{}", safe(&v.id)), bytes);
                }
            }
        }
        // vectors_load: one-vector files of the first vector of each file; state documents.
        if first_of_mode && v.mode.as_deref().is_none_or(|m| m.ends_with("=0") || m == "none") {
            let one = VectorFile { vectors: vec![v.clone()], ..file.clone() };
            let text = write_file(&one, &["seed".to_string()]);
            let load = seeds.entry("vectors_load").or_default();
            load.insert(format!("seed-file-{}", safe(&v.id)), text.into_bytes());
            if let Ok(s) = v.pre.to_state() {
                load.insert(format!("seed-state-{}", safe(&v.id)), s.to_yaml().into_bytes());
                load.insert(format!("seed-json-{}", safe(&v.id)), s.to_json().into_bytes());
            }
            // dut_protocol: a result answer with the vector's post state.
            let answer = serde_json::json!({"type": "result", "id": v.id, "state": v.post,
                "outcome": v.outcome.iter().map(|n| serde_json::json!({"clause": n.clause, "lanes": n.lanes})).collect::<Vec<_>>()});
            seeds
                .entry("dut_protocol")
                .or_default()
                .insert(format!("seed-result-{}", safe(&v.id)), answer.to_string().into_bytes());
        }
    }
    let dut = seeds.entry("dut_protocol").or_default();
    for (name, line) in [
        ("hello", r#"{"type":"hello","protocol":"sfpu-dut/1","name":"seed","version":"1"}"#),
        ("unsupported", r#"{"type":"unsupported","id":"SFPMAD/x","reason":"not yet"}"#),
        ("error", r#"{"type":"error","id":"SFPMAD/x","message":"crashed"}"#),
        ("error-no-id", r#"{"type":"error","message":"wrong protocol"}"#),
        ("result-empty", r#"{"type":"result","id":"a","state":{}}"#),
    ] {
        dut.insert(format!("seed-{name}"), line.as_bytes().to_vec());
    }
    let empty_state = serde_json::to_string(&StateDoc::default()).unwrap_or_default();
    dut.insert(
        "seed-result-default".into(),
        format!(r#"{{"type":"result","id":"b","state":{empty_state}}}"#).into_bytes(),
    );
    // amx_diff: every AMX golden vector, as (chip, operands, state).
    let amx = seeds.entry("amx_diff").or_default();
    for f in harness_amx::generate::files(harness_amx::generate::DEFAULT_SEED) {
        let Ok(chip) = f.chip.parse::<amx_reference::Chip>() else { continue };
        for v in &f.vectors {
            let (Ok(pre), Ok(ops)) = (
                v.pre.to_state(),
                v.program
                    .iter()
                    .map(|w| w.text.parse::<amx_reference::Operand>())
                    .collect::<Result<Vec<_>, _>>(),
            ) else {
                continue;
            };
            let bytes = harness_amx::fuzz::encode_input(chip, &ops, &pre);
            amx.insert(format!("seed-{}", safe(&v.id)), bytes);
        }
    }
    let decode_seeds = seeds.entry("decode").or_default();
    for w in words.iter().chain(&[0u32, 0xFFFF_FFFF, 0x6F00_0000, 0x9A00_0000, 0x7000_1C00]) {
        decode_seeds.insert(format!("seed-{w:08x}"), w.to_le_bytes().to_vec());
    }
    let mut counts = Vec::new();
    for target in TARGETS {
        let dir = root.join("fuzz/corpus").join(target);
        std::fs::create_dir_all(&dir)?;
        let files = seeds.remove(target).unwrap_or_default();
        // Remove stale seeds (a vector renamed or removed), keep libFuzzer's files.
        for e in std::fs::read_dir(&dir)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("seed-") && !files.contains_key(&name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
        for (name, bytes) in &files {
            let path = dir.join(name);
            if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
                std::fs::write(&path, bytes)?;
            }
        }
        counts.push((target, files.len()));
    }
    Ok(counts)
}

// ---------------------------------------------------------------------------------------------
// Throughput.
// ---------------------------------------------------------------------------------------------

/// The target for `diff_stream` under libFuzzer (16-instruction streams, one core).
const RATE_TARGET: u64 = 30_000;

/// `--rate` runs this long per chip unless `--time` says otherwise.
const RATE_DEFAULT: Duration = Duration::from_secs(20);

/// `--rate`'s most instructions per stream unless `--max-stream` says otherwise: the 16 of the
/// target. libFuzzer's mutations soon make streams of 64 out of the 16-instruction seeds (the
/// head byte names fewer state sections, and their bytes become instructions: after 20 s most
/// of the corpus has 64), so without the cap the rate would be mostly that of 64-instruction
/// streams.
const RATE_STREAM: u32 = 16;

/// The seeds of `--rate` for `arch`: 256 inputs of 16-instruction `generate::streams` cases
/// (the `--throughput` inputs), each decoding to 16 instructions on that chip.
fn rate_seeds(arch: Arch) -> Vec<Vec<u8>> {
    let mut rng = Rng::stream(0x7A5E_ED00, &format!("rate/{arch}"));
    (0..256)
        .filter_map(|_| {
            let case = random_stream_for(arch, &mut rng, 16, None);
            encode_stream_input(&case.pre, &case.program)
        })
        .collect()
}

/// `met` or `MISSED` for a rate.
fn rate_verdict(exec_per_s: u64) -> &'static str {
    if exec_per_s >= RATE_TARGET { "met" } else { "MISSED" }
}

/// libFuzzer's seed for `--rate`.
const RATE_SEED: u32 = 1;

/// Where `--rate` keeps its corpus: in memory (`/dev/shm`) where the host has it, else the
/// temporary folder. libFuzzer writes a file for every new corpus unit (thousands in a seeded
/// 20 s run), and on the pool's ext4 disks creating a file took 0.03 to 0.5 ms, the kernel's
/// search for a free inode among recently deleted ones (`recently_deleted`, `find_inode_bit`):
/// 20 to 27% of a run in profiles, varying with what the host deleted last. In memory the rate
/// is libFuzzer's and the oracle's, comparable between runs and hosts.
fn rate_folder() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() }
}

fn rate(root: &Path, args: &Args) -> Result<ExitCode> {
    let time = args.time.unwrap_or(RATE_DEFAULT);
    let max_stream = args.max_stream.unwrap_or(RATE_STREAM);
    let judged = max_stream == RATE_STREAM;
    let (fuzz, interrupt) = Fuzz::detect_stoppable()?;
    fuzz.build(root, &["diff_stream"], None, args.quiet)?;
    let mut results = Vec::new();
    let mut failed = false;
    for arch in all_arches() {
        if interrupt.signal().is_some() {
            break;
        }
        let scratch = rate_folder().join(format!("sfpu-fuzz-rate-{arch}-{}", std::process::id()));
        let corpus = scratch.join("corpus");
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&corpus)?;
        for (i, seed) in rate_seeds(arch).iter().enumerate() {
            std::fs::write(corpus.join(format!("seed-{i:03}")), seed)?;
        }
        let bar = spinner(args.quiet, &format!("diff_stream under libFuzzer ({arch}): starting"));
        // A fixed libFuzzer seed: the same mutations every run, so runs differ only by the
        // machine (with libFuzzer's own seed, the search's path moved the rate by a third).
        let pin = Pin { chip: Some(arch), max_stream: Some(max_stream), seed: Some(RATE_SEED) };
        let run = run_target(&fuzz, root, "diff_stream", &corpus, time, 1, None, pin, &bar);
        bar.finish_and_clear();
        let _ = std::fs::remove_dir_all(&scratch);
        let run = run?;
        if let Some(e) = &run.error {
            errln!("diff_stream on {arch} ended abnormally: {e}");
            failed = true;
        }
        for c in &run.crashes {
            errln!("diff_stream on {arch} crashed: {c:?}; replay with `{}`", triage_command(c));
            if let Some(m) = run.messages.get(c) {
                errln!("{m}");
            }
            failed = true;
        }
        results.push((arch, run));
    }
    let not_measured: Vec<String> = all_arches().iter().skip(results.len()).map(Arch::to_string).collect();
    if args.json {
        let chips: Vec<serde_json::Value> = results
            .iter()
            .map(|(arch, r)| {
                serde_json::json!({
                    "chip": arch.to_string(),
                    "max_stream": max_stream,
                    "exec_per_s": r.exec_per_s,
                    "target": RATE_TARGET,
                    // The target is for streams of 16 instructions, each chip for its whole
                    // time; other lengths and interrupted runs are not judged.
                    "met": (judged && r.interrupted.is_none()).then_some(r.exec_per_s >= RATE_TARGET),
                    "run": r.json(),
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "chips": chips,
                "interrupted": interrupt.signal(),
                "not_measured": not_measured,
            }))?
        );
    } else {
        outln!(
            "diff_stream under libFuzzer, one core, {}s per chip, streams of at most {max_stream} \
             instructions (SFPU_FUZZ_MAX_STREAM), from 256 seeds of 16-instruction streams (corpus in {}, \
             -seed={RATE_SEED}):",
            time.as_secs(),
            rate_folder().display()
        );
        for (arch, r) in &results {
            let verdict = if let Some(signal) = r.interrupted {
                format!("(interrupted by {signal} after {:.0}s: not judged)", r.seconds)
            } else if judged {
                format!("target >= {RATE_TARGET}/s  {}", rate_verdict(r.exec_per_s))
            } else {
                format!("(the {RATE_TARGET}/s target is for at most {RATE_STREAM} instructions)")
            };
            outln!(
                "  {:<10} {:>7} exec/s ({} executions, coverage {}, corpus {})  {verdict}",
                arch.to_string(),
                r.exec_per_s,
                r.execs,
                r.cov,
                r.corpus,
            );
        }
        if let Some(signal) = interrupt.signal() {
            outln!(
                "interrupted by {signal}{}",
                if not_measured.is_empty() {
                    String::new()
                } else {
                    format!("; not measured: {}", not_measured.join(", "))
                }
            );
        }
    }
    Ok(if interrupt.signal().is_some() {
        ExitCode::from(interrupt.exit_status())
    } else if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn throughput(root: &Path, args: &Args) -> Result<ExitCode> {
    // Measured in a release build, as the fuzz targets run. The child runs in its own process
    // group and gets this run's first signal from `Forward` (as `cargo fuzz` does in a fuzzing
    // run), so that it stops after the rows it has measured, whoever sent the signal.
    let interrupt = Interrupt::install().context("cannot install the SIGINT/SIGTERM/SIGHUP handlers")?;
    let mut c = Command::new("cargo");
    c.current_dir(root).args([
        "run",
        "--release",
        "--quiet",
        "-p",
        "xtask",
        "--",
        "fuzz",
        "--throughput-inner",
    ]);
    if args.quiet {
        c.arg("--quiet");
    }
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut c, 0);
    let mut child =
        c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().context("cannot run cargo run --release")?;
    let forward = Forward::start(child.id(), interrupt.clone());
    // Passed on line by line: cargo's messages and the notes on standard error, the table on
    // standard output.
    let stderr = child.stderr.take().map(|e| {
        std::thread::spawn(move || {
            for line in BufReader::new(e).lines().map_while(Result::ok) {
                errln!("{line}");
            }
        })
    });
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            outln!("{line}");
        }
    }
    if let Some(t) = stderr {
        let _ = t.join();
    }
    forward.stop();
    let status = child.wait().context("cannot wait for cargo run --release")?;
    Ok(if interrupt.signal().is_some() {
        ExitCode::from(interrupt.exit_status())
    } else if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

fn throughput_inner(quiet: bool) -> Result<ExitCode> {
    // The first SIGINT / SIGTERM / SIGHUP ends the measurement after the rows it has finished.
    let interrupt = Interrupt::install().context("cannot install the SIGINT/SIGTERM/SIGHUP handlers")?;
    outln!(
        "diff_stream oracle throughput (release build, one core; inputs from generate::streams::random_stream_for):"
    );
    outln!(
        "{:>10} {:>6} {:>12} {:>14} {:>18} {:>12}",
        "chip",
        "length",
        "execs/s",
        "instructions/s",
        "compared/s",
        "µs/exec"
    );
    for arch in all_arches() {
        for len in [16usize, 64] {
            let mut rng = Rng::stream(0x7A5E_ED00, &format!("throughput/{len}"));
            let inputs: Vec<Vec<u8>> = (0..256)
                .filter_map(|_| {
                    let case = random_stream_for(arch, &mut rng, len, None);
                    encode_stream_input(&case.pre, &case.program)
                })
                .collect();
            let lengths: Vec<usize> =
                inputs.iter().map(|d| StreamInput::from_bytes(d).program.len()).collect();
            // Run for about two seconds, exactly what the fuzz target runs per input.
            let (mut execs, mut compared, mut instrs) = (0u64, 0u64, 0u64);
            let started = Instant::now();
            let mut i = 0;
            while started.elapsed() < Duration::from_secs(2) || execs < 256 {
                if let Some(signal) = interrupt.signal() {
                    errln!(
                        "interrupted by {signal}: the rows above are complete, {arch} length {len} was not"
                    );
                    return Ok(ExitCode::from(interrupt.exit_status()));
                }
                let (result, n) = diff_stream_counted(&inputs[i % inputs.len()], MAX_STREAM);
                if result.is_err() && !quiet {
                    errln!("note: {arch} input {} diverges (minimisation timed too)", i % inputs.len());
                }
                execs += 1;
                compared += n as u64;
                instrs += lengths[i % inputs.len()] as u64;
                i += 1;
            }
            let secs = started.elapsed().as_secs_f64();
            outln!(
                "{:>10} {len:>6} {:>12.0} {:>14.0} {:>18.0} {:>12.1}",
                arch.to_string(),
                execs as f64 / secs,
                instrs as f64 / secs,
                compared as f64 / secs,
                secs * 1e6 / execs as f64
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use harness_sfpu::campaign::vector_yaml;

    /// `cargo xtask fuzz`'s arguments on their own.
    #[derive(Parser)]
    struct FuzzCli {
        #[command(flatten)]
        args: Args,
    }

    /// `--max-stream` takes 1 to 64 instructions (what `SFPU_FUZZ_MAX_STREAM` accepts), and is
    /// refused with the modes it does not apply to, before anything runs.
    #[test]
    fn max_stream_is_checked() {
        let parse = |extra: &[&str]| FuzzCli::try_parse_from(["fuzz"].iter().chain(extra)).map(|c| c.args);
        for good in ["1", "16", "64"] {
            let args = parse(&["--rate", "--max-stream", good]).unwrap();
            assert_eq!(args.max_stream, Some(good.parse().unwrap()));
        }
        for bad in ["0", "65", "sixteen", "-1"] {
            assert!(parse(&["--rate", "--max-stream", bad]).is_err(), "--max-stream {bad}");
        }
        assert_eq!(parse(&["--rate"]).unwrap().max_stream, None);
        for mode in [&["--throughput"][..], &["--seeds"], &["--triage", "no-such-artifact"]] {
            let args = parse(&[mode, &["--max-stream", "16"]].concat()).unwrap();
            let e = main(args).expect_err("refused");
            assert!(e.to_string().contains("--max-stream applies to"), "{mode:?}: {e}");
        }
    }

    /// A shell in its own process group, as `cargo fuzz` runs in a fuzzing run, with a background
    /// `sleep` in the same group; the shell's trap of SIGTERM exits with 8 (its `wait` returns at
    /// once when the trap fires). Returns once the trap is set, with the `sleep`'s process id.
    #[cfg(unix)]
    fn trapping_shell(sleep: &str) -> (std::process::Child, u32) {
        let mut c = Command::new("sh");
        c.arg("-c").arg(format!("trap 'exit 8' TERM; sleep {sleep} & echo $!; wait; exit 0"));
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        let mut child = c.stdout(Stdio::piped()).spawn().expect("run sh");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("read");
        (child, line.trim().parse().expect("the sleep's process id"))
    }

    /// Waits up to 10 s for `child`; its exit code, `None` if it is still running (then killed).
    #[cfg(unix)]
    fn exit_within(mut child: std::process::Child) -> Option<i32> {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if let Some(status) = child.try_wait().expect("wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        signal_group(child.id(), libc::SIGKILL);
        let _ = child.wait();
        None
    }

    /// Whether process `pid` has ended (gone, or a zombie not yet reaped), within 10 s.
    #[cfg(unix)]
    fn ends_within(pid: u32) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => return true,
                Ok(stat)
                    if stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')) =>
                {
                    return true;
                }
                Ok(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        false
    }

    /// The run's first signal reaches the whole process group of a `cargo fuzz` child (the shell
    /// and its background `sleep`), as the same signal; without a signal the child is left alone.
    /// Without `Forward` the shell waits for its 30 s `sleep`; without the process group's minus
    /// sign the `sleep` lives on. (SIGTERM: a shell started with SIGINT ignored, as under a
    /// non-interactive `&`, cannot trap SIGINT, and its background jobs ignore it.)
    #[cfg(unix)]
    #[test]
    fn forward_passes_the_first_signal_to_the_child_group() {
        let (child, sleep) = trapping_shell("30");
        let forward = Forward::start(child.id(), Interrupt::raised(libc::SIGTERM));
        let got = exit_within(child);
        assert!(forward.stop(), "the signal was sent");
        assert_eq!(got, Some(8), "the shell's trap of SIGTERM");
        assert!(ends_within(sleep), "the sleep in the shell's group got the signal too");

        let (child, _) = trapping_shell("0.3");
        let forward = Forward::start(child.id(), Interrupt::raised(0));
        std::thread::sleep(Duration::from_millis(150));
        assert!(!forward.stop(), "no signal, none sent");
        assert_eq!(exit_within(child), Some(0), "no signal, nothing forwarded");

        for (signal, name, status) in
            [(libc::SIGINT, "SIGINT", 130), (libc::SIGTERM, "SIGTERM", 143), (libc::SIGHUP, "SIGHUP", 129)]
        {
            let i = Interrupt::raised(signal);
            assert_eq!((i.signal(), i.number(), i.exit_status()), (Some(name), Some(signal), status));
        }
    }

    /// A chip cut short by a signal is neither a pass nor a failure; one failed chip fails the
    /// check whatever else happened.
    #[test]
    fn planted_verdicts() {
        use serde_json::json;
        let pass = |chip: &str| json!({"chip": chip, "planted": true});
        let fail = |chip: &str| json!({"chip": chip, "planted": false, "error": "not found"});
        let cut = |chip: &str| json!({"chip": chip, "planted": null, "interrupted": "SIGINT"});
        let none: Vec<String> = Vec::new();
        assert_eq!(planted_verdict(&[pass("blackhole"), pass("wormhole")]), (Some(true), none.clone()));
        assert_eq!(planted_verdict(&[pass("blackhole"), fail("wormhole")]), (Some(false), none));
        assert_eq!(
            planted_verdict(&[pass("blackhole"), cut("wormhole")]),
            (None, vec!["wormhole".to_string()])
        );
        assert_eq!(
            planted_verdict(&[fail("blackhole"), cut("wormhole")]),
            (Some(false), vec!["wormhole".to_string()])
        );
        assert_eq!(
            planted_verdict(&[cut("blackhole")]),
            (None, vec!["blackhole".to_string(), "wormhole".to_string()])
        );
        assert_eq!(planted_verdict(&[]), (None, vec!["blackhole".to_string(), "wormhole".to_string()]));
    }

    /// libFuzzer's final statistics, which an interrupted run prints after its last status
    /// line, give the executions and the rate.
    #[test]
    fn final_statistics_count() {
        let mut run = TargetRun::default();
        let root = Path::new("/r");
        for line in [
            "#4096\tpulse  cov: 10 ft: 20 corp: 5/1Kb exec/s: 2048 rss: 40Mb",
            "==1== libFuzzer: run interrupted; exiting",
            "stat::number_of_executed_units: 5000",
            "stat::average_exec_per_sec:     2500",
        ] {
            parse_status(line, &mut run, root);
        }
        assert_eq!((run.execs, run.exec_per_s, run.cov, run.corpus), (5000, 2500, 10, 5));
    }

    /// `.clusterfuzzlite/build.sh` builds the targets as `cargo xtask fuzz` does: its
    /// `cargo fuzz build` line carries every one of [`FUZZ_BUILD_FLAGS`] except the sanitizer,
    /// which ClusterFuzzLite chooses.
    #[test]
    fn clusterfuzzlite_builds_with_the_same_flags() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let script = std::fs::read_to_string(root.join(".clusterfuzzlite/build.sh")).unwrap();
        let line = script
            .lines()
            .find(|l| !l.trim_start().starts_with('#') && l.contains(" fuzz build "))
            .expect("a `cargo fuzz build` line in build.sh");
        let words: Vec<&str> = line.split_whitespace().collect();
        let flags: Vec<&str> =
            FUZZ_BUILD_FLAGS.iter().copied().filter(|f| !["-s", "none"].contains(f)).collect();
        for f in &flags {
            assert!(words.contains(f), "build.sh lacks {f}: {line}");
        }
        assert!(flags.contains(&"--no-trace-compares") && flags.contains(&"-a"));
    }

    /// `--rate`'s seeds are what the target names: 16-instruction streams of the pinned chip.
    #[test]
    fn rate_seeds_are_16_instruction_streams_of_their_chip() {
        for arch in all_arches() {
            let seeds = rate_seeds(arch);
            assert_eq!(seeds.len(), 256);
            for s in &seeds {
                let input = StreamInput::from_bytes(s);
                assert_eq!((input.arch, input.program.len()), (arch, 16));
            }
        }
        assert_eq!((rate_verdict(29_999), rate_verdict(30_000)), ("MISSED", "met"));
    }

    /// A chip with no regressions file yet gets one that loads, with no vector; a report's
    /// vector is found whichever chip's file it names.
    #[test]
    fn regressions_files_of_both_chips() {
        for arch in all_arches() {
            let f = parse_file(Path::new("regressions.yaml"), &empty_regressions(arch)).expect("loads");
            assert_eq!((f.arch, f.vectors.len()), (arch, 0));
            let report = format!(
                "shape: SFPIADD/mod1=5/LReg (stream minimised from 6 to 1 instructions)\n\
                 regression vector (expected values are the reference model's; paste under `vectors:` in \
                 vectors/{arch}/regressions.yaml):\n- id: a\n  mode: m\nnot yaml\n"
            );
            assert_eq!(
                parse_report(&report),
                Some(("SFPIADD/mod1=5/LReg".to_string(), "- id: a\n  mode: m\n".to_string()))
            );
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("8h"), Ok(Duration::from_secs(8 * 3600)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert!(parse_duration("3x").is_err());
        assert!(parse_duration("0s").is_err());
    }

    #[test]
    fn libfuzzer_status_lines() {
        let root = Path::new("/r");
        let mut r = TargetRun::default();
        assert!(parse_status(
            "#4096\tpulse  cov: 1834 ft: 4410 corp: 212/19Kb lim: 4096 exec/s: 1365 rss: 61Mb",
            &mut r,
            root
        ));
        assert_eq!((r.execs, r.cov, r.corpus, r.exec_per_s), (4096, 1834, 212, 1365));
        assert!(parse_status(
            "#70000: cov: 2000 ft: 5000 corp: 300 exec/s 2500 oom/timeout/crash: 0/0/1 time: 30s job: 4 dft_time: 0",
            &mut r,
            root
        ));
        assert_eq!((r.execs, r.cov, r.corpus, r.exec_per_s), (70000, 2000, 300, 2500));
        assert!(!parse_status(
            "artifact_prefix='fuzz/artifacts/decode/'; Test unit written to fuzz/artifacts/decode/crash-ab",
            &mut r,
            root
        ));
        assert_eq!(r.crashes, vec![PathBuf::from("/r/fuzz/artifacts/decode/crash-ab")]);
        assert!(!parse_status("INFO: Seed: 123", &mut r, root));
        assert_eq!(r.messages.get(Path::new("/r/fuzz/artifacts/decode/crash-ab")), None, "no panic was read");
    }

    /// A crash's panic message (from `panicked at` to the backtrace or libFuzzer's report, at
    /// most [`MAX_PANIC_LINES`] lines) goes with the artifact written after it; a second crash
    /// (fork mode) gets its own.
    #[test]
    fn panic_messages_go_with_their_artifacts() {
        let root = Path::new("/r");
        let mut r = TargetRun::default();
        let log = "\
#108404\tREDUCE cov: 7363 ft: 16883 corp: 1564/2309Kb lim: 19765 exec/s: 7226 rss: 39Mb L: 368/19765 MS: 1 EraseBytes-

thread '<unnamed>' (13970) panicked at fuzz_targets/vectors_load.rs:9:9:
a loaded file does not load after writing: [Invalid]
format: sfpu-vectors/1

stack backtrace:
   0: __rustc::rust_begin_unwind
==13970== ERROR: libFuzzer: deadly signal
artifact_prefix='/r/a/'; Test unit written to /r/a/crash-1
thread '<unnamed>' panicked at x.rs:1:1:
second
==1== ERROR: libFuzzer: deadly signal
artifact_prefix='/r/a/'; Test unit written to /r/a/crash-2
artifact_prefix='/r/a/'; Test unit written to /r/a/crash-3
";
        for line in log.lines() {
            parse_status(line, &mut r, root);
        }
        assert_eq!(r.execs, 108404);
        assert_eq!(
            r.messages.get(Path::new("/r/a/crash-1")).map(String::as_str),
            Some(
                "thread '<unnamed>' (13970) panicked at fuzz_targets/vectors_load.rs:9:9:\n\
                 a loaded file does not load after writing: [Invalid]\nformat: sfpu-vectors/1"
            )
        );
        assert_eq!(
            r.messages.get(Path::new("/r/a/crash-2")).map(String::as_str),
            Some("thread '<unnamed>' panicked at x.rs:1:1:\nsecond")
        );
        assert_eq!(r.messages.get(Path::new("/r/a/crash-3")), None, "a crash without a panic (a signal)");
        assert_eq!(r.crashes.len(), 3);

        // A message without an end is cut at MAX_PANIC_LINES lines.
        let mut r = TargetRun::default();
        parse_status("thread 'x' panicked at y.rs:1:1:", &mut r, root);
        for i in 0..100 {
            parse_status(&format!("line {i}"), &mut r, root);
        }
        parse_status("Test unit written to /r/a/crash-4", &mut r, root);
        assert_eq!(r.messages[Path::new("/r/a/crash-4")].lines().count(), MAX_PANIC_LINES);
    }

    /// The command printed for an artifact writes it again, byte for byte, relative to the
    /// repository root (checked with the shell and coreutils' `base64`, not this crate's decoder).
    #[test]
    fn recreate_command_writes_the_artifact_again() {
        let dir = std::env::temp_dir().join(format!("sfpu-recreate-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let artifact = dir.join("fuzz/artifacts/vectors_load/crash-1");
        let data: Vec<u8> = (0..=255u8).chain(*b"'\"$`\n").collect();
        let c = recreate_command(&dir, &artifact, &data).unwrap();
        assert!(c.starts_with("mkdir -p 'fuzz/artifacts/vectors_load' && echo '"), "{c}");
        let out = Command::new("sh").arg("-c").arg(&c).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{c}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read(&artifact).unwrap(), data);
        // "Man" is "TWFu" (RFC 4648's example alphabet).
        assert!(
            recreate_command(&dir, Path::new("/elsewhere/x"), b"Man")
                .unwrap()
                .contains("echo 'TWFu' | base64 -d > '/elsewhere/x'")
        );
        assert_eq!(recreate_command(&dir, &artifact, &vec![0; MAX_PRINTED_INPUT + 1]), None);
        assert!(recreate_command(&dir, &artifact, &vec![0; MAX_PRINTED_INPUT]).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Triage survives an artifact whose replay panics (reported as a crash with its input), an
    /// unreadable artifact and a divergence whose vector does not parse, and keeps the vector it
    /// added before them in the regressions file.
    #[test]
    fn triage_survives_panics_and_keeps_what_it_added() {
        let root = crate::paths::workspace_root();
        let dir = std::env::temp_dir().join(format!("sfpu-triage-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let artifacts_dir = dir.join("diff_stream");
        std::fs::create_dir_all(&artifacts_dir).unwrap();
        let regressions = dir.join("regressions.yaml");
        std::fs::copy(root.join("vectors/blackhole/regressions.yaml"), &regressions).unwrap();
        let before = load_file(&regressions).unwrap().vectors.len();

        // A real vector, as a divergence report would carry it.
        let file = load_file(&root.join("vectors/blackhole/SFPNOT.yaml")).unwrap();
        let mut v = file.vectors[0].clone();
        v.id = "regressions/fuzz-test/sfpnot".into();
        v.tags.push("fuzz-shape:SFPNOT/test".into());
        let good_yaml = vector_yaml(&v);

        let artifact = |name: &str, data: &[u8]| {
            let p = artifacts_dir.join(name);
            std::fs::write(&p, data).unwrap();
            p
        };
        let artifacts = vec![
            artifact("crash-diverges", b"diverges"),
            artifact("crash-panics", b"panics"),
            artifacts_dir.join("crash-missing"),
            artifact("crash-bad-yaml", b"bad yaml"),
            artifact("crash-agrees", b"agrees"),
            artifact("crash-duplicate", b"diverges"),
        ];
        let oracle = |_: &Path, data: &[u8]| -> Option<Divergent> {
            match data {
                b"diverges" => Some(Divergent {
                    shape: "SFPNOT/test".into(),
                    yaml: good_yaml.clone(),
                    printed: String::new(),
                }),
                b"panics" => panic!("a model panicked on purpose"),
                b"bad yaml" => Some(Divergent {
                    shape: "SFPNOT/other".into(),
                    yaml: "- id: [not a vector".into(),
                    printed: String::new(),
                }),
                _ => None,
            }
        };
        let report = triage_with(&artifacts, &regressions, true, &oracle).expect("triage goes on");
        assert!(report.failed);
        assert_eq!(report.added.len(), 1, "{:?}", report.added);
        assert_eq!(report.added[0].id, "regressions/fuzz-test/sfpnot");
        assert_eq!(report.duplicates.len(), 1);
        assert_eq!(report.not_reproduced, vec![artifacts[4].clone()]);
        let other: Vec<(&Path, &str)> = report.other.iter().map(|(p, m)| (p.as_path(), m.as_str())).collect();
        assert_eq!(other.len(), 3, "{other:?}");
        assert!(
            other[0].0 == artifacts[1] && other[0].1.contains("a model panicked on purpose"),
            "{other:?}"
        );
        assert!(other[1].0 == artifacts[2] && other[1].1.contains("cannot read"), "{other:?}");
        assert!(other[2].0 == artifacts[3] && other[2].1.contains("does not parse"), "{other:?}");
        // The file holds the vector added before the failures, and still loads.
        let after = load_file(&regressions).unwrap();
        assert_eq!(after.vectors.len(), before + 1);
        let added = after.vectors.iter().find(|v| v.id == "regressions/fuzz-test/sfpnot").unwrap();
        assert!(added.tags.iter().any(|t| t == "fuzz-artifact:crash-diverges"), "{:?}", added.tags);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `--time` is the budget of the whole run, the build (which can take 100 s or more) and the
    /// seeds included: the fuzzing time is what the budget leaves after them, and the whole run
    /// fits in the budget; a budget the build eats entirely is an error, not an overrun.
    #[test]
    fn time_counts_the_build() {
        let budget = Duration::from_secs(180);
        let spent = Duration::from_secs(104);
        let fuzzing = fuzzing_time(budget, spent, 4, false).expect("76 s left");
        assert_eq!(fuzzing, Duration::from_secs(180 - 104 - 10));
        let per_target: Duration = split(&TARGETS, fuzzing).into_iter().sum();
        assert!(spent + per_target <= budget, "{:?} + {per_target:?} > {budget:?}", spent);
        assert_eq!(fuzzing_time(Duration::from_secs(110), spent, 4, false), None);
        assert_eq!(fuzzing_time(Duration::from_secs(110), spent, 4, true), Some(Duration::ZERO));
    }

    /// diff_stream has weight 3, the other four targets 1 each: 3/7 and 1/7 of the time.
    #[test]
    fn budget_split_favours_diff_stream() {
        let t = split(&TARGETS, Duration::from_secs(70));
        assert_eq!(t[0], Duration::from_secs(30));
        assert!(t[1..].iter().all(|&d| d == Duration::from_secs(10)), "{t:?}");
    }
}
