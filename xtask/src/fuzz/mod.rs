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
//!   `--time` (8 hours unless given) is fuzzing time, not counting the seeds and the build (a
//!   first build of `fuzz/target` takes minutes; its progress is shown as it runs): it is split
//!   over the targets, and the summary says what the build took besides.
//! * `--smoke`: every target briefly, `--time` in all (two minutes unless given).
//!   `--planted` (with `--smoke`) instead checks, for each chip, that `diff_stream` finds the
//!   divergence planted behind the fast model's `planted-divergence` feature from an empty corpus
//!   (the chip pinned with `SFPU_FUZZ_CHIP`) and triages it into a temporary copy of that chip's
//!   regressions file.
//! * `--triage ARTIFACT...`: replays artifacts, each with the target its directory names
//!   (`fuzz/artifacts/<target>/`) or `--target` (never a guess); a `diff_stream` divergence is minimised and
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
//!
//! One file per part of the runner: `args.rs` (the options), `cargo_fuzz.rs` (building the
//! targets), `libfuzzer.rs` (running one target and reading libFuzzer's output), `forward.rs`
//! (signals passed on to the children), `run.rs` (the fuzzing run and `--smoke`), `summary.rs`
//! (its summary, text or JSON), `planted.rs` (`--planted`), `triage.rs` (`--triage`), `seeds.rs`
//! (the seed corpora), `rate.rs` (`--rate`) and `throughput.rs` (`--throughput`); the dispatch is
//! here.

mod args;
mod cargo_fuzz;
mod forward;
mod libfuzzer;
mod planted;
mod rate;
mod run;
mod seeds;
mod summary;
mod throughput;
mod triage;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, bail};
use harness_sfpu::fuzz::input_arch;
use sfpu_reference::isa::Arch;

pub use args::Args;
use args::TARGETS;
use planted::planted;
use rate::rate;
use run::run;
use seeds::write_seeds;
use throughput::{throughput, throughput_inner};
use triage::{Artifact, TriageReport, regressions_file, triage, triage_target};

pub fn main(args: Args) -> Result<ExitCode> {
    // The whole run, for the summary (`--time` is fuzzing time only).
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
        // The target of every artifact first: one that cannot be told stops the triage before
        // anything is replayed.
        let mut by_chip: BTreeMap<String, (Arch, Vec<Artifact>)> = BTreeMap::new();
        for a in &args.triage {
            let target = triage_target(a, &args.targets)?;
            let arch = match target {
                "diff_stream" => std::fs::read(a).map(|d| input_arch(&d)).unwrap_or(Arch::Blackhole),
                _ => Arch::Blackhole,
            };
            by_chip.entry(arch.to_string()).or_insert_with(|| (arch, Vec::new())).1.push((a.clone(), target));
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
    // A fuzzing run needs cargo-fuzz: say so before writing anything.
    let fuzz = if args.seeds { None } else { Some(cargo_fuzz::Fuzz::detect_stoppable()?) };
    let seeds = write_seeds(&root)?;
    if !args.quiet {
        let counts: Vec<String> = seeds.iter().map(|(t, n)| format!("{t} {n}")).collect();
        errln!("seed corpora written to fuzz/corpus/<target>: {}", counts.join(", "));
    }
    let Some((fuzz, interrupt)) = fuzz else {
        return Ok(ExitCode::SUCCESS);
    };
    if args.planted {
        return planted(&root, &args, &fuzz, &interrupt);
    }
    run(&root, &args, started, &fuzz, &interrupt)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

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
}
