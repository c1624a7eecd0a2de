//! SFPMUL24 (Blackhole only): the low or high 23 bits of a 23 x 23-bit integer product on the MAD
//! sub-unit.
//!
//! Implements BlackholeA0 `SFPMUL24.md`.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::Ctx;
use crate::ops::{gather_indirect, write_result};
use crate::state::{FastState, nonzero_mask};

/// SFPMUL24: low or high 23 bits of a 23 x 23-bit product, then the non-contractual
/// `Mul24ShiftAdd` when `LReg[VC] != 0` (`UPPER` 1, `INDIRECT_VA` 4, `INDIRECT_VD` 8).
#[inline(always)]
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
    for l in 0..32 {
        let lo = a[l].wrapping_mul(b[l]) & 0x7F_FFFF;
        let hi = (((a[l] & 0x7F_FFFF) as u64 * (b[l] & 0x7F_FFFF) as u64) >> 23) as u32;
        let p = if upper { hi } else { lo };
        d[l] = if c[l] != 0 { mul24_shift_add(p, c[l]) } else { p };
    }
    let nonzero_c = nonzero_mask(&c);
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
