//! The conformance harness's command (`sfpu-conformance`, installed with `cargo install --path
//! cli`): `conform` (the compliance report), `run` (a program on a reference model), `kernel`
//! (the SFPI kernel corpus), `reference-dut` (the SFPU's reference model as a `--dut`),
//! `vectors` (the golden vectors written out for importers) and `report` (shards' reports
//! merged, or a report re-rendered), over the instruction sets of [`registry()`]. `cargo xtask
//! conform` is the same `conform`.
//!
//! Exit status: 0 on success, 1 when the command ran and found a problem (a divergence, a broken
//! scheduling rule under `--lint`), 2 on a usage or input error.

#![allow(
    rustdoc::invalid_html_tags,
    reason = "clap takes the options' help from their doc comments, which name placeholders as <arch>"
)]

#[macro_use]
pub mod out;

pub mod conform;
pub mod context;
pub mod interrupt;
pub mod kernel;
pub mod progress;
pub mod reference_dut;
pub mod registry;
pub mod report;
pub mod run;
pub mod vectors;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use harness_core::driver::Driver;

pub use context::{Context, parse_seed};
pub use registry::registry;

#[derive(Parser)]
#[command(
    name = "sfpu-conformance",
    about = "Conformance harness of the Tenstorrent SFPU (Blackhole, Wormhole) and Apple AMX vecfp",
    version
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The main job: check the models (and any --dut) against the specification and write the
    /// compliance report.
    Conform(conform::Args),
    /// The SFPI kernel corpus: list it, print a kernel's lowered program (--listing) and its
    /// accuracy against an f64 oracle (--accuracy), per chip.
    Kernel(kernel::Args),
    /// The SFPU reference model as a --dut (docs/dut-protocol.md), with a declaration of your
    /// choosing and, for the harness's own tests, a bug planted in one feature (--ignore).
    ReferenceDut(reference_dut::Args),
    /// Run a program on a reference model and print the final state.
    Run(run::Args),
    /// Merge shards' reports, or re-render a report.
    Report(report::Args),
    /// Write the golden vectors (the built-in corpus) for importers, as YAML or JSON.
    Vectors(vectors::Args),
}

/// Runs the command line `args` (the program's name first) over `registry`.
pub fn main_with(
    registry: &[&dyn Driver],
    args: impl IntoIterator<Item = OsString>,
    context: &Context,
) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Conform(args) => conform::main(args, registry, context),
        Command::Kernel(args) => kernel::main(args),
        Command::ReferenceDut(args) => reference_dut::main(args),
        Command::Run(args) => run::main(args, registry),
        Command::Report(args) => report::main(args, registry),
        Command::Vectors(args) => vectors::main(args, registry),
    };
    finish(result)
}

/// The exit status of a command's result: its own, or 2 with the error printed.
pub fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
