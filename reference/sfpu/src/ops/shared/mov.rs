//! Moves and immediates: SFPMOV, SFPLOADI, SFPNOP.
//!
//! Transcribes tt-isa-documentation WormholeB0 `SFPMOV.md`
//! (@ `e99938d294d4db7e3be8dc9e120bbb614356e4cb`), `SFPLOADI.md`
//! (@ `f7fda211c86e1977ff430076cf52b96a7aba8cca`) and `SFPNOP.md`, which the Blackhole stubs
//! (@ `1484148400c7063466da07324311a788a487cc42`) point to.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `SFPMOV`: lanewise `VD = ±VC`, or `VD` = a `LoadMacroConfig` word, the `LaneConfig`, or the next
/// PRNG output; with `Mod1 == SFPMOV_MOD1_ALL_LANES_ENABLED` every lane is written, even disabled
/// ones.
///
/// Transcribes WormholeB0 `SFPMOV.md` § "Functional model", including the `NonContractualBehavior`
/// clearing of the reserved Mod1 bit 2 (`docs/spec/sfpu-blackhole.md#sfpmov-reserved-mod1`).
pub fn SFPMOV(s: &mut State, cx: &Ctx, VC: usize, VD: usize, mut Mod1: u32, out: &mut Outcome) {
    if Mod1 & 4 != 0 {
        // Reserved instruction modifier.
        out.note_all(Clause::SfpmovReservedMod1);
        Mod1 &= !4; // Current silicon behavior (not architecturally guaranteed).
    }
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) || Mod1 == SFPMOV_MOD1_ALL_LANES_ENABLED {
                let x;
                if Mod1 & SFPMOV_MOD1_FROM_SPECIAL != 0 {
                    // The interpretation of VC here mostly matches SFPCONFIG's interpretation of VD.
                    x = match VC {
                        0..=3 => s.LoadMacroConfig[Lane].InstructionTemplate[VC],
                        4..=7 => s.LoadMacroConfig[Lane].Sequence[VC - 4],
                        8 => s.LoadMacroConfig[Lane].Misc.bits(),
                        9 => s.AdvancePRNG(Lane),
                        15 => s.LaneConfig[Lane].bits(),
                        _ => 0,
                    };
                } else {
                    let mut v = s.LReg[VC][Lane];
                    if Mod1 & SFPMOV_MOD1_NEGATE != 0 {
                        v ^= 0x8000_0000; // Inverts the sign bit (FP32 or sign-magnitude integer).
                    }
                    x = v;
                }
                if VD < 8 || VD == 16 {
                    s.LReg[VD][Lane] = x;
                }
            }
        }
    }
}

/// `FP16toFP32(x)` of `SFPLOADI.md`: widen and rebias the exponent, with no special cases.
fn FP16toFP32(x: u32) -> u32 {
    let Sign = (x >> 15) & 1;
    let mut Exp = (x >> 10) & 0x1F;
    let Man = x & 0x3FF;
    Exp += 112; // Rebias the 5-bit exponent to 8 bits.
    (Sign << 31) | (Exp << 23) | (Man << 13)
}

/// `SFPLOADI`: lanewise load a 16-bit immediate as BF16, FP16, unsigned or signed integer, or into
/// one half of `VD`.
///
/// Transcribes WormholeB0 `SFPLOADI.md` § "Functional model". Other Mod0 values reach the
/// `default:` label's `UndefinedBehaviour()`, which the page places inside `lanewise` and
/// `if (LaneEnabled)`: the behaviour is undefined in the enabled lanes only
/// (`docs/spec/sfpu-blackhole.md#sfploadi-reserved-mod0`). Those lanes are reported and this model
/// writes nothing to them; disabled lanes, and every lane when `VD >= 8`, never reach the `switch`
/// and are untouched and defined.
pub fn SFPLOADI(s: &mut State, VD: usize, Mod0: u32, Imm16: u32, out: &mut Outcome) {
    if VD < 8 {
        for Lane in 0..LANES {
            if s.IsLaneEnabled(Lane) {
                s.LReg[VD][Lane] = match Mod0 {
                    SFPLOADI_MOD0_FLOATB => Imm16 << 16,       // BF16toFP32(Imm16)
                    SFPLOADI_MOD0_FLOATA => FP16toFP32(Imm16), // FP16toFP32(Imm16)
                    SFPLOADI_MOD0_USHORT => Imm16,             // ZeroExtend(Imm16)
                    SFPLOADI_MOD0_SHORT => Imm16 as u16 as i16 as i32 as u32, // SignExtend(Imm16)
                    SFPLOADI_MOD0_UPPER => (Imm16 << 16) | (s.LReg[VD][Lane] & 0x0000_FFFF),
                    SFPLOADI_MOD0_LOWER => (s.LReg[VD][Lane] & 0xFFFF_0000) | Imm16,
                    _ => {
                        out.note_lane(Clause::SfploadiReservedMod0, Lane); // UndefinedBehaviour();
                        continue;
                    }
                };
            }
        }
    } else {
        // Cannot write directly to LReg[11] through LReg[14]; software should instead write to
        // LReg[0] and then use SFPCONFIG.
    }
}

/// `SFPNOP`: no effect (WormholeB0 `SFPNOP.md`). It occupies its sub-unit for a cycle, which
/// matters to the [`Machine`](crate::Machine), not here.
pub fn SFPNOP() {}
