//! Wormhole's multiply-add family on the MAD sub-unit: SFPMAD, SFPADD, SFPMUL, SFPADDI and
//! SFPMULI, without Blackhole's negation modes, with Wormhole's FMA numerics.
//!
//! Transcribes tt-isa-documentation WormholeB0 `SFPMAD.md`
//! (@ `241b4eafd49839467d0d83b30feb12bc7f4b2d80`), `SFPADD.md`
//! (@ `2f0ad45d5791aaee8f48e227049379d407440f58`), `SFPMUL.md` ("As per SFPMAD"), `SFPADDI.md`
//! (@ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`) and `SFPMULI.md`
//! (@ `9bb1ac3df6f36b8fc93f27ac9280629b8942bae2`) § "Functional model". Arithmetic per § "IEEE754
//! conformance": [`fp::fma_model_wh`](crate::fp::fma_model_wh). Blackhole's pages are in
//! [`ops::blackhole::mad`](crate::ops::blackhole::mad).
//!
//! The Wormhole pages define `SFPMAD_MOD1_INDIRECT_VA` (4) and `SFPMAD_MOD1_INDIRECT_VD` (8) only;
//! the functional models never look at the other Mod1 bits (Blackhole's negations), so they are
//! ignored, and reported as [`Clause::WormholeMadUnnamedMod1`] because the pages promise nothing
//! about them.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::fp::fma_model_wh;
use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `SFPMAD` (also `SFPADD` and `SFPMUL`, "As per SFPMAD"): lanewise FP32 `VD = VA * VB + VC`,
/// with `VA` and/or `VD` optionally taken from the low four bits of `LReg[7]`.
///
/// Transcribes WormholeB0 `SFPMAD.md` § "Functional model".
pub fn SFPMAD(
    s: &mut State,
    cx: &Ctx,
    VA: usize,
    VB: usize,
    VC: usize,
    VD: usize,
    Mod1: u32,
    out: &mut Outcome,
) {
    if Mod1 & !(SFPMAD_MOD1_INDIRECT_VA | SFPMAD_MOD1_INDIRECT_VD) != 0 {
        out.note_all(Clause::WormholeMadUnnamedMod1);
    }
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let va =
                    if Mod1 & SFPMAD_MOD1_INDIRECT_VA != 0 { (s.LReg[7][Lane] & 15) as usize } else { VA };
                let a = s.LReg[va][Lane];
                let b = s.LReg[VB][Lane];
                let c = s.LReg[VC][Lane];
                let d = fma_model_wh(a, b, c); // compute a * b + c
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

/// `SFPADDI`: lanewise FP32 `VD = BF16ToFP32(Imm16) * 1.0 + VD`.
///
/// Transcribes WormholeB0 `SFPADDI.md` § "Functional model"; the C model's `float` arithmetic is
/// "as per SFPMAD", i.e. [`fma_model_wh`] on the raw patterns.
pub fn SFPADDI(s: &mut State, cx: &Ctx, Imm16: u32, VD: usize, Mod1: u32, out: &mut Outcome) {
    if Mod1 & !SFPMAD_MOD1_INDIRECT_VD != 0 {
        out.note_all(Clause::WormholeMadUnnamedMod1);
    }
    let VC = cx.implicit_VC(VD); // unsigned VC = VD; (skipped under SFPLOADMACRO)
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane];
                let d = fma_model_wh(BF16ToFP32(Imm16), 0x3F80_0000, c); // BF16ToFP32(Imm16) * 1.0 + c
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

/// `SFPMULI`: lanewise FP32 `VD = BF16ToFP32(Imm16) * VD + 0.0`.
///
/// Transcribes WormholeB0 `SFPMULI.md` § "Functional model" (arithmetic as for [`SFPADDI`]).
pub fn SFPMULI(s: &mut State, cx: &Ctx, Imm16: u32, VD: usize, Mod1: u32, out: &mut Outcome) {
    if Mod1 & !SFPMAD_MOD1_INDIRECT_VD != 0 {
        out.note_all(Clause::WormholeMadUnnamedMod1);
    }
    let VC = cx.implicit_VC(VD); // unsigned VC = VD; (skipped under SFPLOADMACRO)
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let c = s.LReg[VC][Lane];
                let d = fma_model_wh(BF16ToFP32(Imm16), c, 0x0000_0000); // BF16ToFP32(Imm16) * c + 0.0
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
