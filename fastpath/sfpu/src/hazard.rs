//! What the scheduling rules look at: the LRegs an instruction reads and writes, on each chip, as
//! the pages' "Instruction scheduling" sections see them.
//!
//! Blackhole (`SFPMAD.md`, `SFPLUTFP32.md`, `SFPSWAP.md`, `SFPSHFT2.md`, `SFPSTOCHRND_*.md`): the
//! MAD sub-unit's results are written at the end of their first cycle; what an instruction really
//! reads in its first cycle ([`first_cycle_reads`]) and really writes ([`actual_writes`]) decide
//! hazards, and what the automatic stall logic believes they are ([`stall_reads`],
//! [`stall_writes`], [`blocks_next_cycle`]) decides stalls.
//!
//! Wormhole (WormholeB0 `SFPMAD.md` and the other MAD-unit pages, `SFPSHFT2.md`, `SFPSWAP.md`;
//! `docs/spec/sfpu-wormhole.md#clauses-scheduling-rules-software-must-keep`): no stall logic except
//! after SFPSWAP, and next-cycle rules that software must keep, stated in terms of what the next
//! instruction reads and writes ([`wormhole_reads`], [`wormhole_writes`]) and which instruction it
//! is ([`wormhole_shft2_listed`]). [`WormholeCycle`] is what one cycle leaves for the next one's
//! checks ([`WormholeCycle::check`]).

use sfpu_reference::isa::Instr;
use sfpu_reference::outcome::{Clause, Outcome};

use crate::exec::Ctx;

/// Every LReg a normal instruction can name (`LReg[0..=16]`), as a bit mask.
pub const ALL_LREGS: u32 = 0x1_FFFF;

/// `LReg[r]` as a bit mask (`r` taken modulo 32).
#[inline(always)]
pub fn bit(r: usize) -> u32 {
    1u32 << (r & 31)
}

