//! The multiply-add family on the MAD sub-unit: SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI and the
//! integer SFPMUL24.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPMAD.md`, `SFPADD.md`, `SFPMUL.md` ("As per
//! SFPMAD"), `SFPADDI.md`, `SFPMULI.md` and `SFPMUL24.md` § "Functional model"
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`, SFPMAD
//! @ `241b4eafd49839467d0d83b30feb12bc7f4b2d80`). Arithmetic per § "IEEE754 conformance":
//! [`fp::fma_model_bh`](crate::fp::fma_model_bh).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::fp::fma_model_bh;
use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `SFPMAD` (also `SFPADD` and `SFPMUL`, whose pages say "As per SFPMAD"): lanewise FP32
/// `VD = ±(VA * VB) ± VC`, with `VA` and/or `VD` optionally taken from the low four bits of
/// `LReg[7]`.
///
/// Transcribes BlackholeA0 `SFPMAD.md` § "Functional model".
pub fn SFPMAD(s: &mut State, cx: &Ctx, VA: usize, VB: usize, VC: usize, VD: usize, Mod1: u32) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let va =
                    if Mod1 & SFPMAD_MOD1_INDIRECT_VA != 0 { (s.LReg[7][Lane] & 15) as usize } else { VA };
                let mut a = s.LReg[va][Lane];
                let b = s.LReg[VB][Lane];
                let mut c = s.LReg[VC][Lane];
                if Mod1 & SFPMAD_MOD1_NEGATE_VA != 0 {
                    a ^= 0x8000_0000;
                }
                if Mod1 & SFPMAD_MOD1_NEGATE_VC != 0 {
                    c ^= 0x8000_0000;
                }
                let d = fma_model_bh(a, b, c); // compute a * b + c
                let vd = if (Mod1 & SFPMAD_MOD1_INDIRECT_VD) != 0 && VD != 16 {
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

/// `BF16ToFP32(Imm16)` of `SFPADDI.md` / `SFPMULI.md`: the immediate as the high half of an FP32
/// pattern.
fn BF16ToFP32(x: u32) -> u32 {
    x << 16
}

/// `SFPADDI`: lanewise FP32 `VD = BF16ToFP32(Imm16) * 1.0 ± VD`.
///
/// Transcribes BlackholeA0 `SFPADDI.md` § "Functional model". The C model's `float` arithmetic
/// is "as per SFPMAD" (§ "IEEE754 conformance"), i.e. [`fma_model_bh`] on the raw patterns, and
/// `c = -c` is a sign-bit flip (`docs/spec/sfpu-blackhole.md#arithmetic-written-as-c-float`).
pub fn SFPADDI(s: &mut State, cx: &Ctx, Imm16: u32, VD: usize, Mod1: u32) {
    let VC = cx.implicit_VC(VD); // unsigned VC = VD; (skipped under SFPLOADMACRO)
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let mut c = s.LReg[VC][Lane];
                if Mod1 & SFPMAD_MOD1_NEGATE_VC != 0 {
                    c ^= 0x8000_0000; // c = -c;
                }
                let d = fma_model_bh(BF16ToFP32(Imm16), 0x3F80_0000, c); // BF16ToFP32(Imm16) * 1.0 + c
                let vd = if (Mod1 & SFPMAD_MOD1_INDIRECT_VD) != 0 && VD != 16 {
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

/// `SFPMULI`: lanewise FP32 `VD = BF16ToFP32(Imm16) * ±VD + 0.0`.
///
/// Transcribes BlackholeA0 `SFPMULI.md` § "Functional model" (arithmetic as for [`SFPADDI`]).
pub fn SFPMULI(s: &mut State, cx: &Ctx, Imm16: u32, VD: usize, Mod1: u32) {
    let VC = cx.implicit_VC(VD); // unsigned VC = VD; (skipped under SFPLOADMACRO)
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let mut c = s.LReg[VC][Lane];
                if Mod1 & SFPMAD_MOD1_NEGATE_VC != 0 {
                    c ^= 0x8000_0000; // c = -c;
                }
                let d = fma_model_bh(BF16ToFP32(Imm16), c, 0x0000_0000); // BF16ToFP32(Imm16) * c + 0.0
                let vd = if (Mod1 & SFPMAD_MOD1_INDIRECT_VD) != 0 && VD != 16 {
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

/// `SFPMUL24`: lanewise low or high 23 bits of the product of two 23-bit integers.
///
/// Transcribes BlackholeA0 `SFPMUL24.md` § "Functional model". A non-zero `LReg[VC]` takes the
/// `NonContractualBehavior` path through [`Mul24ShiftAdd`]
/// (`docs/spec/sfpu-blackhole.md#sfpmul24-nonzero-vc`).
pub fn SFPMUL24(
    s: &mut State,
    cx: &Ctx,
    VA: usize,
    VB: usize,
    VC: usize,
    VD: usize,
    Mod1: u32,
    out: &mut Outcome,
) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let va =
                    if Mod1 & SFPMUL24_MOD1_INDIRECT_VA != 0 { (s.LReg[7][Lane] & 15) as usize } else { VA };
                let a = s.LReg[va][Lane];
                let b = s.LReg[VB][Lane];
                let c = s.LReg[VC][Lane];
                let mut d = if Mod1 & SFPMUL24_MOD1_UPPER != 0 {
                    (((a & 0x7F_FFFF) as u64 * (b & 0x7F_FFFF) as u64) >> 23) as u32
                } else {
                    a.wrapping_mul(b) & 0x7F_FFFF
                };
                if c != 0 {
                    // NonContractualBehavior: adjustment from reuse of the floating-point datapath.
                    out.note_lane(Clause::Sfpmul24NonZeroVc, Lane);
                    d = Mul24ShiftAdd(d, c);
                }
                let vd = if (Mod1 & SFPMUL24_MOD1_INDIRECT_VD) != 0 && VD != 16 {
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

/// `Mul24ShiftAdd(p_m, z)` of `SFPMUL24.md`: what current silicon adds to the
/// product when `LReg[VC]` is not zero.
pub fn Mul24ShiftAdd(mut p_m: u32, z: u32) -> u32 {
    let z_e = (z >> 23) & 0xFF;
    if z_e != 0 {
        let p_e = 129;
        let r_e = if p_e > z_e { p_e } else { z_e };
        let s = (r_e - z_e) & 31;
        let z_m = (1u32 << 23) + (z & 0x7F_FFFF);
        let z_m_grs = z_m << 3;
        p_m >>= (r_e - p_e) & 31;
        let z_m = z_m_grs >> s;
        if z_m != 0 {
            p_m = p_m.wrapping_add(z_m);
            p_m = p_m.wrapping_add((((z_m << s) ^ z_m_grs) > 0xFFFF) as u32 * (1 << 16));
            p_m &= 0x7F_FFFF;
        }
    }
    p_m
}
