//! Wormhole's data movement between Dst and the LRegs: SFPLOAD and SFPSTORE, with their format
//! conversions (a 7-bit `INT8` magnitude, sign-magnitude to two's complement for `INT32_SM` and
//! `INT8_COMP`, a raw `FP32` store), address computation (no Sp term) and RWC updates.
//!
//! Transcribes tt-isa-documentation WormholeB0 `SFPLOAD.md`
//! (@ `1392d237dca6f783b1b1efb44b82f492fc1bc32e`) and `SFPSTORE.md`
//! (@ `545c98a36757417fc518c70f54032bb05063dbf7`) § "Functional model", and `ApplyAddrMod` /
//! `ApplyPartialAddrMod` of WormholeB0 `RWCs.md`. The helpers both chips' pages share are in
//! [`ops::shared::dst_formats`](crate::ops::shared::dst_formats); Blackhole's pages are in
//! [`ops::blackhole::load_store`](crate::ops::blackhole::load_store).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::ops::shared::dst_formats::{
    ReadFP16, SignMag11ToFP16, SignMag11ToSignMag32, SignMag16ToSignMag32, ToBF16, ToFP16, note_dst,
};
use crate::outcome::Outcome;
use crate::state::addressing::data_format::*;
use crate::state::{DstDecodeBF16, DstDecodeFP32, DstEncodeBF16, DstEncodeFP16, DstEncodeFP32, LANES, State};

/// Resolves `MOD0_FMT_SRCB` to `MOD0_FMT_FP32`, `MOD0_FMT_BF16` or `MOD0_FMT_FP16` from the
/// configuration (the block that opens both pages' functional models); other Mod0 values are
/// returned unchanged. Unlike Blackhole's, there is no `SFPU_DEST_FMT` override.
pub fn ResolveSrcB(s: &State, Mod0: u32) -> u32 {
    let ConfigState = &s.Addressing;
    if Mod0 != MOD0_FMT_SRCB {
        return Mod0;
    }
    if ConfigState.ALU_ACC_CTRL_SFPU_Fp32_enabled {
        return MOD0_FMT_FP32; // NB: Functionally identical to MOD0_FMT_INT32.
    }
    let SrcBFmt = if ConfigState.ALU_FORMAT_SPEC_REG_SrcB_override {
        ConfigState.ALU_FORMAT_SPEC_REG_SrcB_val
    } else {
        ConfigState.ALU_FORMAT_SPEC_REG1_SrcB
    };
    if [FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16].contains(&SrcBFmt) {
        MOD0_FMT_BF16
    } else {
        MOD0_FMT_FP16
    }
}

/// The "Apply various Dst address adjustments" block of both pages: the 10-bit `Addr`. Only the
/// low two bits of the Dst offset count in `MOD0_FMT_INT32_ALL`; there is no Sp RWC.
pub fn ComputeAddr(s: &State, Mod0: u32, Imm10: u32) -> u32 {
    let ConfigState = &s.Addressing;
    let mut Addr = (Imm10 + ConfigState.DEST_TARGET_REG_CFG_MATH_Offset as u32) & 0x3FF;
    let DstOffset = s.Addressing.RWC.Dst as u32 + ConfigState.DEST_REGW_BASE_Base as u32;
    if Mod0 == MOD0_FMT_INT32_ALL {
        Addr = (Addr + (DstOffset & 3)) & 0x3FF;
    } else {
        Addr = (Addr + DstOffset) & 0x3FF;
    }
    Addr
}

