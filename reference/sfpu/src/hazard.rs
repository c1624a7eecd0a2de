//! Which LRegs an instruction reads and writes, as it really does and as Blackhole's automatic
//! stall logic believes it does, and the next-cycle rules Wormhole software must obey because
//! Wormhole stalls only after SFPSWAP ([`wormhole_rules`]).
//!
//! Transcribes the "Instruction scheduling" sections of tt-isa-documentation BlackholeA0
//! `SFPMAD.md` (the list of cases the stall logic misses), `SFPLUTFP32.md` (`Mod1Mirror`),
//! `SFPSWAP.md`, `SFPSHFT2.md` and `SFPCONFIG.md`.
//!
//! Sets are bit masks over `LReg[0..=16]` (bit `i` is `LReg[i]`). The [`Machine`](crate::Machine)
//! uses them to insert the stalls the hardware inserts and to report the hazards it does not
//! catch; the linter reports the same hazards for a program text.

#![allow(non_snake_case, reason = "names follow the ISA documentation")]

use crate::isa::mods::*;
use crate::isa::{Arch, Instr, Opcode};
use crate::ops::Ctx;
use crate::outcome::{Clause, Outcome};

/// Every LReg a normal instruction can read or write through indirection (`LReg[0..=16]`).
pub const ALL_LREGS: u32 = 0x1_FFFF;

fn bit(reg: usize) -> u32 {
    if reg <= 16 { 1 << reg } else { 0 }
}

/// Bits for `LReg[lo..=hi]`.
fn range(lo: usize, hi: usize) -> u32 {
    (lo..=hi).fold(0, |m, r| m | bit(r))
}

/// The LReg read and write sets of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// LRegs read.
    pub reads: u32,
    /// LRegs written.
    pub writes: u32,
}

/// Whether the instruction has a 2-cycle result that the stall logic protects (the MAD
/// sub-unit's producers: `SFPMAD.md` "Instruction scheduling").
pub fn is_two_cycle_producer(instr: &Instr) -> bool {
    use Opcode::*;
    matches!(instr.opcode(), SFPMAD | SFPADD | SFPMUL | SFPADDI | SFPMULI | SFPLUT | SFPLUTFP32 | SFPMUL24)
}

/// Whether the instruction blocks the next cycle for anything but SFPNOP (SFPSWAP, and SFPSHFT2
/// modes 2, 3 and 4: `SFPSWAP.md`, `SFPSHFT2.md`). For a regular instruction the stall logic
/// enforces it; for one SFPLOADMACRO scheduled it does not, and the [`Machine`](crate::Machine)
/// reports a busy next cycle instead (`LoadmacroRule`).
pub fn blocks_next_cycle(instr: &Instr) -> bool {
    match instr {
        Instr::SFPSWAP { .. } => true,
        Instr::SFPSHFT2 { Mod1, .. } => matches!(Mod1.get(), 2..=4),
        _ => false,
    }
}

