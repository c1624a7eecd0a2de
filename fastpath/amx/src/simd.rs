//! Run-time selection of the instruction-set level the data path runs with, and the AVX2
//! level's own kernels.
//!
//! Why: the default `x86_64` target promises only SSE2. There, `f32::mul_add` and
//! `f64::mul_add` are calls of the C library's `fmaf`/`fma` (correct, one call per lane), there
//! is no f16 conversion instruction and no byte shuffle. With AVX2, FMA and F16C: `mul_add` is
//! one `vfmadd` over eight f32 or four f64 lanes, f16 is widened and narrowed eight lanes at a
//! time, and a gather is a few byte shuffles.
//!
//! How: the data path (`exec.rs`) is generic over a set of kernels
//! (`kernels::Kernels`) and compiled twice: with the portable kernels for the baseline
//! target, and inside a `#[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]` function
//! with the AVX2 kernels (`x86::Avx2`). Each AVX2 kernel is itself a `#[target_feature]`
//! function, out of line: the f32 and f64 kernels are the portable source compiled with those
//! features; the f16 kernel converts with F16C (`vcvtph2ps`, `vcvtps2ph` with RNE) around the
//! same round-to-odd f32 arithmetic; the bf16 kernel uses the f32 hardware result and falls back
//! to round to odd on bf16 midpoints (its docs give the argument); gathers use a 64-byte byte
//! permute built from `vpshufb`. Which copy runs is decided per instruction from [`level`],
//! which asks the CPU once (`is_x86_feature_detected!`).
//!
//! `unsafe` here, and nowhere else in the crate: the calls of `#[target_feature]` functions,
//! each after (or under the contract of) the check that makes it sound, and the unaligned
//! 32-byte loads and stores of the byte permute, each within a 64-byte array. Every result is
//! the same at every level (the formats' IEEE results do not depend on the instructions chosen);
//! `tests/it/simd.rs` checks every level the machine has against the portable one on random
//! operations and states biased to every format's edge cases, and `tests/it/oracle.rs` checks every
//! level against rustc_apfloat. `AMX_FASTPATH_PORTABLE=1` (or [`set_level`]) forces the portable
//! copy everywhere.

#![allow(unsafe_code, reason = "#[target_feature] calls after detection, and the byte permute's loads")]

use std::sync::atomic::{AtomicU8, Ordering};

use amx_reference::State;

use crate::plan::Op;

/// Which copy of the data path runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// The baseline target's code (SSE2 on `x86_64`): always available.
    Portable,
    /// AVX2 + FMA + F16C code, only on a CPU that has all three.
    Avx2,
}

impl Level {
    /// Every level, the portable one first.
    pub const ALL: [Level; 2] = [Level::Portable, Level::Avx2];

    /// Whether this CPU can run the level.
    pub fn available(self) -> bool {
        match self {
            Level::Portable => true,
            Level::Avx2 => avx2_available(),
        }
    }

    /// The levels this CPU can run.
    pub fn supported() -> Vec<Level> {
        Level::ALL.into_iter().filter(|l| l.available()).collect()
    }
}

/// 0: not decided yet; otherwise `1 + Level as u8`.
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The level [`crate::vecfp`] and [`crate::Plan::run`] use: the best this CPU has, unless
/// [`set_level`] or `AMX_FASTPATH_PORTABLE=1` chose [`Level::Portable`].
#[inline]
pub fn level() -> Level {
    match LEVEL.load(Ordering::Relaxed) {
        1 => Level::Portable,
        2 => Level::Avx2,
        _ => {
            let forced = std::env::var_os("AMX_FASTPATH_PORTABLE").is_some_and(|v| !v.is_empty() && v != "0");
            let l = if !forced && avx2_available() { Level::Avx2 } else { Level::Portable };
            LEVEL.store(1 + l as u8, Ordering::Relaxed);
            l
        }
    }
}

/// Chooses the level for the whole process (benchmarks); a level the CPU lacks falls back to
/// [`Level::Portable`]. Returns the level now in force. Results never depend on the level.
pub fn set_level(want: Level) -> Level {
    let l = if want.available() { want } else { Level::Portable };
    LEVEL.store(1 + l as u8, Ordering::Relaxed);
    l
}

/// Whether this CPU can run [`Level::Avx2`].
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("f16c")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `op` on `s` with `level`'s copy, or with the portable copy when the CPU lacks `level`.
#[inline]
pub(crate) fn run_at(level: Level, op: &Op, s: &mut State) {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 if avx2_available_cached() => {
            // SAFETY: `x86::run` requires a CPU with the features of `Level::Avx2`;
            // `avx2_available_cached` has just confirmed all of them.
            unsafe { x86::run(op, s) }
        }
        _ => crate::exec::run_op::<crate::kernels::Portable>(op, s),
    }
}

