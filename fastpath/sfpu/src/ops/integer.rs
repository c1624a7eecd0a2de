//! The integer and bitwise instructions both chips share, on the simple sub-unit: SFPIADD, SFPABS,
//! SFPXOR, SFPNOT, SFPLZ. (Each chip's SFPSHFT, SFPAND and SFPOR are in
//! [`super::blackhole::integer`] and [`super::wormhole::integer`].)
//!
//! Implements WormholeB0 `SFPIADD.md`, `SFPABS.md`, `SFPXOR.md`, `SFPNOT.md` (BlackholeA0 stubs)
//! and `SFPLZ.md` (the same on both chips). None carries the `VD < 12` guard; all write only if
//! `VD < 8 || VD == 16`; flag updates only for `VD < 8` and only in enabled lanes.

use crate::exec::{Ctx, w8};
use crate::state::{FastState, blend, nonzero_mask, sign_mask};

/// Sign-extends a 12-bit immediate.
#[inline(always)]
pub fn sext12(x: u32) -> i32 {
    ((x << 20) as i32) >> 20
}

/// SFPIADD: `VD = VC + VD`, `VC - VD` (`ARG_2SCOMP_LREG_DST` 2) or `VC + sext(Imm12)` (`ARG_IMM`
/// 1, which wins); then `LaneFlags = VD < 0` unless `CC_NONE` (4), then inverted by `CC_GTE0` (8).
#[inline(always)]
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

/// SFPABS: two's-complement absolute value, or with `FLOAT` (1) a sign clear that leaves the -NaN
/// patterns (`> 0xFF800000`) as they are; -Inf becomes +Inf (BlackholeA0 `SFPABS.md` @ `445ebb1`,
/// the revision with its own functional model, shared with Wormhole;
/// `docs/spec/sfpu-blackhole.md#sfpabs-revision`).
#[inline(always)]
pub fn sfpabs(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    // Each flavour's loop on its own (one vector operation per 16 lanes): a negative lane's
    // two's-complement negation is `i32::wrapping_abs` (the most negative value stays); a float's
    // sign clear leaves the -NaN patterns (`> 0xFF800000`) as they are, and is the identity on a
    // positive lane.
    let mut r = [0u32; 32];
    if mod1 & 1 != 0 {
        for l in 0..32 {
            let x = c[l];
            r[l] = if x > 0xFF80_0000 { x } else { x & 0x7FFF_FFFF };
        }
    } else {
        for l in 0..32 {
            r[l] = (c[l] as i32).wrapping_abs() as u32;
        }
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPXOR: `VD = VB ^ VC` with `VB = VD`.
#[inline(always)]
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
#[inline(always)]
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
#[inline(always)]
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
    for l in 0..32 {
        r[l] = c[l].leading_zeros();
    }
    let nz = nonzero_mask(&c);
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
