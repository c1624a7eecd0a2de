//! Wormhole's dispatch: one arm per opcode, calling the function that transcribes the page, from
//! [`ops::shared`](crate::ops::shared) where both chips share it and
//! [`ops::wormhole`](crate::ops::wormhole) where Wormhole has its own. Side by side with
//! [`exec::blackhole`](super::blackhole), the arms that differ are the chips' differences.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::Instr;
use crate::ops::{Ctx, shared, wormhole};
use crate::outcome::{Clause, Outcome};
use crate::state::State;

/// Executes `instr` on Wormhole, issued as `cx` says: the functional model of its page. The
/// caller ([`execute`](super::execute)) has checked that Wormhole can express `instr`, so the
/// fields Wormhole's encoding lacks are zero.
pub fn execute(s: &mut State, instr: &Instr, cx: &Ctx, o: &mut Outcome) {
    match *instr {
        Instr::SFPLOAD { VD, Mod0, AddrMod, Imm10 } => {
            wormhole::load_store::SFPLOAD(s, VD.idx(), Mod0.get(), AddrMod.get(), Imm10.get(), o);
        }
        Instr::SFPLOADI { VD, Mod0, Imm16 } => shared::mov::SFPLOADI(s, VD.idx(), Mod0.get(), Imm16.get(), o),
        Instr::SFPSTORE { VD, Mod0, AddrMod, Imm10 } => {
            wormhole::load_store::SFPSTORE(s, cx, cx.vd(VD.idx()), Mod0.get(), AddrMod.get(), Imm10.get(), o)
        }
        Instr::SFPLUT { VD, Mod0 } => shared::lut::SFPLUT(s, cx, cx.vd(VD.idx()), Mod0.get()),
        Instr::SFPMULI { Imm16, VD, Mod1 } => {
            wormhole::mad::SFPMULI(s, cx, Imm16.get(), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPADDI { Imm16, VD, Mod1 } => {
            wormhole::mad::SFPADDI(s, cx, Imm16.get(), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPDIVP2 { Imm8, VC, VD, Mod1 } => {
            shared::field::SFPDIVP2(s, Imm8.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPEXEXP { VC, VD, Mod1 } => {
            shared::field::SFPEXEXP(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPEXMAN { VC, VD, Mod1 } => {
            shared::field::SFPEXMAN(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPIADD { Imm12, VC, VD, Mod1 } => {
            shared::integer::SFPIADD(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPSHFT { Imm12, VC, VD, Mod1 } => {
            wormhole::integer::SFPSHFT(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPSETCC { Imm1, VC, VD, Mod1 } => {
            shared::cc::SFPSETCC(s, cx, Imm1.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPMOV { VC, VD, Mod1 } => {
            shared::mov::SFPMOV(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPABS { VC, VD, Mod1 } => {
            shared::field::SFPABS(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPAND { VC, VD, .. } => wormhole::integer::SFPAND(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx())),
        Instr::SFPOR { VC, VD, .. } => wormhole::integer::SFPOR(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx())),
        Instr::SFPNOT { VC, VD } => shared::integer::SFPNOT(s, cx.vc(VC.idx()), cx.vd(VD.idx())),
        Instr::SFPLZ { VC, VD, Mod1 } => {
            shared::integer::SFPLZ(s, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPSETEXP { Imm8, VC, VD, Mod1 } => {
            shared::field::SFPSETEXP(s, cx, Imm8.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPSETMAN { Imm12, VC, VD, Mod1 } => {
            shared::field::SFPSETMAN(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPMAD { VA, VB, VC, VD, Mod1 }
        | Instr::SFPADD { VA, VB, VC, VD, Mod1 }
        | Instr::SFPMUL { VA, VB, VC, VD, Mod1 } => wormhole::mad::SFPMAD(
            s,
            cx,
            VA.idx(),
            cx.vb(VB.idx()),
            cx.vc(VC.idx()),
            cx.vd(VD.idx()),
            Mod1.get(),
            o,
        ),
        Instr::SFPPUSHC { VD, .. } => wormhole::cc::SFPPUSHC(s, cx, cx.vd(VD.idx()), o),
        Instr::SFPPOPC { VD, Mod1 } => wormhole::cc::SFPPOPC(s, cx, cx.vd(VD.idx()), Mod1.get(), o),
        Instr::SFPSETSGN { Imm1, VC, VD, Mod1 } => {
            shared::field::SFPSETSGN(s, cx, Imm1.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPENCC { Imm2, VD, Mod1 } => {
            shared::cc::SFPENCC(s, cx, Imm2.get(), cx.vd(VD.idx()), Mod1.get())
        }
        Instr::SFPCOMPC { VD } => shared::cc::SFPCOMPC(s, cx, cx.vd(VD.idx())),
        Instr::SFPTRANSP { VD } => shared::shuffle::SFPTRANSP(s, cx, cx.vd(VD.idx()), o),
        Instr::SFPXOR { VC, VD } => shared::integer::SFPXOR(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx())),
        // Wormhole's one-bit StochasticRounding is the low bit of the union field RoundingMode.
        Instr::SFPSTOCHRND { RoundingMode: StochasticRounding, Imm5, VB, VC, VD, UseImm5, Mod1 } => {
            wormhole::convert::SFPSTOCHRND(
                s,
                cx,
                StochasticRounding.get(),
                Imm5.get(),
                cx.vb(VB.idx()),
                cx.vc(VC.idx()),
                cx.vd(VD.idx()),
                UseImm5.get(),
                Mod1.get(),
            )
        }
        Instr::SFPNOP {} => shared::mov::SFPNOP(),
        Instr::SFPCAST { VC, VD, Mod1 } => {
            wormhole::convert::SFPCAST(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPCONFIG { Imm16, VD, Mod1 } => {
            // SFPLOADMACRO.md overrides `Insn.VD` unconditionally for scheduled non-store
            // instructions; for SFPCONFIG that is the configuration selector.
            shared::config::SFPCONFIG(s, Imm16.get(), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPSWAP { VC, VD, Mod1 } => {
            shared::shuffle::SFPSWAP(s, cx, cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPLOADMACRO { VDLo, Mod0, AddrMod, Imm9, VDHi, .. } => {
            // The SFPLOAD part, with VD = VDHi << 2 | VDLo and Imm10 = Imm9 << 1 | VDHi.
            let VD = (VDHi.idx() << 2) | VDLo.idx();
            let Imm10 = (Imm9.get() << 1) | VDHi.get();
            wormhole::load_store::SFPLOAD(s, VD, Mod0.get(), AddrMod.get(), Imm10, o);
        }
        Instr::SFPSHFT2 { Imm12, VC, VD, Mod1 } => {
            wormhole::shuffle::SFPSHFT2(s, cx, Imm12.get(), cx.vc(VC.idx()), cx.vd(VD.idx()), Mod1.get(), o)
        }
        Instr::SFPLUTFP32 { VD, Mod1, .. } => shared::lut::SFPLUTFP32(s, cx, cx.vd(VD.idx()), Mod1.get()),
        Instr::SFPLE { .. } | Instr::SFPGT { .. } | Instr::SFPMUL24 { .. } | Instr::SFPARECIP { .. } => {
            // Wormhole has no such instruction (opcodes 0x96..=0x99 are not SFPU instructions).
            o.note_all(Clause::NotOnChip);
        }
    }
}
