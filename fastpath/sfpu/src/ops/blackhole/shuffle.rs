//! Blackhole's SFPSHFT2: lanewise register shuffles, cross-lane rotates and shifts (mode 4 shifts
//! in zeros), bitwise shifts.
//!
//! Implements BlackholeA0 `SFPSHFT2.md` (@ `41d2c717`, whose switch ends with
//! `default: UndefinedBehavior();`). Wormhole's SFPSHFT2 (mode 4's stale lane and
//! its latch) is [`crate::ops::wormhole::shuffle`].

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::ops::integer::sext12;
use crate::ops::shuffle::{outside_guard, rotate_right8, shift_logical};
use crate::state::{FastState, blend};

/// SFPSHFT2, modes 0..6; 7..15 are the page's `default: UndefinedBehavior();` (nothing written,
/// reported as undefined).
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
    // undrawn there (`Diagrams/Src/Bits32.lua`; `docs/spec/sfpu-blackhole.md#undrawn-bits`).
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
            let m = outside_guard(s, vd, cx, out) & en;
            if m == 0 {
                return;
            }
            let rot = rotate_right8(&s.lreg[vc]);
            let l1 = s.lreg[1];
            let l2 = s.lreg[2];
            let l3 = s.lreg[3];
            blend(&mut s.lreg[0], &l1, m);
            blend(&mut s.lreg[1], &l2, m);
            blend(&mut s.lreg[2], &l3, m);
            blend(&mut s.lreg[3], &rot, m);
        }
        3 => {
            let m = outside_guard(s, vd, cx, out) & en;
            if m == 0 || !w8(vd) {
                return;
            }
            let rot = rotate_right8(&s.lreg[vc]);
            blend(&mut s.lreg[vd], &rot, m);
        }
        4 => {
            if !w8(vd) {
                return;
            }
            let v = s.lreg[vc];
            let mut r = [0u32; 32];
            for l in 0..32 {
                r[l] = if l & 7 != 0 { v[l - 1] } else { 0 };
            }
            blend(&mut s.lreg[vd], &r, en & cx.lanes);
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
