//! The machine operations the lowering selects, with virtual registers, and how each becomes
//! SFPU instructions once its registers are known.

#![allow(non_snake_case, reason = "instruction fields are named as the ISA documentation names them")]

use sfpu_reference::isa::mods::*;
use sfpu_reference::isa::{Arch, Instr, U};

/// A virtual register.
pub(crate) type VReg = u32;

/// An operand: a virtual register, or a physical LReg (the constants 8..=15, or an LReg that
/// `l_reg` reserves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opnd {
    V(VReg),
    P(u8),
}

/// Where an operand must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UseC {
    /// Any register.
    Any,
    /// Exactly this LReg (SFPLUT's table and input, SFPTRANSP, SFPCONFIG's source).
    Fixed(u8),
    /// One of LReg 0..=7 (SFPSTORE: `VD >= 12` would be a backdoor load).
    General,
}

/// Where a result must go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DefC {
    /// Any free register.
    Any,
    /// The register of operand `k` (two-address instructions, and merges): the operand's value
    /// is copied first if it is still needed.
    Tied(usize),
}

/// One machine operation before register allocation.
#[derive(Clone, Debug)]
pub(crate) struct VInstr {
    pub op: MOp,
    pub uses: Vec<(Opnd, UseC)>,
    pub defs: Vec<(VReg, DefC)>,
    /// What the kernel was doing, for error messages.
    pub what: &'static str,
}

/// A machine operation; the registers come from the allocation (`u` operands, `d` results, in
/// the order of [`VInstr::uses`] / [`VInstr::defs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MOp {
    /// SFPLOAD `d0` from `dst_reg[offset]`.
    Load { mod0: u32, offset: u32 },
    /// SFPSTORE `u0` to `dst_reg[offset]`.
    Store { mod0: u32, offset: u32 },
    /// SFPLOADI `d0`.
    LoadI { mod0: u32, imm16: u32 },
    /// SFPLOADI LOWER then UPPER into `d0`.
    LoadIPair { bits: u32 },
    /// SFPMAD / SFPADD / SFPMUL `d0 = u0 * u1 + u2`.
    Mad { mod1: u32 },
    /// SFPMOV `d0 = u0` (Mod1 1 negates, 2 copies every lane).
    Mov { mod1: u32 },
    /// SFPMOV `d0 = u1` in the enabled lanes, `d0` tied to `u0` (the old value).
    Merge { mod1: u32 },
    /// SFPMOV `LReg[vd] = u0` in the enabled lanes.
    MovInto { vd: u8 },
    /// SFPABS `d0 = |u0|`.
    Abs { mod1: u32 },
    /// SFPIADD `d0 = u0 ± u1`, `d0` tied to `u1`.
    IAdd { mod1: u32 },
    /// SFPIADD `d0 = u0 + imm`.
    IAddImm { imm12: u32 },
    /// SFPAND `d0 = u0 & u1`, tied to `u0`.
    And,
    /// SFPOR, tied to `u0`.
    Or,
    /// SFPXOR, tied to `u0`.
    Xor,
    /// SFPNOT `d0 = ~u0`.
    Not,
    /// SFPSHFT by an immediate, `d0` tied to `u0`.
    ShiftImm { imm12: u32, mod1: u32 },
    /// SFPSHFT `d0 = u0 shifted by u1`, tied to `u0`.
    ShiftVec { mod1: u32 },
    /// SFPEXEXP.
    ExExp { mod1: u32 },
    /// SFPEXMAN.
    ExMan { mod1: u32 },
    /// SFPLZ.
    Lz { mod1: u32 },
    /// SFPCAST.
    Cast { mod1: u32 },
    /// SFPSETEXP with an immediate.
    SetExpImm { imm8: u32 },
    /// SFPSETEXP `d0 = u0 with exponent from u1`, tied to `u1`.
    SetExpVec,
    /// SFPSETMAN with an immediate.
    SetManImm { imm12: u32 },
    /// SFPSETMAN from a vector, tied to `u1`.
    SetManVec,
    /// SFPSETSGN with an immediate.
    SetSgnImm { imm1: u32 },
    /// SFPSETSGN from a vector, tied to `u1`.
    SetSgnVec,
    /// SFPDIVP2 with `SFPSDIVP2_MOD1_ADD`.
    AddExp { imm8: u32 },
    /// SFPLUT `d0` from `LReg[0..=3]`.
    Lut { mod0: u32 },
    /// SFPSTOCHRND `d0` from `u0` (descale: the immediate `imm5`, or `u1` if `vec_descale`).
    StochRnd { rnd: u32, mod1: u32, imm5: Option<u32>, vec_descale: bool },
    /// SFPSHFT2 `d0` from `u0`.
    Shft2 { mod1: u32 },
    /// SFPSWAP of `u0` (`VD`) and `u1` (`VC`): `d0`, `d1` tied to them.
    Swap { mod1: u32 },
    /// SFPTRANSP of `LReg[0..=7]`.
    Transp,
    /// SFPCONFIG `LReg[vd]` from `LReg[0]`.
    Config { vd: u8 },
    /// SFPSETCC on `u0`.
    SetCc { mod1: u32 },
    /// SFPPUSHC.
    PushC,
    /// SFPPOPC.
    PopC,
    /// SFPCOMPC.
    CompC,
}

