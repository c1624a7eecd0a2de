//! The project's task runner (`cargo xtask <command>`), in the style of matklad's cargo-xtask:
//! developer chores, one module per subcommand (regenerate or check the golden vectors, the
//! benchmarks, the fuzzing runner), and `conform`, the README's main job, which is the installed
//! command's `conform` (`sfpu-conformance`, `cli/`).
//!
//! Exit status: 0 on success, 1 when the command ran but found a problem (a hazard under `--lint`,
//! a divergence), 2 on a usage or input error.

#![allow(
    rustdoc::invalid_html_tags,
    reason = "clap takes the options' help from their doc comments, which name placeholders as <arch>"
)]

#[macro_use]
extern crate sfpu_conformance;

mod bench;
mod fuzz;
mod paths;
mod vectors;

use std::process::ExitCode;

use sfpu_conformance::interrupt;

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
    /// native baselines, and check the speed targets (--write-performance: docs/performance.md).
    Bench(bench::Args),
    /// The main job: check the models (and any --dut) against the specification and write the
    /// compliance report to target/conform (the installed command's `conform`).
    Conform(sfpu_conformance::conform::Args),
    /// Coverage-guided fuzzing (cargo-fuzz): overnight runs, --smoke for CI, --triage ARTIFACT.
    Fuzz(fuzz::Args),
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
        Command::Conform(args) => {
            let context = sfpu_conformance::Context {
                command: "cargo xtask conform".to_string(),
                out: paths::workspace_root().join("target").join("conform"),
            };
            sfpu_conformance::conform::main(args, &sfpu_conformance::registry(), &context)
        }
        Command::Fuzz(args) => fuzz::main(args),
        Command::Vectors(args) => vectors::main(args),
    };
    sfpu_conformance::finish(result)
}