/// The registers `instr` really reads and writes on `arch`, with SFPLOADMACRO's overrides from
/// `cx`. Indirect register selection counts as every register. The chips differ in SFPAND and
/// SFPOR (Wormhole: `VD op= VC`, with `unsigned VB = VD;`) and SFPSHFT (Wormhole reads `VC` only
/// without `ARG_IMM`).
pub fn actual(arch: Arch, instr: &Instr, cx: &Ctx) -> Access {
    let vb = |f: usize| bit(cx.vb(f));
    let vc = |f: usize| bit(cx.vc(f));
    let vd = |f: usize| cx.vd(f);
    let implicit_vb = |f: usize| bit(cx.implicit_VB(cx.vd(f)));
    if arch == Arch::Wormhole {
        match *instr {
            Instr::SFPAND { VC, VD, .. } | Instr::SFPOR { VC, VD, .. } => {
                return Access { reads: vc(VC.idx()) | implicit_vb(VD.idx()), writes: bit(vd(VD.idx())) };
            }
            Instr::SFPSHFT { VC, VD, Mod1, .. } => {
                let imm = Mod1.get() & SFPSHFT_MOD1_ARG_IMM != 0;
                return Access {
                    reads: if imm { 0 } else { vc(VC.idx()) } | implicit_vb(VD.idx()),
                    writes: bit(vd(VD.idx())),
                };
            }
            _ => {}
        }
    }
    match *instr {
        Instr::SFPLOAD { VD, Mod0, .. } => load_access(VD.idx(), Mod0.get()),
        Instr::SFPLOADMACRO { VDLo, VDHi, Mod0, .. } => {
            load_access((VDHi.idx() << 2) | VDLo.idx(), Mod0.get())
        }
        Instr::SFPLOADI { VD, Mod0, .. } => {
            let d = VD.idx();
            let reads =
                if matches!(Mod0.get(), SFPLOADI_MOD0_UPPER | SFPLOADI_MOD0_LOWER) { bit(d) } else { 0 };
            Access { reads, writes: if d < 8 { bit(d) } else { 0 } }
        }
        Instr::SFPSTORE { VD, .. } => Access { reads: bit(vd(VD.idx())), writes: 0 },
        Instr::SFPLUT { VD, Mod0 } => {
            let indirect = Mod0.get() & SFPLUT_MOD0_INDIRECT_VD != 0 && vd(VD.idx()) != 16;
            Access {
                reads: range(0, 3) | if indirect { bit(7) } else { 0 },
                writes: if indirect { ALL_LREGS } else { bit(vd(VD.idx())) },
            }
        }
        Instr::SFPMULI { VD, Mod1, .. } | Instr::SFPADDI { VD, Mod1, .. } => {
            let d = vd(VD.idx());
            let indirect = Mod1.get() & SFPMAD_MOD1_INDIRECT_VD != 0 && d != 16;
            Access {
                reads: bit(cx.implicit_VC(d)) | if indirect { bit(7) } else { 0 },
                writes: if indirect { ALL_LREGS } else { bit(d) },
            }
        }
        Instr::SFPMAD { VA, VB, VC, VD, Mod1 }
        | Instr::SFPADD { VA, VB, VC, VD, Mod1 }
        | Instr::SFPMUL { VA, VB, VC, VD, Mod1 }
        | Instr::SFPMUL24 { VA, VB, VC, VD, Mod1 } => {
            let d = vd(VD.idx());
            let indirect_va = Mod1.get() & SFPMAD_MOD1_INDIRECT_VA != 0;
            let indirect_vd = Mod1.get() & SFPMAD_MOD1_INDIRECT_VD != 0 && d != 16;
            Access {
                reads: (if indirect_va { ALL_LREGS } else { bit(VA.idx()) })
                    | vb(VB.idx())
                    | vc(VC.idx())
                    | if indirect_vd { bit(7) } else { 0 },
                writes: if indirect_vd { ALL_LREGS } else { bit(d) },
            }
        }
        Instr::SFPDIVP2 { VC, VD, .. }
        | Instr::SFPEXEXP { VC, VD, .. }
        | Instr::SFPEXMAN { VC, VD, .. }
        | Instr::SFPABS { VC, VD, .. }
        | Instr::SFPNOT { VC, VD }
        | Instr::SFPLZ { VC, VD, .. }
        | Instr::SFPCAST { VC, VD, .. } => Access { reads: vc(VC.idx()), writes: bit(vd(VD.idx())) },
        Instr::SFPMOV { VC, VD, Mod1 } => Access {
            reads: if Mod1.get() & SFPMOV_MOD1_FROM_SPECIAL != 0 { 0 } else { vc(VC.idx()) },
            writes: bit(vd(VD.idx())),
        },
        Instr::SFPIADD { VC, VD, Mod1, .. } => Access {
            reads: vc(VC.idx())
                | if Mod1.get() & SFPIADD_MOD1_ARG_IMM != 0 { 0 } else { implicit_vb(VD.idx()) },
            writes: bit(vd(VD.idx())),
        },
        Instr::SFPSHFT { VC, VD, .. } => {
            Access { reads: vc(VC.idx()) | implicit_vb(VD.idx()), writes: bit(vd(VD.idx())) }
        }
        Instr::SFPSETCC { VC, Mod1, .. } => {
            let m = Mod1.get();
            Access {
                reads: if m & (SFPSETCC_MOD1_CLEAR | SFPSETCC_MOD1_IMM_BIT0) != 0 { 0 } else { vc(VC.idx()) },
                writes: 0,
            }
        }
        Instr::SFPAND { VB, VC, VD, Mod1 } | Instr::SFPOR { VB, VC, VD, Mod1 } => {
            let src = if Mod1.get() & SFPAND_MOD1_USE_VB != 0 { cx.vb(VB.idx()) } else { vd(VD.idx()) };
            Access { reads: bit(src) | vc(VC.idx()), writes: bit(vd(VD.idx())) }
        }
        Instr::SFPXOR { VC, VD } => {
            Access { reads: vc(VC.idx()) | implicit_vb(VD.idx()), writes: bit(vd(VD.idx())) }
        }
        Instr::SFPSETEXP { VC, VD, Mod1, .. }
        | Instr::SFPSETMAN { VC, VD, Mod1, .. }
        | Instr::SFPSETSGN { VC, VD, Mod1, .. } => Access {
            reads: vc(VC.idx()) | if Mod1.get() & 1 != 0 { 0 } else { implicit_vb(VD.idx()) },
            writes: bit(vd(VD.idx())),
        },
        Instr::SFPPUSHC { .. } | Instr::SFPPOPC { .. } | Instr::SFPENCC { .. } | Instr::SFPCOMPC { .. } => {
            Access::default()
        }
        Instr::SFPNOP {} => Access::default(),
        Instr::SFPTRANSP { .. } => Access { reads: range(0, 7), writes: range(0, 7) },
        Instr::SFPSTOCHRND { VB, VC, VD, UseImm5, Mod1, .. } => {
            let int_int =
                matches!(Mod1.get(), SFPSTOCHRND_MOD1_INT32_TO_UINT8 | SFPSTOCHRND_MOD1_INT32_TO_INT8);
            Access {
                reads: vc(VC.idx()) | if int_int && UseImm5.get() == 0 { vb(VB.idx()) } else { 0 },
                writes: bit(vd(VD.idx())),
            }
        }
        Instr::SFPCONFIG { VD, Mod1, .. } => {
            // SFPCONFIG.md: InstructionTemplate writes always take LReg[0]; the other
            // selectors take it unless MOD1_IMM16_IS_VALUE; VD 9 and 10 (and 16, reachable only
            // through SFPLOADMACRO's override) read nothing.
            let d = vd(VD.idx());
            let reads_l0 = match d {
                0..=3 => true,
                4..=8 | 11..=15 => Mod1.get() & MOD1_IMM16_IS_VALUE == 0,
                _ => false,
            };
            Access {
                reads: if reads_l0 { bit(0) } else { 0 },
                writes: if (11..=14).contains(&d) { bit(d) } else { 0 },
            }
        }
        Instr::SFPSWAP { VC, VD, .. } => {
            // `SFPSWAP.md`: VC and VD, and in lanes with ENABLE_DEST_INDEX the index registers
            // LReg[4 + (VC & 3)] and LReg[4 + (VD & 3)] (counted here as if some lane has it;
            // see `wormhole_rules` for the lane-aware Wormhole read set).
            let (c, d) = (cx.vc(VC.idx()), vd(VD.idx()));
            let index = bit(4 + (c & 3)) | bit(4 + (d & 3));
            Access { reads: bit(c) | bit(d) | index, writes: bit(c) | bit(d) | index }
        }
        Instr::SFPSHFT2 { Imm12, VC, VD, Mod1 } => {
            let (c, d) = (cx.vc(VC.idx()), vd(VD.idx()));
            let b = cx.vb((Imm12.get() & 15) as usize);
            match Mod1.get() {
                0 => Access { reads: range(1, 3), writes: range(0, 3) },
                1 => Access { reads: range(0, 3), writes: range(0, 3) },
                2 => Access { reads: range(1, 3) | bit(c), writes: range(0, 3) },
                3 | 4 => Access { reads: bit(c), writes: bit(d) },
                5 => Access { reads: bit(b) | bit(c), writes: bit(d) },
                6 => Access { reads: bit(b), writes: bit(d) },
                _ => Access::default(),
            }
        }
        Instr::SFPLUTFP32 { VD, Mod1, .. } => {
            let d = vd(VD.idx());
            let indirect = Mod1.get() & SFPLUTFP32_MOD1_INDIRECT_VD != 0 && d != 16;
            Access {
                reads: range(0, 6) | if indirect { bit(7) } else { 0 },
                writes: if indirect { ALL_LREGS } else { bit(d) },
            }
        }
        Instr::SFPLE { VD, Mod1, VC } | Instr::SFPGT { VD, Mod1, VC } => Access {
            reads: vc(VC.idx()) | implicit_vb(VD.idx()),
            writes: if Mod1.get() & SFPGT_MOD1_SET_VD != 0 { bit(vd(VD.idx())) } else { 0 },
        },
        Instr::SFPARECIP { VB, VC, VD, Mod1 } => Access {
            reads: vc(VC.idx()) | if Mod1.get() == SFPARECIP_MOD1_COND_RECIP { vb(VB.idx()) } else { 0 },
            writes: bit(vd(VD.idx())),
        },
    }
}

