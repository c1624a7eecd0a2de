//! Piecewise-linear lookup on the MAD sub-unit, shared by both chips: SFPLUT (8-bit coefficients)
//! and SFPLUTFP32 (FP32 or FP16 coefficients).
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPLUT.md`
//! (@ `487985445df2865103dcec7972bb5050af2fe27c`) and `SFPLUTFP32.md`
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`) § "Functional model". The Wormhole pages have the
//! same functional models (WormholeB0 `SFPLUT.md` is the same revision; WormholeB0 `SFPLUTFP32.md`
//! @ `135471044308278122aec9664bd5f0935429205f` differs only in its encoding, without `Mod1Mirror`,
//! and its scheduling). `a * b + c` is "as per SFPMAD", which each chip's "IEEE754 conformance"
//! section selects: [`crate::fp::fma_model`] with the state's chip.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::fp::fma_model;
use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::state::{LANES, State};

/// `Lut8ToFp32(x)` of `SFPLUT.md`: `±(1 + m/16) * 2^-e`, or 0 for `0xFF`.
pub fn Lut8ToFp32(x: u32) -> u32 {
    let x = x & 0xFF;
    if x == 0xFF {
        return 0;
    }
    let Sign = x >> 7;
    let Exp = (x >> 4) & 7;
    let Man = x & 0xF;
    (Sign << 31) | ((127 - Exp) << 23) | (Man << 19)
}

/// `Lut16ToFp32(x)` of `SFPLUTFP32.md`: FP16-like, but exponent 0 is a normal number
/// and exponent 31 gives FP32 exponent 0.
pub fn Lut16ToFp32(x: u32) -> u32 {
    let x = x & 0xFFFF;
    let Sign = x >> 15;
    let Exp = (x >> 10) & 0x1F;
    let Man = x & 0x3FF;
    (Sign << 31) | ((if Exp == 0x1F { 0 } else { 112 + Exp }) << 23) | (Man << 13)
}

/// `SFPLUT`: lanewise `VD = Lut8ToFp32(LReg[i] >> 8) * |LReg[3]| + Lut8ToFp32(LReg[i])`, where
/// `i` is 0, 1 or 2 by the magnitude of `LReg[3]`.
///
/// Transcribes BlackholeA0 `SFPLUT.md` § "Functional model". The modifiers are in `Mod0`.
pub fn SFPLUT(s: &mut State, cx: &Ctx, VD: usize, Mod0: u32) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let l3 = s.LReg[3][Lane];
                let b = l3 & 0x7FFF_FFFF; // absolute value
                let coeffs = if b < 0x3F80_0000 {
                    s.LReg[0][Lane] // b < 1.0f
                } else if b < 0x4000_0000 {
                    s.LReg[1][Lane] // b < 2.0f
                } else {
                    s.LReg[2][Lane]
                };
                let a = Lut8ToFp32((coeffs >> 8) & 0xFF);
                let c = Lut8ToFp32(coeffs & 0xFF);
                let mut d = fma_model(s.arch(), a, b, c); // compute a * b + c (the chip's FMA model)
                if Mod0 & SFPLUT_MOD0_SGN_RETAIN != 0 {
                    d = (d & 0x7FFF_FFFF) | (l3 & 0x8000_0000); // copy sign bit from l3
                }
                let vd = if (Mod0 & SFPLUT_MOD0_INDIRECT_VD) != 0 && VD != 16 {
                    (s.LReg[7][Lane] & 15) as usize
                } else {
                    VD
                };
                if vd < 8 || vd == 16 {
                    s.LReg[vd][Lane] = d;
                }
            }
        }
    }
}

/// `SFPLUTFP32`: lanewise `VD = a * |LReg[3]| + c` with `a`, `c` FP32 from `LReg[i]`,
/// `LReg[4 + i]`, or FP16-like halves of them.
///
/// Transcribes BlackholeA0 `SFPLUTFP32.md` § "Functional model". The C model works on `float`:
/// `fabsf` and `copysignf` are sign-bit operations on the raw patterns, the comparisons are IEEE
/// comparisons (NaN compares false, so a NaN `LReg[3]` selects the last segment), and `a * b + c`
/// is the chip's FMA model (`docs/spec/sfpu-blackhole.md#arithmetic-written-as-c-float`). Because
/// `SFPLUTFP32_MOD1_FP16_3ENTRY_TABLE` includes the `SFPLUTFP32_MOD1_INDIRECT_VD` bit, that mode
/// always writes `LReg[LReg[7] & 15]`.
pub fn SFPLUTFP32(s: &mut State, cx: &Ctx, VD: usize, Mod1: u32) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let l3 = s.LReg[3][Lane];
                let b = l3 & 0x7FFF_FFFF; // fabsf(l3)
                let bf = f32::from_bits(b);
                let i: usize = if bf < 1.0 {
                    0
                } else if bf < 2.0 {
                    1
                } else {
                    2
                };
                let (a, c);
                if Mod1 & SFPLUTFP32_MOD1_FP16_6ENTRY_TABLE1 != 0 {
                    if (Mod1 & SFPLUTFP32_MOD1_FP16_3ENTRY_TABLE) == SFPLUTFP32_MOD1_FP16_3ENTRY_TABLE {
                        a = Lut16ToFp32((s.LReg[i][Lane] >> 16) & 0xFFFF);
                        c = Lut16ToFp32(s.LReg[i][Lane] & 0xFFFF);
                    } else {
                        let cut = if (Mod1 & SFPLUTFP32_MOD1_FP16_6ENTRY_TABLE2)
                            == SFPLUTFP32_MOD1_FP16_6ENTRY_TABLE2
                        {
                            4.0
                        } else {
                            3.0
                        };
                        let j = if bf < 0.5 {
                            0
                        } else if bf < 1.0 {
                            16
                        } else if bf < 1.5 {
                            0
                        } else if bf < 2.0 {
                            16
                        } else if bf < cut {
                            0
                        } else {
                            16
                        };
                        a = Lut16ToFp32((s.LReg[i][Lane] >> j) & 0xFFFF);
                        c = Lut16ToFp32((s.LReg[4 + i][Lane] >> j) & 0xFFFF);
                    }
                } else {
                    a = s.LReg[i][Lane];
                    c = s.LReg[4 + i][Lane];
                }
                let mut d = fma_model(s.arch(), a, b, c); // float d = a * b + c; (the chip's FMA model)
                if Mod1 & SFPLUTFP32_MOD1_SGN_RETAIN != 0 {
                    d = (d & 0x7FFF_FFFF) | (l3 & 0x8000_0000); // d = copysignf(d, l3);
                }
                let vd = if (Mod1 & SFPLUTFP32_MOD1_INDIRECT_VD) != 0 && VD != 16 {
                    (s.LReg[7][Lane] & 15) as usize
                } else {
                    VD
                };
                if vd < 8 || vd == 16 {
                    s.LReg[vd][Lane] = d;
                }
            }
        }
    }
}