/// The LRegs `i` really reads in its first cycle (with SFPLOADMACRO's overrides in `cx`).
/// Indirect register selection counts as every register.
pub fn first_cycle_reads(i: &Instr, cx: &Ctx) -> u32 {
    use Instr::*;
    match *i {
        SFPLOAD { VD, Mod0, .. } => {
            if matches!(Mod0.get(), 14 | 15) {
                bit(VD.idx())
            } else {
                0
            }
        }
        SFPLOADI { VD, Mod0, .. } => {
            if matches!(Mod0.get(), 8 | 10) {
                bit(VD.idx())
            } else {
                0
            }
        }
        SFPSTORE { VD, .. } => bit(cx.vd(VD.get())),
        SFPLUT { VD, Mod0 } => 0xF | l7_if_indirect(cx.vd(VD.get()), Mod0.get()),
        SFPLUTFP32 { VD, Mod1, .. } => 0x7F | l7_if_indirect(cx.vd(VD.get()), Mod1.get()),
        SFPMAD { VA, VB, VC, VD, Mod1 }
        | SFPADD { VA, VB, VC, VD, Mod1 }
        | SFPMUL { VA, VB, VC, VD, Mod1 }
        | SFPMUL24 { VA, VB, VC, VD, Mod1 } => {
            let a = if Mod1.get() & 4 != 0 { ALL_LREGS } else { bit(VA.idx()) };
            a | bit(cx.vb(VB.get())) | bit(cx.vc(VC.get())) | l7_if_indirect(cx.vd(VD.get()), Mod1.get())
        }
        SFPADDI { VD, Mod1, .. } | SFPMULI { VD, Mod1, .. } => {
            bit(cx.implicit_vc(VD.get())) | l7_if_indirect(cx.vd(VD.get()), Mod1.get())
        }
        SFPDIVP2 { VC, .. } | SFPEXEXP { VC, .. } | SFPEXMAN { VC, .. } | SFPABS { VC, .. } => {
            bit(cx.vc(VC.get()))
        }
        SFPNOT { VC, .. } | SFPLZ { VC, .. } | SFPCAST { VC, .. } => bit(cx.vc(VC.get())),
        SFPSETCC { VC, Mod1, .. } => {
            if Mod1.get() & 9 == 0 {
                bit(cx.vc(VC.get()))
            } else {
                0
            }
        }
        SFPSETEXP { VC, VD, Mod1, .. } | SFPSETMAN { VC, VD, Mod1, .. } | SFPSETSGN { VC, VD, Mod1, .. } => {
            bit(cx.vc(VC.get())) | if Mod1.get() & 1 != 0 { 0 } else { bit(cx.implicit_vb(VD.get())) }
        }
        SFPIADD { VC, VD, Mod1, .. } => {
            bit(cx.vc(VC.get())) | if Mod1.get() & 1 != 0 { 0 } else { bit(cx.implicit_vb(VD.get())) }
        }
        SFPSHFT { VC, VD, .. } => bit(cx.vc(VC.get())) | bit(cx.implicit_vb(VD.get())),
        SFPXOR { VC, VD } => bit(cx.vc(VC.get())) | bit(cx.implicit_vb(VD.get())),
        SFPAND { VB, VC, VD, Mod1 } | SFPOR { VB, VC, VD, Mod1 } => {
            let src = if Mod1.get() & 1 != 0 { cx.vb(VB.get()) } else { cx.vd(VD.get()) };
            bit(cx.vc(VC.get())) | bit(src)
        }
        SFPMOV { VC, Mod1, .. } => {
            if Mod1.get() & 8 != 0 {
                0
            } else {
                bit(cx.vc(VC.get()))
            }
        }
        // SFPCONFIG.md: an InstructionTemplate write (VD 0..3) always takes LReg[0]; VD 4..8
        // and 11..15 take it unless MOD1_IMM16_IS_VALUE; VD 9, 10 (and 16, reachable only
        // through SFPLOADMACRO's override) read nothing.
        SFPCONFIG { VD, Mod1, .. } => match cx.vd(VD.get()) {
            0..=3 => bit(0),
            4..=8 | 11..=15 if Mod1.get() & 1 == 0 => bit(0),
            _ => 0,
        },
        SFPGT { VC, VD, .. } | SFPLE { VC, VD, .. } => bit(cx.vc(VC.get())) | bit(cx.implicit_vb(VD.get())),
        SFPSTOCHRND { VB, VC, UseImm5, Mod1, .. } => {
            let int_int = matches!(Mod1.get(), 4 | 5);
            bit(cx.vc(VC.get())) | if int_int && UseImm5.get() == 0 { bit(cx.vb(VB.get())) } else { 0 }
        }
        SFPARECIP { VB, VC, Mod1, .. } => {
            bit(cx.vc(VC.get())) | if Mod1.get() == 1 { bit(cx.vb(VB.get())) } else { 0 }
        }
        SFPSWAP { VC, VD, Mod1 } => {
            if Mod1.get() != 0 {
                bit(cx.vc(VC.get())) | bit(cx.vd(VD.get()))
            } else {
                0
            }
        }
        SFPTRANSP { .. } => 0xFF,
        SFPSHFT2 { Imm12, VC, Mod1, .. } => match Mod1.get() {
            0 => 0xE,
            1 => 0xF,
            2 => 0xE | bit(cx.vc(VC.get())),
            3 | 4 => bit(cx.vc(VC.get())),
            5 => bit(cx.vb(Imm12.get() & 15)) | bit(cx.vc(VC.get())),
            6 => bit(cx.vb(Imm12.get() & 15)),
            _ => 0,
        },
        SFPLOADMACRO { VDLo, Mod0, VDHi, .. } => {
            if matches!(Mod0.get(), 14 | 15) {
                bit(((VDHi.get() << 2) | VDLo.get()) as usize)
            } else {
                0
            }
        }
        SFPENCC { .. } | SFPPUSHC { .. } | SFPPOPC { .. } | SFPCOMPC { .. } | SFPNOP {} => 0,
    }
}

/// The LRegs `i` really writes (for the MAD sub-unit's two-cycle results). Indirect destination
/// selection counts as every register.
pub fn actual_writes(i: &Instr, cx: &Ctx) -> u32 {
    use Instr::*;
    match *i {
        SFPLUT { VD, Mod0 } => indirect_or(cx.vd(VD.get()), Mod0.get() & 8 != 0),
        SFPLUTFP32 { VD, Mod1, .. } => indirect_or(cx.vd(VD.get()), Mod1.get() & 8 != 0),
        SFPMAD { VD, Mod1, .. }
        | SFPADD { VD, Mod1, .. }
        | SFPMUL { VD, Mod1, .. }
        | SFPMUL24 { VD, Mod1, .. }
        | SFPADDI { VD, Mod1, .. }
        | SFPMULI { VD, Mod1, .. } => indirect_or(cx.vd(VD.get()), Mod1.get() & 8 != 0),
        _ => 0,
    }
}

/// `LReg[7]` if the `INDIRECT_VD` bit (8) of `mode` is set and takes effect (`VD != 16`).
pub fn l7_if_indirect(vd: usize, mode: u32) -> u32 {
    if mode & 8 != 0 && vd != 16 { bit(7) } else { 0 }
}

