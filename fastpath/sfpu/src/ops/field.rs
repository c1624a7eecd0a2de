//! FP32 field manipulation on the simple sub-unit: SFPDIVP2, SFPEXEXP, SFPEXMAN, SFPSETEXP,
//! SFPSETMAN, SFPSETSGN.
//!
//! Implements WormholeB0 `SFPDIVP2.md`, `SFPEXEXP.md`, `SFPEXMAN.md`, `SFPSETEXP.md`,
//! `SFPSETMAN.md`, `SFPSETSGN.md` (the BlackholeA0 pages are stubs pointing there). None of these
//! carries the `VD < 12` guard; all write only if `VD < 8 || VD == 16`.

use crate::exec::{Ctx, w8};
use crate::state::{FastState, blend, sign_mask};

/// SFPDIVP2: replace the exponent with `Imm8`, or (`ADD`, Mod1 bit 0) add `Imm8` to it modulo 256
/// unless it is 255.
#[inline(always)]
pub fn sfpdivp2(s: &mut FastState, imm8: u32, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let add = mod1 & 1 != 0;
    let mut r = [0u32; 32];
    for l in 0..32 {
        let e = (c[l] >> 23) & 0xFF;
        let ne = if add { if e == 255 { e } else { (e + imm8) & 0xFF } } else { imm8 };
        r[l] = (c[l] & 0x807F_FFFF) | (ne << 23);
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPEXEXP: the exponent field, debiased unless `NODEBIAS` (1); `SET_CC_SGN_EXP` (2) sets
/// `LaneFlags = result < 0`, then `SET_CC_COMP_EXP` (8) inverts `LaneFlags`; flags only for
/// `VD < 8`.
#[inline(always)]
pub fn sfpexexp(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let bias = if mod1 & 1 != 0 { 0 } else { 127 };
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = ((c[l] >> 23) & 0xFF).wrapping_sub(bias);
    }
    blend(&mut s.lreg[vd], &r, m);
    if vd < 8 {
        let mut f = s.lane_flags;
        if mod1 & 2 != 0 {
            f = (f & !m) | (sign_mask(&r) & m);
        }
        if mod1 & 8 != 0 {
            f ^= m;
        }
        s.lane_flags = f;
    }
}

/// SFPEXMAN: the mantissa field with the hidden bit (or 0 with `PAD9`, Mod1 bit 0).
#[inline(always)]
pub fn sfpexman(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let hidden = if mod1 & 1 != 0 { 0 } else { 1 << 23 };
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = hidden + (c[l] & 0x7F_FFFF);
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPSETEXP: sign and mantissa of `VC`, exponent from `Imm8` (`ARG_IMM` 1), from `VB`'s exponent
/// field (`ARG_EXPONENT` 2) or from `VB`'s low 8 bits; `VB = VD`.
#[inline(always)]
pub fn sfpsetexp(s: &mut FastState, imm8: u32, vc: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
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
        let e = if mod1 & 1 != 0 {
            imm8
        } else if mod1 & 2 != 0 {
            (b[l] >> 23) & 0xFF
        } else {
            b[l] & 0xFF
        };
        r[l] = (c[l] & 0x807F_FFFF) | (e << 23);
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPSETMAN: sign and exponent of `VC`, mantissa from `Imm12 << 11` (`ARG_IMM` 1) or from `VB`'s
/// low 23 bits; `VB = VD`.
#[inline(always)]
pub fn sfpsetman(s: &mut FastState, imm12: u32, vc: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
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
        let man = if mod1 & 1 != 0 { (imm12 & 0xFFF) << 11 } else { b[l] & 0x7F_FFFF };
        r[l] = (c[l] & 0xFF80_0000) | man;
    }
    blend(&mut s.lreg[vd], &r, m);
}

/// SFPSETSGN: exponent and mantissa of `VC`, sign from `Imm1` (`ARG_IMM` 1) or from `VB`'s sign;
/// `VB = VD`.
#[inline(always)]
pub fn sfpsetsgn(s: &mut FastState, imm1: u32, vc: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
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
        let sign = if mod1 & 1 != 0 { (imm1 & 1) << 31 } else { b[l] & 0x8000_0000 };
        r[l] = (c[l] & 0x7FFF_FFFF) | sign;
    }
    blend(&mut s.lreg[vd], &r, m);
}
