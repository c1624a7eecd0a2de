//! `vectors --out DIR [--isa ISA] [--chip CHIP] [--json]`: the golden vectors written out for
//! importers in any language, from the built-in corpus (the reference model generates it in
//! memory; it is the repository's `vectors/`): `DIR/blackhole/*.yaml`, `DIR/wormhole/*.yaml`,
//! `DIR/amx/<chip>.yaml`, or the same as JSON. `vectors/README.md` documents the formats.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result, anyhow, bail};
use harness_core::driver::Driver;

#[derive(clap::Args)]
pub struct Args {
    /// Where to write them (created if needed; files of the same names are replaced).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Only this instruction set's.
    #[arg(long, value_name = "ISA")]
    isa: Option<String>,
    /// Only this chip's.
    #[arg(long, visible_alias = "arch", value_name = "CHIP")]
    chip: Option<String>,
    /// JSON instead of the repository's YAML (one document per file).
    #[arg(long)]
    json: bool,
    /// Do not say what was written.
    #[arg(long, short)]
    quiet: bool,
}

/// Writes the vectors `args` asks for.
pub fn main(args: Args, registry: &[&dyn Driver]) -> Result<ExitCode> {
    let mut written = (0usize, 0usize);
    for d in registry {
        if args.isa.as_deref().is_some_and(|isa| !d.isa().eq_ignore_ascii_case(isa)) {
            continue;
        }
        let chips: Vec<String> = match &args.chip {
            Some(c) => d.chip_named(c).into_iter().collect(),
            None => d.chips(),
        };
        for chip in chips {
            for (path, text) in d.export(&chip, args.json).map_err(|e| anyhow!(e))? {
                let file = args.out.join(&path);
                if let Some(dir) = file.parent() {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                }
                std::fs::write(&file, &text).with_context(|| format!("cannot write {}", file.display()))?;
                written = (written.0 + 1, written.1 + text.len());
            }
        }
    }
    if written.0 == 0 {
        bail!(
            "no vectors to write: {}",
            match (&args.isa, &args.chip) {
                (Some(i), Some(c)) => format!("`{c}` is no chip of `{i}`, or `{i}` no instruction set"),
                (Some(i), None) => format!("`{i}` is no instruction set with vectors"),
                (None, Some(c)) => format!("`{c}` is no chip of an instruction set with vectors"),
                (None, None) => "no instruction set exports vectors".to_string(),
            }
        );
    }
    if !args.quiet {
        errln!("wrote {} files, {:.1} MB, to {}", written.0, written.1 as f64 / 1e6, args.out.display());
    }
    Ok(ExitCode::SUCCESS)
}