/// `VD` (counted even when the register is not writable, as the scheduling logic sees the field),
/// or every LReg for an indirect destination.
pub fn indirect_or(vd: usize, indirect: bool) -> u32 {
    if indirect && vd != 16 { ALL_LREGS } else { bit(vd) }
}

/// The LRegs the automatic stall logic believes a two-cycle producer writes (`SFPMAD.md`,
/// `SFPLUTFP32.md`): its `VD` field (whether or not that register is writable), or every LReg with
/// `INDIRECT_VD`; SFPLUTFP32 looks at `Mod1Mirror` only.
pub fn stall_writes(i: &Instr) -> u32 {
    use Instr::*;
    let vd_or_all = |vd: usize, indirect: bool| if indirect { ALL_LREGS } else { bit(vd) };
    match *i {
        SFPLUTFP32 { Mod1Mirror, VD, .. } => vd_or_all(VD.idx(), Mod1Mirror.get() & 8 != 0),
        SFPLUT { VD, Mod0 } => vd_or_all(VD.idx(), Mod0.get() & 8 != 0),
        SFPMAD { VD, Mod1, .. }
        | SFPADD { VD, Mod1, .. }
        | SFPMUL { VD, Mod1, .. }
        | SFPMUL24 { VD, Mod1, .. }
        | SFPADDI { VD, Mod1, .. }
        | SFPMULI { VD, Mod1, .. } => vd_or_all(VD.idx(), Mod1.get() & 8 != 0),
        _ => 0,
    }
}

/// The LRegs the automatic stall logic believes a regular instruction reads, with its documented
/// blind spots (`SFPMAD.md` "Instruction scheduling", `SFPLUTFP32.md`, `SFPSWAP.md`,
/// `SFPSHFT2.md`, and the false dependency on SFPSTOCHRND's `VB`).
pub fn stall_reads(i: &Instr) -> u32 {
    use Instr::*;
    let cx = &Ctx::REGULAR;
    match *i {
        SFPAND { VC, VD, .. } | SFPOR { VC, VD, .. } => bit(VC.idx()) | bit(VD.idx()),
        SFPIADD { VC, .. } | SFPSHFT { VC, .. } => bit(VC.idx()),
        SFPCONFIG { .. } | SFPSWAP { .. } => 0,
        SFPSHFT2 { VC, VD, Mod1, .. } => match Mod1.get() {
            2..=4 => 0,
            5 => bit(VC.idx()) | bit(VD.idx()),
            6 => bit(VD.idx()),
            _ => first_cycle_reads(i, cx),
        },
        SFPLUTFP32 { Mod1Mirror, .. } => {
            if Mod1Mirror.get() & 8 != 0 {
                ALL_LREGS
            } else {
                ALL_LREGS & !bit(7)
            }
        }
        SFPSTOCHRND { VB, VC, .. } => bit(VB.idx()) | bit(VC.idx()),
        _ => first_cycle_reads(i, cx),
    }
}

/// SFPSWAP, and SFPSHFT2 modes 2, 3 and 4: only SFPNOP may issue on the next cycle.
pub fn blocks_next_cycle(i: &Instr) -> bool {
    match *i {
        Instr::SFPSWAP { .. } => true,
        Instr::SFPSHFT2 { Mod1, .. } => matches!(Mod1.get(), 2..=4),
        _ => false,
    }
}

/// The LRegs `i` reads on Wormhole (with SFPLOADMACRO's overrides in `cx`), for the next-cycle
/// rules: everything its functional model reads, which is [`first_cycle_reads`] except where
/// Wormhole's page differs or Blackhole's two-cycle view does not apply. Indirect register
/// selection counts as every register.
///
/// * SFPSWAP reads `VC` and `VD` in every mode (Blackhole's SWAP mode reads them in its second
///   cycle, after a MAD result is written; Wormhole's rule is about any read on the next cycle),
///   and, for argmin/argmax, its index registers `LReg[4 + (VC & 3)]` and `LReg[4 + (VD & 3)]`
///   (WormholeB0 `SFPSWAP.md`): only when some lane has `ENABLE_DEST_INDEX` (`dest_index`; the
///   clauses are noted for all lanes, so "some lane" is what matters).
/// * SFPAND, SFPOR: `VC` and `VB = VD` (no `USE_VB`).
/// * SFPSHFT: `VB = VD`, and `VC` unless `ARG_IMM` (`Mod1 & 1`, reserved values included).
pub fn wormhole_reads(i: &Instr, cx: &Ctx, dest_index: bool) -> u32 {
    use Instr::*;
    match *i {
        SFPSWAP { VC, VD, .. } => {
            let (c, d) = (cx.vc(VC.get()), cx.vd(VD.get()));
            bit(c) | bit(d) | if dest_index { bit(4 + (c & 3)) | bit(4 + (d & 3)) } else { 0 }
        }
        SFPAND { VC, VD, .. } | SFPOR { VC, VD, .. } => bit(cx.vc(VC.get())) | bit(cx.implicit_vb(VD.get())),
        SFPSHFT { VC, VD, Mod1, .. } => {
            bit(cx.implicit_vb(VD.get())) | if Mod1.get() & 1 != 0 { 0 } else { bit(cx.vc(VC.get())) }
        }
        _ => first_cycle_reads(i, cx),
    }
}

