//! Cross-register and cross-lane data movement both chips share: SFPSWAP, SFPTRANSP, and the
//! helpers of each chip's SFPSHFT2 ([`super::blackhole::shuffle`], [`super::wormhole::shuffle`]).
//!
//! Implements BlackholeA0 `SFPSWAP.md` (WormholeB0's page has the same functional model) and
//! WormholeB0 `SFPTRANSP.md` (the BlackholeA0 page is a stub pointing there).
//!
//! Interpretation (`docs/spec/sfpu-blackhole.md#guard-outside-lane-loop`): SFPTRANSP and SFPSHFT2
//! modes 2 and 3 evaluate `VD < 12 || LaneConfig.DISABLE_BACKDOOR_LOAD` outside any lane loop, so
//! the page does not say whose `DISABLE_BACKDOOR_LOAD` counts. When `VD < 12` (or under
//! SFPLOADMACRO) the question does not arise. Otherwise this model reads the un-indexed
//! `LaneConfig` as lane 0's (the same representative-lane convention as for lane-varying
//! `LoadMacroConfig`), and reports [`Clause::GuardOutsideLaneLoop`] when the lanes disagree. (The
//! backdoor-load rule in `exec/models.rs` still writes the instruction word in every lane whose bit
//! is clear.)

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::Ctx;
use crate::fp::sign_mag_key;
use crate::state::{FastState, blend};

/// The per-lane `VDGetsMin` masks of SFPSWAP Mod1 1..9 (10..15 behave as 9 on current silicon).
const VD_GETS_MIN: [u32; 10] = [
    0,
    0xFFFF_FFFF,
    0x0000_FFFF,
    0x00FF_00FF,
    0xFF00_00FF,
    0x0000_00FF,
    0x0000_FF00,
    0x00FF_0000,
    0xFF00_0000,
    0,
];

/// SFPSWAP: unconditional swap (Mod1 0) or per-lane min/max (Mod1 1..9), with argmin/argmax in
/// lanes with `ENABLE_DEST_INDEX`, the comparison inverted by `EXCHANGE_SRCB_SRCC`; results only
/// written to LRegs below 8 (below 4 for the values in index mode).
#[inline(always)]
pub fn sfpswap(s: &mut FastState, vc: u32, vd_field: u32, mod1: u32, cx: &Ctx, out: &mut Outcome) {
    if mod1 >= 10 {
        out.note_all(Clause::SfpswapReservedMod1);
    }
    let vc = cx.vc(vc);
    let vd = cx.vd(vd_field);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let cv = s.lreg[vc];
    let dv = s.lreg[vd];
    let swap = if mod1 == 0 {
        m
    } else {
        let gets_min = VD_GETS_MIN[(mod1 as usize).min(9)];
        let mut lt = 0u32;
        for l in 0..32 {
            lt |= ((sign_mag_key(cv[l]) < sign_mag_key(dv[l])) as u32) << l;
        }
        let want = (gets_min & lt) | (!gets_min & !lt);
        (want ^ s.lc().exchange) & m
    };
    if swap == 0 {
        return;
    }
    let idx = swap & s.lc().dest_index;
    let plain = swap & !idx;
    if plain != 0 {
        if vc < 8 {
            blend(&mut s.lreg[vc], &dv, plain);
        }
        if vd < 8 {
            blend(&mut s.lreg[vd], &cv, plain);
        }
    }
    if idx != 0 {
        if vc < 4 {
            blend(&mut s.lreg[vc], &dv, idx);
        }
        if vd < 4 {
            blend(&mut s.lreg[vd], &cv, idx);
        }
        let vca = 4 + (vc & 3);
        let vda = 4 + (vd & 3);
        let a = s.lreg[vca];
        let b = s.lreg[vda];
        blend(&mut s.lreg[vca], &b, idx);
        blend(&mut s.lreg[vda], &a, idx);
    }
}

/// The lanes a guard evaluated outside the lane loop lets through (see the module docs).
#[inline(always)]
pub(crate) fn outside_guard(s: &FastState, vd: usize, cx: &Ctx, out: &mut Outcome) -> u32 {
    if cx.scheduled || vd < 12 {
        return cx.lanes;
    }
    let dbl = s.lc().dbl;
    if dbl != 0 && dbl != !0 {
        out.note_all(Clause::GuardOutsideLaneLoop);
    }
    if dbl & 1 != 0 { cx.lanes } else { 0 }
}

/// SFPTRANSP: within each column, transpose (register, row) of `LReg[0..4]` and of `LReg[4..8]`;
/// a destination lane is written only if it is enabled.
#[inline(always)]
pub fn sfptransp(s: &mut FastState, vd: u32, cx: &Ctx, out: &mut Outcome) {
    let vd = cx.vd(vd);
    let g = outside_guard(s, vd, cx, out);
    let m = g & s.enabled();
    if m == 0 {
        return;
    }
    for base in [0usize, 4] {
        let old = [s.lreg[base], s.lreg[base + 1], s.lreg[base + 2], s.lreg[base + 3]];
        for r in 0..4 {
            let mut new = [0u32; 32];
            for q in 0..4 {
                for col in 0..8 {
                    new[8 * q + col] = old[q][8 * r + col];
                }
            }
            blend(&mut s.lreg[base + r], &new, m);
        }
    }
}

/// `Lane & 7 ? v[Lane - 1] : v[Lane + 7]`: rotate right by one lane within each group of eight.
#[inline(always)]
pub(crate) fn rotate_right8(v: &[u32; 32]) -> [u32; 32] {
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = if l & 7 != 0 { v[l - 1] } else { v[l + 7] };
    }
    r
}

/// SFPSHFT2's shift: left by `sh & 31` for `sh >= 0`, else logically right by `-sh & 31`.
#[inline(always)]
pub(crate) fn shift_logical(x: u32, sh: i32) -> u32 {
    if sh >= 0 { x << ((sh as u32) & 31) } else { x >> ((sh.wrapping_neg() as u32) & 31) }
}