/// `ApplyPartialAddrMod(AddrMod)` of WormholeB0 `RWCs.md`: `ApplyAddrMod(AddrMod, false)`, which
/// advances the Dst, SrcA and SrcB RWCs (and the bias bit) as the selected slot says, but not
/// FidelityPhase. The slot is the two `AddrMod` bits, plus 4 when `ExtraAddrModBit` or
/// `ADDR_MOD_SET_Base` is set.
pub fn ApplyPartialAddrMod(s: &mut State, AddrMod: u32) {
    let a = &mut s.Addressing;
    let mut Index = (AddrMod & 3) as usize;
    if a.RWC.ExtraAddrModBit != 0 || a.ADDR_MOD_SET_Base {
        Index += 4;
    }
    let slot = a.ADDR_MOD[Index];
    let RWC = &mut a.RWC;

    if slot.SrcAClear {
        RWC.SrcA = 0;
        RWC.SrcA_Cr = 0;
    } else if slot.SrcACR {
        RWC.SrcA_Cr = (RWC.SrcA_Cr + slot.SrcAIncr) & 0x3F;
        RWC.SrcA = RWC.SrcA_Cr;
    } else {
        RWC.SrcA = (RWC.SrcA + slot.SrcAIncr) & 0x3F;
    }

    if slot.SrcBClear {
        RWC.SrcB = 0;
        RWC.SrcB_Cr = 0;
    } else if slot.SrcBCR {
        RWC.SrcB_Cr = (RWC.SrcB_Cr + slot.SrcBIncr) & 0x3F;
        RWC.SrcB = RWC.SrcB_Cr;
    } else {
        RWC.SrcB = (RWC.SrcB + slot.SrcBIncr) & 0x3F;
    }

    if slot.DestClear {
        RWC.Dst = 0;
        RWC.Dst_Cr = 0;
    } else if slot.DestCToCR {
        RWC.Dst = (RWC.Dst + slot.DestIncr) & 0x3FF;
        RWC.Dst_Cr = RWC.Dst;
    } else if slot.DestCR {
        RWC.Dst_Cr = (RWC.Dst_Cr + slot.DestIncr) & 0x3FF;
        RWC.Dst = RWC.Dst_Cr;
    } else {
        RWC.Dst = (RWC.Dst + slot.DestIncr) & 0x3FF;
    }

    // UpdateFidelityPhase is false: SFPLOAD / SFPSTORE / SFPLOADMACRO do not update FidelityPhase.

    if slot.BiasClear {
        RWC.ExtraAddrModBit = 0;
    } else if slot.BiasIncr & 3 != 0 {
        RWC.ExtraAddrModBit = (RWC.ExtraAddrModBit + 1) & 1;
    }
}

/// `SignMag8ToSignMag32(x)` of WormholeB0 `SFPLOAD.md`: Dst holds Sign, Ignored(3b), Mag(7b),
/// Ignored(5b), so the magnitude is at most 127 (Blackhole's `SignMag9ToSignMag32` keeps 8 bits).
pub fn SignMag8ToSignMag32(x: u32) -> u32 {
    let Sign = (x >> 15) & 1;
    let Mag = (x >> 5) & 0x7F;
    (Sign << 31) | Mag
}

/// `SignMagToTwosComp(x)` of WormholeB0 `SFPLOAD.md`: sign and 31-bit magnitude to 32-bit two's
/// complement.
pub fn SignMagToTwosComp(x: u32) -> u32 {
    let Sign = x & 0x8000_0000;
    let Mag = x & 0x7FFF_FFFF;
    if Sign != 0 { Mag.wrapping_neg() } else { Mag }
}

/// `ToSignMag(x)` of WormholeB0 `SFPSTORE.md`: 32-bit two's complement to sign and 31-bit
/// magnitude (`-2^31` becomes sign-magnitude `-0`, as the formula says; the page's table asks for
/// inputs other than `-2^31`).
pub fn ToSignMag(x: u32) -> u32 {
    let Sign = x & 0x8000_0000;
    let Mag = if Sign != 0 { x.wrapping_neg() } else { x };
    Sign | (Mag & 0x7FFF_FFFF)
}

