//! Executing one instruction: one match arm per opcode, calling the function that transcribes its
//! page, plus the backdoor-load rule that sits outside the pages' functional models.
//!
//! [`step`] is the single-instruction view: it issues one instruction to a fresh
//! [`Machine`](crate::Machine) and lets anything SFPLOADMACRO scheduled run to completion. Programs
//! that interleave regular and scheduled instructions use the `Machine` directly.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::{Instr, Opcode};
use crate::machine::Machine;
use crate::ops::{self, Ctx};
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// Executes `instr` on `s` as if the thread issued it alone, and says what the specification
/// promises about the effect.
///
/// An SFPLOADMACRO's scheduled instructions run to completion before this returns (so `step` on a
/// lone SFPLOADMACRO is the load plus its whole sequence). Never panics, for any `Instr` and any
/// `State`.
pub fn step(s: &mut State, instr: &Instr) -> Outcome {
    let mut m = Machine::new();
    let mut out = m.issue(s, instr);
    out.merge(&m.drain(s));
    out
}

/// Whether the instruction's functional model guards its effect with
/// `VD < 12 || LaneConfig[Lane].DISABLE_BACKDOOR_LOAD` (spec §2.5, "G12 present").
fn has_backdoor_guard(instr: &Instr) -> bool {
    use Opcode::*;
    match instr {
        Instr::SFPCAST { Mod1, .. } => Mod1.get() & 3 <= 1, // only the SM32 -> FP32 flavour
        Instr::SFPSHFT2 { Mod1, .. } => Mod1.get() <= 3,    // modes 0..3
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
        _ => instr.field_values().iter().find(|(name, _)| *name == "VD").map(|&(_, v)| v as usize),
    }
}

/// The backdoor load (`SFPCONFIG.md`, LaneConfig table): with `DISABLE_BACKDOOR_LOAD` false, an
/// instruction with `VD >= 12` is a write of its instruction word to
/// `LoadMacroConfig.InstructionTemplate[VD - 12]` instead of executing.
///
/// Which instructions, which lanes and which side effects are not specified (spec §2.5, §6.3
/// item 14). This model: instructions whose functional model carries the `VD < 12 ||
/// DISABLE_BACKDOOR_LOAD` guard write the word in every lane whose guard fails (enabled or not);
/// for the others the page's model writes nothing, and that is what happens here. Either way the
/// lanes concerned are reported as unspecified.
fn backdoor_load(s: &mut State, cx: &Ctx, instr: &Instr, out: &mut Outcome) {
    if cx.scheduled {
        return; // DISABLE_BACKDOOR_LOAD reads as true under SFPLOADMACRO.
    }
    let Some(VD) = backdoor_vd(instr) else { return };
    if VD < 12 {
        return;
    }
    let word = instr.encode();
    let writes = has_backdoor_guard(instr);
    for Lane in 0..LANES {
        if !s.LaneConfig[Lane].DISABLE_BACKDOOR_LOAD() {
            out.note_lane(Clause::BackdoorLoad, Lane);
            if writes {
                s.LoadMacroConfig[Lane].InstructionTemplate[VD - 12] = word;
            }
        }
    }
}

