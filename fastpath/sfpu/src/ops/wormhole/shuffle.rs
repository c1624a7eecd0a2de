//! Wormhole's SFPSHFT2: lanewise register shuffles, cross-lane rotates and shifts, bitwise shifts;
//! mode 4 (`SUBVEC_SHFLSHR1`) gives lane 0 of each group of eight a stale value instead of zero, from
//! the `vc0` latch that modes 2 and 3 fill (a hardware bug the page describes, fixed on
//! Blackhole), and modes 7..15 are `UndefinedBehavior`.
//!
//! Implements WormholeB0 `SFPSHFT2.md` (@ `a052bcc9`: the newest revision, with the `default:`
//! case; `docs/spec/sfpu-wormhole.md#sfpshft2-revision`). Blackhole's SFPSHFT2 is
//! [`crate::ops::blackhole::shuffle`].
//!
//! The latch: "`vc0` is whatever the most recent `SFPSHFT2_MOD1_SUBVEC_SHFLROR1_AND_COPY4` or
//! `SFPSHFT2_MOD1_SUBVEC_SHFLROR1` with `VD < 12` observed when executing its `auto vc =
//! LReg[VC]`": the whole register (all 32 lanes, whatever their enables), taken by those two modes
//! when their `VD` (as executed: SFPLOADMACRO's override for a scheduled one) is below 12. With
//! `VD >= 12` and `DISABLE_BACKDOOR_LOAD` set the model's line runs too, but the page's sentence
//! names only `VD < 12`, and the reference reads it the same way. The stale value is
//! `NonContractualBehavior`: the lanes that get it are reported.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::ops::integer::sext12;
use crate::ops::shuffle::{outside_guard, rotate_right8, shift_logical};
use crate::state::{FastState, blend};

/// Lane 0 of each group of eight.
const GROUP_HEADS: u32 = 0x0101_0101;

/// SFPSHFT2, modes 0..6; 7..15 are undefined.
#[inline(always)]
pub fn sfpshft2(
    s: &mut FastState,
    imm12: u32,
    vc: u32,
    vd_field: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    // Form A (every mode but SHFT_IMM) draws only VB in bits [23:12], so bits [23:16] are
    // undrawn there.
    if mod1 != 6 && imm12 >> 4 != 0 {
        out.note_all(Clause::UndrawnBits);
    }
    let vd = cx.vd(vd_field);
    let vc = cx.vc(vc);
    let en = s.enabled();
    match mod1 {
        0 | 1 => {
            let m = cx.g12(s, vd) & en;
            if m == 0 {
                return;
            }
            let l0 = s.lreg[0];
            let l1 = s.lreg[1];
            let l2 = s.lreg[2];
            let l3 = s.lreg[3];
            let mut new3 = [0u32; 32];
            if mod1 == 1 {
                new3[..24].copy_from_slice(&l0[8..]);
            }
            blend(&mut s.lreg[0], &l1, m);
            blend(&mut s.lreg[1], &l2, m);
            blend(&mut s.lreg[2], &l3, m);
            blend(&mut s.lreg[3], &new3, m);
        }
        2 => {
            let g = outside_guard(s, vd, cx, out);
            if g == 0 {
                return;
            }
            let v = s.lreg[vc];
            if vd < 12 {
                latch(s, &v);
            }
            let m = g & en;
            let rot = rotate_right8(&v);
            let l1 = s.lreg[1];
            let l2 = s.lreg[2];
            let l3 = s.lreg[3];
            blend(&mut s.lreg[0], &l1, m);
            blend(&mut s.lreg[1], &l2, m);
            blend(&mut s.lreg[2], &l3, m);
            blend(&mut s.lreg[3], &rot, m);
        }
        3 => {
            let g = outside_guard(s, vd, cx, out);
            if g == 0 {
                return;
            }
            let v = s.lreg[vc];
            if vd < 12 {
                latch(s, &v);
            }
            if w8(vd) {
                blend(&mut s.lreg[vd], &rotate_right8(&v), g & en);
            }
        }
        4 => {
            if !w8(vd) {
                return;
            }
            let m = en & cx.lanes;
            let v = s.lreg[vc];
            let vc0 = s.sfpshft2_vc0().copied().unwrap_or([0; 32]);
            let mut r = [0u32; 32];
            for l in 0..32 {
                // `Lane & 7 ? vc[Lane - 1] : HardwareBug()`, the bug being `vc0[Lane + 7]`.
                r[l] = if l & 7 != 0 { v[l - 1] } else { vc0[l + 7] };
            }
            out.note(Clause::Sfpshft2Shflshr1StaleLane, m & GROUP_HEADS);
            blend(&mut s.lreg[vd], &r, m);
        }
        5 | 6 => {
            if !w8(vd) {
                return;
            }
            // VB is bits [15:12] (the low four bits of Imm12) unless the macro logic set it.
            let vb = cx.vb(imm12 & 15);
            let b = &s.lreg[vb];
            let mut r = [0u32; 32];
            if mod1 == 5 {
                let c = &s.lreg[vc];
                for l in 0..32 {
                    r[l] = shift_logical(b[l], c[l] as i32);
                }
            } else {
                let sh = sext12(imm12);
                for l in 0..32 {
                    r[l] = shift_logical(b[l], sh);
                }
            }
            blend(&mut s.lreg[vd], &r, en & cx.lanes);
        }
        _ => out.note_all(Clause::Sfpshft2UndefinedMod1),
    }
}

/// Records what a mode 2 or 3 SFPSHFT2 read as `vc`.
#[inline(always)]
fn latch(s: &mut FastState, v: &[u32; 32]) {
    if let Some(vc0) = s.sfpshft2_vc0_mut() {
        *vc0 = *v;
    }
}
