//! Programs decoded once for repeated execution: for each instruction, everything the executor and
//! the cycle-level machine ask of it that does not depend on the state, computed when the program
//! is built instead of on every issue.
//!
//! What [`Decoded`] holds is what `exec/models.rs` and `machine.rs` otherwise derive per issue from the
//! instruction: its sub-unit, whether the state's chip can express it ([`exec::on_chip`]),
//! whether it is a backdoor-load candidate (`VD` of 12 or more), and the scheduling footprints of
//! [`crate::hazard`] (the stall logic's beliefs, the real first-cycle reads and two-cycle writes
//! on Blackhole, the next-cycle rules' view on Wormhole) for a regular instruction. The
//! functions are the same ones, called once:
//! a decoded program runs exactly as its instructions issued one by one do (same state, same
//! `Outcome`s, same cycles), which `tests/it/program.rs` checks on random programs of both chips.
//!
//! [`Program`] is a decoded instruction sequence; [`crate::FastMachine::run`] issues one on the
//! cycle-level machine and [`run_steps`] runs each instruction as [`crate::step`] would. Both
//! return the merge of the instructions' outcomes, so nothing is returned per instruction; the
//! per-instruction calls ([`crate::FastMachine::issue_decoded`]) remain for callers that compare
//! after each one.

use sfpu_reference::isa::{Arch, Instr, Opcode, SubUnit};
use sfpu_reference::outcome::Outcome;

use crate::exec::{self, Ctx, is_two_cycle_producer};
use crate::hazard::{
    WormholeCycle, actual_writes, blocks_next_cycle, first_cycle_reads, stall_reads, stall_writes,
};
use crate::simd::Handlers;
use crate::state::FastState;

/// The sub-unit codes of [`Decoded::unit`] and the machine: the four sub-units SFPLOADMACRO
/// schedules onto, in Sequence byte order, and the load sub-unit.
pub(crate) const SIMPLE: u8 = 0;
pub(crate) const MAD: u8 = 1;
pub(crate) const ROUND: u8 = 2;
pub(crate) const STORE: u8 = 3;
pub(crate) const LOAD: u8 = 4;

/// The sub-unit a regular instruction goes to.
pub(crate) fn regular_unit(op: Opcode) -> u8 {
    match op.sub_unit() {
        SubUnit::Load => LOAD,
        SubUnit::Simple => SIMPLE,
        SubUnit::MAD => MAD,
        SubUnit::Round => ROUND,
        SubUnit::Store => STORE,
    }
}

/// The instruction's `VD` field, if it has one (SFPCONFIG's selector included).
pub(crate) fn vd_field(i: &Instr) -> Option<u32> {
    match *i {
        Instr::SFPCONFIG { VD, .. } => Some(VD.get()),
        _ => exec::backdoor_vd(i),
    }
}

/// One instruction and what executing or issuing it needs that only depends on the instruction.
#[derive(Clone, Copy, Debug)]
pub struct Decoded {
    pub(crate) instr: Instr,
    pub(crate) op: Opcode,
    /// The sub-unit a regular issue goes to (`machine.rs`'s numbering).
    pub(crate) unit: u8,
    /// Whether Wormhole can express it (every instruction is Blackhole's).
    pub(crate) on_wormhole: bool,
    /// What the Blackhole stall logic believes it reads.
    pub(crate) stall_reads: u32,
    /// What the stall logic believes it writes (0 unless a two-cycle producer).
    pub(crate) stall_writes: u32,
    /// Only SFPNOP may issue on the next cycle.
    pub(crate) blocks_next: bool,
    /// The LRegs it really reads in its first cycle (regular issue).
    pub(crate) first_reads: u32,
    /// The LRegs it really writes as a two-cycle producer (0 otherwise; regular issue).
    pub(crate) two_cycle_writes: u32,
    /// What it leaves for the next cycle's Wormhole rules when it executes (regular issue).
    pub(crate) wh_next: WormholeCycle,
    /// Its `VD` field when that is 12 or more (the backdoor-load candidates; SFPCONFIG's selector,
    /// SFPLOADMACRO's and SFPNOP's non-`VD`s excluded, as `exec::backdoor_vd` says).
    pub(crate) backdoor_vd: Option<u8>,
    /// Its `VD` field (SFPCONFIG's selector included) is 12 or more and it is not SFPCONFIG: the
    /// instruction an SFPCONFIG's change of `DISABLE_BACKDOOR_LOAD` makes unspecified.
    pub(crate) vd_ge12_not_config: bool,
    /// Not SFPLOADMACRO, SFPSWAP or SFPCONFIG, the instructions with a side in the machine's cycle
    /// beyond their execution and footprints (scheduling; the second cycle and the next-cycle
    /// rule; the change of `DISABLE_BACKDOOR_LOAD` the next instruction sees).
    pub(crate) plain: bool,
}

