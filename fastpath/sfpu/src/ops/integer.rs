//! Integer and bitwise instructions on the simple sub-unit: SFPIADD, SFPSHFT, SFPABS, SFPAND,
//! SFPOR, SFPXOR, SFPNOT, SFPLZ.
//!
//! Implements WormholeB0 `SFPIADD.md`, `SFPABS.md`, `SFPXOR.md`, `SFPNOT.md` (BlackholeA0 stubs)
//! and BlackholeA0 `SFPSHFT.md`, `SFPAND.md`, `SFPOR.md`, `SFPLZ.md`; spec §3.12-§3.16. None
//! carries the `VD < 12` guard; all write only if `VD < 8 || VD == 16`; flag updates only for
//! `VD < 8` and only in enabled lanes.
//!
//! Interpretation (SFPAND / SFPOR under SFPLOADMACRO): `SFPLOADMACRO.md` says simple-sub-unit
//! instructions skip "the usual `unsigned VB = VD;` assignment". The SFPAND / SFPOR models have no
//! such statement: they compute `vb = (Mod1 & USE_VB) ? VB : VD`. Following the page literally,
//! that selection is kept under SFPLOADMACRO and applied to the overridden `VB` and `VD`.
//! DEPARTURE from spec §3.13, whose "Under SFPLOADMACRO the implicit VB = VD is skipped and the
//! macro-chosen VB is used" would ignore `USE_VB`; the page wins.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::state::{FastState, blend, sign_mask};

/// Sign-extends a 12-bit immediate.
#[inline(always)]
pub fn sext12(x: u32) -> i32 {
    ((x << 20) as i32) >> 20
}

/// SFPIADD: `VD = VC + VD`, `VC - VD` (`ARG_2SCOMP_LREG_DST` 2) or `VC + sext(Imm12)` (`ARG_IMM`
/// 1, which wins); then `LaneFlags = VD < 0` unless `CC_NONE` (4), then inverted by `CC_GTE0` (8).
pub fn sfpiadd(s: &mut FastState, imm12: u32, vc: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
    // PLANTED DIVERGENCE, only for the fuzz smoke check (`cargo xtask fuzz --smoke --planted`):
    // flips ARG_2SCOMP_LREG_DST. Never enabled outside the fuzz package's `planted` feature.
    #[cfg(feature = "planted-divergence")]
    let mod1 = mod1 ^ 2;
    let vb = cx.implicit_vb(vd_field);
    let vd = cx.vd(vd_field);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let mut r = [0u32; 32];
    let c = &s.lreg[cx.vc(vc)];
    if mod1 & 1 != 0 {
        let k = sext12(imm12) as u32;
        for l in 0..32 {
            r[l] = c[l].wrapping_add(k);
        }
    } else {
        let b = &s.lreg[vb];
        if mod1 & 2 != 0 {
            for l in 0..32 {
                r[l] = c[l].wrapping_sub(b[l]);
            }
        } else {
            for l in 0..32 {
                r[l] = c[l].wrapping_add(b[l]);
            }
        }
    }
    blend(&mut s.lreg[vd], &r, m);
    if vd < 8 {
        let mut f = s.lane_flags;
        if mod1 & 4 == 0 {
            f = (f & !m) | (sign_mask(&r) & m);
        }
        if mod1 & 8 != 0 {
            f ^= m;
        }
        s.lane_flags = f;
    }
}

/// SFPSHFT: shift `VB` (= `VD`) by `VC`, or (`ARG_IMM` 1) by `sext(Imm12)`, shifting `VC` itself
/// with `ARG_IMM_USE_VC` (4); negative amounts shift right, arithmetically with `ARITHMETIC` (2).
/// Reserved Mod1 values (4, 6, > 7) follow the documented current-silicon behaviour.
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

/// SFPABS: two's-complement absolute value, or with `FLOAT` (1) a sign clear that leaves the
/// -NaN patterns (`> 0xFF800000`) as they are; -Inf becomes +Inf (WormholeB0 `SFPABS.md`, which
/// the Blackhole stub points to, spec §3.12).
pub fn sfpabs(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let float = mod1 & 1 != 0;
    let mut r = [0u32; 32];
    for l in 0..32 {
        let x = c[l];
        let neg = if float {
            // -NaN is left as -NaN; everything else, -Inf included, loses its sign.
            if x > 0xFF80_0000 { x } else { x & 0x7FFF_FFFF }
        } else {
            x.wrapping_neg()
        };
        r[l] = if x >= 0x8000_0000 { neg } else { x };
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPAND (`or == false`) / SFPOR: `VD = src & VC` (resp. `|`), `src = USE_VB (1) ? VB : VD`.
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

/// SFPXOR: `VD = VB ^ VC` with `VB = VD`.
pub fn sfpxor(s: &mut FastState, vc: u32, vd_field: u32, cx: &Ctx) {
    let vb = cx.implicit_vb(vd_field);
    let vd = cx.vd(vd_field);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let b = &s.lreg[vb];
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = b[l] ^ c[l];
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPNOT: `VD = ~VC`.
pub fn sfpnot(s: &mut FastState, vc: u32, vd: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = !c[l];
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPLZ: count leading zeros (32 for zero) of `VC`, sign bit masked off with `NOSGN_MASK` (4);
/// `CC_NE0` (2) sets `LaneFlags = c != 0`, then `CC_COMP` (8) inverts `LaneFlags`.
pub fn sfplz(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let mut c = s.lreg[cx.vc(vc)];
    if mod1 & 4 != 0 {
        for x in c.iter_mut() {
            *x &= 0x7FFF_FFFF;
        }
    }
    let mut r = [0u32; 32];
    let mut nz = 0u32;
    for l in 0..32 {
        r[l] = c[l].leading_zeros();
        nz |= ((c[l] != 0) as u32) << l;
    }
    blend(&mut s.lreg[vd], &r, m);
    if vd < 8 {
        let mut f = s.lane_flags;
        if mod1 & 2 != 0 {
            f = (f & !m) | (nz & m);
        }
        if mod1 & 8 != 0 {
            f ^= m;
        }
        s.lane_flags = f;
    }
}
