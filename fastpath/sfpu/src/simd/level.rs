//! The SIMD levels ([`Level`]): which copy of the kernels and models runs, chosen once from the
//! CPU ([`level`]) or by [`set_level`] and the `SFPU_FASTPATH_PORTABLE` / `SFPU_FASTPATH_SIMD`
//! variables, with the CPU checks that make the levels' `#[target_feature]` copies sound
//! ([`avx2_available`], [`avx512_available`], [`neon_available`]). A leaf: the kernels
//! (`simd/kernels.rs`) and the per-level copies of the models (`simd/dispatch.rs`) read it.

use std::sync::atomic::{AtomicU8, Ordering};

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
pub(crate) static LEVEL: AtomicU8 = AtomicU8::new(0);

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
