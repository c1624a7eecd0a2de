//! `sfpu-conformance kernel [NAME] [--arch ARCH] [--listing] [--accuracy] [--json] [--seed N]`: the
//! SFPI kernel corpus (`sfpi::kernels`) from the command line.
//!
//! Without a name it lists the corpus. With one it prints, for each chip the kernel supports (or
//! the one `--arch` names), the lowered whole-tile program in tt-llk text form with the scheduling
//! linter's findings (`--listing`), and the accuracy against the kernel's f64 oracle over its
//! documented input range: max and mean error in ULPs against the documented bound, the error
//! histogram and the worst inputs (`--accuracy`). Neither flag prints both. When both chips run,
//! the accuracy part also says how much and where Blackhole's and Wormhole's outputs differ.
//!
//! Exit status 1 when a listing has a lint finding or an accuracy exceeds its documented bound.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::{Result, bail};
use sfpi::accuracy::{self, Accuracy, ChipDifference};
use sfpi::kernels::{self, KernelDef, Ulp};
use sfpi::run::lint_findings;
use sfpu_reference::isa::Arch;

use harness_sfpu::accuracy::{DEFAULT_SEED, unit_name};

#[derive(clap::Args)]
pub struct Args {
    /// The kernel (`sfpu-conformance kernel` lists them).
    name: Option<String>,
    /// Only this chip: `blackhole` or `wormhole` (also `bh`, `wh`). Default: every chip the
    /// kernel supports.
    #[arg(long)]
    arch: Option<Arch>,
    /// Print the lowered program (tt-llk text) and the linter's findings.
    #[arg(long)]
    listing: bool,
    /// Print the accuracy against the f64 oracle.
    #[arg(long)]
    accuracy: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// The seed choosing the random inputs and the unspecified parts of the state.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
}

