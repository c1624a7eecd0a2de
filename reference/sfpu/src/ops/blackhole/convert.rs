//! Conversions: SFPCAST (three flavours) and SFPSTOCHRND (three flavours, on the round
//! sub-unit).
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPCAST_IntFloat.md`
//! (@ `4042f5405b56a274553edf4827d684fafbb8ecb2`), `SFPCAST_IntInt.md`, `SFPCAST_IntAbs.md`,
//! `SFPSTOCHRND_FloatFloat.md`, `SFPSTOCHRND_FloatInt.md` and `SFPSTOCHRND_IntInt.md` § "Functional
//! model".
//!
//! Each flavour page calls `UndefinedBehavior()` for the other flavours' Mod1 values; taken
//! together the pages cover every value, so the dispatch below picks the page and that branch is
//! unreachable.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `SFPCAST`: dispatch on `Mod1 & 3` to the flavour page, after the shared
/// `NonContractualBehavior` for `Mod1 > 3` (`docs/spec/sfpu-blackhole.md#sfpcast-reserved-mod1`).
pub fn SFPCAST(s: &mut State, cx: &Ctx, VC: usize, VD: usize, mut Mod1: u32, out: &mut Outcome) {
    if Mod1 > 3 {
        // Reserved instruction modifiers.
        out.note_all(Clause::SfpcastReservedMod1);
        Mod1 &= 3; // Current silicon behavior (not architecturally guaranteed).
    }
    match Mod1 {
        SFPCAST_MOD1_SM32_TO_FP32_RNE | SFPCAST_MOD1_SM32_TO_FP32_RNS => SFPCAST_IntFloat(s, cx, VC, VD, Mod1),
        SFPCAST_MOD1_INT32_ABS => SFPCAST_IntAbs(s, VC, VD),
        _ /* SFPCAST_MOD1_INT32_SM32 */ => SFPCAST_IntInt(s, VC, VD),
    }
}

/// `SFPCAST` sign-magnitude integer to FP32, rounding to nearest even or stochastically with
/// seven PRNG bits.
///
/// Transcribes BlackholeA0 `SFPCAST_IntFloat.md` § "Functional model".
pub fn SFPCAST_IntFloat(s: &mut State, cx: &Ctx, VC: usize, VD: usize, Mod1: u32) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane]; // Sign-magnitude integer.
                let Sign = c & 0x8000_0000;
                let Mag = c & 0x7FFF_FFFF;
                let LZ = if Mag != 0 { Mag.leading_zeros() } else { 157 };
                let Norm = Mag << (LZ & 31);
                let mut d = Sign.wrapping_add((157 - LZ) << 23).wrapping_add(Norm >> 8); // FP32.
                if Mod1 & SFPCAST_MOD1_SM32_TO_FP32_RNS != 0 {
                    // Stochastic rounding using seven bits of PRNG.
                    if (Norm & 0xFE) > ((s.AdvancePRNG(Lane) >> 9) & 0xFE) {
                        d = d.wrapping_add(1);
                    }
                } else {
                    // Round to nearest, ties to even.
                    if (Norm & 0x80) != 0 && (Norm & 0x17F) != 0 {
                        d = d.wrapping_add(1);
                    }
                }
                if VD < 8 || VD == 16 {
                    s.LReg[VD][Lane] = d;
                }
            }
        }
    }
}

/// `SFPCAST` two's complement absolute value (`-2^31` stays `-2^31`).
///
/// Transcribes BlackholeA0 `SFPCAST_IntAbs.md` § "Functional model".
pub fn SFPCAST_IntAbs(s: &mut State, VC: usize, VD: usize) {
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let mut x = s.LReg[VC][Lane];
                if x >= 0x8000_0000 {
                    // Negative: two's complement negation; -2147483648 stays -2147483648.
                    x = x.wrapping_neg();
                }
                s.LReg[VD][Lane] = x;
            }
        }
    }
}

/// `SFPCAST` between two's complement and sign-magnitude (the same formula both ways).
///
/// Transcribes BlackholeA0 `SFPCAST_IntInt.md` § "Functional model".
pub fn SFPCAST_IntInt(s: &mut State, VC: usize, VD: usize) {
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane];
                let Sign = c & 0x8000_0000;
                s.LReg[VD][Lane] = Sign | if Sign != 0 { c.wrapping_neg() } else { c };
            }
        }
    }
}

