//! SFPSTOCHRND (FP32 to reduced FP32, FP32 to bounded sign-magnitude integer, sign-magnitude
//! integer to 8-bit range), one page set for both chips except for the rounding-mode field: two
//! bits (`RoundingMode`, with Blackhole's `SFPSTOCHRND_RND_ZERO`) on Blackhole, one bit
//! (`StochasticRounding`) on Wormhole. (Each chip's SFPCAST is in [`super::blackhole::convert`] and
//! [`super::wormhole::convert`].)
//!
//! Implements BlackholeA0 and WormholeB0 `SFPSTOCHRND_FloatFloat.md`, `SFPSTOCHRND_FloatInt.md`,
//! `SFPSTOCHRND_IntInt.md`.
//!
//! Interpretations: each flavour page calls the other flavours' Mod1 values `UndefinedBehavior`,
//! but together the pages cover every value, so Mod1 selects the flavour. SFPSTOCHRND's PRNG is
//! advanced once in every executing lane whatever the rounding mode (the pages fetch it first and
//! then override it); rounding mode 3 is not named and, as the pages' `switch` has no case for it,
//! keeps the PRNG bits. `UseImm5` and `Imm5` are not referenced by the float flavours, so ignored.
//! Both are defined by the pages' code, so promised (their vectors are tagged `reserved-encoding`).

use crate::exec::{Ctx, w8};
use crate::state::{FastState, blend};

/// The fields of an SFPSTOCHRND instruction.
#[derive(Clone, Copy, Debug)]
pub struct StochRnd {
    /// `RoundingMode[22:21]`: 0 nearest (ties away), 1 stochastic, 2 toward zero (buggy).
    pub rounding_mode: u32,
    /// `Imm5` (bits 20..16): shift amount for the integer flavour with `UseImm5`.
    pub imm5: u32,
    /// `VB` (bits 15..12): shift amount register for the integer flavour without `UseImm5`.
    pub vb: u32,
    /// `VC`.
    pub vc: u32,
    /// `VD`.
    pub vd: u32,
    /// `UseImm5` (bit 3).
    pub use_imm5: bool,
    /// `Mod1` (bits 2..0): the flavour and target format.
    pub mod1: u32,
}

/// SFPSTOCHRND, all three flavours. On Wormhole `rounding_mode` is the one-bit
/// `StochasticRounding` (0 nearest, 1 stochastic): the same two values, so the same code; its
/// values 2 and 3 do not exist there (such an instruction is not executed, see `exec/models.rs`).
#[inline(always)]
pub fn sfpstochrnd(s: &mut FastState, f: StochRnd, cx: &Ctx) {
    let vd = cx.vd(f.vd);
    // RoundingMode 3 has no case in the pages' switch (the PRNG bits are kept, below), and the
    // float flavours never read Imm5 / UseImm5: both are defined by the pages' code, so promised.
    let m = cx.g12(s, vd) & s.enabled();
    if m == 0 {
        return;
    }
    let prng = s.advance_prng(m);
    let mut t = [0u32; 32];
    for l in 0..32 {
        t[l] = match f.rounding_mode {
            0 => 0x40_0000,
            2 => 0x7F_FFFF,
            _ => prng[l] & 0x7F_FFFF,
        };
    }
    let c = &s.lreg[cx.vc(f.vc)];
    let mut r = [0u32; 32];
    match f.mod1 {
        0 | 1 => {
            let (keep_mask, unit, shift) =
                if f.mod1 == 0 { (0x1FFFu32, 0x2000u32, 10) } else { (0xFFFF, 0x1_0000, 7) };
            for l in 0..32 {
                let x = c[l];
                let e = (x >> 23) & 0xFF;
                let lo = x & keep_mask;
                let rounded = (x - lo).wrapping_add(if lo >= (t[l] >> shift) { unit } else { 0 });
                r[l] = if e == 0 {
                    0
                } else if e == 255 {
                    x & 0xFF80_0000
                } else {
                    rounded
                };
            }
        }
        4 | 5 => {
            // The pages' `(Magnitude << 23) >> Shift` is a 54-bit value: here its integer part
            // `mag >> sh` and its 23 fraction bits, the bits shifted out, in 32-bit lanes.
            let b = &s.lreg[cx.vb(f.vb)];
            for l in 0..32 {
                let x = c[l];
                let mut sign = x & 0x8000_0000;
                let sh = if f.use_imm5 { f.imm5 & 31 } else { b[l] & 31 };
                let x = x & 0x7FFF_FFFF;
                let frac = if sh <= 23 { x << (23 - sh) } else { x >> (sh - 23) } & 0x7F_FFFF;
                let mut mag = (x >> sh) + (frac >= t[l]) as u32;
                if f.mod1 == 4 {
                    mag = mag.min(255);
                    sign = 0;
                } else {
                    mag = mag.min(127);
                    if mag == 0 {
                        sign = 0;
                    }
                }
                r[l] = sign.wrapping_add(mag);
            }
        }
        _ => {
            let (keep_sign, max) = match f.mod1 {
                2 => (false, 255u32),
                3 => (true, 127),
                6 => (false, 65535),
                _ => (true, 32767),
            };
            // The pages' `Mantissa << Exp` (up to 39 bits) as its integer part and its 23
            // fraction bits, in 32-bit lanes: the fraction is the low 23 bits of the shifted
            // mantissa (bits carried out of the 32-bit lane are integer bits), and an exponent of
            // -1 halves the mantissa (integer part 0).
            for l in 0..32 {
                let x = c[l];
                let mut sign = if keep_sign { x & 0x8000_0000 } else { 0 };
                let e = ((x >> 23) & 0xFF) as i32 - 127;
                let mag = if e < -1 {
                    sign = 0;
                    0
                } else if e >= 16 {
                    max
                } else {
                    let m = 0x80_0000 | (x & 0x7F_FFFF);
                    let frac = if e >= 0 { m << e } else { m >> 1 } & 0x7F_FFFF;
                    let mut mag = (m >> (23 - e)) + (frac >= t[l]) as u32;
                    mag = mag.min(max);
                    if mag == 0 {
                        sign = 0;
                    }
                    mag
                };
                r[l] = sign.wrapping_add(mag);
            }
        }
    }
    if w8(vd) {
        blend(&mut s.lreg[vd], &r, m);
    }
}
