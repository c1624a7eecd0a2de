//! Wormhole's own bitwise pages: SFPAND and SFPOR (`VD op= VC`, no `USE_VB`), and SFPSHFT (logical
//! shifts of `VD` only).
//!
//! Transcribes tt-isa-documentation WormholeB0 `SFPAND.md`, `SFPOR.md` and `SFPSHFT.md`
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`) § "Functional model". Blackhole's pages are in
//! [`ops::blackhole::integer`](crate::ops::blackhole::integer).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::{Ctx, sign_extend12};
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `SFPSHFT`: lanewise logical shift of `VD` by `VC` or `Imm12`; negative amounts shift right.
///
/// Transcribes WormholeB0 `SFPSHFT.md` § "Functional model", including its
/// `NonContractualBehavior` for the reserved Mod1 values above 1 (current silicon: `Mod1 & 1`).
pub fn SFPSHFT(s: &mut State, cx: &Ctx, Imm12: u32, VC: usize, VD: usize, mut Mod1: u32, out: &mut Outcome) {
    if Mod1 > 1 {
        // Reserved/unsupported instruction modifiers.
        out.note_all(Clause::SfpshftReservedMod1);
        Mod1 &= 1; // Current silicon behavior (not architecturally guaranteed).
    }
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let ShiftAmount = if Mod1 & SFPSHFT_MOD1_ARG_IMM != 0 {
                    sign_extend12(Imm12)
                } else {
                    s.LReg[VC][Lane] as i32
                };
                if ShiftAmount >= 0 {
                    s.LReg[VD][Lane] = s.LReg[VB][Lane] << (ShiftAmount & 31);
                } else {
                    s.LReg[VD][Lane] = s.LReg[VB][Lane] >> (ShiftAmount.wrapping_neg() & 31);
                }
            }
        }
    }
}

/// `SFPAND`: lanewise `VD = VD & VC`.
///
/// Transcribes WormholeB0 `SFPAND.md` § "Functional model".
pub fn SFPAND(s: &mut State, cx: &Ctx, VC: usize, VD: usize) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                s.LReg[VD][Lane] = s.LReg[VB][Lane] & s.LReg[VC][Lane];
            }
        }
    }
}

/// `SFPOR`: lanewise `VD = VD | VC`.
///
/// Transcribes WormholeB0 `SFPOR.md` § "Functional model".
pub fn SFPOR(s: &mut State, cx: &Ctx, VC: usize, VD: usize) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                s.LReg[VD][Lane] = s.LReg[VB][Lane] | s.LReg[VC][Lane];
            }
        }
    }
}
