//! The MAD sub-unit's multiply-add family: SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI, SFPMUL24.
//!
//! Implements BlackholeA0 `SFPMAD.md` (SFPADD.md and SFPMUL.md are "as per SFPMAD"), `SFPADDI.md`,
//! `SFPMULI.md`, `SFPMUL24.md`; spec §3.1-§3.3. All 32 lanes are computed with the branch-free
//! [`fma32`] and merged under the lane mask.
//!
//! Interpretations: the pages' C `float` negations (`c = -c`) and `float d = a * b + c` are read
//! as raw sign-bit flips and `fma_model_bh` on raw bits (spec §6.3 item 28); the `VD < 12 ||
//! DISABLE_BACKDOOR_LOAD` guard uses the instruction's `VD` field even when `INDIRECT_VD` redirects
//! the write.

use sfpu_reference::outcome::{Clause, Outcome};

use super::{gather_indirect, write_result};
use crate::exec::Ctx;
use crate::fp::fma32;
use crate::state::FastState;

const SIGN: u32 = 0x8000_0000;

/// SFPMAD / SFPADD / SFPMUL: `VD = ±(VA * VB) ± VC` with `NEGATE_VA` (1), `NEGATE_VC` (2),
/// `INDIRECT_VA` (4), `INDIRECT_VD` (8).
pub fn sfpmad(s: &mut FastState, va: u32, vb: u32, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let mut a = if mod1 & 4 != 0 { gather_indirect(s) } else { s.lreg[va as usize] };
    let b = s.lreg[cx.vb(vb)];
    let mut c = s.lreg[cx.vc(vc)];
    if mod1 & 1 != 0 {
        for x in a.iter_mut() {
            *x ^= SIGN;
        }
    }
    if mod1 & 2 != 0 {
        for x in c.iter_mut() {
            *x ^= SIGN;
        }
    }
    let mut d = [0u32; 32];
    fma32(&a, &b, &c, &mut d);
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}

/// SFPADDI: `VD = BF16ToFP32(Imm16) * 1.0 ± VD` (`NEGATE_VC` 2, `INDIRECT_VD` 8; bits 0 and 2
/// unused).
pub fn sfpaddi(s: &mut FastState, imm16: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
    let vc = cx.implicit_vc(vd_field);
    let vd = cx.vd(vd_field);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let a = [imm16 << 16; 32];
    let b = [0x3F80_0000u32; 32];
    let mut c = s.lreg[vc];
    if mod1 & 2 != 0 {
        for x in c.iter_mut() {
            *x ^= SIGN;
        }
    }
    let mut d = [0u32; 32];
    fma32(&a, &b, &c, &mut d);
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}

/// SFPMULI: `VD = BF16ToFP32(Imm16) * ±VD + 0.0` (`NEGATE_VC` 2, `INDIRECT_VD` 8).
pub fn sfpmuli(s: &mut FastState, imm16: u32, vd_field: u32, mod1: u32, cx: &Ctx) {
    let vc = cx.implicit_vc(vd_field);
    let vd = cx.vd(vd_field);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let a = [imm16 << 16; 32];
    let mut c = s.lreg[vc];
    if mod1 & 2 != 0 {
        for x in c.iter_mut() {
            *x ^= SIGN;
        }
    }
    let zero = [0u32; 32];
    let mut d = [0u32; 32];
    fma32(&a, &c, &zero, &mut d);
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}

/// SFPMUL24: low or high 23 bits of a 23 x 23-bit product, then the non-contractual
/// `Mul24ShiftAdd` when `LReg[VC] != 0` (`UPPER` 1, `INDIRECT_VA` 4, `INDIRECT_VD` 8).
pub fn sfpmul24(
    s: &mut FastState,
    va: u32,
    vb: u32,
    vc: u32,
    vd: u32,
    mod1: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let a = if mod1 & 4 != 0 { gather_indirect(s) } else { s.lreg[va as usize] };
    let b = s.lreg[cx.vb(vb)];
    let c = s.lreg[cx.vc(vc)];
    let upper = mod1 & 1 != 0;
    let mut d = [0u32; 32];
    let mut nonzero_c = 0u32;
    for l in 0..32 {
        let lo = a[l].wrapping_mul(b[l]) & 0x7F_FFFF;
        let hi = (((a[l] & 0x7F_FFFF) as u64 * (b[l] & 0x7F_FFFF) as u64) >> 23) as u32;
        let p = if upper { hi } else { lo };
        d[l] = if c[l] != 0 { mul24_shift_add(p, c[l]) } else { p };
        nonzero_c |= ((c[l] != 0) as u32) << l;
    }
    out.note(Clause::Sfpmul24NonZeroVc, nonzero_c & m);
    write_result(s, vd, mod1 & 8 != 0, &d, m);
}

/// `Mul24ShiftAdd` (`SFPMUL24.md`, NonContractualBehavior).
#[inline(always)]
fn mul24_shift_add(p: u32, z: u32) -> u32 {
    let ze = (z >> 23) & 0xFF;
    if ze == 0 {
        return p;
    }
    let re = ze.max(129);
    let s = (re - ze) & 31;
    let zm_grs = ((1u32 << 23) + (z & 0x7F_FFFF)) << 3;
    let mut pm = p >> ((re - 129) & 31);
    let zm = zm_grs >> s;
    if zm != 0 {
        pm = pm.wrapping_add(zm);
        pm = pm.wrapping_add((((zm << s) ^ zm_grs) > 0xFFFF) as u32 * (1 << 16));
        pm &= 0x7F_FFFF;
    }
    pm
}
