//! Predication shared by both chips: SFPSETCC, SFPENCC and SFPCOMPC, and the `BooleanOp` table of
//! the SFPPUSHC / SFPPOPC pages.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPENCC.md`
//! (@ `135471044308278122aec9664bd5f0935429205f`), identical to Wormhole's, and WormholeB0
//! `SFPSETCC.md` and `SFPCOMPC.md`, which the Blackhole stubs point to (`SFPCOMPC.md`'s
//! @ `1484148400c7063466da07324311a788a487cc42`). `BooleanOp` is the same on both chips'
//! `SFPPOPC.md` (WormholeB0 @ `f7fda211c86e1977ff430076cf52b96a7aba8cca`).
//!
//! SFPSETCC only changes `LaneFlags` in enabled lanes; SFPENCC and SFPCOMPC act on every lane that
//! passes the `VD < 12` guard (`docs/spec/sfpu-blackhole.md#seed-1-sfpencc-and-disabled-lanes` and
//! the seed differences after it).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::state::{FlagStackEntry, LANES, State};

/// `SFPSETCC`: in enabled lanes, set `LaneFlags` from `VC < 0`, `!= 0`, `>= 0`, `== 0` (as a
/// two's complement integer), from `Imm1`, or clear it; always false while
/// `UseLaneFlagsForLaneEnable` is false.
///
/// Transcribes WormholeB0 `SFPSETCC.md` § "Functional model".
pub fn SFPSETCC(s: &mut State, cx: &Ctx, Imm1: u32, VC: usize, VD: usize, Mod1: u32) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                if !s.UseLaneFlagsForLaneEnable[Lane] {
                    s.LaneFlags[Lane] = false;
                } else if Mod1 & SFPSETCC_MOD1_CLEAR != 0 {
                    s.LaneFlags[Lane] = false;
                } else if Mod1 & SFPSETCC_MOD1_IMM_BIT0 != 0 {
                    s.LaneFlags[Lane] = Imm1 != 0;
                } else {
                    let c = s.LReg[VC][Lane] as i32;
                    // Mod1 is 0, 2, 4 or 6 here: the other values took a branch above.
                    match Mod1 {
                        SFPSETCC_MOD1_LREG_LT0 => s.LaneFlags[Lane] = c < 0,
                        SFPSETCC_MOD1_LREG_NE0 => s.LaneFlags[Lane] = c != 0,
                        SFPSETCC_MOD1_LREG_GTE0 => s.LaneFlags[Lane] = c >= 0,
                        SFPSETCC_MOD1_LREG_EQ0 => s.LaneFlags[Lane] = c == 0,
                        _ => {}
                    }
                }
            }
        }
    }
}

/// `SFPENCC`: in every lane passing the guard (enabled or not), set, keep or invert
/// `UseLaneFlagsForLaneEnable`, and set `LaneFlags` to `true` or from `Imm2`.
///
/// Transcribes BlackholeA0 `SFPENCC.md` § "Functional model".
pub fn SFPENCC(s: &mut State, cx: &Ctx, Imm2: u32, VD: usize, Mod1: u32) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if Mod1 & SFPENCC_MOD1_EI != 0 {
                s.UseLaneFlagsForLaneEnable[Lane] = (Imm2 & SFPENCC_IMM2_E) != 0;
            } else if Mod1 & SFPENCC_MOD1_EC != 0 {
                s.UseLaneFlagsForLaneEnable[Lane] = !s.UseLaneFlagsForLaneEnable[Lane];
            } else {
                // UseLaneFlagsForLaneEnable left as-is.
            }

            if Mod1 & SFPENCC_MOD1_RI != 0 {
                s.LaneFlags[Lane] = (Imm2 & SFPENCC_IMM2_R) != 0;
            } else {
                s.LaneFlags[Lane] = true;
            }
        }
    }
}

/// `BooleanOp(Mod1, A, B)` of `SFPPUSHC.md` / `SFPPOPC.md`, for `Mod1` 1..=12.
pub fn BooleanOp(Mod1: u32, A: bool, B: bool) -> bool {
    match Mod1 {
        1 => B,
        2 => !B,
        3 => A && B,
        4 => A || B,
        5 => A && !B,
        6 => A || !B,
        7 => !A && B,
        8 => !A || B,
        9 => !A && !B,
        10 => !A || !B,
        11 => A != B,
        12 => A == B,
        // The pages call BooleanOp only for 1..=12; the C function has no value otherwise.
        _ => false,
    }
}

/// `SFPCOMPC`: in every lane passing the guard, `LaneFlags = Top.LaneFlags && !LaneFlags` when both
/// the top entry and the current state use lane flags, else `false` (the `else` of SIMT
/// `if`/`else`).
///
/// Transcribes WormholeB0 `SFPCOMPC.md` § "Functional model".
pub fn SFPCOMPC(s: &mut State, cx: &Ctx, VD: usize) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            // Peek at stack top.
            let Top = match s.FlagStack[Lane].top() {
                None => FlagStackEntry { UseLaneFlagsForLaneEnable: true, LaneFlags: true },
                Some(top) => top,
            };

            // Invert LaneFlags, subject to Top.
            if Top.UseLaneFlagsForLaneEnable && s.UseLaneFlagsForLaneEnable[Lane] {
                s.LaneFlags[Lane] = Top.LaneFlags && !s.LaneFlags[Lane];
            } else {
                s.LaneFlags[Lane] = false;
            }
        }
    }
}
