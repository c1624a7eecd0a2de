//! The Tensix configuration, thread configuration and RWC fields that SFPLOAD, SFPSTORE and
//! SFPLOADMACRO read and update.
//!
//! Field names are the documentation's: `ThreadConfig[CurrentThread].*` and
//! `Config[StateID].*` from BlackholeA0 `SFPLOAD.md` / `SFPSTORE.md`, `Dst.md` (`Adj16`/`Adj32`),
//! and the `RWCs` structure and `ApplyAddrMod` of WormholeB0 `RWCs.md` (Blackhole has no RWC page;
//! spec §4.11 and §6.3 item 23). The model has one issuing thread, so this struct holds that
//! thread's `ThreadConfig`, the `Config` state it selects, and its `RWCs` entry.

#![allow(non_snake_case, reason = "field names follow the ISA documentation")]

/// `RWCs[CurrentThread]`: the read/write counters (WormholeB0 `RWCs.md`), plus the `Sp` counter
/// that Blackhole's SFPLOAD/SFPSTORE models use (spec §4.11).
///
/// Widths: `Dst`, `Dst_Cr` and `Sp` are 10 bits; `SrcA`, `SrcA_Cr`, `SrcB`, `SrcB_Cr` 6 bits;
/// `FidelityPhase` 2 bits; `ExtraAddrModBit` 1 bit. The serde form refuses wider values, and the
/// update functions wrap at these widths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rwc {
    /// Dst row counter.
    pub Dst: u16,
    /// Dst carry register.
    pub Dst_Cr: u16,
    /// SrcA row counter.
    pub SrcA: u16,
    /// SrcA carry register.
    pub SrcA_Cr: u16,
    /// SrcB row counter.
    pub SrcB: u16,
    /// SrcB carry register.
    pub SrcB_Cr: u16,
    /// Fidelity phase (never changed by Vector Unit instructions).
    pub FidelityPhase: u16,
    /// Selects the upper half of the address-modifier slots on Wormhole.
    pub ExtraAddrModBit: u16,
    /// The Dst "stack pointer" used by `MOD0_FMT_INT32_ALL` (Blackhole).
    pub Sp: u16,
}

/// One address-modifier slot: the `ADDR_MOD_AB_SEC`, `ADDR_MOD_DST_SEC` and `ADDR_MOD_BIAS_SEC`
/// entries of `ThreadConfig` for one index (WormholeB0 `RWCs.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AddrModSlot {
    /// `ADDR_MOD_AB_SEC[i].SrcAIncr` (6 bits).
    pub SrcAIncr: u16,
    /// `ADDR_MOD_AB_SEC[i].SrcACR`.
    pub SrcACR: bool,
    /// `ADDR_MOD_AB_SEC[i].SrcAClear`.
    pub SrcAClear: bool,
    /// `ADDR_MOD_AB_SEC[i].SrcBIncr` (6 bits).
    pub SrcBIncr: u16,
    /// `ADDR_MOD_AB_SEC[i].SrcBCR`.
    pub SrcBCR: bool,
    /// `ADDR_MOD_AB_SEC[i].SrcBClear`.
    pub SrcBClear: bool,
    /// `ADDR_MOD_DST_SEC[i].DestIncr` (10 bits).
    pub DestIncr: u16,
    /// `ADDR_MOD_DST_SEC[i].DestCR`.
    pub DestCR: bool,
    /// `ADDR_MOD_DST_SEC[i].DestClear`.
    pub DestClear: bool,
    /// `ADDR_MOD_DST_SEC[i].DestCToCR`.
    pub DestCToCR: bool,
    /// `ADDR_MOD_DST_SEC[i].FidelityIncr` (2 bits; unused by the Vector Unit).
    pub FidelityIncr: u16,
    /// `ADDR_MOD_DST_SEC[i].FidelityClear` (unused by the Vector Unit).
    pub FidelityClear: bool,
    /// `ADDR_MOD_BIAS_SEC[i].BiasIncr` (4 bits).
    pub BiasIncr: u16,
    /// `ADDR_MOD_BIAS_SEC[i].BiasClear`.
    pub BiasClear: bool,
}

impl AddrModSlot {
    /// Whether applying the slot changes nothing the Vector Unit can observe.
    pub fn is_identity(&self) -> bool {
        let fidelity_only = AddrModSlot {
            FidelityIncr: self.FidelityIncr,
            FidelityClear: self.FidelityClear,
            ..AddrModSlot::default()
        };
        *self == fidelity_only
    }
}

