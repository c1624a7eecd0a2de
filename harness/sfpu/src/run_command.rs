//! The SFPU's `run` command: a program in tt-llk text form (one `TT_...`/`TTI_...` instruction or
//! raw `0x...` word per line; `#` and `//` start comments) executed on the reference model's
//! cycle-level machine for Blackhole (the default) or Wormhole, and the final state printed.

use std::fmt::Write as _;

use harness_core::isa::{RunOutput, RunRequest};
use sfpu_reference::isa::{Arch, parse_program_with_warnings};
use sfpu_reference::machine::TraceKind;
use sfpu_reference::outcome::ALL_LANES;
use sfpu_reference::state::{LANES, StateDoc};
use sfpu_reference::{Machine, Outcome, ResetValues, State, lint};

/// Runs `request`'s program on the reference model's cycle-level machine of the chip it names
/// (`--chip`, or the state document's `arch`; Blackhole by default) and prints the final state:
/// a table, or JSON (the state document, the cycle count, the outcomes' notes and the lint
/// findings). `lint` checks the documented scheduling rules (the program still runs) and fails
/// the run when one is broken.
pub fn run(request: &RunRequest) -> Result<RunOutput, String> {
    let mut out = RunOutput::default();
    let chip: Option<Arch> =
        request.chip.as_deref().map(|c| c.parse::<Arch>().map_err(|e| format!("--chip: {e}"))).transpose()?;
    let (initial, reset_note) = match &request.state {
        Some((path, text)) => {
            let mut doc: StateDoc = if text.trim().is_empty() {
                StateDoc::default()
            } else {
                harness_core::input::check_yaml_nesting(text)
                    .map_err(|e| format!("invalid state in {path}: {e}"))?;
                serde_yaml::from_str(text).map_err(|e| format!("invalid state in {path}: {e}"))?
            };
            // A document without `arch` is Blackhole's unless --chip says otherwise.
            if let (Some(flag), Some(named)) = (chip, doc.arch)
                && flag != named
            {
                return Err(format!("--chip {flag}, but the state {path} is for {named}"));
            }
            doc.arch = chip.or(doc.arch);
            (doc.to_state().map_err(|e| format!("invalid state in {path}: {e}"))?, None)
        }
        None => (
            State::reset(chip.unwrap_or(Arch::Blackhole), &ResetValues::ZEROS),
            Some("initial state: documented reset, zeros where the documentation leaves it unspecified"),
        ),
    };
    let arch = initial.arch();
    let name = &request.program_name;
    let program = match parse_program_with_warnings(arch, &request.program) {
        Ok((program, warnings)) => {
            for w in warnings {
                let _ = writeln!(out.stderr, "{name}:{}: warning: {}", w.line, w.message);
            }
            program
        }
        Err(e) => return Err(format!("{name}:{}: {}", e.line.unwrap_or(0), e.kind)),
    };

    let findings = if request.lint { lint::lint(&initial, &program) } else { Vec::new() };

    let mut s = initial;
    let mut m = Machine::new();
    if request.trace {
        m.enable_trace();
    }
    let mut outcomes: Vec<(usize, Outcome)> = Vec::new();
    for pl in &program {
        let o = m.issue(&mut s, &pl.instr);
        if !o.is_defined() {
            outcomes.push((pl.line, o));
        }
    }
    let tail = m.drain(&mut s);
    if !tail.is_defined() {
        outcomes.push((program.last().map_or(0, |p| p.line), tail));
    }

    if request.json {
        let notes: Vec<serde_json::Value> = outcomes
            .iter()
            .flat_map(|(line, o)| {
                o.notes().map(move |(clause, lanes)| {
                    serde_json::json!({
                        "line": line, "clause": clause.id(), "kind": clause.kind().to_string(),
                        "section": clause.section(), "lanes": format!("0x{lanes:08x}"),
                    })
                })
            })
            .collect();
        let lint: Vec<serde_json::Value> = findings
            .iter()
            .map(|f| serde_json::json!({"line": f.line, "clause": f.clause.id(), "lanes": format!("0x{:08x}", f.lanes)}))
            .collect();
        let doc = serde_json::json!({
            "arch": arch.to_string(),
            "cycles": m.cycle(),
            "state": StateDoc::from_state(&s),
            "outcomes": notes,
            "lint": lint,
        });
        let _ = writeln!(out.stdout, "{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
    } else {
        let t = &mut out.stdout;
        let _ = writeln!(t, "# arch: {arch}");
        if let Some(note) = reset_note {
            let _ = writeln!(t, "# {note}");
        }
        if request.trace {
            for e in m.trace() {
                let what = match e.what {
                    TraceKind::Issued => "issue",
                    TraceKind::Scheduled => "sched",
                    TraceKind::Discarded => "DISCARDED",
                    TraceKind::Stalled => "stall",
                };
                let _ = writeln!(
                    t,
                    "cycle {:>4}  {:<6} {:<9} {}",
                    e.cycle,
                    format!("{:?}", e.unit),
                    what,
                    e.instr.display(arch)
                );
            }
            let _ = writeln!(t);
        }
        for f in &findings {
            let _ = writeln!(
                t,
                "{name}:{}: lint: {} ({}){}",
                f.line,
                f.clause.summary(),
                f.clause.section(),
                lanes_suffix(f.lanes)
            );
        }
        for (line, o) in &outcomes {
            for (clause, lanes) in o.notes() {
                let _ = writeln!(
                    t,
                    "{name}:{line}: {}: {} ({}, `{}`){}",
                    clause.kind(),
                    clause.summary(),
                    clause.section(),
                    clause.id(),
                    lanes_suffix(lanes)
                );
            }
        }
        t.push_str(&state_table(&s, m.cycle()));
    }
    out.failed = request.lint && !findings.is_empty();
    Ok(out)
}

fn lanes_suffix(lanes: u32) -> String {
    if lanes == ALL_LANES { String::new() } else { format!(" in lanes 0x{lanes:08x}") }
}

/// The final state as a table: each non-constant LReg as 4 rows of 8 lanes, then the predication
/// state and whatever else is not at its default.
fn state_table(s: &State, cycles: u64) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "cycles: {cycles}");
    for reg in (0..8).chain(11..15).chain(16..17) {
        let lanes = &s.LReg[reg];
        if reg >= 8 && lanes.iter().all(|&v| v == 0) {
            continue;
        }
        if lanes.iter().all(|&v| v == lanes[0]) {
            let _ = writeln!(
                t,
                "{:<9} all lanes     {:08x}  ({})",
                format!("LReg[{reg}]"),
                lanes[0],
                crate::vectors::emit::describe_u32(lanes[0])
            );
            continue;
        }
        for row in 0..4 {
            let label = if row == 0 { format!("LReg[{reg}]") } else { String::new() };
            let words: Vec<String> = (0..8).map(|c| format!("{:08x}", s.LReg[reg][row * 8 + c])).collect();
            let _ = writeln!(t, "{label:<9} lanes {:>2}..{:<2}  {}", row * 8, row * 8 + 7, words.join(" "));
        }
    }
    let mask = |f: &dyn Fn(usize) -> bool| (0..LANES).fold(0u32, |m, l| m | ((f(l) as u32) << l));
    let _ = writeln!(t, "LaneFlags                  0x{:08x}", mask(&|l| s.LaneFlags[l]));
    let _ = writeln!(t, "UseLaneFlagsForLaneEnable  0x{:08x}", mask(&|l| s.UseLaneFlagsForLaneEnable[l]));
    let _ = writeln!(t, "lanes enabled              0x{:08x}", mask(&|l| s.IsLaneEnabled(l)));
    let depths: Vec<String> = s.FlagStack.iter().map(|f| f.len().to_string()).collect();
    if s.FlagStack.iter().any(|f| !f.is_empty()) {
        let _ = writeln!(t, "FlagStack depths           {}", depths.join(" "));
    }
    // Everything else that is not at its default, in the state format.
    let mut rest = StateDoc::from_state(s);
    rest.LReg.clear();
    rest.LaneFlags = None;
    rest.UseLaneFlagsForLaneEnable = None;
    rest.FlagStack = None;
    rest.arch = None;
    if rest != StateDoc::default() {
        let yaml = serde_yaml::to_string(&rest).unwrap_or_default();
        let _ = writeln!(t, "{}", yaml.trim_end());
    }
    t
}