/// Executes `instr` once, issued as `cx` says, without any pipeline: the functional model of its
/// page. SFPLOADMACRO here is only its SFPLOAD part; scheduling is the [`Machine`]'s.
pub fn execute(s: &mut State, instr: &Instr, cx: &Ctx) -> Outcome {
    let mut out = Outcome::defined();
    let o = &mut out;
    match *instr {
        Instr::SFPLOAD { VD, Mod0, AddrMod, Imm10 } => {
            ops::load_store::SFPLOAD(s, VD.idx(), Mod0.get(), AddrMod.get(), Imm10.get(), o);
        }
        Instr::SFPLOADI { VD, Mod0, Imm16 } => ops::mov::SFPLOADI(s, VD.idx(), Mod0.get(), Imm16.get(), o),
        Instr::SFPSTORE { VD, Mod0, AddrMod, Imm10 } => {
            ops::load_store::SFPSTORE(s, cx, cx.vd(VD.idx()), Mod0.get(), AddrMod.get(), Imm10.get(), o)
        }
        Instr::SFPLUT { VD, Mod0 } => ops::lut::SFPLUT(s, cx, cx.vd(VD.idx()), Mod0.get()),
        Instr::SFPMULI { Imm16, VD, Mod1 } => {
            ops::mad::SFPMULI(s, cx, Imm16.get(), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPADDI { Imm16, VD, Mod1 } => {
            ops::mad::SFPADDI(s, cx, Imm16.get(), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPDIVP2 { Imm8, VC, VD, Mod1 } => {
            ops::field::SFPDIVP2(s, Imm8.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPEXEXP { VC, VD, Mod1 } => {
            ops::field::SFPEXEXP(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPEXMAN { VC, VD, Mod1 } => {
            ops::field::SFPEXMAN(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPIADD { Imm12, VC, VD, Mod1 } => {
            ops::integer::SFPIADD(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPSHFT { Imm12, VC, VD, Mod1 } => {
            ops::integer::SFPSHFT(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPSETCC { Imm1, VC, VD, Mod1 } => {
            ops::cc::SFPSETCC(s, cx, Imm1.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPMOV { VC, VD, Mod1 } => {
            ops::mov::SFPMOV(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPABS { VC, VD, Mod1 } => ops::field::SFPABS(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get()),
        Instr::SFPAND { VB, VC, VD, Mod1 } => {
            ops::integer::SFPAND(s, cx.vb(VB.idx()), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPOR { VB, VC, VD, Mod1 } => {
            ops::integer::SFPOR(s, cx.vb(VB.idx()), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPNOT { VC, VD } => ops::integer::SFPNOT(s, cx.vc(VC.idx()), cx.vd(VD.idx())),
        Instr::SFPLZ { VC, VD, Mod1 } => ops::integer::SFPLZ(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get()),
        Instr::SFPSETEXP { Imm8, VC, VD, Mod1 } => {
            ops::field::SFPSETEXP(s, cx, Imm8.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPSETMAN { Imm12, VC, VD, Mod1 } => {
            ops::field::SFPSETMAN(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPMAD { VA, VB, VC, VD, Mod1 }
        | Instr::SFPADD { VA, VB, VC, VD, Mod1 }
        | Instr::SFPMUL { VA, VB, VC, VD, Mod1 } => {
            ops::mad::SFPMAD(s, cx, VA.idx(), cx.vb(VB.idx()), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPPUSHC { VD, Mod1 } => ops::cc::SFPPUSHC(s, cx, cx.vd(VD.idx()), Mod1.get(), o),
        Instr::SFPPOPC { VD, Mod1 } => ops::cc::SFPPOPC(s, cx, cx.vd(VD.idx()), Mod1.get(), o),
        Instr::SFPSETSGN { Imm1, VC, VD, Mod1 } => {
            ops::field::SFPSETSGN(s, cx, Imm1.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPENCC { Imm2, VD, Mod1 } => ops::cc::SFPENCC(s, cx, Imm2.get(), cx.vd(VD.idx()), Mod1.get()),
        Instr::SFPCOMPC { VD } => ops::cc::SFPCOMPC(s, cx, cx.vd(VD.idx())),
        Instr::SFPTRANSP { VD } => ops::shuffle::SFPTRANSP(s, cx, cx.vd(VD.idx()), o),
        Instr::SFPXOR { VC, VD } => ops::integer::SFPXOR(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx())),
        Instr::SFPSTOCHRND { RoundingMode, Imm5, VB, VC, VD, UseImm5, Mod1 } => ops::convert::SFPSTOCHRND(
            s,
            cx,
            RoundingMode.get(),
            Imm5.get(),
            cx.vb(VB.idx()),
            cx.vc(VC.idx()),
            cx.vd(VD.idx()),
            UseImm5.get(),
            Mod1.get(),
            o,
        ),
        Instr::SFPNOP {} => ops::mov::SFPNOP(),
        Instr::SFPCAST { VC, VD, Mod1 } => {
            ops::convert::SFPCAST(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPCONFIG { Imm16, VD, Mod1 } => {
            // SFPLOADMACRO.md overrides `Insn.VD` unconditionally for scheduled non-store
            // instructions; for SFPCONFIG that is the configuration selector.
            ops::config::SFPCONFIG(s, Imm16.get(), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPSWAP { VC, VD, Mod1 } => {
            ops::shuffle::SFPSWAP(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPLOADMACRO { VDLo, Mod0, AddrMod, Imm9, VDHi, .. } => {
            // The SFPLOAD part, with VD = VDHi << 2 | VDLo and Imm10 = Imm9 << 1 | VDHi.
            let VD = (VDHi.idx() << 2) | VDLo.idx();
            let Imm10 = (Imm9.get() << 1) | VDHi.get();
            ops::load_store::SFPLOAD(s, VD, Mod0.get(), AddrMod.get(), Imm10, o);
        }
        Instr::SFPSHFT2 { Imm12, VC, VD, Mod1 } => {
            ops::shuffle::SFPSHFT2(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPLUTFP32 { VD, Mod1, .. } => ops::lut::SFPLUTFP32(s, cx, cx.vd(VD.idx()), Mod1.get()),
        Instr::SFPLE { VC, VD, Mod1 } => ops::cc::SFPLE(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get()),
        Instr::SFPGT { VC, VD, Mod1 } => ops::cc::SFPGT(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get()),
        Instr::SFPMUL24 { VA, VB, VC, VD, Mod1 } => ops::mad::SFPMUL24(
            s,
            cx,
            VA.idx(),
            cx.vb(VB.idx()),
            cx.vc(VC.idx()),
            cx.vd(VD.idx()),
            Mod1.get(),
            o,
        ),
        Instr::SFPARECIP { VB, VC, VD, Mod1 } => {
            ops::arecip::SFPARECIP(s, cx.vb(VB.idx()), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
    }
    backdoor_load(s, cx, instr, o);
    out
}
