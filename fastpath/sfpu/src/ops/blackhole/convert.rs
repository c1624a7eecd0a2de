//! Blackhole's SFPCAST: sign-magnitude to FP32 with RNE or stochastic rounding, two's complement
//! absolute value, two's complement <-> sign-magnitude.
//!
//! Implements BlackholeA0 `SFPCAST_IntFloat.md`, `SFPCAST_IntInt.md`, `SFPCAST_IntAbs.md`.
//! Wormhole's SFPCAST is [`crate::ops::wormhole::convert`].

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::state::{FastState, blend};

/// SFPCAST: `Mod1 & 3` selects the flavour; `Mod1 > 3` is the documented current-silicon
/// behaviour (NonContractual).
#[inline(always)]
pub fn sfpcast(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx, out: &mut Outcome) {
    if mod1 > 3 {
        out.note_all(Clause::SfpcastReservedMod1);
    }
    let mod1 = mod1 & 3;
    let vd = cx.vd(vd);
    let c = s.lreg[cx.vc(vc)];
    let mut r = [0u32; 32];
    match mod1 {
        0 | 1 => {
            let m = cx.g12(s, vd) & s.enabled();
            if m == 0 {
                return;
            }
            let prng = if mod1 == 1 { s.advance_prng(m) } else { [0; 32] };
            for l in 0..32 {
                let x = c[l];
                let sign = x & 0x8000_0000;
                let mag = x & 0x7FFF_FFFF;
                let lz = if mag != 0 { mag.leading_zeros() } else { 157 };
                let norm = mag << (lz & 31);
                let d = sign.wrapping_add((157 - lz) << 23).wrapping_add(norm >> 8);
                let up = if mod1 == 1 {
                    (norm & 0xFE) > ((prng[l] >> 9) & 0xFE)
                } else {
                    (norm & 0x80) != 0 && (norm & 0x17F) != 0
                };
                r[l] = d.wrapping_add(up as u32);
            }
            if w8(vd) {
                blend(&mut s.lreg[vd], &r, m);
            }
        }
        2 => {
            if !w8(vd) {
                return;
            }
            for l in 0..32 {
                r[l] = if c[l] >= 0x8000_0000 { c[l].wrapping_neg() } else { c[l] };
            }
            let m = s.enabled() & cx.lanes;
            blend(&mut s.lreg[vd], &r, m);
        }
        _ => {
            if !w8(vd) {
                return;
            }
            for l in 0..32 {
                let sign = c[l] & 0x8000_0000;
                r[l] = sign | if sign != 0 { c[l].wrapping_neg() } else { c[l] };
            }
            let m = s.enabled() & cx.lanes;
            blend(&mut s.lreg[vd], &r, m);
        }
    }
}
