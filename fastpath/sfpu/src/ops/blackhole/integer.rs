//! Blackhole's SFPSHFT (arithmetic shifts, shifting `VC`), SFPAND and SFPOR (`USE_VB`).
//!
//! Implements BlackholeA0 `SFPSHFT.md`, `SFPAND.md`, `SFPOR.md`. Wormhole's
//! versions are [`crate::ops::wormhole::integer`]. None carries the `VD < 12` guard; all write
//! only if `VD < 8 || VD == 16`, only in enabled lanes.
//!
//! Interpretation (SFPAND / SFPOR under SFPLOADMACRO): `SFPLOADMACRO.md` says simple-sub-unit
//! instructions skip "the usual `unsigned VB = VD;` assignment". The SFPAND / SFPOR models have no
//! such statement: they compute `vb = (Mod1 & USE_VB) ? VB : VD`. Following the page literally,
//! that selection is kept under SFPLOADMACRO and applied to the overridden `VB` and `VD`.
//! Reading the macro-chosen `VB` as used whatever `USE_VB` says would ignore `USE_VB`; the page
//! wins (`docs/spec/sfpu-blackhole.md#sfpand-and-sfpor-under-sfploadmacro`).

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::ops::integer::sext12;
use crate::state::{FastState, blend};

/// SFPSHFT: shift `VB` (= `VD`) by `VC`, or (`ARG_IMM` 1) by `sext(Imm12)`, shifting `VC` itself
/// with `ARG_IMM_USE_VC` (4); negative amounts shift right, arithmetically with `ARITHMETIC` (2).
/// Reserved Mod1 values (4, 6, > 7) follow the documented current-silicon behaviour.
#[inline(always)]
pub fn sfpshft(
    s: &mut FastState,
    imm12: u32,
    vc: u32,
    vd_field: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    let mut mod1 = mod1;
    if mod1 > 7 || mod1 == 4 || mod1 == 6 {
        out.note_all(Clause::SfpshftReservedMod1);
        mod1 = if mod1 == 4 || mod1 == 6 { mod1 & !4 } else { mod1 & 7 };
    }
    let vb = cx.implicit_vb(vd_field);
    let vd = cx.vd(vd_field);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let b = &s.lreg[vb];
    let arith = mod1 & 2 != 0;
    let mut r = [0u32; 32];
    if mod1 & 1 != 0 {
        // One shift amount for every lane: a uniform shift.
        let sh = sext12(imm12);
        let x = if mod1 & 4 != 0 { c } else { b };
        let n = if sh >= 0 { (sh as u32) & 31 } else { (sh.wrapping_neg() as u32) & 31 };
        if sh >= 0 {
            for l in 0..32 {
                r[l] = x[l] << n;
            }
        } else if arith {
            for l in 0..32 {
                r[l] = ((x[l] as i32) >> n) as u32;
            }
        } else {
            for l in 0..32 {
                r[l] = x[l] >> n;
            }
        }
    } else {
        for l in 0..32 {
            r[l] = shift(b[l], c[l] as i32, arith);
        }
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// The shift of SFPSHFT: left by `sh & 31` for `sh >= 0`, else right by `-sh & 31`.
#[inline(always)]
fn shift(x: u32, sh: i32, arith: bool) -> u32 {
    let left = x << ((sh as u32) & 31);
    let n = (sh.wrapping_neg() as u32) & 31;
    let right = if arith { ((x as i32) >> n) as u32 } else { x >> n };
    if sh >= 0 { left } else { right }
}

/// SFPAND (`or == false`) / SFPOR: `VD = src & VC` (resp. `|`), `src = USE_VB (1) ? VB : VD`.
#[inline(always)]
pub fn sfpandor(s: &mut FastState, or: bool, vb: u32, vc: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd_field);
    let src = if mod1 & 1 != 0 { cx.vb(vb) } else { vd };
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let b = &s.lreg[src];
    let mut r = [0u32; 32];
    if or {
        for l in 0..32 {
            r[l] = b[l] | c[l];
        }
    } else {
        for l in 0..32 {
            r[l] = b[l] & c[l];
        }
    }
    blend(&mut s.lreg[vd], &r, m);
}