/// The configuration and counters that SFPLOAD, SFPSTORE and SFPLOADMACRO read.
///
/// Data-format fields hold the Tensix 4-bit format codes ([`data_format`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Addressing {
    /// `ThreadConfig[CurrentThread].DEST_TARGET_REG_CFG_MATH_Offset` (10 bits).
    pub DEST_TARGET_REG_CFG_MATH_Offset: u16,
    /// `ThreadConfig[CurrentThread].SFPU_STACK_Incr` (10 bits).
    pub SFPU_STACK_Incr: u16,
    /// `ThreadConfig[CurrentThread].SFPU_DEST_FMT_Enable` (Blackhole only).
    pub SFPU_DEST_FMT_Enable: bool,
    /// `ThreadConfig[CurrentThread].SFPU_DEST_FMT_Base` (4-bit format code).
    pub SFPU_DEST_FMT_Base: u16,
    /// `ThreadConfig[CurrentThread].ADDR_MOD_SET_Base`.
    pub ADDR_MOD_SET_Base: bool,
    /// `ThreadConfig[CurrentThread].ADDR_MOD_{AB,DST,BIAS}_SEC[0..8]`.
    pub ADDR_MOD: [AddrModSlot; 8],
    /// `Config[StateID].DEST_REGW_BASE_Base` (10 bits).
    pub DEST_REGW_BASE_Base: u16,
    /// `Config[StateID].DEST_SP_BASE_Base` (10 bits).
    pub DEST_SP_BASE_Base: u16,
    /// `Config[StateID].ALU_ACC_CTRL_SFPU_Fp32_enabled`.
    pub ALU_ACC_CTRL_SFPU_Fp32_enabled: bool,
    /// `Config[StateID].ALU_FORMAT_SPEC_REG_SrcB_override`.
    pub ALU_FORMAT_SPEC_REG_SrcB_override: bool,
    /// `Config[StateID].ALU_FORMAT_SPEC_REG_SrcB_val` (4-bit format code).
    pub ALU_FORMAT_SPEC_REG_SrcB_val: u16,
    /// `Config[StateID].ALU_FORMAT_SPEC_REG1_SrcB` (4-bit format code).
    pub ALU_FORMAT_SPEC_REG1_SrcB: u16,
    /// `Config.DEST_ACCESS_CFG_remap_addrs` (`Dst.md` `Adj16`).
    pub DEST_ACCESS_CFG_remap_addrs: bool,
    /// `Config.DEST_ACCESS_CFG_swizzle_32b` (`Dst.md` `Adj32`).
    pub DEST_ACCESS_CFG_swizzle_32b: bool,
    /// Bit 11 of `RISCV_DEBUG_REG_DBG_FEATURE_DISABLE`: Dst16b aliases the high half of Dst32b
    /// (`Dst.md`; unsupported functionality).
    pub DBG_FEATURE_DISABLE_bit11: bool,
    /// `RWCs[CurrentThread]`.
    pub RWC: Rwc,
}

/// Tensix data-format codes, as held in 4-bit format fields such as `ALU_FORMAT_SPEC_REG1_SrcB`.
///
/// The documentation names formats but not their codes; these are the codes of the Tensix
/// `DataFormat` enum shared by tt-metal and tt-llk (`Float32 = 0, Float16 = 1, Bfp8 = 2, ...`),
/// spelled here with the documentation's names (`BF16` is tt-metal's `Float16_b`, `BFP8` its
/// `Bfp8_b`, `BFP8a` its `Bfp8`).
#[allow(
    non_upper_case_globals,
    reason = "the documentation spells the FP16-family block formats BFP8a, BFP4a, BFP2a"
)]
pub mod data_format {
    /// FP32.
    pub const FP32: u16 = 0;
    /// FP16 (5-bit exponent).
    pub const FP16: u16 = 1;
    /// BFP8a (shared 5-bit exponent).
    pub const BFP8a: u16 = 2;
    /// BFP4a.
    pub const BFP4a: u16 = 3;
    /// TF32.
    pub const TF32: u16 = 4;
    /// BF16.
    pub const BF16: u16 = 5;
    /// BFP8 (shared 8-bit exponent).
    pub const BFP8: u16 = 6;
    /// BFP4.
    pub const BFP4: u16 = 7;
    /// INT32.
    pub const INT32: u16 = 8;
    /// INT16.
    pub const INT16: u16 = 9;
    /// FP8 (tt-metal `Lf8`).
    pub const FP8: u16 = 10;
    /// BFP2a.
    pub const BFP2a: u16 = 11;
    /// INT8.
    pub const INT8: u16 = 14;
    /// BFP2.
    pub const BFP2: u16 = 15;
}

impl Addressing {
    /// `Adj16(r)` (`Dst.md`): the physical row of 16-bit row `r`.
    pub fn Adj16(&self, r: u32) -> u32 {
        let mut r = r & 0x3FF;
        if self.DEST_ACCESS_CFG_remap_addrs {
            r = (r & 0x3C7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2);
        }
        r
    }

    /// `Adj32(r)` (`Dst.md`): the physical row holding the high half of 32-bit row `r`; the low
    /// half is 8 rows further on.
    pub fn Adj32(&self, r: u32) -> u32 {
        let mut r = self.Adj16(r);
        if self.DEST_ACCESS_CFG_swizzle_32b {
            r = (r & 0x3F3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1);
        }
        ((r & 0x1F8) << 1) | (r & 0x207)
    }
}