fn load_access(VD: usize, Mod0: u32) -> Access {
    let reads = if matches!(Mod0, MOD0_FMT_LO16_ONLY | MOD0_FMT_HI16_ONLY) { bit(VD) } else { 0 };
    let writes = if VD < 8 { bit(VD) | if VD < 4 { bit(VD + 4) } else { 0 } } else { 0 };
    Access { reads, writes }
}

/// The registers the automatic stall logic believes a regular instruction reads and writes
/// (`SFPMAD.md` "Instruction scheduling"): where it is wrong, a dependent instruction is not
/// stalled and its result is not defined.
pub fn stall_view(instr: &Instr) -> Access {
    let cx = Ctx::REGULAR;
    let real = actual(Arch::Blackhole, instr, &cx);
    match *instr {
        // The logic ignores USE_VB and thinks VD is read, never VB.
        Instr::SFPAND { VC, VD, .. } | Instr::SFPOR { VC, VD, .. } => {
            Access { reads: bit(VC.idx()) | bit(VD.idx()), writes: real.writes }
        }
        // The logic does not realise SFPIADD and SFPSHFT read VD.
        Instr::SFPIADD { VC, .. } | Instr::SFPSHFT { VC, .. } => {
            Access { reads: bit(VC.idx()), writes: real.writes }
        }
        // The logic does not realise SFPCONFIG can read LReg[0].
        Instr::SFPCONFIG { .. } => Access { reads: 0, writes: real.writes },
        // SFPMAD.md lists SFPSWAP (modes other than SWAP) among the cases the logic misses: it
        // "does not realise that any reads are performed during the 1st cycle". The reads it
        // does know of happen in the 2nd cycle, after a MAD result is written, so it never
        // stalls SFPSWAP for data (the SWAP mode reads only in its 2nd cycle, so is not missed).
        Instr::SFPSWAP { .. } => Access { reads: 0, writes: real.writes },
        // SFPSTOCHRND_*.md: "VC is specified twice ... to work around a false dependency bug in
        // the automatic stalling logic" (mitigation: VB = VC), so the logic believes VB is read
        // in every flavour. Timing only: the extra stall changes no value.
        Instr::SFPSTOCHRND { VB, VC, .. } => {
            Access { reads: real.reads | bit(VB.idx()) | bit(VC.idx()), writes: real.writes }
        }
        Instr::SFPSHFT2 { Mod1, VC, VD, .. } => match Mod1.get() {
            // Modes 2, 3, 4: the logic thinks nothing is read.
            2..=4 => Access { reads: 0, writes: real.writes },
            // Modes 5, 6: the logic thinks VD is read, whereas VB is. Only VB is mistaken: mode
            // 5's read of VC is one the logic knows of (SFPMAD.md names no other blind spot).
            5 => Access { reads: bit(VD.idx()) | bit(VC.idx()), writes: real.writes },
            6 => Access { reads: bit(VD.idx()), writes: real.writes },
            _ => real,
        },
        // SFPLUTFP32's stall logic keys off Mod1Mirror bit 3: set, every LReg is read and written;
        // clear, every LReg but LReg[7] is read and VD is written.
        Instr::SFPLUTFP32 { Mod1Mirror, VD, .. } => {
            if Mod1Mirror.get() & 8 != 0 {
                Access { reads: ALL_LREGS, writes: ALL_LREGS }
            } else {
                Access { reads: ALL_LREGS & !bit(7), writes: bit(VD.idx()) }
            }
        }
        // INDIRECT_VA / INDIRECT_VD make the logic assume every LReg is read / written.
        Instr::SFPMAD { Mod1, .. }
        | Instr::SFPADD { Mod1, .. }
        | Instr::SFPMUL { Mod1, .. }
        | Instr::SFPMUL24 { Mod1, .. } => Access {
            reads: if Mod1.get() & SFPMAD_MOD1_INDIRECT_VA != 0 { ALL_LREGS } else { real.reads },
            writes: real.writes,
        },
        _ => real,
    }
}

