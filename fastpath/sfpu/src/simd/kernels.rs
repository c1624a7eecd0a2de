//! The vector kernels, each at the SIMD level in force: the 32-lane FMAs of both chips
//! ([`fma32_bh`], [`fma32_wh`], [`kernel`] for a given level, and `fma32_at`, the copy the
//! models inline), the sign-bit gather every lane mask goes through (`sign_bits`), the indirect
//! register access of `INDIRECT_VA` / `INDIRECT_VD` (`gather_indirect`, `write_indirect`), and a
//! flag word's volatile read (`load_word`); with their portable loops. The hand-written FMA
//! kernels are `simd/avx512.rs`, `simd/avx2.rs` and `simd/neon.rs`. A leaf below the state and
//! the models: it needs only the levels (`simd/level.rs`), the one-lane FMAs ([`crate::fp`]'s
//! `fma_bh` / `fma_wh`) and the lane masks ([`crate::lanes`]).

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::Ordering;

#[cfg(target_arch = "x86_64")]
use super::level::{AVX2_ID, AVX512_ID, LEVEL, avx2_available, avx512_available};
use super::level::{Level, level};
#[cfg(target_arch = "aarch64")]
use super::neon;
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512};
use crate::lanes::{LANE_BIT, blend_mask};

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
    sign_mask_portable(v)
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
    write_indirect_portable(lreg, d, m)
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
    gather_indirect_portable(lreg)
}

/// `crate::state::sign_mask` with the baseline target's instructions (the portable [`sign_bits`]).
#[inline(always)]
pub(crate) fn sign_mask_portable(v: &[u32; 32]) -> u32 {
    let mut acc = 0u32;
    for i in 0..32 {
        acc |= if (v[i] as i32) < 0 { LANE_BIT[i] } else { 0 };
    }
    acc
}

/// `ops::gather_indirect` one lane at a time (the copy for the levels without a gather).
#[inline(always)]
pub(crate) fn gather_indirect_portable(lreg: &[[u32; 32]; 17]) -> [u32; 32] {
    let mut a = [0u32; 32];
    for l in 0..32 {
        a[l] = lreg[(lreg[7][l] & 15) as usize][l];
    }
    a
}

/// The `INDIRECT_VD` write of `ops::write_result` ([`write_indirect`]), a lane mask and blend
/// per register: lane `l` of `d` goes to `LReg[LReg[7][l] & 15]` where that is 0 to 7, in the
/// lanes of `m` (`LReg[7]` read before any write).
#[inline(always)]
pub(crate) fn write_indirect_portable(lreg: &mut [[u32; 32]; 17], d: &[u32; 32], m: u32) {
    let sel = lreg[7];
    let m = blend_mask(m);
    for r in 0..8u32 {
        let dst = &mut lreg[r as usize];
        for l in 0..32 {
            let hit = if sel[l] & 15 == r { m[l] } else { 0 };
            dst[l] = (d[l] & hit) | (dst[l] & !hit);
        }
    }
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::check::*;
    use crate::simd::level::*;
    use sfpu_reference::fp::fma_model_bh;

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
            write_indirect_portable(&mut want, &d, m);
            let gathered = gather_indirect_portable(&lreg);
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
            assert_eq!(sign_mask_portable(v), want, "portable {v:08x?}");
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
}
