//! SFPCONFIG: writes `LoadMacroConfig`, `LaneConfig` and the programmable constants
//! `LReg[11..=14]`, broadcasting the first 8 lanes of `LReg[0]` (or `Imm16`) to 32 lanes.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPCONFIG.md`
//! (@ `f916ebc3e35ab667647375f04ec7fd56ecba002b`) § "Functional model". Revision
//! `47385dd533abda73a699727d578994dd021dd564` differs from it only in the `LReg[12]` constant: see
//! [`ImmediateConstant`] and `docs/spec/sfpu-blackhole.md#sfpconfig-vd12-constant`.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, LaneConfig, Misc, State};

/// The "default" values written to `LReg[11..=14]` with `MOD1_IMM16_IS_VALUE`, as the page writes
/// them: C `float` literals, converted here by Rust's correctly rounded parser just as a C compiler
/// would: `0xBF800000`, `0x3B000000`, `0xBF2CC4C7`, `0xBEB08FF9` (a test checks them).
///
/// Decision (VD 12, upstream disagreeing with itself): BlackholeA0 `SFPCONFIG.md` at revision
/// `47385dd533abda73a699727d578994dd021dd564` writes `1/65536.f` (`0x37800000`); at revision
/// `f916ebc3e35ab667647375f04ec7fd56ecba002b` it writes `1/512.f` (`0x3B000000`), the rest of the
/// page being identical. The stored pages carry no dates; `f916ebc3` is taken to be the newer
/// because an older stored revision (without the `NonContractualBehavior` wording for VD 9 and
/// 10) also has `1/65536.f`, because upstream issue tenstorrent/tt-isa-documentation#42
/// (2026-01-15) reports the documented `1/65536.f` and says the hardware value is believed to be
/// 1/512 on Wormhole and Blackhole, and because WormholeB0 `SFPCONFIG.md` at revision
/// `376743cf21a72f97d4b158baeb554bea747a9e53` gives `0x3B000000` (1/512). The newest upstream
/// value is kept, and every write of it is still reported as [`Clause::SfpconfigVd12Constant`]
/// (unspecified, `docs/spec/sfpu-blackhole.md#sfpconfig-vd12-constant`).
#[expect(clippy::excessive_precision, reason = "the page's literals, digit for digit")]
pub fn ImmediateConstant(VD: usize) -> u32 {
    match VD {
        11 => (-1.0f32).to_bits(),
        12 => (1.0f32 / 512.0).to_bits(),
        13 => (-0.67487759f32).to_bits(),
        _ => (-0.34484843f32).to_bits(),
    }
}