/// The registers an instruction reads in its first cycle, which is when a two-cycle result of
/// the previous cycle is not yet written. Every instruction reads in its first cycle except
/// SFPSWAP (`SFPSWAP.md`): it compares VC and VD in its 1st cycle (modes other than SWAP) and
/// reads them again, with the argmin LRegs, in its 2nd cycle when it swaps.
pub fn first_cycle_reads(instr: &Instr, cx: &Ctx) -> u32 {
    match *instr {
        Instr::SFPSWAP { VC, VD, Mod1 } => {
            if Mod1.get() == SFPSWAP_MOD1_SWAP {
                0
            } else {
                bit(cx.vc(VC.idx())) | bit(cx.vd(VD.idx()))
            }
        }
        _ => actual(Arch::Blackhole, instr, cx).reads,
    }
}

/// The bit of `LReg[reg]` in the masks of this module (none beyond `LReg[16]`).
pub fn lreg_bit(reg: usize) -> u32 {
    bit(reg)
}

/// The LRegs `instr` names in a way that collides with an SFPSWAP's second cycle (BlackholeA0
/// `SFPSWAP.md` caution): its destination `VD` (for SFPLOADMACRO `VDHi << 2 | VDLo`), as
/// overridden by `cx`, and what it reads in its first cycle.
pub fn swap_second_cycle_touch(instr: &Instr, cx: &Ctx) -> u32 {
    let vd = match *instr {
        Instr::SFPLOADMACRO { VDLo, VDHi, .. } => bit((VDHi.idx() << 2) | VDLo.idx()),
        Instr::SFPNOP {} => return 0,
        _ => instr.vd().map_or(0, |v| bit(cx.vd(v as usize))),
    };
    vd | first_cycle_reads(instr, cx)
}

