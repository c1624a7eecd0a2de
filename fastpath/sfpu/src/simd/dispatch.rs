//! The per-level copies of the functional models: [`execute`] (every instruction's model,
//! `exec::execute_on`, compiled once per SIMD level with that level's target features),
//! [`Handlers`] (the same body compiled per opcode, chip and level: the tables decoded programs and
//! regular instructions run through), and the load part of SFPLOADMACRO ([`sfpload`]); each
//! picks the copy of the level in force (`simd/level.rs`). Above the models (`exec/models.rs`),
//! below the entry points of `crate::exec`, the machine and decoded programs, which call it. The
//! models' one-opcode copies fall back to [`execute`] for an instruction of another opcode (which
//! the tables never give them); each copy here passes it to the models as a function item, so
//! that the models need not name this file.

use sfpu_reference::isa::{Instr, Opcode};
use sfpu_reference::outcome::Outcome;

use super::level::{Level, PORTABLE_ID, level};
use crate::ctx::Ctx;
use crate::state::FastState;

/// Executes `instr` as `cx` says on the state's chip (`crate::exec::execute`) with the copy of
/// the functional models compiled for the level in force: `exec::execute_on` inlines every
/// instruction's model, and each level compiles that body with its target features, so the
/// 32-lane loops of every instruction (masks, blends, conversions, shifts, counts) use the CPU's
/// vector instructions. The source is one; the copies differ only in the instructions the compiler
/// may choose (Rust has no fast-math: integer and bit operations mean the same on every target),
/// and `tests/it/simd_levels.rs` runs the differential check on each level anyway.
#[inline]
pub(crate) fn execute(s: &mut FastState, instr: &Instr, cx: &Ctx, out: &mut Outcome) {
    let wormhole = s.is_wormhole();
    #[cfg(target_arch = "x86_64")]
    match (level(), wormhole) {
        // SAFETY: `level` returns `Avx512` only after `avx512_available` (a `capped` level is
        // always an available one), which checks every feature `x86::execute_avx512` enables.
        (Level::Avx512, false) => return unsafe { x86::execute_avx512::<false>(s, instr, cx, out) },
        // SAFETY: as above.
        (Level::Avx512, true) => return unsafe { x86::execute_avx512::<true>(s, instr, cx, out) },
        // SAFETY: `Avx2` only when `avx2_available`, which checks every feature
        // `x86::execute_avx2` enables.
        (Level::Avx2, false) => return unsafe { x86::execute_avx2::<false>(s, instr, cx, out) },
        // SAFETY: as above.
        (Level::Avx2, true) => return unsafe { x86::execute_avx2::<true>(s, instr, cx, out) },
        (Level::Portable | Level::Neon, _) => {}
    }
    if wormhole {
        execute_portable::<true>(s, instr, cx, out)
    } else {
        execute_portable::<false>(s, instr, cx, out)
    }
}

/// One instruction's copy of the models (`exec::execute_op` for one opcode, chip and level), for
/// a regular instruction: the context is [`Ctx::REGULAR`], built into each copy, so the copies
/// carry none of SFPLOADMACRO's overrides (the operand selections fold away; the machine runs
/// scheduled instructions through [`execute`], the copy with every arm). `unsafe` because the SIMD
/// levels' copies need the CPU features [`Handlers::current`] checked.
pub(crate) type Handler = unsafe fn(&mut FastState, &Instr, &mut Outcome);

/// A table of per-opcode copies of the models for one chip and level, indexed by the opcode's
/// number modulo 64 (the numbers 0x70..=0x99 fall in distinct slots).
pub(crate) struct Handlers([Handler; 64]);

/// Every opcode number, for the tables.
macro_rules! handler_table {
    ($f:ident, $wh:literal) => {
        handler_table!(@ $f, $wh; 0x70 0x71 0x72 0x73 0x74 0x75 0x76 0x77 0x78 0x79 0x7A 0x7B 0x7C 0x7D
            0x7E 0x7F 0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x87 0x88 0x89 0x8A 0x8B 0x8C 0x8D 0x8E 0x8F
            0x90 0x91 0x92 0x93 0x94 0x95 0x96 0x97 0x98 0x99)
    };
    (@ $f:ident, $wh:literal; $($op:literal)*) => {
        Handlers::build(&[$(($op, $f::<$wh, $op> as Handler)),*], $f::<$wh, { crate::exec::ANY_OP }>)
    };
}

impl Handlers {
    /// The table with `entries` in their opcodes' slots and `any` (the copy for every opcode)
    /// elsewhere.
    const fn build(entries: &[(u8, Handler)], any: Handler) -> Handlers {
        let mut t = [any; 64];
        let mut i = 0;
        while i < entries.len() {
            t[(entries[i].0 & 63) as usize] = entries[i].1;
            i += 1;
        }
        Handlers(t)
    }

