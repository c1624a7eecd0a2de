//! FP32 field manipulation on the simple sub-unit: SFPDIVP2, SFPEXEXP, SFPEXMAN, SFPSETEXP,
//! SFPSETMAN, SFPSETSGN and SFPABS.
//!
//! The Blackhole pages of these instructions are stubs pointing to the Wormhole pages ("The
//! functionality is identical"; @ `1484148400c7063466da07324311a788a487cc42`), so this transcribes
//! WormholeB0 `SFPDIVP2.md`, `SFPEXMAN.md` (@ `18b6c91cd8cfc165d32c8e2bbd3fae92447d918b` of the
//! jasondavies/tt-isa-documentation mirror), `SFPEXEXP.md`, `SFPSETEXP.md`, `SFPSETMAN.md`,
//! `SFPSETSGN.md` (tt-isa-documentation @ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`).
//!
//! SFPABS follows BlackholeA0 `SFPABS.md` @ `445ebb1fe6905e0c4688160ace34580db56e0108`
//! (tenstorrent/tt-isa-documentation): the revision whose functional model it transcribes, which
//! defines `SFPABS_MOD1_INT` and leaves only `x > 0xff800000u` (-NaN) negative. The older
//! revision at `18b6c91` compares `x >= 0xff800000u` (which would keep -Inf negative); later
//! revisions make the Blackhole page a stub pointing to the Wormhole page, "identical".

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::state::{LANES, State};

/// `SFPDIVP2`: lanewise replace the FP32 exponent with `Imm8`, or add `Imm8` to it (wrapping;
/// infinities and NaNs untouched).
///
/// Transcribes WormholeB0 `SFPDIVP2.md` § "Functional model".
pub fn SFPDIVP2(s: &mut State, Imm8: u32, VC: usize, VD: usize, Mod1: u32) {
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane];
                let Sign = c >> 31;
                let mut Exp = (c >> 23) & 0xFF;
                let Man = c & 0x7F_FFFF;
                if Mod1 & SFPSDIVP2_MOD1_ADD != 0 {
                    if Exp == 255 {
                        // Infinity and NaN left unchanged.
                    } else {
                        // Wrapping addition of the 8-bit exponent and the 8-bit immediate.
                        Exp = (Exp + Imm8) & 0xFF;
                    }
                } else {
                    // The 8-bit immediate becomes the exponent.
                    Exp = Imm8;
                }
                s.LReg[VD][Lane] = (Sign << 31) | (Exp << 23) | Man;
            }
        }
    }
}

/// `SFPEXEXP`: lanewise extract the FP32 exponent, optionally unbiased, optionally setting
/// `LaneFlags` from its sign.
///
/// Transcribes WormholeB0 `SFPEXEXP.md` § "Functional model".
pub fn SFPEXEXP(s: &mut State, VC: usize, VD: usize, Mod1: u32) {
    let Bias: i32 = if Mod1 & SFPEXEXP_MOD1_NODEBIAS != 0 { 0 } else { 127 };
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane]; // FP32.
                let Exp = ((c >> 23) & 0xFF) as i32;
                s.LReg[VD][Lane] = (Exp - Bias) as u32; // Two's complement integer.
                if VD < 8 {
                    if Mod1 & SFPEXEXP_MOD1_SET_CC_SGN_EXP != 0 {
                        s.LaneFlags[Lane] = (s.LReg[VD][Lane] as i32) < 0;
                    }
                    if Mod1 & SFPEXEXP_MOD1_SET_CC_COMP_EXP != 0 {
                        s.LaneFlags[Lane] = !s.LaneFlags[Lane];
                    }
                }
            }
        }
    }
}

/// `SFPEXMAN`: lanewise extract the 23 mantissa bits, with the hidden bit 23 set unless
/// `SFPEXMAN_MOD1_PAD9`.
///
/// Transcribes WormholeB0 `SFPEXMAN.md` § "Functional model".
pub fn SFPEXMAN(s: &mut State, VC: usize, VD: usize, Mod1: u32) {
    let HiddenBit = if Mod1 & SFPEXMAN_MOD1_PAD9 != 0 { 0 } else { 1u32 << 23 };
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane]; // FP32.
                let Man = c & 0x7F_FFFF;
                s.LReg[VD][Lane] = HiddenBit + Man; // Any kind of integer.
            }
        }
    }
}

