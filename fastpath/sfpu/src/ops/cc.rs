//! The predication ("condition code") instructions both chips share: SFPSETCC, SFPENCC, SFPCOMPC.
//! (Each chip's SFPPUSHC and SFPPOPC, and Blackhole's SFPGT and SFPLE, are in
//! [`super::blackhole::cc`] and [`super::wormhole::cc`].)
//!
//! Implements WormholeB0 `SFPSETCC.md`, `SFPCOMPC.md` (BlackholeA0 stubs) and `SFPENCC.md` (the
//! same on both chips).
//!
//! Everything here is whole-mask arithmetic on the bit-sliced `LaneFlags`,
//! `UseLaneFlagsForLaneEnable` and flag-stack words: a `BooleanOp` over 32 lanes is one or two
//! instructions.

use crate::exec::Ctx;
use crate::state::{FastState, nonzero_mask, sign_mask};

/// SFPSETCC: in enabled lanes passing the guard, `LaneFlags = false` unless
/// `UseLaneFlagsForLaneEnable`; else cleared by `CLEAR` (8), set from `Imm1` (`IMM_BIT0`, 1), or
/// an integer comparison of `VC` with zero (Mod1 0 `< 0`, 2 `!= 0`, 4 `>= 0`, 6 `== 0`).
#[inline(always)]
pub fn sfpsetcc(s: &mut FastState, imm1: u32, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let v = if mod1 & 8 != 0 {
        0
    } else if mod1 & 1 != 0 {
        if imm1 & 1 != 0 { !0 } else { 0 }
    } else {
        // Only the mask the mode tests, each a vectorised lane-bit gather.
        let c = &s.lreg[cx.vc(vc)];
        match mod1 {
            0 => sign_mask(c),
            2 => nonzero_mask(c),
            4 => !sign_mask(c),
            _ => !nonzero_mask(c),
        }
    };
    let v = v & s.use_flags;
    s.lane_flags = (s.lane_flags & !m) | (v & m);
}

/// SFPENCC: in every lane passing the guard (enabled or not), `UseLaneFlagsForLaneEnable` is set
/// from `Imm2` bit 0 (`EI`, 2), inverted (`EC`, 1) or kept; `LaneFlags` is set from `Imm2` bit 1
/// (`RI`, 8) or to true.
#[inline(always)]
pub fn sfpencc(s: &mut FastState, imm2: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd);
    if mod1 & 2 != 0 {
        let v = if imm2 & 1 != 0 { !0 } else { 0 };
        s.use_flags = (s.use_flags & !m) | (v & m);
    } else if mod1 & 1 != 0 {
        s.use_flags ^= m;
    }
    let f = if mod1 & 8 != 0 { if imm2 & 2 != 0 { !0 } else { 0 } } else { !0 };
    s.lane_flags = (s.lane_flags & !m) | (f & m);
}

/// SFPCOMPC: `LaneFlags = (top.Use && Use) ? top.LaneFlags && !LaneFlags : false`, where an empty
/// stack's top reads as `{true, true}`. Every lane passing the guard, enabled or not.
#[inline(always)]
pub fn sfpcompc(s: &mut FastState, vd: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd);
    let empty = !s.stack.nonempty();
    let top_f = s.stack.flags[0] | empty;
    let top_u = s.stack.uses[0] | empty;
    let f = top_u & s.use_flags & top_f & !s.lane_flags;
    s.lane_flags = (s.lane_flags & !m) | (f & m);
}
