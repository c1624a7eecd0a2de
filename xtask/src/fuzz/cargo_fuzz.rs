//! Building the fuzz targets with cargo-fuzz: how to invoke it ([`Fuzz`]: nightly, or stable with
//! `RUSTC_BOOTSTRAP=1`), the build flags every build and run shares ([`FUZZ_BUILD_FLAGS`]), the
//! build with cargo's progress shown while it runs (on a spinner on a terminal, as a line every
//! [`PROGRESS_EVERY`] elsewhere), and the spinner itself.

use std::io::{BufRead, BufReader, IsTerminal as _};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::forward::Forward;
use crate::interrupt::Interrupt;

/// The flags after `cargo fuzz <sub>` for both `build` and `run` (`run` builds first, and
/// different flags would rebuild everything). `.clusterfuzzlite/build.sh` passes the same build
/// flags (checked by a test).
const FUZZ_BUILD_FLAGS: [&str; 8] =
    ["--fuzz-dir", "fuzz", "--target-dir", "fuzz/target", "-s", "none", "-a", "--no-trace-compares"];

/// How to invoke cargo-fuzz: `cargo +nightly fuzz`, or stable with `RUSTC_BOOTSTRAP=1`.
pub(super) struct Fuzz {
    nightly: bool,
    /// In a fuzzing run, `--rate` and `--planted` (not `--triage`): the SIGINT / SIGTERM / SIGHUP
    /// handlers. Each `cargo fuzz` then runs in its own process group and gets the run's first
    /// signal from [`Forward`], so that the run stops where it is and still prints its summary.
    interrupt: Option<Interrupt>,
}

impl Fuzz {
    /// Finds cargo-fuzz (an error saying how to install it when it is missing) and whether a
    /// nightly toolchain is installed.
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
    pub(super) fn detect_stoppable() -> Result<(Fuzz, Interrupt)> {
        let mut fuzz = Fuzz::detect()?;
        let interrupt = Interrupt::install().context("cannot install the SIGINT/SIGTERM/SIGHUP handlers")?;
        fuzz.interrupt = Some(interrupt.clone());
        Ok((fuzz, interrupt))
    }

    /// `cargo [+nightly] fuzz <sub> <common flags>`, run from the repository root with a clean
    /// environment (the outer cargo's toolchain and target directory must not leak in).
    pub(super) fn command(&self, root: &Path, sub: &str, features: Option<&str>) -> Command {
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
    pub(super) fn forward(&self, child: &std::process::Child) -> Option<Forward> {
        self.interrupt.as_ref().map(|i| Forward::start(child.id(), i.clone()))
    }

    /// The signal that interrupted the run, if one did.
    pub(super) fn interrupted(&self) -> Option<&'static str> {
        self.interrupt.as_ref().and_then(Interrupt::signal)
    }

    /// Builds the targets, showing cargo's progress while it runs (how many crates so far and the
    /// one being compiled, with the time elapsed: on the spinner on a terminal, otherwise a line
    /// at the start and every [`PROGRESS_EVERY`]; nothing with `quiet`); on failure the error is
    /// cargo's whole output. Returns how long the build took. A build stopped by the run's signal
    /// is not an error: it says so, and the caller, seeing the signal, fuzzes nothing.
    pub(super) fn build(
        &self,
        root: &Path,
        targets: &[&str],
        features: Option<&str>,
        quiet: bool,
    ) -> Result<Duration> {
        let started = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let bar = spinner(quiet || !terminal, "building fuzz targets (cargo fuzz build)");
        let ticker = (!quiet && !terminal).then(|| Ticker::start(started));
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
                    if let Some(t) = &ticker {
                        t.compiling(compiled, what);
                    }
                }
                log.push(line);
            }
        }
        if let Some(f) = forward {
            f.stop();
        }
        let status = child.wait().context("cannot wait for cargo fuzz build")?;
        bar.finish_and_clear();
        if let Some(t) = ticker {
            t.stop();
        }
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

/// How often the build says how far it is when standard error is not a terminal (a CI log, a pipe),
/// where the spinner does not draw.
pub(super) const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// The build's progress line where the spinner does not draw: the time elapsed, the crates
/// compiled so far and the one being compiled (cargo's "Compiling" lines).
fn progress_line(elapsed: Duration, compiled: usize, now: &str) -> String {
    let secs = elapsed.as_secs();
    let mut line = format!("building fuzz targets (cargo fuzz build): {secs}s, {compiled} crates compiled");
    if !now.is_empty() {
        line.push_str(&format!(", now {now}"));
    }
    line
}

/// Prints the build's progress every [`PROGRESS_EVERY`] (and once at the start) on a thread of its
/// own, so that a long compilation or link with no line from cargo still shows the time passing.
struct Ticker {
    state: Arc<Mutex<(usize, String)>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    fn start(started: Instant) -> Ticker {
        let state = Arc::new(Mutex::new((0, String::new())));
        let stop = Arc::new(AtomicBool::new(false));
        errln!("building fuzz targets (cargo fuzz build; a first build takes several minutes)");
        let thread = {
            let (state, stop) = (Arc::clone(&state), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut next = PROGRESS_EVERY;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    if started.elapsed() >= next && !stop.load(Ordering::Relaxed) {
                        next += PROGRESS_EVERY;
                        let line = match state.lock() {
                            Ok(s) => progress_line(started.elapsed(), s.0, &s.1),
                            Err(_) => progress_line(started.elapsed(), 0, ""),
                        };
                        errln!("{line}");
                    }
                }
            })
        };
        Ticker { state, stop, thread: Some(thread) }
    }

    /// Cargo started compiling its `compiled`-th crate, `what`.
    fn compiling(&self, compiled: usize, what: &str) {
        if let Ok(mut s) = self.state.lock() {
            *s = (compiled, what.to_string());
        }
    }

    fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

pub(super) fn spinner(quiet: bool, message: &str) -> ProgressBar {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the spinner does not draw, the build's progress line gives the seconds elapsed, the
    /// crates compiled and the one being compiled (cargo's `Compiling serde v1.0.228` line without
    /// its first word), or no crate before cargo names one.
    #[test]
    fn the_progress_line_says_how_far_the_build_is() {
        assert_eq!(
            progress_line(Duration::from_millis(125_900), 87, "serde v1.0.228"),
            "building fuzz targets (cargo fuzz build): 125s, 87 crates compiled, now serde v1.0.228"
        );
        assert_eq!(
            progress_line(Duration::from_secs(30), 0, ""),
            "building fuzz targets (cargo fuzz build): 30s, 0 crates compiled"
        );
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
}