/// One emitted instruction; loads and stores keep their `dst_reg` offset so that the body can
/// be instantiated for each row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emit {
    /// The instruction (for a load or store, at row 0).
    pub instr: Instr,
    /// The `dst_reg` offset of a load or store.
    pub dst_offset: Option<u32>,
}

impl Emit {
    /// The instruction for row `row`: a load or store at address `2 * (offset + row)`.
    pub fn at_row(&self, row: u32) -> Instr {
        let Some(off) = self.dst_offset else { return self.instr };
        let imm = f(2 * (off + row));
        match self.instr {
            Instr::SFPLOAD { VD, Mod0, AddrMod, .. } => Instr::SFPLOAD { VD, Mod0, AddrMod, Imm10: imm },
            Instr::SFPSTORE { VD, Mod0, AddrMod, .. } => Instr::SFPSTORE { VD, Mod0, AddrMod, Imm10: imm },
            i => i,
        }
    }
}

impl From<Instr> for Emit {
    fn from(instr: Instr) -> Emit {
        Emit { instr, dst_offset: None }
    }
}

/// The low `N` bits of `v` as a field.
pub(crate) fn f<const N: u32>(v: u32) -> U<N> {
    U::new(v & U::<N>::MAX).unwrap_or(U::ZERO)
}

/// SFPI's `SFPLOAD_ADDR_MODE_NOINC`: an address-modifier slot that adds nothing (3 on Wormhole,
/// 7 on Blackhole, `sfpi_hw.h`); the states this crate builds leave every slot at zero.
pub(crate) fn noinc(arch: Arch) -> u32 {
    match arch {
        Arch::Wormhole => 3,
        Arch::Blackhole => 7,
    }
}

/// `SFPMOV Mod1 = 2`: copies every lane, whatever the predication (relocations and copies).
pub(crate) fn copy_all(from: u8, to: u8) -> Instr {
    Instr::SFPMOV { VC: f(from as u32), VD: f(to as u32), Mod1: f(SFPMOV_MOD1_ALL_LANES_ENABLED) }
}