/// `SFPCONFIG`: for each lane selected by the optional `Imm16` lane mask and by the row-0
/// predication of its column, write `LReg[0][Lane & 7]` (or `Imm16`, or a constant) to the
/// configuration selected by `VD`, possibly combining with a bitwise operation.
///
/// Transcribes BlackholeA0 `SFPCONFIG.md` § "Functional model". The `float` copies into
/// `LReg[11..=14]` are raw 32-bit copies
/// (`docs/spec/sfpu-blackhole.md#arithmetic-written-as-c-float`).
pub fn SFPCONFIG(s: &mut State, Imm16: u32, VD: usize, Mod1: u32, out: &mut Outcome) {
    if Mod1 & MOD1_IMM16_IS_LANE_MASK != 0 && Mod1 & MOD1_IMM16_IS_VALUE != 0 {
        // "Software should generally avoid taking this branch if also setting MOD1_IMM16_IS_VALUE":
        // defined by the model, but discouraged
        // (`docs/spec/sfpu-blackhole.md#sfpconfig-mask-and-value`).
        out.note_all(Clause::SfpconfigMaskAndValue);
    }
    for Lane in 0..LANES {
        if Mod1 & MOD1_IMM16_IS_LANE_MASK != 0 && (Imm16 >> ((Lane & 7) * 2)) & 1 == 0 {
            continue;
        }
        if s.UseLaneFlagsForLaneEnable[Lane & 7] && !s.LaneFlags[Lane & 7] {
            continue;
        }

        match VD {
            0..=3 => {
                // Write to LoadMacroConfig::InstructionTemplate; Imm16 is too small for an
                // instruction, so MOD1_IMM16_IS_VALUE is ignored.
                s.LoadMacroConfig[Lane].InstructionTemplate[VD] = s.LReg[0][Lane & 7];
            }
            4..=7 => {
                // Write to LoadMacroConfig::Sequence.
                let Value = if Mod1 & MOD1_IMM16_IS_VALUE != 0 { Imm16 } else { s.LReg[0][Lane & 7] };
                s.LoadMacroConfig[Lane].Sequence[VD - 4] = Value;
            }
            8 => {
                // Write or manipulate LoadMacroConfig::Misc (a uint12_t).
                let Value = Misc::truncating(if Mod1 & MOD1_IMM16_IS_VALUE != 0 {
                    Imm16
                } else {
                    s.LReg[0][Lane & 7]
                })
                .bits();
                let old = s.LoadMacroConfig[Lane].Misc.bits();
                let new = match Mod1 & 6 {
                    0 => Value,
                    MOD1_BITWISE_OR => old | Value,
                    MOD1_BITWISE_AND => old & Value,
                    _ /* MOD1_BITWISE_XOR */ => old ^ Value,
                };
                s.LoadMacroConfig[Lane].Misc = Misc::truncating(new);
            }
            9 | 10 => {
                // NonContractualBehavior: does nothing on current silicon.
                out.note_lane(Clause::SfpconfigNoopVd, Lane);
            }
            11..=14 => {
                // Write to LReg[VD].
                let Value = if Mod1 & MOD1_IMM16_IS_VALUE != 0 {
                    // Not enough Imm16 bits for a 32-bit float: use a "default" value.
                    if VD == 12 {
                        out.note_lane(Clause::SfpconfigVd12Constant, Lane);
                    }
                    ImmediateConstant(VD)
                } else {
                    s.LReg[0][Lane & 7]
                };
                s.LReg[VD][Lane] = Value;
            }
            15 => {
                // Write or manipulate LaneConfig (a uint18_t).
                let Original = s.LaneConfig[Lane].bits();
                let Value = LaneConfig::truncating(if Mod1 & MOD1_IMM16_IS_VALUE != 0 {
                    Imm16
                } else {
                    s.LReg[0][Lane & 7]
                })
                .bits();
                let mut new = match Mod1 & 6 {
                    0 => Value,
                    MOD1_BITWISE_OR => Original | Value,
                    MOD1_BITWISE_AND => Original & Value,
                    _ /* MOD1_BITWISE_XOR */ => Original ^ Value,
                };
                if Mod1 & MOD1_IMM16_IS_VALUE != 0 {
                    // Imm16 cannot reach the high bits of LaneConfig: put back what they were.
                    new |= Original & !0xFFFF;
                }
                s.LaneConfig[Lane] = LaneConfig::truncating(new);
            }
            _ => {
                // VD == 16: only reachable when SFPLOADMACRO overrides the VD of a scheduled
                // SFPCONFIG (`SFPLOADMACRO.md` overrides `Insn.VD` for every non-store
                // instruction, SFPCONFIG's selector included). The page's `switch (VD)` has no
                // case for it, so nothing is written.
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ImmediateConstant;

    #[test]
    fn constants_match_spec_bits() {
        // `SFPCONFIG.md`: K[11..=14].
        assert_eq!(ImmediateConstant(11), 0xBF80_0000);
        // 1/512 = 2^-9: exponent 127 - 9 = 118 = 0x76, mantissa 0: 0x76 << 23 = 0x3B000000.
        assert_eq!(ImmediateConstant(12), 0x3B00_0000);
        assert_eq!(ImmediateConstant(13), 0xBF2C_C4C7);
        assert_eq!(ImmediateConstant(14), 0xBEB0_8FF9);
    }
}