    /// This table with opcode `op`'s slot given to `h` (for the x86-64 levels' tables).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const fn with(mut self, op: u8, h: Handler) -> Handlers {
        self.0[(op & 63) as usize] = h;
        self
    }

    /// The table of the level in force ([`level`]) for the chip of `wormhole`.
    #[inline]
    pub(crate) fn current(wormhole: bool) -> &'static Handlers {
        // The level in force is always one the CPU supports (`decide` and `set_level` cap it).
        Handlers::select(level(), wormhole)
    }

    /// The table of `level` for the chip of `wormhole`, or the portable one when the CPU does not
    /// support `level` (for tests).
    #[cfg(test)]
    fn of(level: Level, wormhole: bool) -> &'static Handlers {
        Handlers::select(if level.available() { level } else { Level::Portable }, wormhole)
    }

    /// The table of `level`, which must be a level the CPU supports (the one place that hands
    /// out the SIMD levels' tables; [`Handlers::execute`]'s safety rests on it).
    #[inline(always)]
    fn select(level: Level, wormhole: bool) -> &'static Handlers {
        #[cfg(target_arch = "x86_64")]
        match (level, wormhole) {
            (Level::Avx512, false) => return &x86::AVX512_BH,
            (Level::Avx512, true) => return &x86::AVX512_WH,
            (Level::Avx2, false) => return &x86::AVX2_BH,
            (Level::Avx2, true) => return &x86::AVX2_WH,
            (Level::Portable | Level::Neon, _) => {}
        }
        // Elsewhere every level runs the portable copies (NEON's are the portable source).
        #[cfg(not(target_arch = "x86_64"))]
        let _ = level;
        if wormhole { &PORTABLE_WH } else { &PORTABLE_BH }
    }

    /// Executes `instr` as a regular instruction ([`Ctx::REGULAR`]; on the table's chip, which
    /// must be the state's) with its opcode's copy.
    #[inline(always)]
    pub(crate) fn execute(&self, s: &mut FastState, instr: &Instr, op: Opcode, out: &mut Outcome) {
        let h = self.0[(op as u8 & 63) as usize];
        // SAFETY: `select` hands out a SIMD level's table only for a level the CPU supports, and
        // every handler in it enables only that level's features (the ones `avx512_available` or
        // `avx2_available` checks); the portable tables need nothing.
        unsafe { h(s, instr, out) }
    }
}

static PORTABLE_BH: Handlers = handler_table!(execute_op_portable, false);
static PORTABLE_WH: Handlers = handler_table!(execute_op_portable, true);

/// [`Handlers`]' copies for the baseline target.
fn execute_op_portable<const WH: bool, const OP: u8>(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
    crate::exec::execute_op::<WH, OP, PORTABLE_ID>(s, instr, &Ctx::REGULAR, out, execute)
}

/// `exec::sfpload` (the load part of SFPLOADMACRO, which the machine runs itself) in the copy of
/// the level in force, as [`execute`].
#[inline]
pub(crate) fn sfpload(
    s: &mut FastState,
    vd: u32,
    mod0: u32,
    addr_mod: u32,
    imm10: u32,
    out: &mut Outcome,
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: as in `execute`: `Avx512` only after `avx512_available`.
        Level::Avx512 => return unsafe { x86::sfpload_avx512(s, vd, mod0, addr_mod, imm10, out) },
        // SAFETY: as in `execute`: `Avx2` only after `avx2_available`.
        Level::Avx2 => return unsafe { x86::sfpload_avx2(s, vd, mod0, addr_mod, imm10, out) },
        Level::Portable | Level::Neon => {}
    }
    sfpload_portable(s, vd, mod0, addr_mod, imm10, out)
}

/// [`sfpload`]'s copy for the baseline target.
#[inline(never)]
fn sfpload_portable(
    s: &mut FastState,
    vd: u32,
    mod0: u32,
    addr_mod: u32,
    imm10: u32,
    out: &mut Outcome,
) -> u32 {
    crate::exec::sfpload_on(s, vd, mod0, addr_mod, imm10, out)
}