/// [`avx2_available`], asked of the CPU once (`is_x86_feature_detected!` caches each feature
/// itself, but six lookups per instruction would show in the profile).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_available_cached() -> bool {
    static AVX2: AtomicU8 = AtomicU8::new(0);
    match AVX2.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let a = avx2_available();
            AVX2.store(1 + a as u8, Ordering::Relaxed);
            a
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        _MM_FROUND_TO_NEAREST_INT, _mm_extract_epi64, _mm_setr_epi16, _mm256_and_si256, _mm256_blendv_epi8,
        _mm256_castps_si256, _mm256_cmpeq_epi8, _mm256_cvtph_ps, _mm256_cvtps_ph, _mm256_extract_epi64,
        _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setr_ps, _mm256_shuffle_epi8,
        _mm256_srli_epi16, _mm256_storeu_si256,
    };

    use amx_reference::{AluMode, State};

    use crate::fp;
    use crate::kernels::{self, Kernels, Lane};
    use crate::plan::{Fetch, Op};

    /// Runs `op` on `s` with the AVX2 copy of the data path.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, FMA, F16C, BMI1, BMI2 and LZCNT ([`super::avx2_available`]).
    #[inline]
    pub unsafe fn run(op: &Op, s: &mut State) {
        // SAFETY: the only requirement of a `#[target_feature]` function is that the CPU has the
        // features it enables, which this function's caller guarantees.
        unsafe { run_avx2(op, s) }
    }

    /// [`crate::exec::run_op`] compiled with AVX2, FMA and F16C, with [`Avx2`]'s kernels.
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    fn run_avx2(op: &Op, s: &mut State) {
        crate::exec::run_op::<Avx2>(op, s)
    }

    /// The kernels compiled with AVX2, FMA and F16C.
    struct Avx2;

    /// Defines each kernel as a `#[target_feature]` function (the row code inlined into it, so
    /// compiled with those features) and [`Avx2`]'s [`Kernels`] implementation calling them.
    macro_rules! avx2_kernels {
        ($($name:ident($x:ty) => $body:expr;)*) => {
            $(
                #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
                fn $name(alu: AluMode, x: &$x, y: &$x, row: &mut [u8; 64], enable: u32) {
                    $body(alu, x, y, row, enable)
                }
            )*

            impl Kernels for Avx2 {
                #[inline(always)]
                fn gather<T: Lane, const N: usize>(w: &[u8; 64], f: &Fetch, out: &mut [u8; 64]) {
                    // SAFETY: as for the kernels below.
                    unsafe { permute64(w, f.bytes, out) }
                }

                $(
                    #[inline(always)]
                    fn $name(alu: AluMode, x: &$x, y: &$x, row: &mut [u8; 64], enable: u32) {
                        // SAFETY: `Avx2` is only used by `run_avx2`, whose callers guarantee the
                        // CPU has the features the kernel enables.
                        unsafe { $name(alu, x, y, row, enable) }
                    }
                )*
            }
        };
    }

    avx2_kernels! {
        f16([u8; 64]) => f16_f16c;
        bf16([u8; 64]) => bf16_via_f32;
        f32([u8; 64]) => kernels::f32_row;
        f64([u8; 64]) => kernels::f64_row;
        pair_f16([u8; 32]) => pair_f16_f16c;
        pair_bf16([u8; 32]) => |alu, x, y, row, e| kernels::pair_row(alu, fp::bf16_to_f32, x, y, row, e);
    }

    /// `out[b] = w[idx[b]]` for the 64 bytes (every `idx[b]` < 64): a gather of any lane width
    /// with AVX2. `vpshufb` picks bytes only within a 16-byte lane, so each of the four 16-byte
    /// chunks of `w` is broadcast to both lanes of a register, shuffled by the low four bits of
    /// the indices, and the four results are blended by the indices' chunk number (bits 5:4):
    /// 4 shuffles and 3 blends per 32 output bytes instead of 8 to 32 scalar moves followed by
    /// a store-forwarding stall when the kernel loads the vector.
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    #[inline]
    fn permute64(w: &[u8; 64], idx: &[u8; 64], out: &mut [u8; 64]) {
        // SAFETY: each load reads 32 bytes starting at byte 0 or 32 of a 64-byte array, and
        // `_mm256_loadu_si256` has no alignment requirement.
        let (w0, w1) =
            unsafe { (_mm256_loadu_si256(w.as_ptr().cast()), _mm256_loadu_si256(w[32..].as_ptr().cast())) };
        let chunks = [
            _mm256_permute2x128_si256::<0x00>(w0, w0),
            _mm256_permute2x128_si256::<0x11>(w0, w0),
            _mm256_permute2x128_si256::<0x00>(w1, w1),
            _mm256_permute2x128_si256::<0x11>(w1, w1),
        ];
        for half in 0..2 {
            // SAFETY: reads bytes 32·half .. 32·half + 32 of a 64-byte array, unaligned allowed.
            let ix = unsafe { _mm256_loadu_si256(idx[32 * half..].as_ptr().cast()) };
            let low = _mm256_and_si256(ix, _mm256_set1_epi8(0x0F));
            let chunk = _mm256_and_si256(_mm256_srli_epi16::<4>(ix), _mm256_set1_epi8(3));
            let mut r = _mm256_shuffle_epi8(chunks[0], low);
            for (c, &src) in chunks.iter().enumerate().skip(1) {
                let here = _mm256_cmpeq_epi8(chunk, _mm256_set1_epi8(c as i8));
                r = _mm256_blendv_epi8(r, _mm256_shuffle_epi8(src, low), here);
            }
            // SAFETY: writes bytes 32·half .. 32·half + 32 of a 64-byte array, unaligned allowed.
            unsafe { _mm256_storeu_si256(out[32 * half..].as_mut_ptr().cast(), r) };
        }
    }

    /// Eight f16 lanes widened to f32 by F16C's `vcvtph2ps`: exact for every value (a NaN stays
    /// a NaN, quieted; the callers canonicalise NaNs).
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    #[inline]
    fn cvtph_ps8(h: &[u16; 8]) -> [f32; 8] {
        let v = _mm_setr_epi16(
            h[0] as i16,
            h[1] as i16,
            h[2] as i16,
            h[3] as i16,
            h[4] as i16,
            h[5] as i16,
            h[6] as i16,
            h[7] as i16,
        );
        let f = _mm256_castps_si256(_mm256_cvtph_ps(v));
        let w = [
            _mm256_extract_epi64::<0>(f) as u64,
            _mm256_extract_epi64::<1>(f) as u64,
            _mm256_extract_epi64::<2>(f) as u64,
            _mm256_extract_epi64::<3>(f) as u64,
        ];
        std::array::from_fn(|i| f32::from_bits((w[i / 2] >> (32 * (i % 2))) as u32))
    }

    /// Eight f32 lanes narrowed to f16 by F16C's `vcvtps2ph` with RNE (immediate 0): overflow to
    /// ±Inf, gradual underflow, a NaN quieted with its sign (the callers pass the default NaN).
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    #[inline]
    fn cvtps_ph8(v: &[f32; 8]) -> [u16; 8] {
        let f = _mm256_setr_ps(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(f);
        let w = [_mm_extract_epi64::<0>(h) as u64, _mm_extract_epi64::<1>(h) as u64];
        std::array::from_fn(|i| (w[i / 4] >> (16 * (i % 4))) as u16)
    }

    /// `N` f16 lanes of `bytes` widened to f32 with F16C (`N` a multiple of 8).
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    #[inline]
    fn widen_f16c<const N: usize>(bytes: &[u8]) -> [f32; N] {
        let h: [u16; N] = kernels::lanes(bytes);
        let mut out = [0f32; N];
        for (o, c) in out.chunks_exact_mut(8).zip(h.chunks_exact(8)) {
            let c: &[u16; 8] = c.try_into().unwrap_or(&[0; 8]);
            o.copy_from_slice(&cvtph_ps8(c));
        }
        out
    }

    /// The f16 row kernel with F16C conversions: the arithmetic modes widen x, y and z with
    /// `vcvtph2ps`, take the same round-to-odd f32 route as [`kernels::f16_row`] (see
    /// [`crate::fp`]), replace a NaN by the default NaN (0x7FC0_0000, which narrows to 0x7E00)
    /// and narrow with `vcvtps2ph` (RNE): the correctly rounded f16 result, like the portable
    /// narrowing's. Select, min and max work on the bits and need no conversion.
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    #[inline]
    fn f16_f16c(alu: AluMode, xb: &[u8; 64], yb: &[u8; 64], row: &mut [u8; 64], enable: u32) {
        if matches!(alu, AluMode::Select | AluMode::Min | AluMode::Max) {
            return kernels::f16_row(alu, xb, yb, row, enable);
        }
        let (x, y, z): ([f32; 32], [f32; 32], [f32; 32]) = (widen_f16c(xb), widen_f16c(yb), widen_f16c(row));
        let mut r = [0f32; 32];
        match alu {
            AluMode::Fma => (0..32).for_each(|i| r[i] = fp::add_round_to_odd_f32(x[i] * y[i], z[i])),
            AluMode::Fms => (0..32).for_each(|i| r[i] = fp::add_round_to_odd_f32(-x[i] * y[i], z[i])),
            AluMode::Mul => (0..32).for_each(|i| r[i] = x[i] * y[i]),
            AluMode::AddX => (0..32).for_each(|i| r[i] = fp::add_round_to_odd_f32(x[i], z[i])),
            _ => (0..32).for_each(|i| r[i] = fp::add_round_to_odd_f32(y[i], z[i])),
        }
        for v in &mut r {
            *v = f32::from_bits(fp::canon_f32(*v));
        }
        let mut o = [0u16; 32];
        for (o, c) in o.chunks_exact_mut(8).zip(r.chunks_exact(8)) {
            let c: &[f32; 8] = c.try_into().unwrap_or(&[0.0; 8]);
            o.copy_from_slice(&cvtps_ph8(c));
        }
        let old: [u16; 32] = kernels::lanes(row);
        kernels::blend_store(row, &old, &o, enable);
    }

    /// The bf16 row kernel with the hardware's f32 arithmetic: the arithmetic modes compute
    /// `r = RN24(v)` of the exact result `v` with one f32 instruction (bf16 → f32 is exact, so
    /// `vfmadd` rounds the exact `x·y + z` once), then narrow `r` to bf16 with RNE on the bits
    /// (`(b + 0x7FFF + lsb) >> 16`, exact for subnormals, overflow and ±Inf). That equals the
    /// correctly rounded RNE8(v) unless `r` is exactly a bf16 midpoint: the midpoints are f32
    /// values and RN24 is monotonic, so `r` and `v` lie on the same side of every other one (an
    /// f32 overflow to Inf happens only above bf16's own overflow threshold). The lanes where `r`
    /// is a midpoint (low 16 bits 0x8000; about 1 in 65 536 random lanes, more with short
    /// significands) take the round-to-odd route of [`kernels::bf16_row`]. Select, min and max
    /// work on the bits.
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    #[inline]
    fn bf16_via_f32(alu: AluMode, xb: &[u8; 64], yb: &[u8; 64], row: &mut [u8; 64], enable: u32) {
        if matches!(alu, AluMode::Select | AluMode::Min | AluMode::Max) {
            return kernels::bf16_row(alu, xb, yb, row, enable);
        }
        let (x, y, z): ([u16; 32], [u16; 32], [u16; 32]) =
            (kernels::lanes(xb), kernels::lanes(yb), kernels::lanes(row));
        let f = |h: u16| f32::from_bits((h as u32) << 16);
        let mut r = [0u32; 32];
        match alu {
            AluMode::Fma => (0..32).for_each(|i| r[i] = f(x[i]).mul_add(f(y[i]), f(z[i])).to_bits()),
            AluMode::Fms => (0..32).for_each(|i| r[i] = (-f(x[i])).mul_add(f(y[i]), f(z[i])).to_bits()),
            AluMode::Mul => (0..32).for_each(|i| r[i] = (f(x[i]) * f(y[i])).to_bits()),
            AluMode::AddX => (0..32).for_each(|i| r[i] = (f(z[i]) + f(x[i])).to_bits()),
            _ => (0..32).for_each(|i| r[i] = (f(z[i]) + f(y[i])).to_bits()),
        }
        let mut o = [0u16; 32];
        let mut any_midpoint = 0u32;
        for i in 0..32 {
            let b = r[i];
            let nan = b & 0x7FFF_FFFF > 0x7F80_0000;
            o[i] = if nan { fp::BF16_NAN } else { ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) as u16 };
            any_midpoint |= (b & 0xFFFF == 0x8000) as u32;
        }
        if any_midpoint != 0 {
            for i in (0..32).filter(|&i| r[i] & 0xFFFF == 0x8000) {
                o[i] = match alu {
                    AluMode::Fma => fp::bf16_fma(x[i], y[i], z[i]),
                    AluMode::Fms => fp::bf16_fma(x[i] ^ 0x8000, y[i], z[i]),
                    AluMode::Mul => fp::bf16_mul(x[i], y[i]),
                    AluMode::AddX => fp::bf16_add(z[i], x[i]),
                    _ => fp::bf16_add(z[i], y[i]),
                };
            }
        }
        kernels::blend_store(row, &z, &o, enable);
    }

    /// The f16 → f32 pair kernel with F16C widening (NaN → the default f32 NaN, §2.3), then the
    /// f32 row kernel.
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt")]
    #[inline]
    fn pair_f16_f16c(alu: AluMode, xb: &[u8; 32], yb: &[u8; 32], row: &mut [u8; 64], enable: u32) {
        let (x, y): ([f32; 16], [f32; 16]) = (widen_f16c(xb), widen_f16c(yb));
        let (mut xc, mut yc) = ([0u32; 16], [0u32; 16]);
        for i in 0..16 {
            xc[i] = fp::canon_f32(x[i]);
            yc[i] = fp::canon_f32(y[i]);
        }
        let (x, y) = (xc, yc);
        let z: [u32; 16] = kernels::lanes(row);
        let o = kernels::f32_lanes(alu, &x, &y, &z);
        kernels::blend_store(row, &z, &o, enable);
    }
}
