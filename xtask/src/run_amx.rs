//! `cargo xtask run PROGRAM --isa amx [--chip M1|M2|M3|M4] [--state STATE] [--json] [--trace]`:
//! execute AMX `vecfp` operands on the reference model (`amx-reference`) and print the registers
//! the program changed and the final state.
//!
//! The program has one operand per line, in the text form of `amx_reference::Operand`: `vecfp`
//! followed by `NAME=VALUE` fields of the notes' §1.3 (`vecfp LW=4 ALU=1 XOFF=0x40`), or one number
//! for the whole operand (`vecfp 0x0000800000000000`, `0x...`); `#` and `//` start comments. The
//! state is the AMX state document (X, Y, Z registers as bytes in memory order; see
//! `amx_reference::state`); without `--state` the run starts from the all-zero state AMX `set`
//! leaves.

use std::path::Path;
use std::process::ExitCode;

use amx_reference::{Chip, Decoded, Operand, State, StateDoc, decode};
use anyhow::{Context, Result, bail};

/// Parses a program text: the operands with their line numbers.
pub fn parse_program(name: &str, text: &str) -> Result<Vec<(usize, Operand)>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let line = line.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let op: Operand = line.parse().map_err(|e| anyhow::anyhow!("{name}:{}: {e}", i + 1))?;
        out.push((i + 1, op));
    }
    if out.is_empty() {
        bail!("{name}: no operand (one `vecfp ...` per line)");
    }
    Ok(out)
}

/// Runs the program at `program` with `state` on `chip`.
pub fn main(program: &Path, chip: Chip, state: Option<&Path>, json: bool, trace: bool) -> Result<ExitCode> {
    let name = program.display().to_string();
    let text = std::fs::read_to_string(program).with_context(|| format!("cannot read program {name}"))?;
    let ops = parse_program(&name, &text)?;
    let initial = match state {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read state {}", path.display()))?;
            if text.trim().is_empty() {
                State::zeroed()
            } else {
                State::from_yaml(&text).with_context(|| format!("invalid AMX state in {}", path.display()))?
            }
        }
        None => State::zeroed(),
    };
    let mut s = initial.clone();
    let mut steps = Vec::new();
    for &(line, op) in &ops {
        let before = s.clone();
        amx_reference::vecfp(&mut s, chip, op);
        let what = match decode(chip, op) {
            Decoded::Nop(n) => format!("no-op ({n:?})"),
            Decoded::Op(d) => format!("{:?}", d.lw),
        };
        steps.push((line, op, what, StateDoc::changes(&before, &s)));
    }
    if json {
        let steps: Vec<serde_json::Value> = steps
            .iter()
            .map(|(line, op, what, changed)| {
                serde_json::json!({"line": line, "operand": format!("{:#018x}", op.0), "text": op.to_string(),
                    "decoded": what, "changed": changed})
            })
            .collect();
        let doc = serde_json::json!({
            "isa": "amx",
            "chip": chip.name(),
            "steps": steps,
            "changed": StateDoc::changes(&initial, &s),
            "state": StateDoc::from_state(&s),
        });
        outln!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!("# isa: amx, chip profile: {chip}");
    if state.is_none() {
        outln!("# initial state: all zero (as after AMX `set`)");
    }
    if trace {
        for (line, op, what, changed) in &steps {
            let rows: Vec<String> = changed.Z.keys().map(|k| k.0.to_string()).collect();
            let rows =
                if rows.is_empty() { "nothing".to_string() } else { format!("Z rows {}", rows.join(", ")) };
            outln!("{name}:{line}: {op} ({:#018x}): {what}; changed {rows}", op.0);
        }
        outln!();
    }
    outln!("changed:");
    out!("{}", indent(&StateDoc::changes(&initial, &s)));
    outln!("final state (registers not listed are zero):");
    out!("{}", indent(&StateDoc::from_state(&s)));
    Ok(ExitCode::SUCCESS)
}

/// `doc` as YAML, indented by two spaces; `(none)` when empty.
fn indent(doc: &StateDoc) -> String {
    let body = if *doc == StateDoc::default() {
        "(none)\n".to_string()
    } else {
        serde_yaml::to_string(doc).unwrap_or_else(|e| format!("# serialisation failed: {e}\n"))
    };
    body.lines().map(|l| format!("  {l}\n")).collect()
}
