//! Blackhole's data movement between Dst and the LRegs: SFPLOAD and SFPSTORE, with their format
//! conversions, address computation (with the Sp RWC) and RWC updates.
//!
//! Transcribes tt-isa-documentation BlackholeA0 `SFPLOAD.md`
//! (@ `0f3f6b70850f1241f2ea1233f37129625850488a`) and `SFPSTORE.md`
//! (@ `0f3f6b70850f1241f2ea1233f37129625850488a`) § "Functional model", the Dst helpers of
//! `Dst.md`, and `ApplyPartialAddrMod` of WormholeB0 `RWCs.md` (Blackhole has no RWC page:
//! `docs/spec/sfpu-blackhole.md#blackhole-addrmod`). The helpers both chips' pages share are in
//! [`ops::shared::dst_formats`](crate::ops::shared::dst_formats).

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::ops::Ctx;
use crate::ops::shared::dst_formats::{
    ReadFP16, SignMag11ToFP16, SignMag11ToSignMag32, SignMag16ToSignMag32, ToBF16, ToFP16, note_dst,
};
use crate::outcome::{Clause, Outcome};
use crate::state::addressing::data_format::*;
use crate::state::{DstDecodeBF16, DstDecodeFP32, DstEncodeBF16, DstEncodeFP16, DstEncodeFP32, LANES, State};

/// Resolves `MOD0_FMT_SRCB` to `MOD0_FMT_FP32`, `MOD0_FMT_BF16` or `MOD0_FMT_FP16` from the
/// configuration; other Mod0 values are returned unchanged. The same block opens SFPLOAD and
/// SFPSTORE ("Resolve MOD0_FMT_SRCB to something concrete").
pub fn ResolveSrcB(s: &State, Mod0: u32) -> u32 {
    let a = &s.Addressing;
    if Mod0 != MOD0_FMT_SRCB {
        return Mod0;
    }
    if a.ALU_ACC_CTRL_SFPU_Fp32_enabled {
        return MOD0_FMT_FP32;
    }
    let mut SrcBFmt = if a.ALU_FORMAT_SPEC_REG_SrcB_override {
        a.ALU_FORMAT_SPEC_REG_SrcB_val
    } else {
        a.ALU_FORMAT_SPEC_REG1_SrcB
    };
    if a.SFPU_DEST_FMT_Enable {
        // (TTArchitecture == Blackhole) && ThreadConfig[CurrentThread].SFPU_DEST_FMT_Enable
        SrcBFmt = a.SFPU_DEST_FMT_Base;
    }
    if [FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16].contains(&SrcBFmt) {
        MOD0_FMT_BF16
    } else {
        MOD0_FMT_FP16
    }
}

/// The "Apply various Dst address adjustments" block of SFPLOAD (`load == true`) and SFPSTORE:
/// the 10-bit `Addr`, including the `MOD0_FMT_INT32_ALL` stack pointer's pre-decrement (load) or
/// post-increment (store) of `RWCs[CurrentThread].Sp`.
pub fn ComputeAddr(s: &mut State, Mod0: u32, Imm10: u32, load: bool) -> u32 {
    let a = &mut s.Addressing;
    let mut Addr = (Imm10 + a.DEST_TARGET_REG_CFG_MATH_Offset as u32) & 0x3FF;
    let DstOffset = (a.RWC.Dst as u32 + a.DEST_REGW_BASE_Base as u32) & 0x3FF;
    if Mod0 == MOD0_FMT_INT32_ALL {
        if load && a.RWC.Sp != 0 {
            a.RWC.Sp = a.RWC.Sp.wrapping_sub(a.SFPU_STACK_Incr) & 0x3FF;
        }
        let SpOffset = (a.RWC.Sp as u32 + a.DEST_SP_BASE_Base as u32) & 0x3FF;
        Addr = (Addr + SpOffset + (DstOffset & 3)) & 0x3FF;
        if !load {
            a.RWC.Sp = (a.RWC.Sp + a.SFPU_STACK_Incr) & 0x3FF;
        }
    } else {
        let SpOffset = (a.RWC.Sp as u32 + a.DEST_SP_BASE_Base as u32) & 0x3FF;
        Addr = (Addr + DstOffset + (SpOffset & 3)) & 0x3FF;
    }
    Addr
}

/// `ApplyPartialAddrMod(AddrMod)`: advance the Dst, SrcA and SrcB RWCs (and the bias bit) as the
/// selected address-modifier slot says, but not FidelityPhase.
///
/// Transcribes `ApplyAddrMod` of WormholeB0 `RWCs.md` with `UpdateFidelityPhase = false`. DEPARTURE
/// (`docs/spec/sfpu-blackhole.md#blackhole-addrmod`, inferred): Blackhole's `AddrMod` field is 3
/// bits and tt-llk defines eight slots, so the slot is `AddrMod` itself; Wormhole's "+4 when
/// `ExtraAddrModBit || ADDR_MOD_SET_Base`" would index past the eighth slot. When either of those
/// is set the readings differ, and the update is reported as unspecified.
pub fn ApplyPartialAddrMod(s: &mut State, AddrMod: u32, out: &mut Outcome) {
    let a = &mut s.Addressing;
    if a.RWC.ExtraAddrModBit != 0 || a.ADDR_MOD_SET_Base {
        out.note_all(Clause::BlackholeAddrMod);
    }
    let Index = (AddrMod & 7) as usize;
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

    // UpdateFidelityPhase is false for SFPLOAD / SFPSTORE / SFPLOADMACRO.

    if slot.BiasClear {
        RWC.ExtraAddrModBit = 0;
    } else if slot.BiasIncr & 3 != 0 {
        RWC.ExtraAddrModBit = (RWC.ExtraAddrModBit + 1) & 1;
    }
}