/// [`execute`]'s copy for the baseline target.
#[inline(never)]
fn execute_portable<const WH: bool>(s: &mut FastState, instr: &Instr, cx: &Ctx, out: &mut Outcome) {
    crate::exec::execute_on::<WH, PORTABLE_ID>(s, instr, cx, out, execute)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Handler, Handlers};
    use sfpu_reference::isa::Instr;
    use sfpu_reference::outcome::Outcome;

    use crate::ctx::Ctx;
    use crate::simd::level::{AVX2_ID, AVX512_ID};
    use crate::state::FastState;

    /// [`super::execute`]'s AVX-512 copy (every feature [`super::avx512_available`] checks).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    #[inline(never)]
    pub fn execute_avx512<const WH: bool>(s: &mut FastState, instr: &Instr, cx: &Ctx, out: &mut Outcome) {
        crate::exec::execute_on::<WH, { AVX512_ID }>(s, instr, cx, out, super::execute)
    }

    /// [`super::execute`]'s AVX2 copy (every feature [`super::avx2_available`] checks).
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    pub fn execute_avx2<const WH: bool>(s: &mut FastState, instr: &Instr, cx: &Ctx, out: &mut Outcome) {
        crate::exec::execute_on::<WH, { AVX2_ID }>(s, instr, cx, out, super::execute)
    }

    /// [`super::Handlers`]' AVX-512 copies (features as [`execute_avx512`]).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    fn execute_op_avx512<const WH: bool, const OP: u8>(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
        crate::exec::execute_op::<WH, OP, { AVX512_ID }>(s, instr, &Ctx::REGULAR, out, super::execute)
    }

    /// [`super::Handlers`]' AVX2 copies (features as [`execute_avx2`]).
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    fn execute_op_avx2<const WH: bool, const OP: u8>(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
        crate::exec::execute_op::<WH, OP, { AVX2_ID }>(s, instr, &Ctx::REGULAR, out, super::execute)
    }

    const TRANSP: u8 = sfpu_reference::isa::Opcode::SFPTRANSP as u8;
    const SWAP: u8 = sfpu_reference::isa::Opcode::SFPSWAP as u8;

    // The AVX-512 tables run SFPTRANSP and SFPSWAP through their AVX2 copies (the CPU has AVX2
    // wherever it has the AVX-512 level): their AVX-512 copies ran slower (why is not
    // established; stores of 32-byte register halves read back 64 bytes at a time, which cannot
    // be forwarded, are a candidate). Single-opcode programs:
    // SFPTRANSP 19.5 against 11.4 ns, SFPSWAP 16.0 against 12.5; the cross-lane class 10.5-14.9
    // -> 8.7-12.4 ns per instruction with these two slots, mixed stream unchanged (2026-11-25).
    pub(super) static AVX512_BH: Handlers = handler_table!(execute_op_avx512, false)
        .with(TRANSP, execute_op_avx2::<false, TRANSP>)
        .with(SWAP, execute_op_avx2::<false, SWAP>);
    pub(super) static AVX512_WH: Handlers = handler_table!(execute_op_avx512, true)
        .with(TRANSP, execute_op_avx2::<true, TRANSP>)
        .with(SWAP, execute_op_avx2::<true, SWAP>);
    pub(super) static AVX2_BH: Handlers = handler_table!(execute_op_avx2, false);
    pub(super) static AVX2_WH: Handlers = handler_table!(execute_op_avx2, true);

    /// [`super::sfpload`]'s AVX-512 copy (features as [`execute_avx512`]).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    #[inline(never)]
    pub fn sfpload_avx512(
        s: &mut FastState,
        vd: u32,
        mod0: u32,
        addr_mod: u32,
        imm10: u32,
        out: &mut Outcome,
    ) -> u32 {
        crate::exec::sfpload_on(s, vd, mod0, addr_mod, imm10, out)
    }

    /// [`super::sfpload`]'s AVX2 copy (features as [`execute_avx2`]).
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    pub fn sfpload_avx2(
        s: &mut FastState,
        vd: u32,
        mod0: u32,
        addr_mod: u32,
        imm10: u32,
        out: &mut Outcome,
    ) -> u32 {
        crate::exec::sfpload_on(s, vd, mod0, addr_mod, imm10, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfpu_reference::isa::{Arch, decode};
    use sfpu_reference::state::ResetValues;

    /// Every slot of every table, given an instruction of any opcode (its own or another: the
    /// tables never do the latter, the fallback is there so that nothing depends on it), does
    /// what [`execute`] (the copy with every arm, which `exec::execute` runs) does: same state,
    /// same outcome.
    #[test]
    fn every_table_slot_matches_the_copy_with_every_arm() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut compared = 0u32;
        for level in Level::supported() {
            for arch in Arch::ALL {
                let wormhole = arch == Arch::Wormhole;
                let table = Handlers::of(level, wormhole);
                let mut base = FastState::reset(arch, &ResetValues::default());
                for r in 0..8 {
                    base.lreg[r] = std::array::from_fn(|_| next() as u32);
                }
                // Small values in LReg[7] so that the indirect modes select registers 0..7 too.
                base.lreg[7] = std::array::from_fn(|_| (next() % 12) as u32);
                for _ in 0..1500 {
                    let op = Opcode::ALL[(next() % Opcode::ALL.len() as u64) as usize];
                    let word = ((op as u32) << 24) | (next() as u32 & 0x00FF_FFFF);
                    let Ok(instr) = decode(Arch::Blackhole, word) else { continue };
                    let slot = if next() % 2 == 0 {
                        op
                    } else {
                        Opcode::ALL[(next() % Opcode::ALL.len() as u64) as usize]
                    };
                    let (mut want, mut got) = (base.clone(), base.clone());
                    let (mut want_out, mut got_out) = (Outcome::defined(), Outcome::defined());
                    execute(&mut want, &instr, &Ctx::REGULAR, &mut want_out);
                    table.execute(&mut got, &instr, slot, &mut got_out);
                    assert_eq!(got, want, "{level:?} {arch} {instr:?} in the slot of {slot:?}");
                    assert_eq!(got_out, want_out, "{level:?} {arch} {instr:?} in the slot of {slot:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 300 * Level::supported().len() as u32, "{compared}");
    }
}