/// `SFPLOAD`: move (up to) 32 datums from the even or odd columns of four consecutive Dst rows to
/// `LReg[VD]`, converting the format. Returns the computed `Addr`, which SFPLOADMACRO keeps for
/// its scheduled store.
///
/// Transcribes WormholeB0 `SFPLOAD.md` § "Functional model".
pub fn SFPLOAD(s: &mut State, VD: usize, Mod0: u32, AddrMod: u32, Imm10: u32, out: &mut Outcome) -> u32 {
    // Resolve MOD0_FMT_SRCB to something concrete.
    let Mod0 = ResolveSrcB(s, Mod0);

    // Apply various Dst address adjustments.
    let Addr = ComputeAddr(s, Mod0, Imm10);

    if VD < 8 {
        for Lane in 0..LANES {
            if s.LaneConfig[Lane].BLOCK_SFPU_RD_FROM_DEST() {
                continue;
            }
            if s.IsLaneEnabled(Lane) || Mod0 == MOD0_FMT_INT32_ALL {
                let Row = ((Addr & !3) + (Lane as u32 / 8)) & 0x3FF;
                let mut Column = (Lane as u32 & 7) * 2;
                if (Addr & 2) != 0 || s.LaneConfig[Lane & 7].DEST_RD_COL_EXCHANGE() {
                    Column += 1;
                }
                let read16 = |s: &State| s.Dst16b_read(Row, Column);
                let read32 = |s: &State| s.Dst32b_read(Row, Column);
                let (access, Datum) = match Mod0 {
                    MOD0_FMT_FP16 => {
                        let a = read16(s);
                        (Some(a), ReadFP16(a.value, s.LaneConfig[Lane].ENABLE_FP16A_INF()))
                    }
                    MOD0_FMT_BF16 => {
                        let a = read16(s);
                        (Some(a), DstDecodeBF16(a.value) << 16)
                    }
                    MOD0_FMT_FP32 | MOD0_FMT_INT32 | MOD0_FMT_INT32_ALL => {
                        let a = read32(s);
                        (Some(a), DstDecodeFP32(a.value))
                    }
                    MOD0_FMT_INT32_SM => {
                        let a = read32(s);
                        (Some(a), SignMagToTwosComp(DstDecodeFP32(a.value)))
                    }
                    MOD0_FMT_INT8 => {
                        let a = read16(s);
                        (Some(a), SignMag8ToSignMag32(a.value))
                    }
                    MOD0_FMT_INT8_COMP => {
                        let a = read16(s);
                        (Some(a), SignMagToTwosComp(SignMag11ToSignMag32(a.value)))
                    }
                    MOD0_FMT_LO16_ONLY => {
                        let a = read16(s);
                        (Some(a), (s.LReg[VD][Lane] & 0xFFFF_0000) | a.value)
                    }
                    MOD0_FMT_HI16_ONLY => {
                        let a = read16(s);
                        (Some(a), (a.value << 16) | (s.LReg[VD][Lane] & 0x0000_FFFF))
                    }
                    MOD0_FMT_INT16 => {
                        let a = read16(s);
                        (Some(a), SignMag16ToSignMag32(a.value))
                    }
                    MOD0_FMT_UINT16 | MOD0_FMT_LO16 => {
                        let a = read16(s);
                        (Some(a), a.value)
                    }
                    MOD0_FMT_HI16 => {
                        let a = read16(s);
                        (Some(a), a.value << 16)
                    }
                    // MOD0_FMT_ZERO; MOD0_FMT_SRCB was resolved above.
                    _ => (None, 0),
                };
                if let Some(a) = access {
                    note_dst(out, a, Lane, false);
                }
                s.LReg[VD][Lane] = Datum;
                if VD < 4
                    && s.LaneConfig[Lane].ENABLE_DEST_INDEX()
                    && s.LaneConfig[Lane].CAPTURE_DEFAULT_DEST_INDEX()
                {
                    s.LReg[VD + 4][Lane] = (Row << 4) | Column;
                }
            }
        }
    }

    // Advance Dst / SrcA / SrcB RWCs (but not the Fidelity RWC).
    ApplyPartialAddrMod(s, AddrMod);
    Addr
}