/// The LRegs `i` may write on Wormhole, for the rule after `SUBVEC_SHFLROR1_AND_COPY4` (which only
/// asks about `LReg[1..=3]`): `VD` where the model writes `LReg[VD]` (only `VD < 8 || VD == 16`
/// is written), the shuffled registers of SFPSHFT2 modes 0..2 and SFPTRANSP, SFPSWAP's two
/// registers and, for argmin/argmax, their index registers, and every LReg for an indirect
/// destination. SFPLOAD's index capture writes `LReg[VD + 4]` (4 or more).
pub fn wormhole_writes(i: &Instr, cx: &Ctx) -> u32 {
    use Instr::*;
    let w8 = |vd: usize| if vd < 8 || vd == 16 { bit(vd) } else { 0 };
    match *i {
        SFPLOAD { VD, .. } => {
            let vd = VD.idx();
            if vd < 8 { bit(vd) | if vd < 4 { bit(vd + 4) } else { 0 } } else { 0 }
        }
        SFPLOADMACRO { VDLo, VDHi, .. } => {
            let vd = ((VDHi.get() << 2) | VDLo.get()) as usize;
            bit(vd) | if vd < 4 { bit(vd + 4) } else { 0 }
        }
        SFPLOADI { VD, .. } => {
            if VD.idx() < 8 {
                bit(VD.idx())
            } else {
                0
            }
        }
        SFPLUT { VD, Mod0 } => indirect_or(cx.vd(VD.get()), Mod0.get() & 8 != 0),
        SFPLUTFP32 { VD, Mod1, .. } => indirect_or(cx.vd(VD.get()), Mod1.get() & 8 != 0),
        SFPMAD { VD, Mod1, .. }
        | SFPADD { VD, Mod1, .. }
        | SFPMUL { VD, Mod1, .. }
        | SFPADDI { VD, Mod1, .. }
        | SFPMULI { VD, Mod1, .. } => indirect_or(cx.vd(VD.get()), Mod1.get() & 8 != 0),
        SFPSWAP { VC, VD, .. } => {
            let (c, d) = (cx.vc(VC.get()), cx.vd(VD.get()));
            let regs = |r: usize| if r < 8 { bit(r) } else { 0 };
            regs(c) | regs(d) | bit(4 + (c & 3)) | bit(4 + (d & 3))
        }
        SFPTRANSP { .. } => 0xFF,
        SFPSHFT2 { VD, Mod1, .. } => match Mod1.get() {
            0..=2 => 0xF,
            3..=6 => w8(cx.vd(VD.get())),
            _ => 0,
        },
        SFPCONFIG { VD, .. } => match cx.vd(VD.get()) {
            vd @ 11..=14 => bit(vd),
            _ => 0,
        },
        SFPSTORE { .. }
        | SFPSETCC { .. }
        | SFPENCC { .. }
        | SFPPUSHC { .. }
        | SFPPOPC { .. }
        | SFPCOMPC { .. }
        | SFPNOP {} => 0,
        SFPDIVP2 { VD, .. }
        | SFPEXEXP { VD, .. }
        | SFPEXMAN { VD, .. }
        | SFPIADD { VD, .. }
        | SFPSHFT { VD, .. }
        | SFPMOV { VD, .. }
        | SFPABS { VD, .. }
        | SFPAND { VD, .. }
        | SFPOR { VD, .. }
        | SFPNOT { VD, .. }
        | SFPLZ { VD, .. }
        | SFPSETEXP { VD, .. }
        | SFPSETMAN { VD, .. }
        | SFPSETSGN { VD, .. }
        | SFPXOR { VD, .. }
        | SFPSTOCHRND { VD, .. }
        | SFPCAST { VD, .. }
        | SFPGT { VD, .. }
        | SFPLE { VD, .. }
        | SFPARECIP { VD, .. } => w8(cx.vd(VD.get())),
        SFPMUL24 { VD, Mod1, .. } => indirect_or(cx.vd(VD.get()), Mod1.get() & 8 != 0),
    }
}

