//! `--rate`: libFuzzer's own executions per second for `diff_stream` on streams of at most 16
//! instructions, each chip pinned in turn from a fresh corpus of 16-instruction streams, against
//! the target of 30,000.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use harness_sfpu::fuzz::{all_arches, encode_stream_input};
use harness_sfpu::generate::operands::Rng;
use harness_sfpu::generate::streams::random_stream_for;
use sfpu_reference::isa::Arch;

use super::args::Args;
use super::cargo_fuzz::{Fuzz, spinner};
use super::libfuzzer::{Pin, run_target};
use super::triage::triage_command;

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

pub(super) fn rate(root: &Path, args: &Args) -> Result<ExitCode> {
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

#[cfg(test)]
mod tests {
    use harness_sfpu::fuzz::StreamInput;

    use super::*;

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
}
