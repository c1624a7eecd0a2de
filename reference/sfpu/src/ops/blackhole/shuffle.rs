//! Blackhole's SFPSHFT2 (round sub-unit), whose `SUBVEC_SHFLSHR1` mode shifts in zeros.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPSHFT2.md`
//! (@ `41d2c717775aef45b428b287144bd96353f4a9d6`) § "Functional model".
//!
//! That revision ends the switch with `default: UndefinedBehavior();`, so Mod1 7..15 are
//! undefined ([`Clause::Sfpshft2UndefinedMod1`], as on Wormhole), not merely without effect as in
//! an older revision without the label; the newer page wins.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::shared::shuffle::{RotateRight, guard_outside_lane_loop};
use crate::ops::{Ctx, sign_extend12};
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `SFPSHFT2`: `LReg[0..4]` shifting (COPY4 and its chained and rotating variants), lane rotation
/// or shift within groups of 8, and bitwise shifts of `VB` by `VC` or `Imm12`.
///
/// Transcribes BlackholeA0 `SFPSHFT2.md` § "Functional model". `Imm12` is the whole field
/// `[23:12]`; outside `SFPSHFT2_MOD1_SHFT_IMM` only its low four bits (`VB`) are drawn, and set
/// upper bits are reported (`docs/spec/sfpu-blackhole.md#undrawn-bits`). Mod1 7..15 are
/// `UndefinedBehavior()` ([`Clause::Sfpshft2UndefinedMod1`]; nothing is written).
pub fn SFPSHFT2(s: &mut State, cx: &Ctx, Imm12: u32, VC: usize, VD: usize, Mod1: u32, out: &mut Outcome) {
    if Mod1 != SFPSHFT2_MOD1_SHFT_IMM && Imm12 >> 4 != 0 {
        out.note_all(Clause::UndrawnBits);
    }
    // The VB field is bits [15:12]; SFPLOADMACRO may have replaced it (`Insn.VB = VD`).
    let VB = cx.vb((Imm12 & 15) as usize);
    match Mod1 {
        SFPSHFT2_MOD1_COPY4 => {
            for Lane in 0..LANES {
                if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
                    if s.IsLaneEnabled(Lane) {
                        s.LReg[0][Lane] = s.LReg[1][Lane];
                        s.LReg[1][Lane] = s.LReg[2][Lane];
                        s.LReg[2][Lane] = s.LReg[3][Lane];
                        s.LReg[3][Lane] = 0;
                    }
                }
            }
        }
        SFPSHFT2_MOD1_SUBVEC_CHAINED_COPY4 => {
            let v0 = s.LReg[0];
            for Lane in 0..LANES {
                if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
                    if s.IsLaneEnabled(Lane) {
                        s.LReg[0][Lane] = s.LReg[1][Lane];
                        s.LReg[1][Lane] = s.LReg[2][Lane];
                        s.LReg[2][Lane] = s.LReg[3][Lane];
                        s.LReg[3][Lane] = if Lane < 24 { v0[Lane + 8] } else { 0 };
                    }
                }
            }
        }
        SFPSHFT2_MOD1_SUBVEC_SHFLROR1_AND_COPY4 => {
            if guard_outside_lane_loop(s, cx, VD, out) {
                let vc = s.LReg[VC];
                for Lane in 0..LANES {
                    if s.IsLaneEnabled(Lane) {
                        s.LReg[0][Lane] = s.LReg[1][Lane];
                        s.LReg[1][Lane] = s.LReg[2][Lane];
                        s.LReg[2][Lane] = s.LReg[3][Lane];
                        s.LReg[3][Lane] = RotateRight(&vc, Lane);
                    }
                }
            }
        }
        SFPSHFT2_MOD1_SUBVEC_SHFLROR1 => {
            if guard_outside_lane_loop(s, cx, VD, out) {
                let vc = s.LReg[VC];
                if VD < 8 || VD == 16 {
                    for Lane in 0..LANES {
                        if s.IsLaneEnabled(Lane) {
                            s.LReg[VD][Lane] = RotateRight(&vc, Lane);
                        }
                    }
                }
            }
        }
        SFPSHFT2_MOD1_SUBVEC_SHFLSHR1 => {
            if VD < 8 || VD == 16 {
                let vc = s.LReg[VC];
                for Lane in 0..LANES {
                    if s.IsLaneEnabled(Lane) {
                        s.LReg[VD][Lane] = if Lane & 7 != 0 { vc[Lane - 1] } else { 0 };
                    }
                }
            }
        }
        SFPSHFT2_MOD1_SHFT_LREG => {
            if VD < 8 || VD == 16 {
                for Lane in 0..LANES {
                    if s.IsLaneEnabled(Lane) {
                        let vc = s.LReg[VC][Lane] as i32;
                        if vc >= 0 {
                            s.LReg[VD][Lane] = s.LReg[VB][Lane] << (vc & 31);
                        } else {
                            s.LReg[VD][Lane] = s.LReg[VB][Lane] >> (vc.wrapping_neg() & 31);
                        }
                    }
                }
            }
        }
        SFPSHFT2_MOD1_SHFT_IMM => {
            if VD < 8 || VD == 16 {
                let Imm12 = sign_extend12(Imm12);
                for Lane in 0..LANES {
                    if s.IsLaneEnabled(Lane) {
                        // unsigned VB = Imm12 & 15; (skipped when SFPLOADMACRO set Insn.VB = VD)
                        if Imm12 >= 0 {
                            s.LReg[VD][Lane] = s.LReg[VB][Lane] << (Imm12 & 31);
                        } else {
                            s.LReg[VD][Lane] = s.LReg[VB][Lane] >> (Imm12.wrapping_neg() & 31);
                        }
                    }
                }
            }
        }
        _ => {
            out.note_all(Clause::Sfpshft2UndefinedMod1); // default: UndefinedBehavior();
        }
    }
}
