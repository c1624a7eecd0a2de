//! Cross-lane and cross-register movement shared by both chips: SFPSWAP and SFPTRANSP, and the
//! helpers both chips' SFPSHFT2 pages use.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPSWAP.md`
//! (@ `ba533c05f430d0da6640877a31982d6b38b34e90`; WormholeB0 `SFPSWAP.md`
//! @ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1` has the same functional model, Blackhole adds only
//! a caution about SFPLOADMACRO) and, for the Blackhole stub
//! (@ `1484148400c7063466da07324311a788a487cc42`), WormholeB0 `SFPTRANSP.md` § "Functional model".
//! Each chip's SFPSHFT2 is in `ops::{blackhole,wormhole}::shuffle`.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::{Ctx, SignMagIsSmaller};
use crate::outcome::{Clause, Outcome};
use crate::state::{LANES, State};

/// `VD < 12 || LaneConfig.DISABLE_BACKDOOR_LOAD` where the page writes it outside any lane loop, so
/// no lane is named (SFPTRANSP, SFPSHFT2 modes 2 and 3). When the lanes disagree the guard is
/// unspecified (`docs/spec/sfpu-blackhole.md#guard-outside-lane-loop`); this model then uses lane
/// 0's `LaneConfig`.
pub fn guard_outside_lane_loop(s: &State, cx: &Ctx, VD: usize, out: &mut Outcome) -> bool {
    if VD < 12 {
        return true;
    }
    let dbl: [bool; LANES] = std::array::from_fn(|Lane| cx.DISABLE_BACKDOOR_LOAD(s, Lane));
    if dbl.iter().any(|&b| b != dbl[0]) {
        out.note_all(Clause::GuardOutsideLaneLoop);
    }
    dbl[0]
}

/// `Lane & 7 ? vc[Lane - 1] : vc[Lane + 7]`: rotate right by one lane within each group of 8.
pub fn RotateRight(vc: &[u32; LANES], Lane: usize) -> u32 {
    if Lane & 7 != 0 { vc[Lane - 1] } else { vc[Lane + 7] }
}

/// `SFPSWAP`: lanewise unconditional swap of `VC` and `VD`, or a conditional swap leaving the
/// minimum in `VD` in the lanes a mode-specific mask selects and the maximum elsewhere (or the
/// argmin/argmax form with `LaneConfig.ENABLE_DEST_INDEX`).
///
/// Transcribes BlackholeA0 `SFPSWAP.md` § "Functional model". Mod1 10..15 are
/// `NonContractualBehavior` (`docs/spec/sfpu-blackhole.md#sfpswap-reserved-mod1`).
pub fn SFPSWAP(s: &mut State, cx: &Ctx, VC: usize, VD: usize, Mod1: u32, out: &mut Outcome) {
    let VDGetsMin: u32 = match Mod1 {
        SFPSWAP_MOD1_SWAP => 0, // not used: unconditional swap of VD and VC
        SFPSWAP_MOD1_VEC_MIN_MAX => 0xFFFF_FFFF,
        SFPSWAP_MOD1_SUBVEC_MIN01_MAX23 => 0x0000_FFFF,
        SFPSWAP_MOD1_SUBVEC_MIN02_MAX13 => 0x00FF_00FF,
        SFPSWAP_MOD1_SUBVEC_MIN03_MAX12 => 0xFF00_00FF,
        SFPSWAP_MOD1_SUBVEC_MIN0_MAX123 => 0x0000_00FF,
        SFPSWAP_MOD1_SUBVEC_MIN1_MAX023 => 0x0000_FF00,
        SFPSWAP_MOD1_SUBVEC_MIN2_MAX013 => 0x00FF_0000,
        SFPSWAP_MOD1_SUBVEC_MIN3_MAX012 => 0xFF00_0000,
        9 => 0x0000_0000, // VD = max and VC = min in all lanes; no enum defined
        _ => {
            out.note_all(Clause::SfpswapReservedMod1);
            0x0000_0000 // NonContractualBehavior: as 9 on current silicon
        }
    };
    for Lane in 0..LANES {
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) {
                let VCVal = s.LReg[VC][Lane];
                let VDVal = s.LReg[VD][Lane];
                let mut ShouldSwap;
                if Mod1 == SFPSWAP_MOD1_SWAP {
                    ShouldSwap = true;
                } else {
                    if (VDGetsMin >> Lane) & 1 != 0 {
                        // Want VD = min: swap if VC is smaller.
                        ShouldSwap = SignMagIsSmaller(VCVal, VDVal);
                    } else {
                        // Want VD = max: swap if VC is not smaller.
                        ShouldSwap = !SignMagIsSmaller(VCVal, VDVal);
                    }
                    if s.LaneConfig[Lane].EXCHANGE_SRCB_SRCC() {
                        ShouldSwap = !ShouldSwap;
                    }
                }
                if ShouldSwap {
                    if s.LaneConfig[Lane].ENABLE_DEST_INDEX() {
                        // argmin/argmax: min and max to VC/VD if they are in LReg[0..4], then
                        // swap the index registers in LReg[4..8].
                        if VC < 4 {
                            s.LReg[VC][Lane] = VDVal;
                        }
                        if VD < 4 {
                            s.LReg[VD][Lane] = VCVal;
                        }
                        let VCA = 4 + (VC & 3);
                        let VDA = 4 + (VD & 3);
                        let VCAVal = s.LReg[VCA][Lane];
                        let VDAVal = s.LReg[VDA][Lane];
                        s.LReg[VCA][Lane] = VDAVal;
                        s.LReg[VDA][Lane] = VCAVal;
                    } else {
                        if VC < 8 {
                            s.LReg[VC][Lane] = VDVal;
                        }
                        if VD < 8 {
                            s.LReg[VD][Lane] = VCVal;
                        }
                    }
                }
            }
        }
    }
}

/// `Transpose4(Base)` of `SFPTRANSP.md`: within each column, transpose the 4x4 (register, row)
/// block of `LReg[Base..Base + 4]`, writing only enabled lanes.
fn Transpose4(s: &mut State, Base: usize) {
    for Column in 0..8 {
        for i in 0..4 {
            for j in 0..i {
                let ij = s.LReg[Base + i][j * 8 + Column];
                let ji = s.LReg[Base + j][i * 8 + Column];
                if s.IsLaneEnabled(j * 8 + Column) {
                    s.LReg[Base + i][j * 8 + Column] = ji;
                }
                if s.IsLaneEnabled(i * 8 + Column) {
                    s.LReg[Base + j][i * 8 + Column] = ij;
                }
            }
        }
    }
}

/// `SFPTRANSP`: transpose rows between `LReg[0..4]`, and between `LReg[4..8]`, column by column.
///
/// Transcribes WormholeB0 `SFPTRANSP.md` § "Functional model" (the seed's emulator version without
/// guard or lane enable is wrong:
/// `docs/spec/sfpu-blackhole.md#seed-13-sfptransp-guard-and-lane-enable`).
pub fn SFPTRANSP(s: &mut State, cx: &Ctx, VD: usize, out: &mut Outcome) {
    if guard_outside_lane_loop(s, cx, VD, out) {
        Transpose4(s, 0);
        Transpose4(s, 4);
    }
}
