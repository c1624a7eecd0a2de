//! The project's task runner (`cargo xtask <command>`), in the style of matklad's cargo-xtask: one
//! module per subcommand, few dependencies.
//!
//! Exit status: 0 on success, 1 when the command ran but found a problem (a hazard under `--lint`,
//! a divergence), 2 on a usage or input error.

mod run;
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
        Command::Run(args) => run::main(args),
        Command::Vectors(args) => vectors::main(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
