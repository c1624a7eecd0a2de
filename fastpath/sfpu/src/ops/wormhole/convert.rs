//! Wormhole's SFPCAST: sign-magnitude integer to FP32, rounding to nearest even or stochastically
//! (`Mod1` bit 0; Blackhole's `Mod1` 2 and 3 are its own other conversions).
//!
//! Implements WormholeB0 `SFPCAST.md` (@ `4042f540`). Blackhole's SFPCAST is
//! [`crate::ops::blackhole::convert`].

use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::{Ctx, w8};
use crate::state::{FastState, blend};

/// SFPCAST: `Mod1 > 1` is reserved: current silicon uses `Mod1 & 1` (`NonContractualBehavior`).
/// In enabled lanes passing the `VD < 12` guard, the sign-magnitude `VC` as FP32, rounded to
/// nearest even, or with `SFPCAST_MOD1_RND_STOCH` (1) stochastically from seven PRNG bits (the PRNG
/// advances in those lanes).
#[inline(always)]
pub fn sfpcast(s: &mut FastState, vc: u32, vd: u32, mod1: u32, cx: &Ctx, out: &mut Outcome) {
    let mut mod1 = mod1;
    if mod1 > 1 {
        out.note_all(Clause::SfpcastReservedMod1);
        mod1 &= 1;
    }
    let vd = cx.vd(vd);
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let c = s.lreg[cx.vc(vc)];
    let stochastic = mod1 & 1 != 0;
    let prng = if stochastic { s.advance_prng(m) } else { [0; 32] };
    let mut r = [0u32; 32];
    for l in 0..32 {
        let x = c[l];
        let sign = x & 0x8000_0000;
        let mag = x & 0x7FFF_FFFF;
        let lz = if mag != 0 { mag.leading_zeros() } else { 157 };
        let norm = mag << (lz & 31);
        let d = sign.wrapping_add((157 - lz) << 23).wrapping_add(norm >> 8);
        let up = if stochastic {
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
