//! Piecewise-linear evaluation on the MAD sub-unit: SFPLUT and SFPLUTFP32.
//!
//! Implements BlackholeA0 `SFPLUT.md` and `SFPLUTFP32.md`, and the WormholeB0 pages (@ `48798544`,
//! `13547104`: the same functional models; Wormhole's SFPLUTFP32 has no `Mod1Mirror`, which only
//! the Blackhole stall logic reads). Both select coefficients per lane from the
//! magnitude of `LReg[3]` and then use the chip's FMA (`fma_model_bh` or `fma_model_wh`).
//!
//! Interpretations: SFPLUTFP32's C `float` comparisons of `fabsf(LReg[3])` against 0.5 / 1 / 1.5 /
//! 2 / 3 / 4 are done as unsigned comparisons of the sign-cleared bit pattern, which agree with the
//! float comparisons for every pattern including denormals (both say "smaller") and NaNs (the
//! float comparison is false; every NaN pattern is above every threshold); `copysignf` is a raw
//! sign-bit copy (it also applies to NaN results); `LReg[vd].f32 = d` is a raw bit copy.

use super::write_result;
use crate::exec::Ctx;
use crate::fp::{fma32_of, lut8, lut16};
use crate::state::FastState;

/// SFPLUT: `Lut8ToFp32(LReg[i] >> 8) * |LReg[3]| + Lut8ToFp32(LReg[i])` with `i` from `|LReg[3]|`
/// (Mod0: `SGN_RETAIN` 4, `INDIRECT_VD` 8).
#[inline(always)]
pub fn sfplut(s: &mut FastState, vd: u32, mod0: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let l3 = s.lreg[3];
    let mut a = [0u32; 32];
    let mut b = [0u32; 32];
    let mut c = [0u32; 32];
    for l in 0..32 {
        let mag = l3[l] & 0x7FFF_FFFF;
        let coeffs = if mag < 0x3F80_0000 {
            s.lreg[0][l]
        } else if mag < 0x4000_0000 {
            s.lreg[1][l]
        } else {
            s.lreg[2][l]
        };
        a[l] = lut8(coeffs >> 8);
        b[l] = mag;
        c[l] = lut8(coeffs);
    }
    let mut d = [0u32; 32];
    fma32_of(s.arch(), &a, &b, &c, &mut d);
    if mod0 & 4 != 0 {
        for l in 0..32 {
            d[l] = (d[l] & 0x7FFF_FFFF) | (l3[l] & 0x8000_0000);
        }
    }
    write_result(s, vd, mod0 & 8 != 0, &d, m);
}

/// SFPLUTFP32: FP32 3-entry (Mod1 bit 1 clear), FP16 3-entry (bits 1 and 3 set: always indirect
/// `VD`, the documented hardware bug), or FP16 6-entry (bit 1 set, bit 3 clear; bit 0 moves the
/// last cut from 3.0 to 4.0). `SGN_RETAIN` 4, `INDIRECT_VD` 8. `Mod1Mirror` only matters to the
/// stall logic.
#[inline(always)]
pub fn sfplutfp32(s: &mut FastState, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let l3 = s.lreg[3];
    let mut a = [0u32; 32];
    let mut b = [0u32; 32];
    let mut c = [0u32; 32];
    let fp16 = mod1 & 2 != 0;
    let three_entry16 = mod1 & 10 == 10;
    let cut = if mod1 & 3 == 3 { 0x4080_0000 } else { 0x4040_0000 };
    for l in 0..32 {
        let mag = l3[l] & 0x7FFF_FFFF;
        let i = if mag < 0x3F80_0000 {
            0
        } else if mag < 0x4000_0000 {
            1
        } else {
            2
        };
        let lo = s.lreg[i][l];
        let hi = s.lreg[4 + i][l];
        b[l] = mag;
        if !fp16 {
            a[l] = lo;
            c[l] = hi;
        } else if three_entry16 {
            a[l] = lut16(lo >> 16);
            c[l] = lut16(lo);
        } else {
            let upper = if mag < 0x3F00_0000 {
                false
            } else if mag < 0x3F80_0000 {
                true
            } else if mag < 0x3FC0_0000 {
                false
            } else if mag < 0x4000_0000 {
                true
            } else {
                mag >= cut
            };
            let j = if upper { 16 } else { 0 };
            a[l] = lut16(lo >> j);
            c[l] = lut16(hi >> j);
        }
    }
    let mut d = [0u32; 32];
    fma32_of(s.arch(), &a, &b, &c, &mut d);
    if mod1 & 4 != 0 {
        for l in 0..32 {
            d[l] = (d[l] & 0x7FFF_FFFF) | (l3[l] & 0x8000_0000);
        }
    }
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}
