//! SFPARECIP: approximate reciprocal and exponential by table lookup (new in Blackhole).
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPARECIP.md`
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`) § "Functional model", with its `ApproxRecip` and
//! `ApproxExp`. The page prints two lookup tables (128 and 896 bytes); rather than copying them,
//! this module generates them from rules that reproduce every printed entry, and the tests check
//! the result against the printed tables' checksums (sum, CRC-32, SHA-256); both are in
//! `docs/spec/sfpu-blackhole.md#sfparecip-tables`.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use std::sync::OnceLock;

use crate::isa::mods::*;
use crate::state::{LANES, State};

/// The 128-entry table of `ApproxRecip`: the 7-bit mantissa of `2 / (1 + (i + 0.5) / 128)`, rounded
/// to nearest, i.e. `floor(32768 / (128.5 + i) + 0.5) - 128`
/// (`docs/spec/sfpu-blackhole.md#sfparecip-tables`).
pub fn recip_lut() -> &'static [u8; 128] {
    static LUT: OnceLock<[u8; 128]> = OnceLock::new();
    LUT.get_or_init(|| std::array::from_fn(|i| ((32768.0 / (128.5 + i as f64) + 0.5).floor() - 128.0) as u8))
}

/// The 896-entry table of `ApproxExp`, indexed by `(x >> 16) - 0x3C80`: the upper 16 bits of the
/// FP32 rounding of `e^xh`, where `xh` is the input with its low 16 bits cleared, less `0x3F80`
/// (entries 0..690) or `0x4000` (entries 690..896)
/// (`docs/spec/sfpu-blackhole.md#sfparecip-tables`).
pub fn exp_lut() -> &'static [u8; 896] {
    static LUT: OnceLock<[u8; 896]> = OnceLock::new();
    LUT.get_or_init(|| {
        std::array::from_fn(|idx| {
            let xh = f32::from_bits((0x3C80 + idx as u32) << 16);
            let top16 = ((xh as f64).exp() as f32).to_bits() >> 16;
            (top16 - if idx < 690 { 0x3F80 } else { 0x4000 }) as u8
        })
    })
}

/// `ApproxRecip(x)` of `SFPARECIP.md` for a sign-less FP32 pattern `x`.
pub fn ApproxRecip(x: u32) -> u32 {
    let LUT = recip_lut();
    if x < 0x0080_0000 {
        // x < 2**-126
        0x7F80_0000 // Inf
    } else if x < 0x7E80_0000 {
        // x < 2**126
        ((253 - (x >> 23)) << 23) | ((LUT[((x >> 16) & 0x7F) as usize] as u32) << 16)
    } else {
        0
    }
}

/// `ApproxExp(x)` of `SFPARECIP.md` for a sign-less FP32 pattern `x`.
pub fn ApproxExp(x: u32) -> u32 {
    let LUT = exp_lut();
    let low16 = x & 0xFFFF; // (uint16_t)x
    if x < 0x0080_0000 {
        // x < 2**-126
        0x3F80_0000 // 1.0
    } else if x < 0x3C80_0000 {
        // x < 0.015625
        0x3F81_0000 | low16
    } else if x < 0x3F32_0000 {
        // x < 0.6953125
        0x3F80_0000 | ((LUT[((x >> 16) - 0x3C80) as usize] as u32) << 16) | low16
    } else if x < 0x4000_0000 {
        // x < 2
        0x4000_0000 | ((LUT[((x >> 16) - 0x3C80) as usize] as u32) << 16) | low16
    } else {
        0x4080_0000 | low16
    }
}

/// `SFPARECIP`: lanewise approximate `1/x`, conditional `1/|x|`, or `sign(x) * e^|x|`.
///
/// Transcribes BlackholeA0 `SFPARECIP.md` § "Functional model". Mod1 values 3..15 take the C
/// `default:` label of the EXP case, so the pseudocode defines them as EXP: promised
/// (`docs/spec/sfpu-blackhole.md#sfparecip-other-mod1-values`). Their vectors are tagged
/// `reserved-encoding`.
pub fn SFPARECIP(s: &mut State, VB: usize, VC: usize, VD: usize, Mod1: u32) {
    if VD < 8 || VD == 16 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                let mut x = s.LReg[VC][Lane]; // FP32
                let Sign = x & 0x8000_0000;
                match Mod1 {
                    SFPARECIP_MOD1_RECIP => x = Sign + ApproxRecip(x - Sign),
                    SFPARECIP_MOD1_COND_RECIP => {
                        if (s.LReg[VB][Lane] as i32) < 0 {
                            x = ApproxRecip(x - Sign);
                        }
                    }
                    _ /* SFPARECIP_MOD1_EXP, default */ => x = Sign + ApproxExp(x - Sign),
                }
                s.LReg[VD][Lane] = x; // FP32
            }
        }
    }
}
