//! The summary of a fuzzing run, as text or JSON: each target's figures, and every artifact with
//! its panic message, its bytes (as a command that writes it again) and its triage command.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;

use super::args::{Args, MIN_TARGET_TIME};
use super::libfuzzer::TargetRun;
use super::triage::triage_command;

/// Where a fuzzing run's time went: `--time` (the fuzzing time asked for, not counting the seeds
/// and the build), the fuzzing time planned from it, the build, and the whole run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Timing {
    /// `--time`, or the default fuzzing time.
    pub(super) budget: Duration,
    /// The targets' fuzzing times added up: `budget`, or more where a target's minimum raised it.
    pub(super) planned: Duration,
    /// How long `cargo fuzz build` took.
    pub(super) build: Duration,
    /// The whole run, from the start of the command.
    pub(super) elapsed: Duration,
}

/// What `--time` is, in every message that gives it, and what raises it (`planned` above
/// `budget`: each target's minimum).
fn time_is(budget: Duration, planned: Duration) -> String {
    format!(
        "--time {}s: fuzzing time, not counting the seeds and the build{}",
        budget.as_secs(),
        if planned > budget {
            format!("; each target at least {}s", MIN_TARGET_TIME.as_secs())
        } else {
            String::new()
        }
    )
}

/// The line printed before the targets run: how long they will fuzz in all, what `--time` is,
/// and how long the build took.
pub(super) fn plan_line(t: &Timing) -> String {
    format!(
        "fuzzing for {}s ({}); the build took {:.0}s",
        t.planned.as_secs(),
        time_is(t.budget, t.planned),
        t.build.as_secs_f64()
    )
}

/// The summary's first line: the whole run, how long the targets' runs took (`ran`, start-up
/// included) for how much fuzzing, what `--time` is, and the build; a build longer than the whole
/// `--time` says that it was not counted in it.
pub(super) fn timing_line(t: &Timing, ran: Duration) -> String {
    format!(
        "fuzz summary ({:.0}s in all): the targets ran {:.0}s, start-up included, for {}s of fuzzing ({}); \
         the build took {:.0}s{}:",
        t.elapsed.as_secs_f64(),
        ran.as_secs_f64(),
        t.planned.as_secs(),
        time_is(t.budget, t.planned),
        t.build.as_secs_f64(),
        if t.build > t.budget { ", more than the whole --time, and was not counted in it" } else { "" }
    )
}

/// Prints what the run found: where the time went ([`timing_line`]), each target's figures, every
/// artifact with its panic message, its bytes (as a command that writes it again) and its triage
/// command, and, for a run stopped by a signal (`stopped`: the signal and the targets not
/// reached), that it was. Exit status 1 if anything crashed.
pub(super) fn summary(
    root: &Path,
    runs: &[TargetRun],
    timing: Timing,
    stopped: Option<&(&str, Vec<&str>)>,
    args: &Args,
) -> Result<ExitCode> {
    let crashed = runs.iter().any(|r| !r.crashes.is_empty() || r.error.is_some());
    let elapsed = timing.elapsed;
    let ran = Duration::from_secs_f64(runs.iter().map(|r| r.seconds.max(0.0)).sum::<f64>());
    if args.json {
        let v = serde_json::json!({
            "seconds": elapsed.as_secs(),
            "time_seconds": timing.budget.as_secs(),
            "fuzzing_seconds": timing.planned.as_secs(),
            "build_seconds": (timing.build.as_secs_f64() * 10.0).round() / 10.0,
            "targets": runs.iter().map(TargetRun::json).collect::<Vec<_>>(),
            "ok": !crashed,
            "interrupted": stopped.map(|(signal, _)| signal),
            "not_fuzzed": stopped.map(|(_, t)| t.clone()).unwrap_or_default(),
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else if !args.quiet || crashed || stopped.is_some() {
        errln!("\n{}", timing_line(&timing, ran));
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

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    /// The summary says what `--time` is and what the build took, whether the build was quick
    /// (an up-to-date `fuzz/target`: 3 s against the 45 s CI gives the smoke run) or took longer
    /// than the whole `--time` (a first build: 845 s against the smoke run's 120 s); in both the
    /// fuzzing time is the whole `--time` (or more, each target's 3 s minimum raising it), not
    /// the budget less the build.
    #[test]
    fn the_summary_says_where_the_time_went() {
        let s = Duration::from_secs;
        let quick = Timing { budget: s(45), planned: s(45), build: s(3), elapsed: s(58) };
        assert_eq!(
            timing_line(&quick, s(50)),
            "fuzz summary (58s in all): the targets ran 50s, start-up included, for 45s of fuzzing \
             (--time 45s: fuzzing time, not counting the seeds and the build); the build took 3s:"
        );
        let first = Timing { budget: s(120), planned: s(120), build: s(845), elapsed: s(980) };
        assert_eq!(
            timing_line(&first, s(125)),
            "fuzz summary (980s in all): the targets ran 125s, start-up included, for 120s of fuzzing \
             (--time 120s: fuzzing time, not counting the seeds and the build); the build took 845s, \
             more than the whole --time, and was not counted in it:"
        );
        assert_eq!(
            plan_line(&first),
            "fuzzing for 120s (--time 120s: fuzzing time, not counting the seeds and the build); the build took 845s"
        );
        let short = Timing { budget: s(10), planned: s(16), build: s(3), elapsed: s(30) };
        assert_eq!(
            plan_line(&short),
            "fuzzing for 16s (--time 10s: fuzzing time, not counting the seeds and the build; each target at \
             least 3s); the build took 3s"
        );
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
}
