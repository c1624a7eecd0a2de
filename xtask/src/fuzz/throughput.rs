//! `--throughput`: executions per second of the `diff_stream` oracle itself for 16- and
//! 64-instruction streams, measured in a release build (the child `--throughput-inner`).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use harness_sfpu::fuzz::{MAX_STREAM, StreamInput, all_arches, diff_stream_counted, encode_stream_input};
use harness_sfpu::generate::operands::Rng;
use harness_sfpu::generate::streams::random_stream_for;

use super::args::Args;
use super::forward::Forward;
use crate::interrupt::Interrupt;

pub(super) fn throughput(root: &Path, args: &Args) -> Result<ExitCode> {
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

pub(super) fn throughput_inner(quiet: bool) -> Result<ExitCode> {
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
