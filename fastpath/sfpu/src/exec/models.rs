//! The functional model of one instruction, written once: the dispatch from [`Instr`] to the
//! instruction families in [`crate::ops`] (one arm per opcode, `execute_op`; every arm,
//! `execute_on`), the per-lane `VD < 12 || DISABLE_BACKDOOR_LOAD` guard and the backdoor-load rule
//! ([`regular_with`]), and whether a chip can express an instruction ([`on_chip`]). `crate::simd`
//! compiles this body per chip, opcode and SIMD level; [`crate::exec`] (the entry points) runs
//! the copy of the level in force. See [`crate::exec`] for the pages it implements.

use sfpu_reference::isa::{Arch, Instr, Opcode};
use sfpu_reference::outcome::{Clause, Outcome};

use crate::ctx::Ctx;
use crate::ops::{self, blackhole as bh, wormhole as wh};
use crate::state::FastState;

/// The instruction's `VD` field for the backdoor-load rule; `None` where `VD` is not an LReg
/// index (SFPCONFIG's configuration selector, SFPLOADMACRO's 3-bit `VD`, SFPNOP).
pub fn backdoor_vd(instr: &Instr) -> Option<u32> {
    use Instr::*;
    Some(match *instr {
        SFPLOAD { VD, .. } | SFPLOADI { VD, .. } | SFPSTORE { VD, .. } | SFPLUT { VD, .. } => VD.get(),
        SFPMULI { VD, .. } | SFPADDI { VD, .. } | SFPDIVP2 { VD, .. } | SFPEXEXP { VD, .. } => VD.get(),
        SFPEXMAN { VD, .. } | SFPIADD { VD, .. } | SFPSHFT { VD, .. } | SFPSETCC { VD, .. } => VD.get(),
        SFPMOV { VD, .. } | SFPABS { VD, .. } | SFPAND { VD, .. } | SFPOR { VD, .. } => VD.get(),
        SFPNOT { VD, .. } | SFPLZ { VD, .. } | SFPSETEXP { VD, .. } | SFPSETMAN { VD, .. } => VD.get(),
        SFPMAD { VD, .. } | SFPADD { VD, .. } | SFPMUL { VD, .. } | SFPPUSHC { VD, .. } => VD.get(),
        SFPPOPC { VD, .. } | SFPSETSGN { VD, .. } | SFPENCC { VD, .. } | SFPCOMPC { VD } => VD.get(),
        SFPTRANSP { VD } | SFPXOR { VD, .. } | SFPSTOCHRND { VD, .. } | SFPCAST { VD, .. } => VD.get(),
        SFPSWAP { VD, .. } | SFPSHFT2 { VD, .. } | SFPLUTFP32 { VD, .. } | SFPLE { VD, .. } => VD.get(),
        SFPGT { VD, .. } | SFPMUL24 { VD, .. } | SFPARECIP { VD, .. } => VD.get(),
        SFPCONFIG { .. } | SFPLOADMACRO { .. } | SFPNOP {} => return None,
    })
}

/// Whether the functional model of `instr` (in the mode it is used in) on chip `arch` guards its
/// effect with `VD < 12 || DISABLE_BACKDOOR_LOAD` (`docs/spec/sfpu-blackhole.md#backdoor-load`).
pub fn has_g12(arch: Arch, instr: &Instr) -> bool {
    use Instr::*;
    match *instr {
        SFPMAD { .. } | SFPADD { .. } | SFPMUL { .. } | SFPADDI { .. } | SFPMULI { .. } => true,
        SFPMUL24 { .. } | SFPLUT { .. } | SFPLUTFP32 { .. } | SFPSTOCHRND { .. } => true,
        SFPMOV { .. } | SFPSWAP { .. } | SFPGT { .. } | SFPLE { .. } | SFPSETCC { .. } => true,
        SFPENCC { .. } | SFPPUSHC { .. } | SFPPOPC { .. } | SFPCOMPC { .. } | SFPTRANSP { .. } => true,
        SFPSTORE { .. } => true,
        // Blackhole's INT32_ABS and INT32_SM32 flavours have no guard; Wormhole's SFPCAST is one
        // conversion, guarded.
        SFPCAST { Mod1, .. } => arch == Arch::Wormhole || Mod1.get() & 3 < 2,
        SFPSHFT2 { Mod1, .. } => Mod1.get() < 4,
        _ => false,
    }
}

