//! `cargo xtask conform`'s AMX `vecfp` part: a report section per chip profile (M1, M2 = M3, M4)
//! built by `harness_amx::report::section` (the golden vectors `vectors/amx/`, a random
//! campaign over every semantic class, the random operand streams), and `--replay` of an AMX case
//! (`m2/source/f32/fms`, `amx/m2/random/<class>/<n>`, `amx/m2/random/<n>`).

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use amx_reference::Chip;
use anyhow::{Result, anyhow, bail};
use harness_amx::campaign::{self as streams, nth_case};
use harness_amx::dut::ExternalModel;
use harness_amx::isa::{Amx, AmxFast, AmxReference};
use harness_amx::report::{Settings, load, section_with};
use harness_core::check::{self, Status, VectorCase};
use harness_core::dut::RefusedDut;
use harness_core::isa::{Isa, Model, ModelError};
use harness_core::report::{ChipReport, ModelInfo};

/// What `--dut` and `--timeout` say.
pub struct Duts<'a> {
    /// The DUT command lines.
    pub commands: &'a [String],
    /// The per-case timeout.
    pub timeout: Duration,
}

/// One model of a run with its report entry.
type Checked = (Box<dyn Model<Amx>>, ModelInfo);

/// The models of an AMX run on `chip`: the reference, the fast model unless `no_fastpath`, and
/// each `--dut` (one that refuses the hello is checked as a [`RefusedDut`]: every case
/// unsupported; one that cannot start is an error).
fn models(chip: Chip, no_fastpath: bool, duts: &Duts<'_>) -> Result<Vec<Checked>> {
    let mut out: Vec<Checked> = vec![(
        Box::new(AmxReference),
        ModelInfo { name: "reference".into(), kind: "reference".into(), ..ModelInfo::default() },
    )];
    if !no_fastpath {
        out.push((
            Box::new(AmxFast),
            ModelInfo { name: "fastpath".into(), kind: "fastpath".into(), ..ModelInfo::default() },
        ));
    }
    for (i, cmd) in duts.commands.iter().enumerate() {
        let name = if duts.commands.len() == 1 { "dut".to_string() } else { format!("dut{}", i + 1) };
        let (model, description): (Box<dyn Model<Amx>>, String) =
            match ExternalModel::spawn(cmd, chip, duts.timeout) {
                Ok(dut) => {
                    let description = dut.describe();
                    (Box::new(dut), description)
                }
                Err(ModelError::Unsupported(reason)) => {
                    let description = format!("{reason}: every case is unsupported");
                    (Box::new(RefusedDut::new(reason)), description)
                }
                Err(ModelError::Failed(e)) => {
                    bail!("--dut `{cmd}` did not start ({}): {e}", Amx::chip_name(chip))
                }
            };
        out.push((
            model,
            ModelInfo {
                name,
                kind: "dut".into(),
                command: Some(cmd.clone()),
                description: Some(description),
                declaration: None,
            },
        ));
    }
    Ok(out)
}

/// The chip profile named `name` (`m1`, `m2`, `m3` = `m2`, `m4`), or an error listing them.
pub fn chip_named(name: &str) -> Result<Chip> {
    Amx::chip_named(name).ok_or_else(|| anyhow!("`{name}` is not an AMX chip profile (m1, m2, m3, m4)"))
}

/// The sections of `chips`.
pub fn sections(
    root: &Path,
    chips: &[Chip],
    seed: u64,
    cases: u64,
    no_fastpath: bool,
    duts: &Duts<'_>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Vec<ChipReport>> {
    let settings = Settings {
        vectors: root.join("vectors").join("amx"),
        seed,
        cases_per_cell: cases,
        streams: cases * 16,
        keep: 3,
    };
    let mut out = Vec::new();
    for &chip in chips {
        let models = models(chip, no_fastpath, duts)?;
        let refs: Vec<(&dyn Model<Amx>, ModelInfo)> =
            models.iter().map(|(m, i)| (m.as_ref(), i.clone())).collect();
        out.push(section_with(chip, &refs, &settings, stop).map_err(|e| anyhow!(e))?);
    }
    Ok(out)
}