/// `SFPSTORE`: move (up to) 32 datums from `LReg[VD]` to the even or odd columns of four
/// consecutive Dst rows, converting the format. `MOD0_FMT_FP32` is a raw copy, like
/// `MOD0_FMT_INT32`.
///
/// Transcribes WormholeB0 `SFPSTORE.md` § "Functional model". For a store scheduled by
/// SFPLOADMACRO (`cx.store`), `SFPLOADMACRO.md` replaces the address computation with the `Addr`
/// SFPLOADMACRO computed, skips `ApplyPartialAddrMod`, and reads `DISABLE_BACKDOOR_LOAD` as true.
pub fn SFPSTORE(s: &mut State, cx: &Ctx, VD: usize, Mod0: u32, AddrMod: u32, Imm10: u32, out: &mut Outcome) {
    let scheduled = cx.store;
    let Mod0 = scheduled.map_or(Mod0, |st| st.Mod0);
    // Resolve MOD0_FMT_SRCB to something concrete.
    let Mod0 = ResolveSrcB(s, Mod0);

    // Apply various Dst address adjustments (or SFPLOADMACRO's frozen Addr).
    let Addr = match scheduled {
        None => ComputeAddr(s, Mod0, Imm10),
        Some(st) => st.Addr,
    };

    for Lane in 0..LANES {
        if s.LaneConfig[Lane].BLOCK_DEST_WR_FROM_SFPU() {
            continue;
        }
        if VD < 12 || cx.DISABLE_BACKDOOR_LOAD(s, Lane) {
            if s.IsLaneEnabled(Lane) || Mod0 == MOD0_FMT_INT32_ALL {
                let Datum = s.LReg[VD][Lane];
                let Row = ((Addr & !3) + (Lane as u32 / 8)) & 0x3FF;
                let mut Column = (Lane as u32 & 7) * 2;
                if (Addr & 2) != 0 || s.LaneConfig[Lane & 7].DEST_WR_COL_EXCHANGE() {
                    Column += 1;
                }
                let access = match Mod0 {
                    MOD0_FMT_FP16 => s.Dst16b_write(Row, Column, DstEncodeFP16(ToFP16(Datum))),
                    MOD0_FMT_BF16 => s.Dst16b_write(Row, Column, DstEncodeBF16(ToBF16(Datum))),
                    MOD0_FMT_FP32 | MOD0_FMT_INT32 | MOD0_FMT_INT32_ALL => {
                        s.Dst32b_write(Row, Column, DstEncodeFP32(Datum))
                    }
                    MOD0_FMT_INT32_SM => s.Dst32b_write(Row, Column, DstEncodeFP32(ToSignMag(Datum))),
                    MOD0_FMT_INT8 => s.Dst16b_write(Row, Column, DstEncodeFP16(SignMag11ToFP16(Datum))),
                    MOD0_FMT_INT8_COMP => {
                        s.Dst16b_write(Row, Column, DstEncodeFP16(SignMag11ToFP16(ToSignMag(Datum))))
                    }
                    MOD0_FMT_LO16_ONLY => s.Dst16b_write(Row, Column, Datum & 0xFFFF),
                    MOD0_FMT_HI16_ONLY => s.Dst16b_write(Row, Column, Datum >> 16),
                    MOD0_FMT_INT16 => s.Dst16b_write(Row, Column, ((Datum >> 31) << 15) | (Datum & 0x7FFF)),
                    MOD0_FMT_UINT16 => s.Dst16b_write(Row, Column, Datum & 0xFFFF),
                    MOD0_FMT_LO16 => s.Dst32b_write(Row, Column, Datum.rotate_left(16)), // (Datum << 16) | (Datum >> 16)
                    MOD0_FMT_HI16 => s.Dst32b_write(Row, Column, Datum),
                    // MOD0_FMT_ZERO; MOD0_FMT_SRCB was resolved above.
                    _ => s.Dst16b_write(Row, Column, 0),
                };
                note_dst(out, access, Lane, true);
            }
        }
    }

    // Advance Dst / SrcA / SrcB RWCs (but not the Fidelity RWC); skipped for stores scheduled by
    // SFPLOADMACRO.
    if scheduled.is_none() {
        ApplyPartialAddrMod(s, AddrMod);
    }
}
