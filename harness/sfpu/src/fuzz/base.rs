//! The state every `diff_stream` input starts from before its sections ([`base_state`], built
//! once per chip), its SFPLOADMACRO configuration, and [`fit_to_chip`], which clears what a
//! chip does not have.

use std::sync::OnceLock;

use sfpu_reference::State;
use sfpu_reference::isa::{Arch, Opcode};
use sfpu_reference::state::{
    FlagStack, FlagStackEntry, LANES, LaneConfig, LoadMacroConfig, Misc, ResetValues,
};

use crate::generate::build_for;
use crate::generate::operands::{FP_SPECIALS, INT_SPECIALS, rotated};

/// Clears what `s`'s chip does not have: on Wormhole the addressing fields only Blackhole has
/// (`RWC.Sp`, `DEST_SP_BASE_Base`, `SFPU_STACK_Incr`, `SFPU_DEST_FMT_*`, the Dst remapping bits),
/// which a Wormhole state document refuses
/// (`docs/spec/sfpu-wormhole.md#blackhole-only-state-in-a-wormhole-document`), so that a
/// divergence's regression vector loads. Nothing on Blackhole.
pub fn fit_to_chip(s: &mut State) {
    if s.arch() == Arch::Wormhole {
        let a = &mut s.Addressing;
        a.RWC.Sp = 0;
        a.DEST_SP_BASE_Base = 0;
        a.SFPU_STACK_Incr = 0;
        a.SFPU_DEST_FMT_Enable = false;
        a.SFPU_DEST_FMT_Base = 0;
        a.DEST_ACCESS_CFG_remap_addrs = false;
        a.DEST_ACCESS_CFG_swizzle_32b = false;
    }
}

/// The state every input starts from before its sections: the documented reset (zeros where it
/// is unspecified) with interesting operands already in place. `LReg[0..=6]` hold the FP and
/// integer special values at different rotations (so every lane meets a different partner),
/// `LReg[7]`'s low four bits are `lane & 15` (the indirect register modes), Dst rows 0..64 hold
/// BF16/FP16 specials and FP32 halves, and `DISABLE_BACKDOOR_LOAD` is set so `VD >= 12` executes.
/// The same on both chips, but for the SFPLOADMACRO templates' encoding (and Wormhole's `vc0`
/// latch, zero).
pub fn base_state(arch: Arch) -> State {
    let mut s = State::reset(arch, &ResetValues::ZEROS);
    s.LReg[0] = FP_SPECIALS;
    s.LReg[1] = INT_SPECIALS;
    s.LReg[2] = rotated(&FP_SPECIALS, 7);
    s.LReg[3] = rotated(&INT_SPECIALS, 5);
    s.LReg[4] = rotated(&FP_SPECIALS, 13);
    s.LReg[5] = rotated(&FP_SPECIALS, 3);
    s.LReg[6] = rotated(&INT_SPECIALS, 11);
    s.LReg[7] = std::array::from_fn(|l| (FP_SPECIALS[(l + 17) % LANES] & !15) | (l as u32 & 15));
    for r in 0..64 {
        s.Dst.DstBits[r] = std::array::from_fn(|c| {
            let v = FP_SPECIALS[(r * 16 + c) % LANES];
            if r % 2 == 0 { (v >> 16) as u16 } else { v as u16 }
        });
    }
    let stack = FlagStack::from_entries(&[
        FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: false },
        FlagStackEntry { LaneFlags: false, UseLaneFlagsForLaneEnable: true },
    ])
    .unwrap_or_default();
    let config = base_load_macro_config(arch);
    for l in 0..LANES {
        s.LaneConfig[l] = LaneConfig::truncating(2);
        s.PRNG[l] = 0x9E37_79B9u32.wrapping_mul(l as u32 + 1);
        s.FlagStack[l] = stack;
        s.LoadMacroConfig[l] = config;
    }
    s
}

/// [`base_state`] of `arch`, built once.
pub(super) fn base_state_of(arch: Arch) -> &'static State {
    static BH: OnceLock<State> = OnceLock::new();
    static WH: OnceLock<State> = OnceLock::new();
    match arch {
        Arch::Blackhole => BH.get_or_init(|| base_state(arch)),
        Arch::Wormhole => WH.get_or_init(|| base_state(arch)),
    }
}

/// The base state's SFPLOADMACRO configuration (the same in every lane): templates SFPMAD,
/// SFPIADD (immediate, no flags), SFPSTOCHRND and SFPSTORE; macro 0 schedules the SFPIADD, the
/// SFPMAD one cycle later and a store two cycles later; macro 1 the SFPIADD into `LReg[16]` and a
/// store; macro 2 the SFPMAD alone; macro 3 the SFPSTOCHRND alone. Sequence bytes: selector in
/// bits `[2:0]`, delay in `[5:3]`, `VD = 16` in bit 6, the VB/VC swap in bit 7; byte `i` drives
/// sub-unit `i` (simple, MAD, round, store). The templates are encoded for `arch`.
pub fn base_load_macro_config(arch: Arch) -> LoadMacroConfig {
    let word = |op, fields: &[(&str, u32)]| {
        let i = build_for(arch, op, fields);
        i.encode(arch).unwrap_or_else(|_| i.encode_blackhole())
    };
    LoadMacroConfig {
        InstructionTemplate: [
            word(Opcode::SFPMAD, &[("VA", 1), ("VB", 2), ("VC", 3), ("VD", 4)]),
            word(Opcode::SFPIADD, &[("Imm12", 3), ("VC", 0), ("VD", 0), ("Mod1", 5)]),
            word(Opcode::SFPSTOCHRND, &[("VC", 2), ("VD", 2), ("Mod1", 1)]),
            word(Opcode::SFPSTORE, &[]),
        ],
        Sequence: [0x130C_0005, 0x1300_0045, 0x0000_0400, 0x0006_0000],
        Misc: Misc::truncating(0),
    }
}
