//! Run-time selection of wider vector instructions for the fast model's hottest 32-lane kernels,
//! the Blackhole and Wormhole FMAs ([`crate::fp::fma32`], [`crate::fp::fma32_wh`]).
//!
//! Why: the default `x86_64` target only promises SSE2, which has no per-lane variable shifts, no
//! 32-bit `min`/`max` and no blends; [`crate::fp::fma_bh`] needs all three (the alignment shift,
//! the normalisation shift, the selects between its paths), so its SSE2 code is several times
//! longer than its AVX2 code. `cargo xtask bench --only fma` shows the difference on the machine
//! it runs on (it measures the FMA family with this selection on and off in the same run; the
//! figures are in `fastpath/sfpu/README.md`).
//!
//! How: the kernel is compiled twice from the same source, once for the baseline target and once
//! with `#[target_feature(enable = "avx2")]` (the code is the same [`crate::fp::fma_bh`], inlined
//! into both); which one runs is decided per call from [`level`], which checks the CPU once. The
//! only `unsafe` in the crate is the call of the AVX2 copies, after the check that makes it sound.
//! Both copies compute the same function by construction (one source); `tests/simd.rs` checks
//! that on random and edge triples, and every other test of the fast model runs through whichever
//! copy the machine selects. Setting [`Level::Portable`] (or the environment variable
//! `SFPU_FASTPATH_PORTABLE=1`) forces the baseline copy everywhere.

#![allow(unsafe_code, reason = "the one call of a #[target_feature] function, after detection")]

use std::sync::atomic::{AtomicU8, Ordering};

/// Which copy of the vector kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The baseline target's code (SSE2 on `x86_64`): always available.
    Portable,
    /// AVX2 code, used only when the CPU has AVX2.
    Avx2,
}

/// 0: not decided yet; otherwise `1 + Level as u8`.
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The copy of the kernels that runs: [`Level::Avx2`] when the CPU supports it, unless
/// [`set_level`] or `SFPU_FASTPATH_PORTABLE=1` chose [`Level::Portable`].
#[inline]
pub fn level() -> Level {
    match LEVEL.load(Ordering::Relaxed) {
        1 => Level::Portable,
        2 => Level::Avx2,
        _ => {
            let forced =
                std::env::var_os("SFPU_FASTPATH_PORTABLE").is_some_and(|v| v != "0" && !v.is_empty());
            let l = if !forced && avx2_available() { Level::Avx2 } else { Level::Portable };
            LEVEL.store(1 + l as u8, Ordering::Relaxed);
            l
        }
    }
}

/// Chooses the copy of the kernels (for benchmarks and tests). [`Level::Avx2`] is ignored, and
/// [`Level::Portable`] kept, on a CPU without AVX2. Returns the level now in force. Results do not
/// depend on the level; only speed does.
pub fn set_level(want: Level) -> Level {
    let l = if want == Level::Avx2 && avx2_available() { Level::Avx2 } else { Level::Portable };
    LEVEL.store(1 + l as u8, Ordering::Relaxed);
    l
}

/// Whether this CPU can run the AVX2 copy.
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

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

/// [`crate::fp::fma_wh`] over 32 lanes with AVX2 instructions, or `None` (nothing written) when
/// the CPU lacks AVX2.
#[inline]
pub fn fma32_wh_avx2(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2_available() {
            // SAFETY: as in `fma32_avx2`: the CPU supports AVX2, which was just checked.
            unsafe { x86::fma32_wh_avx2(a, b, c, out) };
            return Some(());
        }
    }
    let _ = (a, b, c, out);
    None
}

/// [`crate::fp::fma_bh`] over 32 lanes with AVX2 instructions, or `None` (nothing written) when
/// the CPU lacks AVX2.
#[inline]
pub fn fma32_avx2(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2_available() {
            // SAFETY: the only requirement of a `#[target_feature(enable = "avx2")]` function is
            // that the CPU supports AVX2, which `avx2_available` just checked.
            unsafe { x86::fma32_avx2(a, b, c, out) };
            return Some(());
        }
    }
    let _ = (a, b, c, out);
    None
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    /// The same loop as [`super::fma32_portable`], compiled for AVX2 (`fma_bh` is
    /// `#[inline(always)]`, so its body is compiled here with AVX2 enabled).
    #[target_feature(enable = "avx2")]
    pub fn fma32_avx2(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
        for i in 0..32 {
            out[i] = crate::fp::fma_bh(a[i], b[i], c[i]);
        }
    }

    /// The same for [`crate::fp::fma_wh`].
    #[target_feature(enable = "avx2")]
    pub fn fma32_wh_avx2(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
        for i in 0..32 {
            out[i] = crate::fp::fma_wh(a[i], b[i], c[i]);
        }
    }
}
