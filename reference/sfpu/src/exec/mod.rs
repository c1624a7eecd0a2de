//! Executing one instruction: per chip, one match arm per opcode calling the function that
//! transcribes its page ([`blackhole`], [`wormhole`]), plus the backdoor-load rule that sits
//! outside the pages' functional models.
//!
//! [`step`], the single-instruction view, is the cycle-level [`Machine`](crate::Machine)'s (it
//! issues one instruction to a fresh machine and lets anything SFPLOADMACRO scheduled run to
//! completion), and is re-exported here, where it has always been named: the machine is built on
//! [`execute`], so this module does not use it.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

pub mod blackhole;
pub mod wormhole;

pub use crate::machine::step;

use crate::isa::{Arch, Instr, Opcode};
use crate::ops::Ctx;
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// Whether the instruction's functional model on `arch` guards its effect with
/// `VD < 12 || LaneConfig[Lane].DISABLE_BACKDOOR_LOAD` (`docs/spec/sfpu-blackhole.md#backdoor-load`).
fn has_backdoor_guard(arch: Arch, instr: &Instr) -> bool {
    use Opcode::*;
    match instr {
        // Blackhole: only the SM32 -> FP32 flavour page has the guard; Wormhole's one page has it.
        Instr::SFPCAST { Mod1, .. } => arch == Arch::Wormhole || Mod1.get() & 3 <= 1,
        Instr::SFPSHFT2 { Mod1, .. } => Mod1.get() <= 3, // modes 0..3
        other => matches!(
            other.opcode(),
            SFPMAD
                | SFPADD
                | SFPMUL
                | SFPADDI
                | SFPMULI
                | SFPMUL24
                | SFPLUT
                | SFPLUTFP32
                | SFPSTOCHRND
                | SFPMOV
                | SFPSWAP
                | SFPGT
                | SFPLE
                | SFPSETCC
                | SFPENCC
                | SFPPUSHC
                | SFPPOPC
                | SFPCOMPC
                | SFPTRANSP
                | SFPSTORE
        ),
    }
}

/// The instruction's `VD` field, for the backdoor-load rule; `None` where VD is not an LReg
/// (SFPCONFIG's configuration selector, SFPLOADMACRO's 3-bit VD, SFPNOP).
fn backdoor_vd(instr: &Instr) -> Option<usize> {
    match instr.opcode() {
        Opcode::SFPCONFIG | Opcode::SFPLOADMACRO | Opcode::SFPNOP => None,
        _ => instr.vd().map(|v| v as usize),
    }
}

/// The backdoor load (`SFPCONFIG.md`, LaneConfig table): with `DISABLE_BACKDOOR_LOAD` false, an
/// instruction with `VD >= 12` is a write of its instruction word to
/// `LoadMacroConfig.InstructionTemplate[VD - 12]` instead of executing.
///
/// Which instructions, which lanes and which side effects are not specified
/// (`docs/spec/sfpu-blackhole.md#backdoor-load`). This model: instructions whose functional model
/// carries the `VD < 12 || DISABLE_BACKDOOR_LOAD` guard write the word in every lane whose guard
/// fails (enabled or not); for the others the page's model writes nothing, and that is what happens
/// here. Either way the lanes concerned are reported as unspecified.
fn backdoor_load(s: &mut State, cx: &Ctx, instr: &Instr, out: &mut Outcome) {
    if cx.scheduled {
        return; // DISABLE_BACKDOOR_LOAD reads as true under SFPLOADMACRO.
    }
    let Some(VD) = backdoor_vd(instr) else { return };
    if VD < 12 {
        return;
    }
    let Ok(word) = instr.encode(s.arch()) else { return };
    let writes = has_backdoor_guard(s.arch(), instr);
    for Lane in 0..LANES {
        if !s.LaneConfig[Lane].DISABLE_BACKDOOR_LOAD() {
            out.note_lane(Clause::BackdoorLoad, Lane);
            if writes {
                s.LoadMacroConfig[Lane].InstructionTemplate[VD - 12] = word;
            }
        }
    }
}

/// Executes `instr` once on `s`'s chip, issued as `cx` says, without any pipeline: the functional
/// model of its page. SFPLOADMACRO here is only its SFPLOAD part; scheduling is the
/// [`Machine`](crate::Machine)'s.
///
/// An instruction the chip cannot express (an `Instr` built in Rust with an opcode or a field
/// value the chip's encoding lacks) executes nothing and is reported as [`Clause::NotOnChip`].
pub fn execute(s: &mut State, instr: &Instr, cx: &Ctx) -> Outcome {
    let mut out = Outcome::defined();
    match s.arch() {
        Arch::Blackhole => blackhole::execute(s, instr, cx, &mut out),
        Arch::Wormhole => {
            if !instr.fits(Arch::Wormhole) {
                out.note_all(Clause::NotOnChip);
                return out;
            }
            wormhole::execute(s, instr, cx, &mut out)
        }
    }
    backdoor_load(s, cx, instr, &mut out);
    out
}