/// Whether `instr` is one of the MAD-unit instructions whose result Wormhole software must not read
/// on the next cycle (WormholeB0 `SFPMAD.md`, `SFPADD.md`, `SFPMUL.md`, `SFPADDI.md`, `SFPMULI.md`,
/// `SFPLUT.md`, `SFPLUTFP32.md` § "Instruction scheduling").
pub fn is_wormhole_mad_producer(instr: &Instr) -> bool {
    use Opcode::*;
    matches!(instr.opcode(), SFPMAD | SFPADD | SFPMUL | SFPADDI | SFPMULI | SFPLUT | SFPLUTFP32)
}

/// The instructions WormholeB0 `SFPSHFT2.md` forbids on the cycle after `SUBVEC_SHFLROR1_AND_COPY4`,
/// `SUBVEC_SHFLROR1` or `SUBVEC_SHFLSHR1`.
fn in_wormhole_shft2_list(instr: &Instr) -> bool {
    use Opcode::*;
    match instr {
        Instr::SFPSHFT2 { Mod1, .. } => matches!(
            Mod1.get(),
            SFPSHFT2_MOD1_COPY4
                | SFPSHFT2_MOD1_SUBVEC_CHAINED_COPY4
                | SFPSHFT2_MOD1_SHFT_LREG
                | SFPSHFT2_MOD1_SHFT_IMM
        ),
        _ => matches!(
            instr.opcode(),
            SFPABS
                | SFPAND
                | SFPCAST
                | SFPDIVP2
                | SFPEXEXP
                | SFPEXMAN
                | SFPIADD
                | SFPLZ
                | SFPMOV
                | SFPNOT
                | SFPOR
                | SFPSETEXP
                | SFPSETMAN
                | SFPSETSGN
                | SFPSHFT
                | SFPSTOCHRND
                | SFPXOR
        ),
    }
}