/// The regular execution of `instr` given what it takes from the instruction alone (computed per
/// call by [`regular`], once per program by `crate::program`): `on_chip` ([`on_chip`]), and, asked
/// only when some lane has `DISABLE_BACKDOOR_LOAD` clear, `backdoor_vd`: its `VD` if 12 or more;
/// `execute` runs its functional model (`simd::execute`, or its opcode's copy).
#[inline(always)]
pub(crate) fn regular_with(
    s: &mut FastState,
    instr: &Instr,
    on_chip: bool,
    backdoor_vd: impl FnOnce() -> Option<usize>,
    execute: impl FnOnce(&mut FastState, &mut Outcome),
    out: &mut Outcome,
) {
    if !on_chip {
        out.note_all(Clause::NotOnChip);
        return;
    }
    execute(s, out);
    // The lanes with DISABLE_BACKDOOR_LOAD clear first: usually none, and then `VD` is not needed.
    let lanes = !s.lc().dbl;
    if lanes != 0
        && let Some(vd) = backdoor_vd()
    {
        out.note(Clause::BackdoorLoad, lanes);
        // The word is written only by instructions carrying the `VD < 12` guard on this chip.
        let arch = s.arch();
        if has_g12(arch, instr)
            && let Ok(word) = instr.encode(arch)
        {
            let t = &mut s.lmc.template[(vd - 12) & 3];
            let m = crate::state::expand(lanes);
            for l in 0..32 {
                t[l] = (word & m[l]) | (t[l] & !m[l]);
            }
        }
    }
}

/// [`execute`] on the chip of `WH` (`true`: Wormhole), which must be the state's: one copy per
/// chip, the chip a constant in each, and one per SIMD level (`crate::simd` compiles this body,
/// with every instruction's model inlined, for each level's target features). `any` is as in
/// [`execute_op`] (which never calls it here: every arm is kept).
///
/// [`execute`]: crate::exec::execute
#[inline(always)]
pub(crate) fn execute_on<const WH: bool, const L: u8>(
    s: &mut FastState,
    instr: &Instr,
    cx: &Ctx,
    out: &mut Outcome,
    any: impl FnOnce(&mut FastState, &Instr, &Ctx, &mut Outcome),
) {
    execute_op::<WH, ANY_OP, L>(s, instr, cx, out, any)
}

/// SFPAND (`or == false`) / SFPOR on the chip `WH` names (Wormhole's have no `VB` or `Mod1`).
#[inline(always)]
fn sfpandor<const WH: bool>(s: &mut FastState, or: bool, vb: u32, vc: u32, vd: u32, mod1: u32, cx: &Ctx) {
    if WH {
        wh::integer::sfpandor(s, or, vc, vd, cx);
    } else {
        bh::integer::sfpandor(s, or, vb, vc, vd, mod1, cx);
    }
}

/// The `OP` of [`execute_op`] that keeps every instruction's arm.
pub(crate) const ANY_OP: u8 = 0;

/// Whether [`execute_op`]'s copy for `op_filter` keeps the arm of `op`: all of them for
/// [`ANY_OP`], else only that opcode's (`Opcode as u8` is its number, 0x70 and up).
#[inline(always)]
const fn arm(op_filter: u8, op: Opcode) -> bool {
    op_filter == ANY_OP || op_filter == op as u8
}