impl Decoded {
    /// Decodes `instr` (infallible: `Instr` is already a valid instruction of some chip).
    pub fn new(instr: &Instr) -> Decoded {
        let op = instr.opcode();
        let two_cycle = is_two_cycle_producer(op);
        let mut wh_next = WormholeCycle::default();
        wh_next.add(instr, &Ctx::REGULAR);
        let backdoor_vd = exec::backdoor_vd(instr).filter(|&vd| vd >= 12).map(|vd| vd as u8);
        Decoded {
            instr: *instr,
            op,
            unit: regular_unit(op),
            on_wormhole: exec::on_chip(Arch::Wormhole, instr),
            stall_reads: stall_reads(instr),
            stall_writes: if two_cycle { stall_writes(instr) } else { 0 },
            blocks_next: blocks_next_cycle(instr),
            first_reads: first_cycle_reads(instr, &Ctx::REGULAR),
            two_cycle_writes: if two_cycle { actual_writes(instr, &Ctx::REGULAR) } else { 0 },
            wh_next,
            backdoor_vd,
            vd_ge12_not_config: vd_field(instr).is_some_and(|vd| vd >= 12)
                && !matches!(instr, Instr::SFPCONFIG { .. }),
            plain: !matches!(op, Opcode::SFPLOADMACRO | Opcode::SFPSWAP | Opcode::SFPCONFIG),
        }
    }

    /// The instruction.
    pub fn instr(&self) -> &Instr {
        &self.instr
    }

    /// Whether chip `arch` can express it ([`exec::on_chip`]).
    #[inline(always)]
    pub(crate) fn on_chip(&self, wormhole: bool) -> bool {
        !wormhole || self.on_wormhole
    }
}

/// A decoded instruction sequence (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Program {
    decoded: Vec<Decoded>,
}

impl Program {
    /// Decodes `instrs` once.
    pub fn new(instrs: &[Instr]) -> Program {
        Program { decoded: instrs.iter().map(Decoded::new).collect() }
    }

    /// The decoded instructions, in program order.
    pub fn decoded(&self) -> &[Decoded] {
        &self.decoded
    }

    /// The number of instructions.
    pub fn len(&self) -> usize {
        self.decoded.len()
    }

    /// Whether the program has no instructions.
    pub fn is_empty(&self) -> bool {
        self.decoded.is_empty()
    }
}

impl From<&[Instr]> for Program {
    fn from(instrs: &[Instr]) -> Program {
        Program::new(instrs)
    }
}

/// Runs each instruction of `program` on `s` as [`crate::step`] runs it (alone: nothing stalls it
/// or collides with it; a lone SFPLOADMACRO runs its whole schedule), in order, and returns the
/// merge of their outcomes. The SIMD level's table of per-opcode model copies is looked up once,
/// and the state's chip once: the loop is compiled once per chip, with the chip a constant inside
/// (rather than read from the state after every instruction, which made the integer/bitwise class
/// 5-8% and the FP-field class 4-10% slower; CHANGELOG.md, "Fast model tuning").
pub fn run_steps(s: &mut FastState, program: &Program) -> Outcome {
    if s.is_wormhole() { run_steps_on::<true>(s, program) } else { run_steps_on::<false>(s, program) }
}

/// [`run_steps`] on the chip of `WH` (`true`: Wormhole), which must be the state's.
#[inline(never)]
fn run_steps_on<const WH: bool>(s: &mut FastState, program: &Program) -> Outcome {
    let mut out = Outcome::defined();
    let handlers = Handlers::current(WH);
    for d in program.decoded() {
        step_with(handlers, WH, s, d, &mut out);
    }
    out
}

/// [`crate::step`] of a decoded instruction, noting into `out`.
#[inline]
pub fn step_decoded(s: &mut FastState, d: &Decoded, out: &mut Outcome) {
    let wormhole = s.is_wormhole();
    step_with(Handlers::current(wormhole), wormhole, s, d, out);
}

/// `handlers` and `wormhole` must be the state's chip's.
#[inline(always)]
fn step_with(handlers: &Handlers, wormhole: bool, s: &mut FastState, d: &Decoded, out: &mut Outcome) {
    if d.op == Opcode::SFPLOADMACRO {
        out.merge(&exec::step(s, &d.instr));
    } else {
        execute_regular_with(handlers, wormhole, s, d, out);
    }
}

/// `exec::execute_regular` with the decoded facts (the chip check, the functional model, the
/// backdoor-load rule), `handlers`, the state's chip's table of the level in force, and
/// `wormhole`, whether the state's chip is Wormhole.
#[inline(always)]
pub(crate) fn execute_regular_with(
    handlers: &Handlers,
    wormhole: bool,
    s: &mut FastState,
    d: &Decoded,
    out: &mut Outcome,
) {
    let on_chip = d.on_chip(wormhole);
    let execute = |s: &mut FastState, out: &mut Outcome| handlers.execute(s, &d.instr, d.op, out);
    exec::regular_with(s, &d.instr, on_chip, || d.backdoor_vd.map(usize::from), execute, out);
}
