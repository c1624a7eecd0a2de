//! Executing one instruction: the dispatch from [`Instr`] to the instruction families in
//! [`ops`](crate::ops), the per-lane `VD < 12 || DISABLE_BACKDOOR_LOAD` guard, and the
//! backdoor-load rule that sits outside the pages' functional models.
//!
//! Implements: `SFPCONFIG.md` (the `DISABLE_BACKDOOR_LOAD` row of the LaneConfig table and the
//! comment in its `VD` 0..3 case; the same on both chips), `SFPLOADMACRO.md` (how scheduled
//! instructions differ: `DISABLE_BACKDOOR_LOAD` reads as true, implicit `VB = VD` / `VC = VD`
//! skipped, overridden `VB` / `VC` / `VD`), and which instructions carry the `VD < 12` guard
//! (`docs/spec/sfpu-blackhole.md#backdoor-load`).
//!
//! The chip: `execute_on` (`models.rs`) is the one place that picks a chip's function for an
//! instruction whose page differs between the chips ([`ops::blackhole`](crate::ops::blackhole),
//! [`ops::wormhole`](crate::ops::wormhole)); the shared pages take the state, whose
//! [`FastState::arch`] they consult where a page has a one-chip detail. An instruction the state's
//! chip cannot encode (an opcode it lacks, a field it does not have, a value too wide for its
//! field: `Instr` is the union of both chips' instructions) executes nothing and is reported as
//! [`Clause::NotOnChip`](sfpu_reference::outcome::Clause::NotOnChip) ([`on_chip`]).
//!
//! The entry points here ([`execute_regular`], [`execute`], [`sfpload`]) run the copy of the
//! models compiled for the SIMD level in force (`crate::simd`); the models themselves, written
//! once, are this module's `models.rs`, below `simd`, which compiles them per level.
//!
//! [`step`] is the single-instruction view used for differential testing: a regular instruction
//! runs directly (nothing can stall it or collide with it when it is alone); a lone SFPLOADMACRO
//! runs its load part and then its whole schedule on a fresh [`FastMachine`](crate::FastMachine),
//! as the reference's `step` contract says. It is the machine's (`crate::machine`), which is built
//! on this module, and is re-exported here.

mod models;

use sfpu_reference::isa::{Arch, Instr};
use sfpu_reference::outcome::Outcome;

pub use crate::ctx::{Ctx, w8};
pub use crate::machine::step;
pub(crate) use models::{ANY_OP, execute_on, execute_op, regular_with, sfpload_on};
pub use models::{backdoor_vd, has_g12, is_two_cycle_producer, on_chip};

use crate::state::FastState;

/// A regular (thread-issued) instruction: the backdoor-load rule, then the functional model.
///
/// Backdoor load (`SFPCONFIG.md`, `docs/spec/sfpu-blackhole.md#backdoor-load`), interpretation
/// recorded here: with `DISABLE_BACKDOOR_LOAD` clear in a lane, an instruction whose `VD` field is
/// 12 or more is a write of its instruction word to `InstructionTemplate[VD - 12]` of that lane
/// *instead of executing there*. The functional models express "instead of executing" with their
/// `VD < 12 || DISABLE_BACKDOOR_LOAD` guard, so the word is written in every lane where that guard
/// fails (whether or not the lane is enabled: the guard sits outside `LaneEnabled`). Instructions
/// whose model has no such guard write nothing (their own `VD < 8` / `VD < 8 || VD == 16` checks
/// already make them do nothing to LRegs). Either way the lanes with `DISABLE_BACKDOOR_LOAD` clear
/// are reported under [`Clause::BackdoorLoad`](sfpu_reference::outcome::Clause::BackdoorLoad),
/// because the pages do not say which instructions, lanes or side effects are involved.
pub fn execute_regular(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
    if s.is_wormhole() { regular_wormhole(s, instr, out) } else { regular::<false>(s, instr, out) }
}

/// [`regular`] for Wormhole, kept out of line: with both copies inlined here, the Blackhole path
/// paid for the larger function (a few instructions per call, measured with cachegrind).
#[inline(never)]
fn regular_wormhole(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
    regular::<true>(s, instr, out)
}

/// [`execute_regular`] on the chip of `WH` (`true`: Wormhole), which the caller has checked is the
/// state's: one copy per chip, so that the chip is a constant inside.
#[inline(always)]
fn regular<const WH: bool>(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
    let arch = if WH { Arch::Wormhole } else { Arch::Blackhole };
    let vd = || backdoor_vd(instr).filter(|&vd| vd >= 12).map(|vd| vd as usize);
    // The instruction's own copy of its model (as decoded programs run it), not the dispatch
    // over every model.
    let handlers = crate::simd::Handlers::current(WH);
    let execute = |s: &mut FastState, out: &mut Outcome| handlers.execute(s, instr, instr.opcode(), out);
    regular_with(s, instr, on_chip(arch, instr), vd, execute, out);
}

/// Executes the functional model of `instr` once, as `cx` says (no pipeline), on the state's
/// chip. SFPLOADMACRO here is only its SFPLOAD part; the scheduling is the machine's.
///
/// The models run in the copy compiled for the SIMD level in force (`simd::execute`): the copy
/// with every arm, not the per-opcode table (`simd::Handlers`) that decoded programs and `step`
/// use. The machine's scheduled instructions are this function's main callers, and sending them
/// through the table (with this copy removed) made the mixed stream about 7% slower (scratch
/// loop on the bench's program, 21.7-22.3 against 23.4-24.5 ns per instruction, alternating).
#[inline]
pub fn execute(s: &mut FastState, instr: &Instr, cx: &Ctx, out: &mut Outcome) {
    crate::simd::execute(s, instr, cx, out)
}

/// The SFPLOAD of the state's chip (also the load part of SFPLOADMACRO). Returns the computed
/// `Addr`, which an SFPLOADMACRO passes to the SFPSTORE it schedules. Runs the copy compiled for
/// the SIMD level in force (`simd::sfpload`), as [`execute`] does.
#[inline]
pub fn sfpload(s: &mut FastState, vd: u32, mod0: u32, addr_mod: u32, imm10: u32, out: &mut Outcome) -> u32 {
    crate::simd::sfpload(s, vd, mod0, addr_mod, imm10, out)
}
