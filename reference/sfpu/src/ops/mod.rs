//! The instructions, one family per module, each function transcribing one page's
//! "Functional model", in one folder per chip plus one for what the chips share:
//!
//! * [`shared`]: pages that are the same on Blackhole and Wormhole (the Blackhole stubs point to
//!   the Wormhole text, or both revisions have the same functional model): one transcription
//!   serves both chips. The only chip dependence inside is the FMA model, which each chip's
//!   "IEEE754 conformance" section selects ([`fp::fma_model`](crate::fp::fma_model)).
//! * [`blackhole`]: Blackhole's own pages, including the instructions only Blackhole has.
//! * [`wormhole`]: Wormhole's own pages, written in the same style as their Blackhole
//!   counterparts (same file names, same function names) so the differences stand out.
//!
//! Which chip calls which function is [`exec`](crate::exec): one arm per opcode per chip.
//!
//! Every function here has the shape `SFPXXX(s, x, fields..., out)`: `s` is the state, `x` the
//! [`Ctx`] saying how the instruction was issued, the fields are the instruction's (register
//! indices as `usize`, which may be 16 for instructions scheduled by SFPLOADMACRO), and `out`
//! collects the [`Outcome`](crate::Outcome) notes. Statements keep the pseudocode's order and
//! names; where the Rust has to differ, a `// DEPARTURE:` comment says why.
//!
//! Shared idioms of the pages, written the same way everywhere:
//! * `lanewise { ... }` is `for Lane in 0..LANES { ... }`;
//! * `LaneEnabled` is `s.IsLaneEnabled(Lane)`;
//! * `LaneConfig[Lane].DISABLE_BACKDOOR_LOAD` is `cx.DISABLE_BACKDOOR_LOAD(s, Lane)`, which reads as
//!   `true` for instructions scheduled by SFPLOADMACRO (`SFPLOADMACRO.md`);
//! * `unsigned VB = VD;` is `cx.implicit_VB(VD)`, skipped under SFPLOADMACRO.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

pub mod blackhole;
pub mod shared;
pub mod wormhole;

use crate::state::State;

/// How the instruction being executed reached its sub-unit.
///
/// For a regular instruction every field is `None`/`false`. For an instruction scheduled by
/// SFPLOADMACRO, the fields carry what the macro logic wrote into `Insn` (`SFPLOADMACRO.md`): the
/// register overrides, and for the store sub-unit the Mod0, Imm10 and the
/// address that SFPLOADMACRO computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ctx {
    /// The instruction was scheduled by SFPLOADMACRO.
    pub scheduled: bool,
    /// `Insn.VB` as set by the macro logic, if it set it.
    pub VB: Option<usize>,
    /// `Insn.VC` as set by the macro logic, if it set it.
    pub VC: Option<usize>,
    /// `Insn.VD` as set by the macro logic (0..=7 or 16), if it set it.
    pub VD: Option<usize>,
    /// For a scheduled SFPSTORE: the Mod0, Imm10 and frozen `Addr` from SFPLOADMACRO.
    pub store: Option<ScheduledStore>,
}

/// What SFPLOADMACRO hands a scheduled SFPSTORE (`SFPLOADMACRO.md`, "extra considerations for
/// StoreSubUnit").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledStore {
    /// `Insn.Mod0`.
    pub Mod0: u32,
    /// `Insn.Imm10`.
    pub Imm10: u32,
    /// The `Addr` SFPLOADMACRO computed; the store uses it regardless of later RWC changes.
    pub Addr: u32,
}

impl Ctx {
    /// A regular instruction, issued by a thread.
    pub const REGULAR: Ctx = Ctx { scheduled: false, VB: None, VC: None, VD: None, store: None };

    /// `LaneConfig[Lane].DISABLE_BACKDOOR_LOAD`, read as `true` for instructions scheduled by
    /// SFPLOADMACRO.
    pub fn DISABLE_BACKDOOR_LOAD(&self, s: &State, Lane: usize) -> bool {
        self.scheduled || s.LaneConfig[Lane].DISABLE_BACKDOOR_LOAD()
    }

    /// `unsigned VB = VD;`, which SFPLOADMACRO-scheduled instructions skip because the macro
    /// logic already set `Insn.VB`.
    pub fn implicit_VB(&self, VD: usize) -> usize {
        match (self.scheduled, self.VB) {
            (true, Some(vb)) => vb,
            _ => VD,
        }
    }

    /// `unsigned VC = VD;` of SFPADDI and SFPMULI, skipped in the same way.
    pub fn implicit_VC(&self, VD: usize) -> usize {
        match (self.scheduled, self.VC) {
            (true, Some(vc)) => vc,
            _ => VD,
        }
    }

    /// The effective VB of an instruction whose encoding has a VB field.
    pub fn vb(&self, field: usize) -> usize {
        self.VB.unwrap_or(field)
    }

    /// The effective VC of an instruction whose encoding has a VC field.
    pub fn vc(&self, field: usize) -> usize {
        self.VC.unwrap_or(field)
    }

    /// The effective VD.
    pub fn vd(&self, field: usize) -> usize {
        self.VD.unwrap_or(field)
    }
}

/// `SignMagIsSmaller(C, D)` of `SFPGT.md`, `SFPLE.md` and `SFPSWAP.md`: whether `C < D` as
/// sign-magnitude integers, which for FP32 is the total order
/// `-NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN` (as `SFPSWAP.md`'s comment on it says).
pub fn SignMagIsSmaller(C: u32, D: u32) -> bool {
    // Remap sign-magnitude -0 ... -(2^31-1) to two's complement -1 ... -2^31, then compare.
    let C = C ^ (((C as i32) >> 30) as u32 >> 1);
    let D = D ^ (((D as i32) >> 30) as u32 >> 1);
    (C as i32) < (D as i32)
}

/// `SignExtend(uint12_t x)` of `SFPIADD.md`, also used for the signed `Imm12` of SFPSHFT and
/// SFPSHFT2.
pub fn sign_extend12(x: u32) -> i32 {
    ((x << 20) as i32) >> 20
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_magnitude_total_order() {
        // -NaN < -Inf < -1 < -0 < +0 < +1 < +Inf < +NaN, by hand from `SFPSWAP.md`'s comment on
        // `SignMagIsSmaller`.
        let order = [
            0xFFC0_0000,
            0xFF80_0000,
            0xBF80_0000,
            0x8000_0000,
            0x0000_0000,
            0x3F80_0000,
            0x7F80_0000,
            0x7FC0_0000,
        ];
        for (i, &a) in order.iter().enumerate() {
            for (j, &b) in order.iter().enumerate() {
                assert_eq!(SignMagIsSmaller(a, b), i < j, "{a:08x} < {b:08x}");
            }
        }
    }

    #[test]
    fn sign_extension() {
        assert_eq!(sign_extend12(0x7FF), 2047);
        assert_eq!(sign_extend12(0x800), -2048);
        assert_eq!(sign_extend12(0xFFF), -1);
    }
}
