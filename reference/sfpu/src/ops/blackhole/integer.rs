//! Blackhole's own bitwise pages: SFPAND and SFPOR (with `USE_VB`), and SFPSHFT (with
//! `ARITHMETIC` and `ARG_IMM_USE_VC`).
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPAND.md`, `SFPOR.md`, `SFPSHFT.md`
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`) § "Functional model".

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::{Ctx, sign_extend12};
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `SFPSHFT`: lanewise logical or arithmetic shift of `VD` (or `VC`) by `VC` or `Imm12`; negative
/// amounts shift right.
///
/// Transcribes BlackholeA0 `SFPSHFT.md` § "Functional model", including its
/// `NonContractualBehavior` for the reserved Mod1 values 4, 6 and 8..15
/// (`docs/spec/sfpu-blackhole.md#sfpshft-reserved-mod1`).
pub fn SFPSHFT(s: &mut State, cx: &Ctx, Imm12: u32, VC: usize, VD: usize, mut Mod1: u32, out: &mut Outcome) {
    if (Mod1 > 7) || (Mod1 == 4) || (Mod1 == 6) {
        // Reserved/unsupported instruction modifiers.
        out.note_all(Clause::SfpshftReservedMod1);
        if (Mod1 == 4) || (Mod1 == 6) {
            Mod1 &= !4; // Current silicon behavior (not architecturally guaranteed).
        } else {
            Mod1 &= 7; // Current silicon behavior (not architecturally guaranteed).
        }
    }
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let mut x = s.LReg[VB][Lane];
                let mut ShiftAmount = s.LReg[VC][Lane] as i32;
                if Mod1 & SFPSHFT_MOD1_ARG_IMM != 0 {
                    if Mod1 & SFPSHFT_MOD1_ARG_IMM_USE_VC != 0 {
                        x = ShiftAmount as u32;
                    }
                    ShiftAmount = sign_extend12(Imm12);
                }
                if ShiftAmount >= 0 {
                    s.LReg[VD][Lane] = x << (ShiftAmount & 31);
                } else if Mod1 & SFPSHFT_MOD1_ARITHMETIC != 0 {
                    s.LReg[VD][Lane] = ((x as i32) >> (ShiftAmount.wrapping_neg() & 31)) as u32;
                } else {
                    s.LReg[VD][Lane] = x >> (ShiftAmount.wrapping_neg() & 31);
                }
            }
        }
    }
}

/// `SFPAND`: lanewise `VD = (USE_VB ? VB : VD) & VC`.
///
/// Transcribes BlackholeA0 `SFPAND.md` § "Functional model". Under SFPLOADMACRO, `VB` and `VD`
/// are the fields as the macro logic left them; the page has no `unsigned VB = VD;` to skip.
pub fn SFPAND(s: &mut State, VB: usize, VC: usize, VD: usize, Mod1: u32) {
    let vb = if Mod1 & SFPAND_MOD1_USE_VB != 0 { VB } else { VD };
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                s.LReg[VD][Lane] = s.LReg[vb][Lane] & s.LReg[VC][Lane];
            }
        }
    }
}

/// `SFPOR`: lanewise `VD = (USE_VB ? VB : VD) | VC`.
///
/// Transcribes BlackholeA0 `SFPOR.md` § "Functional model" (see [`SFPAND`] on SFPLOADMACRO).
pub fn SFPOR(s: &mut State, VB: usize, VC: usize, VD: usize, Mod1: u32) {
    let vb = if Mod1 & SFPOR_MOD1_USE_VB != 0 { VB } else { VD };
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                s.LReg[VD][Lane] = s.LReg[vb][Lane] | s.LReg[VC][Lane];
            }
        }
    }
}
