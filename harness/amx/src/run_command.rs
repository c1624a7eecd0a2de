//! AMX's `run` command: `vecfp` operands executed on the reference model (`amx-reference`) for a
//! chip profile (M2 by default), and the registers the program changed and the final state
//! printed.
//!
//! The program has one operand per line, in the text form of `amx_reference::Operand`: `vecfp`
//! followed by `NAME=VALUE` fields of the notes' §1.3 (`vecfp LW=4 ALU=1 XOFF=0x40`), or one number
//! for the whole operand (`vecfp 0x0000800000000000`, `0x...`); `#` and `//` start comments. The
//! state is the AMX state document (X, Y, Z registers as bytes in memory order; see
//! `amx_reference::state`); without `--state` the run starts from the all-zero state AMX `set`
//! leaves.

use std::fmt::Write as _;

use amx_reference::{Chip, Decoded, Operand, State, StateDoc, decode};
use harness_core::isa::{RunOutput, RunRequest};

/// Parses a program text: the operands with their line numbers.
pub fn parse_program(name: &str, text: &str) -> Result<Vec<(usize, Operand)>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let line = line.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let op: Operand = line.parse().map_err(|e| format!("{name}:{}: {e}", i + 1))?;
        out.push((i + 1, op));
    }
    if out.is_empty() {
        return Err(format!("{name}: no operand (one `vecfp ...` per line)"));
    }
    Ok(out)
}

/// Runs `request`'s program on the chip profile it names (`m1`, `m2`, `m3` = `m2`, `m4`; M2 by
/// default), from its state or the all-zero state AMX `set` leaves. `lint` is the SFPU's.
pub fn run(request: &RunRequest) -> Result<RunOutput, String> {
    if request.lint {
        return Err("--lint checks the SFPU's scheduling rules; AMX `vecfp` has none".to_string());
    }
    let chip = match &request.chip {
        Some(c) => <crate::Amx as harness_core::isa::Isa>::chip_named(c)
            .ok_or_else(|| format!("--chip: `{c}` is not an AMX chip profile (m1, m2, m3, m4)"))?,
        None => Chip::M2,
    };
    let name = &request.program_name;
    let ops = parse_program(name, &request.program)?;
    let initial = match &request.state {
        Some((path, text)) => {
            if text.trim().is_empty() {
                State::zeroed()
            } else {
                harness_core::input::check_yaml_nesting(text)
                    .map_err(|e| format!("invalid AMX state in {path}: {e}"))?;
                State::from_yaml(text).map_err(|e| format!("invalid AMX state in {path}: {e}"))?
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
    let mut out = RunOutput::default();
    let t = &mut out.stdout;
    if request.json {
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
        let _ = writeln!(t, "{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
        return Ok(out);
    }
    let _ = writeln!(t, "# isa: amx, chip profile: {chip}");
    if request.state.is_none() {
        let _ = writeln!(t, "# initial state: all zero (as after AMX `set`)");
    }
    if request.trace {
        for (line, op, what, changed) in &steps {
            let rows: Vec<String> = changed.Z.keys().map(|k| k.0.to_string()).collect();
            let rows =
                if rows.is_empty() { "nothing".to_string() } else { format!("Z rows {}", rows.join(", ")) };
            let _ = writeln!(t, "{name}:{line}: {op} ({:#018x}): {what}; changed {rows}", op.0);
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(t, "changed:");
    t.push_str(&indent(&StateDoc::changes(&initial, &s)));
    let _ = writeln!(t, "final state (registers not listed are zero):");
    t.push_str(&indent(&StateDoc::from_state(&s)));
    Ok(out)
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
