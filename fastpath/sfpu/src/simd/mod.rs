//! Run-time selection of wider vector instructions for the fast model, and the one place of the
//! crate where `unsafe` is allowed: the calls of `#[target_feature]` functions after the CPU check
//! that makes them sound, and the vector loads and stores of the AVX-512, AVX2 and NEON kernels
//! (`simd/avx512.rs`, `simd/avx2.rs`, `simd/neon.rs`) and of `sign_bits`'s copies (the lane-mask
//! gather every model's flags go through: `vpmovd2m` / `vmovmskps`, which the compiler does not
//! find by itself), of `write_indirect` / `gather_indirect` (`INDIRECT_VD` / `INDIRECT_VA`:
//! AVX-512's mask-register blends and one gather per 16 lanes, AVX2's vector-mask blends and one
//! gather per 8 lanes), and `load_word`'s volatile read (a flag word read alone, never as part of
//! a wider load).
//!
//! Two things differ per level, chosen per call from [`level`] (which checks the CPU once):
//!
//! * **Every instruction's model** (`simd::execute`): `exec::execute_on`, with every instruction's
//!   model inlined into it, is compiled once per level with that level's target features, so the
//!   32-lane loops of all instructions (masked writes, comparisons, shifts, counts, the
//!   conversions of SFPCAST, SFPSTOCHRND and the SFPLOAD / SFPSTORE formats, whatever
//!   SFPLOADMACRO schedules) use the CPU's vector instructions. One source; the copies differ only
//!   in the instructions the compiler may choose (integer and bit operations mean the same on
//!   every target, and Rust has no fast-math). For decoded programs the same body is also
//!   compiled per opcode (`Handlers`: `exec::execute_op` with one opcode's arm, per chip and
//!   level), so that an instruction runs a small function of its own rather than the dispatch
//!   over every model; the table is looked up once per program.
//! * **The FMA kernels** ([`crate::fp::fma32`], [`crate::fp::fma32_wh`]), the hottest loops. The
//!   models' AVX-512 and AVX2 copies inline their level's kernel whole, negations included
//!   (`fma32_at`: a `#[target_feature]` function cannot be `#[inline(always)]`, so the kernels'
//!   bodies are `unsafe` functions without features, inlined where the features are the
//!   copy's); everything else calls the out-of-line copy of the level in force:
//!   - [`Level::Avx512`]: hand-written AVX-512 F/CD/DQ/VBMI2 kernels (`simd/avx512.rs`: two
//!     vectors of 16 lanes one after the other, mask registers for the per-lane choices, the
//!     normalisation and rounding as one exact integer-to-float conversion, the special inputs
//!     through the IEEE FMA, a shortcut for vectors of special lanes, and Blackhole's underflow
//!     rule by a second conversion, rounding toward zero; the module docs say why each
//!     restatement is exact).
//!   - [`Level::Avx2`]: hand-written AVX2 + FMA kernels (`simd/avx2.rs`: the same restatement on
//!     four vectors of 8 lanes, lane predicates as vectors, Blackhole's underflow rule by the
//!     conversion to nearest corrected toward zero, in a vector that may take it). Until stop 25
//!     this level compiled the portable source with AVX2 enabled, which stayed scalar (2.6x
//!     slower on ordinary operands).
//!   - [`Level::Neon`] (AArch64): hand-written NEON kernels (`simd/neon.rs`: the same restatement
//!     on eight vectors of 4 lanes, Blackhole's underflow rule as AVX2's). Advanced SIMD is part
//!     of every AArch64 CPU, so the level is always available there and needs no check;
//!     its models' copies are the portable ones (which the AArch64 targets compile for Advanced
//!     SIMD anyway). `.ci/aarch64` runs this crate's tests under `qemu-aarch64`.
//!   - [`Level::Portable`]: the same source for the baseline target (any architecture).
//!
//! Besides these, the cycle-level machine's copy-and-merge path (a cycle in which SFPLOADMACRO's
//! scheduled instructions execute: `FastMachine::run_with_scheduled_on`, with its state copies
//! and merges) has an AVX-512 copy (`simd::run_with_scheduled`); AVX2 runs the baseline copy, as its
//! own was slower.
//!
//! Every copy computes the same function: `tests/it/simd.rs` checks each available copy of both
//! chips' FMA kernels lane by lane against the FMA models of `fma.c` (the reference crate's
//! `fma_model_bh` / `fma_model_wh`) on random, cancelling and edge triples and on batches mixing
//! lane classes per vector, and `tests/simd_levels.rs` runs the differential checks of `step` and
//! of the cycle-level machine against the reference on each level this CPU supports.
//! `cargo xtask bench` measures every class at the selected level and each lower one in the same
//! run. [`set_level`], `SFPU_FASTPATH_PORTABLE=1` (portable) or
//! `SFPU_FASTPATH_SIMD=portable|neon|avx2|avx512` (at most that level; NEON sits between
//! portable and AVX2 in the order, and no CPU has both) choose a lower level.

#![allow(unsafe_code, reason = "calls of #[target_feature] functions after detection; SIMD loads")]

use std::sync::atomic::{AtomicU8, Ordering};

use sfpu_reference::isa::{Instr, Opcode};
use sfpu_reference::outcome::Outcome;

use crate::exec::Ctx;
use crate::state::FastState;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;

/// Which copy of the vector kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The baseline target's code (SSE2 on `x86_64`, Advanced SIMD on `aarch64`): always
    /// available.
    Portable,
    /// The hand-written NEON FMA kernels (`aarch64` only, where Advanced SIMD is part of every
    /// CPU); the models' copies are the portable ones, already compiled for Advanced SIMD.
    Neon,
    /// The models' portable source compiled for AVX2 (with FMA, BMI1, BMI2, LZCNT, POPCNT) and the
    /// hand-written AVX2 FMA kernels, used only when the CPU has all of them.
    Avx2,
    /// Hand-written AVX-512 FMA kernels (F, CD, DQ, VBMI2) and the models compiled for AVX-512
    /// F, CD, BW, VL, DQ, used only when the CPU has all of them (and the AVX2 level's features).
    Avx512,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 4] = [Level::Portable, Level::Neon, Level::Avx2, Level::Avx512];

    /// Whether this CPU can run this level's copy.
    pub fn available(self) -> bool {
        match self {
            Level::Portable => true,
            Level::Neon => neon_available(),
            Level::Avx2 => avx2_available(),
            Level::Avx512 => avx512_available(),
        }
    }

    /// The levels this CPU supports, lowest first.
    pub fn supported() -> Vec<Level> {
        Level::ALL.into_iter().filter(|l| l.available()).collect()
    }

    /// The best level this CPU supports.
    pub fn best() -> Level {
        Level::ALL.into_iter().rev().find(|l| l.available()).unwrap_or(Level::Portable)
    }

    /// The best supported level at most `self`.
    fn capped(self) -> Level {
        Level::ALL.into_iter().rev().find(|&l| l <= self && l.available()).unwrap_or(Level::Portable)
    }
}