/// `SignMag9ToSignMag32(x)` of `SFPLOAD.md`: Dst holds Sign, Ignored(2b), Mag(8b), Ignored(5b).
fn SignMag9ToSignMag32(x: u32) -> u32 {
    let Sign = (x >> 15) & 1;
    let Mag = (x >> 5) & 0xFF;
    (Sign << 31) | Mag
}

/// `ToFP32(x)` of `SFPSTORE.md`: flush denormals to signed zero.
pub fn ToFP32(x: u32) -> u32 {
    let Sign = x & 0x8000_0000;
    let Exp = x & 0x7F80_0000;
    let mut Man = x & 0x007F_FFFF;
    if Exp == 0 {
        Man = 0;
    }
    Sign | Exp | Man
}

/// `SFPLOAD`: move (up to) 32 datums from the even or odd columns of four consecutive Dst rows to
/// `LReg[VD]`, converting the format. Returns the computed `Addr`, which SFPLOADMACRO keeps for its
/// scheduled store.
///
/// Transcribes BlackholeA0 `SFPLOAD.md` § "Functional model".
pub fn SFPLOAD(s: &mut State, VD: usize, Mod0: u32, AddrMod: u32, Imm10: u32, out: &mut Outcome) -> u32 {
    // Resolve MOD0_FMT_SRCB to something concrete.
    let Mod0 = ResolveSrcB(s, Mod0);

    // Apply the Dst address adjustments: Addr[9:2] selects an aligned group of four rows, Addr[1]
    // even or odd columns, and Addr[0] goes unused.
    let Addr = ComputeAddr(s, Mod0, Imm10, true);

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
                    MOD0_FMT_FP32 | MOD0_FMT_INT32 | MOD0_FMT_INT32_ALL | MOD0_FMT_INT32_SM => {
                        let a = read32(s);
                        (Some(a), DstDecodeFP32(a.value))
                    }
                    MOD0_FMT_INT8 => {
                        let a = read16(s);
                        (Some(a), SignMag9ToSignMag32(a.value))
                    }
                    MOD0_FMT_INT8_COMP => {
                        let a = read16(s);
                        (Some(a), SignMag11ToSignMag32(a.value)) // Deprecated
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

    // Advance the Dst / SrcA / SrcB RWCs (but not the Fidelity RWC).
    ApplyPartialAddrMod(s, AddrMod, out);
    Addr
}

/// `SFPSTORE`: move (up to) 32 datums from `LReg[VD]` to the even or odd columns of four
/// consecutive Dst rows, converting the format.
///
/// Transcribes BlackholeA0 `SFPSTORE.md` § "Functional model". For a store scheduled by
/// SFPLOADMACRO (`cx.store`), `SFPLOADMACRO.md` replaces the address computation with the `Addr`
/// SFPLOADMACRO computed, skips `ApplyPartialAddrMod`, and reads `DISABLE_BACKDOOR_LOAD` as true.
pub fn SFPSTORE(s: &mut State, cx: &Ctx, VD: usize, Mod0: u32, AddrMod: u32, Imm10: u32, out: &mut Outcome) {
    let scheduled = cx.store;
    let Mod0 = scheduled.map_or(Mod0, |st| st.Mod0);
    // Resolve MOD0_FMT_SRCB to something concrete.
    let Mod0 = ResolveSrcB(s, Mod0);

    let Addr = match scheduled {
        None => ComputeAddr(s, Mod0, Imm10, false),
        Some(st) => {
            if Mod0 == MOD0_FMT_INT32_ALL {
                // The frozen Addr replaces the whole computation, including (this model reads) the
                // Sp post-increment; the page does not say
                // (`docs/spec/sfpu-blackhole.md#loadmacro-store-sp`).
                out.note_all(Clause::LoadmacroStoreSp);
            }
            st.Addr
        }
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
                    MOD0_FMT_FP32 => s.Dst32b_write(Row, Column, DstEncodeFP32(ToFP32(Datum))),
                    MOD0_FMT_INT32 | MOD0_FMT_INT32_ALL | MOD0_FMT_INT32_SM => {
                        s.Dst32b_write(Row, Column, DstEncodeFP32(Datum))
                    }
                    MOD0_FMT_INT8 | MOD0_FMT_INT8_COMP => {
                        s.Dst16b_write(Row, Column, DstEncodeFP16(SignMag11ToFP16(Datum)))
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

    // Advance the Dst / SrcA / SrcB RWCs (but not the Fidelity RWC); skipped for stores
    // scheduled by SFPLOADMACRO.
    if scheduled.is_none() {
        ApplyPartialAddrMod(s, AddrMod, out);
    }
}
