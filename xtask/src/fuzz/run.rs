//! The fuzzing run (`cargo xtask fuzz`, `--smoke`): the budget, the build paid for out of it, the
//! fuzzing time split over the targets, each target run in turn, then the summary.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::args::{Args, TARGETS};
use super::cargo_fuzz::{Fuzz, spinner};
use super::libfuzzer::{Pin, run_target};
use super::summary::summary;
use crate::interrupt::Interrupt;

/// The smoke run's whole budget without `--time`, build included.
const SMOKE_BUDGET: Duration = Duration::from_secs(120);

/// The whole budget of a run without `--time`.
const LONG_RUN: Duration = Duration::from_secs(8 * 3600);

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

pub(super) fn run(
    root: &Path,
    args: &Args,
    started: Instant,
    fuzz: &Fuzz,
    interrupt: &Interrupt,
) -> Result<ExitCode> {
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
    let budget = args.time.unwrap_or(if args.smoke { SMOKE_BUDGET } else { LONG_RUN });
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
        let run = run_target(fuzz, root, target, &corpus, time, args.jobs, None, pin, &bar)?;
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

#[cfg(test)]
mod tests {
    use super::*;

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