/// 0: not decided yet; otherwise `1 + Level as u8`.
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// What [`LEVEL`] holds for each level.
pub(crate) const PORTABLE_ID: u8 = 1 + Level::Portable as u8;
pub(crate) const NEON_ID: u8 = 1 + Level::Neon as u8;
pub(crate) const AVX2_ID: u8 = 1 + Level::Avx2 as u8;
pub(crate) const AVX512_ID: u8 = 1 + Level::Avx512 as u8;

/// The copy of the kernels that runs: the best this CPU supports, unless [`set_level`],
/// `SFPU_FASTPATH_PORTABLE=1` or `SFPU_FASTPATH_SIMD` chose a lower one.
#[inline]
pub fn level() -> Level {
    match LEVEL.load(Ordering::Relaxed) {
        PORTABLE_ID => Level::Portable,
        NEON_ID => Level::Neon,
        AVX2_ID => Level::Avx2,
        AVX512_ID => Level::Avx512,
        _ => decide(),
    }
}

#[cold]
fn decide() -> Level {
    let portable = std::env::var_os("SFPU_FASTPATH_PORTABLE").is_some_and(|v| v != "0" && !v.is_empty());
    let cap = match std::env::var("SFPU_FASTPATH_SIMD").as_deref() {
        Ok("portable") => Level::Portable,
        Ok("neon") => Level::Neon,
        Ok("avx2") => Level::Avx2,
        _ => Level::Avx512,
    };
    let l = if portable { Level::Portable } else { cap.capped() };
    LEVEL.store(1 + l as u8, Ordering::Relaxed);
    l
}

/// Chooses the copy of the kernels (for benchmarks and tests): the best level this CPU supports
/// that is at most `want`. Returns the level now in force. Results do not depend on the level;
/// only speed does.
pub fn set_level(want: Level) -> Level {
    let l = want.capped();
    LEVEL.store(1 + l as u8, Ordering::Relaxed);
    l
}

/// Whether this CPU can run the NEON kernels: on `aarch64`, always (Advanced SIMD is part of the
/// architecture); elsewhere never.
pub fn neon_available() -> bool {
    cfg!(target_arch = "aarch64")
}

