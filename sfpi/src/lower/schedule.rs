//! SFPNOP insertion: the scheduling rules a program must obey itself (the pages' "Instruction
//! scheduling" sections; `docs/spec/sfpu-wormhole.md#clauses-scheduling-rules-software-must-keep`).
//!
//! * Wormhole stalls only after SFPSWAP, so the result of a two-cycle MAD-unit instruction
//!   (SFPMAD, SFPADD, SFPMUL, SFPLUT, ...) must not be read on the next cycle: an SFPNOP goes
//!   between them. Blackhole stalls for most such reads, but its stall logic misses some (SFPIADD
//!   and SFPSHFT reading `VD`, SFPCONFIG reading `LReg[0]`, SFPSWAP's first-cycle compare, ...);
//!   the same SFPNOP is inserted on both chips, which costs Blackhole nothing (it would stall
//!   that cycle anyway).
//! * Wormhole's `SUBVEC_SHFLROR1` / `SUBVEC_SHFLSHR1` (SFPSHFT2 modes 3 and 4) forbid a long list
//!   of instructions and any read of `VD` on the next cycle: an SFPNOP always follows them there
//!   (Blackhole's stall logic enforces its version of the rule).
//! * SFPCONFIG's result can take two cycles: an SFPNOP follows it on both chips.
//!
//! The read sets are this module's own, for the instructions the lowering emits; the scheduling
//! linter (`sfpu_reference::lint`) checks the result.

use sfpu_reference::isa::mods::*;
use sfpu_reference::isa::{Arch, Instr};

fn bit(r: u32) -> u32 {
    if r < 17 { 1 << r } else { 0 }
}

/// The LRegs `i` reads.
pub(crate) fn reads(i: &Instr) -> u32 {
    match *i {
        Instr::SFPLOADI { VD, Mod0, .. } => {
            if matches!(Mod0.get(), SFPLOADI_MOD0_LOWER | SFPLOADI_MOD0_UPPER) { bit(VD.get()) } else { 0 }
        }
        Instr::SFPSTORE { VD, .. } => bit(VD.get()),
        Instr::SFPLUT { .. } => 0xF,
        Instr::SFPMAD { VA, VB, VC, .. }
        | Instr::SFPADD { VA, VB, VC, .. }
        | Instr::SFPMUL { VA, VB, VC, .. } => bit(VA.get()) | bit(VB.get()) | bit(VC.get()),
        Instr::SFPMOV { VC, .. }
        | Instr::SFPABS { VC, .. }
        | Instr::SFPNOT { VC, .. }
        | Instr::SFPEXEXP { VC, .. }
        | Instr::SFPEXMAN { VC, .. }
        | Instr::SFPLZ { VC, .. }
        | Instr::SFPCAST { VC, .. }
        | Instr::SFPDIVP2 { VC, .. }
        | Instr::SFPSETCC { VC, .. }
        | Instr::SFPSHFT2 { VC, .. } => bit(VC.get()),
        Instr::SFPIADD { VC, VD, Mod1, .. } => {
            bit(VC.get()) | if Mod1.get() & SFPIADD_MOD1_ARG_IMM != 0 { 0 } else { bit(VD.get()) }
        }
        Instr::SFPSHFT { VC, VD, .. } | Instr::SFPAND { VC, VD, .. } | Instr::SFPOR { VC, VD, .. } => {
            bit(VC.get()) | bit(VD.get())
        }
        Instr::SFPXOR { VC, VD } => bit(VC.get()) | bit(VD.get()),
        // With LaneConfig's ENABLE_DEST_INDEX, SFPSWAP also exchanges LReg[4..=7] (argmin), so
        // it counts as reading them too.
        Instr::SFPSWAP { VC, VD, .. } => bit(VC.get()) | bit(VD.get()) | 0xF0,
        Instr::SFPSETEXP { VC, VD, Mod1, .. }
        | Instr::SFPSETMAN { VC, VD, Mod1, .. }
        | Instr::SFPSETSGN { VC, VD, Mod1, .. } => {
            bit(VC.get()) | if Mod1.get() & 1 != 0 { 0 } else { bit(VD.get()) }
        }
        Instr::SFPSTOCHRND { VB, VC, .. } => bit(VB.get()) | bit(VC.get()),
        Instr::SFPTRANSP { .. } => 0xFF,
        Instr::SFPCONFIG { .. } => 1,
        _ => 0,
    }
}

/// The LReg a two-cycle MAD-unit instruction writes.
pub(crate) fn mad_result(i: &Instr) -> Option<u32> {
    match *i {
        Instr::SFPMAD { VD, .. }
        | Instr::SFPADD { VD, .. }
        | Instr::SFPMUL { VD, .. }
        | Instr::SFPLUT { VD, .. }
        | Instr::SFPMULI { VD, .. }
        | Instr::SFPADDI { VD, .. }
        | Instr::SFPLUTFP32 { VD, .. }
        | Instr::SFPMUL24 { VD, .. } => Some(VD.get()),
        _ => None,
    }
}

/// Whether an SFPNOP must separate `prev` and `next` on `arch`.
pub(crate) fn needs_nop(arch: Arch, prev: &Instr, next: &Instr) -> bool {
    if matches!(next, Instr::SFPNOP {}) {
        return false;
    }
    if let Some(d) = mad_result(prev)
        && reads(next) & bit(d) != 0
    {
        return true;
    }
    if matches!(prev, Instr::SFPCONFIG { .. }) {
        return true;
    }
    arch == Arch::Wormhole && matches!(prev, Instr::SFPSHFT2 { Mod1, .. } if matches!(Mod1.get(), 2..=4))
}

/// `program` with the SFPNOPs the rules above require.
pub(crate) fn schedule(arch: Arch, program: Vec<Instr>) -> Vec<Instr> {
    let mut out: Vec<Instr> = Vec::with_capacity(program.len() + program.len() / 4);
    for i in program {
        if let Some(prev) = out.last()
            && needs_nop(arch, prev, &i)
        {
            out.push(Instr::SFPNOP {});
        }
        out.push(i);
    }
    out
}
