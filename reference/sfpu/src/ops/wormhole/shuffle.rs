//! Wormhole's SFPSHFT2 (round sub-unit), whose `SUBVEC_SHFLSHR1` mode has a hardware bug: lane 0
//! of each group of eight receives a stale value rather than 0.
//!
//! Transcribes tt-isa-documentation WormholeB0 `SFPSHFT2.md`
//! (@ `a052bcc95da50343edb5ff0baff874e229266dc0`) § "Functional model". That revision is taken as
//! the newest of the stored ones: it refines `135471044308278122aec9664bd5f0935429205f` (same
//! model) by adding `default: UndefinedBehavior();` for Mod1 7..15 and marking the bug
//! `NonContractualBehavior`. Blackhole's page is in
//! [`ops::blackhole::shuffle`](crate::ops::blackhole::shuffle). The choice of revision:
//! `docs/spec/sfpu-wormhole.md#sfpshft2-revision`.
//!
//! The bug's "`vc0` is whatever the most recent `SUBVEC_SHFLROR1_AND_COPY4` or `SUBVEC_SHFLROR1`
//! with `VD < 12` observed when executing its `auto vc = LReg[VC]`" is hidden state the hardware
//! keeps, [`WormholeState::SFPSHFT2_vc0`](crate::state::WormholeState::SFPSHFT2_vc0), which a
//! vector can set and a DUT can report. It is updated by exactly the executions the sentence
//! names: those that reach `auto vc = LReg[VC]` with the instruction's `VD < 12` (so not one run
//! with `VD >= 12` under `DISABLE_BACKDOOR_LOAD`, nor one SFPLOADMACRO scheduled with `VD = 16`).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::shared::shuffle::{RotateRight, guard_outside_lane_loop};
use crate::ops::{Ctx, sign_extend12};
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// Records `vc` as the `vc0` the `SUBVEC_SHFLSHR1` bug will read, when `VD < 12`.
fn latch_vc0(s: &mut State, VD: usize, vc: [u32; LANES]) {
    if VD < 12 {
        if let Some(wh) = s.wormhole_mut() {
            wh.SFPSHFT2_vc0 = vc;
        }
    }
}

/// `SFPSHFT2`: `LReg[0..4]` shifting (COPY4 and its chained and rotating variants), lane rotation
/// or shift within groups of 8, and bitwise shifts of `VB` by `VC` or `Imm12`.
///
/// Transcribes WormholeB0 `SFPSHFT2.md` § "Functional model". `Imm12` is the whole field `[23:12]`;
/// outside `SFPSHFT2_MOD1_SHFT_IMM` only its low four bits (`VB`) are drawn, and set upper bits are
/// reported (`docs/spec/sfpu-blackhole.md#undrawn-bits`). `HardwareBug()` is `vc0[Lane + 7]`
/// (`NonContractualBehavior`, [`Clause::Sfpshft2Shflshr1StaleLane`]); Mod1 7..15 are
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
                latch_vc0(s, VD, vc);
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
                latch_vc0(s, VD, vc);
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
                let vc0 = s.wormhole().map_or([0; LANES], |wh| wh.SFPSHFT2_vc0);
                for Lane in 0..LANES {
                    if s.IsLaneEnabled(Lane) {
                        s.LReg[VD][Lane] = if Lane & 7 != 0 {
                            vc[Lane - 1]
                        } else {
                            // HardwareBug(): meant to be 0, evaluates to vc0[Lane + 7].
                            out.note_lane(Clause::Sfpshft2Shflshr1StaleLane, Lane);
                            vc0[Lane + 7]
                        };
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
