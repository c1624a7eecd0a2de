//! The project's task runner (`cargo xtask <command>`), in the style of matklad's cargo-xtask: one
//! module per subcommand, few dependencies.
//!
//! Exit status: 0 on success, 1 when the command ran but found a problem (a hazard under `--lint`,
//! a divergence), 2 on a usage or input error.

#![allow(
    rustdoc::invalid_html_tags,
    reason = "clap takes the options' help from their doc comments, which name placeholders as <arch>"
)]

#[macro_use]
mod out;

mod bench;
mod conform;
mod conform_amx;
mod fuzz;
mod interrupt;
mod kernel;
mod progress;
mod reference_dut;
mod run;
mod run_amx;
mod vectors;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Tasks for the SFPU conformance harness", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Measure instructions/s of the reference and fast models per instruction class against
    /// native baselines, and check the speed targets.
    Bench(bench::Args),
    /// The main job: check the models (and any --dut) against the specification and write the
    /// compliance report to target/conform.
    Conform(conform::Args),
    /// Coverage-guided fuzzing (cargo-fuzz): overnight runs, --smoke for CI, --triage ARTIFACT.
    Fuzz(fuzz::Args),
    /// The SFPI kernel corpus: list it, print a kernel's lowered program (--listing) and its
    /// accuracy against an f64 oracle (--accuracy), per chip.
    Kernel(kernel::Args),
    /// The reference model as a --dut (docs/dut-protocol.md), with a declaration of your choosing
    /// and, for the harness's own tests, a bug planted in one feature (--ignore).
    ReferenceDut(reference_dut::Args),
    /// Run a program (tt-llk instruction text) on the Blackhole reference model and print the
    /// final state.
    Run(run::Args),
    /// Regenerate the golden vectors in vectors/ (or check them with --check).
    Vectors(vectors::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Bench(args) => bench::main(args),
        Command::Conform(args) => conform::main(args),
        Command::Fuzz(args) => fuzz::main(args),
        Command::Kernel(args) => kernel::main(args),
        Command::ReferenceDut(args) => reference_dut::main(args),
        Command::Run(args) => run::main(args),
        Command::Vectors(args) => vectors::main(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