/// The instructions of `op` with operand registers `u` and result registers `d`.
pub(crate) fn build(arch: Arch, op: MOp, u: &[u8], d: &[u8]) -> Vec<Emit> {
    let r = |s: &[u8], k: usize| s.get(k).copied().unwrap_or(0) as u32;
    let (u0, u1, u2, d0) = (r(u, 0), r(u, 1), r(u, 2), r(d, 0));
    let one = |i: Instr| vec![Emit::from(i)];
    match op {
        MOp::Load { mod0, offset } => vec![Emit {
            instr: Instr::SFPLOAD { VD: f(d0), Mod0: f(mod0), AddrMod: f(noinc(arch)), Imm10: f(0) },
            dst_offset: Some(offset),
        }],
        MOp::Store { mod0, offset } => vec![Emit {
            instr: Instr::SFPSTORE { VD: f(u0), Mod0: f(mod0), AddrMod: f(noinc(arch)), Imm10: f(0) },
            dst_offset: Some(offset),
        }],
        MOp::LoadI { mod0, imm16 } => one(Instr::SFPLOADI { VD: f(d0), Mod0: f(mod0), Imm16: f(imm16) }),
        MOp::LoadIPair { bits } => vec![
            Instr::SFPLOADI { VD: f(d0), Mod0: f(SFPLOADI_MOD0_LOWER), Imm16: f(bits & 0xFFFF) }.into(),
            Instr::SFPLOADI { VD: f(d0), Mod0: f(SFPLOADI_MOD0_UPPER), Imm16: f(bits >> 16) }.into(),
        ],
        MOp::Mad { mod1 } => {
            let (VA, VB, VC, VD, Mod1) = (f(u0), f(u1), f(u2), f(d0), f(mod1));
            // SFPADD and SFPMUL are SFPMAD's preferred spellings when VA is 1.0 / VC is 0.
            one(if u0 == 10 {
                Instr::SFPADD { VA, VB, VC, VD, Mod1 }
            } else if u2 == 9 {
                Instr::SFPMUL { VA, VB, VC, VD, Mod1 }
            } else {
                Instr::SFPMAD { VA, VB, VC, VD, Mod1 }
            })
        }
        MOp::Mov { mod1 } => one(Instr::SFPMOV { VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::Merge { mod1 } => one(Instr::SFPMOV { VC: f(u1), VD: f(d0), Mod1: f(mod1) }),
        MOp::MovInto { vd } => one(Instr::SFPMOV { VC: f(u0), VD: f(vd as u32), Mod1: f(0) }),
        MOp::Abs { mod1 } => one(Instr::SFPABS { VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::IAdd { mod1 } => one(Instr::SFPIADD { Imm12: f(0), VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::IAddImm { imm12 } => one(Instr::SFPIADD {
            Imm12: f(imm12),
            VC: f(u0),
            VD: f(d0),
            Mod1: f(SFPIADD_MOD1_ARG_IMM | SFPIADD_MOD1_CC_NONE),
        }),
        MOp::And => one(Instr::SFPAND { VB: f(0), VC: f(u1), VD: f(d0), Mod1: f(0) }),
        MOp::Or => one(Instr::SFPOR { VB: f(0), VC: f(u1), VD: f(d0), Mod1: f(0) }),
        MOp::Xor => one(Instr::SFPXOR { VC: f(u1), VD: f(d0) }),
        MOp::Not => one(Instr::SFPNOT { VC: f(u0), VD: f(d0) }),
        // VC = VD: the immediate form does not read VC, and naming VD keeps the read set exact.
        MOp::ShiftImm { imm12, mod1 } => {
            one(Instr::SFPSHFT { Imm12: f(imm12), VC: f(d0), VD: f(d0), Mod1: f(mod1) })
        }
        MOp::ShiftVec { mod1 } => one(Instr::SFPSHFT { Imm12: f(0), VC: f(u1), VD: f(d0), Mod1: f(mod1) }),
        MOp::ExExp { mod1 } => one(Instr::SFPEXEXP { VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::ExMan { mod1 } => one(Instr::SFPEXMAN { VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::Lz { mod1 } => one(Instr::SFPLZ { VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::Cast { mod1 } => one(Instr::SFPCAST { VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::SetExpImm { imm8 } => {
            one(Instr::SFPSETEXP { Imm8: f(imm8), VC: f(u0), VD: f(d0), Mod1: f(SFPSETEXP_MOD1_ARG_IMM) })
        }
        MOp::SetExpVec => one(Instr::SFPSETEXP { Imm8: f(0), VC: f(u0), VD: f(d0), Mod1: f(0) }),
        MOp::SetManImm { imm12 } => {
            one(Instr::SFPSETMAN { Imm12: f(imm12), VC: f(u0), VD: f(d0), Mod1: f(SFPSETMAN_MOD1_ARG_IMM) })
        }
        MOp::SetManVec => one(Instr::SFPSETMAN { Imm12: f(0), VC: f(u0), VD: f(d0), Mod1: f(0) }),
        MOp::SetSgnImm { imm1 } => {
            one(Instr::SFPSETSGN { Imm1: f(imm1), VC: f(u0), VD: f(d0), Mod1: f(SFPSETSGN_MOD1_ARG_IMM) })
        }
        MOp::SetSgnVec => one(Instr::SFPSETSGN { Imm1: f(0), VC: f(u0), VD: f(d0), Mod1: f(0) }),
        MOp::AddExp { imm8 } => {
            one(Instr::SFPDIVP2 { Imm8: f(imm8), VC: f(u0), VD: f(d0), Mod1: f(SFPSDIVP2_MOD1_ADD) })
        }
        MOp::Lut { mod0 } => one(Instr::SFPLUT { VD: f(d0), Mod0: f(mod0) }),
        MOp::StochRnd { rnd, mod1, imm5, vec_descale } => one(Instr::SFPSTOCHRND {
            RoundingMode: f(rnd),
            Imm5: f(imm5.unwrap_or(0)),
            // VB = VC when there is no vector descale: the documented workaround for the stall
            // logic's false dependency on VB.
            VB: f(if vec_descale { u1 } else { u0 }),
            VC: f(u0),
            VD: f(d0),
            UseImm5: f(u32::from(imm5.is_some())),
            Mod1: f(mod1),
        }),
        MOp::Shft2 { mod1 } => one(Instr::SFPSHFT2 { Imm12: f(0), VC: f(u0), VD: f(d0), Mod1: f(mod1) }),
        MOp::Swap { mod1 } => one(Instr::SFPSWAP { VC: f(r(d, 1)), VD: f(d0), Mod1: f(mod1) }),
        MOp::Transp => one(Instr::SFPTRANSP { VD: f(0) }),
        MOp::Config { vd } => one(Instr::SFPCONFIG { Imm16: f(0), VD: f(vd as u32), Mod1: f(0) }),
        MOp::SetCc { mod1 } => one(Instr::SFPSETCC { Imm1: f(0), VC: f(u0), VD: f(0), Mod1: f(mod1) }),
        MOp::PushC => one(Instr::SFPPUSHC { VD: f(0), Mod1: f(0) }),
        MOp::PopC => one(Instr::SFPPOPC { VD: f(0), Mod1: f(0) }),
        MOp::CompC => one(Instr::SFPCOMPC { VD: f(0) }),
    }
}