/// Whether `id` is an AMX case id: `amx/...` or a vector id of an AMX file (`m2/...`).
pub fn is_amx_id(id: &str) -> bool {
    let first = id.split('/').next().unwrap_or("");
    first == "amx" || ["m1", "m2", "m4"].contains(&first)
}

/// `--replay ID` of an AMX case: runs it on every model, prints what differs and a regression
/// vector.
pub fn replay(root: &Path, id: &str, seed: u64, no_fastpath: bool, duts: &Duts<'_>) -> Result<ExitCode> {
    let parts: Vec<&str> = id.split('/').collect();
    let (chip, case): (Chip, VectorCase<Amx>) = if parts.first() == Some(&"amx") {
        let chip = chip_named(parts.get(1).copied().unwrap_or(""))?;
        if parts.get(2) != Some(&"random") {
            bail!("--replay: expected amx/<chip>/random/<class>/<n> or amx/<chip>/random/<n>, got `{id}`");
        }
        match parts.len() {
            // A random operand stream of the campaign.
            4 => {
                let n: u64 =
                    parts[3].parse().map_err(|_| anyhow!("--replay: `{}` is not a case number", parts[3]))?;
                let c = nth_case(chip, seed, n);
                let expected =
                    Amx::reference().run(chip, &c.pre, &c.program).map_err(|e| anyhow!("{e}"))?.post;
                let case = VectorCase {
                    id: c.id,
                    file: "streams".into(),
                    mode: None,
                    pre: c.pre,
                    program: c.program,
                    expected,
                    outcome: None,
                    skip: Default::default(),
                };
                (chip, case)
            }
            // A random case of one class.
            5 => {
                let (chip, cell, n) = check::parse_random_id::<Amx>(id)
                    .ok_or_else(|| anyhow!("--replay: `{id}` is not amx/<chip>/random/<class>/<n>"))?;
                let cells = Amx::cells(chip);
                let (id, pre, program) =
                    check::random_case::<Amx>(chip, &cells, cell, seed, n).ok_or_else(|| {
                        anyhow!(
                            "--replay: {chip} has {} classes, numbered 0 to {}",
                            cells.len(),
                            cells.len() - 1
                        )
                    })?;
                let expected = Amx::reference().run(chip, &pre, &program).map_err(|e| anyhow!("{e}"))?.post;
                let case = VectorCase {
                    id,
                    file: cells[cell].instruction.clone(),
                    mode: Some(cells[cell].mode.clone()),
                    pre,
                    program,
                    expected,
                    outcome: None,
                    skip: Default::default(),
                };
                (chip, case)
            }
            _ => {
                bail!("--replay: expected amx/<chip>/random/<class>/<n> or amx/<chip>/random/<n>, got `{id}`")
            }
        }
    } else {
        let chip = chip_named(parts[0])?;
        let (_, cases) = load(&root.join("vectors").join("amx"), chip).map_err(|e| anyhow!(e))?;
        let case = cases
            .into_iter()
            .find(|c| c.id == id)
            .ok_or_else(|| anyhow!("--replay: no AMX vector `{id}`"))?;
        (chip, case)
    };
    let models = models(chip, no_fastpath, duts)?;
    outln!("{} on {} ({} operand(s))", case.id, Amx::chip_name(chip), case.program.len());
    for &op in &case.program {
        outln!("  {}  {op}", Amx::word_hex(op));
    }
    let mut divergent = false;
    for (model, info) in &models {
        match check::run_vector::<Amx>(model.as_ref(), chip, &case).status {
            Status::Pass => outln!("{}: pass", info.name),
            Status::Unsupported(why) => outln!("{}: unsupported ({why})", info.name),
            Status::NotApplicable(why) => outln!("{}: not applicable ({why})", info.name),
            Status::Error(e) => {
                divergent = true;
                outln!("{}: error: {e}", info.name);
            }
            Status::Fail(f) => {
                divergent = true;
                outln!("{}: FAIL\n{}", info.name, f.report);
            }
        }
    }
    let c =
        streams::AmxCase { id: case.id.clone(), chip, pre: case.pre.clone(), program: case.program.clone() };
    outln!("\n# regression vector (paste under `vectors:` in vectors/amx/{}.yaml):", Amx::chip_name(chip));
    out!("{}", streams::snippet(&c, case.program.len().saturating_sub(1)));
    Ok(if divergent { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
