//! `run PROGRAM [--isa ISA] [--chip CHIP] [--state STATE] [--json] [--lint] [--trace]`: a program
//! in an instruction set's text form on its reference model, and the final state printed. The
//! instruction set is `--isa`, or the one whose programs have the file's extension (`.amx`), or
//! the registry's first (the SFPU).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use harness_core::driver::Driver;
use harness_core::input::read_regular;
use harness_core::isa::RunRequest;

#[derive(clap::Args)]
pub struct Args {
    /// The program, one instruction per line in the instruction set's text form (the SFPU's
    /// `TT_...`/`TTI_...` or raw `0x...` words; AMX's `vecfp NAME=VALUE ...`); `#` and `//` start
    /// comments.
    program: PathBuf,
    /// The instruction set (default: by the program's extension, `.amx` for AMX; else the SFPU).
    #[arg(long, value_name = "ISA")]
    isa: Option<String>,
    /// The chip: `blackhole` (the SFPU's default) or `wormhole`; `m1`, `m2` (AMX's default), `m3`
    /// = `m2`, `m4`. A state document that names a chip chooses it too; the two must agree.
    #[arg(long, visible_alias = "arch", value_name = "CHIP")]
    chip: Option<String>,
    /// The initial state, in the instruction set's state format (vectors/README.md). Without it
    /// the run starts from the documented reset state (zeros where it is unspecified).
    #[arg(long)]
    state: Option<PathBuf>,
    /// Print the final state (and the outcomes) as JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Check the documented scheduling rules and report each violation with its line (the
    /// program still runs); exit status 1 if any rule is violated. The SFPU's.
    #[arg(long)]
    lint: bool,
    /// Print every instruction as it executes.
    #[arg(long)]
    trace: bool,
}

/// Runs `args` on the instruction set it names.
pub fn main(args: Args, registry: &[&dyn Driver]) -> Result<ExitCode> {
    let driver: &dyn Driver = match &args.isa {
        Some(isa) => {
            registry.iter().copied().find(|d| d.isa().eq_ignore_ascii_case(isa)).ok_or_else(|| {
                let all: Vec<&str> = registry.iter().map(|d| d.isa()).collect();
                anyhow!("--isa: `{isa}` is not an instruction set of this harness ({})", all.join(", "))
            })?
        }
        None => {
            let ext = args.program.extension().and_then(|e| e.to_str()).unwrap_or("");
            registry
                .iter()
                .copied()
                .find(|d| d.program_extension() == ext)
                .or_else(|| registry.first().copied())
                .ok_or_else(|| anyhow!("no instruction set"))?
        }
    };
    let program = read_regular(&args.program)
        .map_err(|e| anyhow!("cannot read program {}: {e}", args.program.display()))?;
    let state = match &args.state {
        Some(path) => Some((
            path.display().to_string(),
            read_regular(path).map_err(|e| anyhow!("cannot read state {}: {e}", path.display()))?,
        )),
        None => None,
    };
    let request = RunRequest {
        program_name: args.program.display().to_string(),
        program,
        state,
        chip: args.chip.clone(),
        json: args.json,
        trace: args.trace,
        lint: args.lint,
    };
    let out = driver.run_program(&request).map_err(|e| anyhow!(e))?;
    if !out.stderr.is_empty() {
        crate::out::write(crate::out::Stream::Stderr, format_args!("{}", out.stderr));
    }
    out!("{}", out.stdout);
    Ok(if out.failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