pub fn main(args: Args) -> Result<ExitCode> {
    let Some(name) = &args.name else {
        if args.listing || args.accuracy {
            bail!("--listing and --accuracy need a kernel name (`sfpu-conformance kernel` lists them)");
        }
        return list(args.json);
    };
    let Some(def) = kernels::find(name) else {
        let names: Vec<&str> = kernels::registry().iter().map(|k| k.name).collect();
        bail!("no kernel `{name}`; the corpus has: {}", names.join(", "));
    };
    let chips: Vec<Arch> = match args.arch {
        Some(a) if !def.chips.contains(&a) => bail!("kernel `{name}` does not support {a}"),
        Some(a) => vec![a],
        None => def.chips.clone(),
    };
    let (listing, accuracy) = match (args.listing, args.accuracy) {
        (false, false) => (true, true),
        flags => flags,
    };
    if args.accuracy && def.numeric.is_none() {
        bail!("kernel `{name}` is not numerical (it has no oracle to measure accuracy against)");
    }
    let accuracy = accuracy && def.numeric.is_some();

    let mut problem = false;
    let mut json = serde_json::Map::new();
    json.insert("kernel".into(), serde_json::to_value(def.info())?);
    let mut chips_json = Vec::new();
    // With --accuracy, each chip's run over the accuracy tiles (read again for the chip difference).
    let mut runs: Vec<accuracy::Evaluation> = Vec::new();
    let mut text = String::new();
    writeln!(text, "kernel {}: {}", def.name, def.description)?;
    for &arch in &chips {
        let mut chip = serde_json::Map::new();
        chip.insert("arch".into(), serde_json::to_value(arch)?);
        if listing {
            let case = def.build(arch, args.seed)?;
            let program = case.text()?;
            let findings = lint_findings(&case.program, &case.state);
            problem |= !findings.is_empty();
            writeln!(
                text,
                "\n## {arch}: lowered program ({} instructions, {} rows)",
                case.program.len(),
                case.rows
            )?;
            text.push_str(&program);
            if findings.is_empty() {
                writeln!(text, "# lint: clean")?;
            }
            for f in &findings {
                writeln!(text, "# lint: line {}: {} ({})", f.line, f.clause.id(), f.clause.summary())?;
            }
            chip.insert("instructions".into(), case.program.len().into());
            chip.insert("listing".into(), program.into());
            chip.insert(
                "lint".into(),
                findings
                    .iter()
                    .map(|f| serde_json::json!({ "line": f.line, "clause": f.clause.id(), "lanes": f.lanes }))
                    .collect::<Vec<_>>()
                    .into(),
            );
        }
        if accuracy {
            let e = accuracy::evaluate(&def, arch, args.seed)?;
            let a = accuracy::accuracy_of(&def, &e)?;
            runs.push(e);
            problem |= !a.within_bound;
            write_accuracy(&mut text, &a)?;
            chip.insert("accuracy".into(), serde_json::to_value(&a)?);
        }
        chips_json.push(serde_json::Value::Object(chip));
    }
    json.insert("chips".into(), chips_json.into());
    let run_on = |arch| runs.iter().find(|e| e.arch == arch);
    if let (Some(bh), Some(wh)) = (run_on(Arch::Blackhole), run_on(Arch::Wormhole)) {
        let d = accuracy::difference_of(&def, bh, wh)?;
        write_difference(&mut text, &d, def.numeric.as_ref().map_or(Ulp::Output, |n| n.ulp))?;
        json.insert("chip_difference".into(), serde_json::to_value(&d)?);
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&serde_json::Value::Object(json))?);
    } else {
        out!("{text}");
    }
    Ok(if problem { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn list(json: bool) -> Result<ExitCode> {
    let corpus = kernels::registry();
    if json {
        let infos: Vec<_> = corpus.iter().map(KernelDef::info).collect();
        outln!("{}", serde_json::to_string_pretty(&infos)?);
        return Ok(ExitCode::SUCCESS);
    }
    let width = corpus.iter().map(|k| k.name.len()).max().unwrap_or(0);
    for k in &corpus {
        let chips: Vec<String> = k.chips.iter().map(|a| a.to_string()).collect();
        let kind = if k.numeric.is_some() { "numerical" } else { "exact" };
        outln!("{:width$}  {:<9}  {:<19}  {}", k.name, kind, chips.join(","), k.description);
    }
    Ok(ExitCode::SUCCESS)
}

fn write_accuracy(text: &mut String, a: &Accuracy) -> std::fmt::Result {
    let verdict = if a.within_bound { "within bound" } else { "EXCEEDS BOUND" };
    writeln!(
        text,
        "\n## {}: accuracy over {} inputs, in {} ({verdict})",
        a.arch,
        a.samples,
        unit_name(a.unit)
    )?;
    writeln!(text, "max  {:>12.3}   bound {:>10.3}", a.max_ulp, a.bound_max_ulp)?;
    writeln!(text, "mean {:>12.3}   bound {:>10.3}", a.mean_ulp, a.bound_mean_ulp)?;
    writeln!(text, "why: {}", a.bound_reason)?;
    let top = a.histogram.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    writeln!(text, "histogram (errors in (lo, hi] ULPs):")?;
    for b in a.histogram.iter().filter(|b| b.count > 0) {
        let bar = "#".repeat(((b.count * 40).div_ceil(top)) as usize);
        writeln!(text, "  ({:>7}, {:>7}] {:>7} {bar}", b.lo, b.hi, b.count)?;
    }
    writeln!(text, "worst inputs:")?;
    for s in &a.worst {
        let inputs: Vec<String> =
            s.inputs.iter().zip(&s.input_bits).map(|(x, b)| format!("{x:e} (0x{b:08x})")).collect();
        writeln!(
            text,
            "  {} -> {:e} (0x{:08x}), exact {:e}: {:.3} ULP",
            inputs.join(", "),
            s.output,
            s.output_bits,
            s.expected,
            s.ulp
        )?;
    }
    Ok(())
}

fn write_difference(text: &mut String, d: &ChipDifference, unit: Ulp) -> std::fmt::Result {
    writeln!(text, "\n## Blackhole vs Wormhole")?;
    if d.differing == 0 {
        return writeln!(text, "identical outputs on all {} inputs", d.samples);
    }
    writeln!(
        text,
        "{} of {} outputs differ; max {:.3}, mean {:.3} ({} of the Blackhole output)",
        d.differing,
        d.samples,
        d.max_ulp,
        d.mean_ulp,
        unit_name(unit)
    )?;
    if let Some((lo, hi)) = d.input_span {
        writeln!(text, "first input of the differing lanes spans [{lo:e}, {hi:e}]")?;
    }
    for e in &d.examples {
        let inputs: Vec<String> = e.input_bits.iter().map(|b| format!("0x{b:08x}")).collect();
        writeln!(
            text,
            "  {} -> blackhole 0x{:08x}, wormhole 0x{:08x} ({:.3} ULP)",
            inputs.join(", "),
            e.blackhole,
            e.wormhole,
            e.ulp
        )?;
    }
    Ok(())
}