/// [`execute_on`] with only the arm of opcode number `OP` (or every arm, [`ANY_OP`]): `crate::simd`
/// compiles one copy per opcode, chip and SIMD level and calls the instruction's copy through a
/// table, so that each instruction runs a small function of its own (its own few registers and
/// stack) instead of the dispatch over every model. The arms are written once, here; an
/// instruction of another opcode given to a one-opcode copy (which the tables never do) goes to
/// `any`, the copy with every arm at the level in force (`simd::execute`). `crate::simd` passes
/// it in, a function item (zero-sized, so nothing is passed at run time, and the call is the
/// direct call it would be if named here): this file, below `simd`, does not name it.
#[inline(always)]
pub(crate) fn execute_op<const WH: bool, const OP: u8, const L: u8>(
    s: &mut FastState,
    instr: &Instr,
    cx: &Ctx,
    out: &mut Outcome,
    any: impl FnOnce(&mut FastState, &Instr, &Ctx, &mut Outcome),
) {
    use Instr::*;
    match *instr {
        SFPLOAD { VD, Mod0, AddrMod, Imm10 } if arm(OP, Opcode::SFPLOAD) => {
            sfpload_on(s, VD.get(), Mod0.get(), AddrMod.get(), Imm10.get(), out);
        }
        SFPLOADI { VD, Mod0, Imm16 } if arm(OP, Opcode::SFPLOADI) => {
            ops::load_store::sfploadi(s, VD.get(), Mod0.get(), Imm16.get(), out)
        }
        SFPSTORE { VD, Mod0, AddrMod, Imm10 } if arm(OP, Opcode::SFPSTORE) => {
            let (vd, mod0, addr_mod, imm10) = (VD.get(), Mod0.get(), AddrMod.get(), Imm10.get());
            if WH {
                wh::load_store::sfpstore(s, vd, mod0, addr_mod, imm10, cx, out);
            } else {
                bh::load_store::sfpstore(s, vd, mod0, addr_mod, imm10, cx, out);
            }
        }
        SFPLOADMACRO { VDLo, Mod0, AddrMod, Imm9, VDHi, .. } if arm(OP, Opcode::SFPLOADMACRO) => {
            let vd = (VDHi.get() << 2) | VDLo.get();
            let imm10 = (Imm9.get() << 1) | VDHi.get();
            sfpload_on(s, vd, Mod0.get(), AddrMod.get(), imm10, out);
        }
        SFPLUT { VD, Mod0 } if arm(OP, Opcode::SFPLUT) => ops::lut::sfplut(s, VD.get(), Mod0.get(), cx),
        SFPLUTFP32 { VD, Mod1, .. } if arm(OP, Opcode::SFPLUTFP32) => {
            ops::lut::sfplutfp32(s, VD.get(), Mod1.get(), cx)
        }
        SFPMAD { VA, VB, VC, VD, Mod1 }
        | SFPADD { VA, VB, VC, VD, Mod1 }
        | SFPMUL { VA, VB, VC, VD, Mod1 }
            if arm(OP, Opcode::SFPMAD) || arm(OP, Opcode::SFPADD) || arm(OP, Opcode::SFPMUL) =>
        {
            ops::mad::sfpmad::<WH, L>(s, VA.get(), VB.get(), VC.get(), VD.get(), Mod1.get(), cx, out);
        }
        SFPADDI { Imm16, VD, Mod1 } if arm(OP, Opcode::SFPADDI) => {
            ops::mad::sfpaddi::<WH, L>(s, Imm16.get(), VD.get(), Mod1.get(), cx, out)
        }
        SFPMULI { Imm16, VD, Mod1 } if arm(OP, Opcode::SFPMULI) => {
            ops::mad::sfpmuli::<WH, L>(s, Imm16.get(), VD.get(), Mod1.get(), cx, out)
        }
        SFPDIVP2 { Imm8, VC, VD, Mod1 } if arm(OP, Opcode::SFPDIVP2) => {
            ops::field::sfpdivp2(s, Imm8.get(), VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPEXEXP { VC, VD, Mod1 } if arm(OP, Opcode::SFPEXEXP) => {
            ops::field::sfpexexp(s, VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPEXMAN { VC, VD, Mod1 } if arm(OP, Opcode::SFPEXMAN) => {
            ops::field::sfpexman(s, VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPSETEXP { Imm8, VC, VD, Mod1 } if arm(OP, Opcode::SFPSETEXP) => {
            ops::field::sfpsetexp(s, Imm8.get(), VC.get(), VD.get(), Mod1.get(), cx);
        }
        SFPSETMAN { Imm12, VC, VD, Mod1 } if arm(OP, Opcode::SFPSETMAN) => {
            ops::field::sfpsetman(s, Imm12.get(), VC.get(), VD.get(), Mod1.get(), cx);
        }
        SFPSETSGN { Imm1, VC, VD, Mod1 } if arm(OP, Opcode::SFPSETSGN) => {
            ops::field::sfpsetsgn(s, Imm1.get(), VC.get(), VD.get(), Mod1.get(), cx);
        }
        SFPIADD { Imm12, VC, VD, Mod1 } if arm(OP, Opcode::SFPIADD) => {
            ops::integer::sfpiadd(s, Imm12.get(), VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPSHFT { Imm12, VC, VD, Mod1 } if arm(OP, Opcode::SFPSHFT) => {
            let (imm12, vc, vd, mod1) = (Imm12.get(), VC.get(), VD.get(), Mod1.get());
            if WH {
                wh::integer::sfpshft(s, imm12, vc, vd, mod1, cx, out);
            } else {
                bh::integer::sfpshft(s, imm12, vc, vd, mod1, cx, out);
            }
        }
        SFPABS { VC, VD, Mod1 } if arm(OP, Opcode::SFPABS) => {
            ops::integer::sfpabs(s, VC.get(), VD.get(), Mod1.get(), cx)
        }
        // One arm each, so that `or` is a constant in each copy: with one arm for both, the
        // run-time choice made the compiler load both registers lane by lane, shared by the two
        // loops (CHANGELOG.md, "Fast model tuning").
        SFPAND { VB, VC, VD, Mod1 } if arm(OP, Opcode::SFPAND) => {
            sfpandor::<WH>(s, false, VB.get(), VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPOR { VB, VC, VD, Mod1 } if arm(OP, Opcode::SFPOR) => {
            sfpandor::<WH>(s, true, VB.get(), VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPXOR { VC, VD } if arm(OP, Opcode::SFPXOR) => ops::integer::sfpxor(s, VC.get(), VD.get(), cx),
        SFPNOT { VC, VD } if arm(OP, Opcode::SFPNOT) => ops::integer::sfpnot(s, VC.get(), VD.get(), cx),
        SFPLZ { VC, VD, Mod1 } if arm(OP, Opcode::SFPLZ) => {
            ops::integer::sfplz(s, VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPSETCC { Imm1, VC, VD, Mod1 } if arm(OP, Opcode::SFPSETCC) => {
            ops::cc::sfpsetcc(s, Imm1.get(), VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPENCC { Imm2, VD, Mod1 } if arm(OP, Opcode::SFPENCC) => {
            ops::cc::sfpencc(s, Imm2.get(), VD.get(), Mod1.get(), cx)
        }
        SFPPUSHC { VD, Mod1 } if arm(OP, Opcode::SFPPUSHC) => {
            if WH {
                wh::cc::sfppushc(s, VD.get(), cx, out);
            } else {
                bh::cc::sfppushc(s, VD.get(), Mod1.get(), cx, out);
            }
        }
        SFPPOPC { VD, Mod1 } if arm(OP, Opcode::SFPPOPC) => {
            if WH {
                wh::cc::sfppopc(s, VD.get(), Mod1.get(), cx, out);
            } else {
                bh::cc::sfppopc(s, VD.get(), Mod1.get(), cx, out);
            }
        }
        SFPCOMPC { VD } if arm(OP, Opcode::SFPCOMPC) => ops::cc::sfpcompc(s, VD.get(), cx),
        SFPMOV { VC, VD, Mod1 } if arm(OP, Opcode::SFPMOV) => {
            ops::mov::sfpmov(s, VC.get(), VD.get(), Mod1.get(), cx, out)
        }
        SFPNOP {} if arm(OP, Opcode::SFPNOP) => {}
        SFPCONFIG { Imm16, VD, Mod1 } if arm(OP, Opcode::SFPCONFIG) => {
            ops::config::sfpconfig(s, Imm16.get(), VD.get(), Mod1.get(), cx, out)
        }
        SFPCAST { VC, VD, Mod1 } if arm(OP, Opcode::SFPCAST) => {
            if WH {
                wh::convert::sfpcast(s, VC.get(), VD.get(), Mod1.get(), cx, out);
            } else {
                bh::convert::sfpcast(s, VC.get(), VD.get(), Mod1.get(), cx, out);
            }
        }
        SFPSTOCHRND { RoundingMode, Imm5, VB, VC, VD, UseImm5, Mod1 } if arm(OP, Opcode::SFPSTOCHRND) => {
            ops::convert::sfpstochrnd(
                s,
                ops::convert::StochRnd {
                    rounding_mode: RoundingMode.get(),
                    imm5: Imm5.get(),
                    vb: VB.get(),
                    vc: VC.get(),
                    vd: VD.get(),
                    use_imm5: UseImm5.get() != 0,
                    mod1: Mod1.get(),
                },
                cx,
            )
        }
        SFPSWAP { VC, VD, Mod1 } if arm(OP, Opcode::SFPSWAP) => {
            ops::shuffle::sfpswap(s, VC.get(), VD.get(), Mod1.get(), cx, out)
        }
        SFPTRANSP { VD } if arm(OP, Opcode::SFPTRANSP) => ops::shuffle::sfptransp(s, VD.get(), cx, out),
        SFPSHFT2 { Imm12, VC, VD, Mod1 } if arm(OP, Opcode::SFPSHFT2) => {
            let (imm12, vc, vd, mod1) = (Imm12.get(), VC.get(), VD.get(), Mod1.get());
            if WH {
                wh::shuffle::sfpshft2(s, imm12, vc, vd, mod1, cx, out);
            } else {
                bh::shuffle::sfpshft2(s, imm12, vc, vd, mod1, cx, out);
            }
        }
        // Blackhole's own instructions (the arm only in the copies that may be given them: in any
        // other one-opcode copy of Wormhole its test ran before the opcode's own arm, on every call).
        SFPGT { .. } | SFPLE { .. } | SFPMUL24 { .. } | SFPARECIP { .. }
            if WH
                && (arm(OP, Opcode::SFPGT)
                    || arm(OP, Opcode::SFPLE)
                    || arm(OP, Opcode::SFPMUL24)
                    || arm(OP, Opcode::SFPARECIP)) =>
        {
            out.note(Clause::NotOnChip, cx.lanes)
        }
        SFPGT { VC, VD, Mod1 } if arm(OP, Opcode::SFPGT) => {
            bh::cc::sfpgtle(s, true, VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPLE { VC, VD, Mod1 } if arm(OP, Opcode::SFPLE) => {
            bh::cc::sfpgtle(s, false, VC.get(), VD.get(), Mod1.get(), cx)
        }
        SFPMUL24 { VA, VB, VC, VD, Mod1 } if arm(OP, Opcode::SFPMUL24) => {
            bh::mul24::sfpmul24(s, VA.get(), VB.get(), VC.get(), VD.get(), Mod1.get(), cx, out);
        }
        SFPARECIP { VB, VC, VD, Mod1 } if arm(OP, Opcode::SFPARECIP) => {
            bh::arecip::sfparecip(s, VB.get(), VC.get(), VD.get(), Mod1.get(), cx)
        }
        // A copy for one opcode given another instruction (never, as `simd` builds its tables):
        // the copy for every opcode.
        _ => any(s, instr, cx, out),
    }
}

/// [`sfpload`]'s body, compiled into each SIMD level's copy.
#[inline(always)]
pub(crate) fn sfpload_on(
    s: &mut FastState,
    vd: u32,
    mod0: u32,
    addr_mod: u32,
    imm10: u32,
    out: &mut Outcome,
) -> u32 {
    if s.is_wormhole() {
        wh::load_store::sfpload(s, vd, mod0, addr_mod, imm10, out)
    } else {
        bh::load_store::sfpload(s, vd, mod0, addr_mod, imm10, out)
    }
}

/// Whether chip `arch` can express `instr`: its opcode exists on the chip, and every field is one
/// the chip's encoding has and fits its width there (the same question as
/// `instr.encode(arch).is_ok()`, answered without building the word). Every Blackhole instruction
/// is on Blackhole; Wormhole lacks SFPLE, SFPGT, SFPMUL24 and SFPARECIP, has two `AddrMod` bits, no
/// `VB` or `Mod1` on SFPAND / SFPOR, no `Mod1` on SFPPUSHC, no `Mod1Mirror` on SFPLUTFP32 and a
/// one-bit rounding field on SFPSTOCHRND (`Diagrams/Src/Bits32.lua`;
/// `docs/spec/sfpu-wormhole.md#differences-from-blackhole`).
#[inline]
pub fn on_chip(arch: Arch, instr: &Instr) -> bool {
    use Instr::*;
    if arch == Arch::Blackhole {
        return true;
    }
    match *instr {
        SFPLE { .. } | SFPGT { .. } | SFPMUL24 { .. } | SFPARECIP { .. } => false,
        SFPLOAD { AddrMod, .. } | SFPSTORE { AddrMod, .. } | SFPLOADMACRO { AddrMod, .. } => {
            AddrMod.get() < 4
        }
        SFPAND { VB, Mod1, .. } | SFPOR { VB, Mod1, .. } => VB.get() == 0 && Mod1.get() == 0,
        SFPPUSHC { Mod1, .. } => Mod1.get() == 0,
        SFPLUTFP32 { Mod1Mirror, .. } => Mod1Mirror.get() == 0,
        SFPSTOCHRND { RoundingMode, .. } => RoundingMode.get() < 2,
        _ => true,
    }
}

/// Whether `op` is one of the MAD sub-unit's two-cycle producers whose results the automatic
/// stall logic protects (`SFPMAD.md` "Instruction scheduling").
pub fn is_two_cycle_producer(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::SFPMAD
            | Opcode::SFPADD
            | Opcode::SFPMUL
            | Opcode::SFPADDI
            | Opcode::SFPMULI
            | Opcode::SFPLUT
            | Opcode::SFPLUTFP32
            | Opcode::SFPMUL24
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfpu_reference::isa::decode;

    /// [`on_chip`] answers what `Instr::encode` answers (the shared vocabulary's per-chip layouts,
    /// from `Bits32.lua`), for every Blackhole instruction word shape.
    #[test]
    fn on_chip_is_encodability() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut seen = [0u32; 2];
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let op = Opcode::ALL[(x % Opcode::ALL.len() as u64) as usize];
            // Fields random, but each one zero half the time, so both answers are common.
            let mut word = (op.number() as u32) << 24;
            for (k, f) in op.fields(Arch::Blackhole).iter().enumerate() {
                if (x >> (20 + k)) & 1 != 0 {
                    word |= ((x >> 32) as u32) & f.mask();
                }
            }
            let Ok(i) = decode(Arch::Blackhole, word) else { continue };
            for arch in Arch::ALL {
                let want = i.encode(arch).is_ok();
                assert_eq!(on_chip(arch, &i), want, "{arch} {i:?}");
                seen[want as usize] += 1;
            }
        }
        assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
    }
}
