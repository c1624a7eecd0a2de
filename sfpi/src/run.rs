//! Running a lowered program on the models, and comparing the result with the kernel's meaning.

use sfpu_fastpath::{FastMachine, FastState};
use sfpu_reference::isa::{Arch, Instr};
use sfpu_reference::outcome::{Clause, Kind};
use sfpu_reference::state::State;
use sfpu_reference::{Machine, lint};

use crate::meaning::Expected;

/// A model that can run programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// `sfpu_reference::Machine`, the literal reference model (both chips).
    Reference,
    /// `sfpu_fastpath::FastMachine`, the fast model (Blackhole; its Wormhole is arriving
    /// separately).
    Fast,
}

impl Engine {
    /// Whether the engine models `arch`. For the fast model this is asked of the model itself:
    /// its state keeps a chip's state exactly when it models the chip (today Blackhole only;
    /// Wormhole is arriving separately, and this will then say so without a change here).
    pub fn supports(self, arch: Arch) -> bool {
        match self {
            Engine::Reference => true,
            Engine::Fast => {
                let s = State::reset(arch, &sfpu_reference::ResetValues::ZEROS);
                FastState::from_state(&s).to_state() == s
            }
        }
    }

    /// The engine's name.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Reference => "reference",
            Engine::Fast => "fast",
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Run {
    /// The final state.
    pub state: State,
    /// Every clause the model noted (undefined, unspecified or non-contractual behaviour, broken
    /// scheduling rules), with the 1-based instruction number and the lanes.
    pub notes: Vec<(usize, Clause, u32)>,
    /// Cycles taken.
    pub cycles: u64,
}

/// Runs `program` from `initial` on `engine` (cycle by cycle, then drained).
pub fn run(engine: Engine, program: &[Instr], initial: &State) -> Result<Run, String> {
    let arch = initial.arch();
    if !engine.supports(arch) {
        return Err(format!("the {} model does not model {arch}", engine.name()));
    }
    let mut notes = Vec::new();
    let mut note = |line: usize, out: &sfpu_reference::Outcome| {
        for (c, lanes) in out.notes() {
            notes.push((line, c, lanes));
        }
    };
    match engine {
        Engine::Reference => {
            let mut s = initial.clone();
            let mut m = Machine::new();
            for (i, instr) in program.iter().enumerate() {
                let out = m.issue(&mut s, instr);
                note(i + 1, &out);
            }
            let out = m.drain(&mut s);
            note(program.len(), &out);
            Ok(Run { state: s, notes, cycles: m.cycle() })
        }
        Engine::Fast => {
            let mut s = FastState::from_state(initial);
            let mut m = FastMachine::new();
            for (i, instr) in program.iter().enumerate() {
                let out = m.issue(&mut s, instr);
                note(i + 1, &out);
            }
            let out = m.drain(&mut s);
            note(program.len(), &out);
            Ok(Run { state: s.to_state(), notes, cycles: m.cycle() })
        }
    }
}

/// The scheduling-rule findings of the linter for `program` run from `initial`.
pub fn lint_findings(program: &[Instr], initial: &State) -> Vec<lint::Finding> {
    let lines: Vec<_> = program
        .iter()
        .enumerate()
        .map(|(i, instr)| sfpu_reference::isa::ProgramLine { line: i + 1, instr: *instr })
        .collect();
    lint::lint(initial, &lines)
}

/// One place where the machine and the meaning disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where.
    pub what: String,
    /// The meaning's bits.
    pub expected: u32,
    /// The machine's bits.
    pub got: u32,
}

/// Compares the machine's final state with the meaning: every Dst cell, every LReg the kernel
/// sets through `l_reg`, every programmable constant it sets; and the predication state must be
/// back to its reset values (the flag stack balanced).
pub fn compare(expected: &Expected, got: &State) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for row in 0..expected.dst.DstBits.len() {
        for col in 0..16 {
            let (e, g) = (expected.dst.DstBits[row][col], got.Dst.DstBits[row][col]);
            if e != g {
                out.push(Mismatch {
                    what: format!("DstBits[{row}][{col}]"),
                    expected: e as u32,
                    got: g as u32,
                });
            }
        }
    }
    for (reg, lanes) in expected.lregs.iter().chain(&expected.consts) {
        for lane in 0..32 {
            let (e, g) = (lanes[lane], got.LReg[*reg as usize][lane]);
            if e != g {
                out.push(Mismatch { what: format!("LReg[{reg}] lane {lane}"), expected: e, got: g });
            }
        }
    }
    for lane in 0..32 {
        if got.UseLaneFlagsForLaneEnable[lane] || !got.FlagStack[lane].is_empty() {
            out.push(Mismatch {
                what: format!("predication state of lane {lane} (not restored)"),
                expected: 0,
                got: got.FlagStack[lane].len() as u32,
            });
        }
    }
    out
}

/// The notes of a run that make its result not a defined one (anything but non-contractual
/// behaviour the model reproduces).
pub fn undefined_notes(run: &Run) -> Vec<(usize, Clause, u32)> {
    run.notes.iter().copied().filter(|(_, c, _)| c.kind() != Kind::NonContractual).collect()
}
