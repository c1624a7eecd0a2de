//! `cargo xtask run PROGRAM [--arch ARCH] [--state STATE] [--json] [--lint] [--trace]`: execute a
//! program on the reference model's cycle-level machine for Blackhole (the default) or Wormhole and
//! print the final state. With `--isa amx [--chip M1|M2|M3|M4]` (or a program named `*.amx`), the
//! program is AMX `vecfp` operands instead, run by `run_amx`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use sfpu_reference::isa::{Arch, parse_program_with_warnings};
use sfpu_reference::machine::TraceKind;
use sfpu_reference::outcome::ALL_LANES;
use sfpu_reference::state::{LANES, StateDoc};
use sfpu_reference::{Machine, Outcome, ResetValues, State, lint};

#[derive(clap::Args)]
pub struct Args {
    /// The program: one `TT_...`/`TTI_...` instruction (or raw `0x...` word) per line; `#` and
    /// `//` start comments.
    program: PathBuf,
    /// The chip: `blackhole` (the default) or `wormhole` (also `bh`, `wh`). A `--state` document
    /// that names a chip (`arch: wormhole`) chooses it too; the two must agree.
    #[arg(long)]
    arch: Option<Arch>,
    /// The initial state, in the YAML/JSON state format (see vectors/README.md). Without it the
    /// run starts from the documented reset state with zeros wherever the documentation leaves the
    /// reset value unspecified.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Print the final state and the outcomes as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Check the documented scheduling rules and report each violation with its line (the
    /// program still runs). Exit status 1 if any rule is violated.
    #[arg(long)]
    lint: bool,
    /// Print every instruction as it executes, with its cycle and sub-unit.
    #[arg(long)]
    trace: bool,
    /// The instruction set: `sfpu` (the default) or `amx` (Apple AMX `vecfp` operands, one per
    /// line; the default for a program named `*.amx`).
    #[arg(long, value_parser = ["sfpu", "amx"])]
    isa: Option<String>,
    /// With `--isa amx`: the chip profile, M1, M2 (M3 is M2) or M4. Default: M2.
    #[arg(long, value_parser = |s: &str| s.parse::<amx_reference::Chip>())]
    chip: Option<amx_reference::Chip>,
}

pub fn main(args: Args) -> Result<ExitCode> {
    let amx = match args.isa.as_deref() {
        Some(isa) => isa == "amx",
        None => args.program.extension().is_some_and(|e| e == "amx"),
    };
    if amx {
        if args.arch.is_some() || args.lint {
            bail!("--arch and --lint are for the SFPU; AMX takes --chip M1|M2|M3|M4");
        }
        let chip = args.chip.unwrap_or(amx_reference::Chip::M2);
        return crate::run_amx::main(&args.program, chip, args.state.as_deref(), args.json, args.trace);
    }
    if args.chip.is_some() {
        bail!("--chip is for --isa amx; the SFPU's chip is --arch blackhole|wormhole");
    }
    let text = std::fs::read_to_string(&args.program)
        .with_context(|| format!("cannot read program {}", args.program.display()))?;
    let (initial, reset_note) = match &args.state {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read state {}", path.display()))?;
            let mut doc: StateDoc = if text.trim().is_empty() {
                StateDoc::default()
            } else {
                serde_yaml::from_str(&text).with_context(|| format!("invalid state in {}", path.display()))?
            };
            // A document without `arch` is Blackhole's unless --arch says otherwise.
            if let (Some(flag), Some(named)) = (args.arch, doc.arch)
                && flag != named
            {
                bail!("--arch {flag}, but the state {} is for {named}", path.display());
            }
            doc.arch = args.arch.or(doc.arch);
            (doc.to_state().with_context(|| format!("invalid state in {}", path.display()))?, None)
        }
        None => (
            State::reset(args.arch.unwrap_or(Arch::Blackhole), &ResetValues::ZEROS),
            Some("initial state: documented reset, zeros where the documentation leaves it unspecified"),
        ),
    };
    let arch = initial.arch();
    let program = match parse_program_with_warnings(arch, &text) {
        Ok((program, warnings)) => {
            for w in warnings {
                errln!("{}:{}: warning: {}", args.program.display(), w.line, w.message);
            }
            program
        }
        Err(e) => bail!("{}:{}: {}", args.program.display(), e.line.unwrap_or(0), e.kind),
    };

    let findings = if args.lint { lint::lint(&initial, &program) } else { Vec::new() };

    let mut s = initial;
    let mut m = Machine::new();
    if args.trace {
        m.enable_trace();
    }
    let mut outcomes: Vec<(usize, Outcome)> = Vec::new();
    for pl in &program {
        let out = m.issue(&mut s, &pl.instr);
        if !out.is_defined() {
            outcomes.push((pl.line, out));
        }
    }
    let tail = m.drain(&mut s);
    if !tail.is_defined() {
        outcomes.push((program.last().map_or(0, |p| p.line), tail));
    }

    if args.json {
        let notes: Vec<serde_json::Value> = outcomes
            .iter()
            .flat_map(|(line, out)| {
                out.notes().map(move |(clause, lanes)| {
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
        outln!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        outln!("# arch: {arch}");
        if let Some(note) = reset_note {
            outln!("# {note}");
        }
        if args.trace {
            for e in m.trace() {
                let what = match e.what {
                    TraceKind::Issued => "issue",
                    TraceKind::Scheduled => "sched",
                    TraceKind::Discarded => "DISCARDED",
                    TraceKind::Stalled => "stall",
                };
                outln!(
                    "cycle {:>4}  {:<6} {:<9} {}",
                    e.cycle,
                    format!("{:?}", e.unit),
                    what,
                    e.instr.display(arch)
                );
            }
            outln!();
        }
        for f in &findings {
            outln!(
                "{}:{}: lint: {} ({}){}",
                args.program.display(),
                f.line,
                f.clause.summary(),
                f.clause.section(),
                lanes_suffix(f.lanes)
            );
        }
        for (line, out) in &outcomes {
            for (clause, lanes) in out.notes() {
                outln!(
                    "{}:{}: {}: {} ({}, `{}`){}",
                    args.program.display(),
                    line,
                    clause.kind(),
                    clause.summary(),
                    clause.section(),
                    clause.id(),
                    lanes_suffix(lanes)
                );
            }
        }
        out!("{}", state_table(&s, m.cycle()));
    }
    Ok(if args.lint && !findings.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS })
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
                harness_sfpu::vectors::emit::describe_u32(lanes[0])
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
