//! SFPARECIP: approximate reciprocal, conditional reciprocal, and approximate sign-preserving
//! exponential (new in Blackhole).
//!
//! Implements BlackholeA0 `SFPARECIP.md` (`docs/spec/sfpu-blackhole.md#sfparecip-tables`). The
//! lookup tables are copied from the page (`fp.rs`).

use crate::exec::{Ctx, w8};
use crate::fp::{approx_exp, approx_recip};
use crate::state::{FastState, blend};

/// SFPARECIP: Mod1 0 `RECIP` (`sign | ApproxRecip(|x|)`), 1 `COND_RECIP` (`ApproxRecip(|x|)`
/// without the sign where `LReg[VB] < 0` as a signed integer, else `x`), 2 `EXP` and, through the
/// model's `default:` label (the EXP case's), every other value (`sign | ApproxExp(|x|)`): the
/// page's code defines 3..15, so they are promised like EXP. No `VD < 12` guard; nothing happens
/// unless `VD < 8 || VD == 16`.
#[inline(always)]
pub fn sfparecip(s: &mut FastState, vb: u32, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    if !w8(vd) {
        return;
    }
    let m = s.enabled() & cx.lanes;
    let c = &s.lreg[cx.vc(vc)];
    let mut r = [0u32; 32];
    match mod1 {
        0 => {
            for l in 0..32 {
                let sign = c[l] & 0x8000_0000;
                r[l] = sign.wrapping_add(approx_recip(c[l] - sign));
            }
        }
        1 => {
            let b = &s.lreg[cx.vb(vb)];
            for l in 0..32 {
                let sign = c[l] & 0x8000_0000;
                r[l] = if (b[l] as i32) < 0 { approx_recip(c[l] - sign) } else { c[l] };
            }
        }
        _ => {
            for l in 0..32 {
                let sign = c[l] & 0x8000_0000;
                r[l] = sign.wrapping_add(approx_exp(c[l] - sign));
            }
        }
    }
    blend(&mut s.lreg[vd], &r, m);
}