/// The PRNG bits every SFPSTOCHRND flavour starts from: fetched in every enabled lane, then
/// replaced for `SFPSTOCHRND_RND_NEAREST` and `SFPSTOCHRND_RND_ZERO` (RoundingMode 3, unnamed,
/// has no case in the page's switch, so keeps the PRNG bits: defined by the pseudocode).
fn PRNGBits(s: &mut State, Lane: usize, RoundingMode: u32) -> u32 {
    let mut PRNGBits = s.AdvancePRNG(Lane) & 0x7F_FFFF; // 23 bits
    match RoundingMode {
        SFPSTOCHRND_RND_NEAREST => PRNGBits = 0x40_0000,
        SFPSTOCHRND_RND_ZERO => PRNGBits = 0x7F_FFFF,
        _ => {}
    }
    PRNGBits
}

/// `SFPSTOCHRND`: dispatch on `Mod1` to the flavour page.
///
/// Two encodings the pages do not name are defined by the pseudocode itself, so promised:
/// RoundingMode 3 has no case in the flavour pages' switch, so the PRNG bits are used as fetched
/// (`PRNGBits`); and the float flavours' models never read `Imm5` or `UseImm5`, so they are ignored
/// (`docs/spec/sfpu-blackhole.md#sfpstochrnd-rounding-mode-3-and-useimm5`). Their vectors are
/// tagged `reserved-encoding`.
pub fn SFPSTOCHRND(
    s: &mut State,
    cx: &Ctx,
    RoundingMode: u32,
    Imm5: u32,
    VB: usize,
    VC: usize,
    VD: usize,
    UseImm5: u32,
    Mod1: u32,
) {
    match Mod1 {
        SFPSTOCHRND_MOD1_FP32_TO_FP16A | SFPSTOCHRND_MOD1_FP32_TO_FP16B => {
            SFPSTOCHRND_FloatFloat(s, cx, RoundingMode, VC, VD, Mod1)
        }
        SFPSTOCHRND_MOD1_INT32_TO_UINT8 | SFPSTOCHRND_MOD1_INT32_TO_INT8 => {
            SFPSTOCHRND_IntInt(s, cx, RoundingMode, Imm5, VB, VC, VD, UseImm5, Mod1)
        }
        _ => SFPSTOCHRND_FloatInt(s, cx, RoundingMode, VC, VD, Mod1),
    }
}

/// `SFPSTOCHRND` FP32 to FP32 with 10 (`FP16A`) or 7 (`FP16B`) mantissa bits; denormals and zero
/// become `+0`, NaN becomes infinity of the same sign. Rounds up when the discarded bits are
/// `>=` the threshold.
///
/// Transcribes BlackholeA0 `SFPSTOCHRND_FloatFloat.md` § "Functional model".
pub fn SFPSTOCHRND_FloatFloat(s: &mut State, cx: &Ctx, RoundingMode: u32, VC: usize, VD: usize, Mod1: u32) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let PRNGBits = PRNGBits(s, Lane, RoundingMode);
                let mut x = s.LReg[VC][Lane]; // FP32.
                let Exp = (x >> 23) & 0xFF;
                if Exp == 0 {
                    // Denormal or zero: becomes zero.
                    x = 0;
                } else if Exp == 255 {
                    // ±Infinity or ±NaN: becomes ±Infinity.
                    x &= 0xFF80_0000;
                } else if Mod1 == SFPSTOCHRND_MOD1_FP32_TO_FP16A {
                    // Keep 10 bits of mantissa, use the 13 discarded bits for rounding.
                    let DiscardedBits = x & 0x1FFF;
                    x -= DiscardedBits;
                    if DiscardedBits >= (PRNGBits >> 10) {
                        x = x.wrapping_add(0x2000);
                    }
                } else {
                    // SFPSTOCHRND_MOD1_FP32_TO_FP16B: keep 7 bits, round on the 16 discarded.
                    let DiscardedBits = x & 0xFFFF;
                    x -= DiscardedBits;
                    if DiscardedBits >= (PRNGBits >> 7) {
                        x = x.wrapping_add(0x1_0000);
                    }
                }
                if VD < 8 || VD == 16 {
                    s.LReg[VD][Lane] = x; // FP32.
                }
            }
        }
    }
}

