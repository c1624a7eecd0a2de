//! Checks a program against the scheduling rules software must obey on the state's chip (the
//! "Instruction scheduling" sections of the pages, Wormhole's missing-SFPNOP rules
//! (`docs/spec/sfpu-wormhole.md#clauses-scheduling-rules-software-must-keep`), and the SFPLOADMACRO
//! rules of `SFPLOADMACRO.md`, including the idle cycle `SFPSHFT2.md` asks for after a scheduled
//! SFPSHFT2 in modes 2..4, the Simple/Round `VD == 16` pairing of a scheduled instruction with a
//! regular one, and a Load, MAD or Store sub-unit instruction naming an SFPSWAP's `VC`/`VD` on the
//! SFPSWAP's unprotected second cycle, BlackholeA0 `SFPSWAP.md` caution), naming each violated rule
//! with its line.
//!
//! The checks are the [`Machine`]'s: the program is run on a copy of the state, instruction by
//! instruction, and every hazard, collision or SFPLOADMACRO rule the machine reports is attributed
//! to the line whose issue exposed it.

use crate::isa::ProgramLine;
use crate::machine::Machine;
use crate::outcome::{Clause, Kind};
use crate::state::State;

/// One violated rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The 1-based line of the instruction whose issue exposed it.
    pub line: usize,
    /// The rule.
    pub clause: Clause,
    /// The lanes concerned.
    pub lanes: u32,
}

/// The clauses that are scheduling rules, as opposed to the semantics of a single instruction.
pub fn is_scheduling_rule(clause: Clause) -> bool {
    matches!(
        clause,
        Clause::Hazard
            | Clause::LoadmacroRule
            | Clause::LoadmacroCollision
            | Clause::SfpconfigDblChange
            | Clause::LoadmacroSelector1
            | Clause::LoadmacroStoreSlotNotStore
            | Clause::SfpswapSecondCycle
            | Clause::WormholeMadResultRead
            | Clause::WormholeShflror1Copy4Read
            | Clause::WormholeShflror1Copy4Write
            | Clause::WormholeShflVdRead
            | Clause::WormholeShft2NextInstruction
    )
}

/// Runs `program` from `initial` and returns every scheduling rule it breaks, in program order.
pub fn lint(initial: &State, program: &[ProgramLine]) -> Vec<Finding> {
    let mut s = initial.clone();
    let mut m = Machine::new();
    let mut findings = Vec::new();
    let mut report = |line: usize, out: &crate::Outcome| {
        for (clause, lanes) in out.notes() {
            if is_scheduling_rule(clause) || clause.kind() == Kind::Undefined {
                findings.push(Finding { line, clause, lanes });
            }
        }
    };
    for pl in program {
        let out = m.issue(&mut s, &pl.instr);
        report(pl.line, &out);
    }
    let last = program.last().map_or(0, |pl| pl.line);
    let out = m.drain(&mut s);
    report(last, &out);
    findings
}
