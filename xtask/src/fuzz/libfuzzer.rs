//! Running one target under libFuzzer ([`run_target`]: `cargo fuzz run` with its libFuzzer flags
//! and what the run pins, the run's signal passed on) and reading libFuzzer's output into a
//! [`TargetRun`]: the status lines, the final statistics, the crashes and their panic messages.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::ProgressBar;
use sfpu_reference::isa::Arch;

use super::cargo_fuzz::Fuzz;
use super::forward::Forward;
use super::triage::triage_command;

/// What one target's run reported.
#[derive(Clone, Debug, Default)]
pub(super) struct TargetRun {
    pub(super) target: String,
    pub(super) seconds: f64,
    pub(super) execs: u64,
    pub(super) exec_per_s: u64,
    pub(super) cov: u64,
    pub(super) corpus: u64,
    pub(super) crashes: Vec<PathBuf>,
    /// The panic message printed before each crash's artifact was written (by artifact).
    pub(super) messages: BTreeMap<PathBuf, String>,
    /// The panic message being read (from `panicked at` to the backtrace), or the last one read.
    pub(super) panic: Vec<String>,
    /// Whether a panic message is being read.
    pub(super) in_panic: bool,
    /// Set when the run ended abnormally without an artifact.
    pub(super) error: Option<String>,
    /// The signal that stopped this target's run before its time was up, if one did.
    pub(super) interrupted: Option<&'static str>,
}

impl TargetRun {
    pub(super) fn json(&self) -> serde_json::Value {
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
pub(super) struct Pin {
    /// diff_stream's chip (`SFPU_FUZZ_CHIP`: the chip bit of every input is overwritten).
    pub(super) chip: Option<Arch>,
    /// diff_stream's most instructions per stream (`SFPU_FUZZ_MAX_STREAM`).
    pub(super) max_stream: Option<u32>,
    /// libFuzzer's random seed (otherwise libFuzzer picks one).
    pub(super) seed: Option<u32>,
}

/// Runs one target for `time` with `corpus`, streaming its progress into `bar`, with what `pin`
/// pins (fuzz/fuzz_targets/diff_stream.rs reads the variables; the other targets ignore them).
pub(super) fn run_target(
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