/// The Wormhole scheduling rules between an instruction executed on one cycle (`prev`, as issued
/// with `prev_cx`) and one executed on the next (`next`), which Wormhole's hardware does not
/// enforce (it stalls only after SFPSWAP): each rule broken is noted in `out`.
///
/// Transcribes the "Instruction scheduling" sections of WormholeB0 `SFPMAD.md`
/// (@ `241b4eafd49839467d0d83b30feb12bc7f4b2d80`) and its siblings (no read of a location a
/// MAD-unit instruction writes), and of `SFPSHFT2.md`
/// (@ `a052bcc95da50343edb5ff0baff874e229266dc0`: after `SUBVEC_SHFLROR1_AND_COPY4` no read of
/// `LReg[0..3]` and no write of `LReg[1..3]`; after `SUBVEC_SHFLROR1` / `SUBVEC_SHFLSHR1` with
/// `VD < 8` no read of `LReg[VD]`; after any of the three none of the listed instructions). The
/// pages say what software must ensure, not what happens otherwise, so a broken rule leaves the
/// dependent results unspecified; the model still writes results at the end of their first cycle.
///
/// `dest_index` says whether some lane has `ENABLE_DEST_INDEX`: only then does an SFPSWAP read
/// its index registers `LReg[4 + (VC & 3)]`, `LReg[4 + (VD & 3)]` (WormholeB0 `SFPSWAP.md`
/// @ `585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1`, the argmin+argmax branch).
pub fn wormhole_rules(
    prev: &Instr,
    prev_cx: &Ctx,
    next: &Instr,
    next_cx: &Ctx,
    dest_index: bool,
    out: &mut Outcome,
) {
    let wh = Arch::Wormhole;
    let mut next_access = actual(wh, next, next_cx);
    if let Instr::SFPSWAP { VC, VD, .. } = *next
        && !dest_index
    {
        next_access.reads = bit(next_cx.vc(VC.idx())) | bit(next_cx.vd(VD.idx()));
    }
    if is_wormhole_mad_producer(prev) && actual(wh, prev, prev_cx).writes & next_access.reads != 0 {
        out.note_all(Clause::WormholeMadResultRead);
    }
    if let Instr::SFPSHFT2 { VD, Mod1, .. } = *prev {
        let vd = prev_cx.vd(VD.idx());
        match Mod1.get() {
            SFPSHFT2_MOD1_SUBVEC_SHFLROR1_AND_COPY4 => {
                if next_access.reads & range(0, 3) != 0 {
                    out.note_all(Clause::WormholeShflror1Copy4Read);
                }
                if next_access.writes & range(1, 3) != 0 {
                    out.note_all(Clause::WormholeShflror1Copy4Write);
                }
            }
            SFPSHFT2_MOD1_SUBVEC_SHFLROR1 | SFPSHFT2_MOD1_SUBVEC_SHFLSHR1
                if vd < 8 && next_access.reads & bit(vd) != 0 =>
            {
                out.note_all(Clause::WormholeShflVdRead);
            }
            _ => {}
        }
        if matches!(Mod1.get(), 2..=4) && in_wormhole_shft2_list(next) {
            out.note_all(Clause::WormholeShft2NextInstruction);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(s: &str) -> Instr {
        crate::isa::parse_instr(Arch::Blackhole, s).unwrap()
    }

    #[test]
    fn documented_stall_logic_blind_spots() {
        // SFPIADD reads VD (VB = VD) but the logic does not see it.
        let iadd = i("TTI_SFPIADD(0, 1, 2, 0)");
        assert_eq!(actual(Arch::Blackhole, &iadd, &Ctx::REGULAR).reads, (1 << 1) | (1 << 2));
        assert_eq!(stall_view(&iadd).reads, 1 << 1);
        // SFPAND with USE_VB reads VB=3 but the logic thinks VD=2.
        let and = i("TTI_SFPAND(3, 1, 2, 1)");
        assert_eq!(actual(Arch::Blackhole, &and, &Ctx::REGULAR).reads, (1 << 3) | (1 << 1));
        assert_eq!(stall_view(&and).reads, (1 << 1) | (1 << 2));
        // SFPSHFT2 SHFT_LREG reads VB=4 (and VC=1), the logic thinks VD=5 (and VC=1): only the
        // VB read is mistaken (the earlier decision on modes 5/6; this assertion predated it).
        let sh = i("TTI_SFPSHFT2(4, 1, 5, 5)");
        assert_eq!(stall_view(&sh).reads, (1 << 5) | (1 << 1));
        assert_eq!(actual(Arch::Blackhole, &sh, &Ctx::REGULAR).reads, (1 << 4) | (1 << 1));
    }
}