/// `SFPSTOCHRND` FP32 to a bounded sign-magnitude integer (UINT8, INT8, UINT16, INT16).
///
/// Transcribes BlackholeA0 `SFPSTOCHRND_FloatInt.md` § "Functional model".
pub fn SFPSTOCHRND_FloatInt(s: &mut State, cx: &Ctx, RoundingMode: u32, VC: usize, VD: usize, Mod1: u32) {
    let (KeepSign, MaxMagnitude): (bool, u64) = match Mod1 {
        SFPSTOCHRND_MOD1_FP32_TO_INT8 => (true, 127),
        SFPSTOCHRND_MOD1_FP32_TO_UINT8 => (false, 255),
        SFPSTOCHRND_MOD1_FP32_TO_INT16 => (true, 32767),
        _ /* SFPSTOCHRND_MOD1_FP32_TO_UINT16 */ => (false, 65535),
    };
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let PRNGBits = PRNGBits(s, Lane, RoundingMode) as u64;
                let c = s.LReg[VC][Lane]; // FP32.
                let mut Sign = if KeepSign { c & 0x8000_0000 } else { 0 };
                let Exp = ((c >> 23) & 0xFF) as i32 - 127;
                let mut Mag: u64;
                if Exp < -1 {
                    // |x| < 0.5 always becomes zero.
                    Mag = 0;
                    Sign = 0;
                } else if Exp >= 16 {
                    // |x| >= 2**16 always becomes the maximum magnitude, as does NaN.
                    Mag = MaxMagnitude;
                } else {
                    Mag = 0x80_0000 | (c & 0x7F_FFFF) as u64;
                    Mag = if Exp >= 0 { Mag << Exp } else { Mag >> -Exp };
                    Mag = (Mag >> 23) + ((Mag & 0x7F_FFFF) >= PRNGBits) as u64;
                    if Mag > MaxMagnitude {
                        Mag = MaxMagnitude;
                    }
                    if Mag == 0 {
                        Sign = 0;
                    }
                }
                if VD < 8 || VD == 16 {
                    s.LReg[VD][Lane] = Sign + Mag as u32; // Sign-magnitude integer.
                }
            }
        }
    }
}

/// `SFPSTOCHRND` sign-magnitude integer shifted right by `Imm5` or `VB & 31`, rounded, then
/// clamped to UINT8 or INT8.
///
/// Transcribes BlackholeA0 `SFPSTOCHRND_IntInt.md` § "Functional model".
pub fn SFPSTOCHRND_IntInt(
    s: &mut State,
    cx: &Ctx,
    RoundingMode: u32,
    Imm5: u32,
    VB: usize,
    VC: usize,
    VD: usize,
    UseImm5: u32,
    Mod1: u32,
) {
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let PRNGBits = PRNGBits(s, Lane, RoundingMode) as u64;
                let c = s.LReg[VC][Lane]; // Sign-magnitude integer.
                let mut Sign = c & 0x8000_0000;
                let mut Mag = (c & 0x7FFF_FFFF) as u64;
                Mag <<= 23;
                Mag >>= if UseImm5 != 0 { Imm5 } else { s.LReg[VB][Lane] & 31 };
                Mag = (Mag >> 23) + ((Mag & 0x7F_FFFF) >= PRNGBits) as u64;
                if Mod1 == SFPSTOCHRND_MOD1_INT32_TO_UINT8 {
                    if Mag > 255 {
                        Mag = 255;
                    }
                    Sign = 0;
                } else {
                    // SFPSTOCHRND_MOD1_INT32_TO_INT8
                    if Mag > 127 {
                        Mag = 127;
                    }
                    if Mag == 0 {
                        Sign = 0;
                    }
                }
                if VD < 8 || VD == 16 {
                    s.LReg[VD][Lane] = Sign + Mag as u32; // Sign-magnitude integer.
                }
            }
        }
    }
}