/// Whether `i` is on the list of `SFPSHFT2.md`'s fourth rule: the instructions that must not execute
/// on the cycle after an SFPSHFT2 in mode 2, 3 or 4.
pub fn wormhole_shft2_listed(i: &Instr) -> bool {
    use Instr::*;
    match *i {
        SFPABS { .. }
        | SFPAND { .. }
        | SFPCAST { .. }
        | SFPDIVP2 { .. }
        | SFPEXEXP { .. }
        | SFPEXMAN { .. }
        | SFPIADD { .. }
        | SFPLZ { .. }
        | SFPMOV { .. }
        | SFPNOT { .. }
        | SFPOR { .. }
        | SFPSETEXP { .. }
        | SFPSETMAN { .. }
        | SFPSETSGN { .. }
        | SFPSHFT { .. }
        | SFPSTOCHRND { .. }
        | SFPXOR { .. } => true,
        SFPSHFT2 { Mod1, .. } => matches!(Mod1.get(), 0 | 1 | 5 | 6),
        _ => false,
    }
}

/// What the Wormhole rules of the next cycle need to know about the instructions of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WormholeCycle {
    /// LRegs written by a MAD-unit instruction (`SFPMAD.md`, `SFPADD.md`, `SFPMUL.md`,
    /// `SFPADDI.md`, `SFPMULI.md`, `SFPLUT.md`, `SFPLUTFP32.md`: "does not execute an instruction
    /// which reads from any location written to by" it).
    pub mad_writes: u32,
    /// An SFPSHFT2 `SUBVEC_SHFLROR1_AND_COPY4` executed: no read of `LReg[0..=3]`, no write of
    /// `LReg[1..=3]`.
    pub copy4: bool,
    /// `LReg[VD]` of an SFPSHFT2 `SUBVEC_SHFLROR1` / `SUBVEC_SHFLSHR1` with `VD < 8`: no read.
    pub shfl_vd: u32,
    /// An SFPSHFT2 in mode 2, 3 or 4 executed: none of the listed instructions.
    pub shft2: bool,
}

impl WormholeCycle {
    /// Records an instruction that executed (as `cx` says) in the cycle.
    #[inline]
    pub fn add(&mut self, i: &Instr, cx: &Ctx) {
        use Instr::*;
        match *i {
            SFPMAD { .. }
            | SFPADD { .. }
            | SFPMUL { .. }
            | SFPADDI { .. }
            | SFPMULI { .. }
            | SFPLUT { .. }
            | SFPLUTFP32 { .. } => self.mad_writes |= actual_writes(i, cx),
            SFPSHFT2 { VD, Mod1, .. } => match Mod1.get() {
                2 => {
                    self.copy4 = true;
                    self.shft2 = true;
                }
                3 | 4 => {
                    let vd = cx.vd(VD.get());
                    if vd < 8 {
                        self.shfl_vd |= bit(vd);
                    }
                    self.shft2 = true;
                }
                _ => {}
            },
            _ => {}
        }
    }

    /// Whether nothing of this cycle constrains the next one.
    #[inline(always)]
    pub fn is_quiet(&self) -> bool {
        *self == WormholeCycle::default()
    }

    /// Checks an instruction executing on the next cycle (as `cx` says) against this cycle's, and
    /// reports each rule it breaks with that rule's clause.
    /// `dest_index`: whether some lane has `ENABLE_DEST_INDEX` (SFPSWAP's index registers).
    pub fn check(&self, i: &Instr, cx: &Ctx, dest_index: bool, out: &mut Outcome) {
        let reads = wormhole_reads(i, cx, dest_index);
        if reads & self.mad_writes != 0 {
            out.note_all(Clause::WormholeMadResultRead);
        }
        if self.copy4 {
            if reads & 0xF != 0 {
                out.note_all(Clause::WormholeShflror1Copy4Read);
            }
            if wormhole_writes(i, cx) & 0xE != 0 {
                out.note_all(Clause::WormholeShflror1Copy4Write);
            }
        }
        if reads & self.shfl_vd != 0 {
            out.note_all(Clause::WormholeShflVdRead);
        }
        if self.shft2 && wormhole_shft2_listed(i) {
            out.note_all(Clause::WormholeShft2NextInstruction);
        }
    }
}