/// Whether this CPU can run the AVX2 copy: AVX2 and every feature `simd::execute`'s AVX2 copy is
/// compiled with (FMA, BMI1, BMI2, LZCNT, POPCNT).
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx2") && has!("fma") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU can run the AVX-512 level: the FMA kernels (AVX-512F, CD, DQ, VBMI2) and
/// `simd::execute`'s AVX-512 copy (AVX-512F, CD, BW, VL, DQ and the AVX2 level's features).
pub fn avx512_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        avx2_available()
            && has!("avx512f")
            && has!("avx512cd")
            && has!("avx512bw")
            && has!("avx512vl")
            && has!("avx512dq")
            && has!("avx512vbmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Executes `instr` as `cx` says on the state's chip (`crate::exec::execute`) with the copy of
/// the functional models compiled for the level in force: `exec::execute_on` inlines every
/// instruction's model, and each level compiles that body with its target features, so the
/// 32-lane loops of every instruction (masks, blends, conversions, shifts, counts) use the CPU's
/// vector instructions. The source is one; the copies differ only in the instructions the compiler
/// may choose (Rust has no fast-math: integer and bit operations mean the same on every target),
/// and `tests/simd_levels.rs` runs the differential check on each level anyway.
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

/// `*word`, read as one 4-byte load that the compiler may not merge with the loads of its
/// neighbours into a wider one (a volatile read). A wider load that covers a word the previous
/// instruction's model has just stored cannot take it from the store buffer, and waits for the
/// store to reach the cache; see `FastState::enabled`.
#[inline(always)]
pub(crate) fn load_word(word: &u32) -> u32 {
    // SAFETY: `word` is a reference, so the pointer is non-null, aligned and points to an
    // initialised `u32` that nothing writes during the read.
    unsafe { std::ptr::read_volatile(word) }
}

/// The sign bits of the 32 words, bit `i` for word `i` (`state::sign_mask`, through which every
/// lane-mask gather of the models goes): a vector instruction per 16 (AVX-512 DQ `vpmovd2m`) or 8
/// (AVX `vmovmskps`) lanes when the level in force has it, else the portable loop (which the
/// compiler turns into 32 scalar extractions). Inlined into every copy of the models; in a copy
/// compiled for the level in force the instruction is inlined too.
#[inline(always)]
pub(crate) fn sign_bits(v: &[u32; 32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    match LEVEL.load(Ordering::Relaxed) {
        // SAFETY: `LEVEL` holds `Avx512`'s number only after `decide` or `set_level` found the
        // level available (`capped`), which checks AVX-512 DQ among others.
        AVX512_ID => return unsafe { x86::sign_bits_avx512(v) },
        // SAFETY: as above, `Avx2`'s only when `avx2_available`.
        AVX2_ID => return unsafe { x86::sign_bits_avx2(v) },
        _ => {}
    }
    crate::state::sign_mask_portable(v)
}

/// `ops::write_result`'s `INDIRECT_VD` write: lane `l` of `d` goes to `LReg[LReg[7][l] & 15]`
/// where that is 0 to 7, in the lanes of `m` (`LReg[7]` read before any write). At the AVX-512
/// level a compare into a mask register, a blend and a store per register and 16 lanes; at the
/// AVX2 level the same per 8 lanes with the lane masks as vectors (the portable loop, which
/// the compiler vectorises too, copies `LReg[7]` and the lane masks to the stack first); elsewhere
/// the portable loop. Inlined into every copy of the models, as [`sign_bits`].
#[inline(always)]
pub(crate) fn write_indirect(lreg: &mut [[u32; 32]; 17], d: &[u32; 32], m: u32) {
    #[cfg(target_arch = "x86_64")]
    match LEVEL.load(Ordering::Relaxed) {
        // SAFETY: `LEVEL` holds `Avx512`'s number only after `decide` or `set_level` found the
        // level available (`capped`), which checks AVX-512F among others.
        AVX512_ID => return unsafe { x86::write_indirect_avx512(lreg, d, m) },
        // SAFETY: as above, `Avx2`'s only when `avx2_available`.
        AVX2_ID => return unsafe { x86::write_indirect_avx2(lreg, d, m) },
        _ => {}
    }
    crate::ops::write_indirect_portable(lreg, d, m)
}

/// `ops::gather_indirect`: `LReg[LReg[7][l] & 15][l]` per lane (the `INDIRECT_VA` operand). At the
/// AVX-512 level one gather per 16 lanes, at the AVX2 level one per 8 (the portable loop is 32
/// scalar loads); elsewhere the portable loop.
#[inline(always)]
pub(crate) fn gather_indirect(lreg: &[[u32; 32]; 17]) -> [u32; 32] {
    #[cfg(target_arch = "x86_64")]
    match LEVEL.load(Ordering::Relaxed) {
        // SAFETY: as in `write_indirect`.
        AVX512_ID => return unsafe { x86::gather_indirect_avx512(lreg) },
        // SAFETY: as in `write_indirect`.
        AVX2_ID => return unsafe { x86::gather_indirect_avx2(lreg) },
        _ => {}
    }
    crate::ops::gather_indirect_portable(lreg)
}

/// Whether a masked blend into memory must be kept from becoming a masked store: below AVX-512
/// the compiler turns `dst = blend(new, dst, mask)` with a lane mask it can see into AVX2's
/// `vpmaskmovd` store, which is microcoded on AMD's cores (the FMA family ran 2.4x slower at the
/// AVX2 level on the development machine's Zen 4 with them). `state::blend` and
/// `ops::write_result` then hide the mask from the optimiser, so the blend stays in registers
/// and the whole register is stored.
#[inline(always)]
pub(crate) fn masked_stores_are_slow() -> bool {
    LEVEL.load(Ordering::Relaxed) != AVX512_ID
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
    crate::exec::execute_op::<WH, OP, PORTABLE_ID>(s, instr, &Ctx::REGULAR, out)
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

/// `FastMachine::run_with_scheduled_on` (a machine cycle in which scheduled SFPLOADMACRO
/// instructions execute: the copy-and-merge path) compiled for AVX-512 when that is the level in
/// force, else the baseline copy.
pub(crate) fn run_with_scheduled(
    m: &mut crate::machine::FastMachine,
    s: &mut FastState,
    due: u64,
    issued: Option<&crate::program::Decoded>,
    executes: Option<&crate::program::Decoded>,
    issued_hazard: bool,
    out: &mut Outcome,
) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: as in `execute`: `Avx512` only after `avx512_available`.
        Level::Avx512 => {
            return unsafe {
                x86::run_with_scheduled_avx512(m, s, due, issued, executes, issued_hazard, out)
            };
        }
        // The AVX2 copy was slower than the baseline one (its merges became `vpmaskmovd`
        // stores; see `masked_stores_are_slow`), so AVX2 runs the baseline copy.
        Level::Avx2 | Level::Portable | Level::Neon => {}
    }
    m.run_with_scheduled_on(s, due, issued, executes, issued_hazard, out)
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
    crate::exec::execute_on::<WH, PORTABLE_ID>(s, instr, cx, out)
}

/// A 32-lane FMA kernel: `out[i] = fma(a[i], b[i], c[i])`.
pub type Kernel = fn(&[u32; 32], &[u32; 32], &[u32; 32], &mut [u32; 32]);

/// [`crate::fp::fma_bh`] over 32 lanes with the baseline target's instructions.
#[inline]
pub fn fma32_portable(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    for i in 0..32 {
        out[i] = crate::fp::fma_bh(a[i], b[i], c[i]);
    }
}

/// [`crate::fp::fma_wh`] over 32 lanes with the baseline target's instructions.
#[inline]
pub fn fma32_wh_portable(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    for i in 0..32 {
        out[i] = crate::fp::fma_wh(a[i], b[i], c[i]);
    }
}

/// Blackhole's ([`crate::fp::fma_bh`]) or Wormhole's ([`crate::fp::fma_wh`]) 32-lane kernel at
/// `level`, or `None` when the CPU cannot run that level (for tests and benchmarks; the model
/// itself goes through [`crate::fp::fma32`], which follows [`level`]).
pub fn kernel(level: Level, wormhole: bool) -> Option<Kernel> {
    if !level.available() {
        return None;
    }
    Some(match (level, wormhole) {
        (Level::Portable, false) => fma32_portable,
        (Level::Portable, true) => fma32_wh_portable,
        (Level::Neon, false) => fma32_neon,
        (Level::Neon, true) => fma32_wh_neon,
        (Level::Avx2, false) => fma32_avx2_checked,
        (Level::Avx2, true) => fma32_wh_avx2_checked,
        (Level::Avx512, false) => fma32_avx512_checked,
        (Level::Avx512, true) => fma32_wh_avx512_checked,
    })
}

/// The Blackhole kernel of the level in force ([`level`]), a call to its out-of-line copy (the
/// models' copies compiled for a SIMD level inline theirs instead: `fma32_at`).
#[inline]
pub fn fma32_bh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level` returns `Avx512` only after `avx512_available` (a `capped` level is
        // always an available one), which checks every feature `avx512::fma32_bh` enables.
        Level::Avx512 => return unsafe { avx512::fma32_bh(a, b, c, out) },
        // SAFETY: as above, `Avx2` only when `avx2_available`, which checks AVX2 and FMA, the
        // features `avx2::fma32_bh` enables.
        Level::Avx2 => return unsafe { avx2::fma32_bh(a, b, c, out) },
        Level::Portable | Level::Neon => {}
    }
    #[cfg(target_arch = "aarch64")]
    if level() == Level::Neon {
        // SAFETY: Advanced SIMD, the one feature `neon::fma32_bh` enables, is part of AArch64.
        return unsafe { neon::fma32_bh(a, b, c, out) };
    }
    fma32_portable_call(a, b, c, out)
}

/// The Wormhole kernel of the level in force ([`level`]), as [`fma32_bh`].
#[inline]
pub fn fma32_wh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: as in `fma32_bh`.
        Level::Avx512 => return unsafe { avx512::fma32_wh(a, b, c, out) },
        // SAFETY: as in `fma32_bh`.
        Level::Avx2 => return unsafe { avx2::fma32_wh(a, b, c, out) },
        Level::Portable | Level::Neon => {}
    }
    #[cfg(target_arch = "aarch64")]
    if level() == Level::Neon {
        // SAFETY: as in `fma32_bh`.
        return unsafe { neon::fma32_wh(a, b, c, out) };
    }
    fma32_wh_portable_call(a, b, c, out)
}

/// [`fma32_portable`] as a call: the dispatchers above are inlined into the models, which need not
/// carry 32 inlined copies of the scalar FMA as well.
#[inline(never)]
fn fma32_portable_call(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    fma32_portable(a, b, c, out)
}

/// [`fma32_wh_portable`] as a call (see [`fma32_portable_call`]).
#[inline(never)]
fn fma32_wh_portable_call(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    fma32_wh_portable(a, b, c, out)
}

/// The FMA of the Wormhole chip (`WH`) or the Blackhole one over 32 lanes, of the operands
/// `a ^ flip_a`, `b` and `c ^ flip_c` (`flip`: SFPMAD's sign-bit negations of `VA` and `VC`), in a
/// model compiled for the level numbered `L` ([`AVX512_ID`], [`AVX2_ID`]; anything else:
/// [`PORTABLE_ID`]). The AVX-512 and AVX2 copies of the models inline their level's kernel whole
/// (`fma32_bh_inline`), so that its operands are read straight from the registers (negated in
/// vector registers) and its result merged straight into them, with no call, no `vzeroupper` and
/// no round trip through memory from one FMA to the next. The other copies call the kernel of the
/// level in force ([`fma32_bh`], [`fma32_wh`]) on negated copies of the operands.
#[inline(always)]
pub(crate) fn fma32_at<const WH: bool, const L: u8>(
    a: &[u32; 32],
    b: &[u32; 32],
    c: &[u32; 32],
    flip_a: u32,
    flip_c: u32,
    out: &mut [u32; 32],
) {
    // The level in force is checked too (a relaxed load, and the branch it decides is always
    // taken the same way): a copy for a level runs only when the CPU has that level, and this
    // keeps the kernel sound even where a copy were reached otherwise.
    #[cfg(target_arch = "x86_64")]
    if L == AVX512_ID && LEVEL.load(Ordering::Relaxed) == AVX512_ID {
        // SAFETY: `LEVEL` holds `Avx512`'s number only after `decide` or `set_level` found the
        // level available (`capped`), which checks every feature the AVX-512 kernels use.
        return unsafe {
            if WH {
                avx512::fma32_wh_inline(a, b, c, flip_a, flip_c, out)
            } else {
                avx512::fma32_bh_inline(a, b, c, flip_a, flip_c, out)
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    if L == AVX2_ID && LEVEL.load(Ordering::Relaxed) == AVX2_ID {
        // SAFETY: as above, `Avx2`'s number only when `avx2_available` (AVX2 and FMA among
        // others).
        return unsafe {
            if WH {
                avx2::fma32_wh_inline(a, b, c, flip_a, flip_c, out)
            } else {
                avx2::fma32_bh_inline(a, b, c, flip_a, flip_c, out)
            }
        };
    }
    let (ta, tc);
    let a = if flip_a == 0 {
        a
    } else {
        ta = a.map(|v| v ^ flip_a);
        &ta
    };
    let c = if flip_c == 0 {
        c
    } else {
        tc = c.map(|v| v ^ flip_c);
        &tc
    };
    if WH { fma32_wh(a, b, c, out) } else { fma32_bh(a, b, c, out) }
}

// The `*_checked` functions check the CPU on every call (only `kernel` hands them out). The NEON
// kernels need no check (`neon_available`); elsewhere `kernel` never hands them out.

fn fma32_neon(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    // SAFETY: Advanced SIMD, the one feature `neon::fma32_bh` enables, is part of AArch64.
    #[cfg(target_arch = "aarch64")]
    return unsafe { neon::fma32_bh(a, b, c, out) };
    #[cfg(not(target_arch = "aarch64"))]
    fma32_portable(a, b, c, out)
}

fn fma32_wh_neon(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    // SAFETY: as in `fma32_neon`.
    #[cfg(target_arch = "aarch64")]
    return unsafe { neon::fma32_wh(a, b, c, out) };
    #[cfg(not(target_arch = "aarch64"))]
    fma32_wh_portable(a, b, c, out)
}

fn fma32_avx2_checked(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    #[cfg(target_arch = "x86_64")]
    if avx2_available() {
        // SAFETY: the CPU supports AVX2 and FMA, just checked.
        return unsafe { avx2::fma32_bh(a, b, c, out) };
    }
    fma32_portable(a, b, c, out)
}

fn fma32_wh_avx2_checked(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    #[cfg(target_arch = "x86_64")]
    if avx2_available() {
        // SAFETY: the CPU supports AVX2 and FMA, just checked.
        return unsafe { avx2::fma32_wh(a, b, c, out) };
    }
    fma32_wh_portable(a, b, c, out)
}

fn fma32_avx512_checked(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    #[cfg(target_arch = "x86_64")]
    if avx512_available() {
        // SAFETY: the CPU supports every feature the AVX-512 kernels enable, just checked.
        return unsafe { avx512::fma32_bh(a, b, c, out) };
    }
    fma32_portable(a, b, c, out)
}

fn fma32_wh_avx512_checked(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    #[cfg(target_arch = "x86_64")]
    if avx512_available() {
        // SAFETY: the CPU supports every feature the AVX-512 kernels enable, just checked.
        return unsafe { avx512::fma32_wh(a, b, c, out) };
    }
    fma32_wh_portable(a, b, c, out)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Handler, Handlers};
    use sfpu_reference::isa::Instr;
    use sfpu_reference::outcome::Outcome;

    use crate::exec::Ctx;
    use crate::state::FastState;

    /// [`super::execute`]'s AVX-512 copy (every feature [`super::avx512_available`] checks).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    #[inline(never)]
    pub fn execute_avx512<const WH: bool>(s: &mut FastState, instr: &Instr, cx: &Ctx, out: &mut Outcome) {
        crate::exec::execute_on::<WH, { super::AVX512_ID }>(s, instr, cx, out)
    }

    /// [`super::execute`]'s AVX2 copy (every feature [`super::avx2_available`] checks).
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    pub fn execute_avx2<const WH: bool>(s: &mut FastState, instr: &Instr, cx: &Ctx, out: &mut Outcome) {
        crate::exec::execute_on::<WH, { super::AVX2_ID }>(s, instr, cx, out)
    }

    /// [`super::sign_bits`] for AVX-512 (DQ's `vpmovd2m`, 16 lanes per instruction).
    #[target_feature(enable = "avx512f,avx512dq")]
    #[inline]
    pub fn sign_bits_avx512(v: &[u32; 32]) -> u32 {
        use std::arch::x86_64::{_mm512_loadu_si512, _mm512_movepi32_mask};
        // SAFETY: each load reads 16 of the 32 `u32`s (64 bytes) inside `v`.
        let (lo, hi) =
            unsafe { (_mm512_loadu_si512(v.as_ptr().cast()), _mm512_loadu_si512(v.as_ptr().add(16).cast())) };
        u32::from(_mm512_movepi32_mask(lo)) | (u32::from(_mm512_movepi32_mask(hi)) << 16)
    }

    /// [`super::write_indirect`] for AVX-512: per 16 lanes, the register numbers once, then a
    /// compare into a mask register (under `m`), a blend and a whole store per register 0 to 7
    /// (a whole store, not a masked one: the next instruction's loads of the register can take
    /// a whole store's data from the store buffer).
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub fn write_indirect_avx512(lreg: &mut [[u32; 32]; 17], d: &[u32; 32], m: u32) {
        use std::arch::x86_64::*;
        for h in 0..2 {
            // SAFETY: each load reads and each store writes 16 of a register's 32 `u32`s (64
            // bytes, from lane 16 * h) inside `lreg` or `d`.
            unsafe {
                let sel = _mm512_and_si512(
                    _mm512_loadu_si512(lreg[7].as_ptr().add(16 * h).cast()),
                    _mm512_set1_epi32(15),
                );
                let dv = _mm512_loadu_si512(d.as_ptr().add(16 * h).cast());
                let mh = (m >> (16 * h)) as u16;
                for (r, reg) in lreg.iter_mut().take(8).enumerate() {
                    let k = _mm512_mask_cmpeq_epi32_mask(mh, sel, _mm512_set1_epi32(r as i32));
                    let cur = _mm512_loadu_si512(reg.as_ptr().add(16 * h).cast());
                    let mut v = _mm512_mask_mov_epi32(cur, k, dv);
                    // Hidden from the optimiser, which would otherwise fold the load, blend and
                    // store back into a masked store (`vmovdqu32 {k}`).
                    std::arch::asm!("/* {0} */", inout(zmm_reg) v, options(pure, nomem, nostack, preserves_flags));
                    _mm512_storeu_si512(reg.as_mut_ptr().add(16 * h).cast(), v);
                }
            }
        }
    }

    /// [`super::gather_indirect`] for AVX-512: one `vpgatherdd` per 16 lanes, at word
    /// `32 * (LReg[7][l] & 15) + l` of the registers.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub fn gather_indirect_avx512(lreg: &[[u32; 32]; 17]) -> [u32; 32] {
        use std::arch::x86_64::*;
        let mut out = [0u32; 32];
        let base: *const i32 = lreg.as_ptr().cast();
        for h in 0..2 {
            let lane = _mm512_add_epi32(
                _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                _mm512_set1_epi32(16 * h as i32),
            );
            // SAFETY: the loads and the store cover 16 `u32`s inside `lreg[7]` and `out`; every
            // gathered word is at index `32 * r + l` with `r <= 15` and `l <= 31`, inside the 17
            // registers (`17 * 32` words) that `base` points to.
            unsafe {
                let sel = _mm512_and_si512(
                    _mm512_loadu_si512(lreg[7].as_ptr().add(16 * h).cast()),
                    _mm512_set1_epi32(15),
                );
                let idx = _mm512_add_epi32(_mm512_slli_epi32::<5>(sel), lane);
                let v = _mm512_i32gather_epi32::<4>(idx, base);
                _mm512_storeu_si512(out.as_mut_ptr().add(16 * h).cast(), v);
            }
        }
        out
    }

    /// [`super::write_indirect`] for AVX2: [`write_indirect_avx512`] per 8 lanes, the lane mask
    /// of `m` and each register's compare as vectors, a `vpblendvb` and a whole store per
    /// register 0 to 7 (kept from becoming `vpmaskmovd`, microcoded on AMD's cores:
    /// [`super::masked_stores_are_slow`]).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn write_indirect_avx2(lreg: &mut [[u32; 32]; 17], d: &[u32; 32], m: u32) {
        use std::arch::x86_64::*;
        let lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        for q in 0..4 {
            // SAFETY: each load reads and each store writes 8 of a register's 32 `u32`s (32
            // bytes, from lane 8 * q) inside `lreg` or `d`.
            unsafe {
                let sel = _mm256_and_si256(
                    _mm256_loadu_si256(lreg[7].as_ptr().add(8 * q).cast()),
                    _mm256_set1_epi32(15),
                );
                let dv = _mm256_loadu_si256(d.as_ptr().add(8 * q).cast());
                let mq = _mm256_set1_epi32(((m >> (8 * q)) & 0xFF) as i32);
                let kq = _mm256_cmpeq_epi32(_mm256_and_si256(mq, lane_bit), lane_bit);
                for (r, reg) in lreg.iter_mut().take(8).enumerate() {
                    let k = _mm256_and_si256(kq, _mm256_cmpeq_epi32(sel, _mm256_set1_epi32(r as i32)));
                    let cur = _mm256_loadu_si256(reg.as_ptr().add(8 * q).cast());
                    let mut v = _mm256_blendv_epi8(cur, dv, k);
                    // Hidden from the optimiser, which would otherwise fold the load, blend and
                    // store back into a masked store.
                    std::arch::asm!("/* {0} */", inout(ymm_reg) v, options(pure, nomem, nostack, preserves_flags));
                    _mm256_storeu_si256(reg.as_mut_ptr().add(8 * q).cast(), v);
                }
            }
        }
    }

    /// [`super::gather_indirect`] for AVX2: one `vpgatherdd` per 8 lanes, at word
    /// `32 * (LReg[7][l] & 15) + l` of the registers.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn gather_indirect_avx2(lreg: &[[u32; 32]; 17]) -> [u32; 32] {
        use std::arch::x86_64::*;
        let mut out = [0u32; 32];
        let base: *const i32 = lreg.as_ptr().cast();
        for q in 0..4 {
            let lane =
                _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(8 * q as i32));
            // SAFETY: the load and the store cover 8 `u32`s inside `lreg[7]` and `out`; every
            // gathered word is at index `32 * r + l` with `r <= 15` and `l <= 31`, inside the 17
            // registers (`17 * 32` words) that `base` points to.
            unsafe {
                let sel = _mm256_and_si256(
                    _mm256_loadu_si256(lreg[7].as_ptr().add(8 * q).cast()),
                    _mm256_set1_epi32(15),
                );
                let idx = _mm256_add_epi32(_mm256_slli_epi32::<5>(sel), lane);
                let v = _mm256_i32gather_epi32::<4>(base, idx);
                _mm256_storeu_si256(out.as_mut_ptr().add(8 * q).cast(), v);
            }
        }
        out
    }

    /// [`super::sign_bits`] for AVX2 (`vmovmskps`, 8 lanes per instruction).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn sign_bits_avx2(v: &[u32; 32]) -> u32 {
        use std::arch::x86_64::{_mm256_castsi256_ps, _mm256_loadu_si256, _mm256_movemask_ps};
        let mut acc = 0u32;
        for k in 0..4 {
            // SAFETY: the load reads 8 of the 32 `u32`s (32 bytes) inside `v`.
            let x = unsafe { _mm256_loadu_si256(v.as_ptr().add(8 * k).cast()) };
            acc |= (_mm256_movemask_ps(_mm256_castsi256_ps(x)) as u32) << (8 * k);
        }
        acc
    }

    /// [`super::Handlers`]' AVX-512 copies (features as [`execute_avx512`]).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    fn execute_op_avx512<const WH: bool, const OP: u8>(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
        crate::exec::execute_op::<WH, OP, { super::AVX512_ID }>(s, instr, &Ctx::REGULAR, out)
    }

    /// [`super::Handlers`]' AVX2 copies (features as [`execute_avx2`]).
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    fn execute_op_avx2<const WH: bool, const OP: u8>(s: &mut FastState, instr: &Instr, out: &mut Outcome) {
        crate::exec::execute_op::<WH, OP, { super::AVX2_ID }>(s, instr, &Ctx::REGULAR, out)
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

    /// [`super::run_with_scheduled`]'s AVX-512 copy (features as [`execute_avx512`]).
    #[target_feature(
        enable = "avx512f,avx512cd,avx512bw,avx512vl,avx512dq,avx512vbmi2,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    #[inline(never)]
    pub fn run_with_scheduled_avx512(
        m: &mut crate::machine::FastMachine,
        s: &mut FastState,
        due: u64,
        issued: Option<&crate::program::Decoded>,
        executes: Option<&crate::program::Decoded>,
        issued_hazard: bool,
        out: &mut Outcome,
    ) {
        m.run_with_scheduled_on(s, due, issued, executes, issued_hazard, out)
    }

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
    use sfpu_reference::fp::fma_model_bh;
    use sfpu_reference::isa::{Arch, decode};
    use sfpu_reference::state::ResetValues;

    /// The 32-bit draws of a 64-bit linear congruential generator seeded with `seed`.
    fn lcg(seed: u64) -> impl FnMut() -> u32 {
        let mut state = seed;
        move || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 32) as u32
        }
    }

    /// A vector of `N` triples whose results land next to exponent 0: random mantissas and
    /// signs, factor exponents summing to 128 to 131, and a `z` of exponent 0 to 3.
    fn near_exponent_zero<const N: usize>(next: &mut impl FnMut() -> u32) -> [[u32; N]; 3] {
        let mut v = [[0u32; N]; 3];
        for l in 0..N {
            let ex = 1 + next() % 127;
            let ey = 128 + next() % 4 - ex;
            v[0][l] = (next() & 0x807F_FFFF) | (ex << 23);
            v[1][l] = (next() & 0x807F_FFFF) | (ey << 23);
            v[2][l] = (next() & 0x807F_FFFF) | ((next() % 4) << 23);
        }
        v
    }

    /// The check behind the AVX-512, AVX2 and NEON kernels'
    /// `blackhole_underflow_rule_without_a_slow_path`: `vectors` vectors of `N` triples whose
    /// results land next to exponent 0 ([`near_exponent_zero`], with some carrying cancellations)
    /// go through `kernel` (the main steps alone, no special lanes among them), which must give
    /// `fma_model_bh`'s result on every lane. Also asserts that the
    /// triples exercise Blackhole's underflow rule both ways, judged from the exact value of
    /// `x * y + z` (in `f64`: the product of two 24-bit mantissas and a `z` of nearby scale are
    /// exact there), not from the kernel: lanes whose exact value is below 2^-126 but whose
    /// result is ±2^-126 (the rounding carried out of the mantissa), lanes whose exact value is
    /// not zero but whose result is a zero (flushed), and lanes where the result is ±2^-126
    /// only through the rule (IEEE rounding to nearest of that value would not reach 2^-126).
    pub(super) fn check_underflow_rule<const N: usize>(
        seed: u64,
        vectors: usize,
        mut kernel: impl FnMut(&[[u32; N]; 3]) -> [u32; N],
    ) {
        let mut next = lcg(seed);
        let daz = |v: u32| if v & 0x7F80_0000 == 0 { 0.0 } else { f64::from(f32::from_bits(v)) };
        let min_normal = f64::from(f32::MIN_POSITIVE);
        let (mut carried, mut flushed, mut beyond_ieee) = (0, 0, 0);
        for _ in 0..vectors {
            let mut v = near_exponent_zero::<N>(&mut next);
            for l in 0..N {
                if next().is_multiple_of(8)
                    && let Some(t) = carrying_cancellation(next(), next(), next())
                {
                    [v[0][l], v[1][l], v[2][l]] = t;
                }
            }
            let got = kernel(&v);
            for l in 0..N {
                let (x, y, z) = (v[0][l], v[1][l], v[2][l]);
                let want = fma_model_bh(x, y, z);
                assert_eq!(got[l], want, "lane {l} of {v:08x?}: 0x{x:08x} * 0x{y:08x} + 0x{z:08x}");
                let exact = (daz(x) * daz(y) + daz(z)).abs();
                if want & 0x7FFF_FFFF == 0x0080_0000 && exact < min_normal {
                    carried += 1;
                    // IEEE rounding to nearest (to 24 bits, or to a subnormal's quantum 2^-149)
                    // reaches 2^-126 only from above 2^-126 (1 - 2^-24); this margin leaves no
                    // doubt about it.
                    if exact < 0.75 * min_normal {
                        beyond_ieee += 1;
                    }
                }
                if want & 0x7FFF_FFFF == 0 && exact != 0.0 {
                    flushed += 1;
                }
            }
        }
        assert!(
            carried > 0 && flushed > 0 && beyond_ieee > 0,
            "the triples must exercise the underflow rule: {carried} carried ({beyond_ieee} beyond IEEE rounding), {flushed} flushed"
        );
    }

    /// A triple whose sum cancels to a magnitude `R` (spec §4.1 step 8) whose leading one is on bit
    /// 24 or 25 (normalised exponent -1 or 0) with its top 24 bits all ones, the case of
    /// Blackhole's underflow rule in which rounding carries to 2^-126: random factors of
    /// product exponent 1 (`ex + ey = 128`) whose narrowed product `P` (step 4: `(mx * my) >> 20`
    /// with a sticky bit) is in `[2^27, 2^27 + 2^26)`, and the `z` of exponent 1 and the other
    /// sign with `8 * mz = P - R`. `None` when no such `z` exists for these factors.
    fn carrying_cancellation(r0: u32, r1: u32, r2: u32) -> Option<[u32; 3]> {
        let mx = 0x0080_0000 | (r0 & 0x007F_FFFF);
        let my = 0x0080_0000 | (r1 & 0x007F_FFFF);
        let prod = u64::from(mx) * u64::from(my);
        let p = (prod >> 20) as u32 | u32::from(prod & 0xF_FFFF != 0);
        let lead = 24 + (r2 & 1);
        let lo = 0x00FF_FFFF << (lead - 23);
        let hi = (2 << lead) - 1;
        if !(1 << 27..(1 << 27) + (1 << 26)).contains(&p) {
            return None;
        }
        // The largest multiple of 8 at most `p - lo` leaves `r = p - 8 * mz` in `[lo, lo + 7]`.
        let mz = (p - lo) / 8;
        let r = p - 8 * mz;
        if r > hi || !(0x0080_0000..0x0100_0000).contains(&mz) {
            return None;
        }
        let ex = 1 + (r2 >> 1) % 127;
        let ey = 128 - ex;
        Some([
            (ex << 23) | (mx & 0x007F_FFFF),
            (ey << 23) | (my & 0x007F_FFFF),
            0x8000_0000 | (1 << 23) | (mz & 0x007F_FFFF),
        ])
    }

    /// The check behind the AVX-512 and AVX2 kernels' `special_fma_sees_no_subnormal`:
    /// `vectors` vectors of `N` triples, each operand drawn from every class (zeros, subnormals,
    /// small, ordinary and large normals, infinities, NaNs), go through `operands` (the operands
    /// the kernel gives its IEEE FMA of the special lanes, and its mask of special lanes). Asserts
    /// that no operand is subnormal and that no lane's `mul_add` of them is; for Blackhole
    /// (`wormhole` false) also that each special lane's `mul_add` is `fma_model_bh`'s result up
    /// to the NaN payload (Wormhole's special results are combined with its pending NaNs after
    /// the FMA: `tests/it/simd.rs` checks those). Also asserts that the triples held subnormal
    /// operands and special lanes (so that the test can fail). x86 only: the NEON kernels'
    /// special lanes keep their operands (the assists are an x86 cost; not measured on AArch64).
    #[cfg(target_arch = "x86_64")]
    pub(super) fn check_special_operands<const N: usize>(
        seed: u64,
        vectors: usize,
        wormhole: bool,
        mut operands: impl FnMut(&[[u32; N]; 3]) -> ([[f32; N]; 3], u32),
    ) {
        let mut next = lcg(seed);
        let mut draw = || {
            let r = next();
            let sign = r & 0x8000_0000;
            let man = next() & 0x007F_FFFF;
            let e = match r % 7 {
                0 => return sign,
                1 => return sign | man.max(1),
                2 => 1 + next() % 20,
                3 => 100 + next() % 50,
                4 => 200 + next() % 55,
                5 => return sign | 0x7F80_0000,
                _ => return sign | 0x7F80_0000 | man.max(1),
            };
            sign | (e << 23) | man
        };
        let (mut subnormal_inputs, mut special_lanes) = (0, 0);
        for _ in 0..vectors {
            let v: [[u32; N]; 3] = std::array::from_fn(|_| std::array::from_fn(|_| draw()));
            subnormal_inputs += v.iter().flatten().filter(|&&w| w & 0x7F80_0000 == 0 && w << 1 != 0).count();
            let (ops, special) = operands(&v);
            for l in 0..N {
                let [x, y, z] = [ops[0][l], ops[1][l], ops[2][l]];
                let at = || format!("lane {l} of {v:08x?}: operands {x:e}, {y:e}, {z:e}");
                assert!(!x.is_subnormal() && !y.is_subnormal() && !z.is_subnormal(), "{}", at());
                let r = x.mul_add(y, z);
                assert!(!r.is_subnormal(), "{}: result {r:e}", at());
                if special >> l & 1 == 1 {
                    special_lanes += 1;
                    if wormhole {
                        continue;
                    }
                    let want = fma_model_bh(v[0][l], v[1][l], v[2][l]);
                    let want_nan = f32::from_bits(want).is_nan();
                    assert!(want_nan == r.is_nan() && (want_nan || r.to_bits() == want), "{}: {r:e}", at());
                }
            }
        }
        assert!(subnormal_inputs > 0 && special_lanes > 0, "{subnormal_inputs} {special_lanes}");
    }

    /// The kernels as the models' copies inline them (`fma32_bh_inline` / `fma32_wh_inline` of
    /// each x86 level the CPU has, and `fma32_at` at the level in force) negate their operands
    /// as told: lane by lane they give `fma_model_bh` / `fma_model_wh` of `a ^ flip_a`, `b`,
    /// `c ^ flip_c` (the reference's models as the oracle), for every pair of flips, on batches
    /// mixing random triples, triples next to exponent 0 (Blackhole's underflow rule; below
    /// AVX-512 its exact steps, which take the flips from memory) and special inputs.
    #[test]
    fn inlined_kernels_flip_their_operands() {
        use sfpu_reference::fp::fma_model_wh;
        let mut next = lcg(0xF11B_0000_0000_0001);
        const SIGN: u32 = 0x8000_0000;
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut checked = 0u32;
        for batch in 0..3000 {
            let mut v = [[0u32; 32]; 3];
            for l in 0..32 {
                match (batch + l) % 3 {
                    0 => (0..3).for_each(|k| v[k][l] = next()),
                    1 => {
                        let ex = 1 + next() % 127;
                        let ey = 128 + next() % 4 - ex;
                        v[0][l] = (next() & 0x807F_FFFF) | (ex << 23);
                        v[1][l] = (next() & 0x807F_FFFF) | (ey << 23);
                        v[2][l] = (next() & 0x807F_FFFF) | ((next() % 4) << 23);
                    }
                    _ => (0..3).for_each(|k| {
                        v[k][l] = next() | if next().is_multiple_of(3) { 0x7F80_0000 } else { 0 }
                    }),
                }
            }
            let [a, b, c] = &v;
            for (flip_a, flip_c) in [(0, 0), (SIGN, 0), (0, SIGN), (SIGN, SIGN)] {
                for wormhole in [false, true] {
                    let model = if wormhole { fma_model_wh } else { fma_model_bh };
                    let want: [u32; 32] = std::array::from_fn(|l| model(a[l] ^ flip_a, b[l], c[l] ^ flip_c));
                    let mut got = [0u32; 32];
                    if wormhole {
                        fma32_at::<true, PORTABLE_ID>(a, b, c, flip_a, flip_c, &mut got);
                    } else {
                        fma32_at::<false, PORTABLE_ID>(a, b, c, flip_a, flip_c, &mut got);
                    }
                    assert_eq!(got, want, "fma32_at, Wormhole {wormhole}, flips {flip_a:x} {flip_c:x}");
                    #[cfg(target_arch = "x86_64")]
                    {
                        type Inline = unsafe fn(&[u32; 32], &[u32; 32], &[u32; 32], u32, u32, &mut [u32; 32]);
                        let mut levels: Vec<(&str, Inline)> = Vec::new();
                        if avx512_available() {
                            levels.push(if wormhole {
                                ("AVX-512", avx512::fma32_wh_inline)
                            } else {
                                ("AVX-512", avx512::fma32_bh_inline)
                            });
                        }
                        if avx2_available() {
                            levels.push(if wormhole {
                                ("AVX2", avx2::fma32_wh_inline)
                            } else {
                                ("AVX2", avx2::fma32_bh_inline)
                            });
                        }
                        for (name, kernel) in levels {
                            let mut got = [0u32; 32];
                            // SAFETY: the CPU has the level's features (checked above).
                            unsafe { kernel(a, b, c, flip_a, flip_c, &mut got) };
                            for l in 0..32 {
                                assert_eq!(
                                    got[l], want[l],
                                    "{name}, Wormhole {wormhole}, flips {flip_a:x} {flip_c:x}, lane {l}: \
                                     {:08x} {:08x} {:08x}",
                                    a[l], b[l], c[l]
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        assert!(checked == 0 || checked >= 3000 * 8, "{checked}");
        let _ = checked;
    }

    /// The AVX-512 and AVX2 copies of the indirect register access (`write_indirect`,
    /// `gather_indirect`) do what the lane-by-lane loops do (`ops::write_indirect_portable`,
    /// `ops::gather_indirect_portable`, the pages' definitions), on random registers with
    /// `LReg[7]` selecting every register 0 to 15 and on random lane masks (none, all, random).
    #[test]
    fn indirect_register_access_at_every_level_is_the_lane_loop() {
        let mut x = 0x1D1E_C7ED_0000_0017u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let (mut checked, mut checked_avx2) = (0, 0);
        for round in 0..3000 {
            let mut lreg = [[0u32; 32]; 17];
            for r in lreg.iter_mut() {
                *r = std::array::from_fn(|_| next() as u32);
            }
            // Mostly small numbers in LReg[7] (every register selected), sometimes large words.
            if round % 4 != 0 {
                lreg[7] = std::array::from_fn(|_| (next() % 16) as u32 | ((next() as u32) & 0xFFF0_0000));
            }
            let d: [u32; 32] = std::array::from_fn(|_| next() as u32);
            let m = match round % 5 {
                0 => 0,
                1 => u32::MAX,
                _ => next() as u32,
            };
            let mut want = lreg;
            crate::ops::write_indirect_portable(&mut want, &d, m);
            let gathered = crate::ops::gather_indirect_portable(&lreg);
            for (r, reg) in want.iter().enumerate() {
                for l in 0..32 {
                    let hit = m >> l & 1 == 1 && (lreg[7][l] & 15) as usize == r && r < 8;
                    assert_eq!(
                        reg[l],
                        if hit { d[l] } else { lreg[r][l] },
                        "the portable write, LReg[{r}] lane {l}"
                    );
                }
            }
            for l in 0..32 {
                let r = (lreg[7][l] & 15) as usize;
                assert_eq!(gathered[l], lreg[r][l], "the portable gather, lane {l}");
            }
            #[cfg(target_arch = "x86_64")]
            if avx512_available() {
                let mut got = lreg;
                // SAFETY: the CPU has AVX-512F (just checked).
                unsafe { x86::write_indirect_avx512(&mut got, &d, m) };
                assert_eq!(got, want, "write, round {round}");
                // SAFETY: as above.
                assert_eq!(unsafe { x86::gather_indirect_avx512(&lreg) }, gathered, "gather, round {round}");
                checked += 1;
            }
            #[cfg(target_arch = "x86_64")]
            if avx2_available() {
                let mut got = lreg;
                // SAFETY: the CPU has AVX2 (just checked).
                unsafe { x86::write_indirect_avx2(&mut got, &d, m) };
                assert_eq!(got, want, "AVX2 write, round {round}");
                // SAFETY: as above.
                assert_eq!(
                    unsafe { x86::gather_indirect_avx2(&lreg) },
                    gathered,
                    "AVX2 gather, round {round}"
                );
                checked_avx2 += 1;
            }
            let mut got = lreg;
            write_indirect(&mut got, &d, m);
            assert_eq!(got, want, "the level in force's write, round {round}");
            assert_eq!(gather_indirect(&lreg), gathered, "the level in force's gather, round {round}");
        }
        #[cfg(target_arch = "x86_64")]
        assert!((checked == 0 || checked == 3000) && (checked_avx2 == 0 || checked_avx2 == 3000));
        let _ = (checked, checked_avx2);
    }

    /// Every level's `sign_bits` gathers the sign bits in lane order (oracle: the bits summed one
    /// lane at a time), on random words and on single-lane patterns.
    #[test]
    fn sign_bits_at_every_level_gather_the_sign_bits_in_lane_order() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut words = Vec::new();
        for k in 0..32 {
            words.push(std::array::from_fn(|l| if l == k { 0x8000_0000 } else { 0x7FFF_FFFF }));
        }
        for _ in 0..2000 {
            words.push(std::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u32
            }));
        }
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut checked = 0;
        for v in &words {
            let want: u32 = (0..32).filter(|&l| v[l] >> 31 == 1).map(|l| 1u32 << l).sum();
            assert_eq!(crate::state::sign_mask_portable(v), want, "portable {v:08x?}");
            #[cfg(target_arch = "x86_64")]
            {
                if avx512_available() {
                    // SAFETY: the CPU has every AVX-512 feature of the level (just checked).
                    assert_eq!(unsafe { x86::sign_bits_avx512(v) }, want, "AVX-512 {v:08x?}");
                    checked += 1;
                }
                if avx2_available() {
                    // SAFETY: the CPU has AVX2 (just checked).
                    assert_eq!(unsafe { x86::sign_bits_avx2(v) }, want, "AVX2 {v:08x?}");
                    checked += 1;
                }
            }
            assert_eq!(sign_bits(v), want, "level in force {v:08x?}");
        }
        // On a CPU without AVX2 only the portable loop is checked.
        assert!(checked == 0 || checked >= words.len(), "{checked}");
    }

    /// Every slot of every table, given an instruction of any opcode (its own or another: the
    /// tables never do the latter, the fallback is there so that nothing depends on it), does
    /// what `exec::execute` (the copy with every arm) does: same state, same outcome.
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
                    crate::exec::execute(&mut want, &instr, &Ctx::REGULAR, &mut want_out);
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
