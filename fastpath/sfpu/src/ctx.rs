//! How an instruction is being executed ([`Ctx`]: issued by the thread, or scheduled by
//! SFPLOADMACRO with some fields overridden), and `W8`, the write check of a result register
//! index ([`w8`]). A leaf below the models, the machine's scheduling and the footprints, which
//! all take a `Ctx`; `crate::exec` re-exports both.

use crate::state::{ALL, FastState};

/// How an instruction is being executed: issued by the thread, or scheduled by SFPLOADMACRO with
/// some fields overridden. Plain data, no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ctx {
    /// Scheduled by SFPLOADMACRO: `DISABLE_BACKDOOR_LOAD` reads as true, implicit `VB = VD` and
    /// `VC = VD` assignments are skipped, and SFPSTORE uses the frozen address.
    pub scheduled: bool,
    /// The lanes this execution concerns. All lanes for regular instructions; for scheduled ones,
    /// the lanes whose `LoadMacroConfig` scheduled exactly this instruction (see `machine.rs`).
    pub lanes: u32,
    /// `VB` as overridden by the SFPLOADMACRO logic.
    pub vb: Option<u8>,
    /// `VC` as overridden by the SFPLOADMACRO logic.
    pub vc: Option<u8>,
    /// `VD` as overridden by the SFPLOADMACRO logic (may be 16).
    pub vd: Option<u8>,
    /// Whether the SFPLOADMACRO logic did `Insn.VB = VD` (Sequence bit 7), which is what makes
    /// SFPSHFT2 `SHFT_IMM` skip its `VB = Imm12 & 15` (`SFPLOADMACRO.md`).
    pub vb_is_macro_vd: bool,
    /// The `Addr` an SFPLOADMACRO computed, for the SFPSTORE it scheduled.
    pub store_addr: u32,
}

impl Ctx {
    /// A regular instruction issued by the thread.
    pub const REGULAR: Ctx = Ctx {
        scheduled: false,
        lanes: ALL,
        vb: None,
        vc: None,
        vd: None,
        vb_is_macro_vd: false,
        store_addr: 0,
    };

    /// The effective `VB` given the encoded field.
    #[inline(always)]
    pub fn vb(&self, field: u32) -> usize {
        self.vb.map_or(field as usize, usize::from)
    }

    /// The effective `VC` given the encoded field.
    #[inline(always)]
    pub fn vc(&self, field: u32) -> usize {
        self.vc.map_or(field as usize, usize::from)
    }

    /// The effective `VD` given the encoded field.
    #[inline(always)]
    pub fn vd(&self, field: u32) -> usize {
        self.vd.map_or(field as usize, usize::from)
    }

    /// The `VB` of a simple-sub-unit instruction whose model says `unsigned VB = VD;`: that
    /// assignment is skipped under SFPLOADMACRO, which supplies `VB` itself.
    #[inline(always)]
    pub fn implicit_vb(&self, vd_field: u32) -> usize {
        if self.scheduled { self.vb.map_or(vd_field as usize, usize::from) } else { vd_field as usize }
    }

    /// The `VC` of SFPADDI / SFPMULI, whose model says `unsigned VC = VD;` (skipped under
    /// SFPLOADMACRO).
    #[inline(always)]
    pub fn implicit_vc(&self, vd_field: u32) -> usize {
        if self.scheduled { self.vc.map_or(vd_field as usize, usize::from) } else { vd_field as usize }
    }

    /// The lanes passing `VD < 12 || LaneConfig[Lane].DISABLE_BACKDOOR_LOAD` (`DISABLE_BACKDOOR_LOAD`
    /// reads as true for scheduled instructions), restricted to [`lanes`](Ctx::lanes).
    #[inline(always)]
    pub fn g12(&self, s: &FastState, vd: usize) -> u32 {
        if self.scheduled || vd < 12 { self.lanes } else { self.lanes & s.lc().dbl }
    }
}

/// `VD < 8 || VD == 16`: whether a result register index is written at all (spec "W8").
#[inline(always)]
pub fn w8(vd: usize) -> bool {
    vd < 8 || vd == 16
}