/// `SFPSETEXP`: lanewise `VD = {VC.Sign, e, VC.Man}` with `e` from `Imm8`, the exponent of `VD`,
/// or the low 8 bits of `VD`.
///
/// Transcribes WormholeB0 `SFPSETEXP.md` § "Functional model".
pub fn SFPSETEXP(s: &mut State, cx: &Ctx, Imm8: u32, VC: usize, VD: usize, Mod1: u32) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane]; // FP32.
                let Sign = c >> 31;
                let Exp;
                let Man = c & 0x7F_FFFF;
                if Mod1 & SFPSETEXP_MOD1_ARG_IMM != 0 {
                    // New exponent bits come from Imm8.
                    Exp = Imm8;
                } else {
                    let b = s.LReg[VB][Lane];
                    if Mod1 & SFPSETEXP_MOD1_ARG_EXPONENT != 0 {
                        // New exponent bits come from existing FP32 exponent bits.
                        Exp = (b >> 23) & 0xFF;
                    } else {
                        // New exponent bits come from low bits of existing integer.
                        Exp = b & 0xFF;
                    }
                }
                s.LReg[VD][Lane] = (Sign << 31) | (Exp << 23) | Man; // FP32.
            }
        }
    }
}

/// `SFPSETMAN`: lanewise `VD = {VC.Sign, VC.Exp, m}` with `m` from `Imm12 << 11` or the low 23
/// bits of `VD`.
///
/// Transcribes WormholeB0 `SFPSETMAN.md` § "Functional model".
pub fn SFPSETMAN(s: &mut State, cx: &Ctx, Imm12: u32, VC: usize, VD: usize, Mod1: u32) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane]; // FP32.
                let Sign = c >> 31;
                let Exp = (c >> 23) & 0xFF;
                let Man = if Mod1 & SFPSETMAN_MOD1_ARG_IMM != 0 {
                    // Imm12 shifted left by 11: FP32 has 23 mantissa bits, the field only 12.
                    Imm12 << 11
                } else {
                    // Low bits of the existing FP32 mantissa or integer.
                    let b = s.LReg[VB][Lane];
                    b & 0x7F_FFFF
                };
                s.LReg[VD][Lane] = (Sign << 31) | (Exp << 23) | Man; // FP32.
            }
        }
    }
}

/// `SFPSETSGN`: lanewise `VD = {s, VC.Exp, VC.Man}` with `s` from `Imm1` or the sign of `VD`.
///
/// Transcribes WormholeB0 `SFPSETSGN.md` § "Functional model".
pub fn SFPSETSGN(s: &mut State, cx: &Ctx, Imm1: u32, VC: usize, VD: usize, Mod1: u32) {
    let VB = cx.implicit_VB(VD); // unsigned VB = VD; (skipped under SFPLOADMACRO)
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane]; // FP32.
                let Exp = (c >> 23) & 0xFF;
                let Man = c & 0x7F_FFFF;
                let Sign = if Mod1 & SFPSETSGN_MOD1_ARG_IMM != 0 {
                    Imm1 // New sign bit comes from Imm1.
                } else {
                    let b = s.LReg[VB][Lane];
                    b >> 31 // Existing FP32 or integer sign bit.
                };
                s.LReg[VD][Lane] = (Sign << 31) | (Exp << 23) | Man; // FP32.
            }
        }
    }
}

/// `SFPABS`: lanewise two's complement or FP32 absolute value (FP32 `-NaN` stays `-NaN`, integer
/// `-2^31` stays `-2^31`).
///
/// Transcribes BlackholeA0 `SFPABS.md` @ `445ebb1` § "Functional model" (shared with Wormhole).
/// `Mod1` bits 1..3 are never read: computed as with them clear (vectors tagged `reserved-bits`).
pub fn SFPABS(s: &mut State, VC: usize, VD: usize, Mod1: u32) {
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let mut x = s.LReg[VC][Lane];
                if x >= 0x8000_0000 {
                    // Sign bit is set, i.e. the value is negative.
                    if Mod1 & SFPABS_MOD1_FLOAT != 0 {
                        // `x > 0xff800000u` as at 445ebb1 (the older 18b6c91 had `>=`, which
                        // would keep -Inf negative; `docs/spec/sfpu-blackhole.md#sfpabs-revision`).
                        if x > 0xFF80_0000 {
                            // Value is -NaN; leave it as -NaN.
                        } else {
                            x &= 0x7FFF_FFFF; // Clear the sign bit.
                        }
                    } else {
                        // Two's complement negation; -2147483648 stays -2147483648.
                        x = x.wrapping_neg();
                    }
                }
                s.LReg[VD][Lane] = x;
            }
        }
    }
}
