//! The fuzzing run (`cargo xtask fuzz`, `--smoke`): the build, then the fuzzing time (`--time`,
//! not counting the seeds and the build) split over the targets, each target run in turn, then
//! the summary.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::args::{Args, MIN_TARGET_TIME, TARGETS};
use super::cargo_fuzz::{Fuzz, spinner};
use super::libfuzzer::{Pin, run_target};
use super::summary::{Timing, plan_line, summary};
use crate::interrupt::Interrupt;

/// The smoke run's fuzzing time without `--time`.
const SMOKE_TIME: Duration = Duration::from_secs(120);

/// The fuzzing time of a run without `--time`.
const LONG_RUN: Duration = Duration::from_secs(8 * 3600);

/// How a total fuzzing time is split, in whole seconds (libFuzzer's `-max_total_time`): in
/// proportion to a weight of 3 for diff_stream and 1 for each other target (3/7 and 1/7 each with
/// all five), each target at least [`MIN_TARGET_TIME`], the seconds the rounding leaves to the
/// first target (diff_stream when it runs). The times add up to `total`, or to more when it is
/// less than [`MIN_TARGET_TIME`] for some share.
fn split(targets: &[&str], total: Duration) -> Vec<Duration> {
    let weight = |t: &str| if t == "diff_stream" { 3 } else { 1 };
    let sum: u64 = targets.iter().map(|t| weight(t)).sum::<u64>().max(1);
    let total = total.as_secs();
    let mut secs: Vec<u64> =
        targets.iter().map(|t| (total * weight(t) / sum).max(MIN_TARGET_TIME.as_secs())).collect();
    let given: u64 = secs.iter().sum();
    if let Some(first) = secs.first_mut() {
        *first += total.saturating_sub(given);
    }
    secs.into_iter().map(Duration::from_secs).collect()
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
    // `--time` is fuzzing time: the seeds and the build are not paid for out of it.
    let budget = args.time.unwrap_or(if args.smoke { SMOKE_TIME } else { LONG_RUN });
    let times = split(&targets, budget);
    let planned = times.iter().sum();
    let build = fuzz.build(root, &targets, None, args.quiet)?;
    let timing = |elapsed: Duration| Timing { budget, planned, build, elapsed };
    if let Some(signal) = interrupt.signal() {
        summary(root, &[], timing(started.elapsed()), Some(&(signal, targets.clone())), args)?;
        return Ok(ExitCode::from(interrupt.exit_status()));
    }
    if !args.quiet {
        errln!("{}", plan_line(&timing(started.elapsed())));
    }
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
    let code = summary(root, &runs, timing(started.elapsed()), stopped.as_ref(), args)?;
    Ok(if stopped.is_some() { ExitCode::from(interrupt.exit_status()) } else { code })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// diff_stream has weight 3, the other four targets 1 each: 3/7 and 1/7 of the time.
    #[test]
    fn budget_split_favours_diff_stream() {
        let t = split(&TARGETS, Duration::from_secs(70));
        assert_eq!(t[0], Duration::from_secs(30));
        assert!(t[1..].iter().all(|&d| d == Duration::from_secs(10)), "{t:?}");
    }

    /// `--time` is the fuzzing time whatever the build took, in whole seconds: 45 s over five
    /// targets is 19 + 4 x 6 = 43 s by weight, and diff_stream takes the 2 s left (45 s in all);
    /// 10 s would give the four small targets 10/7 s each, so each gets 3 s and diff_stream its
    /// 4 (16 s in all, which the plan line then says).
    #[test]
    fn the_fuzzing_time_is_the_budget_with_at_least_3_s_per_target() {
        let secs = |total: u64| -> Vec<u64> {
            split(&TARGETS, Duration::from_secs(total)).iter().map(Duration::as_secs).collect()
        };
        assert_eq!(secs(45), [21, 6, 6, 6, 6]);
        assert_eq!(secs(10), [4, 3, 3, 3, 3]);
        assert_eq!(split(&["decode"], Duration::from_secs(45)), [Duration::from_secs(45)]);
        assert_eq!(split(&[], Duration::from_secs(45)), []);
    }
}
